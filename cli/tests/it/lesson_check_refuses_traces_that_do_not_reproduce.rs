//! `lesson <id> --check` grades a trace only once it reproduces from its own scenario, seed and
//! choices (the core's `sim::reproduce`, the rule `replay` and the page's checks use): a
//! reservation's qty edited to 999, a naive run relabelled idempotent with its violations
//! deleted, and a trace cut short are each refused with exit 2 and their first differing step
//! quoted; the honest trace they were made from passes.

use crate::common::{CliRun, run_cli, scratch_dir};
use serde_json::Value;

/// `run --json` of the reservation ledger's scenario in `mode`, as JSON.
fn ledger_run(mode: &str) -> Value {
    let run = run_cli(&["run", "p1-stock-reservation", "--mode", mode, "--json"]);
    assert!(run.code <= 1, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// `lesson reservation-ledger --check` of `trace`, saved under `dir` as `name`.
fn check(dir: &std::path::Path, name: &str, trace: &Value) -> CliRun {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(trace).unwrap() + "\n").unwrap();
    run_cli(&["lesson", "reservation-ledger", "--check", path.to_str().unwrap()])
}

/// Asserts a refusal of the file `name` in `dir`: exit 2, nothing graded, the file and its
/// first differing step named, both sides quoted.
fn assert_refused(run: &CliRun, dir: &std::path::Path, name: &str, step: usize) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "", "nothing is graded");
    let stderr = run.stderr.replace(dir.to_str().unwrap(), "DIR");
    let expected = format!(
        "error: lesson reservation-ledger: trace `DIR/{name}` does not reproduce from its \
         scenario, seed and choices, so it is not graded: step {step} differs\n  recorded: "
    );
    assert!(stderr.starts_with(&expected), "{expected}\nis not the start of:\n{stderr}");
    assert!(stderr.contains("\n  replayed: "), "{stderr}");
}

#[test]
fn the_honest_trace_passes() {
    let dir = scratch_dir("lesson-check-honest");
    let run = check(&dir, "honest.json", &ledger_run("idempotent"));
    // Graded, not refused: it passes the fix (task 5); the "break it yourself" task (3)
    // needs a run of the learner's own fault.
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("task 5: passed\n"), "{}", run.stdout);
    assert!(run.stdout.ends_with("1 of 2 tasks passed\n"), "{}", run.stdout);
}

#[test]
fn a_reservation_qty_edited_to_999_is_refused_at_the_step_that_wrote_it() {
    let dir = scratch_dir("lesson-check-edited");
    let mut trace = ledger_run("idempotent");
    let steps = trace["steps"].as_array_mut().unwrap();
    let (index, step) = steps
        .iter_mut()
        .enumerate()
        .find(|(_, step)| {
            step["row_changes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|change| change["table"] == "reservations" && !change["after"].is_null())
        })
        .expect("the run reserves");
    for change in step["row_changes"].as_array_mut().unwrap() {
        if change["table"] == "reservations" {
            change["after"]["qty"] = 999.into();
        }
    }
    let run = check(&dir, "edited.json", &trace);
    assert_refused(&run, &dir, "edited.json", index + 1);
    assert!(run.stderr.contains("reservations"), "{}", run.stderr);
}

#[test]
fn a_naive_run_relabelled_idempotent_without_its_violations_is_refused() {
    let dir = scratch_dir("lesson-check-relabelled");
    let honest = ledger_run("idempotent");
    let mut trace = ledger_run("naive");
    trace["scenario"]["patterns"] = honest["scenario"]["patterns"].clone();
    for step in trace["steps"].as_array_mut().unwrap() {
        step["new_violations"] = Value::Array(vec![]);
        step["violated"] = Value::Array(vec![]);
    }
    trace["summary"]["first_violation_step"] = Value::Object(Default::default());
    trace["summary"]["violated_at_end"] = Value::Array(vec![]);
    let run = check(&dir, "relabelled.json", &trace);
    // The first statement the twins run differently: the naive UPDATE against the INSERT.
    assert_refused(&run, &dir, "relabelled.json", 27);
    assert!(
        run.stderr.contains("recorded:   27  t0     Consumer B    UPDATE stock"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("replayed:   27  t0     Consumer B    INSERT INTO reservations"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_trace_cut_short_is_refused_at_its_first_missing_step() {
    let dir = scratch_dir("lesson-check-truncated");
    let mut trace = ledger_run("idempotent");
    trace["steps"].as_array_mut().unwrap().truncate(10);
    trace["summary"]["steps"] = 10.into();
    let run = check(&dir, "truncated.json", &trace);
    assert_refused(&run, &dir, "truncated.json", 11);
    assert!(
        run.stderr.contains("recorded: (none: the trace ends before this step)"),
        "{}",
        run.stderr
    );
    // `replay` refuses it the same way, by the same rule.
    let path = dir.join("truncated.json");
    let replay = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(replay.code, 1);
    assert!(
        replay.stdout.contains("does not reproduce: step 11 differs\n  recorded: (none"),
        "{}",
        replay.stdout
    );
}
