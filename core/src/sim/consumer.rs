//! The reserve-stock consumer's instances, each holding the delivery it is processing, if any.
//!
//! An instance holds at most one delivery: P4's [`ConsumeMessage`] around the shop's
//! [`ReserveStockForMessage`], or, when the scenario installs one, a learner's program
//! ([`ProgramConsumer`]), which may acknowledge before its end. A blocked machine (`Step::Blocked`) records the transaction it
//! waits for; the world does not offer its next step until that transaction has ended. The
//! consumer's faults are its crashes: after its commit, before its ack (F2), and with its
//! transaction open (F3).

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::history::{InboxUse, MessageEvent};
use crate::ids::{MessageId, Tick, TxId};
use crate::inbox::{
    ConsumeMessage, ConsumeOutcome, ConsumeState, ConsumerConfig, ConsumerCrashed,
    ConsumerImplementation, Envelope,
};
use crate::program::{
    CompiledProgram, HandlerKind, HandlerProgram, ProgramConsumer, ProgramError, Progress,
    SharedProgram,
};
use crate::shop_api::ReserveStockForMessage;
use crate::sim::action::{Action, EntryId, InstanceId};
use crate::sim::scenario::ScenarioError;
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, Target, World, missing};
use crate::step::{Step, Steps};
use crate::stock::StockReservationEvent;
use crate::store::{RowLockWait, Store};

/// The learner's consumer program a world runs in place of the built-in consumer, compiled
/// once. It is the same in every state of a run, so it adds nothing to a state's hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct InstalledProgram(Option<Arc<CompiledProgram>>);

impl Hash for InstalledProgram {
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

impl InstalledProgram {
    /// The consumer program of a scenario, compiled; none for the built-in.
    pub(crate) fn of(program: Option<&HandlerProgram>) -> Result<InstalledProgram, ScenarioError> {
        InstalledProgram::compile(
            program,
            HandlerKind::ReserveStockConsumer,
            "consumer_program",
            ScenarioError::Program,
        )
    }

    /// The `MarkPaid` program of a scenario, compiled; none for the built-in.
    pub(crate) fn mark_paid(
        program: Option<&HandlerProgram>,
    ) -> Result<InstalledProgram, ScenarioError> {
        InstalledProgram::compile(
            program,
            HandlerKind::MarkPaid,
            "mark_paid_program",
            ScenarioError::MarkPaidProgram,
        )
    }

    fn compile(
        program: Option<&HandlerProgram>,
        handler: HandlerKind,
        field: &str,
        error: fn(ProgramError) -> ScenarioError,
    ) -> Result<InstalledProgram, ScenarioError> {
        let Some(program) = program else { return Ok(InstalledProgram(None)) };
        if program.handler != handler {
            return Err(ScenarioError::ProgramForAnotherHandler {
                field: field.to_owned(),
                handler: program.handler.name().to_owned(),
            });
        }
        let compiled = crate::program::compile(program).map_err(error)?;
        Ok(InstalledProgram(Some(Arc::new(compiled))))
    }

    /// The compiled program as the shop's handlers share it.
    pub(crate) fn shared(&self) -> Option<SharedProgram> {
        self.0.clone().map(SharedProgram)
    }

    /// The compiled program, if one is installed.
    pub(crate) fn compiled(&self) -> Option<&Arc<CompiledProgram>> {
        self.0.as_ref()
    }
}

/// What runs a delivery: the built-in consumer or a learner's program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConsumerMachine {
    /// P4's consumer around P1's reservation, as the scenario's switches say.
    BuiltIn(ConsumeMessage<ReserveStockForMessage>),
    /// A learner's program.
    Program(ProgramConsumer),
}

impl Hash for ConsumerMachine {
    /// Each variant hashes as its machine alone: a world holds one kind only, and the
    /// built-in's fingerprints stay those of the checker's pinned counts.
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            ConsumerMachine::BuiltIn(machine) => machine.hash(state),
            ConsumerMachine::Program(machine) => machine.hash(state),
        }
    }
}

/// One step of a delivery, whichever machine runs it.
enum MachineStep {
    /// Continues; `committed` if the step committed the effect; `acknowledged` if it acked.
    Continue {
        committed: Option<InboxUse>,
        acknowledged: Option<ConsumeOutcome<StockReservationEvent>>,
        ended: bool,
    },
    Blocked(RowLockWait),
    Failed(String),
}

impl ConsumerMachine {
    /// The transaction it has open.
    pub(crate) fn open_transaction(&self) -> Option<TxId> {
        match self {
            ConsumerMachine::BuiltIn(machine) => machine.open_transaction(),
            ConsumerMachine::Program(machine) => machine.open_transaction(),
        }
    }

    /// The statement of the next step.
    pub(crate) fn next_statement(&self, now: Tick) -> Option<String> {
        match self {
            ConsumerMachine::BuiltIn(machine) => machine.next_statement(now),
            ConsumerMachine::Program(machine) => machine.next_statement(now),
        }
    }

    /// Whether its next statement is `BEGIN`.
    pub(crate) fn next_begins(&self, now: Tick) -> bool {
        match self {
            ConsumerMachine::BuiltIn(machine) => machine.next_begins(now),
            ConsumerMachine::Program(machine) => {
                crate::step::is_begin(machine.next_statement(now).as_deref())
            }
        }
    }

    /// Whether it has committed (or found a duplicate) and not acknowledged: where F2 hits.
    pub(crate) fn awaits_ack(&self) -> bool {
        match self {
            ConsumerMachine::BuiltIn(machine) => {
                matches!(machine.state(), ConsumeState::Acknowledge)
            }
            ConsumerMachine::Program(machine) => machine.awaits_ack(),
        }
    }

    /// Whether its next statement is the `COMMIT` of its open transaction: where an injected
    /// F3 hits.
    pub(crate) fn about_to_commit(&self) -> bool {
        match self {
            ConsumerMachine::BuiltIn(machine) => {
                matches!(machine.state(), ConsumeState::Commit { .. })
            }
            ConsumerMachine::Program(machine) => machine.about_to_commit(),
        }
    }

    fn crash(self, store: &mut Store) -> ConsumerCrashed {
        match self {
            ConsumerMachine::BuiltIn(machine) => machine.crash(store),
            ConsumerMachine::Program(machine) => machine.crash(store),
        }
    }

    fn step(&mut self, store: &mut Store, now: Tick, inbox_use: InboxUse) -> MachineStep {
        match self {
            ConsumerMachine::BuiltIn(machine) => {
                let was_committing = matches!(machine.state(), ConsumeState::Commit { .. });
                match machine.step(store, now) {
                    Ok(Step::Continue) => MachineStep::Continue {
                        committed: (was_committing
                            && matches!(machine.state(), ConsumeState::Acknowledge))
                        .then_some(inbox_use),
                        acknowledged: None,
                        ended: false,
                    },
                    Ok(Step::Blocked(wait)) => MachineStep::Blocked(wait),
                    Ok(Step::Done(outcome)) => MachineStep::Continue {
                        committed: None,
                        acknowledged: Some(outcome),
                        ended: true,
                    },
                    Err(error) => MachineStep::Failed(error.to_string()),
                }
            }
            ConsumerMachine::Program(machine) => match machine.step(store, now) {
                Ok(stepped) => match stepped.progress {
                    Progress::Blocked(wait) => MachineStep::Blocked(wait),
                    progress => MachineStep::Continue {
                        committed: stepped.effect_committed.map(|with_inbox| {
                            if with_inbox { InboxUse::WithInbox } else { InboxUse::WithoutInbox }
                        }),
                        acknowledged: stepped.acknowledged,
                        ended: progress == Progress::Ended,
                    },
                },
                Err(error) => MachineStep::Failed(error.to_string()),
            },
        }
    }
}

/// One delivery being processed by an instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Delivery {
    /// The copy delivered.
    pub(crate) entry: EntryId,
    /// The message.
    pub(crate) message_id: MessageId,
    /// Which delivery of the message (over all its copies), from 1.
    pub(crate) delivery_number: u32,
    /// The consumer's step machine.
    pub(crate) machine: ConsumerMachine,
    /// The transaction whose row lock it waits for.
    pub(crate) waiting_for: Option<TxId>,
}

/// One consumer instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ConsumerInstance {
    /// What it is processing, if anything.
    pub(crate) delivery: Option<Delivery>,
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
                && self.connection_free(
                    || delivery.machine.open_transaction(),
                    || delivery.machine.next_begins(self.now),
                )
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
                && delivery.machine.awaits_ack()
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
        let machine = match self.config.consumer_program.compiled() {
            Some(program) => ConsumerMachine::Program(ProgramConsumer::new(
                Arc::clone(program),
                self.config.consumer_name.clone(),
                message_id,
                envelope,
            )),
            None => {
                let stock = self.config.patterns.stock();
                let effect = ReserveStockForMessage::new(&envelope.payload, stock);
                ConsumerMachine::BuiltIn(ConsumeMessage::new(
                    self.consumer_config(),
                    envelope,
                    effect,
                ))
            }
        };
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
        match delivery.machine.step(&mut self.store, now, inbox_use) {
            MachineStep::Continue { committed, acknowledged, ended } => {
                delivery.waiting_for = None;
                let entry = delivery.entry;
                if ended {
                    consumer.delivery = None;
                }
                if let Some(inbox) = committed {
                    self.history.record_message_event(MessageEvent::EffectCommitted {
                        message_id,
                        consumer: consumer_name.clone(),
                        inbox,
                        committed_at: now,
                    })?;
                    out.events.push(SimEvent::EffectCommitted { message_id, instance, inbox });
                }
                if let Some(outcome) = acknowledged {
                    self.ack(entry, out);
                    self.history.record_message_event(MessageEvent::Acknowledged {
                        message_id,
                        consumer: consumer_name,
                        acknowledged_at: now,
                    })?;
                    out.events.push(SimEvent::MessageConsumed { instance, outcome });
                }
            }
            MachineStep::Blocked(wait) => {
                delivery.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            MachineStep::Failed(error) => {
                consumer.delivery = None;
                out.events.push(SimEvent::ConsumerFailed { instance, error });
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
