//! Tests of the simulator: runs of small scenarios, with exact assertions on what happened.

use super::*;
use crate::faults::FaultClass;
use crate::ids::{PaymentId, Sku};
use crate::store::OrderLine;

mod fault_names;
mod store_limits;
mod takeover_race;

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
        consumer_program: None,
        mark_paid_program: None,
    }
}

/// The committed state of the shop after `trace`, in words: stock, orders, reservations,
/// charges, inbox and key rows.
fn tables_summary(world: &World) -> String {
    let tables = world.store().committed();
    let stock: Vec<String> = tables
        .stock
        .values()
        .map(|row| format!("{} {}/{}", row.sku, row.available_qty, row.on_hand_qty))
        .collect();
    let orders: Vec<&str> = tables.orders.values().map(|row| row.status.name()).collect();
    let reservations: Vec<String> =
        tables.reservations.values().map(|row| format!("{} x{}", row.sku, row.qty)).collect();
    format!(
        "stock [{}] orders {:?} reservations {:?} charges {} inbox {} keys {} outbox published {}",
        stock.join(", "),
        orders,
        reservations,
        tables.charges.len(),
        tables.inbox.len(),
        tables.idempotency_keys.len(),
        tables.outbox.values().filter(|row| row.published).count()
    )
}

fn check(scenario: Scenario, seed: u64, expect: expect_test::Expect) {
    let mut simulation = Simulation::new(scenario, seed).unwrap();
    let stop = simulation.run_to_end();
    let trace = simulation.trace();
    expect.assert_eq(&format!(
        "{stop:?}, {} steps, violated {:?}\n{}",
        trace.steps.len(),
        trace.invariants_ever_violated(),
        tables_summary(simulation.world())
    ));
}

#[test]
fn one_order_is_placed_published_reserved_and_acknowledged() {
    check(
        scenario(vec![place("apple", 3)], vec![]),
        0,
        expect_test::expect![[r#"
        Quiescent, 29 steps, violated []
        stock [apple 7/10, pear 5/5] orders ["Placed"] reservations ["apple x3"] charges 0 inbox 1 keys 1 outbox published 1"#]],
    );
}

#[test]
fn an_order_paid_and_another_cancelled_leave_exact_tables() {
    let pay = RequestSpec {
        operation: Operation::PayOrder {
            order_of: RequestIndex(0),
            payment_id: PaymentId::new("pay-1"),
        },
        send_at_tick: 0,
        after: Some(RequestIndex(0)),
    };
    let cancel = RequestSpec {
        operation: Operation::CancelOrder { order_of: RequestIndex(2) },
        send_at_tick: 0,
        after: Some(RequestIndex(2)),
    };
    let requests = vec![place("apple", 3), pay, place("pear", 2), cancel];
    check(
        scenario(requests, vec![]),
        1,
        expect_test::expect![[r#"
        Quiescent, 92 steps, violated []
        stock [apple 7/10, pear 5/5] orders ["Cancelled", "Paid"] reservations ["apple x3"] charges 1 inbox 2 keys 4 outbox published 2"#]],
    );
    // A payment for an order that is not placed yet is a 404, in both twins.
    let early_pay = RequestSpec {
        operation: Operation::PayOrder {
            order_of: RequestIndex(1),
            payment_id: PaymentId::new("pay-1"),
        },
        send_at_tick: 0,
        after: None,
    };
    let mut scenario = scenario(vec![early_pay, place("apple", 1)], vec![]);
    scenario.requests[1].after = Some(RequestIndex(0));
    let trace = Simulation::run(scenario, 0).unwrap();
    let world = final_world(&trace);
    let statuses: Vec<u16> =
        world.history().responses().iter().map(|response| response.status).collect();
    assert_eq!(statuses, vec![404, 201]);
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
        ("p3-slow-request", &[I4], &[]),
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

/// A busy scenario for schedule tests: two orders, a payment and a cancel, two injections, random
/// faults of every class, the retention job, and an early clock now and then.
fn busy_scenario() -> Scenario {
    let pay = RequestSpec {
        operation: Operation::PayOrder {
            order_of: RequestIndex(0),
            payment_id: PaymentId::new("pay-1"),
        },
        send_at_tick: 0,
        after: Some(RequestIndex(0)),
    };
    let cancel = RequestSpec {
        operation: Operation::CancelOrder { order_of: RequestIndex(1) },
        send_at_tick: 5,
        after: None,
    };
    let injections = vec![
        Injection::LoseResponse { request: RequestIndex(0), attempt: 1 },
        Injection::DuplicateDelivery { message: MessageRef::OrderPlacedOf(RequestIndex(1)) },
    ];
    let mut scenario = scenario(vec![place("apple", 3), place("pear", 2), pay, cancel], injections);
    scenario.fault_rates = FaultRates::uniform(20_000);
    scenario.schedule.early_clock_advance_per_million = 20_000;
    scenario.retention_job.enabled = true;
    scenario.consumers.inbox_retention_ticks = 40;
    scenario.api.retention_ticks = 60;
    scenario
}

#[test]
fn the_same_scenario_and_seed_give_byte_identical_traces_over_100_seeds() {
    let scenario = busy_scenario();
    let mut step_counts = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let first = Simulation::run(scenario.clone(), seed).unwrap().to_json();
        let second = Simulation::run(scenario.clone(), seed).unwrap().to_json();
        assert!(first == second, "seed {seed}: two runs differ");
        step_counts.insert(first.len());
    }
    // Other seeds, other schedules: the 100 traces are not all alike.
    assert!(step_counts.len() > 50, "only {} distinct traces", step_counts.len());
}

#[test]
fn another_seed_changes_the_random_schedule() {
    let scenario = busy_scenario();
    let actions = |seed| -> Vec<Action> {
        Simulation::run(scenario.clone(), seed)
            .unwrap()
            .steps
            .into_iter()
            .map(|step| step.action)
            .collect()
    };
    assert_ne!(actions(1), actions(2));
    assert_eq!(actions(1), actions(1));
}

#[test]
fn a_trace_replays_to_the_same_bytes_and_round_trips_through_json() {
    for seed in [0, 7, 42] {
        let trace = Simulation::run(busy_scenario(), seed).unwrap();
        let json = trace.to_json();
        let read = Trace::from_json(&json).unwrap();
        assert_eq!(read, trace);
        let replayed = Simulation::replay(&read).unwrap();
        assert_eq!(replayed.to_json(), json);
    }
    for entry in CATALOGUE {
        let trace = run_catalogue(entry.id, PatternMode::Naive, 3);
        let read = Trace::from_json(&trace.to_json()).unwrap();
        assert_eq!(Simulation::replay(&read).unwrap().to_json(), trace.to_json(), "{}", entry.id);
    }
}

#[test]
fn random_faults_of_every_class_fire_and_every_run_stops_within_its_limits() {
    let mut fired = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let mut scenario = busy_scenario();
        scenario.fault_rates = FaultRates::uniform(50_000);
        scenario.patterns =
            Patterns::all(if seed % 2 == 0 { PatternMode::Naive } else { PatternMode::Idempotent });
        let trace = Simulation::run(scenario, seed).unwrap();
        assert!(trace.steps.len() <= trace.scenario.limits.steps_max);
        assert!(
            !matches!(trace.stop, StopReason::StepFailed { .. }),
            "seed {seed}: {:?}",
            trace.stop
        );
        fired.extend(trace.summary.faults.keys().copied());
        for step in &trace.steps {
            if step.chosen_by == Choice::RandomFault {
                assert!(step.fault.is_some());
            }
        }
    }
    assert_eq!(fired.into_iter().collect::<Vec<_>>(), FaultClass::ALL.to_vec());
}

#[test]
fn the_idempotent_shop_holds_every_invariant_under_random_duplicates_crashes_and_races() {
    // The faults the patterns are built for. Left out: F7 and F11 (client bugs that keys
    // cannot fix), F9 (a random hold is harmless but slow), F10 (the lesson shows it breaking
    // I6 on purpose) and F8, whose crash between the handler's commit and the key's completion
    // lets the takeover place a second order: the P3 layer's documented limit (see
    // `idempotency::layer`), which only P2's state machine closes, for payments.
    let mut rates = FaultRates::none();
    for class in [
        FaultClass::F1,
        FaultClass::F2,
        FaultClass::F3,
        FaultClass::F4,
        FaultClass::F5,
        FaultClass::F6,
        FaultClass::F12,
    ] {
        rates.0.insert(class, 30_000);
    }
    for seed in 0..100 {
        let mut scenario = scenario(vec![place("apple", 3), place("pear", 2)], vec![]);
        scenario.fault_rates = rates.clone();
        scenario.client.attempts_max = 8;
        let trace = Simulation::run(scenario, seed).unwrap();
        assert_eq!(trace.stop, StopReason::Quiescent, "seed {seed}");
        assert_eq!(trace.invariants_ever_violated(), vec![], "seed {seed}\n{}", trace.to_text());
    }
}

#[test]
fn limits_stop_the_run_with_a_recorded_reason() {
    let mut scenario = busy_scenario();
    scenario.limits.steps_max = 5;
    let trace = Simulation::run(scenario, 0).unwrap();
    assert_eq!(trace.stop, StopReason::StepLimit { steps_max: 5 });
    assert_eq!(trace.steps.len(), 5);

    let mut scenario = busy_scenario();
    scenario.limits.trace_steps_max = 3;
    assert_eq!(
        Simulation::run(scenario, 0).unwrap().stop,
        StopReason::TraceFull { trace_steps_max: 3 }
    );

    let mut scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    scenario.limits.queue_len_max = 1;
    let trace = Simulation::run(scenario, 0).unwrap();
    let StopReason::StepFailed { error, .. } = &trace.stop else { panic!("{:?}", trace.stop) };
    assert_eq!(error, "the broker's queue holds 1 entries, its limit");
}

#[test]
fn the_world_after_any_step_is_rebuilt_from_snapshots_and_replay() {
    let mut simulation = Simulation::new(busy_scenario(), 5).unwrap();
    let mut worlds = vec![simulation.world().clone()];
    while simulation.step().is_some() {
        worlds.push(simulation.world().clone());
    }
    assert!(worlds.len() > 40);
    for (step, world) in worlds.iter().enumerate() {
        assert_eq!(&simulation.world_after(step).unwrap(), world, "step {step}");
    }
    assert_eq!(
        simulation.world_after(worlds.len()),
        Err(RewindError::StepOutOfRange { step: worlds.len(), steps: worlds.len() - 1 })
    );
}

/// A run long enough to thin its snapshots twice: 64 orders, random faults of every class.
fn long_scenario() -> Scenario {
    let requests = (0..64).map(|index| place(["apple", "pear"][index % 2], 1)).collect();
    let mut scenario = scenario(requests, Vec::new());
    scenario.fault_rates = FaultRates::uniform(30_000);
    scenario.schedule.early_clock_advance_per_million = 20_000;
    scenario
}

#[test]
fn a_long_run_keeps_at_most_the_snapshot_budget_and_rewinds_to_every_step() {
    let mut simulation = Simulation::new(long_scenario(), 3).unwrap();
    let mut worlds = vec![simulation.world().clone()];
    while simulation.step().is_some() {
        worlds.push(simulation.world().clone());
        let (kept, _) = simulation.snapshots_kept();
        assert!(kept <= SNAPSHOTS_KEPT_MAX, "{kept} snapshots after {} steps", worlds.len() - 1);
    }
    let every = Limits::default().snapshot_every_steps;
    assert!(
        worlds.len() > every * SNAPSHOTS_KEPT_MAX * 2,
        "the run thins its snapshots at least twice: {} steps",
        worlds.len() - 1
    );
    let (kept, interval) = simulation.snapshots_kept();
    assert!(interval >= every * 4, "the interval doubled twice: {interval}");
    assert!(kept > SNAPSHOTS_KEPT_MAX / 2 - 2, "thinning keeps every other one: {kept}");
    for (step, world) in worlds.iter().enumerate() {
        assert_eq!(&simulation.world_after(step).unwrap(), world, "step {step}");
    }
    // The page's moves: forward a step, back a step, jumps both ways, across snapshots.
    let last = worlds.len() - 1;
    let mut world = worlds[0].clone();
    let mut at = 0;
    for step in [1, 2, 3, interval - 1, interval, interval + 1, 5, last, last - 1, 0, last / 2] {
        simulation.rewind(&mut world, at, step).unwrap();
        assert_eq!(world, worlds[step], "from {at} to {step}");
        at = step;
    }
    assert_eq!(
        simulation.rewind(&mut world, at, last + 1),
        Err(RewindError::StepOutOfRange { step: last + 1, steps: last })
    );
    assert_eq!(world, worlds[at], "a refused rewind leaves the world as it was");
}

#[test]
fn a_run_without_snapshots_takes_the_same_steps_and_still_rewinds_from_the_start() {
    for seed in 0..20 {
        let mut kept = Simulation::new(busy_scenario(), seed).unwrap();
        kept.run_to_end();
        let mut unkept = Simulation::without_snapshots(busy_scenario(), seed).unwrap();
        unkept.run_to_end();
        let trace = kept.trace();
        assert_eq!(unkept.trace().to_json(), trace.to_json(), "seed {seed}");
        let last = trace.steps.len();
        assert_eq!(unkept.world_after(last), kept.world_after(last), "seed {seed}");
        assert_eq!(unkept.world_after(last / 2), kept.world_after(last / 2), "seed {seed}");
        assert_eq!(unkept.into_trace(), trace, "seed {seed}");
        assert_eq!(Simulation::run(busy_scenario(), seed).unwrap(), trace, "seed {seed}");
    }
}

#[test]
fn the_model_is_a_transition_function_over_hashable_states() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let scenario = catalogue_scenario("f04-concurrent-delivery").unwrap();
    let world = World::new(&scenario, crate::rng::DeterministicRng::from_seed(1)).unwrap();
    assert_eq!(world.enabled_actions(), world.enabled_actions());
    expect_test::expect![[r#"
        [
            ClientSend {
                request: RequestIndex(
                    0,
                ),
            },
            DoubleSubmit {
                request: RequestIndex(
                    0,
                ),
            },
        ]
    "#]]
    .assert_debug_eq(&world.enabled_actions());
    // The same action from equal states gives equal states (and equal hashes).
    let mut a = world.clone();
    let mut b = world.clone();
    let action = Action::ClientSend { request: RequestIndex(0) };
    assert_eq!(a.apply(&action).unwrap(), b.apply(&action).unwrap());
    assert_eq!(a, b);
    let hash = |world: &World| {
        let mut hasher = DefaultHasher::new();
        world.hash(&mut hasher);
        hasher.finish()
    };
    assert_eq!(hash(&a), hash(&b));
    assert_ne!(a, world);
    // An action that is not enabled is a typed error.
    assert_eq!(
        a.apply(&Action::RelayStep),
        Err(ApplyError::NotEnabled { action: Action::RelayStep })
    );
}

#[test]
fn malformed_scenarios_are_typed_errors_naming_the_field_and_line() {
    let check = |text: &str, expect: expect_test::Expect| {
        let error = Scenario::from_json(text).unwrap_err();
        expect.assert_eq(&error.to_string());
    };
    check(
        "{\n  \"format_version\": 1,\n  \"id\": \"x\",\n  \"title\": \"t\"\n}",
        expect_test::expect![
            "JSON line 5, column 1, at `description`: missing field `description`"
        ],
    );
    check(
        "{\n  \"format_version\": 1,\n  \"id\": \"x\",\n  \"title\": \"t\",\n  \"description\": \"d\",\n  \"requests\": [],\n  \"client\": {\"timeout_ticks\": \"ten\", \"attempts_max\": 2, \"backoff_ticks\": 1}\n}",
        expect_test::expect![[
            r#"JSON line 7, column 35, at `client.timeout_ticks`: invalid type: string "ten", expected u64"#
        ]],
    );
    check(
        "{\"format_version\": 1, \"id\": \"x\", \"title\": \"t\", \"description\": \"d\", \"requests\": [], \"colour\": 1}",
        expect_test::expect![
            "JSON line 1, column 91, at `colour`: unknown field `colour`, expected one of `format_version`, `id`, `title`, `description`, `patterns`, `focus`, `shop`, `requests`, `client`, `api`, `consumers`, `… (55 characters left out) …lt_rates`, `limits`, `consumer_program`, `mark_paid_program`"
        ],
    );
    check(
        "{\"format_version\": 2, \"id\": \"x\", \"title\": \"t\", \"description\": \"d\", \"requests\": []}",
        expect_test::expect!["scenario format_version 2 is not supported (this build reads 1)"],
    );
    check(
        "{\"format_version\": 1, \"id\": \"x\", \"title\": \"t\", \"description\": \"d\", \"requests\": [{\"operation\": {\"op\": \"cancel_order\", \"order_of\": 3}}]}",
        expect_test::expect![
            "requests[0].operation.order_of names request 3, but the scenario has 1 requests"
        ],
    );
    // Unknown fields are refused at every depth, not only at the top level.
    check(
        "{\"format_version\": 1, \"id\": \"x\", \"title\": \"t\", \"description\": \"d\", \"requests\": [], \"shop\": {\"stock\": [{\"sku\": \"apple\", \"qty\": 1, \"price\": 3}]}}",
        expect_test::expect![
            "JSON line 1, column 136, at `shop.stock[0].price`: unknown field `price`, expected `sku` or `qty`"
        ],
    );
    check(
        "{\"format_version\": 1, \"id\": \"x\", \"title\": \"t\", \"description\": \"d\", \"requests\": [], \"injections\": [{\"fault\": \"duplicate_delivery\", \"message\": {\"order_placed_of\": 0}, \"times\": 2}]}",
        expect_test::expect![
            "JSON line 1, column 172, at `injections[0].times`: unknown field `times`, expected `message`"
        ],
    );
    let error = Scenario::from_json("{\"format_version\": 1,\n \"id\": 5}").unwrap_err();
    let ScenarioError::Json { path, line, column, .. } = error else { panic!("{error:?}") };
    assert_eq!((path.as_str(), line, column), ("id", 2, 8));
    assert!(matches!(Trace::from_json("{\"format_version\": 9}"), Err(TraceError::Json(_))));
}

#[test]
fn every_catalogue_scenario_reads_round_trips_and_teaches_something() {
    let mut faults = std::collections::BTreeSet::new();
    let mut patterns = std::collections::BTreeSet::new();
    for entry in CATALOGUE {
        let scenario = catalogue_scenario(entry.id).unwrap();
        assert_eq!(scenario.id, entry.id);
        assert!(scenario.title.len() > 10 && scenario.description.len() > 200, "{}", entry.id);
        assert_eq!(Scenario::from_json(&scenario.to_json()).unwrap(), scenario);
        faults.extend(scenario.injections.iter().map(Injection::fault_class));
        patterns.extend(scenario.focus.iter().copied());
    }
    assert_eq!(faults.into_iter().collect::<Vec<_>>(), FaultClass::ALL.to_vec());
    assert_eq!(
        patterns.into_iter().collect::<Vec<_>>(),
        vec![Pattern::P1, Pattern::P2, Pattern::P3, Pattern::P4]
    );
    assert_eq!(
        catalogue_scenario("nope"),
        Err(CatalogueError::UnknownId { id: "nope".to_owned() })
    );
}

/// The committed stock, sku by sku: available of on hand, and what the reservations hold. The
/// golden traces pin it, so that a changed effect shows in the lesson's end state, not only in
/// the rows a step changed.
fn stock_at_the_end(store: &crate::store::Store) -> String {
    let tables = store.committed();
    let described: Vec<String> = tables
        .stock
        .values()
        .map(|row| {
            let reserved: i64 = tables
                .reservations
                .values()
                .filter(|reservation| reservation.sku == row.sku)
                .map(|reservation| reservation.qty)
                .sum();
            format!(
                "{} {} of {} available, {reserved} reserved",
                row.sku, row.available_qty, row.on_hand_qty
            )
        })
        .collect();
    described.join("; ")
}

/// Golden traces: the header (title, mode, the invariants ever violated, the stock at the end)
/// and the text trace of every lesson in both modes.
#[test]
fn golden_traces_of_every_catalogue_scenario_in_both_modes() {
    for entry in CATALOGUE {
        for (mode, name) in [(PatternMode::Naive, "naive"), (PatternMode::Idempotent, "idempotent")]
        {
            let trace = run_catalogue(entry.id, mode, 0);
            let mut text = format!("{} ({name}), seed 0\n", trace.scenario.title);
            text.push_str(&format!("violated: {:?}\n", trace.invariants_ever_violated()));
            let end = final_world(&trace);
            text.push_str(&format!("stock at the end: {}\n", stock_at_the_end(end.store())));
            text.push_str(&trace.to_text());
            expect_test::expect_file![format!("snapshots/{}.{name}.txt", entry.id)]
                .assert_eq(&text);
        }
    }
}

#[test]
fn a_fault_the_user_injects_by_hand_is_recorded_and_replayed() {
    let scenario = scenario(vec![place("apple", 3)], vec![]).with_all_patterns(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario, 9).unwrap();
    // Run until the message is in the queue, then duplicate it by hand.
    let entry = loop {
        simulation.step().unwrap();
        if let Some((entry, _)) = simulation.world().broker().entries.iter().next() {
            break *entry;
        }
    };
    let not_enabled = Action::ConsumerStep { instance: InstanceId(0) };
    assert_eq!(
        simulation.step_with(not_enabled.clone()).unwrap_err(),
        ApplyError::NotEnabled { action: not_enabled }
    );
    let step = simulation.step_with(Action::DuplicateMessage { entry }).unwrap();
    assert_eq!((step.chosen_by.clone(), step.fault), (Choice::User, Some(FaultClass::F1)));
    assert_eq!(simulation.run_to_end(), StopReason::Quiescent);
    let trace = simulation.trace();
    assert_eq!(trace.invariants_ever_violated(), vec![InvariantId::I2, InvariantId::I6]);
    let replayed = Simulation::replay(&Trace::from_json(&trace.to_json()).unwrap()).unwrap();
    assert_eq!(replayed.to_json(), trace.to_json());
}

#[test]
fn the_history_records_answers_runs_and_message_events_as_history_rs_documents() {
    use crate::history::{InboxUse, MessageEvent, RequestAttempt::*, ResponseOrigin::*};
    let trace = run_catalogue("f05-lost-response", PatternMode::Idempotent, 0);
    let world = final_world(&trace);
    let history = world.history();
    let answers: Vec<_> = history
        .responses()
        .iter()
        .map(|response| (response.attempt, response.origin, response.status))
        .collect();
    assert_eq!(answers, vec![(First, Completed, 201), (Duplicate, Replayed, 201)]);
    assert_eq!(history.responses()[0].body, history.responses()[1].body);
    // One handler run, with its lease, finished.
    assert_eq!(history.handler_runs().len(), 1);
    let run = &history.handler_runs()[0];
    assert!(
        run.lease.is_some()
            && matches!(run.end, Some(crate::history::HandlerRunEnd::Finished { .. }))
    );
    let kinds: Vec<&str> = history
        .message_events()
        .iter()
        .map(|event| match event {
            MessageEvent::Published { .. } => "published",
            MessageEvent::EffectCommitted { inbox: InboxUse::WithInbox, .. } => "effect with inbox",
            MessageEvent::EffectCommitted { inbox: InboxUse::WithoutInbox, .. } => "effect",
            MessageEvent::Acknowledged { .. } => "acknowledged",
            MessageEvent::InboxRowPurged { .. } => "purged",
        })
        .collect();
    assert_eq!(kinds, vec!["published", "effect with inbox", "acknowledged"]);
    // F10 records the purge between the two effects.
    let world =
        final_world(&run_catalogue("f10-duplicate-after-retention", PatternMode::Idempotent, 0));
    let kinds: Vec<&str> = world
        .history()
        .message_events()
        .iter()
        .map(|event| match event {
            MessageEvent::Published { .. } => "published",
            MessageEvent::EffectCommitted { .. } => "effect",
            MessageEvent::Acknowledged { .. } => "acknowledged",
            MessageEvent::InboxRowPurged { .. } => "purged",
        })
        .collect();
    // The retention job goes on to purge the second row too, once its window is over.
    assert_eq!(
        kinds,
        vec!["published", "effect", "acknowledged", "purged", "effect", "acknowledged", "purged"]
    );
    let apple = &world.store().committed().stock[&Sku::new("apple")];
    assert_eq!((apple.on_hand_qty, apple.available_qty), (10, 7));
}

#[test]
fn random_runs_never_get_stuck_because_lock_cycles_are_broken_like_postgresql_does() {
    // The naive reservation takes stock then the reservation row; the naive release takes the
    // reservation row then stock: a cancel racing a delivery can wait in a cycle. The world
    // aborts the youngest transaction of the cycle, and every run still reaches quiescence.
    let mut deadlocks = 0;
    for seed in 0..200 {
        let mut scenario = busy_scenario();
        scenario.fault_rates = FaultRates::uniform(40_000);
        scenario.patterns =
            Patterns::all(if seed % 2 == 0 { PatternMode::Naive } else { PatternMode::Idempotent });
        let trace = Simulation::run(scenario, seed).unwrap();
        assert_eq!(trace.stop, StopReason::Quiescent, "seed {seed}");
        deadlocks += trace
            .steps
            .iter()
            .flat_map(|step| &step.events)
            .filter(|event| matches!(event, SimEvent::DeadlockDetected { .. }))
            .count();
    }
    assert!(deadlocks > 0);
}

#[test]
fn a_trace_cut_while_running_replays_to_its_last_step_byte_for_byte() {
    let scenario =
        catalogue_scenario("f01-duplicate-delivery").unwrap().with_mode(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario.clone(), 0).unwrap();
    for _ in 0..12 {
        simulation.step().unwrap();
    }
    let cut = simulation.trace();
    assert_eq!((cut.stop.clone(), cut.steps.len()), (StopReason::Running, 12));
    let replayed = Simulation::replay(&Trace::from_json(&cut.to_json()).unwrap()).unwrap();
    assert_eq!(replayed.to_json(), cut.to_json());
    // A trace of a finished run still replays to its end.
    let whole = Simulation::run(scenario, 0).unwrap();
    assert_eq!(whole.stop, StopReason::Quiescent);
    assert_eq!(Simulation::replay(&whole).unwrap(), whole);
}

/// Repro 5 of issue 11: five F3 crashes in a row (the lesson's `deliveries_max` is 5)
/// dead-letter the message. The idempotent shop neither lost nor doubled it: I6 holds, and the
/// dead letter is its own outcome in the trace, in words for the CLI and the page.
#[test]
fn repro_5_a_dead_letter_is_its_own_outcome_not_an_i6_violation() {
    let mut lesson =
        catalogue_scenario("f03-crash-before-commit").unwrap().with_mode(PatternMode::Idempotent);
    let crash = |delivery| Injection::CrashConsumerBeforeCommit {
        message: MessageRef::OrderPlacedOf(RequestIndex(0)),
        delivery,
    };
    lesson.injections = (1..=lesson.consumers.deliveries_max).map(crash).collect();
    let trace = Simulation::run(lesson, 0).unwrap();
    assert_eq!(trace.stop, StopReason::Quiescent);
    assert_eq!(trace.invariants_ever_violated(), Vec::<InvariantId>::new());
    let dead = trace.dead_letters();
    assert_eq!(dead.len(), 1, "{dead:?}");
    // In words, in each language: `view::dead_letter_sentences`'s test.
    // A message processed twice is still I6, dead letter or not: the naive twin of F1.
    let naive = catalogue_scenario("f01-duplicate-delivery").unwrap().with_mode(PatternMode::Naive);
    assert!(
        Simulation::run(naive, 0).unwrap().invariants_ever_violated().contains(&InvariantId::I6)
    );
}

/// Runs `scenario` with `seed`, choosing each step's action from every enabled one (faults
/// included) by `choices`, and checks after every step that the world's incremental invariants
/// found exactly what the full check finds, and what a checker built afresh from the state
/// finds: the same violations, in the same order.
fn incremental_invariants_agree_with_the_full_check(
    scenario: &Scenario,
    seed: u64,
    choices: &[u16],
) -> Result<(), proptest::test_runner::TestCaseError> {
    use crate::invariants::{Incremental, check_all};
    use proptest::prop_assert_eq;
    let mut world = World::new(scenario, crate::rng::DeterministicRng::from_seed(seed)).unwrap();
    let mut standing: Vec<crate::invariants::Violation> = Vec::new();
    for (step, choice) in choices.iter().enumerate() {
        let enabled = world.enabled_actions();
        if enabled.is_empty() {
            break;
        }
        let action = &enabled[usize::from(*choice) % enabled.len()];
        // A limit (a full queue, a long history) stops the run, as it stops a simulation.
        let Ok(record) = world.apply(action) else { break };
        let quiescence = world.quiescence();
        let full = check_all(world.store().committed(), world.history(), &quiescence);
        let incremental = world.incremental_violations();
        prop_assert_eq!(incremental.as_ref(), Some(&full), "step {} ({:?})", step + 1, action);
        let mut violated: Vec<_> = full.iter().map(|violation| violation.invariant).collect();
        violated.dedup();
        prop_assert_eq!(&record.violated, &violated, "step {} ({:?})", step + 1, action);
        let new_at_step: Vec<_> =
            full.iter().filter(|violation| !standing.contains(violation)).cloned().collect();
        prop_assert_eq!(&record.new_violations, &new_at_step, "step {} ({:?})", step + 1, action);
        standing = full.clone();
        let afresh = Incremental::new(world.store().committed(), world.history()).violations(
            world.store().committed(),
            world.history(),
            &quiescence,
        );
        prop_assert_eq!(&afresh, &full, "step {} ({:?}), checker built afresh", step + 1, action);
    }
    Ok(())
}

fn every_class_and_random_faults(mode: PatternMode) -> crate::testing::ScenarioShape {
    crate::testing::ScenarioShape {
        random_faults: crate::testing::RandomFaults::On,
        ..crate::testing::ScenarioShape::new(Patterns::all(mode), &FaultClass::ALL)
    }
}

proptest::proptest! {
    #![proptest_config(crate::testing::proptest_config(256))]

    #[test]
    fn incremental_invariants_equal_the_full_check_on_random_naive_runs(
        scenario in crate::testing::configured_scenario(every_class_and_random_faults(PatternMode::Naive)),
        seed in crate::testing::seed(),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..300),
    ) {
        incremental_invariants_agree_with_the_full_check(&scenario, seed, &choices)?;
    }

    #[test]
    fn incremental_invariants_equal_the_full_check_on_random_idempotent_runs(
        scenario in crate::testing::configured_scenario(every_class_and_random_faults(PatternMode::Idempotent)),
        seed in crate::testing::seed(),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..300),
    ) {
        incremental_invariants_agree_with_the_full_check(&scenario, seed, &choices)?;
    }
}

#[test]
fn a_trace_reproduces_only_as_its_scenario_seed_and_choices_make_it() {
    let trace = run_catalogue("f01-duplicate-delivery", PatternMode::Naive, 0);
    assert_eq!(reproduce(&trace), Ok(trace.clone()));
    // A run still going (an export at an earlier step) reproduces to its own last step.
    let mut simulation =
        Simulation::new(catalogue_scenario("f01-duplicate-delivery").unwrap(), 0).unwrap();
    for _ in 0..5 {
        simulation.step();
    }
    assert_eq!(reproduce(&simulation.trace()).map(|replayed| replayed.steps.len()), Ok(5));
    // Another stop reason with the same steps.
    let mut stopped = trace.clone();
    stopped.stop = StopReason::StepLimit { steps_max: 1 };
    assert!(matches!(
        reproduce(&stopped),
        Err(NotReproduced::Differs(TraceDifference::Stop { .. }))
    ));
    // A summary that lies about the violations.
    let mut summary = trace.clone();
    summary.summary.steps += 1;
    assert_eq!(reproduce(&summary), Err(NotReproduced::Differs(TraceDifference::Summary)));
    // One step more than the run takes.
    let mut longer = trace.clone();
    let mut extra = longer.steps.last().unwrap().clone();
    extra.step += 1;
    longer.steps.push(extra);
    let difference = first_difference(&longer, &trace).unwrap();
    assert_eq!(
        difference.to_string(),
        "step 28 differs: the run ends before it, the trace does not"
    );
}

/// A run whose last step is reached step by step ends where `run_to_end` ends it once
/// settled, before any further step, for every lesson in both modes; settling earlier stops
/// nothing.
#[test]
fn settling_at_the_last_step_gives_the_stop_of_the_whole_run() {
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let whole = run_catalogue(entry.id, mode, 0);
            let scenario = catalogue_scenario(entry.id).unwrap().with_mode(mode);
            let mut simulation = Simulation::new(scenario, 0).unwrap();
            while simulation.steps().len() < whole.steps.len() {
                assert_eq!(simulation.settle(), None, "{} {mode:?} settled early", entry.id);
                simulation.step();
            }
            assert_eq!(simulation.settle(), Some(&whole.stop), "{} {mode:?}", entry.id);
            assert_eq!(
                simulation.trace(),
                whole,
                "{} {mode:?}: settling changed the run",
                entry.id
            );
        }
    }
}
