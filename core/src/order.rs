//! P2, the order state machine: the seed's `MarkPaid` beside its naive twin, shipping,
//! cancellation (which releases the order's stock through P1), and `PlaceOrder`, which writes
//! the order and its `OrderPlaced` message in one transaction (the transactional outbox).
//!
//! The rules live in two pure functions, [`transition`] and [`naive_transition`], from a status
//! and a command to the next status or a typed error, so that they can be tested over every
//! pair. The step machines apply them inside one `UPDATE orders` statement, to the row's latest
//! committed value, as `UPDATE ... WHERE status = 'Placed'` does in PostgreSQL: two payments
//! racing for one order cannot both see it `Placed`.
//!
//! ```text
//! Placed --MarkPaid--> Paid --Ship--> Shipped
//!   |                   |
//!   +------Cancel-------+--> Cancelled
//! ```
//!
//! - Idempotent ([`OrderImplementation::Idempotent`]): the same payment on a paid order is a
//!   no-op; another payment on a paid order is [`TransitionError::AlreadyPaidByAnotherPayment`]
//!   (a double charge is never silent); any other wrong status is
//!   [`TransitionError::WrongStatus`] carrying that status. Shipping a shipped order and
//!   cancelling a cancelled order are no-ops. Only a real transition to `Paid` charges.
//! - Naive ([`OrderImplementation::Naive`]): `MarkPaid` charges on every call and sets `Paid`
//!   with the latest payment, from any status; `Cancel` sets `Cancelled` from any status and
//!   gives the order's line quantities back on every call (P1's naive release). `Ship` follows
//!   the same rules in both versions: it charges nothing and moves no stock, so it has nothing
//!   to duplicate.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{ChargeId, MessageId, OrderId, PaymentId, Sku, Tick, TxId};
use crate::sql::statements::{self, OnConflict};
use crate::step::{EffectSteps, InTransaction, RunError, Step, run_to_completion};
use crate::stock::{
    OrderLinesError, ReleaseStock, ReleaseStockEffect, StockError, StockImplementation,
    StockReleaseEvent, check_order_lines,
};
use crate::store::{
    ChargeRow, MessagePayload, OrderLine, OrderRow, OrderStatus, OutboxRow, StockRow, Store,
    StoreError,
};

/// Which version of P2 runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderImplementation {
    /// No status checks on `MarkPaid` and `Cancel`: every call charges, every cancel releases.
    Naive,
    /// The seed's `MarkPaid`, and idempotent `Ship` and `Cancel`.
    Idempotent,
}

impl OrderImplementation {
    /// The P1 release that `Cancel` runs: the naive one for the naive twin.
    pub fn stock_implementation(self) -> StockImplementation {
        match self {
            OrderImplementation::Naive => StockImplementation::Naive,
            OrderImplementation::Idempotent => StockImplementation::Idempotent,
        }
    }
}

/// A command that moves an existing order along its life.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "command")]
pub enum OrderCommand {
    /// Record that this payment paid the order, and charge it.
    MarkPaid {
        /// The payment provider's id.
        payment_id: PaymentId,
    },
    /// Ship a paid order.
    Ship,
    /// Cancel a placed or paid order and give its reserved stock back.
    Cancel,
}

impl OrderCommand {
    /// The command's name, as a learner reads it: `MarkPaid`, `Ship`, `Cancel`.
    pub fn name(&self) -> &'static str {
        match self {
            OrderCommand::MarkPaid { .. } => "MarkPaid",
            OrderCommand::Ship => "Ship",
            OrderCommand::Cancel => "Cancel",
        }
    }
}

/// What a command does to a status, when it is allowed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StatusChange {
    /// The order moves to this status (and the command's effect runs: charge, release).
    Changed {
        /// The new status.
        to: OrderStatus,
    },
    /// The order is already where the command would take it: a repeat, acknowledged with no
    /// effect.
    Unchanged,
}

/// A command that the order's status does not allow: a domain error.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum TransitionError {
    /// The command is not allowed from this status (the seed's "cannot pay an order in status
    /// {Status}").
    #[error("cannot {} an order in status {}", command.name(), status.name())]
    WrongStatus {
        /// The command refused.
        command: OrderCommand,
        /// The status the order is in.
        status: OrderStatus,
    },
    /// The order is paid already, by another payment: accepting this one would charge twice.
    #[error("already paid by payment {paid_by}; payment {rejected} would charge it twice")]
    AlreadyPaidByAnotherPayment {
        /// The payment that paid the order.
        paid_by: PaymentId,
        /// The payment refused.
        rejected: PaymentId,
    },
}

/// The idempotent rules: the next status of an order in `status` given `command`, `Unchanged`
/// for a repeat, or a typed error for a command the status does not allow.
pub fn transition(
    status: &OrderStatus,
    command: &OrderCommand,
) -> Result<StatusChange, TransitionError> {
    let wrong_status =
        || TransitionError::WrongStatus { command: command.clone(), status: status.clone() };
    match (command, status) {
        (OrderCommand::MarkPaid { payment_id }, OrderStatus::Placed) => {
            Ok(StatusChange::Changed { to: OrderStatus::Paid { payment_id: payment_id.clone() } })
        }
        (OrderCommand::MarkPaid { payment_id }, OrderStatus::Paid { payment_id: paid_by }) => {
            if payment_id == paid_by {
                Ok(StatusChange::Unchanged)
            } else {
                Err(TransitionError::AlreadyPaidByAnotherPayment {
                    paid_by: paid_by.clone(),
                    rejected: payment_id.clone(),
                })
            }
        }
        (
            OrderCommand::MarkPaid { .. },
            OrderStatus::Shipped { .. } | OrderStatus::Cancelled { .. },
        ) => Err(wrong_status()),
        (OrderCommand::Ship, OrderStatus::Paid { payment_id }) => Ok(StatusChange::Changed {
            to: OrderStatus::Shipped { payment_id: payment_id.clone() },
        }),
        (OrderCommand::Ship, OrderStatus::Shipped { .. }) => Ok(StatusChange::Unchanged),
        (OrderCommand::Ship, OrderStatus::Placed | OrderStatus::Cancelled { .. }) => {
            Err(wrong_status())
        }
        (OrderCommand::Cancel, OrderStatus::Placed) => {
            Ok(StatusChange::Changed { to: OrderStatus::Cancelled { payment_id: None } })
        }
        (OrderCommand::Cancel, OrderStatus::Paid { payment_id }) => Ok(StatusChange::Changed {
            to: OrderStatus::Cancelled { payment_id: Some(payment_id.clone()) },
        }),
        (OrderCommand::Cancel, OrderStatus::Cancelled { .. }) => Ok(StatusChange::Unchanged),
        (OrderCommand::Cancel, OrderStatus::Shipped { .. }) => Err(wrong_status()),
    }
}

/// The naive twin's rules: `MarkPaid` always moves to `Paid` with the given payment and
/// `Cancel` always moves to `Cancelled` (keeping the payment the order had), from any status,
/// so their effects (charge, release) run on every call. `Ship` follows [`transition`].
pub fn naive_transition(
    status: &OrderStatus,
    command: &OrderCommand,
) -> Result<StatusChange, TransitionError> {
    match command {
        OrderCommand::MarkPaid { payment_id } => {
            Ok(StatusChange::Changed { to: OrderStatus::Paid { payment_id: payment_id.clone() } })
        }
        OrderCommand::Cancel => {
            let payment_id = match status {
                OrderStatus::Placed => None,
                OrderStatus::Paid { payment_id } | OrderStatus::Shipped { payment_id } => {
                    Some(payment_id.clone())
                }
                OrderStatus::Cancelled { payment_id } => payment_id.clone(),
            };
            Ok(StatusChange::Changed { to: OrderStatus::Cancelled { payment_id } })
        }
        OrderCommand::Ship => transition(status, command),
    }
}

/// The rules of one implementation: [`transition`] or [`naive_transition`].
pub type Rules = fn(&OrderStatus, &OrderCommand) -> Result<StatusChange, TransitionError>;

/// The statuses from which `rules` change an order for `command`: the guard of the
/// `UPDATE orders ... AND status IN (...)` that runs the transition. Whether a status changes
/// depends on its name only, which `order/tests.rs` checks for every pair.
pub fn changed_from(rules: Rules, command: &OrderCommand) -> Vec<&'static str> {
    let payment_id = match command {
        OrderCommand::MarkPaid { payment_id } => payment_id.clone(),
        OrderCommand::Ship | OrderCommand::Cancel => PaymentId::new("any"),
    };
    let statuses = [
        OrderStatus::Placed,
        OrderStatus::Paid { payment_id: payment_id.clone() },
        OrderStatus::Shipped { payment_id },
        OrderStatus::Cancelled { payment_id: None },
    ];
    statuses
        .iter()
        .filter(|status| matches!(rules(status, command), Ok(StatusChange::Changed { .. })))
        .map(OrderStatus::name)
        .collect()
}

/// What can go wrong when a command is applied to an order. On any error the caller rolls its
/// transaction back: nothing is charged, nothing is released.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum OrderError {
    /// No order has this id (the `UPDATE orders` matched zero rows): for example a payment that
    /// arrived before its order was placed.
    #[error("no order {order_id}")]
    OrderNotFound {
        /// The id given.
        order_id: OrderId,
    },
    /// The order's status does not allow the command.
    #[error("order {order_id}: {error}")]
    Transition {
        /// The order.
        order_id: OrderId,
        /// Why the command was refused.
        #[source]
        error: TransitionError,
    },
    /// The release of the order's stock, which cancellation runs, failed.
    #[error("order {order_id}: releasing its stock failed: {error}")]
    Release {
        /// The order.
        order_id: OrderId,
        /// Why.
        #[source]
        error: StockError,
    },
    /// A store operation failed (not a row lock wait: that is [`Step::Blocked`]).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The effect was stepped again after it reported [`Step::Done`]: a bug of the caller,
    /// reported as a value.
    #[error("the order effect was stepped after it was done")]
    EffectAlreadyDone,
}

/// What a command did to an order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "event")]
pub enum OrderEvent {
    /// The order moved to `Paid` and the payment was charged.
    OrderPaid {
        /// The order.
        order_id: OrderId,
        /// The payment.
        payment_id: PaymentId,
        /// The row written to `charges`.
        charge_id: ChargeId,
    },
    /// The order was paid by this payment already: a repeat, acknowledged without a charge.
    PaymentAlreadyRecorded {
        /// The order.
        order_id: OrderId,
        /// The payment.
        payment_id: PaymentId,
    },
    /// The order moved to `Shipped`.
    OrderShipped {
        /// The order.
        order_id: OrderId,
    },
    /// The order was shipped already: a repeat, acknowledged with no effect.
    ShipmentAlreadyRecorded {
        /// The order.
        order_id: OrderId,
    },
    /// The order moved to `Cancelled` and its stock release ran.
    OrderCancelled {
        /// The order.
        order_id: OrderId,
        /// What the release gave back.
        release: StockReleaseEvent,
    },
    /// The order was cancelled already: a repeat, acknowledged with no effect.
    CancellationAlreadyRecorded {
        /// The order.
        order_id: OrderId,
    },
}

/// The next statement of an [`OrderCommandEffect`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OrderCommandPosition {
    /// `UPDATE orders SET status = ... WHERE id = $1 AND status IN (...)`: the transition,
    /// guarded by the statuses it changes (the naive `MarkPaid` and `Cancel` are unguarded).
    UpdateOrder,
    /// `SELECT status, payment_id FROM orders WHERE id = $1`, after the guarded update changed
    /// nothing: a repeat (a no-op) or a command the order's status refuses (an error).
    SelectStatus,
    /// `INSERT INTO charges`: the transition to `Paid` charges the payment.
    InsertCharge {
        /// The payment to charge.
        payment_id: PaymentId,
    },
    /// The cancellation's stock release (P1), one statement per step.
    ReleaseStock(ReleaseStockEffect),
    /// Every statement has run.
    Done,
}

/// A command applied to one order, one statement per step, inside its caller's transaction (a
/// consumer of `PaymentCaptured` runs it with its inbox row; [`InTransaction`] runs it alone).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrderCommandEffect {
    order_id: OrderId,
    command: OrderCommand,
    implementation: OrderImplementation,
    position: OrderCommandPosition,
}

impl OrderCommandEffect {
    /// The effect of `command` on the order `order_id`.
    pub fn new(
        order_id: OrderId,
        command: OrderCommand,
        implementation: OrderImplementation,
    ) -> OrderCommandEffect {
        OrderCommandEffect {
            order_id,
            command,
            implementation,
            position: OrderCommandPosition::UpdateOrder,
        }
    }

    /// The same, wrapped to run in a transaction of its own.
    pub fn in_own_transaction(
        order_id: OrderId,
        command: OrderCommand,
        implementation: OrderImplementation,
    ) -> InTransaction<OrderCommandEffect> {
        InTransaction::new(OrderCommandEffect::new(order_id, command, implementation))
    }

    /// The order.
    pub fn order_id(&self) -> OrderId {
        self.order_id
    }

    /// The command.
    pub fn command(&self) -> &OrderCommand {
        &self.command
    }

    /// The next statement.
    pub fn position(&self) -> &OrderCommandPosition {
        &self.position
    }

    fn rules(&self) -> Rules {
        match self.implementation {
            OrderImplementation::Naive => naive_transition,
            OrderImplementation::Idempotent => transition,
        }
    }

    /// Whether the `UPDATE` carries a guard on the status: every command but the naive
    /// `MarkPaid` and `Cancel`, which change any order.
    fn guarded(&self) -> bool {
        self.implementation == OrderImplementation::Idempotent
            || matches!(self.command, OrderCommand::Ship)
    }

    fn update_order(
        &mut self,
        store: &mut Store,
        tx: TxId,
    ) -> Result<Step<OrderEvent>, OrderError> {
        let order_id = self.order_id;
        let command = self.command.clone();
        let rules = self.rules();
        let changes = |row: &OrderRow| match rules(&row.status, &command) {
            Ok(StatusChange::Changed { to }) => Some(to),
            _ => None,
        };
        let updated = store.update_where::<OrderRow>(
            tx,
            &order_id,
            |row| changes(row).is_some(),
            |row| {
                if let Some(to) = changes(row) {
                    row.status = to;
                }
            },
        );
        let order = match updated {
            Err(StoreError::Blocked(wait)) => return Ok(Step::Blocked(wait)),
            Err(error) => return Err(error.into()),
            Ok(None) if self.guarded() => {
                self.position = OrderCommandPosition::SelectStatus;
                return Ok(Step::Continue);
            }
            Ok(None) => return Err(OrderError::OrderNotFound { order_id }),
            Ok(Some(order)) => order,
        };
        match &self.command {
            OrderCommand::MarkPaid { payment_id } => {
                self.position =
                    OrderCommandPosition::InsertCharge { payment_id: payment_id.clone() };
                Ok(Step::Continue)
            }
            OrderCommand::Ship => {
                self.position = OrderCommandPosition::Done;
                Ok(Step::Done(OrderEvent::OrderShipped { order_id }))
            }
            OrderCommand::Cancel => {
                let release = ReleaseStock { order_id, lines: order.lines };
                self.position = OrderCommandPosition::ReleaseStock(ReleaseStockEffect::new(
                    release,
                    self.implementation.stock_implementation(),
                ));
                Ok(Step::Continue)
            }
        }
    }

    /// The guarded update changed nothing: the order's status says whether the command was a
    /// repeat or is refused.
    fn select_status(
        &mut self,
        store: &mut Store,
        tx: TxId,
    ) -> Result<Step<OrderEvent>, OrderError> {
        let order_id = self.order_id;
        let Some(order) = store.get::<OrderRow>(tx, &order_id)? else {
            return Err(OrderError::OrderNotFound { order_id });
        };
        let change = (self.rules())(&order.status, &self.command)
            .map_err(|error| OrderError::Transition { order_id, error })?;
        self.position = OrderCommandPosition::Done;
        match (change, &self.command) {
            // The update did not see the order (placed by a transaction that had not
            // committed yet) and the read does: to this command, it was not there.
            (StatusChange::Changed { .. }, _) => Err(OrderError::OrderNotFound { order_id }),
            (StatusChange::Unchanged, OrderCommand::MarkPaid { payment_id }) => {
                Ok(Step::Done(OrderEvent::PaymentAlreadyRecorded {
                    order_id,
                    payment_id: payment_id.clone(),
                }))
            }
            (StatusChange::Unchanged, OrderCommand::Ship) => {
                Ok(Step::Done(OrderEvent::ShipmentAlreadyRecorded { order_id }))
            }
            (StatusChange::Unchanged, OrderCommand::Cancel) => {
                Ok(Step::Done(OrderEvent::CancellationAlreadyRecorded { order_id }))
            }
        }
    }

    /// The `UPDATE orders` this effect runs first.
    fn update_statement(&self) -> String {
        let (to, payment_id) = match &self.command {
            OrderCommand::MarkPaid { payment_id } => ("Paid", Some(payment_id)),
            OrderCommand::Ship => ("Shipped", None),
            OrderCommand::Cancel => ("Cancelled", None),
        };
        let from = self.guarded().then(|| changed_from(self.rules(), &self.command));
        statements::set_order_status(
            self.order_id,
            to,
            payment_id,
            from.as_deref(),
            matches!(self.command, OrderCommand::Cancel),
        )
    }

    fn insert_charge(
        &mut self,
        store: &mut Store,
        tx: TxId,
        payment_id: PaymentId,
    ) -> Result<Step<OrderEvent>, OrderError> {
        let order_id = self.order_id;
        // A fresh id from the store's sequence: the insert can neither wait nor conflict.
        let charge_id = store.next_charge_id();
        store.insert(tx, ChargeRow { id: charge_id, order_id, payment_id: payment_id.clone() })?;
        // `nextval('charges_id_seq')`: the store's sequence is the same counter.
        self.position = OrderCommandPosition::Done;
        Ok(Step::Done(OrderEvent::OrderPaid { order_id, payment_id, charge_id }))
    }

    fn release_stock(
        &mut self,
        store: &mut Store,
        tx: TxId,
        now: Tick,
        mut release: ReleaseStockEffect,
    ) -> Result<Step<OrderEvent>, OrderError> {
        let order_id = self.order_id;
        let step = release
            .step(store, tx, now)
            .map_err(|error| OrderError::Release { order_id, error })?;
        match step {
            Step::Continue => {
                self.position = OrderCommandPosition::ReleaseStock(release);
                Ok(Step::Continue)
            }
            Step::Blocked(wait) => {
                self.position = OrderCommandPosition::ReleaseStock(release);
                Ok(Step::Blocked(wait))
            }
            Step::Done(release) => {
                self.position = OrderCommandPosition::Done;
                Ok(Step::Done(OrderEvent::OrderCancelled { order_id, release }))
            }
        }
    }
}

impl EffectSteps for OrderCommandEffect {
    type Output = OrderEvent;
    type Error = OrderError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        let order_id = self.order_id;
        match &self.position {
            OrderCommandPosition::UpdateOrder => Some(self.update_statement()),
            OrderCommandPosition::SelectStatus => Some(statements::select_order_status(order_id)),
            OrderCommandPosition::InsertCharge { payment_id } => {
                Some(statements::insert_charge(order_id, payment_id))
            }
            OrderCommandPosition::ReleaseStock(release) => release.next_statement(now),
            OrderCommandPosition::Done => None,
        }
    }

    fn step(
        &mut self,
        store: &mut Store,
        tx: TxId,
        now: Tick,
    ) -> Result<Step<OrderEvent>, OrderError> {
        match self.position.clone() {
            OrderCommandPosition::UpdateOrder => self.update_order(store, tx),
            OrderCommandPosition::SelectStatus => self.select_status(store, tx),
            OrderCommandPosition::InsertCharge { payment_id } => {
                self.insert_charge(store, tx, payment_id)
            }
            OrderCommandPosition::ReleaseStock(release) => {
                self.release_stock(store, tx, now, release)
            }
            OrderCommandPosition::Done => Err(OrderError::EffectAlreadyDone),
        }
    }
}

/// Applies `command` to an order alone, in a transaction of its own, to completion.
pub fn apply_order_command(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    command: OrderCommand,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    let mut handler = OrderCommandEffect::in_own_transaction(order_id, command, implementation);
    run_to_completion(&mut handler, store, now)
}

/// `MarkPaid(payment_id)` alone, to completion: see [`apply_order_command`].
pub fn mark_paid(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    payment_id: PaymentId,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    apply_order_command(store, now, order_id, OrderCommand::MarkPaid { payment_id }, implementation)
}

/// `Ship` alone, to completion: see [`apply_order_command`].
pub fn ship(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    apply_order_command(store, now, order_id, OrderCommand::Ship, implementation)
}

/// `Cancel` alone, to completion: see [`apply_order_command`].
pub fn cancel(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    apply_order_command(store, now, order_id, OrderCommand::Cancel, implementation)
}

/// The command: place an order. Its ids are drawn by the caller (the simulator, from its seeded
/// RNG), never made here.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlaceOrder {
    /// The new order's id.
    pub order_id: OrderId,
    /// The id of its `OrderPlaced` message in the outbox.
    pub message_id: MessageId,
    /// What is ordered, in the client's order.
    pub lines: Vec<OrderLine>,
}

/// The event: an order was placed and its `OrderPlaced` message written to the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OrderPlaced {
    /// The order.
    pub order_id: OrderId,
    /// Its `OrderPlaced` message, unpublished.
    pub message_id: MessageId,
    /// Its lines, in the client's order.
    pub lines: Vec<OrderLine>,
}

/// Why an order was not placed. Nothing is written in any case.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum PlaceOrderError {
    /// The lines are invalid (none, a zero quantity, a sku twice).
    #[error("order {order_id}: {error}")]
    InvalidLines {
        /// The order.
        order_id: OrderId,
        /// What is wrong with its lines.
        #[source]
        error: OrderLinesError,
    },
    /// A line orders a sku that the shop does not stock.
    #[error("order {order_id}: line {line_index} orders unknown sku {sku}")]
    UnknownSku {
        /// The order.
        order_id: OrderId,
        /// The line's position in the order, from 0.
        line_index: usize,
        /// The sku.
        sku: Sku,
    },
    /// An order with this id exists already.
    #[error("order {order_id} exists already")]
    OrderAlreadyExists {
        /// The id.
        order_id: OrderId,
    },
    /// An outbox message with this id exists already.
    #[error("outbox message {message_id} exists already")]
    MessageAlreadyExists {
        /// The id.
        message_id: MessageId,
    },
    /// A store operation failed (not a row lock wait: that is [`Step::Blocked`]).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The effect was stepped again after it reported [`Step::Done`]: a bug of the caller.
    #[error("the place-order effect was stepped after it was done")]
    EffectAlreadyDone,
}

/// The next statement of a [`PlaceOrderEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlaceOrderPosition {
    /// `SELECT sku FROM stock WHERE sku IN (...)`: every sku must exist.
    SelectSkus,
    /// `INSERT INTO orders`, status `Placed`.
    InsertOrder,
    /// `INSERT INTO outbox`, the `OrderPlaced` message, unpublished.
    InsertOutboxMessage,
    /// Every statement has run.
    Done,
}

/// `PlaceOrder`, one statement per step, inside its caller's transaction: the order and its
/// message commit together or not at all (the transactional outbox).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlaceOrderEffect {
    command: PlaceOrder,
    position: PlaceOrderPosition,
}

impl PlaceOrderEffect {
    /// The effect for `command`; rejects bad lines (none, a zero quantity, a sku twice) before
    /// any statement runs. Unknown skus are found by the first statement.
    pub fn new(command: PlaceOrder) -> Result<PlaceOrderEffect, PlaceOrderError> {
        check_order_lines(&command.lines)
            .map_err(|error| PlaceOrderError::InvalidLines { order_id: command.order_id, error })?;
        Ok(PlaceOrderEffect { command, position: PlaceOrderPosition::SelectSkus })
    }

    /// The same, wrapped to run in a transaction of its own.
    pub fn in_own_transaction(
        command: PlaceOrder,
    ) -> Result<InTransaction<PlaceOrderEffect>, PlaceOrderError> {
        Ok(InTransaction::new(PlaceOrderEffect::new(command)?))
    }

    /// The command.
    pub fn command(&self) -> &PlaceOrder {
        &self.command
    }

    /// The next statement.
    pub fn position(&self) -> PlaceOrderPosition {
        self.position
    }

    /// The order's `OrderPlaced` message as its outbox row, written at `now`.
    fn outbox_row(&self, now: Tick) -> OutboxRow {
        let PlaceOrder { order_id, message_id, lines } = &self.command;
        OutboxRow {
            message_id: *message_id,
            payload: MessagePayload::OrderPlaced { order_id: *order_id, lines: lines.clone() },
            published: false,
            created_at: now,
        }
    }
}

impl EffectSteps for PlaceOrderEffect {
    type Output = OrderPlaced;
    type Error = PlaceOrderError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        let PlaceOrder { order_id, lines, .. } = &self.command;
        match self.position {
            PlaceOrderPosition::SelectSkus => {
                let skus: Vec<&Sku> = lines.iter().map(|line| &line.sku).collect();
                Some(statements::select_skus(&skus))
            }
            PlaceOrderPosition::InsertOrder => Some(statements::insert(
                &OrderRow { id: *order_id, lines: lines.clone(), status: OrderStatus::Placed },
                OnConflict::Fail,
            )),
            PlaceOrderPosition::InsertOutboxMessage => {
                Some(statements::insert(&self.outbox_row(now), OnConflict::Fail))
            }
            PlaceOrderPosition::Done => None,
        }
    }

    fn step(
        &mut self,
        store: &mut Store,
        tx: TxId,
        now: Tick,
    ) -> Result<Step<OrderPlaced>, PlaceOrderError> {
        let PlaceOrder { order_id, message_id, lines } = &self.command;
        let (order_id, message_id) = (*order_id, *message_id);
        match self.position {
            PlaceOrderPosition::SelectSkus => {
                for (line_index, line) in lines.iter().enumerate() {
                    if store.get::<StockRow>(tx, &line.sku)?.is_none() {
                        return Err(PlaceOrderError::UnknownSku {
                            order_id,
                            line_index,
                            sku: line.sku.clone(),
                        });
                    }
                }
                self.position = PlaceOrderPosition::InsertOrder;
                Ok(Step::Continue)
            }
            PlaceOrderPosition::InsertOrder => {
                let row =
                    OrderRow { id: order_id, lines: lines.clone(), status: OrderStatus::Placed };
                match store.insert(tx, row) {
                    Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                    Err(StoreError::UniqueViolation { .. }) => {
                        Err(PlaceOrderError::OrderAlreadyExists { order_id })
                    }
                    Err(error) => Err(error.into()),
                    Ok(()) => {
                        self.position = PlaceOrderPosition::InsertOutboxMessage;
                        Ok(Step::Continue)
                    }
                }
            }
            PlaceOrderPosition::InsertOutboxMessage => {
                let row = self.outbox_row(now);
                match store.insert(tx, row) {
                    Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                    Err(StoreError::UniqueViolation { .. }) => {
                        Err(PlaceOrderError::MessageAlreadyExists { message_id })
                    }
                    Err(error) => Err(error.into()),
                    Ok(()) => {
                        self.position = PlaceOrderPosition::Done;
                        Ok(Step::Done(OrderPlaced { order_id, message_id, lines: lines.clone() }))
                    }
                }
            }
            PlaceOrderPosition::Done => Err(PlaceOrderError::EffectAlreadyDone),
        }
    }
}

/// Places an order alone, in a transaction of its own, to completion.
pub fn place_order(
    store: &mut Store,
    now: Tick,
    command: PlaceOrder,
) -> Result<OrderPlaced, RunError<PlaceOrderError>> {
    let mut handler = PlaceOrderEffect::in_own_transaction(command).map_err(RunError::Failed)?;
    run_to_completion(&mut handler, store, now)
}

#[cfg(test)]
mod tests;
