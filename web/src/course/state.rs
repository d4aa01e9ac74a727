//! Which view the page shows (the course's list of lessons, a lesson over the simulator, the
//! free lab) and the learner's progress, the course's part of the page's one reducer
//! (`crate::page`): [`CourseState::reduce`] is the only place they change. It judges nothing: whether a step's
//! condition is met is the core's, asked by the lesson panel, which enables Next only then.

use std::rc::Rc;

use idempotency_lab::course::Lesson;

use crate::course::course;
use crate::course::progress::CourseProgress;

/// What the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageView {
    /// The course: its lessons with their progress.
    Course,
    /// A lesson (its position in the course) at a step; `step` is the lesson's number of steps
    /// once it is finished (the card that offers the next lesson).
    Lesson {
        /// The lesson's position in the course.
        lesson: usize,
        /// The step, from 0.
        step: usize,
    },
    /// The free lab: the simulator without a lesson.
    Lab,
}

/// The view and the progress.
#[derive(Clone, Debug, PartialEq)]
pub struct CourseState {
    /// What the page shows.
    pub view: PageView,
    /// The learner's progress, as stored.
    pub progress: CourseProgress,
}

/// What the learner does in the course.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CourseAction {
    /// Show the list of lessons.
    ShowCourse,
    /// Show the free lab (and remember that the learner chose it).
    ShowLab,
    /// Show the lab for a run's link in the address (the learner chose nothing).
    ShowRun,
    /// Open the lesson at this position at `step` (the learner's own Start or Resume).
    Open {
        /// The lesson's position.
        lesson: usize,
        /// The step.
        step: usize,
    },
    /// Open the lesson at this position at `step` by a trainer's link: the steps before it
    /// are visited, not passed.
    OpenByLink {
        /// The lesson's position.
        lesson: usize,
        /// The step.
        step: usize,
    },
    /// The current step's condition is met (a prediction answered right): it is passed.
    PassStep,
    /// Pass the current step and go on to the next (after the last: the lesson is done).
    Next,
    /// Back one step.
    Back,
}

impl CourseState {
    /// The lesson shown and its step, if a lesson is shown.
    pub fn lesson(&self) -> Option<(usize, &'static Lesson, usize)> {
        match self.view {
            PageView::Lesson { lesson, step } => {
                course()?.lessons.get(lesson).map(|found| (lesson, found, step))
            }
            PageView::Course | PageView::Lab => None,
        }
    }
}

impl CourseState {
    /// The state after `action`: the course's part of the page's one reducer
    /// (`crate::page::PageState`).
    pub fn reduce(self: Rc<Self>, action: CourseAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            CourseAction::ShowCourse => {
                next.view = PageView::Course;
                next.progress.free_lab = false;
            }
            CourseAction::ShowLab => {
                next.view = PageView::Lab;
                next.progress.free_lab = true;
            }
            CourseAction::ShowRun => next.view = PageView::Lab,
            CourseAction::Open { lesson, step } | CourseAction::OpenByLink { lesson, step } => {
                let Some(found) = course().and_then(|course| course.lessons.get(lesson)) else {
                    return self;
                };
                let step = step.min(found.steps.len().saturating_sub(1));
                if matches!(action, CourseAction::OpenByLink { .. }) {
                    next.progress.visit_up_to(found, step);
                } else {
                    next.progress.visit(found, step);
                }
                next.view = PageView::Lesson { lesson, step };
            }
            CourseAction::PassStep => {
                let Some((_, lesson, step)) = next.lesson() else { return self };
                if step < lesson.steps.len() {
                    next.progress.pass(lesson, step);
                }
            }
            CourseAction::Next => {
                let Some((index, lesson, step)) = next.lesson() else { return self };
                if step >= lesson.steps.len() {
                    return self;
                }
                next.progress.pass(lesson, step);
                let step = step + 1;
                if step == lesson.steps.len() {
                    next.progress.finish(lesson);
                } else {
                    next.progress.visit(lesson, step);
                }
                next.view = PageView::Lesson { lesson: index, step };
            }
            CourseAction::Back => {
                let Some((index, lesson, step)) = next.lesson() else { return self };
                let Some(step) = step.checked_sub(1) else { return self };
                next.progress.visit(lesson, step);
                next.view = PageView::Lesson { lesson: index, step };
            }
        }
        Rc::new(next)
    }
}
