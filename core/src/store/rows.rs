//! The statements on rows: reads in the statement's snapshot (`get`, `scan`), inserts,
//! upserts, updates and deletes, and the row locks (`lock`) and table limits (`write`) every
//! write goes through, as PostgreSQL 15 does in read committed.

use std::collections::BTreeMap;

use super::{Inserted, Row, RowLockWait, Store, StoreError, StoreOp, WriteSet, key_json};
use crate::ids::TxId;

impl Store {
    /// Reads one row as `tx` sees it: its own write if it made one, else the committed row
    /// (read committed: each statement sees what has committed when it starts).
    pub(crate) fn get<R: Row>(&self, tx: TxId, key: &R::Key) -> Result<Option<R>, StoreError> {
        let writes = self.writes(tx)?;
        Ok(match R::writes(writes).get(key) {
            Some(pending) => pending.clone(),
            None => R::rows(&self.committed).get(key).cloned(),
        })
    }

    /// Reads every row of a table as `tx` sees it, in key order.
    #[cfg(test)]
    pub(crate) fn scan<R: Row>(&self, tx: TxId) -> Result<Vec<R>, StoreError> {
        self.scan_where(tx, |_| true)
    }

    /// Reads the rows of a table that `keep` accepts as `tx` sees them, in key order: a
    /// `SELECT ... WHERE`. Only the rows it returns are copied, so a query for a few rows of a
    /// long table (one order's reservations) costs a pass over the keys, not a copy of the
    /// table.
    pub(crate) fn scan_where<R: Row>(
        &self,
        tx: TxId,
        keep: impl Fn(&R) -> bool,
    ) -> Result<Vec<R>, StoreError> {
        Ok(self.visible(tx, keep)?.into_values().cloned().collect())
    }

    /// The first `limit` rows that `keep` accepts as `tx` sees them, ordered by `order_by`
    /// (rows with equal keys in key order): `SELECT ... WHERE ... ORDER BY ... LIMIT`. Only
    /// the rows it returns are copied, so a batch from a long backlog (the relay's unpublished
    /// outbox rows) costs a sort of references, not a copy of the backlog.
    pub(crate) fn select<R: Row, K: Ord>(
        &self,
        tx: TxId,
        keep: impl Fn(&R) -> bool,
        order_by: impl Fn(&R) -> K,
        limit: usize,
    ) -> Result<Vec<R>, StoreError> {
        let mut rows: Vec<&R> = self.visible(tx, keep)?.into_values().collect();
        rows.sort_by_key(|row| order_by(row));
        Ok(rows.into_iter().take(limit).cloned().collect())
    }

    /// The rows of a table that `keep` accepts as `tx` sees them (committed, with its own
    /// writes over them), by key, borrowed.
    fn visible<R: Row>(
        &self,
        tx: TxId,
        keep: impl Fn(&R) -> bool,
    ) -> Result<BTreeMap<&R::Key, &R>, StoreError> {
        let writes = R::writes(self.writes(tx)?);
        let mut rows: BTreeMap<&R::Key, &R> = R::rows(&self.committed)
            .iter()
            .filter(|(key, row)| !writes.contains_key(*key) && keep(row))
            .collect();
        for (key, pending) in writes {
            if let Some(row) = pending
                && keep(row)
            {
                rows.insert(key, row);
            }
        }
        Ok(rows)
    }

    /// Inserts a row; a taken key is a [`StoreError::UniqueViolation`].
    pub(crate) fn insert<R: Row>(&mut self, tx: TxId, row: R) -> Result<(), StoreError> {
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
    pub(crate) fn insert_on_conflict_do_nothing<R: Row>(
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
    pub(crate) fn insert_on_conflict_do_update<R: Row>(
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

    /// `UPDATE ... WHERE <key> = $1`, every row matching: see [`Store::update_where`].
    pub(crate) fn update<R: Row>(
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
    pub(crate) fn update_where<R: Row>(
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
    #[cfg(test)]
    pub(crate) fn delete<R: Row>(&mut self, tx: TxId, key: &R::Key) -> Result<bool, StoreError> {
        Ok(self.delete_where::<R>(tx, key, |_| true)?.is_some())
    }

    /// `DELETE ... WHERE <key> = $1 AND <condition> RETURNING *`: the deleted row, or `None`
    /// for zero rows. Finds, evaluates and waits exactly as [`Store::update_where`] does.
    pub(crate) fn delete_where<R: Row>(
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
            return Err(self.refused_for_limit(StoreError::TableFull { table: R::TABLE, limit }));
        }
        R::writes_mut(writes).insert(key, row);
        Ok(())
    }
}
