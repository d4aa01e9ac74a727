//! The comparison view runs the lesson's schedule with both twins side by side and marks what
//! differs: the invariants only the naive twin breaks, and the rows that differ at the end, as
//! the core's comparison says; in Russian, in the core's Russian words.

use idempotency_lab::sim::catalogue_scenario;
use idempotency_lab::view::{CompareInput, compare};
use idempotency_lab_tests::browser::LabPage;

#[test]
fn the_comparison_marks_the_invariants_and_rows_that_differ() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=scenario-title]", "F1");
    page.click("[data-testid=compare-toggle]");
    page.wait_for_text("[data-testid=compare-verdict]", "Broken only by the naive twin");

    let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let comparison = compare(&CompareInput::focus(
        scenario.with_mode(idempotency_lab::sim::PatternMode::Naive),
        0,
        Vec::new(),
    ))
    .unwrap();
    assert!(!comparison.naive_only.is_empty());
    for id in &comparison.naive_only {
        let naive = format!("[data-testid=compare-naive-{id}]");
        let idempotent = format!("[data-testid=compare-idempotent-{id}]");
        assert_eq!(page.attribute(&naive, "data-state").as_deref(), Some("broken"), "{id}");
        assert_eq!(page.attribute(&idempotent, "data-state").as_deref(), Some("ok"), "{id}");
        assert!(page.attribute(&naive, "class").unwrap().contains("differs"));
    }
    let verdict = page.text("[data-testid=compare-verdict]");
    assert!(
        verdict.contains(&format!("differ at the end: {}", comparison.row_differences.len())),
        "{verdict}"
    );
    assert!(!comparison.row_differences.is_empty());
    assert!(page.count("[data-testid=compare-naive] tr.differs") > 0, "naive rows marked");
    assert!(
        page.count("[data-testid=compare-idempotent] tr.differs") > 0,
        "idempotent rows marked"
    );
    page.evaluate("document.querySelector('[data-testid=compare]').scrollIntoView(), true");
    page.screenshot("compare-view");
    // In Russian, the same comparison in the core's Russian words.
    let ru = idempotency_lab::view::Language::Ru.words();
    page.click("[data-testid=lang-ru]");
    page.wait_for_text(
        "[data-testid=compare-verdict]",
        ru.course.cmp_verdict.split(':').next().unwrap(),
    );
    assert_eq!(page.text("[data-testid=compare] h2"), ru.course.cmp_heading);
    let naive_heading = page.text("[data-testid=compare-naive] h3");
    assert!(
        naive_heading.starts_with(ru.course.cmp_side_naive.split('{').next().unwrap()),
        "{naive_heading}"
    );
    page.screenshot("compare-view-ru");
    page.click("[data-testid=lang-en]");
    page.wait_for_text("[data-testid=compare-verdict]", "Broken only by the naive twin");
    page.click("[data-testid=compare-toggle]");
    page.wait_until(
        "the comparison closes",
        "document.querySelector('[data-testid=compare]') === null",
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
