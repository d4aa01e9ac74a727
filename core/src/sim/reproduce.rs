//! Whether a trace is what its own inputs make: the one rule by which a trace read from a file
//! (or handed over by a page) is trusted.
//!
//! A trace carries its scenario, its seed and the learner's choices (its steps chosen by the
//! user). [`reproduce`] runs those again ([`crate::sim::Run::replay`]) and compares the result
//! with the trace, step by step: a trace whose rows, events or violations were edited, whose
//! patterns were relabelled, or which was cut short, differs from its replay, and
//! [`TraceDifference`] names the first step where it does. `idempotency-lab replay` reports
//! it, and the course grades a trace only once it reproduces (`course::Task::check`).
//!
//! A trace of a run still going (`stop` is [`StopReason::Running`], the page's export at an
//! earlier step) replays to its own last step, so it reproduces as it is; a trace that claims
//! its run ended replays to the run's real end, so cutting it short shows.

use thiserror::Error;

use crate::sim::run::Run;
use crate::sim::scheduler::ReplayError;
use crate::sim::trace::{StopReason, Trace, TraceStep};

/// Where a trace first departs from its replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceDifference {
    /// Step `step` is not the same in both; a side without that step has `None` (a trace cut
    /// short, or longer than its run).
    Step {
        /// The step's number, from 1.
        step: usize,
        /// The step as the trace records it.
        recorded: Option<Box<TraceStep>>,
        /// The step as the replay takes it.
        replayed: Option<Box<TraceStep>>,
    },
    /// Every step is the same, but the reason the run stopped is not.
    Stop {
        /// As the trace records it.
        recorded: StopReason,
        /// As the replay ends.
        replayed: StopReason,
    },
    /// Every step and the stop are the same, but the summary is not.
    Summary,
}

impl std::fmt::Display for TraceDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TraceDifference::Step { step, recorded: None, .. } => {
                write!(f, "step {step} differs: the trace ends before it, the run does not")
            }
            TraceDifference::Step { step, replayed: None, .. } => {
                write!(f, "step {step} differs: the run ends before it, the trace does not")
            }
            TraceDifference::Step { step, .. } => write!(f, "step {step} differs"),
            TraceDifference::Stop { .. } => f.write_str("the stop reason differs"),
            TraceDifference::Summary => f.write_str("the summary differs"),
        }
    }
}

/// Why a trace does not reproduce.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotReproduced {
    /// Its choices cannot even be taken again (a user's step that is not enabled where the
    /// trace puts it, steps out of order), or its scenario is invalid.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// It replays, to another run.
    #[error("{0}")]
    Differs(TraceDifference),
}

/// The first place where `recorded` and `replayed` differ, or `None` if they are equal.
pub fn first_difference(recorded: &Trace, replayed: &Trace) -> Option<TraceDifference> {
    let steps = recorded.steps.len().max(replayed.steps.len());
    for index in 0..steps {
        let (left, right) = (recorded.steps.get(index), replayed.steps.get(index));
        if left != right {
            return Some(TraceDifference::Step {
                step: index.saturating_add(1),
                recorded: left.cloned().map(Box::new),
                replayed: right.cloned().map(Box::new),
            });
        }
    }
    if recorded.stop != replayed.stop {
        return Some(TraceDifference::Stop {
            recorded: recorded.stop.clone(),
            replayed: replayed.stop.clone(),
        });
    }
    // Scenario and seed are the replay's own inputs, so they cannot differ.
    (recorded != replayed).then_some(TraceDifference::Summary)
}

/// Runs `trace` again from its scenario, seed and choices and checks that the run is the
/// trace: `Ok` with the replay if it is.
pub(crate) fn reproduce(trace: &Trace) -> Result<Trace, NotReproduced> {
    let replayed = Run::replay(trace)?;
    match first_difference(trace, &replayed) {
        None => Ok(replayed),
        Some(difference) => Err(NotReproduced::Differs(difference)),
    }
}
