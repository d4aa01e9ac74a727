//! axe-core (from the npm registry, in headless Chromium) finds no WCAG 2 A or AA violation in
//! the page: wide, in the presenter view at 1280x720, on a 390x844 phone, in both languages,
//! with a run under way (pending items and their fault buttons on screen).

use idempotency_lab::view::Language;
use idempotency_lab_tests::browser::LabPage;

fn check(page: &LabPage, what: &str) {
    let violations = page.axe_violations();
    assert!(violations.is_empty(), "{what}: {violations:#?}");
}

#[test]
fn axe_finds_no_violation_wide_in_the_presenter_view_and_on_a_phone() {
    let page = LabPage::open("#v=2&s=f01-duplicate-delivery&seed=0&p=nnnn&step=12");
    page.wait_for_text("[data-testid=position]", "step 12 /");
    check(&page, "wide, English");
    page.click("[data-testid=lang-ru]");
    page.wait_for_text(
        "[data-testid=position]",
        &format!("{} 12 /", Language::Ru.words().labels.ui_position),
    );
    check(&page, "wide, Russian");
    page.set_viewport(1280, 720, false);
    page.click("[data-testid=presenter-toggle]");
    page.wait_until("the presenter view is on", "!!document.querySelector('.lab.presenter')");
    check(&page, "presenter, Russian");
    page.click("[data-testid=presenter-toggle]");
    page.set_viewport(390, 844, true);
    page.wait_until(
        "the step list shows",
        "!!document.querySelector('.step-list:not(.visually-hidden)')",
    );
    check(&page, "phone, Russian");
    page.click("[data-testid=lang-en]");
    page.wait_for_text("[data-testid=position]", "step 12 /");
    check(&page, "phone, English");
}
