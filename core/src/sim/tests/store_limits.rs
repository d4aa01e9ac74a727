//! Issue 33: a limit of the store (`shop.store`) reached is an outcome of its own, never an
//! invariant violation. Before, the store's refusal surfaced as whatever caught it: a handler
//! that could not begin its transaction answered 500 (I7 when the request was a duplicate, as
//! under a double submit), a layer or a consumer that could not begin failed and the work was
//! left to a retry. Now the open transactions are a pool: a BEGIN waits for a free one, as
//! behind a connection pool, so that limit is never met by a run. A full table stops the run
//! before the refused step, with the limit recorded (`Trace::limit_reached`, which limit at
//! which step), and every step before it is judged as usual.

use super::*;
use crate::store::{StoreError, TableName};

/// The double-submit lesson, idempotent, in a store of these limits.
fn double_submit_in(open_transactions_max: usize, rows_per_table_max: usize) -> Scenario {
    let mut lesson =
        catalogue_scenario("f06-double-submit").unwrap().with_mode(PatternMode::Idempotent);
    lesson.shop.store.open_transactions_max = open_transactions_max;
    lesson.shop.store.rows_per_table_max = rows_per_table_max;
    assert_eq!(lesson.validate(), Ok(()), "inside the documented bounds");
    lesson
}

/// The limit `trace` stopped at, checked to be the run's stop: the step after its last.
fn limit_of(trace: &Trace) -> Option<&LimitReached> {
    let limit = trace.limit_reached.as_ref()?;
    assert_eq!(limit.step, trace.steps.len() + 1, "the refused step is not taken");
    let StopReason::StepFailed { step, error } = &trace.stop else {
        panic!("a limit stops the run: {:?}", trace.stop)
    };
    assert_eq!(*step, limit.step);
    assert!(error.contains(&limit.refusal.to_string()), "{error}");
    Some(limit)
}

#[test]
fn one_open_transaction_makes_a_double_submit_wait_for_the_connection_not_fail() {
    // As behind a pool of one connection: the second send's BEGIN waits until the first
    // transaction ends, so the run never meets the limit, and the shop keeps every invariant.
    let mut waited = 0;
    for seed in 0..16 {
        let trace = Simulation::run(double_submit_in(1, 100_000), seed).unwrap();
        assert_eq!(trace.invariants_ever_violated(), Vec::<InvariantId>::new(), "seed {seed}");
        assert_eq!(trace.limit_reached, None, "seed {seed}");
        assert_eq!(trace.stop, StopReason::Quiescent, "seed {seed}");
        let mut at_most_one_open = Simulation::new(double_submit_in(1, 100_000), seed).unwrap();
        while at_most_one_open.step().is_some() {
            assert!(at_most_one_open.world().store().open_transactions().count() <= 1);
        }
        // The trace reads back and replays.
        let read = Trace::from_json(&trace.to_json()).unwrap();
        assert_eq!(read, trace);
        assert_eq!(Simulation::replay(&read).unwrap(), trace, "seed {seed}");
        let unlimited = Simulation::run(double_submit_in(64, 100_000), seed).unwrap();
        if unlimited.steps != trace.steps {
            waited += 1;
        }
    }
    assert!(waited > 0, "two sends of one key at once would need two connections");
}

#[test]
fn a_full_table_stops_the_run_at_the_limit() {
    // Placing an order writes the order and its outbox row in one transaction: two writes.
    let trace = Simulation::run(double_submit_in(64, 1), 0).unwrap();
    assert_eq!(trace.invariants_ever_violated(), Vec::<InvariantId>::new());
    let limit = limit_of(&trace).expect("the first order needs two writes");
    assert!(
        matches!(
            limit.refusal,
            StoreError::TableFull { limit: 1, table: TableName::Outbox | TableName::Orders }
        ),
        "{limit:?}"
    );
}

#[test]
fn a_run_within_the_store_limits_records_no_limit() {
    let trace = Simulation::run(double_submit_in(64, 100_000), 0).unwrap();
    assert_eq!(trace.limit_reached, None);
    assert_eq!(trace.stop, StopReason::Quiescent);
    assert!(
        !trace.to_json().contains("limit_reached"),
        "the JSON of a run within limits is unchanged"
    );
}
