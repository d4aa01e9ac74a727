//! `probe` of kind `webhook` through `examples/probe/webhook.toml` against two consumers on
//! 127.0.0.1: the naive one credits every delivery and is caught, shrunk to one event
//! delivered twice; the one with an inbox row per event id acknowledges every copy, credits
//! once, and holds.

use crate::common::{run_cli_in, scratch_dir};
use crate::probe_services::{Design, start};

fn probe_webhook(design: Design, name: &str) -> crate::common::CliRun {
    let service = start(design);
    let dir = scratch_dir(name);
    let example = include_str!("../../../examples/probe/webhook.toml");
    let text = example.replace("127.0.0.1:8080", &format!("127.0.0.1:{}", service.port));
    std::fs::write(dir.join("webhook.toml"), text).unwrap();
    run_cli_in(&dir, &["probe", "webhook.toml", "--seed", "3", "--schedules", "30"])
}

#[test]
fn the_naive_consumer_is_caught_and_the_inbox_holds() {
    let naive = probe_webhook(Design::Naive, "probe_webhook_naive");
    assert_eq!(naive.code, 1, "{}{}", naive.stdout, naive.stderr);
    let shrunk = naive.stdout.lines().find(|line| line.starts_with("shrunk in")).unwrap();
    assert!(shrunk.contains(" to 1 operation and 1 fault: #"), "{}", naive.stdout);
    assert!(shrunk.ends_with(" duplicate"), "{}", naive.stdout);
    assert!(
        naive.stdout.contains("  F1 duplicate delivery: #")
            && naive
                .stdout
                .contains("changed by 10, each distinct operation applied once changes it by 5"),
        "{}",
        naive.stdout
    );

    let inbox = probe_webhook(Design::Idempotent, "probe_webhook_inbox");
    assert_eq!(inbox.code, 0, "{}{}", inbox.stdout, inbox.stderr);
    assert!(inbox.stdout.contains("held for 30 schedules"), "{}", inbox.stdout);
    assert!(inbox.stdout.contains("faults sent: duplicate "), "{}", inbox.stdout);
}
