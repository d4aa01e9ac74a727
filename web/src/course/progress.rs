//! The learner's progress through the course, kept in the settings store (`crate::storage`,
//! which keeps it in memory where the browser refuses local storage): per lesson the steps
//! passed, the steps visited and whether it is done; the lesson and step the learner was at
//! last, for Resume; and whether the learner chose the free lab, which a page opened without a
//! link then shows instead of the course.
//!
//! A step is passed when the learner goes on from it with its condition met (a narration
//! reached, a prediction answered right, a task's check passing); a step opened by a trainer's
//! link, and those before it, are only visited. What a condition is, is the core's.

use std::collections::{BTreeMap, BTreeSet};

use idempotency_lab::course::{Course, Lesson};
use serde::{Deserialize, Serialize};

use crate::storage;

/// The settings store's key of the progress.
pub const COURSE_SETTING: &str = "idempotency-lab.course";

/// Where the learner is in the course: a lesson by its id and a step of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// The lesson's id.
    pub lesson: String,
    /// The step, from 0.
    pub step: usize,
}

/// One lesson's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LessonProgress {
    /// The steps passed.
    pub passed: BTreeSet<usize>,
    /// The steps the learner has been at (passed or not).
    pub visited: BTreeSet<usize>,
    /// Whether the learner finished the lesson (its last step's Next).
    pub done: bool,
}

/// The whole course's progress, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CourseProgress {
    /// Per lesson id; a lesson not begun has no entry.
    pub lessons: BTreeMap<String, LessonProgress>,
    /// The lesson and step the learner was at last.
    pub current: Option<Place>,
    /// Whether the learner went to the free lab last (rather than the course).
    pub free_lab: bool,
}

impl CourseProgress {
    /// The progress in the settings store, or none yet. Entries of lessons or steps the
    /// course does not have (a store written by another version) are dropped.
    pub fn stored(course: &Course) -> CourseProgress {
        let mut progress: CourseProgress = storage::get(COURSE_SETTING).unwrap_or_default();
        progress.lessons.retain(|id, lesson_progress| {
            let Some(lesson) = course.lesson(id) else { return false };
            lesson_progress.passed.retain(|step| *step < lesson.steps.len());
            lesson_progress.visited.retain(|step| *step < lesson.steps.len());
            true
        });
        if progress.current.as_ref().is_some_and(|place| {
            course.lesson(&place.lesson).is_none_or(|l| place.step >= l.steps.len())
        }) {
            progress.current = None;
        }
        progress
    }

    /// Stores it.
    pub fn store(&self) {
        storage::set(COURSE_SETTING, self);
    }

    /// The progress of `lesson` (empty if not begun).
    pub fn of(&self, lesson: &Lesson) -> LessonProgress {
        self.lessons.get(&lesson.id).cloned().unwrap_or_default()
    }

    /// How many steps of `lesson` are passed.
    pub fn passed_count(&self, lesson: &Lesson) -> usize {
        self.lessons.get(&lesson.id).map_or(0, |progress| progress.passed.len())
    }

    /// The step of `lesson` to resume at, if the learner was in it last and has not finished.
    pub fn resume_step(&self, lesson: &Lesson) -> Option<usize> {
        self.current.as_ref().filter(|place| place.lesson == lesson.id).map(|place| place.step)
    }

    /// The learner is at `step` of `lesson`: it is visited, and where Resume goes.
    pub fn visit(&mut self, lesson: &Lesson, step: usize) {
        self.lessons.entry(lesson.id.clone()).or_default().visited.insert(step);
        self.current = Some(Place { lesson: lesson.id.clone(), step });
        self.free_lab = false;
    }

    /// The learner opened `lesson` at `at` by a link: every step up to it is visited, none
    /// passed by that.
    pub fn visit_up_to(&mut self, lesson: &Lesson, at: usize) {
        let progress = self.lessons.entry(lesson.id.clone()).or_default();
        progress.visited.extend(0..=at);
        self.visit(lesson, at);
    }

    /// Step `step` of `lesson` is passed.
    pub fn pass(&mut self, lesson: &Lesson, step: usize) {
        self.lessons.entry(lesson.id.clone()).or_default().passed.insert(step);
    }

    /// The learner finished `lesson`: it is done, and nothing in it is left to resume.
    pub fn finish(&mut self, lesson: &Lesson) {
        self.lessons.entry(lesson.id.clone()).or_default().done = true;
        if self.current.as_ref().is_some_and(|place| place.lesson == lesson.id) {
            self.current = None;
        }
    }
}
