//! What happened outside the store: the answers the API gave, the handler runs under each
//! idempotency key, and what the broker and the consumers did with each message.
//!
//! The store's tables say what is true now; some invariants also need what happened on the way
//! there (did two clients with the same key get the same answer? did a consumer apply a message
//! twice?). The simulator appends to a [`History`] as it runs, and the invariant checks of
//! [`crate::invariants`] read it beside the committed tables. A `History` is part of the
//! simulation state: it is cloned when the run is rewound, hashed when the explorer dedupes
//! states, and serialized into the trace, so its records are small plain values.
//!
//! Records are never removed. A handler run is the one record that changes after it is
//! appended: it is recorded when it starts and gets its end (finished or crashed) once, later.
//! The number of records is bounded by [`HistoryConfig::records_max`]; hitting the limit is a
//! typed [`HistoryError`], never a panic or an unbounded growth.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::idempotency::IdempotencyEvent;
use crate::ids::{ConsumerName, IdempotencyKey, MessageId, Tick};
use crate::store::{FencingToken, RequestFingerprint};

/// Whether a request was the client's first send or a resend of an earlier request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestAttempt {
    /// The first send of this request by the client (a request that reuses a key with another
    /// payload, fault F7, is a first send too: it is a different request).
    First,
    /// A resend of a request the client already sent: a retry after a lost response or a
    /// timeout (F5), the second of a double submit (F6), a retry under a new key (F11).
    Duplicate,
}

/// How the API came to give an answer. It decides which answers invariant I4 compares: only
/// [`ResponseOrigin::Completed`] and [`ResponseOrigin::Replayed`] answers are the key's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseOrigin {
    /// The handler ran to its end and this is the key's answer: the idempotency layer stored it
    /// as the key's completed response (a handler failure that the failure policy stores and
    /// replays is `Completed` too). The naive twin, which stores nothing, reports every answer
    /// of its handler as `Completed`.
    Completed,
    /// The idempotency layer replayed the key's stored response without running the handler.
    Replayed,
    /// The handler ran and failed, and the failure policy released the key: the answer was not
    /// stored, and a retry runs the handler again.
    Released,
    /// The idempotency layer answered without running the handler and without reading a stored
    /// response: 400 for a missing or invalid key, 409 for a key in progress, 422 for a key
    /// reused with another fingerprint.
    Refused,
}

impl ResponseOrigin {
    /// How an answer stands after the P3 layer reports `event`, from how it stood before
    /// (`self`): the one rule that decides a response's origin, for the simulator and the
    /// tests' own shop. An answer starts `Completed` (the naive twin reports nothing but the
    /// handler's end); a replayed response makes it `Replayed`; a refusal (a bad key header, a
    /// key in progress, a lost reservation, a reused key, a stale completion) `Refused`; a
    /// released key `Released`; the handler's end and a stored response make it `Completed`,
    /// unless the layer refused it already. Reserving, taking over or forgetting a key changes
    /// nothing.
    pub fn after(self, event: &IdempotencyEvent) -> ResponseOrigin {
        match event {
            IdempotencyEvent::ResponseReplayed { .. } => ResponseOrigin::Replayed,
            IdempotencyEvent::KeyHeaderRejected { .. }
            | IdempotencyEvent::KeyInProgress { .. }
            | IdempotencyEvent::ReservationLost { .. }
            | IdempotencyEvent::FingerprintMismatch { .. }
            | IdempotencyEvent::StaleCompletionRejected { .. } => ResponseOrigin::Refused,
            IdempotencyEvent::KeyReleased { .. } => ResponseOrigin::Released,
            IdempotencyEvent::ResponseStored { .. }
            | IdempotencyEvent::HandlerCompleted { .. }
            | IdempotencyEvent::HandlerFailed { .. } => match self {
                ResponseOrigin::Refused => ResponseOrigin::Refused,
                ResponseOrigin::Completed | ResponseOrigin::Replayed | ResponseOrigin::Released => {
                    ResponseOrigin::Completed
                }
            },
            IdempotencyEvent::KeyReserved { .. }
            | IdempotencyEvent::KeyTakenOver { .. }
            | IdempotencyEvent::KeyExpired { .. } => self,
        }
    }

    /// Whether the answer is the key's answer, which every completed request under the key
    /// must get (invariant I4): `Completed` and `Replayed`.
    pub(crate) fn is_answer_of_the_key(self) -> bool {
        match self {
            ResponseOrigin::Completed | ResponseOrigin::Replayed => true,
            ResponseOrigin::Released | ResponseOrigin::Refused => false,
        }
    }
}

/// One answer the API gave a client. A lost response (F5) is recorded too: the API gave it,
/// the network lost it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ApiResponse {
    /// The request's idempotency key, if it carried a valid one.
    pub key: Option<IdempotencyKey>,
    /// The fingerprint of the request (method, path, body).
    pub fingerprint: RequestFingerprint,
    /// First send or duplicate.
    pub attempt: RequestAttempt,
    /// How the API came to give the answer.
    pub origin: ResponseOrigin,
    /// HTTP status code.
    pub status: u16,
    /// The body, byte for byte.
    pub body: String,
    /// When the API answered.
    pub answered_at: Tick,
}

/// The position of a handler run in [`History::handler_runs`]: the id that ends it later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HandlerRunId(pub(crate) usize);

impl fmt::Display for HandlerRunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "run {}", self.0)
    }
}

/// The lease an idempotency layer granted a handler run on its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct KeyLease {
    /// The token the run reserved (or took over) the key with.
    pub fencing_token: FencingToken,
    /// The end of the lease: until then no other request may run the key's handler, even if
    /// this run crashed.
    pub expires_at: Tick,
}

/// How a handler run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "ended", rename_all = "snake_case")]
pub enum HandlerRunEnd {
    /// The handler returned: it completed its key or had it released, so it holds the key no
    /// longer.
    Finished {
        /// When.
        at: Tick,
    },
    /// The handler crashed (F8): its key stays in progress until the lease ends.
    Crashed {
        /// When.
        at: Tick,
    },
}

impl HandlerRunEnd {
    /// When the run ended.
    pub(crate) fn at(self) -> Tick {
        match self {
            HandlerRunEnd::Finished { at } | HandlerRunEnd::Crashed { at } => at,
        }
    }
}

/// One run of a request's handler under an idempotency key: invariant I4 checks that no two
/// runs of one key held it at once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub(crate) struct HandlerRun {
    /// The key the handler ran under.
    pub(crate) key: IdempotencyKey,
    /// The lease the idempotency layer granted, or `None` if it granted none (the naive twin):
    /// then the run holds the key exactly while it runs.
    pub(crate) lease: Option<KeyLease>,
    /// When the handler started.
    pub(crate) started_at: Tick,
    /// How it ended, or `None` while it is still running.
    pub(crate) end: Option<HandlerRunEnd>,
}

impl HandlerRun {
    /// Until when the run held its key, or `None` if it holds it still (a run without a lease
    /// that is still running).
    ///
    /// A run with a lease holds the key until the lease expires, or until it finishes if that
    /// is earlier; a crash does not give the key back: it stays in progress until the lease
    /// expires. A run without a lease holds the key from its start to its end, crash or not.
    pub(crate) fn holds_key_until(&self) -> Option<Tick> {
        match (self.lease, self.end) {
            (Some(lease), Some(HandlerRunEnd::Finished { at })) => Some(lease.expires_at.min(at)),
            (Some(lease), Some(HandlerRunEnd::Crashed { .. }) | None) => Some(lease.expires_at),
            (None, Some(end)) => Some(end.at()),
            (None, None) => None,
        }
    }
}

/// Whether a consumer applies its effects together with an inbox row (P4) or without one (the
/// naive twin). Invariant I5 checks only effects applied with an inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InboxUse {
    /// The effect's transaction also inserted the `(message_id, consumer)` inbox row.
    WithInbox,
    /// The consumer has no inbox: it applies every delivery.
    WithoutInbox,
}

/// Something that happened to a broker message, in the order it happened. Effects and inbox
/// purges share one list so that their order is exact even within one tick.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MessageEvent {
    /// The relay handed the message to the broker (once per publish: a relay crash after
    /// publish and before marking the outbox row, F12, makes a second one).
    Published {
        /// The message.
        message_id: MessageId,
        /// When.
        published_at: Tick,
    },
    /// A consumer's transaction that applied the message's effect committed. Recorded in the
    /// same simulator step as the commit; a rolled-back effect is not recorded, and neither is
    /// a duplicate that the inbox absorbed.
    EffectCommitted {
        /// The message.
        message_id: MessageId,
        /// The consumer that applied it.
        consumer: ConsumerName,
        /// Whether the transaction inserted an inbox row too.
        inbox: InboxUse,
        /// When the transaction committed.
        committed_at: Tick,
    },
    /// A consumer acknowledged the message to the broker, which will not redeliver it.
    Acknowledged {
        /// The message.
        message_id: MessageId,
        /// The consumer that acknowledged it.
        consumer: ConsumerName,
        /// When.
        acknowledged_at: Tick,
    },
    /// Retention deleted the inbox row `(message_id, consumer)` (F10: a later duplicate is
    /// applied again). Recorded in the same simulator step as the delete's commit.
    InboxRowPurged {
        /// The message of the row.
        message_id: MessageId,
        /// The consumer of the row.
        consumer: ConsumerName,
        /// When.
        purged_at: Tick,
    },
}

impl MessageEvent {
    /// The message the event is about.
    pub(crate) fn message_id(&self) -> MessageId {
        match self {
            MessageEvent::Published { message_id, .. }
            | MessageEvent::EffectCommitted { message_id, .. }
            | MessageEvent::Acknowledged { message_id, .. }
            | MessageEvent::InboxRowPurged { message_id, .. } => *message_id,
        }
    }
}

/// The limits of a [`History`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct HistoryConfig {
    /// How many records (responses, handler runs and message events together) it may hold.
    pub(crate) records_max: usize,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig { records_max: 100_000 }
    }
}

/// Why a record could not be appended. The history is unchanged by a failed call.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum HistoryError {
    /// The history holds [`HistoryConfig::records_max`] records already.
    #[error("the history holds {records} records, the limit is {limit}")]
    Full {
        /// How many it holds.
        records: usize,
        /// The limit.
        limit: usize,
    },
    /// No handler run has this id.
    #[error("{run} was never started")]
    UnknownHandlerRun {
        /// The id given.
        run: HandlerRunId,
    },
    /// The handler run has ended already; a run ends once.
    #[error("{run} has ended already ({end:?})")]
    HandlerRunAlreadyEnded {
        /// The run.
        run: HandlerRunId,
        /// How it ended the first time.
        end: HandlerRunEnd,
    },
    /// The end given is earlier than the run's start.
    #[error("{run} started at {started_at} and cannot end at {ended_at}")]
    HandlerRunEndsBeforeItStarted {
        /// The run.
        run: HandlerRunId,
        /// When it started.
        started_at: Tick,
        /// The end given.
        ended_at: Tick,
    },
}

/// The append-only record of what happened outside the store during a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct History {
    config: HistoryConfig,
    // Each list is shared between the copies of a world (the checker copies one for each
    // transition) until a record is added to it.
    responses: Arc<Vec<ApiResponse>>,
    handler_runs: Arc<Vec<HandlerRun>>,
    message_events: Arc<Vec<MessageEvent>>,
}

impl History {
    /// An empty history with these limits.
    pub(crate) fn new(config: HistoryConfig) -> History {
        History {
            config,
            responses: Arc::default(),
            handler_runs: Arc::default(),
            message_events: Arc::default(),
        }
    }

    /// Its limits.
    pub(crate) fn config(&self) -> HistoryConfig {
        self.config
    }

    /// How many records it holds, of every kind.
    pub(crate) fn len(&self) -> usize {
        self.responses
            .len()
            .saturating_add(self.handler_runs.len())
            .saturating_add(self.message_events.len())
    }

    /// Every answer the API gave, in the order it gave them.
    pub(crate) fn responses(&self) -> &[ApiResponse] {
        &self.responses
    }

    /// Every handler run under a key, in the order they started; a run's
    /// [`HandlerRunId`] is its position here.
    pub(crate) fn handler_runs(&self) -> &[HandlerRun] {
        &self.handler_runs
    }

    /// Every message event, in the order they happened.
    pub fn message_events(&self) -> &[MessageEvent] {
        &self.message_events
    }

    /// Appends an answer of the API; returns its position in [`History::responses`].
    pub fn record_response(&mut self, response: ApiResponse) -> Result<usize, HistoryError> {
        self.check_room()?;
        Arc::make_mut(&mut self.responses).push(response);
        Ok(self.responses.len() - 1)
    }

    /// Appends a handler run that starts now under `key`, still running.
    pub fn record_handler_run_started(
        &mut self,
        key: IdempotencyKey,
        lease: Option<KeyLease>,
        started_at: Tick,
    ) -> Result<HandlerRunId, HistoryError> {
        self.check_room()?;
        Arc::make_mut(&mut self.handler_runs).push(HandlerRun {
            key,
            lease,
            started_at,
            end: None,
        });
        Ok(HandlerRunId(self.handler_runs.len() - 1))
    }

    /// Records how a running handler run ended.
    pub fn record_handler_run_ended(
        &mut self,
        run: HandlerRunId,
        end: HandlerRunEnd,
    ) -> Result<(), HistoryError> {
        let record = Arc::make_mut(&mut self.handler_runs)
            .get_mut(run.0)
            .ok_or(HistoryError::UnknownHandlerRun { run })?;
        if let Some(first_end) = record.end {
            return Err(HistoryError::HandlerRunAlreadyEnded { run, end: first_end });
        }
        if end.at() < record.started_at {
            return Err(HistoryError::HandlerRunEndsBeforeItStarted {
                run,
                started_at: record.started_at,
                ended_at: end.at(),
            });
        }
        record.end = Some(end);
        Ok(())
    }

    /// Appends a message event; returns its position in [`History::message_events`].
    pub fn record_message_event(&mut self, event: MessageEvent) -> Result<usize, HistoryError> {
        self.check_room()?;
        Arc::make_mut(&mut self.message_events).push(event);
        Ok(self.message_events.len() - 1)
    }

    fn check_room(&self) -> Result<(), HistoryError> {
        let records = self.len();
        if records >= self.config.records_max {
            return Err(HistoryError::Full { records, limit: self.config.records_max });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    fn key() -> IdempotencyKey {
        IdempotencyKey(Uuid::from_u128(1))
    }

    fn published(message: u128, tick: u64) -> MessageEvent {
        MessageEvent::Published {
            message_id: MessageId(Uuid::from_u128(message)),
            published_at: Tick(tick),
        }
    }

    /// The layer's events in the order a request meets them, folded from `Completed`.
    fn origin_of(events: &[IdempotencyEvent]) -> ResponseOrigin {
        events.iter().fold(ResponseOrigin::Completed, |origin, event| origin.after(event))
    }

    #[test]
    fn a_responses_origin_follows_the_layers_events() {
        let token = FencingToken(1);
        let reserved = IdempotencyEvent::KeyReserved {
            key: key(),
            fencing_token: token,
            lease_expires_at: Tick(5),
        };
        let completed = IdempotencyEvent::HandlerCompleted { status: 201 };
        let failed = IdempotencyEvent::HandlerFailed { status: 500, detail: "boom".to_owned() };
        let stored =
            IdempotencyEvent::ResponseStored { key: key(), fencing_token: token, status: 201 };
        let released = IdempotencyEvent::KeyReleased { key: key(), fencing_token: token };
        let replayed = IdempotencyEvent::ResponseReplayed { key: key(), status: 201 };
        let in_progress = IdempotencyEvent::KeyInProgress { key: key(), lease_expires_at: Tick(5) };
        let stale = IdempotencyEvent::StaleCompletionRejected {
            key: key(),
            fencing_token: token,
            found: crate::idempotency::FoundKey::Absent,
        };
        // The naive twin: the handler's end alone.
        assert_eq!(origin_of(std::slice::from_ref(&completed)), ResponseOrigin::Completed);
        assert_eq!(origin_of(std::slice::from_ref(&failed)), ResponseOrigin::Completed);
        // The layer: reserved, handler completed, response stored.
        assert_eq!(
            origin_of(&[reserved.clone(), completed.clone(), stored]),
            ResponseOrigin::Completed
        );
        // HandlerCompleted does not undo a refusal, nor does it stand for the key's answer
        // once the completion turned out stale.
        assert_eq!(origin_of(&[in_progress, completed.clone()]), ResponseOrigin::Refused);
        assert_eq!(origin_of(&[reserved.clone(), completed, stale]), ResponseOrigin::Refused);
        assert_eq!(origin_of(&[reserved, failed, released]), ResponseOrigin::Released);
        assert_eq!(origin_of(&[replayed]), ResponseOrigin::Replayed);
    }

    #[test]
    fn records_keep_their_order_and_positions() {
        let mut history = History::default();
        assert_eq!(history.record_message_event(published(1, 3)), Ok(0));
        assert_eq!(history.record_message_event(published(2, 3)), Ok(1));
        let run = history.record_handler_run_started(key(), None, Tick(4)).unwrap();
        assert_eq!(run, HandlerRunId(0));
        assert_eq!(history.len(), 3);
        assert_eq!(history.message_events(), &[published(1, 3), published(2, 3)]);
        assert_eq!(history.handler_runs()[0].end, None);
    }

    #[test]
    fn the_limit_is_a_typed_error_and_changes_nothing() {
        let mut history = History::new(HistoryConfig { records_max: 2 });
        history.record_message_event(published(1, 1)).unwrap();
        history.record_handler_run_started(key(), None, Tick(1)).unwrap();
        let before = history.clone();
        assert_eq!(
            history.record_message_event(published(2, 2)),
            Err(HistoryError::Full { records: 2, limit: 2 })
        );
        assert_eq!(
            history.record_handler_run_started(key(), None, Tick(2)),
            Err(HistoryError::Full { records: 2, limit: 2 })
        );
        assert_eq!(history, before);
        // Ending a run appends nothing, so it still works at the limit.
        assert_eq!(
            history
                .record_handler_run_ended(HandlerRunId(0), HandlerRunEnd::Finished { at: Tick(2) }),
            Ok(())
        );
    }

    #[test]
    fn a_run_ends_once_and_never_before_it_started() {
        let mut history = History::default();
        let run = history.record_handler_run_started(key(), None, Tick(5)).unwrap();
        assert_eq!(
            history.record_handler_run_ended(run, HandlerRunEnd::Crashed { at: Tick(4) }),
            Err(HistoryError::HandlerRunEndsBeforeItStarted {
                run,
                started_at: Tick(5),
                ended_at: Tick(4)
            })
        );
        history.record_handler_run_ended(run, HandlerRunEnd::Crashed { at: Tick(6) }).unwrap();
        assert_eq!(
            history.record_handler_run_ended(run, HandlerRunEnd::Finished { at: Tick(7) }),
            Err(HistoryError::HandlerRunAlreadyEnded {
                run,
                end: HandlerRunEnd::Crashed { at: Tick(6) }
            })
        );
        assert_eq!(
            history
                .record_handler_run_ended(HandlerRunId(9), HandlerRunEnd::Finished { at: Tick(7) }),
            Err(HistoryError::UnknownHandlerRun { run: HandlerRunId(9) })
        );
    }

    #[test]
    fn a_run_holds_its_key_until_its_lease_ends_or_it_finishes() {
        let lease = KeyLease { fencing_token: FencingToken(1), expires_at: Tick(10) };
        let run = |lease, end| HandlerRun { key: key(), lease, started_at: Tick(2), end };
        let finished = |at| Some(HandlerRunEnd::Finished { at: Tick(at) });
        let crashed = |at| Some(HandlerRunEnd::Crashed { at: Tick(at) });

        assert_eq!(run(Some(lease), None).holds_key_until(), Some(Tick(10)));
        assert_eq!(run(Some(lease), finished(4)).holds_key_until(), Some(Tick(4)));
        assert_eq!(run(Some(lease), finished(12)).holds_key_until(), Some(Tick(10)));
        assert_eq!(run(Some(lease), crashed(4)).holds_key_until(), Some(Tick(10)));
        assert_eq!(run(None, None).holds_key_until(), None);
        assert_eq!(run(None, finished(4)).holds_key_until(), Some(Tick(4)));
        assert_eq!(run(None, crashed(4)).holds_key_until(), Some(Tick(4)));
    }

    #[test]
    fn a_history_round_trips_through_json() {
        let mut history = History::default();
        history.record_message_event(published(1, 3)).unwrap();
        history
            .record_handler_run_started(
                key(),
                Some(KeyLease { fencing_token: FencingToken(2), expires_at: Tick(9) }),
                Tick(4),
            )
            .unwrap();
        let json = serde_json::to_string(&history).unwrap();
        assert_eq!(serde_json::from_str::<History>(&json).unwrap(), history);
    }
}
