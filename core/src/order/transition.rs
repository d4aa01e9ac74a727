//! P2's rules as pure functions: [`transition`] (the idempotent rules) and
//! [`naive_transition`] (the naive twin's), from an order's status and a command to the next
//! status or a typed error, and [`changed_from`], the status guard of the `UPDATE` that runs
//! them.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::PaymentId;
use crate::store::OrderStatus;

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
pub(crate) enum StatusChange {
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
pub(crate) fn transition(
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
pub(crate) fn naive_transition(
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
pub(crate) type Rules = fn(&OrderStatus, &OrderCommand) -> Result<StatusChange, TransitionError>;

/// The statuses from which `rules` change an order for `command`: the guard of the
/// `UPDATE orders ... AND status IN (...)` that runs the transition. Whether a status changes
/// depends on its name only, which `order/tests.rs` checks for every pair.
pub(crate) fn changed_from(rules: Rules, command: &OrderCommand) -> Vec<&'static str> {
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
