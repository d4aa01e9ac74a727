//! The harness over a real database: three loyalty-points consumers over their own SQLite
//! tables, fuzzed with duplicates, crashes before and after commit, timeouts and reordering.
//! The naive one is caught and shrunk to a single duplicate; the inbox in the effect's
//! transaction passes every schedule; the inbox committed apart is caught by a crash between
//! the two commits. Each counterexample prints as a short story.
//!
//! Run with `cargo run -p idempotency-lab-sqlite-example --example sqlite_points`.
//! README's "Fuzz your own consumer" quotes it; a test keeps the two the same.

use idempotency_lab::testing::harness::system::{SystemFuzzConfig, fuzz_system};
use idempotency_lab_sqlite_example::points::{PointsConsumer, PointsDesign, award_points};

fn main() -> rusqlite::Result<()> {
    let config = SystemFuzzConfig::default();

    // `UPDATE points SET balance = balance + ?` on every delivery: caught, shrunk to one duplicate.
    let mut naive = PointsConsumer::open(PointsDesign::Naive)?;
    let report = fuzz_system(&mut naive, award_points(), config);
    let caught = report.counterexample.expect("the naive consumer is caught");
    assert_eq!(caught.run.faults_taken(), 1);
    println!("naive, caught after {} schedules:\n{}", report.cases_run, caught.run.story());

    // The inbox row and the points in one transaction: every schedule keeps exactly-once.
    let mut inbox = PointsConsumer::open(PointsDesign::Inbox)?;
    let report = fuzz_system(&mut inbox, award_points(), config);
    assert_eq!(report.counterexample, None);
    println!("inbox in the same transaction: {} schedules, exactly once\n", report.cases_run);

    // The inbox row committed apart from the points: caught by a crash between the two.
    let mut apart = PointsConsumer::open(PointsDesign::InboxApart)?;
    let report = fuzz_system(&mut apart, award_points(), config);
    let caught = report.counterexample.expect("the inbox committed apart is caught");
    println!("inbox in its own transaction, caught:\n{}", caught.run.story());
    Ok(())
}
