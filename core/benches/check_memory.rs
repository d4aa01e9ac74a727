//! The checker's memory and speed with its default bounds, on the worst scenario the input
//! bounds accept and on the reference scenario: for each, the peak resident memory of the
//! process (`VmHWM` of `/proc/self/status`, Linux only, as `bounds.rs` reads it), the states
//! explored per second, and how the check ended.
//!
//! The worst scenario is `sim::bounds::extreme_scenario()` with random faults of F1, F5, F6 and
//! F11 only, each at 1 000 000 per million, and `schedule.early_clock_advance_per_million` at
//! 1 000 000: the checker budgets one fault of each of those classes, as the CLI's `check`
//! does. It is checked as written (every pattern naive) and with every pattern idempotent.
//!
//! Each case runs in a child process of its own (this binary with `--case <name>`), so that
//! each peak is its own, under a cap on its address space (`ulimit -v`, 4 GiB unless
//! `CHECK_MEMORY_CAP_MB` says otherwise) so that a checker without a memory bound fails there
//! instead of taking the machine, and for at most 60 s of exploration
//! (`CHECK_MEMORY_SECONDS_MAX`), past which the case reports the figures so far. Given a second binary built from this same file on older
//! code (`--before <path>`), each case runs there first and the two are printed side by side:
//!
//! ```text
//! cargo bench -p idempotency-lab --bench check_memory -- --before <path of the older build>
//! ```

use std::process::Command;
use std::time::Instant;

use idempotency_lab::check::{
    CheckConfig, CheckOutcome, CheckStatus, Checker, FaultBudget,
    two_consumers_duplicate_and_crash, two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::bounds::extreme_scenario;
use idempotency_lab::sim::{FaultRates, PatternMode, Patterns, Scenario};

/// The cases, by name.
const CASES: [&str; 3] = ["reference", "worst", "worst-idempotent"];

/// The child's address-space cap unless `CHECK_MEMORY_CAP_MB` says otherwise.
const CAP_MB_DEFAULT: u64 = 4096;

/// How long a case explores at most unless `CHECK_MEMORY_SECONDS_MAX` says otherwise: the
/// worst scenario's check with the default bounds runs for many minutes.
const SECONDS_MAX_DEFAULT: f64 = 60.0;

/// States expanded per slice (the CLI takes 10 000): a child killed at the cap has reported
/// its progress shortly before.
const SLICE_STATES: usize = 100;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|arg| arg != "--bench").collect();
    match args.as_slice() {
        [flag, name] if flag == "--case" => run_case(name),
        [] => compare(None),
        [flag, before] if flag == "--before" => compare(Some(before)),
        other => panic!("usage: check_memory [--before <binary>] | --case <name>; got {other:?}"),
    }
}

/// The scenario of a case.
fn scenario(name: &str) -> Scenario {
    match name {
        "reference" => two_consumers_duplicate_and_crash(Patterns::all(PatternMode::Idempotent)),
        "worst" | "worst-idempotent" => {
            let mut worst = extreme_scenario().expect("the bounds accept their extreme scenario");
            worst.fault_rates = FaultRates(
                [FaultClass::F1, FaultClass::F5, FaultClass::F6, FaultClass::F11]
                    .into_iter()
                    .map(|class| (class, 1_000_000))
                    .collect(),
            );
            worst.schedule.early_clock_advance_per_million = 1_000_000;
            if name == "worst-idempotent" {
                worst = worst.with_mode(PatternMode::Idempotent);
            }
            worst
        }
        other => panic!("no case {other}"),
    }
}

/// Checks one case with the CLI's default configuration, in slices as the CLI does, for at
/// most the bench's time limit, and prints one line of figures.
fn run_case(name: &str) {
    let seconds_max: f64 = std::env::var("CHECK_MEMORY_SECONDS_MAX")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(SECONDS_MAX_DEFAULT);
    let scenario = scenario(name);
    let config = CheckConfig {
        faults: FaultBudget::for_scenario(&scenario),
        progress_every_states: SLICE_STATES,
        ..two_consumers_duplicate_and_crash_config()
    };
    let mut checker = Checker::new(scenario, 0, config).expect("the scenario is valid");
    let started = Instant::now();
    // The last progress report of a slice comes before a counterexample is turned into a
    // trace (which runs the scenario to its end): the states/s are the exploration's, the
    // peak is the whole check's.
    let mut explored_at = started;
    let (stats, outcome) = loop {
        let status = checker.run_for(SLICE_STATES, &mut |_| explored_at = Instant::now());
        // What the parent shows if this child is killed at the cap.
        let progress = checker.progress();
        eprintln!(
            "progress: {} states ({} unique) in {:.1} s, {:.1} MB resident",
            progress.states_explored,
            progress.unique_states,
            started.elapsed().as_secs_f64(),
            resident_bytes().unwrap_or(0) as f64 / 1e6
        );
        match status {
            Ok(CheckStatus::Done(report)) => break (report.stats, outcome_text(&report.outcome)),
            Ok(CheckStatus::Running(stats)) if started.elapsed().as_secs_f64() > seconds_max => {
                break (stats, format!("still running at the bench's limit of {seconds_max} s"));
            }
            Ok(CheckStatus::Running(_)) => {}
            Err(error) => panic!("the check failed: {error}"),
        }
    };
    let trace_seconds = explored_at.elapsed().as_secs_f64();
    let seconds = explored_at.duration_since(started).as_secs_f64();
    println!(
        "{}\t{}\t{}\t{:.2}\t{:.2}\t{}\t{}",
        stats.states_explored,
        stats.unique_states,
        stats.depth_reached,
        seconds,
        trace_seconds,
        peak_rss_bytes().unwrap_or(0),
        outcome
    );
}

/// How a check ended, in a few words.
fn outcome_text(outcome: &CheckOutcome) -> String {
    match outcome {
        CheckOutcome::Proved => "proved".to_owned(),
        CheckOutcome::Violated(counterexample) => {
            format!("violated, path of {} steps", counterexample.path.len())
        }
        CheckOutcome::Bounded { reason } => format!("bounded: {reason}"),
    }
}

/// Runs every case in a child (first in `before` if given) and prints the figures.
fn compare(before: Option<&str>) {
    let cap_mb: u64 = std::env::var("CHECK_MEMORY_CAP_MB")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(CAP_MB_DEFAULT);
    let this = std::env::current_exe().expect("the bench knows its own path");
    let this = this.to_str().expect("a UTF-8 path");
    println!("each case in a child process under an address-space cap of {cap_mb} MB");
    for name in CASES {
        for (label, binary) in
            before.map(|path| ("before", path)).into_iter().chain([("after", this)])
        {
            println!("{name:<17} {label:<6} {}", run_child(binary, name, cap_mb));
        }
    }
}

/// Runs `binary --case name` under the cap; its figures in words, or how it failed.
fn run_child(binary: &str, name: &str, cap_mb: u64) -> String {
    let started = Instant::now();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" --case \"$1\"", cap_mb * 1024))
        .arg(binary)
        .arg(name)
        .output()
        .expect("sh runs");
    let seconds = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<&str> = stdout.trim_end().split('\t').collect();
    match fields.as_slice() {
        [explored, unique, depth, explore_seconds, trace_seconds, peak, outcome]
            if output.status.success() =>
        {
            let explored: f64 = explored.parse().unwrap_or(0.0);
            let explore_seconds: f64 = explore_seconds.parse().unwrap_or(0.0);
            let peak_mb = peak.parse::<f64>().unwrap_or(0.0) / 1e6;
            format!(
                "peak {peak_mb:>7.1} MB, {explored:>8} states ({unique} unique, depth {depth}) in {explore_seconds:>6.1} s = {:>7.0} states/s (then {trace_seconds} s to the trace); {outcome}",
                explored / explore_seconds.max(1e-9)
            )
        }
        _ => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last = stderr.lines().rfind(|line| line.starts_with("progress")).unwrap_or("");
            format!(
                "failed after {seconds:.1} s ({}, over the cap of {cap_mb} MB?); last {last}",
                output.status
            )
        }
    }
}

/// The process's peak resident set, from `/proc/self/status` (Linux).
fn peak_rss_bytes() -> Option<u64> {
    status_bytes("VmHWM:")
}

/// The process's resident set now.
fn resident_bytes() -> Option<u64> {
    status_bytes("VmRSS:")
}

/// A figure of `/proc/self/status` in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}
