//! The exhaustive checker proves the idempotent shop on the reference scenario under the API's
//! faults too: a lost response (F5, the client retries with the same key) and a double submit
//! (F6, two concurrent requests with one key), every interleaving with the relay and both
//! consumer instances. The state counts are pinned: a guard against silent model drift.

use idempotency_lab::check::{
    CheckConfig, CheckOutcome, FaultBudget, check, two_consumers_duplicate_and_crash,
    two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{PatternMode, Patterns};

/// Checks the idempotent reference scenario with one fault of `class`; returns the unique
/// states and the depth reached.
fn prove(class: FaultClass) -> (usize, usize) {
    let config = CheckConfig {
        faults: FaultBudget::of(&[(class, 1)]),
        ..two_consumers_duplicate_and_crash_config()
    };
    let scenario = two_consumers_duplicate_and_crash(Patterns::all(PatternMode::Idempotent));
    let report = check(scenario, 0, config, &mut |_| {}).unwrap();
    assert_eq!(report.outcome, CheckOutcome::Proved, "{class}");
    assert_eq!(report.stats.frontier_len, 0);
    (report.stats.unique_states, report.stats.depth_reached)
}

#[test]
fn a_lost_response_never_places_a_second_order() {
    assert_eq!(prove(FaultClass::F5), (809, 37));
}

#[test]
fn a_double_submit_never_runs_the_handler_twice() {
    assert_eq!(prove(FaultClass::F6), (48_898, 42));
}
