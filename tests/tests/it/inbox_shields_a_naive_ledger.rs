//! The inbox (P4) alone protects an effect that is not idempotent: with the seed's naive
//! `qty = qty - n` ledger behind the idempotent inbox consumer, no generated run breaks an
//! invariant, neither after any operation nor at quiescence.
//!
//! Duplicates (F1), redeliveries after a crash before or after commit (F3, F2), messages
//! published twice by a crashed relay (F12) and two instances racing on one message (F4) all
//! meet the `(message_id, consumer)` row, inserted in the same transaction as the effect, and
//! never reach the ledger a second time. This is why catching the naive ledger
//! (`naive_stock_ledger_is_caught.rs`) needs a consumer without an inbox in front of it.

use crate::patterns::{Setup, check_every_invariant_holds, ops, proptest_config};
use idempotency_lab::stock::StockImplementation;
use proptest::prelude::*;

proptest! {
    #![proptest_config(proptest_config(
        500,
        "proptest-regressions/inbox_shields_a_naive_ledger.txt"
    ))]

    #[test]
    fn the_idempotent_inbox_keeps_every_invariant_in_front_of_a_naive_ledger(ops in ops(20)) {
        let result = check_every_invariant_holds(Setup { stock: StockImplementation::Naive, ..Setup::idempotent() }, &ops);
        prop_assert_eq!(result, Ok(()));
    }
}
