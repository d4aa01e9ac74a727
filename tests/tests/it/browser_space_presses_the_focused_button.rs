//! Space presses the focused button, as in any web page; it plays or pauses only when no
//! control has focus.

use idempotency_lab_tests::browser::LabPage;

#[test]
fn space_on_a_focused_button_presses_it_and_elsewhere_plays() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.evaluate("document.querySelector('[data-testid=step]').focus(), true");
    page.tab.press_key(" ").unwrap();
    page.wait_for_text("[data-testid=position]", "step 1 /");
    assert_eq!(page.text("[data-testid=play]").trim(), "▶▶ Play", "Space did not play");
    page.evaluate("document.querySelector('[data-testid=step]').focus(), true");
    page.tab.press_key(" ").unwrap();
    page.wait_for_text("[data-testid=position]", "step 2 /");

    // With nothing focused, Space plays, and again pauses.
    page.press_key(" ");
    page.wait_for_text("[data-testid=play]", "Pause");
    page.press_key(" ");
    page.wait_for_text("[data-testid=play]", "Play");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
