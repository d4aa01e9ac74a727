//! The breadth-first explorer behind the checker: a generic [`Model`] (Stateright's shape:
//! an initial state, the enabled actions of a state, the next state of an action, a named
//! property) explored level by level, with visited states deduplicated by a 64-bit
//! [`Fingerprint`], explicit bounds, and slices of work so that a page can run it between
//! frames.
//!
//! Breadth-first order makes the first violation found one of the shortest: every state at
//! depth `d` is discovered before any state at depth `d + 1`, and a state is checked when it is
//! discovered. The path to it is rebuilt from parent links kept per unique state.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::hash::{BuildHasher, Hasher};

use serde::{Deserialize, Serialize};

use crate::check::fingerprint::Fingerprint;

/// A model to explore: a pure transition system with a property checked in every state.
pub trait Model {
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

    /// The state after `action`, with the property's violation there, if any; `Err` when the
    /// model hit one of its own limits (a full queue), described in words.
    fn next_state(
        &self,
        state: &Self::State,
        action: &Self::Action,
    ) -> Result<(Self::State, Option<Self::Violation>), String>;

    /// The property's violation in the initial state, if any.
    fn initial_violation(&self, state: &Self::State) -> Option<Self::Violation>;

    /// The state's fingerprint: equal for states the model treats as the same (after any
    /// symmetry reduction), different otherwise but for 64-bit collisions.
    fn fingerprint(&self, state: &Self::State) -> Fingerprint;
}

/// The bounds of an exploration. Hitting one is the typed outcome
/// [`ExploreOutcome::Bounded`], never an error or a hang.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExploreBounds {
    /// Paths are explored up to this many actions; a state at this depth is checked but not
    /// expanded.
    pub depth_max: usize,
    /// At most this many unique states are stored.
    pub states_max: usize,
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
    /// A transition hit one of the model's own limits (the broker's queue, the history).
    ModelLimit {
        /// The depth of the state the transition left.
        depth: usize,
        /// The limit, in words.
        error: String,
    },
}

impl fmt::Display for BoundReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoundReason::DepthMax { depth_max } => {
                write!(f, "paths longer than {depth_max} steps were not explored")
            }
            BoundReason::StatesMax { states_max } => {
                write!(f, "the limit of {states_max} unique states was reached")
            }
            BoundReason::ModelLimit { depth, error } => {
                write!(f, "a step from depth {depth} hit a limit of the model: {error}")
            }
        }
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
    pub transitions: usize,
    /// Unique states discovered (the initial state included), after symmetry reduction.
    pub unique_states: usize,
    /// The depth of the deepest state discovered.
    pub depth_reached: usize,
    /// States discovered but not yet expanded.
    pub frontier_len: usize,
    /// Expanded states with no enabled action (the end of a run: quiescent or stuck).
    pub terminal_states: usize,
}

/// Where a slice of work left the exploration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreStatus<A, V> {
    /// Work is left; call `run_for` again.
    Running(ExploreStats),
    /// The exploration is over.
    Done(ExploreOutcome<A, V>, ExploreStats),
}

/// A build-hasher for sets of fingerprints: a fingerprint is already a good hash, so the set
/// uses it as is (and iteration order of the set is never used).
#[derive(Clone, Copy, Debug, Default)]
pub struct FingerprintHashBuilder;

/// The identity hasher of [`FingerprintHashBuilder`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FingerprintHasher(u64);

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

/// A state waiting to be expanded.
#[derive(Clone, Debug)]
struct Pending<S> {
    node: usize,
    depth: usize,
    state: S,
}

/// A breadth-first exploration of a [`Model`], resumable in slices.
#[derive(Clone, Debug)]
pub struct Explorer<M: Model> {
    model: M,
    bounds: ExploreBounds,
    visited: HashSet<Fingerprint, FingerprintHashBuilder>,
    nodes: Vec<Node<M::Action>>,
    frontier: VecDeque<Pending<M::State>>,
    stats: ExploreStats,
    depth_bound_hit: bool,
    outcome: Option<ExploreOutcome<M::Action, M::Violation>>,
}

impl<M: Model> Explorer<M> {
    /// An exploration of `model` within `bounds`, before its first step. The initial state is
    /// checked at once.
    pub fn new(model: M, bounds: ExploreBounds) -> Explorer<M> {
        let initial = model.initial_state();
        let mut visited = HashSet::with_hasher(FingerprintHashBuilder);
        visited.insert(model.fingerprint(&initial));
        let violation = model.initial_violation(&initial);
        let mut frontier = VecDeque::new();
        let outcome = match violation {
            Some(violation) => Some(ExploreOutcome::Violated { violation, path: Vec::new() }),
            None => {
                frontier.push_back(Pending { node: 0, depth: 0, state: initial });
                None
            }
        };
        Explorer {
            model,
            bounds,
            visited,
            nodes: vec![Node { parent: None, action: None }],
            frontier,
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
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The counters so far.
    pub fn stats(&self) -> ExploreStats {
        self.stats
    }

    /// The outcome, once the exploration is over.
    pub fn outcome(&self) -> Option<&ExploreOutcome<M::Action, M::Violation>> {
        self.outcome.as_ref()
    }

    /// Expands at most `states_budget` states, then returns where it is. Time is an input: the
    /// caller picks the slice so that a page stays responsive. `progress` is called every
    /// `progress_every_states` expansions and at the end of the slice.
    pub fn run_for(
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
    pub fn run_to_end(
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
    pub fn status(&self) -> ExploreStatus<M::Action, M::Violation> {
        match &self.outcome {
            Some(outcome) => ExploreStatus::Done(outcome.clone(), self.stats),
            None => ExploreStatus::Running(self.stats),
        }
    }

    fn expand_one(&mut self) {
        let Some(pending) = self.frontier.pop_front() else {
            self.outcome = Some(if self.depth_bound_hit {
                ExploreOutcome::Bounded {
                    reason: BoundReason::DepthMax { depth_max: self.bounds.depth_max },
                }
            } else {
                ExploreOutcome::Proved
            });
            return;
        };
        self.stats.frontier_len = self.frontier.len();
        let actions = self.model.actions(&pending.state);
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
            let (next, violation) = match self.model.next_state(&pending.state, &action) {
                Ok(next) => next,
                Err(error) => {
                    self.outcome = Some(ExploreOutcome::Bounded {
                        reason: BoundReason::ModelLimit { depth: pending.depth, error },
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
            if let Some(violation) = violation {
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
            self.frontier.push_back(Pending { node, depth, state: next });
        }
        self.stats.frontier_len = self.frontier.len();
        self.finish_if_empty();
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
