//! The page's one state and its one reducer: the lab (the run shown, its seed, twins, choices
//! and the step, the opening of a long run: [`LabState`]), the course (which view shows and
//! the learner's progress: [`CourseState`]), the settings (the language, the type scale),
//! the open panels (the check panel and what it runs), what the browser tells the page (a
//! narrow screen, fullscreen), and where the focus goes after an action.
//!
//! [`PageState::reduce`] is the only place any of it changes, and it is pure: it calls the core
//! and the parts' own transitions, never the browser. The effects (the play timer, storage,
//! the address, file reads, moving the focus) live at the edges, in `crate::app`'s hooks,
//! which read the state and dispatch [`PageAction`]s. An action that moves what the learner
//! looks at names where the focus goes next ([`Focus`]), so that it never falls to `<body>`:
//! a file or a link opened moves it to the step's caption, one refused to the error banner.

use std::rc::Rc;

use idempotency_lab::course::{CourseStep, Point};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::view::{Language, Screen, ScreenInput};
use yew::prelude::*;

use crate::build::{BuildFocus, BuildMsg, BuildState};
use crate::check_panel::{CheckMsg, CheckState};
use crate::course::state::{CourseAction, CourseState, PageView};
use crate::course::{self as course, PanelEvent};
use crate::notices::Problem;
use crate::presenter::{TypeScale, TypeScaleAction};
use crate::state::{Action, LabState};

#[cfg(test)]
mod tests;

/// Where the focus goes after an action: the next control, or the new content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FocusTarget {
    /// The lesson panel's current card (a lesson opened, a step moved to).
    LessonCard,
    /// The lesson panel's Next, if enabled; else its card (a point reached, an answer right).
    LessonNext,
    /// The step's caption: what the step shown did (the run moved under the learner, the free
    /// lab opened, a file or a link opened, the choices of a previous run kept).
    Caption,
    /// The error banner (a file or a link refused).
    Error,
    /// The course's list of lessons (back from a lesson).
    CourseList,
    /// A control of the build task's editor: the block moved, the palette entry that took
    /// the place of the one added.
    Build(BuildFocus),
}

impl FocusTarget {
    /// The elements to focus, the first that exists and is enabled.
    pub fn selectors(self) -> Vec<String> {
        let selectors: &[&str] = match self {
            FocusTarget::LessonCard => &["[data-testid=course-step]"],
            FocusTarget::LessonNext => &["[data-testid=course-next]", "[data-testid=course-step]"],
            FocusTarget::Caption => &["[data-testid=current-step]"],
            FocusTarget::Error => &["[data-testid=error]"],
            FocusTarget::CourseList => &[
                "[data-testid=course-resume]",
                "[data-testid=course] button",
                "[data-testid=course]",
            ],
            FocusTarget::Build(focus) => return focus.selectors(),
        };
        selectors.iter().map(|selector| (*selector).to_owned()).collect()
    }
}

/// A request to move the focus, numbered so that the same target asked twice moves it twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Focus {
    /// The request's number.
    pub generation: u64,
    /// Where.
    pub target: FocusTarget,
}

/// What a jump brings into view besides the current step, its broken invariant and its
/// changed rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JumpTarget {
    /// A narration's point behind the cursor: the diagram's step of that number, rather than
    /// the current one.
    pub step: Option<usize>,
    /// A task's place to start at a fault: the fault button of this class the task asks for.
    pub fault: Option<FaultClass>,
}

impl JumpTarget {
    /// The target of going to `point`: its fault button, if it is the place for a fault.
    pub fn of_point(point: Point) -> JumpTarget {
        match point {
            Point::Fault(class) => JumpTarget { step: None, fault: Some(class) },
            Point::Start | Point::End | Point::Moment(_) | Point::Break(_) => JumpTarget::default(),
        }
    }

    /// The selectors to scroll into view, in order: the last wins where not all fit.
    pub fn selectors(self) -> Vec<String> {
        let mut selectors: Vec<String> = [
            "[data-testid=course-step]",
            "tr.changed",
            ".invariant.broken",
            ".invariant:focus-within",
        ]
        .map(str::to_owned)
        .to_vec();
        selectors.push(match self.step {
            Some(step) => format!(".diagram .step[data-step=\"{step}\"]"),
            None => ".diagram .step.current".to_owned(),
        });
        if let Some(class) = self.fault {
            selectors.push(format!(".pending [data-fault={class}]"));
        }
        selectors
    }
}

/// Everything the page shows and remembers while it is open.
#[derive(Clone, Debug)]
pub struct PageState {
    /// The run shown and how (a share link's worth, plus the opening of a long run).
    pub lab: Rc<LabState>,
    /// Which view shows and the learner's progress.
    pub course: Rc<CourseState>,
    /// The language of every word the page shows.
    pub language: Language,
    /// The type scale (`+` and `-`).
    pub type_scale: TypeScale,
    /// The check panel, while it is open (closing it drops it, and cancels what it runs).
    pub check: Option<CheckState>,
    /// Whether the screen is narrow (the step list replaces the diagram).
    pub narrow: bool,
    /// Whether the page is in fullscreen.
    pub fullscreen: bool,
    /// The diagram's steps revealed above its window: (at which cursor, how many more).
    pub revealed: (usize, usize),
    /// How many times "go to step N, where it broke" was pressed: each brings what it names
    /// into view.
    pub jumps: u32,
    /// What the last of those brings into view besides the current step, its broken invariant
    /// and its changed rows.
    pub jump_target: JumpTarget,
    /// Where the focus goes after the last action, if it moves.
    pub focus: Option<Focus>,
    /// The build task's draft, its judge's run and verdict (`crate::build`).
    pub build: BuildState,
}

/// What the learner (or the browser, or a task of the page) does.
#[derive(Clone, Debug, PartialEq)]
pub enum PageAction {
    /// Something done to the run shown.
    Lab(Action),
    /// The view changes: the course, the free lab, a run's link.
    Course(CourseAction),
    /// Open lesson `lesson` at `step` from the course (Start, Resume, the next lesson).
    OpenLesson {
        /// The lesson's position in the course.
        lesson: usize,
        /// The step.
        step: usize,
        /// Resume the learner's run if it is the lesson's.
        resume: bool,
    },
    /// A trainer's link in the address names lesson `lesson` at `step`.
    OpenLessonByLink {
        /// The lesson's position in the course.
        lesson: usize,
        /// The step.
        step: usize,
        /// The link asks for the presenter view (`presenter=1`).
        presenter: bool,
    },
    /// A course link in the address that cannot be opened: why, in the page's language.
    RefuseCourseLink(String),
    /// What the learner does in the lesson panel.
    Panel(PanelEvent),
    /// Words in this language.
    SetLanguage(Language),
    /// Larger or smaller type.
    Scale(TypeScaleAction),
    /// Open or close the check panel.
    ToggleCheck,
    /// What the check panel's learner picks or its work reports.
    Check(CheckMsg),
    /// The screen became narrow or wide.
    SetNarrow(bool),
    /// The page entered or left fullscreen.
    SetFullscreen(bool),
    /// Reveal more of the run above the diagram's window.
    Reveal,
    /// Go to the step where an invariant broke, and bring it into view.
    JumpTo(usize),
    /// Show this lab state: what an embed's script made of the state shown
    /// (`crate::embed::Embed`).
    ShowLab(crate::embed::ShownLab),
    /// What the learner does in the build task's editor, or its judge reports.
    Build(BuildMsg),
}

impl PageState {
    /// The page's state over `lab` and `course`, with the other settings at their defaults.
    pub fn new(lab: LabState, course: CourseState, language: Language) -> PageState {
        PageState {
            lab: Rc::new(lab),
            course: Rc::new(course),
            language,
            type_scale: TypeScale::default(),
            check: None,
            narrow: false,
            fullscreen: false,
            revealed: (0, 0),
            jumps: 0,
            jump_target: JumpTarget::default(),
            focus: None,
            build: BuildState::default(),
        }
    }

    /// The diagram's steps revealed above its window at the cursor shown.
    pub fn extra_revealed(&self) -> usize {
        if self.revealed.0 == self.lab.cursor { self.revealed.1 } else { 0 }
    }

    /// The screen the lab shows now: the core's screen model of the run at the cursor, in the
    /// page's language ([`Screen::at`]). The page, the embed and the step list render it.
    pub fn screen(&self) -> Screen {
        let lab = &self.lab;
        let at_end = lab.cursor == lab.sim.steps().len();
        Screen::at(&ScreenInput {
            run: &lab.sim,
            cursor: lab.cursor,
            world: &lab.world,
            stop: lab.sim.stop_reason().filter(|_| at_end),
            revealed: self.extra_revealed(),
            waits: self.prediction_pending(),
            language: self.language,
        })
    }

    fn lab_does(&mut self, action: Action) {
        self.lab = self.lab.clone().reduce(action);
    }

    fn course_does(&mut self, action: CourseAction) {
        self.course = self.course.clone().reduce(action);
    }

    fn focus_on(&mut self, target: FocusTarget) {
        let generation = self.focus.map_or(1, |focus| focus.generation + 1);
        self.focus = Some(Focus { generation, target });
    }

    /// The lab's action, and where it leaves the focus: the run moved under the learner's
    /// hands (to its end, a fault taken, the last step) shows in the caption.
    fn drive_lab(&mut self, action: Action) {
        if self.prediction_pending() && moves_the_run(&action, self.lab.playing) {
            // The run waits at its start until the prediction is answered; a play that was
            // going stops.
            if self.lab.playing {
                self.lab_does(Action::TogglePlay);
            }
            return;
        }
        let focus = match &action {
            Action::RunToEnd
            | Action::Inject(_)
            | Action::OpenRunAt(..)
            | Action::KeepLeftBehind
            | Action::DeclineLeftBehind => Some(FocusTarget::Caption),
            Action::StepForward => None,
            Action::StepBack if self.lab.cursor <= 1 => Some(FocusTarget::Caption),
            _ => None,
        };
        let opens = opens_a_file_or_link(&action);
        let stepping = action == Action::StepForward;
        let reached_before = self.narration_reached().is_some();
        let before = Rc::clone(&self.lab);
        self.lab_does(action);
        if !reached_before && self.narration_reached().is_some() {
            // The run reached the narrated point: it comes into view.
            self.bring_into_view(JumpTarget::default());
        }
        if opens && !Rc::ptr_eq(&before, &self.lab) {
            // What was opened shows in the caption; what was refused, in the error banner.
            let refused = self.lab.error.is_some();
            self.focus_on(if refused { FocusTarget::Error } else { FocusTarget::Caption });
        } else if let Some(target) = focus {
            self.focus_on(target);
        } else if stepping && !self.lab.can_step_forward() {
            // Step is disabled at the end: its focus goes to what the step did.
            self.focus_on(FocusTarget::Caption);
        }
    }

    /// Whether the lesson's current step is a prediction not answered yet: the run then waits
    /// at its start (no step, play, jump or slider moves it), so that nothing on the screen
    /// answers the question before the learner does.
    pub fn prediction_pending(&self) -> bool {
        let Some((_, lesson, step)) = self.course.lesson() else { return false };
        matches!(lesson.steps.get(step), Some(CourseStep::Prediction(_)))
            && !self.course.progress.of(lesson).passed.contains(&step)
    }

    /// Opens lesson `index` at `step` from the course: the course shows it, the lab runs it.
    /// Resumed at a prediction not answered yet, the run is shown from its start, as on
    /// arriving there by Next.
    fn open_lesson(&mut self, index: usize, step: usize, resume: bool) {
        let Some(lesson) = course::course().and_then(|course| course.lessons.get(index)) else {
            return;
        };
        if let Some(action) = course::opening(lesson, step, &self.lab, resume) {
            self.lab_does(action);
        }
        self.course_does(CourseAction::Open { lesson: index, step });
        if self.prediction_pending() && self.lab.cursor > 0 {
            self.lab_does(Action::SeekTo(0));
        }
        self.focus_on(FocusTarget::LessonCard);
    }

    /// What the lesson panel's buttons do: the course moves, and the lab follows (a step that
    /// names a twin switches the patterns to it; "Go there" shows its point of the run).
    fn panel(&mut self, event: PanelEvent) {
        let Some((_, lesson, step)) = self.course.lesson() else { return };
        let arrive = |page: &mut PageState, step: usize| {
            let answered = page.course.progress.of(lesson).passed.contains(&step);
            for action in course::arrival(lesson, step, &page.lab, answered) {
                page.lab_does(action);
            }
            // The choices of a previous run are offered as the lesson opens: moving on in it
            // declines them (and a run of another scenario a step opens offers none).
            if !page.lab.left_behind.is_empty() {
                page.lab_does(Action::DeclineLeftBehind);
            }
            // A narration whose point is reached: the point comes into view, the diagram's
            // step of it if the run is past it.
            if let Some(at) = page.narration_reached() {
                let step = (at > 0 && at < page.lab.cursor).then_some(at);
                page.bring_into_view(JumpTarget { step, fault: None });
            }
            page.focus_on(FocusTarget::LessonCard);
        };
        match event {
            PanelEvent::Next => {
                self.course_does(CourseAction::Next);
                arrive(self, step + 1);
            }
            PanelEvent::Back => {
                self.course_does(CourseAction::Back);
                if let Some(step) = step.checked_sub(1) {
                    arrive(self, step);
                }
            }
            PanelEvent::ToList => {
                self.course_does(CourseAction::ShowCourse);
                self.focus_on(FocusTarget::CourseList);
            }
            PanelEvent::GoThere(point) => {
                let unreachable = crate::labels::ui(self.language).course.unreachable.to_owned();
                self.lab_does(Action::GoTo { point, unreachable: Some(unreachable) });
                self.focus_on(FocusTarget::LessonNext);
                self.bring_into_view(JumpTarget::of_point(point));
            }
            PanelEvent::Answered => {
                self.course_does(CourseAction::PassStep);
                self.focus_on(FocusTarget::LessonNext);
            }
            PanelEvent::OpenLesson(index) => self.open_lesson(index, 0, false),
        }
    }

    /// A trainer's link names a lesson at a step: a fresh run of it at the point the step
    /// needs, whatever the stored progress (`course::link_opening`), the course at that step,
    /// in the presenter view if the link asks for it (out of it if not); the point is brought
    /// into view.
    fn open_lesson_by_link(&mut self, index: usize, step: usize, presenter: bool) {
        let Some(lesson) = course::course().and_then(|course| course.lessons.get(index)) else {
            return;
        };
        let actions = course::link_opening(lesson, step);
        if actions.is_empty() {
            return;
        }
        for action in actions {
            self.lab_does(action);
        }
        // The link says how to show the lesson: in the presenter view with `presenter=1`,
        // out of it without.
        if presenter != self.lab.presenter {
            self.lab_does(Action::TogglePresenter);
        }
        self.course_does(CourseAction::OpenByLink { lesson: index, step });
        let point = course::go_to_point(lesson, step);
        self.bring_into_view(point.map(JumpTarget::of_point).unwrap_or_default());
    }

    /// Asks the page to bring the current step, its broken invariant and its changed rows
    /// (and what `target` names) into view after the next render
    /// (`crate::app::edges::use_jumps`).
    fn bring_into_view(&mut self, target: JumpTarget) {
        self.jumps = self.jumps.wrapping_add(1).max(1);
        self.jump_target = target;
    }

    /// Where the lesson's current step is a narration whose point the run shown has reached
    /// (`course::step_status`'s rule): the point's step.
    fn narration_reached(&self) -> Option<usize> {
        let (_, lesson, step) = self.course.lesson()?;
        let Some(CourseStep::Narration(narration)) = lesson.steps.get(step) else { return None };
        narration.at.resolve(&self.lab.sim).filter(|at| *at <= self.lab.cursor)
    }

    /// The build task's editor: the move done on the draft of the lesson's step shown, and
    /// what it asks of the page: the focus follows the block; a counterexample opens in the
    /// diagram at the step that broke it; a proof passes the step and focuses Next.
    fn build(&mut self, msg: BuildMsg) {
        let Some((index, lesson, step)) = self.course.lesson() else { return };
        let Some(goal) = crate::build::goal_at(lesson, step) else { return };
        let (build, effects) = self.build.for_step(index, step).reduce(goal, msg);
        self.build = build;
        if let Some(focus) = effects.focus {
            self.focus_on(FocusTarget::Build(focus));
        }
        if let Some(counterexample) = effects.counterexample {
            let steps = counterexample.path.len();
            self.lab_does(Action::OpenRunAt(Box::new(counterexample.trace), steps));
            self.bring_into_view(JumpTarget::default());
        }
        if effects.passed {
            self.course_does(CourseAction::PassStep);
            self.focus_on(FocusTarget::LessonNext);
        }
    }

    /// The view changes: back to the course's list moves the focus there, on to the free lab
    /// to its caption (the button pressed is gone).
    fn show(&mut self, action: CourseAction) {
        self.course_does(action);
        match action {
            CourseAction::ShowCourse => self.focus_on(FocusTarget::CourseList),
            CourseAction::ShowLab => self.focus_on(FocusTarget::Caption),
            _ => {}
        }
    }
}

impl Default for PageState {
    fn default() -> PageState {
        let course = CourseState { view: PageView::Lab, progress: Default::default() };
        PageState::new(LabState::initial(), course, Language::default())
    }
}

/// Whether `action` opens a trace or scenario file or a share link (or refuses one), so that
/// the focus goes to what it opened, or to the banner that says why not; the news of an
/// opening in slices included (not its progress, which leaves the focus where it is).
fn opens_a_file_or_link(action: &Action) -> bool {
    match action {
        Action::LoadTrace(_)
        | Action::LoadScenario(_)
        | Action::OpenLink(_)
        | Action::RefuseLink(_)
        | Action::Opened { .. }
        | Action::OpeningFailed { .. } => true,
        Action::ShowError(problem) => {
            matches!(problem, Problem::FileKind { .. } | Problem::FileUnread { .. })
        }
        _ => false,
    }
}

/// Whether `action` moves the run away from its start (with a play `playing` or not): what
/// waits while a prediction is asked ([`PageState::prediction_pending`]). Rewinding, pausing,
/// switching patterns and the view do not.
fn moves_the_run(action: &Action, playing: bool) -> bool {
    match action {
        Action::StepForward
        | Action::RunToEnd
        | Action::PlayTick
        | Action::GoTo { .. }
        | Action::OpenRunAt(..) => true,
        Action::SeekTo(step) => *step > 0,
        Action::TogglePlay => !playing,
        _ => false,
    }
}

impl Reducible for PageState {
    type Action = PageAction;

    fn reduce(self: Rc<Self>, action: PageAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            PageAction::Lab(action) => next.drive_lab(action),
            PageAction::Course(action) => next.show(action),
            PageAction::OpenLesson { lesson, step, resume } => {
                next.open_lesson(lesson, step, resume);
            }
            PageAction::OpenLessonByLink { lesson, step, presenter } => {
                next.open_lesson_by_link(lesson, step, presenter);
            }
            PageAction::RefuseCourseLink(error) => {
                next.lab_does(Action::RefuseLink(error));
                next.course_does(CourseAction::ShowCourse);
            }
            PageAction::Panel(event) => next.panel(event),
            PageAction::SetLanguage(language) => next.language = language,
            PageAction::Scale(action) => next.type_scale = next.type_scale.next(action),
            PageAction::ToggleCheck => {
                next.check = match next.check {
                    Some(_) => None,
                    None => Some(CheckState::default()),
                };
            }
            PageAction::Check(msg) => {
                next.check = next.check.as_ref().map(|check| check.reduce(msg));
            }
            PageAction::SetNarrow(narrow) => next.narrow = narrow,
            PageAction::SetFullscreen(fullscreen) => next.fullscreen = fullscreen,
            PageAction::Reveal => {
                let extra = next.extra_revealed();
                next.revealed =
                    (next.lab.cursor, extra.saturating_add(idempotency_lab::view::WINDOW_STEPS));
            }
            PageAction::JumpTo(step) if next.prediction_pending() && step > 0 => {}
            PageAction::JumpTo(step) => {
                next.lab_does(Action::SeekTo(step));
                next.bring_into_view(JumpTarget::default());
            }
            PageAction::ShowLab(shown) => next.lab = shown.0,
            PageAction::Build(msg) => next.build(msg),
        }
        Rc::new(next)
    }
}
