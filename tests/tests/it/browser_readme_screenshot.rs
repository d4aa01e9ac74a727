//! The README's screenshot, taken by a test so that it shows the page as it is: the free lab at
//! 1280x720 (a projector's screen) in English, in the naive twin of lesson F3, with a
//! duplicate injected by hand on the OrderPlaced message, run to its end, and "go to step N,
//! where it broke" pressed for I2: the diagram at the breaking step, the broken invariant red
//! with the core's sentence. Saved as `target/screenshots/readme.png`; run with
//! `LAB_UPDATE_DOCS=1`, the test copies it to `docs/screenshot.png`, the file the README shows.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::PatternMode;
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "f03-crash-before-commit";

/// Whether the README's screenshot is to be replaced by the one taken now.
fn updating_the_docs() -> bool {
    std::env::var("LAB_UPDATE_DOCS").is_ok_and(|value| value == "1")
}

#[test]
fn the_readme_screenshot_is_the_free_lab_at_a_broken_invariant() {
    let page = LabPage::open("");
    page.set_viewport(1280, 720, false);
    page.open_lesson(LESSON, PatternMode::Naive);
    page.step_until("[data-fault=F1]", 60);
    page.inject_on("", FaultClass::F1);
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=current-step]", "run ended");
    page.wait_until(
        "I2 is broken",
        "document.querySelector('[data-testid=invariant-I2]')?.dataset.state === 'broken'",
    );
    let broke_at = page.number("[data-testid=jump-I2]");
    page.click("[data-testid=jump-I2]");
    page.wait_for_text("[data-testid=position]", &format!("step {broke_at} /"));
    // The run's controls at the top of the screen: below them the caption, the diagram at the
    // breaking step and the invariants.
    page.evaluate(
        "document.querySelector('[data-testid=reset]').parentElement.scrollIntoView({ block: 'start' }), true",
    );
    page.wait_in_view("[data-testid=invariant-I2]");
    page.wait_in_view(".diagram .step.current");
    assert_eq!(page.evaluate("document.documentElement.lang"), "en");
    let shot = page.screenshot("readme");
    assert!(std::fs::metadata(&shot).is_ok_and(|file| file.len() > 10_000), "{shot:?}");
    if updating_the_docs() {
        let docs = xtask::workspace_root().join("docs/screenshot.png");
        std::fs::copy(&shot, &docs).unwrap_or_else(|error| panic!("copy to {docs:?}: {error}"));
        println!("docs/screenshot.png replaced by {}", shot.display());
    }
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
