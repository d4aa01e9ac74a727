//! The focus follows an opening (#32): after a share link pasted into the address or a trace
//! file picked opens, the step's caption has it (a polite live region, so a screen reader
//! reads the run's step); after a link or a file is refused, the error banner has it (an
//! alert, focusable), so the learner reads why; never `<body>`.

use idempotency_lab::sim::{PatternMode, Simulation, catalogue_scenario};
use idempotency_lab_tests::browser::{LabPage, scratch_dir};

const CAPTION: &str = "[data-testid=current-step]";
const ERROR: &str = "[data-testid=error]";

/// Waits until the focus is on `selector`.
fn wait_for_focus(page: &LabPage, what: &str, selector: &str) {
    let probe = format!(
        "(() => {{ const element = document.activeElement; \
         return !!element && element !== document.body && element.matches({selector:?}); }})()"
    );
    page.wait_until(&format!("after {what}, the focus on {selector}"), &probe);
}

#[test]
fn an_opened_file_or_link_focuses_the_caption_and_a_refused_one_the_error_banner() {
    let page = LabPage::open("");

    page.evaluate("location.hash = '#v=2&s=f01-duplicate-delivery&seed=0&p=nnnn&step=5'; true");
    page.wait_for_text("[data-testid=position]", "step 5 /");
    wait_for_focus(&page, "a link opened", CAPTION);
    assert_eq!(page.attribute(CAPTION, "aria-live").as_deref(), Some("polite"));

    page.evaluate("location.hash = '#v=2&s=no-such-scenario&seed=0&p=nnnn&step=1'; true");
    page.wait_until("the error banner", "!!document.querySelector('[data-testid=error]')");
    wait_for_focus(&page, "a link refused", ERROR);
    assert_eq!(page.attribute(ERROR, "role").as_deref(), Some("alert"));
    page.click("[data-testid=error] button");

    let files = scratch_dir("focus-after-opening");
    let scenario = catalogue_scenario("f04-concurrent-delivery").unwrap();
    let trace = Simulation::run(scenario.with_mode(PatternMode::Naive), 3).unwrap();
    let trace_file = files.join("concurrent.trace.json");
    std::fs::write(&trace_file, trace.to_json()).unwrap();
    page.set_input_files("[data-testid=import]", &[&trace_file]);
    let total = trace.steps.len();
    page.wait_for_text("[data-testid=position]", &format!("step {total} / {total}"));
    wait_for_focus(&page, "a trace file opened", CAPTION);

    let malformed_file = files.join("broken.json");
    std::fs::write(&malformed_file, "{\"format_version\": 1, \"title\": 5}").unwrap();
    page.set_input_files("[data-testid=import]", &[&malformed_file]);
    page.wait_until("the error banner", "!!document.querySelector('[data-testid=error]')");
    wait_for_focus(&page, "a malformed file", ERROR);
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
