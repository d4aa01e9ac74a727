//! The harness catches a deliberately non-idempotent user consumer: loyalty points added on
//! every delivery. The fuzzer shrinks the failing schedule to one duplicate delivery, and the
//! exhaustive check finds a shortest schedule with the same single fault.

use expect_test::expect;
use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{
    HarnessAction, HarnessConfig, check_consumer, fuzz_consumer,
};
use idempotency_lab::testing::loyalty_points::NaiveLoyaltyPoints;

#[test]
fn the_fuzzer_shrinks_the_counterexample_to_one_duplicate() {
    let report = fuzz_consumer(NaiveLoyaltyPoints::new(), HarnessConfig::default());
    let counterexample = report.counterexample.expect("the naive consumer is caught");
    assert_eq!(counterexample.faults(), 1);
    expect![[r#"
        after every delivery, the store shows 40, but delivering each message exactly once shows 30
    "#]]
    .assert_eq(&format!("{}\n", counterexample.violation.sentence));
}

#[test]
fn the_checker_finds_a_shortest_schedule() {
    let report = check_consumer(NaiveLoyaltyPoints::new(), HarnessConfig::default());
    let ExploreOutcome::Violated { violation, path } = report.outcome else {
        panic!("expected a violation, got {:?}", report.outcome)
    };
    let faults: Vec<&HarnessAction> = path
        .iter()
        .filter(|action| {
            matches!(action, HarnessAction::Duplicate { .. } | HarnessAction::Crash { .. })
        })
        .collect();
    assert_eq!(faults.len(), 1);
    assert_eq!(path.len(), 15);
    assert!(violation.sentence.contains("delivering each message exactly once shows 30"));
}
