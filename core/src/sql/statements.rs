//! Every SQL statement a pattern's step runs, as a builder from typed values to the rendered
//! PostgreSQL text. The step that runs a statement does exactly what the text says against the
//! in-memory store (see each pattern's step); the differential test runs the same text on a
//! real server.

use crate::ids::{ConsumerName, IdempotencyKey, MessageId, OrderId, PaymentId, Sku, Tick};
use crate::sql::rows::{SqlRow, key_state_columns};
use crate::sql::{SqlValue, literal_list, quote, tick};
use crate::store::{FencingToken, KeyState, TableName};

/// What an `INSERT` does when the primary key is taken.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum OnConflict {
    /// Nothing: the insert fails with a unique violation.
    Fail,
    /// `ON CONFLICT (<primary key>) DO NOTHING`: zero rows inserted.
    DoNothing,
    /// `ON CONFLICT (<primary key>) DO UPDATE SET <this>`.
    DoUpdate(String),
}

/// The primary key columns of a table, as in [`super::SCHEMA`].
pub(crate) fn primary_key(table: TableName) -> &'static str {
    match table {
        TableName::Orders | TableName::Charges => "id",
        TableName::Stock => "sku",
        TableName::Reservations => "order_id, sku",
        TableName::Inbox => "message_id, consumer",
        TableName::Outbox => "message_id",
        TableName::IdempotencyKeys => "key",
    }
}

/// `INSERT INTO <table> (<columns>) VALUES (<values>)`, with the conflict clause.
pub(crate) fn insert_values(
    table: TableName,
    values: Vec<(&'static str, SqlValue)>,
    on_conflict: OnConflict,
) -> String {
    let columns: Vec<&str> = values.iter().map(|(column, _)| *column).collect();
    let literals: Vec<SqlValue> = values.into_iter().map(|(_, value)| value).collect();
    let mut text = format!(
        "INSERT INTO {} ({}) VALUES ({})",
        table.as_str(),
        columns.join(", "),
        literal_list(&literals)
    );
    match on_conflict {
        OnConflict::Fail => {}
        OnConflict::DoNothing => {
            text.push_str(&format!(" ON CONFLICT ({}) DO NOTHING", primary_key(table)));
        }
        OnConflict::DoUpdate(set) => {
            text.push_str(&format!(" ON CONFLICT ({}) DO UPDATE SET {set}", primary_key(table)));
        }
    }
    text
}

/// `INSERT` of a whole row.
pub(crate) fn insert<R: SqlRow>(row: &R, on_conflict: OnConflict) -> String {
    insert_values(R::TABLE, row.sql_values(), on_conflict)
}

/// `INSERT` of a row whose `id` comes from a sequence: the column's value is `nextval(...)`.
pub(crate) fn insert_charge(order_id: OrderId, payment_id: &PaymentId) -> String {
    format!(
        "INSERT INTO charges (id, order_id, payment_id) VALUES (nextval('charges_id_seq'), {}, {})",
        quote(&order_id.to_string()),
        quote(payment_id.as_str())
    )
}

fn text(value: impl ToString) -> String {
    quote(&value.to_string())
}

/// P1 naive: `UPDATE stock SET available_qty = available_qty - n WHERE sku = $1`.
pub(crate) fn take_stock(sku: &Sku, qty: u32) -> String {
    format!("UPDATE stock SET available_qty = available_qty - {qty} WHERE sku = {}", text(sku))
}

/// P1 idempotent: take stock only if enough is available; zero rows otherwise.
pub(crate) fn take_stock_if_available(sku: &Sku, qty: u32) -> String {
    format!(
        "UPDATE stock SET available_qty = available_qty - {qty} WHERE sku = {} \
         AND available_qty >= {qty}",
        text(sku)
    )
}

/// P1: give stock back.
pub(crate) fn give_stock_back(sku: &Sku, qty: i64) -> String {
    format!("UPDATE stock SET available_qty = available_qty + {qty} WHERE sku = {}", text(sku))
}

/// The `DO UPDATE` of the naive reservation: the quantity is added to the row's.
pub(crate) const ADD_TO_RESERVATION: &str = "qty = reservations.qty + EXCLUDED.qty";

/// A handler program's check of the inbox (P4 written as check-then-insert): a plain read,
/// which takes no lock.
pub(crate) fn select_inbox_row(message_id: MessageId, consumer: &ConsumerName) -> String {
    format!(
        "SELECT 1 FROM inbox WHERE message_id = {} AND consumer = {}",
        text(message_id),
        text(consumer)
    )
}

/// A handler program's check of one reservation (P1 written as check-then-insert): a plain
/// read, which takes no lock.
pub(crate) fn select_reservation(order_id: OrderId, sku: &Sku) -> String {
    format!(
        "SELECT qty FROM reservations WHERE order_id = {} AND sku = {}",
        text(order_id),
        text(sku)
    )
}

/// P1 idempotent release: the order's reservations.
pub(crate) fn select_reservations(order_id: OrderId) -> String {
    format!("SELECT sku, qty FROM reservations WHERE order_id = {} ORDER BY sku", text(order_id))
}

/// P1 release: delete one reservation, returning what it held.
pub(crate) fn delete_reservation(order_id: OrderId, sku: &Sku) -> String {
    format!(
        "DELETE FROM reservations WHERE order_id = {} AND sku = {} RETURNING qty",
        text(order_id),
        text(sku)
    )
}

/// `PlaceOrder`: every sku of the order exists.
pub(crate) fn select_skus(skus: &[&Sku]) -> String {
    let values: Vec<SqlValue> = skus.iter().map(|sku| SqlValue::Text(sku.to_string())).collect();
    format!("SELECT sku FROM stock WHERE sku IN ({})", literal_list(&values))
}

/// P2: set an order's status (and payment), only from the statuses `from` if given; the
/// cancellation returns the order's lines, which the naive release gives back.
pub(crate) fn set_order_status(
    order_id: OrderId,
    to: &str,
    payment_id: Option<&PaymentId>,
    from: Option<&[&str]>,
    returning_lines: bool,
) -> String {
    let mut text = format!("UPDATE orders SET status = {}", quote(to));
    if let Some(payment_id) = payment_id {
        text.push_str(&format!(", payment_id = {}", quote(payment_id.as_str())));
    }
    text.push_str(&format!(" WHERE id = {}", quote(&order_id.to_string())));
    match from {
        Some([status]) => text.push_str(&format!(" AND status = {}", quote(status))),
        Some(statuses) => {
            let values: Vec<SqlValue> =
                statuses.iter().map(|status| SqlValue::Text((*status).to_owned())).collect();
            text.push_str(&format!(" AND status IN ({})", literal_list(&values)));
        }
        None => {}
    }
    if returning_lines {
        text.push_str(" RETURNING lines");
    }
    text
}

/// P2: read an order's status, after a guarded update changed nothing.
pub(crate) fn select_order_status(order_id: OrderId) -> String {
    format!("SELECT status, payment_id FROM orders WHERE id = {}", text(order_id))
}

/// Outbox relay: the next unpublished rows.
pub(crate) fn select_unpublished(limit: usize) -> String {
    format!(
        "SELECT message_id, payload FROM outbox WHERE NOT published \
         ORDER BY created_at, message_id LIMIT {limit}"
    )
}

/// Outbox relay: mark what was published.
pub(crate) fn mark_published(message_ids: &[MessageId]) -> String {
    let values: Vec<SqlValue> =
        message_ids.iter().map(|id| SqlValue::Text(id.to_string())).collect();
    format!("UPDATE outbox SET published = true WHERE message_id IN ({})", literal_list(&values))
}

/// P4 retention: delete a consumer's inbox rows processed before `processed_before`.
pub(crate) fn purge_inbox(consumer: &ConsumerName, processed_before: Tick) -> String {
    format!(
        "DELETE FROM inbox WHERE consumer = {} AND processed_at < {}",
        text(consumer),
        tick(processed_before).literal()
    )
}

/// P3: read a key.
pub(crate) fn select_key(key: IdempotencyKey) -> String {
    format!("SELECT * FROM idempotency_keys WHERE key = {}", text(key))
}

/// The latest `created_at` whose retention is over at `now`.
fn retention_over_at(now: Tick, retention_ticks: u64) -> i64 {
    i64::try_from(now.0)
        .unwrap_or(i64::MAX)
        .saturating_sub(i64::try_from(retention_ticks).unwrap_or(i64::MAX))
}

/// The condition under which a key is forgotten at `now` ([`crate::idempotency::Config`]'s
/// `is_forgotten`): its retention is over and no lease holds it.
pub(crate) fn forgotten_condition(now: Tick, retention_ticks: u64) -> String {
    let retention_over = retention_over_at(now, retention_ticks);
    format!(
        "created_at <= {retention_over} AND (state = 'completed' OR lease_expires_at <= {})",
        tick(now).literal()
    )
}

/// P3: delete one key if it is forgotten.
pub(crate) fn delete_forgotten_key(key: IdempotencyKey, now: Tick, retention_ticks: u64) -> String {
    format!(
        "DELETE FROM idempotency_keys WHERE key = {} AND {}",
        text(key),
        forgotten_condition(now, retention_ticks)
    )
}

/// P3 retention: delete every forgotten key.
pub(crate) fn purge_keys(now: Tick, retention_ticks: u64) -> String {
    format!("DELETE FROM idempotency_keys WHERE {}", forgotten_condition(now, retention_ticks))
}

fn token(FencingToken(token): FencingToken) -> String {
    SqlValue::Int(i64::try_from(token).unwrap_or(i64::MAX)).literal()
}

fn set_state(state: &KeyState) -> String {
    key_state_columns(state)
        .into_iter()
        .map(|(column, value)| format!("{column} = {}", value.literal()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// P3: take over a key whose lease ended, fenced by the token read, if the key is still the
/// same request's and not forgotten.
pub(crate) fn take_over_key(
    key: IdempotencyKey,
    fingerprint: &str,
    previous: FencingToken,
    state: &KeyState,
    now: Tick,
    retention_ticks: u64,
) -> String {
    format!(
        "UPDATE idempotency_keys SET {} WHERE key = {} AND fingerprint = {} \
         AND state = 'in_progress' AND fencing_token = {} AND lease_expires_at <= {} \
         AND created_at > {}",
        set_state(state),
        text(key),
        quote(fingerprint),
        token(previous),
        tick(now).literal(),
        retention_over_at(now, retention_ticks)
    )
}

/// P3: store the response, if this request's token still holds the key.
pub(crate) fn complete_key(
    key: IdempotencyKey,
    fencing_token: FencingToken,
    state: &KeyState,
) -> String {
    format!(
        "UPDATE idempotency_keys SET {} WHERE key = {} AND state = 'in_progress' \
         AND fencing_token = {}",
        set_state(state),
        text(key),
        token(fencing_token)
    )
}

/// P3: release the key after a handler failure, if this request's token still holds it.
pub(crate) fn release_key(key: IdempotencyKey, fencing_token: FencingToken) -> String {
    format!(
        "DELETE FROM idempotency_keys WHERE key = {} AND state = 'in_progress' \
         AND fencing_token = {}",
        text(key),
        token(fencing_token)
    )
}
