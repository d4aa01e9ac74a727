//! Handler programs: a consumer, or a `MarkPaid`, assembled by a learner from the seed's
//! statements and their naive twins, checked, compiled into the same kind of step machine as the built-in handlers
//! and run by the simulator in their place, so the exhaustive checker proves it or finds the
//! shortest schedule that defeats it.
//!
//! A program is data ([`HandlerProgram`], strict versioned JSON): a list of [`Block`]s from the
//! palette, statements (`BEGIN`, `INSERT INTO inbox ...`, `UPDATE stock ...`, `COMMIT`, `ACK`)
//! and control (`if it inserted 0 rows, skip to`, labels, the loop over the order's lines).
//! [`compile`] validates it, every mistake a typed [`ProgramError`] naming the block, and
//! resolves its skips. [`ProgramConsumer`] runs one delivery: one statement block per step, so
//! two instances interleave statement by statement and a check-then-act race really loses.
//! [`ProgramMarkPaid`] runs one payment request in place of P2's built-in `MarkPaid`.
//! `builtin_consumer` and [`builtin_mark_paid`] write the built-ins as programs.
//!
//! Files: `block` (the palette), `format` (the file), `validate` (the validator and compiler),
//! `consumer` and `mark_paid` (the step machines), `builtin` (the built-ins as programs),
//! `diagnose` (the
//! typical wrong answers, for the sentence on why), `text` (blocks and refusals in the
//! learner's words). The judge, which
//! runs the checker over a lesson with a program installed, is the checker's `judge` module.

mod block;
mod builtin;
mod consumer;
mod diagnose;
mod format;
mod mark_paid;
mod text;
mod validate;

pub use block::{Block, loop_depths};
pub(crate) use block::{InboxConflict, OrderGuard, ReservationConflict, SelectLock, StockGuard};
#[cfg(test)]
pub(crate) use builtin::builtin_consumer;
pub use builtin::builtin_mark_paid;
pub(crate) use consumer::{ProgramConsumer, Progress};
pub(crate) use diagnose::{Mistake, diagnose};
pub(crate) use format::BLOCKS_MAX;
#[cfg(test)]
pub(crate) use format::PROGRAM_JSON_BYTES_MAX;
pub use format::{HandlerKind, HandlerProgram};
pub(crate) use mark_paid::{ProgramMarkPaid, SharedProgram};
pub(crate) use validate::CompiledProgram;
pub use validate::{ProgramError, compile};

#[cfg(test)]
mod tests;
