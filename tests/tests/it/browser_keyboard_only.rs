//! One lesson completed with the keyboard alone: Tab reaches every control used (each stop
//! with a visible focus), Enter presses it. The naive shop is stepped to the message in the
//! broker, a duplicate is injected from its fault button, the run goes to its end and breaks
//! I2; "go to step" jumps to where it broke; then "All idempotent" and "To the end" keep every
//! invariant.

use idempotency_lab_tests::browser::LabPage;

const TABS_MAX: usize = 120;

#[test]
fn a_lesson_is_completed_with_the_keyboard_alone() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.tab_to("[data-testid=step]", TABS_MAX);
    let mut step = 0;
    while !page.exists("[data-fault=F1]") {
        assert!(step < 60, "no duplicate button within 60 steps");
        page.press_on_focus("Enter");
        step += 1;
        page.wait_for_text("[data-testid=position]", &format!("step {step} /"));
    }
    page.tab_to("[data-fault=F1]", TABS_MAX);
    page.press_on_focus("Enter");
    page.wait_for_text("[data-testid=current-step]", "duplicate copy");

    page.evaluate("document.activeElement.blur(), true");
    page.tab_to("[data-testid=run-to-end]", TABS_MAX);
    page.press_on_focus("Enter");
    page.wait_for_text("[data-testid=current-step]", "run ended");
    assert_eq!(
        page.attribute("[data-testid=invariant-I2]", "data-state").as_deref(),
        Some("broken")
    );

    page.tab_to("[data-testid=jump-I2]", TABS_MAX);
    let target = page.number("[data-testid=jump-I2]");
    page.press_on_focus("Enter");
    page.wait_for_text("[data-testid=position]", &format!("step {target} /"));

    page.evaluate("document.activeElement.blur(), true");
    page.tab_to("[data-testid=all-idempotent]", TABS_MAX);
    page.press_on_focus("Enter");
    page.wait_until(
        "P4 is idempotent",
        "document.querySelector('[data-testid=pattern-P4]')?.dataset.mode === 'idempotent'",
    );
    page.tab_to("[data-testid=run-to-end]", TABS_MAX);
    page.press_on_focus("Enter");
    page.wait_for_text("[data-testid=current-step]", "run ended");
    assert_eq!(page.count("[data-state=broken]"), 0, "the idempotent shop keeps every invariant");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
