//! Unit tests of the checker: the reference scenario proved for the idempotent shop, the
//! naive consumer's shortest counterexample, pinned state counts, bounds and slices.

use expect_test::expect;

use super::*;
use crate::invariants::InvariantId;
use crate::sim::{Choice, Pattern, PatternMode, Patterns, Simulation};

/// Checks the reference scenario with `patterns` and `config`.
fn check_reference(patterns: Patterns, config: CheckConfig) -> CheckReport {
    check(two_consumers_duplicate_and_crash(patterns), 0, config, &mut |_| {}).unwrap()
}

#[test]
fn the_idempotent_shop_is_proved_and_its_state_count_is_pinned() {
    let report = check_reference(
        Patterns::all(PatternMode::Idempotent),
        two_consumers_duplicate_and_crash_config(),
    );
    assert_eq!(report.outcome, CheckOutcome::Proved);
    // A guard against silent model drift: a change of the world's transitions changes these.
    expect![[r#"
        ExploreStats {
            states_explored: 29297,
            transitions: 98423,
            unique_states: 29297,
            depth_reached: 39,
            frontier_len: 0,
            terminal_states: 5,
        }
    "#]]
    .assert_debug_eq(&report.stats);
}

/// The shortest path to the naive consumer's violation.
const PATH_LENGTH: usize = 34;

#[test]
fn the_naive_consumer_is_caught_on_a_shortest_path_that_replays_in_the_simulator() {
    let patterns = Patterns::all(PatternMode::Idempotent).with(Pattern::P4, PatternMode::Naive);
    let report = check_reference(patterns, two_consumers_duplicate_and_crash_config());
    let CheckOutcome::Violated(counterexample) = report.outcome else {
        panic!("expected a violation, got {:?}", report.outcome)
    };
    let invariants: Vec<InvariantId> =
        counterexample.violations.iter().map(|violation| violation.invariant).collect();
    // P1's unique reservation still stops the second effect (no I2), but the message was
    // processed twice (I6), seen at quiescence.
    assert_eq!(invariants, vec![InvariantId::I6]);
    let length = counterexample.path.len();
    assert_eq!(length, PATH_LENGTH);
    let trace = &counterexample.trace;
    assert_eq!(trace.summary.first_violation_step.get(&InvariantId::I6), Some(&length));
    assert!(trace.steps.iter().take(length).all(|step| step.chosen_by == Choice::User));
    assert_eq!(Simulation::replay(trace).unwrap(), *trace);
    let faults: Vec<String> = counterexample
        .path
        .iter()
        .filter(|action| action.fault_class().is_some())
        .map(|action| format!("{action:?}"))
        .collect();
    expect![[r#"
        [
            "DuplicateMessage { entry: EntryId(0) }",
        ]
    "#]]
    .assert_debug_eq(&faults);
}

#[test]
fn without_faults_the_naive_consumer_holds_and_bounds_are_typed_outcomes() {
    let naive = Patterns::all(PatternMode::Naive);
    let mut config = two_consumers_duplicate_and_crash_config();
    config.faults = FaultBudget::none();
    let report = check_reference(naive, config.clone());
    assert_eq!(report.outcome, CheckOutcome::Proved);

    config.depth_max = 5;
    let report = check_reference(naive, config.clone());
    assert_eq!(
        report.outcome,
        CheckOutcome::Bounded { reason: BoundReason::DepthMax { depth_max: 5 } }
    );
    assert_eq!(report.stats.depth_reached, 5);

    config.depth_max = 200;
    config.states_max = 10;
    let report = check_reference(naive, config);
    assert_eq!(
        report.outcome,
        CheckOutcome::Bounded { reason: BoundReason::StatesMax { states_max: 10 } }
    );
    assert_eq!(report.stats.unique_states, 10);
}

#[test]
fn a_check_in_slices_ends_like_a_check_in_one_go_and_reports_progress() {
    let patterns = Patterns::all(PatternMode::Naive);
    let mut config = two_consumers_duplicate_and_crash_config();
    config.faults = FaultBudget::of(&[(crate::faults::FaultClass::F1, 1)]);
    let whole = check_reference(patterns, config.clone());
    let mut checker = Checker::new(two_consumers_duplicate_and_crash(patterns), 0, config).unwrap();
    let mut calls = 0;
    let mut last = CheckProgress::default();
    let report = loop {
        match checker
            .run_for(100, &mut |progress| {
                calls += 1;
                last = *progress;
            })
            .unwrap()
        {
            CheckStatus::Running(progress) => assert_eq!(progress, last),
            CheckStatus::Done(report) => break report,
        }
    };
    assert_eq!(report, whole);
    assert!(calls > 1);
    assert_eq!(last, report.stats);
}

#[test]
fn symmetry_reduction_merges_states_that_differ_only_by_instance_names() {
    let patterns = Patterns::all(PatternMode::Idempotent);
    let mut config = two_consumers_duplicate_and_crash_config();
    config.faults = FaultBudget::none();
    let reduced = check_reference(patterns, config.clone());
    config.symmetry = SymmetryReduction::Off;
    let full = check_reference(patterns, config);
    assert_eq!(reduced.outcome, CheckOutcome::Proved);
    assert_eq!(full.outcome, CheckOutcome::Proved);
    assert_eq!((reduced.stats.unique_states, full.stats.unique_states), (694, 1246));
}

#[test]
fn fingerprints_are_xxh64_and_the_same_on_every_platform() {
    // A `usize` is hashed as 64 bits: an empty slice (its length, 0) hashes as 0usize and as
    // eight zero bytes.
    assert_eq!(fingerprint::fingerprint_of(&[0u8; 0][..]), fingerprint::fingerprint_of(&0usize));
    assert_eq!(fingerprint::fingerprint_of(&0usize), fingerprint::fingerprint_of(&0u64));
    // The XXH64 test vectors (seed 0): the empty input and "a".
    let hash = |bytes: &[u8]| {
        let mut hasher = fingerprint::StateHasher::default();
        std::hash::Hasher::write(&mut hasher, bytes);
        std::hash::Hasher::finish(&hasher)
    };
    assert_eq!(hash(b""), 0xef46_db37_51d8_e999);
    assert_eq!(hash(b"a"), 0xd24e_c4f1_a98c_6e5b);
    // Small writes are buffered: the stream, not the way it is cut, makes the hash.
    let mut cut = fingerprint::StateHasher::default();
    for byte in b"abcdefghijklmnopqrstuvwxyz0123456789" {
        std::hash::Hasher::write_u8(&mut cut, *byte);
    }
    assert_eq!(std::hash::Hasher::finish(&cut), hash(b"abcdefghijklmnopqrstuvwxyz0123456789"));
}

#[test]
fn a_memory_bound_stops_the_check_with_its_typed_outcome_and_a_stored_state_is_small() {
    let patterns = Patterns::all(PatternMode::Idempotent);
    let mut config = two_consumers_duplicate_and_crash_config();
    let mut checker =
        Checker::new(two_consumers_duplicate_and_crash(patterns), 0, config.clone()).unwrap();
    let whole = checker.run_to_end(&mut |_| {}).unwrap();
    assert_eq!(whole.outcome, CheckOutcome::Proved);
    // Every unique state, its parent link and its frontier entry, and the states of one
    // rebuilt path: well under a kilobyte a state.
    let bytes_per_state = checker.bytes_held() / whole.stats.unique_states;
    assert!(bytes_per_state < 256, "{bytes_per_state} bytes a state");

    config.bytes_max = 256 << 10;
    let mut checker = Checker::new(two_consumers_duplicate_and_crash(patterns), 0, config).unwrap();
    let bounded = checker.run_to_end(&mut |_| {}).unwrap();
    assert_eq!(
        bounded.outcome,
        CheckOutcome::Bounded { reason: BoundReason::BytesMax { bytes_max: 256 << 10 } }
    );
    assert!(checker.bytes_held() > 256 << 10);
    assert!(
        0 < bounded.stats.unique_states && bounded.stats.unique_states < whole.stats.unique_states
    );
}

#[test]
fn a_limit_of_the_world_met_by_a_transition_is_a_typed_bound_in_the_worlds_own_words() {
    let naive = Patterns::all(PatternMode::Naive);
    let mut scenario = two_consumers_duplicate_and_crash(naive);
    scenario.limits.queue_len_max = 1;
    let report =
        check(scenario, 0, two_consumers_duplicate_and_crash_config(), &mut |_| {}).unwrap();
    let limit: ModelLimit<crate::sim::Action> =
        ModelLimit::from(crate::sim::ApplyError::QueueFull { queue_len_max: 1 });
    assert_eq!(limit.to_string(), "the broker's queue holds 1 entries, its limit");
    match report.outcome {
        CheckOutcome::Bounded { reason: BoundReason::ModelLimit { error, .. } } => {
            assert_eq!(error, limit.to_string());
        }
        other => panic!("{other:?}"),
    }
}
