//! The in-memory transactional store that every pattern runs over.
//!
//! Semantics, chosen to match PostgreSQL's default (read committed) closely enough for the
//! seed's code to behave as it does in production:
//! - a transaction sees the committed rows plus its own writes; other transactions see its
//!   writes only after [`Store::commit`];
//! - a write takes a row lock on its key: a write by another open transaction to the same key
//!   gets [`StoreError::Blocked`] (PostgreSQL would wait; the simulator retries the step once
//!   the holder has ended, so a race interleaves exactly as it would);
//! - an `UPDATE` or `DELETE` ([`Store::update_where`], [`Store::delete_where`]) first finds its
//!   row in the statement's snapshot and evaluates its `WHERE` there, as PostgreSQL does: a row
//!   that another open transaction inserted is not in the snapshot, so the statement affects
//!   zero rows at once instead of waiting; a row whose `WHERE` is false is skipped without
//!   waiting even if another transaction holds it; only a matching row that another open
//!   transaction has written makes it wait, and the retry re-evaluates the `WHERE` on the row's
//!   newest version (PostgreSQL's re-check after a wait). An `INSERT` (plain or `ON CONFLICT`)
//!   waits for any open transaction that has written the key, whether it inserted, updated or
//!   deleted it. The differential test (`tests/`) runs the lab's interleavings on PostgreSQL 15
//!   and holds these rules to it;
//! - the primary key of each table is its unique constraint: [`Store::insert`] of a taken key is
//!   a typed [`StoreError::UniqueViolation`], and [`Store::insert_on_conflict_do_nothing`]
//!   reports [`Inserted::AlreadyPresent`] instead (the seed's `ON CONFLICT DO NOTHING`);
//! - [`Store::update`] computes the new row from the latest committed value at the moment of the
//!   write, as `UPDATE stock SET qty = qty - n` does;
//! - [`Store::rollback`], which is also what a crash inside a transaction amounts to, leaves no
//!   trace; a commit applies every write or none.
//!
//! Everything is a `BTreeMap`, so iteration order, and with it every trace, is deterministic.
//! Transactions are handles ([`TxId`]) rather than borrows, so that one can stay open across
//! simulator steps while another interleaves with it.

mod schema;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::hash::Hash;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use schema::{
    ChargeRow, FencingToken, IdempotencyKeyRow, InboxRow, KeyState, MessagePayload, OrderLine,
    OrderRow, OrderStatus, OutboxRow, RequestFingerprint, ReservationRow, StockRow, StoredResponse,
};

use crate::ids::{ChargeId, ConsumerName, IdempotencyKey, MessageId, OrderId, Sku, TxId};

/// A row of one of the store's tables: it names its table and its primary key.
pub trait Row: Clone + Debug + PartialEq + Eq + Hash + Serialize + 'static {
    /// The primary key, which is also the table's unique constraint.
    type Key: Ord + Clone + Debug + Hash + Serialize;
    /// The table the row lives in.
    const TABLE: TableName;
    /// This row's primary key.
    fn key(&self) -> Self::Key;
    /// The table's committed rows.
    fn rows(tables: &Tables) -> &BTreeMap<Self::Key, Self>;
    /// A transaction's pending writes to the table: `None` is a delete.
    fn writes(writes: &WriteSet) -> &BTreeMap<Self::Key, Option<Self>>;
    /// A transaction's pending writes to the table, mutably.
    fn writes_mut(writes: &mut WriteSet) -> &mut BTreeMap<Self::Key, Option<Self>>;
}

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
                match table {
                    $( TableName::$variant => self.$field.values().map(row_json).collect(), )*
                }
            }

            /// The rows that differ from `self` to `after`, table by table in declaration
            /// order, then in key order: what a step's commits changed.
            pub fn diff(&self, after: &Tables) -> Vec<RowChange> {
                let mut changes = Vec::new();
                $( diff_table(TableName::$variant, &self.$field, &after.$field, &mut changes); )*
                changes
            }
        }

        /// The committed contents of every table.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
        pub struct Tables {
            $( $(#[$doc])* pub $field: BTreeMap<$key, $row>, )*
        }

        /// The pending writes of one open transaction, per table; `None` is a delete.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct WriteSet {
            $( $(#[$doc])* pub $field: BTreeMap<$key, Option<$row>>, )*
        }

        impl WriteSet {
            fn apply(self, tables: &mut Tables, changes: &mut Vec<RowChange>) {
                $(
                    for (key, after) in self.$field {
                        let before = match &after {
                            Some(row) => tables.$field.insert(key.clone(), row.clone()),
                            None => tables.$field.remove(&key),
                        };
                        if before.as_ref() != after.as_ref() {
                            changes.push(RowChange::new(TableName::$variant, &key, before.as_ref(), after.as_ref()));
                        }
                    }
                )*
            }

            fn row_count(&self) -> usize {
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

fn key_json<K: Serialize>(key: &K) -> serde_json::Value {
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

/// Whether [`Store::insert_on_conflict_do_nothing`] wrote the row: the `1` or `0` that the seed
/// reads back as `reserved == 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Inserted {
    /// The row is new.
    Inserted,
    /// A row with the same key exists (committed, or written earlier by this transaction);
    /// nothing was written.
    AlreadyPresent,
}

/// What can go wrong in a store operation. Every variant is an expected outcome that the caller
/// handles; none of them changes the store.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum StoreError {
    /// The transaction id is not an open transaction of this store (it was committed, rolled
    /// back, or never begun).
    #[error("{tx} is not an open transaction")]
    UnknownTransaction {
        /// The id given.
        tx: TxId,
    },
    /// An insert hit the table's unique constraint (the seed's `IsUniqueViolation`).
    #[error("duplicate key {key} violates the unique constraint of {}", table.as_str())]
    UniqueViolation {
        /// The table.
        table: TableName,
        /// The key, as JSON.
        key: serde_json::Value,
    },
    /// Another open transaction holds a write lock on the row: retry after it ends.
    #[error("{0}")]
    Blocked(RowLockWait),
    /// Too many transactions are open at once: the store's limit.
    #[error("{open} transactions are open, the limit is {limit}")]
    TooManyOpenTransactions {
        /// How many are open.
        open: usize,
        /// The limit ([`StoreConfig::open_transactions_max`]).
        limit: usize,
    },
    /// A transaction or a table would hold more rows than the store's limit.
    #[error("{} would hold more than {limit} rows", table.as_str())]
    TableFull {
        /// The table.
        table: TableName,
        /// The limit ([`StoreConfig::rows_per_table_max`]).
        limit: usize,
    },
}

/// A write that must wait: another open transaction holds a lock on the row. PostgreSQL would
/// block the statement; here the statement returns this and is retried once `holder` has ended.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error("{tx} waits for {holder}, which holds the row {key} of {}", table.as_str())]
pub struct RowLockWait {
    /// The transaction that tried to write.
    pub tx: TxId,
    /// The transaction that holds the row.
    pub holder: TxId,
    /// The table.
    pub table: TableName,
    /// The key, as JSON.
    pub key: serde_json::Value,
}

/// The store's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// How many transactions may be open at once.
    pub open_transactions_max: usize,
    /// How many rows one table may hold, and how many writes one transaction may hold.
    pub rows_per_table_max: usize,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig { open_transactions_max: 64, rows_per_table_max: 100_000 }
    }
}

/// The in-memory database: committed tables plus the write sets of open transactions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Store {
    config: StoreConfig,
    committed: Tables,
    open: BTreeMap<TxId, WriteSet>,
    next_tx_id: u64,
    next_charge_id: u64,
    log: StatementLog,
}

/// One operation of the store as the statement log records it: which transaction ran what,
/// and with what outcome. A step runs one statement, and the log of the step is what a
/// differential test compares with a real server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StoreOp {
    /// A transaction began.
    Begin {
        /// The transaction.
        tx: TxId,
    },
    /// A transaction committed.
    Commit {
        /// The transaction.
        tx: TxId,
    },
    /// A transaction rolled back (or was rolled back by a crash or a deadlock).
    Rollback {
        /// The transaction.
        tx: TxId,
    },
    /// A statement of a transaction wrote one row (inserted, updated or deleted it).
    Wrote {
        /// The transaction.
        tx: TxId,
        /// The table.
        table: TableName,
        /// The row's key, as JSON text.
        key: String,
    },
    /// A statement of a transaction matched nothing it could write (zero rows, or `ON CONFLICT
    /// DO NOTHING` found the key taken).
    Skipped {
        /// The transaction.
        tx: TxId,
    },
    /// A statement must wait for another transaction's row lock.
    Blocked(RowLockWait),
    /// An insert hit the unique constraint.
    UniqueViolation {
        /// The transaction.
        tx: TxId,
        /// The table.
        table: TableName,
    },
}

/// The store's statement log: off unless a caller turns it on, and no part of the store's
/// state (two stores that differ only in their logs are equal and hash alike), so the
/// checker's fingerprints never see it.
#[derive(Clone, Debug, Default)]
struct StatementLog {
    on: bool,
    ops: Vec<StoreOp>,
}

impl PartialEq for StatementLog {
    fn eq(&self, _: &StatementLog) -> bool {
        true
    }
}

impl Eq for StatementLog {}

impl Hash for StatementLog {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Default for Store {
    fn default() -> Self {
        Store::new(StoreConfig::default())
    }
}

impl Store {
    /// An empty store with these limits.
    pub fn new(config: StoreConfig) -> Store {
        Store {
            config,
            committed: Tables::default(),
            open: BTreeMap::new(),
            next_tx_id: 1,
            next_charge_id: 1,
            log: StatementLog::default(),
        }
    }

    /// Clears the statement log and starts recording: every operation from now on is logged
    /// until [`Store::stop_statement_log`].
    pub fn start_statement_log(&mut self) {
        self.log.on = true;
        self.log.ops.clear();
    }

    /// Stops recording and clears the log.
    pub fn stop_statement_log(&mut self) {
        self.log.on = false;
        self.log.ops.clear();
    }

    /// What was logged since [`Store::start_statement_log`], oldest first.
    pub fn statement_log(&self) -> &[StoreOp] {
        &self.log.ops
    }

    fn record(&mut self, op: impl FnOnce() -> StoreOp) {
        if self.log.on {
            self.log.ops.push(op());
        }
    }

    fn record_result<T>(&mut self, result: &Result<T, StoreError>, tx: TxId, table: TableName) {
        if let Err(error) = result {
            match error {
                StoreError::Blocked(wait) => {
                    let wait = wait.clone();
                    self.record(|| StoreOp::Blocked(wait));
                }
                StoreError::UniqueViolation { .. } => {
                    self.record(|| StoreOp::UniqueViolation { tx, table });
                }
                _ => {}
            }
        }
    }

    fn record_write<K: Serialize>(&mut self, tx: TxId, table: TableName, key: &K) {
        self.record(|| StoreOp::Wrote { tx, table, key: key_json(key).to_string() });
    }

    /// What a conditional `UPDATE` or `DELETE` did: wrote its row, matched none (`Skipped`), or
    /// waited or failed.
    fn record_conditional_write<R: Row>(
        &mut self,
        result: &Result<Option<R>, StoreError>,
        tx: TxId,
        key: &R::Key,
    ) {
        match result {
            Ok(Some(_)) => self.record_write(tx, R::TABLE, key),
            Ok(None) => self.record(|| StoreOp::Skipped { tx }),
            Err(_) => self.record_result(result, tx, R::TABLE),
        }
    }

    /// A store whose `stock` table holds these quantities, on hand and available.
    pub fn with_stock(config: StoreConfig, stock: impl IntoIterator<Item = (Sku, i64)>) -> Store {
        let mut store = Store::new(config);
        for (sku, qty) in stock {
            store
                .committed
                .stock
                .insert(sku.clone(), StockRow { sku, on_hand_qty: qty, available_qty: qty });
        }
        store
    }

    /// The store's limits.
    pub fn config(&self) -> StoreConfig {
        self.config
    }

    /// The committed rows of every table: what any new transaction would see.
    pub fn committed(&self) -> &Tables {
        &self.committed
    }

    /// The ids of the open transactions, oldest first.
    pub fn open_transactions(&self) -> impl Iterator<Item = TxId> + '_ {
        self.open.keys().copied()
    }

    /// Whether `tx` is open.
    pub fn is_open(&self, tx: TxId) -> bool {
        self.open.contains_key(&tx)
    }

    /// Begins a transaction.
    pub fn begin(&mut self) -> Result<TxId, StoreError> {
        if self.open.len() >= self.config.open_transactions_max {
            return Err(StoreError::TooManyOpenTransactions {
                open: self.open.len(),
                limit: self.config.open_transactions_max,
            });
        }
        let tx = TxId(self.next_tx_id);
        self.next_tx_id += 1;
        self.open.insert(tx, WriteSet::default());
        self.record(|| StoreOp::Begin { tx });
        Ok(tx)
    }

    /// Draws the next charge id. Like a database sequence, it is not transactional: a rolled
    /// back transaction leaves a gap.
    pub fn next_charge_id(&mut self) -> ChargeId {
        let id = ChargeId(self.next_charge_id);
        self.next_charge_id += 1;
        id
    }

    /// Reads one row as `tx` sees it: its own write if it made one, else the committed row
    /// (read committed: each statement sees what has committed when it starts).
    pub fn get<R: Row>(&self, tx: TxId, key: &R::Key) -> Result<Option<R>, StoreError> {
        let writes = self.writes(tx)?;
        Ok(match R::writes(writes).get(key) {
            Some(pending) => pending.clone(),
            None => R::rows(&self.committed).get(key).cloned(),
        })
    }

    /// Reads every row of a table as `tx` sees it, in key order.
    pub fn scan<R: Row>(&self, tx: TxId) -> Result<Vec<R>, StoreError> {
        let writes = R::writes(self.writes(tx)?);
        let mut rows: BTreeMap<R::Key, R> = R::rows(&self.committed).clone();
        for (key, pending) in writes {
            match pending {
                Some(row) => rows.insert(key.clone(), row.clone()),
                None => rows.remove(key),
            };
        }
        Ok(rows.into_values().collect())
    }

    /// Inserts a row; a taken key is a [`StoreError::UniqueViolation`].
    pub fn insert<R: Row>(&mut self, tx: TxId, row: R) -> Result<(), StoreError> {
        let key = row.key();
        let result = self.try_insert(tx, row).and_then(|inserted| match inserted {
            Inserted::Inserted => Ok(()),
            Inserted::AlreadyPresent => {
                Err(StoreError::UniqueViolation { table: R::TABLE, key: key_json(&key) })
            }
        });
        match &result {
            Ok(()) => self.record_write(tx, R::TABLE, &key),
            Err(_) => self.record_result(&result, tx, R::TABLE),
        }
        result
    }

    /// Inserts a row unless its key is taken: `INSERT ... ON CONFLICT DO NOTHING`.
    pub fn insert_on_conflict_do_nothing<R: Row>(
        &mut self,
        tx: TxId,
        row: R,
    ) -> Result<Inserted, StoreError> {
        let key = row.key();
        let result = self.try_insert(tx, row);
        match &result {
            Ok(Inserted::Inserted) => self.record_write(tx, R::TABLE, &key),
            Ok(Inserted::AlreadyPresent) => self.record(|| StoreOp::Skipped { tx }),
            Err(_) => self.record_result(&result, tx, R::TABLE),
        }
        result
    }

    /// The insert of both forms: waits for any open transaction that has written the key
    /// (PostgreSQL's unique check waits for an in-progress inserter, updater or deleter of a
    /// conflicting row), then inserts unless the key is taken.
    fn try_insert<R: Row>(&mut self, tx: TxId, row: R) -> Result<Inserted, StoreError> {
        let key = row.key();
        self.lock::<R>(tx, &key)?;
        if self.get::<R>(tx, &key)?.is_some() {
            return Ok(Inserted::AlreadyPresent);
        }
        self.write::<R>(tx, key, Some(row))?;
        Ok(Inserted::Inserted)
    }

    /// `INSERT ... ON CONFLICT DO UPDATE`: inserts `row`, or if its key is taken, applies
    /// `change` to the row there. Waits like an insert. Returns the row written.
    pub fn insert_on_conflict_do_update<R: Row>(
        &mut self,
        tx: TxId,
        row: R,
        change: impl FnOnce(&mut R),
    ) -> Result<R, StoreError> {
        let key = row.key();
        let result = self.try_upsert(tx, row, change);
        match &result {
            Ok(_) => self.record_write(tx, R::TABLE, &key),
            Err(_) => self.record_result(&result, tx, R::TABLE),
        }
        result
    }

    fn try_upsert<R: Row>(
        &mut self,
        tx: TxId,
        row: R,
        change: impl FnOnce(&mut R),
    ) -> Result<R, StoreError> {
        let key = row.key();
        self.lock::<R>(tx, &key)?;
        let written = match self.get::<R>(tx, &key)? {
            None => row,
            Some(mut existing) => {
                change(&mut existing);
                existing
            }
        };
        debug_assert!(written.key() == key, "an upsert must not change the primary key");
        self.write::<R>(tx, key, Some(written.clone()))?;
        Ok(written)
    }

    /// Writes a row whether or not its key exists (an upsert that replaces the row).
    pub fn put<R: Row>(&mut self, tx: TxId, row: R) -> Result<(), StoreError> {
        self.insert_on_conflict_do_update(tx, row.clone(), |existing| *existing = row).map(|_| ())
    }

    /// `UPDATE ... WHERE <key> = $1`, every row matching: see [`Store::update_where`].
    pub fn update<R: Row>(
        &mut self,
        tx: TxId,
        key: &R::Key,
        change: impl FnOnce(&mut R),
    ) -> Result<Option<R>, StoreError> {
        self.update_where(tx, key, |_| true, change)
    }

    /// `UPDATE ... WHERE <key> = $1 AND <condition>`: returns the new row, or `None` for zero
    /// rows affected (no such row, or the condition is false), which is not an error in SQL.
    ///
    /// As PostgreSQL does in read committed: the row is looked up in the statement's snapshot
    /// (the committed rows plus `tx`'s own writes), so a row that another open transaction
    /// inserted is not found and the statement does not wait for it; the condition is evaluated
    /// on the snapshot's row, and a row it rejects is neither locked nor waited for; a matching
    /// row that another open transaction has written is [`StoreError::Blocked`], and the retry
    /// evaluates the condition again on the row's newest version.
    pub fn update_where<R: Row>(
        &mut self,
        tx: TxId,
        key: &R::Key,
        condition: impl Fn(&R) -> bool,
        change: impl FnOnce(&mut R),
    ) -> Result<Option<R>, StoreError> {
        let result = self.try_update(tx, key, condition, change);
        self.record_conditional_write::<R>(&result, tx, key);
        result
    }

    fn try_update<R: Row>(
        &mut self,
        tx: TxId,
        key: &R::Key,
        condition: impl Fn(&R) -> bool,
        change: impl FnOnce(&mut R),
    ) -> Result<Option<R>, StoreError> {
        let Some(mut row) = self.get::<R>(tx, key)? else {
            return Ok(None);
        };
        if !condition(&row) {
            return Ok(None);
        }
        // Not blocked: no other open transaction has written the row, so the snapshot's row
        // is its newest version.
        self.lock::<R>(tx, key)?;
        change(&mut row);
        debug_assert!(row.key() == *key, "an update must not change the primary key");
        if row.key() != *key {
            return Ok(None);
        }
        self.write::<R>(tx, key.clone(), Some(row.clone()))?;
        Ok(Some(row))
    }

    /// `DELETE ... WHERE <key> = $1`; returns whether a row was deleted. See
    /// [`Store::delete_where`].
    pub fn delete<R: Row>(&mut self, tx: TxId, key: &R::Key) -> Result<bool, StoreError> {
        Ok(self.delete_where::<R>(tx, key, |_| true)?.is_some())
    }

    /// `DELETE ... WHERE <key> = $1 AND <condition> RETURNING *`: the deleted row, or `None`
    /// for zero rows. Finds, evaluates and waits exactly as [`Store::update_where`] does.
    pub fn delete_where<R: Row>(
        &mut self,
        tx: TxId,
        key: &R::Key,
        condition: impl Fn(&R) -> bool,
    ) -> Result<Option<R>, StoreError> {
        let result = self.try_delete(tx, key, condition);
        self.record_conditional_write::<R>(&result, tx, key);
        result
    }

    fn try_delete<R: Row>(
        &mut self,
        tx: TxId,
        key: &R::Key,
        condition: impl Fn(&R) -> bool,
    ) -> Result<Option<R>, StoreError> {
        let Some(row) = self.get::<R>(tx, key)? else {
            return Ok(None);
        };
        if !condition(&row) {
            return Ok(None);
        }
        self.lock::<R>(tx, key)?;
        self.write::<R>(tx, key.clone(), None)?;
        Ok(Some(row))
    }

    /// Commits `tx`: every write becomes visible at once. Returns the rows that changed, in
    /// table then key order.
    pub fn commit(&mut self, tx: TxId) -> Result<Vec<RowChange>, StoreError> {
        let writes = self.open.remove(&tx).ok_or(StoreError::UnknownTransaction { tx })?;
        let mut changes = Vec::new();
        writes.apply(&mut self.committed, &mut changes);
        self.record(|| StoreOp::Commit { tx });
        Ok(changes)
    }

    /// Rolls `tx` back: its writes vanish and its locks are released. A crash inside a
    /// transaction is exactly this.
    pub fn rollback(&mut self, tx: TxId) -> Result<(), StoreError> {
        self.open.remove(&tx).ok_or(StoreError::UnknownTransaction { tx })?;
        self.record(|| StoreOp::Rollback { tx });
        Ok(())
    }

    /// Runs `body` in a new transaction: commits if it returns `Ok`, rolls back if it returns
    /// `Err`. For code that needs no interleaving (tests, single-step handlers).
    pub fn transaction<T, E: From<StoreError>>(
        &mut self,
        body: impl FnOnce(&mut Store, TxId) -> Result<T, E>,
    ) -> Result<(T, Vec<RowChange>), E> {
        let tx = self.begin()?;
        match body(self, tx) {
            Ok(value) => {
                let changes = self.commit(tx)?;
                Ok((value, changes))
            }
            Err(error) => {
                self.rollback(tx)?;
                Err(error)
            }
        }
    }

    fn writes(&self, tx: TxId) -> Result<&WriteSet, StoreError> {
        self.open.get(&tx).ok_or(StoreError::UnknownTransaction { tx })
    }

    /// Fails with `Blocked` if another open transaction has written `key` (inserted, updated
    /// or deleted it): its row lock, held until it ends.
    fn lock<R: Row>(&self, tx: TxId, key: &R::Key) -> Result<(), StoreError> {
        self.writes(tx)?;
        for (&holder, writes) in &self.open {
            if holder != tx && R::writes(writes).contains_key(key) {
                return Err(StoreError::Blocked(RowLockWait {
                    tx,
                    holder,
                    table: R::TABLE,
                    key: key_json(key),
                }));
            }
        }
        Ok(())
    }

    fn write<R: Row>(&mut self, tx: TxId, key: R::Key, row: Option<R>) -> Result<(), StoreError> {
        let limit = self.config.rows_per_table_max;
        let committed = R::rows(&self.committed);
        let adds_a_row = row.is_some() && !committed.contains_key(&key);
        let table_is_full = committed.len() >= limit;
        let writes = self.open.get_mut(&tx).ok_or(StoreError::UnknownTransaction { tx })?;
        let is_new_write = !R::writes(writes).contains_key(&key);
        if is_new_write && (writes.row_count() >= limit || adds_a_row && table_is_full) {
            return Err(StoreError::TableFull { table: R::TABLE, limit });
        }
        R::writes_mut(writes).insert(key, row);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
