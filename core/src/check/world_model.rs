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

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::check::explorer::{
    BoundReason, ExploreBounds, ExploreOutcome, ExploreStats, ExploreStatus, Explorer, Model,
};
use crate::check::fingerprint::{Fingerprint, FnvHasher};
use crate::invariants::{InvariantId, Violation};
use crate::sim::{
    Action, ApplyError, Broker, EntryState, FaultClass, FaultRates, InstanceId, Scenario,
    ScenarioError, Simulation, Trace, World,
};

/// How many faults of each class one path may take. A class not listed is never taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FaultBudget(pub BTreeMap<FaultClass, u32>);

impl FaultBudget {
    /// No faults at all: only the normal interleavings.
    pub fn none() -> FaultBudget {
        FaultBudget(BTreeMap::new())
    }

    /// `count` faults of each class in `classes`.
    pub fn of(classes: &[(FaultClass, u32)]) -> FaultBudget {
        FaultBudget(classes.iter().copied().collect())
    }

    /// How many faults of `class` a path may take.
    pub fn allowed(&self, class: FaultClass) -> u32 {
        self.0.get(&class).copied().unwrap_or(0)
    }
}

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
    /// Depth 200, a million states, no faults, the clock when idle, symmetry on, I1-I7.
    fn default() -> Self {
        CheckConfig {
            depth_max: 200,
            states_max: 1_000_000,
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
pub struct CheckState {
    /// The world.
    pub world: World,
    /// Faults taken on the path, by class.
    pub faults_used: BTreeMap<FaultClass, u32>,
}

/// The simulator's world as a model.
#[derive(Clone, Debug)]
pub struct WorldModel {
    initial: World,
    config: CheckConfig,
    permutations: Vec<Vec<usize>>,
}

impl WorldModel {
    /// The model of `initial` under `config`.
    pub fn new(initial: World, config: CheckConfig) -> WorldModel {
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
    pub fn config(&self) -> &CheckConfig {
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
    ) -> Result<(CheckState, Option<Vec<Violation>>), String> {
        let mut next = state.clone();
        let record = next.world.apply(action).map_err(|error| error.to_string())?;
        if let Some(class) = action.fault_class() {
            *next.faults_used.entry(class).or_insert(0) += 1;
        }
        let violation = self.checked(record.violations);
        Ok((next, violation))
    }

    fn initial_violation(&self, state: &CheckState) -> Option<Vec<Violation>> {
        self.checked(state.world.violations())
    }

    fn fingerprint(&self, state: &CheckState) -> Fingerprint {
        self.permutations
            .iter()
            .map(|permutation| fingerprint_under(state, permutation))
            .min()
            .unwrap_or(0)
    }
}

/// The fingerprint of `state` with instance `i` renamed to `permutation[i]`. Hashes every
/// part of the world that [`World`]'s own `Hash` does (its attempt counter is the sum of the
/// clients' sends, so it is covered by the clients).
fn fingerprint_under(state: &CheckState, permutation: &[usize]) -> Fingerprint {
    let world = &state.world;
    let mut hasher = FnvHasher::default();
    world.config().hash(&mut hasher);
    world.now().hash(&mut hasher);
    world.store().hash(&mut hasher);
    world.history().hash(&mut hasher);
    world.clients().hash(&mut hasher);
    world.attempts().hash(&mut hasher);
    world.responses().hash(&mut hasher);
    world.relay().hash(&mut hasher);
    world.retention().hash(&mut hasher);
    state.faults_used.hash(&mut hasher);
    let rename = |instance: InstanceId| {
        InstanceId(permutation.get(instance.0).copied().unwrap_or(instance.0))
    };
    let mut consumers: Vec<(usize, _)> = world
        .consumers()
        .iter()
        .enumerate()
        .map(|(index, consumer)| (rename(InstanceId(index)).0, consumer))
        .collect();
    consumers.sort_by_key(|(index, _)| *index);
    for (_, consumer) in consumers {
        consumer.hash(&mut hasher);
    }
    let broker: &Broker = world.broker();
    broker.next_entry.hash(&mut hasher);
    broker.dead_letters.hash(&mut hasher);
    broker.deliveries_by_message.hash(&mut hasher);
    broker.entries.len().hash(&mut hasher);
    for (id, entry) in &broker.entries {
        id.hash(&mut hasher);
        entry.envelope.hash(&mut hasher);
        entry.message_id.hash(&mut hasher);
        entry.deliveries.hash(&mut hasher);
        match &entry.state {
            EntryState::InFlight { instances, redeliver_at } => {
                let renamed: Vec<InstanceId> =
                    instances.iter().map(|instance| rename(*instance)).collect();
                EntryState::InFlight { instances: renamed, redeliver_at: *redeliver_at }
                    .hash(&mut hasher);
            }
            other => other.hash(&mut hasher),
        }
    }
    hasher.finish()
}

/// Every permutation of `0..count`, the identity first.
fn permutations(count: usize) -> Vec<Vec<usize>> {
    let mut all = vec![Vec::new()];
    for next in 0..count {
        let mut extended = Vec::new();
        for permutation in &all {
            for position in 0..=permutation.len() {
                let mut longer: Vec<usize> = permutation.clone();
                longer.insert(position, next);
                extended.push(longer);
            }
        }
        all = extended;
    }
    all.sort();
    all
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
        let bounds = ExploreBounds { depth_max: config.depth_max, states_max: config.states_max };
        let explorer = Explorer::new(WorldModel::new(initial, config), bounds);
        Ok(Checker { scenario, seed, explorer })
    }

    /// The scenario checked (without injections and fault rates).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The counters so far.
    pub fn progress(&self) -> CheckProgress {
        self.explorer.stats()
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
/// the run, so that the trace equals its own replay.
pub fn path_to_trace(scenario: &Scenario, seed: u64, path: &[Action]) -> Result<Trace, CheckError> {
    let mut simulation = Simulation::new(scenario.clone(), seed)?;
    for (index, action) in path.iter().enumerate() {
        simulation
            .step_with(action.clone())
            .map_err(|error| CheckError::Replay { step: index + 1, error })?;
    }
    simulation.run_to_end();
    Ok(simulation.trace())
}
