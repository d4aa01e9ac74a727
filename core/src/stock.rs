//! P1, stock reservation: the seed's naive `qty = qty - n` beside its idempotent reservation
//! ledger, and the release of an order's reservations on cancellation.
//!
//! Both are [`EffectSteps`]: they run one SQL statement per step inside a transaction that
//! their caller owns, so that the inbox consumer (P4) can commit the effect together with its
//! inbox row, and so that the simulator can interleave two of them statement by statement.
//! [`InTransaction`] runs either in a transaction of its own; [`reserve_stock`] and
//! [`release_stock`] run one alone to completion, for tests.
//!
//! - The naive twin ([`StockImplementation::Naive`]) takes stock on every delivery and adds the
//!   quantity to the `(order_id, sku)` reservation, so a duplicate shows twice: in `stock` and
//!   as a reservation larger than the order line. It never checks what is available, so it can
//!   take `available_qty` below zero (invariant I1 sees that).
//! - The idempotent ledger ([`StockImplementation::Idempotent`]) inserts the reservation with
//!   `ON CONFLICT (order_id, sku) DO NOTHING` and takes stock only if the row is new. Too little
//!   stock is a typed error that changes nothing once the caller rolls back.
//!
//! Lines are handled in sku order, so every effect takes its row locks in one global order
//! (reservation, then stock, sku by sku) and two effects never wait for each other in a cycle.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{OrderId, Sku, Tick, TxId};
use crate::sql::statements::{self, OnConflict};
use crate::step::{EffectSteps, InTransaction, RunError, Step, run_to_completion};
use crate::store::{Inserted, OrderLine, ReservationRow, StockRow, Store, StoreError};

/// Which version of P1 runs: the seed's naive decrement or the idempotent reservation ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockImplementation {
    /// `UPDATE stock SET available_qty = available_qty - n` on every delivery, and the quantity
    /// added to the reservation; the release gives the order's line quantities back every time.
    Naive,
    /// Insert the reservation `ON CONFLICT DO NOTHING`, take stock only if it was inserted; the
    /// release deletes the reservations and gives back exactly what they held.
    Idempotent,
}

/// What is wrong with the lines of an order. Checked before any statement runs, so a rejected
/// order writes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum OrderLinesError {
    /// The order has no lines at all.
    #[error("the order has no lines")]
    NoLines,
    /// A line orders zero items.
    #[error("line {line_index} orders zero of {sku}")]
    ZeroQuantity {
        /// The line's position in the order, from 0.
        line_index: usize,
        /// The sku of that line.
        sku: Sku,
    },
    /// Two lines order the same sku; the reservation ledger holds one row per `(order, sku)`,
    /// so the client must merge them.
    #[error("lines {first_line_index} and {second_line_index} both order {sku}")]
    DuplicateSku {
        /// The sku ordered twice.
        sku: Sku,
        /// The first line that orders it.
        first_line_index: usize,
        /// The later line that orders it again.
        second_line_index: usize,
    },
}

/// Checks the lines of an order (at least one line, no zero quantity, no sku twice) and returns
/// them sorted by sku, the order in which the stock effects take their row locks.
pub fn check_order_lines(lines: &[OrderLine]) -> Result<Vec<OrderLine>, OrderLinesError> {
    if lines.is_empty() {
        return Err(OrderLinesError::NoLines);
    }
    let mut first_index_of_sku: std::collections::BTreeMap<&Sku, usize> =
        std::collections::BTreeMap::new();
    for (line_index, line) in lines.iter().enumerate() {
        if line.qty == 0 {
            return Err(OrderLinesError::ZeroQuantity { line_index, sku: line.sku.clone() });
        }
        if let Some(&first_line_index) = first_index_of_sku.get(&line.sku) {
            return Err(OrderLinesError::DuplicateSku {
                sku: line.sku.clone(),
                first_line_index,
                second_line_index: line_index,
            });
        }
        first_index_of_sku.insert(&line.sku, line_index);
    }
    let mut sorted = lines.to_vec();
    sorted.sort();
    Ok(sorted)
}

/// What can go wrong in a stock effect. On any error the caller rolls its transaction back, so
/// no line of the order stays reserved and no stock stays taken.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum StockError {
    /// The order's lines were rejected before any statement ran.
    #[error("order {order_id}: {error}")]
    InvalidLines {
        /// The order.
        order_id: OrderId,
        /// What is wrong with its lines.
        #[source]
        error: OrderLinesError,
    },
    /// No `stock` row has this sku (the `UPDATE stock` matched zero rows).
    #[error("no stock row for sku {sku}")]
    UnknownSku {
        /// The sku.
        sku: Sku,
    },
    /// Fewer items are available than the line asks for; nothing was taken.
    #[error("sku {sku}: {requested} requested, only {available} available")]
    InsufficientStock {
        /// The sku.
        sku: Sku,
        /// What the order line asks for.
        requested: u32,
        /// What was available when the statement ran.
        available: i64,
    },
    /// A store operation failed (not a row lock wait: that is [`Step::Blocked`]).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The effect was stepped again after it reported [`Step::Done`]: a bug of the caller,
    /// reported as a value.
    #[error("the stock effect was stepped after it was done")]
    EffectAlreadyDone,
}

fn blocked_or_error<T>(error: StoreError) -> Result<Step<T>, StockError> {
    match error {
        StoreError::Blocked(wait) => Ok(Step::Blocked(wait)),
        other => Err(StockError::Store(other)),
    }
}

fn qty_i64(qty: u32) -> i64 {
    i64::from(qty)
}

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

/// The next statement of a [`ReserveStockEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReserveStockPosition {
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
    pub fn in_own_transaction(
        command: ReserveStock,
        implementation: StockImplementation,
    ) -> Result<InTransaction<ReserveStockEffect>, StockError> {
        Ok(InTransaction::new(ReserveStockEffect::new(command, implementation)?))
    }

    /// The order.
    pub fn order_id(&self) -> OrderId {
        self.order_id
    }

    /// Which version runs.
    pub fn implementation(&self) -> StockImplementation {
        self.implementation
    }

    /// The next statement.
    pub fn position(&self) -> ReserveStockPosition {
        self.position
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
pub fn reserve_stock(
    store: &mut Store,
    now: Tick,
    command: ReserveStock,
    implementation: StockImplementation,
) -> Result<StockReservationEvent, RunError<StockError>> {
    let mut handler = ReserveStockEffect::in_own_transaction(command, implementation)
        .map_err(RunError::Failed)?;
    run_to_completion(&mut handler, store, now)
}

/// The command: give an order's reserved stock back (what cancellation does).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReleaseStock {
    /// The order.
    pub order_id: OrderId,
    /// The order's lines. Only the naive twin reads them: it gives these quantities back every
    /// time. The idempotent release gives back what the order's reservation rows hold, so it
    /// may be given no lines (a consumer of `OrderCancelled`, which carries none).
    pub lines: Vec<OrderLine>,
}

/// Stock given back for one sku of an order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ReleasedStock {
    /// The sku.
    pub sku: Sku,
    /// How many went back to `available_qty`.
    pub qty: i64,
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
pub enum ReleaseStockPosition {
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
pub struct ReleaseStockEffect {
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
    pub fn new(command: ReleaseStock, implementation: StockImplementation) -> ReleaseStockEffect {
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
    pub fn in_own_transaction(
        command: ReleaseStock,
        implementation: StockImplementation,
    ) -> InTransaction<ReleaseStockEffect> {
        InTransaction::new(ReleaseStockEffect::new(command, implementation))
    }

    /// The order.
    pub fn order_id(&self) -> OrderId {
        self.order_id
    }

    /// Which version runs.
    pub fn implementation(&self) -> StockImplementation {
        self.implementation
    }

    /// The next statement.
    pub fn position(&self) -> &ReleaseStockPosition {
        &self.position
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
            .scan::<ReservationRow>(tx)?
            .into_iter()
            .filter(|row| row.order_id == order_id)
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
pub fn release_stock(
    store: &mut Store,
    now: Tick,
    command: ReleaseStock,
    implementation: StockImplementation,
) -> Result<StockReleaseEvent, RunError<StockError>> {
    let mut handler = ReleaseStockEffect::in_own_transaction(command, implementation);
    run_to_completion(&mut handler, store, now)
}

#[cfg(test)]
mod tests;
