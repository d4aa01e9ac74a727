//! [`ProgramConsumer`]: one delivery of one message run by a learner's compiled program, the
//! same kind of step machine as P4's built-in [`crate::inbox::ConsumeMessage`], so the
//! simulator runs it in its place and the checker explores it statement by statement.
//!
//! One step runs one statement block (`BEGIN`, an `INSERT`, an `UPDATE`, `COMMIT`, the
//! broker's `ACK`), then the control blocks after it (skips on its row count, labels, the
//! loop over the order's lines) up to the next statement. A plain `INSERT`'s unique violation
//! aborts the transaction as PostgreSQL does: the store rolls it back in the same step, and any
//! statement but `COMMIT` or `ROLLBACK` after it fails the delivery ("current transaction is
//! aborted"). `ACK` may come anywhere: the world acknowledges the delivery when the block runs,
//! and the program goes on (so `ACK` before `COMMIT` loses the effect to a crash).

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{ConsumerName, MessageId, OrderId, Tick, TxId};
use crate::inbox::{ConsumeOutcome, ConsumerCrashed, Envelope};
use crate::program::block::{Block, InboxConflict, ReservationConflict, StockGuard};
use crate::program::format::HandlerKind;
use crate::program::validate::CompiledProgram;
use crate::sql::statements::{self, OnConflict};
use crate::stock::{StockError, StockReservationEvent, check_order_lines};
use crate::store::{
    InboxRow, Inserted, MessagePayload, OrderLine, ReservationRow, RowLockWait, StockRow, Store,
    StoreError,
};

mod store_steps;

use store_steps::reservation_event;

/// Why a program's delivery failed. Its transaction has been rolled back and the delivery is
/// not acknowledged (unless `ACK` ran before), so the broker redelivers it.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub(crate) enum ProgramRunError {
    /// The program uses the inbox and the message has no id (the seed's
    /// `InvalidOperationException`).
    #[error("consumer {consumer} got a message without a MessageId; nothing was written")]
    MissingMessageId {
        /// The consumer.
        consumer: ConsumerName,
    },
    /// A statement ran in a transaction that a unique violation had aborted.
    #[error(
        "block {index}: current transaction is aborted, commands ignored until end of transaction block"
    )]
    TransactionAborted {
        /// The block.
        index: usize,
    },
    /// A statement failed in the store.
    #[error("block {index}: {error}")]
    Store {
        /// The block.
        index: usize,
        /// What failed.
        error: StoreError,
    },
    /// The stock statement refused the line (unknown sku, too little stock).
    #[error("block {index}: {error}")]
    Stock {
        /// The block.
        index: usize,
        /// What the stock said.
        error: StockError,
    },
    /// The message is not one the consumer can handle (not an `OrderPlaced`, bad lines).
    #[error("the reserve-stock consumer rejects the message: {detail}")]
    Rejected {
        /// Why.
        detail: String,
    },
    /// A statement with no transaction open (the validator rules this out).
    #[error("block {index}: no transaction is open")]
    NoTransaction {
        /// The block.
        index: usize,
    },
    /// A block of another handler's palette (the validator rules this out).
    #[error("block {index}: {block} is not a block of the consumer")]
    NotAConsumerBlock {
        /// The block.
        index: usize,
        /// Its name.
        block: String,
    },
    /// The program was stepped after its end: a bug of the caller.
    #[error("the program was stepped after its end")]
    AlreadyEnded,
}

/// The transaction a program holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
enum ProgramTx {
    #[default]
    None,
    Open(TxId),
    /// A unique violation aborted it; the store has rolled it back.
    Aborted(TxId),
}

/// How a step left the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Progress {
    /// More statements follow.
    Continue,
    /// The statement waits for another transaction's row lock; it runs again next step.
    Blocked(RowLockWait),
    /// The program ran its last block.
    Ended,
}

/// What one step did, beyond the store: whether it committed the effect and whether it
/// acknowledged the delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProgramStepped {
    /// Where the program is now.
    pub(crate) progress: Progress,
    /// `Some(with_inbox)` if a `COMMIT` committed a transaction that ran the effect's
    /// statements, with whether it inserted the inbox row too.
    pub(crate) effect_committed: Option<bool>,
    /// The outcome told to the broker, if this step was the `ACK`.
    pub(crate) acknowledged: Option<ConsumeOutcome<StockReservationEvent>>,
}

/// One delivery run by a compiled program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProgramConsumer {
    program: Arc<CompiledProgram>,
    consumer: ConsumerName,
    message_id: MessageId,
    envelope: Envelope,
    order_id: Option<OrderId>,
    lines: Result<Vec<OrderLine>, String>,
    run: RunState,
}

/// What changes as the program runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct RunState {
    pc: usize,
    line_index: usize,
    tx: ProgramTx,
    started: bool,
    acked: bool,
    tx_wrote_inbox: bool,
    tx_ran_effect: bool,
    committed_effect: Option<TxId>,
    reserved_lines: Vec<OrderLine>,
    already_present_lines: Vec<OrderLine>,
}

impl Hash for ProgramConsumer {
    /// The program and the consumer are the world's, the same in every state: only the
    /// delivery and where it is are hashed.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.envelope.hash(state);
        self.run.hash(state);
    }
}

impl ProgramConsumer {
    /// A delivery of `envelope` (the broker's copy of `message_id`) to `consumer`, run by
    /// `program`; nothing runs until the first step.
    pub(crate) fn new(
        program: Arc<CompiledProgram>,
        consumer: ConsumerName,
        message_id: MessageId,
        envelope: Envelope,
    ) -> ProgramConsumer {
        let (order_id, lines) = match &envelope.payload {
            MessagePayload::OrderPlaced { order_id, lines } => (
                Some(*order_id),
                check_order_lines(lines).map_err(|error| format!("order {order_id}: {error}")),
            ),
            MessagePayload::PaymentCaptured { .. } => {
                (None, Err("it does not handle PaymentCaptured".to_owned()))
            }
            MessagePayload::OrderCancelled { .. } => {
                (None, Err("it does not handle OrderCancelled".to_owned()))
            }
        };
        let mut consumer = ProgramConsumer {
            program,
            consumer,
            message_id,
            envelope,
            order_id,
            lines,
            run: RunState::default(),
        };
        consumer.run_control(None);
        consumer
    }

    /// The transaction it has open.
    pub(crate) fn open_transaction(&self) -> Option<TxId> {
        match self.run.tx {
            ProgramTx::Open(tx) => Some(tx),
            ProgramTx::None | ProgramTx::Aborted(_) => None,
        }
    }

    /// Whether a crash now is F2's (after a commit, before the ack): it has run a statement,
    /// holds no transaction and has not acknowledged.
    pub(crate) fn awaits_ack(&self) -> bool {
        self.run.started && !self.run.acked && self.open_transaction().is_none()
    }

    /// Whether the next step is the `COMMIT` of its open transaction.
    pub(crate) fn about_to_commit(&self) -> bool {
        self.open_transaction().is_some()
            && matches!(self.program.blocks().get(self.run.pc), Some(Block::Commit))
    }

    /// The block the next step runs, from 0, or `None` at the end.
    pub(crate) fn next_block(&self) -> Option<usize> {
        (self.run.pc < self.program.blocks().len()).then_some(self.run.pc)
    }

    fn refuses_missing_id(&self) -> bool {
        !self.run.started && self.program.uses_inbox() && self.envelope.message_id.is_none()
    }

    fn line(&self) -> Option<&OrderLine> {
        self.lines.as_ref().ok().and_then(|lines| lines.get(self.run.line_index))
    }

    /// The statement the next step runs, as a trace line.
    pub(crate) fn next_statement(&self, now: Tick) -> Option<String> {
        if self.refuses_missing_id() {
            return Some("throw InvalidOperationException(\"no MessageId\")".to_owned());
        }
        let block = self.program.blocks().get(self.run.pc)?;
        let inbox_row = || {
            self.envelope.message_id.map(|message_id| InboxRow {
                message_id,
                consumer: self.consumer.clone(),
                processed_at: now,
            })
        };
        let line_text =
            |make: &dyn Fn(OrderId, &OrderLine) -> String| match (self.order_id, self.line()) {
                (Some(order_id), Some(line)) => make(order_id, line),
                _ => format!("-- reject: {}", self.lines.as_ref().err().map_or("", String::as_str)),
            };
        Some(match block {
            Block::Begin => "BEGIN".to_owned(),
            Block::Commit => "COMMIT".to_owned(),
            Block::Rollback => "ROLLBACK".to_owned(),
            Block::Ack => match self.envelope.message_id {
                Some(message_id) => format!("ACK {message_id}"),
                None => "ACK (no MessageId)".to_owned(),
            },
            Block::InsertInbox { on_conflict } => match inbox_row() {
                Some(row) => statements::insert(
                    &row,
                    match on_conflict {
                        InboxConflict::Error => OnConflict::Fail,
                        InboxConflict::DoNothing => OnConflict::DoNothing,
                    },
                ),
                None => "INSERT INTO inbox -- no MessageId".to_owned(),
            },
            Block::SelectInbox => match self.envelope.message_id {
                Some(message_id) => statements::select_inbox_row(message_id, &self.consumer),
                None => "SELECT 1 FROM inbox -- no MessageId".to_owned(),
            },
            Block::SelectReservation => {
                line_text(&|order_id, line| statements::select_reservation(order_id, &line.sku))
            }
            Block::InsertReservation { on_conflict } => line_text(&|order_id, line| {
                let row =
                    ReservationRow { order_id, sku: line.sku.clone(), qty: i64::from(line.qty) };
                statements::insert(
                    &row,
                    match on_conflict {
                        ReservationConflict::DoNothing => OnConflict::DoNothing,
                        ReservationConflict::AddQty => {
                            OnConflict::DoUpdate(statements::ADD_TO_RESERVATION.to_owned())
                        }
                        ReservationConflict::Error => OnConflict::Fail,
                    },
                )
            }),
            Block::TakeStock { guard } => line_text(&|_, line| match guard {
                StockGuard::None => statements::take_stock(&line.sku, line.qty),
                StockGuard::AvailableQty => {
                    statements::take_stock_if_available(&line.sku, line.qty)
                }
            }),
            Block::UpdateOrderPaid { .. }
            | Block::SelectOrder { .. }
            | Block::InsertCharge
            | Block::IfNotPlacedSkipTo { .. }
            | Block::IfPaidByThisPaymentSkipTo { .. }
            | Block::AnswerPaid
            | Block::Refuse => format!("-- {} is not a consumer block", block.name()),
            // Control blocks never wait at `pc`: `run_control` moves past them.
            Block::ForEachLine
            | Block::NextLine
            | Block::IfNoRowsSkipTo { .. }
            | Block::IfRowsSkipTo { .. }
            | Block::Label { .. } => format!("-- {}", block.name()),
        })
    }

    /// Runs the next statement at `now`, then the control blocks after it.
    pub(crate) fn step(
        &mut self,
        store: &mut Store,
        now: Tick,
    ) -> Result<ProgramStepped, ProgramRunError> {
        if self.refuses_missing_id() {
            self.run.pc = self.program.blocks().len();
            return Err(ProgramRunError::MissingMessageId { consumer: self.consumer.clone() });
        }
        let index = self.run.pc;
        let block =
            self.program.blocks().get(index).cloned().ok_or(ProgramRunError::AlreadyEnded)?;
        self.run.started = true;
        let mut stepped = ProgramStepped {
            progress: Progress::Continue,
            effect_committed: None,
            acknowledged: None,
        };
        let ran = if block.handlers().contains(&HandlerKind::ReserveStockConsumer) {
            self.statement(store, now, index, &block, &mut stepped)
        } else {
            Err(ProgramRunError::NotAConsumerBlock { index, block: block.name().to_owned() })
        };
        let rows = match ran {
            Ok(Ok(rows)) => rows,
            Ok(Err(wait)) => {
                stepped.progress = Progress::Blocked(wait);
                return Ok(stepped);
            }
            Err(error) => {
                if let Some(tx) = self.open_transaction() {
                    // Ours and open; if it is gone already, the store is as clean.
                    let _ = store.rollback(tx);
                }
                self.run.tx = ProgramTx::None;
                self.run.pc = self.program.blocks().len();
                return Err(error);
            }
        };
        self.run.pc = index + 1;
        self.run_control(rows);
        if self.next_block().is_none() {
            stepped.progress = Progress::Ended;
        }
        Ok(stepped)
    }

    /// Moves past the control blocks from `pc` to the next statement; `rows` is what the
    /// statement just run reported.
    fn run_control(&mut self, rows: Option<bool>) {
        let blocks = self.program.blocks();
        let line_count = self.lines.as_ref().map_or(1, Vec::len);
        while let Some(block) = blocks.get(self.run.pc) {
            let pc = self.run.pc;
            let skip = |to_zero: bool| {
                let zero = rows != Some(true);
                if zero == to_zero { self.program.target(pc).unwrap_or(pc + 1) } else { pc + 1 }
            };
            self.run.pc = match block {
                Block::IfNoRowsSkipTo { .. } => skip(true),
                Block::IfRowsSkipTo { .. } => skip(false),
                Block::Label { .. } => pc + 1,
                Block::ForEachLine => {
                    self.run.line_index = 0;
                    pc + 1
                }
                Block::NextLine => {
                    if self.run.line_index + 1 < line_count {
                        self.run.line_index += 1;
                        self.program.target(pc).map_or(pc + 1, |start| start + 1)
                    } else {
                        self.run.line_index = 0;
                        pc + 1
                    }
                }
                _ => return,
            };
        }
    }

    fn tx(&self, index: usize) -> Result<TxId, ProgramRunError> {
        match self.run.tx {
            ProgramTx::Open(tx) => Ok(tx),
            ProgramTx::Aborted(_) => Err(ProgramRunError::TransactionAborted { index }),
            ProgramTx::None => Err(ProgramRunError::NoTransaction { index }),
        }
    }

    fn line_or_reject(&self) -> Result<(OrderId, OrderLine), ProgramRunError> {
        match (self.order_id, self.line(), &self.lines) {
            (Some(order_id), Some(line), _) => Ok((order_id, line.clone())),
            (_, _, Err(detail)) => Err(ProgramRunError::Rejected { detail: detail.clone() }),
            _ => Err(ProgramRunError::Rejected { detail: "no such line".to_owned() }),
        }
    }

    fn message_id(&self) -> Result<MessageId, ProgramRunError> {
        self.envelope
            .message_id
            .ok_or_else(|| ProgramRunError::MissingMessageId { consumer: self.consumer.clone() })
    }

    /// A unique violation aborted `tx`: PostgreSQL rolls it back.
    fn abort(&mut self, store: &mut Store, tx: TxId) -> Result<(), StoreError> {
        store.rollback(tx)?;
        self.run.tx = ProgramTx::Aborted(tx);
        Ok(())
    }

    /// What the `ACK` tells: the effect processed (committed, or still in the open
    /// transaction), or the message ignored as a duplicate.
    fn outcome(&self) -> ConsumeOutcome<StockReservationEvent> {
        let tx = match self.run.tx {
            ProgramTx::Open(tx) if self.run.tx_ran_effect => Some(tx),
            _ => self.run.committed_effect,
        };
        let message_id = self.envelope.message_id.unwrap_or(self.message_id);
        match (tx, self.order_id) {
            (Some(tx), Some(order_id)) => ConsumeOutcome::MessageProcessed {
                message_id: self.envelope.message_id,
                tx,
                effect_output: reservation_event(
                    order_id,
                    self.run.reserved_lines.clone(),
                    self.run.already_present_lines.clone(),
                ),
            },
            _ => {
                let tx = match self.run.tx {
                    ProgramTx::Open(tx) | ProgramTx::Aborted(tx) => tx,
                    ProgramTx::None => TxId(0),
                };
                ConsumeOutcome::DuplicateIgnored { message_id, tx }
            }
        }
    }

    /// Crashes the instance: its open transaction is rolled back.
    pub(crate) fn crash(self, store: &mut Store) -> ConsumerCrashed {
        if let Some(tx) = self.open_transaction() {
            // Open by construction; if it is gone, there is nothing to roll back.
            let _ = store.rollback(tx);
            return ConsumerCrashed::BeforeCommit { tx };
        }
        if !self.run.started {
            ConsumerCrashed::BeforeBegin
        } else if !self.run.acked {
            ConsumerCrashed::AfterCommitBeforeAck {
                applied_effect: self.run.committed_effect.is_some(),
            }
        } else {
            ConsumerCrashed::AfterEnd
        }
    }
}
