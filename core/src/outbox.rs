//! The outbox relay: publishes the `outbox` rows that are not yet published, at least once, and
//! then marks them published.
//!
//! The order and its message are written in one transaction (by the order module), so a message
//! exists exactly when its order does; the relay then carries it to the broker. Publishing and
//! marking cannot be atomic (the broker is not the database), so the relay publishes first and
//! marks afterwards: a crash in between (F12) leaves the row unpublished, and the next run
//! publishes the same message id again. That duplicate is what the inbox consumer (P4) absorbs.
//!
//! The relay is sans-IO and a step machine ([`Steps`]): one step reads the batch, one step per
//! message hands it to the caller (who drains it with [`RelayOutbox::take_published`] and gives
//! it to the broker), then `BEGIN`, one `UPDATE outbox SET published = true`, `COMMIT`.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{MessageId, Tick, TxId};
use crate::inbox::Envelope;
use crate::sql::statements;
#[cfg(test)]
use crate::step::{RunError, run_to_completion};
use crate::step::{Step, Steps};
use crate::store::{OutboxRow, Store, StoreError};

/// How the relay is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelayConfig {
    /// How many rows one run reads and publishes at most (the `LIMIT` of its `SELECT`); the
    /// rest wait for the next run. Zero makes a run that publishes nothing.
    pub(crate) batch_size_max: usize,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig { batch_size_max: 16 }
    }
}

/// What a finished run of the relay did.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OutboxRelayed {
    /// The messages this run published and then marked published, in publish order.
    pub(crate) published: Vec<MessageId>,
}

/// What a crash of the relay left behind.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RelayCrashed {
    /// The marking transaction that was rolled back, if it was open.
    pub(crate) rolled_back: Option<TxId>,
    /// Messages this run published but did not mark (F12): the next run publishes them again.
    pub published_not_marked: Vec<MessageId>,
    /// Messages the relay had published and the caller had not yet drained with
    /// [`RelayOutbox::take_published`]: the broker accepted them, so the caller must deliver
    /// them all the same.
    pub published_not_taken: Vec<Envelope>,
}

/// Why a run of the relay failed; its transaction, if any, has been rolled back.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RelayError {
    /// A statement failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The relay was stepped after it had finished: a bug of the caller.
    #[error("the outbox relay was stepped after it had finished")]
    AlreadyEnded,
}

/// Where a [`RelayOutbox`] run is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RelayState {
    /// `SELECT ... FROM outbox WHERE NOT published ORDER BY created_at, message_id LIMIT n`
    /// is next.
    SelectUnpublished,
    /// The next message of the batch is published.
    Publish {
        /// The rows read.
        batch: Vec<OutboxRow>,
        /// How many of them are published already.
        published_count: usize,
    },
    /// `BEGIN` is next.
    Begin {
        /// The messages published.
        published: Vec<MessageId>,
    },
    /// `UPDATE outbox SET published = true WHERE message_id IN (...)` is next.
    MarkPublished {
        /// The open transaction.
        tx: TxId,
        /// The messages published.
        published: Vec<MessageId>,
    },
    /// `COMMIT` is next.
    Commit {
        /// The open transaction.
        tx: TxId,
        /// The messages published and marked in `tx`.
        published: Vec<MessageId>,
    },
    /// Committed, nothing to publish, or failed.
    Ended,
}

/// One run of the outbox relay, as a step machine. The relay does no I/O: each publish step
/// queues the message, and the caller takes it with [`RelayOutbox::take_published`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RelayOutbox {
    config: RelayConfig,
    state: RelayState,
    to_publish: Vec<Envelope>,
}

impl RelayOutbox {
    /// A run with this configuration; nothing runs until the first step.
    pub fn new(config: RelayConfig) -> Self {
        RelayOutbox { config, state: RelayState::SelectUnpublished, to_publish: Vec::new() }
    }

    /// Where the run is.
    pub fn state(&self) -> &RelayState {
        &self.state
    }

    /// Takes the messages published since the last call, in publish order: the caller hands
    /// them to the broker. Call it after every step.
    pub fn take_published(&mut self) -> Vec<Envelope> {
        std::mem::take(&mut self.to_publish)
    }

    /// Crashes the relay: its open transaction, if any, is rolled back. The messages it
    /// published and had not marked stay unpublished in `outbox` and will be published again.
    pub fn crash(self, store: &mut Store) -> RelayCrashed {
        let (rolled_back, published_not_marked) = match self.state {
            RelayState::SelectUnpublished | RelayState::Ended => (None, Vec::new()),
            RelayState::Publish { batch, published_count } => {
                let published = batch.iter().take(published_count).map(|row| row.message_id);
                (None, published.collect())
            }
            RelayState::Begin { published } => (None, published),
            RelayState::MarkPublished { tx, published } | RelayState::Commit { tx, published } => {
                // Open by construction; if it is gone already there is nothing to roll back.
                let _ = store.rollback(tx);
                (Some(tx), published)
            }
        };
        RelayCrashed { rolled_back, published_not_marked, published_not_taken: self.to_publish }
    }
}

impl Steps for RelayOutbox {
    type Output = OutboxRelayed;
    type Error = RelayError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        match &self.state {
            RelayState::SelectUnpublished => {
                Some(statements::select_unpublished(self.config.batch_size_max))
            }
            RelayState::Publish { batch, published_count } => {
                batch.get(*published_count).map(|row| format!("PUBLISH {}", row.message_id))
            }
            RelayState::Begin { .. } => Some("BEGIN".to_owned()),
            RelayState::MarkPublished { published, .. } => {
                Some(statements::mark_published(published))
            }
            RelayState::Commit { .. } => Some("COMMIT".to_owned()),
            RelayState::Ended => None,
        }
    }

    fn step(&mut self, store: &mut Store, _now: Tick) -> Result<Step<OutboxRelayed>, RelayError> {
        match std::mem::replace(&mut self.state, RelayState::Ended) {
            RelayState::SelectUnpublished => {
                // A read-only statement in autocommit mode: its own short transaction.
                let tx = store.begin()?;
                let rows = store.select(
                    tx,
                    |row: &OutboxRow| !row.published,
                    |row| (row.created_at, row.message_id),
                    self.config.batch_size_max,
                );
                store.rollback(tx)?;
                let batch = rows?;
                if batch.is_empty() {
                    return Ok(Step::Done(OutboxRelayed { published: Vec::new() }));
                }
                self.state = RelayState::Publish { batch, published_count: 0 };
                Ok(Step::Continue)
            }
            RelayState::Publish { batch, published_count } => {
                // `published_count < batch.len()` holds in this state: the last publish moves on
                // to `Begin`. Were it ever false, the run would go on to mark the batch.
                if let Some(row) = batch.get(published_count) {
                    self.to_publish.push(Envelope {
                        message_id: Some(row.message_id),
                        payload: row.payload.clone(),
                    });
                }
                let published_count = published_count + 1;
                self.state = if published_count < batch.len() {
                    RelayState::Publish { batch, published_count }
                } else {
                    RelayState::Begin {
                        published: batch.iter().map(|row| row.message_id).collect(),
                    }
                };
                Ok(Step::Continue)
            }
            RelayState::Begin { published } => {
                self.state = RelayState::MarkPublished { tx: store.begin()?, published };
                Ok(Step::Continue)
            }
            RelayState::MarkPublished { tx, published } => {
                let marked = published.iter().try_for_each(|message_id| {
                    // A statement that waits on a locked row keeps the rows it has already
                    // updated, as PostgreSQL's UPDATE does; the retry sets them again, which
                    // changes nothing.
                    store
                        .update::<OutboxRow>(tx, message_id, |row| row.published = true)
                        .map(|_| ())
                });
                match marked {
                    Ok(()) => {
                        self.state = RelayState::Commit { tx, published };
                        Ok(Step::Continue)
                    }
                    Err(StoreError::Blocked(wait)) => {
                        self.state = RelayState::MarkPublished { tx, published };
                        Ok(Step::Blocked(wait))
                    }
                    Err(error) => {
                        let _ = store.rollback(tx);
                        Err(RelayError::Store(error))
                    }
                }
            }
            RelayState::Commit { tx, published } => {
                store.commit(tx)?;
                Ok(Step::Done(OutboxRelayed { published }))
            }
            RelayState::Ended => Err(RelayError::AlreadyEnded),
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        match self.state {
            RelayState::MarkPublished { tx, .. } | RelayState::Commit { tx, .. } => Some(tx),
            RelayState::SelectUnpublished
            | RelayState::Publish { .. }
            | RelayState::Begin { .. }
            | RelayState::Ended => None,
        }
    }
}

/// Runs the relay once, alone, at `now`: returns the messages it published (for the broker) and
/// what it marked.
#[cfg(test)]
pub(crate) fn relay_outbox_once(
    store: &mut Store,
    config: RelayConfig,
    now: Tick,
) -> Result<(Vec<Envelope>, OutboxRelayed), RunError<RelayError>> {
    let mut relay = RelayOutbox::new(config);
    let relayed = run_to_completion(&mut relay, store, now)?;
    Ok((relay.take_published(), relayed))
}

#[cfg(test)]
mod tests;
