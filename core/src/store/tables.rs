//! The tables, declared once: the `tables!` macro generates from one list [`TableName`],
//! [`Tables`] (the committed rows), [`WriteSet`] (a transaction's pending writes), each row
//! type's [`Row`] impl, and [`Tables::diff`], the rows a step's commits changed
//! ([`RowChange`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{
    ChargeRow, IdempotencyKeyRow, InboxRow, OrderRow, OutboxRow, ReservationRow, Row, StockRow,
};
use crate::ids::{ChargeId, ConsumerName, IdempotencyKey, MessageId, OrderId, Sku};

macro_rules! tables {
    ($( $(#[$doc:meta])* $field:ident : $row:ty, $key:ty, |$r:ident| $key_expr:expr, $variant:ident, [$($column:literal),*] ;)*) => {
        /// The name of a table, as traces and violations print it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum TableName {
            $( $(#[$doc])* $variant, )*
        }

        impl TableName {
            /// Every table, in the order the page shows them.
            pub const ALL: &'static [TableName] = &[$(TableName::$variant,)*];

            /// The table's SQL-style name, such as `idempotency_keys`.
            pub fn as_str(self) -> &'static str {
                match self { $( TableName::$variant => stringify!($field), )* }
            }

            /// The table's columns: the fields of its rows' JSON objects, in schema order.
            pub fn columns(self) -> &'static [&'static str] {
                match self { $( TableName::$variant => &[$($column),*], )* }
            }
        }

        impl Tables {
            /// The rows of one table as JSON objects, in key order: what the page and the
            /// trace show.
            pub fn rows_json(&self, table: TableName) -> Vec<serde_json::Value> {
                self.first_rows_json(table, usize::MAX)
            }

            /// The first `count` rows of one table as JSON objects, in key order: a screen
            /// of a large world draws a few ([`crate::view::drawn_rows`]).
            pub fn first_rows_json(&self, table: TableName, count: usize) -> Vec<serde_json::Value> {
                match table {
                    $( TableName::$variant => self.$field.values().take(count).map(row_json).collect(), )*
                }
            }

            /// How many rows one table holds.
            pub fn row_count(&self, table: TableName) -> usize {
                match table {
                    $( TableName::$variant => self.$field.len(), )*
                }
            }

            /// The rows that differ from `self` to `after`, table by table in declaration
            /// order, then in key order: what a step's commits changed.
            pub(crate) fn diff(&self, after: &Tables) -> Vec<RowChange> {
                let mut changes = Vec::new();
                $( diff_table(TableName::$variant, &self.$field, &after.$field, &mut changes); )*
                changes
            }
        }

        /// The committed contents of every table. Each table is shared between the copies
        /// of a world (the checker copies one for each transition, the rewindable run keeps
        /// snapshots) until a commit writes to it: a copy costs seven reference counts, and a
        /// commit copies only the tables it writes.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
        pub struct Tables {
            $( $(#[$doc])* pub $field: Arc<BTreeMap<$key, $row>>, )*
        }

        /// The pending writes of one open transaction, per table; `None` is a delete.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub(crate) struct WriteSet {
            $( $(#[$doc])* pub(crate) $field: BTreeMap<$key, Option<$row>>, )*
        }

        impl WriteSet {
            /// Applies the writes to `tables`, keeping in `before` the row each written key
            /// held before its first write since `before` was cleared (a before-image).
            pub(super) fn apply(self, tables: &mut Tables, before: &mut WriteSet) {
                $(
                    if !self.$field.is_empty() {
                        let rows = Arc::make_mut(&mut tables.$field);
                        for (key, after) in self.$field {
                            let old = match after {
                                Some(row) => rows.insert(key.clone(), row),
                                None => rows.remove(&key),
                            };
                            before.$field.entry(key).or_insert(old);
                        }
                    }
                )*
            }

            /// Read as a before-image: the rows that differ from it in `tables`, table by
            /// table in declaration order, then in key order, as [`Tables::diff`] gives them.
            /// Several writes to one row give one change; writes that cancel give none.
            pub(super) fn changes_since(&self, tables: &Tables) -> Vec<RowChange> {
                let mut changes = Vec::new();
                $(
                    for (key, before) in &self.$field {
                        let after = tables.$field.get(key);
                        if before.as_ref() != after {
                            changes.push(RowChange::new(TableName::$variant, key, before.as_ref(), after));
                        }
                    }
                )*
                changes
            }

            /// Adds this before-image to `older`, an image taken earlier: a key `older` holds
            /// keeps its older row.
            #[cfg(test)]
            pub(super) fn merge_into(self, older: &mut WriteSet) {
                $(
                    for (key, before) in self.$field {
                        older.$field.entry(key).or_insert(before);
                    }
                )*
            }

            /// Clears every table's writes, keeping the maps' allocations where they have any.
            pub(super) fn clear(&mut self) {
                $( self.$field.clear(); )*
            }

            pub(super) fn row_count(&self) -> usize {
                0 $( + self.$field.len() )*
            }
        }

        $(
            impl Row for $row {
                type Key = $key;
                const TABLE: TableName = TableName::$variant;
                fn key(&self) -> $key { let $r = self; $key_expr }
                fn rows(tables: &Tables) -> &BTreeMap<$key, Self> { &tables.$field }
                fn writes(writes: &WriteSet) -> &BTreeMap<$key, Option<Self>> { &writes.$field }
                fn writes_mut(writes: &mut WriteSet) -> &mut BTreeMap<$key, Option<Self>> { &mut writes.$field }
            }
        )*
    };
}

tables! {
    /// `orders`, keyed by order id.
    orders: OrderRow, OrderId, |r| r.id, Orders, ["id", "lines", "status"];
    /// `stock`, keyed by sku.
    stock: StockRow, Sku, |r| r.sku.clone(), Stock, ["sku", "on_hand_qty", "available_qty"];
    /// `reservations`, unique on `(order_id, sku)`.
    reservations: ReservationRow, (OrderId, Sku), |r| (r.order_id, r.sku.clone()), Reservations,
        ["order_id", "sku", "qty"];
    /// `inbox`, unique on `(message_id, consumer)`.
    inbox: InboxRow, (MessageId, ConsumerName), |r| (r.message_id, r.consumer.clone()), Inbox,
        ["message_id", "consumer", "processed_at"];
    /// `outbox`, keyed by message id.
    outbox: OutboxRow, MessageId, |r| r.message_id, Outbox,
        ["message_id", "payload", "published", "created_at"];
    /// `idempotency_keys`, keyed by the key.
    idempotency_keys: IdempotencyKeyRow, IdempotencyKey, |r| r.key, IdempotencyKeys,
        ["key", "fingerprint", "state", "created_at"];
    /// `charges`, the payment provider's ledger, keyed by charge id.
    charges: ChargeRow, ChargeId, |r| r.id, Charges, ["id", "order_id", "payment_id"];
}

fn row_json<R: Serialize>(row: &R) -> serde_json::Value {
    // Rows are plain data with string keys: serialization cannot fail.
    serde_json::to_value(row).unwrap_or(serde_json::Value::Null)
}

/// The rows of one table that differ between `before` and `after`, in key order.
fn diff_table<K: Ord + Serialize, R: PartialEq + Serialize>(
    table: TableName,
    before: &BTreeMap<K, R>,
    after: &BTreeMap<K, R>,
    changes: &mut Vec<RowChange>,
) {
    if before == after {
        return;
    }
    let keys: BTreeSet<&K> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let (old, new) = (before.get(key), after.get(key));
        if old != new {
            changes.push(RowChange::new(table, key, old, new));
        }
    }
}

pub(super) fn key_json<K: Serialize>(key: &K) -> serde_json::Value {
    // Keys are ids, strings and tuples of them: serialization cannot fail.
    serde_json::to_value(key).unwrap_or(serde_json::Value::Null)
}

/// One row that a commit changed: the page highlights it, the trace records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowChange {
    /// The table.
    pub table: TableName,
    /// The primary key, as JSON.
    pub key: serde_json::Value,
    /// The row before the commit; `None` for an insert.
    pub before: Option<serde_json::Value>,
    /// The row after the commit; `None` for a delete.
    pub after: Option<serde_json::Value>,
}

impl RowChange {
    fn new<R: Serialize, K: Serialize>(
        table: TableName,
        key: &K,
        before: Option<&R>,
        after: Option<&R>,
    ) -> RowChange {
        let to_json = |row: &R| serde_json::to_value(row).unwrap_or(serde_json::Value::Null);
        RowChange {
            table,
            key: key_json(key),
            before: before.map(to_json),
            after: after.map(to_json),
        }
    }
}
