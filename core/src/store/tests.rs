//! Tests of the store's transactional semantics: isolation, unique constraints, row locks,
//! rollback, limits.

use super::*;
use crate::ids::{ConsumerName, IdempotencyKey, MessageId, OrderId};
use uuid::Uuid;

fn apple() -> Sku {
    Sku::new("apple")
}

fn store_with_ten_apples() -> Store {
    Store::with_stock(StoreConfig::default(), [(apple(), 10)])
}

fn reservation(order: u128, qty: i64) -> ReservationRow {
    ReservationRow { order_id: OrderId(Uuid::from_u128(order)), sku: apple(), qty }
}

#[test]
fn uncommitted_writes_are_invisible_to_other_transactions() {
    let mut store = store_with_ten_apples();
    let writer = store.begin().unwrap();
    let reader = store.begin().unwrap();
    store.insert(writer, reservation(1, 2)).unwrap();
    let key = (OrderId(Uuid::from_u128(1)), apple());

    assert_eq!(store.get::<ReservationRow>(writer, &key).unwrap(), Some(reservation(1, 2)));
    assert_eq!(store.get::<ReservationRow>(reader, &key).unwrap(), None);
    assert!(store.committed().reservations.is_empty());

    store.commit(writer).unwrap();
    assert_eq!(store.get::<ReservationRow>(reader, &key).unwrap(), Some(reservation(1, 2)));
}

#[test]
fn insert_on_conflict_do_nothing_reports_whether_it_inserted() {
    let mut store = store_with_ten_apples();
    let ((first, second), changes) = store
        .transaction(|store, tx| -> Result<_, StoreError> {
            let first = store.insert_on_conflict_do_nothing(tx, reservation(1, 2))?;
            let second = store.insert_on_conflict_do_nothing(tx, reservation(1, 5))?;
            Ok((first, second))
        })
        .unwrap();
    assert_eq!((first, second), (Inserted::Inserted, Inserted::AlreadyPresent));
    assert_eq!(changes.len(), 1);
    assert_eq!(store.committed().reservations.values().next(), Some(&reservation(1, 2)));
}

#[test]
fn plain_insert_of_a_taken_key_is_a_typed_unique_violation() {
    let mut store = store_with_ten_apples();
    store.transaction(|store, tx| store.insert(tx, reservation(1, 2))).unwrap();
    let error = store.transaction(|store, tx| store.insert(tx, reservation(1, 3))).unwrap_err();
    let expected_key = serde_json::json!([Uuid::from_u128(1), "apple"]);
    assert_eq!(
        error,
        StoreError::UniqueViolation { table: TableName::Reservations, key: expected_key }
    );
    assert_eq!(store.committed().reservations.values().next(), Some(&reservation(1, 2)));
}

#[test]
fn a_write_to_a_row_locked_by_another_transaction_is_blocked_until_it_ends() {
    let mut store = store_with_ten_apples();
    let first = store.begin().unwrap();
    let second = store.begin().unwrap();
    store.insert(first, reservation(1, 2)).unwrap();

    let blocked = store.insert_on_conflict_do_nothing(second, reservation(1, 2)).unwrap_err();
    assert!(
        matches!(blocked, StoreError::Blocked(RowLockWait { tx, holder, .. }) if tx == second && holder == first)
    );

    store.commit(first).unwrap();
    // As in PostgreSQL: once the holder commits, the waiting insert sees the row.
    assert_eq!(
        store.insert_on_conflict_do_nothing(second, reservation(1, 2)).unwrap(),
        Inserted::AlreadyPresent
    );
}

#[test]
fn update_computes_from_the_latest_committed_value() {
    let mut store = store_with_ten_apples();
    let first = store.begin().unwrap();
    let second = store.begin().unwrap();
    store.update::<StockRow>(first, &apple(), |row| row.available_qty -= 3).unwrap();
    store.commit(first).unwrap();
    let row = store.update::<StockRow>(second, &apple(), |row| row.available_qty -= 4).unwrap();
    store.commit(second).unwrap();
    assert_eq!(row.map(|row| row.available_qty), Some(3));
    assert_eq!(store.committed().stock[&apple()].available_qty, 3);
}

#[test]
fn update_of_a_missing_row_affects_nothing() {
    let mut store = store_with_ten_apples();
    let tx = store.begin().unwrap();
    let missing = Sku::new("pear");
    assert_eq!(store.update::<StockRow>(tx, &missing, |row| row.available_qty -= 1), Ok(None));
    store.start_step();
    assert_eq!(store.commit(tx), Ok(()));
    assert_eq!(store.step_row_changes(), vec![]);
}

#[test]
fn rollback_leaves_no_trace_and_releases_locks() {
    let mut store = store_with_ten_apples();
    let before = store.committed().clone();
    let crashed = store.begin().unwrap();
    store.insert(crashed, reservation(1, 2)).unwrap();
    store.update::<StockRow>(crashed, &apple(), |row| row.available_qty -= 2).unwrap();
    store.rollback(crashed).unwrap();
    assert_eq!(store.committed(), &before);
    assert_eq!(store.open_transactions().count(), 0);

    let next = store.begin().unwrap();
    assert_eq!(
        store.insert_on_conflict_do_nothing(next, reservation(1, 2)),
        Ok(Inserted::Inserted)
    );
}

#[test]
fn a_failing_transaction_body_rolls_back_everything_it_wrote() {
    let mut store = store_with_ten_apples();
    let before = store.committed().clone();
    let result: Result<((), _), StoreError> = store.transaction(|store, tx| {
        store.update::<StockRow>(tx, &apple(), |row| row.available_qty -= 2)?;
        store.insert(tx, reservation(1, 2))?;
        store.insert(tx, reservation(1, 2))
    });
    assert!(matches!(result, Err(StoreError::UniqueViolation { .. })));
    assert_eq!(store.committed(), &before);
}

#[test]
fn commit_reports_exactly_the_rows_it_changed() {
    let mut store = store_with_ten_apples();
    let (_, changes) = store
        .transaction(|store, tx| -> Result<_, StoreError> {
            store.insert(tx, reservation(1, 2))?;
            store.update::<StockRow>(tx, &apple(), |row| row.available_qty -= 2)?;
            Ok(())
        })
        .unwrap();
    let rendered = serde_json::to_string_pretty(&changes).unwrap();
    expect_test::expect![[r#"
        [
          {
            "table": "stock",
            "key": "apple",
            "before": {
              "available_qty": 10,
              "on_hand_qty": 10,
              "sku": "apple"
            },
            "after": {
              "available_qty": 8,
              "on_hand_qty": 10,
              "sku": "apple"
            }
          },
          {
            "table": "reservations",
            "key": [
              "00000000-0000-0000-0000-000000000001",
              "apple"
            ],
            "before": null,
            "after": {
              "order_id": "00000000-0000-0000-0000-000000000001",
              "qty": 2,
              "sku": "apple"
            }
          }
        ]"#]]
    .assert_eq(&rendered);
}

#[test]
fn deleted_rows_vanish_on_commit_and_unknown_transactions_are_typed_errors() {
    let mut store = store_with_ten_apples();
    store.transaction(|store, tx| store.insert(tx, reservation(1, 2))).unwrap();
    let key = (OrderId(Uuid::from_u128(1)), apple());
    let (existed, _) =
        store.transaction(|store, tx| store.delete::<ReservationRow>(tx, &key)).unwrap();
    assert!(existed);
    assert!(store.committed().reservations.is_empty());

    let gone = TxId(999);
    assert_eq!(store.commit(gone), Err(StoreError::UnknownTransaction { tx: gone }));
    assert_eq!(store.rollback(gone), Err(StoreError::UnknownTransaction { tx: gone }));
    assert_eq!(
        store.get::<InboxRow>(gone, &(MessageId(Uuid::nil()), ConsumerName::new("c"))),
        Err(StoreError::UnknownTransaction { tx: gone })
    );
}

#[test]
fn limits_are_typed_errors() {
    let config = StoreConfig { open_transactions_max: 2, rows_per_table_max: 1 };
    let mut store = Store::with_stock(config, [(apple(), 10)]);
    let first = store.begin().unwrap();
    store.begin().unwrap();
    assert_eq!(store.begin(), Err(StoreError::TooManyOpenTransactions { open: 2, limit: 2 }));

    store.insert(first, reservation(1, 1)).unwrap();
    let full = store.insert(first, reservation(2, 1)).unwrap_err();
    assert_eq!(full, StoreError::TableFull { table: TableName::Reservations, limit: 1 });

    // A limit's refusal is told apart from a refusal of what the statement asked, which the
    // run's limit-reached outcome relies on.
    let asked = store.insert(first, reservation(1, 1)).unwrap_err();
    assert!(matches!(asked, StoreError::UniqueViolation { .. }), "{asked:?}");
    let gone = store.begin().unwrap_err();
    assert!(gone.is_limit() && full.is_limit(), "{gone:?} {full:?}");
    let unknown = StoreError::UnknownTransaction { tx: TxId(99) };
    assert!(!asked.is_limit() && !unknown.is_limit(), "{asked:?} {unknown:?}");
}

#[test]
fn every_table_lists_exactly_the_columns_of_its_rows_json() {
    let mut store = store_with_ten_apples();
    let order = OrderRow {
        id: OrderId(Uuid::from_u128(1)),
        lines: vec![OrderLine { sku: apple(), qty: 1 }].into(),
        status: OrderStatus::Placed,
    };
    store
        .transaction(|store, tx| -> Result<_, StoreError> {
            store.insert(tx, order)?;
            store.insert(tx, reservation(1, 1))?;
            store.insert(
                tx,
                InboxRow {
                    message_id: MessageId(Uuid::from_u128(2)),
                    consumer: ConsumerName::new("reserve-stock"),
                    processed_at: crate::ids::Tick(1),
                },
            )?;
            store.insert(
                tx,
                OutboxRow {
                    message_id: MessageId(Uuid::from_u128(2)),
                    payload: MessagePayload::OrderCancelled {
                        order_id: OrderId(Uuid::from_u128(1)),
                    },
                    published: false,
                    created_at: crate::ids::Tick(0),
                },
            )?;
            store.insert(
                tx,
                IdempotencyKeyRow {
                    key: IdempotencyKey(Uuid::from_u128(3)),
                    fingerprint: RequestFingerprint("sha256:00".into()),
                    state: KeyState::InProgress {
                        lease_expires_at: crate::ids::Tick(5),
                        fencing_token: FencingToken(1),
                    },
                    created_at: crate::ids::Tick(0),
                },
            )?;
            let id = store.next_charge_id();
            store.insert(
                tx,
                ChargeRow {
                    id,
                    order_id: OrderId(Uuid::from_u128(1)),
                    payment_id: crate::ids::PaymentId::new("pay-1"),
                },
            )
        })
        .unwrap();
    for &table in TableName::ALL {
        let rows = store.committed().rows_json(table);
        assert_eq!(rows.len(), 1, "{}", table.as_str());
        let mut fields: Vec<&str> =
            rows[0].as_object().unwrap().keys().map(String::as_str).collect();
        let mut columns = table.columns().to_vec();
        fields.sort_unstable();
        columns.sort_unstable();
        assert_eq!(fields, columns, "{}", table.as_str());
    }
}

// The lock rules below follow PostgreSQL 15 in read committed, each checked on a real server
// with two sessions (and kept so by the differential test in `tests/`).

fn key_of(order: u128) -> (OrderId, Sku) {
    (OrderId(Uuid::from_u128(order)), apple())
}

fn is_blocked_by(result: Result<impl Debug, StoreError>, holder: TxId) -> bool {
    matches!(result, Err(StoreError::Blocked(RowLockWait { holder: h, .. })) if h == holder)
}

/// PostgreSQL: an `UPDATE` or `DELETE` looks its row up in the statement's snapshot, and a row
/// inserted by a transaction that has not committed is not in it: zero rows, at once, no wait.
#[test]
fn update_or_delete_of_a_row_another_open_transaction_inserted_affects_zero_rows_at_once() {
    let mut store = store_with_ten_apples();
    let inserter = store.begin().unwrap();
    let other = store.begin().unwrap();
    store.insert(inserter, reservation(1, 3)).unwrap();

    assert_eq!(store.delete::<ReservationRow>(other, &key_of(1)), Ok(false));
    assert_eq!(store.update::<ReservationRow>(other, &key_of(1), |row| row.qty += 1), Ok(None));
    store.commit(inserter).unwrap();
    store.commit(other).unwrap();
    // The delete did not wait for the insert and then remove it: the row stays.
    assert_eq!(store.committed().reservations.get(&key_of(1)), Some(&reservation(1, 3)));
}

/// PostgreSQL: an `INSERT ... ON CONFLICT` (or a plain `INSERT`) of a key that an open
/// transaction inserted waits for it (the unique check waits for the in-progress inserter).
#[test]
fn an_insert_of_a_key_another_open_transaction_inserted_waits_for_it() {
    let mut store = store_with_ten_apples();
    let inserter = store.begin().unwrap();
    let other = store.begin().unwrap();
    store.insert(inserter, reservation(1, 3)).unwrap();
    assert!(is_blocked_by(store.insert_on_conflict_do_nothing(other, reservation(1, 5)), inserter));
    assert!(is_blocked_by(store.insert(other, reservation(1, 5)), inserter));
    let upsert = store.insert_on_conflict_do_update(other, reservation(1, 5), |row| row.qty += 5);
    assert!(is_blocked_by(upsert, inserter));
}

/// PostgreSQL: an `UPDATE` whose `WHERE` is false on the snapshot's row skips it without
/// waiting, even while another transaction has an uncommitted update of that row.
#[test]
fn an_update_whose_condition_is_false_on_the_committed_row_does_not_wait() {
    let mut store = Store::with_stock(StoreConfig::default(), [(apple(), 1)]);
    let giver = store.begin().unwrap();
    let taker = store.begin().unwrap();
    store.update::<StockRow>(giver, &apple(), |row| row.available_qty += 3).unwrap();
    let taken = store.update_where::<StockRow>(
        taker,
        &apple(),
        |row| row.available_qty >= 2,
        |row| row.available_qty -= 2,
    );
    assert_eq!(taken, Ok(None));
}

/// PostgreSQL: an `UPDATE` whose `WHERE` holds on a row another transaction has written waits,
/// and after that transaction commits evaluates the `WHERE` again on the new version.
#[test]
fn an_update_whose_condition_holds_waits_and_then_re_evaluates_it_on_the_new_version() {
    let mut store = Store::with_stock(StoreConfig::default(), [(apple(), 3)]);
    let first = store.begin().unwrap();
    let second = store.begin().unwrap();
    let take_two = |store: &mut Store, tx| {
        store.update_where::<StockRow>(
            tx,
            &apple(),
            |row| row.available_qty >= 2,
            |row| row.available_qty -= 2,
        )
    };
    assert!(take_two(&mut store, first).unwrap().is_some());
    assert!(is_blocked_by(take_two(&mut store, second), first));
    store.commit(first).unwrap();
    assert_eq!(take_two(&mut store, second), Ok(None));
}

/// PostgreSQL: `ON CONFLICT DO NOTHING` waits behind an `UPDATE` that changed the conflicting
/// row (even to the same values) or a `DELETE` of it, and not behind an `UPDATE` whose `WHERE`
/// skipped it: that statement took no lock.
#[test]
fn on_conflict_do_nothing_waits_only_behind_a_statement_that_wrote_the_row() {
    let mut store = store_with_ten_apples();
    store.transaction(|store, tx| store.insert(tx, reservation(1, 3))).unwrap();
    let writer = store.begin().unwrap();
    let inserter = store.begin().unwrap();

    let skipped =
        store.update_where::<ReservationRow>(writer, &key_of(1), |row| row.qty > 5, |_| {});
    assert_eq!(skipped, Ok(None));
    assert_eq!(
        store.insert_on_conflict_do_nothing(inserter, reservation(1, 3)),
        Ok(Inserted::AlreadyPresent)
    );

    store.update::<ReservationRow>(writer, &key_of(1), |_| {}).unwrap();
    assert!(is_blocked_by(
        store.insert_on_conflict_do_nothing(inserter, reservation(1, 3)),
        writer
    ));
    store.rollback(writer).unwrap();

    let deleter = store.begin().unwrap();
    assert_eq!(store.delete::<ReservationRow>(deleter, &key_of(1)), Ok(true));
    assert!(is_blocked_by(
        store.insert_on_conflict_do_nothing(inserter, reservation(1, 3)),
        deleter
    ));
    store.commit(deleter).unwrap();
    assert_eq!(
        store.insert_on_conflict_do_nothing(inserter, reservation(1, 3)),
        Ok(Inserted::Inserted)
    );
}

/// PostgreSQL: an `UPDATE` or `DELETE` of a committed row that another open transaction is
/// deleting waits, and once the delete commits finds no row.
#[test]
fn an_update_of_a_row_being_deleted_waits_then_finds_nothing() {
    let mut store = store_with_ten_apples();
    store.transaction(|store, tx| store.insert(tx, reservation(1, 3))).unwrap();
    let deleter = store.begin().unwrap();
    let updater = store.begin().unwrap();
    store.delete::<ReservationRow>(deleter, &key_of(1)).unwrap();
    assert!(is_blocked_by(
        store.update::<ReservationRow>(updater, &key_of(1), |row| row.qty += 1),
        deleter
    ));
    store.commit(deleter).unwrap();
    assert_eq!(store.update::<ReservationRow>(updater, &key_of(1), |row| row.qty += 1), Ok(None));
}

#[test]
fn the_statement_log_records_each_operation_and_is_no_part_of_the_state() {
    let mut store = store_with_ten_apples();
    let quiet = store.clone();
    store.start_statement_log();
    let tx = store.begin().unwrap();
    store.insert(tx, reservation(1, 3)).unwrap();
    store.insert_on_conflict_do_nothing(tx, reservation(1, 3)).unwrap();
    store.rollback(tx).unwrap();
    let key = serde_json::json!([Uuid::from_u128(1), "apple"]).to_string();
    assert_eq!(
        store.statement_log(),
        &[
            StoreOp::Begin { tx },
            StoreOp::Wrote { tx, table: TableName::Reservations, key },
            StoreOp::Skipped { tx },
            StoreOp::Rollback { tx },
        ]
    );
    let mut quiet = quiet;
    let _ = quiet.begin().unwrap();
    let _ = quiet.rollback(TxId(1));
    assert_eq!(store, quiet);
    store.stop_statement_log();
    assert!(store.statement_log().is_empty());
}

/// A statement that must wait, an insert that hits the unique key, and a conditional `UPDATE`
/// that writes its row or matches none are logged as such, as the differential test compares
/// them with PostgreSQL (a wait is where the server blocks, a unique violation where it raises
/// 23505); mutants that drop them from the log survived the core's tests before
/// (`core/mutants-equivalent.md`, run K).
#[test]
fn the_statement_log_records_waits_unique_violations_and_conditional_writes() {
    let mut store = store_with_ten_apples();
    store.start_statement_log();
    let first = store.begin().unwrap();
    let second = store.begin().unwrap();
    store.insert(first, reservation(1, 2)).unwrap();
    let Err(StoreError::Blocked(wait)) =
        store.insert_on_conflict_do_nothing(second, reservation(1, 2))
    else {
        panic!("the second insert must wait for the first transaction's row");
    };
    store.commit(first).unwrap();
    let third = store.begin().unwrap();
    assert!(matches!(
        store.insert(third, reservation(1, 5)),
        Err(StoreError::UniqueViolation { .. })
    ));
    // A conditional UPDATE that changes its row, then one whose condition matches nothing.
    let row_key = (OrderId(Uuid::from_u128(1)), apple());
    assert!(store.update::<ReservationRow>(third, &row_key, |row| row.qty += 1).unwrap().is_some());
    let none = store.update_where::<ReservationRow>(third, &row_key, |row| row.qty > 100, |_| {});
    assert_eq!(none, Ok(None));
    let key = serde_json::json!([Uuid::from_u128(1), "apple"]).to_string();
    assert_eq!(
        store.statement_log(),
        &[
            StoreOp::Begin { tx: first },
            StoreOp::Begin { tx: second },
            StoreOp::Wrote { tx: first, table: TableName::Reservations, key: key.clone() },
            StoreOp::Blocked(wait),
            StoreOp::Commit { tx: first },
            StoreOp::Begin { tx: third },
            StoreOp::UniqueViolation { tx: third, table: TableName::Reservations },
            StoreOp::Wrote { tx: third, table: TableName::Reservations, key },
            StoreOp::Skipped { tx: third },
        ]
    );
}

/// The rows a step's commits changed, from the before-image the commits keep: one change per
/// row however often it was written, none for writes that cancel out, in table then key order,
/// exactly [`Tables::diff`] of the tables before and after the step.
#[test]
fn a_steps_row_changes_coalesce_its_commits_and_equal_the_diff() {
    let mut store = store_with_ten_apples();
    store.transaction(|store, tx| store.insert(tx, reservation(9, 1))).unwrap();
    let before = store.committed().clone();
    store.start_step();
    // Two commits to one stock row: one change from the first value to the last.
    for _ in 0..2 {
        store
            .transaction(|store, tx| {
                store.update::<StockRow>(tx, &Sku::new("apple"), |row| row.available_qty -= 1)
            })
            .unwrap();
    }
    // An insert and a delete of the same reservation cancel out: no change.
    store.transaction(|store, tx| store.insert(tx, reservation(1, 2))).unwrap();
    store
        .transaction(|store, tx| {
            store.delete_where::<ReservationRow>(tx, &reservation(1, 2).key(), |_| true)
        })
        .unwrap();
    // A delete of a row that existed before the step.
    store
        .transaction(|store, tx| {
            store.delete_where::<ReservationRow>(tx, &reservation(9, 1).key(), |_| true)
        })
        .unwrap();
    let changes = store.step_row_changes();
    assert_eq!(changes, before.diff(store.committed()));
    let tables: Vec<TableName> = changes.iter().map(|change| change.table).collect();
    assert_eq!(tables, vec![TableName::Stock, TableName::Reservations]);
    assert_eq!(changes[0].before.as_ref().unwrap()["available_qty"], 10);
    assert_eq!(changes[0].after.as_ref().unwrap()["available_qty"], 8);
    assert_eq!(changes[1].after, None);
    store.start_step();
    assert_eq!(store.step_row_changes(), vec![]);
}

#[test]
fn a_store_reports_the_limits_it_was_given_and_keeps_them() {
    let limits = StoreConfig { open_transactions_max: 2, rows_per_table_max: 3 };
    let mut store = Store::new(limits);
    assert_eq!(store.config(), limits);
    // The limits it reports are the ones it enforces.
    let first = store.begin().unwrap();
    let _second = store.begin().unwrap();
    assert!(store.begin().is_err(), "a third transaction is over open_transactions_max = 2");
    store.rollback(first).unwrap();
    assert_eq!(store.config(), limits);
}

#[test]
fn a_select_reads_what_its_transaction_sees_filtered_ordered_and_limited() {
    // Committed: orders 1-5 with qty 5, 4, 3, 2, 1. The reader's own writes: order 2 deleted,
    // order 3 changed to qty 9, order 6 inserted with qty 0. Another transaction's insert of
    // order 7 is not seen.
    let mut store = store_with_ten_apples();
    store
        .transaction(|store, tx| {
            (1..=5u8).try_for_each(|order| {
                store.insert(tx, reservation(u128::from(order), 6 - i64::from(order)))
            })
        })
        .unwrap();
    let other = store.begin().unwrap();
    store.insert(other, reservation(7, 7)).unwrap();
    let reader = store.begin().unwrap();
    store.delete::<ReservationRow>(reader, &key_of(2)).unwrap();
    store.update::<ReservationRow>(reader, &key_of(3), |row| row.qty = 9).unwrap();
    store.insert(reader, reservation(6, 0)).unwrap();

    let seen = |rows: Vec<ReservationRow>| -> Vec<(u128, i64)> {
        rows.into_iter().map(|row| (row.order_id.0.as_u128(), row.qty)).collect()
    };
    let all = store.scan::<ReservationRow>(reader).unwrap();
    assert_eq!(seen(all), vec![(1, 5), (3, 9), (4, 2), (5, 1), (6, 0)]);
    let even = store.scan_where(reader, |row: &ReservationRow| row.qty % 2 == 0).unwrap();
    assert_eq!(seen(even), vec![(4, 2), (6, 0)]);
    // ORDER BY qty LIMIT 3, over qty >= 1: the two smallest, then the next.
    let smallest =
        store.select(reader, |row: &ReservationRow| row.qty >= 1, |row| row.qty, 3).unwrap();
    assert_eq!(seen(smallest), vec![(5, 1), (4, 2), (1, 5)]);
    // Equal sort keys keep key order.
    let tied = store.select(reader, |_: &ReservationRow| true, |_| 0, 2).unwrap();
    assert_eq!(seen(tied), vec![(1, 5), (3, 9)]);
    assert_eq!(
        store.select(TxId(999), |_: &ReservationRow| true, |_| 0, 2),
        Err(StoreError::UnknownTransaction { tx: TxId(999) })
    );
}

#[test]
fn a_full_table_refuses_a_new_row_but_not_a_change_or_a_delete_of_a_row_it_has() {
    // Two reservations committed: the table is at its limit of two rows.
    let config = StoreConfig { open_transactions_max: 4, rows_per_table_max: 2 };
    let mut store = Store::with_stock(config, [(apple(), 10)]);
    store
        .transaction(|store, tx| {
            store.insert(tx, reservation(1, 1))?;
            store.insert(tx, reservation(2, 1))
        })
        .unwrap();

    // A row it has may change, and may go: neither adds a row.
    let changer = store.begin().unwrap();
    store.update::<ReservationRow>(changer, &key_of(1), |row| row.qty = 5).unwrap();
    let deleter = store.begin().unwrap();
    store.delete::<ReservationRow>(deleter, &key_of(2)).unwrap();
    // A new row is refused, by a transaction that has written nothing yet.
    let inserter = store.begin().unwrap();
    let full = store.insert(inserter, reservation(3, 1)).unwrap_err();
    assert_eq!(full, StoreError::TableFull { table: TableName::Reservations, limit: 2 });

    store.commit(changer).unwrap();
    store.commit(deleter).unwrap();
    let rows: Vec<(u128, i64)> = store
        .committed()
        .reservations
        .values()
        .map(|row| (row.order_id.0.as_u128(), row.qty))
        .collect();
    assert_eq!(rows, vec![(1, 5)]);
    // With a row gone, there is room for a new one again.
    store.insert(inserter, reservation(3, 1)).unwrap();
    store.commit(inserter).unwrap();
    assert_eq!(store.committed().reservations.len(), 2);
}
