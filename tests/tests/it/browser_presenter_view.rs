//! The presenter view, as a trainer uses it on a 1280x720 projector: a link with
//! `presenter=1` opens a naive run that a duplicate broke; the diagram's labels are 20 px or
//! more; "go to step N, where it broke" brings the step in the diagram, the broken invariant
//! and the stock row that step changed into the viewport, with no page scroll; `+` scales the
//! type, `p` and the button switch the view (and the link follows); fullscreen goes on and off.
//! Screenshots in both languages.

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{Action, PatternMode, Run, Simulation, catalogue_scenario};
use idempotency_lab::view::{Language, ShareLink, breaking_steps};
use idempotency_lab_tests::browser::LabPage;

const LESSON: &str = "f03-crash-before-commit";

/// The lesson run naive with a duplicate of its first message, to the end: the link (in the
/// presenter view), the step where I2 broke, and the run's length.
fn broken_run() -> (String, usize, usize) {
    let scenario = catalogue_scenario(LESSON).unwrap().with_all_patterns(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    let duplicate = loop {
        let found = simulation
            .world()
            .enabled_fault_actions()
            .into_iter()
            .find(|action| matches!(action, Action::DuplicateMessage { .. }));
        match found {
            Some(action) => break action,
            None => simulation.step().unwrap(),
        };
    };
    simulation.step_with(duplicate).unwrap();
    simulation.run_to_end();
    let trace = simulation.trace();
    let run = Run::of_trace(&trace).unwrap();
    let steps = trace.steps.len();
    let broke_at = breaking_steps(&trace.steps)[&InvariantId::I2];
    (ShareLink::of_run(&run, steps).presenting(true).encode(), broke_at, steps)
}

#[test]
fn at_1280x720_go_to_step_shows_the_step_the_invariant_and_the_changed_stock_row() {
    let (link, broke_at, steps) = broken_run();
    assert!(broke_at < steps, "the run goes on after I2 broke, so the jump moves back");
    let page = LabPage::open(&link);
    page.set_viewport(1280, 720, false);
    assert!(page.exists(".lab.presenter"), "the link opens the presenter view");
    page.wait_for_text("[data-testid=position]", &format!("step {steps} / {steps}"));
    assert_eq!(
        page.attribute("[data-testid=presenter-toggle]", "aria-pressed").as_deref(),
        Some("true")
    );

    let smallest = page.smallest_text_px(".diagram .label").expect("the diagram has labels");
    assert!(smallest >= 20.0, "the diagram's labels are {smallest:.1} px, under 20 px");

    page.click("[data-testid=jump-I2]");
    page.wait_for_text("[data-testid=position]", &format!("step {broke_at} / {steps}"));
    assert_eq!(
        page.attribute("[data-testid=invariant-I2]", "data-state").as_deref(),
        Some("broken")
    );
    page.wait_in_view(".diagram .step.current");
    page.wait_in_view("[data-testid=invariant-I2]");
    page.wait_in_view("[data-testid=table-stock] tr.changed");
    assert_eq!(page.overflow(), (0, 0), "the presenter view fits the screen without a page scroll");
    page.screenshot("presenter-1280x720-en");

    // The same in Russian, still one screen.
    page.click("[data-testid=lang-ru]");
    let position = Language::Ru.words().labels.ui_position;
    page.wait_for_text("[data-testid=position]", &format!("{position} {broke_at} / {steps}"));
    page.wait_in_view(".diagram .step.current");
    page.wait_in_view("[data-testid=invariant-I2]");
    page.wait_in_view("[data-testid=table-stock] tr.changed");
    assert_eq!(page.overflow(), (0, 0), "in Russian too");
    page.screenshot("presenter-1280x720-ru");
    page.click("[data-testid=lang-en]");

    // `+` makes the type and the diagram larger; the scale is kept for the next visit.
    page.press_key("+");
    page.wait_for_text("[data-testid=type-scale]", "115 %");
    let larger = page.smallest_text_px(".diagram .label").unwrap();
    assert!(larger > smallest * 1.1, "{larger:.1} px after +, {smallest:.1} px before");
    page.press_key("-");
    page.wait_for_text("[data-testid=type-scale]", "100 %");

    // `p` leaves the presenter view, the button comes back to it; the address follows.
    page.press_key("p");
    page.wait_until("the presenter view is off", "!document.querySelector('.lab.presenter')");
    assert!(!page.location().contains("presenter="), "{}", page.location());
    page.click("[data-testid=presenter-toggle]");
    page.wait_until("the presenter view is on", "!!document.querySelector('.lab.presenter')");
    page.wait_until("the link says so", "window.location.hash.endsWith('&presenter=1')");

    // Fullscreen on and off, through the Fullscreen API.
    page.click("[data-testid=fullscreen]");
    page.wait_until(
        "the page is fullscreen",
        "document.fullscreenElement?.dataset.testid === 'app'",
    );
    page.wait_until(
        "the button says so",
        "document.querySelector('[data-testid=fullscreen]').getAttribute('aria-pressed') === 'true'",
    );
    page.click("[data-testid=fullscreen]");
    page.wait_until("fullscreen ended", "document.fullscreenElement === null");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
