//! The same duplicate, injected by hand in idempotent mode, leaves every invariant green: the
//! inbox turns the second copy away, and the diagram shows the duplicate.

use idempotency_lab::invariants::InvariantId;
use idempotency_lab_tests::browser::LabPage;

#[test]
fn a_duplicate_injected_by_hand_leaves_the_idempotent_shop_green() {
    let page = LabPage::open("");
    page.set_value("[data-testid=scenario]", "f03-crash-before-commit");
    page.wait_for_text("[data-testid=scenario-title]", "F3");
    page.click("[data-testid=all-idempotent]");
    page.wait_until(
        "P4 is idempotent",
        "document.querySelector('[data-testid=pattern-P4]').dataset.mode === 'idempotent'",
    );

    let mut steps = 0;
    while !page.exists("[data-fault=F1]") {
        steps += 1;
        assert!(steps < 60, "no duplicate was offered within 60 steps");
        page.click("[data-testid=step]");
        page.wait_for_text("[data-testid=position]", &format!("step {steps} /"));
    }
    page.click("[data-fault=F1]");
    page.wait_for_text("[data-testid=current-step]", "duplicate message");
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=current-step]", "run ended: nothing left to do");

    for invariant in InvariantId::ALL {
        let selector = format!("[data-testid=invariant-{invariant}]");
        assert_eq!(page.attribute(&selector, "data-state").as_deref(), Some("ok"), "{invariant}");
    }
    let injected = format!(".diagram [data-step='{}'] .duplicate", steps + 1);
    assert_eq!(page.count(&injected), 1, "the injected duplicate is drawn at its step");
    assert!(
        page.count("[data-testid=table-inbox] tbody tr[data-row]") >= 1,
        "the inbox has its row"
    );
    page.screenshot("idempotent-duplicate-green");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
