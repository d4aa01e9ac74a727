//! The decisive moments on the diagram: P4's lesson, all idempotent, run to its end draws the
//! inbox duplicate as a callout at the step the core derives, with its headline and why, and
//! the step list says the same; after the language switch the callout speaks Russian.

use idempotency_lab::sim::{PatternMode, Simulation, catalogue_scenario};
use idempotency_lab::view::{Language, MomentKind, moments};
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "p4-inbox-consumer";

/// The text content of the first element matching `selector` (SVG text has no `innerText`).
fn text_content(page: &LabPage, selector: &str) -> String {
    page.evaluate(&format!("document.querySelector({selector:?})?.textContent ?? ''"))
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn the_inbox_duplicate_is_a_callout_with_its_headline_in_english_and_in_russian() {
    let scenario = catalogue_scenario(LESSON).unwrap().with_all_patterns(PatternMode::Idempotent);
    let trace = Simulation::run(scenario, 0).unwrap();
    let duplicate = moments(&trace.steps)
        .into_iter()
        .find(|moment| moment.kind == MomentKind::InboxDuplicate)
        .expect("the lesson's second copy meets the inbox");
    // Drawn on the inbox insert that met the key (33), not on the ACK (34) that carries it.
    assert_eq!(duplicate.step, 33, "the golden trace's step");
    let statement = trace.steps[duplicate.step - 1].statement.as_deref().unwrap_or_default();
    assert!(statement.starts_with("INSERT INTO inbox"), "{statement}");

    let page = LabPage::open("");
    page.open_lesson(LESSON, PatternMode::Idempotent);
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=current-step]", "run ended: nothing left to do");

    let callout =
        format!(".diagram [data-step='{}'] [data-moment=inbox_duplicate]", duplicate.step);
    assert_eq!(page.count(&callout), 1, "one callout at step {}", duplicate.step);
    assert_eq!(page.count(".diagram [data-moment]"), 1, "the run's only moment");
    let headline = format!("{callout} .moment-headline");
    assert_eq!(text_content(&page, &headline), MomentKind::InboxDuplicate.headline(Language::En));
    assert_eq!(
        text_content(&page, &format!("{callout} .moment-why")),
        MomentKind::InboxDuplicate.why(Language::En)
    );
    let listed = text_content(
        &page,
        &format!(".step-list [data-step='{}'] [data-moment=inbox_duplicate]", duplicate.step),
    );
    assert!(listed.contains(MomentKind::InboxDuplicate.headline(Language::En)), "{listed:?}");
    let in_view =
        format!("document.querySelector({callout:?}).scrollIntoView({{ block: 'center' }}), true");
    page.evaluate(&in_view);
    page.screenshot("moment-inbox-duplicate-en");

    page.click("[data-testid=lang-ru]");
    let russian = MomentKind::InboxDuplicate.headline(Language::Ru);
    page.wait_until(
        "the callout speaks Russian",
        &format!("document.querySelector({headline:?})?.textContent === {russian:?}"),
    );
    assert_eq!(
        text_content(&page, &format!("{callout} .moment-why")),
        MomentKind::InboxDuplicate.why(Language::Ru)
    );
    page.evaluate(&in_view);
    page.screenshot("moment-inbox-duplicate-ru");
    page.click("[data-testid=lang-en]");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
