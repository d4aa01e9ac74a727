//! P4, the inbox consumer (the seed's `ReserveStockConsumer`), beside its naive twin, and the
//! purge that forgets inbox rows after the retention window.
//!
//! The broker delivers at least once, so a consumer sees some messages twice (a duplicate, a
//! redelivery after a crash, two instances racing on one message). The idempotent consumer
//! inserts `(message_id, consumer)` into `inbox` in the same transaction as the business effect:
//! a second delivery hits the unique constraint, rolls back and is acknowledged with no effect
//! ([`ConsumeOutcome::DuplicateIgnored`]). The naive twin has no inbox and applies the effect on
//! every delivery.
//!
//! The inbox row is written with a plain `INSERT` whose unique violation is caught, as the seed
//! does (`catch (DbUpdateException ex) when (ex.IsUniqueViolation())`), rather than with
//! `ON CONFLICT DO NOTHING`: in PostgreSQL a unique violation aborts the transaction, so the
//! duplicate path can only roll back, which is what the seed's `await using tx` does on
//! `return`. While another instance holds the uncommitted row, the insert waits for it
//! ([`Step::Blocked`]), then sees the committed row and ignores the message, or, if the other
//! instance crashed, inserts the row and applies the effect itself.
//!
//! [`ConsumeMessage`] is a step machine ([`Steps`]): one step is one statement of the seed's
//! `Consume` (`BEGIN`, `INSERT INTO inbox`, the effect's statements, `COMMIT`) plus the broker's
//! `ACK`, so that the simulator can interleave two instances (F4) and crash one between any two
//! statements: with its transaction open (F3, [`ConsumerCrashed::BeforeCommit`]) or after the
//! commit, before the ack (F2, [`ConsumerCrashed::AfterCommitBeforeAck`]). The business effect
//! is any [`EffectSteps`] (the stock reservation of P1, for instance); the consumer does not know
//! what it does.
//!
//! [`PurgeExpiredInboxRows`] deletes the rows older than [`ConsumerConfig::retention_ticks`];
//! a duplicate that arrives after that is processed again (F10), and the lab shows it.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{ConsumerName, MessageId, Tick, TxId};
use crate::sql::statements::{self, OnConflict};
use crate::step::{EffectSteps, RunError, Step, Steps, run_to_completion};
use crate::store::{InboxRow, MessagePayload, Store, StoreError};

/// Which of the two consumers runs: the seed's naive one or the seed's inbox consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ConsumerImplementation {
    /// No inbox: every delivery runs the effect in a transaction of its own, so a duplicate
    /// applies it again.
    Naive,
    /// The seed's `ReserveStockConsumer`: the inbox row and the effect commit together, and a
    /// delivery whose inbox row exists is acknowledged without effect.
    Idempotent,
}

/// How a consumer is set up.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConsumerConfig {
    /// The logical consumer (`inbox.consumer`). Instances of one consumer share the name and
    /// therefore the inbox rows; two different consumers each process a message once.
    pub consumer: ConsumerName,
    /// Naive or idempotent.
    pub implementation: ConsumerImplementation,
    /// How long an inbox row is kept: [`PurgeExpiredInboxRows`] deletes the rows whose
    /// `processed_at` lies more than this many ticks before the purge.
    pub retention_ticks: u64,
}

impl ConsumerConfig {
    /// The first tick at which the retention job deletes an inbox row processed at
    /// `processed_at`: its `DELETE ... WHERE processed_at < now - retention_ticks` matches the
    /// row from `processed_at + retention_ticks + 1` on. The one retention rule of the inbox,
    /// for the simulator's deadlines and the page's clock as for the purge.
    pub(crate) fn inbox_row_expires_at(&self, processed_at: Tick) -> Tick {
        processed_at.plus(self.retention_ticks).plus(1)
    }
}

/// A message as the broker delivers it: the id the broker carries (which a misbehaving
/// producer may leave out) and what the message says.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Envelope {
    /// The broker's message id (MassTransit's `context.MessageId`), `None` if the producer sent
    /// none. The inbox deduplicates on it.
    pub message_id: Option<MessageId>,
    /// What the message says.
    pub payload: MessagePayload,
}

/// How a delivery ended once the consumer reached `ACK`: in both cases the caller acknowledges
/// the delivery and the broker forgets it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConsumeOutcome<T> {
    /// The effect ran and committed (with its inbox row, for the idempotent consumer).
    MessageProcessed {
        /// The message's id; the naive consumer accepts messages without one.
        message_id: Option<MessageId>,
        /// The transaction that committed the effect.
        tx: TxId,
        /// What the effect reported.
        effect_output: T,
    },
    /// The inbox row already existed: the message was processed before (by this or another
    /// instance), so nothing was applied; the transaction was rolled back.
    DuplicateIgnored {
        /// The message's id.
        message_id: MessageId,
        /// The transaction that found the duplicate and was rolled back.
        tx: TxId,
    },
}

impl<T> ConsumeOutcome<T> {
    /// The message's id, if it had one.
    pub(crate) fn message_id(&self) -> Option<MessageId> {
        match self {
            ConsumeOutcome::MessageProcessed { message_id, .. } => *message_id,
            ConsumeOutcome::DuplicateIgnored { message_id, .. } => Some(*message_id),
        }
    }

    /// Whether this delivery applied the effect.
    pub fn applied_effect(&self) -> bool {
        matches!(self, ConsumeOutcome::MessageProcessed { .. })
    }
}

/// Why a delivery failed. The consumer has rolled back its transaction and not acknowledged the
/// delivery: nothing of it is left in the store.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum InboxError<E> {
    /// The message carries no id, so the inbox cannot deduplicate it (the seed's
    /// `InvalidOperationException`, "no MessageId"). Nothing was written; redelivering the same
    /// message cannot help, so the broker should dead-letter it.
    #[error("consumer {consumer} got a message without a MessageId; nothing was written")]
    MissingMessageId {
        /// The consumer that rejected it.
        consumer: ConsumerName,
        /// The payload of the rejected message, for the dead-letter queue.
        payload: MessagePayload,
    },
    /// A statement of the consumer itself failed (a store limit, a transaction that vanished).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The business effect failed.
    #[error("the effect failed: {0}")]
    Effect(E),
    /// The consumer was stepped after it had finished: a bug of the caller.
    #[error("consumer {consumer} was stepped after it had finished")]
    AlreadyEnded {
        /// The consumer.
        consumer: ConsumerName,
    },
}

impl<E> InboxError<E> {
    /// Whether a redelivery of the same message may succeed. A message without an id never
    /// will; anything else (a store limit, an effect that ran too early, such as a payment
    /// before its order) may.
    #[cfg(test)]
    pub(crate) fn is_retryable(&self) -> bool {
        !matches!(self, InboxError::MissingMessageId { .. })
    }
}

/// Where a [`ConsumeMessage`] is; each state names the statement its next step runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConsumeState {
    /// Read the message id (idempotent only: fail if there is none), then `BEGIN`.
    Begin,
    /// `INSERT INTO inbox (message_id, consumer, processed_at)` (idempotent only).
    InsertInboxRow {
        /// The open transaction.
        tx: TxId,
        /// The message's id.
        message_id: MessageId,
    },
    /// The effect's statements, in the open transaction.
    Effect {
        /// The open transaction.
        tx: TxId,
    },
    /// `COMMIT`: the inbox row and the effect become visible together.
    Commit {
        /// The open transaction.
        tx: TxId,
    },
    /// `ACK`: the transaction has ended (committed, or rolled back on a duplicate); the broker
    /// is told to forget the delivery.
    Acknowledge,
    /// Acknowledged, or failed.
    Ended,
}

/// What a crash of a consumer instance did, by where it was. In every case but
/// [`ConsumerCrashed::AfterEnd`] the delivery was not acknowledged, so the broker redelivers it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConsumerCrashed {
    /// Crashed before `BEGIN`: nothing was written.
    BeforeBegin,
    /// Crashed with its transaction open (F3): the transaction was rolled back, so neither the
    /// inbox row nor the effect exists.
    BeforeCommit {
        /// The transaction rolled back.
        tx: TxId,
    },
    /// Crashed after `COMMIT` (or after finding a duplicate), before `ACK` (F2): what was
    /// committed stays, and the redelivery meets the inbox row (the naive twin applies the
    /// effect again).
    AfterCommitBeforeAck {
        /// Whether this delivery had applied the effect (false if it had found a duplicate).
        applied_effect: bool,
    },
    /// The delivery had already ended: acknowledged, or failed with an error that the caller
    /// has handled (see `InboxError::is_retryable`). The crash changes nothing.
    AfterEnd,
}

impl ConsumerCrashed {
    /// Whether the broker must deliver the message again.
    #[cfg(test)]
    pub(crate) fn needs_redelivery(&self) -> bool {
        !matches!(self, ConsumerCrashed::AfterEnd)
    }
}

/// One delivery of one message to one consumer instance, as a step machine: the seed's
/// `Consume` (idempotent) or the same without the inbox (naive), followed by the broker's ack.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConsumeMessage<E: EffectSteps> {
    config: ConsumerConfig,
    envelope: Envelope,
    effect: E,
    state: ConsumeState,
    outcome: Option<ConsumeOutcome<E::Output>>,
}

impl<E: EffectSteps> ConsumeMessage<E> {
    /// A delivery of `envelope` whose business effect is `effect` (built by the caller from the
    /// payload, e.g. a stock reservation from `OrderPlaced`). Nothing runs until the first step.
    pub fn new(config: ConsumerConfig, envelope: Envelope, effect: E) -> Self {
        ConsumeMessage { config, envelope, effect, state: ConsumeState::Begin, outcome: None }
    }

    /// Where the delivery is.
    pub fn state(&self) -> &ConsumeState {
        &self.state
    }

    /// The message delivered.
    pub fn envelope(&self) -> &Envelope {
        &self.envelope
    }

    /// Crashes this instance: its open transaction, if any, is rolled back (as the database
    /// does when the connection drops), and the event says whether the broker redelivers.
    pub fn crash(self, store: &mut Store) -> ConsumerCrashed {
        match self.state {
            ConsumeState::Begin => ConsumerCrashed::BeforeBegin,
            ConsumeState::InsertInboxRow { tx, .. }
            | ConsumeState::Effect { tx }
            | ConsumeState::Commit { tx } => {
                // The transaction is open by construction; if the caller ended it behind our
                // back, there is nothing left to roll back.
                let _ = store.rollback(tx);
                ConsumerCrashed::BeforeCommit { tx }
            }
            ConsumeState::Acknowledge => ConsumerCrashed::AfterCommitBeforeAck {
                applied_effect: self.outcome.as_ref().is_some_and(ConsumeOutcome::applied_effect),
            },
            ConsumeState::Ended => ConsumerCrashed::AfterEnd,
        }
    }

    fn fail(
        &mut self,
        store: &mut Store,
        tx: TxId,
        error: InboxError<E::Error>,
    ) -> Result<Step<ConsumeOutcome<E::Output>>, InboxError<E::Error>> {
        self.state = ConsumeState::Ended;
        // The transaction is ours and open; a failure to roll it back would mean it is gone
        // already, which leaves the store as clean as a rollback.
        let _ = store.rollback(tx);
        Err(error)
    }
}

impl<E: EffectSteps> Steps for ConsumeMessage<E> {
    type Output = ConsumeOutcome<E::Output>;
    type Error = InboxError<E::Error>;

    fn next_statement(&self, now: Tick) -> Option<String> {
        let consumer = &self.config.consumer;
        match &self.state {
            ConsumeState::Begin => match (self.config.implementation, self.envelope.message_id) {
                (ConsumerImplementation::Idempotent, None) => {
                    Some("throw InvalidOperationException(\"no MessageId\")".to_owned())
                }
                _ => Some("BEGIN".to_owned()),
            },
            ConsumeState::InsertInboxRow { message_id, .. } => Some(statements::insert(
                &InboxRow {
                    message_id: *message_id,
                    consumer: consumer.clone(),
                    processed_at: now,
                },
                OnConflict::Fail,
            )),
            ConsumeState::Effect { .. } => self.effect.next_statement(now),
            ConsumeState::Commit { .. } => Some("COMMIT".to_owned()),
            ConsumeState::Acknowledge => Some(match self.envelope.message_id {
                Some(message_id) => format!("ACK {message_id}"),
                None => "ACK (no MessageId)".to_owned(),
            }),
            ConsumeState::Ended => None,
        }
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<Self::Output>, Self::Error> {
        match self.state.clone() {
            ConsumeState::Begin => {
                let implementation = self.config.implementation;
                if implementation == ConsumerImplementation::Idempotent
                    && self.envelope.message_id.is_none()
                {
                    self.state = ConsumeState::Ended;
                    return Err(InboxError::MissingMessageId {
                        consumer: self.config.consumer.clone(),
                        payload: self.envelope.payload.clone(),
                    });
                }
                let tx = store.begin().inspect_err(|_| self.state = ConsumeState::Ended)?;
                self.state = match (implementation, self.envelope.message_id) {
                    (ConsumerImplementation::Idempotent, Some(message_id)) => {
                        ConsumeState::InsertInboxRow { tx, message_id }
                    }
                    _ => ConsumeState::Effect { tx },
                };
                Ok(Step::Continue)
            }
            ConsumeState::InsertInboxRow { tx, message_id } => {
                let row = InboxRow {
                    message_id,
                    consumer: self.config.consumer.clone(),
                    processed_at: now,
                };
                match store.insert(tx, row) {
                    Ok(()) => {
                        self.state = ConsumeState::Effect { tx };
                        Ok(Step::Continue)
                    }
                    // Another instance has inserted the row and not yet ended: wait for it, as
                    // PostgreSQL waits on the unique index.
                    Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                    // The seed's `catch (DbUpdateException ex) when (ex.IsUniqueViolation())
                    // { return; }`: the transaction is aborted and disposed of (rolled back),
                    // and the message is acknowledged with no effect.
                    Err(StoreError::UniqueViolation { .. }) => {
                        store.rollback(tx)?;
                        self.outcome = Some(ConsumeOutcome::DuplicateIgnored { message_id, tx });
                        self.state = ConsumeState::Acknowledge;
                        Ok(Step::Continue)
                    }
                    Err(other) => self.fail(store, tx, InboxError::Store(other)),
                }
            }
            ConsumeState::Effect { tx } => match self.effect.step(store, tx, now) {
                Ok(Step::Continue) => Ok(Step::Continue),
                Ok(Step::Blocked(wait)) => Ok(Step::Blocked(wait)),
                Ok(Step::Done(effect_output)) => {
                    self.outcome = Some(ConsumeOutcome::MessageProcessed {
                        message_id: self.envelope.message_id,
                        tx,
                        effect_output,
                    });
                    self.state = ConsumeState::Commit { tx };
                    Ok(Step::Continue)
                }
                Err(error) => self.fail(store, tx, InboxError::Effect(error)),
            },
            ConsumeState::Commit { tx } => match store.commit(tx) {
                Ok(()) => {
                    self.state = ConsumeState::Acknowledge;
                    Ok(Step::Continue)
                }
                Err(error) => {
                    self.outcome = None;
                    self.fail(store, tx, InboxError::Store(error))
                }
            },
            ConsumeState::Acknowledge => {
                self.state = ConsumeState::Ended;
                match self.outcome.take() {
                    Some(outcome) => Ok(Step::Done(outcome)),
                    // Unreachable by construction: Acknowledge is entered only with an outcome.
                    None => {
                        Err(InboxError::AlreadyEnded { consumer: self.config.consumer.clone() })
                    }
                }
            }
            ConsumeState::Ended => {
                Err(InboxError::AlreadyEnded { consumer: self.config.consumer.clone() })
            }
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        match self.state {
            ConsumeState::InsertInboxRow { tx, .. }
            | ConsumeState::Effect { tx }
            | ConsumeState::Commit { tx } => Some(tx),
            ConsumeState::Begin | ConsumeState::Acknowledge | ConsumeState::Ended => None,
        }
    }
}

/// Delivers `envelope` once to a consumer instance running alone, up to its ack.
pub fn consume_message<E: EffectSteps>(
    store: &mut Store,
    config: ConsumerConfig,
    envelope: Envelope,
    effect: E,
    now: Tick,
) -> Result<ConsumeOutcome<E::Output>, RunError<InboxError<E::Error>>> {
    run_to_completion(&mut ConsumeMessage::new(config, envelope, effect), store, now)
}

/// What a purge deleted.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InboxRowsPurged {
    /// The consumer whose rows were purged.
    pub(crate) consumer: ConsumerName,
    /// Rows processed strictly before this tick were deleted.
    pub(crate) processed_before: Tick,
    /// The ids of the messages whose rows were deleted, in id order: a redelivery of any of
    /// them is processed again.
    pub(crate) message_ids: Vec<MessageId>,
}

/// Why a purge failed; its transaction has been rolled back.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub(crate) enum PurgeError {
    /// A statement failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The purge was stepped after it had finished: a bug of the caller.
    #[error("the inbox purge of {consumer} was stepped after it had finished")]
    AlreadyEnded {
        /// The consumer whose rows were being purged.
        consumer: ConsumerName,
    },
}

/// Where a [`PurgeExpiredInboxRows`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum PurgeState {
    /// `BEGIN` is next.
    Begin,
    /// `DELETE FROM inbox WHERE consumer = .. AND processed_at < ..` is next.
    Delete {
        /// The open transaction.
        tx: TxId,
    },
    /// `COMMIT` is next.
    Commit {
        /// The open transaction.
        tx: TxId,
        /// The cut-off the `DELETE` used.
        processed_before: Tick,
        /// The messages whose rows the transaction deleted.
        message_ids: Vec<MessageId>,
    },
    /// Committed, or failed.
    Ended,
}

/// The retention job: deletes one consumer's inbox rows that are older than its
/// [`ConsumerConfig::retention_ticks`], in one transaction (`BEGIN`, `DELETE`, `COMMIT`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PurgeExpiredInboxRows {
    config: ConsumerConfig,
    state: PurgeState,
}

impl PurgeExpiredInboxRows {
    /// A purge of `config.consumer`'s rows; nothing runs until the first step.
    pub(crate) fn new(config: ConsumerConfig) -> Self {
        PurgeExpiredInboxRows { config, state: PurgeState::Begin }
    }

    /// The first tick that a purge at `now` keeps: rows processed before it are deleted.
    pub(crate) fn processed_before(&self, now: Tick) -> Tick {
        Tick(now.0.saturating_sub(self.config.retention_ticks))
    }
}

impl Steps for PurgeExpiredInboxRows {
    type Output = InboxRowsPurged;
    type Error = PurgeError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match &self.state {
            PurgeState::Begin => Some("BEGIN".to_owned()),
            PurgeState::Delete { .. } => {
                Some(statements::purge_inbox(&self.config.consumer, self.processed_before(now)))
            }
            PurgeState::Commit { .. } => Some("COMMIT".to_owned()),
            PurgeState::Ended => None,
        }
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<InboxRowsPurged>, PurgeError> {
        match self.state.clone() {
            PurgeState::Begin => {
                let tx = store.begin().inspect_err(|_| self.state = PurgeState::Ended)?;
                self.state = PurgeState::Delete { tx };
                Ok(Step::Continue)
            }
            PurgeState::Delete { tx } => {
                let processed_before = self.processed_before(now);
                let consumer = &self.config.consumer;
                let expired = |row: &InboxRow| row.processed_at < processed_before;
                let deleted = store
                    .scan_where(tx, |row: &InboxRow| row.consumer == *consumer && expired(row))
                    .and_then(|rows| {
                        let mut message_ids = Vec::new();
                        for row in rows {
                            // One statement that waits on a locked row keeps the rows it has
                            // already deleted, as PostgreSQL's DELETE does; the retry deletes
                            // them again, which changes nothing.
                            let key = (row.message_id, row.consumer);
                            if store.delete_where::<InboxRow>(tx, &key, expired)?.is_some() {
                                message_ids.push(row.message_id);
                            }
                        }
                        Ok(message_ids)
                    });
                match deleted {
                    Ok(message_ids) => {
                        self.state = PurgeState::Commit { tx, processed_before, message_ids };
                        Ok(Step::Continue)
                    }
                    Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                    Err(error) => {
                        self.state = PurgeState::Ended;
                        let _ = store.rollback(tx);
                        Err(PurgeError::Store(error))
                    }
                }
            }
            PurgeState::Commit { tx, processed_before, message_ids } => {
                self.state = PurgeState::Ended;
                store.commit(tx)?;
                Ok(Step::Done(InboxRowsPurged {
                    consumer: self.config.consumer.clone(),
                    processed_before,
                    message_ids,
                }))
            }
            PurgeState::Ended => {
                Err(PurgeError::AlreadyEnded { consumer: self.config.consumer.clone() })
            }
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        match self.state {
            PurgeState::Delete { tx } | PurgeState::Commit { tx, .. } => Some(tx),
            PurgeState::Begin | PurgeState::Ended => None,
        }
    }
}

/// Runs the retention job for `config.consumer` alone at `now`.
#[cfg(test)]
pub(crate) fn purge_expired_inbox_rows(
    store: &mut Store,
    config: ConsumerConfig,
    now: Tick,
) -> Result<InboxRowsPurged, RunError<PurgeError>> {
    run_to_completion(&mut PurgeExpiredInboxRows::new(config), store, now)
}

#[cfg(test)]
pub(crate) mod tests;
