//! Tests of the SQL text: quoting, the schema's columns against the rows' mapping, and the
//! statements the patterns print.

use super::*;
use crate::ids::{OrderId, Sku, Tick};
use crate::store::{OrderLine, OrderRow, OrderStatus, Store, StoreConfig, TableName};
use uuid::Uuid;

#[test]
fn literals_quote_text_and_json_and_leave_numbers_bare() {
    assert_eq!(SqlValue::Text("it's".to_owned()).literal(), "'it''s'");
    assert_eq!(SqlValue::Int(-3).literal(), "-3");
    assert_eq!(SqlValue::Null.literal(), "NULL");
    assert_eq!(SqlValue::Json(serde_json::json!({"a": "b'c"})).literal(), r#"'{"a":"b''c"}'"#);
}

#[test]
fn every_table_of_the_schema_has_the_columns_its_rows_write() {
    let mut store = Store::with_stock(StoreConfig::default(), [(Sku::new("apple"), 4)]);
    let order = OrderRow {
        id: OrderId(Uuid::from_u128(7)),
        lines: vec![OrderLine { sku: Sku::new("apple"), qty: 2 }].into(),
        status: OrderStatus::Placed,
    };
    store.transaction(|store, tx| store.insert(tx, order)).unwrap();
    for table in [TableName::Orders, TableName::Stock] {
        let rows = table_rows_json(store.committed(), table);
        let columns: Vec<String> = match rows.first() {
            Some(serde_json::Value::Object(object)) => object.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let create = SCHEMA
            .lines()
            .collect::<Vec<_>>()
            .join(" ")
            .split(';')
            .find(|create| create.contains(&format!("CREATE TABLE {} (", table.as_str())))
            .map(str::to_owned)
            .unwrap_or_default();
        for column in &columns {
            assert!(
                create.contains(&format!(" {column} ")) || create.contains(&format!("({column} ")),
                "{table:?} lacks {column}"
            );
        }
        assert!(!columns.is_empty());
    }
    expect_test::expect![[r#"
        INSERT INTO orders (id, lines, status, payment_id) VALUES ('00000000-0000-0000-0000-000000000007', '[{"qty":2,"sku":"apple"}]', 'Placed', NULL)
        INSERT INTO stock (sku, on_hand_qty, available_qty) VALUES ('apple', 4, 4)"#]]
    .assert_eq(&load(store.committed()).join("\n"));
}

#[test]
fn only_statements_a_server_runs_are_sql() {
    assert!(is_sql("UPDATE stock SET available_qty = available_qty - 1 WHERE sku = 'apple'"));
    assert!(is_sql("BEGIN"));
    assert!(!is_sql("-- answer 201 to the client"));
    assert!(!is_sql("PUBLISH 5b1f"));
    assert!(!is_sql("ACK 5b1f"));
}

#[test]
fn ticks_are_bigint_literals() {
    assert_eq!(tick(Tick(30)).literal(), "30");
    assert_eq!(
        statements::forgotten_condition(Tick(5), 10),
        "created_at <= -5 AND (state = 'completed' OR lease_expires_at <= 5)"
    );
}
