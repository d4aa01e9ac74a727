//! `MarkPaid`, `Ship` and `Cancel` as a step machine ([`OrderCommandEffect`]): the transition
//! in one guarded `UPDATE orders`, then the charge or the stock release it causes, and the
//! helpers that run one command alone to completion.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{
    OrderCommand, OrderImplementation, Rules, StatusChange, TransitionError, changed_from,
    naive_transition, transition,
};
use crate::ids::{ChargeId, OrderId, PaymentId, Tick, TxId};
use crate::sql::statements;
use crate::step::{EffectSteps, InTransaction, Step};
#[cfg(test)]
use crate::step::{RunError, run_to_completion};
use crate::stock::{ReleaseStock, ReleaseStockEffect, StockError, StockReleaseEvent};
use crate::store::{ChargeRow, OrderRow, Store, StoreError};

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
pub(crate) enum OrderCommandPosition {
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
    pub(crate) fn new(
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
    pub(crate) fn order_id(&self) -> OrderId {
        self.order_id
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
                let release = ReleaseStock { order_id, lines: order.lines.to_vec() };
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
#[cfg(test)]
pub(crate) fn apply_order_command(
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
#[cfg(test)]
pub(crate) fn mark_paid(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    payment_id: PaymentId,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    apply_order_command(store, now, order_id, OrderCommand::MarkPaid { payment_id }, implementation)
}

/// `Ship` alone, to completion: see [`apply_order_command`].
#[cfg(test)]
pub(crate) fn ship(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    apply_order_command(store, now, order_id, OrderCommand::Ship, implementation)
}

/// `Cancel` alone, to completion: see [`apply_order_command`].
#[cfg(test)]
pub(crate) fn cancel(
    store: &mut Store,
    now: Tick,
    order_id: OrderId,
    implementation: OrderImplementation,
) -> Result<OrderEvent, RunError<OrderError>> {
    apply_order_command(store, now, order_id, OrderCommand::Cancel, implementation)
}
