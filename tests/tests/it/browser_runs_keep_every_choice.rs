//! The learner's choices belong to the run: a pattern switch keeps the injected fault and the
//! step shown, Compare gives both twins the same fault, and a link taken after rewinding keeps
//! the run's future (the first three repros of the fidelity issue, clicked as a learner would).
//! A link at the end of its run says that the run ended; a fault injected before the end
//! starts a new branch, and the page says so.

use idempotency_lab::sim::{
    Action, Choice, ChoiceOutcome, PatternMode, Simulation, catalogue_scenario,
};
use idempotency_lab::view::{CompareInput, ShareLink, compare};
use idempotency_lab_tests::browser::LabPage;

/// Lesson f03, nine steps, then F1 on the pending message: where repros 1 and 2 start.
fn f03_with_a_duplicate() -> LabPage {
    let page = LabPage::open("");
    page.set_value("[data-testid=scenario]", "f03-crash-before-commit");
    page.wait_for_text("[data-testid=scenario-title]", "F3");
    for step in 1..=9 {
        page.click("[data-testid=step]");
        page.wait_for_text("[data-testid=position]", &format!("step {step} /"));
    }
    page.click("[data-fault=F1]");
    page.wait_for_text("[data-testid=position]", "step 10 /");
    page.wait_until("the choice is in the address", "window.location.hash.includes('&u=')");
    page
}

/// The fragment of the page's address.
fn fragment(page: &LabPage) -> String {
    let address = page.location();
    format!("#{}", address.split_once('#').map(|(_, after)| after).unwrap_or_default())
}

#[test]
fn a_pattern_switch_keeps_the_fault_and_the_step() {
    let page = f03_with_a_duplicate();
    page.click("[data-testid=all-idempotent]");
    page.wait_until(
        "the address names the idempotent twin",
        "!window.location.hash.includes('p=nnnn')",
    );
    assert!(page.text("[data-testid=position]").starts_with("step 10 /"), "the step is kept");
    let fragment = fragment(&page);
    assert!(fragment.contains("&u=") && fragment.ends_with("&step=10"), "{fragment}");
    // The address is the run: the same choice, taken in the idempotent twin too.
    let opened = ShareLink::decode(&fragment).unwrap().open().unwrap();
    assert_eq!(opened.run.scenario.patterns.p4_inbox, PatternMode::Idempotent);
    let [ChoiceOutcome::Taken { step }] = opened.outcomes[..] else {
        panic!("the fault is lost: {:?}", opened.outcomes);
    };
    let taken = &opened.simulation.steps()[step - 1];
    assert_eq!(taken.chosen_by, Choice::User);
    assert!(matches!(taken.action, Action::DuplicateMessage { .. }), "{taken:?}");
    assert!(!page.exists("[data-testid=notice]"), "every choice applied");
    page.screenshot("pattern-switch-keeps-the-fault");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn compare_gives_both_twins_the_same_fault() {
    let page = f03_with_a_duplicate();
    page.click("[data-testid=compare-toggle]");
    page.wait_until(
        "the comparison lists the choice",
        "document.querySelector('[data-testid=compare-choice-0]') !== null",
    );
    let choice = "[data-testid=compare-choice-0]";
    assert_eq!(page.attribute(choice, "data-naive").as_deref(), Some("taken:10"));
    let idempotent = page.attribute(choice, "data-idempotent").unwrap_or_default();
    assert!(idempotent.starts_with("taken:"), "{idempotent}");
    assert!(!page.text("[data-testid=compare]").contains("did not apply"));

    // The verdict is the core's, for the same choices on both sides.
    let link = ShareLink::decode(&fragment(&page)).unwrap();
    let scenario = link.scenario().unwrap();
    let comparison = compare(&CompareInput::focus(scenario, link.seed, link.user_choices)).unwrap();
    assert!(
        comparison.choices.iter().all(|choice| choice.idempotent != ChoiceOutcome::TargetMissing)
    );
    let verdict = page.text("[data-testid=compare-verdict]");
    for id in &comparison.naive_only {
        assert!(verdict.contains(&id.to_string()), "{verdict} names {id}");
    }
    for id in &comparison.idempotent_only {
        let selector = format!("[data-testid=compare-idempotent-{id}]");
        assert_eq!(page.attribute(&selector, "data-state").as_deref(), Some("broken"));
    }
    page.evaluate("document.querySelector('[data-testid=compare]').scrollIntoView(), true");
    page.screenshot("compare-same-fault-both-twins");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn a_link_taken_after_rewinding_keeps_the_future() {
    let page = LabPage::open("#v=1&s=p4-inbox-consumer&seed=0&p=iiii&step=0");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.click("[data-fault=F6]");
    page.wait_for_text("[data-testid=position]", "step 1 /");
    page.press_key("ArrowLeft");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.wait_until("the address is at step 0", "window.location.hash.endsWith('step=0')");
    page.reload(false);
    page.wait_for_text("[data-testid=position]", "step 0 /");
    assert!(fragment(&page).contains("&u="), "the choice survives: {}", fragment(&page));
    let position = page.text("[data-testid=position]");
    assert_ne!(position.trim(), "step 0 / 0", "the future is there");
    page.press_key("ArrowRight");
    page.wait_for_text("[data-testid=current-step]", "double-submit");

    // A fault injected before the run's last step starts a new branch, and the page says so.
    page.press_key("ArrowLeft");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.click("[data-fault=F6]");
    page.wait_for_text("[data-testid=notice]", "new branch from step 1");
    // The banner is worded when shown: switched to Russian, it says the same in Russian.
    page.click("[data-testid=lang-ru]");
    // "A new branch from step 1" in Russian, and "dismiss" in Russian on its button.
    page.wait_for_text(
        "[data-testid=notice]",
        "\u{41d}\u{43e}\u{432}\u{430}\u{44f} \u{432}\u{435}\u{442}\u{43a}\u{430} \u{441} \u{448}\u{430}\u{433}\u{430} 1",
    );
    assert_eq!(
        page.text("[data-testid=notice] button"),
        "\u{437}\u{430}\u{43a}\u{440}\u{44b}\u{442}\u{44c}"
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn a_link_at_the_end_of_its_run_says_that_the_run_ended() {
    let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let trace = Simulation::run(lesson.with_mode(PatternMode::Naive), 0).unwrap();
    let end = trace.steps.len();
    let page = LabPage::open(&format!("#v=2&s=f01-duplicate-delivery&seed=0&p=nnnn&step={end}"));
    page.wait_for_text("[data-testid=position]", &format!("step {end} / {end}"));
    page.wait_for_text("[data-testid=current-step]", "run ended");
    assert!(page.exists("[data-testid=step][disabled]"), "nothing to step to");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
