//! Long jobs in slices: the one rule by which the page and the JavaScript package run a check, a
//! fuzz or the opening of a long link without freezing the page. A job advances by small units
//! of work until it stops by itself or the slice's time is up; the caller then yields to the
//! event loop (shows progress, takes a click on Cancel) and calls again.
//!
//! The core reads no clock: the caller passes one ([`js_sys::Date::now`] in the page, any
//! counter in a test), in milliseconds.
//!
//! [`js_sys::Date::now`]: https://docs.rs/js-sys/latest/js_sys/struct.Date.html#method.now

use std::ops::ControlFlow;

/// How long one slice of a long job runs before the page gets the thread back, in
/// milliseconds: short enough for a frame at 60 Hz to stay smooth around it.
pub const SLICE_MS: f64 = 12.0;

/// Runs `unit` again and again until it breaks or `clock` has moved `budget_ms` past its reading
/// at the start; returns what the last unit returned. At least one unit runs, however short the
/// budget, so a slice always makes progress.
///
/// A unit returns [`ControlFlow::Break`] when the job stopped by itself (finished, failed, at a
/// point the caller must see) and [`ControlFlow::Continue`] with what the caller reports when
/// the slice ends there (the progress so far).
pub fn run_slice<B, C>(
    budget_ms: f64,
    clock: &mut dyn FnMut() -> f64,
    unit: &mut dyn FnMut() -> ControlFlow<B, C>,
) -> ControlFlow<B, C> {
    let started = clock();
    loop {
        let flow = unit();
        if flow.is_break() || clock() - started >= budget_ms {
            return flow;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::ops::ControlFlow;

    use super::run_slice;

    #[test]
    fn a_slice_runs_units_until_its_time_is_up_and_returns_the_last_ones_progress() {
        let now = Cell::new(0.0);
        let mut units = 0;
        let flow: ControlFlow<(), u32> = run_slice(10.0, &mut || now.get(), &mut || {
            units += 1;
            now.set(now.get() + 3.0);
            ControlFlow::Continue(units)
        });
        // Units end at 3, 6, 9 and 12 ms: the fourth is the first at or past the budget.
        assert_eq!(flow, ControlFlow::Continue(4));
        assert_eq!(units, 4);
    }

    #[test]
    fn a_slice_ends_at_the_unit_that_stops_the_job_however_much_time_is_left() {
        let mut units = 0;
        let flow = run_slice(1e9, &mut || 0.0, &mut || {
            units += 1;
            if units == 5 { ControlFlow::Break("done") } else { ControlFlow::Continue(()) }
        });
        assert_eq!(flow, ControlFlow::Break("done"));
        assert_eq!(units, 5);
    }

    #[test]
    fn a_slice_with_no_time_left_still_runs_one_unit() {
        let mut units = 0;
        let flow: ControlFlow<(), ()> = run_slice(0.0, &mut || 0.0, &mut || {
            units += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(flow, ControlFlow::Continue(()));
        assert_eq!(units, 1);
    }
}
