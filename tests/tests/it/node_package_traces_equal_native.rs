//! The package (`dist/pkg/`, the page's wasm) in Node against the native core: every built-in
//! lesson, naive and idempotent, run to its end through the JavaScript API, gives a
//! `traceJson()` byte for byte equal to the native trace file, which is what
//! `idempotency-lab run --json --mode <mode>` prints; and `invariants(language)` at its end
//! equal to the core's lines of the page's panel (`view::invariant_lines`) in English and in
//! Russian. The note at the end counts the traces.

use idempotency_lab::sim::{CATALOGUE, PatternMode, Simulation, catalogue_scenario};
use idempotency_lab::view::{Language, breaking_steps, invariant_lines};
use idempotency_lab_tests::node::{fresh_dir, run_script};
use serde_json::{Value, json};

#[test]
fn node_package_traces_equal_the_native_core_byte_for_byte() {
    let out = fresh_dir("node-traces");
    run_script("traces.mjs", &[&out]);
    let mut compared = 0;
    for entry in CATALOGUE {
        let scenario = catalogue_scenario(entry.id).expect("a built-in lesson");
        for (mode_name, mode) in
            [("naive", PatternMode::Naive), ("idempotent", PatternMode::Idempotent)]
        {
            let mut simulation =
                Simulation::new(scenario.with_mode(mode), 0).expect("the lesson runs");
            simulation.run_to_end();
            let native = simulation.trace().to_json_file();
            let path = out.join(format!("{}.{mode_name}.json", entry.id));
            let wasm = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("read {}: {error}", path.display()));
            assert!(
                wasm == native,
                "{} {mode_name}: traceJson() differs from the native trace (first difference at byte {})",
                entry.id,
                wasm.bytes().zip(native.bytes()).take_while(|(a, b)| a == b).count()
            );
            for language in Language::ALL {
                let path = out.join(format!(
                    "{}.{mode_name}.invariants.{}.json",
                    entry.id,
                    language.code()
                ));
                let wasm: Value = serde_json::from_str(
                    &std::fs::read_to_string(&path)
                        .unwrap_or_else(|error| panic!("read {}: {error}", path.display())),
                )
                .expect("invariants() is JSON");
                let breaks = breaking_steps(simulation.steps());
                let lines = invariant_lines(&simulation.world().violations(), &breaks, language);
                let expected: Vec<Value> = lines
                    .iter()
                    .map(|line| {
                        json!({
                            "id": line.id.to_string(), "title": line.title, "held": line.holds(),
                            "violations": line.sentences, "brokeAtStep": line.broke_at,
                        })
                    })
                    .collect();
                assert_eq!(wasm, Value::Array(expected), "{} {mode_name} {language:?}", entry.id);
            }
            compared += 1;
        }
    }
    let written = std::fs::read_dir(&out).expect("the output directory").count();
    assert_eq!(
        written,
        compared * (1 + Language::ALL.len()),
        "Node wrote a trace for a lesson the catalogue does not list"
    );
    assert_eq!(compared, 2 * CATALOGUE.len());
    std::fs::remove_dir_all(&out).ok();
    eprintln!("native equals wasm for every lesson: {compared} traces compared byte for byte");
}
