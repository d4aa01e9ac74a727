//! The race a sequential double submit misses: a service that checks the key, does the work
//! and only then stores the key, with nothing unique in between, replays every sequential
//! duplicate and lost response, so a probe limited to those holds; copies sent at once on
//! their own threads are both applied, and the probe catches it and shrinks it to two copies.

use crate::common::run_cli_in;
use crate::probe_services::{Design, start};
use crate::probe_top_up_services::example_probe_dir;

fn probe_with_faults(name: &str, faults: &str) -> crate::common::CliRun {
    let service = start(Design::CheckThenInsert);
    let dir = example_probe_dir(name, service.port);
    let path = dir.join("examples/probe/top_up.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = format!("{text}faults = [{faults}]\n");
    std::fs::write(&path, text).unwrap();
    run_cli_in(&dir, &["probe", "examples/probe/top_up.toml", "--seed", "4", "--schedules", "10"])
}

#[test]
fn sequential_duplicates_miss_the_race_that_concurrent_copies_find() {
    let sequential = probe_with_faults("probe_race_sequential", r#""duplicate", "lost_response""#);
    assert_eq!(sequential.code, 0, "{}{}", sequential.stdout, sequential.stderr);
    assert!(sequential.stdout.contains("held for 10 schedules"), "{}", sequential.stdout);
    let tally = sequential.stdout.lines().find(|line| line.starts_with("faults sent: ")).unwrap();
    assert!(!tally.contains(" 0"), "every fault sent at least once: {tally}");

    let concurrent = probe_with_faults("probe_race_concurrent", r#""duplicate", "concurrent""#);
    assert_eq!(concurrent.code, 1, "{}{}", concurrent.stdout, concurrent.stderr);
    let shrunk = concurrent.stdout.lines().find(|line| line.starts_with("shrunk in")).unwrap();
    assert!(shrunk.contains(" to 1 operation and 1 fault: #"), "{}", concurrent.stdout);
    assert!(shrunk.ends_with(" concurrent x2"), "{}", concurrent.stdout);
    assert!(
        concurrent
            .stdout
            .contains("changed by 20, each distinct operation applied once changes it by 10"),
        "{}",
        concurrent.stdout
    );
}
