//! The simulator: a seeded scheduler over the world's enabled actions, the scenario's
//! injections and random faults, and the trace it records.
//!
//! A run is a pure function of (scenario, seed): the seed's one [`DeterministicRng`] gives two
//! streams, one inside the [`World`] (ids: keys, orders, messages) and one for the scheduler's
//! choices. At each step the scheduler takes, in this order: the first injection whose trigger
//! holds (each fires once); a random fault: for each class in order that has enabled fault
//! actions, one roll of its rate, and on a hit one of its actions drawn uniformly (at most
//! `Limits::random_faults_max` per run); else a normal action drawn uniformly, the clock advancing only when nothing else can
//! run (or by the scenario's early-advance rate). Every step is applied with
//! [`World::apply`] and recorded as a [`TraceStep`] with the violations that appeared at it.
//!
//! The state after any step can be had again ([`Simulation::world_after`],
//! [`Simulation::rewind`]): the world is snapshotted every `Limits::snapshot_every_steps` steps
//! and the recorded actions are replayed from the nearest snapshot. At most
//! [`SNAPSHOTS_KEPT_MAX`] snapshots are kept: when one more is due, every other one is dropped
//! and the interval doubles, so a long run keeps snapshots spread evenly over it, their memory
//! bounded by that count times the world's size, and the cost of taking them per step falls
//! as the run grows (the world grows at most linearly, the interval doubles). A rewind replays
//! at most one interval, without judging the invariants again (the trace has them). A run read
//! once, to its end ([`Simulation::run`], the fuzzer), keeps only the start's snapshot.

use std::collections::BTreeMap;
use std::sync::Arc;

use thiserror::Error;

use crate::faults::FaultClass;
use crate::invariants::InvariantId;
use crate::rng::DeterministicRng;
use crate::sim::action::Action;
use crate::sim::fault::trigger;
use crate::sim::scenario::{Scenario, ScenarioError};
use crate::sim::trace::{
    Choice, LimitReached, StepLog, StopReason, TRACE_FORMAT_VERSION, Trace, TraceStep, TraceSummary,
};
use crate::sim::world::{ApplyError, World, is_listed};

/// The most snapshots a rewindable run keeps, the start's included. With the worlds the bounds
/// allow (`sim::bounds::longest_run_scenario`, `benches/long_run.rs`), this keeps a run's
/// snapshots within a few tens of megabytes, and a rewind within one interval of replay.
pub(crate) const SNAPSHOTS_KEPT_MAX: usize = 24;

/// A world kept for rewinding, shared by the copies of its run (a copy of a [`Simulation`]
/// shares its snapshots rather than copying them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Snapshot {
    /// The number of steps applied to reach it.
    pub(crate) step: usize,
    /// The world after that step.
    pub(crate) world: Arc<World>,
}

/// The snapshots of a run: the start's, then one every `interval` steps, thinned to at most
/// [`SNAPSHOTS_KEPT_MAX`] by dropping every other one and doubling the interval.
#[derive(Clone, Debug)]
struct Snapshots {
    kept: Vec<Snapshot>,
    /// Steps between two snapshots; 0 keeps none but the start's.
    interval: usize,
    /// Snapshots thinned out but not yet freed: one is dropped at each later step
    /// ([`Snapshots::release_one`]), so that no step frees a dozen worlds at once.
    released: Vec<Arc<World>>,
}

impl Snapshots {
    fn new(start: World, interval: usize) -> Snapshots {
        Snapshots {
            kept: vec![Snapshot { step: 0, world: Arc::new(start) }],
            interval,
            released: Vec::new(),
        }
    }

    fn is_due(&self, step: usize) -> bool {
        self.interval > 0 && step.is_multiple_of(self.interval)
    }

    fn keep(&mut self, step: usize, world: World) {
        self.kept.push(Snapshot { step, world: Arc::new(world) });
        if self.kept.len() > SNAPSHOTS_KEPT_MAX {
            let interval = self.interval.saturating_mul(2);
            let (kept, thinned) = std::mem::take(&mut self.kept)
                .into_iter()
                .partition(|snapshot| snapshot.step.is_multiple_of(interval));
            self.kept = kept;
            self.released.extend(thinned.into_iter().map(|snapshot: Snapshot| snapshot.world));
            self.interval = interval;
        }
    }

    /// Frees one thinned snapshot, if any waits: freeing a world costs what it holds alone,
    /// up to a millisecond for the largest the bounds accept, and a thinning releases a dozen.
    fn release_one(&mut self) {
        drop(self.released.pop());
    }

    /// The latest snapshot at or before `step` (the start's is always kept).
    fn nearest(&self, step: usize) -> Option<&Snapshot> {
        self.kept.iter().rev().find(|snapshot| snapshot.step <= step)
    }
}

/// Why the state after a step could not be rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RewindError {
    /// The run has not reached that step.
    #[error("step {step} is beyond the {steps} steps of the run")]
    StepOutOfRange {
        /// The step asked for.
        step: usize,
        /// The steps of the run.
        steps: usize,
    },
    /// Replaying a recorded action failed: the trace does not belong to this scenario.
    #[error("replaying step {step} failed: {error}")]
    Replay {
        /// The step.
        step: usize,
        /// Why.
        error: ApplyError,
    },
}

/// Why a trace could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// Its scenario is invalid.
    #[error("the trace's scenario: {0}")]
    Scenario(ScenarioError),
    /// A step the user chose is not enabled in the replay: the trace was edited.
    #[error("step {step}, chosen by the user, cannot be replayed: {error}")]
    Apply {
        /// The step.
        step: usize,
        /// Why.
        error: ApplyError,
    },
    /// The replay stops before a step the user chose: the trace was edited.
    #[error(
        "step {step}, chosen by the user, is never reached: the replay stops after {steps} steps"
    )]
    NotReached {
        /// The step.
        step: usize,
        /// The steps of the replay.
        steps: usize,
    },
    /// The user's steps are not in increasing order: the trace was edited.
    #[error("step {step}, chosen by the user, comes after step {previous}")]
    OutOfOrder {
        /// The step.
        step: usize,
        /// The step before it.
        previous: usize,
    },
}

/// One run in progress.
#[derive(Clone, Debug)]
pub struct Simulation {
    scenario: Scenario,
    seed: u64,
    world: World,
    scheduler_rng: DeterministicRng,
    fired: Vec<bool>,
    steps: StepLog,
    snapshots: Snapshots,
    /// The invariants violated after the last step.
    violated_now: Vec<InvariantId>,
    first_violation_step: BTreeMap<InvariantId, usize>,
    faults: BTreeMap<FaultClass, usize>,
    random_faults_fired: usize,
    stop: Option<StopReason>,
    limit_reached: Option<LimitReached>,
}

impl Simulation {
    /// A run of `scenario` with `seed`, before its first step.
    pub fn new(scenario: Scenario, seed: u64) -> Result<Simulation, ScenarioError> {
        let mut root = DeterministicRng::from_seed(seed);
        let world_rng = DeterministicRng::from_seed(root.next_u64());
        let scheduler_rng = DeterministicRng::from_seed(root.next_u64());
        let world = World::new(&scenario, world_rng)?;
        Ok(Simulation {
            fired: vec![false; scenario.injections.len()],
            snapshots: Snapshots::new(world.clone(), scenario.limits.snapshot_every_steps.max(1)),
            scenario,
            seed,
            world,
            scheduler_rng,
            steps: StepLog::default(),
            violated_now: Vec::new(),
            first_violation_step: BTreeMap::new(),
            faults: BTreeMap::new(),
            random_faults_fired: 0,
            stop: None,
            limit_reached: None,
        })
    }

    /// A run of `scenario` with `seed` that keeps no snapshot but the start's: the same steps
    /// as [`Simulation::new`]'s, for a run that is read once rather than rewound
    /// ([`Simulation::world_after`] still works, replaying from the start).
    pub fn without_snapshots(scenario: Scenario, seed: u64) -> Result<Simulation, ScenarioError> {
        let mut simulation = Simulation::new(scenario, seed)?;
        simulation.keep_no_snapshots();
        Ok(simulation)
    }

    /// From now on, keeps no snapshot but the start's (and those taken so far): for a run
    /// that is read once rather than rewound.
    pub(crate) fn keep_no_snapshots(&mut self) {
        self.snapshots.interval = 0;
    }

    /// Runs `scenario` with `seed` to its end and returns the trace.
    pub fn run(scenario: Scenario, seed: u64) -> Result<Trace, ScenarioError> {
        let mut simulation = Simulation::without_snapshots(scenario, seed)?;
        simulation.run_to_end();
        Ok(simulation.into_trace())
    }

    /// Runs a trace's scenario and seed again, taking the user's choices ([`Choice::User`]) at
    /// the steps where they were taken: the result equals the trace. This is [`Run::replay`],
    /// the crate's one replay (see there).
    ///
    /// [`Run::replay`]: crate::sim::Run::replay
    pub fn replay(trace: &Trace) -> Result<Trace, ReplayError> {
        crate::sim::run::Run::replay(trace)
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The seed of the run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The world now.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The steps so far.
    pub fn steps(&self) -> &StepLog {
        &self.steps
    }

    /// Why the run stopped, once it has.
    pub fn stop_reason(&self) -> Option<&StopReason> {
        self.stop.as_ref()
    }

    /// Takes steps until the run stops; returns why.
    pub fn run_to_end(&mut self) -> StopReason {
        loop {
            if let Some(stop) = &self.stop {
                return stop.clone();
            }
            self.step();
        }
    }

    /// Takes steps until `steps` have been taken or the run stops, whichever comes first;
    /// returns whether `steps` were reached. Reaching them step by step does not end the run
    /// at its last step ([`Simulation::settle`] does).
    pub fn run_to(&mut self, steps: usize) -> bool {
        while self.steps.len() < steps && self.step().is_some() {}
        self.steps.len() >= steps
    }

    /// Takes one step; returns it, or `None` if the run has stopped (see
    /// [`Simulation::stop_reason`]).
    pub fn step(&mut self) -> Option<&TraceStep> {
        if self.stop.is_some() || self.hit_limit() {
            return None;
        }
        let Some((action, chosen_by)) = self.choose() else {
            self.stop_with_nothing_to_choose();
            return None;
        };
        let number = self.steps.len().saturating_add(1);
        // `choose` took the action from this state's enabled actions.
        let record = match self.world.apply_listed(&action) {
            Ok(record) => record,
            Err(error) => {
                self.step_failed(number, &error);
                return None;
            }
        };
        self.record(number, record, chosen_by);
        self.steps.last()
    }

    /// Records why the run stops, if it stops where it is (a limit reached, or nothing the
    /// scheduler may choose enabled), as the next [`Simulation::step`] would, without taking a
    /// step or drawing randomness: so a run whose last step was reached step by step ends as
    /// [`Simulation::run_to_end`] ends it. Returns the reason, if any.
    pub fn settle(&mut self) -> Option<&StopReason> {
        if self.stop.is_none() && !self.hit_limit() {
            let enabled = match self.faults_possible() {
                true => self.world.enabled_actions(),
                false => self.world.enabled_normal_actions(),
            };
            if enabled.is_empty() {
                self.stop_with_nothing_to_choose();
            }
        }
        self.stop.as_ref()
    }

    /// Stops the run where nothing is left to choose: quiescent, or stuck with work pending.
    fn stop_with_nothing_to_choose(&mut self) {
        let pending = self.world.pending_work();
        self.stop = Some(if pending.is_empty() {
            StopReason::Quiescent
        } else {
            StopReason::Stuck { pending: pending.join("; ") }
        });
    }

    /// Takes `action`, chosen by the user rather than the scheduler (a fault the learner
    /// injects by hand, or a normal action to steer the schedule). A refused action changes
    /// nothing and is a typed error; a step past a limit is [`ApplyError::NotEnabled`] too.
    pub fn step_with(&mut self, action: Action) -> Result<&TraceStep, ApplyError> {
        if self.stop.is_some() || self.hit_limit() || !self.world.is_enabled(&action) {
            return Err(ApplyError::NotEnabled { action });
        }
        let number = self.steps.len().saturating_add(1);
        let record = match self.world.apply_listed(&action) {
            Ok(record) => record,
            Err(error) => {
                self.step_failed(number, &error);
                return Err(error);
            }
        };
        self.record(number, record, Choice::User);
        self.steps.last().ok_or(ApplyError::NotEnabled { action })
    }

    /// Step `number` failed with `error`: the run stops there, and a store's limit is
    /// recorded as the run's [`LimitReached`].
    fn step_failed(&mut self, number: usize, error: &ApplyError) {
        self.stop = Some(StopReason::StepFailed { step: number, error: error.to_string() });
        if let ApplyError::StoreLimit(refusal) = error {
            self.limit_reached = Some(LimitReached { step: number, refusal: refusal.clone() });
        }
    }

    fn hit_limit(&mut self) -> bool {
        match self.limit_reached() {
            Some(stop) => {
                self.stop = Some(stop);
                true
            }
            None => false,
        }
    }

    /// Why the run stops at its next step because of a limit, if it has reached one (the
    /// step records the reason and takes nothing).
    pub(crate) fn limit_reached(&self) -> Option<StopReason> {
        let limits = self.scenario.limits;
        if self.steps.len() >= limits.steps_max {
            return Some(StopReason::StepLimit { steps_max: limits.steps_max });
        }
        if self.steps.len() >= limits.trace_steps_max {
            return Some(StopReason::TraceFull { trace_steps_max: limits.trace_steps_max });
        }
        None
    }

    fn record(&mut self, number: usize, record: crate::sim::trace::StepRecord, chosen_by: Choice) {
        let new_violations = record.new_violations;
        let violated = record.violated;
        for invariant in &violated {
            self.first_violation_step.entry(*invariant).or_insert(number);
        }
        let fault = record.action.fault_class();
        if let Some(class) = fault {
            *self.faults.entry(class).or_insert(0) += 1;
        }
        self.violated_now.clone_from(&violated);
        self.steps.push(TraceStep {
            step: number,
            tick: record.tick,
            actor: record.actor,
            lane: record.actor.lane_name(),
            action: record.action,
            fault,
            chosen_by,
            statement: record.statement,
            request: record.request,
            attempt: record.attempt,
            message_id: record.message_id,
            key: record.key,
            events: record.events,
            row_changes: record.row_changes,
            new_violations,
            violated,
            quiescent: record.quiescent,
        });
        if self.snapshots.is_due(number) {
            self.snapshots.keep(number, self.world.snapshot());
        } else {
            self.snapshots.release_one();
        }
    }

    /// Whether a step may take a fault action now: an injection has not fired yet, or a
    /// random fault may still be drawn.
    fn faults_possible(&self) -> bool {
        self.fired.iter().any(|fired| !fired)
            || (!self.scenario.fault_rates.is_none()
                && self.random_faults_fired < self.scenario.limits.random_faults_max)
    }

    /// The scheduler's choice, from the enabled actions of the state, computed once. When no
    /// fault can be taken (every injection fired, no random fault left to draw), only the
    /// normal actions are listed: the choice among them is the same.
    fn choose(&mut self) -> Option<(Action, Choice)> {
        let enabled = if self.faults_possible() {
            self.world.enabled_actions()
        } else {
            self.world.enabled_normal_actions()
        };
        if enabled.is_empty() {
            return None;
        }
        for (index, injection) in self.scenario.injections.iter().enumerate() {
            if self.fired.get(index).copied().unwrap_or(true) {
                continue;
            }
            if let Some(action) = trigger(&self.world, injection, &enabled)
                && is_listed(&enabled, &action)
            {
                if let Some(fired) = self.fired.get_mut(index) {
                    *fired = true;
                }
                return Some((action, Choice::Injection { index }));
            }
        }
        let rates = &self.scenario.fault_rates;
        let random_faults: usize = self.random_faults_fired;
        if !rates.is_none() && random_faults < self.scenario.limits.random_faults_max {
            // How many enabled actions each class has, in one pass.
            let mut of_class = [0usize; FaultClass::ALL.len()];
            for action in &enabled {
                if let Some(class) = action.fault_class()
                    && let Some(count) = of_class.get_mut(class_index(class))
                {
                    *count = count.saturating_add(1);
                }
            }
            for class in FaultClass::ALL {
                let rate = rates.per_million(class);
                if rate == 0 {
                    continue;
                }
                let count = of_class.get(class_index(class)).copied().unwrap_or(0);
                if count == 0 || !self.scheduler_rng.chance_per_million(rate) {
                    continue;
                }
                let index = usize::try_from(self.scheduler_rng.below(count as u64)).ok()?;
                let chosen =
                    enabled.iter().filter(|action| action.fault_class() == Some(class)).nth(index);
                if let Some(action) = chosen {
                    self.random_faults_fired = self.random_faults_fired.saturating_add(1);
                    return Some((action.clone(), Choice::RandomFault));
                }
            }
        }
        // The normal actions come first in the list, the clock's advance last among them.
        let normal_len = enabled.iter().take_while(|action| action.fault_class().is_none()).count();
        let normal = enabled.get(..normal_len).unwrap_or_default();
        debug_assert!(enabled.iter().skip(normal_len).all(|action| action.fault_class().is_some()));
        let (clock, others) = match normal.split_last() {
            Some((last @ Action::AdvanceClock { .. }, others)) => (Some(last), others),
            _ => (None, normal),
        };
        debug_assert!(!others.iter().any(|action| matches!(action, Action::AdvanceClock { .. })));
        let early = self.scenario.schedule.early_clock_advance_per_million;
        match clock {
            Some(clock) if others.is_empty() => return Some((clock.clone(), Choice::Scheduler)),
            Some(clock) if early > 0 && self.scheduler_rng.chance_per_million(early) => {
                return Some((clock.clone(), Choice::Scheduler));
            }
            _ => {}
        }
        let index = usize::try_from(self.scheduler_rng.below(others.len() as u64)).ok()?;
        others.get(index).map(|action| (action.clone(), Choice::Scheduler))
    }

    /// The whole trace so far (its stop reason is [`StopReason::Running`] if the run has not
    /// stopped yet).
    pub fn trace(&self) -> Trace {
        Trace { steps: self.steps.to_vec(), ..self.trace_without_steps() }
    }

    /// The whole trace, taking the steps rather than copying them.
    pub fn into_trace(self) -> Trace {
        let trace = self.trace_without_steps();
        Trace { steps: self.steps.into_vec(), ..trace }
    }

    /// The trace with an empty list of steps (its summary counts them all).
    fn trace_without_steps(&self) -> Trace {
        let stop = self.stop.clone().unwrap_or(StopReason::Running);
        let violated_at_end = self.violated_now.clone();
        Trace {
            format_version: TRACE_FORMAT_VERSION,
            scenario: self.scenario.clone(),
            seed: self.seed,
            stop,
            limit_reached: self.limit_reached.clone(),
            summary: TraceSummary {
                steps: self.steps.len(),
                final_tick: self.world.now(),
                first_violation_step: self.first_violation_step.clone(),
                violated_at_end,
                faults: self.faults.clone(),
            },
            steps: Vec::new(),
        }
    }

    /// The world after `step` steps (0 is the start): from the nearest snapshot, replaying the
    /// recorded actions.
    pub fn world_after(&self, step: usize) -> Result<World, RewindError> {
        if step == self.steps.len() {
            return Ok(self.world.clone());
        }
        let snapshot = self.nearest_snapshot(step)?;
        let mut world = World::clone(&snapshot.world);
        self.replay_onto(&mut world, snapshot.step, step)?;
        Ok(world)
    }

    /// Moves `world`, the world after `at` steps of this run, to the world after `step` steps:
    /// on from `world` itself when `step` is ahead of it and no snapshot is nearer, else from
    /// the nearest snapshot. Stepping forward through a recorded run costs one step this way,
    /// not a copy of the world. `world` is left unchanged on an error.
    pub fn rewind(&self, world: &mut World, at: usize, step: usize) -> Result<(), RewindError> {
        if step > self.steps.len() {
            return Err(RewindError::StepOutOfRange { step, steps: self.steps.len() });
        }
        if at > self.steps.len() {
            return Err(RewindError::StepOutOfRange { step: at, steps: self.steps.len() });
        }
        let snapshot = self.nearest_snapshot(step)?;
        if at <= step && snapshot.step <= at {
            if let Err(error) = self.replay_onto(world, at, step) {
                // Only a bug gets here (the run's own steps replay): put `world` back.
                *world = self.world_after(at)?;
                return Err(error);
            }
        } else {
            *world = self.world_after(step)?;
        }
        Ok(())
    }

    fn nearest_snapshot(&self, step: usize) -> Result<&Snapshot, RewindError> {
        if step > self.steps.len() {
            return Err(RewindError::StepOutOfRange { step, steps: self.steps.len() });
        }
        self.snapshots
            .nearest(step)
            .ok_or(RewindError::StepOutOfRange { step, steps: self.steps.len() })
    }

    /// Applies the recorded actions of steps `from + 1` to `to` to `world`, the world after
    /// `from` steps: the same states again (the run is a pure function of its inputs), without
    /// judging the invariants (each step's record has them).
    fn replay_onto(&self, world: &mut World, from: usize, to: usize) -> Result<(), RewindError> {
        for recorded in self.steps.iter_from(from).take(to.saturating_sub(from)) {
            world
                .replay_recorded(&recorded.action)
                .map_err(|error| RewindError::Replay { step: recorded.step, error })?;
        }
        Ok(())
    }

    /// How many snapshots the run keeps now, and the steps between two of them (0: only the
    /// start's is kept).
    pub fn snapshots_kept(&self) -> (usize, usize) {
        (self.snapshots.kept.len(), self.snapshots.interval)
    }
}

/// The position of `class` in [`FaultClass::ALL`].
fn class_index(class: FaultClass) -> usize {
    FaultClass::ALL.iter().position(|other| *other == class).unwrap_or(0)
}
