//! Where one request is in the idempotent layer ([`LayerState`]), what follows its
//! reservation ([`AfterReservation`]) and what its completion writes ([`Completion`]).

use crate::idempotency::request::HttpResponse;
use crate::ids::{IdempotencyKey, TxId};
use crate::store::{FencingToken, IdempotencyKeyRow};

/// Where one request is in the layer. Each state carries what its statement needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LayerState {
    /// The header is parsed next.
    ParseKeyHeader,
    /// The reservation transaction begins next.
    BeginReservation {
        /// The parsed key.
        key: IdempotencyKey,
    },
    /// The key's row is read next.
    SelectKey {
        /// The key.
        key: IdempotencyKey,
        /// The reservation transaction.
        tx: TxId,
    },
    /// The key's row, whose retention is over, is deleted next; the insert follows.
    DeleteExpiredKey {
        /// The key.
        key: IdempotencyKey,
        /// The reservation transaction.
        tx: TxId,
        /// The row as it was read; it is deleted only if it is still this row.
        expired: IdempotencyKeyRow,
    },
    /// The key is reserved next: `INSERT ... ON CONFLICT DO NOTHING`.
    InsertKey {
        /// The key.
        key: IdempotencyKey,
        /// The reservation transaction.
        tx: TxId,
        /// The token of the row this insert replaces, if one was deleted: the new token must
        /// be larger.
        replaced_fencing_token: Option<FencingToken>,
    },
    /// The key, whose lease ended, is taken over next: an `UPDATE` fenced by the old token.
    TakeOverKey {
        /// The key.
        key: IdempotencyKey,
        /// The reservation transaction.
        tx: TxId,
        /// The token of the request whose lease ended.
        previous_fencing_token: FencingToken,
    },
    /// The reservation transaction commits next.
    CommitReservation {
        /// The key.
        key: IdempotencyKey,
        /// The reservation transaction.
        tx: TxId,
        /// What follows the commit.
        then: AfterReservation,
    },
    /// The business handler's steps run.
    RunHandler {
        /// The key this request holds.
        key: IdempotencyKey,
        /// The token it holds it with.
        fencing_token: FencingToken,
    },
    /// The completion transaction begins next.
    BeginCompletion {
        /// The key.
        key: IdempotencyKey,
        /// The token this request holds the key with.
        fencing_token: FencingToken,
        /// What the completion writes.
        completion: Completion,
    },
    /// The completion's fenced write runs next.
    WriteCompletion {
        /// The key.
        key: IdempotencyKey,
        /// The token this request holds the key with.
        fencing_token: FencingToken,
        /// The completion transaction.
        tx: TxId,
        /// What it writes.
        completion: Completion,
    },
    /// The completion's fenced write changed nothing: the key is read next, to say what holds
    /// it now.
    ReadStaleKey {
        /// The key.
        key: IdempotencyKey,
        /// The token this request held the key with.
        fencing_token: FencingToken,
        /// The completion transaction.
        tx: TxId,
    },
    /// The completion transaction commits next, then the request answers.
    CommitCompletion {
        /// The completion transaction.
        tx: TxId,
        /// The answer.
        response: HttpResponse,
    },
    /// The request has answered (or failed).
    Done,
}

/// What follows the commit of the reservation transaction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AfterReservation {
    /// The request answers without running the handler (replay, 409, 422).
    Answer(HttpResponse),
    /// This request holds the key: the handler runs.
    RunHandler {
        /// The token it holds the key with.
        fencing_token: FencingToken,
    },
}

/// What the completion writes to the key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Completion {
    /// Store the response, to be replayed to every retry.
    StoreResponse(HttpResponse),
    /// Delete the key (a handler failure under [`FailurePolicy::ReleaseKey`]), then answer the
    /// failure response.
    ReleaseKey(HttpResponse),
}

impl Completion {}
