//! Opening a share link or a trace file without blocking the page: the core's
//! [`RunOpener`](idempotency_lab::sim::RunOpener) (behind [`Pending`]) is advanced in slices of
//! about [`SLICE_MS`] of work by the core's rule for long jobs ([`idempotency_lab::slice`]),
//! timed with `Date::now()` (the core reads no clock), and between slices the task yields to the browser, which
//! renders the progress line and handles a click on Cancel. A run that opens within its first
//! slice (every lesson's) opens at once, with no progress line.

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::rc::Rc;

use idempotency_lab::slice::{SLICE_MS, run_slice};
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::notices::Problem;
use crate::state::{Action, OpenedRun, OpeningKind, Pending};
use crate::yielding::{PROGRESS_EVERY_MS, yield_to_browser};

/// Moves of the run between two readings of the clock: a few, so that a slice ends soon
/// after its [`SLICE_MS`].
pub const MOVES_PER_CLOCK_READING: usize = 16;

/// The page's openings: a count, and the cancel flag of the one under way.
#[derive(Debug, Default)]
pub struct Openings {
    generation: u64,
    cancel: Rc<Cell<bool>>,
}

impl Openings {
    /// Stops the opening under way, if any (its task ends at its next slice).
    pub fn cancel(&self) {
        self.cancel.set(true);
    }

    /// A new opening: the one under way is cancelled; its generation and cancel flag.
    fn next(&mut self) -> (u64, Rc<Cell<bool>>) {
        self.cancel.set(true);
        self.generation += 1;
        self.cancel = Rc::new(Cell::new(false));
        (self.generation, Rc::clone(&self.cancel))
    }
}

/// Advances `pending` for one slice: until the run is open or [`SLICE_MS`] have passed.
/// Returns whether it is open.
pub fn slice(pending: &mut Pending) -> Result<bool, Problem> {
    let flow = run_slice(SLICE_MS, &mut js_sys::Date::now, &mut || match pending
        .advance(MOVES_PER_CLOCK_READING)
    {
        Ok(false) => ControlFlow::Continue(()),
        opened_or_failed => ControlFlow::Break(opened_or_failed),
    });
    match flow {
        ControlFlow::Break(opened_or_failed) => opened_or_failed,
        ControlFlow::Continue(()) => Ok(false),
    }
}

/// What the first slice of an opening left: the run's state, or an error, or the opening to
/// go on with (and its generation and cancel flag) in [`go_on`].
pub enum FirstSlice {
    /// Open (or failed) within the first slice.
    Done(Action),
    /// Still opening.
    Going(Box<Pending>, u64, Rc<Cell<bool>>),
}

/// Starts an opening of `pending` (or shows its error) and runs its first slice now.
pub fn first_slice(
    openings: &RefCell<Openings>,
    kind: OpeningKind,
    pending: Result<Pending, Problem>,
) -> FirstSlice {
    let (generation, cancel) = openings.borrow_mut().next();
    let failed = |error| FirstSlice::Done(Action::OpeningFailed { generation: None, kind, error });
    let mut pending = match pending {
        Ok(pending) => pending,
        Err(error) => return failed(error),
    };
    match slice(&mut pending) {
        Ok(true) => FirstSlice::Done(finished(pending, None)),
        Ok(false) => FirstSlice::Going(Box::new(pending), generation, cancel),
        Err(error) => failed(error),
    }
}

/// Opens `pending` (or shows its error) on the page: at once if it opens within a slice,
/// else in slices between frames, with the progress line.
pub fn start(
    openings: &RefCell<Openings>,
    kind: OpeningKind,
    pending: Result<Pending, Problem>,
    dispatcher: Callback<Action>,
) {
    match first_slice(openings, kind, pending) {
        FirstSlice::Done(action) => dispatcher.emit(action),
        FirstSlice::Going(pending, generation, cancel) => {
            dispatcher.emit(Action::OpeningStarted(pending.opening(generation)));
            go_on(*pending, generation, cancel, dispatcher);
        }
    }
}

/// Opens the rest of `pending` in slices, yielding to the browser before each
/// ([`yield_to_browser`]: no timer, so no 4 ms wait after each 12 ms slice), until it is open,
/// fails, or `cancel` is set. The progress line is updated every [`PROGRESS_EVERY_MS`], not
/// after every slice: each update renders the page again.
pub fn go_on(
    mut pending: Pending,
    generation: u64,
    cancel: Rc<Cell<bool>>,
    dispatcher: Callback<Action>,
) {
    spawn_local(async move {
        let mut reported = js_sys::Date::now();
        loop {
            // Yield to the browser: it renders the progress and handles clicks (Cancel) here.
            yield_to_browser().await;
            if cancel.get() {
                return;
            }
            match slice(&mut pending) {
                Ok(false) => {
                    if js_sys::Date::now() - reported >= PROGRESS_EVERY_MS {
                        reported = js_sys::Date::now();
                        dispatcher.emit(Action::OpeningProgress(pending.opening(generation)));
                    }
                }
                Ok(true) => {
                    dispatcher.emit(finished(pending, Some(generation)));
                    return;
                }
                Err(error) => {
                    let kind = pending.kind();
                    let generation = Some(generation);
                    dispatcher.emit(Action::OpeningFailed { generation, kind, error });
                    return;
                }
            }
        }
    });
}

/// The action that shows the opened run, or says why it cannot be shown.
fn finished(pending: Pending, generation: Option<u64>) -> Action {
    let kind = pending.kind();
    match pending.finish() {
        Ok(state) => Action::Opened { generation, kind, run: OpenedRun(Rc::new(state)) },
        Err(error) => Action::OpeningFailed { generation, kind, error },
    }
}
