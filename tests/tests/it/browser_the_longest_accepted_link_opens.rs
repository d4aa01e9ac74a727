//! The longest run the bounds accept opens from its link and stays usable: the scenario of
//! `sim::bounds::longest_run_scenario` (lost answers retried with new keys keep placing 16-line
//! orders until the 20,000-step limit), inline in a 135 KB share link, as the page's first
//! address. It used to take the page to 4 GB and kill its wasm (a snapshot of the whole world
//! every 16 steps); the page now opens it at its last step, with no error, and stepping back,
//! jumping to the start and stepping on still work.

use std::time::Duration;

use idempotency_lab::sim::bounds::longest_run_scenario;
use idempotency_lab::view::ShareLink;
use idempotency_lab_tests::browser::LabPage;

/// How long the 20,000 steps may take to open on a busy machine.
const OPENING_TIMEOUT: Duration = Duration::from_secs(240);

#[test]
fn the_longest_accepted_link_opens_at_its_last_step_and_the_page_stays_usable() {
    let scenario = longest_run_scenario().expect("the bounds accept it");
    let steps = scenario.limits.steps_max;
    let fragment = ShareLink::new(&scenario, 1, Vec::new(), steps).encode();
    assert!(fragment.len() > 100_000, "a link of {} characters", fragment.len());
    let native = ShareLink::decode(&fragment).unwrap().open().unwrap();
    assert_eq!(native.simulation.steps().len(), steps, "the run reaches its step limit");

    let page = LabPage::open(&fragment);
    page.wait_until_within(
        "the longest run is open at its last step",
        &format!(
            "document.querySelector('[data-testid=position]')?.textContent === 'step {steps} / {steps}' && document.querySelector('[data-testid=opening]') === null"
        ),
        OPENING_TIMEOUT,
    );
    assert!(!page.exists("[data-testid=error]"), "no error banner");
    let last = native.simulation.steps().last().expect("steps");
    let caption = page.text("[data-testid=current-step]");
    assert!(caption.starts_with(&format!("Step {steps} (tick {}): ", last.tick)), "{caption:?}");
    assert!(caption.contains(&format!("step limit {steps} reached")), "{caption:?}");

    page.click("[data-testid=step-back]");
    page.wait_for_text("[data-testid=position]", &format!("step {} / {steps}", steps - 1));
    page.click("[data-testid=step-back]");
    page.wait_for_text("[data-testid=position]", &format!("step {} / {steps}", steps - 2));
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", &format!("step {} / {steps}", steps - 1));
    assert!(!page.exists("[data-testid=error]"), "no error banner after stepping");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
