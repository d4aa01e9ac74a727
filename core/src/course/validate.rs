//! Reading the course strictly: every length within its bound, every text in both languages,
//! every reference (a lesson's scenario, a step's point, a task's goal) checked, each refusal
//! a [`CourseError`] naming the field.

use super::{
    Answer, COURSE_FORMAT_VERSION, Course, CourseError, CourseStep, GOAL_FAULTS_MAX, Goal,
    LESSONS_MAX, Lesson, Localized, PatternMode, Point, Quantity, STEPS_MAX, TEXT_BYTES_MAX,
    run_to_end,
};

impl Course {
    pub(super) fn validate(&self) -> Result<(), CourseError> {
        if self.format_version != COURSE_FORMAT_VERSION {
            return Err(CourseError::UnsupportedVersion {
                found: self.format_version,
                supported: COURSE_FORMAT_VERSION,
            });
        }
        length("lessons", self.lessons.len(), LESSONS_MAX)?;
        for (index, lesson) in self.lessons.iter().enumerate() {
            let field = format!("lessons[{index}]");
            if self.lessons[..index].iter().any(|earlier| earlier.id == lesson.id) {
                return Err(CourseError::DuplicateLesson {
                    field: format!("{field}.id"),
                    id: lesson.id.clone(),
                });
            }
            lesson.validate(&field)?;
        }
        Ok(())
    }
}

fn length(field: &str, len: usize, max: usize) -> Result<(), CourseError> {
    if len == 0 || len > max {
        return Err(CourseError::Length { field: field.to_owned(), len, max });
    }
    Ok(())
}

fn text(field: &str, localized: &Localized) -> Result<(), CourseError> {
    for (language, value) in [("en", &localized.en), ("ru", &localized.ru)] {
        if value.trim().is_empty() || value.len() > TEXT_BYTES_MAX {
            return Err(CourseError::Text {
                field: format!("{field}.{language}"),
                bytes: value.len(),
                max: TEXT_BYTES_MAX,
            });
        }
    }
    Ok(())
}

fn is_lesson_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn goal_count(field: String, value: usize) -> Result<(), CourseError> {
    if value == 0 || value > GOAL_FAULTS_MAX {
        return Err(CourseError::Range { field, value, max: GOAL_FAULTS_MAX });
    }
    Ok(())
}

impl Lesson {
    fn validate(&self, field: &str) -> Result<(), CourseError> {
        if !is_lesson_id(&self.id) {
            return Err(CourseError::BadId {
                field: format!("{field}.id"),
                id: self.id.chars().take(60).collect(),
            });
        }
        let scenario = self.scenario().map_err(|_| CourseError::UnknownScenario {
            field: format!("{field}.scenario"),
            id: self.scenario.chars().take(60).collect(),
        })?;
        text(&format!("{field}.title"), &self.title)?;
        text(&format!("{field}.intro"), &self.intro)?;
        let steps_field = format!("{field}.steps");
        length(&steps_field, self.steps.len(), STEPS_MAX)?;
        for (kind, present) in [
            ("narration", self.steps.iter().any(|s| matches!(s, CourseStep::Narration(_)))),
            ("prediction", self.steps.iter().any(|s| matches!(s, CourseStep::Prediction(_)))),
            ("task", self.steps.iter().any(|s| matches!(s, CourseStep::Task(_)))),
        ] {
            if !present {
                return Err(CourseError::MissingKind { field: steps_field, kind });
            }
        }
        for (index, step) in self.steps.iter().enumerate() {
            let field = format!("{steps_field}[{index}]");
            match step {
                CourseStep::Narration(narration) => {
                    text(&format!("{field}.narration.text"), &narration.text)?;
                }
                CourseStep::Prediction(prediction) => {
                    let field = format!("{field}.prediction");
                    text(&format!("{field}.question"), &prediction.question)?;
                    text(&format!("{field}.hint"), &prediction.hint)?;
                    text(&format!("{field}.explain"), &prediction.explain)?;
                    if let Answer::Number(Quantity::Available(sku) | Quantity::Reserved(sku)) =
                        &prediction.answer
                        && !scenario.shop.stock.iter().any(|line| &line.sku == sku)
                    {
                        return Err(CourseError::UnknownSku {
                            field: format!("{field}.answer"),
                            sku: sku.as_str().chars().take(60).collect(),
                        });
                    }
                }
                CourseStep::Task(task) => {
                    let field = format!("{field}.task");
                    text(&format!("{field}.text"), &task.text)?;
                    text(&format!("{field}.hint"), &task.hint)?;
                    match &task.goal {
                        Goal::Break { faults_max, .. } => {
                            goal_count(format!("{field}.goal.break.faults_max"), *faults_max)?;
                        }
                        Goal::FixBySwitching { pattern: Some(pattern), .. } => {
                            if !self.focus(&scenario).contains(pattern) {
                                return Err(CourseError::NotInFocus {
                                    field: format!("{field}.goal.fix_by_switching.pattern"),
                                    pattern: *pattern,
                                });
                            }
                        }
                        Goal::FixBySwitching { pattern: None, .. } => {}
                        Goal::Survive { faults_min, .. } => {
                            goal_count(format!("{field}.goal.survive.faults_min"), *faults_min)?;
                        }
                        Goal::Build(goal) => {
                            goal.validate().map_err(|error| CourseError::Build {
                                field: format!("{field}.goal.build.{}", error.field()),
                                error,
                            })?;
                        }
                    }
                }
            }
        }
        self.check_references(&steps_field)
    }

    /// What only the lesson's own runs can check: every narration's point and every task's
    /// place to start is reached in the run of its twin, and no `break` task is done before
    /// the learner starts.
    fn check_references(&self, steps_field: &str) -> Result<(), CourseError> {
        let naive = self.reference_run(PatternMode::Naive)?;
        let idempotent = self.reference_run(PatternMode::Idempotent)?;
        let run_of = |mode| match mode {
            PatternMode::Naive => &naive,
            PatternMode::Idempotent => &idempotent,
        };
        for (index, step) in self.steps.iter().enumerate() {
            let field = format!("{steps_field}[{index}]");
            let mode = self.mode_at(index);
            let (point, field) = match step {
                CourseStep::Narration(narration) => {
                    (Some(narration.at), format!("{field}.narration.at"))
                }
                CourseStep::Task(task) if task.own_faults => {
                    // The task's own run, without the scripted faults, in its twin.
                    let own = run_to_end(self.task_scenario(task)?.with_mode(PatternMode::Naive))?;
                    if let Goal::Break { invariant, .. } = task.goal
                        && Point::Break(invariant).resolve(&own).is_some()
                    {
                        return Err(CourseError::BreaksUntouched {
                            field: format!("{field}.task.goal"),
                            invariant,
                        });
                    }
                    let own = run_to_end(self.task_scenario(task)?.with_mode(mode))?;
                    if let Some(point) = task.go_to
                        && point.resolve(&own).is_none()
                    {
                        return Err(CourseError::PointNotReached {
                            field: format!("{field}.task.go_to"),
                            mode,
                        });
                    }
                    (None, field)
                }
                CourseStep::Task(task) => {
                    if let Goal::Break { invariant, .. } = task.goal
                        && Point::Break(invariant).resolve(&naive).is_some()
                    {
                        return Err(CourseError::BreaksUntouched {
                            field: format!("{field}.task.goal"),
                            invariant,
                        });
                    }
                    (task.go_to, format!("{field}.task.go_to"))
                }
                CourseStep::Prediction(_) => (None, field),
            };
            if let Some(point) = point
                && point.resolve(run_of(mode)).is_none()
            {
                return Err(CourseError::PointNotReached { field, mode });
            }
        }
        Ok(())
    }
}
