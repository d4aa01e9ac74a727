//! `idempotency-lab fuzz` of the F1 lesson: in naive mode the fuzzer finds a violation and
//! shrinks it to the lesson's one duplicate delivery at seed 0 (exit 1); in idempotent mode
//! no case breaks an invariant (exit 0). Cases per second go to stderr.

use crate::common::run_cli;

#[test]
fn naive_duplicate_delivery_is_found_shrunk_and_exits_1() {
    let run = run_cli(&["fuzz", "f01-duplicate-delivery", "--mode", "naive", "--cases", "32"]);
    assert_eq!(run.code, 1, "violated; stderr: {}", run.stderr);
    let head: Vec<&str> = run.stdout.lines().take(7).collect();
    assert_eq!(
        head,
        [
            "violation in case 1 of 32: I2, I6; shrunk in 84 steps to seed 0",
            "faults that fired: injected F1 x1; from random rates none",
            "injections in the shrunk case: 1",
            "  F1 {\"fault\":\"duplicate_delivery\",\"message\":{\"order_placed_of\":0}}",
            "random fault rates: none",
            "",
            "shrunk trace:",
        ]
    );
    assert!(run.stdout.contains("\n  I2 One reservation per order line: first broken at step 26"));
    assert!(run.stderr.starts_with("fuzzed 1 cases in "), "stderr: {}", run.stderr);
    assert!(run.stderr.ends_with(" cases/s\n"), "stderr: {}", run.stderr);
}

#[test]
fn idempotent_duplicate_delivery_holds_and_exits_0() {
    let run = run_cli(&["fuzz", "f01-duplicate-delivery", "--mode", "idempotent", "--cases", "32"]);
    assert_eq!(run.code, 0, "no violation; stderr: {}", run.stderr);
    assert_eq!(run.stdout, "no violation in 32 cases (32 distinct seeds)\n");
}
