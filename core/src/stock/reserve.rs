//! The reservation of an order's stock as a step machine ([`ReserveStockEffect`]): the naive
//! decrement, or the idempotent ledger's `INSERT ... ON CONFLICT DO NOTHING` and the decrement
//! only for a new row, line by line in sku order.

use serde::{Deserialize, Serialize};

use super::{StockError, StockImplementation, blocked_or_error, check_order_lines, qty_i64};
use crate::ids::{OrderId, Tick, TxId};
use crate::sql::statements::{self, OnConflict};
use crate::step::{EffectSteps, Step};
#[cfg(test)]
use crate::step::{InTransaction, RunError, run_to_completion};
use crate::store::{Inserted, OrderLine, ReservationRow, StockRow, Store};

/// The command: reserve the stock of an order's lines (what a consumer of `OrderPlaced` does).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReserveStock {
    /// The order.
    pub order_id: OrderId,
    /// Its lines, as the `OrderPlaced` message carries them.
    pub lines: Vec<OrderLine>,
}

/// What a reservation did.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "event")]
pub enum StockReservationEvent {
    /// Every line was reserved and its stock taken now. The naive twin always reports this,
    /// duplicate or not: it cannot tell.
    StockReserved {
        /// The order.
        order_id: OrderId,
        /// The lines reserved, in sku order.
        lines: Vec<OrderLine>,
    },
    /// Every line was reserved already: a duplicate delivery, ignored without taking stock.
    ReservationAlreadyPresent {
        /// The order.
        order_id: OrderId,
        /// The lines found reserved, in sku order.
        lines: Vec<OrderLine>,
    },
    /// Some lines were reserved now, the others were reserved already (for example an order
    /// delivered again with a line added). Only the new lines took stock.
    StockPartlyReserved {
        /// The order.
        order_id: OrderId,
        /// The lines reserved now, in sku order.
        reserved_lines: Vec<OrderLine>,
        /// The lines found reserved, in sku order.
        already_present_lines: Vec<OrderLine>,
    },
}

impl StockReservationEvent {
    /// Whether some line's `INSERT ... ON CONFLICT DO NOTHING` met the reservation already
    /// there (0 rows) and so took no stock for it: a repeat that the ledger absorbed. Never
    /// true for the naive twin, which cannot tell.
    pub(crate) fn found_existing_reservation(&self) -> bool {
        match self {
            StockReservationEvent::StockReserved { .. } => false,
            StockReservationEvent::ReservationAlreadyPresent { .. }
            | StockReservationEvent::StockPartlyReserved { .. } => true,
        }
    }
}

/// The next statement of a [`ReserveStockEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum ReserveStockPosition {
    /// Naive: `UPDATE stock SET available_qty = available_qty - n` for this line.
    TakeStock {
        /// Index into the sorted lines.
        line_index: usize,
    },
    /// Naive: insert the reservation or add `n` to it (an upsert) for this line.
    UpsertReservation {
        /// Index into the sorted lines.
        line_index: usize,
    },
    /// Idempotent: `INSERT INTO reservations ... ON CONFLICT (order_id, sku) DO NOTHING`.
    InsertReservation {
        /// Index into the sorted lines.
        line_index: usize,
    },
    /// Idempotent: the reservation was inserted, so take its stock if enough is available.
    TakeStockIfAvailable {
        /// Index into the sorted lines.
        line_index: usize,
    },
    /// Every statement has run.
    Done,
}

/// The reservation of an order's stock, one statement per step, inside its caller's
/// transaction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReserveStockEffect {
    order_id: OrderId,
    /// Checked and sorted by sku: never empty.
    lines: Vec<OrderLine>,
    implementation: StockImplementation,
    position: ReserveStockPosition,
    reserved_lines: Vec<OrderLine>,
    already_present_lines: Vec<OrderLine>,
}

impl ReserveStockEffect {
    /// The effect for `command`; rejects bad lines (none, zero quantity, a sku twice) before
    /// any statement runs.
    pub fn new(
        command: ReserveStock,
        implementation: StockImplementation,
    ) -> Result<ReserveStockEffect, StockError> {
        let order_id = command.order_id;
        let lines = check_order_lines(&command.lines)
            .map_err(|error| StockError::InvalidLines { order_id, error })?;
        let position = match implementation {
            StockImplementation::Naive => ReserveStockPosition::TakeStock { line_index: 0 },
            StockImplementation::Idempotent => {
                ReserveStockPosition::InsertReservation { line_index: 0 }
            }
        };
        Ok(ReserveStockEffect {
            order_id,
            lines,
            implementation,
            position,
            reserved_lines: Vec::new(),
            already_present_lines: Vec::new(),
        })
    }

    /// The same, wrapped to run in a transaction of its own (`BEGIN`, the effect, `COMMIT`).
    #[cfg(test)]
    pub(crate) fn in_own_transaction(
        command: ReserveStock,
        implementation: StockImplementation,
    ) -> Result<InTransaction<ReserveStockEffect>, StockError> {
        Ok(InTransaction::new(ReserveStockEffect::new(command, implementation)?))
    }

    fn line(&self, line_index: usize) -> Result<&OrderLine, StockError> {
        // Positions only ever hold indexes of `lines`; a miss is a bug, reported, not a panic.
        self.lines.get(line_index).ok_or(StockError::EffectAlreadyDone)
    }

    /// Moves to the first statement of the next line, or finishes with the event.
    fn next_line(&mut self, line_index: usize) -> Step<StockReservationEvent> {
        let next_index = line_index + 1;
        if next_index < self.lines.len() {
            self.position = match self.implementation {
                StockImplementation::Naive => {
                    ReserveStockPosition::TakeStock { line_index: next_index }
                }
                StockImplementation::Idempotent => {
                    ReserveStockPosition::InsertReservation { line_index: next_index }
                }
            };
            return Step::Continue;
        }
        self.position = ReserveStockPosition::Done;
        let order_id = self.order_id;
        let reserved_lines = std::mem::take(&mut self.reserved_lines);
        let already_present_lines = std::mem::take(&mut self.already_present_lines);
        Step::Done(if already_present_lines.is_empty() {
            StockReservationEvent::StockReserved { order_id, lines: reserved_lines }
        } else if reserved_lines.is_empty() {
            StockReservationEvent::ReservationAlreadyPresent {
                order_id,
                lines: already_present_lines,
            }
        } else {
            StockReservationEvent::StockPartlyReserved {
                order_id,
                reserved_lines,
                already_present_lines,
            }
        })
    }

    /// `UPDATE stock SET available_qty = available_qty - n WHERE sku = $1`, unconditionally.
    fn take_stock(&mut self, store: &mut Store, tx: TxId, line_index: usize) -> StepResult {
        let line = self.line(line_index)?.clone();
        match store.update::<StockRow>(tx, &line.sku, |row| {
            row.available_qty = row.available_qty.saturating_sub(qty_i64(line.qty));
        }) {
            Err(error) => blocked_or_error(error),
            Ok(None) => Err(StockError::UnknownSku { sku: line.sku }),
            Ok(Some(_)) => {
                self.position = ReserveStockPosition::UpsertReservation { line_index };
                Ok(Step::Continue)
            }
        }
    }

    /// `INSERT INTO reservations ... ON CONFLICT (order_id, sku) DO UPDATE SET qty = qty + n`.
    fn upsert_reservation(&mut self, store: &mut Store, tx: TxId, line_index: usize) -> StepResult {
        let line = self.line(line_index)?.clone();
        let key = (self.order_id, line.sku.clone());
        let (order_id, sku) = key;
        let row = ReservationRow { order_id, sku, qty: qty_i64(line.qty) };
        if let Err(error) = store.insert_on_conflict_do_update(tx, row, |row| {
            row.qty = row.qty.saturating_add(qty_i64(line.qty));
        }) {
            return blocked_or_error(error);
        }
        self.reserved_lines.push(line);
        Ok(self.next_line(line_index))
    }

    /// `INSERT INTO reservations ... ON CONFLICT (order_id, sku) DO NOTHING`.
    fn insert_reservation(&mut self, store: &mut Store, tx: TxId, line_index: usize) -> StepResult {
        let line = self.line(line_index)?.clone();
        let row = ReservationRow {
            order_id: self.order_id,
            sku: line.sku.clone(),
            qty: qty_i64(line.qty),
        };
        match store.insert_on_conflict_do_nothing(tx, row) {
            Err(error) => blocked_or_error(error),
            Ok(Inserted::Inserted) => {
                self.position = ReserveStockPosition::TakeStockIfAvailable { line_index };
                Ok(Step::Continue)
            }
            Ok(Inserted::AlreadyPresent) => {
                self.already_present_lines.push(line);
                Ok(self.next_line(line_index))
            }
        }
    }

    /// `UPDATE stock SET available_qty = available_qty - n WHERE sku = $1 AND available_qty >= n`;
    /// zero rows is an error.
    fn take_stock_if_available(
        &mut self,
        store: &mut Store,
        tx: TxId,
        line_index: usize,
    ) -> StepResult {
        let line = self.line(line_index)?.clone();
        let requested = qty_i64(line.qty);
        match store.update_where::<StockRow>(
            tx,
            &line.sku,
            |row| row.available_qty >= requested,
            |row| row.available_qty -= requested,
        ) {
            Err(error) => blocked_or_error(error),
            Ok(Some(_)) => {
                self.reserved_lines.push(line);
                Ok(self.next_line(line_index))
            }
            // Zero rows: the error names what the row held, as a handler would read it before
            // reporting (the read takes no lock and changes nothing; the caller rolls back).
            Ok(None) => match store.get::<StockRow>(tx, &line.sku)? {
                None => Err(StockError::UnknownSku { sku: line.sku }),
                Some(row) => Err(StockError::InsufficientStock {
                    sku: line.sku,
                    requested: line.qty,
                    available: row.available_qty,
                }),
            },
        }
    }
}

type StepResult = Result<Step<StockReservationEvent>, StockError>;

impl EffectSteps for ReserveStockEffect {
    type Output = StockReservationEvent;
    type Error = StockError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        let line = match self.position {
            ReserveStockPosition::TakeStock { line_index }
            | ReserveStockPosition::UpsertReservation { line_index }
            | ReserveStockPosition::InsertReservation { line_index }
            | ReserveStockPosition::TakeStockIfAvailable { line_index } => {
                self.lines.get(line_index)?
            }
            ReserveStockPosition::Done => return None,
        };
        let reservation = ReservationRow {
            order_id: self.order_id,
            sku: line.sku.clone(),
            qty: qty_i64(line.qty),
        };
        Some(match self.position {
            ReserveStockPosition::TakeStock { .. } => statements::take_stock(&line.sku, line.qty),
            ReserveStockPosition::UpsertReservation { .. } => statements::insert(
                &reservation,
                OnConflict::DoUpdate(statements::ADD_TO_RESERVATION.to_owned()),
            ),
            ReserveStockPosition::InsertReservation { .. } => {
                statements::insert(&reservation, OnConflict::DoNothing)
            }
            ReserveStockPosition::TakeStockIfAvailable { .. } => {
                statements::take_stock_if_available(&line.sku, line.qty)
            }
            ReserveStockPosition::Done => return None,
        })
    }

    fn step(&mut self, store: &mut Store, tx: TxId, _now: Tick) -> StepResult {
        match self.position {
            ReserveStockPosition::TakeStock { line_index } => {
                self.take_stock(store, tx, line_index)
            }
            ReserveStockPosition::UpsertReservation { line_index } => {
                self.upsert_reservation(store, tx, line_index)
            }
            ReserveStockPosition::InsertReservation { line_index } => {
                self.insert_reservation(store, tx, line_index)
            }
            ReserveStockPosition::TakeStockIfAvailable { line_index } => {
                self.take_stock_if_available(store, tx, line_index)
            }
            ReserveStockPosition::Done => Err(StockError::EffectAlreadyDone),
        }
    }
}

/// Reserves an order's stock alone, in a transaction of its own, to completion: for tests and
/// code that needs no interleaving. On an error nothing is reserved.
#[cfg(test)]
pub(crate) fn reserve_stock(
    store: &mut Store,
    now: Tick,
    command: ReserveStock,
    implementation: StockImplementation,
) -> Result<StockReservationEvent, RunError<StockError>> {
    let mut handler = ReserveStockEffect::in_own_transaction(command, implementation)
        .map_err(RunError::Failed)?;
    run_to_completion(&mut handler, store, now)
}
