//! Files in and out of the page, through the browser's own download and file-picker paths.
//!
//! Export: the learner runs the naive duplicate lesson a few steps and clicks "Trace JSON"
//! and "Mermaid"; Chromium saves the downloads into a fresh directory, and the files are
//! exactly what the core writes for the same scenario, seed and steps; exported at the end of
//! the run, the JSON is a `Trace` that replays to the same bytes. Import: a trace file opens at its last step with its
//! broken invariants red, a scenario file opens at step 0 and runs, and a malformed file shows
//! the core's typed errors in the banner while the run shown stays as it was.

use std::path::Path;

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{PatternMode, Scenario, Simulation, Trace, catalogue_scenario};
use idempotency_lab::view::trace_to_mermaid;
use idempotency_lab_tests::browser::{LabPage, scratch_dir};

const LESSON: &str = "f01-duplicate-delivery";
const STEPS: usize = 12;

/// Asserts that invariant badges are red exactly for `broken`.
fn assert_broken(page: &LabPage, broken: &[InvariantId]) {
    for invariant in InvariantId::ALL {
        let expected = if broken.contains(&invariant) { "broken" } else { "ok" };
        assert_eq!(
            page.attribute(&format!("[data-testid=invariant-{invariant}]"), "data-state")
                .as_deref(),
            Some(expected),
            "{invariant}"
        );
    }
}

#[test]
fn exported_trace_and_mermaid_are_the_cores_files_for_the_run() {
    let downloads = scratch_dir("export-downloads");
    let page = LabPage::open("");
    page.save_downloads_to(&downloads);
    page.set_value("[data-testid=scenario]", LESSON);
    page.click("[data-testid=all-naive]");
    page.wait_until(
        "P4 is naive",
        "document.querySelector('[data-testid=pattern-P4]').dataset.mode === 'naive'",
    );
    for step in 1..=STEPS {
        page.click("[data-testid=step]");
        page.wait_for_text("[data-testid=position]", &format!("step {step} /"));
    }

    // The core, driven the same way.
    let scenario = catalogue_scenario(LESSON).unwrap().with_mode(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    for _ in 0..STEPS {
        simulation.step().unwrap();
    }
    let native = simulation.trace();
    assert_eq!(native.steps.len(), STEPS);

    page.click("[data-testid=export-json]");
    let name = format!("{LESSON}-seed0-step{STEPS}.trace.json");
    let json = String::from_utf8(page.wait_for_download(&downloads, &name)).unwrap();
    let trace = Trace::from_json(&json).unwrap();
    assert_eq!(trace, native);
    assert_eq!(json, native.to_json(), "the file is the core's JSON, byte for byte");
    // The run is not over at step 12: the core's replay runs it to its end, through the same
    // first 12 steps.
    let replayed = Simulation::replay(&trace).unwrap();
    assert_eq!(replayed.steps[..STEPS], trace.steps[..]);

    page.click("[data-testid=export-mermaid]");
    let name = format!("{LESSON}-seed0-step{STEPS}.mmd");
    let mermaid = String::from_utf8(page.wait_for_download(&downloads, &name)).unwrap();
    assert_eq!(mermaid, trace_to_mermaid(&native));
    assert!(mermaid.starts_with("sequenceDiagram"), "{mermaid}");

    // At the end of the run, the export is the core's whole run, and replays to its bytes.
    let whole =
        Simulation::run(catalogue_scenario(LESSON).unwrap().with_mode(PatternMode::Naive), 0)
            .unwrap();
    let total = whole.steps.len();
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=position]", &format!("step {total} / {total}"));
    page.click("[data-testid=export-json]");
    let name = format!("{LESSON}-seed0-step{total}.trace.json");
    let json = String::from_utf8(page.wait_for_download(&downloads, &name)).unwrap();
    assert_eq!(json, whole.to_json());
    let trace = Trace::from_json(&json).unwrap();
    assert_eq!(trace.summary.violated_at_end, [InvariantId::I2, InvariantId::I6]);
    assert_eq!(Simulation::replay(&trace).unwrap().to_json(), json, "replays to the same bytes");
    page.click("[data-testid=export-mermaid]");
    let name = format!("{LESSON}-seed0-step{total}.mmd");
    let mermaid = String::from_utf8(page.wait_for_download(&downloads, &name)).unwrap();
    assert_eq!(mermaid, trace_to_mermaid(&whole));

    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn imported_trace_and_scenario_open_and_a_malformed_file_is_named_without_losing_the_run() {
    let files = scratch_dir("import-files");
    let page = LabPage::open("");

    // A trace of another lesson, run to its end by the core: the page opens it at its last
    // step, with the invariants it broke red.
    let lesson = catalogue_scenario("f04-concurrent-delivery").unwrap();
    let trace = Simulation::run(lesson.with_mode(PatternMode::Naive), 3).unwrap();
    let broken = trace.steps.last().unwrap().violated.clone();
    assert!(broken.contains(&InvariantId::I2), "{broken:?}");
    let trace_file = files.join("concurrent.trace.json");
    std::fs::write(&trace_file, trace.to_json()).unwrap();
    page.set_input_files("[data-testid=import]", &[&trace_file]);
    let total = trace.steps.len();
    page.wait_for_text("[data-testid=position]", &format!("step {total} / {total}"));
    assert_eq!(page.text("[data-testid=scenario-title]"), trace.scenario.title);
    assert_eq!(page.evaluate("document.querySelector('[data-testid=seed]').value"), "3");
    assert_broken(&page, &broken);
    for violation in trace.steps.iter().flat_map(|step| &step.new_violations) {
        if broken.contains(&violation.invariant) && violation.invariant == InvariantId::I2 {
            let text = page.text("[data-testid=invariant-I2]");
            assert!(text.contains(&violation.sentence), "{text:?}");
        }
    }
    assert!(!page.exists("[data-testid=error]"));

    // A scenario file of one's own: it opens at step 0 under its own title, and runs to the
    // end the core's way.
    let scenario_text = r#"{
      "format_version": 1,
      "id": "two-apples-delivered-twice",
      "title": "Two apples, delivered twice",
      "description": "One order; the broker delivers its OrderPlaced twice.",
      "patterns": { "p1_stock": "naive", "p2_order": "idempotent", "p3_api": "idempotent", "p4_inbox": "naive" },
      "shop": { "stock": [{ "sku": "apple", "qty": 10 }] },
      "requests": [{ "operation": { "op": "place_order", "lines": [{ "sku": "apple", "qty": 2 }] } }],
      "injections": [{ "fault": "duplicate_delivery", "message": { "order_placed_of": 0 } }]
    }"#;
    let scenario = Scenario::from_json(scenario_text).unwrap();
    let scenario_file = files.join("two-apples.json");
    std::fs::write(&scenario_file, scenario_text).unwrap();
    page.set_input_files("[data-testid=import]", &[&scenario_file]);
    page.wait_for_text("[data-testid=scenario-title]", "Two apples, delivered twice");
    assert_eq!(page.text("[data-testid=position]"), "step 0 / 0");
    assert_eq!(
        page.evaluate("document.querySelector('[data-testid=scenario]').selectedOptions[0].text"),
        "(imported) Two apples, delivered twice"
    );
    assert_broken(&page, &[]);
    let run = Simulation::run(scenario, 0).unwrap();
    let total = run.steps.len();
    page.click("[data-testid=run-to-end]");
    page.wait_for_text("[data-testid=position]", &format!("step {total} / {total}"));
    assert_broken(&page, &run.steps.last().unwrap().violated);
    assert_eq!(run.steps.last().unwrap().violated, [InvariantId::I2, InvariantId::I6]);

    // A malformed file: the banner says why it is neither, in the core's words, and the run
    // stays on the page.
    let malformed = "{\"format_version\": 1, \"id\": \"broken\", \"title\": 5}";
    let malformed_file = files.join("broken.json");
    std::fs::write(&malformed_file, malformed).unwrap();
    page.set_input_files("[data-testid=import]", &[Path::new(&malformed_file)]);
    page.wait_until("the error banner shows", "document.querySelector('[data-testid=error]')");
    let expected = format!(
        "broken.json is neither a trace ({}) nor a scenario ({}).",
        Trace::from_json(malformed).unwrap_err(),
        Scenario::from_json(malformed).unwrap_err()
    );
    assert_eq!(page.text("[data-testid=error] span"), expected);
    assert!(expected.contains("title"), "the scenario error names the field: {expected}");
    assert_eq!(page.text("[data-testid=scenario-title]"), "Two apples, delivered twice");
    assert_eq!(page.text("[data-testid=position]"), format!("step {total} / {total}"));
    assert_broken(&page, &[InvariantId::I2, InvariantId::I6]);
    page.screenshot("import-malformed-file");

    assert_eq!(page.console_errors(), Vec::<String>::new());
}
