//! The statements of a program's blocks against the store: each block one step, as the
//! built-in handlers take them (the inbox insert, the stock update, the reservation insert and
//! the rest), with what a refused or blocked statement does to the run.

use super::{
    Block, InboxConflict, InboxRow, Inserted, OrderId, OrderLine, ProgramConsumer, ProgramRunError,
    ProgramStepped, ProgramTx, ReservationConflict, ReservationRow, RowLockWait, StockError,
    StockGuard, StockReservationEvent, StockRow, Store, StoreError, Tick, TxId,
};

impl ProgramConsumer {
    /// Runs one statement block: `Ok(Ok(rows))` with its row count if it has one (`true` for
    /// a row), `Ok(Err(wait))` if it waits for a lock.
    pub(super) fn statement(
        &mut self,
        store: &mut Store,
        now: Tick,
        index: usize,
        block: &Block,
        stepped: &mut ProgramStepped,
    ) -> Result<Result<Option<bool>, RowLockWait>, ProgramRunError> {
        let store_error = |error: StoreError| ProgramRunError::Store { index, error };
        let rows = match block {
            Block::Begin => {
                let tx = store.begin().map_err(store_error)?;
                self.run.tx = ProgramTx::Open(tx);
                self.run.tx_wrote_inbox = false;
                self.run.tx_ran_effect = false;
                None
            }
            Block::Commit => {
                if let ProgramTx::Open(tx) = self.run.tx {
                    store.commit(tx).map_err(store_error)?;
                    if self.run.tx_ran_effect {
                        stepped.effect_committed = Some(self.run.tx_wrote_inbox);
                        self.run.committed_effect = Some(tx);
                    }
                }
                self.run.tx = ProgramTx::None;
                None
            }
            Block::Rollback => {
                if let ProgramTx::Open(tx) = self.run.tx {
                    store.rollback(tx).map_err(store_error)?;
                }
                self.run.tx = ProgramTx::None;
                None
            }
            Block::Ack => {
                self.run.acked = true;
                stepped.acknowledged = Some(self.outcome());
                None
            }
            Block::InsertInbox { on_conflict } => {
                match self.insert_inbox(store, now, index, *on_conflict)? {
                    Ok(inserted) => Some(inserted),
                    Err(wait) => return Ok(Err(wait)),
                }
            }
            Block::SelectInbox => {
                let tx = self.tx(index)?;
                let key = (self.message_id()?, self.consumer.clone());
                Some(store.get::<InboxRow>(tx, &key).map_err(store_error)?.is_some())
            }
            Block::SelectReservation => {
                let tx = self.tx(index)?;
                let (order_id, line) = self.line_or_reject()?;
                self.run.tx_ran_effect = true;
                let key = (order_id, line.sku);
                Some(store.get::<ReservationRow>(tx, &key).map_err(store_error)?.is_some())
            }
            Block::InsertReservation { on_conflict } => {
                let tx = self.tx(index)?;
                let (order_id, line) = self.line_or_reject()?;
                self.run.tx_ran_effect = true;
                Some(match self.insert_reservation(store, tx, *on_conflict, order_id, &line) {
                    Ok(inserted) => inserted,
                    Err(StoreError::Blocked(wait)) => return Ok(Err(wait)),
                    Err(error) => return Err(store_error(error)),
                })
            }
            Block::TakeStock { guard } => {
                let tx = self.tx(index)?;
                let (_, line) = self.line_or_reject()?;
                self.run.tx_ran_effect = true;
                match take_stock(store, tx, *guard, &line) {
                    Ok(()) => {}
                    Err(StockError::Store(StoreError::Blocked(wait))) => return Ok(Err(wait)),
                    Err(error) => return Err(ProgramRunError::Stock { index, error }),
                }
                self.run.reserved_lines.push(line);
                Some(true)
            }
            // Another handler's blocks are refused by `step`.
            Block::UpdateOrderPaid { .. }
            | Block::SelectOrder { .. }
            | Block::InsertCharge
            | Block::IfNotPlacedSkipTo { .. }
            | Block::IfPaidByThisPaymentSkipTo { .. }
            | Block::AnswerPaid
            | Block::Refuse
            | Block::ForEachLine
            | Block::NextLine
            | Block::IfNoRowsSkipTo { .. }
            | Block::IfRowsSkipTo { .. }
            | Block::Label { .. } => None,
        };
        Ok(Ok(rows))
    }

    /// `INSERT INTO inbox` with the learner's conflict clause: `Ok(Ok(inserted))`, or
    /// `Ok(Err(wait))` if it waits for a lock. A plain `INSERT`'s unique violation aborts the
    /// transaction and reports 0 rows.
    fn insert_inbox(
        &mut self,
        store: &mut Store,
        now: Tick,
        index: usize,
        on_conflict: InboxConflict,
    ) -> Result<Result<bool, RowLockWait>, ProgramRunError> {
        let store_error = |error: StoreError| ProgramRunError::Store { index, error };
        let tx = self.tx(index)?;
        let row = InboxRow {
            message_id: self.message_id()?,
            consumer: self.consumer.clone(),
            processed_at: now,
        };
        let inserted = match on_conflict {
            InboxConflict::Error => match store.insert(tx, row) {
                Ok(()) => Inserted::Inserted,
                Err(StoreError::UniqueViolation { .. }) => {
                    self.abort(store, tx).map_err(store_error)?;
                    Inserted::AlreadyPresent
                }
                Err(StoreError::Blocked(wait)) => return Ok(Err(wait)),
                Err(error) => return Err(store_error(error)),
            },
            InboxConflict::DoNothing => match store.insert_on_conflict_do_nothing(tx, row) {
                Ok(inserted) => inserted,
                Err(StoreError::Blocked(wait)) => return Ok(Err(wait)),
                Err(error) => return Err(store_error(error)),
            },
        };
        let inserted = inserted == Inserted::Inserted;
        self.run.tx_wrote_inbox |= inserted;
        Ok(Ok(inserted))
    }

    fn insert_reservation(
        &mut self,
        store: &mut Store,
        tx: TxId,
        on_conflict: ReservationConflict,
        order_id: OrderId,
        line: &OrderLine,
    ) -> Result<bool, StoreError> {
        let qty = i64::from(line.qty);
        let row = ReservationRow { order_id, sku: line.sku.clone(), qty };
        let inserted = match on_conflict {
            ReservationConflict::DoNothing => store.insert_on_conflict_do_nothing(tx, row)?,
            ReservationConflict::AddQty => {
                store.insert_on_conflict_do_update(tx, row, |row| {
                    row.qty = row.qty.saturating_add(qty);
                })?;
                Inserted::Inserted
            }
            ReservationConflict::Error => match store.insert(tx, row) {
                Ok(()) => Inserted::Inserted,
                Err(StoreError::UniqueViolation { .. }) => {
                    self.abort(store, tx)?;
                    Inserted::AlreadyPresent
                }
                Err(error) => return Err(error),
            },
        };
        if inserted == Inserted::AlreadyPresent {
            self.run.already_present_lines.push(line.clone());
        }
        Ok(inserted == Inserted::Inserted)
    }
}

fn take_stock(
    store: &mut Store,
    tx: TxId,
    guard: StockGuard,
    line: &OrderLine,
) -> Result<(), StockError> {
    let qty = i64::from(line.qty);
    let updated = match guard {
        StockGuard::None => store.update::<StockRow>(tx, &line.sku, |row| {
            row.available_qty = row.available_qty.saturating_sub(qty);
        })?,
        StockGuard::AvailableQty => store.update_where::<StockRow>(
            tx,
            &line.sku,
            |row| row.available_qty >= qty,
            |row| row.available_qty -= qty,
        )?,
    };
    if updated.is_some() {
        return Ok(());
    }
    match store.get::<StockRow>(tx, &line.sku)? {
        None => Err(StockError::UnknownSku { sku: line.sku.clone() }),
        Some(row) => Err(StockError::InsufficientStock {
            sku: line.sku.clone(),
            requested: line.qty,
            available: row.available_qty,
        }),
    }
}

pub(super) fn reservation_event(
    order_id: OrderId,
    reserved_lines: Vec<OrderLine>,
    already_present_lines: Vec<OrderLine>,
) -> StockReservationEvent {
    if already_present_lines.is_empty() {
        StockReservationEvent::StockReserved { order_id, lines: reserved_lines }
    } else if reserved_lines.is_empty() {
        StockReservationEvent::ReservationAlreadyPresent { order_id, lines: already_present_lines }
    } else {
        StockReservationEvent::StockPartlyReserved {
            order_id,
            reserved_lines,
            already_present_lines,
        }
    }
}
