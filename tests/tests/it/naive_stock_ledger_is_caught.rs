//! P1's naive twin (`qty = qty - n` on every delivery) is caught by I2: a duplicate delivery
//! reserves the same order line twice.
//!
//! The duplicate must reach the ledger, so the consumer in front of it is the seed's naive one
//! too (no inbox): with the idempotent inbox in front, duplicates never reach the ledger, which
//! `inbox_shields_a_naive_ledger.rs` shows. The search runs the generated sequences of the other
//! tests with a fixed seed, expects a failure, and snapshots the shrunk counterexample.

use crate::patterns::{CheckAt, Setup, search_counterexample};
use expect_test::expect;
use idempotency_lab::inbox::ConsumerImplementation;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::stock::StockImplementation;

#[test]
fn a_duplicate_delivery_to_the_naive_ledger_breaks_i2_in_three_operations() {
    let setup = Setup {
        stock: StockImplementation::Naive,
        consumer: ConsumerImplementation::Naive,
        ..Setup::idempotent()
    };
    let found = search_counterexample(setup, InvariantId::I2, CheckAt::EveryOperation, 500, 20)
        .expect("the naive ledger must be caught");
    assert!(found.ops.len() <= 3, "not minimal: {}", found.render());
    expect![[r#"
        1. client 0 sends POST /orders
        2. the relay runs
        3. the broker delivers pending message 0 twice
        => I2 One reservation per order line: Order 00000000-0000-0000-0000-000000000001 has 2 units of apple reserved, but it asks for only 1: the reservation effect ran twice.
    "#]].assert_eq(&found.render());
}
