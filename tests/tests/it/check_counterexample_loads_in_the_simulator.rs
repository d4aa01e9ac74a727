//! The checker's shortest counterexample for the naive shop is an ordinary trace: it survives
//! a JSON round trip, replays to itself in the simulator, and its user-chosen steps are
//! exactly the checker's path.

use idempotency_lab::check::{
    CheckOutcome, FaultBudget, check, two_consumers_duplicate_and_crash,
    two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{Choice, PatternMode, Patterns, Simulation, Trace};

#[test]
fn the_shortest_counterexample_round_trips_and_replays() {
    let config = idempotency_lab::check::CheckConfig {
        faults: FaultBudget::of(&[(FaultClass::F1, 1)]),
        ..two_consumers_duplicate_and_crash_config()
    };
    let scenario = two_consumers_duplicate_and_crash(Patterns::all(PatternMode::Naive));
    let report = check(scenario, 7, config, &mut |_| {}).unwrap();
    let CheckOutcome::Violated(counterexample) = report.outcome else {
        panic!("expected a violation, got {:?}", report.outcome)
    };
    let invariants: Vec<InvariantId> =
        counterexample.violations.iter().map(|violation| violation.invariant).collect();
    assert_eq!(invariants, vec![InvariantId::I2]);
    assert_eq!(counterexample.path.len(), 20);
    assert_eq!(report.stats.depth_reached, 20);

    let trace = Trace::from_json(&counterexample.trace.to_json()).unwrap();
    assert_eq!(trace, counterexample.trace);
    assert_eq!(Simulation::replay(&trace).unwrap(), trace);
    let chosen: Vec<_> = trace
        .steps
        .iter()
        .filter(|step| step.chosen_by == Choice::User)
        .map(|step| step.action.clone())
        .collect();
    assert_eq!(chosen, counterexample.path);
    assert_eq!(trace.summary.first_violation_step.get(&InvariantId::I2), Some(&20));
}
