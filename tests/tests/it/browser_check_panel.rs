//! The check and fuzz panel, by real clicks: an exhaustive check of the naive first lesson
//! finds the shortest counterexample and opens it in the diagram at the violating step; the
//! idempotent twin is proved; a big check, held between two slices, is cancelled and the page
//! still responds; a small limit bounds a check; the two-message reference scenario is proved
//! in the page; the fuzzer finds and shrinks the naive failure. Every expected figure comes from the core, run natively with the inputs the
//! page gives it (same code, so the same numbers). Each part opens its own page, so the parts
//! run side by side.

use std::time::Duration;

use idempotency_lab::check::{
    CheckConfig, CheckOutcome, CheckReport, Checker, FaultBudget,
    two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{FiredFaults, PatternMode, Scenario, catalogue_scenario};
use idempotency_lab::testing::{FuzzConfig, FuzzRun, lesson_cases};
use idempotency_lab::view::first_break;
use idempotency_lab_tests::browser::LabPage;

use crate::fixtures;

const LESSON: &str = "f01-duplicate-delivery";
/// The panel's default limit of unique states.
const STATES_MAX: usize = 100_000;
/// How long a check in the page may take on a busy machine.
const CHECK_TIMEOUT: Duration = Duration::from_secs(300);

/// The lesson as the page runs it after "All naive" / "All idempotent".
fn lesson(mode: PatternMode) -> Scenario {
    catalogue_scenario(LESSON).unwrap().with_mode(mode)
}

/// The check the panel runs for "this run" with "the lesson's faults, one each".
fn native_check(mode: PatternMode) -> CheckReport {
    let scenario = lesson(mode);
    assert_eq!(scenario.fault_classes(), [FaultClass::F1], "the lesson's faults are one F1");
    let config = CheckConfig {
        states_max: STATES_MAX,
        faults: FaultBudget::of(&[(FaultClass::F1, 1)]),
        ..two_consumers_duplicate_and_crash_config()
    };
    Checker::new(scenario, 0, config).unwrap().run_to_end(&mut |_| {}).unwrap()
}

fn stats_text(report: &CheckReport) -> String {
    format!(
        "{} states explored, {} unique, depth {}",
        report.stats.states_explored, report.stats.unique_states, report.stats.depth_reached
    )
}

fn wait_for_kind(page: &LabPage, kind: &str) {
    page.wait_until_within(
        &format!("the panel's result is {kind}"),
        &format!("document.querySelector('[data-testid=check-result]')?.dataset.kind === {kind:?}"),
        CHECK_TIMEOUT,
    );
}

/// Scrolls the panel into view and saves a screenshot of the page.
fn panel_screenshot(page: &LabPage, name: &str) {
    page.evaluate("document.querySelector('[data-testid=check-panel]').scrollIntoView(), true");
    page.screenshot(name);
}

/// Whether the button matching `selector` is disabled.
fn disabled(page: &LabPage, selector: &str) -> bool {
    page.evaluate(&format!("document.querySelector({selector:?}).disabled")).as_bool().unwrap()
}

/// The page open with the lesson in `mode` and the check panel shown.
fn open_panel(mode: PatternMode) -> LabPage {
    let page = LabPage::open("");
    page.open_lesson(LESSON, mode);
    page.click("[data-testid=check-toggle]");
    page.wait_for_text("[data-testid=check-what]", "Will check f01-duplicate-delivery");
    page
}

/// Picks the panel's target, budget and limit, and waits until its summary line shows them.
fn choose(page: &LabPage, target: &str, budget: &str, limit: usize, shown: &str) {
    page.set_value("[data-testid=check-target]", target);
    page.set_value("[data-testid=check-budget]", budget);
    page.set_value("[data-testid=check-limit]", &limit.to_string());
    page.wait_for_text("[data-testid=check-what]", shown);
}

/// The panel's state, read in one evaluation (so no slice of the check runs between the
/// reads): its status, the result's kind, and whether Run and Cancel are disabled.
#[derive(Debug, PartialEq)]
struct PanelState {
    status: String,
    kind: Option<String>,
    run_disabled: bool,
    cancel_disabled: bool,
}

fn panel_state(page: &LabPage) -> PanelState {
    let value = page.evaluate(
        "JSON.stringify({ \
           status: document.querySelector('[data-testid=check-panel]').dataset.status, \
           kind: document.querySelector('[data-testid=check-result]')?.dataset.kind ?? null, \
           run: document.querySelector('[data-testid=check-run]').disabled, \
           cancel: document.querySelector('[data-testid=check-cancel]').disabled })",
    );
    let state: serde_json::Value = serde_json::from_str(value.as_str().unwrap()).unwrap();
    PanelState {
        status: state["status"].as_str().unwrap().to_owned(),
        kind: state["kind"].as_str().map(str::to_owned),
        run_disabled: state["run"].as_bool().unwrap(),
        cancel_disabled: state["cancel"].as_bool().unwrap(),
    }
}

/// The summary of a proof with `report`'s figures.
fn proved_text(report: &CheckReport) -> String {
    format!(
        "Proved: {} states ({} unique), depth {}. Every interleaving keeps every invariant.",
        report.stats.states_explored, report.stats.unique_states, report.stats.depth_reached
    )
}

#[test]
fn the_lesson_check_finds_the_naive_counterexample_and_proves_the_idempotent_twin() {
    let page = open_panel(PatternMode::Naive);
    assert_eq!(
        page.text("[data-testid=check-what]"),
        "Will check f01-duplicate-delivery (P1 naive, P2 naive, P3 naive, P4 naive), seed 0, \
         faults F1 ×1, limit 100000 unique states."
    );
    assert!(
        disabled(&page, "[data-testid=check-cancel]"),
        "[data-testid=check-cancel] is disabled"
    );

    // The naive lesson: a violation on one of the shortest paths.
    let naive = native_check(PatternMode::Naive);
    let CheckOutcome::Violated(counterexample) = &naive.outcome else {
        panic!("the naive lesson must break: {:?}", naive.outcome)
    };
    let violated: Vec<InvariantId> =
        counterexample.violations.iter().map(|violation| violation.invariant).collect();
    assert_eq!(violated, [InvariantId::I2]);
    let shortest = counterexample.path.len();
    page.click("[data-testid=check-run]");
    wait_for_kind(&page, "violated");
    assert_eq!(
        page.text("[data-testid=check-summary]"),
        format!(
            "Violated: I2 {}; shortest path {shortest} steps ({}).",
            InvariantId::I2.title(),
            stats_text(&naive)
        )
    );
    let sentence = &counterexample.violations[0].sentence;
    assert!(page.text("[data-testid=check-result]").contains(sentence.as_str()));
    assert!(!disabled(&page, "[data-testid=check-run]"), "[data-testid=check-run] is enabled");
    panel_screenshot(&page, "check-panel-violated");

    // Open in the diagram: the counterexample's run, at the step that broke I2.
    let steps_total = counterexample.trace.steps.len();
    page.click("[data-testid=open-counterexample]");
    page.wait_for_text("[data-testid=position]", &format!("step {shortest} / {steps_total}"));
    assert_eq!(
        page.attribute("[data-testid=invariant-I2]", "data-state").as_deref(),
        Some("broken")
    );
    assert!(page.text("[data-testid=invariant-I2]").contains(sentence.as_str()));
    assert!(page.exists(".diagram .step.current"), "the violating step is highlighted");
    page.screenshot("check-panel-counterexample-open");

    // The idempotent twin: proved, with exactly the core's state count.
    let idempotent = native_check(PatternMode::Idempotent);
    assert_eq!(idempotent.outcome, CheckOutcome::Proved);
    page.open_lesson(LESSON, PatternMode::Idempotent);
    let started = std::time::Instant::now();
    page.click("[data-testid=check-run]");
    wait_for_kind(&page, "proved");
    let elapsed = started.elapsed();
    eprintln!(
        "measured: the page proved {} states in {:.2} s ({:.0} states/s, polling included)",
        idempotent.stats.states_explored,
        elapsed.as_secs_f64(),
        idempotent.stats.states_explored as f64 / elapsed.as_secs_f64()
    );
    assert_eq!(page.text("[data-testid=check-summary]"), proved_text(&idempotent));

    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// Wraps `setTimeout` and `MessagePort.postMessage` so that, while
/// `window.__labSliceGate.closed`, a callback asked for with no delay, or a message posted,
/// waits in `window.__labSliceGate.held` instead of being scheduled;
/// `window.__labSliceGate.open()` schedules the held ones and lets every later one through. The
/// check panel yields to the browser between two slices with a message to a fresh
/// `MessageChannel` (or, without one, a zero-delay timeout), so a closed gate parks a running
/// check between two slices, where Cancel and clicks are handled.
const SLICE_GATE: &str = "(() => {
    const set = window.setTimeout.bind(window);
    const gate = { closed: true, held: [] };
    gate.release = () => {
        const run = gate.held.shift();
        if (run) set(run, 0);
        return true;
    };
    gate.open = () => {
        gate.closed = false;
        for (const run of gate.held.splice(0)) set(run, 0);
        return true;
    };
    window.setTimeout = (handler, ms, ...args) => {
        if (gate.closed && !ms) { gate.held.push(() => handler(...args)); return 0; }
        return set(handler, ms, ...args);
    };
    // A check yields between slices by a message to a fresh MessageChannel (the page's
    // `yield_to_browser`): held the same way.
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (...args) {
        if (gate.closed) { gate.held.push(() => post.apply(this, args)); return; }
        return post.apply(this, args);
    };
    window.__labSliceGate = gate;
    return true;
})()";

/// The figures of the panel's progress line ("unique states stored: U of the L-state limit ·
/// E explored · depth D · frontier F") as the summary of a cancelled check words them.
fn progress_as_stats_text(page: &LabPage) -> String {
    let progress = page.text("[data-testid=check-progress]");
    let figures: Vec<u64> = progress
        .split(|c: char| !c.is_ascii_digit())
        .filter(|digits| !digits.is_empty())
        .map(|digits| digits.parse().unwrap())
        .collect();
    let [unique, _limit, explored, depth, _frontier] = figures[..] else {
        panic!("unexpected progress line {progress:?}");
    };
    format!("{explored} states explored, {unique} unique, depth {depth}")
}

#[test]
fn a_big_check_is_cancelled_and_the_page_answers_throughout() {
    // The two-order reference: 145 888 states, far more than one slice of 12 ms explores.
    // The gate holds the check after its first slice, so it is running when the test clicks
    // Step and Cancel however fast the machine is, and no slice runs between Cancel and the
    // moment the test opens the gate: the cancelled check reports exactly the progress shown.
    let page = open_panel(PatternMode::Idempotent);
    choose(
        &page,
        "reference-two-orders",
        "f1-f2",
        1_000_000,
        "faults F1 ×1 + F2 ×1, limit 1000000",
    );
    page.evaluate(SLICE_GATE);
    page.click("[data-testid=check-run]");
    // The page queues zero-delay tasks of its own beside the check's (the start of the check's
    // task among them): the gate lets the held tasks through one at a time until the check's
    // first slice has run and its next one waits at the gate.
    let first_slice_ran = "window.__labSliceGate.held.length >= 1 \
         && / [1-9][0-9]* explored/.test(document.querySelector('[data-testid=check-progress]')?.innerText ?? '')";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while page.evaluate(first_slice_ran) != serde_json::Value::Bool(true) {
        assert!(
            std::time::Instant::now() < deadline,
            "the check's first slice never ran: {}",
            page.text("[data-testid=check-progress]")
        );
        page.evaluate("window.__labSliceGate.release()");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let running = panel_state(&page);
    assert_eq!(
        running,
        PanelState {
            status: "running".to_owned(),
            kind: None,
            run_disabled: true,
            cancel_disabled: false
        },
        "Run is disabled and Cancel enabled while the check runs"
    );
    panel_screenshot(&page, "check-panel-running");
    let progress = progress_as_stats_text(&page);
    // The page answers between two slices of the check: a step of the run is taken.
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", "step 1 /");
    page.click("[data-testid=check-cancel]");
    page.evaluate("window.__labSliceGate.open()");
    wait_for_kind(&page, "cancelled");
    let summary = page.text("[data-testid=check-summary]");
    assert_eq!(summary, format!("Cancelled after {progress}: no verdict."));
    assert_eq!(
        panel_state(&page),
        PanelState {
            status: "done".to_owned(),
            kind: Some("cancelled".to_owned()),
            run_disabled: false,
            cancel_disabled: true
        }
    );
    assert!(!page.exists("[data-testid=check-progress]"), "no progress once it ended");
    // Stopped for real: the result stays as it was, and the page answers a click at once.
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", "step 2 /");
    assert_eq!(page.text("[data-testid=check-summary]"), summary);
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn a_small_limit_bounds_the_check() {
    let page = open_panel(PatternMode::Idempotent);
    choose(&page, "this-run", "f1-f2", 10_000, "faults F1 ×1 + F2 ×1, limit 10000 unique");
    page.click("[data-testid=check-run]");
    wait_for_kind(&page, "bounded");
    let config = CheckConfig {
        states_max: 10_000,
        faults: FaultBudget::of(&[(FaultClass::F1, 1), (FaultClass::F2, 1)]),
        ..two_consumers_duplicate_and_crash_config()
    };
    let bounded = Checker::new(lesson(PatternMode::Idempotent), 0, config)
        .unwrap()
        .run_to_end(&mut |_| {})
        .unwrap();
    let CheckOutcome::Bounded { reason } = &bounded.outcome else {
        panic!("the limit stops the check: {:?}", bounded.outcome)
    };
    assert_eq!(
        page.text("[data-testid=check-summary]"),
        format!("Bounded by a limit, not a proof: {reason} ({}).", stats_text(&bounded))
    );

    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn the_two_order_reference_is_proved_in_the_page() {
    let page = open_panel(PatternMode::Idempotent);
    // The two-message reference scenario (two orders, two consumers, a duplicate and a crash
    // after commit), idempotent shop: every interleaving proved in the page, with the core's
    // exact figures.
    let two_orders = &fixtures::two_orders_idempotent_proof().report;
    assert_eq!(two_orders.outcome, CheckOutcome::Proved);
    choose(
        &page,
        "reference-two-orders",
        "f1-f2",
        1_000_000,
        "faults F1 ×1 + F2 ×1, limit 1000000",
    );
    let started = std::time::Instant::now();
    page.click("[data-testid=check-run]");
    wait_for_kind(&page, "proved");
    eprintln!(
        "measured: the page proved the two-order reference, {} states, in {:.2} s",
        two_orders.stats.states_explored,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(page.text("[data-testid=check-summary]"), proved_text(two_orders));

    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn the_fuzzer_finds_and_shrinks_the_naive_failure() {
    let page = open_panel(PatternMode::Naive);
    // Fuzz the naive lesson: the core's fuzzer, same fuzz seed, same shrunk failure.
    let config = FuzzConfig { cases: 256, fuzz_seed: 0, ..FuzzConfig::default() };
    let report =
        FuzzRun::new(lesson_cases(lesson(PatternMode::Naive)), config).run_for(256, &mut |_| {});
    let failure = report.failure.expect("the naive lesson fails under its duplicate");
    assert!(failure.violated.contains(&InvariantId::I2), "{:?}", failure.violated);
    let broke_at = first_break(&failure.trace.steps, &failure.violated).unwrap();
    let names: Vec<String> = failure
        .violated
        .iter()
        .map(|invariant| format!("{invariant} {}", invariant.title()))
        .collect();
    let fired = failure.trace.fired_faults();
    page.click("[data-testid=fuzz-run]");
    wait_for_kind(&page, "violated");
    assert_eq!(
        page.text("[data-testid=check-summary]"),
        format!(
            "Violated: {} in case {} of 256; shrunk in {} steps to seed {}; faults fired: \
             injected {}, from random rates {}; broken at step {broke_at} of {}.",
            names.join(", "),
            report.cases_run,
            failure.shrink_steps,
            failure.shrunk.seed,
            FiredFaults::describe(&fired.injected),
            FiredFaults::describe(&fired.random),
            failure.trace.steps.len()
        )
    );
    panel_screenshot(&page, "check-panel-fuzz");
    page.click("[data-testid=open-counterexample]");
    page.wait_for_text(
        "[data-testid=position]",
        &format!("step {broke_at} / {}", failure.trace.steps.len()),
    );
    for violation in &failure.trace.steps[broke_at - 1].new_violations {
        let selector = format!("[data-testid=invariant-{}]", violation.invariant);
        assert_eq!(page.attribute(&selector, "data-state").as_deref(), Some("broken"));
        assert!(page.text(&selector).contains(violation.sentence.as_str()));
    }

    assert_eq!(page.console_errors(), Vec::<String>::new());
}
