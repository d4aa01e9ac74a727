//! The breadth-first explorer behind the checker: a generic [`Model`] (Stateright's shape:
//! an initial state, the enabled actions of a state, the next state of an action, a named
//! property) explored level by level, with visited states deduplicated by a 64-bit
//! [`Fingerprint`], explicit bounds, and slices of work so that a page can run it between
//! frames.
//!
//! Breadth-first order makes the first violation found one of the shortest: every state at
//! depth `d` is discovered before any state at depth `d + 1`, and a state is checked when it is
//! discovered. The path to it is rebuilt from parent links kept per unique state.
//!
//! What is stored per unique state is small and the same whatever the model: its fingerprint
//! in the visited set, a parent link with the action that led to it, and, until it is
//! expanded, a frontier entry of its index and depth; about 70 bytes on a 64-bit target, never
//! the state itself. A state is rebuilt when it is expanded, by replaying its path from the
//! initial state with [`Model::next_state`] (so the model must be a pure function of the state
//! and the action). The replay is cheap because the explorer keeps the states of the path it
//! rebuilt last (at most `depth_max + 1` of them) and breadth-first order keeps the states below
//! one ancestor together: the next state to expand shares most of its path with the last, and
//! each ancestor is rebuilt once per level. What the explorer holds is estimated in bytes
//! ([`Explorer::bytes_held`]) and bounded by [`ExploreBounds::bytes_max`], like the states and
//! the depth: reaching it is the outcome [`BoundReason::BytesMax`], never an allocation failure.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::hash::{BuildHasher, Hasher};

use serde::{Deserialize, Serialize};

use crate::check::fingerprint::Fingerprint;
use crate::sim::ApplyError;
use crate::words::{Language, fill};

/// Why the explorer could not take a transition or rebuild a state, for a model whose actions
/// are `A`: the outcome [`BoundReason::ModelLimit`] records it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ModelLimit<A> {
    /// The transition hit one of the world's own limits (a full queue, the history's bound).
    Step(ApplyError),
    /// The model listed an action as enabled that it then could not apply (a model's bug).
    #[cfg_attr(
        not(feature = "testing"),
        expect(dead_code, reason = "only the testing harness's models are built from a program")
    )]
    NotEnabled {
        /// The action (of the model's own type).
        action: A,
    },
    /// A stored state has no parent link up to the path rebuilt last (the explorer's bug).
    NoPath {
        /// The state's index.
        node: usize,
        /// Its depth.
        depth: usize,
    },
    /// A stored state has no action that led to it (the explorer's bug).
    NoAction {
        /// The state's index.
        node: usize,
    },
    /// Replaying the path to a state already explored failed, though it did not the first time
    /// (the model is not a pure function of the state and the action).
    Replay(Box<ModelLimit<A>>),
}

impl<A> From<ApplyError> for ModelLimit<A> {
    fn from(error: ApplyError) -> Self {
        ModelLimit::Step(error)
    }
}

/// Written by hand, not derived: a derived `Display` would ask the boxed [`ModelLimit::Replay`]
/// to be `Display` in its own bounds, which the compiler cannot prove.
impl<A: fmt::Debug> fmt::Display for ModelLimit<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelLimit::Step(error) => fmt::Display::fmt(error, f),
            ModelLimit::NotEnabled { action } => write!(f, "the action {action:?} is not enabled"),
            ModelLimit::NoPath { node, depth } => {
                write!(f, "state {node} at depth {depth} has no path to rebuild")
            }
            ModelLimit::NoAction { node } => write!(f, "state {node} has no action to replay"),
            ModelLimit::Replay(error) => {
                write!(f, "replaying the path to a state already explored: {error}")
            }
        }
    }
}

impl<A: fmt::Debug> std::error::Error for ModelLimit<A> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ModelLimit::Step(error) => std::error::Error::source(error),
            _ => None,
        }
    }
}

/// A model to explore: a pure transition system with a property checked in every state.
pub(crate) trait Model {
    /// The whole state.
    type State: Clone;
    /// One transition's label: what happened.
    type Action: Clone + fmt::Debug;
    /// What a broken property reports.
    type Violation: Clone + fmt::Debug;

    /// The state the exploration starts from.
    fn initial_state(&self) -> Self::State;

    /// The actions enabled in `state`, in a fixed order.
    fn actions(&self, state: &Self::State) -> Vec<Self::Action>;

    /// The state after `action`; `Err` when the model hit one of its own limits (a full
    /// queue).
    fn next_state(
        &self,
        state: &Self::State,
        action: &Self::Action,
    ) -> Result<Self::State, ModelLimit<Self::Action>>;

    /// The property's violation in `state`, if any: a function of the state alone, so that the
    /// explorer asks it once per state, of the states it has not seen before (a transition into
    /// a state already seen is not checked again).
    fn violation(&self, state: &Self::State) -> Option<Self::Violation>;

    /// The state's fingerprint: equal for states the model treats as the same (after any
    /// symmetry reduction), different otherwise but for 64-bit collisions.
    fn fingerprint(&self, state: &Self::State) -> Fingerprint;

    /// An estimate of the bytes `state` holds on the heap (its inline size is counted
    /// apart): the explorer counts it for the states it keeps rebuilt
    /// ([`Explorer::bytes_held`]). By default none, right for a state without heap data.
    fn state_heap_bytes(&self, state: &Self::State) -> usize {
        let _ = state;
        0
    }
}

/// The default of [`ExploreBounds::bytes_max`]: 512 MiB, so that a check stays under 1 GB of
/// resident memory with the slack of a growing table (a table that doubles holds its old and
/// its new buffer for a moment) and what the caller holds beside the explorer.
pub(crate) const BYTES_MAX_DEFAULT: usize = 512 << 20;

/// The bounds of an exploration. Hitting one is the typed outcome
/// [`ExploreOutcome::Bounded`], never an error or a hang.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct ExploreBounds {
    /// Paths are explored up to this many actions; a state at this depth is checked but not
    /// expanded.
    pub(crate) depth_max: usize,
    /// At most this many unique states are stored.
    pub(crate) states_max: usize,
    /// At most this many bytes are held, as [`Explorer::bytes_held`] estimates them.
    pub(crate) bytes_max: usize,
}

/// Why an exploration stopped before covering every reachable state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "bound", rename_all = "snake_case")]
pub enum BoundReason {
    /// Some state at `depth_max` had actions left: deeper states exist. Every state up to that
    /// depth was checked and none broke the property.
    DepthMax {
        /// The bound.
        depth_max: usize,
    },
    /// The store of unique states is full: some states were not checked.
    StatesMax {
        /// The bound.
        states_max: usize,
    },
    /// What the exploration holds reached its memory bound: some states were not checked.
    BytesMax {
        /// The bound.
        bytes_max: usize,
    },
    /// A transition hit one of the model's own limits (the broker's queue, the history).
    ModelLimit {
        /// The depth of the state the transition left.
        depth: usize,
        /// The limit ([`ModelLimit`]), in the words a report records.
        error: String,
    },
}

impl BoundReason {
    /// Why the exploration stopped, in `language`.
    pub fn sentence_in(&self, language: Language) -> String {
        let words = language.words();
        match self {
            BoundReason::DepthMax { depth_max } => {
                fill(words.report.check_bound_depth_max, &[("depth_max", depth_max)])
            }
            BoundReason::StatesMax { states_max } => {
                fill(words.report.check_bound_states_max, &[("states_max", states_max)])
            }
            BoundReason::BytesMax { bytes_max } => {
                let mib = format!("{:.1}", *bytes_max as f64 / f64::from(1 << 20));
                fill(words.report.check_bound_bytes_max, &[("bytes_max", bytes_max), ("mib", &mib)])
            }
            BoundReason::ModelLimit { depth, error } => {
                fill(words.report.check_bound_model_limit, &[("depth", depth), ("error", error)])
            }
        }
    }
}

impl fmt::Display for BoundReason {
    /// The sentence in English.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence_in(Language::En))
    }
}

/// How an exploration ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreOutcome<A, V> {
    /// Every reachable state was explored and none broke the property.
    Proved,
    /// A state broke the property; `path` is one of the shortest action sequences to it.
    Violated {
        /// What broke.
        violation: V,
        /// The actions from the initial state, in order.
        path: Vec<A>,
    },
    /// A bound stopped the exploration; no violation was found in what was explored.
    Bounded {
        /// Which bound.
        reason: BoundReason,
    },
}

/// Counters of an exploration, for progress bars and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExploreStats {
    /// States taken from the frontier and expanded (their actions applied).
    pub states_explored: usize,
    /// Transitions applied (an action from an expanded state).
    pub(crate) transitions: usize,
    /// Unique states discovered (the initial state included), after symmetry reduction.
    pub unique_states: usize,
    /// The depth of the deepest state discovered.
    pub depth_reached: usize,
    /// States discovered but not yet expanded.
    pub frontier_len: usize,
    /// Expanded states with no enabled action (the end of a run: quiescent or stuck).
    pub(crate) terminal_states: usize,
}

/// Where a slice of work left the exploration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExploreStatus<A, V> {
    /// Work is left; call `run_for` again.
    Running(ExploreStats),
    /// The exploration is over.
    Done(ExploreOutcome<A, V>, ExploreStats),
}

/// A build-hasher for sets of fingerprints: a fingerprint is already a good hash, so the set
/// uses it as is (and iteration order of the set is never used).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FingerprintHashBuilder;

/// The identity hasher of [`FingerprintHashBuilder`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FingerprintHasher(u64);

impl Hasher for FingerprintHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

impl BuildHasher for FingerprintHashBuilder {
    type Hasher = FingerprintHasher;

    fn build_hasher(&self) -> FingerprintHasher {
        FingerprintHasher(0)
    }
}

/// One discovered unique state: how it was reached.
#[derive(Clone, Debug)]
struct Node<A> {
    parent: Option<usize>,
    action: Option<A>,
}

/// A state waiting to be expanded: its node and depth; the state is rebuilt from its path.
#[derive(Clone, Copy, Debug)]
struct Pending {
    node: usize,
    depth: usize,
}

/// A state rebuilt from its path, kept while the states below it are expanded.
#[derive(Clone, Debug)]
struct Rebuilt<S> {
    node: usize,
    state: S,
    bytes: usize,
}

/// A breadth-first exploration of a [`Model`], resumable in slices.
#[derive(Clone, Debug)]
pub(crate) struct Explorer<M: Model> {
    model: M,
    bounds: ExploreBounds,
    visited: HashSet<Fingerprint, FingerprintHashBuilder>,
    nodes: Vec<Node<M::Action>>,
    frontier: VecDeque<Pending>,
    /// The states of the path rebuilt last, from the initial state (index = depth).
    path: Vec<Rebuilt<M::State>>,
    /// The sum of `path`'s `bytes`.
    path_bytes: usize,
    stats: ExploreStats,
    depth_bound_hit: bool,
    outcome: Option<ExploreOutcome<M::Action, M::Violation>>,
}

impl<M: Model> Explorer<M> {
    /// An exploration of `model` within `bounds`, before its first step. The initial state is
    /// checked at once.
    pub(crate) fn new(model: M, bounds: ExploreBounds) -> Explorer<M> {
        let initial = model.initial_state();
        let mut visited = HashSet::with_hasher(FingerprintHashBuilder);
        visited.insert(model.fingerprint(&initial));
        let violation = model.violation(&initial);
        let mut frontier = VecDeque::new();
        let outcome = match violation {
            Some(violation) => Some(ExploreOutcome::Violated { violation, path: Vec::new() }),
            None => {
                frontier.push_back(Pending { node: 0, depth: 0 });
                None
            }
        };
        let bytes = model.state_heap_bytes(&initial);
        Explorer {
            model,
            bounds,
            visited,
            nodes: vec![Node { parent: None, action: None }],
            frontier,
            path: vec![Rebuilt { node: 0, state: initial, bytes }],
            path_bytes: bytes,
            stats: ExploreStats {
                unique_states: 1,
                frontier_len: usize::from(outcome.is_none()),
                ..ExploreStats::default()
            },
            depth_bound_hit: false,
            outcome,
        }
    }

    /// The model.
    pub(crate) fn model(&self) -> &M {
        &self.model
    }

    /// The counters so far.
    pub(crate) fn stats(&self) -> ExploreStats {
        self.stats
    }

    /// An estimate of the bytes the exploration holds: its tables by their capacity (the
    /// visited set, the parent links, the frontier, the rebuilt path) and the heap of the
    /// rebuilt states by [`Model::state_heap_bytes`]. Bounded by [`ExploreBounds::bytes_max`].
    pub(crate) fn bytes_held(&self) -> usize {
        // A hash set of `capacity` holds about `capacity * 8 / 7` buckets of a fingerprint
        // and one control byte each.
        let visited = self.visited.capacity().saturating_mul(8) / 7
            * (std::mem::size_of::<Fingerprint>() + 1);
        let nodes = self.nodes.capacity() * std::mem::size_of::<Node<M::Action>>();
        let frontier = self.frontier.capacity() * std::mem::size_of::<Pending>();
        let path = self.path.capacity() * std::mem::size_of::<Rebuilt<M::State>>();
        visited + nodes + frontier + path + self.path_bytes
    }

    /// Expands at most `states_budget` states, then returns where it is. Time is an input: the
    /// caller picks the slice so that a page stays responsive. `progress` is called every
    /// `progress_every_states` expansions and at the end of the slice.
    pub(crate) fn run_for(
        &mut self,
        states_budget: usize,
        progress_every_states: usize,
        progress: &mut dyn FnMut(&ExploreStats),
    ) -> ExploreStatus<M::Action, M::Violation> {
        let every = progress_every_states.max(1);
        for done in 0..states_budget {
            if self.outcome.is_some() {
                break;
            }
            self.expand_one();
            if (done + 1) % every == 0 {
                progress(&self.stats);
            }
        }
        progress(&self.stats);
        self.status()
    }

    /// Runs to the end (within the bounds).
    #[cfg(feature = "testing")]
    pub(crate) fn run_to_end(
        &mut self,
        progress_every_states: usize,
        progress: &mut dyn FnMut(&ExploreStats),
    ) -> (ExploreOutcome<M::Action, M::Violation>, ExploreStats) {
        loop {
            if let ExploreStatus::Done(outcome, stats) =
                self.run_for(progress_every_states.max(1), progress_every_states, progress)
            {
                return (outcome, stats);
            }
        }
    }

    /// Where the exploration is.
    pub(crate) fn status(&self) -> ExploreStatus<M::Action, M::Violation> {
        match &self.outcome {
            Some(outcome) => ExploreStatus::Done(outcome.clone(), self.stats),
            None => ExploreStatus::Running(self.stats),
        }
    }

    fn expand_one(&mut self) {
        let Some(pending) = self.frontier.pop_front() else {
            self.finish_if_empty();
            return;
        };
        self.stats.frontier_len = self.frontier.len();
        if let Err(error) = self.rebuild(pending) {
            self.outcome = Some(ExploreOutcome::Bounded {
                reason: BoundReason::ModelLimit { depth: pending.depth, error: error.to_string() },
            });
            return;
        }
        if let Some(bounded) = self.over_bytes() {
            self.outcome = Some(bounded);
            return;
        }
        let Some(rebuilt) = self.path.last() else { return };
        debug_assert_eq!(rebuilt.node, pending.node);
        debug_assert_eq!(self.path.len(), pending.depth + 1);
        let state = &rebuilt.state;
        let actions = self.model.actions(state);
        self.stats.states_explored = self.stats.states_explored.saturating_add(1);
        if actions.is_empty() {
            self.stats.terminal_states = self.stats.terminal_states.saturating_add(1);
        }
        if pending.depth >= self.bounds.depth_max {
            if !actions.is_empty() {
                self.depth_bound_hit = true;
            }
            self.finish_if_empty();
            return;
        }
        let depth = pending.depth.saturating_add(1);
        for action in actions {
            self.stats.transitions = self.stats.transitions.saturating_add(1);
            let next = match self.model.next_state(state, &action) {
                Ok(next) => next,
                Err(error) => {
                    self.outcome = Some(ExploreOutcome::Bounded {
                        reason: BoundReason::ModelLimit {
                            depth: pending.depth,
                            error: error.to_string(),
                        },
                    });
                    return;
                }
            };
            if !self.visited.insert(self.model.fingerprint(&next)) {
                continue;
            }
            self.nodes.push(Node { parent: Some(pending.node), action: Some(action) });
            let node = self.nodes.len() - 1;
            self.stats.unique_states = self.visited.len();
            self.stats.depth_reached = self.stats.depth_reached.max(depth);
            if let Some(violation) = self.model.violation(&next) {
                self.outcome =
                    Some(ExploreOutcome::Violated { violation, path: self.path_to(node) });
                return;
            }
            if self.visited.len() >= self.bounds.states_max {
                self.outcome = Some(ExploreOutcome::Bounded {
                    reason: BoundReason::StatesMax { states_max: self.bounds.states_max },
                });
                return;
            }
            self.frontier.push_back(Pending { node, depth });
            if let Some(bounded) = self.over_bytes() {
                self.outcome = Some(bounded);
                return;
            }
        }
        self.stats.frontier_len = self.frontier.len();
        self.finish_if_empty();
    }

    /// Rebuilds the state of `pending` at the end of `self.path`: keeps the longest prefix of
    /// the path rebuilt last that leads to it, and replays the rest of its path from there.
    fn rebuild(&mut self, pending: Pending) -> Result<(), ModelLimit<M::Action>> {
        // The nodes between `pending` and its deepest ancestor already rebuilt, deepest first.
        let mut missing = Vec::new();
        let mut node = pending.node;
        let mut depth = pending.depth;
        while self.path.get(depth).is_none_or(|rebuilt| rebuilt.node != node) {
            missing.push(node);
            // The initial state (node 0, depth 0) is always `path[0]`, so every other node
            // has a parent one level up.
            let parent = self.nodes.get(node).and_then(|found| found.parent);
            let (Some(parent), Some(up)) = (parent, depth.checked_sub(1)) else {
                return Err(ModelLimit::NoPath { node, depth });
            };
            node = parent;
            depth = up;
        }
        for dropped in self.path.drain(depth + 1..) {
            self.path_bytes -= dropped.bytes;
        }
        for node in missing.into_iter().rev() {
            let action = self.nodes.get(node).and_then(|found| found.action.as_ref());
            let (Some(action), Some(last)) = (action, self.path.last()) else {
                return Err(ModelLimit::NoAction { node });
            };
            let state = self
                .model
                .next_state(&last.state, action)
                .map_err(|error| ModelLimit::Replay(Box::new(error)))?;
            let bytes = self.model.state_heap_bytes(&state);
            self.path_bytes += bytes;
            self.path.push(Rebuilt { node, state, bytes });
        }
        Ok(())
    }

    /// The outcome [`BoundReason::BytesMax`] if the exploration holds more than its bound.
    fn over_bytes(&self) -> Option<ExploreOutcome<M::Action, M::Violation>> {
        (self.bytes_held() > self.bounds.bytes_max).then_some(ExploreOutcome::Bounded {
            reason: BoundReason::BytesMax { bytes_max: self.bounds.bytes_max },
        })
    }

    fn finish_if_empty(&mut self) {
        self.stats.frontier_len = self.frontier.len();
        if self.frontier.is_empty() && self.outcome.is_none() {
            self.outcome = Some(if self.depth_bound_hit {
                ExploreOutcome::Bounded {
                    reason: BoundReason::DepthMax { depth_max: self.bounds.depth_max },
                }
            } else {
                ExploreOutcome::Proved
            });
        }
    }

    fn path_to(&self, node: usize) -> Vec<M::Action> {
        let mut path = Vec::new();
        let mut current = Some(node);
        while let Some(index) = current {
            let Some(found) = self.nodes.get(index) else { break };
            if let Some(action) = &found.action {
                path.push(action.clone());
            }
            current = found.parent;
        }
        path.reverse();
        path
    }
}
