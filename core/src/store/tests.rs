//! Tests of the store's transactional semantics: isolation, unique constraints, row locks,
//! rollback, limits.

use super::*;
use crate::ids::{IdempotencyKey, MessageId, OrderId};
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
    assert_eq!(store.commit(tx), Ok(vec![]));
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
    assert_eq!(
        store.insert(first, reservation(2, 1)),
        Err(StoreError::TableFull { table: TableName::Reservations, limit: 1 })
    );
}

#[test]
fn every_table_lists_exactly_the_columns_of_its_rows_json() {
    let mut store = store_with_ten_apples();
    let order = OrderRow {
        id: OrderId(Uuid::from_u128(1)),
        lines: vec![OrderLine { sku: apple(), qty: 1 }],
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
