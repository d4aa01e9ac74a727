//! Rewinding: after a run to its end, the slider goes back to any earlier step, and the tables
//! show the core's world after that step; the arrow keys step from there, and stepping on
//! replays the same run.

use idempotency_lab::sim::{PatternMode, Simulation, catalogue_scenario};
use idempotency_lab::store::TableName;
use idempotency_lab_tests::browser::LabPage;

fn table_rows(page: &LabPage, table: TableName) -> usize {
    page.count(&format!("[data-testid=table-{}] tbody tr[data-row]", table.as_str()))
}

#[test]
fn the_slider_and_the_arrow_keys_go_back_and_forth_through_the_run() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=scenario-title]", "F1");
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=current-step]", "run ended");

    let scenario =
        catalogue_scenario("f01-duplicate-delivery").unwrap().with_mode(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    simulation.run_to_end();
    let total = simulation.steps().len();
    page.wait_for_text("[data-testid=position]", &format!("step {total} / {total}"));

    for step in [0, 5, total / 2, total - 1] {
        page.set_value("[data-testid=slider]", &step.to_string());
        page.wait_for_text("[data-testid=position]", &format!("step {step} / {total}"));
        let world = simulation.world_after(step).unwrap();
        for &table in TableName::ALL {
            let expected = world.store().committed().rows_json(table).len();
            assert_eq!(table_rows(&page, table), expected, "{} after step {step}", table.as_str());
        }
        assert_eq!(page.count(".diagram .step"), step, "one band per step shown");
    }
    page.screenshot("rewound");

    // Keys: right steps forward, left steps back (from step total - 1).
    page.press_key("ArrowRight");
    page.wait_for_text("[data-testid=position]", &format!("step {total} / {total}"));
    page.press_key("ArrowLeft");
    page.press_key("ArrowLeft");
    let back = total - 2;
    page.wait_for_text("[data-testid=position]", &format!("step {back} / {total}"));
    let caption = page.text("[data-testid=current-step]");
    assert!(caption.starts_with(&format!("Step {back} ")), "{caption}");

    // Back to the start and Step replays the same first step, without a new run.
    page.click("[data-testid=reset]");
    page.wait_for_text("[data-testid=position]", "step 0 / 0");
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", "step 1 / 1");
    let after_one = simulation.world_after(1).unwrap();
    for &table in TableName::ALL {
        let expected = after_one.store().committed().rows_json(table).len();
        assert_eq!(table_rows(&page, table), expected, "{} after step 1", table.as_str());
    }
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
