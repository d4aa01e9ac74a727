//! Play runs the lesson by itself and Pause stops it: the step counter advances with no click,
//! and after Pause it stays put for several play intervals. The chosen speed is stored in
//! local storage and survives a reload.

use std::time::Duration;

use idempotency_lab_tests::browser::LabPage;

/// The "fast" speed of the page's speed menu, in milliseconds per step.
const FAST_MS: u64 = 250;

#[test]
fn play_advances_by_itself_and_pause_stops_it() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.set_value("[data-testid=speed]", &FAST_MS.to_string());
    page.wait_until(
        "the speed is stored",
        &format!("localStorage.getItem('idempotency-lab.speed-ms') === '{FAST_MS}'"),
    );

    page.click("[data-testid=play]");
    page.wait_for_text("[data-testid=play]", "Pause");
    // The counter moves with no further click: at least three steps.
    page.wait_until(
        "play steps by itself",
        "parseInt(document.querySelector('[data-testid=position]').innerText.replace('step ', '')) >= 3",
    );
    page.click("[data-testid=play]");
    page.wait_for_text("[data-testid=play]", "Play");
    let paused_at = page.number("[data-testid=position]");
    assert!(paused_at >= 3, "paused at step {paused_at}");
    // Four play intervals later, nothing has moved.
    std::thread::sleep(Duration::from_millis(4 * FAST_MS));
    assert_eq!(page.number("[data-testid=position]"), paused_at, "the run moved after Pause");
    assert!(page.text("[data-testid=play]").contains("Play"));

    // The speed survives a reload.
    page.reload(false);
    assert_eq!(
        page.evaluate("document.querySelector('[data-testid=speed]').value").as_str(),
        Some(FAST_MS.to_string().as_str())
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
