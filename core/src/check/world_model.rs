//! The simulator's [`World`] as a [`Model`] for the explorer, and the [`Checker`] that the CLI
//! and the page drive: every interleaving and every fault choice of a bounded scenario.
//!
//! The model's actions are the world's enabled actions, filtered by the [`CheckConfig`]: fault
//! actions only while their class has budget left on the path ([`FaultBudget`]), the clock only
//! when nothing else can run unless [`ClockPolicy::Anytime`]. A state is the world plus the
//! faults spent on the way to it. The property is "none of the configured invariants is
//! violated" after the step (I6 only at quiescence, as the world checks it).
//!
//! Symmetry: the consumer instances are identical, so a state and the same state with
//! instances A and B swapped have the same futures up to renaming. With
//! [`SymmetryReduction::ConsumerInstances`] the fingerprint is the smallest over every
//! permutation of the instances (consumers and the broker's in-flight lists renamed
//! together), so such twins are explored once. It is sound because nothing else in the world
//! (store, history, invariants) names an instance. Beyond four instances (24 permutations)
//! the reduction is skipped.
//!
//! History: the world's [`History`] is an ordered log, so two states equal in everything else
//! but whose records of different idempotency keys or different messages were appended in
//! another order would be stored twice. The fingerprint hashes its canonical form instead: the
//! answers grouped by key, the handler runs grouped by key and the message events grouped by
//! message, each group in the order recorded, plus the number of records. It is sound because
//! (1) the world never reads the history to decide a transition, except for the limit on its
//! length (hashed) and the handler run an attempt will end, which the attempt names by position
//! and the fingerprint renames to (key, rank within the key); and (2) every invariant reads the
//! history per key (I4: answers compared with the key's first answer, runs of one key in start
//! order, ties in recorded order, kept within the group; I7: each answer on its own) or per
//! message (I5: effects and purges of one inbox row in order; I6: effects and publishes counted
//! per message). So states with one canonical form have the same futures and the same verdicts
//! on every future; only the row positions in a violation's sentence may differ, and a reported
//! violation is always the one of the path replayed. Measured: 145 888 states instead of
//! 148 575 for [`crate::check::two_consumers_two_orders_duplicate_and_crash`]; nothing for one
//! message, where there is one key and one message.
//!
//! What it does not reduce: two orders sent together pass 1 000 000 states by depth 49, and the
//! count is nearly the same with the history, the transaction counter, the attempt ids and the
//! broker's entry ids left out of the fingerprint altogether (65 121 instead of 65 163 states
//! to depth 24): the states differ in where each of the five actors (two requests, the relay,
//! two consumers) is in its statements, which is what an exhaustive check must tell apart.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::check::budget::FaultBudget;
use crate::check::explorer::{
    BYTES_MAX_DEFAULT, BoundReason, ExploreBounds, ExploreOutcome, ExploreStats, ExploreStatus,
    Explorer, Model, ModelLimit,
};
use crate::check::fingerprint::{Fingerprint, StateHasher};
use crate::faults::FaultClass;
use crate::invariants::{InvariantId, Violation};
use crate::sim::{
    Action, ApplyError, FaultRates, Scenario, ScenarioError, Simulation, Trace, World,
};
use crate::slice::{SLICE_MS, run_slice};

mod canonical;

use canonical::{
    ByteCounter, HEAP_BYTES_PER_HASHED_BYTE, hash_common, hash_instances, permutations,
};

/// When the checker lets virtual time move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockPolicy {
    /// Only when no other normal action can run, as the simulator's default schedule does:
    /// timeouts fire on requests that are stuck, not on slow ones.
    #[default]
    WhenIdle,
    /// Whenever a deadline is ahead: slow requests time out and slow consumers get their
    /// message redelivered. Many more states.
    Anytime,
}

/// Which symmetric states are explored once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymmetryReduction {
    /// States equal up to a renaming of the consumer instances share a fingerprint.
    #[default]
    ConsumerInstances,
    /// Every state is its own.
    Off,
}

/// The checker's bounds and choices.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckConfig {
    /// The longest path explored, in steps.
    pub depth_max: usize,
    /// The most unique states stored.
    pub states_max: usize,
    /// The most bytes the checker holds, as `Checker::bytes_held` estimates them.
    pub bytes_max: usize,
    /// The faults a path may take.
    pub faults: FaultBudget,
    /// When time moves.
    pub clock: ClockPolicy,
    /// Which symmetric states are merged.
    pub symmetry: SymmetryReduction,
    /// The invariants checked; a violation of another one is ignored (for example I6 in a
    /// scenario that shows F10 on purpose).
    pub invariants: Vec<InvariantId>,
    /// How often the progress callback is called, in expanded states.
    pub progress_every_states: usize,
}

impl Default for CheckConfig {
    /// Depth 200, a million states, 512 MiB, no faults, the clock when idle, symmetry on,
    /// I1-I7.
    fn default() -> Self {
        CheckConfig {
            depth_max: 200,
            states_max: 1_000_000,
            bytes_max: BYTES_MAX_DEFAULT,
            faults: FaultBudget::none(),
            clock: ClockPolicy::WhenIdle,
            symmetry: SymmetryReduction::ConsumerInstances,
            invariants: InvariantId::ALL.to_vec(),
            progress_every_states: 1_000,
        }
    }
}

/// One state of the checker: the world and the faults spent to reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CheckState {
    /// The world.
    pub(crate) world: World,
    /// Faults taken on the path, by class.
    pub(crate) faults_used: BTreeMap<FaultClass, u32>,
}

/// The simulator's world as a model.
#[derive(Clone, Debug)]
pub(crate) struct WorldModel {
    initial: World,
    config: CheckConfig,
    permutations: Vec<Vec<usize>>,
}

impl WorldModel {
    /// The model of `initial` under `config`.
    pub(crate) fn new(initial: World, config: CheckConfig) -> WorldModel {
        let instances = initial.consumers().len();
        let permutations = match config.symmetry {
            SymmetryReduction::ConsumerInstances if instances <= 4 => permutations(instances),
            SymmetryReduction::ConsumerInstances | SymmetryReduction::Off => {
                vec![(0..instances).collect()]
            }
        };
        WorldModel { initial, config, permutations }
    }

    /// The configuration.
    pub(crate) fn config(&self) -> &CheckConfig {
        &self.config
    }

    fn checked(&self, violations: Vec<Violation>) -> Option<Vec<Violation>> {
        let kept: Vec<Violation> = violations
            .into_iter()
            .filter(|violation| self.config.invariants.contains(&violation.invariant))
            .collect();
        (!kept.is_empty()).then_some(kept)
    }
}

impl Model for WorldModel {
    type State = CheckState;
    type Action = Action;
    type Violation = Vec<Violation>;

    fn initial_state(&self) -> CheckState {
        CheckState { world: self.initial.clone(), faults_used: BTreeMap::new() }
    }

    fn actions(&self, state: &CheckState) -> Vec<Action> {
        let normal = state.world.enabled_normal_actions();
        let others = normal.iter().any(|action| !matches!(action, Action::AdvanceClock { .. }));
        let mut actions: Vec<Action> = normal
            .into_iter()
            .filter(|action| {
                !matches!(action, Action::AdvanceClock { .. })
                    || self.config.clock == ClockPolicy::Anytime
                    || !others
            })
            .collect();
        actions.extend(state.world.enabled_fault_actions().into_iter().filter(|action| {
            action.fault_class().is_some_and(|class| {
                state.faults_used.get(&class).copied().unwrap_or(0)
                    < self.config.faults.allowed(class)
            })
        }));
        actions
    }

    fn next_state(
        &self,
        state: &CheckState,
        action: &Action,
    ) -> Result<CheckState, ModelLimit<Action>> {
        let mut next = state.clone();
        // The action comes from `actions`, that is from the world's enabled lists in this
        // state, so the unchecked apply is exact; every reported path is replayed with the
        // checked one (`path_to_trace`).
        next.world.apply_enabled(action)?;
        if let Some(class) = action.fault_class() {
            *next.faults_used.entry(class).or_insert(0) += 1;
        }
        Ok(next)
    }

    fn violation(&self, state: &CheckState) -> Option<Vec<Violation>> {
        self.checked(state.world.violations())
    }

    fn fingerprint(&self, state: &CheckState) -> Fingerprint {
        let mut common = StateHasher::default();
        hash_common(state, &mut common);
        self.permutations
            .iter()
            .map(|permutation| {
                let mut hasher = common.clone();
                hash_instances(&state.world, permutation, &mut hasher);
                hasher.finish()
            })
            .min()
            .unwrap_or(0)
    }

    /// The bytes the fingerprint hashes (the world's data, without the allocator's and the
    /// collections' overhead), times [`HEAP_BYTES_PER_HASHED_BYTE`].
    fn state_heap_bytes(&self, state: &CheckState) -> usize {
        let mut counter = ByteCounter::default();
        hash_common(state, &mut counter);
        hash_instances(
            &state.world,
            self.permutations.first().map_or(&[], Vec::as_slice),
            &mut counter,
        );
        counter.0.saturating_mul(HEAP_BYTES_PER_HASHED_BYTE)
    }
}

/// Why the checker could not run or report.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CheckError {
    /// The scenario is invalid.
    #[error("the scenario: {0}")]
    Scenario(#[from] ScenarioError),
    /// The counterexample did not replay in the simulator: the model and the simulator
    /// disagree (a bug, reported rather than hidden).
    #[error("step {step} of the counterexample did not replay: {error}")]
    Replay {
        /// The step, from 1.
        step: usize,
        /// Why.
        error: ApplyError,
    },
}

/// A violation found by the checker, with one of the shortest paths to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The invariants broken in the last state of the path.
    pub violations: Vec<Violation>,
    /// The actions from the start, in order; `path.len()` is the shortest length.
    pub path: Vec<Action>,
    /// The path as a simulator trace: every step of the path chosen by the user
    /// ([`crate::sim::Choice::User`]), then the seeded scheduler to the end of the run. It
    /// loads, replays ([`Simulation::replay`]) and shows like any trace.
    pub trace: Trace,
}

/// How a check ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// Every reachable state within the fault budget holds every checked invariant.
    Proved,
    /// An invariant broke.
    Violated(Box<Counterexample>),
    /// A bound stopped the check before it covered every state; none of those explored broke
    /// an invariant.
    Bounded {
        /// Which bound.
        reason: BoundReason,
    },
}

/// What a finished check reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// How it ended.
    pub outcome: CheckOutcome,
    /// States explored, unique states, depth reached.
    pub stats: ExploreStats,
}

/// What the progress callback is given: states, unique states, depth, frontier size.
pub type CheckProgress = ExploreStats;

/// Where a slice of checking left the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckStatus {
    /// Work is left; call [`Checker::run_for`] again.
    Running(CheckProgress),
    /// The check is over.
    Done(CheckReport),
}

/// An exhaustive check of one scenario, resumable in slices.
#[derive(Clone, Debug)]
pub struct Checker {
    scenario: Scenario,
    seed: u64,
    explorer: Explorer<WorldModel>,
}

impl Checker {
    /// A check of `scenario` whose ids are drawn from `seed`. The scenario's injections and
    /// fault rates are dropped: the checker chooses faults itself, within `config.faults`.
    pub fn new(scenario: Scenario, seed: u64, config: CheckConfig) -> Result<Checker, CheckError> {
        let scenario = checked_scenario(scenario);
        let initial = Simulation::new(scenario.clone(), seed)?.world().clone();
        let bounds = ExploreBounds {
            depth_max: config.depth_max,
            states_max: config.states_max,
            bytes_max: config.bytes_max,
        };
        let explorer = Explorer::new(WorldModel::new(initial, config), bounds);
        Ok(Checker { scenario, seed, explorer })
    }

    /// The counters so far.
    pub fn progress(&self) -> CheckProgress {
        self.explorer.stats()
    }

    /// An estimate of the bytes the check holds ([`Explorer::bytes_held`]), which
    /// [`CheckConfig::bytes_max`] bounds.
    #[cfg(test)]
    pub(crate) fn bytes_held(&self) -> usize {
        self.explorer.bytes_held()
    }

    /// Expands at most `states_budget` states, calling `progress` on the way.
    pub fn run_for(
        &mut self,
        states_budget: usize,
        progress: &mut dyn FnMut(&CheckProgress),
    ) -> Result<CheckStatus, CheckError> {
        let every = self.explorer.model().config().progress_every_states;
        match self.explorer.run_for(states_budget, every, progress) {
            ExploreStatus::Running(stats) => Ok(CheckStatus::Running(stats)),
            ExploreStatus::Done(outcome, stats) => {
                Ok(CheckStatus::Done(CheckReport { outcome: self.outcome(outcome)?, stats }))
            }
        }
    }

    /// One slice of a check run in slices ([`crate::slice`]): [`run_for`](Self::run_for)
    /// `states_per_call` states at a time until the check ends or `clock` (in milliseconds) has
    /// moved [`SLICE_MS`] on.
    pub fn run_slice(
        &mut self,
        states_per_call: usize,
        clock: &mut dyn FnMut() -> f64,
    ) -> Result<CheckStatus, CheckError> {
        let flow =
            run_slice(SLICE_MS, clock, &mut || match self.run_for(states_per_call, &mut |_| {}) {
                Ok(CheckStatus::Running(progress)) => ControlFlow::Continue(progress),
                other => ControlFlow::Break(other),
            });
        match flow {
            ControlFlow::Continue(progress) => Ok(CheckStatus::Running(progress)),
            ControlFlow::Break(status) => status,
        }
    }

    /// Runs to the end, within the bounds.
    pub fn run_to_end(
        &mut self,
        progress: &mut dyn FnMut(&CheckProgress),
    ) -> Result<CheckReport, CheckError> {
        let every = self.explorer.model().config().progress_every_states.max(1);
        loop {
            if let CheckStatus::Done(report) = self.run_for(every, progress)? {
                return Ok(report);
            }
        }
    }

    fn outcome(
        &self,
        outcome: ExploreOutcome<Action, Vec<Violation>>,
    ) -> Result<CheckOutcome, CheckError> {
        Ok(match outcome {
            ExploreOutcome::Proved => CheckOutcome::Proved,
            ExploreOutcome::Bounded { reason } => CheckOutcome::Bounded { reason },
            ExploreOutcome::Violated { violation, path } => {
                let trace = path_to_trace(&self.scenario, self.seed, &path)?;
                CheckOutcome::Violated(Box::new(Counterexample {
                    violations: violation,
                    path,
                    trace,
                }))
            }
        })
    }
}

/// Checks `scenario` with `seed` under `config` to the end (within its bounds).
pub fn check(
    scenario: Scenario,
    seed: u64,
    config: CheckConfig,
    progress: &mut dyn FnMut(&CheckProgress),
) -> Result<CheckReport, CheckError> {
    Checker::new(scenario, seed, config)?.run_to_end(progress)
}

/// The scenario as the checker runs it: no injections, no random faults.
fn checked_scenario(mut scenario: Scenario) -> Scenario {
    scenario.injections.clear();
    scenario.fault_rates = FaultRates::none();
    scenario
}

/// Replays `path` in the simulator as user-chosen steps, then lets the seeded scheduler finish
/// the run, so that the trace equals its own replay. The run is read once, so it keeps no
/// rewind snapshots: on the worst accepted scenario a run to `steps_max` with them takes
/// gigabytes, without them about a hundred megabytes.
pub(crate) fn path_to_trace(
    scenario: &Scenario,
    seed: u64,
    path: &[Action],
) -> Result<Trace, CheckError> {
    let mut simulation = Simulation::without_snapshots(scenario.clone(), seed)?;
    for (index, action) in path.iter().enumerate() {
        simulation
            .step_with(action.clone())
            .map_err(|error| CheckError::Replay { step: index + 1, error })?;
    }
    simulation.run_to_end();
    Ok(simulation.into_trace())
}
