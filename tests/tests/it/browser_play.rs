//! Play runs the lesson by itself and Pause stops it: the step counter advances with no click
//! while the page's play timer runs, and Pause clears that timer, after which the counter stays
//! where Pause left it. The chosen speed is the timer's period, is stored in local storage and
//! survives a reload.
//!
//! No fixed sleep: a probe records the page's live `setInterval` timers, and the test waits
//! for the state it is about (a timer of the chosen period running, then none).

use idempotency_lab_tests::browser::LabPage;

/// The "fast" speed of the page's speed menu, in milliseconds per step.
const FAST_MS: u64 = 250;

/// Wraps `setInterval` and `clearInterval` so that `window.__labIntervals` maps each live
/// timer's id to its period. The page's only interval is the play timer.
const INTERVAL_PROBE: &str = "(() => {
    window.__labIntervals = new Map();
    const set = window.setInterval.bind(window);
    const clear = window.clearInterval.bind(window);
    window.setInterval = (handler, ms, ...args) => {
        const id = set(handler, ms, ...args);
        window.__labIntervals.set(id, ms);
        return id;
    };
    window.clearInterval = (id) => { window.__labIntervals.delete(id); clear(id); };
    return true;
})()";

#[test]
fn play_advances_by_itself_and_pause_stops_it() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.evaluate(INTERVAL_PROBE);
    page.set_value("[data-testid=speed]", &FAST_MS.to_string());
    page.wait_until(
        "the speed is stored",
        &format!("localStorage.getItem('idempotency-lab.speed-ms') === '{FAST_MS}'"),
    );
    assert_eq!(page.evaluate("window.__labIntervals.size"), 0, "no timer before Play");

    page.click("[data-testid=play]");
    page.wait_for_text("[data-testid=play]", "Pause");
    page.wait_until(
        "one play timer at the chosen speed",
        &format!(
            "window.__labIntervals.size === 1 && [...window.__labIntervals.values()][0] === {FAST_MS}"
        ),
    );
    // The counter moves with no further click: at least three steps.
    page.wait_until(
        "play steps by itself",
        "parseInt(document.querySelector('[data-testid=position]').innerText.replace('step ', '')) >= 3",
    );
    page.click("[data-testid=play]");
    page.wait_for_text("[data-testid=play]", "Play");
    // Pause clears the timer: nothing is left that could step the run.
    page.wait_until("Pause clears the play timer", "window.__labIntervals.size === 0");
    let paused_at = page.step_shown();
    assert!(paused_at >= 3, "paused at step {paused_at}");
    assert_eq!(page.step_shown(), paused_at, "the run moved after Pause");

    // The speed survives a reload.
    page.reload(false);
    assert_eq!(
        page.evaluate("document.querySelector('[data-testid=speed]').value").as_str(),
        Some(FAST_MS.to_string().as_str())
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
