//! `PlaceOrder` as a step machine ([`PlaceOrderEffect`]): the order and its `OrderPlaced`
//! outbox row in one transaction (the transactional outbox).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{MessageId, OrderId, Sku, Tick, TxId};
use crate::sql::statements::{self, OnConflict};
use crate::step::{EffectSteps, InTransaction, RunError, Step, run_to_completion};
use crate::stock::{OrderLinesError, check_order_lines};
use crate::store::{
    MessagePayload, OrderLine, OrderRow, OrderStatus, OutboxRow, StockRow, Store, StoreError,
};

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
    pub(crate) message_id: MessageId,
    /// Its lines, in the client's order.
    pub(crate) lines: Vec<OrderLine>,
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
pub(crate) enum PlaceOrderPosition {
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
    order_id: OrderId,
    message_id: MessageId,
    /// The command's lines, once, for the order's row and its message to share.
    lines: Arc<[OrderLine]>,
    position: PlaceOrderPosition,
}

impl PlaceOrderEffect {
    /// The effect for `command`; rejects bad lines (none, a zero quantity, a sku twice) before
    /// any statement runs. Unknown skus are found by the first statement.
    pub(crate) fn new(command: PlaceOrder) -> Result<PlaceOrderEffect, PlaceOrderError> {
        check_order_lines(&command.lines)
            .map_err(|error| PlaceOrderError::InvalidLines { order_id: command.order_id, error })?;
        let PlaceOrder { order_id, message_id, lines } = command;
        Ok(PlaceOrderEffect {
            order_id,
            message_id,
            lines: lines.into(),
            position: PlaceOrderPosition::SelectSkus,
        })
    }

    /// The same, wrapped to run in a transaction of its own.
    pub fn in_own_transaction(
        command: PlaceOrder,
    ) -> Result<InTransaction<PlaceOrderEffect>, PlaceOrderError> {
        Ok(InTransaction::new(PlaceOrderEffect::new(command)?))
    }

    /// The order's row, as placed.
    fn order_row(&self) -> OrderRow {
        OrderRow { id: self.order_id, lines: Arc::clone(&self.lines), status: OrderStatus::Placed }
    }

    /// The order's `OrderPlaced` message as its outbox row, written at `now`.
    fn outbox_row(&self, now: Tick) -> OutboxRow {
        OutboxRow {
            message_id: self.message_id,
            payload: MessagePayload::OrderPlaced {
                order_id: self.order_id,
                lines: Arc::clone(&self.lines),
            },
            published: false,
            created_at: now,
        }
    }
}

impl EffectSteps for PlaceOrderEffect {
    type Output = OrderPlaced;
    type Error = PlaceOrderError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match self.position {
            PlaceOrderPosition::SelectSkus => {
                let skus: Vec<&Sku> = self.lines.iter().map(|line| &line.sku).collect();
                Some(statements::select_skus(&skus))
            }
            PlaceOrderPosition::InsertOrder => {
                Some(statements::insert(&self.order_row(), OnConflict::Fail))
            }
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
        let (order_id, message_id) = (self.order_id, self.message_id);
        match self.position {
            PlaceOrderPosition::SelectSkus => {
                for (line_index, line) in self.lines.iter().enumerate() {
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
            PlaceOrderPosition::InsertOrder => match store.insert(tx, self.order_row()) {
                Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                Err(StoreError::UniqueViolation { .. }) => {
                    Err(PlaceOrderError::OrderAlreadyExists { order_id })
                }
                Err(error) => Err(error.into()),
                Ok(()) => {
                    self.position = PlaceOrderPosition::InsertOutboxMessage;
                    Ok(Step::Continue)
                }
            },
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
                        Ok(Step::Done(OrderPlaced {
                            order_id,
                            message_id,
                            lines: self.lines.to_vec(),
                        }))
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
