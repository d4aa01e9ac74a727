//! The release of an order's reservations as a step machine ([`ReleaseStockEffect`]): the
//! naive twin gives the order's line quantities back on every call; the idempotent release
//! gives back exactly what the rows it deletes held.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{StockError, StockImplementation, blocked_or_error, qty_i64};
use crate::ids::{OrderId, Sku, Tick, TxId};
use crate::sql::statements;
use crate::step::{EffectSteps, Step};
#[cfg(test)]
use crate::step::{InTransaction, RunError, run_to_completion};
use crate::store::{OrderLine, ReservationRow, StockRow, Store};

/// The command: give an order's reserved stock back (what cancellation does).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct ReleaseStock {
    /// The order.
    pub(crate) order_id: OrderId,
    /// The order's lines. Only the naive twin reads them: it gives these quantities back every
    /// time. The idempotent release gives back what the order's reservation rows hold, so it
    /// may be given no lines (a consumer of `OrderCancelled`, which carries none).
    pub(crate) lines: Vec<OrderLine>,
}

/// Stock given back for one sku of an order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ReleasedStock {
    /// The sku.
    pub(crate) sku: Sku,
    /// How many went back to `available_qty`.
    pub(crate) qty: i64,
}

impl fmt::Display for ReleasedStock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} x{}", self.sku, self.qty)
    }
}

/// What a release did.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "event")]
pub enum StockReleaseEvent {
    /// Reservations were deleted and their stock given back. The naive twin always reports
    /// this, with the order's line quantities.
    StockReleased {
        /// The order.
        order_id: OrderId,
        /// What went back, in sku order.
        released: Vec<ReleasedStock>,
    },
    /// The order holds no reservation (already released, or never reserved): nothing changed.
    NothingToRelease {
        /// The order.
        order_id: OrderId,
    },
}

/// The next statement of a [`ReleaseStockEffect`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum ReleaseStockPosition {
    /// Idempotent: `SELECT sku FROM reservations WHERE order_id = $1`.
    SelectReservations,
    /// Delete the reservation of this sku (idempotent: one found by the select; naive: one per
    /// order line, whether or not it exists).
    DeleteReservation {
        /// Index into the skus to release.
        index: usize,
    },
    /// `UPDATE stock SET available_qty = available_qty + qty` for this sku.
    GiveStockBack {
        /// Index into the skus to release.
        index: usize,
        /// How many to give back: the deleted row's qty (idempotent) or the line's (naive).
        qty: i64,
    },
    /// Every statement has run.
    Done,
}

/// The release of an order's reservations, one statement per step, inside its caller's
/// transaction. The idempotent release gives back exactly what the rows it deletes held, so a
/// second release (or one that raced with the first and waited for it) finds nothing and
/// changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ReleaseStockEffect {
    order_id: OrderId,
    implementation: StockImplementation,
    /// The skus to release, in sku order, with a quantity. Naive: the order's lines. Idempotent:
    /// filled by the select with the reservations found (the delete re-reads the qty).
    targets: Vec<(Sku, i64)>,
    position: ReleaseStockPosition,
    released: Vec<ReleasedStock>,
}

impl ReleaseStockEffect {
    /// The effect for `command`. The naive twin sorts the lines by sku (and merges a sku
    /// given twice); the idempotent release ignores them.
    pub(crate) fn new(
        command: ReleaseStock,
        implementation: StockImplementation,
    ) -> ReleaseStockEffect {
        let (targets, position) = match implementation {
            StockImplementation::Naive => {
                let mut merged: std::collections::BTreeMap<Sku, u32> =
                    std::collections::BTreeMap::new();
                for line in command.lines {
                    let qty = merged.entry(line.sku).or_insert(0);
                    *qty = qty.saturating_add(line.qty);
                }
                let targets: Vec<(Sku, i64)> =
                    merged.into_iter().map(|(sku, qty)| (sku, qty_i64(qty))).collect();
                (targets, ReleaseStockPosition::DeleteReservation { index: 0 })
            }
            StockImplementation::Idempotent => {
                (Vec::new(), ReleaseStockPosition::SelectReservations)
            }
        };
        ReleaseStockEffect {
            order_id: command.order_id,
            implementation,
            targets,
            position,
            released: Vec::new(),
        }
    }

    /// The same, wrapped to run in a transaction of its own.
    #[cfg(test)]
    pub(crate) fn in_own_transaction(
        command: ReleaseStock,
        implementation: StockImplementation,
    ) -> InTransaction<ReleaseStockEffect> {
        InTransaction::new(ReleaseStockEffect::new(command, implementation))
    }

    fn target_sku(&self, index: usize) -> Result<Sku, StockError> {
        self.targets.get(index).map(|(sku, _)| sku.clone()).ok_or(StockError::EffectAlreadyDone)
    }

    fn next_target(&mut self, index: usize) -> Step<StockReleaseEvent> {
        let next_index = index + 1;
        if next_index < self.targets.len() {
            self.position = ReleaseStockPosition::DeleteReservation { index: next_index };
            return Step::Continue;
        }
        self.finish()
    }

    fn finish(&mut self) -> Step<StockReleaseEvent> {
        self.position = ReleaseStockPosition::Done;
        let order_id = self.order_id;
        let released = std::mem::take(&mut self.released);
        Step::Done(if released.is_empty() {
            StockReleaseEvent::NothingToRelease { order_id }
        } else {
            StockReleaseEvent::StockReleased { order_id, released }
        })
    }

    fn select_reservations(
        &mut self,
        store: &mut Store,
        tx: TxId,
    ) -> Result<Step<StockReleaseEvent>, StockError> {
        let order_id = self.order_id;
        self.targets = store
            .scan_where(tx, |row: &ReservationRow| row.order_id == order_id)?
            .into_iter()
            .map(|row| (row.sku, row.qty))
            .collect();
        if self.targets.is_empty() {
            return Ok(self.finish());
        }
        self.position = ReleaseStockPosition::DeleteReservation { index: 0 };
        Ok(Step::Continue)
    }

    /// `DELETE FROM reservations WHERE order_id = $1 AND sku = $2 RETURNING qty`.
    fn delete_reservation(
        &mut self,
        store: &mut Store,
        tx: TxId,
        index: usize,
    ) -> Result<Step<StockReleaseEvent>, StockError> {
        let sku = self.target_sku(index)?;
        let key = (self.order_id, sku);
        let row = match store.delete_where::<ReservationRow>(tx, &key, |_| true) {
            Err(error) => return blocked_or_error(error),
            Ok(row) => row,
        };
        match self.implementation {
            StockImplementation::Naive => {
                let qty = self.targets.get(index).map(|(_, qty)| *qty).unwrap_or(0);
                self.position = ReleaseStockPosition::GiveStockBack { index, qty };
                Ok(Step::Continue)
            }
            StockImplementation::Idempotent => match row {
                Some(row) => {
                    self.position = ReleaseStockPosition::GiveStockBack { index, qty: row.qty };
                    Ok(Step::Continue)
                }
                // Another release deleted it and committed while this one waited: its stock is
                // back already.
                None => Ok(self.next_target(index)),
            },
        }
    }

    /// `UPDATE stock SET available_qty = available_qty + qty WHERE sku = $1`.
    fn give_stock_back(
        &mut self,
        store: &mut Store,
        tx: TxId,
        index: usize,
        qty: i64,
    ) -> Result<Step<StockReleaseEvent>, StockError> {
        let sku = self.target_sku(index)?;
        match store.update::<StockRow>(tx, &sku, |row| {
            row.available_qty = row.available_qty.saturating_add(qty);
        }) {
            Err(error) => blocked_or_error(error),
            Ok(None) => Err(StockError::UnknownSku { sku }),
            Ok(Some(_)) => {
                self.released.push(ReleasedStock { sku, qty });
                Ok(self.next_target(index))
            }
        }
    }
}

impl EffectSteps for ReleaseStockEffect {
    type Output = StockReleaseEvent;
    type Error = StockError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        let order_id = self.order_id;
        let sku = |index: usize| self.targets.get(index).map(|(sku, _)| sku.clone());
        match &self.position {
            ReleaseStockPosition::SelectReservations => {
                Some(statements::select_reservations(order_id))
            }
            ReleaseStockPosition::DeleteReservation { index } => Some(match sku(*index) {
                Some(sku) => statements::delete_reservation(order_id, &sku),
                None => "-- no order lines to release".to_owned(),
            }),
            ReleaseStockPosition::GiveStockBack { index, qty } => {
                sku(*index).map(|sku| statements::give_stock_back(&sku, *qty))
            }
            ReleaseStockPosition::Done => None,
        }
    }

    fn step(
        &mut self,
        store: &mut Store,
        tx: TxId,
        _now: Tick,
    ) -> Result<Step<StockReleaseEvent>, StockError> {
        match self.position.clone() {
            ReleaseStockPosition::SelectReservations => self.select_reservations(store, tx),
            ReleaseStockPosition::DeleteReservation { index } => {
                if self.targets.is_empty() {
                    // The naive twin given no lines has nothing to run.
                    return Ok(self.finish());
                }
                self.delete_reservation(store, tx, index)
            }
            ReleaseStockPosition::GiveStockBack { index, qty } => {
                self.give_stock_back(store, tx, index, qty)
            }
            ReleaseStockPosition::Done => Err(StockError::EffectAlreadyDone),
        }
    }
}

/// Releases an order's reservations alone, in a transaction of its own, to completion.
#[cfg(test)]
pub(crate) fn release_stock(
    store: &mut Store,
    now: Tick,
    command: ReleaseStock,
    implementation: StockImplementation,
) -> Result<StockReleaseEvent, RunError<StockError>> {
    let mut handler = ReleaseStockEffect::in_own_transaction(command, implementation);
    run_to_completion(&mut handler, store, now)
}
