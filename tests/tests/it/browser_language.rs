//! The EN / RU switch: a real click turns the lesson's title and paragraph, the main labels and
//! the invariants' titles Russian (the very texts of the core and of the page's label table),
//! the choice survives a reload (local storage), and a click on EN turns it all back.

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{CATALOGUE, catalogue_scenario};
use idempotency_lab::view::Language;
use idempotency_lab::view::lesson_text;
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "f01-duplicate-delivery";

/// What the page must show in `language`: the lesson's title and paragraph, the step
/// button, the position, and invariant I2's title.
fn assert_page_in(page: &LabPage, language: Language) {
    let lesson = lesson_text(&catalogue_scenario(LESSON).unwrap(), language);
    page.wait_for_text("[data-testid=scenario-title]", &lesson.title);
    assert_eq!(page.text("[data-testid=scenario-title]"), lesson.title);
    assert_eq!(page.text("[data-testid=scenario-description]"), lesson.description);
    let words = language.words();
    let (step, position, all_naive, lang) = (
        words.labels.ui_step,
        format!("{} 0 / 0", words.labels.ui_position),
        words.labels.ui_all_naive,
        language.code(),
    );
    assert_eq!(page.text("[data-testid=step]"), step);
    assert_eq!(page.text("[data-testid=position]"), position);
    assert_eq!(page.text("[data-testid=all-naive]"), all_naive);
    assert_eq!(page.evaluate("document.documentElement.lang"), lang);
    let i2 = page.text("[data-testid=invariant-I2]");
    assert!(i2.contains(InvariantId::I2.title_in(language)), "{i2:?}");
    assert_eq!(
        page.attribute("[data-testid=invariant-I2]", "title").as_deref(),
        Some(InvariantId::I2.description_in(language))
    );
    for code in ["en", "ru"] {
        let pressed = if code == lang { "true" } else { "false" };
        assert_eq!(
            page.attribute(&format!("[data-testid=lang-{code}]"), "aria-pressed").as_deref(),
            Some(pressed)
        );
    }
}

#[test]
fn the_language_switch_turns_the_lesson_and_the_labels_russian_and_stays_after_a_reload() {
    assert_eq!(CATALOGUE[0].id, LESSON, "the page opens with this lesson");
    let page = LabPage::open("");
    assert_page_in(&page, Language::En);

    page.click("[data-testid=lang-ru]");
    assert_page_in(&page, Language::Ru);
    let f01 = catalogue_scenario("f01-duplicate-delivery").unwrap();
    assert_eq!(page.text("[data-testid=scenario-title]"), lesson_text(&f01, Language::Ru).title);
    page.screenshot("language-ru");

    // A reload (a new document: the marker is gone) opens in Russian again.
    page.evaluate("window.beforeReload = true");
    page.reload(false);
    page.wait_until("the page reloaded", "window.beforeReload === undefined");
    assert_page_in(&page, Language::Ru);

    // Another lesson is Russian too, and the run's controls still work.
    page.set_value("[data-testid=scenario]", "p3-idempotency-key");
    let p3 = lesson_text(&catalogue_scenario("p3-idempotency-key").unwrap(), Language::Ru);
    page.wait_for_text("[data-testid=scenario-title]", &p3.title);
    assert_eq!(page.text("[data-testid=scenario-description]"), p3.description);
    page.click("[data-testid=step]");
    let ru = Language::Ru.words();
    page.wait_for_text("[data-testid=position]", &format!("{} 1 /", ru.labels.ui_position));
    let caption = format!("{} 1 ({} ", ru.labels.ui_step_caption, ru.labels.ui_tick);
    assert!(page.text("[data-testid=current-step]").starts_with(&caption));

    page.set_value("[data-testid=scenario]", LESSON);
    page.click("[data-testid=lang-en]");
    assert_page_in(&page, Language::En);
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
