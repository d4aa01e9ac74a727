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

mod log;
mod rows;
mod schema;
mod tables;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use log::StoreOp;
pub(crate) use schema::{
    ChargeRow, FencingToken, IdempotencyKeyRow, InboxRow, KeyState, OrderRow, OrderStatus,
    OutboxRow, RequestFingerprint, ReservationRow, StockRow, StoredResponse,
};
pub use schema::{MessagePayload, OrderLine};
pub(crate) use tables::WriteSet;
pub use tables::{RowChange, TableName, Tables};

use crate::ids::{ChargeId, Sku, TxId};
use log::StatementLog;
use tables::key_json;

/// A row of one of the store's tables: it names its table and its primary key.
pub(crate) trait Row: Clone + Debug + PartialEq + Eq + Hash + Serialize + 'static {
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

/// Whether [`Store::insert_on_conflict_do_nothing`] wrote the row: the `1` or `0` that the seed
/// reads back as `reserved == 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Inserted {
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
    pub(crate) table: TableName,
    /// The key, as JSON.
    pub(crate) key: serde_json::Value,
}

/// The store's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// How many transactions may be open at once.
    pub(crate) open_transactions_max: usize,
    /// How many rows one table may hold, and how many writes one transaction may hold.
    pub(crate) rows_per_table_max: usize,
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
    /// Each table shared between the copies of a world until a commit writes to it.
    committed: Tables,
    open: BTreeMap<TxId, WriteSet>,
    next_tx_id: u64,
    next_charge_id: u64,
    log: StatementLog,
    changed: ChangedRows,
    limit_refusal: LimitRefusal,
}

/// The rows commits changed since [`Store::start_step`], as a before-image: for each written
/// key, the committed row before its first write. It is bookkeeping of the step, a function of
/// how the state was reached, so two stores are equal and hash alike whatever it holds.
#[derive(Clone, Debug, Default)]
struct ChangedRows(WriteSet);

impl PartialEq for ChangedRows {
    fn eq(&self, _: &ChangedRows) -> bool {
        true
    }
}

impl Eq for ChangedRows {}

impl Hash for ChangedRows {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// The first statement since [`Store::start_step`] that a limit of the store refused (too many
/// open transactions, a full table): bookkeeping of the step, like [`ChangedRows`], so two
/// stores are equal and hash alike whatever it holds.
#[derive(Clone, Debug, Default)]
struct LimitRefusal(Option<StoreError>);

impl PartialEq for LimitRefusal {
    fn eq(&self, _: &LimitRefusal) -> bool {
        true
    }
}

impl Eq for LimitRefusal {}

impl Hash for LimitRefusal {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl StoreError {
    /// Whether the store refused the statement because one of its own limits
    /// ([`StoreConfig`]) was reached, not because of what the statement asked.
    pub(crate) fn is_limit(&self) -> bool {
        match self {
            StoreError::TooManyOpenTransactions { .. } | StoreError::TableFull { .. } => true,
            StoreError::UnknownTransaction { .. }
            | StoreError::UniqueViolation { .. }
            | StoreError::Blocked(_) => false,
        }
    }
}

impl Default for Store {
    fn default() -> Self {
        Store::new(StoreConfig::default())
    }
}

impl Store {
    /// An empty store with these limits.
    pub(crate) fn new(config: StoreConfig) -> Store {
        Store {
            config,
            committed: Tables::default(),
            open: BTreeMap::new(),
            next_tx_id: 1,
            next_charge_id: 1,
            log: StatementLog::default(),
            changed: ChangedRows::default(),
            limit_refusal: LimitRefusal::default(),
        }
    }

    /// A store whose `stock` table holds these quantities, on hand and available.
    pub(crate) fn with_stock(
        config: StoreConfig,
        stock: impl IntoIterator<Item = (Sku, i64)>,
    ) -> Store {
        let mut store = Store::new(config);
        for (sku, qty) in stock {
            Arc::make_mut(&mut store.committed.stock)
                .insert(sku.clone(), StockRow { sku, on_hand_qty: qty, available_qty: qty });
        }
        store
    }

    /// The store's limits.
    #[cfg(test)]
    pub(crate) fn config(&self) -> StoreConfig {
        self.config
    }

    /// The committed rows of every table: what any new transaction would see.
    pub fn committed(&self) -> &Tables {
        &self.committed
    }

    /// The ids of the open transactions, oldest first.
    #[cfg(test)]
    pub(crate) fn open_transactions(&self) -> impl Iterator<Item = TxId> + '_ {
        self.open.keys().copied()
    }

    /// Whether one more transaction may begin: fewer than
    /// [`StoreConfig::open_transactions_max`] are open. A caller that models a connection pool
    /// (the simulator) waits while this is false instead of calling [`Store::begin`].
    pub(crate) fn can_begin(&self) -> bool {
        self.open.len() < self.config.open_transactions_max
    }

    /// Whether `tx` is open.
    pub(crate) fn is_open(&self, tx: TxId) -> bool {
        self.open.contains_key(&tx)
    }

    /// Begins a transaction.
    pub(crate) fn begin(&mut self) -> Result<TxId, StoreError> {
        if !self.can_begin() {
            return Err(self.refused_for_limit(StoreError::TooManyOpenTransactions {
                open: self.open.len(),
                limit: self.config.open_transactions_max,
            }));
        }
        let tx = TxId(self.next_tx_id);
        self.next_tx_id += 1;
        self.open.insert(tx, WriteSet::default());
        self.record(|| StoreOp::Begin { tx });
        Ok(tx)
    }

    /// Draws the next charge id. Like a database sequence, it is not transactional: a rolled
    /// back transaction leaves a gap.
    pub(crate) fn next_charge_id(&mut self) -> ChargeId {
        let id = ChargeId(self.next_charge_id);
        self.next_charge_id += 1;
        id
    }

    /// Commits `tx`: every write becomes visible at once. The rows it changed are among
    /// [`Store::step_row_changes`].
    pub(crate) fn commit(&mut self, tx: TxId) -> Result<(), StoreError> {
        let writes = self.open.remove(&tx).ok_or(StoreError::UnknownTransaction { tx })?;
        if writes.row_count() > 0 {
            writes.apply(&mut self.committed, &mut self.changed.0);
        }
        self.record(|| StoreOp::Commit { tx });
        Ok(())
    }

    /// Commits `tx` and returns the rows that this commit changed, in table then key order.
    #[cfg(test)]
    fn commit_reporting(&mut self, tx: TxId) -> Result<Vec<RowChange>, StoreError> {
        let writes = self.open.remove(&tx).ok_or(StoreError::UnknownTransaction { tx })?;
        let mut before = WriteSet::default();
        writes.apply(&mut self.committed, &mut before);
        let changes = before.changes_since(&self.committed);
        before.merge_into(&mut self.changed.0);
        self.record(|| StoreOp::Commit { tx });
        Ok(changes)
    }

    /// Starts a step: forgets the rows changed so far, so that [`Store::step_row_changes`]
    /// reports those of the commits from now on.
    pub(crate) fn start_step(&mut self) {
        self.changed.0.clear();
        self.limit_refusal.0 = None;
    }

    /// The first statement since [`Store::start_step`] that a limit of the store refused
    /// ([`StoreError::is_limit`]), forgotten once taken. Whoever ran the statement saw the
    /// error too, but may have turned it into an answer (a 500) or a failed delivery; the
    /// simulator asks the store, so that a limit reached is one outcome whatever caught it.
    pub(crate) fn take_limit_refusal(&mut self) -> Option<StoreError> {
        self.limit_refusal.0.take()
    }

    /// Notes `error`, a limit's refusal, for [`Store::take_limit_refusal`], and returns it.
    fn refused_for_limit(&mut self, error: StoreError) -> StoreError {
        debug_assert!(error.is_limit(), "only a limit's refusal is noted: {error}");
        if self.limit_refusal.0.is_none() {
            self.limit_refusal.0 = Some(error.clone());
        }
        error
    }

    /// The rows that the commits since [`Store::start_step`] changed, table by table then in
    /// key order: several writes to one row are one change, writes that cancel out are none.
    /// The same as [`Tables::diff`] of the committed rows at the start and now, without a copy.
    pub(crate) fn step_row_changes(&self) -> Vec<RowChange> {
        self.changed.0.changes_since(&self.committed)
    }

    /// The rows written by the commits since [`Store::start_step`], each with its committed
    /// value before the first of them (`None`: it did not exist). A row written back to its
    /// old value is listed too.
    pub(crate) fn step_before_image(&self) -> &WriteSet {
        &self.changed.0
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
    #[cfg(test)]
    pub(crate) fn transaction<T, E: From<StoreError>>(
        &mut self,
        body: impl FnOnce(&mut Store, TxId) -> Result<T, E>,
    ) -> Result<(T, Vec<RowChange>), E> {
        let tx = self.begin()?;
        match body(self, tx) {
            Ok(value) => {
                let changes = self.commit_reporting(tx)?;
                Ok((value, changes))
            }
            Err(error) => {
                self.rollback(tx)?;
                Err(error)
            }
        }
    }
}

#[cfg(test)]
mod tests;
