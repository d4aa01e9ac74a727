//! Repro 5 of issue 11: `idempotency-lab fuzz f03-crash-before-commit --mode idempotent`
//! reported I6 because five F3 crashes in a row (random rates on top of the lesson's
//! injection) dead-letter the message, which I6 counted as not processed once. A dead letter
//! is its own outcome: the idempotent shop keeps every invariant (exit 0).

use crate::common::run_cli;

#[test]
fn fuzzing_the_idempotent_crash_before_commit_lesson_finds_no_violation() {
    let run = run_cli(&["fuzz", "f03-crash-before-commit", "--mode", "idempotent"]);
    assert_eq!(run.code, 0, "stdout: {}\nstderr: {}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("no violation in "), "{}", run.stdout);
}
