//! The trace of a run: one record per step, in a versioned JSON format, plus the typed events
//! the steps produce.
//!
//! A [`TraceStep`] says who acted ([`Actor`]), what they did ([`Action`]), how the scheduler
//! came to choose it, the statement run, the ids involved (request, attempt, message, key), the
//! typed events of the patterns ([`SimEvent`]), the rows the step's commits changed, and the
//! invariant violations that appeared at that step. A [`Trace`] carries its scenario and seed,
//! so it replays ([`crate::sim::Simulation::replay`]) to the same bytes.

mod event;
mod step_log;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::faults::FaultClass;
use crate::ids::{IdempotencyKey, MessageId, Tick};
use crate::invariants::{InvariantId, Violation};
use crate::sim::action::{Action, Actor, AttemptId, EntryId, RequestIndex};
use crate::sim::scenario::{Scenario, ScenarioError};
use crate::store::{RowChange, StoreError};

pub use event::{SimEvent, describe_event};
pub use step_log::{StepIter, StepLog};

/// The version of the trace format this crate reads and writes.
pub(crate) const TRACE_FORMAT_VERSION: u32 = 1;

/// What one applied action produced: the world's side of a trace step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StepRecord {
    /// The action.
    pub(crate) action: Action,
    /// Its actor.
    pub(crate) actor: Actor,
    /// The virtual time of the step (after it, for a clock advance).
    pub(crate) tick: Tick,
    /// The statement run, if the step ran one.
    pub(crate) statement: Option<String>,
    /// The request involved.
    pub(crate) request: Option<RequestIndex>,
    /// The send involved.
    pub(crate) attempt: Option<AttemptId>,
    /// The message involved.
    pub(crate) message_id: Option<MessageId>,
    /// The idempotency key involved.
    pub(crate) key: Option<IdempotencyKey>,
    /// What happened.
    pub(crate) events: Vec<SimEvent>,
    /// The rows the step's commits changed, table then key order.
    pub(crate) row_changes: Vec<RowChange>,
    /// The invariant violations that appeared at the step (stand after it and did not before).
    pub(crate) new_violations: Vec<Violation>,
    /// Every invariant violated after the step, in order.
    pub(crate) violated: Vec<InvariantId>,
    /// Whether the world had no pending work after the step.
    pub(crate) quiescent: bool,
}

/// How the scheduler came to take an action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Choice {
    /// Drawn among the enabled normal actions.
    Scheduler,
    /// The scenario's injection at this position fired.
    Injection {
        /// Its position in `Scenario::injections`.
        index: usize,
    },
    /// A random fault, by the scenario's rate for its class.
    RandomFault,
    /// Chosen by the user (the page's "duplicate this delivery" button), not by the seed:
    /// a replay takes the same action at the same step.
    User,
}

/// One step of a trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    /// The step's number, from 1.
    pub step: usize,
    /// The virtual time.
    pub tick: Tick,
    /// Who acted.
    pub actor: Actor,
    /// The lane of the page's diagram.
    pub(crate) lane: String,
    /// What they did.
    pub action: Action,
    /// The fault class, for a fault action.
    pub fault: Option<FaultClass>,
    /// How the action was chosen.
    pub chosen_by: Choice,
    /// The statement run.
    pub statement: Option<String>,
    /// The request involved.
    pub(crate) request: Option<RequestIndex>,
    /// The send involved.
    pub(crate) attempt: Option<AttemptId>,
    /// The message involved.
    pub(crate) message_id: Option<MessageId>,
    /// The key involved.
    pub(crate) key: Option<IdempotencyKey>,
    /// What happened.
    pub events: Vec<SimEvent>,
    /// The rows changed.
    pub row_changes: Vec<RowChange>,
    /// The violations that appeared at this step.
    pub new_violations: Vec<Violation>,
    /// Every invariant violated after this step.
    pub violated: Vec<InvariantId>,
    /// Whether nothing was pending after it.
    pub(crate) quiescent: bool,
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stop", rename_all = "snake_case")]
pub enum StopReason {
    /// The run has not stopped yet (a trace taken in the middle of a run).
    Running,
    /// No work is pending and nothing can happen: the run is over.
    Quiescent,
    /// Work is pending but nothing can happen (every actor waits for a lock, or only fault
    /// actions are left).
    Stuck {
        /// What is pending, in words.
        pending: String,
    },
    /// The run took `Limits::steps_max` steps.
    StepLimit {
        /// The limit.
        steps_max: usize,
    },
    /// The trace holds `Limits::trace_steps_max` steps.
    TraceFull {
        /// The limit.
        trace_steps_max: usize,
    },
    /// A step failed: it hit a limit of the world (the broker's queue, the history), or the
    /// action was refused.
    StepFailed {
        /// The step that failed.
        step: usize,
        /// What failed, in words.
        error: String,
    },
}

/// What a run ended with, for a quick look.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceSummary {
    /// Steps taken.
    pub steps: usize,
    /// The virtual time at the end.
    pub final_tick: Tick,
    /// The first step at which each invariant was violated (an invariant violated once
    /// stays listed even if it held again later).
    pub first_violation_step: BTreeMap<InvariantId, usize>,
    /// Every invariant violated after the last step.
    pub violated_at_end: Vec<InvariantId>,
    /// Faults that fired, by class.
    pub faults: BTreeMap<FaultClass, usize>,
}

/// The copies dead-lettered in `steps` (a whole trace, or the steps a page shows so far): the
/// step, the copy and its message.
pub(crate) fn dead_letters<'a>(
    steps: impl IntoIterator<Item = &'a TraceStep>,
) -> Vec<(usize, EntryId, MessageId)> {
    steps
        .into_iter()
        .flat_map(|step| {
            step.events.iter().filter_map(move |event| match event {
                SimEvent::DeadLettered { entry, message_id } => {
                    Some((step.step, *entry, *message_id))
                }
                _ => None,
            })
        })
        .collect()
}

/// The faults that fired in a run, by class and origin ([`Trace::fired_faults`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FiredFaults {
    /// Fired by the scenario's injections.
    pub injected: BTreeMap<FaultClass, usize>,
    /// Drawn by the scenario's random fault rates.
    pub random: BTreeMap<FaultClass, usize>,
    /// Chosen by the user.
    pub(crate) user: BTreeMap<FaultClass, usize>,
}

impl FiredFaults {
    /// `F3 x2, F5 x1`, or `none`.
    pub fn describe(counts: &BTreeMap<FaultClass, usize>) -> String {
        if counts.is_empty() {
            return "none".to_owned();
        }
        counts
            .iter()
            .map(|(class, count)| format!("{class} x{count}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    /// [`TRACE_FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// The scenario run (its injections included).
    pub scenario: Scenario,
    /// The seed.
    pub seed: u64,
    /// Why it stopped.
    pub stop: StopReason,
    /// The limit of the store that stopped it, if one did (then `stop` is
    /// [`StopReason::StepFailed`] at the same step): absent from the JSON otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_reached: Option<LimitReached>,
    /// The summary.
    pub summary: TraceSummary,
    /// Every step.
    pub steps: Vec<TraceStep>,
}

/// A limit of the store (`shop.store`) reached: an outcome of its own, like a dead letter,
/// never an invariant violation. The step the store refused is not taken: whoever ran the
/// refused statement would have turned it into an answer (a 500) or a failed delivery that
/// blames the shop for the store's size, so the run stops before it, with every step before
/// it judged as usual.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitReached {
    /// The step that was not taken: one past the trace's last step.
    pub(crate) step: usize,
    /// The store's refusal: which limit, with its figures.
    pub(crate) refusal: StoreError,
}

/// Why a trace was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TraceError {
    /// The JSON does not read as a trace.
    #[error(transparent)]
    Json(ScenarioError),
    /// The file is of another format version.
    #[error("trace format_version {found} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// Its scenario is invalid.
    #[error("the trace's scenario: {0}")]
    Scenario(ScenarioError),
    /// It has more steps than its scenario's `limits.trace_steps_max` lets a trace record.
    #[error(
        "the trace has {steps} steps, but its scenario's limits.trace_steps_max is {trace_steps_max}"
    )]
    TooManySteps {
        /// Its steps.
        steps: usize,
        /// Its scenario's limit.
        trace_steps_max: usize,
    },
}

impl Trace {
    /// The trace as pretty JSON.
    pub fn to_json(&self) -> String {
        // Plain data always serializes; the fallback is never used.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The trace as a trace file holds it: [`Trace::to_json`] and a closing newline. This is
    /// the one rendering of a run's JSON: what `idempotency-lab run --json` prints, what the
    /// JavaScript API's `traceJson()` returns, byte for byte, and what `replay` reads back.
    pub fn to_json_file(&self) -> String {
        let mut text = self.to_json();
        text.push('\n');
        text
    }

    /// Reads a trace.
    pub fn from_json(text: &str) -> Result<Trace, TraceError> {
        crate::sim::bounds::TRACE_JSON
            .check(String::new, text.len() as u64)
            .map_err(TraceError::Json)?;
        let trace: Trace = crate::sim::json::from_json("trace", text).map_err(TraceError::Json)?;
        if trace.format_version != TRACE_FORMAT_VERSION {
            return Err(TraceError::UnsupportedVersion {
                found: trace.format_version,
                supported: TRACE_FORMAT_VERSION,
            });
        }
        trace.scenario.validate().map_err(TraceError::Scenario)?;
        let trace_steps_max = trace.scenario.limits.trace_steps_max;
        if trace.steps.len() > trace_steps_max {
            return Err(TraceError::TooManySteps { steps: trace.steps.len(), trace_steps_max });
        }
        Ok(trace)
    }

    /// The faults that fired, by class, told apart by where they came from: the scenario's
    /// injections, its random rates, or the user's hand. What a fuzz report says, so that a
    /// violation that came from random rates is not reported as "0 injected faults".
    pub fn fired_faults(&self) -> FiredFaults {
        let mut fired = FiredFaults::default();
        for step in &self.steps {
            let Some(class) = step.fault else { continue };
            let by_origin = match step.chosen_by {
                Choice::Injection { .. } => &mut fired.injected,
                Choice::RandomFault => &mut fired.random,
                Choice::User => &mut fired.user,
                // The scheduler draws only normal actions; a fault it took is counted as random.
                Choice::Scheduler => &mut fired.random,
            };
            *by_origin.entry(class).or_insert(0) += 1;
        }
        fired
    }

    /// The copies the broker dead-lettered: their own outcome, which I6 does not count as a
    /// message lost or processed twice. In words: `view::dead_letter_sentences`.
    #[cfg(test)]
    pub(crate) fn dead_letters(&self) -> Vec<(usize, EntryId, MessageId)> {
        dead_letters(&self.steps)
    }

    /// Every invariant violated at some step of the run.
    pub fn invariants_ever_violated(&self) -> Vec<InvariantId> {
        self.summary.first_violation_step.keys().copied().collect()
    }

    /// The trace as one line per step, for reading and for snapshot tests:
    /// `step tick lane action | statement | events | violations`.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for step in &self.steps {
            let action = serde_json::to_string(&step.action).unwrap_or_default();
            text.push_str(&format!(
                "{:>3} t{:<4} {:<10} {action}",
                step.step, step.tick.0, step.lane
            ));
            if let Some(statement) = &step.statement {
                text.push_str(&format!(" | {statement}"));
            }
            for event in &step.events {
                text.push_str(&format!("\n      {}", describe_event(event)));
            }
            if !step.row_changes.is_empty() {
                text.push_str(&format!(
                    "\n      rows: {}",
                    describe_row_changes(&step.row_changes)
                ));
            }
            for violation in &step.new_violations {
                text.push_str(&format!("\n      !! {violation}"));
            }
            text.push('\n');
        }
        text.push_str(&format!(
            "stop: {}\n",
            serde_json::to_string(&self.stop).unwrap_or_default()
        ));
        text
    }
}

/// The rows a step changed, counted per table: `orders +1, stock ~1, inbox -1`.
pub fn describe_row_changes(changes: &[RowChange]) -> String {
    let mut counts: BTreeMap<(&'static str, char), usize> = BTreeMap::new();
    for change in changes {
        let sign = match (&change.before, &change.after) {
            (None, _) => '+',
            (Some(_), None) => '-',
            (Some(_), Some(_)) => '~',
        };
        *counts.entry((change.table.as_str(), sign)).or_insert(0) += 1;
    }
    counts
        .into_iter()
        .map(|((table, sign), count)| format!("{table} {sign}{count}"))
        .collect::<Vec<_>>()
        .join(", ")
}
