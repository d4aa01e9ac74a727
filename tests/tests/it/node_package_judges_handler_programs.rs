//! `Lab.checkHandler` in Node (the package, the page's wasm) judges a learner's handler
//! program exactly as the native judge, which `idempotency-lab handler check` and the page's
//! build task use: for every valid example program of `examples/programs/` (the seed's
//! consumer and `MarkPaid`, their naive twins and each typical wrong answer), the same outcome,
//! state counts and sentence on why, and the same counterexample trace, byte for byte. The
//! sentence follows `options.language`, and an aborted signal cancels the judge.

use std::path::PathBuf;

use idempotency_lab::check::judge::{
    build_check_config_for, build_lesson, scenario_with_program, why_in,
};
use idempotency_lab::check::{CheckOutcome, Checker};
use idempotency_lab::program::HandlerProgram;
use idempotency_lab::sim::catalogue_scenario;
use idempotency_lab::words::Language;
use idempotency_lab_tests::node::{fresh_dir, run_script};

/// The example programs that validate (a refused one is `node_package_refuses_wrong_arguments`'s).
fn valid_programs() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/programs");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/programs")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            path.extension().is_some_and(|ext| ext == "json")
                && HandlerProgram::from_json(&std::fs::read_to_string(path).unwrap()).is_ok()
        })
        .collect();
    programs.sort();
    programs
}

#[test]
fn node_package_judges_handler_programs_as_the_native_judge() {
    let programs = valid_programs();
    assert!(programs.len() >= 8, "the example programs moved: {programs:?}");
    let out = fresh_dir("node-handlers");
    let mut args: Vec<&std::path::Path> = vec![&out];
    args.extend(programs.iter().map(PathBuf::as_path));
    let output = run_script("handlers.mjs", &args);
    let summary: serde_json::Value =
        serde_json::from_str(output.stdout.trim()).expect("the script's summary line");
    assert_eq!(summary["judged"], programs.len());
    assert!(
        summary["progressCalls"].as_u64().unwrap_or(0) > 0,
        "onProgress never heard: {summary}"
    );
    assert_eq!(summary["aborted"], "cancelled", "an aborted signal did not cancel: {summary}");
    let mut outcomes = Vec::new();
    for path in &programs {
        let text = std::fs::read_to_string(path).unwrap();
        let program = HandlerProgram::from_json(&text).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap();
        let lesson = build_lesson(program.handler);
        let scenario = scenario_with_program(&catalogue_scenario(lesson).unwrap(), &program);
        let report = Checker::new(scenario, 0, build_check_config_for(program.handler))
            .expect("the judge starts")
            .run_to_end(&mut |_| {})
            .expect("the judge ends");
        let wasm: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let stats = &report.stats;
        assert_eq!(wasm["lesson"], lesson, "{name}");
        assert_eq!(wasm["handler"], serde_json::to_value(program.handler).unwrap(), "{name}");
        assert_eq!(wasm["stats"]["uniqueStates"], stats.unique_states, "{name}: {wasm}");
        assert_eq!(wasm["stats"]["statesExplored"], stats.states_explored, "{name}");
        assert_eq!(wasm["stats"]["depthReached"], stats.depth_reached, "{name}");
        match &report.outcome {
            CheckOutcome::Proved => {
                assert_eq!(wasm["outcome"], "proved", "{name}: {wasm}");
                assert!(wasm["why"].is_null() && wasm["counterexample"].is_null(), "{name}");
            }
            CheckOutcome::Violated(counterexample) => {
                assert_eq!(wasm["outcome"], "violated", "{name}: {wasm}");
                assert_eq!(wasm["why"], why_in(&program, Language::En), "{name}");
                assert_eq!(wasm["brokenAtStep"], counterexample.path.len(), "{name}");
                assert!(
                    wasm["counterexample"].as_str() == Some(&counterexample.trace.to_json_file()),
                    "{name}: the counterexample trace differs from the native one"
                );
                let broken: Vec<String> =
                    counterexample.violations.iter().map(|v| v.invariant.to_string()).collect();
                let named: Vec<String> = wasm["violations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v["invariant"].as_str().unwrap().to_owned())
                    .collect();
                assert_eq!(named, broken, "{name}");
            }
            CheckOutcome::Bounded { reason } => {
                panic!("{name}: the native judge reached a bound ({reason}); the examples must fit")
            }
        }
        outcomes.push(format!("{name}: {}", wasm["outcome"]));
        if path == &programs[0] {
            let russian: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(out.join(format!("{name}.ru.json"))).unwrap(),
            )
            .unwrap();
            let expected = match &report.outcome {
                CheckOutcome::Violated(_) => serde_json::json!(why_in(&program, Language::Ru)),
                _ => serde_json::Value::Null,
            };
            assert_eq!(russian["why"], expected, "{name} in Russian");
            assert!(
                russian["why"]
                    .as_str()
                    .is_some_and(|why| why.chars().any(idempotency_lab::words::is_cyrillic)),
                "the first example must break, so that its Russian sentence is compared: {russian}"
            );
        }
    }
    std::fs::remove_dir_all(&out).ok();
    eprintln!("wasm judges as native: {}", outcomes.join(", "));
}
