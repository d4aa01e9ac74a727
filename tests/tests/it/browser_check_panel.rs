//! The check and fuzz panel, by real clicks: an exhaustive check of the naive first lesson
//! finds the shortest counterexample and opens it in the diagram at the violating step; the
//! idempotent twin is proved; a big check is cancelled and the page still responds; the
//! two-message reference scenario is proved in the page; the fuzzer
//! finds and shrinks the naive failure. Every expected figure comes from the core, run natively
//! with the inputs the page gives it (same code, so the same numbers).

use std::time::Duration;

use idempotency_lab::check::{
    CheckConfig, CheckOutcome, CheckReport, Checker, FaultBudget, check,
    two_consumers_duplicate_and_crash_config, two_consumers_two_orders_duplicate_and_crash,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{FiredFaults, PatternMode, Patterns, Scenario, catalogue_scenario};
use idempotency_lab::testing::{FuzzConfig, FuzzRun, lesson_cases};
use idempotency_lab_tests::browser::LabPage;

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

fn open_lesson(page: &LabPage, mode_button: &str) {
    page.set_value("[data-testid=scenario]", LESSON);
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.click(mode_button);
    let mode = if mode_button.contains("all-naive") { "naive" } else { "idempotent" };
    page.wait_until(
        &format!("P4 is {mode}"),
        &format!("document.querySelector('[data-testid=pattern-P4]').dataset.mode === {mode:?}"),
    );
}

#[test]
fn the_check_panel_finds_proves_cancels_and_fuzzes() {
    let page = LabPage::open("");
    open_lesson(&page, "[data-testid=all-naive]");
    page.click("[data-testid=check-toggle]");
    page.wait_for_text("[data-testid=check-what]", "f01-duplicate-delivery (P1 naive");
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
    open_lesson(&page, "[data-testid=all-idempotent]");
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
    assert_eq!(
        page.text("[data-testid=check-summary]"),
        format!(
            "Proved: {} states ({} unique), depth {}. Every interleaving keeps every invariant.",
            idempotent.stats.states_explored,
            idempotent.stats.unique_states,
            idempotent.stats.depth_reached
        )
    );

    // Cancel: the two-order reference (145 888 states: tens of seconds in the page, far longer
    // than the few clicks below take), cancelled while it runs; it stops for real.
    page.set_value("[data-testid=check-target]", "reference-two-orders");
    page.set_value("[data-testid=check-budget]", "f1-f2");
    page.set_value("[data-testid=check-limit]", "1000000");
    page.wait_for_text("[data-testid=check-what]", "faults F1 ×1 + F2 ×1, limit 1000000");
    page.click("[data-testid=check-run]");
    page.wait_until(
        "the check has explored some states",
        "/ [1-9][0-9]* explored/.test(document.querySelector('[data-testid=check-progress]')?.innerText ?? '')",
    );
    assert!(disabled(&page, "[data-testid=check-run]"), "[data-testid=check-run] is disabled");
    assert!(
        !disabled(&page, "[data-testid=check-cancel]"),
        "[data-testid=check-cancel] is enabled"
    );
    panel_screenshot(&page, "check-panel-running");
    // The page answers while the check runs: a step of the run is taken between two slices.
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", "step 1 /");
    assert_eq!(
        page.attribute("[data-testid=check-panel]", "data-status").as_deref(),
        Some("running")
    );
    page.click("[data-testid=check-cancel]");
    wait_for_kind(&page, "cancelled");
    let cancelled = page.text("[data-testid=check-summary]");
    assert!(cancelled.starts_with("Cancelled after "), "{cancelled}");
    assert!(cancelled.ends_with(": no verdict."), "{cancelled}");
    assert_eq!(page.attribute("[data-testid=check-panel]", "data-status").as_deref(), Some("done"));
    assert!(!page.exists("[data-testid=check-progress]"), "no progress once cancelled");
    assert!(!disabled(&page, "[data-testid=check-run]"), "[data-testid=check-run] is enabled");
    assert!(
        disabled(&page, "[data-testid=check-cancel]"),
        "[data-testid=check-cancel] is disabled"
    );
    // Stopped for real: the result stays as it was, and the page answers a click at once.
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", "step 2 /");
    assert_eq!(page.text("[data-testid=check-summary]"), cancelled);

    // The lesson's check under the smallest limit: bounded, which is not a proof.
    page.set_value("[data-testid=check-target]", "this-run");
    page.set_value("[data-testid=check-limit]", "10000");
    page.wait_for_text("[data-testid=check-what]", "faults F1 ×1 + F2 ×1, limit 10000 unique");
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

    // The two-message reference scenario (two orders, two consumers, a duplicate and a crash
    // after commit), idempotent shop: every interleaving proved in the page, with the core's
    // exact figures.
    let two_orders = check(
        two_consumers_two_orders_duplicate_and_crash(Patterns::all(PatternMode::Idempotent)),
        0,
        CheckConfig { states_max: 1_000_000, ..two_consumers_duplicate_and_crash_config() },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(two_orders.outcome, CheckOutcome::Proved);
    page.set_value("[data-testid=check-target]", "reference-two-orders");
    page.set_value("[data-testid=check-budget]", "f1-f2");
    page.set_value("[data-testid=check-limit]", "1000000");
    page.wait_for_text("[data-testid=check-what]", "faults F1 ×1 + F2 ×1, limit 1000000");
    let started = std::time::Instant::now();
    page.click("[data-testid=check-run]");
    wait_for_kind(&page, "proved");
    eprintln!(
        "measured: the page proved the two-order reference, {} states, in {:.2} s",
        two_orders.stats.states_explored,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        page.text("[data-testid=check-summary]"),
        format!(
            "Proved: {} states ({} unique), depth {}. Every interleaving keeps every invariant.",
            two_orders.stats.states_explored,
            two_orders.stats.unique_states,
            two_orders.stats.depth_reached
        )
    );
    page.set_value("[data-testid=check-target]", "this-run");

    // Fuzz the naive lesson: the core's fuzzer, same fuzz seed, same shrunk failure.
    open_lesson(&page, "[data-testid=all-naive]");
    let config = FuzzConfig { cases: 256, fuzz_seed: 0, ..FuzzConfig::default() };
    let report =
        FuzzRun::new(lesson_cases(lesson(PatternMode::Naive)), config).run_for(256, &mut |_| {});
    let failure = report.failure.expect("the naive lesson fails under its duplicate");
    assert!(failure.violated.contains(&InvariantId::I2), "{:?}", failure.violated);
    let broke_at = failure
        .trace
        .steps
        .iter()
        .find(|step| step.new_violations.iter().any(|v| failure.violated.contains(&v.invariant)))
        .unwrap()
        .step;
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
