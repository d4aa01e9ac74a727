//! A learner picks a lesson, steps until the OrderPlaced message waits in the broker, injects
//! a duplicate by hand in naive mode, runs on, and sees invariants I2 and I6 turn red with the
//! core's sentences; the "go to step" button jumps to the step that broke I2. The expected
//! sentences come from the core, run the same way.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{Action, PatternMode, Simulation, catalogue_scenario};
use idempotency_lab::view::breaking_steps;
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "f03-crash-before-commit";

#[test]
fn a_duplicate_injected_by_hand_breaks_the_naive_shop() {
    let page = LabPage::open("");
    page.open_lesson(LESSON, PatternMode::Naive);

    let before = page.step_until("[data-fault=F1]", 60);
    assert_eq!(page.count("[data-state=broken]"), 0, "all green before the fault");
    page.screenshot("fault-buttons");
    page.inject_on("", FaultClass::F1);
    page.wait_for_text("[data-testid=current-step]", "duplicate copy");
    page.click("[data-testid=run-to-end]");
    page.wait_until(
        "the run ends",
        "document.querySelector('[data-testid=current-step]').innerText.includes('run ended')",
    );

    // The core, driven the same way, says what must be red and why.
    let scenario = catalogue_scenario(LESSON).unwrap().with_all_patterns(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    for _ in 0..before {
        simulation.step().unwrap();
    }
    let duplicate = simulation
        .world()
        .enabled_fault_actions()
        .into_iter()
        .find(|action| matches!(action, Action::DuplicateMessage { .. }))
        .unwrap();
    simulation.step_with(duplicate).unwrap();
    simulation.run_to_end();
    let violations = simulation.world().violations();
    let broken: Vec<InvariantId> = {
        let mut ids: Vec<InvariantId> =
            violations.iter().map(|violation| violation.invariant).collect();
        ids.dedup();
        ids
    };
    assert_eq!(broken, [InvariantId::I2, InvariantId::I6]);
    page.expect_invariants(&violations);
    let steps_total = simulation.steps().len();
    page.wait_for_text("[data-testid=position]", &format!("step {steps_total} / {steps_total}"));
    page.screenshot("naive-duplicate-broken");

    // The jump goes to the step where I2 broke: green just before it, red at it.
    let broke_at = breaking_steps(simulation.steps())[&InvariantId::I2];
    page.wait_for_text("[data-testid=jump-I2]", &format!("step {broke_at}"));
    page.click("[data-testid=jump-I2]");
    page.wait_for_text("[data-testid=position]", &format!("step {broke_at} / {steps_total}"));
    assert_eq!(
        page.attribute("[data-testid=invariant-I2]", "data-state").as_deref(),
        Some("broken")
    );
    assert!(page.exists(".diagram .step.current"), "the step is highlighted in the diagram");
    assert!(
        page.count("[data-testid=table-reservations] tr.changed") > 0,
        "the step's rows are highlighted"
    );
    page.screenshot("naive-duplicate-jump");
    page.click("[data-testid=step-back]");
    page.wait_for_text("[data-testid=position]", &format!("step {} /", broke_at - 1));
    assert_eq!(page.attribute("[data-testid=invariant-I2]", "data-state").as_deref(), Some("ok"));

    assert_eq!(page.console_errors(), Vec::<String>::new());
}
