//! `check --json` and `fuzz --json` print the counterexample as a trace: exactly the JSON that
//! `run --json` writes, so that `replay` reproduces it byte for byte and the page's import
//! (the core's `Trace::from_json`, then `Run::of_trace`, which anchors its user-chosen steps
//! as the page's choices) opens it. The verdict's words go to stderr. Without a counterexample
//! the one line of JSON says the outcome.

use std::path::Path;

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{Choice, Run, Trace};

use crate::common::{CliRun, run_cli, scratch_dir};

/// Saves the counterexample `printed` printed, replays it with the CLI and opens it as the
/// page's import does; returns the trace.
fn replays_and_opens(printed: &CliRun, dir: &Path) -> Trace {
    assert_eq!(printed.code, 1, "violated; stderr: {}", printed.stderr);
    let trace = Trace::from_json(&printed.stdout).expect("the counterexample is a trace");
    assert_eq!(printed.stdout, format!("{}\n", trace.to_json()), "in the form `run --json` writes");
    let path = dir.join("counterexample.trace.json");
    std::fs::write(&path, &printed.stdout).unwrap();
    let replay = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
    assert!(replay.stdout.contains("reproduces byte for byte"), "{}", replay.stdout);
    let run = Run::of_trace(&trace).expect("the page's import anchors its choices");
    let user_steps = trace.steps.iter().filter(|step| step.chosen_by == Choice::User).count();
    assert_eq!(run.choices.len(), user_steps);
    assert_eq!(Run::replay(&trace).unwrap(), trace, "the page's replay is the trace");
    trace
}

#[test]
fn check_json_prints_a_counterexample_that_replays_and_opens() {
    let dir = scratch_dir("check-json-counterexample");
    let printed = run_cli(&["check", "f01-duplicate-delivery", "--mode", "naive", "--json"]);
    let trace = replays_and_opens(&printed, &dir);
    assert!(trace.invariants_ever_violated().contains(&InvariantId::I2));
    assert!(trace.steps.iter().all(|step| step.chosen_by == Choice::User || step.step > 20));
    assert!(
        printed.stderr.starts_with(
            "violated after 1615 states (2216 unique): shortest path of 20 steps\n  I2 "
        ),
        "{}",
        printed.stderr
    );
}

#[test]
fn fuzz_json_prints_the_shrunk_case_that_replays_and_opens() {
    let dir = scratch_dir("fuzz-json-counterexample");
    let printed =
        run_cli(&["fuzz", "f01-duplicate-delivery", "--mode", "naive", "--cases", "32", "--json"]);
    let trace = replays_and_opens(&printed, &dir);
    assert_eq!(trace.seed, 0, "shrunk to seed 0");
    assert_eq!(trace.invariants_ever_violated(), [InvariantId::I2, InvariantId::I6]);
    assert!(
        printed
            .stderr
            .contains("violation in case 1 of 32: I2, I6; shrunk in 84 steps to seed 0\n"),
        "{}",
        printed.stderr
    );
}

#[test]
fn without_a_counterexample_the_json_says_the_outcome() {
    let check = run_cli(&["check", "p4-inbox-consumer", "--mode", "idempotent", "--json"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert_eq!(
        check.stdout,
        "{\"depth_reached\":34,\"outcome\":\"proved\",\"states_explored\":773,\"unique_states\":773}\n"
    );
    let bounded = run_cli(&[
        "check",
        "f01-duplicate-delivery",
        "--mode",
        "idempotent",
        "--depth-max",
        "10",
        "--json",
    ]);
    assert_eq!(bounded.code, 3);
    let value: serde_json::Value = serde_json::from_str(&bounded.stdout).unwrap();
    assert_eq!(value["outcome"], "bounded");
    assert_eq!(value["reason"], "paths longer than 10 steps were not explored");
    let fuzz = run_cli(&[
        "fuzz",
        "f01-duplicate-delivery",
        "--mode",
        "idempotent",
        "--cases",
        "16",
        "--json",
    ]);
    assert_eq!(fuzz.code, 0, "{}", fuzz.stderr);
    assert_eq!(
        fuzz.stdout,
        "{\"cases_run\":16,\"distinct_seeds\":16,\"outcome\":\"no_violation\"}\n"
    );
}
