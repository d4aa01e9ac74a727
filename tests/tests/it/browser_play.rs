//! Play runs the lesson by itself and Pause stops it: the step counter advances with no click
//! while the page's play timer runs, and Pause clears that timer, after which the counter stays
//! where Pause left it. The chosen speed is the timer's period, is stored in local storage and
//! survives a reload.
//!
//! Nothing here depends on how fast the machine is. A probe wraps the page's `setInterval`: it
//! records each live timer with its period, and lets the play timer fire (for real, at its
//! period) only three times, then holds it. So the run is at step 3, still playing, with
//! the rest of the run ahead of it, whenever Pause lands; the test then waits for the state
//! Pause leads to (the button says Play and no timer is left that could step the run), and
//! never sleeps to see that nothing moved. Without the hold a slow machine could reach the end
//! of the run before Pause, which stops playing by itself and would hide a broken Pause.

use idempotency_lab_tests::browser::LabPage;

/// The "fast" speed of the page's speed menu, in milliseconds per step.
const FAST_MS: u64 = 250;
/// How many times the probe lets the play timer fire before it holds it.
const TICKS_ALLOWED: usize = 3;

/// Wraps `setInterval` and `clearInterval` so that `window.__labIntervals` maps each live
/// timer's id to its period, and so that timers fire at most `window.__labTicks.allowed` times
/// in all (`window.__labTicks.fired` counts them). The page's only interval is the play timer.
const INTERVAL_PROBE: &str = "(() => {
    window.__labIntervals = new Map();
    window.__labTicks = { allowed: 0, fired: 0 };
    const set = window.setInterval.bind(window);
    const clear = window.clearInterval.bind(window);
    window.setInterval = (handler, ms, ...args) => {
        const ticks = window.__labTicks;
        const held = () => {
            if (ticks.fired < ticks.allowed) { ticks.fired += 1; handler(...args); }
        };
        const id = set(held, ms);
        window.__labIntervals.set(id, ms);
        return id;
    };
    window.clearInterval = (id) => { window.__labIntervals.delete(id); clear(id); };
    return true;
})()";

/// Whether the Step button is disabled (the run is at its end).
fn at_the_end(page: &LabPage) -> bool {
    page.evaluate("document.querySelector('[data-testid=step]').disabled").as_bool().unwrap()
}

#[test]
fn play_advances_by_itself_and_pause_stops_it() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.evaluate(INTERVAL_PROBE);
    page.evaluate(&format!("window.__labTicks.allowed = {TICKS_ALLOWED}, true"));
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
    // The counter moves with no click: each of the timer's three ticks is one step. Then the
    // probe holds the timer, so the page is still playing, mid-run, when Pause is clicked.
    page.wait_until(
        "play steps by itself, once per tick",
        &format!(
            "window.__labTicks.fired === {TICKS_ALLOWED} && document.querySelector('[data-testid=position]').innerText.startsWith('step {TICKS_ALLOWED} /')"
        ),
    );
    let label = page.text("[data-testid=play]");
    assert!(label.ends_with("Pause"), "still playing while the timer is held: {label}");
    assert!(!at_the_end(&page), "the run goes on after step {TICKS_ALLOWED}");

    page.click("[data-testid=play]");
    page.wait_for_text("[data-testid=play]", "Play");
    // Pause clears the timer: nothing is left that could step the run, even with the probe
    // letting every tick through from now on.
    page.wait_until("Pause clears the play timer", "window.__labIntervals.size === 0");
    page.evaluate("window.__labTicks.allowed = Infinity, true");
    assert_eq!(page.step_shown(), TICKS_ALLOWED, "the run stays where Pause left it");
    assert!(!at_the_end(&page), "Pause, not the end of the run, stopped playing");
    // Paused, the run still steps by hand, one step per click.
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", &format!("step {} /", TICKS_ALLOWED + 1));
    assert_eq!(page.evaluate("window.__labIntervals.size"), 0, "Step starts no timer");
    let label = page.text("[data-testid=play]");
    assert!(label.ends_with("Play"), "still paused after a step: {label}");

    // The speed survives a reload.
    page.reload(false);
    assert_eq!(
        page.evaluate("document.querySelector('[data-testid=speed]').value").as_str(),
        Some(FAST_MS.to_string().as_str())
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
