//! `idempotency-lab check` of the F1 lesson in naive mode: the checker finds the duplicate that
//! reserves the stock twice, names I2 with its sentence, gives the shortest path's length and
//! prints the counterexample's trace, and exits 1.

use crate::common::run_cli;

#[test]
fn naive_duplicate_delivery_is_violated_and_exits_1() {
    let run = run_cli(&["check", "f01-duplicate-delivery", "--mode", "naive"]);
    assert_eq!(run.code, 1, "violated; stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let mut lines = run.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("violated after 1615 states (2216 unique): shortest path of 20 steps")
    );
    assert_eq!(
        lines.next(),
        Some(
            "  I2 One reservation per order line: Order 73128e1c-fa54-4a40-a579-c0096c3c237c has \
             6 units of apple reserved, but it asks for only 3: the reservation effect ran twice."
        )
    );
    assert_eq!(lines.next(), Some(""));
    assert_eq!(lines.next(), Some("counterexample trace (replays in the simulator):"));
    assert_eq!(lines.next(), Some("F1: the broker delivers a message twice"));
    assert_eq!(
        lines.next(),
        Some(
            "scenario f01-duplicate-delivery, mode naive (P1 naive, P2 naive, P3 naive, \
             P4 naive), seed 0"
        )
    );
    assert!(run.stdout.contains("(fault F1)"), "the trace shows the duplicate:\n{}", run.stdout);
    assert!(run.stdout.contains("\n  I2 One reservation per order line: first broken at step "));
}
