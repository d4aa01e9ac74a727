//! The checker's reference scenario: small enough to explore every interleaving in a unit
//! test, rich enough to break the naive consumer. The CLI, the page, the tests and the
//! benchmark all check the same one.

use crate::check::FaultBudget;
use crate::check::world_model::{CheckConfig, ClockPolicy, SymmetryReduction};
use crate::faults::FaultClass;
use crate::ids::Sku;
use crate::invariants::InvariantId;
use crate::sim::{
    ClientConfig, ConsumerSetup, FaultRates, Limits, Operation, Patterns, RequestSpec,
    RetentionJobConfig, SCENARIO_FORMAT_VERSION, Scenario, ScheduleConfig,
};
use crate::store::OrderLine;

/// One order of 3 apples, so one `OrderPlaced` message that a duplicate delivery (F1) turns
/// into two copies, and two consumer instances, with `patterns`: the fast reference (29 297
/// states for the idempotent shop), which the unit tests, the CLI's defaults and the page use.
/// [`two_consumers_two_orders_duplicate_and_crash`] adds a second message.
pub fn two_consumers_duplicate_and_crash(patterns: Patterns) -> Scenario {
    Scenario {
        format_version: SCENARIO_FORMAT_VERSION,
        id: "check-two-consumers-duplicate-and-crash".to_owned(),
        title: "Every interleaving: two consumers, a duplicate and a crash".to_owned(),
        description: "An order is placed; the relay publishes its OrderPlaced message and two \
            consumer instances take its copies, in every order the broker allows, with a \
            duplicate delivery and a consumer crash after commit wherever they can happen."
            .to_owned(),
        patterns,
        focus: vec![],
        shop: Default::default(),
        requests: vec![RequestSpec {
            operation: Operation::PlaceOrder {
                lines: vec![OrderLine { sku: Sku::new("apple"), qty: 3 }],
            },
            send_at_tick: 0,
            after: None,
        }],
        client: ClientConfig::default(),
        api: Default::default(),
        consumers: ConsumerSetup::default(),
        relay: Default::default(),
        retention_job: RetentionJobConfig::default(),
        schedule: ScheduleConfig::default(),
        injections: vec![],
        fault_rates: FaultRates::none(),
        limits: Limits::default(),
        consumer_program: None,
        mark_paid_program: None,
    }
}

/// [`two_consumers_duplicate_and_crash`] with a second order, of 2 pears, sent at tick 1: two
/// distinct `OrderPlaced` messages for the two consumer instances, a duplicate delivery (F1) of
/// either and a consumer crash after commit (F2) on either, wherever they can happen.
///
/// The second order waits for tick 1 because two orders sent together are out of reach of an
/// exhaustive check: the two API requests, the relay and the two consumers then interleave
/// freely, and the product of their local steps passes 1 000 000 states at depth 49 (measured;
/// most states differ in where each actor is, so no fingerprint abstraction merges them).
/// With [`ClockPolicy::WhenIdle`] time moves only when nothing else can run, so the first order
/// is placed, published and consumed at tick 0, and the second at tick 1; a crash after commit
/// leaves its message in flight until its visibility timeout (tick 20), so the broker then holds
/// both messages at once. The idempotent shop takes 145 888 states to depth 69 (pinned by the
/// checker's benchmark, which runs it optimized: in a debug build it takes minutes).
pub fn two_consumers_two_orders_duplicate_and_crash(patterns: Patterns) -> Scenario {
    let mut scenario = two_consumers_duplicate_and_crash(patterns);
    scenario.id = "check-two-consumers-two-orders-duplicate-and-crash".to_owned();
    scenario.title =
        "Every interleaving: two orders, two consumers, a duplicate and a crash".to_owned();
    scenario.description = "Two orders are placed, one at tick 0 and one at tick 1; the relay \
        publishes their two OrderPlaced messages and two consumer instances take their copies, \
        in every order the broker allows, with a duplicate delivery of either message and a \
        consumer crash after commit wherever they can happen."
        .to_owned();
    scenario.requests.push(RequestSpec {
        operation: Operation::PlaceOrder {
            lines: vec![OrderLine { sku: Sku::new("pear"), qty: 2 }],
        },
        send_at_tick: 1,
        after: None,
    });
    scenario
}

/// The bounds for [`two_consumers_duplicate_and_crash`] and
/// [`two_consumers_two_orders_duplicate_and_crash`]: one duplicate delivery (F1) and one
/// consumer crash after commit (F2) per path, the clock when idle, symmetry on, I1-I7, and
/// the default bounds (depth 200, a million states, [`crate::check::BYTES_MAX_DEFAULT`]).
pub fn two_consumers_duplicate_and_crash_config() -> CheckConfig {
    CheckConfig {
        depth_max: 200,
        states_max: 1_000_000,
        bytes_max: crate::check::BYTES_MAX_DEFAULT,
        faults: FaultBudget::of(&[(FaultClass::F1, 1), (FaultClass::F2, 1)]),
        clock: ClockPolicy::WhenIdle,
        symmetry: SymmetryReduction::ConsumerInstances,
        invariants: InvariantId::ALL.to_vec(),
        progress_every_states: 10_000,
    }
}
