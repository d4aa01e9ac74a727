//! A program in the learner's words: each block as the line it stands for (a statement as
//! its SQL, which reads the same in every language; control flow from the catalogue), a
//! parameter's value on its own (what a block's picker offers), and why a program is refused
//! ([`ProgramError::text_in`]), the block counted from 1 as an editor shows it.

use crate::program::block::{
    Block, InboxConflict, OrderGuard, ReservationConflict, SelectLock, StockGuard,
};
use crate::program::validate::ProgramError;
use crate::words::{Language, fill};

impl Block {
    /// The block as one line: its statement with its parameter, or its control flow.
    pub fn text_in(&self, language: Language) -> String {
        match (self.skip_label(), self.parameter_text_in(language)) {
            (Some(label), _) => self.head_with(language, label),
            (None, Some(parameter)) => format!("{} {parameter}", self.head_in(language)),
            (None, None) => self.head_in(language),
        }
    }

    /// The block without its parameter, what an editor shows before the parameter's picker:
    /// `INSERT INTO inbox (message_id, consumer)`, `if 0 rows, skip to`.
    pub fn head_in(&self, language: Language) -> String {
        self.head_with(language, "").trim_end().to_owned()
    }

    /// The block's line with `label` for a skip's, without any other parameter.
    fn head_with(&self, language: Language, label: &str) -> String {
        let words = language.words();
        match self {
            Block::Begin => "BEGIN".to_owned(),
            Block::InsertInbox { .. } => "INSERT INTO inbox (message_id, consumer)".to_owned(),
            Block::SelectInbox => {
                "SELECT 1 FROM inbox WHERE message_id = $id AND consumer = $consumer".to_owned()
            }
            Block::ForEachLine => words.build.block_for_each_line.to_owned(),
            Block::SelectReservation => {
                "SELECT qty FROM reservations WHERE order_id = $order AND sku = $sku".to_owned()
            }
            Block::InsertReservation { .. } => {
                "INSERT INTO reservations (order_id, sku, qty)".to_owned()
            }
            Block::TakeStock { .. } => {
                "UPDATE stock SET available_qty = available_qty - $qty".to_owned()
            }
            Block::NextLine => words.build.block_next_line.to_owned(),
            Block::IfNoRowsSkipTo { .. } => {
                fill(words.build.block_if_no_rows, &[("label", &label)])
            }
            Block::IfRowsSkipTo { .. } => fill(words.build.block_if_rows, &[("label", &label)]),
            Block::Label { name } => format!("{name}:"),
            Block::UpdateOrderPaid { .. } => {
                "UPDATE orders SET status = 'paid', payment_id = $payment".to_owned()
            }
            Block::SelectOrder { .. } => {
                "SELECT status, payment_id FROM orders WHERE id = $id".to_owned()
            }
            Block::InsertCharge => "INSERT INTO charges (order_id, payment_id)".to_owned(),
            Block::IfNotPlacedSkipTo { .. } => {
                fill(words.build.block_if_not_placed, &[("label", &label)])
            }
            Block::IfPaidByThisPaymentSkipTo { .. } => {
                fill(words.build.block_if_paid_by_this, &[("label", &label)])
            }
            Block::AnswerPaid => words.build.block_answer_paid.to_owned(),
            Block::Refuse => words.build.block_refuse.to_owned(),
            Block::Commit => "COMMIT".to_owned(),
            Block::Rollback => "ROLLBACK".to_owned(),
            Block::Ack => words.build.block_ack.to_owned(),
        }
    }

    /// The block's parameter alone, what its picker offers: a conflict clause, a `WHERE`, a
    /// lock, a skip's label; `None` for a block without one.
    pub fn parameter_text_in(&self, language: Language) -> Option<String> {
        let words = language.words();
        Some(match self {
            Block::InsertInbox { on_conflict: InboxConflict::Error }
            | Block::InsertReservation { on_conflict: ReservationConflict::Error } => {
                words.build.block_no_on_conflict.to_owned()
            }
            Block::InsertInbox { on_conflict: InboxConflict::DoNothing }
            | Block::InsertReservation { on_conflict: ReservationConflict::DoNothing } => {
                "ON CONFLICT DO NOTHING".to_owned()
            }
            Block::InsertReservation { on_conflict: ReservationConflict::AddQty } => {
                "ON CONFLICT DO UPDATE SET qty = qty + $qty".to_owned()
            }
            Block::TakeStock { guard: StockGuard::None } => "WHERE sku = $sku".to_owned(),
            Block::TakeStock { guard: StockGuard::AvailableQty } => {
                "WHERE sku = $sku AND available_qty >= $qty".to_owned()
            }
            Block::UpdateOrderPaid { guard: OrderGuard::None } => "WHERE id = $id".to_owned(),
            Block::UpdateOrderPaid { guard: OrderGuard::Placed } => {
                "WHERE id = $id AND status = 'placed'".to_owned()
            }
            Block::SelectOrder { lock: SelectLock::None } => words.build.block_no_lock.to_owned(),
            Block::SelectOrder { lock: SelectLock::ForUpdate } => "FOR UPDATE".to_owned(),
            skip if skip.skip_label().is_some() => skip.skip_label().unwrap_or_default().to_owned(),
            _ => return None,
        })
    }
}

impl ProgramError {
    /// Why the program is refused, in `language`, its block counted from 1.
    pub fn text_in(&self, language: Language) -> String {
        let words = language.words();
        let at = |template: &str, index: usize| fill(template, &[("n", &(index + 1))]);
        let at_label = |template: &str, index: usize, name: &str, label: &str| {
            fill(template, &[("n", &(index + 1) as &dyn std::fmt::Display), (name, &label)])
        };
        match self {
            ProgramError::Empty => words.build.pe_empty.to_owned(),
            ProgramError::SkipWithoutOrderRead { index } => {
                at(words.build.pe_skip_without_order_read, *index)
            }
            ProgramError::AnswerInTransaction { index } => {
                at(words.build.pe_answer_in_transaction, *index)
            }
            ProgramError::MissingAnswer => words.build.pe_missing_answer.to_owned(),
            ProgramError::DuplicateLabel { index, name, .. } => {
                at_label(words.build.pe_duplicate_label, *index, "name", name)
            }
            ProgramError::UnknownLabel { index, label } => {
                at_label(words.build.pe_unknown_label, *index, "label", label)
            }
            ProgramError::JumpBackwards { index, label, .. } => {
                at_label(words.build.pe_jump_backwards, *index, "label", label)
            }
            ProgramError::JumpIntoLoop { index, label } => {
                at_label(words.build.pe_jump_into_loop, *index, "label", label)
            }
            ProgramError::NestedLoop { index } => at(words.build.pe_nested_loop, *index),
            ProgramError::NextLineWithoutLoop { index } => {
                at(words.build.pe_next_line_without_loop, *index)
            }
            ProgramError::LoopNotClosed { index } => at(words.build.pe_loop_not_closed, *index),
            ProgramError::LineStatementOutsideLoop { index, .. } => {
                at(words.build.pe_line_outside_loop, *index)
            }
            ProgramError::MissingAck => words.build.pe_missing_ack.to_owned(),
            ProgramError::SecondAck { index, .. } => at(words.build.pe_second_ack, *index),
            ProgramError::AckInLoop { index } => at(words.build.pe_ack_in_loop, *index),
            ProgramError::SkipWithoutRowCount { index } => {
                at(words.build.pe_skip_without_row_count, *index)
            }
            ProgramError::BeginInTransaction { index } => {
                at(words.build.pe_begin_in_transaction, *index)
            }
            ProgramError::StatementOutsideTransaction { index, .. } => {
                at(words.build.pe_statement_outside_transaction, *index)
            }
            ProgramError::EndWithoutBegin { index, block } => {
                at_label(words.build.pe_end_without_begin, *index, "block", &block.to_uppercase())
            }
            ProgramError::TransactionLeftOpen { begin_index } => {
                at(words.build.pe_transaction_left_open, *begin_index)
            }
            ProgramError::TooLong { .. }
            | ProgramError::Json { .. }
            | ProgramError::UnknownField { .. }
            | ProgramError::UnsupportedVersion { .. }
            | ProgramError::HandlerNeedsNewerVersion { .. }
            | ProgramError::BlockNotForHandler { .. }
            | ProgramError::TooManyBlocks { .. }
            | ProgramError::InvalidLabel { .. } => {
                fill(words.build.pe_other, &[("error", &self.to_string())])
            }
        }
    }
}
