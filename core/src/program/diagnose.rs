//! The typical wrong answers, recognised in a program's blocks, so that a counterexample comes
//! with a sentence on why: for a consumer, `ACK` before `COMMIT`, the inbox row committed apart
//! from the effect, a `SELECT` deciding instead of the unique key, no inbox at all; for
//! `MarkPaid`, a plain `SELECT` deciding instead of the guarded `UPDATE` or a row lock, and the
//! `UPDATE` without its status guard. The checker's counterexample
//! is the proof; this only names the mistake it most likely shows.

use serde::{Deserialize, Serialize};

use crate::program::block::{Block, OrderGuard, SelectLock};
use crate::program::format::{HandlerKind, HandlerProgram};

/// A typical mistake of a consumer program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Mistake {
    /// A `COMMIT` after the `ACK`.
    AckBeforeCommit,
    /// The inbox row and the effect's statements are separated by a `COMMIT`.
    InboxInOwnTransaction,
    /// A skip decided by a `SELECT` (check-then-insert) rather than by an `INSERT`.
    CheckThenInsert,
    /// No `INSERT INTO inbox` at all.
    NoInbox,
    /// `MarkPaid` decides on a plain `SELECT`'s status, then updates without the guard.
    CheckThenUpdate,
    /// `MarkPaid`'s `UPDATE orders` without `AND status = 'placed'`, and no row lock taken
    /// before it.
    UnguardedUpdate,
}

/// The first typical mistake `program` makes, in the order of [`Mistake`]'s variants.
pub(crate) fn diagnose(program: &HandlerProgram) -> Option<Mistake> {
    match program.handler {
        HandlerKind::ReserveStockConsumer => diagnose_consumer(&program.blocks),
        HandlerKind::MarkPaid => diagnose_mark_paid(&program.blocks),
    }
}

fn diagnose_mark_paid(blocks: &[Block]) -> Option<Mistake> {
    let unguarded = blocks
        .iter()
        .position(|block| matches!(block, Block::UpdateOrderPaid { guard: OrderGuard::None }))?;
    let before = &blocks[..unguarded];
    if before
        .iter()
        .any(|block| matches!(block, Block::SelectOrder { lock: SelectLock::ForUpdate }))
    {
        return None;
    }
    let checked = before.iter().any(|block| {
        matches!(block, Block::IfNotPlacedSkipTo { .. } | Block::IfPaidByThisPaymentSkipTo { .. })
    });
    Some(if checked { Mistake::CheckThenUpdate } else { Mistake::UnguardedUpdate })
}

fn diagnose_consumer(blocks: &[Block]) -> Option<Mistake> {
    let position = |wanted: fn(&Block) -> bool| blocks.iter().position(wanted);
    let last_commit = blocks.iter().rposition(|block| matches!(block, Block::Commit));
    let ack = position(|block| matches!(block, Block::Ack));
    if let (Some(ack), Some(last_commit)) = (ack, last_commit)
        && ack < last_commit
    {
        return Some(Mistake::AckBeforeCommit);
    }
    let inbox = position(|block| matches!(block, Block::InsertInbox { .. }));
    let effect = position(Block::is_per_line);
    if let (Some(inbox), Some(effect)) = (inbox, effect) {
        let (first, second) = (inbox.min(effect), inbox.max(effect));
        if blocks[first..second].iter().any(|block| matches!(block, Block::Commit)) {
            return Some(Mistake::InboxInOwnTransaction);
        }
    }
    let checked_by_select = blocks.windows(2).any(|pair| {
        matches!(pair[0], Block::SelectInbox | Block::SelectReservation)
            && matches!(pair[1], Block::IfNoRowsSkipTo { .. } | Block::IfRowsSkipTo { .. })
    });
    if checked_by_select {
        return Some(Mistake::CheckThenInsert);
    }
    inbox.is_none().then_some(Mistake::NoInbox)
}
