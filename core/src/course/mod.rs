//! The workshop course: an ordered list of lessons, each a built-in scenario with a title, an
//! intro and a sequence of steps (narration bound to a point of the run, predictions checked
//! against what the run actually does, tasks checked against the learner's own run).
//!
//! The course is data, `core/course/course.json`, compiled in and read as strictly as a
//! scenario ([`Course::parse`]: unknown fields refused, every reference checked (`validate.rs`), a typed
//! [`CourseError`] naming the field). Every text is in English and Russian ([`Localized`]).
//! What a step asks is judged here, once, for the page and the CLI alike: a prediction by
//! [`Prediction::judge`] against the lesson's reference run ([`Lesson::reference_run`]), a
//! task by [`Task::check`] over a trace (`check.rs`), a narration's point by
//! [`Point::resolve`] over the steps a run has taken. A trainer's link into the course
//! (`#lesson=<id>&at=<step>`) is a [`CourseLink`] (`link.rs`).
//!
//! It sits on top of the model and the view: it reads scenarios, runs and traces (`sim`),
//! the invariants' names, and the decisive moments of the view ([`crate::view::MomentKind`]),
//! and nothing below uses it.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::faults::FaultClass;
use crate::ids::Sku;
use crate::invariants::InvariantId;
use crate::sim::{
    Pattern, PatternMode, Patterns, Scenario, ScenarioError, Simulation, catalogue_scenario,
};
use crate::view::{Language, MomentKind, moments};

mod build;
mod check;
mod link;
mod validate;

#[cfg(test)]
pub(crate) use build::AssemblyError;
pub(crate) use build::BuildGoalError;
pub use build::{Assembly, BuildGoal, BuildVerdict, Placed};
pub use check::{Actual, GradeError, Guess, NotYet, TaskVerdict};
#[cfg(test)]
pub(crate) use check::{TaskGrade, Verdict};
pub use link::{CourseLink, CourseLinkError};

/// The version of the course file this build reads.
pub(crate) const COURSE_FORMAT_VERSION: u32 = 1;

/// The course file, compiled in.
pub(crate) const COURSE_JSON: &str = include_str!("../../course/course.json");

/// The longest text a course file may hold in one field, in bytes.
pub(crate) const TEXT_BYTES_MAX: usize = 2_000;

/// The most lessons, and the most steps of one lesson, a course file may hold.
pub(crate) const LESSONS_MAX: usize = 64;

/// The most steps one lesson may hold.
pub(crate) const STEPS_MAX: usize = 32;

/// A text in every language of the lab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Localized {
    /// English.
    pub en: String,
    /// Russian.
    pub ru: String,
}

impl Localized {
    /// The text in `language`.
    pub fn get(&self, language: Language) -> &str {
        match language {
            Language::En => &self.en,
            Language::Ru => &self.ru,
        }
    }
}

/// The whole course.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Course {
    /// [`COURSE_FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// The lessons, in the order a learner takes them.
    pub lessons: Vec<Lesson>,
}

/// One lesson: a built-in scenario and the steps a learner goes through over its run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// A short stable name (`reservation-ledger`): what links and the CLI use.
    pub id: String,
    /// The built-in scenario it runs ([`crate::sim::CATALOGUE`]).
    pub scenario: String,
    /// Whether the scenario's own faults (its injections and random rates) stay in: `false`
    /// for a lesson whose learner places the faults.
    #[serde(default = "yes")]
    pub(crate) scripted_faults: bool,
    /// The title.
    pub title: Localized,
    /// What the lesson is about, without giving the outcome away.
    pub intro: Localized,
    /// The steps, in order.
    pub steps: Vec<CourseStep>,
}

fn yes() -> bool {
    true
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CourseStep {
    /// A text bound to a point of the run, shown when the run reaches it.
    Narration(Narration),
    /// A question about what the run will do, checked against the run.
    Prediction(Prediction),
    /// Something the learner does, checked against the learner's own run.
    Task(Task),
}

impl CourseStep {
    /// The twin the lesson's focus patterns switch to when the learner reaches this step, if
    /// it names one.
    pub fn run(&self) -> Option<PatternMode> {
        match self {
            CourseStep::Narration(narration) => narration.run,
            CourseStep::Prediction(prediction) => Some(prediction.run),
            CourseStep::Task(task) => task.run,
        }
    }
}

impl Task {
    /// The place to start that the page offers for this task, once the learner has `tried` it
    /// (run it to the end without passing) or not. A `break` task asks the learner to find
    /// where the fault must go, so its place is offered only after a try, with the hint;
    /// every other task offers it at once.
    pub fn go_to_offered(&self, tried: bool) -> Option<Point> {
        match self.goal {
            Goal::Break { .. } if !tried => None,
            _ => self.go_to,
        }
    }
}

/// A narration: a text the page shows beside the diagram once the run reaches `at`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Narration {
    /// The twin of the lesson's focus patterns this narration is about, if it switches them.
    #[serde(default)]
    pub(crate) run: Option<PatternMode>,
    /// The point of the run it is about.
    pub at: Point,
    /// The text.
    pub text: Localized,
}

/// A point of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Point {
    /// Before the first step.
    Start,
    /// The run's end (quiescence or a limit).
    End,
    /// The first step with this decisive moment.
    Moment(MomentKind),
    /// The first step at which this invariant broke.
    Break(InvariantId),
    /// The first point at which the learner can place a fault of this class (a fault button
    /// of that class shows on a waiting item).
    Fault(FaultClass),
}

impl Point {
    /// The number of steps after which `simulation`'s run (as far as it has gone) is at this
    /// point: 0 for the start; `None` if the run has not reached it (yet).
    pub fn resolve(self, simulation: &Simulation) -> Option<usize> {
        let steps = simulation.steps();
        match self {
            Point::Start => Some(0),
            Point::End => simulation.stop_reason().map(|_| steps.len()),
            Point::Moment(kind) => moments(steps.iter())
                .iter()
                .find(|moment| moment.kind == kind)
                .map(|moment| moment.step),
            Point::Break(invariant) => steps
                .iter()
                .find(|step| step.new_violations.iter().any(|v| v.invariant == invariant))
                .map(|step| step.step),
            Point::Fault(class) => (0..=steps.len()).find(|&step| {
                simulation.world_after(step).is_ok_and(|world| {
                    world
                        .enabled_fault_actions()
                        .iter()
                        .any(|action| action.fault_class() == Some(class))
                })
            }),
        }
    }
}

/// A prediction: a question on the run of the lesson in one twin, whose answer the core
/// computes from that run (nothing in the file says what the answer is).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prediction {
    /// The twin of the lesson's focus patterns the question is about.
    pub run: PatternMode,
    /// The question.
    pub question: Localized,
    /// What kind of answer, and of what.
    pub answer: Answer,
    /// Shown after a wrong answer: a nudge, not the answer.
    pub hint: Localized,
    /// Shown after the right answer: why it is so.
    pub explain: Localized,
}

/// What a prediction asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// A number: a quantity at the run's end.
    Number(Quantity),
    /// Which invariant breaks first (any of those that break at the earliest step), or none.
    FirstBroken,
    /// Whether an invariant holds to the end.
    Holds(InvariantId),
}

/// A number read off a run's end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// `stock.available_qty` of a sku.
    Available(Sku),
    /// The sum of `reservations.qty` of a sku.
    Reserved(Sku),
    /// The rows of `charges`.
    Charges,
    /// The rows of `orders`.
    Orders,
    /// How many copies of messages the broker delivered.
    Deliveries,
}

/// A task: a goal the learner reaches in their own run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// The twin the lesson's focus patterns start this task in, if it switches them (the
    /// page switches them on arrival, and the card shows every pattern's switch).
    #[serde(default)]
    pub(crate) run: Option<PatternMode>,
    /// What is checked.
    pub goal: Goal,
    /// What to do.
    pub text: Localized,
    /// Shown while the goal is not reached, beside the core's reason.
    pub hint: Localized,
    /// Where the page offers to take the learner to start on the task, if anywhere.
    #[serde(default)]
    pub go_to: Option<Point>,
    /// Whether the task's run starts without the scenario's scripted faults (its injections
    /// and random rates), so that the learner places them: a "break it yourself" task in a
    /// lesson whose other steps watch the scripted run. The CLI's `run --no-scripted-faults`.
    #[serde(default)]
    pub own_faults: bool,
}

/// What a task checks in the learner's run ([`Task::check`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// With every focus pattern naive, break `invariant` with between 1 and `faults_max`
    /// faults of the learner's own, of the classes in `faults` (any if empty).
    Break {
        /// The invariant to break.
        invariant: InvariantId,
        /// The most faults the learner may place.
        faults_max: usize,
        /// The classes allowed; empty: any.
        #[serde(default)]
        faults: Vec<FaultClass>,
    },
    /// The same schedule as a run that breaks `invariant` with every focus pattern naive,
    /// run to its end with exactly one focus pattern (`pattern`, if it names one) switched
    /// to idempotent, and `invariant` held.
    FixBySwitching {
        /// The invariant that must hold again.
        invariant: InvariantId,
        /// The one pattern to switch; any one focus pattern if `None`.
        #[serde(default)]
        pattern: Option<Pattern>,
    },
    /// With every focus pattern idempotent, run to the end with every invariant held, after
    /// at least `faults_min` faults of the learner's own, of the classes in `faults` (any if
    /// empty).
    Survive {
        /// The fewest faults the learner must place.
        faults_min: usize,
        /// The classes that count; empty: any.
        #[serde(default)]
        faults: Vec<FaultClass>,
    },
    /// Assemble the handler from the palette's blocks so that the exhaustive checker proves
    /// it keeps the goal's invariants under its faults (`build.rs`); judged over the
    /// learner's program, not over a run.
    Build(BuildGoal),
}

/// Why a course file was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CourseError {
    /// The JSON does not read as a course (its path, line and column).
    #[error(transparent)]
    Json(ScenarioError),
    /// The file is of another format version.
    #[error("course format_version {found} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A list is empty or too long.
    #[error("{field} has {len} entries; it must have between 1 and {max}")]
    Length {
        /// The list, such as `lessons[2].steps`.
        field: String,
        /// Its length.
        len: usize,
        /// The most it may have.
        max: usize,
    },
    /// Two lessons have the same id.
    #[error("{field} is {id:?}, the id of an earlier lesson")]
    DuplicateLesson {
        /// The field.
        field: String,
        /// The id.
        id: String,
    },
    /// A lesson id is not a short lowercase name.
    #[error("{field} is {id:?}: a lesson id is 1 to 40 characters of a-z, 0-9 and -")]
    BadId {
        /// The field.
        field: String,
        /// The id, shortened.
        id: String,
    },
    /// A lesson names a scenario the catalogue does not have.
    #[error("{field} names scenario {id:?}, which is not a built-in scenario")]
    UnknownScenario {
        /// The field.
        field: String,
        /// The id.
        id: String,
    },
    /// A text is empty or too long.
    #[error("{field} has {bytes} bytes; a text must have between 1 and {max}")]
    Text {
        /// The field, such as `lessons[0].intro.ru`.
        field: String,
        /// Its length.
        bytes: usize,
        /// The most it may have.
        max: usize,
    },
    /// A quantity names a sku the lesson's shop does not stock.
    #[error("{field} names sku {sku:?}, which the lesson's scenario does not stock")]
    UnknownSku {
        /// The field.
        field: String,
        /// The sku.
        sku: String,
    },
    /// A pattern switch names a pattern the lesson is not about.
    #[error("{field} names {pattern:?}, which is not among the lesson's focus patterns")]
    NotInFocus {
        /// The field.
        field: String,
        /// The pattern.
        pattern: Pattern,
    },
    /// A lesson lacks a kind of step: each has a narration, a prediction and a task.
    #[error("{field} has no {kind}: every lesson has a narration, a prediction and a task")]
    MissingKind {
        /// The lesson's steps.
        field: String,
        /// The kind missing.
        kind: &'static str,
    },
    /// A `break` task whose invariant the lesson's naive run breaks already: it would pass
    /// untouched.
    #[error(
        "{field} asks the learner to break {invariant}, but the lesson's naive run breaks it without them"
    )]
    BreaksUntouched {
        /// The field.
        field: String,
        /// The invariant.
        invariant: InvariantId,
    },
    /// A narration's point, or a task's place to start, that the lesson's own run in the
    /// step's twin never reaches.
    #[error("{field} is a point the lesson's {mode:?} run never reaches")]
    PointNotReached {
        /// The field.
        field: String,
        /// The twin.
        mode: PatternMode,
    },
    /// A build goal that is not well formed: its palette, invariants, faults or bound.
    #[error("{field}: {error}")]
    Build {
        /// The field, such as `lessons[4].steps[2].task.goal.build.palette[3]`.
        field: String,
        /// What is wrong.
        error: BuildGoalError,
    },
    /// A number in a goal is out of its range.
    #[error("{field} is {value}; it must be between 1 and {max}")]
    Range {
        /// The field.
        field: String,
        /// The value.
        value: usize,
        /// The most it may be.
        max: usize,
    },
}

/// The most faults a goal may count.
pub(crate) const GOAL_FAULTS_MAX: usize = 8;

static BUILT_IN: OnceLock<Result<Course, CourseError>> = OnceLock::new();

impl Course {
    /// The built-in course (`core/course/course.json`), read once.
    pub fn built_in() -> Result<&'static Course, CourseError> {
        BUILT_IN.get_or_init(|| Course::parse(COURSE_JSON)).as_ref().map_err(Clone::clone)
    }

    /// Reads and validates a course file.
    pub(crate) fn parse(text: &str) -> Result<Course, CourseError> {
        let course: Course =
            crate::sim::json::from_json("course", text).map_err(CourseError::Json)?;
        course.validate()?;
        Ok(course)
    }

    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|lesson| lesson.id == id)
    }

    /// The position of the lesson with this id.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.lessons.iter().position(|lesson| lesson.id == id)
    }
}

impl Lesson {
    /// The scenario the lesson runs: the built-in one, without its injections and random
    /// fault rates unless the lesson keeps its scripted faults, with its focus patterns naive
    /// (a lesson starts naive).
    pub fn scenario(&self) -> Result<Scenario, CourseError> {
        let scenario = catalogue_scenario(&self.scenario).map_err(|_| {
            CourseError::UnknownScenario { field: "scenario".to_owned(), id: self.scenario.clone() }
        })?;
        let scenario = scenario.with_mode(PatternMode::Naive);
        Ok(if self.scripted_faults { scenario } else { scenario.without_scripted_faults() })
    }

    /// The scenario `task`'s run starts from: the lesson's ([`Lesson::scenario`]), without its
    /// scripted faults if the task has the learner place them ([`Task::own_faults`]).
    pub(crate) fn task_scenario(&self, task: &Task) -> Result<Scenario, CourseError> {
        let scenario = self.scenario()?;
        Ok(if task.own_faults { scenario.without_scripted_faults() } else { scenario })
    }

    /// The scenario the page runs at step `index`: a task's ([`Lesson::task_scenario`]), or the
    /// lesson's.
    pub fn scenario_at(&self, index: usize) -> Result<Scenario, CourseError> {
        match self.steps.get(index) {
            Some(CourseStep::Task(task)) => self.task_scenario(task),
            _ => self.scenario(),
        }
    }

    /// The patterns the lesson is about: its scenario's focus, or all four if it names none.
    pub fn focus(&self, scenario: &Scenario) -> Vec<Pattern> {
        scenario.focus_patterns().to_vec()
    }

    /// The pattern switches of the lesson's run with every focus pattern in `mode`.
    pub fn patterns(&self, mode: PatternMode) -> Result<Patterns, CourseError> {
        Ok(self.scenario()?.with_mode(mode).patterns)
    }

    /// The twin of the focus patterns at step `index`: the last one a step up to it names,
    /// naive if none does.
    pub fn mode_at(&self, index: usize) -> PatternMode {
        let end = index.saturating_add(1).min(self.steps.len());
        self.steps[..end].iter().rev().find_map(CourseStep::run).unwrap_or(PatternMode::Naive)
    }

    /// Every pattern's switch at step `index`: the lesson's scenario with its focus patterns
    /// in the twin of [`Lesson::mode_at`], the others as the scenario sets them. What the page
    /// opens and switches to on arrival, and what a step's card shows.
    pub fn patterns_at(&self, index: usize) -> Result<Patterns, CourseError> {
        self.patterns(self.mode_at(index))
    }

    /// The lesson's own run in `mode`, with no choice of the learner's, to its end: what its
    /// predictions are judged against and where its narrations' points lie.
    pub(crate) fn reference_run(&self, mode: PatternMode) -> Result<Simulation, CourseError> {
        run_to_end(self.scenario()?.with_mode(mode))
    }

    /// What the judge checks for a build task of this lesson: the lesson's scenario with the
    /// learner's program in place of the built-in handler it stands for, without scripted
    /// faults, and the goal's bounds.
    pub fn build_input(
        &self,
        goal: &BuildGoal,
        assembly: &Assembly,
    ) -> Result<(Scenario, crate::check::CheckConfig), CourseError> {
        let program = goal.program(assembly);
        let scenario = crate::check::judge::scenario_with_program(&self.scenario()?, &program);
        Ok((scenario, goal.check_config()))
    }
}

fn run_to_end(scenario: Scenario) -> Result<Simulation, CourseError> {
    let mut simulation = Simulation::new(scenario, 0).map_err(CourseError::Json)?;
    simulation.run_to_end();
    Ok(simulation)
}

#[cfg(test)]
mod tests;
