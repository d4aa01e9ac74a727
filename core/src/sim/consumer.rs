//! The reserve-stock consumer's instances, each holding the delivery it is processing, if any.
//!
//! An instance holds at most one delivery: P4's [`ConsumeMessage`] around the shop's
//! [`ReserveStockForMessage`]. A blocked machine (`Step::Blocked`) records the transaction it
//! waits for; the world does not offer its next step until that transaction has ended. The
//! consumer's faults are its crashes: after its commit, before its ack (F2), and with its
//! transaction open (F3).

use crate::history::{InboxUse, MessageEvent};
use crate::ids::{MessageId, TxId};
use crate::inbox::{
    ConsumeMessage, ConsumeState, ConsumerConfig, ConsumerImplementation, Envelope,
};
use crate::shop_api::ReserveStockForMessage;
use crate::sim::action::{Action, EntryId, InstanceId};
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, Target, World, missing};
use crate::step::{Step, Steps};

/// One delivery being processed by an instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Delivery {
    /// The copy delivered.
    pub entry: EntryId,
    /// The message.
    pub message_id: MessageId,
    /// Which delivery of the message (over all its copies), from 1.
    pub delivery_number: u32,
    /// The consumer's step machine.
    pub machine: ConsumeMessage<ReserveStockForMessage>,
    /// The transaction whose row lock it waits for.
    pub waiting_for: Option<TxId>,
}

/// One consumer instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConsumerInstance {
    /// What it is processing, if anything.
    pub delivery: Option<Delivery>,
}

impl World {
    /// The instances with no delivery, in instance order.
    pub(super) fn idle_instances(&self) -> impl Iterator<Item = InstanceId> + '_ {
        self.consumers
            .iter()
            .enumerate()
            .filter(|(_, instance)| instance.delivery.is_none())
            .map(|(index, _)| InstanceId(index))
    }

    /// The consumer's configuration, as every delivery and the retention job see it.
    pub(super) fn consumer_config(&self) -> ConsumerConfig {
        ConsumerConfig {
            consumer: self.config.consumer_name.clone(),
            implementation: self.config.patterns.inbox(),
            retention_ticks: self.config.consumers.inbox_retention_ticks,
        }
    }

    /// A step for every instance whose delivery is not waiting for a lock or a connection.
    pub(super) fn enabled_consumer_steps(&self, actions: &mut Vec<Action>) {
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery
                && self.lock_free(delivery.waiting_for)
                && self.connection_free(delivery.machine.open_transaction(), || {
                    delivery.machine.next_statement(self.now)
                })
            {
                actions.push(Action::ConsumerStep { instance: InstanceId(index) });
            }
        }
    }

    /// F2 on every instance that committed and has not acked, then F3 on every instance with
    /// its transaction open.
    pub(super) fn enabled_consumer_crashes(&self, actions: &mut Vec<Action>) {
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery
                && matches!(delivery.machine.state(), ConsumeState::Acknowledge)
            {
                actions.push(Action::CrashConsumerAfterCommit { instance: InstanceId(index) });
            }
        }
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery
                && delivery.machine.open_transaction().is_some()
            {
                actions.push(Action::CrashConsumerBeforeCommit { instance: InstanceId(index) });
            }
        }
    }

    /// `instance` starts processing the copy `entry` of the message `message_id`
    /// (`envelope`), its `delivery_number`-th delivery.
    pub(super) fn start_delivery(
        &mut self,
        instance: InstanceId,
        entry: EntryId,
        message_id: MessageId,
        envelope: Envelope,
        delivery_number: u32,
    ) -> Result<(), ApplyError> {
        let effect = ReserveStockForMessage::new(&envelope.payload, self.config.patterns.stock());
        let machine = ConsumeMessage::new(self.consumer_config(), envelope, effect);
        let consumer = self
            .consumers
            .get_mut(instance.0)
            .ok_or_else(|| missing(Target::Instance(instance)))?;
        consumer.delivery =
            Some(Delivery { entry, message_id, delivery_number, machine, waiting_for: None });
        Ok(())
    }

    /// One statement of `instance`'s delivery: the effect's commit is recorded, the ack goes
    /// to the broker, a failure drops the delivery (the broker redelivers it).
    pub(super) fn consumer_step(
        &mut self,
        instance: InstanceId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let now = self.now;
        let inbox_use = match self.config.patterns.inbox() {
            ConsumerImplementation::Idempotent => InboxUse::WithInbox,
            ConsumerImplementation::Naive => InboxUse::WithoutInbox,
        };
        let consumer_name = self.config.consumer_name.clone();
        let consumer = self
            .consumers
            .get_mut(instance.0)
            .ok_or_else(|| missing(Target::Instance(instance)))?;
        let delivery =
            consumer.delivery.as_mut().ok_or_else(|| missing(Target::Delivery(instance)))?;
        out.statement = delivery.machine.next_statement(now);
        out.message_id = Some(delivery.message_id);
        let message_id = delivery.message_id;
        let was_committing = matches!(delivery.machine.state(), ConsumeState::Commit { .. });
        match delivery.machine.step(&mut self.store, now) {
            Ok(Step::Continue) => {
                delivery.waiting_for = None;
                if was_committing && matches!(delivery.machine.state(), ConsumeState::Acknowledge) {
                    self.history.record_message_event(MessageEvent::EffectCommitted {
                        message_id,
                        consumer: consumer_name,
                        inbox: inbox_use,
                        committed_at: now,
                    })?;
                    out.events.push(SimEvent::EffectCommitted {
                        message_id,
                        instance,
                        inbox: inbox_use,
                    });
                }
            }
            Ok(Step::Blocked(wait)) => {
                delivery.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            Ok(Step::Done(outcome)) => {
                let entry = delivery.entry;
                consumer.delivery = None;
                self.ack(entry, out);
                self.history.record_message_event(MessageEvent::Acknowledged {
                    message_id,
                    consumer: consumer_name,
                    acknowledged_at: now,
                })?;
                out.events.push(SimEvent::MessageConsumed { instance, outcome });
            }
            Err(error) => {
                consumer.delivery = None;
                out.events.push(SimEvent::ConsumerFailed { instance, error: error.to_string() });
            }
        }
        Ok(())
    }

    /// F2 or F3: `instance` crashes; where its delivery stood decides what is lost (its open
    /// transaction rolls back; a commit without its ack stays).
    pub(super) fn crash_consumer(
        &mut self,
        instance: InstanceId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let consumer = self
            .consumers
            .get_mut(instance.0)
            .ok_or_else(|| missing(Target::Instance(instance)))?;
        let delivery =
            consumer.delivery.take().ok_or_else(|| missing(Target::Delivery(instance)))?;
        out.message_id = Some(delivery.message_id);
        let crashed = delivery.machine.crash(&mut self.store);
        out.events.push(SimEvent::ConsumerCrashed { instance, crashed });
        Ok(())
    }
}
