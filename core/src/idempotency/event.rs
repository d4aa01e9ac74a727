//! What the idempotency layer (and its naive twin) did, as typed events for the trace.
//!
//! Events are past tense and carry the data a learner needs to follow the run: which key, which
//! fencing token, until when a lease holds. The layer collects them as it steps; the caller
//! drains them (`take_events`) after each step, so each event lands on the step that caused it.

use serde::{Deserialize, Serialize};

use crate::idempotency::key::KeyHeaderError;
use crate::ids::{IdempotencyKey, Tick};
use crate::store::{FencingToken, RequestFingerprint};

/// One thing the layer did.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "event")]
pub enum IdempotencyEvent {
    /// The `Idempotency-Key` header was missing or invalid: answered 400.
    KeyHeaderRejected {
        /// What was wrong.
        error: KeyHeaderError,
    },
    /// The key was found but its retention window is over: it is treated as absent, and this
    /// request runs the handler as if it were the first (fault F10).
    KeyExpired {
        /// The key.
        key: IdempotencyKey,
        /// When it was first reserved.
        created_at: Tick,
    },
    /// The key was absent and this request reserved it: its handler runs.
    KeyReserved {
        /// The key.
        key: IdempotencyKey,
        /// The token this request completes the key with.
        fencing_token: FencingToken,
        /// Until when the reservation holds.
        lease_expires_at: Tick,
    },
    /// The key was in progress but its lease had ended (its request crashed or stalled): this
    /// request took it over with a larger token, and its handler runs again.
    KeyTakenOver {
        /// The key.
        key: IdempotencyKey,
        /// The token of the request whose lease ended.
        previous_fencing_token: FencingToken,
        /// The new, larger token of this request.
        fencing_token: FencingToken,
        /// Until when the new lease holds.
        lease_expires_at: Tick,
    },
    /// The key was completed: its stored response was replayed, and the handler did not run.
    ResponseReplayed {
        /// The key.
        key: IdempotencyKey,
        /// The replayed status.
        status: u16,
    },
    /// The key is in progress and its lease holds: answered 409.
    KeyInProgress {
        /// The key.
        key: IdempotencyKey,
        /// Until when the lease holds.
        lease_expires_at: Tick,
    },
    /// Another request reserved or took over the key between this request's read and its
    /// write (the atomic `INSERT ... ON CONFLICT DO NOTHING` or the fenced takeover lost):
    /// answered 409.
    ReservationLost {
        /// The key.
        key: IdempotencyKey,
    },
    /// The key was first used with a request of another fingerprint: answered 422.
    FingerprintMismatch {
        /// The key.
        key: IdempotencyKey,
        /// The fingerprint stored with the key.
        stored: RequestFingerprint,
        /// This request's fingerprint.
        received: RequestFingerprint,
    },
    /// The handler answered without failing (any status below 500).
    HandlerCompleted {
        /// Its status.
        status: u16,
    },
    /// The handler failed: it answered 5xx or returned a typed failure (answered 500).
    HandlerFailed {
        /// The status of the failure response.
        status: u16,
        /// What failed, as the handler said it.
        detail: String,
    },
    /// The key was completed with the handler's response, which every retry will replay.
    ResponseStored {
        /// The key.
        key: IdempotencyKey,
        /// The token the completion was checked against.
        fencing_token: FencingToken,
        /// The stored status.
        status: u16,
    },
    /// After a handler failure, the key was deleted (failure policy `ReleaseKey`): a retry
    /// runs the handler again.
    KeyReleased {
        /// The key.
        key: IdempotencyKey,
        /// The token the release was checked against.
        fencing_token: FencingToken,
    },
    /// This request tried to complete or release the key with a token that no longer holds it:
    /// its lease ended and the key was taken over, forgotten or released. Nothing was written;
    /// the newer request's state is kept, and this request is answered 409.
    StaleCompletionRejected {
        /// The key.
        key: IdempotencyKey,
        /// This request's (old) token.
        fencing_token: FencingToken,
        /// What the key was found in.
        found: FoundKey,
    },
}

/// What a stale completion found in the key's row instead of its own lease.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "found", rename_all = "snake_case")]
pub enum FoundKey {
    /// The row is gone (released, or forgotten and purged).
    Absent,
    /// Another request holds the key.
    InProgress {
        /// That request's token.
        fencing_token: FencingToken,
    },
    /// The key is completed, by the request that took it over.
    Completed {
        /// The stored status.
        status: u16,
    },
}
