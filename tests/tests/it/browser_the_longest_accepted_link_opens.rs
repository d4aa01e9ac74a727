//! The longest run the bounds accept opens from its link and stays usable: the scenario of
//! `sim::bounds::longest_run_scenario` (lost answers retried with new keys keep placing 16-line
//! orders until the 20,000-step limit), inline in a 135 KB share link, as the page's first
//! address. It used to take the page to 4 GB and kill its wasm (a snapshot of the whole world
//! every 16 steps); the page now opens it at its last step, with no error, and stepping back,
//! jumping to the start and stepping on still work. Its world is large (a thousand items
//! waiting, thousands of rows): the page draws what the core's `view::drawn_pending` and
//! `view::drawn_rows` say, the first ones of each lane and table, says how many it left out,
//! and draws them all on request.

use std::time::Duration;

use idempotency_lab::sim::bounds::longest_run_scenario;
use idempotency_lab::store::TableName;
use idempotency_lab::view::{Language, ROWS_DRAWN, ShareLink, drawn_pending, drawn_rows, pending};
use idempotency_lab_tests::browser::LabPage;

/// The most elements the page may hold with the longest run open (it held 32,207 when it drew
/// every row and every waiting item).
const ELEMENTS_MAX: u64 = 8_000;

/// How long the 20,000 steps may take to open on a busy machine.
const OPENING_TIMEOUT: Duration = Duration::from_secs(240);

#[test]
fn the_longest_accepted_link_opens_at_its_last_step_and_the_page_stays_usable() {
    let scenario = longest_run_scenario().expect("the bounds accept it");
    let steps = scenario.limits.steps_max;
    let fragment = ShareLink::new(&scenario, 1, Vec::new(), steps).encode();
    assert!(fragment.len() > 100_000, "a link of {} characters", fragment.len());
    let native = ShareLink::decode(&fragment).unwrap().open().unwrap();
    assert_eq!(native.simulation.steps().len(), steps, "the run reaches its step limit");

    let page = LabPage::open(&fragment);
    page.wait_until_within(
        "the longest run is open at its last step",
        &format!(
            "document.querySelector('[data-testid=position]')?.textContent === 'step {steps} / {steps}' && document.querySelector('[data-testid=opening]') === null"
        ),
        OPENING_TIMEOUT,
    );
    assert!(!page.exists("[data-testid=error]"), "no error banner");
    let last = native.simulation.steps().last().expect("steps");
    let caption = page.text("[data-testid=current-step]");
    assert!(caption.starts_with(&format!("Step {steps} (tick {}): ", last.tick)), "{caption:?}");
    assert!(caption.contains(&format!("step limit {steps} reached")), "{caption:?}");

    page.click("[data-testid=step-back]");
    page.wait_for_text("[data-testid=position]", &format!("step {} / {steps}", steps - 1));
    page.click("[data-testid=step-back]");
    page.wait_for_text("[data-testid=position]", &format!("step {} / {steps}", steps - 2));
    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", &format!("step {} / {steps}", steps - 1));
    assert!(!page.exists("[data-testid=error]"), "no error banner after stepping");

    // What is drawn of the world at step `steps - 1`: the core's cut.
    let world = native.simulation.world_after(steps - 1).expect("a step of the run");
    let changes = &native.simulation.steps()[steps - 2].row_changes;
    let elements = page.evaluate("document.getElementsByTagName('*').length").as_u64().unwrap();
    assert!(elements <= ELEMENTS_MAX, "{elements} elements in the page");
    let waiting = drawn_pending(&pending(&world), false);
    assert!(waiting.left_out() > 0, "a crowded world: {} waiting", waiting.total);
    assert_eq!(page.count(".pending-row"), waiting.items.len());
    let number = |count: usize| Language::En.number(count as u64);
    let left_out = page.text("[data-testid=pending-left-out]");
    let says = format!(
        "Showing {} of {} waiting items",
        number(waiting.items.len()),
        number(waiting.total)
    );
    assert!(left_out.contains(&says), "{left_out:?}");
    let tables = world.store().committed();
    let large: Vec<TableName> = TableName::ALL
        .iter()
        .copied()
        .filter(|&table| tables.row_count(table) > ROWS_DRAWN)
        .collect();
    assert!(!large.is_empty(), "some table has more rows than are drawn");
    for table in large {
        let drawn = drawn_rows(tables, table, changes, false);
        let name = table.as_str();
        assert_eq!(page.count(&format!("[data-testid=table-{name}] tbody tr")), drawn.rows.len());
        let line = page.text(&format!("[data-testid=rows-left-out-{name}]"));
        let says = format!("Showing {} of {} rows", number(drawn.rows.len()), number(drawn.total));
        assert!(line.contains(&says), "{name}: {line:?}");
    }

    // Every waiting item on request, and the first ones again.
    page.click("[data-testid=pending-left-out] button");
    page.wait_until(
        "every waiting item is drawn",
        &format!("document.querySelectorAll('.pending-row').length === {}", waiting.total),
    );
    assert_eq!(page.text("[data-testid=pending-left-out] button"), "Show fewer");
    page.click("[data-testid=pending-left-out] button");
    page.wait_until(
        "the first waiting items again",
        &format!("document.querySelectorAll('.pending-row').length === {}", waiting.items.len()),
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
