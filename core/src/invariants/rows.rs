//! I1-I3, the invariants judged on the committed rows alone: stock is conserved, at most one
//! reservation effect per order line, an order is charged at most once.
//!
//! Each check is a loop over one group at a time (a sku, a reservation, an order), and the
//! group's verdict is a function of its own rows alone: the full checks here and the
//! incremental checker ([`super::Incremental`]) call the same per-group functions, so both find
//! the same violations in the same order. A group's row references and sentences are built
//! only once it is known to be violated.

use std::collections::{BTreeMap, BTreeSet};

use super::{Finding, InvariantId, RowRef, Violation};
use crate::ids::{OrderId, Sku};
use crate::store::{ChargeRow, OrderRow, OrderStatus, ReservationRow, StockRow, Tables};

/// I1: for every sku, `on_hand_qty == available_qty + sum(reservations.qty)`, and
/// `available_qty >= 0`. A reservation of a sku that has no stock row is stock created from
/// nothing, and is reported too.
pub(crate) fn check_i1_stock_conserved(tables: &Tables) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut reservations_by_sku: BTreeMap<&Sku, Vec<&ReservationRow>> = BTreeMap::new();
    for reservation in tables.reservations.values() {
        reservations_by_sku.entry(&reservation.sku).or_default().push(reservation);
    }
    for stock in tables.stock.values() {
        let reservations = reservations_by_sku.remove(&stock.sku).unwrap_or_default();
        i1_stock(stock, &reservations, &mut violations);
    }
    for (sku, reservations) in reservations_by_sku {
        i1_reserved_without_stock(sku, &reservations, &mut violations);
    }
    violations
}

/// I1 for one stock row and the reservations of its sku (in key order).
pub(super) fn i1_stock(
    stock: &StockRow,
    reservations: &[&ReservationRow],
    violations: &mut Vec<Violation>,
) {
    let reserved_qty = sum_reserved_qty(reservations);
    let accounted_qty = i128::from(stock.available_qty).saturating_add(reserved_qty);
    if i128::from(stock.on_hand_qty) != accounted_qty {
        let mut rows = vec![RowRef::to_row(stock)];
        rows.extend(reservations.iter().map(|row| RowRef::to_row(*row)));
        violations.push(Violation::new(
            InvariantId::I1,
            rows,
            Finding::StockNotConserved {
                sku: stock.sku.clone(),
                on_hand: stock.on_hand_qty,
                available: stock.available_qty,
                reserved: reserved_qty,
                accounted: accounted_qty,
            },
        ));
    }
    if stock.available_qty < 0 {
        violations.push(Violation::new(
            InvariantId::I1,
            vec![RowRef::to_row(stock)],
            Finding::AvailableBelowZero { sku: stock.sku.clone(), available: stock.available_qty },
        ));
    }
}

/// I1 for the reservations (in key order) of a sku that has no stock row.
pub(super) fn i1_reserved_without_stock(
    sku: &Sku,
    reservations: &[&ReservationRow],
    violations: &mut Vec<Violation>,
) {
    let reserved_qty = sum_reserved_qty(reservations);
    if reserved_qty != 0 {
        violations.push(Violation::new(
            InvariantId::I1,
            reservations.iter().map(|row| RowRef::to_row(*row)).collect(),
            Finding::ReservedWithoutStock { sku: sku.clone(), reserved: reserved_qty },
        ));
    }
}

fn sum_reserved_qty(reservations: &[&ReservationRow]) -> i128 {
    reservations.iter().fold(0i128, |sum, row| sum.saturating_add(i128::from(row.qty)))
}

/// I2: at most one reservation effect per (order, sku). A reservation holds at most what the
/// order's lines of its sku ask for (the naive twin adds the line again on every duplicate
/// delivery, so a duplicate shows as twice the line), never less than zero (a row released in
/// place to zero is fine), and only for an order that exists and has a line of that sku.
pub(crate) fn check_i2_one_reservation_per_order_line(tables: &Tables) -> Vec<Violation> {
    let mut violations = Vec::new();
    for reservation in tables.reservations.values() {
        i2_reservation(reservation, tables.orders.get(&reservation.order_id), &mut violations);
    }
    violations
}

/// I2 for one reservation and its order, if the order exists.
pub(super) fn i2_reservation(
    reservation: &ReservationRow,
    order: Option<&OrderRow>,
    violations: &mut Vec<Violation>,
) {
    let ReservationRow { order_id, sku, qty } = reservation;
    let Some(order) = order else {
        violations.push(Violation::new(
            InvariantId::I2,
            vec![RowRef::to_row(reservation)],
            Finding::ReservedForMissingOrder { order: *order_id, sku: sku.clone(), qty: *qty },
        ));
        return;
    };
    let rows = || vec![RowRef::to_row(reservation), RowRef::to_row(order)];
    let (sku_lines, ordered_qty) = order
        .lines
        .iter()
        .filter(|line| line.sku == *sku)
        .fold((0usize, 0i128), |(count, sum), line| (count + 1, sum + i128::from(line.qty)));
    let reserved_qty = i128::from(*qty);
    if sku_lines == 0 {
        violations.push(Violation::new(
            InvariantId::I2,
            rows(),
            Finding::ReservedWithoutLine { order: *order_id, sku: sku.clone(), qty: *qty },
        ));
    } else if reserved_qty > ordered_qty {
        let runs = match reserved_qty.checked_rem(ordered_qty) {
            Some(0) => Some(reserved_qty.checked_div(ordered_qty).unwrap_or(0)),
            _ => None,
        };
        violations.push(Violation::new(
            InvariantId::I2,
            rows(),
            Finding::ReservedTooMuch {
                order: *order_id,
                sku: sku.clone(),
                qty: *qty,
                ordered: ordered_qty,
                runs,
            },
        ));
    } else if reserved_qty < 0 {
        violations.push(Violation::new(
            InvariantId::I2,
            rows(),
            Finding::ReservedNegative { order: *order_id, sku: sku.clone(), qty: *qty },
        ));
    }
}

/// I3: an order is charged at most once, a charge is for an order that exists, and an order
/// whose status carries a payment id (`Paid`, `Shipped`, `Cancelled` after payment) has exactly
/// one charge, for that payment id. A `Placed` order, or one cancelled before payment, may have
/// no charge; one charge of it is not reported (the provider may charge before the status
/// changes), two are.
pub(crate) fn check_i3_charged_at_most_once(tables: &Tables) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut charges_by_order: BTreeMap<OrderId, Vec<&ChargeRow>> = BTreeMap::new();
    for charge in tables.charges.values() {
        charges_by_order.entry(charge.order_id).or_default().push(charge);
    }
    let order_ids: BTreeSet<OrderId> =
        tables.orders.keys().chain(charges_by_order.keys()).copied().collect();
    for order_id in order_ids {
        let charges = charges_by_order.get(&order_id).map(Vec::as_slice).unwrap_or_default();
        i3_order(order_id, tables.orders.get(&order_id), charges, &mut violations);
    }
    violations
}

/// I3 for one order id: the order, if it exists, and its charges (in charge id order).
pub(super) fn i3_order(
    order_id: OrderId,
    order: Option<&OrderRow>,
    charges: &[&ChargeRow],
    violations: &mut Vec<Violation>,
) {
    let rows = || {
        let mut rows: Vec<RowRef> = order.map(RowRef::to_row).into_iter().collect();
        rows.extend(charges.iter().map(|charge| RowRef::to_row(*charge)));
        rows
    };
    let charge_list = || -> Vec<_> {
        charges.iter().map(|charge| (charge.id, charge.payment_id.clone())).collect()
    };
    if charges.len() > 1 {
        violations.push(Violation::new(
            InvariantId::I3,
            rows(),
            Finding::ChargedAgain { order: order_id, charges: charge_list() },
        ));
    }
    let Some(order) = order else {
        // No order and no charge: nothing to judge (the full check never asks).
        if !charges.is_empty() {
            violations.push(Violation::new(
                InvariantId::I3,
                rows(),
                Finding::ChargedMissingOrder { order: order_id, charges: charge_list() },
            ));
        }
        return;
    };
    let status_payment_id = match &order.status {
        OrderStatus::Paid { payment_id } | OrderStatus::Shipped { payment_id } => payment_id,
        OrderStatus::Cancelled { payment_id: Some(payment_id) } => payment_id,
        OrderStatus::Placed | OrderStatus::Cancelled { payment_id: None } => return,
    };
    let status = order.status.name();
    match charges {
        [] => violations.push(Violation::new(
            InvariantId::I3,
            rows(),
            Finding::NeverCharged { order: order_id, status, payment: status_payment_id.clone() },
        )),
        [charge] if charge.payment_id != *status_payment_id => violations.push(Violation::new(
            InvariantId::I3,
            rows(),
            Finding::ChargeForOtherPayment {
                order: order_id,
                status,
                payment: status_payment_id.clone(),
                charge: charge.id,
                charge_payment: charge.payment_id.clone(),
            },
        )),
        // One matching charge is right; two or more were reported above.
        _ => {}
    }
}
