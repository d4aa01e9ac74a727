//! The exhaustive checker finds each naive twin's counterexample on the two-message reference
//! scenario (two orders, hence two distinct `OrderPlaced` messages, two consumer instances,
//! one duplicate delivery and one crash after commit), with the faults that break it, on one of
//! the shortest paths, which replays in the simulator as an ordinary trace. The invariant, the
//! path length and the states explored to find it are pinned: a guard against silent model
//! drift. Patterns are switched as in each pattern's lesson (`core/scenarios/p*.json`).
//!
//! The idempotent shop's proof on this scenario (145 888 states) is pinned by
//! `check_two_orders_proves_idempotent_shop.rs` and by the checker's benchmark.

use idempotency_lab::check::{
    CheckConfig, CheckOutcome, FaultBudget, check, two_consumers_duplicate_and_crash_config,
    two_consumers_two_orders_duplicate_and_crash,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::ids::PaymentId;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{
    Choice, Operation, PatternMode, RequestIndex, RequestSpec, Scenario, Simulation,
    catalogue_scenario,
};

/// What a naive twin's check found: the invariants broken, the shortest path's length, the
/// states explored and the unique states stored when it was found.
type Found = (Vec<InvariantId>, usize, usize, usize);

/// Checks the two-message scenario (plus `extra` requests) in the naive mode of `lesson`'s
/// patterns with `faults`, checking `invariant` only; asserts the counterexample replays as a trace whose user-chosen steps are the path.
fn check_naive(
    lesson: &str,
    extra: Vec<RequestSpec>,
    faults: &[(FaultClass, u32)],
    invariant: InvariantId,
) -> Found {
    let patterns = catalogue_scenario(lesson).unwrap().with_mode(PatternMode::Naive).patterns;
    let mut scenario: Scenario = two_consumers_two_orders_duplicate_and_crash(patterns);
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
    let length = counterexample.path.len();
    let trace = &counterexample.trace;
    assert_eq!(Simulation::replay(trace).unwrap(), *trace, "{lesson}");
    let chosen: Vec<_> = trace
        .steps
        .iter()
        .filter(|step| step.chosen_by == Choice::User)
        .map(|step| step.action.clone())
        .collect();
    assert_eq!(chosen, counterexample.path, "{lesson}");
    assert_eq!(trace.summary.first_violation_step.get(&invariant), Some(&length), "{lesson}");
    let invariants = counterexample.violations.iter().map(|violation| violation.invariant);
    (invariants.collect(), length, report.stats.states_explored, report.stats.unique_states)
}

/// The reference budget: one duplicate delivery, one consumer crash after commit.
const REFERENCE_FAULTS: &[(FaultClass, u32)] = &[(FaultClass::F1, 1), (FaultClass::F2, 1)];

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
    let found = check_naive("p1-stock-reservation", vec![], REFERENCE_FAULTS, InvariantId::I2);
    assert_eq!(found, (vec![InvariantId::I2], 25, 4536, 7228));
}

#[test]
fn p2_naive_mark_paid_charges_twice_under_a_double_submit() {
    let found = check_naive(
        "p2-order-state-machine",
        vec![pay_first_order()],
        &[(FaultClass::F6, 1)],
        InvariantId::I3,
    );
    assert_eq!(found, (vec![InvariantId::I3], 20, 10893, 16654));
}

#[test]
fn p3_naive_key_layer_answers_differently_under_a_double_submit() {
    let found = check_naive("p3-idempotency-key", vec![], &[(FaultClass::F6, 1)], InvariantId::I4);
    assert_eq!(found, (vec![InvariantId::I4], 3, 5, 9));
}

#[test]
fn p4_naive_consumer_processes_a_duplicate_twice() {
    let found = check_naive("p4-inbox-consumer", vec![], REFERENCE_FAULTS, InvariantId::I2);
    assert_eq!(found, (vec![InvariantId::I2], 25, 4536, 7228));
}
