//! [`SimEvent`], what happened in a step beyond the rows it changed: the patterns' typed
//! events, the actors' sends, crashes and deliveries, and the faults that fired.

use serde::{Deserialize, Serialize};

use crate::history::{HandlerRunId, InboxUse, RequestAttempt, ResponseOrigin};
use crate::idempotency::IdempotencyEvent;
use crate::ids::{IdempotencyKey, MessageId, Tick, TxId};
use crate::inbox::{ConsumeOutcome, ConsumerCrashed, InboxRowsPurged};
use crate::outbox::RelayCrashed;
use crate::sim::action::{AttemptId, EntryId, InstanceId, RequestIndex};
use crate::stock::StockReservationEvent;
use crate::store::RowLockWait;

/// Something that happened in a step, beyond the rows it changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SimEvent {
    /// A client sent a request.
    RequestSent {
        /// The request.
        request: RequestIndex,
        /// The send.
        attempt: AttemptId,
        /// First or duplicate.
        kind: RequestAttempt,
        /// The key it carries.
        key: IdempotencyKey,
        /// `POST /orders`, ...
        method_and_path: String,
    },
    /// The P3 layer did something.
    Idempotency {
        /// What.
        event: IdempotencyEvent,
    },
    /// A handler run under a key started (recorded in the history).
    HandlerRunStarted {
        /// Its id in the history.
        run: HandlerRunId,
    },
    /// The API answered (recorded in the history).
    Answered {
        /// The send answered.
        attempt: AttemptId,
        /// The status.
        status: u16,
        /// How the answer came about.
        origin: ResponseOrigin,
        /// The body.
        body: String,
    },
    /// The API failed without an answer (a store limit); the client will time out.
    ApiFailed {
        /// The send.
        attempt: AttemptId,
        /// What failed.
        error: String,
    },
    /// The API crashed mid-request (F8).
    ApiCrashed {
        /// The send.
        attempt: AttemptId,
        /// The transaction rolled back, if one was open.
        rolled_back: Option<TxId>,
    },
    /// A statement must wait for another transaction's row lock.
    Blocked {
        /// Who waits for whom.
        wait: RowLockWait,
    },
    /// The network brought an answer to its client.
    ResponseDelivered {
        /// The send.
        attempt: AttemptId,
        /// The status.
        status: u16,
    },
    /// The client no longer waited for this answer.
    LateResponseIgnored {
        /// The send.
        attempt: AttemptId,
    },
    /// The network lost an answer (F5).
    ResponseLost {
        /// The send.
        attempt: AttemptId,
    },
    /// The client's timeout fired.
    ClientTimedOut {
        /// The request.
        request: RequestIndex,
    },
    /// The client will retry at `retry_at`.
    RetryScheduled {
        /// The request.
        request: RequestIndex,
        /// When.
        retry_at: Tick,
    },
    /// The client has its final answer.
    ClientAnswered {
        /// The request.
        request: RequestIndex,
        /// The status.
        status: u16,
    },
    /// The client ran out of attempts.
    ClientGaveUp {
        /// The request.
        request: RequestIndex,
    },
    /// The relay handed a message to the broker.
    Published {
        /// The message.
        message_id: MessageId,
        /// The queue entry made.
        entry: EntryId,
    },
    /// The relay finished its run.
    RelayFinished {
        /// The messages it published and marked.
        published: Vec<MessageId>,
    },
    /// The relay failed.
    RelayFailed {
        /// What failed.
        error: String,
    },
    /// The relay crashed (F12).
    RelayCrashed {
        /// What it left behind.
        crashed: RelayCrashed,
    },
    /// The broker delivered a copy to an instance.
    Delivered {
        /// The copy.
        entry: EntryId,
        /// The message.
        message_id: MessageId,
        /// The instance.
        instance: InstanceId,
        /// Which delivery of the message, from 1.
        delivery_number: u32,
    },
    /// The broker queued another copy of a message (F1, F10).
    MessageDuplicated {
        /// The original copy.
        entry: EntryId,
        /// The new copy.
        copy: EntryId,
        /// The message.
        message_id: MessageId,
    },
    /// The broker held a copy back (F9).
    MessageHeld {
        /// The copy.
        entry: EntryId,
    },
    /// A held or late copy became deliverable.
    MessageReleased {
        /// The copy.
        entry: EntryId,
    },
    /// The broker gave up on a copy.
    DeadLettered {
        /// The copy.
        entry: EntryId,
        /// The message.
        message_id: MessageId,
    },
    /// A consumer's transaction committed the message's effect (recorded in the history).
    EffectCommitted {
        /// The message.
        message_id: MessageId,
        /// The instance.
        instance: InstanceId,
        /// With or without an inbox row.
        inbox: InboxUse,
    },
    /// A consumer finished a delivery and acknowledged it.
    MessageConsumed {
        /// The instance.
        instance: InstanceId,
        /// The outcome.
        outcome: ConsumeOutcome<StockReservationEvent>,
    },
    /// A consumer's delivery failed; it is not acknowledged, so the broker redelivers it.
    ConsumerFailed {
        /// The instance.
        instance: InstanceId,
        /// What failed.
        error: String,
    },
    /// A consumer instance crashed (F2, F3).
    ConsumerCrashed {
        /// The instance.
        instance: InstanceId,
        /// What the crash did.
        crashed: ConsumerCrashed,
    },
    /// The retention job purged inbox rows.
    InboxRowsPurged {
        /// What it purged.
        purged: InboxRowsPurged,
    },
    /// The retention job purged idempotency keys.
    KeysPurged {
        /// The keys.
        keys: Vec<IdempotencyKey>,
    },
    /// The retention job failed.
    RetentionFailed {
        /// What failed.
        error: String,
    },
    /// Transactions waited for each other's row locks in a cycle; the youngest was aborted
    /// (rolled back), as PostgreSQL does.
    DeadlockDetected {
        /// The transactions of the cycle, each waiting for the next.
        cycle: Vec<TxId>,
        /// The one rolled back.
        victim: TxId,
    },
    /// The clock moved.
    ClockAdvanced {
        /// From.
        from: Tick,
        /// To.
        to: Tick,
    },
}

/// One event in a line.
pub fn describe_event(event: &SimEvent) -> String {
    match event {
        SimEvent::Answered { attempt, status, origin, body } => {
            format!("answered {attempt}: {status} ({origin:?}) {body}")
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}
