//! The checker's reference scenario: small enough to explore every interleaving in a unit
//! test, rich enough to break the naive consumer. The CLI, the page, the tests and the
//! benchmark all check the same one.

use crate::check::world_model::{CheckConfig, ClockPolicy, FaultBudget, SymmetryReduction};
use crate::ids::Sku;
use crate::invariants::InvariantId;
use crate::sim::{
    ClientConfig, ConsumerSetup, FaultClass, FaultRates, Limits, Operation, Patterns, RequestSpec,
    RetentionJobConfig, SCENARIO_FORMAT_VERSION, Scenario, ScheduleConfig,
};
use crate::store::OrderLine;

/// One order of 3 apples, so one `OrderPlaced` message that a duplicate delivery (F1) turns
/// into two copies, and two consumer instances, with `patterns`. (Two orders, hence two
/// distinct messages, take more than 100 000 states past depth 36: too many for a unit test,
/// fine for the CLI with a larger `states_max`.)
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
    }
}

/// The bounds for [`two_consumers_duplicate_and_crash`]: one duplicate delivery (F1) and one
/// consumer crash after commit (F2) per path, the clock when idle, symmetry on, I1-I7.
pub fn two_consumers_duplicate_and_crash_config() -> CheckConfig {
    CheckConfig {
        depth_max: 200,
        states_max: 1_000_000,
        faults: FaultBudget::of(&[(FaultClass::F1, 1), (FaultClass::F2, 1)]),
        clock: ClockPolicy::WhenIdle,
        symmetry: SymmetryReduction::ConsumerInstances,
        invariants: InvariantId::ALL.to_vec(),
        progress_every_states: 10_000,
    }
}
