//! Judging a learner: a prediction against the lesson's reference run, a task against the
//! learner's own run (a [`Trace`], as the page holds it or a file the CLI reads).

use thiserror::Error;

use crate::course::{Answer, CourseError, Goal, Lesson, Prediction, Quantity, Task};
use crate::faults::FaultClass;
use crate::invariants::InvariantId;
use crate::sim::{
    Choice, NotReproduced, Pattern, PatternMode, Patterns, ReplayError, Run, Scenario, SimEvent,
    Simulation, StopReason, Trace, reproduce,
};
use crate::view::Language;
use crate::words::fill;

/// The learner's answer to a prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guess {
    /// A number ([`Answer::Number`]).
    Number(i64),
    /// An invariant, or none ([`Answer::FirstBroken`]).
    Invariant(Option<InvariantId>),
    /// Holds or not ([`Answer::Holds`]).
    Holds(bool),
}

/// What the run actually did, for a prediction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actual {
    /// The number.
    Number(i64),
    /// The invariants that broke first (all at the same, earliest step); empty if none broke.
    FirstBroken(Vec<InvariantId>),
    /// Whether the invariant held to the end.
    Holds(bool),
}

/// A prediction judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the guess was right.
    pub correct: bool,
    /// What the run did.
    pub(crate) actual: Actual,
}

/// Why a task is not done yet, in terms the page and the CLI word for the learner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotYet {
    /// The run is not of this lesson's scenario.
    OtherScenario,
    /// The patterns are not the ones the task asks for: the lesson's focus patterns all in
    /// one twin, the others as the lesson starts them.
    Patterns {
        /// The twin of the focus patterns asked for.
        mode: PatternMode,
        /// Every pattern's switch as the task asks for it.
        patterns: Patterns,
    },
    /// The learner placed no fault of their own (of the classes that count).
    NoFault,
    /// The learner placed more faults than the task allows.
    TooManyFaults {
        /// How many.
        placed: usize,
        /// The most allowed.
        max: usize,
    },
    /// Fewer faults than the task asks for.
    TooFewFaults {
        /// How many.
        placed: usize,
        /// The fewest asked for.
        min: usize,
    },
    /// A fault of a class the task does not allow.
    FaultNotAllowed {
        /// The class.
        class: FaultClass,
    },
    /// The invariant has not broken (yet).
    NotBroken {
        /// The invariant.
        invariant: InvariantId,
    },
    /// The run has not reached its end.
    NotAtEnd,
    /// An invariant broke.
    Broken {
        /// The invariant.
        invariant: InvariantId,
    },
    /// The switches are not the naive run's with exactly one pattern (this one, if the task
    /// names it) switched.
    NotOneSwitch {
        /// The pattern to switch, if the task names one.
        pattern: Option<Pattern>,
        /// The switches the lesson starts from, its focus patterns naive: what one switch is
        /// counted from.
        start: Patterns,
        /// The patterns one of which may be switched (the lesson's focus).
        candidates: Vec<Pattern>,
    },
    /// The same schedule does not break the invariant with every focus pattern naive, so it
    /// shows nothing.
    NaiveHoldsToo {
        /// The invariant.
        invariant: InvariantId,
    },
    /// A build task: no run shows it done; the learner's program is judged when they ask
    /// ([`crate::course::BuildGoal::grade`]).
    NotJudged,
    /// A build task's program that the palette cannot assemble.
    NotOnThePalette {
        /// The first block the palette does not offer (from 0); `None` for another handler.
        index: Option<usize>,
    },
    /// A build task's program that a schedule defeats.
    Refuted {
        /// The invariant it broke.
        invariant: InvariantId,
        /// The schedule's length in steps.
        steps: usize,
    },
    /// A build task's program whose judge stopped at a bound: not a proof.
    JudgeBounded {
        /// Unique states explored.
        states: usize,
    },
}

impl NotYet {
    /// The reason in `language`.
    pub fn text(&self, language: Language) -> String {
        let words = language.words();
        match self {
            NotYet::OtherScenario => words.course.course_other_scenario.to_owned(),
            NotYet::Patterns { patterns, .. } => fill(
                words.course.course_patterns,
                &[("patterns", &patterns_text(*patterns, language))],
            ),
            NotYet::NoFault => words.course.course_no_fault.to_owned(),
            NotYet::TooManyFaults { placed, max } => fill(
                words.course.course_too_many_faults,
                &[("placed", &placed.to_string()), ("max", &max.to_string())],
            ),
            NotYet::TooFewFaults { placed, min } => fill(
                words.course.course_too_few_faults,
                &[("placed", &placed.to_string()), ("min", &min.to_string())],
            ),
            NotYet::FaultNotAllowed { class } => {
                fill(words.course.course_fault_not_allowed, &[("class", &format!("{class:?}"))])
            }
            NotYet::NotBroken { invariant } => {
                fill(words.course.course_not_broken, &[("invariant", &invariant.to_string())])
            }
            NotYet::NotAtEnd => words.course.course_not_at_end.to_owned(),
            NotYet::Broken { invariant } => {
                fill(words.course.course_broken, &[("invariant", &invariant.to_string())])
            }
            NotYet::NotOneSwitch { pattern: Some(pattern), start, .. } => fill(
                words.course.course_not_one_switch,
                &[
                    ("pattern", &format!("{pattern:?}")),
                    ("start", &patterns_text(*start, language)),
                ],
            ),
            NotYet::NotOneSwitch { pattern: None, start, candidates } => fill(
                words.course.course_not_one_switch_any,
                &[("candidates", &names(candidates)), ("start", &patterns_text(*start, language))],
            ),
            NotYet::NaiveHoldsToo { invariant } => {
                fill(words.course.course_naive_holds_too, &[("invariant", &invariant.to_string())])
            }
            NotYet::NotJudged => words.build.course_build_not_judged.to_owned(),
            NotYet::NotOnThePalette { index: Some(index) } => {
                fill(words.build.course_build_not_on_the_palette, &[("n", &(index + 1))])
            }
            NotYet::NotOnThePalette { index: None } => {
                words.build.course_build_other_handler.to_owned()
            }
            NotYet::Refuted { invariant, steps } => fill(
                words.build.course_build_refuted,
                &[("invariant", invariant as &dyn std::fmt::Display), ("steps", steps)],
            ),
            NotYet::JudgeBounded { states } => {
                fill(words.build.course_build_bounded, &[("states", states)])
            }
        }
    }
}

/// Every pattern's switch in words, in `language`: "P1 naive, P2 idempotent, P3 idempotent,
/// P4 naive", what a task's reason and a step's card show.
pub(crate) fn patterns_text(patterns: Patterns, language: Language) -> String {
    let words = language.words();
    let mode = |mode: PatternMode| match mode {
        PatternMode::Naive => words.course.course_naive,
        PatternMode::Idempotent => words.course.course_idempotent,
    };
    [
        (Pattern::P1, patterns.p1_stock),
        (Pattern::P2, patterns.p2_order),
        (Pattern::P3, patterns.p3_api),
        (Pattern::P4, patterns.p4_inbox),
    ]
    .iter()
    .map(|(pattern, twin)| format!("{pattern:?} {}", mode(*twin)))
    .collect::<Vec<_>>()
    .join(", ")
}

fn names(patterns: &[Pattern]) -> String {
    patterns.iter().map(|pattern| format!("{pattern:?}")).collect::<Vec<_>>().join(", ")
}

/// A task judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskVerdict {
    /// The goal is reached.
    Passed,
    /// Not yet, and why.
    NotYet(NotYet),
}

/// Why a run could not be judged at all.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GradeError {
    /// The lesson itself is broken.
    #[error(transparent)]
    Course(#[from] CourseError),
    /// The judge could not check a build task's program (its scenario would not start).
    #[error("the program could not be judged: {0}")]
    Judge(String),
    /// The trace does not replay (its choices cannot be taken again).
    #[error("the trace does not replay: {0}")]
    Replay(#[from] ReplayError),
    /// The trace is not what its scenario, seed and choices make (edited, relabelled, cut
    /// short): it is not graded.
    #[error("trace {} does not reproduce from its scenario, seed and choices: {error}", trace + 1)]
    NotReproduced {
        /// Which of the traces graded, from 0 (always 0 for [`Task::check`]).
        trace: usize,
        /// Where it departs from its replay.
        error: NotReproduced,
    },
}

/// One task of a lesson graded over several traces: passed if one of them passes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskGrade {
    /// The task's position among the lesson's steps.
    pub step: usize,
    /// The verdict of the first trace that passes it, or the last trace's reason.
    pub verdict: TaskVerdict,
}

impl Prediction {
    /// What the lesson's reference run in this prediction's twin actually does.
    pub fn actual(&self, lesson: &Lesson) -> Result<Actual, CourseError> {
        let simulation = lesson.reference_run(self.run)?;
        Ok(actual_of(&self.answer, &simulation))
    }

    /// Judges a guess. A guess of the wrong shape (a number for an invariant) is wrong.
    pub fn judge(&self, lesson: &Lesson, guess: Guess) -> Result<Verdict, CourseError> {
        let actual = self.actual(lesson)?;
        let correct = match (&actual, guess) {
            (Actual::Number(actual), Guess::Number(guess)) => *actual == guess,
            (Actual::FirstBroken(first), Guess::Invariant(guess)) => match guess {
                None => first.is_empty(),
                Some(invariant) => first.contains(&invariant),
            },
            (Actual::Holds(actual), Guess::Holds(guess)) => *actual == guess,
            _ => false,
        };
        Ok(Verdict { correct, actual })
    }
}

fn actual_of(answer: &Answer, simulation: &Simulation) -> Actual {
    let tables = simulation.world().store().committed();
    match answer {
        Answer::Number(quantity) => Actual::Number(match quantity {
            Quantity::Available(sku) => tables.stock.get(sku).map_or(0, |row| row.available_qty),
            Quantity::Reserved(sku) => {
                tables.reservations.values().filter(|row| &row.sku == sku).map(|row| row.qty).sum()
            }
            Quantity::Charges => count(tables.charges.len()),
            Quantity::Orders => count(tables.orders.len()),
            Quantity::Deliveries => count(
                simulation
                    .steps()
                    .iter()
                    .flat_map(|step| &step.events)
                    .filter(|event| matches!(event, SimEvent::Delivered { .. }))
                    .count(),
            ),
        }),
        Answer::FirstBroken => {
            let mut first = Vec::new();
            for step in simulation.steps().iter() {
                if !step.new_violations.is_empty() {
                    first = step.new_violations.iter().map(|v| v.invariant).collect();
                    first.dedup();
                    break;
                }
            }
            Actual::FirstBroken(first)
        }
        Answer::Holds(invariant) => Actual::Holds(!broke(simulation.steps().iter(), *invariant)),
    }
}

fn count(len: usize) -> i64 {
    i64::try_from(len).unwrap_or(i64::MAX)
}

fn broke<'a>(
    steps: impl IntoIterator<Item = &'a crate::sim::TraceStep>,
    invariant: InvariantId,
) -> bool {
    steps.into_iter().any(|step| step.new_violations.iter().any(|v| v.invariant == invariant))
}

/// The fault classes of the steps the learner chose, in step order.
fn user_faults(trace: &Trace) -> Vec<FaultClass> {
    trace
        .steps
        .iter()
        .filter(|step| step.chosen_by == Choice::User)
        .filter_map(|step| step.fault)
        .collect()
}

impl Task {
    /// Judges the learner's run: `trace` is the run as far as the learner has taken it (its
    /// `stop` is [`StopReason::Running`] if it has not ended). The trace is judged only once
    /// it reproduces ([`reproduce`]): a file whose rows, violations or patterns were edited,
    /// or which was cut short, is [`GradeError::NotReproduced`], never passed.
    pub fn check(&self, lesson: &Lesson, trace: &Trace) -> Result<TaskVerdict, GradeError> {
        reproduce(trace).map_err(|error| GradeError::NotReproduced { trace: 0, error })?;
        self.check_played(lesson, trace)
    }

    /// [`Task::check`] of a trace known to reproduce: one the simulator has just played, as
    /// the page's live run is (a trace the page opens from a file or a link is replayed as it
    /// opens). The page judges its run at every step, so replaying it once more each time would
    /// cost a run per render; a trace from outside goes through [`Task::check`].
    pub fn check_played(&self, lesson: &Lesson, trace: &Trace) -> Result<TaskVerdict, GradeError> {
        let scenario = lesson.task_scenario(self)?;
        if !same_but_patterns(&trace.scenario, &scenario) {
            return Ok(TaskVerdict::NotYet(NotYet::OtherScenario));
        }
        let naive = scenario.with_mode(PatternMode::Naive).patterns;
        let idempotent = scenario.with_mode(PatternMode::Idempotent).patterns;
        let ended = trace.stop != StopReason::Running;
        let verdict = match &self.goal {
            Goal::Break { invariant, faults_max, faults } => {
                if trace.scenario.patterns != naive {
                    return Ok(TaskVerdict::NotYet(NotYet::Patterns {
                        mode: PatternMode::Naive,
                        patterns: naive,
                    }));
                }
                let placed = user_faults(trace);
                if let Some(class) =
                    placed.iter().find(|c| !faults.is_empty() && !faults.contains(c))
                {
                    NotYet::FaultNotAllowed { class: *class }
                } else if placed.is_empty() {
                    NotYet::NoFault
                } else if placed.len() > *faults_max {
                    NotYet::TooManyFaults { placed: placed.len(), max: *faults_max }
                } else if !broke(&trace.steps, *invariant) {
                    NotYet::NotBroken { invariant: *invariant }
                } else {
                    return Ok(TaskVerdict::Passed);
                }
            }
            Goal::FixBySwitching { invariant, pattern } => {
                let focus = lesson.focus(&scenario);
                let one_switch = focus.iter().any(|candidate| {
                    pattern.is_none_or(|pattern| pattern == *candidate)
                        && trace.scenario.patterns
                            == naive.with(*candidate, PatternMode::Idempotent)
                });
                if !one_switch {
                    NotYet::NotOneSwitch { pattern: *pattern, start: naive, candidates: focus }
                } else if broke(&trace.steps, *invariant) {
                    NotYet::Broken { invariant: *invariant }
                } else if !ended {
                    NotYet::NotAtEnd
                } else {
                    let mut run = Run::of_trace(trace)?;
                    run.scenario.patterns = naive;
                    let played = run.play_to_end().map_err(ReplayError::from)?;
                    if broke(played.simulation.steps().iter(), *invariant) {
                        return Ok(TaskVerdict::Passed);
                    }
                    NotYet::NaiveHoldsToo { invariant: *invariant }
                }
            }
            Goal::Survive { faults_min, faults } => {
                let placed: Vec<FaultClass> = user_faults(trace)
                    .into_iter()
                    .filter(|class| faults.is_empty() || faults.contains(class))
                    .collect();
                if trace.scenario.patterns != idempotent {
                    NotYet::Patterns { mode: PatternMode::Idempotent, patterns: idempotent }
                } else if let Some(step) = trace.steps.iter().find(|s| !s.new_violations.is_empty())
                {
                    NotYet::Broken { invariant: step.new_violations[0].invariant }
                } else if !ended {
                    // The learner's faults are counted over the whole run: a choice the twin
                    // takes after the step shown is still the learner's.
                    NotYet::NotAtEnd
                } else if placed.len() < *faults_min {
                    NotYet::TooFewFaults { placed: placed.len(), min: *faults_min }
                } else {
                    return Ok(TaskVerdict::Passed);
                }
            }
            Goal::Build(_) => NotYet::NotJudged,
        };
        Ok(TaskVerdict::NotYet(verdict))
    }
}

/// Whether two scenarios are the same but for their pattern switches.
fn same_but_patterns(a: &Scenario, b: &Scenario) -> bool {
    Scenario { patterns: b.patterns, ..a.clone() } == *b
}

impl Lesson {
    /// Grades every build task of the lesson over the learner's programs (a program file, as
    /// the CLI reads it): each passes if the palette assembles one of them and the judge
    /// proves it holds ([`crate::course::BuildGoal::grade`]); its other tasks are not graded.
    pub fn grade_programs(
        &self,
        programs: &[crate::program::HandlerProgram],
    ) -> Result<Vec<TaskGrade>, GradeError> {
        let mut grades = Vec::new();
        for (step, course_step) in self.steps.iter().enumerate() {
            let crate::course::CourseStep::Task(Task { goal: Goal::Build(goal), .. }) = course_step
            else {
                continue;
            };
            let mut verdict = TaskVerdict::NotYet(NotYet::NotJudged);
            for program in programs {
                verdict = self.judge_program(goal, program)?;
                if verdict == TaskVerdict::Passed {
                    break;
                }
            }
            grades.push(TaskGrade { step, verdict });
        }
        Ok(grades)
    }

    fn judge_program(
        &self,
        goal: &crate::course::BuildGoal,
        program: &crate::program::HandlerProgram,
    ) -> Result<TaskVerdict, GradeError> {
        let assembly = match goal.assembly_of(program) {
            Ok(assembly) => assembly,
            Err(not) => {
                return Ok(TaskVerdict::NotYet(NotYet::NotOnThePalette { index: not.index }));
            }
        };
        let (scenario, config) = self.build_input(goal, &assembly)?;
        let judgement = crate::check::judge::judge_scenario(scenario, 0, config)
            .map_err(|error| GradeError::Judge(error.to_string()))?;
        Ok(match goal.grade(&judgement) {
            crate::course::BuildVerdict::Holds { .. } => TaskVerdict::Passed,
            crate::course::BuildVerdict::Refuted { invariant, steps } => {
                TaskVerdict::NotYet(NotYet::Refuted { invariant, steps })
            }
            crate::course::BuildVerdict::Bounded { states } => {
                TaskVerdict::NotYet(NotYet::JudgeBounded { states })
            }
        })
    }

    /// Grades every task of the lesson over the learner's traces: each task passes if one of
    /// the traces passes it. Every trace must reproduce first ([`Task::check`]); the first
    /// that does not is [`GradeError::NotReproduced`] with its position.
    pub fn grade(&self, traces: &[Trace]) -> Result<Vec<TaskGrade>, GradeError> {
        for (index, trace) in traces.iter().enumerate() {
            reproduce(trace).map_err(|error| GradeError::NotReproduced { trace: index, error })?;
        }
        let mut grades = Vec::new();
        for (step, course_step) in self.steps.iter().enumerate() {
            let crate::course::CourseStep::Task(task) = course_step else { continue };
            let mut verdict = TaskVerdict::NotYet(NotYet::OtherScenario);
            for trace in traces {
                verdict = task.check_played(self, trace)?;
                if verdict == TaskVerdict::Passed {
                    break;
                }
            }
            grades.push(TaskGrade { step, verdict });
        }
        Ok(grades)
    }
}
