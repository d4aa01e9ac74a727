//! P4's naive twin (a consumer without an inbox) is caught by I6 at quiescence: a message the
//! broker delivered twice was processed twice.
//!
//! Everything else is idempotent, P1's ledger included, and the ledger absorbs the second
//! reservation, so I1-I5 hold (the first test below checks that over the generated runs). I5
//! cannot catch this twin: it judges only effects applied with an inbox, and the naive
//! consumer has none. What is left is I6: once the relay and the broker are drained, each
//! `OrderPlaced` must have been processed exactly once per consumer, and the naive consumer
//! processed it twice. (With P1 naive as well, the same runs break I2: see
//! `naive_stock_ledger_is_caught.rs`.)

use crate::patterns::{CheckAt, Setup, Shop, ops, proptest_config, search_counterexample};
use expect_test::expect;
use idempotency_lab::inbox::ConsumerImplementation;
use idempotency_lab::invariants::InvariantId;
use proptest::prelude::*;

fn setup() -> Setup {
    Setup { consumer: ConsumerImplementation::Naive, ..Setup::idempotent() }
}

proptest! {
    #![proptest_config(proptest_config(
        300,
        "proptest-regressions/naive_inbox_consumer_is_caught.txt"
    ))]

    #[test]
    fn behind_the_naive_consumer_the_idempotent_ledger_keeps_i1_to_i5(ops in ops(20)) {
        let mut shop = Shop::new(setup());
        for op in &ops {
            shop.apply(op);
            let violations: Vec<String> = shop
                .violations()
                .iter()
                .filter(|violation| violation.invariant <= InvariantId::I5)
                .map(ToString::to_string)
                .collect();
            prop_assert!(violations.is_empty(), "after {op:?}: {}", violations.join("; "));
        }
    }
}

#[test]
fn a_message_published_twice_is_processed_twice_by_the_naive_consumer_breaking_i6() {
    let found = search_counterexample(
        setup(),
        InvariantId::I6,
        CheckAt::EveryOperationAndQuiescence,
        500,
        20,
    )
    .expect("the naive consumer must be caught");
    assert!(found.ops.len() <= 2, "not minimal: {}", found.render());
    expect![[r#"
        1. client 0 sends POST /orders
        2. the relay publishes and crashes before marking
        => I6 Each OrderPlaced processed once: At quiescence, reserve-stock processed OrderPlaced 00000000-0000-0000-0000-000000000002 of order 00000000-0000-0000-0000-000000000001 twice, not exactly once (the message was published twice).
    "#]].assert_eq(&found.render());
}
