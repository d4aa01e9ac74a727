//! The built-in handlers written as programs: each twin of P4 around each twin of P1, block
//! for block the statements that [`crate::inbox::ConsumeMessage`] and
//! [`crate::stock::ReserveStockEffect`] run, and each twin of P2's `MarkPaid` as
//! [`crate::order::OrderCommandEffect`] runs it, so that a program can be judged beside the
//! code it stands for (a test holds them to the same verdict and the same count of states).

#[cfg(test)]
use crate::inbox::ConsumerImplementation;
use crate::order::OrderImplementation;
use crate::program::block::{Block, OrderGuard, SelectLock};
#[cfg(test)]
use crate::program::block::{InboxConflict, ReservationConflict, StockGuard};
use crate::program::format::{HandlerKind, HandlerProgram};
#[cfg(test)]
use crate::stock::StockImplementation;

/// The reserve-stock consumer of `inbox` around the reservation of `stock`, as a program.
#[cfg(test)]
pub(crate) fn builtin_consumer(
    inbox: ConsumerImplementation,
    stock: StockImplementation,
) -> HandlerProgram {
    let mut blocks = vec![Block::Begin];
    if inbox == ConsumerImplementation::Idempotent {
        blocks.push(Block::InsertInbox { on_conflict: InboxConflict::Error });
        blocks.push(skip_if_none("ack"));
    }
    blocks.push(Block::ForEachLine);
    match stock {
        StockImplementation::Naive => {
            blocks.push(Block::TakeStock { guard: StockGuard::None });
            blocks.push(Block::InsertReservation { on_conflict: ReservationConflict::AddQty });
        }
        StockImplementation::Idempotent => {
            blocks.push(Block::InsertReservation { on_conflict: ReservationConflict::DoNothing });
            blocks.push(skip_if_none("next"));
            blocks.push(Block::TakeStock { guard: StockGuard::AvailableQty });
            blocks.push(label("next"));
        }
    }
    blocks.push(Block::NextLine);
    blocks.push(Block::Commit);
    if inbox == ConsumerImplementation::Idempotent {
        blocks.push(label("ack"));
    }
    blocks.push(Block::Ack);
    HandlerProgram::new(HandlerKind::ReserveStockConsumer, blocks)
}

/// P2's `MarkPaid` of `order` as a program. The naive twin updates whatever the status and
/// charges; the idempotent one is the seed's guarded `UPDATE ... AND status = 'placed'`, and
/// when it changes nothing, a `SELECT` tells a repeat of this payment (answered paid, no
/// charge) from a refusal.
pub fn builtin_mark_paid(order: OrderImplementation) -> HandlerProgram {
    let blocks = match order {
        OrderImplementation::Naive => vec![
            Block::Begin,
            Block::UpdateOrderPaid { guard: OrderGuard::None },
            Block::IfRowsSkipTo { label: "charge".to_owned() },
            Block::Refuse,
            label("charge"),
            Block::InsertCharge,
            Block::Commit,
            Block::AnswerPaid,
        ],
        OrderImplementation::Idempotent => vec![
            Block::Begin,
            Block::UpdateOrderPaid { guard: OrderGuard::Placed },
            skip_if_none("repeat"),
            Block::InsertCharge,
            Block::Commit,
            Block::AnswerPaid,
            label("repeat"),
            Block::SelectOrder { lock: SelectLock::None },
            Block::IfPaidByThisPaymentSkipTo { label: "already-paid".to_owned() },
            Block::Refuse,
            label("already-paid"),
            Block::Commit,
            Block::AnswerPaid,
        ],
    };
    HandlerProgram::new(HandlerKind::MarkPaid, blocks)
}

/// `if it inserted 0 rows, skip to` `name`.
pub(crate) fn skip_if_none(name: &str) -> Block {
    Block::IfNoRowsSkipTo { label: name.to_owned() }
}

/// The label `name`.
pub(crate) fn label(name: &str) -> Block {
    Block::Label { name: name.to_owned() }
}
