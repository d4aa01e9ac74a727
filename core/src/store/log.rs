//! The store's statement log: each operation ([`StoreOp`]) with its transaction and outcome,
//! recorded only while a caller has turned it on, and no part of the store's state.

use std::hash::Hash;

use serde::Serialize;

use super::{Row, RowLockWait, Store, StoreError, TableName, key_json};
use crate::ids::TxId;

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
pub(super) struct StatementLog {
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

impl Store {
    /// Clears the statement log and starts recording: every operation from now on is logged
    /// until [`Store::stop_statement_log`].
    pub(crate) fn start_statement_log(&mut self) {
        self.log.on = true;
        self.log.ops.clear();
    }

    /// Stops recording and clears the log.
    pub(crate) fn stop_statement_log(&mut self) {
        self.log.on = false;
        self.log.ops.clear();
    }

    /// What was logged since [`Store::start_statement_log`], oldest first.
    pub fn statement_log(&self) -> &[StoreOp] {
        &self.log.ops
    }

    pub(super) fn record(&mut self, op: impl FnOnce() -> StoreOp) {
        if self.log.on {
            self.log.ops.push(op());
        }
    }

    pub(super) fn record_result<T>(
        &mut self,
        result: &Result<T, StoreError>,
        tx: TxId,
        table: TableName,
    ) {
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

    pub(super) fn record_write<K: Serialize>(&mut self, tx: TxId, table: TableName, key: &K) {
        self.record(|| StoreOp::Wrote { tx, table, key: key_json(key).to_string() });
    }

    /// What a conditional `UPDATE` or `DELETE` did: wrote its row, matched none (`Skipped`), or
    /// waited or failed.
    pub(super) fn record_conditional_write<R: Row>(
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
}
