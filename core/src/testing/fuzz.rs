//! The property fuzzer: runs generated cases ([`FuzzCase`]) through the simulator, stops at
//! the first one that breaks a checked invariant, and shrinks it with proptest's value trees
//! to a minimal schedule, reported as a [`Trace`] that loads into the simulator.
//!
//! A case whose run stops at a limit of the store ([`LimitReached`]: too many open
//! transactions, a full table) before it breaks a checked invariant is no failure: the limit is
//! an outcome of its own, counted in [`FuzzReport::limits_reached`] with the first such case
//! kept, and the run goes on to the next case.
//!
//! The fuzzer's own randomness comes from `FuzzConfig::fuzz_seed` (proptest's ChaCha RNG), so a
//! fuzz run is reproducible. It runs in slices ([`FuzzRun::run_for`]) so that a page can fuzz
//! between frames; it never reads a clock: [`FuzzReport::cases_per_second`] takes the elapsed
//! time the caller measured.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::time::Duration;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::invariants::InvariantId;
use crate::sim::{LimitReached, Simulation, Trace};
use crate::slice::{SLICE_MS, run_slice};
use crate::testing::strategies::FuzzCase;

/// How a fuzz run goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzConfig {
    /// How many cases to run at most.
    pub cases: u32,
    /// The seed of the fuzzer's own random choices.
    pub fuzz_seed: u64,
    /// The invariants a case must keep; a violation of another is not a failure.
    pub invariants: Vec<InvariantId>,
    /// How many shrinking steps at most.
    pub shrink_steps_max: u32,
    /// How often the progress callback is called, in cases.
    pub progress_every_cases: u32,
}

impl Default for FuzzConfig {
    /// 256 cases, fuzz seed 0, I1-I7, 1 024 shrinking steps.
    fn default() -> Self {
        FuzzConfig {
            cases: 256,
            fuzz_seed: 0,
            invariants: InvariantId::ALL.to_vec(),
            shrink_steps_max: 1_024,
            progress_every_cases: 16,
        }
    }
}

/// A case that broke an invariant, and its shrunk minimal form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzFailure {
    /// The case as first drawn.
    pub(crate) original: FuzzCase,
    /// The smallest failing case shrinking reached.
    pub shrunk: FuzzCase,
    /// The shrunk case's run: load it in the simulator or the page.
    pub trace: Trace,
    /// The checked invariants the shrunk case breaks.
    pub violated: Vec<InvariantId>,
    /// Shrinking steps taken.
    pub shrink_steps: u32,
}

impl FuzzFailure {
    /// The faults that fired in the shrunk run (injections and random faults).
    pub fn faults(&self) -> usize {
        self.trace.summary.faults.values().sum()
    }
}

/// What a fuzz run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzReport {
    /// Cases run (the failing one included; shrinking runs not counted).
    pub cases_run: u32,
    /// How many distinct simulator seeds the cases used.
    pub distinct_seeds: usize,
    /// The first failure, shrunk; `None` if every case kept the invariants.
    pub failure: Option<FuzzFailure>,
    /// Cases whose run stopped at a limit of the store before breaking a checked invariant:
    /// not failures.
    pub limits_reached: u32,
    /// The first of them, with the limit its run reached.
    pub first_limit_reached: Option<(FuzzCase, LimitReached)>,
    /// Whether the run is over (all cases run, a failure found, or no case could be drawn).
    pub finished: bool,
}

impl FuzzReport {
    /// Cases per second, for `elapsed` measured by the caller.
    pub fn cases_per_second(&self, elapsed: Duration) -> f64 {
        let seconds = elapsed.as_secs_f64();
        if seconds > 0.0 { f64::from(self.cases_run) / seconds } else { 0.0 }
    }
}

/// What the progress callback is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuzzProgress {
    /// Cases run so far.
    pub cases_run: u32,
    /// Cases the run will take at most.
    pub cases: u32,
    /// Whether a failure was found (and shrunk).
    pub failed: bool,
}

/// The invariants of `invariants` that `case` breaks, with its trace.
pub(crate) fn run_case(
    case: &FuzzCase,
    invariants: &[InvariantId],
) -> (Vec<InvariantId>, Option<Trace>) {
    match Simulation::run(case.scenario.clone(), case.seed) {
        Ok(trace) => {
            let violated: Vec<InvariantId> = trace
                .invariants_ever_violated()
                .into_iter()
                .filter(|invariant| invariants.contains(invariant))
                .collect();
            (violated, Some(trace))
        }
        Err(_) => (Vec::new(), None),
    }
}

/// A fuzz run in progress, resumable in slices.
pub struct FuzzRun<S: Strategy<Value = FuzzCase>> {
    strategy: S,
    config: FuzzConfig,
    runner: TestRunner,
    cases_run: u32,
    seeds: BTreeSet<u64>,
    failure: Option<FuzzFailure>,
    limits_reached: u32,
    first_limit_reached: Option<(FuzzCase, LimitReached)>,
    exhausted: bool,
}

impl<S: Strategy<Value = FuzzCase>> FuzzRun<S> {
    /// A run of `strategy` under `config`, before its first case.
    pub fn new(strategy: S, config: FuzzConfig) -> FuzzRun<S> {
        let mut seed_bytes = [0u8; 32];
        for (index, byte) in config.fuzz_seed.to_le_bytes().into_iter().enumerate() {
            if let Some(slot) = seed_bytes.get_mut(index) {
                *slot = byte;
            }
        }
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
        let runner = TestRunner::new_with_rng(Config::default(), rng);
        FuzzRun {
            strategy,
            config,
            runner,
            cases_run: 0,
            seeds: BTreeSet::new(),
            failure: None,
            limits_reached: 0,
            first_limit_reached: None,
            exhausted: false,
        }
    }

    /// Whether the run is over.
    pub(crate) fn is_finished(&self) -> bool {
        self.failure.is_some() || self.exhausted || self.cases_run >= self.config.cases
    }

    /// The report so far.
    pub fn report(&self) -> FuzzReport {
        FuzzReport {
            cases_run: self.cases_run,
            distinct_seeds: self.seeds.len(),
            failure: self.failure.clone(),
            limits_reached: self.limits_reached,
            first_limit_reached: self.first_limit_reached.clone(),
            finished: self.is_finished(),
        }
    }

    /// Runs at most `cases` more cases (a failure is shrunk within the same call), calling
    /// `progress` every `progress_every_cases` cases and at the end.
    pub fn run_for(&mut self, cases: u32, progress: &mut dyn FnMut(&FuzzProgress)) -> FuzzReport {
        let every = self.config.progress_every_cases.max(1);
        for _ in 0..cases {
            if self.is_finished() {
                break;
            }
            self.run_one();
            if self.cases_run.is_multiple_of(every) {
                progress(&self.progress());
            }
        }
        progress(&self.progress());
        self.report()
    }

    /// One slice of a fuzz run in slices ([`crate::slice`]): one case at a time until the run
    /// ends or `clock` (in milliseconds) has moved [`SLICE_MS`] on; the report after it.
    pub fn run_slice(&mut self, clock: &mut dyn FnMut() -> f64) -> FuzzReport {
        let _ = run_slice(SLICE_MS, clock, &mut || {
            if !self.is_finished() {
                self.run_one();
            }
            if self.is_finished() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        self.report()
    }

    /// How far the run is.
    pub fn progress(&self) -> FuzzProgress {
        FuzzProgress {
            cases_run: self.cases_run,
            cases: self.config.cases,
            failed: self.failure.is_some(),
        }
    }

    fn run_one(&mut self) {
        let Ok(mut tree) = self.strategy.new_tree(&mut self.runner) else {
            self.exhausted = true;
            return;
        };
        self.cases_run = self.cases_run.saturating_add(1);
        let original = tree.current();
        self.seeds.insert(original.seed);
        let (violated, trace) = run_case(&original, &self.config.invariants);
        let Some(trace) = trace else { return };
        if violated.is_empty() {
            if let Some(limit) = trace.limit_reached {
                self.limits_reached = self.limits_reached.saturating_add(1);
                self.first_limit_reached.get_or_insert((original, limit));
            }
            return;
        }
        let mut best = (original.clone(), violated, trace);
        let mut steps = 0u32;
        'shrink: while steps < self.config.shrink_steps_max && tree.simplify() {
            steps += 1;
            loop {
                let candidate = tree.current();
                let (violated, trace) = run_case(&candidate, &self.config.invariants);
                if let (false, Some(trace)) = (violated.is_empty(), trace) {
                    best = (candidate, violated, trace);
                    continue 'shrink;
                }
                if steps >= self.config.shrink_steps_max || !tree.complicate() {
                    break 'shrink;
                }
                steps += 1;
            }
        }
        let (shrunk, violated, trace) = best;
        self.failure = Some(FuzzFailure { original, shrunk, trace, violated, shrink_steps: steps });
    }
}

/// Runs `strategy` under `config` to the end: the first failure, shrunk, or none.
pub fn fuzz<S: Strategy<Value = FuzzCase>>(
    strategy: S,
    config: FuzzConfig,
    progress: &mut dyn FnMut(&FuzzProgress),
) -> FuzzReport {
    let cases = config.cases;
    FuzzRun::new(strategy, config).run_for(cases, progress)
}
