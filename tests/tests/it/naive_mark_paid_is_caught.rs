//! P2's naive `MarkPaid` (charge on every call, from any status) is caught by I3: a payment
//! callback that arrives twice charges the order twice.
//!
//! Everything else is idempotent. The search runs the generated sequences of the other tests
//! with a fixed seed, expects a failure, and snapshots the shrunk counterexample.

use crate::patterns::{CheckAt, Setup, search_counterexample};
use expect_test::expect;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::order::OrderImplementation;

#[test]
fn a_repeated_payment_through_the_naive_mark_paid_breaks_i3_in_two_operations() {
    let setup = Setup { order: OrderImplementation::Naive, ..Setup::idempotent() };
    let found = search_counterexample(setup, InvariantId::I3, CheckAt::EveryOperation, 500, 20)
        .expect("the naive MarkPaid must be caught");
    assert!(found.ops.len() <= 2, "not minimal: {}", found.render());
    expect![[r#"
        1. client 0 sends POST /orders
        2. MarkPaid(pay-0) on order 0, 2 time(s)
        => I3 Charged at most once: Order 00000000-0000-0000-0000-000000000001 was charged twice: charge-1 (payment pay-0), charge-2 (payment pay-0).
    "#]].assert_eq(&found.render());
}
