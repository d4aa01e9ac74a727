//! The harness for users' own consumers: implement [`ConsumerUnderTest`] for a message
//! handler written as a [`Steps`] machine over the lab's store, and the harness delivers a few
//! messages to two instances of it, with duplicate deliveries (F1), crashes before or after
//! commit (F2, F3, which make the broker deliver again) and interleaved instances (F4), then
//! compares what the handler left in the store with what delivering each message exactly once
//! leaves. Any difference is a counterexample: the handler is not idempotent.
//!
//! Two drivers share one small model ([`HarnessModel`]): [`fuzz_consumer`] draws schedules
//! with proptest and shrinks a failing one to a minimal list of actions; [`check_consumer`]
//! explores every schedule breadth-first with the checker's explorer and returns a shortest
//! one. Both are the shared drivers of [`crate::testing::harness`], which the HTTP harness
//! uses too. `core/examples/harness_loyalty_points.rs` shows both on a loyalty-points
//! consumer, naive and fixed.
//!
//! A handler that returns an error is a counterexample too (a duplicate must be acknowledged,
//! not fail), and so is a handler that does not finish within [`STEPS_PER_DELIVERY_MAX`].

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::check::fingerprint::{Fingerprint, StateHasher};
use crate::check::{BYTES_MAX_DEFAULT, ExploreBounds, Model, ModelLimit};
use crate::ids::{MessageId, OrderId, Sku, Tick};
use crate::inbox::Envelope;
use crate::rng::DeterministicRng;
use crate::step::{Step, Steps, run_to_completion};
use crate::store::{MessagePayload, OrderLine, Store};
use crate::testing::harness::{
    HarnessCheckReport, HarnessFuzzReport, HarnessStep, HarnessViolation, ScheduleFuzzing,
    check_model, fuzz_model, sorted_fingerprints,
};

/// The most steps one delivery may take before the harness calls the handler stuck.
pub(crate) const STEPS_PER_DELIVERY_MAX: u32 = 64;

/// A user's message handler under test.
pub trait ConsumerUnderTest {
    /// One delivery's step machine: it owns its transactions (a plain effect can be wrapped
    /// in [`crate::step::InTransaction`], an inbox consumer in [`crate::inbox::ConsumeMessage`]).
    type Handler: Steps + Clone + Eq + Hash + Debug;
    /// What must be the same after duplicates as after exactly-once delivery.
    type Observation: Clone + Eq + Debug;

    /// The store before any message.
    fn initial_store(&self) -> Store;

    /// The handler for one delivery of `envelope`.
    fn handler(&self, envelope: &Envelope) -> Self::Handler;

    /// What the handler's effects look like in `store` (committed state).
    fn observe(&self, store: &Store) -> Self::Observation;
}

/// The harness's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HarnessConfig {
    /// Distinct messages delivered (each an `OrderPlaced` of `i + 1` apples), 1 or more.
    pub messages: usize,
    /// Duplicate deliveries (F1) a schedule may add.
    pub duplicates_max: u32,
    /// Consumer crashes (F2, F3) a schedule may take.
    pub crashes_max: u32,
    /// Fuzzing: how many schedules to draw.
    pub cases: u32,
    /// Fuzzing: the seed of the fuzzer's choices.
    pub fuzz_seed: u64,
    /// Checking: the longest schedule explored.
    pub depth_max: usize,
    /// Checking: the most unique states.
    pub states_max: usize,
}

impl Default for HarnessConfig {
    /// Two messages, one duplicate, one crash, 256 cases, depth 60, 200 000 states.
    fn default() -> Self {
        HarnessConfig {
            messages: 2,
            duplicates_max: 1,
            crashes_max: 1,
            cases: 256,
            fuzz_seed: 0,
            depth_max: 60,
            states_max: 200_000,
        }
    }
}

/// One step of the harness's world.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HarnessAction {
    /// The broker delivers a copy of message `message` to idle instance `instance`.
    Deliver {
        /// The message, from 0.
        message: usize,
        /// The instance, 0 or 1.
        instance: usize,
    },
    /// Instance `instance` runs one statement of its handler.
    Step {
        /// The instance.
        instance: usize,
    },
    /// Instance `instance` acknowledges its finished delivery.
    Acknowledge {
        /// The instance.
        instance: usize,
    },
    /// F1: the broker queues another copy of message `message`.
    Duplicate {
        /// The message.
        message: usize,
    },
    /// F2/F3: instance `instance` crashes (its open transaction rolls back) before its ack;
    /// the broker delivers the message again.
    Crash {
        /// The instance.
        instance: usize,
    },
}

/// What one instance is doing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum InstanceState<H> {
    /// Nothing.
    Idle,
    /// Running `handler` for message `message`, `steps` statements so far.
    Running {
        /// The message.
        message: usize,
        /// The handler.
        handler: H,
        /// Statements run.
        steps: u32,
    },
    /// Done with message `message`, not yet acknowledged.
    Finished {
        /// The message.
        message: usize,
    },
}

/// The harness's world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HarnessState<H> {
    /// The store.
    pub(crate) store: Store,
    /// Copies waiting for delivery, by message, sorted.
    pub(crate) queue: Vec<usize>,
    /// The two instances.
    pub(crate) instances: Vec<InstanceState<H>>,
    /// Duplicates taken.
    pub(crate) duplicates: u32,
    /// Crashes taken.
    pub(crate) crashes: u32,
    /// A handler failure, if one happened (a counterexample).
    pub(crate) failure: Option<String>,
}

/// The harness's world as a model.
#[derive(Clone, Debug)]
pub(crate) struct HarnessModel<C: ConsumerUnderTest> {
    consumer: C,
    config: HarnessConfig,
    envelopes: Vec<Envelope>,
    expected: C::Observation,
}

/// The messages the harness delivers: `OrderPlaced` of `i + 1` apples, ids from a fixed seed.
pub(crate) fn harness_messages(count: usize) -> Vec<Envelope> {
    let mut rng = DeterministicRng::from_seed(0x1d3e_4b07);
    (0..count)
        .map(|index| Envelope {
            message_id: Some(MessageId(rng.uuid())),
            payload: MessagePayload::OrderPlaced {
                order_id: OrderId(rng.uuid()),
                lines: Arc::from([OrderLine {
                    sku: Sku::new("apple"),
                    qty: u32::try_from(index + 1).unwrap_or(u32::MAX),
                }]),
            },
        })
        .collect()
}

impl<C: ConsumerUnderTest> HarnessModel<C> {
    /// The model of `consumer` under `config`; the reference outcome is each message
    /// delivered once, in order, to one instance.
    pub(crate) fn new(consumer: C, config: HarnessConfig) -> HarnessModel<C> {
        let envelopes = harness_messages(config.messages.max(1));
        let mut store = consumer.initial_store();
        for envelope in &envelopes {
            let mut handler = consumer.handler(envelope);
            // A failure here shows up again in the explored runs, where it is reported.
            let _ = run_to_completion(&mut handler, &mut store, Tick(0));
        }
        let expected = consumer.observe(&store);
        HarnessModel { consumer, config, envelopes, expected }
    }

    /// What exactly-once delivery leaves.
    #[cfg(test)]
    pub(crate) fn expected(&self) -> &C::Observation {
        &self.expected
    }

    fn is_done(state: &HarnessState<C::Handler>) -> bool {
        state.queue.is_empty()
            && state.instances.iter().all(|instance| *instance == InstanceState::Idle)
    }

    /// The violation in `state`, if any: a handler failure, or at the end an observation
    /// other than the exactly-once one.
    pub(crate) fn violation_in(
        &self,
        state: &HarnessState<C::Handler>,
    ) -> Option<HarnessViolation> {
        if let Some(failure) = &state.failure {
            return Some(HarnessViolation { sentence: failure.clone() });
        }
        if Self::is_done(state) {
            let observed = self.consumer.observe(&state.store);
            if observed != self.expected {
                return Some(HarnessViolation {
                    sentence: format!(
                        "after every delivery, the store shows {observed:?}, but delivering \
                         each message exactly once shows {:?}",
                        self.expected
                    ),
                });
            }
        }
        None
    }

    /// Applies `action` to `state`; `None` if it is not enabled.
    pub(crate) fn apply(
        &self,
        state: &HarnessState<C::Handler>,
        action: &HarnessAction,
    ) -> Option<HarnessState<C::Handler>> {
        let mut next = state.clone();
        match action {
            HarnessAction::Deliver { message, instance } => {
                let position = next.queue.iter().position(|queued| queued == message)?;
                let slot = next.instances.get_mut(*instance)?;
                if *slot != InstanceState::Idle {
                    return None;
                }
                let envelope = self.envelopes.get(*message)?;
                next.queue.remove(position);
                *slot = InstanceState::Running {
                    message: *message,
                    handler: self.consumer.handler(envelope),
                    steps: 0,
                };
            }
            HarnessAction::Step { instance } => {
                let slot = next.instances.get_mut(*instance)?;
                let InstanceState::Running { message, handler, steps } = slot else { return None };
                let message = *message;
                *steps += 1;
                if *steps > STEPS_PER_DELIVERY_MAX {
                    next.failure = Some(format!(
                        "the handler did not finish message {message} within \
                         {STEPS_PER_DELIVERY_MAX} statements"
                    ));
                    return Some(next);
                }
                match handler.step(&mut next.store, Tick(0)) {
                    Ok(Step::Continue) => {}
                    // The statement runs again later; a wait that changes nothing is a state
                    // already seen.
                    Ok(Step::Blocked(_)) => return Some(state.clone()),
                    Ok(Step::Done(_)) => *slot = InstanceState::Finished { message },
                    Err(_) => {
                        next.failure =
                            Some(format!("the handler failed on a delivery of message {message}"));
                    }
                }
            }
            HarnessAction::Acknowledge { instance } => {
                let slot = next.instances.get_mut(*instance)?;
                if !matches!(slot, InstanceState::Finished { .. }) {
                    return None;
                }
                *slot = InstanceState::Idle;
            }
            HarnessAction::Duplicate { message } => {
                if next.duplicates >= self.config.duplicates_max || *message >= self.envelopes.len()
                {
                    return None;
                }
                next.duplicates += 1;
                next.queue.push(*message);
                next.queue.sort_unstable();
            }
            HarnessAction::Crash { instance } => {
                if next.crashes >= self.config.crashes_max {
                    return None;
                }
                let slot = next.instances.get_mut(*instance)?;
                let message = match slot {
                    InstanceState::Idle => return None,
                    InstanceState::Running { message, handler, .. } => {
                        if let Some(tx) = handler.open_transaction() {
                            let _ = next.store.rollback(tx);
                        }
                        *message
                    }
                    InstanceState::Finished { message } => *message,
                };
                *slot = InstanceState::Idle;
                next.crashes += 1;
                next.queue.push(message);
                next.queue.sort_unstable();
            }
        }
        Some(next)
    }
}

impl<C: ConsumerUnderTest> Model for HarnessModel<C> {
    type State = HarnessState<C::Handler>;
    type Action = HarnessAction;
    type Violation = HarnessViolation;

    fn initial_state(&self) -> Self::State {
        let mut queue: Vec<usize> = (0..self.envelopes.len()).collect();
        queue.sort_unstable();
        HarnessState {
            store: self.consumer.initial_store(),
            queue,
            instances: vec![InstanceState::Idle, InstanceState::Idle],
            duplicates: 0,
            crashes: 0,
            failure: None,
        }
    }

    /// Normal actions first (deliver, step, acknowledge), faults last, so that a schedule of
    /// small choices is a schedule without faults.
    fn actions(&self, state: &Self::State) -> Vec<HarnessAction> {
        if state.failure.is_some() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let mut distinct = state.queue.clone();
        distinct.dedup();
        for (instance, slot) in state.instances.iter().enumerate() {
            match slot {
                InstanceState::Idle => actions.extend(
                    distinct
                        .iter()
                        .map(|message| HarnessAction::Deliver { message: *message, instance }),
                ),
                InstanceState::Running { .. } => actions.push(HarnessAction::Step { instance }),
                InstanceState::Finished { .. } => {
                    actions.push(HarnessAction::Acknowledge { instance })
                }
            }
        }
        if state.duplicates < self.config.duplicates_max {
            actions.extend(
                (0..self.envelopes.len()).map(|message| HarnessAction::Duplicate { message }),
            );
        }
        if state.crashes < self.config.crashes_max {
            for (instance, slot) in state.instances.iter().enumerate() {
                if *slot != InstanceState::Idle {
                    actions.push(HarnessAction::Crash { instance });
                }
            }
        }
        actions
    }

    fn next_state(
        &self,
        state: &Self::State,
        action: &HarnessAction,
    ) -> Result<Self::State, ModelLimit<HarnessAction>> {
        self.apply(state, action).ok_or_else(|| ModelLimit::NotEnabled { action: action.clone() })
    }

    fn violation(&self, state: &Self::State) -> Option<HarnessViolation> {
        self.violation_in(state)
    }

    /// The instances are identical: the fingerprint sorts them.
    fn fingerprint(&self, state: &Self::State) -> Fingerprint {
        let mut hasher = StateHasher::default();
        state.store.hash(&mut hasher);
        state.queue.hash(&mut hasher);
        state.duplicates.hash(&mut hasher);
        state.crashes.hash(&mut hasher);
        state.failure.hash(&mut hasher);
        sorted_fingerprints(&state.instances).hash(&mut hasher);
        hasher.finish()
    }
}

impl HarnessStep for HarnessAction {
    /// Duplicates and crashes.
    fn is_fault(&self) -> bool {
        matches!(self, HarnessAction::Duplicate { .. } | HarnessAction::Crash { .. })
    }
}

/// Fuzzes `consumer` with proptest: schedules of deliveries, steps, duplicates and crashes,
/// shrunk to a minimal failing one.
pub fn fuzz_consumer<C: ConsumerUnderTest>(
    consumer: C,
    config: HarnessConfig,
) -> HarnessFuzzReport {
    let model = HarnessModel::new(consumer, config);
    let drain_steps_max = config.messages.max(1) * 4 * STEPS_PER_DELIVERY_MAX as usize;
    fuzz_model(
        &model,
        ScheduleFuzzing {
            cases: config.cases,
            fuzz_seed: config.fuzz_seed,
            choices_max: 48,
            drain_steps_max,
            shrink_steps_max: 4_096,
        },
    )
}

/// Explores every schedule of `consumer` within `config`'s bounds, breadth-first: a violation
/// comes with a shortest schedule.
pub fn check_consumer<C: ConsumerUnderTest>(
    consumer: C,
    config: HarnessConfig,
) -> HarnessCheckReport {
    let bounds = ExploreBounds {
        depth_max: config.depth_max,
        states_max: config.states_max,
        bytes_max: BYTES_MAX_DEFAULT,
    };
    check_model(HarnessModel::new(consumer, config), bounds)
}
