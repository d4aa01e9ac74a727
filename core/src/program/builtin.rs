//! The built-in consumers written as programs: each twin of P4 around each twin of P1, block
//! for block the statements that [`crate::inbox::ConsumeMessage`] and
//! [`crate::stock::ReserveStockEffect`] run, so that a program can be judged beside the code
//! it stands for (a test holds them to the same verdict and the same count of states).

use crate::inbox::ConsumerImplementation;
use crate::program::block::{Block, InboxConflict, ReservationConflict, StockGuard};
use crate::program::format::{HandlerKind, HandlerProgram};
use crate::stock::StockImplementation;

/// The reserve-stock consumer of `inbox` around the reservation of `stock`, as a program.
pub fn builtin_consumer(
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

/// `if it inserted 0 rows, skip to` `name`.
pub fn skip_if_none(name: &str) -> Block {
    Block::IfNoRowsSkipTo { label: name.to_owned() }
}

/// The label `name`.
pub fn label(name: &str) -> Block {
    Block::Label { name: name.to_owned() }
}
