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

mod command;
mod place;
mod transition;

use serde::{Deserialize, Serialize};

pub use command::{OrderCommandEffect, OrderError, OrderEvent};
pub use place::{PlaceOrder, PlaceOrderEffect, PlaceOrderError, place_order};
pub use transition::OrderCommand;
pub(crate) use transition::{
    Rules, StatusChange, TransitionError, changed_from, naive_transition, transition,
};

use crate::stock::StockImplementation;
#[cfg(test)]
pub(crate) use command::{apply_order_command, cancel, mark_paid, ship};
#[cfg(test)]
pub(crate) use place::OrderPlaced;

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
    pub(crate) fn stock_implementation(self) -> StockImplementation {
        match self {
            OrderImplementation::Naive => StockImplementation::Naive,
            OrderImplementation::Idempotent => StockImplementation::Idempotent,
        }
    }
}

#[cfg(test)]
mod tests;
