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

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::check::budget::FaultBudget;
use crate::check::explorer::{
    BYTES_MAX_DEFAULT, BoundReason, ExploreBounds, ExploreOutcome, ExploreStats, ExploreStatus,
    Explorer, Model,
};
use crate::check::fingerprint::{Fingerprint, FnvHasher};
use crate::faults::FaultClass;
use crate::history::{ApiResponse, HandlerRun, History, MessageEvent};
use crate::ids::{IdempotencyKey, MessageId};
use crate::invariants::{InvariantId, Violation};
use crate::sim::{
    Action, ApiAttempt, ApplyError, Broker, EntryState, FaultRates, InstanceId, Scenario,
    ScenarioError, Simulation, Trace, World,
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
    ) -> Result<(CheckState, Option<Vec<Violation>>), String> {
        let mut next = state.clone();
        // The action comes from `actions`, that is from the world's enabled lists in this
        // state, so the unchecked apply is exact; every reported path is replayed with the
        // checked one (`path_to_trace`).
        let violations = next.world.apply_enabled(action).map_err(|error| error.to_string())?;
        if let Some(class) = action.fault_class() {
            *next.faults_used.entry(class).or_insert(0) += 1;
        }
        let violation = self.checked(violations);
        Ok((next, violation))
    }

    fn initial_violation(&self, state: &CheckState) -> Option<Vec<Violation>> {
        self.checked(state.world.violations())
    }

    fn fingerprint(&self, state: &CheckState) -> Fingerprint {
        let mut common = FnvHasher::default();
        hash_common(state, &mut common);
        self.permutations
            .iter()
            .map(|permutation| {
                let mut hasher = common;
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

/// How many bytes of heap a world holds per byte its fingerprint hashes: the overhead of its
/// maps, vectors and strings (nodes, spare capacity, lengths and pointers). Measured by the
/// resident memory of 300 clones: on the worst accepted scenario (the check bench's), a world
/// after 200 steps hashes 623 218 bytes and takes 952 784 (1.5 a byte), its initial world
/// 87 959 and 142 417 (1.6); the reference scenario's initial world 604 and 1 392 (2.3, but
/// small worlds weigh little against the bound).
const HEAP_BYTES_PER_HASHED_BYTE: usize = 2;

/// A hasher that counts the bytes written to it.
#[derive(Clone, Copy, Debug, Default)]
struct ByteCounter(usize);

impl Hasher for ByteCounter {
    fn finish(&self) -> u64 {
        self.0 as u64
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = self.0.saturating_add(bytes.len());
    }
}

/// Hashes every part of `state` that names no consumer instance: the world's configuration,
/// clock, store, clients, API attempts and answers, relay and retention job, the faults spent,
/// and the history in its canonical form ([`hash_history`]). The world's attempt counter is the
/// sum of the clients' sends, so it is covered by the clients.
fn hash_common(state: &CheckState, hasher: &mut impl Hasher) {
    let world = &state.world;
    world.config().hash(hasher);
    world.now().hash(hasher);
    world.store().hash(hasher);
    world.clients().hash(hasher);
    let runs = canonical_runs(world.history());
    world.attempts().len().hash(hasher);
    for (id, attempt) in world.attempts() {
        id.hash(hasher);
        hash_attempt(attempt, &runs, hasher);
    }
    world.responses().hash(hasher);
    world.relay().hash(hasher);
    world.retention().hash(hasher);
    state.faults_used.hash(hasher);
    hash_history(world.history(), hasher);
}

/// Each handler run's canonical name, by [`HandlerRunId`]: its key and its rank among the
/// key's runs (the order in which one key's runs were recorded is kept; the order across keys
/// is forgotten).
fn canonical_runs(history: &History) -> Vec<(IdempotencyKey, usize)> {
    let mut per_key: BTreeMap<IdempotencyKey, usize> = BTreeMap::new();
    history
        .handler_runs()
        .iter()
        .map(|run| {
            let rank = per_key.entry(run.key).or_insert(0);
            let name = (run.key, *rank);
            *rank += 1;
            name
        })
        .collect()
}

/// Hashes an API attempt with its handler run named canonically. The destructuring names every
/// field, so a field added to [`ApiAttempt`] does not compile until it is hashed here.
fn hash_attempt(attempt: &ApiAttempt, runs: &[(IdempotencyKey, usize)], hasher: &mut impl Hasher) {
    let ApiAttempt {
        request,
        send_number,
        kind,
        key,
        fingerprint,
        layer,
        waiting_for,
        handler_run,
        pending_lease,
        origin,
        started,
        uses_planned_order,
    } = attempt;
    request.hash(hasher);
    send_number.hash(hasher);
    kind.hash(hasher);
    key.hash(hasher);
    fingerprint.hash(hasher);
    layer.hash(hasher);
    waiting_for.hash(hasher);
    handler_run.map(|run| runs.get(run.0)).hash(hasher);
    pending_lease.hash(hasher);
    origin.hash(hasher);
    started.hash(hasher);
    uses_planned_order.hash(hasher);
}

/// Hashes the history in a canonical form: its length (the world's limit on records), then the
/// answers grouped by idempotency key, the handler runs grouped by key, and the message events
/// grouped by message, each group in the order recorded. What is forgotten is the order of
/// records of different keys, or of different messages, relative to each other.
fn hash_history(history: &History, hasher: &mut impl Hasher) {
    history.config().hash(hasher);
    history.len().hash(hasher);
    let mut responses: BTreeMap<Option<IdempotencyKey>, Vec<&ApiResponse>> = BTreeMap::new();
    for response in history.responses() {
        responses.entry(response.key).or_default().push(response);
    }
    responses.hash(hasher);
    let mut runs: BTreeMap<IdempotencyKey, Vec<&HandlerRun>> = BTreeMap::new();
    for run in history.handler_runs() {
        runs.entry(run.key).or_default().push(run);
    }
    runs.hash(hasher);
    let mut events: BTreeMap<MessageId, Vec<&MessageEvent>> = BTreeMap::new();
    for event in history.message_events() {
        events.entry(event.message_id()).or_default().push(event);
    }
    events.hash(hasher);
}

/// Hashes the parts of the world that name consumer instances, with instance `i` renamed to
/// `permutation[i]`: the instances themselves, in their renamed order, and the broker, whose
/// in-flight entries list the instances holding them.
fn hash_instances(world: &World, permutation: &[usize], hasher: &mut impl Hasher) {
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
        consumer.hash(hasher);
    }
    let broker: &Broker = world.broker();
    broker.next_entry.hash(hasher);
    broker.dead_letters.hash(hasher);
    broker.deliveries_by_message.hash(hasher);
    broker.entries.len().hash(hasher);
    for (id, entry) in &broker.entries {
        id.hash(hasher);
        entry.envelope.hash(hasher);
        entry.message_id.hash(hasher);
        entry.deliveries.hash(hasher);
        match &entry.state {
            EntryState::InFlight { instances, redeliver_at } => {
                let renamed: Vec<InstanceId> =
                    instances.iter().map(|instance| rename(*instance)).collect();
                EntryState::InFlight { instances: renamed, redeliver_at: *redeliver_at }
                    .hash(hasher);
            }
            other => other.hash(hasher),
        }
    }
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
