//! The knobs of the idempotency layer: lease, retention, what to do when the handler fails, and
//! which twin to run.
//!
//! The rules the numbers feed, in one place so that the layer and the purge agree:
//! - a key in progress holds a lease of `lease_ticks` from its reservation or takeover; while it
//!   holds, a retry gets 409; after it, a retry takes the key over;
//! - a key whose `created_at` is `retention_ticks` or more in the past is forgotten: treated as
//!   absent, so a duplicate after the window runs the handler again (fault F10). A key whose
//!   lease still holds is never forgotten: that would let its handler run twice at once.

use serde::{Deserialize, Serialize};

use crate::ids::Tick;
use crate::store::{IdempotencyKeyRow, KeyState};

/// Which twin of pattern P3 runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Implementation {
    /// No key handling at all: every request runs the handler, so a retry after a lost
    /// response creates a second charge or order.
    Naive,
    /// The `Idempotency-Key` layer: reserve, replay, 409, 422, lease, fencing, retention.
    Idempotent,
}

/// What the layer does with the key when the handler fails (answers 5xx or returns a typed
/// failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailurePolicy {
    /// Delete the key's row, so that a retry runs the handler again: right when failures are
    /// transient and the failed attempt left no effect behind.
    ReleaseKey,
    /// Store the error response and replay it to every retry: right when a failed attempt may
    /// have had effects that a rerun would repeat.
    StoreAndReplay,
}

/// The idempotency layer's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// How long a reservation or takeover holds the key. A value of 0 is taken as 1: a lease
    /// lasts at least one tick, which keeps fencing tokens strictly growing (see
    /// [`Config::lease_ticks_effective`]).
    pub lease_ticks: u64,
    /// How long after its `created_at` a key is remembered.
    pub retention_ticks: u64,
    /// What a handler failure does to the key.
    pub failure_policy: FailurePolicy,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            lease_ticks: 30,
            retention_ticks: 1_000,
            failure_policy: FailurePolicy::ReleaseKey,
        }
    }
}

impl Config {
    /// The lease actually granted: `lease_ticks`, at least 1.
    pub(crate) fn lease_ticks_effective(&self) -> u64 {
        self.lease_ticks.max(1)
    }

    /// When a lease granted at `now` ends.
    pub(crate) fn lease_expires_at(&self, now: Tick) -> Tick {
        now.plus(self.lease_ticks_effective())
    }

    /// Whether `row` is forgotten at `now`: its retention window is over and no lease holds it.
    pub(crate) fn is_forgotten(&self, row: &IdempotencyKeyRow, now: Tick) -> bool {
        let retention_over = now.ticks_since(row.created_at) >= self.retention_ticks;
        retention_over && !lease_holds(row, now)
    }

    /// The first tick at which `row` is forgotten ([`Config::is_forgotten`]): the end of its
    /// retention window, or of its lease if that holds longer. The simulator's deadlines and
    /// the page's clock name this tick.
    pub(crate) fn forgotten_at(&self, row: &IdempotencyKeyRow) -> Tick {
        let retention_over = row.created_at.plus(self.retention_ticks);
        match row.state {
            KeyState::InProgress { lease_expires_at, .. } => retention_over.max(lease_expires_at),
            KeyState::Completed { .. } => retention_over,
        }
    }
}

/// Whether `row` is in progress and its lease has not ended at `now`.
pub(crate) fn lease_holds(row: &IdempotencyKeyRow, now: Tick) -> bool {
    match &row.state {
        KeyState::InProgress { lease_expires_at, .. } => now < *lease_expires_at,
        KeyState::Completed { .. } => false,
    }
}
