//! P1, stock reservation: the seed's naive `qty = qty - n` beside its idempotent reservation
//! ledger, and the release of an order's reservations on cancellation.
//!
//! Both are [`EffectSteps`]: they run one SQL statement per step inside a transaction that
//! their caller owns, so that the inbox consumer (P4) can commit the effect together with its
//! inbox row, and so that the simulator can interleave two of them statement by statement.
//! [`InTransaction`] runs either in a transaction of its own; `reserve_stock` and
//! `release_stock` run one alone to completion, for tests.
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
//!
//! [`EffectSteps`]: crate::step::EffectSteps
//! [`InTransaction`]: crate::step::InTransaction

mod release;
mod reserve;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub(crate) use release::{ReleaseStock, ReleaseStockEffect, StockReleaseEvent};
pub(crate) use reserve::StockReservationEvent;
pub use reserve::{ReserveStock, ReserveStockEffect};

use crate::ids::{OrderId, Sku};
use crate::step::Step;
use crate::store::{OrderLine, StoreError};
#[cfg(test)]
pub(crate) use release::{ReleasedStock, release_stock};
#[cfg(test)]
pub(crate) use reserve::reserve_stock;

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
pub(crate) fn check_order_lines(lines: &[OrderLine]) -> Result<Vec<OrderLine>, OrderLinesError> {
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

#[cfg(test)]
mod tests;
