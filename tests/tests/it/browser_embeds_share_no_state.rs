//! Two `<idempotency-lab>` embeds on one slide (`examples/embed.html`, served from `dist/` as
//! `cargo xtask serve` serves it): the same lesson naive beside idempotent, each opened at the
//! step its attribute names. Driven through real clicks, each moves alone: a fault injected in
//! one, or a step taken there, leaves the other exactly as it was. Neither writes the page's
//! address or local storage, and nothing is logged as an error.

use idempotency_lab_tests::browser::LabPage;

const NAIVE: &str = "#naive";
const IDEMPOTENT: &str = "#idempotent";
/// The `step` attribute of both embeds in `examples/embed.html`.
const FIRST_STEP: usize = 4;

/// The step an embed shows (the first number of its `step N / M`).
fn step_shown(page: &LabPage, embed: &str) -> usize {
    page.number(&format!("{embed} [data-testid=position]")) as usize
}

/// Everything an embed renders, to compare before and after the other one moved.
fn rendered(page: &LabPage, embed: &str) -> String {
    page.evaluate(&format!("document.querySelector('{embed}').innerHTML"))
        .as_str()
        .unwrap_or_else(|| panic!("{embed} renders nothing"))
        .to_owned()
}

/// Clicks `embed`'s Step button and waits for it to show the next step.
fn step(page: &LabPage, embed: &str) {
    let next = step_shown(page, embed) + 1;
    page.click(&format!("{embed} [data-testid=step]"));
    page.wait_for_text(&format!("{embed} [data-testid=position]"), &format!(" {next} /"));
}

#[test]
fn two_embeds_on_one_slide_move_independently() {
    let page = LabPage::open_path("examples/embed.html");
    for embed in [NAIVE, IDEMPOTENT] {
        page.wait_until(
            &format!("{embed} mounts"),
            &format!("document.querySelector('{embed} [data-testid=position]') !== null"),
        );
        assert_eq!(step_shown(&page, embed), FIRST_STEP, "{embed} opens at its step attribute");
    }
    assert_eq!(
        page.attribute(&format!("{NAIVE} [data-testid=pattern-P4]"), "data-mode").as_deref(),
        Some("naive")
    );
    assert_eq!(
        page.attribute(&format!("{IDEMPOTENT} [data-testid=pattern-P4]"), "data-mode").as_deref(),
        Some("idempotent")
    );

    // Step the naive embed until its message waits with a Duplicate button; the idempotent
    // one stays at its step, unchanged.
    let idempotent_before = rendered(&page, IDEMPOTENT);
    let duplicate = format!("{NAIVE} [data-testid=pending-message-0] [data-fault=F1]");
    for _ in 0..60 {
        if page.exists(&duplicate) {
            break;
        }
        step(&page, NAIVE);
    }
    assert!(page.exists(&duplicate), "the naive embed offers Duplicate on its message");
    let before_fault = step_shown(&page, NAIVE);
    page.click(&duplicate);
    page.wait_for_text(
        &format!("{NAIVE} [data-testid=position]"),
        &format!(" {} /", before_fault + 1),
    );
    page.wait_for_text(&format!("{NAIVE} [data-testid=current-step]"), "duplicate copy");
    assert_eq!(rendered(&page, IDEMPOTENT), idempotent_before, "the idempotent embed moved");
    assert_eq!(step_shown(&page, IDEMPOTENT), FIRST_STEP);

    // And the other way: a step in the idempotent embed leaves the naive one as it is.
    let naive_before = rendered(&page, NAIVE);
    step(&page, IDEMPOTENT);
    assert_eq!(step_shown(&page, IDEMPOTENT), FIRST_STEP + 1);
    assert_eq!(rendered(&page, NAIVE), naive_before, "the naive embed moved");

    // The host page keeps its address and its storage.
    assert_eq!(page.evaluate("location.hash"), serde_json::json!(""));
    assert_eq!(page.evaluate("localStorage.length"), serde_json::json!(0));
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
