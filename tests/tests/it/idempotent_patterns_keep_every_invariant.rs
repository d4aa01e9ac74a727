//! With all four patterns idempotent, no generated run of the shop breaks an invariant.
//!
//! Each run is a random sequence of client requests through the `Idempotency-Key` layer (with
//! lost responses, crashes mid-request and retries after the lease), relay runs (with crashes
//! after publish), deliveries to the inbox consumer that reserves stock (duplicated, crashed
//! before or after commit, raced by two instances), repeated `MarkPaid` and `Cancel`, and clock
//! advances. After every operation the real `check_all` must find nothing (I1-I5 and I7; I6
//! waits for quiescence), and after draining the relay and the broker it must still find
//! nothing, I6 included: every `OrderPlaced` was processed exactly once. Nothing may panic.
//!
//! This shop model has one fixed configuration; the same property over generated
//! configurations (instances, retry policy, lease, retention, relay, stock) of the simulated
//! shop is `every_idempotent_configuration_keeps_every_invariant.rs`.

use crate::patterns::{Setup, check_every_invariant_holds, ops, proptest_config};
use proptest::prelude::*;

proptest! {
    #![proptest_config(proptest_config(
        2_000,
        "proptest-regressions/idempotent_patterns_keep_every_invariant.txt"
    ))]

    #[test]
    fn every_invariant_holds_after_every_operation_and_at_quiescence(ops in ops(20)) {
        let result = check_every_invariant_holds(Setup::idempotent(), &ops);
        prop_assert_eq!(result, Ok(()));
    }
}
