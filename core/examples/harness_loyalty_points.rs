//! The harness for your own consumer, on a loyalty-points consumer: the naive version adds
//! points on every delivery and the harness catches it with a shrunk schedule; the version
//! behind the inbox passes the fuzzer and the exhaustive check.
//!
//! Run with `cargo run -p idempotency-lab --features testing --example harness_loyalty_points`.

use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{HarnessConfig, check_consumer, fuzz_consumer};
use idempotency_lab::testing::loyalty_points::{InboxLoyaltyPoints, NaiveLoyaltyPoints};

fn main() {
    let config = HarnessConfig::default();

    let naive = fuzz_consumer(NaiveLoyaltyPoints::new(), config);
    match &naive.counterexample {
        Some(counterexample) => {
            println!("naive: caught after {} schedules; shrunk schedule:", naive.cases_run);
            for action in &counterexample.actions {
                println!("  {action:?}");
            }
            println!("  => {}", counterexample.violation.sentence);
        }
        None => println!("naive: not caught (unexpected)"),
    }

    let fixed = fuzz_consumer(InboxLoyaltyPoints::new(), config);
    println!(
        "with the inbox: {} schedules, counterexample: {:?}",
        fixed.cases_run, fixed.counterexample
    );
    let proof = check_consumer(InboxLoyaltyPoints::new(), config);
    match proof.outcome {
        ExploreOutcome::Proved => {
            println!("with the inbox: proved over {} states", proof.stats.unique_states)
        }
        other => println!("with the inbox: {other:?}"),
    }
}
