//! The harness for your own HTTP handler, on a wallet top-up endpoint: the raw handler adds
//! the amount on every request and the harness catches it with a shrunk schedule; behind the
//! lab's `Idempotency-Key` layer it survives lost responses, double submits and reused keys
//! but not a crash between its commit and the key's completion; the version that writes its
//! own key in the same transaction as the balance passes the fuzzer and the exhaustive check.
//! It prints the fuzzer's cases per second on the fixed handler.
//!
//! Run with `cargo run -p idempotency-lab --features testing --example harness_wallet_top_up`.
//! README's "Fuzz a consumer or HTTP handler written as steps" quotes its heart; a test
//! keeps the two the same.

use std::time::Instant;

use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{
    HandlerPlug, HttpHarnessConfig, check_handler, fuzz_handler,
};
use idempotency_lab::testing::harness::{HarnessCheckReport, HttpAction};
use idempotency_lab::testing::wallet_top_up::{KeyedWalletTopUp, WalletTopUp};

fn main() {
    let raw = HttpHarnessConfig::default().with_plug(HandlerPlug::Raw);
    // Raw, the handler tops up on every request: caught, shrunk to a single fault.
    let naive = fuzz_handler(WalletTopUp, raw);
    let counterexample = naive.counterexample.expect("the raw top-up is caught");
    assert_eq!(counterexample.faults(), 1);
    println!("raw top-up: caught after {} schedules; shrunk schedule:", naive.cases_run);
    for action in &counterexample.actions {
        println!("  {action:?}");
    }
    println!("  => {}", counterexample.violation.sentence);
    report("raw top-up, exhaustive", &check_handler(WalletTopUp, raw));

    // Behind the lab's layer: proved without crashes, caught by a crash between the handler's
    // commit and the key's completion (the layer's documented limit).
    let behind_layer = HttpHarnessConfig::default();
    let no_crash = check_handler(WalletTopUp, HttpHarnessConfig { crashes_max: 0, ..behind_layer });
    assert_eq!(no_crash.outcome, ExploreOutcome::Proved);
    report("top-up behind the layer, no crash", &no_crash);
    let one_crash = check_handler(WalletTopUp, behind_layer);
    assert!(matches!(one_crash.outcome, ExploreOutcome::Violated { .. }));
    report("top-up behind the layer, one crash", &one_crash);

    // Its own key, in the same transaction as the balance: every schedule is proved, raw.
    let proof = check_handler(KeyedWalletTopUp, raw);
    assert_eq!(proof.outcome, ExploreOutcome::Proved);
    report("keyed top-up, exhaustive", &proof);

    let started = Instant::now();
    let fixed = fuzz_handler(KeyedWalletTopUp, HttpHarnessConfig { cases: 1_000, ..raw });
    let elapsed = started.elapsed();
    assert_eq!(fixed.counterexample, None);
    println!(
        "keyed top-up, fuzzed: {} schedules in {:.2} s, {:.0} cases/s, no counterexample",
        fixed.cases_run,
        elapsed.as_secs_f64(),
        fixed.cases_per_second(elapsed)
    );
}

fn report(what: &str, report: &HarnessCheckReport<HttpAction>) {
    match &report.outcome {
        ExploreOutcome::Proved => {
            println!("{what}: proved over {} states", report.stats.unique_states)
        }
        ExploreOutcome::Violated { violation, path } => {
            println!("{what}: a shortest counterexample, {} actions:", path.len());
            for action in path {
                println!("  {action:?}");
            }
            println!("  => {}", violation.sentence);
        }
        ExploreOutcome::Bounded { reason } => println!("{what}: bounded, not a proof: {reason}"),
    }
}
