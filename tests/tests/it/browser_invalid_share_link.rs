//! A malformed share link shows a clear error banner naming what is wrong, on a working page
//! (the first lesson), never a blank page; the link stays in the address for the learner to
//! read until they act.

use idempotency_lab::view::ShareLink;
use idempotency_lab_tests::browser::LabPage;

#[test]
fn a_malformed_link_shows_its_error_on_a_working_page() {
    for fragment in [
        "#v=1&s=no-such-lesson&seed=0&step=0",
        "#v=1&s=f01-duplicate-delivery&seed=banana&step=0",
        "#v=9&s=x",
    ] {
        let page = LabPage::open(fragment);
        let core_error = ShareLink::decode(fragment).unwrap_err().to_string();
        let banner = page.wait_for_text("[data-testid=error]", "cannot be opened");
        assert!(banner.contains(&core_error), "{banner:?} lacks {core_error:?}");
        // The page works: the first lesson is there and steps.
        page.wait_for_text("[data-testid=scenario-title]", "F1");
        assert!(page.location().ends_with(fragment), "the bad link stays in the address");
        if fragment.contains("banana") {
            page.screenshot("invalid-share-link");
        }
        page.click("[data-testid=step]");
        page.wait_for_text("[data-testid=position]", "step 1 / 1");
        page.click("[data-testid=error] .dismiss");
        page.wait_until(
            "the banner is gone",
            "document.querySelector('[data-testid=error]') === null",
        );
        assert_eq!(page.console_errors(), Vec::<String>::new());
    }
}
