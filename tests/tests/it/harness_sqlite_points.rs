//! The harness over a user's own store: loyalty-points consumers over their own SQLite tables
//! (`examples/sqlite`). The naive consumer is caught and shrunk to a single duplicate, the
//! inbox committed apart from the effect to a crash between the two commits (both schedules
//! pinned as stories); the inbox in the effect's transaction passes every drawn schedule,
//! through `fuzz_system` and through the strategy in an ordinary `proptest!`.

use expect_test::expect;
use idempotency_lab::testing::harness::system::{
    ScheduleConfig, SystemFuzzConfig, fuzz_system, run_schedule, schedules,
};
use idempotency_lab_sqlite_example::points::{PointsConsumer, PointsDesign, award_points};
use proptest::prelude::*;

fn consumer(design: PointsDesign) -> PointsConsumer {
    PointsConsumer::open(design).expect("in-memory SQLite opens")
}

#[test]
fn the_naive_consumer_is_shrunk_to_a_single_duplicate() {
    let report = fuzz_system(
        &mut consumer(PointsDesign::Naive),
        award_points(),
        SystemFuzzConfig::default(),
    );
    let caught = report.counterexample.expect("the naive consumer is caught");
    assert_eq!(caught.run.faults_taken(), 1);
    expect![[r#"
        message #1 published: AwardPoints { customer: "ada", points: 1 }
        1. #1 delivered: acknowledged
          F1 duplicate: the broker delivers it once more
        2. #1 delivered again: acknowledged
        => not exactly once: the store shows {"ada": 2, "grace": 0}, but each message applied once shows {"ada": 1, "grace": 0}
    "#]].assert_eq(&caught.run.story());
}

#[test]
fn the_inbox_apart_from_the_effect_is_caught_by_a_crash_between_the_two() {
    let report = fuzz_system(
        &mut consumer(PointsDesign::InboxApart),
        award_points(),
        SystemFuzzConfig::default(),
    );
    let caught = report.counterexample.expect("the inbox committed apart is caught");
    assert_eq!(caught.run.faults_taken(), 1);
    expect![[r#"
        message #1 published: AwardPoints { customer: "ada", points: 1 }
        1. #1 delivered: F2: crashed just after its 1st commit: not acknowledged, delivered again
        2. #1 delivered again: acknowledged
        => not exactly once: the store shows {"ada": 0, "grace": 0}, but each message applied once shows {"ada": 1, "grace": 0}
    "#]].assert_eq(&caught.run.story());
}

#[test]
fn the_inbox_in_the_effects_transaction_passes_every_schedule() {
    let config = SystemFuzzConfig { cases: 512, ..SystemFuzzConfig::default() };
    let report = fuzz_system(&mut consumer(PointsDesign::Inbox), award_points(), config);
    assert_eq!(report.counterexample, None);
    assert_eq!((report.cases_run, report.runs), (512, 512));
}

proptest! {
    // The seed is printed on failure, and `PROPTEST_RNG_SEED` replays it.
    #![proptest_config(idempotency_lab::testing::proptest_config(256))]
    /// The strategy in an ordinary `proptest!`, as a user writes it.
    #[test]
    fn the_inbox_consumer_in_a_users_own_proptest(
        schedule in schedules(award_points(), ScheduleConfig::default())
    ) {
        run_schedule(&mut consumer(PointsDesign::Inbox), &schedule).verdict()?;
    }
}
