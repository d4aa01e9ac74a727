//! With all four patterns idempotent, no generated run of the shop breaks an invariant.
//!
//! Each run is a random sequence of client requests through the `Idempotency-Key` layer (with
//! lost responses, crashes mid-request and retries after the lease), relay runs (with crashes
//! after publish), deliveries to the inbox consumer that reserves stock (duplicated, crashed
//! before or after commit, raced by two instances), repeated `MarkPaid` and `Cancel`, and clock
//! advances. After every operation the real `check_all` must find nothing (I1-I5 and I7; I6
//! waits for quiescence), and after draining the relay and the broker it must still find
//! nothing, I6 included: every `OrderPlaced` was processed exactly once. Nothing may panic.

mod patterns;

use patterns::{Setup, Shop, ops, proptest_config};
use proptest::prelude::*;

proptest! {
    #![proptest_config(proptest_config(
        2_000,
        "proptest-regressions/idempotent_patterns_keep_every_invariant.txt"
    ))]

    #[test]
    fn every_invariant_holds_after_every_operation_and_at_quiescence(ops in ops(20)) {
        let mut shop = Shop::new(Setup::idempotent());
        for (index, op) in ops.iter().enumerate() {
            shop.apply(op);
            let violations = shop.violations();
            prop_assert!(
                violations.is_empty(),
                "after operation {} ({op:?}): {}",
                index + 1,
                violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
            );
        }
        shop.drain();
        let violations = shop.violations_at_quiescence();
        prop_assert!(
            violations.is_empty(),
            "at quiescence: {}",
            violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
        );
    }
}
