//! The harness over a real database, HTTP side: a wallet top-up handler over its own SQLite
//! tables, fuzzed with double submits, lost answers and API crashes before and after commit.
//! Raw, it is caught and shrunk to a single fault; with its `Idempotency-Key` and answer
//! stored in the balance's transaction, every schedule keeps exactly-once.
//!
//! Run with `cargo run -p idempotency-lab-sqlite-example --example sqlite_top_up`.

use idempotency_lab::testing::harness::system::{SystemFuzzConfig, fuzz_system};
use idempotency_lab_sqlite_example::top_up::{TopUpDesign, TopUpHandler, top_ups};

fn main() -> rusqlite::Result<()> {
    let config = SystemFuzzConfig::default();

    // Raw: the handler tops up on every request: caught, shrunk to a single fault.
    let mut raw = TopUpHandler::open(TopUpDesign::Raw)?;
    let report = fuzz_system(&mut raw, top_ups(), config);
    let caught = report.counterexample.expect("the raw handler is caught");
    assert_eq!(caught.run.faults_taken(), 1);
    println!("raw, caught after {} schedules:\n{}", report.cases_run, caught.run.story());

    // The key and its answer stored in the balance's transaction: exactly once.
    let mut keyed = TopUpHandler::open(TopUpDesign::KeyInTransaction)?;
    let report = fuzz_system(&mut keyed, top_ups(), config);
    assert_eq!(report.counterexample, None);
    println!("key in the same transaction: {} schedules, exactly once", report.cases_run);
    Ok(())
}
