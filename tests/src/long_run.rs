//! The long run of the page's benchmark and of the test that opens it: a scenario whose run
//! the core cuts at [`LONG_RUN_STEPS`] steps, so that its share link makes the page replay a
//! real 10,000-step run.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{Scenario, Simulation, StopReason};

/// The length of the long run.
pub const LONG_RUN_STEPS: usize = 10_000;

/// A scenario whose run is at least [`LONG_RUN_STEPS`] long, cut there by its step limit: 48
/// orders over 6 skus and 16 payments (64 requests, the most a scenario may have), naive P3
/// and P4, two consumer instances, and random faults of every class. The first seed whose run
/// reaches the limit is taken.
pub fn long_scenario() -> (Scenario, u64, Simulation) {
    let skus: Vec<String> = (0..6).map(|index| format!("sku-{index}")).collect();
    let stock: Vec<serde_json::Value> =
        skus.iter().map(|sku| serde_json::json!({ "sku": sku, "qty": 100_000 })).collect();
    let mut requests = Vec::new();
    for index in 0..48u64 {
        requests.push(serde_json::json!({
            "operation": { "op": "place_order", "lines": [{ "sku": skus[index as usize % skus.len()], "qty": 1 + index % 3 }] },
            "send_at_tick": index * 3,
        }));
    }
    for index in 0..16 {
        requests.push(serde_json::json!({
            "operation": { "op": "pay_order", "order_of": index, "payment_id": format!("pay-{index}") },
            "after": index,
        }));
    }
    let fault_rates: serde_json::Map<String, serde_json::Value> = FaultClass::ALL
        .into_iter()
        .map(|class| (class.to_string(), serde_json::json!(60_000)))
        .collect();
    let scenario = serde_json::json!({
        "format_version": 1,
        "id": "bench-long-run",
        "title": "Benchmark: a 10,000-step run",
        "description": "64 requests with random faults of every class, cut at 10,000 steps.",
        "patterns": { "p1_stock": "idempotent", "p2_order": "idempotent", "p3_api": "naive", "p4_inbox": "naive" },
        "shop": { "stock": stock },
        "requests": requests,
        "consumers": { "instances": 2, "visibility_timeout_ticks": 20, "deliveries_max": 20, "inbox_retention_ticks": 100 },
        "fault_rates": fault_rates,
        "limits": {
            "steps_max": LONG_RUN_STEPS,
            "trace_steps_max": LONG_RUN_STEPS,
            "queue_len_max": 4_096,
            "history_records_max": 100_000,
            "snapshot_every_steps": 16,
            "random_faults_max": 2_000
        }
    });
    let scenario = Scenario::from_json(&scenario.to_string()).expect("the generated scenario");
    for seed in 0..64 {
        let mut simulation = Simulation::new(scenario.clone(), seed).expect("a valid scenario");
        if let StopReason::StepLimit { .. } = simulation.run_to_end() {
            return (scenario, seed, simulation);
        }
    }
    panic!("no seed of 0..64 makes the long scenario reach {LONG_RUN_STEPS} steps")
}
