//! Purging forgotten keys: the housekeeping that deletes `idempotency_keys` rows whose
//! retention window is over.
//!
//! The layer already treats such a row as absent when a request reads it, so purging changes
//! no answer; it keeps the table small and shows on the page which keys the lab has forgotten.
//! A row whose lease still holds is never purged (see [`Config::is_forgotten`]).
//!
//! [`PurgeForgottenKeys`] is the step machine (`BEGIN`, one `DELETE`, `COMMIT`) that the
//! simulator interleaves with requests; [`purge_forgotten_keys`] is the same `DELETE` inside a
//! transaction the caller owns.

use crate::idempotency::config::Config;
use crate::idempotency::error::IdempotencyError;
use crate::ids::{IdempotencyKey, Tick, TxId};
use crate::sql::statements;
use crate::step::{Step, Steps};
use crate::store::{IdempotencyKeyRow, Store, StoreError};

/// Deletes, inside `tx`, every key forgotten at `now`; returns their keys in key order. A row
/// locked by another open transaction is a [`StoreError::Blocked`]; running the call again
/// after the holder ended is safe.
pub(crate) fn purge_forgotten_keys(
    store: &mut Store,
    tx: TxId,
    config: &Config,
    now: Tick,
) -> Result<Vec<IdempotencyKey>, StoreError> {
    let forgotten: Vec<IdempotencyKey> = store
        .scan_where(tx, |row: &IdempotencyKeyRow| config.is_forgotten(row, now))?
        .into_iter()
        .map(|row| row.key)
        .collect();
    let mut purged = Vec::new();
    for key in forgotten {
        if store
            .delete_where::<IdempotencyKeyRow>(tx, &key, |row| config.is_forgotten(row, now))?
            .is_some()
        {
            purged.push(key);
        }
    }
    Ok(purged)
}

/// Where a [`PurgeForgottenKeys`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PurgeState {
    /// The transaction begins next.
    Begin,
    /// The `DELETE` runs next.
    Delete {
        /// The transaction.
        tx: TxId,
    },
    /// The transaction commits next.
    Commit {
        /// The transaction.
        tx: TxId,
        /// The keys deleted.
        purged: Vec<IdempotencyKey>,
    },
    /// Done.
    Done,
}

/// The purge as a step machine; it reports the keys it deleted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PurgeForgottenKeys {
    config: Config,
    state: PurgeState,
}

impl PurgeForgottenKeys {
    /// A purge by the rules of `config`.
    pub(crate) fn new(config: Config) -> Self {
        PurgeForgottenKeys { config, state: PurgeState::Begin }
    }

    fn step_state(
        &mut self,
        store: &mut Store,
        now: Tick,
    ) -> Result<Step<Vec<IdempotencyKey>>, IdempotencyError> {
        match self.state.clone() {
            PurgeState::Begin => {
                self.state = PurgeState::Delete { tx: store.begin()? };
                Ok(Step::Continue)
            }
            PurgeState::Delete { tx } => match purge_forgotten_keys(store, tx, &self.config, now) {
                Ok(purged) => {
                    self.state = PurgeState::Commit { tx, purged };
                    Ok(Step::Continue)
                }
                // Deletes made before the lock wait stay in the write set; the retry redoes
                // them harmlessly.
                Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                Err(error) => Err(error.into()),
            },
            PurgeState::Commit { tx, purged } => {
                store.commit(tx)?;
                self.state = PurgeState::Done;
                Ok(Step::Done(purged))
            }
            PurgeState::Done => Err(IdempotencyError::AlreadyDone),
        }
    }
}

impl Steps for PurgeForgottenKeys {
    type Output = Vec<IdempotencyKey>;
    type Error = IdempotencyError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match &self.state {
            PurgeState::Begin => Some("BEGIN".to_owned()),
            PurgeState::Delete { .. } => {
                Some(statements::purge_keys(now, self.config.retention_ticks))
            }
            PurgeState::Commit { .. } => Some("COMMIT".to_owned()),
            PurgeState::Done => None,
        }
    }

    fn step(
        &mut self,
        store: &mut Store,
        now: Tick,
    ) -> Result<Step<Vec<IdempotencyKey>>, Self::Error> {
        let result = self.step_state(store, now);
        if result.is_err() {
            if let Some(tx) = self.open_transaction() {
                let _ = store.rollback(tx);
            }
            self.state = PurgeState::Done;
        }
        result
    }

    fn open_transaction(&self) -> Option<TxId> {
        match &self.state {
            PurgeState::Delete { tx } | PurgeState::Commit { tx, .. } => Some(*tx),
            PurgeState::Begin | PurgeState::Done => None,
        }
    }
}
