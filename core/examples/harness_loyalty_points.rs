//! The harness for your own consumer, on a loyalty-points consumer: the naive version adds
//! points on every delivery and the harness catches it with a shrunk schedule; the version
//! behind the inbox passes the fuzzer and the exhaustive check.
//!
//! Run with `cargo run -p idempotency-lab --features testing --example harness_loyalty_points`.
//! README's "Fuzz a consumer or HTTP handler written as steps" quotes its heart; a test
//! keeps the two the same.

use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{HarnessConfig, check_consumer, fuzz_consumer};
use idempotency_lab::testing::loyalty_points::{InboxLoyaltyPoints, NaiveLoyaltyPoints};

fn main() {
    // Adds points on every delivery: caught, shrunk to a single duplicate delivery.
    let report = fuzz_consumer(NaiveLoyaltyPoints::new(), HarnessConfig::default());
    let counterexample = report.counterexample.expect("the naive consumer is caught");
    assert_eq!(counterexample.faults(), 1);
    println!("naive: caught after {} schedules; shrunk schedule:", report.cases_run);
    for action in &counterexample.actions {
        println!("  {action:?}");
    }
    println!("  => {}", counterexample.violation.sentence);

    // The same effect behind the inbox (P4): every schedule within the bounds is proved.
    let proof = check_consumer(InboxLoyaltyPoints::new(), HarnessConfig::default());
    assert_eq!(proof.outcome, ExploreOutcome::Proved);
    println!("with the inbox: proved over {} states", proof.stats.unique_states);
    let fixed = fuzz_consumer(InboxLoyaltyPoints::new(), HarnessConfig::default());
    assert_eq!(fixed.counterexample, None);
    println!("with the inbox: {} fuzzed schedules, no counterexample", fixed.cases_run);
}
