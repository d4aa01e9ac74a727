//! The generated runs are worth something only if they reach the faults they are meant to
//! exercise. This test runs a batch of them against the idempotent shop and counts what
//! happened: keys taken over after a crashed request, replays, 409s, relay crashes that
//! published a message twice, duplicates absorbed by the inbox, consumer instances that waited
//! for each other's lock, crashes before and after commit, repeated payments. Each must happen
//! in at least a few runs; the counts are printed (`--nocapture`) for a curious reader.

use std::collections::BTreeMap;

use crate::patterns::{Setup, Shop, ops};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngSeed, TestRunner};

#[test]
fn the_generated_runs_reach_every_fault_and_every_defence() {
    let config = Config { rng_seed: RngSeed::Fixed(7), ..Config::default() };
    let mut runner = TestRunner::new(config);
    let strategy = ops(20);
    let runs = 400;
    // In how many runs each thing happened at least once.
    let mut runs_with: BTreeMap<&'static str, usize> = BTreeMap::new();
    for _ in 0..runs {
        let ops = strategy.new_tree(&mut runner).unwrap().current();
        let mut shop = Shop::new(Setup::idempotent());
        for op in &ops {
            shop.apply(op);
        }
        shop.drain();
        for what in shop.coverage().keys() {
            *runs_with.entry(what).or_default() += 1;
        }
    }
    for (what, count) in &runs_with {
        println!("{count:4} of {runs} runs: {what}");
    }
    let expected = [
        "request: the API crashed while its handler held the key",
        "request: the API crashed before its handler ran",
        "request: the response was lost",
        "request: a duplicate was answered",
        "layer: KeyReserved",
        "layer: KeyTakenOver",
        "layer: ResponseReplayed",
        "layer: KeyInProgress",
        "layer: ResponseStored",
        "relay: crashed after publishing, before marking",
        "relay: published a message again",
        "delivery: the effect was applied",
        "delivery: the inbox absorbed a duplicate",
        "delivery: an instance waited for the other's lock",
        "delivery: the consumer crashed with its transaction open",
        "delivery: the consumer crashed after commit, before ack",
        "order: OrderPaid",
        "order: PaymentAlreadyRecorded",
        "order: OrderCancelled",
        "order: CancellationAlreadyRecorded",
        "order: a command was refused by the order's status",
    ];
    for what in expected {
        let count = runs_with.get(what).copied().unwrap_or(0);
        assert!(count >= 4, "only {count} of {runs} runs reached `{what}`");
    }
}
