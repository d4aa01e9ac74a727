//! The invariants I1-I7 of DESIGN.md, as pure functions over the store's committed tables and
//! the [`History`] of what happened outside the store.
//!
//! Each check returns the [`Violation`]s it finds, each naming its invariant, the rows involved
//! and a sentence a learner can read with the concrete values in it. The checks never panic and
//! never fail, whatever the input: sums are taken in `i128` (no overflow for any number of `i64`
//! rows), and nothing is indexed. They assert in both directions where it makes sense: stock is
//! neither lost nor created, an inbox row has an effect and an effect has an inbox row, a paid
//! order has a charge and a charge has an order.
//!
//! The order of the violations is fixed: invariant by invariant, then by key (every map is a
//! `BTreeMap`), then by the order of the history. The simulator checks after every step and
//! stamps the step number on what it gets; nothing here knows about steps.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::history::{
    ApiResponse, HandlerRun, HandlerRunEnd, HandlerRunId, History, InboxUse, MessageEvent,
    RequestAttempt, ResponseOrigin,
};
use crate::ids::{ConsumerName, IdempotencyKey, MessageId, OrderId, Sku, Tick};
use crate::store::{
    ChargeRow, MessagePayload, OrderRow, OrderStatus, OutboxRow, ReservationRow, Row, TableName,
    Tables,
};

/// The name of one invariant of DESIGN.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum InvariantId {
    /// Stock is conserved.
    I1,
    /// At most one reservation effect per (order, sku).
    I2,
    /// An order is charged at most once.
    I3,
    /// Same key, same answer; one handler per key at a time.
    I4,
    /// An inbox row exists exactly when its effect was applied.
    I5,
    /// At quiescence every `OrderPlaced` was processed exactly once per consumer.
    I6,
    /// No duplicate made the API answer 5xx.
    I7,
}

impl InvariantId {
    /// Every invariant, in the order [`check_all`] checks them.
    pub const ALL: [InvariantId; 7] = [
        InvariantId::I1,
        InvariantId::I2,
        InvariantId::I3,
        InvariantId::I4,
        InvariantId::I5,
        InvariantId::I6,
        InvariantId::I7,
    ];

    /// A short title, for a badge on the page.
    pub fn title(self) -> &'static str {
        match self {
            InvariantId::I1 => "Stock is conserved",
            InvariantId::I2 => "One reservation per order line",
            InvariantId::I3 => "Charged at most once",
            InvariantId::I4 => "Same key, same answer",
            InvariantId::I5 => "Inbox row exactly when applied",
            InvariantId::I6 => "Each OrderPlaced processed once",
            InvariantId::I7 => "No 5xx for a duplicate",
        }
    }

    /// What the invariant says, in a sentence or two.
    pub fn description(self) -> &'static str {
        match self {
            InvariantId::I1 => {
                "For every sku, the stock on hand equals the stock available plus the sum of its \
                 reservations, and the stock available never goes below zero."
            }
            InvariantId::I2 => {
                "At most one reservation effect per (order, sku): a reservation never holds more \
                 than the order asks for, never less than zero, and only for an order that \
                 exists and has a line of that sku."
            }
            InvariantId::I3 => {
                "An order is charged at most once, every charge is for an order that exists, and \
                 an order with a payment (paid, shipped, or cancelled after payment) has exactly \
                 one charge, for that payment."
            }
            InvariantId::I4 => {
                "Every completed request with the same idempotency key got the same status and \
                 body, and a key's handler never ran twice while the key was held (by a lease, \
                 or by a run without a lease that had not ended)."
            }
            InvariantId::I5 => {
                "An inbox row exists exactly when its effect was applied: each inbox row has a \
                 committed effect that no purge has erased, each effect of a consumer with an \
                 inbox has its row unless retention purged it, and the inbox lets one effect \
                 through per row."
            }
            InvariantId::I6 => {
                "When no work is pending, every placed order has an OrderPlaced message, and \
                 every consumer of OrderPlaced processed each such message exactly once."
            }
            InvariantId::I7 => {
                "No duplicate request (a retry, a double submit) made the API answer with a \
                 5xx status."
            }
        }
    }

    /// Runs this invariant's check.
    pub fn check(
        self,
        tables: &Tables,
        history: &History,
        quiescence: &Quiescence,
    ) -> Vec<Violation> {
        match self {
            InvariantId::I1 => check_i1_stock_conserved(tables),
            InvariantId::I2 => check_i2_one_reservation_per_order_line(tables),
            InvariantId::I3 => check_i3_charged_at_most_once(tables),
            InvariantId::I4 => check_i4_same_key_same_answer(history),
            InvariantId::I5 => check_i5_inbox_row_exactly_when_applied(tables, history),
            InvariantId::I6 => check_i6_order_placed_processed_once(tables, history, quiescence),
            InvariantId::I7 => check_i7_no_server_error_for_a_duplicate(history),
        }
    }
}

impl fmt::Display for InvariantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A row that a violation involves: a row of a table, or a record of the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RowRef {
    /// A committed row of a table, by primary key (as JSON, as [`crate::store::RowChange`]
    /// names it, so the page can highlight it).
    Table {
        /// The table.
        table: TableName,
        /// The primary key, as JSON.
        key: serde_json::Value,
    },
    /// An answer of the API: its position in [`History::responses`].
    Response {
        /// The position.
        index: usize,
    },
    /// A handler run under a key.
    HandlerRun {
        /// Its id, its position in [`History::handler_runs`].
        run: HandlerRunId,
    },
    /// A message event: its position in [`History::message_events`].
    MessageEvent {
        /// The position.
        index: usize,
    },
}

impl RowRef {
    /// The reference of a committed row.
    pub fn to_row<R: Row>(row: &R) -> RowRef {
        RowRef::to_key::<R>(&row.key())
    }

    /// The reference of the row of `R`'s table with this primary key.
    pub fn to_key<R: Row>(key: &R::Key) -> RowRef {
        // Keys are ids, strings and tuples of them: serialization cannot fail.
        let key = serde_json::to_value(key).unwrap_or(serde_json::Value::Null);
        RowRef::Table { table: R::TABLE, key }
    }
}

/// One broken invariant. The simulator adds the step at which it was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// Which invariant.
    pub invariant: InvariantId,
    /// The rows and history records involved, the most telling first.
    pub rows: Vec<RowRef>,
    /// What is wrong, in plain words, with the concrete values.
    pub sentence: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.invariant, self.invariant.title(), self.sentence)
    }
}

/// Whether the run has work pending. Invariant I6 holds only when it has none.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "quiescence", rename_all = "snake_case")]
pub enum Quiescence {
    /// Messages are in flight, requests or handlers running: I6 is not checked.
    WorkPending,
    /// Nothing is pending: every `OrderPlaced` must have been processed exactly once by each of
    /// these consumers (the consumers subscribed to `OrderPlaced`).
    Quiescent {
        /// The consumers of `OrderPlaced`; duplicates are ignored.
        order_placed_consumers: Vec<ConsumerName>,
    },
}

/// Checks every invariant, I1 to I7, and returns every violation in a fixed order.
pub fn check_all(tables: &Tables, history: &History, quiescence: &Quiescence) -> Vec<Violation> {
    InvariantId::ALL
        .into_iter()
        .flat_map(|invariant| invariant.check(tables, history, quiescence))
        .collect()
}

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

/// I4: every completed request with the same key got the same status and body, and a key's
/// handler never ran twice while the key was held.
///
/// The answers compared are those whose [`ResponseOrigin::is_answer_of_the_key`]: the answer of
/// a handler that completed the key (`Completed`; every answer of the naive twin) and replays of
/// the stored answer (`Replayed`). The first such answer of a key is the reference; each later
/// one with another status or body is a violation. Refusals that never ran the handler (400,
/// 409, 422) and failures whose key was released are not the key's answer and are not compared.
/// A key forgotten after the retention window and run again is compared with its first answer
/// too: that is fault F10's lesson, and the lab shows it red.
///
/// Handler runs of one key are taken in the order they started (ties in the order recorded); a
/// run that starts while an earlier one still holds the key (see
/// [`HandlerRun::holds_key_until`]) is a violation, naming the earlier run that holds it
/// longest.
pub fn check_i4_same_key_same_answer(history: &History) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut first_answers: BTreeMap<IdempotencyKey, (usize, &ApiResponse)> = BTreeMap::new();
    for (index, response) in history.responses().iter().enumerate() {
        let Some(key) = response.key else { continue };
        if !response.origin.is_answer_of_the_key() {
            continue;
        }
        let Some(&(first_index, first)) = first_answers.get(&key) else {
            first_answers.insert(key, (index, response));
            continue;
        };
        if (first.status, &first.body) != (response.status, &response.body) {
            let how = match response.origin {
                ResponseOrigin::Replayed => "a replay",
                ResponseOrigin::Completed | ResponseOrigin::Released | ResponseOrigin::Refused => {
                    "the handler ran again"
                }
            };
            violations.push(Violation {
                invariant: InvariantId::I4,
                rows: vec![
                    RowRef::Response { index: first_index },
                    RowRef::Response { index },
                ],
                sentence: format!(
                    "Requests with key {key} got different answers: {} at {}, but {} at {} ({how}).",
                    describe_answer(first),
                    first.answered_at,
                    describe_answer(response),
                    response.answered_at
                ),
            });
        }
    }

    let mut runs_by_key: BTreeMap<IdempotencyKey, Vec<(HandlerRunId, &HandlerRun)>> =
        BTreeMap::new();
    for (index, run) in history.handler_runs().iter().enumerate() {
        runs_by_key.entry(run.key).or_default().push((HandlerRunId(index), run));
    }
    for (key, mut runs) in runs_by_key {
        runs.sort_by_key(|(id, run)| (run.started_at, *id));
        // The earlier run that holds the key longest, and until when.
        let mut holder: Option<(HandlerRunId, &HandlerRun, HoldEnd)> = None;
        for (id, run) in runs {
            if let Some((holder_id, holder_run, holder_end)) = holder
                && holder_end.holds_at(run.started_at)
            {
                let token = match run.lease {
                    Some(lease) => format!(" with token {}", lease.fencing_token.0),
                    None => String::new(),
                };
                violations.push(Violation {
                    invariant: InvariantId::I4,
                    rows: vec![
                        RowRef::HandlerRun { run: holder_id },
                        RowRef::HandlerRun { run: id },
                    ],
                    sentence: format!(
                        "The handler of key {key} ran twice at once: {id}{token} started at {} \
                         while {holder_id}, started at {}, still held the key: {}.",
                        run.started_at,
                        holder_run.started_at,
                        describe_hold(holder_run)
                    ),
                });
            }
            let end = HoldEnd::of(run);
            if holder.is_none_or(|(_, _, holder_end)| end > holder_end) {
                holder = Some((id, run, end));
            }
        }
    }
    violations
}

/// Until when a run holds its key; `Forever` sorts after every tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum HoldEnd {
    Until(Tick),
    Forever,
}

impl HoldEnd {
    fn of(run: &HandlerRun) -> HoldEnd {
        run.holds_key_until().map_or(HoldEnd::Forever, HoldEnd::Until)
    }

    fn holds_at(self, tick: Tick) -> bool {
        match self {
            HoldEnd::Until(end) => tick < end,
            HoldEnd::Forever => true,
        }
    }
}

fn describe_hold(run: &HandlerRun) -> String {
    match (run.lease, run.end) {
        (Some(lease), None) => format!(
            "its lease with token {} runs until {}",
            lease.fencing_token.0, lease.expires_at
        ),
        (Some(lease), Some(HandlerRunEnd::Crashed { at })) => format!(
            "it crashed at {at}, but its lease with token {} runs until {}",
            lease.fencing_token.0, lease.expires_at
        ),
        (Some(lease), Some(HandlerRunEnd::Finished { at })) if at < lease.expires_at => format!(
            "it finished only at {at}, within its lease with token {} (until {})",
            lease.fencing_token.0, lease.expires_at
        ),
        (Some(lease), Some(HandlerRunEnd::Finished { at })) => format!(
            "its lease with token {} runs until {} (it finished at {at})",
            lease.fencing_token.0, lease.expires_at
        ),
        (None, None) => "it had no lease and was still running".to_owned(),
        (None, Some(HandlerRunEnd::Finished { at })) => {
            format!("it had no lease and ran until it finished at {at}")
        }
        (None, Some(HandlerRunEnd::Crashed { at })) => {
            format!("it had no lease and ran until it crashed at {at}")
        }
    }
}

fn describe_answer(response: &ApiResponse) -> String {
    if response.body.is_empty() {
        format!("status {} with an empty body", response.status)
    } else {
        format!("status {} with body `{}`", response.status, response.body)
    }
}

/// I5: an inbox row exists exactly when its effect was applied.
///
/// Exact, with retention: for each `(message, consumer)`, the effects committed with an inbox
/// ([`InboxUse::WithInbox`]) and the purges of its inbox row ([`MessageEvent::InboxRowPurged`])
/// are taken in the order they happened. The row must exist exactly when the last of these is
/// an effect (after a purge, a row must be gone until the next effect); and between two purges
/// at most one effect may run, since the row stops the second. Effects of a consumer without an
/// inbox ([`InboxUse::WithoutInbox`], the naive twin) are not checked.
pub fn check_i5_inbox_row_exactly_when_applied(
    tables: &Tables,
    history: &History,
) -> Vec<Violation> {
    #[derive(Clone, Copy)]
    enum InboxEvent {
        EffectCommitted(Tick),
        RowPurged(Tick),
    }
    let mut events_by_row: BTreeMap<(MessageId, &ConsumerName), Vec<(usize, InboxEvent)>> =
        BTreeMap::new();
    for (index, event) in history.message_events().iter().enumerate() {
        let (message_id, consumer, event) = match event {
            MessageEvent::EffectCommitted {
                message_id,
                consumer,
                inbox: InboxUse::WithInbox,
                committed_at,
            } => (message_id, consumer, InboxEvent::EffectCommitted(*committed_at)),
            MessageEvent::InboxRowPurged { message_id, consumer, purged_at } => {
                (message_id, consumer, InboxEvent::RowPurged(*purged_at))
            }
            MessageEvent::EffectCommitted { inbox: InboxUse::WithoutInbox, .. }
            | MessageEvent::Published { .. }
            | MessageEvent::Acknowledged { .. } => continue,
        };
        events_by_row.entry((*message_id, consumer)).or_default().push((index, event));
    }
    let row_keys: BTreeSet<(MessageId, &ConsumerName)> = tables
        .inbox
        .keys()
        .map(|(message_id, consumer)| (*message_id, consumer))
        .chain(events_by_row.keys().cloned())
        .collect();

    let mut violations = Vec::new();
    for (message_id, consumer) in row_keys {
        let events =
            events_by_row.get(&(message_id, consumer)).map(Vec::as_slice).unwrap_or_default();
        let inbox_row = tables.inbox.get(&(message_id, consumer.clone()));
        let mut rows: Vec<RowRef> = inbox_row.map(RowRef::to_row).into_iter().collect();
        rows.extend(events.iter().map(|(index, _)| RowRef::MessageEvent { index: *index }));
        let row_name = format!("({message_id}, {consumer})");
        match (inbox_row, events.last()) {
            (Some(_), None) => violations.push(Violation {
                invariant: InvariantId::I5,
                rows: rows.clone(),
                sentence: format!(
                    "Inbox row {row_name} exists, but {consumer} never applied message \
                     {message_id}."
                ),
            }),
            (Some(_), Some((_, InboxEvent::RowPurged(purged_at)))) => violations.push(Violation {
                invariant: InvariantId::I5,
                rows: rows.clone(),
                sentence: format!(
                    "Inbox row {row_name} exists, but it was purged at {purged_at} and \
                     {consumer} has not applied message {message_id} since."
                ),
            }),
            (None, Some((_, InboxEvent::EffectCommitted(committed_at)))) => {
                violations.push(Violation {
                    invariant: InvariantId::I5,
                    rows: rows.clone(),
                    sentence: format!(
                        "{consumer} applied message {message_id} at {committed_at}, but there is \
                         no inbox row {row_name} and no purge of it since."
                    ),
                })
            }
            (Some(_), Some((_, InboxEvent::EffectCommitted(_))))
            | (None, Some((_, InboxEvent::RowPurged(_))))
            | (None, None) => {}
        }
        // Effects between purges: at most one each.
        for run_of_effects in events.split(|(_, event)| matches!(event, InboxEvent::RowPurged(_))) {
            if run_of_effects.len() > 1 {
                let ticks = run_of_effects
                    .iter()
                    .filter_map(|(_, event)| match event {
                        InboxEvent::EffectCommitted(at) => Some(at.to_string()),
                        InboxEvent::RowPurged(_) => None,
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut rows: Vec<RowRef> = inbox_row.map(RowRef::to_row).into_iter().collect();
                rows.extend(
                    run_of_effects.iter().map(|(index, _)| RowRef::MessageEvent { index: *index }),
                );
                violations.push(Violation {
                    invariant: InvariantId::I5,
                    rows,
                    sentence: format!(
                        "{consumer} applied message {message_id} {} (at {ticks}) with no purge of \
                         its inbox row {row_name} in between: the inbox row must stop every \
                         effect after the first.",
                        times(run_of_effects.len())
                    ),
                });
            }
        }
    }
    violations
}

/// I6: at quiescence, every placed order has an `OrderPlaced` message in the outbox, and each
/// `OrderPlaced` message of the outbox was processed exactly once by each consumer of
/// [`Quiescence::Quiescent`]: its committed effects in the history
/// ([`MessageEvent::EffectCommitted`], with or without an inbox) count exactly one. With work
/// pending, or with no consumer named, nothing is checked.
pub fn check_i6_order_placed_processed_once(
    tables: &Tables,
    history: &History,
    quiescence: &Quiescence,
) -> Vec<Violation> {
    let consumers: BTreeSet<&ConsumerName> = match quiescence {
        Quiescence::WorkPending => return Vec::new(),
        Quiescence::Quiescent { order_placed_consumers } => order_placed_consumers.iter().collect(),
    };
    if consumers.is_empty() {
        return Vec::new();
    }
    let mut effects: BTreeMap<(MessageId, &ConsumerName), Vec<usize>> = BTreeMap::new();
    let mut publish_counts: BTreeMap<MessageId, usize> = BTreeMap::new();
    for (index, event) in history.message_events().iter().enumerate() {
        match event {
            MessageEvent::EffectCommitted { message_id, consumer, .. } => {
                effects.entry((*message_id, consumer)).or_default().push(index);
            }
            MessageEvent::Published { message_id, .. } => {
                let count = publish_counts.entry(*message_id).or_default();
                *count = count.saturating_add(1);
            }
            MessageEvent::Acknowledged { .. } | MessageEvent::InboxRowPurged { .. } => {}
        }
    }
    let mut messages_by_order: BTreeMap<OrderId, Vec<&OutboxRow>> = BTreeMap::new();
    for outbox in tables.outbox.values() {
        if let MessagePayload::OrderPlaced { order_id, .. } = &outbox.payload {
            messages_by_order.entry(*order_id).or_default().push(outbox);
        }
    }
    let order_ids: BTreeSet<OrderId> =
        tables.orders.keys().chain(messages_by_order.keys()).copied().collect();

    let mut violations = Vec::new();
    for order_id in order_ids {
        let messages = messages_by_order.get(&order_id).map(Vec::as_slice).unwrap_or_default();
        if messages.is_empty() {
            violations.push(Violation {
                invariant: InvariantId::I6,
                rows: vec![RowRef::to_key::<OrderRow>(&order_id)],
                sentence: format!(
                    "At quiescence, order {order_id} has no OrderPlaced message in the outbox, so \
                     no consumer processed its placement."
                ),
            });
        }
        for message in messages {
            let message_id = message.message_id;
            for consumer in &consumers {
                let effect_indexes =
                    effects.get(&(message_id, *consumer)).map(Vec::as_slice).unwrap_or_default();
                if effect_indexes.len() == 1 {
                    continue;
                }
                let mut rows = vec![RowRef::to_row(*message)];
                rows.extend(
                    effect_indexes.iter().map(|index| RowRef::MessageEvent { index: *index }),
                );
                let published = publish_counts.get(&message_id).copied().unwrap_or(0);
                violations.push(Violation {
                    invariant: InvariantId::I6,
                    rows,
                    sentence: format!(
                        "At quiescence, {consumer} processed OrderPlaced {message_id} of order \
                         {order_id} {}, not exactly once (the message was published {}).",
                        times(effect_indexes.len()),
                        times(published)
                    ),
                });
            }
        }
    }
    violations
}

/// I7: no duplicate request ([`RequestAttempt::Duplicate`]) got a 5xx answer, whatever the
/// answer's origin.
pub fn check_i7_no_server_error_for_a_duplicate(history: &History) -> Vec<Violation> {
    history
        .responses()
        .iter()
        .enumerate()
        .filter(|(_, response)| {
            response.attempt == RequestAttempt::Duplicate && response.status >= 500
        })
        .map(|(index, response)| {
            let key = match response.key {
                Some(key) => format!("with key {key}"),
                None => "without a key".to_owned(),
            };
            Violation {
                invariant: InvariantId::I7,
                rows: vec![RowRef::Response { index }],
                sentence: format!(
                    "A duplicate request {key} got {} at {}: a duplicate must never make the API \
                     fail.",
                    describe_answer(response),
                    response.answered_at
                ),
            }
        })
        .collect()
}

/// `once`, `twice`, `3 times`; a count is never negative, and one that is would print as 0.
fn times(count: impl TryInto<u128>) -> String {
    let count: u128 = count.try_into().unwrap_or(0);
    match count {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        _ => format!("{count} times"),
    }
}

#[cfg(test)]
mod tests;
