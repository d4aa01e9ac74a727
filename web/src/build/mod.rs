//! The build task in the page ("build the fix yourself"): the learner's draft of a handler,
//! the judge's run over it and what it found, as part of the page's one state
//! ([`crate::page::PageState::build`]), with its part of the reducer ([`BuildState::reduce`]).
//!
//! Every rule is the core's (`idempotency_lab::course::BuildGoal` and `Assembly`): which
//! blocks the palette offers, how a block moves, what forms a parameter takes, what the judge
//! checks and whether its verdict passes the task. Here: where the focus goes after a move, so
//! that it follows the block (or the palette entry that took its place), and the judge run in
//! slices by the check panel's machinery ([`judge_in_slices`], started by the page's edge
//! `crate::app::edges::use_build_judge`). The editor itself is `editor.rs`.

mod editor;

use std::cell::Cell;
use std::rc::Rc;

use idempotency_lab::check::judge::Judgement;
use idempotency_lab::check::{CheckConfig, Checker, Counterexample};
use idempotency_lab::course::{Assembly, BuildGoal, BuildVerdict, CourseStep, Goal, Lesson};
use idempotency_lab::invariants::Violation;
use idempotency_lab::program::compile;
use idempotency_lab::sim::Scenario;
use yew::Callback;

pub use editor::BuildEditor;

use crate::check_panel::{CHECK_STEP_STATES, SliceEnd, check_in_slices};

/// The build goal of `lesson`'s step `step`, if it is a build task.
pub fn goal_at(lesson: &Lesson, step: usize) -> Option<&BuildGoal> {
    match lesson.steps.get(step)? {
        CourseStep::Task(task) => match &task.goal {
            Goal::Build(goal) => Some(goal),
            _ => None,
        },
        CourseStep::Narration(_) | CourseStep::Prediction(_) => None,
    }
}

/// Which control of a placed block, for the focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockControl {
    /// Move it up.
    Up,
    /// Move it down.
    Down,
    /// Take it out.
    Remove,
}

impl BlockControl {
    /// The control's `data-testid` at `position`.
    pub fn testid(self, position: usize) -> String {
        let name = match self {
            BlockControl::Up => "up",
            BlockControl::Down => "down",
            BlockControl::Remove => "remove",
        };
        format!("build-{name}-{position}")
    }
}

/// A judge run under way: which, over which draft, how far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judging {
    /// The run's number: news of an older run changes nothing.
    pub generation: u64,
    /// The draft judged.
    pub assembly: Assembly,
    /// Unique states explored so far.
    pub states: usize,
}

/// What the judge found, over which draft.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The draft judged: a verdict shows as stale once the draft changes.
    pub assembly: Assembly,
    /// The verdict and, for a counterexample, its first violation; or why the judge could not
    /// run.
    pub result: Result<(BuildVerdict, Option<Violation>), String>,
    /// How long the judge took in the page, in milliseconds.
    pub elapsed_ms: f64,
}

/// The build task's part of the page's state: the draft of one lesson's step, the judge's run
/// and its last verdict.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildState {
    /// The lesson (its position) and step the draft belongs to.
    pub at: Option<(usize, usize)>,
    /// The learner's draft.
    pub assembly: Assembly,
    /// The runs started so far.
    pub generation: u64,
    /// The judge's run, while it runs.
    pub judging: Option<Judging>,
    /// The last verdict.
    pub judged: Option<Judged>,
}

/// Where a draft stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildStatus {
    /// The core refuses the program as it is (the editor says why).
    Invalid,
    /// Ready to be judged, never judged.
    Ready,
    /// The judge runs.
    Judging,
    /// Judged, and changed since.
    Stale,
    /// Proved: the task passes.
    Holds,
    /// A counterexample.
    Refuted,
    /// Stopped by a bound.
    Bounded,
    /// The judge could not run.
    Error,
}

impl BuildStatus {
    /// A stable name, the editor's and the card's `data-status` (what the browser tests read).
    pub fn hook(self) -> &'static str {
        match self {
            BuildStatus::Invalid => "invalid",
            BuildStatus::Ready => "ready",
            BuildStatus::Judging => "judging",
            BuildStatus::Stale => "stale",
            BuildStatus::Holds => "holds",
            BuildStatus::Refuted => "refuted",
            BuildStatus::Bounded => "bounded",
            BuildStatus::Error => "error",
        }
    }

    /// Whether the learner has tried and not passed: the card shows the task's hint.
    pub fn tried_and_failed(self) -> bool {
        matches!(self, BuildStatus::Refuted | BuildStatus::Bounded)
    }
}

/// What the learner does in the editor, and what the judge's run reports.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildMsg {
    /// Place palette entry `entry` at the end.
    Add(usize),
    /// Take out the block at this position.
    Remove(usize),
    /// Move the block at `position` one place up or down.
    Shift {
        /// The block's position.
        position: usize,
        /// Up (else down).
        up: bool,
    },
    /// Set the block at `position` to form `form` of its entry.
    SetForm {
        /// The block's position.
        position: usize,
        /// The form's index among the entry's forms.
        form: usize,
    },
    /// Judge the draft.
    Check,
    /// The run of `generation` has explored `states` unique states.
    Progress {
        /// The run.
        generation: u64,
        /// Unique states so far.
        states: usize,
    },
    /// The run of `generation` ended.
    Finish {
        /// The run.
        generation: u64,
        /// The judgement, or why the judge could not run.
        judgement: Rc<Result<Judgement, String>>,
        /// How long it took, in milliseconds.
        elapsed_ms: f64,
    },
}

/// Where the focus goes after a move: a palette entry's Add, a placed block's control, or the
/// Check button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildFocus {
    /// The Add of palette entry `entry`.
    Add(usize),
    /// A control of the block at a position.
    Block(usize, BlockControl),
    /// "Check my handler".
    Check,
}

impl BuildFocus {
    /// The elements to focus, the first that exists and is enabled.
    pub fn selectors(self) -> Vec<String> {
        let mut selectors = match self {
            BuildFocus::Add(entry) => vec![format!("[data-testid=build-add-{entry}]")],
            BuildFocus::Block(position, control) => {
                // A block moved to an end: its other move, then its Remove.
                let mut controls = vec![control, BlockControl::Up, BlockControl::Down];
                controls.push(BlockControl::Remove);
                controls
                    .into_iter()
                    .map(|control| format!("[data-testid={}]", control.testid(position)))
                    .collect()
            }
            BuildFocus::Check => Vec::new(),
        };
        selectors.push("[data-testid=build-check]".to_owned());
        selectors
    }
}

/// What a change of the build state asks of the rest of the page.
#[derive(Debug, Default, PartialEq)]
pub struct BuildEffects {
    /// Move the focus.
    pub focus: Option<BuildFocus>,
    /// Open this counterexample in the diagram, at its violating step.
    pub counterexample: Option<Box<Counterexample>>,
    /// The task passed: the step is passed.
    pub passed: bool,
}

impl BuildState {
    /// The state of the draft of lesson `lesson`'s step `step`: this one if it is that step's,
    /// else a fresh draft.
    pub fn for_step(&self, lesson: usize, step: usize) -> BuildState {
        if self.at == Some((lesson, step)) {
            self.clone()
        } else {
            BuildState {
                at: Some((lesson, step)),
                generation: self.generation,
                ..BuildState::default()
            }
        }
    }

    /// The state after `msg` over `goal`'s palette, and what it asks of the page. A move that
    /// cannot be done (the core's `AssemblyError`) changes nothing.
    pub fn reduce(&self, goal: &BuildGoal, msg: BuildMsg) -> (BuildState, BuildEffects) {
        let mut next = self.clone();
        let mut effects = BuildEffects::default();
        let moved = match msg {
            BuildMsg::Add(entry) => self.assembly.add(goal, entry).ok().map(|assembly| {
                let focus = focus_after_add(goal, &assembly, entry);
                (assembly, Some(focus))
            }),
            BuildMsg::Remove(position) => self.assembly.remove(position).ok().map(|assembly| {
                let focus = focus_after_remove(goal, &assembly, position);
                (assembly, Some(focus))
            }),
            BuildMsg::Shift { position, up } => {
                self.assembly.shift(position, up).ok().map(|assembly| {
                    let (to, control) = match up {
                        true => (position - 1, BlockControl::Up),
                        false => (position + 1, BlockControl::Down),
                    };
                    (assembly, Some(BuildFocus::Block(to, control)))
                })
            }
            BuildMsg::SetForm { position, form } => {
                // The picker keeps the focus.
                self.assembly.set_form(goal, position, form).ok().map(|assembly| (assembly, None))
            }
            BuildMsg::Check => {
                next.generation += 1;
                let assembly = self.assembly.clone();
                next.judging = Some(Judging { generation: next.generation, assembly, states: 0 });
                None
            }
            BuildMsg::Progress { generation, states } => {
                if let Some(judging) = next.judging.as_mut().filter(|j| j.generation == generation)
                {
                    judging.states = states;
                }
                None
            }
            BuildMsg::Finish { generation, judgement, elapsed_ms } => {
                let Some(judging) = self.judging.as_ref().filter(|j| j.generation == generation)
                else {
                    return (next, effects);
                };
                next.judging = None;
                let result = match &*judgement {
                    Ok(judgement) => {
                        let verdict = goal.grade(judgement);
                        effects.passed = verdict.passes();
                        if let Judgement::Counterexample { counterexample, .. } = judgement {
                            effects.counterexample = Some(counterexample.clone());
                        }
                        Ok((verdict, judgement.first_violation().cloned()))
                    }
                    Err(error) => Err(error.clone()),
                };
                let assembly = judging.assembly.clone();
                next.judged = Some(Judged { assembly, result, elapsed_ms });
                None
            }
        };
        if let Some((assembly, focus)) = moved {
            next.assembly = assembly;
            effects.focus = focus;
        }
        (next, effects)
    }

    /// Where the draft stands, for the editor and the lesson's card.
    pub fn status(&self, goal: &BuildGoal) -> BuildStatus {
        if self.judging.is_some() {
            return BuildStatus::Judging;
        }
        if compile(&goal.program(&self.assembly)).is_err() {
            return BuildStatus::Invalid;
        }
        match self.verdict_now().map(|judged| &judged.result) {
            Some(Ok((BuildVerdict::Holds { .. }, _))) => BuildStatus::Holds,
            Some(Ok((BuildVerdict::Refuted { .. }, _))) => BuildStatus::Refuted,
            Some(Ok((BuildVerdict::Bounded { .. }, _))) => BuildStatus::Bounded,
            Some(Err(_)) => BuildStatus::Error,
            None if self.judged.is_some() => BuildStatus::Stale,
            None => BuildStatus::Ready,
        }
    }

    /// The verdict on the draft as it is now, if it was judged as it is.
    pub fn verdict_now(&self) -> Option<&Judged> {
        self.judged.as_ref().filter(|judged| judged.assembly == self.assembly)
    }
}

/// After an Add: the palette entry that took its place (the next one not placed), else the one
/// before it, else the new block's Remove.
fn focus_after_add(goal: &BuildGoal, assembly: &Assembly, entry: usize) -> BuildFocus {
    let unplaced = goal.unplaced(assembly);
    let after = unplaced.iter().find(|other| **other > entry);
    let before = unplaced.iter().rev().find(|other| **other < entry);
    match after.or(before) {
        Some(other) => BuildFocus::Add(*other),
        None => BuildFocus::Block(assembly.placed.len() - 1, BlockControl::Remove),
    }
}

/// After a Remove: the block that took its place, else the one above, else the palette's first
/// entry.
fn focus_after_remove(goal: &BuildGoal, assembly: &Assembly, position: usize) -> BuildFocus {
    if position < assembly.placed.len() {
        BuildFocus::Block(position, BlockControl::Remove)
    } else if let Some(above) = position.checked_sub(1) {
        BuildFocus::Block(above, BlockControl::Remove)
    } else {
        goal.unplaced(assembly).first().map_or(BuildFocus::Check, |entry| BuildFocus::Add(*entry))
    }
}

/// What the judge checks for the draft `assembly` of `lesson`'s build step `step`: the
/// scenario with the learner's program installed and the goal's bounds, progress reported
/// every [`CHECK_STEP_STATES`] states.
pub fn judge_input(
    lesson: &Lesson,
    step: usize,
    assembly: &Assembly,
) -> Option<(Scenario, CheckConfig)> {
    let goal = goal_at(lesson, step)?;
    let (scenario, config) = lesson.build_input(goal, assembly).ok()?;
    Some((scenario, CheckConfig { progress_every_states: CHECK_STEP_STATES, ..config }))
}

/// Runs the judge's `checker` in the check panel's slices until it ends or `cancel` is set,
/// reporting its progress and its judgement (with the time it took) to `send`.
pub async fn judge_in_slices(
    checker: Checker,
    generation: u64,
    cancel: Rc<Cell<bool>>,
    send: Callback<BuildMsg>,
) {
    let started = js_sys::Date::now();
    let progress = send.reform(move |stats: idempotency_lab::check::CheckProgress| {
        BuildMsg::Progress { generation, states: stats.unique_states }
    });
    let judgement = match check_in_slices(checker, cancel, progress).await {
        SliceEnd::Cancelled(_) => return,
        SliceEnd::Done(Ok(report)) => Ok(Judgement::of_report(report)),
        SliceEnd::Done(Err(error)) => Err(error.to_string()),
    };
    let elapsed_ms = js_sys::Date::now() - started;
    send.emit(BuildMsg::Finish { generation, judgement: Rc::new(judgement), elapsed_ms });
}

#[cfg(test)]
mod tests;
