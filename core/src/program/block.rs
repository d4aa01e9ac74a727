//! The palette: every block a learner can put in a handler program, each a statement of the
//! seed's `ReserveStockConsumer` (P4 around P1), of its `MarkPaid` (P2), or of their naive
//! twins, or a piece of control flow between statements. [`Block::handlers`] says which
//! handler may use a block.
//!
//! A *statement* block runs one statement against the store (or the broker's `ACK`) and takes
//! one step of the simulator, so another instance can run between any two of them. A *control*
//! block (`if it inserted 0 rows, skip to`, a label, the loop over the order's lines) reads only
//! what the statement before it returned, which no other instance can see: it runs in the same
//! step as that statement, as a branch in real code runs between two round trips to the
//! database. Parameters are where a learner would choose (`ON CONFLICT DO NOTHING` or a plain
//! `INSERT`, the stock guard or none), each a closed enum, so a wrong choice is a value the
//! checker judges, never a string it must parse.

use serde::{Deserialize, Serialize};

use crate::program::format::HandlerKind;

/// What an `INSERT INTO inbox` does when the row is there already.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InboxConflict {
    /// The seed's plain `INSERT`: the unique violation aborts the transaction (PostgreSQL
    /// rolls it back), and the block reports 0 rows (`catch ... IsUniqueViolation`).
    Error,
    /// `ON CONFLICT DO NOTHING`: 0 rows, and the transaction stays open.
    DoNothing,
}

/// What an `INSERT INTO reservations` does when the order's line is reserved already.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReservationConflict {
    /// `ON CONFLICT (order_id, sku) DO NOTHING` (P1): 0 rows.
    DoNothing,
    /// `ON CONFLICT (order_id, sku) DO UPDATE SET qty = qty + $qty`, the naive twin's upsert:
    /// always 1 row, so it cannot tell a repeat.
    AddQty,
    /// A plain `INSERT`: the unique violation aborts the transaction, and the block reports 0
    /// rows.
    Error,
}

/// The `WHERE` of the stock decrement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StockGuard {
    /// `WHERE sku = $sku`: the naive twin's decrement, whatever is left.
    None,
    /// `WHERE sku = $sku AND available_qty >= $qty`: 0 rows fails the delivery (too little
    /// stock), and nothing is taken.
    AvailableQty,
}

/// The `WHERE` of `UPDATE orders SET status = 'paid'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderGuard {
    /// `WHERE id = $id`: the naive twin's update, from whatever status the order is in.
    None,
    /// `WHERE id = $id AND status = 'placed'` (P2): 0 rows if the order has moved on.
    Placed,
}

/// The lock a `SELECT ... FROM orders` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SelectLock {
    /// A plain `SELECT`: reads the committed row and takes no lock.
    None,
    /// `SELECT ... FOR UPDATE`: takes the row's lock (waiting for a transaction that holds
    /// it), so no other transaction changes the order until this one ends.
    ForUpdate,
}

/// One block of a handler program, as JSON: `{"block": "insert_inbox", "on_conflict":
/// "do_nothing"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "block", rename_all = "snake_case", deny_unknown_fields)]
pub enum Block {
    /// `BEGIN`.
    Begin,
    /// `INSERT INTO inbox (message_id, consumer, processed_at) VALUES ($message_id, $consumer,
    /// now())`, with the learner's conflict clause; 1 row or 0.
    InsertInbox {
        /// What a repeat does.
        on_conflict: InboxConflict,
    },
    /// `SELECT 1 FROM inbox WHERE message_id = $message_id AND consumer = $consumer`: a check
    /// that takes no lock; 1 row or 0.
    SelectInbox,
    /// `for line in message.lines` (in sku order): the blocks up to [`Block::NextLine`] run once
    /// per line of the order.
    ForEachLine,
    /// `SELECT qty FROM reservations WHERE order_id = $order_id AND sku = $sku`: a check that
    /// takes no lock; 1 row or 0.
    SelectReservation,
    /// `INSERT INTO reservations (order_id, sku, qty) VALUES ($order_id, $sku, $qty)` with the
    /// learner's conflict clause.
    InsertReservation {
        /// What a repeat does.
        on_conflict: ReservationConflict,
    },
    /// `UPDATE stock SET available_qty = available_qty - $qty WHERE sku = $sku`, with or without
    /// the guard.
    TakeStock {
        /// The guard.
        guard: StockGuard,
    },
    /// The end of the loop's body: the next line, or on past the loop after the last one.
    NextLine,
    /// `if it inserted (or found) 0 rows, skip to` the label.
    IfNoRowsSkipTo {
        /// Where to go.
        label: String,
    },
    /// `if it inserted (or found) a row, skip to` the label.
    IfRowsSkipTo {
        /// Where to go.
        label: String,
    },
    /// A place a skip can go to.
    Label {
        /// Its name.
        name: String,
    },
    /// `UPDATE orders SET status = 'paid', payment_id = $payment_id WHERE id = $id`, with or
    /// without the status guard; 1 row or 0 (no such order, or the guard refused it).
    UpdateOrderPaid {
        /// The guard.
        guard: OrderGuard,
    },
    /// `SELECT status, payment_id FROM orders WHERE id = $id`, with or without `FOR UPDATE`;
    /// 1 row or 0. The status skips read what it found.
    SelectOrder {
        /// The lock it takes.
        lock: SelectLock,
    },
    /// `INSERT INTO charges (id, order_id, payment_id) VALUES (nextval(...), $id,
    /// $payment_id)`: the payment provider charges the payment.
    InsertCharge,
    /// `if the status is not 'placed', skip to` the label: reads the last `select_order`.
    IfNotPlacedSkipTo {
        /// Where to go.
        label: String,
    },
    /// `if the order is paid by this payment, skip to` the label (the seed's `if (Status ==
    /// Paid && PaymentId == paymentId) return`): reads the last `select_order`.
    IfPaidByThisPaymentSkipTo {
        /// Where to go.
        label: String,
    },
    /// `return 200`: the order is paid; the handler answers and ends. Its transaction must
    /// have ended.
    AnswerPaid,
    /// `throw`: the handler refuses the payment (404 with no order, 409 for a status that does
    /// not allow it), its open transaction rolls back, and it ends.
    Refuse,
    /// `COMMIT`.
    Commit,
    /// `ROLLBACK`.
    Rollback,
    /// The broker's `ACK`: the delivery is done and will not come again.
    Ack,
}

/// How deep each of `blocks` stands inside `for_each_line` loops, as an editor indents it: 1 for
/// the blocks between `for_each_line` and its `next_line`, 0 for the rest (the loop's own two
/// blocks included). A draft need not validate to be shown, so a `next_line` without a loop
/// stays at 0 and a loop inside a loop (which the validator refuses) goes one deeper.
pub fn loop_depths<'a>(blocks: impl IntoIterator<Item = &'a Block>) -> Vec<usize> {
    let mut depth = 0_usize;
    blocks
        .into_iter()
        .map(|block| match block {
            Block::ForEachLine => {
                depth += 1;
                depth - 1
            }
            Block::NextLine => {
                depth = depth.saturating_sub(1);
                depth
            }
            _ => depth,
        })
        .collect()
}

impl Block {
    /// The block's name in the JSON (`insert_inbox`), for errors and the page.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Block::Begin => "begin",
            Block::InsertInbox { .. } => "insert_inbox",
            Block::SelectInbox => "select_inbox",
            Block::ForEachLine => "for_each_line",
            Block::SelectReservation => "select_reservation",
            Block::InsertReservation { .. } => "insert_reservation",
            Block::TakeStock { .. } => "take_stock",
            Block::NextLine => "next_line",
            Block::IfNoRowsSkipTo { .. } => "if_no_rows_skip_to",
            Block::IfRowsSkipTo { .. } => "if_rows_skip_to",
            Block::Label { .. } => "label",
            Block::UpdateOrderPaid { .. } => "update_order_paid",
            Block::SelectOrder { .. } => "select_order",
            Block::InsertCharge => "insert_charge",
            Block::IfNotPlacedSkipTo { .. } => "if_not_placed_skip_to",
            Block::IfPaidByThisPaymentSkipTo { .. } => "if_paid_by_this_payment_skip_to",
            Block::AnswerPaid => "answer_paid",
            Block::Refuse => "refuse",
            Block::Commit => "commit",
            Block::Rollback => "rollback",
            Block::Ack => "ack",
        }
    }

    /// The handlers whose programs may use the block.
    pub(crate) fn handlers(&self) -> &'static [HandlerKind] {
        const BOTH: &[HandlerKind] = &[HandlerKind::ReserveStockConsumer, HandlerKind::MarkPaid];
        const CONSUMER: &[HandlerKind] = &[HandlerKind::ReserveStockConsumer];
        const MARK_PAID: &[HandlerKind] = &[HandlerKind::MarkPaid];
        match self {
            Block::Begin
            | Block::Commit
            | Block::Rollback
            | Block::IfNoRowsSkipTo { .. }
            | Block::IfRowsSkipTo { .. }
            | Block::Label { .. } => BOTH,
            Block::InsertInbox { .. }
            | Block::SelectInbox
            | Block::ForEachLine
            | Block::SelectReservation
            | Block::InsertReservation { .. }
            | Block::TakeStock { .. }
            | Block::NextLine
            | Block::Ack => CONSUMER,
            Block::UpdateOrderPaid { .. }
            | Block::SelectOrder { .. }
            | Block::InsertCharge
            | Block::IfNotPlacedSkipTo { .. }
            | Block::IfPaidByThisPaymentSkipTo { .. }
            | Block::AnswerPaid
            | Block::Refuse => MARK_PAID,
        }
    }

    /// The label a skip goes to, for every kind of skip.
    pub(crate) fn skip_label(&self) -> Option<&str> {
        match self {
            Block::IfNoRowsSkipTo { label }
            | Block::IfRowsSkipTo { label }
            | Block::IfNotPlacedSkipTo { label }
            | Block::IfPaidByThisPaymentSkipTo { label } => Some(label),
            _ => None,
        }
    }

    /// Whether the block is a statement (one step of the simulator) rather than control flow
    /// that runs in the step of the statement before it.
    pub(crate) fn is_statement(&self) -> bool {
        match self {
            Block::Begin
            | Block::InsertInbox { .. }
            | Block::SelectInbox
            | Block::SelectReservation
            | Block::InsertReservation { .. }
            | Block::TakeStock { .. }
            | Block::UpdateOrderPaid { .. }
            | Block::SelectOrder { .. }
            | Block::InsertCharge
            | Block::Commit
            | Block::Rollback
            | Block::Ack => true,
            Block::ForEachLine
            | Block::NextLine
            | Block::IfNoRowsSkipTo { .. }
            | Block::IfRowsSkipTo { .. }
            | Block::IfNotPlacedSkipTo { .. }
            | Block::IfPaidByThisPaymentSkipTo { .. }
            | Block::AnswerPaid
            | Block::Refuse
            | Block::Label { .. } => false,
        }
    }

    /// Whether the block runs once per order line, so only inside the loop.
    pub(crate) fn is_per_line(&self) -> bool {
        matches!(
            self,
            Block::SelectReservation | Block::InsertReservation { .. } | Block::TakeStock { .. }
        )
    }

    /// Whether the statement reports a row count that a skip can read.
    pub(crate) fn reports_rows(&self) -> bool {
        matches!(
            self,
            Block::InsertInbox { .. }
                | Block::SelectInbox
                | Block::SelectReservation
                | Block::InsertReservation { .. }
                | Block::TakeStock { .. }
                | Block::UpdateOrderPaid { .. }
                | Block::SelectOrder { .. }
        )
    }

    /// Whether a 0-row result of the statement has aborted the transaction (a plain `INSERT`'s
    /// unique violation).
    pub(crate) fn zero_rows_abort(&self) -> bool {
        matches!(
            self,
            Block::InsertInbox { on_conflict: InboxConflict::Error }
                | Block::InsertReservation { on_conflict: ReservationConflict::Error }
        )
    }
}
