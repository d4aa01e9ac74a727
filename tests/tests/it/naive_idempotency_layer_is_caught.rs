//! P3's naive twin (no `Idempotency-Key` handling) is caught by I4: a client that lost its
//! response retries with the same key, the handler runs again and places a second order, and
//! the two answers under one key differ (two different order ids).
//!
//! Everything else is idempotent. The handler behind the layer is `PlaceOrder`, so the naive
//! twin breaks I4 (same key, different answers), not I3: no charge is involved. The search runs
//! the generated sequences of the other tests with a fixed seed, expects a failure, and
//! snapshots the shrunk counterexample.

use crate::patterns::{CheckAt, Setup, search_counterexample};
use expect_test::expect;
use idempotency_lab::idempotency::Implementation;
use idempotency_lab::invariants::InvariantId;

#[test]
fn a_retry_after_a_lost_response_through_the_naive_layer_breaks_i4_in_two_operations() {
    let setup = Setup { api: Implementation::Naive, ..Setup::idempotent() };
    let found = search_counterexample(setup, InvariantId::I4, CheckAt::EveryOperation, 500, 20)
        .expect("the naive layer must be caught");
    assert!(found.ops.len() <= 2, "not minimal: {}", found.render());
    expect![[r#"
        1. client 2 sends POST /orders, the response is lost
        2. client 2 sends POST /orders
        => I4 Same key, same answer: Requests with key 00000000-0000-0000-0000-0000000c0002 got different answers: status 201 with body `{"order_id":"00000000-0000-0000-0000-000000000001"}` at t1, but status 201 with body `{"order_id":"00000000-0000-0000-0000-000000000003"}` at t1 (the handler ran again).
    "#]].assert_eq(&found.render());
}
