//! `idempotency-lab replay` re-runs a trace saved by `run --json`: the saved trace reproduces
//! byte for byte (exit 0); an edited one does not (exit 1), and the message says where.

use crate::common::{run_cli, scratch_dir};
use expect_test::expect;

fn saved_trace(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let run =
        run_cli(&["run", "f04-concurrent-delivery", "--mode", "naive", "--seed", "5", "--json"]);
    assert_eq!(run.code, 1);
    let path = dir.join("trace.json");
    std::fs::write(&path, &run.stdout).unwrap();
    (path, run.stdout)
}

#[test]
fn a_saved_trace_reproduces_byte_for_byte() {
    let dir = scratch_dir("replay-round-trip");
    let (path, _) = saved_trace(&dir);
    let run = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr, "");
    expect![[r#"
        trace `DIR/trace.json` reproduces byte for byte: scenario f04-concurrent-delivery, seed 5, 27 steps
    "#]].assert_eq(&run.stdout.replace(dir.to_str().unwrap(), "DIR"));
}

#[test]
fn an_edited_trace_does_not_reproduce() {
    let dir = scratch_dir("replay-edited");
    let (path, text) = saved_trace(&dir);
    let edited = text.replacen("\"tick\": 0,", "\"tick\": 9,", 1);
    assert_ne!(edited, text);
    std::fs::write(&path, edited).unwrap();
    let run = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr, "");
    expect![[r#"
        trace `DIR/trace.json` does not reproduce: step 1 differs
          recorded:    1  t9     Client 0      client_send request=0 => request_sent attempt=0 key="4dac1eb7-4a62-42ca-984d-eff180daeb5d" kind="first" method_and_path="POST /orders" request=0
          replayed:    1  t0     Client 0      client_send request=0 => request_sent attempt=0 key="4dac1eb7-4a62-42ca-984d-eff180daeb5d" kind="first" method_and_path="POST /orders" request=0
    "#]].assert_eq(&run.stdout.replace(dir.to_str().unwrap(), "DIR"));
}

#[test]
fn a_reformatted_trace_is_equal_but_not_byte_for_byte() {
    let dir = scratch_dir("replay-reformatted");
    let (path, text) = saved_trace(&dir);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    std::fs::write(&path, serde_json::to_string(&value).unwrap()).unwrap();
    let run = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    expect![[r#"
        trace `DIR/trace.json` does not reproduce: the replay equals the trace, but the file is not in the form `run --json` writes (was it reformatted?)
    "#]].assert_eq(&run.stdout.replace(dir.to_str().unwrap(), "DIR"));
}

#[test]
fn a_trace_edited_with_a_huge_statement_is_quoted_short() {
    let dir = scratch_dir("replay-huge-statement");
    let (path, text) = saved_trace(&dir);
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let huge = "x".repeat(1_000_000);
    value["steps"][0]["statement"] = serde_json::Value::String(huge);
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let run = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("step 1 differs"), "{}", run.stdout);
    assert!(run.stdout.len() < 2_000, "the message quotes {} bytes", run.stdout.len());
    assert!(run.stdout.contains("… [+"), "the cut says how much was left out: {}", run.stdout);
}
