//! [`ProgramMarkPaid`]: one `POST /orders/{id}/payments` run by a learner's compiled `MarkPaid`
//! program, the same kind of step machine as P2's built-in `MarkPaid` (`BEGIN`, the transition,
//! the charge, `COMMIT`, as [`crate::order::OrderCommandEffect`] in its own transaction), so
//! the shop's handler runs it in the built-in's place and answers from what it returns: an
//! [`OrderEvent`] (200, paid) or an [`OrderError`] (404, 409), the built-in's own values.
//!
//! One step runs one statement block, then the control blocks after it: the skips on its row
//! count or on the order status the last `select_order` read, labels, and an answer, which
//! ends the program in that step, as a `return` or a `throw` right after a round trip does.
//! `refuse` rolls the open transaction back in its step, as the built-in's refusal does. The
//! store's row lock is a row in the transaction's write set, so `SELECT ... FOR UPDATE` writes
//! the order back unchanged: it waits for, and then holds, the lock, and changes nothing.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::ids::{ChargeId, OrderId, PaymentId, Tick, TxId};
use crate::order::{
    OrderCommand, OrderError, OrderEvent, StatusChange, TransitionError, transition,
};
use crate::program::block::{Block, OrderGuard, SelectLock};
use crate::program::format::HandlerKind;
use crate::program::validate::CompiledProgram;
use crate::sql::statements;
use crate::step::Step;
use crate::store::{ChargeRow, OrderRow, OrderStatus, RowLockWait, Store, StoreError};

/// A compiled program that every state of a run shares: it is the same in all of them, so it
/// adds nothing to a state's hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SharedProgram(pub(crate) Arc<CompiledProgram>);

impl Hash for SharedProgram {
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

/// What changes as a `MarkPaid` program runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct MarkPaidRun {
    pc: usize,
    tx: Option<TxId>,
    /// What the last `select_order` read: `Some(None)` if it found no order.
    read: Option<Option<OrderStatus>>,
    /// The charge this run inserted, if it did.
    charged: Option<ChargeId>,
    ended: bool,
}

/// One payment request run by a compiled `MarkPaid` program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProgramMarkPaid {
    program: Arc<CompiledProgram>,
    order_id: OrderId,
    payment_id: PaymentId,
    run: MarkPaidRun,
}

impl Hash for ProgramMarkPaid {
    /// The program is the world's, the same in every state: only the request and where the
    /// run is are hashed.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.order_id.hash(state);
        self.payment_id.hash(state);
        self.run.hash(state);
    }
}

impl ProgramMarkPaid {
    /// `payment_id` paying `order_id`, run by `program`; `None` if `program` is not a `MarkPaid`
    /// program. Nothing runs until the first step.
    pub(crate) fn new(
        program: Arc<CompiledProgram>,
        order_id: OrderId,
        payment_id: PaymentId,
    ) -> Option<ProgramMarkPaid> {
        (program.program().handler == HandlerKind::MarkPaid).then(|| ProgramMarkPaid {
            program,
            order_id,
            payment_id,
            run: MarkPaidRun::default(),
        })
    }

    /// The order.
    pub(crate) fn order_id(&self) -> OrderId {
        self.order_id
    }

    /// The transaction it has open.
    pub(crate) fn open_transaction(&self) -> Option<TxId> {
        self.run.tx
    }

    /// The statement the next step runs, as a trace line.
    pub(crate) fn next_statement(&self, _now: Tick) -> Option<String> {
        if self.run.ended {
            return None;
        }
        let block = self.program.blocks().get(self.run.pc)?;
        let order_id = self.order_id;
        Some(match block {
            Block::Begin => "BEGIN".to_owned(),
            Block::Commit => "COMMIT".to_owned(),
            Block::Rollback => "ROLLBACK".to_owned(),
            Block::UpdateOrderPaid { guard } => {
                let placed = [OrderStatus::Placed.name()];
                let from = (*guard == OrderGuard::Placed).then_some(&placed[..]);
                let to = OrderStatus::Paid { payment_id: self.payment_id.clone() };
                statements::set_order_status(
                    order_id,
                    to.name(),
                    Some(&self.payment_id),
                    from,
                    false,
                )
            }
            Block::SelectOrder { lock: SelectLock::None } => {
                statements::select_order_status(order_id)
            }
            Block::SelectOrder { lock: SelectLock::ForUpdate } => {
                format!("{} FOR UPDATE", statements::select_order_status(order_id))
            }
            Block::InsertCharge => statements::insert_charge(order_id, &self.payment_id),
            other => format!("-- {}", other.name()),
        })
    }

    /// Runs the next statement, then the control blocks after it: `Done` with the answer's
    /// event once it answers paid, an error once it refuses (its transaction rolled back).
    pub(crate) fn step(
        &mut self,
        store: &mut Store,
        _now: Tick,
    ) -> Result<Step<OrderEvent>, OrderError> {
        if self.run.ended {
            return Err(OrderError::EffectAlreadyDone);
        }
        let index = self.run.pc;
        let block =
            self.program.blocks().get(index).cloned().ok_or(OrderError::EffectAlreadyDone)?;
        if !block.is_statement() {
            // A program that opens with control blocks runs them in its first step.
            return self.run_control(store, None);
        }
        let rows = match self.statement(store, &block) {
            Ok(Ok(rows)) => rows,
            Ok(Err(wait)) => return Ok(Step::Blocked(wait)),
            Err(error) => {
                self.end(store);
                return Err(error);
            }
        };
        self.run.pc = index + 1;
        self.run_control(store, rows)
    }

    /// Ends the run, rolling back its open transaction.
    fn end(&mut self, store: &mut Store) {
        if let Some(tx) = self.run.tx.take() {
            // Ours and open; if it is gone already, the store is as clean.
            let _ = store.rollback(tx);
        }
        self.run.ended = true;
    }

    /// Moves past the control blocks from `pc` to the next statement; `rows` is what the
    /// statement just run reported.
    fn run_control(
        &mut self,
        store: &mut Store,
        rows: Option<bool>,
    ) -> Result<Step<OrderEvent>, OrderError> {
        while let Some(block) = self.program.blocks().get(self.run.pc) {
            let pc = self.run.pc;
            let target = self.program.target(pc).unwrap_or(pc + 1);
            let skip_if = |condition: bool| if condition { target } else { pc + 1 };
            let read = self.run.read.as_ref().and_then(Option::as_ref);
            self.run.pc = match block {
                Block::IfNoRowsSkipTo { .. } => skip_if(rows != Some(true)),
                Block::IfRowsSkipTo { .. } => skip_if(rows == Some(true)),
                Block::IfNotPlacedSkipTo { .. } => skip_if(read != Some(&OrderStatus::Placed)),
                Block::IfPaidByThisPaymentSkipTo { .. } => skip_if(matches!(
                    read,
                    Some(OrderStatus::Paid { payment_id }) if *payment_id == self.payment_id
                )),
                Block::Label { .. } => pc + 1,
                Block::AnswerPaid => {
                    self.end(store);
                    return Ok(Step::Done(self.paid_event()));
                }
                Block::Refuse => {
                    self.end(store);
                    return Err(self.refusal());
                }
                _ => return Ok(Step::Continue),
            };
        }
        // The validator makes every path answer; a program that did not is refused here.
        self.end(store);
        Err(OrderError::EffectAlreadyDone)
    }

    fn tx(&self) -> Result<TxId, OrderError> {
        self.run.tx.ok_or(OrderError::Store(StoreError::UnknownTransaction { tx: TxId(0) }))
    }

    /// Runs one statement block: `Ok(Ok(rows))` with its row count if it has one,
    /// `Ok(Err(wait))` if it waits for a lock.
    fn statement(
        &mut self,
        store: &mut Store,
        block: &Block,
    ) -> Result<Result<Option<bool>, RowLockWait>, OrderError> {
        let blocked = |error: StoreError| match error {
            StoreError::Blocked(wait) => Ok(Err(wait)),
            error => Err(OrderError::Store(error)),
        };
        let order_id = self.order_id;
        Ok(Ok(match block {
            Block::Begin => {
                self.run.tx = Some(store.begin()?);
                None
            }
            Block::Commit => {
                store.commit(self.tx()?)?;
                self.run.tx = None;
                None
            }
            Block::Rollback => {
                store.rollback(self.tx()?)?;
                self.run.tx = None;
                None
            }
            Block::UpdateOrderPaid { guard } => {
                let paid = OrderStatus::Paid { payment_id: self.payment_id.clone() };
                let updated = store.update_where::<OrderRow>(
                    self.tx()?,
                    &order_id,
                    |row| *guard == OrderGuard::None || row.status == OrderStatus::Placed,
                    |row| row.status = paid,
                );
                match updated {
                    Ok(row) => Some(row.is_some()),
                    Err(error) => return blocked(error),
                }
            }
            Block::SelectOrder { lock } => {
                let tx = self.tx()?;
                let row = match lock {
                    SelectLock::None => store.get::<OrderRow>(tx, &order_id),
                    SelectLock::ForUpdate => store.update::<OrderRow>(tx, &order_id, |_| {}),
                };
                let row = match row {
                    Ok(row) => row,
                    Err(error) => return blocked(error),
                };
                let found = row.is_some();
                self.run.read = Some(row.map(|row| row.status));
                Some(found)
            }
            Block::InsertCharge => {
                let tx = self.tx()?;
                // A fresh id from the store's sequence: the insert can neither wait nor
                // conflict.
                let charge_id = store.next_charge_id();
                let row =
                    ChargeRow { id: charge_id, order_id, payment_id: self.payment_id.clone() };
                store.insert(tx, row)?;
                self.run.charged = Some(charge_id);
                None
            }
            // Control blocks are run by `run_control`; another handler's blocks are refused by
            // the validator (`new` takes only a `MarkPaid` program).
            _ => return Err(OrderError::EffectAlreadyDone),
        }))
    }

    /// The answer's event: the order paid with this run's charge, or (no charge) the payment
    /// recorded already.
    fn paid_event(&self) -> OrderEvent {
        let (order_id, payment_id) = (self.order_id, self.payment_id.clone());
        match self.run.charged {
            Some(charge_id) => OrderEvent::OrderPaid { order_id, payment_id, charge_id },
            None => OrderEvent::PaymentAlreadyRecorded { order_id, payment_id },
        }
    }

    /// The refusal, from the status the last `select_order` read, as the built-in words it: no
    /// order (or none read) is 404; a status the rules refuse is their error.
    fn refusal(&self) -> OrderError {
        let order_id = self.order_id;
        let command = OrderCommand::MarkPaid { payment_id: self.payment_id.clone() };
        let Some(Some(status)) = &self.run.read else {
            return OrderError::OrderNotFound { order_id };
        };
        match transition(status, &command) {
            Err(error) => OrderError::Transition { order_id, error },
            // As the built-in: an order the read sees as placed was not there for the update.
            Ok(StatusChange::Changed { .. }) => OrderError::OrderNotFound { order_id },
            Ok(StatusChange::Unchanged) => OrderError::Transition {
                order_id,
                error: TransitionError::WrongStatus { command, status: status.clone() },
            },
        }
    }
}
