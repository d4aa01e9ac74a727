//! The monkey: 300 random actions on a fixed seed (buttons, selects, the slider, keys, the seed
//! field, the check panel, and the import of files whose title holds `<script>` and an
//! `<img onerror>`), and after each one no console error, a page that still answers with its
//! controls, and no injected HTML. A failure prints the seed and every action up to it;
//! `cargo run -p idempotency-lab-tests --bin monkey` runs 1,000. The monkey's checks are shown
//! to fail: on a page where HTML is injected the way a title rendered as HTML would be, where a
//! script ran, where a control is gone, and where the console has an error.

use idempotency_lab_tests::browser::LabPage;
use idempotency_lab_tests::monkey::{INJECTION, Monkey, run_on_fresh_page};

const SEED: u64 = 11;
const ACTIONS: usize = 300;

#[test]
fn three_hundred_random_actions_leave_the_page_well() {
    match run_on_fresh_page(SEED, ACTIONS, "test") {
        Ok(report) => {
            eprintln!("measured: {report}");
            assert_eq!(report.actions, ACTIONS);
            assert_eq!(report.log.len(), ACTIONS);
        }
        Err(failure) => panic!("{failure}"),
    }
}

/// Asserts that the monkey's check fails, naming `needle`, after `damage` (JavaScript) is done
/// to the page; then `repair` puts it back and the check passes again.
fn expect_caught(page: &LabPage, monkey: &Monkey, damage: &str, needle: &str, repair: &str) {
    page.evaluate(&format!("{damage}; true"));
    let problem = monkey.check().expect_err(&format!("the check misses {damage}"));
    assert!(problem.contains(needle), "after {damage}: {problem:?} lacks {needle:?}");
    page.evaluate(&format!("{repair}; true"));
    monkey.check().unwrap_or_else(|problem| panic!("after {repair}: {problem}"));
}

#[test]
fn the_monkeys_checks_catch_a_console_error_a_lost_control_and_injected_html() {
    let page = LabPage::open("");
    let monkey = Monkey::new(&page, SEED, "self-test");
    monkey.check().expect("the page as opened is well");

    // A console error fails the check after which it was logged (and only that one).
    page.evaluate("console.error('monkey self-test'); true");
    let problem = monkey.check().expect_err("the check misses a console error");
    assert!(
        problem.contains("console errors") && problem.contains("monkey self-test"),
        "{problem}"
    );
    monkey.check().expect("the console error was reported once");

    expect_caught(
        &page,
        &monkey,
        "window.__gap = document.createElement('span'); window.__slider = document.querySelector('[data-testid=slider]'); window.__slider.replaceWith(window.__gap)",
        "no [data-testid=slider] in the app",
        "window.__gap.replaceWith(window.__slider)",
    );
    expect_caught(
        &page,
        &monkey,
        "window.__pwned = 1",
        "injected script ran",
        "delete window.__pwned",
    );
    expect_caught(
        &page,
        &monkey,
        "document.body.append(Object.assign(document.createElement('script'), { type: 'text/plain' }))",
        "script element(s) more than it loaded",
        "document.body.lastElementChild.remove()",
    );

    // The title rendered as HTML, not as text: its image and script become elements; the
    // image's load of `x` fails (a console error), and its onerror runs.
    let title = "document.querySelector('[data-testid=scenario-title]')";
    let saved = page.evaluate(&format!("{title}.textContent"));
    let saved = saved.as_str().unwrap();
    page.evaluate(&format!("{title}.innerHTML = {:?}; true", format!("Monkey {INJECTION}")));
    let problem = monkey.check().expect_err("the check misses a title rendered as HTML");
    assert!(problem.contains("HTML injected into the page: <img"), "{problem}");
    assert!(problem.contains("[data-testid=scenario-title] holds an element"), "{problem}");
    page.wait_until("the injected image's onerror runs", "window.__pwned === 1");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !page.console_errors().iter().any(|error| error.contains("/x")) {
        assert!(std::time::Instant::now() < deadline, "the failed load of x is never logged");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let later = monkey.check().expect_err("the check misses the script that ran");
    assert!(later.contains("window.__pwned is 1"), "{later}");
    assert!(
        [&problem, &later].iter().any(|p| p.contains("console errors") && p.contains("/x")),
        "neither check reports the failed load: {problem:?}, {later:?}"
    );
    page.evaluate(&format!("{title}.textContent = {saved:?}; delete window.__pwned; true"));
    monkey.check().expect("the title is text again");
}
