//! The exhaustive checker finds each naive twin's counterexample on the reference scenario
//! (two consumer instances, one order), with the faults that break it, and reports one of the
//! shortest paths: the invariant and the path length are pinned. Patterns are switched as in
//! each pattern's lesson (`core/scenarios/p*.json`): the P1 lesson runs the naive ledger behind
//! the naive consumer, the P2 lesson the naive `MarkPaid` behind the naive key layer.

use idempotency_lab::check::{
    CheckConfig, CheckOutcome, FaultBudget, check, two_consumers_duplicate_and_crash,
    two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::ids::PaymentId;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{
    Operation, PatternMode, RequestIndex, RequestSpec, Scenario, catalogue_scenario,
};

/// Checks the reference scenario (plus `extra` requests) in the naive mode of `lesson`'s
/// patterns with `faults`, checking `invariant` only, and asserts it breaks on a shortest path
/// of `path_length` steps.
fn check_naive(
    lesson: &str,
    extra: Vec<RequestSpec>,
    faults: &[(FaultClass, u32)],
    invariant: InvariantId,
    path_length: usize,
) {
    let patterns = catalogue_scenario(lesson).unwrap().with_mode(PatternMode::Naive).patterns;
    let mut scenario: Scenario = two_consumers_duplicate_and_crash(patterns);
    scenario.requests.extend(extra);
    // Only the pattern's own invariant is checked, so that a twin switched naive beside it in
    // the lesson (P3 beside P2) does not answer first.
    let config = CheckConfig {
        faults: FaultBudget::of(faults),
        invariants: vec![invariant],
        ..two_consumers_duplicate_and_crash_config()
    };
    let report = check(scenario, 0, config, &mut |_| {}).unwrap();
    let CheckOutcome::Violated(counterexample) = report.outcome else {
        panic!("{lesson}: expected a violation, got {:?}", report.outcome)
    };
    let invariants: Vec<InvariantId> =
        counterexample.violations.iter().map(|violation| violation.invariant).collect();
    assert_eq!((invariants, counterexample.path.len()), (vec![invariant], path_length), "{lesson}");
}

fn pay_first_order() -> RequestSpec {
    RequestSpec {
        operation: Operation::PayOrder {
            order_of: RequestIndex(0),
            payment_id: PaymentId::new("pay-1"),
        },
        send_at_tick: 0,
        after: Some(RequestIndex(0)),
    }
}

#[test]
fn p1_naive_ledger_takes_stock_twice_under_a_duplicate() {
    check_naive("p1-stock-reservation", vec![], &[(FaultClass::F1, 1)], InvariantId::I2, 25);
}

#[test]
fn p2_naive_mark_paid_charges_twice_under_a_double_submit() {
    check_naive(
        "p2-order-state-machine",
        vec![pay_first_order()],
        &[(FaultClass::F6, 1)],
        InvariantId::I3,
        20,
    );
}

#[test]
fn p3_naive_key_layer_answers_differently_under_a_double_submit() {
    check_naive("p3-idempotency-key", vec![], &[(FaultClass::F6, 1)], InvariantId::I4, 3);
}

#[test]
fn p4_naive_consumer_processes_a_duplicate_twice() {
    check_naive("p4-inbox-consumer", vec![], &[(FaultClass::F1, 1)], InvariantId::I2, 25);
}
