//! Schedules per second on SQLite: the harness runs drawn schedules (up to three messages and
//! three faults each) against the loyalty-points consumer with its inbox and against the keyed
//! top-up handler, each on its in-memory SQLite database; a schedule is a reset of the tables,
//! its deliveries in their own transactions, and the read of the store that the oracle judges.
//!
//! Run with `cargo bench -p idempotency-lab-sqlite-example --bench sqlite_schedules`.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use idempotency_lab::testing::harness::system::{
    Schedule, ScheduleConfig, SystemUnderTest, run_schedule, schedules,
};
use idempotency_lab_sqlite_example::points::{PointsConsumer, PointsDesign, award_points};
use idempotency_lab_sqlite_example::top_up::{TopUpDesign, TopUpHandler, top_ups};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

const SCHEDULES: usize = 256;

fn main() {
    divan::main();
}

/// `SCHEDULES` schedules drawn by a deterministic runner.
fn drawn<S: Strategy>(messages: S) -> Vec<Schedule<S::Value>>
where
    S::Value: Clone + std::fmt::Debug,
{
    let strategy = schedules(messages, ScheduleConfig::default());
    let mut runner = TestRunner::deterministic();
    (0..SCHEDULES)
        .filter_map(|_| strategy.new_tree(&mut runner).ok().map(|tree| tree.current()))
        .collect()
}

fn bench_system<S: SystemUnderTest>(
    bencher: Bencher,
    system: &mut S,
    drawn: &[Schedule<S::Message>],
) {
    bencher.counter(ItemsCount::new(drawn.len())).bench_local(|| {
        for schedule in drawn {
            let run = run_schedule(system, black_box(schedule));
            assert!(run.violation.is_none(), "{}", run.story());
        }
    });
}

#[divan::bench(sample_count = 20)]
fn points_with_inbox(bencher: Bencher) {
    let drawn = drawn(award_points());
    let mut consumer = PointsConsumer::open(PointsDesign::Inbox).expect("in-memory SQLite opens");
    bench_system(bencher, &mut consumer, &drawn);
}

#[divan::bench(sample_count = 20)]
fn top_up_with_key(bencher: Bencher) {
    let drawn = drawn(top_ups());
    let mut handler =
        TopUpHandler::open(TopUpDesign::KeyInTransaction).expect("in-memory SQLite opens");
    bench_system(bencher, &mut handler, &drawn);
}
