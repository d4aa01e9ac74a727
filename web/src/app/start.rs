//! The page's first state: what the address asks for on load (the course, a lesson by a
//! trainer's link, a run by a share link, opened in slices if long), the stored settings, or
//! an embed's start.

use std::cell::RefCell;
use std::rc::Rc;

use idempotency_lab::view::Language;

use crate::app::AppProps;
use crate::course::progress::CourseProgress;
use crate::course::state::{CourseAction, CourseState, PageView};
use crate::course::{self as course, PageStart};
use crate::notices::Problem;
use crate::opening::{self, FirstSlice, Openings};
use crate::page::{JumpTarget, PageState};
use crate::presenter::{TypeScale, in_fullscreen};
use crate::state::{LabState, OpeningKind, Pending, SPEEDS_MS};
use crate::storage;

/// The local-storage key of the play speed.
pub const SPEED_SETTING: &str = "idempotency-lab.speed-ms";
/// The local-storage key of the page's language (`en`, `ru`).
pub const LANGUAGE_SETTING: &str = "idempotency-lab.language";

/// The page's state as it opens (an embed's from its options).
pub fn initial(
    props: &AppProps,
    openings: &RefCell<Openings>,
    first_opening: &RefCell<Option<FirstSlice>>,
) -> PageState {
    let page = props.embed.is_none();
    let start = match page {
        true => PageStart::of(&current_fragment(), stored_language()),
        false => PageStart::Run,
    };
    let mut lab = match &props.embed {
        Some(embed) => {
            let mut state = embed.initial.clone();
            state.presenter |= embed.presenter;
            state
        }
        None => initial_lab(&start, openings, first_opening),
    };
    lab.presenter |= props.presenter;
    // An embed keeps the speed its options give.
    let stored_speed = storage::get::<u32>(SPEED_SETTING).filter(|s| SPEEDS_MS.contains(s));
    if let Some(speed_ms) = stored_speed.filter(|_| page) {
        lab.speed_ms = speed_ms;
    }
    let language = props.embed.as_ref().map_or_else(stored_language, |embed| embed.language);
    let mut state = PageState::new(lab, initial_course_state(page, &start), language);
    state.type_scale = TypeScale::stored();
    // A trainer's link brings the point it opens at into view once the page shows it.
    if let PageStart::Lesson { lesson, step, .. } = start {
        state.jumps = 1;
        let lesson = course::course().and_then(|course| course.lessons.get(lesson));
        let point = lesson.and_then(|lesson| course::go_to_point(lesson, step));
        state.jump_target = point.map(JumpTarget::of_point).unwrap_or_default();
    }
    state.narrow = narrow_screen().is_some_and(|query| query.matches());
    state.fullscreen = in_fullscreen();
    state
}

/// The lab's first state for what the address asks for.
fn initial_lab(
    start: &PageStart,
    openings: &RefCell<Openings>,
    first_opening: &RefCell<Option<FirstSlice>>,
) -> LabState {
    let opened = |action| Rc::unwrap_or_clone(Rc::new(LabState::initial()).reduce(action));
    match start {
        PageStart::Nothing => LabState::initial(),
        PageStart::Lesson { lesson, step, presenter } => {
            let lesson = course::course().and_then(|course| course.lessons.get(*lesson));
            let actions = lesson.map(|lesson| course::link_opening(lesson, *step));
            let lab = actions
                .unwrap_or_default()
                .into_iter()
                .fold(Rc::new(LabState::initial()), |lab, action| lab.reduce(action));
            LabState { presenter: *presenter, ..Rc::unwrap_or_clone(lab) }
        }
        PageStart::BadCourseLink(error) => LabState {
            error: Some(Problem::Said(error.clone())),
            keep_fragment: true,
            ..LabState::initial()
        },
        PageStart::Run => {
            let pending = Pending::of_link(&current_fragment());
            match opening::first_slice(openings, OpeningKind::Link, pending) {
                FirstSlice::Done(action) => opened(action),
                FirstSlice::Going(pending, generation, cancel) => {
                    let opening = Some(pending.opening(generation));
                    *first_opening.borrow_mut() =
                        Some(FirstSlice::Going(pending, generation, cancel));
                    LabState { opening, ..LabState::initial() }
                }
            }
        }
    }
}

/// The course's state of a page that opens as `start` asks (an embed's: the lab alone).
fn initial_course_state(page: bool, start: &PageStart) -> CourseState {
    let Some(course) = course::course().filter(|_| page) else {
        return CourseState { view: PageView::Lab, progress: CourseProgress::default() };
    };
    let progress = CourseProgress::stored(course);
    let view = match start {
        PageStart::Nothing if progress.free_lab => PageView::Lab,
        PageStart::Nothing | PageStart::Lesson { .. } | PageStart::BadCourseLink(_) => {
            PageView::Course
        }
        PageStart::Run => PageView::Lab,
    };
    let state = CourseState { view, progress };
    match *start {
        PageStart::Lesson { lesson, step, .. } => {
            Rc::unwrap_or_clone(Rc::new(state).reduce(CourseAction::OpenByLink { lesson, step }))
        }
        _ => state,
    }
}

/// The page's language as stored, or the default.
pub fn stored_language() -> Language {
    storage::get::<String>(LANGUAGE_SETTING)
        .and_then(|code| code.parse::<Language>().ok())
        .unwrap_or_default()
}

/// The address's fragment, `#` included (empty if none).
pub fn current_fragment() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}

/// The media query of a narrow screen (`crate::step_list::NARROW_QUERY`), if the browser
/// gives one.
pub fn narrow_screen() -> Option<web_sys::MediaQueryList> {
    gloo::utils::window().match_media(crate::step_list::NARROW_QUERY).ok().flatten()
}
