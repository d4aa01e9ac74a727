//! The harness for users' own code: a consumer ([`consumer`]) or an HTTP handler ([`http`])
//! written as a [`crate::step::Steps`] machine over the lab's store is run in a small world
//! with the faults that apply to it, and what it leaves is compared with exactly-once
//! processing. Any difference is a counterexample: the code is not idempotent. A consumer or
//! handler over the user's own store (their database, their tables, their transactions) is
//! fuzzed by [`system`] instead, against the user's exactly-once oracle.
//!
//! Both worlds are [`Model`]s, and both are driven the same two ways by the code of this
//! file:
//! - [`fuzz_model`]: proptest draws a schedule as a list of small numbers, each one picking an
//!   enabled action (normal actions come first and faults last, so 0 is "no fault"); once the
//!   list runs out, the first enabled action runs until the world is done. A failing schedule
//!   is shrunk by proptest's value tree (fewer and smaller numbers) to a minimal one;
//! - [`check_model`]: the checker's breadth-first [`Explorer`] visits every schedule within
//!   the bounds, so a violation comes with a shortest schedule.
//!
//! Neither reads a clock: [`HarnessFuzzReport::cases_per_second`] takes the time the caller
//! measured.

pub(crate) mod consumer;
pub(crate) mod http;
pub mod system;

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::time::Duration;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::check::fingerprint::{Fingerprint, StateHasher};
use crate::check::{ExploreBounds, ExploreOutcome, ExploreStats, Explorer, Model};

#[cfg(test)]
pub(crate) use consumer::HarnessModel;
pub use consumer::{
    ConsumerUnderTest, HarnessAction, HarnessConfig, check_consumer, fuzz_consumer,
};
pub(crate) use http::HandlerUnderTest;
pub use http::{HandlerPlug, HttpAction, HttpHarnessConfig, check_handler, fuzz_handler};
#[cfg(test)]
pub(crate) use http::{HttpHarnessModel, idempotency_key_of};

/// Why a schedule is a counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HarnessViolation {
    /// What went wrong, in words.
    pub sentence: String,
}

/// An action of a harness's world: a fault, or what happens without one.
pub trait HarnessStep: Clone + Debug {
    /// Whether the action is a fault (a duplicate, a crash, a lost response...).
    fn is_fault(&self) -> bool;
}

/// A schedule the harness found that breaks the code under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarnessCounterexample<A = HarnessAction> {
    /// The actions, in order.
    pub actions: Vec<A>,
    /// What went wrong.
    pub violation: HarnessViolation,
}

impl<A: HarnessStep> HarnessCounterexample<A> {
    /// The faults in the schedule.
    pub fn faults(&self) -> usize {
        self.actions.iter().filter(|action| action.is_fault()).count()
    }
}

/// What fuzzing found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarnessFuzzReport<A = HarnessAction> {
    /// Schedules run (the failing one included; shrinking runs not counted).
    pub cases_run: u32,
    /// The first failing schedule, shrunk.
    pub counterexample: Option<HarnessCounterexample<A>>,
}

impl<A> HarnessFuzzReport<A> {
    /// Schedules per second, for `elapsed` measured by the caller.
    pub fn cases_per_second(&self, elapsed: Duration) -> f64 {
        let seconds = elapsed.as_secs_f64();
        if seconds > 0.0 { f64::from(self.cases_run) / seconds } else { 0.0 }
    }
}

/// What checking exhaustively found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarnessCheckReport<A = HarnessAction> {
    /// How it ended: proved, a shortest counterexample, or bounded.
    pub outcome: ExploreOutcome<A, HarnessViolation>,
    /// States explored, unique states, depth.
    pub stats: ExploreStats,
}

/// How a fuzz run draws and runs schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScheduleFuzzing {
    /// How many schedules to draw.
    pub(crate) cases: u32,
    /// The seed of the fuzzer's choices.
    pub(crate) fuzz_seed: u64,
    /// The most choices a drawn schedule makes before it drains.
    pub(crate) choices_max: usize,
    /// The most actions the drain takes after the choices (a bound, never reached by a world
    /// that ends).
    pub(crate) drain_steps_max: usize,
    /// The most shrinking steps.
    pub(crate) shrink_steps_max: u32,
}

/// Runs the schedule `choices` in `model` (an index into the enabled actions at each step,
/// modulo their number; once the choices run out, the first enabled action, which drains the
/// world without faults) and returns its actions and the violation it reached, if any.
pub(crate) fn run_schedule<M: Model<Violation = HarnessViolation>>(
    model: &M,
    choices: &[u8],
    drain_steps_max: usize,
) -> (Vec<M::Action>, Option<HarnessViolation>) {
    let mut state = model.initial_state();
    if let Some(violation) = model.violation(&state) {
        return (Vec::new(), Some(violation));
    }
    let mut taken = Vec::new();
    for index in 0..choices.len().saturating_add(drain_steps_max) {
        let actions = model.actions(&state);
        let choice = choices.get(index).map_or(0, |choice| usize::from(*choice));
        let Some(action) = actions.get(choice % actions.len().max(1)).cloned() else { break };
        let Ok(next) = model.next_state(&state, &action) else { break };
        state = next;
        taken.push(action);
        if let Some(violation) = model.violation(&state) {
            return (taken, Some(violation));
        }
    }
    (taken, None)
}

/// Fuzzes `model`: draws up to `fuzzing.cases` schedules with proptest, stops at the first
/// that reaches a violation and shrinks it to a minimal one.
pub(crate) fn fuzz_model<M: Model<Violation = HarnessViolation>>(
    model: &M,
    fuzzing: ScheduleFuzzing,
) -> HarnessFuzzReport<M::Action> {
    let mut seed_bytes = [0u8; 32];
    for (index, byte) in fuzzing.fuzz_seed.to_le_bytes().into_iter().enumerate() {
        if let Some(slot) = seed_bytes.get_mut(index) {
            *slot = byte;
        }
    }
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let strategy = prop::collection::vec(any::<u8>(), 0..fuzzing.choices_max.max(1));
    let run = |choices: &[u8]| run_schedule(model, choices, fuzzing.drain_steps_max);
    let mut cases_run = 0;
    for _ in 0..fuzzing.cases {
        let Ok(mut tree) = strategy.new_tree(&mut runner) else { break };
        cases_run += 1;
        let (actions, violation) = run(&tree.current());
        let Some(violation) = violation else { continue };
        let mut best = HarnessCounterexample { actions, violation };
        let mut steps = 0u32;
        'shrink: while steps < fuzzing.shrink_steps_max && tree.simplify() {
            steps += 1;
            loop {
                if let (actions, Some(violation)) = run(&tree.current()) {
                    best = HarnessCounterexample { actions, violation };
                    continue 'shrink;
                }
                if steps >= fuzzing.shrink_steps_max || !tree.complicate() {
                    break 'shrink;
                }
                steps += 1;
            }
        }
        return HarnessFuzzReport { cases_run, counterexample: Some(best) };
    }
    HarnessFuzzReport { cases_run, counterexample: None }
}

/// Explores every schedule of `model` within `bounds`, breadth-first: a violation comes with a
/// shortest schedule.
pub(crate) fn check_model<M: Model<Violation = HarnessViolation>>(
    model: M,
    bounds: ExploreBounds,
) -> HarnessCheckReport<M::Action> {
    let mut explorer = Explorer::new(model, bounds);
    let (outcome, stats) = explorer.run_to_end(10_000, &mut |_| {});
    HarnessCheckReport { outcome, stats }
}

/// The fingerprints of `items`, sorted: what a state hashes for a part whose order does not
/// matter (identical consumer instances, requests in flight), so that states differing only
/// in that order share a fingerprint.
pub(crate) fn sorted_fingerprints<T: Hash>(items: &[T]) -> Vec<Fingerprint> {
    let mut fingerprints: Vec<Fingerprint> = items
        .iter()
        .map(|item| {
            let mut hasher = StateHasher::default();
            item.hash(&mut hasher);
            hasher.finish()
        })
        .collect();
    fingerprints.sort_unstable();
    fingerprints
}
