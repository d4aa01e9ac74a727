//! The fault buttons live on the pending items of the sequence diagram. In the duplicate
//! delivery lesson, a learner steps until the OrderPlaced message waits in the broker, presses
//! Duplicate on that message in the diagram, runs to the end and reads the red invariants
//! with the core's sentences (naive), or all green (idempotent, the same presses, the button
//! pressed with the keyboard). The run replays from its link after a reload. The exact
//! button sets of a pending request, an API attempt, the relay and a message are pinned; the
//! expected outcomes come from the core, driven the same way.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::{InvariantId, Violation};
use idempotency_lab::sim::{Action, PatternMode, Simulation, catalogue_scenario};
use idempotency_lab::view::{PendingTarget, pending};
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "f01-duplicate-delivery";

/// The lesson open in `mode`, at step 0.
fn open_lesson(mode: PatternMode) -> LabPage {
    let page = LabPage::open("");
    page.open_lesson(LESSON, mode);
    page
}

/// The first message copy waiting in the broker, with its fault buttons.
const PENDING_MESSAGE: &str = "[data-testid=pending-message-0]";

/// The core, driven as the page was: `before` scheduled steps, the learner's duplicate of
/// entry 0, then to the end. Returns the violations at the end and the number of steps.
fn core_run(mode: PatternMode, before: usize) -> (Vec<Violation>, usize) {
    let scenario = catalogue_scenario(LESSON).unwrap().with_all_patterns(mode);
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    for _ in 0..before {
        simulation.step().unwrap();
    }
    let items = pending(simulation.world());
    let message = items
        .iter()
        .find(|item| {
            item.target == PendingTarget::Message { entry: idempotency_lab::sim::EntryId(0) }
        })
        .expect("the message waits in the core too");
    let duplicate = message
        .actions
        .iter()
        .find(|action| matches!(action, Action::DuplicateMessage { .. }))
        .expect("the core offers Duplicate on it")
        .clone();
    simulation.step_with(duplicate).unwrap();
    simulation.run_to_end();
    (simulation.world().violations(), simulation.steps().len())
}

#[test]
fn duplicate_on_the_pending_message_breaks_the_naive_shop() {
    let page = open_lesson(PatternMode::Naive);

    // At the start only the request waits: a double submit is all that can hit it.
    assert_eq!(page.texts("[data-testid=pending] .pending-row").len(), 1);
    assert_eq!(
        page.attribute("[data-testid=pending-request-0]", "data-lane").as_deref(),
        Some("Client")
    );
    assert_eq!(page.texts("[data-testid=pending-request-0] button"), ["F6 Double submit"]);

    let before = page.step_until(&format!("{PENDING_MESSAGE} [data-fault=F1]"), 60);
    // The message waits on the Broker lane, with exactly the faults that apply to a queued
    // copy; the request still running in the API and the relay have theirs.
    assert_eq!(
        page.attribute("[data-testid=pending-message-0]", "data-lane").as_deref(),
        Some("Broker")
    );
    assert_eq!(
        page.texts("[data-testid=pending-message-0] button"),
        ["F1 Duplicate", "F9 Hold back 20 ticks", "F10 Again after retention"]
    );
    assert_eq!(page.texts("[data-testid=pending-attempt-0] button"), ["F8 Crash the API"]);
    assert_eq!(page.texts("[data-testid=pending-relay] button"), ["F12 Crash after publish"]);
    assert_eq!(page.texts("[data-testid=pending-request-0] button"), Vec::<String>::new());
    assert_eq!(page.count("[data-state=broken]"), 0, "all green before the fault");
    assert!(!page.exists(".side [data-fault]"), "no fault buttons outside the diagram");
    page.evaluate(
        "document.querySelector('[data-testid=pending-message-0]').scrollIntoView({ block: 'center' }), true",
    );
    page.screenshot("inject-in-diagram");

    page.inject_on(PENDING_MESSAGE, FaultClass::F1);
    page.wait_for_text("[data-testid=current-step]", "duplicate copy 0");
    assert!(page.location().contains("&u="), "the link records the learner's choice");

    let (violations, steps_total) = core_run(PatternMode::Naive, before);
    let mut broken: Vec<InvariantId> =
        violations.iter().map(|violation| violation.invariant).collect();
    broken.dedup();
    assert_eq!(broken, [InvariantId::I2, InvariantId::I6]);
    page.run_to_end(steps_total);
    page.expect_invariants(&violations);
    page.screenshot("inject-in-diagram-broken");

    // The injection is recorded: the page's own link replays the same run.
    page.reload(false);
    page.wait_for_text("[data-testid=position]", &format!("step {steps_total} / {steps_total}"));
    page.expect_invariants(&violations);
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn the_same_presses_keep_the_idempotent_shop_green() {
    let page = open_lesson(PatternMode::Idempotent);
    let before = page.step_until(&format!("{PENDING_MESSAGE} [data-fault=F1]"), 60);
    // Pressed with the keyboard: the fault buttons are real, focusable buttons.
    page.evaluate(
        "document.querySelector('[data-testid=pending-message-0] [data-fault=F1]').focus(), true",
    );
    page.tab.press_key("Enter").expect("press Enter");
    page.wait_for_text("[data-testid=position]", &format!("step {} /", before + 1));
    page.wait_for_text("[data-testid=current-step]", "duplicate copy 0");

    let (violations, steps_total) = core_run(PatternMode::Idempotent, before);
    assert_eq!(violations, Vec::<Violation>::new());
    page.run_to_end(steps_total);
    page.expect_invariants(&violations);
    assert_eq!(page.count("[data-state=ok]"), InvariantId::ALL.len());
    assert!(page.wait_for_text("[data-testid=pending]", "Nothing waits").contains("run is over"));
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
