//! `idempotency-lab check` of the F1 lesson in idempotent mode: every interleaving with one
//! duplicate delivery keeps every invariant (exit 0, the exact state count), and a depth bound
//! too small to cover them is reported as bounded, not a proof (exit 3).

mod common;

use common::run_cli;

#[test]
fn idempotent_duplicate_delivery_is_proved_and_exits_0() {
    let run = run_cli(&["check", "f01-duplicate-delivery", "--mode", "idempotent"]);
    assert_eq!(run.code, 0, "proved; stderr: {}", run.stderr);
    assert_eq!(run.stdout, "proved within depth 34: 23122 states (23122 unique)\n");
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
