//! The same duplicate, injected by hand in idempotent mode, leaves every invariant green: the
//! inbox turns the second copy away, and the diagram shows the duplicate.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::PatternMode;
use idempotency_lab_tests::browser::LabPage;

#[test]
fn a_duplicate_injected_by_hand_leaves_the_idempotent_shop_green() {
    let page = LabPage::open("");
    page.open_lesson("f03-crash-before-commit", PatternMode::Idempotent);

    let steps = page.step_until("[data-fault=F1]", 60);
    page.inject_on("", FaultClass::F1);
    page.wait_for_text("[data-testid=current-step]", "duplicate copy");
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=current-step]", "run ended: nothing left to do");

    page.expect_invariants(&[]);
    let injected = format!(".diagram [data-step='{}'] .duplicate", steps + 1);
    assert_eq!(page.count(&injected), 1, "the injected duplicate is drawn at its step");
    assert!(
        page.count("[data-testid=table-inbox] tbody tr[data-row]") >= 1,
        "the inbox has its row"
    );
    page.screenshot("idempotent-duplicate-green");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
