//! The lab against PostgreSQL: every built-in lesson in both modes over sampled seeds, and
//! cases fuzzed from each lesson, replayed statement by statement on a private PostgreSQL
//! server in the lab's own interleaving (`idempotency_lab_tests::postgres`). Any step where
//! the lab and the server differ (a wait, the rows affected, a unique violation, the committed
//! rows after a commit) fails with the lesson, mode, seed, step and both sides.
//!
//! Seeds: 0 to 3 of every lesson in each mode, plus seed 19 of f09 without its injection (the
//! naive cancel racing Consumer A's insert), plus 3 fuzzed cases per lesson drawn by a fixed
//! proptest seed. That keeps the test near ten seconds on the CI machine.

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{CATALOGUE, PatternMode, Scenario, Simulation, catalogue_scenario};
use idempotency_lab::testing::strategies::lesson_cases;
use idempotency_lab_tests::postgres::{Differential, ReplayReport};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const SEEDS: std::ops::Range<u64> = 0..4;
const FUZZED_CASES_PER_LESSON: usize = 3;

#[derive(Default)]
struct Totals {
    runs: usize,
    steps: usize,
    statements: usize,
    blocked: usize,
    commits: usize,
}

impl Totals {
    fn add(&mut self, report: &ReplayReport) {
        self.runs += 1;
        self.steps += report.steps;
        self.statements += report.statements;
        self.blocked += report.blocked;
        self.commits += report.commits_compared;
    }
}

fn check(
    differential: &mut Differential,
    totals: &mut Totals,
    what: &str,
    scenario: Scenario,
    seed: u64,
) {
    let simulation = Simulation::new(scenario, seed).expect("a valid scenario");
    let report = differential
        .replay(simulation)
        .unwrap_or_else(|error| panic!("{what}, seed {seed}: {error}"));
    if let Some(difference) = &report.difference {
        panic!("{what}, seed {seed}: the lab and PostgreSQL differ at {difference}");
    }
    totals.add(&report);
}

/// The repro of the lock rule the differential test found: f09 without its `deliver_after`,
/// all naive, seed 19. On PostgreSQL the naive cancel's `DELETE FROM reservations` does not
/// wait for Consumer A's uncommitted insert; it deletes nothing and I1 breaks.
pub fn f09_race() -> Scenario {
    let mut scenario = catalogue_scenario("f09-out-of-order").expect("a built-in lesson");
    scenario.injections.clear();
    scenario.with_mode(PatternMode::Naive)
}

#[test]
fn every_lesson_runs_on_postgresql_as_in_the_lab() {
    let mut differential = Differential::start().expect("a private PostgreSQL server");
    let mut totals = Totals::default();
    for entry in CATALOGUE {
        let lesson = catalogue_scenario(entry.id).expect("a built-in lesson");
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            for seed in SEEDS {
                let what = format!("{} ({mode:?})", entry.id);
                check(&mut differential, &mut totals, &what, lesson.with_mode(mode), seed);
            }
        }
    }
    check(&mut differential, &mut totals, "f09 without deliver_after (Naive)", f09_race(), 19);
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[18; 32]),
    );
    for entry in CATALOGUE {
        let lesson = catalogue_scenario(entry.id).expect("a built-in lesson");
        let cases = lesson_cases(lesson);
        for _ in 0..FUZZED_CASES_PER_LESSON {
            let case = cases.new_tree(&mut runner).expect("a case").current();
            let what =
                format!("{} fuzzed ({} injections)", entry.id, case.scenario.injections.len());
            check(&mut differential, &mut totals, &what, case.scenario, case.seed);
        }
    }
    eprintln!(
        "postgres differential: {} runs of {} lessons, {} steps, {} SQL statements ({} waited), \
         {} commits compared",
        totals.runs,
        CATALOGUE.len(),
        totals.steps,
        totals.statements,
        totals.blocked,
        totals.commits
    );
    assert!(totals.blocked > 0, "no run made a statement wait: the lock rules went untested");
}

#[test]
fn the_naive_cancel_racing_the_consumer_breaks_stock_as_on_postgresql() {
    let mut differential = Differential::start().expect("a private PostgreSQL server");
    let simulation = Simulation::new(f09_race(), 19).expect("a valid scenario");
    let report = differential.replay(simulation).expect("a replay");
    assert_eq!(report.difference, None);
    let trace = Simulation::run(f09_race(), 19).expect("a valid scenario");
    let violated = trace.invariants_ever_violated();
    assert!(violated.contains(&InvariantId::I1), "I1 should break, got {violated:?}");
}
