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
