//! The minimal scenario of README.md ("### A minimal scenario") is accepted as it stands: by
//! `Scenario::from_json`, and by `idempotency-lab run`, which exits 1 because the naive P1 and
//! P4 reserve the apples twice, as the README says. The README is read from disk, so an edit
//! that breaks the example fails here.

use crate::common::{run_cli, scratch_dir};
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{Scenario, Simulation};

/// The first ```json block after the "### A minimal scenario" heading of README.md.
fn readme_minimal_scenario() -> String {
    let readme = include_str!("../../../README.md");
    let section = &readme[readme.find("### A minimal scenario").unwrap()..];
    let start = section.find("```json\n").unwrap() + "```json\n".len();
    let end = start + section[start..].find("\n```").unwrap();
    format!("{}\n", &section[start..end])
}

#[test]
fn the_readme_example_parses() {
    let scenario = Scenario::from_json(&readme_minimal_scenario()).unwrap();
    assert_eq!(scenario.id, "two-apples-delivered-twice");
    let trace = Simulation::run(scenario, 0).unwrap();
    assert_eq!(trace.invariants_ever_violated(), vec![InvariantId::I2, InvariantId::I6]);
}

#[test]
fn the_readme_example_runs_in_the_cli() {
    let dir = scratch_dir("readme-minimal");
    let path = dir.join("minimal.json");
    std::fs::write(&path, readme_minimal_scenario()).unwrap();
    let run = run_cli(&["run", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("  I2 One reservation per order line: first broken at step"));
}
