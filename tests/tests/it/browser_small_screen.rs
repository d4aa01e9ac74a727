//! The page on a 390x844 phone: the run is a vertical list of steps instead of the diagram
//! (the same steps, what each drew, the pending items with their fault buttons), nothing is
//! wider than the screen, the language switch does not cover the title, and the stock table
//! shows `available_qty` without a scroll. A duplicate injected from the list breaks the
//! naive shop as it does from the diagram. Screenshots in both languages.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::PatternMode;
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "f03-crash-before-commit";

/// What must hold on the phone whatever the run shows: no horizontal scroll, the title
/// clear of the language switch, the step list on screen instead of the diagram.
fn assert_fits_the_phone(page: &LabPage) {
    assert_eq!(page.overflow().0, 0, "the page is wider than the phone");
    assert!(!page.exists(".diagram-box svg"), "the phone shows the list, not the diagram");
    assert!(!page.exists(".step-list.visually-hidden"), "the step list is on screen");
    let overlap = page.evaluate(
        "(() => { const a = document.querySelector('.lab-header h1').getBoundingClientRect(); \
         const b = document.querySelector('.lab-header .language').getBoundingClientRect(); \
         return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; })()",
    );
    assert_eq!(overlap, serde_json::Value::Bool(false), "the language switch covers the title");
    // Nothing sticks out to the right of the screen.
    let wide = page.evaluate(
        "Array.from(document.querySelectorAll('.lab *')).filter(element => { \
           const box = element.getBoundingClientRect(); \
           return box.width > 0 && box.right > window.innerWidth + 1 && !element.closest('.visually-hidden'); \
         }).map(element => element.className || element.tagName).slice(0, 5).join(', ')",
    );
    assert_eq!(wide, "", "elements wider than the phone");
}

#[test]
fn on_a_phone_the_run_is_a_list_of_steps_with_its_fault_buttons_and_nothing_overflows() {
    let page = LabPage::open("");
    page.set_viewport(390, 844, true);
    page.wait_until(
        "the step list shows",
        "!!document.querySelector('.step-list:not(.visually-hidden)')",
    );
    assert_fits_the_phone(&page);
    page.open_lesson(LESSON, PatternMode::Naive);

    // Step until the message waits in the broker, with its fault buttons in the list.
    page.step_until("[data-testid=step-list-pending] [data-fault=F1]", 60);
    let steps = page.count(".step-list .step-entry");
    assert_eq!(steps, page.step_shown(), "one entry per step");
    page.inject_on("[data-testid=step-list-pending]", FaultClass::F1);
    page.wait_for_text(".step-entry.current", "duplicate copy");
    assert_eq!(
        page.attribute(".step-entry.current", "aria-current").as_deref(),
        Some("step"),
        "the list says which step is current"
    );
    let steps_total = {
        page.click("[data-testid=run-to-end]");
        page.wait_for_text("[data-testid=current-step]", "run ended");
        page.step_shown()
    };
    assert_eq!(
        page.attribute("[data-testid=invariant-I2]", "data-state").as_deref(),
        Some("broken")
    );
    let violated = page.texts(".step-list .step-item.alarm");
    assert!(violated.iter().any(|text| text.contains("I2")), "the list marks I2: {violated:?}");
    assert_eq!(page.count(".step-list .step-entry"), steps_total.min(60));

    // Readable: the list's text is at least 14 px, and the current step is on screen in it.
    let smallest = page.smallest_text_px(".step-list .step-entry *").unwrap();
    assert!(smallest >= 14.0, "the step list's text is {smallest:.1} px");
    page.evaluate(
        "document.querySelector('.step-entry.current').scrollIntoView({ block: 'nearest' }), true",
    );
    page.wait_in_view(".step-entry.current");

    // The stock table shows every column, available_qty too, without a scroll of its own.
    page.evaluate("document.querySelector('[data-testid=table-stock]').scrollIntoView(), true");
    page.wait_in_view("[data-testid=table-stock] th:last-child");
    assert_eq!(page.text("[data-testid=table-stock] th:last-child"), "available_qty");
    let table_scrolls = page.evaluate(
        "(() => { const figure = document.querySelector('[data-testid=table-stock]'); \
         return figure.scrollWidth > figure.clientWidth; })()",
    );
    assert_eq!(table_scrolls, serde_json::Value::Bool(false), "the stock table scrolls sideways");
    assert_fits_the_phone(&page);
    page.evaluate("window.scrollTo(0, 0), true");
    page.screenshot("phone-390x844-en");
    page.evaluate("document.querySelector('.step-list').scrollIntoView(), true");
    page.screenshot("phone-390x844-en-steps");

    page.click("[data-testid=lang-ru]");
    let position = idempotency_lab::view::Language::Ru.words().labels.ui_position;
    page.wait_for_text("[data-testid=position]", &format!("{position} {steps_total} /"));
    assert_fits_the_phone(&page);
    page.evaluate("window.scrollTo(0, 0), true");
    page.screenshot("phone-390x844-ru");
    page.evaluate("document.querySelector('.step-list').scrollIntoView(), true");
    page.screenshot("phone-390x844-ru-steps");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
