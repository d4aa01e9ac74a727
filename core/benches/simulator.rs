//! Simulator throughput, with divan: steps per second and broker deliveries per second.
//!
//! Three workloads: each catalogue lesson (naive then idempotent mode, one iteration runs
//! both), the whole catalogue (all 16 lessons in both modes per iteration), and a larger random
//! scenario (64 requests over 8 skus, random fault rates for every class, drawn from a fixed
//! generator seed). Divan can show one items-per-second figure per benchmark, so every
//! workload is measured twice: once counting the trace's steps (`steps_*`), once counting its
//! broker deliveries (`deliveries_*`, the `delivered` events of the trace, duplicates and
//! redeliveries included). The work is the same; only the counter differs.
//!
//! Run: `cargo bench -p idempotency-lab --bench simulator`. Every step checks the seven
//! invariants over the whole store and history, so a step is far heavier than a statement.

use divan::Bencher;
use divan::counter::ItemsCount;
use idempotency_lab::faults::FaultClass;
use idempotency_lab::rng::DeterministicRng;
use idempotency_lab::sim::{
    CATALOGUE, PatternMode, Scenario, SimEvent, Simulation, StopReason, Trace, catalogue_scenario,
};

fn main() {
    divan::main();
}

/// The ids of the catalogue, for divan's `args`.
fn catalogue_ids() -> Vec<&'static str> {
    CATALOGUE.iter().map(|entry| entry.id).collect()
}

/// The seeds the large random scenario is run with.
const RANDOM_RUN_SEEDS: [u64; 3] = [1, 2, 3];

/// The generator seed of the large random scenario.
const RANDOM_SCENARIO_SEED: u64 = 2026;

fn catalogue_runs(id: &str) -> Vec<Scenario> {
    let lesson = catalogue_scenario(id).unwrap();
    vec![lesson.with_mode(PatternMode::Naive), lesson.with_mode(PatternMode::Idempotent)]
}

fn whole_catalogue_runs() -> Vec<Scenario> {
    catalogue_ids().into_iter().flat_map(catalogue_runs).collect()
}

/// A larger scenario than any lesson: 40 orders over 8 skus sent over the first 50 ticks, 16
/// payments and 8 cancellations of them (64 requests, the most a scenario may have), 4
/// consumer instances, the retention job on, early clock advances, each pattern naive or
/// idempotent as the generator draws, and a random rate (below 2%) for every fault class, at
/// most 64 random faults a run. With seeds 1-3 each run takes about 4,000-4,600 steps and 100-120
/// deliveries and reaches quiescence.
fn large_random_scenario() -> Scenario {
    let mut rng = DeterministicRng::from_seed(RANDOM_SCENARIO_SEED);
    let skus: Vec<String> = (0..8).map(|index| format!("sku-{index}")).collect();
    let stock: Vec<serde_json::Value> =
        skus.iter().map(|sku| serde_json::json!({ "sku": sku, "qty": 1_000 })).collect();
    let mut requests = Vec::new();
    for _ in 0..40 {
        let lines: Vec<serde_json::Value> = (0..1 + rng.below(3))
            .map(|offset| {
                let sku = &skus[(rng.below(8) + offset) as usize % skus.len()];
                serde_json::json!({ "sku": sku, "qty": 1 + rng.below(5) })
            })
            .collect();
        let mut unique_lines: Vec<serde_json::Value> = Vec::new();
        for line in lines {
            if !unique_lines.iter().any(|seen| seen["sku"] == line["sku"]) {
                unique_lines.push(line);
            }
        }
        requests.push(serde_json::json!({
            "operation": { "op": "place_order", "lines": unique_lines },
            "send_at_tick": rng.below(50),
        }));
    }
    for index in 0..16 {
        requests.push(serde_json::json!({
            "operation": { "op": "pay_order", "order_of": index, "payment_id": format!("pay-{index}") },
            "after": index,
        }));
    }
    for index in 16..24 {
        requests.push(serde_json::json!({
            "operation": { "op": "cancel_order", "order_of": index },
            "after": index,
        }));
    }
    let mode = |rng: &mut DeterministicRng| if rng.below(2) == 0 { "naive" } else { "idempotent" };
    let patterns = serde_json::json!({
        "p1_stock": mode(&mut rng),
        "p2_order": mode(&mut rng),
        "p3_api": mode(&mut rng),
        "p4_inbox": mode(&mut rng),
    });
    let fault_rates: serde_json::Map<String, serde_json::Value> = FaultClass::ALL
        .into_iter()
        .map(|class| (class.to_string(), serde_json::json!(rng.below(20_000))))
        .collect();
    let scenario = serde_json::json!({
        "format_version": 1,
        "id": "bench-large-random",
        "title": "Benchmark: 64 requests with random faults",
        "description": "Generated for the throughput benchmark.",
        "patterns": patterns,
        "shop": { "stock": stock },
        "requests": requests,
        "consumers": {
            "instances": 4,
            "visibility_timeout_ticks": 20,
            "deliveries_max": 5,
            "inbox_retention_ticks": 100
        },
        "retention_job": { "enabled": true },
        "schedule": { "early_clock_advance_per_million": 50_000 },
        "fault_rates": fault_rates,
        "limits": {
            "steps_max": 20_000,
            "trace_steps_max": 20_000,
            "queue_len_max": 4_096,
            "history_records_max": 100_000,
            "snapshot_every_steps": 64,
            "random_faults_max": 64
        }
    });
    Scenario::from_json(&scenario.to_string()).unwrap()
}

fn large_random_runs(seed: u64) -> Vec<(Scenario, u64)> {
    vec![(large_random_scenario(), seed)]
}

/// Runs every (scenario, seed) once, outside the measurement, to count what one iteration does.
/// Every run must reach quiescence, so that no figure is of a run cut short by a limit.
fn traces(runs: &[(Scenario, u64)]) -> Vec<Trace> {
    runs.iter()
        .map(|(scenario, seed)| {
            let trace = Simulation::run(scenario.clone(), *seed).unwrap();
            assert_eq!(trace.stop, StopReason::Quiescent, "{} seed {seed}", scenario.id);
            trace
        })
        .collect()
}

fn steps_of(traces: &[Trace]) -> usize {
    traces.iter().map(|trace| trace.steps.len()).sum()
}

fn deliveries_of(traces: &[Trace]) -> usize {
    traces
        .iter()
        .flat_map(|trace| &trace.steps)
        .flat_map(|step| &step.events)
        .filter(|event| matches!(event, SimEvent::Delivered { .. }))
        .count()
}

/// What a benchmark counts per iteration.
#[derive(Clone, Copy)]
enum Count {
    Steps,
    Deliveries,
}

fn bench_runs(bencher: Bencher, runs: Vec<(Scenario, u64)>, count: Count) {
    let counted = traces(&runs);
    let items = match count {
        Count::Steps => steps_of(&counted),
        Count::Deliveries => deliveries_of(&counted),
    };
    bencher.counter(ItemsCount::new(items)).bench(|| {
        for (scenario, seed) in &runs {
            divan::black_box(Simulation::run(scenario.clone(), *seed).unwrap());
        }
    });
}

fn with_seed_zero(scenarios: Vec<Scenario>) -> Vec<(Scenario, u64)> {
    scenarios.into_iter().map(|scenario| (scenario, 0)).collect()
}

/// Steps per second, one lesson in both modes, seed 0.
#[divan::bench(args = catalogue_ids())]
fn steps_per_lesson(bencher: Bencher, id: &str) {
    bench_runs(bencher, with_seed_zero(catalogue_runs(id)), Count::Steps);
}

/// Broker deliveries per second, one lesson in both modes, seed 0.
#[divan::bench(args = catalogue_ids())]
fn deliveries_per_lesson(bencher: Bencher, id: &str) {
    bench_runs(bencher, with_seed_zero(catalogue_runs(id)), Count::Deliveries);
}

/// Steps per second over the whole catalogue in both modes.
#[divan::bench(sample_count = 30)]
fn steps_whole_catalogue(bencher: Bencher) {
    bench_runs(bencher, with_seed_zero(whole_catalogue_runs()), Count::Steps);
}

/// Deliveries per second over the whole catalogue in both modes.
#[divan::bench(sample_count = 30)]
fn deliveries_whole_catalogue(bencher: Bencher) {
    bench_runs(bencher, with_seed_zero(whole_catalogue_runs()), Count::Deliveries);
}

/// Steps per second of the large random scenario.
#[divan::bench(args = RANDOM_RUN_SEEDS, sample_count = 10)]
fn steps_large_random(bencher: Bencher, seed: u64) {
    bench_runs(bencher, large_random_runs(seed), Count::Steps);
}

/// Steps per second of the large random scenario run as the page runs it: a simulation that
/// keeps a snapshot every `Limits::snapshot_every_steps` steps for rewinding.
#[divan::bench(args = RANDOM_RUN_SEEDS, sample_count = 10)]
fn steps_large_random_rewindable(bencher: Bencher, seed: u64) {
    let runs = large_random_runs(seed);
    let items = steps_of(&traces(&runs));
    bencher.counter(ItemsCount::new(items)).bench(|| {
        for (scenario, seed) in &runs {
            let mut simulation = Simulation::new(scenario.clone(), *seed).unwrap();
            simulation.run_to_end();
            divan::black_box(simulation);
        }
    });
}

/// Deliveries per second of the large random scenario.
#[divan::bench(args = RANDOM_RUN_SEEDS, sample_count = 10)]
fn deliveries_large_random(bencher: Bencher, seed: u64) {
    bench_runs(bencher, large_random_runs(seed), Count::Deliveries);
}
