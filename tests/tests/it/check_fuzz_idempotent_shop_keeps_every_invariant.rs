//! With all four patterns idempotent, no generated scenario (up to 3 requests, up to 4
//! injected faults and random fault rates, any seed) breaks an invariant.
//!
//! The fault classes drawn are `testing::SURVIVABLE_FAULTS` (F1-F6, F9 and F12); its doc says
//! why the others are left out.

use idempotency_lab::sim::{PatternMode, Patterns};
use idempotency_lab::testing::{
    FuzzConfig, RandomFaults, SURVIVABLE_FAULTS, ScenarioShape, fuzz, fuzz_case, scenario,
};

#[test]
fn every_invariant_holds_under_arbitrary_schedules() {
    let shape = ScenarioShape {
        random_faults: RandomFaults::On,
        ..ScenarioShape::new(Patterns::all(PatternMode::Idempotent), &SURVIVABLE_FAULTS)
    };
    let config = FuzzConfig { cases: 1_000, fuzz_seed: 2026, ..FuzzConfig::default() };
    let report = fuzz(fuzz_case(scenario(shape)), config, &mut |_| {});
    if let Some(failure) = &report.failure {
        panic!(
            "seed {} broke {:?}:\n{}\n{}",
            failure.shrunk.seed,
            failure.violated,
            failure.shrunk.scenario.to_json(),
            failure.trace.to_text()
        );
    }
    assert_eq!(report.cases_run, 1_000);
    assert!(report.finished);
}
