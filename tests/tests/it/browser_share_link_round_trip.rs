//! A share link reproduces the run: the address follows what the page shows (scenario, seed,
//! pattern switches, the learner's hand-injected fault, the step), and opening that address in
//! a fresh browser shows the same step, the same invariants and the same tables.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab_tests::browser::LabPage;

fn snapshot(page: &LabPage) -> (String, Vec<String>, String, String) {
    let invariants = InvariantId::ALL
        .iter()
        .map(|id| {
            page.attribute(&format!("[data-testid=invariant-{id}]"), "data-state")
                .unwrap_or_default()
        })
        .collect();
    (
        page.text("[data-testid=position]"),
        invariants,
        page.text("[data-testid=current-step]"),
        page.text(".tables"),
    )
}

#[test]
fn opening_the_address_of_a_run_shows_the_same_run() {
    let first = LabPage::open("");
    first.set_value("[data-testid=scenario]", "f03-crash-before-commit");
    first.wait_for_text("[data-testid=scenario-title]", "F3");
    first.set_value("[data-testid=seed]", "7");
    first.wait_until("seed 7 in the address", "window.location.hash.includes('seed=7')");
    let mut steps = first.step_until("[data-fault=F1]", 60);
    first.inject_on("", FaultClass::F1);
    first.wait_until("the choice is in the address", "window.location.hash.includes('&u=')");
    for _ in 0..12 {
        steps += 1;
        first.press_key("ArrowRight");
    }
    let position = format!("step {} /", steps + 1);
    first.wait_for_text("[data-testid=position]", &position);
    first.wait_until(
        "the address is at the step",
        &format!("window.location.hash.endsWith('step={}')", steps + 1),
    );
    let address = first.location();
    let fragment = format!("#{}", address.split_once('#').unwrap().1);
    let shown = first.share_link();
    assert!(shown.ends_with(&fragment), "{shown} is the address");
    let expected = snapshot(&first);

    let second = LabPage::open(&fragment);
    second.wait_for_text("[data-testid=position]", &position);
    assert_eq!(snapshot(&second), expected);
    assert_eq!(
        second.evaluate("document.querySelector('[data-testid=seed]').value"),
        serde_json::json!("7")
    );
    assert!(!second.exists("[data-testid=error]"), "no error banner");
    assert_eq!(
        second.count(".diagram .step .item"),
        first.count(".diagram .step .item"),
        "the same diagram"
    );
    second.screenshot("share-link-opened");
    assert_eq!(first.console_errors(), Vec::<String>::new());
    assert_eq!(second.console_errors(), Vec::<String>::new());
}
