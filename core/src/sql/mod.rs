//! The SQL of the lab, in one place: the PostgreSQL schema of the store's tables, every
//! statement the patterns run, rendered with its parameters as literals (what a trace prints
//! and what a learner can paste into `psql`), and the rows of [`Tables`] as PostgreSQL's
//! `to_jsonb` gives them back (what a test compares against a real server).
//!
//! Every statement is real PostgreSQL 15: a builder here takes typed values, quotes them
//! ([`SqlValue::literal`]), and the pattern's step does exactly what the statement says against
//! the in-memory [`crate::store::Store`]. Time is the virtual clock's tick, a `bigint`, passed
//! as a literal like every other parameter: `lease_expires_at = 30` where the code computed
//! `now + lease`. Steps that run no SQL (parsing a header, publishing to the broker, answering
//! the client) print a comment or a broker verb; [`is_sql`] tells them apart.

mod rows;
pub(crate) mod statements;

pub use rows::table_rows_json;

use crate::store::Tables;

/// A parameter of a statement, typed as the column it goes into.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SqlValue {
    /// `NULL`.
    Null,
    /// A `bigint` or `integer`.
    Int(i64),
    /// A `boolean`.
    Bool(bool),
    /// A `text` or `uuid` value.
    Text(String),
    /// A `jsonb` value.
    Json(serde_json::Value),
}

impl SqlValue {
    /// The value as a SQL literal: `NULL`, `42`, `true`, `'it''s'`; JSON as a quoted text
    /// literal, which PostgreSQL casts to the `jsonb` column it is compared with or written to.
    pub(crate) fn literal(&self) -> String {
        match self {
            SqlValue::Null => "NULL".to_owned(),
            SqlValue::Int(value) => value.to_string(),
            SqlValue::Bool(value) => value.to_string(),
            SqlValue::Text(text) => quote(text),
            SqlValue::Json(value) => quote(&value.to_string()),
        }
    }

    /// The value as `to_jsonb` shows it: what [`table_rows_json`] compares.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        match self {
            SqlValue::Null => serde_json::Value::Null,
            SqlValue::Int(value) => serde_json::Value::from(*value),
            SqlValue::Bool(value) => serde_json::Value::Bool(*value),
            SqlValue::Text(text) => serde_json::Value::String(text.clone()),
            SqlValue::Json(value) => value.clone(),
        }
    }
}

/// A text literal: single quotes, each quote inside doubled (PostgreSQL's
/// `standard_conforming_strings`, on by default, keeps backslashes as they are).
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A list of literals for `IN (...)`.
pub(crate) fn literal_list(values: &[SqlValue]) -> String {
    values.iter().map(SqlValue::literal).collect::<Vec<_>>().join(", ")
}

/// A tick as the `bigint` the schema stores it as. Ticks beyond `i64::MAX` do not occur (the
/// clock's limits are far below); they saturate rather than wrap.
pub(crate) fn tick(tick: crate::ids::Tick) -> SqlValue {
    SqlValue::Int(i64::try_from(tick.0).unwrap_or(i64::MAX))
}

/// Whether a step's statement is SQL a server runs (`BEGIN`, `SELECT`, `INSERT`, `UPDATE`,
/// `DELETE`, `COMMIT`, `ROLLBACK`), rather than a comment (`-- answer 201 to the client`) or a
/// broker verb (`PUBLISH`, `ACK`).
pub fn is_sql(statement: &str) -> bool {
    let verb = statement.split_whitespace().next().unwrap_or_default();
    matches!(verb, "BEGIN" | "SELECT" | "INSERT" | "UPDATE" | "DELETE" | "COMMIT" | "ROLLBACK")
}

/// The schema of the store's tables in PostgreSQL: one `CREATE TABLE` per [`Tables`] field,
/// the primary key as the unique constraint, ticks as `bigint`, and the `charges` id from a
/// sequence (which, like [`crate::store::Store::next_charge_id`], a rollback does not give
/// back).
pub const SCHEMA: &str = "\
CREATE TABLE orders (id uuid PRIMARY KEY, lines jsonb NOT NULL, status text NOT NULL, \
payment_id text);
CREATE TABLE stock (sku text PRIMARY KEY, on_hand_qty bigint NOT NULL, \
available_qty bigint NOT NULL);
CREATE TABLE reservations (order_id uuid NOT NULL, sku text NOT NULL, qty bigint NOT NULL, \
PRIMARY KEY (order_id, sku));
CREATE TABLE inbox (message_id uuid NOT NULL, consumer text NOT NULL, \
processed_at bigint NOT NULL, PRIMARY KEY (message_id, consumer));
CREATE TABLE outbox (message_id uuid PRIMARY KEY, payload jsonb NOT NULL, \
published boolean NOT NULL, created_at bigint NOT NULL);
CREATE TABLE idempotency_keys (key uuid PRIMARY KEY, fingerprint text NOT NULL, \
state text NOT NULL, lease_expires_at bigint, fencing_token bigint, response_status integer, \
response_headers jsonb, response_body text, created_at bigint NOT NULL);
CREATE SEQUENCE charges_id_seq;
CREATE TABLE charges (id bigint PRIMARY KEY, order_id uuid NOT NULL, payment_id text NOT NULL);
";

/// The `INSERT` statements that load `tables` into an empty schema: a run's starting state.
pub fn load(tables: &Tables) -> Vec<String> {
    let mut statements = Vec::new();
    rows::for_each_row(tables, |table, values| {
        statements.push(statements::insert_values(table, values, statements::OnConflict::Fail));
    });
    statements
}

#[cfg(test)]
mod tests;
