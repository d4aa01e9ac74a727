//! One run's record, and shrinking: from a failing run, try the schedules one step smaller
//! ([`smaller`]), keep the first that still fails, and start again from it, until none fails or
//! the budget of runs is spent. The runs themselves are a callback (the service in `execute`,
//! a model in the tests), so this is pure.

use crate::probe::judge::{EffectReading, Exchange, Violation};
use crate::probe::plan::{Phase, Request};
use crate::probe::schedule::{Fault, Schedule, smaller};

/// The most re-runs one shrink makes.
pub const SHRINK_RUNS_MAX: usize = 64;

/// Everything one run of a schedule sent, got and broke.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeRun {
    /// The schedule.
    pub schedule: Schedule,
    /// Its phases.
    pub phases: Vec<Phase>,
    /// The request of each send, as the phases hold them.
    pub requests: Vec<Vec<Request>>,
    /// What each send got, as the phases hold them.
    pub exchanges: Vec<Vec<Exchange>>,
    /// Each oracle's readings.
    pub effects: Vec<EffectReading>,
    /// The verdicts; empty when the run held.
    pub violations: Vec<Violation>,
}

/// A shrunk failure.
#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    /// The smallest failing run found.
    pub run: ProbeRun,
    /// How many re-runs shrinking made.
    pub runs: usize,
    /// Whether it stopped at [`SHRINK_RUNS_MAX`] rather than at a schedule none of whose
    /// smaller ones fails.
    pub budget_spent: bool,
}

/// Shrinks `failing`, re-running candidates with `play`; an error of `play` (the service
/// went away) ends shrinking with that error.
pub fn shrink<E>(
    failing: ProbeRun,
    faults: &[Fault],
    runs_max: usize,
    mut play: impl FnMut(&Schedule) -> Result<ProbeRun, E>,
) -> Result<Shrunk, E> {
    let mut current = failing;
    let mut runs = 0;
    'smaller: loop {
        for candidate in smaller(&current.schedule, faults) {
            if runs >= runs_max {
                return Ok(Shrunk { run: current, runs, budget_spent: true });
            }
            runs += 1;
            let run = play(&candidate)?;
            if !run.violations.is_empty() {
                current = run;
                continue 'smaller;
            }
        }
        return Ok(Shrunk { run: current, runs, budget_spent: false });
    }
}
