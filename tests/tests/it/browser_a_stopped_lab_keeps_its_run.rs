//! An allocation the browser cannot give stops the wasm for good (the allocator's failure
//! aborts: a trap). The page says so in its language, keeps the run it showed below the
//! banner (made inert), and its Reload button starts the page again from its address.
//!
//! The memory is really exhausted: the test grows the page's own wasm memory until the browser
//! refuses more (4 GiB), then puts a 10,000-step run's link in the address, whose opening
//! allocates until an allocation fails. The run shown before stays on the page; Reload opens
//! the link the address holds, now with the whole memory free.

use std::time::Duration;

use idempotency_lab::view::{Language, ShareLink};
use idempotency_lab_tests::browser::LabPage;
use idempotency_lab_tests::long_run::{LONG_RUN_STEPS, long_scenario};

/// Grows the page's wasm memory until the browser refuses any more; its size in bytes.
const EXHAUST_MEMORY: &str = r#"(async () => {
  const glue = await import('./pkg/idempotency_lab_web.js');
  const memory = (await glue.default()).memory;
  for (let pages = 65536; pages >= 1; ) {
    try { memory.grow(pages); } catch (refused) { pages = Math.floor(pages / 2); }
  }
  return memory.buffer.byteLength;
})()"#;

/// The step the position shows (`step 3 / 40`, or the same in Russian), in the page.
const SHOWN: &str =
    "Number(document.querySelector('[data-testid=position]').textContent.match(/\\d+/)[0])";

fn a_stopped_lab_says_so_and_reloads_from_its_address(language: Language) {
    let (scenario, seed, simulation) = long_scenario();
    let long_link = ShareLink::new(&scenario, seed, Vec::new(), simulation.steps().len()).encode();
    let page = LabPage::open("");
    if language != Language::En {
        page.click(&format!("[data-testid=lang-{}]", language.code()));
    }
    for _ in 0..3 {
        page.click("[data-testid=step]");
    }
    page.wait_in_page("step 3 shows", &format!("{SHOWN} === 3"));
    let caption = page.text("[data-testid=current-step]");
    let bytes = page.evaluate(EXHAUST_MEMORY).as_u64().expect("the memory's size");
    assert!(bytes >= 1 << 31, "the browser gave the wasm only {bytes} bytes");

    page.evaluate(&format!("void (location.hash = {:?})", long_link.trim_start_matches('#')));
    page.wait_until_within(
        "an allocation fails and the lab stops",
        "document.querySelector('[data-testid=crashed]') !== null",
        Duration::from_secs(120),
    );
    let words = language.words();
    let banner = page.text("[data-testid=crashed]");
    assert!(banner.starts_with(words.build.crash_stopped), "{banner:?}");
    assert_eq!(page.text("[data-testid=crash-reload]"), words.build.crash_reload);
    assert_eq!(
        page.evaluate("document.activeElement?.dataset.testid ?? ''"),
        "crash-reload",
        "the focus is on Reload"
    );
    // The run shown before stays as it was, under an inert page.
    assert_eq!(page.step_shown(), 3, "the run is kept at the step it showed");
    assert_eq!(page.text("[data-testid=current-step]"), caption);
    assert_eq!(page.evaluate("document.querySelector('main').inert"), true);
    page.click("[data-testid=step]");
    assert_eq!(page.count("[data-testid=crashed]"), 1, "one banner, however many traps");
    assert_eq!(page.step_shown(), 3, "an inert page does not step");

    // Reload starts the page again from its address: the long run's link opens whole.
    page.evaluate("window.__labBeforeReload = true");
    page.click("[data-testid=crash-reload]");
    page.wait_until_within(
        "the page reloads and opens the link in its address",
        &format!(
            "window.__labBeforeReload === undefined && \
             document.querySelector('[data-testid=position]') !== null && {SHOWN} === {LONG_RUN_STEPS}"
        ),
        Duration::from_secs(120),
    );
    assert!(!page.exists("[data-testid=crashed]"));
}

#[test]
fn an_allocation_failure_stops_the_lab_with_a_banner_in_english() {
    a_stopped_lab_says_so_and_reloads_from_its_address(Language::En);
}

#[test]
fn an_allocation_failure_stops_the_lab_with_a_banner_in_russian() {
    a_stopped_lab_says_so_and_reloads_from_its_address(Language::Ru);
}
