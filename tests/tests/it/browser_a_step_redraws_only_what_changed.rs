//! A step redraws only what it changed (#33: a step anywhere in a long run costs what a step
//! of a lesson does). The run is the page benchmark's long scenario, opened by its link at step
//! 300, with dozens of items waiting. Every element of the diagram's bands, of the pending part
//! and of the step list is marked; one Step click later, each band, pending row and list entry
//! whose step or item is still shown must be the very element it was (kept and moved, not drawn
//! again), the band that left the window is gone and one new band is drawn. Unkeyed lists fail
//! this: they rewrite every row in place, or replace each one.

use std::collections::BTreeSet;

use idempotency_lab::sim::{Simulation, World};
use idempotency_lab::view::{PendingTarget, ShareLink, drawn_pending, pending};
use idempotency_lab_tests::browser::LabPage;
use idempotency_lab_tests::long_run::long_scenario;

/// The step the run is opened at.
const OPENED_AT: usize = 300;

/// Marks every band, pending row and step-list entry with its step or item.
const MARK: &str = "(() => {
    for (const band of document.querySelectorAll('.diagram .step')) band.__labKept = 'band ' + band.dataset.step;
    for (const row of document.querySelectorAll('.pending-row')) row.__labKept = row.dataset.testid;
    for (const entry of document.querySelectorAll('.step-list-entry, .step-entry')) entry.__labKept = 'entry ' + entry.dataset.step;
    return 1;
})()";

/// After the step: how many marked elements are still there, how many elements of the same
/// step or item were drawn anew (the failure), the bands drawn now, and the steps of the new
/// and of the missing bands.
const CHECK: &str = "(() => {
    const now = [...document.querySelectorAll('.diagram .step, .pending-row, .step-entry')];
    const name = element => element.classList.contains('pending-row') ? element.dataset.testid
        : (element.classList.contains('step') ? 'band ' : 'entry ') + element.dataset.step;
    const kept = now.filter(element => element.__labKept === name(element)).length;
    const unmarked = now.filter(element => element.__labKept === undefined).map(name);
    return JSON.stringify({ kept, unmarked, bands: document.querySelectorAll('.diagram .step').length,
        rows: document.querySelectorAll('.pending-row').length });
})()";

/// The pending rows the step after [`OPENED_AT`] adds, by the core: `pending-<target>` of
/// each item drawn after it (`view::drawn_pending`: the first ones of each lane) that was not
/// drawn before it.
fn new_targets() -> BTreeSet<String> {
    let (scenario, seed, _) = long_scenario();
    let mut simulation = Simulation::new(scenario, seed).unwrap();
    simulation.run_to(OPENED_AT);
    let drawn = |world: &World| -> Vec<PendingTarget> {
        drawn_pending(&pending(world), false).items.iter().map(|item| item.target).collect()
    };
    let before: BTreeSet<_> = drawn(simulation.world()).into_iter().collect();
    simulation.step().unwrap();
    drawn(simulation.world())
        .into_iter()
        .filter(|target| !before.contains(target))
        .map(|target| format!("pending-{target}"))
        .collect()
}

#[test]
fn a_step_keeps_every_band_pending_row_and_list_entry_it_did_not_change() {
    let (scenario, seed, _) = long_scenario();
    let link = ShareLink::new(&scenario, seed, Vec::new(), OPENED_AT).encode();
    let page = LabPage::open(&link);
    page.wait_for_text("[data-testid=position]", &format!("step {OPENED_AT} /"));
    let bands = page.count(".diagram .step");
    let rows = page.count(".pending-row");
    assert!(
        bands >= 30 && rows >= 10,
        "a long window and many waiting items: {bands} bands, {rows} rows"
    );
    page.evaluate(MARK);

    page.click("[data-testid=step]");
    page.wait_for_text("[data-testid=position]", &format!("step {} /", OPENED_AT + 1));
    let after: serde_json::Value =
        serde_json::from_str(page.evaluate(CHECK).as_str().unwrap_or("null")).unwrap();
    let unmarked: Vec<&str> =
        after["unmarked"].as_array().unwrap().iter().filter_map(|name| name.as_str()).collect();
    // New: the band and the list entry of the step taken, and the items it made wait.
    let new_step = format!("{}", OPENED_AT + 1);
    let new_bands: Vec<&&str> = unmarked.iter().filter(|name| name.starts_with("band ")).collect();
    assert_eq!(new_bands, [&format!("band {new_step}").as_str()], "only the step's band is new");
    let new_entries: Vec<&&str> =
        unmarked.iter().filter(|name| name.starts_with("entry ")).collect();
    assert_eq!(
        new_entries,
        [&format!("entry {new_step}").as_str()],
        "only the step's entry is new"
    );
    let new_rows: BTreeSet<String> = unmarked
        .iter()
        .filter(|name| name.starts_with("pending-"))
        .map(|name| (*name).to_owned())
        .collect();
    assert_eq!(new_rows, new_targets(), "only the items the step made wait are new");
    let new_rows = new_rows.len();
    // Everything else was kept: all but the new ones.
    let now_rows = after["rows"].as_u64().unwrap() as usize;
    let now_bands = after["bands"].as_u64().unwrap() as usize;
    assert_eq!(now_bands, bands, "the window keeps its length");
    let kept = after["kept"].as_u64().unwrap() as usize;
    assert_eq!(kept, 2 * now_bands - 2 + now_rows - new_rows, "{after}");
    assert!(page.console_errors().is_empty(), "{:?}", page.console_errors());
}
