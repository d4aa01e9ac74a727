//! `course` and `lesson`: the workshop course of the core (`idempotency_lab::course`) on the
//! command line. `course` lists the lessons; `lesson <id>` tells one, its steps in order
//! without their answers; `lesson <id> --check <trace.json>...` grades the learner's traces
//! against the lesson's tasks, each task passed if one of the traces passes it (the judging
//! is the core's, `Lesson::grade`). A trace is graded only if it reproduces from its own
//! scenario, seed and choices (the core's rule, as `replay`'s): an edited, relabelled or
//! truncated file is an input error (exit 2) naming its first differing step.

use std::path::PathBuf;

use idempotency_lab::course::{
    Course, CourseStep, Goal, GradeError, Lesson, Point, Task, TaskVerdict,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{NotReproduced, PatternMode};
use idempotency_lab::words::{Language, fill};

use crate::input::{InputError, load_program, load_trace};
use crate::render;

/// What a course command printed, and whether every task passed (for `--check`).
pub struct Printed {
    /// The text.
    pub stdout: String,
    /// `None` without `--check`; else whether every task passed.
    pub passed: Option<bool>,
}

fn built_in() -> Result<&'static Course, InputError> {
    Course::built_in().map_err(|error| InputError::Course(error.to_string()))
}

/// `course`: one line per lesson, in order.
pub fn list(language: Language) -> Result<String, InputError> {
    let words = language.words();
    let mut out = String::new();
    for (index, lesson) in built_in()?.lessons.iter().enumerate() {
        let steps = language.count(&words.counts.steps, lesson.steps.len());
        out += &fill(
            words.course.course_list_line,
            &[
                ("n", &(index + 1)),
                ("id", &lesson.id),
                ("title", &lesson.title.get(language)),
                ("steps", &steps),
            ],
        );
        out.push('\n');
    }
    Ok(out)
}

/// The lesson called `id`, and its position.
fn find(id: &str) -> Result<(usize, &'static Lesson, usize), InputError> {
    let course = built_in()?;
    let position = course.position(id).ok_or_else(|| InputError::UnknownLesson {
        name: id.chars().take(80).collect(),
        lessons: course.lessons.iter().map(|l| l.id.clone()).collect::<Vec<_>>().join(", "),
    })?;
    Ok((position, &course.lessons[position], course.lessons.len()))
}

fn point_text(point: Point, language: Language) -> String {
    let words = language.words();
    match point {
        Point::Start => words.course.point_start.to_owned(),
        Point::End => words.course.point_end.to_owned(),
        Point::Moment(kind) => {
            fill(words.course.point_moment, &[("moment", &kind.headline(language))])
        }
        Point::Break(invariant) => fill(words.course.point_break, &[("invariant", &invariant)]),
        Point::Fault(class) => fill(words.course.point_fault, &[("class", &format!("{class:?}"))]),
    }
}

fn mode_text(mode: PatternMode, language: Language) -> &'static str {
    let words = language.words();
    match mode {
        PatternMode::Naive => words.course.course_naive,
        PatternMode::Idempotent => words.course.course_idempotent,
    }
}

/// The fault classes a task lets the learner place (`F1`, `F2, F3`; `F1..F12` when it takes
/// any).
fn own_fault_classes(task: &Task) -> String {
    let classes = match &task.goal {
        Goal::Break { faults, .. } | Goal::Survive { faults, .. } => faults.as_slice(),
        Goal::FixBySwitching { .. } | Goal::Build(_) => &[],
    };
    match classes {
        [] => FaultClass::id_range(".."),
        classes => classes.iter().map(|class| class.id()).collect::<Vec<_>>().join(", "),
    }
}

/// Whether `step` is a build task, whose lesson `--check` grades program files.
fn is_build_task(step: &CourseStep) -> bool {
    matches!(step, CourseStep::Task(task) if matches!(task.goal, Goal::Build(_)))
}

/// A lesson's steps, a line (or two, for a task a learner faults themselves) each.
fn step_lines(lesson: &Lesson, language: Language) -> String {
    let words = language.words();
    let mut out = String::new();
    for (index, step) in lesson.steps.iter().enumerate() {
        let n = index + 1;
        out += &match step {
            CourseStep::Narration(narration) => fill(
                words.course.lesson_narration,
                &[
                    ("n", &n),
                    ("at", &point_text(narration.at, language)),
                    ("text", &narration.text.get(language)),
                ],
            ),
            CourseStep::Prediction(prediction) => fill(
                words.course.lesson_prediction,
                &[
                    ("n", &n),
                    ("mode", &mode_text(prediction.run, language)),
                    ("text", &prediction.question.get(language)),
                ],
            ),
            CourseStep::Task(task) => {
                let mut text = fill(
                    words.course.lesson_task,
                    &[("n", &n), ("text", &task.text.get(language))],
                );
                if task.own_faults {
                    text.push('\n');
                    text += &fill(
                        words.course.lesson_task_own_faults,
                        &[("scenario", &lesson.scenario), ("faults", &own_fault_classes(task))],
                    );
                }
                text
            }
        };
        out.push('\n');
    }
    out
}

/// `lesson <id>`, and with traces `--check` (with program files, for a build lesson).
pub fn lesson(id: &str, traces: &[PathBuf], language: Language) -> Result<Printed, InputError> {
    let words = language.words();
    let (position, lesson, total) = find(id)?;
    let mut out = fill(
        words.course.lesson_heading,
        &[("n", &(position + 1)), ("total", &total), ("title", &lesson.title.get(language))],
    );
    out += "\n\n";
    out += lesson.intro.get(language);
    out += "\n\n";
    if traces.is_empty() {
        out += &step_lines(lesson, language);
        out += "\n";
        out += &fill(words.course.lesson_check_hint, &[("id", &lesson.id)]);
        out.push('\n');
        return Ok(Printed { stdout: out, passed: None });
    }
    let grades = if lesson.steps.iter().any(is_build_task) {
        // A build lesson grades programs (`handler check`'s files), not runs.
        let mut programs = Vec::with_capacity(traces.len());
        for path in traces {
            programs.push(load_program(path)?);
        }
        lesson.grade_programs(&programs)
    } else {
        let mut read = Vec::with_capacity(traces.len());
        for path in traces {
            read.push(load_trace(path)?.0);
        }
        lesson.grade(&read)
    };
    let grades = grades.map_err(|error| InputError::Grade {
        lesson: lesson.id.clone(),
        message: match error {
            GradeError::NotReproduced { trace, error } => {
                let source = traces.get(trace).map(|path| path.display().to_string());
                let why = match error {
                    NotReproduced::Differs(difference) => render::trace_difference(&difference),
                    NotReproduced::Replay(error) => error.to_string(),
                };
                format!(
                    "trace `{}` does not reproduce from its scenario, seed and choices, so it \
                     is not graded: {why}",
                    source.unwrap_or_default()
                )
            }
            other => other.to_string(),
        },
    })?;
    let mut passed = 0;
    for grade in &grades {
        let n = grade.step + 1;
        out += &match &grade.verdict {
            TaskVerdict::Passed => {
                passed += 1;
                fill(words.course.lesson_task_passed, &[("n", &n)])
            }
            TaskVerdict::NotYet(reason) => {
                let hint = match &lesson.steps[grade.step] {
                    CourseStep::Task(task) => task.hint.get(language),
                    _ => "",
                };
                fill(
                    words.course.lesson_task_not_yet,
                    &[("n", &n), ("reason", &reason.text(language)), ("hint", &hint)],
                )
            }
        };
        out.push('\n');
    }
    out += &fill(words.course.lesson_summary, &[("passed", &passed), ("total", &grades.len())]);
    out.push('\n');
    Ok(Printed { stdout: out, passed: Some(passed == grades.len()) })
}
