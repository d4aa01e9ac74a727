//! Throughput of the exhaustive checker (states/s) and of the property fuzzer (cases/s), and,
//! as a side-by-side reference, the same small inbox model (two consumer instances, one
//! `OrderPlaced` message, one duplicate delivery, one crash after commit) written for the
//! `stateright` crate and explored by its breadth-first checker.
//!
//! The two models are not the same size: the lab's world carries the whole shop (client,
//! API, outbox relay, history, invariants I1-I7), while the stateright model keeps only the
//! inbox consumer's statements and the one property "the effect is applied at most once". The
//! figures say what a state of each costs, not that one checker beats the other.
//!
//! Run with `cargo bench -p idempotency-lab --bench checker`.

use divan::Bencher;
use divan::counter::ItemsCount;
use idempotency_lab::check::{
    CheckOutcome, check, two_consumers_duplicate_and_crash,
    two_consumers_duplicate_and_crash_config, two_consumers_two_orders_duplicate_and_crash,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{PatternMode, Patterns};
use idempotency_lab::testing::{
    FuzzConfig, RandomFaults, ScenarioShape, fuzz, fuzz_case, scenario,
};
use stateright::{Checker, Model, Property};

fn main() {
    divan::main();
}

/// The lab's checker on its reference scenario, idempotent shop: every state is explored.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn lab_checker_states(bencher: Bencher) {
    let run = || {
        check(
            two_consumers_duplicate_and_crash(Patterns::all(PatternMode::Idempotent)),
            0,
            two_consumers_duplicate_and_crash_config(),
            &mut |_| {},
        )
    };
    let report = run().expect("the reference scenario is valid");
    assert_eq!(report.outcome, CheckOutcome::Proved);
    bencher.counter(ItemsCount::new(report.stats.states_explored)).bench(run);
}

/// The lab's checker on the two-message reference scenario (two orders, two consumer
/// instances, one duplicate, one crash after commit), idempotent shop: the proof, with its
/// state count and depth pinned (also pinned by a test).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn lab_checker_states_two_orders(bencher: Bencher) {
    let run = || {
        check(
            two_consumers_two_orders_duplicate_and_crash(Patterns::all(PatternMode::Idempotent)),
            0,
            two_consumers_duplicate_and_crash_config(),
            &mut |_| {},
        )
    };
    let report = run().expect("the reference scenario is valid");
    assert_eq!(report.outcome, CheckOutcome::Proved);
    assert_eq!(
        (report.stats.states_explored, report.stats.unique_states, report.stats.depth_reached),
        (145_888, 145_888, 69)
    );
    bencher.counter(ItemsCount::new(report.stats.states_explored)).bench(run);
}

/// The property fuzzer on the idempotent shop: up to 3 requests, up to 4 injections and
/// random rates of the faults the patterns absorb; no case fails, so all 100 run.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn lab_fuzz_cases(bencher: Bencher) {
    const CASES: u32 = 100;
    let run = || {
        let shape = ScenarioShape {
            random_faults: RandomFaults::On,
            ..ScenarioShape::new(
                Patterns::all(PatternMode::Idempotent),
                &[FaultClass::F1, FaultClass::F2, FaultClass::F3, FaultClass::F4, FaultClass::F5],
            )
        };
        let report = fuzz(
            fuzz_case(scenario(shape)),
            FuzzConfig { cases: CASES, ..FuzzConfig::default() },
            &mut |_| {},
        );
        assert_eq!(report.cases_run, CASES);
        report
    };
    bencher.counter(ItemsCount::new(CASES)).bench(run);
}

/// Stateright's breadth-first checker on the same inbox model.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn stateright_bfs_states(bencher: Bencher) {
    let checker = InboxModel.checker().spawn_bfs().join();
    checker.assert_properties();
    let states = checker.unique_state_count();
    bencher.counter(ItemsCount::new(states)).bench(|| {
        let checker = InboxModel.checker().spawn_bfs().join();
        checker.unique_state_count()
    });
}

/// Where one consumer instance is in the idempotent consumer's statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Instance {
    Idle,
    /// `BEGIN` ran.
    Begun,
    /// `INSERT INTO inbox` ran: the row is written, uncommitted (a row lock).
    InboxInserted,
    /// The effect ran, uncommitted.
    EffectApplied,
    /// Committed; the ack is next.
    Committed,
    /// The inbox insert conflicted: rolled back, the ack is next.
    DuplicateIgnored,
}

/// The inbox model's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct InboxState {
    /// Copies of the message waiting for delivery.
    queued: u8,
    instances: [Instance; 2],
    /// The committed inbox row.
    inbox_row: bool,
    /// Committed effects.
    effects: u8,
    duplicates_left: u8,
    crashes_left: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum InboxAction {
    Deliver(usize),
    Step(usize),
    Duplicate,
    CrashAfterCommit(usize),
}

struct InboxModel;

impl Model for InboxModel {
    type State = InboxState;
    type Action = InboxAction;

    fn init_states(&self) -> Vec<InboxState> {
        vec![InboxState {
            queued: 1,
            instances: [Instance::Idle; 2],
            inbox_row: false,
            effects: 0,
            duplicates_left: 1,
            crashes_left: 1,
        }]
    }

    fn actions(&self, state: &InboxState, actions: &mut Vec<InboxAction>) {
        for (index, instance) in state.instances.iter().enumerate() {
            match instance {
                Instance::Idle if state.queued > 0 => actions.push(InboxAction::Deliver(index)),
                Instance::Idle => {}
                Instance::Begun => {
                    // The insert waits while the other instance holds the row's lock.
                    let other = state.instances[1 - index];
                    if !matches!(other, Instance::InboxInserted | Instance::EffectApplied) {
                        actions.push(InboxAction::Step(index));
                    }
                }
                _ => actions.push(InboxAction::Step(index)),
            }
            if *instance == Instance::Committed && state.crashes_left > 0 {
                actions.push(InboxAction::CrashAfterCommit(index));
            }
        }
        if state.duplicates_left > 0 && state.queued > 0 {
            actions.push(InboxAction::Duplicate);
        }
    }

    fn next_state(&self, last: &InboxState, action: InboxAction) -> Option<InboxState> {
        let mut next = last.clone();
        match action {
            InboxAction::Deliver(index) => {
                next.queued -= 1;
                next.instances[index] = Instance::Begun;
            }
            InboxAction::Step(index) => {
                next.instances[index] = match last.instances[index] {
                    Instance::Idle => return None,
                    Instance::Begun if last.inbox_row => Instance::DuplicateIgnored,
                    Instance::Begun => Instance::InboxInserted,
                    Instance::InboxInserted => Instance::EffectApplied,
                    Instance::EffectApplied => {
                        next.inbox_row = true;
                        next.effects += 1;
                        Instance::Committed
                    }
                    Instance::Committed | Instance::DuplicateIgnored => Instance::Idle,
                };
            }
            InboxAction::Duplicate => {
                next.duplicates_left -= 1;
                next.queued += 1;
            }
            InboxAction::CrashAfterCommit(index) => {
                next.crashes_left -= 1;
                next.instances[index] = Instance::Idle;
                next.queued += 1;
            }
        }
        Some(next)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::always("the effect is applied at most once", |_, state: &InboxState| {
            state.effects <= 1
        })]
    }
}
