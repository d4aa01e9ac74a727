//! The exhaustive checker proves the idempotent shop on the two-message reference scenario
//! (two orders, hence two distinct `OrderPlaced` messages, two consumer instances, one
//! duplicate delivery and one crash after commit, in every interleaving the broker and the
//! clock allow). The states explored, the unique states and the depth are pinned: a guard
//! against silent model drift. Each naive twin's counterexample on the same scenario is in
//! `check_two_orders_finds_each_naive_twin.rs`.

use idempotency_lab::check::CheckOutcome;

use crate::fixtures::two_orders_idempotent_proof;

#[test]
fn every_interleaving_of_two_orders_keeps_every_invariant_in_the_idempotent_shop() {
    let proof = two_orders_idempotent_proof();
    let (report, seen) = (&proof.report, &proof.progress);
    assert_eq!(report.outcome, CheckOutcome::Proved);
    assert_eq!(
        (report.stats.states_explored, report.stats.unique_states, report.stats.depth_reached),
        (145_888, 145_888, 69)
    );
    // Progress is reported on the way (the page and the CLI show it), never going back.
    assert!(seen.len() >= 14, "progress reported {} times", seen.len());
    assert!(seen.windows(2).all(|pair| pair[0] <= pair[1]), "progress went back: {seen:?}");
    assert!(seen.last().is_some_and(|last| *last <= 145_888));
}
