//! The HTTP harness passes the fixed wallet top-up, which keeps its own key and writes it, with
//! its answer, in the same transaction as the balance: plugged raw, no fuzzed schedule breaks
//! it, and the exhaustive check proves it under a lost response, a double submit, a reused key
//! and a crash anywhere for one operation, and under a double submit and a crash for two
//! (state counts pinned). The fuzz test
//! prints its cases per second (`cargo test -p idempotency-lab-tests --test
//! harness_passes_keyed_wallet_top_up -- --nocapture`).

use std::time::Instant;

use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{
    HandlerPlug, HttpHarnessConfig, check_handler, fuzz_handler,
};
use idempotency_lab::testing::wallet_top_up::KeyedWalletTopUp;

fn raw() -> HttpHarnessConfig {
    HttpHarnessConfig::default().with_plug(HandlerPlug::Raw)
}

#[test]
fn no_fuzzed_schedule_breaks_it() {
    let started = Instant::now();
    let report = fuzz_handler(KeyedWalletTopUp, HttpHarnessConfig { cases: 1_000, ..raw() });
    let elapsed = started.elapsed();
    println!(
        "keyed top-up: {} schedules in {:.2} s, {:.0} cases/s",
        report.cases_run,
        elapsed.as_secs_f64(),
        report.cases_per_second(elapsed)
    );
    assert_eq!(report.counterexample, None);
    assert_eq!(report.cases_run, 1_000);
}

#[test]
fn the_checker_proves_it() {
    let report = check_handler(KeyedWalletTopUp, raw());
    assert_eq!(report.outcome, ExploreOutcome::Proved);
    assert_eq!(report.stats.unique_states, 1260);
}

#[test]
fn the_checker_proves_it_for_two_operations_racing_and_crashing() {
    // Two keys interleaved, each with a double submit and a crash: the full budget of faults
    // over two operations is some 326 000 states, too slow for a debug test.
    let config = HttpHarnessConfig {
        operations: 2,
        lost_responses_max: 0,
        key_reuses_max: 0,
        double_submits_max: 1,
        crashes_max: 1,
        ..raw()
    };
    let report = check_handler(KeyedWalletTopUp, config);
    assert_eq!(report.outcome, ExploreOutcome::Proved);
    assert_eq!(report.stats.unique_states, 21043);
}
