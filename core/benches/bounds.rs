//! The budget of the input bounds, checked: the most expensive scenario the bounds accept
//! (`sim::bounds::extreme_scenario`) is run to its end with a few seeds, and the slowest step,
//! the mean step, the run's peak memory and the trace's size are reported against the budget
//! the bounds promise (a step at most 1 ms, a run at most 256 MB).
//!
//! Run: `cargo bench -p idempotency-lab --bench bounds`. A plain bench binary rather than
//! divan: the figure that matters is the slowest single step and the peak resident memory,
//! not a throughput. The memory is the process's peak resident set (`VmHWM` of
//! `/proc/self/status`, Linux only; elsewhere it is not reported). The bench fails if a run
//! does not end or if the budget is exceeded.

use std::time::{Duration, Instant};

use idempotency_lab::sim::bounds::extreme_scenario;
use idempotency_lab::sim::{Scenario, Simulation};

/// A step may take this long at most.
const STEP_BUDGET: Duration = Duration::from_millis(1);

/// A run may use this much memory at most.
const RUN_BUDGET_BYTES: u64 = 256 << 20;

/// The seeds run.
const SEEDS: [u64; 3] = [0, 1, 2];

fn main() {
    let scenario = extreme_scenario().expect("the bounds accept their extreme scenario");
    println!(
        "extreme accepted scenario: {} bytes of JSON, {} requests",
        scenario.to_json().len(),
        scenario.requests.len()
    );
    let mut over_budget = Vec::new();
    for seed in SEEDS {
        let figures = run(&scenario, seed);
        println!(
            "seed {seed}: {} steps ({}), slowest step {:.3} ms, mean {:.3} ms, trace JSON {:.1} MB, peak RSS {}",
            figures.steps,
            figures.stop,
            figures.slowest.as_secs_f64() * 1e3,
            figures.total.as_secs_f64() * 1e3 / figures.steps.max(1) as f64,
            figures.trace_json_bytes as f64 / 1e6,
            match figures.peak_rss_bytes {
                Some(bytes) => format!("{:.1} MB", bytes as f64 / 1e6),
                None => "not measured on this platform".to_owned(),
            }
        );
        if figures.slowest > STEP_BUDGET {
            over_budget.push(format!("seed {seed}: a step took {:?}", figures.slowest));
        }
        if figures.peak_rss_bytes.is_some_and(|bytes| bytes > RUN_BUDGET_BYTES) {
            over_budget.push(format!("seed {seed}: peak RSS {:?} bytes", figures.peak_rss_bytes));
        }
    }
    println!(
        "budget: a step <= {} ms, a run <= {} MB",
        STEP_BUDGET.as_millis(),
        RUN_BUDGET_BYTES >> 20
    );
    assert!(over_budget.is_empty(), "over budget: {over_budget:?}");
}

struct Figures {
    steps: usize,
    stop: String,
    slowest: Duration,
    total: Duration,
    trace_json_bytes: usize,
    peak_rss_bytes: Option<u64>,
}

fn run(scenario: &Scenario, seed: u64) -> Figures {
    let mut simulation = Simulation::new(scenario.clone(), seed).expect("accepted");
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    loop {
        let before = Instant::now();
        if simulation.step().is_none() {
            break;
        }
        slowest = slowest.max(before.elapsed());
    }
    let total = started.elapsed();
    let trace = simulation.trace();
    Figures {
        steps: trace.steps.len(),
        stop: format!("{:?}", trace.stop),
        slowest,
        total,
        trace_json_bytes: trace.to_json().len(),
        peak_rss_bytes: peak_rss_bytes(),
    }
}

/// The process's peak resident set, from `/proc/self/status` (Linux).
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}
