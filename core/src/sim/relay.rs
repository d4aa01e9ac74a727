//! The outbox relay: a run of [`RelayOutbox`] that publishes the unpublished outbox rows to the
//! broker and then marks them published, at least once.
//!
//! A run starts when there are unpublished rows and no run; it publishes as it goes, so a crash
//! between publishing and marking (F12) leaves published rows unmarked, and the next run
//! publishes them again.

use crate::ids::{MessageId, TxId};
use crate::outbox::{RelayOutbox, RelayState};
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, Target, World, missing};
use crate::step::{Step, Steps};

/// A running relay.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RelayRun {
    /// The relay's step machine.
    pub(crate) machine: RelayOutbox,
    /// The transaction whose row lock it waits for.
    pub(crate) waiting_for: Option<TxId>,
}

impl World {
    /// Whether an outbox row is committed and not yet published.
    pub(super) fn has_unpublished_outbox_rows(&self) -> bool {
        self.store.committed().outbox.values().any(|row| !row.published)
    }

    /// Whether the relay may step: its run is not waiting for a lock or a connection, or it
    /// has no run, there is something to publish and a connection to begin with.
    pub(super) fn relay_step_enabled(&self) -> bool {
        match &self.relay {
            Some(run) => {
                self.lock_free(run.waiting_for)
                    && self.connection_free(
                        || run.machine.open_transaction(),
                        || run.machine.next_begins(self.now),
                    )
            }
            None => self.has_unpublished_outbox_rows() && self.store.can_begin(),
        }
    }

    /// F12 is enabled: the relay's run has published something it has not marked yet (or is
    /// marking it).
    pub(super) fn relay_crashable(&self) -> bool {
        self.relay.as_ref().is_some_and(|run| match run.machine.state() {
            RelayState::Publish { published_count, .. } => *published_count > 0,
            RelayState::Begin { .. }
            | RelayState::MarkPublished { .. }
            | RelayState::Commit { .. } => true,
            RelayState::SelectUnpublished | RelayState::Ended => false,
        })
    }

    /// The messages the running relay has published and not yet marked.
    pub(crate) fn relay_published_not_marked(&self) -> Vec<MessageId> {
        let Some(run) = &self.relay else { return Vec::new() };
        match run.machine.state() {
            RelayState::Publish { batch, published_count } => {
                batch.iter().take(*published_count).map(|row| row.message_id).collect()
            }
            RelayState::Begin { published }
            | RelayState::MarkPublished { published, .. }
            | RelayState::Commit { published, .. } => published.clone(),
            RelayState::SelectUnpublished | RelayState::Ended => Vec::new(),
        }
    }

    /// One statement of the relay (starting a run if none is running); what it published goes
    /// to the broker.
    pub(super) fn relay_step(&mut self, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let relay_config = self.config.relay;
        let run = self.relay.get_or_insert_with(|| RelayRun {
            machine: RelayOutbox::new(relay_config),
            waiting_for: None,
        });
        out.statement = run.machine.next_statement(now);
        let result = run.machine.step(&mut self.store, now);
        let published = run.machine.take_published();
        match result {
            Ok(Step::Continue) => run.waiting_for = None,
            Ok(Step::Blocked(wait)) => {
                run.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            Ok(Step::Done(relayed)) => {
                self.relay = None;
                out.events.push(SimEvent::RelayFinished { published: relayed.published });
            }
            Err(error) => {
                self.relay = None;
                out.events.push(SimEvent::RelayFailed { error: error.to_string() });
            }
        }
        for envelope in published {
            self.publish(envelope, out)?;
        }
        Ok(())
    }

    /// F12: the relay crashes; what it had published and not handed over yet still reaches
    /// the broker.
    pub(super) fn crash_relay(&mut self, out: &mut StepOut) -> Result<(), ApplyError> {
        let run = self.relay.take().ok_or_else(|| missing(Target::Relay))?;
        let crashed = run.machine.crash(&mut self.store);
        let not_taken = crashed.published_not_taken.clone();
        out.events.push(SimEvent::RelayCrashed { crashed });
        for envelope in not_taken {
            self.publish(envelope, out)?;
        }
        Ok(())
    }
}
