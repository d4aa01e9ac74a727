//! `idempotency-lab check` in idempotent mode: every interleaving of the P4 lesson with its
//! fault placed anywhere keeps every invariant (exit 0, the exact state count), and a depth
//! bound too small to cover the F1 lesson is reported as bounded, not a proof (exit 3).

use crate::common::run_cli;

#[test]
fn idempotent_inbox_consumer_is_proved_and_exits_0() {
    let run = run_cli(&["check", "p4-inbox-consumer", "--mode", "idempotent"]);
    assert_eq!(run.code, 0, "proved; stderr: {}", run.stderr);
    assert_eq!(run.stderr, "", "fewer states than one progress slice");
    assert_eq!(run.stdout, "proved within depth 34: 773 states (773 unique)\n");
}

#[test]
fn a_depth_bound_hit_first_is_not_a_proof_and_exits_3() {
    let run =
        run_cli(&["check", "f01-duplicate-delivery", "--mode", "idempotent", "--depth-max", "10"]);
    assert_eq!(run.code, 3, "bounded");
    assert_eq!(run.stderr, "");
    assert_eq!(
        run.stdout,
        "bounded: paths longer than 10 steps were not explored, not a proof \
         (11 states, 11 unique, depth 10)\n"
    );
}
