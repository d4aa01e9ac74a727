//! The course in the page: the view a newcomer lands on (the lessons in order with their
//! progress, Start or Resume, the free lab one click away) and a lesson over the simulator
//! (the lab's run of the lesson's scenario, with a panel beside the diagram that tells,
//! asks and sets tasks, step by step).
//!
//! Every rule is the core's (`idempotency_lab::course`): which scenario and twin a lesson
//! runs, where a narration's point lies ([`Point::resolve`]), whether a prediction is right
//! (`Prediction::judge`), whether a task is done (`Task::check_played`: the page's run is the simulator's own) and why not. Here: which view
//! shows and the progress (`state.rs`, `progress.rs`), what a step's card shows
//! ([`step_status`], asked again only when the run, the cursor or the patterns change), and
//! the components (`list.rs`, `panel.rs`).

mod list;
mod panel;
pub mod progress;
pub mod state;

use idempotency_lab::course::{
    Course, CourseLink, CourseLinkError, CourseStep, Lesson, NotYet, Point, TaskVerdict,
};
use idempotency_lab::sim::{PatternMode, Patterns, UserChoice};
use idempotency_lab::view::Language;

pub use list::CourseList;
pub use panel::{LessonPanel, PanelEvent};

use crate::state::{Action, LabState};

/// The built-in course, if it reads (it is compiled in and tested: `None` is a bug, which the
/// page shows in its banner and answers with the free lab alone).
pub fn course() -> Option<&'static Course> {
    Course::built_in().ok()
}

/// What the card of a lesson's step shows of the learner's run.
#[derive(Clone, Debug, PartialEq)]
pub enum StepStatus {
    /// A narration: whether the run, up to the step shown, has reached its point.
    Narration {
        /// Reached.
        reached: bool,
    },
    /// A prediction: judged when the learner answers, not from the run.
    Prediction,
    /// A task: the core's verdict on the run up to the step shown, or why it could not judge.
    Task(Result<TaskVerdict, String>),
    /// A task whose learner has tried: the run shown is at its end, and the verdict is the
    /// core's on it. Only then does the card show the task's hint (a nudge after a wrong
    /// try, never before one).
    TaskTried(Result<TaskVerdict, String>),
    /// After the lesson's last step.
    Finished,
}

/// What a step's status depends on: the run (its patterns, seed, choices, how far it is
/// played and whether it ended) and the step shown. The page asks the core again only when
/// this changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunKey {
    scenario_id: String,
    patterns: Patterns,
    seed: u64,
    choices: Vec<UserChoice>,
    steps: usize,
    ended: bool,
    cursor: usize,
}

impl RunKey {
    /// The key of `lab`'s run as shown.
    pub fn of(lab: &LabState) -> RunKey {
        RunKey {
            scenario_id: lab.scenario_id.clone(),
            patterns: lab.patterns,
            seed: lab.seed,
            choices: lab.choices.clone(),
            steps: lab.sim.steps().len(),
            ended: lab.sim.stop_reason().is_some(),
            cursor: lab.cursor,
        }
    }
}

/// The status of step `step` of `lesson` over `lab`'s run.
pub fn step_status(lesson: &Lesson, step: usize, lab: &LabState) -> StepStatus {
    match lesson.steps.get(step) {
        None => StepStatus::Finished,
        Some(CourseStep::Narration(narration)) => StepStatus::Narration {
            reached: narration.at.resolve(&lab.sim).is_some_and(|at| at <= lab.cursor),
        },
        Some(CourseStep::Prediction(_)) => StepStatus::Prediction,
        Some(CourseStep::Task(task)) => {
            let verdict = task
                .check_played(lesson, &lab.trace_at_cursor())
                .map_err(|error| error.to_string());
            let tried = lab.sim.stop_reason().is_some() && lab.cursor == lab.sim.steps().len();
            if tried { StepStatus::TaskTried(verdict) } else { StepStatus::Task(verdict) }
        }
    }
}

/// What the lab does when the learner arrives at step `step` of `lesson` (by Next or Back):
/// a step of another scenario ([`Lesson::scenario_at`]) opens a fresh run of it; a step that
/// names a twin sets every pattern as the course file starts that step
/// ([`Lesson::patterns_at`]), unless they are so already (`SetPatterns` keeps the choices
/// and the step shown).
///
/// A prediction not yet answered is asked before the run shows its answer: the run is shown
/// from its start (`SeekTo(0)`; its steps stay, one click away), so that no table, invariant
/// or callout of the run's end answers it on the screen.
pub fn arrival(lesson: &Lesson, step: usize, lab: &LabState, answered: bool) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some(course_step) = lesson.steps.get(step) else { return actions };
    if lesson.scenario_at(step).is_ok_and(|scenario| scenario != lab.base) {
        // A task whose learner places the faults starts from a run without the scripted
        // ones; the step after it goes back to the lesson's run.
        actions.extend(fresh_opening(lesson, step));
    } else if course_step.run().is_some()
        && let Ok(patterns) = lesson.patterns_at(step)
        && lab.patterns != patterns
    {
        actions.push(Action::SetPatterns(patterns));
    }
    if matches!(course_step, CourseStep::Prediction(_)) && !answered {
        actions.push(Action::SeekTo(0));
    }
    actions
}

/// What the lab does when the learner opens `lesson` at `step`: a fresh run of the lesson's
/// scenario with the switches that step starts from; or, on Resume in the same page, the
/// learner's run as it was, switched to them if it is not.
pub fn opening(lesson: &Lesson, step: usize, lab: &LabState, resume: bool) -> Option<Action> {
    if resume && lesson.scenario_at(step).is_ok_and(|scenario| lab.base == scenario) {
        let patterns = lesson.patterns_at(step).ok()?;
        return (lab.patterns != patterns).then_some(Action::SetPatterns(patterns));
    }
    fresh_opening(lesson, step)
}

/// A fresh run of `lesson`'s scenario with the switches step `step` starts from.
pub fn fresh_opening(lesson: &Lesson, step: usize) -> Option<Action> {
    let scenario = lesson.scenario_at(step).ok()?;
    let patterns = lesson.patterns_at(step).ok()?;
    Some(Action::OpenLesson { scenario: Box::new(scenario), patterns })
}

/// What the lab does when a trainer's link opens `lesson` at `step`, whatever the stored
/// progress: a fresh run of the lesson's scenario in the twin of that step, shown at the
/// point the step needs (a narration's point, a task's place to start) if a fresh run gets
/// there; else at its start, without a banner (a point only the learner's fault reaches).
pub fn link_opening(lesson: &Lesson, step: usize) -> Vec<Action> {
    let Some(fresh) = fresh_opening(lesson, step) else { return Vec::new() };
    let point = go_to_point(lesson, step).filter(|point| *point != Point::Start);
    let go_to = point.map(|point| Action::GoTo { point, unreachable: None });
    std::iter::once(fresh).chain(go_to).collect()
}

/// The point a step offers to go to: a narration's, or a task's place to start.
pub fn go_to_point(lesson: &Lesson, step: usize) -> Option<Point> {
    match lesson.steps.get(step)? {
        CourseStep::Narration(narration) => Some(narration.at),
        CourseStep::Task(task) => task.go_to,
        CourseStep::Prediction(_) => None,
    }
}

/// A stable name of why a task is not done, for the card's `data-reason` (what the browser
/// tests read, beside the words the learner reads).
pub fn reason_hook(reason: &NotYet) -> &'static str {
    match reason {
        NotYet::OtherScenario => "other-scenario",
        NotYet::Patterns { mode: PatternMode::Naive, .. } => "patterns-naive",
        NotYet::Patterns { mode: PatternMode::Idempotent, .. } => "patterns-idempotent",
        NotYet::NoFault => "no-fault",
        NotYet::TooManyFaults { .. } => "too-many-faults",
        NotYet::TooFewFaults { .. } => "too-few-faults",
        NotYet::FaultNotAllowed { .. } => "fault-not-allowed",
        NotYet::NotBroken { .. } => "not-broken",
        NotYet::NotAtEnd => "not-at-end",
        NotYet::Broken { .. } => "broken",
        NotYet::NotOneSwitch { .. } => "not-one-switch",
        NotYet::NaiveHoldsToo { .. } => "naive-holds-too",
        NotYet::NotJudged => "not-judged",
        NotYet::NotOnThePalette { .. } => "not-on-the-palette",
        NotYet::Refuted { .. } => "refuted",
        NotYet::JudgeBounded { .. } => "judge-bounded",
    }
}

/// What the address asks for when the page opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageStart {
    /// Nothing: the course, or the free lab if the learner chose it last.
    Nothing,
    /// A trainer's link: this lesson (its position) at this step, in the presenter view or not.
    Lesson {
        /// The lesson's position.
        lesson: usize,
        /// The step, from 0.
        step: usize,
        /// Whether the link asks for the presenter view (`presenter=1`).
        presenter: bool,
    },
    /// A course link that cannot be opened: why, in the page's language.
    BadCourseLink(String),
    /// A run's share link, which the lab opens as it always has.
    Run,
}

impl PageStart {
    /// What `fragment` asks for (its errors worded in `language`).
    pub fn of(fragment: &str, language: Language) -> PageStart {
        if fragment.trim_start_matches('#').is_empty() {
            return PageStart::Nothing;
        }
        let Some(course) = course() else { return PageStart::Run };
        if !CourseLink::names_a_lesson(fragment) {
            return PageStart::Run;
        }
        match link_place(fragment, course) {
            Ok((lesson, link)) => {
                PageStart::Lesson { lesson, step: link.at, presenter: link.presenter }
            }
            Err(error) => PageStart::BadCourseLink(error.text(language)),
        }
    }
}

/// The lesson (its position) a course link names, and the link.
pub fn link_place(fragment: &str, course: &Course) -> Result<(usize, CourseLink), CourseLinkError> {
    let link = CourseLink::decode(fragment, course)?;
    let lesson = course
        .position(&link.lesson)
        .ok_or_else(|| CourseLinkError::UnknownLesson { id: link.lesson.clone() })?;
    Ok((lesson, link))
}

/// The address's fragment of a view: a lesson's course link (with `presenter=1` while the
/// presenter view is on); none for the course (the lab's is its run's share link, which the
/// lab state knows).
pub fn lesson_fragment(lesson: &Lesson, step: usize, presenter: bool) -> String {
    let at = step.min(lesson.steps.len().saturating_sub(1));
    CourseLink::new(&lesson.id, at).presenting(presenter).encode()
}
