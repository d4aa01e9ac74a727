//! The retention job: when enabled, it purges the consumer's expired inbox rows, then the
//! forgotten idempotency keys, each in one transaction of its own.
//!
//! It runs when something has expired; what expires when is the patterns' rule
//! ([`crate::inbox::ConsumerConfig::inbox_row_expires_at`],
//! [`crate::idempotency::Config::forgotten_at`]), which the clock's deadlines name too.

use crate::history::MessageEvent;
use crate::idempotency::PurgeForgottenKeys;
use crate::ids::{Tick, TxId};
use crate::inbox::PurgeExpiredInboxRows;
use crate::sim::clock::{Deadline, DeadlineReason};
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, World};
use crate::step::{Step, Steps};
use crate::store::KeyState;

/// The retention job's current stage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RetentionStage {
    /// Purging the consumer's expired inbox rows.
    Inbox(PurgeExpiredInboxRows),
    /// Purging forgotten idempotency keys.
    Keys(PurgeForgottenKeys),
}

/// A running retention job.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RetentionRun {
    /// Its stage.
    pub(crate) stage: RetentionStage,
    /// The transaction whose row lock it waits for.
    pub(crate) waiting_for: Option<TxId>,
}

impl RetentionRun {
    /// The transaction its stage has open, if any.
    pub(super) fn open_transaction(&self) -> Option<TxId> {
        match &self.stage {
            RetentionStage::Inbox(machine) => machine.open_transaction(),
            RetentionStage::Keys(machine) => machine.open_transaction(),
        }
    }

    /// Whether its stage's next statement is `BEGIN`.
    pub(super) fn next_begins(&self, now: Tick) -> bool {
        match &self.stage {
            RetentionStage::Inbox(machine) => machine.next_begins(now),
            RetentionStage::Keys(machine) => machine.next_begins(now),
        }
    }
}

impl World {
    /// Whether the retention job may step: it is enabled, and its run is not waiting for a
    /// lock or a connection, or it has no run, something has expired and a connection is free.
    pub(super) fn purge_enabled(&self) -> bool {
        if !self.config.retention_job.enabled {
            return false;
        }
        match &self.retention {
            Some(run) => {
                self.lock_free(run.waiting_for)
                    && self.connection_free(|| run.open_transaction(), || run.next_begins(self.now))
            }
            None => self.something_expired() && self.store.can_begin(),
        }
    }

    fn something_expired(&self) -> bool {
        let consumer = self.consumer_config();
        let tables = self.store.committed();
        tables.inbox.values().any(|row| {
            row.consumer == consumer.consumer
                && self.now >= consumer.inbox_row_expires_at(row.processed_at)
        }) || tables
            .idempotency_keys
            .values()
            .any(|row| self.config.api.is_forgotten(row, self.now))
    }

    /// When each inbox row and each key expires, if the retention job runs.
    pub(super) fn retention_deadlines(&self, deadlines: &mut impl FnMut(Deadline)) {
        if !self.config.retention_job.enabled {
            return;
        }
        let consumer = self.consumer_config();
        let tables = self.store.committed();
        for row in tables.inbox.values() {
            deadlines(Deadline {
                at: consumer.inbox_row_expires_at(row.processed_at),
                reason: DeadlineReason::InboxRowExpires { message_id: row.message_id },
            });
        }
        for row in tables.idempotency_keys.values() {
            let reason = match row.state {
                KeyState::InProgress { .. } => {
                    DeadlineReason::KeyLeaseAndRetentionEnd { key: row.key }
                }
                KeyState::Completed { .. } => DeadlineReason::KeyRetentionEnds { key: row.key },
            };
            deadlines(Deadline { at: self.config.api.forgotten_at(row), reason });
        }
    }

    /// One statement of the retention job, starting a run if none is running: the inbox
    /// stage, then the keys' stage.
    pub(super) fn purge_step(&mut self, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let consumer_config = self.consumer_config();
        let api_config = self.config.api;
        let run = self.retention.get_or_insert_with(|| RetentionRun {
            stage: RetentionStage::Inbox(PurgeExpiredInboxRows::new(consumer_config)),
            waiting_for: None,
        });
        match &mut run.stage {
            RetentionStage::Inbox(machine) => {
                out.statement = machine.next_statement(now);
                match machine.step(&mut self.store, now) {
                    Ok(Step::Continue) => run.waiting_for = None,
                    Ok(Step::Blocked(wait)) => {
                        run.waiting_for = Some(wait.holder);
                        out.events.push(SimEvent::Blocked { wait });
                    }
                    Ok(Step::Done(purged)) => {
                        for message_id in &purged.message_ids {
                            self.history.record_message_event(MessageEvent::InboxRowPurged {
                                message_id: *message_id,
                                consumer: purged.consumer.clone(),
                                purged_at: now,
                            })?;
                        }
                        run.stage = RetentionStage::Keys(PurgeForgottenKeys::new(api_config));
                        run.waiting_for = None;
                        out.events.push(SimEvent::InboxRowsPurged { purged });
                    }
                    Err(error) => {
                        self.retention = None;
                        out.events.push(SimEvent::RetentionFailed { error: error.to_string() });
                    }
                }
            }
            RetentionStage::Keys(machine) => {
                out.statement = machine.next_statement(now);
                match machine.step(&mut self.store, now) {
                    Ok(Step::Continue) => run.waiting_for = None,
                    Ok(Step::Blocked(wait)) => {
                        run.waiting_for = Some(wait.holder);
                        out.events.push(SimEvent::Blocked { wait });
                    }
                    Ok(Step::Done(keys)) => {
                        self.retention = None;
                        out.events.push(SimEvent::KeysPurged { keys });
                    }
                    Err(error) => {
                        self.retention = None;
                        out.events.push(SimEvent::RetentionFailed { error: error.to_string() });
                    }
                }
            }
        }
        Ok(())
    }
}
