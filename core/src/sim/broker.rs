//! The message broker: at-least-once delivery with a visibility timeout, acks, duplicates and
//! a dead-letter list.
//!
//! Each copy of a message is an entry ([`EntryId`]); a duplicate (F1, F10, F12) is another
//! entry with the same message id. A delivered entry is invisible until its visibility timeout
//! ends: if no ack came by then, it is delivered again (F2, F3). An ack removes the entry. An
//! entry delivered `deliveries_max` times that comes due again is dead-lettered instead.
//! Held entries (F9) wait for a request's answer or a tick; copies that arrive after the
//! retention window (F10) wait for the original's ack.
//!
//! The broker's faults are its own: a second copy (F1), a copy delivered to a second instance
//! while in flight (F4), a held copy (F9) and a copy that comes back after the retention window
//! (F10).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::history::MessageEvent;
use crate::ids::{MessageId, Tick};
use crate::inbox::Envelope;
use crate::sim::action::{Action, EntryId, HoldRelease, InstanceId, RequestIndex};
use crate::sim::clock::{Deadline, DeadlineReason};
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, Target, World, missing};

/// Where an entry is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(crate) enum EntryState {
    /// Deliverable from `visible_at` on.
    Ready {
        /// When it becomes visible.
        visible_at: Tick,
    },
    /// Delivered to these instances; delivered again from `redeliver_at` on if not acked.
    InFlight {
        /// The instances that got it (two after F4).
        instances: Vec<InstanceId>,
        /// The end of the visibility timeout.
        redeliver_at: Tick,
    },
    /// Held (F9) until a request has its answer.
    HeldUntilAnswered {
        /// The request.
        request: RequestIndex,
    },
    /// Held (F9) until a tick.
    HeldUntil {
        /// The tick.
        tick: Tick,
    },
    /// A late copy (F10): it becomes visible `delay_ticks` after the original is acked.
    AwaitingOriginalAck {
        /// The delay after the ack.
        delay_ticks: u64,
    },
}

/// One copy of a message in the queue.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct BrokerEntry {
    /// The message, shared by its copies (and by the copies of the world that hold this
    /// entry): an entry stays small for the scans of every step.
    pub(crate) envelope: Arc<Envelope>,
    /// Its id (the envelope's, which the relay always sets).
    pub(crate) message_id: MessageId,
    /// Where it is.
    pub(crate) state: EntryState,
    /// How many times this copy was delivered.
    pub(crate) deliveries: u32,
}

/// A message given up on after too many deliveries.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct DeadLetter {
    /// The copy.
    pub(crate) entry: EntryId,
    /// The message.
    pub(crate) message_id: MessageId,
    /// When.
    pub(crate) at: Tick,
}

/// The broker's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Broker {
    /// The queue, by entry id (the order entries were enqueued).
    pub(crate) entries: BTreeMap<EntryId, BrokerEntry>,
    /// The next entry id.
    pub(crate) next_entry: usize,
    /// Dead-lettered copies.
    pub(crate) dead_letters: Vec<DeadLetter>,
    /// Deliveries per message id, over all its copies.
    pub(crate) deliveries_by_message: BTreeMap<MessageId, u32>,
}

impl Broker {
    /// Enqueues a copy; `None` if the queue holds `queue_len_max` entries already.
    pub(crate) fn push(
        &mut self,
        envelope: Arc<Envelope>,
        message_id: MessageId,
        state: EntryState,
        queue_len_max: usize,
    ) -> Option<EntryId> {
        if self.entries.len() >= queue_len_max {
            return None;
        }
        let entry = EntryId(self.next_entry);
        self.next_entry = self.next_entry.saturating_add(1);
        self.entries.insert(entry, BrokerEntry { envelope, message_id, state, deliveries: 0 });
        Some(entry)
    }

    /// The copies that are queued or in flight (not held, not late): those a duplicate can be
    /// made of (F1, F10).
    pub(super) fn queued_entries(&self) -> Vec<EntryId> {
        self.entries
            .iter()
            .filter(|(_, entry)| {
                matches!(entry.state, EntryState::Ready { .. } | EntryState::InFlight { .. })
            })
            .map(|(id, _)| *id)
            .collect()
    }

    fn entry_mut(&mut self, entry: EntryId) -> Result<&mut BrokerEntry, ApplyError> {
        self.entries.get_mut(&entry).ok_or_else(|| missing(Target::Entry(entry)))
    }

    /// The entries of one message, in entry order.
    pub(crate) fn entries_of(
        &self,
        message_id: MessageId,
    ) -> impl Iterator<Item = (EntryId, &BrokerEntry)> {
        self.entries
            .iter()
            .filter(move |(_, entry)| entry.message_id == message_id)
            .map(|(id, entry)| (*id, entry))
    }
}

impl World {
    /// Whether `entry` may be delivered now: it is due and has deliveries left.
    fn is_deliverable(&self, entry: &BrokerEntry) -> bool {
        let due = match &entry.state {
            EntryState::Ready { visible_at } => self.now >= *visible_at,
            EntryState::InFlight { redeliver_at, .. } => self.now >= *redeliver_at,
            EntryState::HeldUntilAnswered { request } => self.client_finished(*request),
            EntryState::HeldUntil { tick } => self.now >= *tick,
            EntryState::AwaitingOriginalAck { .. } => false,
        };
        due && entry.deliveries < self.config.consumers.deliveries_max
    }

    /// Every deliverable copy to every idle instance, in entry then instance order.
    pub(super) fn enabled_broker_deliveries(&self, actions: &mut Vec<Action>) {
        // Without an idle instance no copy can be delivered: the queue is not read.
        if self.idle_instances().next().is_none() {
            return;
        }
        for (entry_id, entry) in &self.broker.entries {
            if self.is_deliverable(entry) {
                for instance in self.idle_instances() {
                    actions.push(Action::BrokerDeliver { entry: *entry_id, instance });
                }
            }
        }
    }

    /// F4: every copy in flight, before its redelivery, to every other idle instance.
    pub(super) fn enabled_concurrent_deliveries(&self, actions: &mut Vec<Action>) {
        if self.idle_instances().next().is_none() {
            return;
        }
        for (entry_id, entry) in &self.broker.entries {
            if let EntryState::InFlight { instances, redeliver_at } = &entry.state
                && self.now < *redeliver_at
            {
                for instance in self.idle_instances() {
                    if !instances.contains(&instance) {
                        actions.push(Action::DeliverConcurrently { entry: *entry_id, instance });
                    }
                }
            }
        }
    }

    /// F9: every deliverable queued copy, held for a visibility timeout (at least a tick).
    pub(super) fn enabled_holds(&self, actions: &mut Vec<Action>) {
        for (entry_id, entry) in &self.broker.entries {
            if matches!(entry.state, EntryState::Ready { .. }) && self.is_deliverable(entry) {
                actions.push(Action::HoldMessage {
                    entry: *entry_id,
                    until: HoldRelease::Ticks {
                        ticks: self.config.consumers.visibility_timeout_ticks.max(1),
                    },
                });
            }
        }
    }

    /// When each copy next changes: it becomes visible, its visibility timeout ends, its hold
    /// ends.
    pub(super) fn broker_deadlines(&self, deadlines: &mut impl FnMut(Deadline)) {
        for (entry, copy) in &self.broker.entries {
            let (at, reason) = match &copy.state {
                EntryState::Ready { visible_at } => {
                    (*visible_at, DeadlineReason::MessageVisible { entry: *entry })
                }
                EntryState::InFlight { redeliver_at, .. } => {
                    (*redeliver_at, DeadlineReason::Redelivery { entry: *entry })
                }
                EntryState::HeldUntil { tick } => {
                    (*tick, DeadlineReason::HoldEnds { entry: *entry })
                }
                EntryState::HeldUntilAnswered { .. } | EntryState::AwaitingOriginalAck { .. } => {
                    continue;
                }
            };
            deadlines(Deadline { at, reason });
        }
    }

    /// The relay publishes `envelope`: a new copy, visible now.
    pub(super) fn publish(
        &mut self,
        envelope: Envelope,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let message_id = envelope.message_id.unwrap_or(MessageId(Uuid::nil()));
        let queue_len_max = self.config.limits.queue_len_max;
        let entry = self
            .broker
            .push(
                Arc::new(envelope),
                message_id,
                EntryState::Ready { visible_at: self.now },
                queue_len_max,
            )
            .ok_or(ApplyError::QueueFull { queue_len_max })?;
        self.history
            .record_message_event(MessageEvent::Published { message_id, published_at: self.now })?;
        out.message_id = Some(message_id);
        out.events.push(SimEvent::Published { message_id, entry });
        Ok(())
    }

    /// Delivers `entry_id` to `instance`: the copy is in flight there alone until its
    /// visibility timeout ends.
    pub(super) fn deliver(
        &mut self,
        entry_id: EntryId,
        instance: InstanceId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let redeliver_at = self.now.plus(self.config.consumers.visibility_timeout_ticks);
        let entry = self.broker.entry_mut(entry_id)?;
        entry.state = EntryState::InFlight { instances: vec![instance], redeliver_at };
        self.hand_over(entry_id, instance, out)
    }

    /// F4: delivers `entry_id`, in flight at another instance, to `instance` too.
    pub(super) fn deliver_concurrently(
        &mut self,
        entry_id: EntryId,
        instance: InstanceId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let redeliver_at = self.now.plus(self.config.consumers.visibility_timeout_ticks);
        let entry = self.broker.entry_mut(entry_id)?;
        match &mut entry.state {
            EntryState::InFlight { instances, .. } => instances.push(instance),
            _ => entry.state = EntryState::InFlight { instances: vec![instance], redeliver_at },
        }
        self.hand_over(entry_id, instance, out)
    }

    /// Counts a delivery of `entry_id` and hands the copy to `instance`.
    fn hand_over(
        &mut self,
        entry_id: EntryId,
        instance: InstanceId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let entry = self.broker.entry_mut(entry_id)?;
        entry.deliveries = entry.deliveries.saturating_add(1);
        let message_id = entry.message_id;
        let envelope = Envelope::clone(&entry.envelope);
        let count = self.broker.deliveries_by_message.entry(message_id).or_insert(0);
        *count = count.saturating_add(1);
        let delivery_number = *count;
        self.start_delivery(instance, entry_id, message_id, envelope, delivery_number)?;
        out.message_id = Some(message_id);
        out.events.push(SimEvent::Delivered {
            entry: entry_id,
            message_id,
            instance,
            delivery_number,
        });
        Ok(())
    }

    /// F1: a second copy of `entry`, visible now.
    pub(super) fn duplicate_message(
        &mut self,
        entry: EntryId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        self.enqueue_copy(entry, EntryState::Ready { visible_at: self.now }, out)
    }

    /// F10: a copy of `entry` that becomes visible after the inbox's retention window, counted
    /// from the original's ack.
    pub(super) fn duplicate_after_retention(
        &mut self,
        entry: EntryId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let delay_ticks = self.config.consumers.inbox_retention_ticks.saturating_add(2);
        self.enqueue_copy(entry, EntryState::AwaitingOriginalAck { delay_ticks }, out)
    }

    fn enqueue_copy(
        &mut self,
        entry: EntryId,
        state: EntryState,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let original =
            self.broker.entries.get(&entry).ok_or_else(|| missing(Target::Entry(entry)))?;
        let envelope = original.envelope.clone();
        let message_id = original.message_id;
        let queue_len_max = self.config.limits.queue_len_max;
        let copy = self
            .broker
            .push(envelope, message_id, state, queue_len_max)
            .ok_or(ApplyError::QueueFull { queue_len_max })?;
        out.message_id = Some(message_id);
        out.events.push(SimEvent::MessageDuplicated { entry, copy, message_id });
        Ok(())
    }

    /// F9: `entry` is held back until `until`.
    pub(super) fn hold_message(
        &mut self,
        entry: EntryId,
        until: &HoldRelease,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let state = match until {
            HoldRelease::RequestAnswered { request } => {
                EntryState::HeldUntilAnswered { request: *request }
            }
            HoldRelease::Ticks { ticks } => EntryState::HeldUntil { tick: self.now.plus(*ticks) },
        };
        let held = self.broker.entry_mut(entry)?;
        held.state = state;
        out.message_id = Some(held.message_id);
        out.events.push(SimEvent::MessageHeld { entry });
        Ok(())
    }

    /// A consumer acknowledged `entry`: the broker forgets the copy, and the message's late
    /// copies start their delay. A copy acked already (by the other instance of a concurrent
    /// delivery, or by the instance it was redelivered to) or dead-lettered is gone, and its
    /// ack changes nothing, as a real broker's does.
    pub(super) fn ack(&mut self, entry: EntryId, out: &mut StepOut) {
        if let Some(acked) = self.broker.entries.remove(&entry) {
            self.release_late_copies(acked.message_id, out);
        }
    }

    /// Late copies (F10) of a message become visible their delay after its ack or dead letter.
    fn release_late_copies(&mut self, message_id: MessageId, out: &mut StepOut) {
        let now = self.now;
        for (entry_id, entry) in self.broker.entries.iter_mut() {
            if entry.message_id == message_id
                && let EntryState::AwaitingOriginalAck { delay_ticks } = entry.state
            {
                entry.state = EntryState::Ready { visible_at: now.plus(delay_ticks) };
                out.events.push(SimEvent::MessageReleased { entry: *entry_id });
            }
        }
    }

    /// Copies delivered `deliveries_max` times that come due again go to the dead letters.
    pub(super) fn dead_letter_exhausted(&mut self, out: &mut StepOut) {
        let deliveries_max = self.config.consumers.deliveries_max;
        let exhausted: Vec<EntryId> = self
            .broker
            .entries
            .iter()
            .filter(|(_, entry)| {
                entry.deliveries >= deliveries_max
                    && matches!(entry.state, EntryState::InFlight { redeliver_at, .. } if self.now >= redeliver_at)
            })
            .map(|(id, _)| *id)
            .collect();
        for entry_id in exhausted {
            if let Some(entry) = self.broker.entries.remove(&entry_id) {
                self.broker.dead_letters.push(DeadLetter {
                    entry: entry_id,
                    message_id: entry.message_id,
                    at: self.now,
                });
                out.events
                    .push(SimEvent::DeadLettered { entry: entry_id, message_id: entry.message_id });
                self.release_late_copies(entry.message_id, out);
            }
        }
    }
}
