//! `idempotency-lab run --json` prints the trace exactly as `Trace` serializes it: it parses
//! back, equals `Simulation::run` of the same scenario, mode and seed, and the exit code still
//! says whether an invariant was violated.

use crate::common::run_cli;
use idempotency_lab::sim::{PatternMode, Simulation, Trace, catalogue_scenario};

fn check(id: &str, mode: PatternMode, seed: u64, code: i32) {
    let mode_arg = match mode {
        PatternMode::Naive => "naive",
        PatternMode::Idempotent => "idempotent",
    };
    let seed_arg = seed.to_string();
    let run = run_cli(&["run", id, "--mode", mode_arg, "--seed", &seed_arg, "--json"]);
    assert_eq!(run.code, code, "{id} {mode_arg} seed {seed}");
    assert_eq!(run.stderr, "");
    let expected = Simulation::run(catalogue_scenario(id).unwrap().with_mode(mode), seed).unwrap();
    let parsed = Trace::from_json(&run.stdout).unwrap();
    assert_eq!(parsed, expected);
    assert_eq!(run.stdout, format!("{}\n", expected.to_json()));
}

#[test]
fn json_of_a_naive_run_equals_the_simulation() {
    check("f01-duplicate-delivery", PatternMode::Naive, 7, 1);
}

#[test]
fn json_of_an_idempotent_run_equals_the_simulation() {
    check("f04-concurrent-delivery", PatternMode::Idempotent, 3, 0);
}
