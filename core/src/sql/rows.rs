//! The rows of the store as the columns of [`super::SCHEMA`]: one mapping per row type, used
//! both to write a row (`INSERT ... VALUES`) and to read the tables back as PostgreSQL would
//! show them (`to_jsonb`), so the two cannot drift apart.

use crate::sql::{SqlValue, tick};
use crate::store::{
    ChargeRow, IdempotencyKeyRow, InboxRow, KeyState, OrderRow, OrderStatus, OutboxRow,
    ReservationRow, Row, StockRow, TableName, Tables,
};

/// A row type with its SQL columns.
pub(crate) trait SqlRow: Row {
    /// The row's values, column by column in [`super::SCHEMA`] order.
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)>;
}

fn json<T: serde::Serialize>(value: &T) -> SqlValue {
    // Rows hold plain data with string keys: serialization cannot fail.
    SqlValue::Json(serde_json::to_value(value).unwrap_or(serde_json::Value::Null))
}

fn text(value: impl ToString) -> SqlValue {
    SqlValue::Text(value.to_string())
}

fn optional_text(value: Option<impl ToString>) -> SqlValue {
    value.map_or(SqlValue::Null, text)
}

/// The `status` and `payment_id` columns of an order's status.
pub(crate) fn order_status_columns(status: &OrderStatus) -> (SqlValue, SqlValue) {
    let payment_id = match status {
        OrderStatus::Placed => None,
        OrderStatus::Paid { payment_id } | OrderStatus::Shipped { payment_id } => Some(payment_id),
        OrderStatus::Cancelled { payment_id } => payment_id.as_ref(),
    };
    (text(status.name()), optional_text(payment_id))
}

impl SqlRow for OrderRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        let (status, payment_id) = order_status_columns(&self.status);
        vec![
            ("id", text(self.id)),
            ("lines", json(&self.lines)),
            ("status", status),
            ("payment_id", payment_id),
        ]
    }
}

impl SqlRow for StockRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        vec![
            ("sku", text(&self.sku)),
            ("on_hand_qty", SqlValue::Int(self.on_hand_qty)),
            ("available_qty", SqlValue::Int(self.available_qty)),
        ]
    }
}

impl SqlRow for ReservationRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        vec![
            ("order_id", text(self.order_id)),
            ("sku", text(&self.sku)),
            ("qty", SqlValue::Int(self.qty)),
        ]
    }
}

impl SqlRow for InboxRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        vec![
            ("message_id", text(self.message_id)),
            ("consumer", text(&self.consumer)),
            ("processed_at", tick(self.processed_at)),
        ]
    }
}

impl SqlRow for OutboxRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        vec![
            ("message_id", text(self.message_id)),
            ("payload", json(&self.payload)),
            ("published", SqlValue::Bool(self.published)),
            ("created_at", tick(self.created_at)),
        ]
    }
}

/// The state columns of a key: `state`, `lease_expires_at`, `fencing_token`,
/// `response_status`, `response_headers`, `response_body`.
pub(crate) fn key_state_columns(state: &KeyState) -> Vec<(&'static str, SqlValue)> {
    match state {
        KeyState::InProgress { lease_expires_at, fencing_token } => vec![
            ("state", text("in_progress")),
            ("lease_expires_at", tick(*lease_expires_at)),
            ("fencing_token", SqlValue::Int(i64::try_from(fencing_token.0).unwrap_or(i64::MAX))),
            ("response_status", SqlValue::Null),
            ("response_headers", SqlValue::Null),
            ("response_body", SqlValue::Null),
        ],
        KeyState::Completed { response } => vec![
            ("state", text("completed")),
            ("lease_expires_at", SqlValue::Null),
            ("fencing_token", SqlValue::Null),
            ("response_status", SqlValue::Int(i64::from(response.status))),
            ("response_headers", json(&response.headers)),
            ("response_body", text(&response.body)),
        ],
    }
}

impl SqlRow for IdempotencyKeyRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        let mut values = vec![("key", text(self.key)), ("fingerprint", text(&self.fingerprint.0))];
        values.extend(key_state_columns(&self.state));
        values.push(("created_at", tick(self.created_at)));
        values
    }
}

impl SqlRow for ChargeRow {
    fn sql_values(&self) -> Vec<(&'static str, SqlValue)> {
        vec![
            ("id", SqlValue::Int(i64::try_from(self.id.0).unwrap_or(i64::MAX))),
            ("order_id", text(self.order_id)),
            ("payment_id", text(&self.payment_id)),
        ]
    }
}

/// Calls `visit` with every committed row of `tables`, table by table in [`TableName::ALL`]
/// order, then in key order.
pub(super) fn for_each_row(
    tables: &Tables,
    mut visit: impl FnMut(TableName, Vec<(&'static str, SqlValue)>),
) {
    for &table in TableName::ALL {
        for_each_row_of(tables, table, &mut visit);
    }
}

fn for_each_row_of(
    tables: &Tables,
    table: TableName,
    visit: &mut impl FnMut(TableName, Vec<(&'static str, SqlValue)>),
) {
    fn each<R: SqlRow>(
        tables: &Tables,
        visit: &mut impl FnMut(TableName, Vec<(&'static str, SqlValue)>),
    ) {
        for row in R::rows(tables).values() {
            visit(R::TABLE, row.sql_values());
        }
    }
    match table {
        TableName::Orders => each::<OrderRow>(tables, visit),
        TableName::Stock => each::<StockRow>(tables, visit),
        TableName::Reservations => each::<ReservationRow>(tables, visit),
        TableName::Inbox => each::<InboxRow>(tables, visit),
        TableName::Outbox => each::<OutboxRow>(tables, visit),
        TableName::IdempotencyKeys => each::<IdempotencyKeyRow>(tables, visit),
        TableName::Charges => each::<ChargeRow>(tables, visit),
    }
}

/// The committed rows of one table as `to_jsonb(row)` objects of its SQL columns, in primary
/// key order: what `SELECT to_jsonb(t) FROM <table> t ORDER BY <primary key>` returns on a
/// server that ran the same statements.
pub fn table_rows_json(tables: &Tables, table: TableName) -> Vec<serde_json::Value> {
    let mut rows = Vec::new();
    for_each_row_of(tables, table, &mut |_, values| {
        let object: serde_json::Map<String, serde_json::Value> = values
            .into_iter()
            .map(|(column, value)| (column.to_owned(), value.to_json()))
            .collect();
        rows.push(serde_json::Value::Object(object));
    });
    rows
}
