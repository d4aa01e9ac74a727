//! Tests of the simulator: runs of small scenarios, with exact assertions on what happened.

use super::*;
use crate::ids::{PaymentId, Sku};
use crate::store::OrderLine;

fn lines(sku: &str, qty: u32) -> Vec<OrderLine> {
    vec![OrderLine { sku: Sku::new(sku), qty }]
}

fn place(sku: &str, qty: u32) -> RequestSpec {
    RequestSpec {
        operation: Operation::PlaceOrder { lines: lines(sku, qty) },
        send_at_tick: 0,
        after: None,
    }
}

fn scenario(requests: Vec<RequestSpec>, injections: Vec<Injection>) -> Scenario {
    Scenario {
        format_version: SCENARIO_FORMAT_VERSION,
        id: "test".to_owned(),
        title: "test".to_owned(),
        description: "test".to_owned(),
        patterns: Patterns::default(),
        focus: vec![],
        shop: Default::default(),
        requests,
        client: ClientConfig::default(),
        api: Default::default(),
        consumers: ConsumerSetup::default(),
        relay: Default::default(),
        retention_job: RetentionJobConfig::default(),
        schedule: ScheduleConfig::default(),
        injections,
        fault_rates: FaultRates::none(),
        limits: Limits::default(),
    }
}

#[test]
fn one_order_runs_to_quiescence_with_every_invariant_holding() {
    let trace = Simulation::run(scenario(vec![place("apple", 3)], vec![]), 0).unwrap();
    println!("{}", trace.to_text());
    assert_eq!(trace.stop, StopReason::Quiescent);
    assert!(trace.invariants_ever_violated().is_empty());
}

#[test]
fn payment_and_cancel() {
    let pay = RequestSpec {
        operation: Operation::PayOrder {
            order_of: RequestIndex(0),
            payment_id: PaymentId::new("pay-1"),
        },
        send_at_tick: 0,
        after: Some(RequestIndex(0)),
    };
    let trace = Simulation::run(scenario(vec![place("apple", 3), pay], vec![]), 1).unwrap();
    println!("{}", trace.to_text());
    assert_eq!(trace.stop, StopReason::Quiescent);
    assert!(trace.invariants_ever_violated().is_empty());
}

/// The invariants a catalogue scenario violates at some step, in `mode`, with `seed`.
fn run_catalogue(id: &str, mode: PatternMode, seed: u64) -> Trace {
    let scenario = catalogue_scenario(id).unwrap().with_mode(mode);
    Simulation::run(scenario, seed).unwrap()
}

/// Runs the world of a finished trace again and returns it, for table assertions.
fn final_world(trace: &Trace) -> World {
    let mut simulation = Simulation::new(trace.scenario.clone(), trace.seed).unwrap();
    simulation.run_to_end();
    simulation.world().clone()
}

/// Per catalogue scenario: the invariants its naive mode violates, and those its idempotent
/// mode violates (empty but for F10 and the P1 lesson, where I6 counts a second run of the
/// consumer that the inbox could not stop).
const EXPECTED: &[(&str, &[InvariantId], &[InvariantId])] = {
    use InvariantId::*;
    &[
        ("f01-duplicate-delivery", &[I2, I6], &[]),
        ("f02-crash-after-commit", &[I2, I6], &[]),
        ("f03-crash-before-commit", &[], &[]),
        ("f04-concurrent-delivery", &[I2, I6], &[]),
        ("f05-lost-response", &[I4], &[]),
        ("f06-double-submit", &[I4], &[]),
        ("f07-key-reuse", &[I4], &[]),
        ("f08-api-crash", &[I3], &[]),
        ("f09-out-of-order", &[I1], &[]),
        ("f10-duplicate-after-retention", &[I2, I6], &[I6]),
        ("f11-retry-with-new-key", &[], &[]),
        ("f12-relay-crash", &[I2, I6], &[]),
        ("p1-stock-reservation", &[I2, I6], &[I6]),
        ("p2-order-state-machine", &[I3], &[]),
        ("p3-idempotency-key", &[I4], &[]),
        ("p4-inbox-consumer", &[I2, I6], &[]),
    ]
};

use crate::invariants::InvariantId;

#[test]
fn each_lesson_breaks_exactly_its_invariants_in_naive_mode_and_holds_in_idempotent_mode() {
    assert_eq!(EXPECTED.len(), CATALOGUE.len());
    for (id, naive, idempotent) in EXPECTED {
        for seed in 0..20 {
            for (mode, expected) in
                [(PatternMode::Naive, naive), (PatternMode::Idempotent, idempotent)]
            {
                let trace = run_catalogue(id, mode, seed);
                assert_eq!(trace.stop, StopReason::Quiescent, "{id} {mode:?} seed {seed}");
                assert_eq!(
                    trace.invariants_ever_violated(),
                    expected.to_vec(),
                    "{id} in {mode:?} mode, seed {seed}"
                );
                let injected = trace
                    .steps
                    .iter()
                    .filter(|step| matches!(step.chosen_by, Choice::Injection { .. }))
                    .count();
                assert_eq!(
                    injected,
                    trace.scenario.injections.len(),
                    "{id} {mode:?} seed {seed}: every injection fires once"
                );
            }
        }
    }
}

#[test]
fn the_faults_that_no_invariant_sees_leave_their_mark_in_the_tables() {
    // F3: the crash rolled back the first delivery; the second applied it once.
    for mode in [PatternMode::Naive, PatternMode::Idempotent] {
        let trace = run_catalogue("f03-crash-before-commit", mode, 0);
        let world = final_world(&trace);
        let deliveries: Vec<u32> = trace
            .steps
            .iter()
            .flat_map(|step| &step.events)
            .filter_map(|event| match event {
                SimEvent::Delivered { delivery_number, .. } => Some(*delivery_number),
                _ => None,
            })
            .collect();
        assert_eq!(deliveries, vec![1, 2]);
        let apple = &world.store().committed().stock[&Sku::new("apple")];
        assert_eq!((apple.on_hand_qty, apple.available_qty), (10, 7));
    }
    // F11: a new key makes a new order, in both modes.
    for mode in [PatternMode::Naive, PatternMode::Idempotent] {
        let world = final_world(&run_catalogue("f11-retry-with-new-key", mode, 0));
        assert_eq!(world.store().committed().orders.len(), 2, "{mode:?}");
    }
    // F8: the idempotent retry was refused while the lease held, then took the key over.
    let trace = run_catalogue("f08-api-crash", PatternMode::Idempotent, 0);
    let statuses: Vec<(u16, crate::history::ResponseOrigin)> = final_world(&trace)
        .history()
        .responses()
        .iter()
        .map(|response| (response.status, response.origin))
        .collect();
    use crate::history::ResponseOrigin::*;
    assert_eq!(statuses, vec![(201, Completed), (409, Refused), (409, Refused), (200, Completed)]);
    assert_eq!(final_world(&trace).store().committed().charges.len(), 1);
}
