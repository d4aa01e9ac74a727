//! I1-I3, the invariants judged on the committed rows alone: stock is conserved, at most one
//! reservation effect per order line, an order is charged at most once.

use std::collections::{BTreeMap, BTreeSet};

use super::{InvariantId, RowRef, Violation, times};
use crate::ids::{OrderId, Sku};
use crate::store::{ChargeRow, OrderStatus, ReservationRow, Tables};

/// I1: for every sku, `on_hand_qty == available_qty + sum(reservations.qty)`, and
/// `available_qty >= 0`. A reservation of a sku that has no stock row is stock created from
/// nothing, and is reported too.
pub fn check_i1_stock_conserved(tables: &Tables) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut reservations_by_sku: BTreeMap<&Sku, Vec<&ReservationRow>> = BTreeMap::new();
    for reservation in tables.reservations.values() {
        reservations_by_sku.entry(&reservation.sku).or_default().push(reservation);
    }
    for stock in tables.stock.values() {
        let reservations = reservations_by_sku.remove(&stock.sku).unwrap_or_default();
        let reserved_qty = sum_reserved_qty(&reservations);
        let accounted_qty = i128::from(stock.available_qty).saturating_add(reserved_qty);
        if i128::from(stock.on_hand_qty) != accounted_qty {
            let mut rows = vec![RowRef::to_row(stock)];
            rows.extend(reservations.iter().map(|row| RowRef::to_row(*row)));
            violations.push(Violation {
                invariant: InvariantId::I1,
                rows,
                sentence: format!(
                    "Stock of {} is not conserved: {} on hand, but {} available and {} reserved \
                     ({}).",
                    stock.sku, stock.on_hand_qty, stock.available_qty, reserved_qty, accounted_qty
                ),
            });
        }
        if stock.available_qty < 0 {
            violations.push(Violation {
                invariant: InvariantId::I1,
                rows: vec![RowRef::to_row(stock)],
                sentence: format!(
                    "Available stock of {} is {}: it must never go below zero.",
                    stock.sku, stock.available_qty
                ),
            });
        }
    }
    for (sku, reservations) in reservations_by_sku {
        let reserved_qty = sum_reserved_qty(&reservations);
        if reserved_qty != 0 {
            violations.push(Violation {
                invariant: InvariantId::I1,
                rows: reservations.iter().map(|row| RowRef::to_row(*row)).collect(),
                sentence: format!(
                    "Stock of {sku} is not conserved: {reserved_qty} reserved, but {sku} has no \
                     stock row (0 on hand)."
                ),
            });
        }
    }
    violations
}

fn sum_reserved_qty(reservations: &[&ReservationRow]) -> i128 {
    reservations.iter().fold(0i128, |sum, row| sum.saturating_add(i128::from(row.qty)))
}

/// I2: at most one reservation effect per (order, sku). A reservation holds at most what the
/// order's lines of its sku ask for (the naive twin adds the line again on every duplicate
/// delivery, so a duplicate shows as twice the line), never less than zero (a row released in
/// place to zero is fine), and only for an order that exists and has a line of that sku.
pub fn check_i2_one_reservation_per_order_line(tables: &Tables) -> Vec<Violation> {
    let mut violations = Vec::new();
    for reservation in tables.reservations.values() {
        let ReservationRow { order_id, sku, qty } = reservation;
        let Some(order) = tables.orders.get(order_id) else {
            violations.push(Violation {
                invariant: InvariantId::I2,
                rows: vec![RowRef::to_row(reservation)],
                sentence: format!(
                    "Order {order_id} has {qty} {sku} reserved, but no such order exists."
                ),
            });
            continue;
        };
        let rows = vec![RowRef::to_row(reservation), RowRef::to_row(order)];
        let sku_lines = order.lines.iter().filter(|line| line.sku == *sku);
        let ordered_qty = sku_lines.clone().fold(0i128, |sum, line| sum + i128::from(line.qty));
        let reserved_qty = i128::from(*qty);
        if sku_lines.count() == 0 {
            violations.push(Violation {
                invariant: InvariantId::I2,
                rows,
                sentence: format!(
                    "Order {order_id} has {qty} {sku} reserved, but it has no {sku} line."
                ),
            });
        } else if reserved_qty > ordered_qty {
            let how_often = match reserved_qty.checked_rem(ordered_qty) {
                Some(0) => {
                    let runs = reserved_qty.checked_div(ordered_qty).unwrap_or(0);
                    format!("the reservation effect ran {}", times(runs))
                }
                _ => "more than one reservation effect ran".to_owned(),
            };
            violations.push(Violation {
                invariant: InvariantId::I2,
                rows,
                sentence: format!(
                    "Order {order_id} has {qty} {sku} reserved, but it asks for only \
                     {ordered_qty}: {how_often}."
                ),
            });
        } else if reserved_qty < 0 {
            violations.push(Violation {
                invariant: InvariantId::I2,
                rows,
                sentence: format!(
                    "Order {order_id} has {qty} {sku} reserved: a reservation is never negative, \
                     so more was released than reserved."
                ),
            });
        }
    }
    violations
}

/// I3: an order is charged at most once, a charge is for an order that exists, and an order
/// whose status carries a payment id (`Paid`, `Shipped`, `Cancelled` after payment) has exactly
/// one charge, for that payment id. A `Placed` order, or one cancelled before payment, may have
/// no charge; one charge of it is not reported (the provider may charge before the status
/// changes), two are.
pub fn check_i3_charged_at_most_once(tables: &Tables) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut charges_by_order: BTreeMap<OrderId, Vec<&ChargeRow>> = BTreeMap::new();
    for charge in tables.charges.values() {
        charges_by_order.entry(charge.order_id).or_default().push(charge);
    }
    let order_ids: BTreeSet<OrderId> =
        tables.orders.keys().chain(charges_by_order.keys()).copied().collect();
    for order_id in order_ids {
        let charges = charges_by_order.get(&order_id).map(Vec::as_slice).unwrap_or_default();
        let order = tables.orders.get(&order_id);
        let mut rows: Vec<RowRef> = order.map(RowRef::to_row).into_iter().collect();
        rows.extend(charges.iter().map(|charge| RowRef::to_row(*charge)));
        let charge_list = charges
            .iter()
            .map(|charge| format!("{} (payment {})", charge.id, charge.payment_id))
            .collect::<Vec<_>>()
            .join(", ");
        if charges.len() > 1 {
            violations.push(Violation {
                invariant: InvariantId::I3,
                rows: rows.clone(),
                sentence: format!(
                    "Order {order_id} was charged {}: {charge_list}.",
                    times(charges.len())
                ),
            });
        }
        let Some(order) = order else {
            violations.push(Violation {
                invariant: InvariantId::I3,
                rows,
                sentence: format!(
                    "Order {order_id} does not exist, but it was charged: {charge_list}."
                ),
            });
            continue;
        };
        let status_payment_id = match &order.status {
            OrderStatus::Paid { payment_id } | OrderStatus::Shipped { payment_id } => payment_id,
            OrderStatus::Cancelled { payment_id: Some(payment_id) } => payment_id,
            OrderStatus::Placed | OrderStatus::Cancelled { payment_id: None } => continue,
        };
        let status = order.status.name();
        match charges {
            [] => violations.push(Violation {
                invariant: InvariantId::I3,
                rows,
                sentence: format!(
                    "Order {order_id} is {status} with payment {status_payment_id}, but it was \
                     never charged."
                ),
            }),
            [charge] if charge.payment_id != *status_payment_id => violations.push(Violation {
                invariant: InvariantId::I3,
                rows,
                sentence: format!(
                    "Order {order_id} is {status} with payment {status_payment_id}, but its \
                     charge {} is for payment {}.",
                    charge.id, charge.payment_id
                ),
            }),
            // One matching charge is right; two or more were reported above.
            _ => {}
        }
    }
    violations
}
