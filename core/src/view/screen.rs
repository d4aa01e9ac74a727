//! The screen model: everything one screen of the lab shows at a point of a run, in one
//! language, asked of the core in one call ([`Screen::at`]). The page, the embed and the step
//! list render it; none of them derives a part of it from the model. As rust-analyzer's `ide`
//! crate over its model: front ends ask, they do not derive.
//!
//! A screen is the caption (what the step shown did, why the run ended), the lanes and the
//! window of steps the diagram draws (each with its items and decisive moments in words), what
//! waits at the cursor with its fault buttons, the invariants with their sentences and where
//! each broke, the dead letters and a limit reached in words, and the rows the step changed.

use std::collections::BTreeMap;

use crate::ids::Tick;
use crate::invariants::{InvariantId, Violation};
use crate::sim::{StopReason, TraceStep, World};
use crate::store::RowChange;
use crate::view::{
    DiagramItem, IndexedRun, Lane, Moment, PendingItem, action_text, lanes, pending_in,
    step_items_in,
};
#[cfg(test)]
use crate::view::{breaking_steps, dead_letter_sentences, moments};
use crate::words::{Language, fill};

/// How many steps the diagram draws before the cursor, and how many more each reveal adds: a
/// step of a 10,000-step run costs what a step of a lesson does.
pub const WINDOW_STEPS: usize = 60;

/// The index of the first step drawn, when `shown` steps lead to the cursor and the learner
/// revealed `revealed` more than the window: the steps before it are not drawn.
pub fn first_drawn(shown: usize, revealed: usize) -> usize {
    shown.saturating_sub(WINDOW_STEPS.saturating_add(revealed))
}

/// What a screen is asked for.
#[derive(Clone, Copy, Debug)]
pub struct ScreenInput<'a> {
    /// The run shown, with the index of its steps (they may go on past the cursor, after a
    /// rewind).
    pub run: &'a IndexedRun,
    /// How many of the run's steps are shown: 0 is the start, and more than the run has shows
    /// them all.
    pub cursor: usize,
    /// The world after them.
    pub world: &'a World,
    /// Why the run ended, when the cursor is at its end and it has.
    pub stop: Option<&'a StopReason>,
    /// How many steps before the window the learner revealed.
    pub revealed: usize,
    /// A lesson's prediction is not answered yet: the run waits at its start, and says so.
    pub waits: bool,
    /// The language of every word.
    pub language: Language,
}

impl ScreenInput<'_> {
    /// How many of the run's steps are shown: those up to the cursor.
    fn shown(&self) -> usize {
        self.cursor.min(self.run.steps().len())
    }

    /// The run's steps up to the cursor.
    #[cfg(test)]
    fn shown_steps(&self) -> impl Iterator<Item = &TraceStep> + Clone {
        self.run.steps().first(self.cursor)
    }

    /// The last step shown, if any is.
    fn last_shown(&self) -> Option<&TraceStep> {
        self.shown().checked_sub(1).and_then(|last| self.run.steps().get(last))
    }
}

/// One screen of the lab.
#[derive(Clone, Debug, PartialEq)]
pub struct Screen {
    /// The language its words are in.
    pub language: Language,
    /// What the step shown did (or that nothing has happened yet), and why the run ended.
    pub caption: String,
    /// What the empty diagram and step list say, when no step is shown yet.
    pub empty: Option<String>,
    /// The diagram's lanes, left to right: the scenario's, and any a drawn step uses.
    pub lanes: Vec<Lane>,
    /// How many steps before the window are not drawn.
    pub hidden: usize,
    /// The steps drawn, ending at the cursor.
    pub steps: Vec<ScreenStep>,
    /// What waits at the cursor, each item with the faults that apply to exactly it.
    pub pending: Vec<PendingItem>,
    /// I1 to I7 after the step shown.
    pub invariants: Vec<InvariantLine>,
    /// The dead letters up to the cursor, in words: their own outcome, beside the invariants.
    pub dead_letters: Vec<String>,
    /// The rows the step shown changed.
    pub changes: Vec<RowChange>,
}

/// One step the diagram draws and the step list lists.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenStep {
    /// Its number, from 1.
    pub step: usize,
    /// The virtual time.
    pub tick: Tick,
    /// What it did, in words.
    pub action: String,
    /// What the diagram draws in its band, labelled in the screen's language.
    pub items: Vec<DiagramItem>,
    /// Its decisive moments, in order.
    pub moments: Vec<Moment>,
    /// Whether it is the step shown (the last drawn).
    pub current: bool,
}

/// One invariant's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantLine {
    /// Which invariant.
    pub id: InvariantId,
    /// Its title.
    pub title: String,
    /// What it promises, for a tooltip.
    pub description: String,
    /// What is wrong, one sentence per violation; empty when it holds.
    pub sentences: Vec<String>,
    /// The step where it broke, among those shown (`view::breaking_steps`); the page offers to
    /// go there while it does not hold.
    pub broke_at: Option<usize>,
}

impl InvariantLine {
    /// Whether the invariant holds.
    pub fn holds(&self) -> bool {
        self.sentences.is_empty()
    }
}

impl Screen {
    /// The screen at the point `input` names. What it reads of every step up to the cursor
    /// (the moments drawn on the window, where each invariant broke, the dead letters) the
    /// run's index answers ([`crate::view::RunIndex`]): a screen costs its window, at any step
    /// of a run of any length.
    pub fn at(input: &ScreenInput<'_>) -> Screen {
        let index = input.run.index();
        let shown = input.shown();
        let hidden = first_drawn(shown, input.revealed);
        Screen::of_parts(
            input,
            index.moments_drawn(shown, hidden),
            &index.breaking_steps(shown),
            index.dead_letter_sentences(shown, input.language),
        )
    }

    /// The screen at the point `input` names, derived from every step up to the cursor without
    /// the run's index: the reference [`Screen::at`] is tested against.
    #[cfg(test)]
    pub(crate) fn from_scratch(input: &ScreenInput<'_>) -> Screen {
        let steps = input.shown_steps();
        let hidden = first_drawn(input.shown(), input.revealed);
        Screen::of_parts(
            input,
            moments(steps.clone()).into_iter().filter(|moment| moment.step > hidden),
            &breaking_steps(steps.clone()),
            dead_letter_sentences(steps, input.language),
        )
    }

    /// The screen at the point `input` names, with the run's moments up to the cursor drawn on
    /// the window's steps (`window_moments`, in step order), where each invariant broke up to
    /// the cursor (`breaks`) and the dead letters up to it in words.
    fn of_parts(
        input: &ScreenInput<'_>,
        window_moments: impl Iterator<Item = Moment>,
        breaks: &BTreeMap<InvariantId, usize>,
        dead_letters: Vec<String>,
    ) -> Screen {
        let language = input.language;
        let shown = input.shown();
        let hidden = first_drawn(shown, input.revealed);
        let last_shown = input.last_shown();
        let mut window_moments = window_moments.peekable();
        let current = last_shown.filter(|_| hidden < shown).map(|step| step.step);
        let steps: Vec<ScreenStep> = input
            .run
            .steps()
            .iter_from(hidden)
            .take(shown - hidden)
            .map(|step| {
                while window_moments.next_if(|moment| moment.step < step.step).is_some() {}
                ScreenStep {
                    step: step.step,
                    tick: step.tick,
                    action: action_text(&step.action, language),
                    items: step_items_in(step, language),
                    moments: std::iter::from_fn(|| {
                        window_moments.next_if(|moment| moment.step == step.step)
                    })
                    .collect(),
                    current: Some(step.step) == current,
                }
            })
            .collect();
        let words = language.words();
        let empty = steps.is_empty().then(|| {
            if input.waits {
                words.labels.ui_run_waits_for_prediction
            } else {
                words.labels.ui_diagram_empty
            }
            .to_owned()
        });
        Screen {
            language,
            caption: caption(input, last_shown),
            empty,
            lanes: lanes_drawn(lanes(input.run.scenario()), &steps),
            hidden,
            steps,
            pending: pending_in(input.world, language),
            invariants: invariant_lines(&input.world.violations(), breaks, language),
            dead_letters,
            changes: last_shown.map(|step| step.row_changes.clone()).unwrap_or_default(),
        }
    }
}

/// The caption: "Step 5 (tick 0): ... — the statement" of the step shown (`last`), and why
/// the run ended when it has.
fn caption(input: &ScreenInput<'_>, last: Option<&TraceStep>) -> String {
    let words = input.language.words();
    let step = match last {
        Some(step) => format!(
            "{} {} ({} {}): {}{}",
            words.labels.ui_step_caption,
            step.step,
            words.labels.ui_tick,
            step.tick,
            action_text(&step.action, input.language),
            step.statement
                .as_deref()
                .map(|statement| format!(" — {statement}"))
                .unwrap_or_default()
        ),
        None if input.waits => words.labels.ui_run_waits_for_prediction.to_owned(),
        None => words.labels.ui_start.to_owned(),
    };
    match input.stop {
        Some(stop) => {
            format!(
                "{step}  ·  {}: {}",
                words.labels.ui_run_ended,
                stop_sentence(stop, input.language)
            )
        }
        None => step,
    }
}

/// The scenario's lanes, plus any lane a drawn item uses that they do not announce (sorted).
fn lanes_drawn(mut lanes: Vec<Lane>, steps: &[ScreenStep]) -> Vec<Lane> {
    for item in steps.iter().flat_map(|step| &step.items) {
        let used = match item {
            DiagramItem::Arrow { from, to, .. } => [Some(*from), Some(*to)],
            DiagramItem::Mark { lane, .. } => [Some(*lane), None],
        };
        for lane in used.into_iter().flatten() {
            if !lanes.contains(&lane) {
                lanes.push(lane);
                lanes.sort();
            }
        }
    }
    lanes
}

/// I1 to I7 over `violations` (the world's at the cursor), each with its sentences in
/// `language` and where it broke (`breaks`: [`crate::view::RunIndex::breaking_steps`] at the
/// cursor, or [`crate::view::breaking_steps`] of the steps up to it): the page's invariants panel, the
/// embed's and the JavaScript API's `invariants()`.
pub fn invariant_lines(
    violations: &[Violation],
    breaks: &BTreeMap<InvariantId, usize>,
    language: Language,
) -> Vec<InvariantLine> {
    InvariantId::ALL
        .iter()
        .map(|&id| {
            let sentences: Vec<String> = violations
                .iter()
                .filter(|violation| violation.invariant == id)
                .map(|violation| violation.sentence_in(language))
                .collect();
            let broke_at = breaks.get(&id).copied();
            InvariantLine {
                id,
                title: id.title_in(language).to_string(),
                description: id.description_in(language).to_string(),
                sentences,
                broke_at,
            }
        })
        .collect()
}

/// Why a run ended, in `language`: the page's caption and the CLI's run header say the same.
pub fn stop_sentence(stop: &StopReason, language: Language) -> String {
    let words = language.words();
    match stop {
        StopReason::Running => words.report.stop_running.to_owned(),
        StopReason::Quiescent => words.report.stop_quiescent.to_owned(),
        StopReason::Stuck { pending } => fill(words.report.stop_stuck, &[("pending", pending)]),
        StopReason::StepLimit { steps_max } => {
            fill(words.report.stop_step_limit, &[("steps_max", steps_max)])
        }
        StopReason::TraceFull { trace_steps_max } => {
            fill(words.report.stop_trace_full, &[("trace_steps_max", trace_steps_max)])
        }
        StopReason::StepFailed { step, error } => {
            fill(words.report.stop_step_failed, &[("step", step), ("error", error)])
        }
    }
}

#[cfg(test)]
mod tests;
