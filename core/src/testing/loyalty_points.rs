//! A worked example for the harness: a consumer that awards loyalty points for each
//! `OrderPlaced` message (10 points per item), in two versions.
//!
//! [`NaiveLoyaltyPoints`] adds the points on every delivery, so a duplicate delivery or a
//! crash after commit awards them twice: the harness catches it. [`InboxLoyaltyPoints`] runs
//! the same effect inside the lab's inbox consumer (P4): the message id is inserted into
//! `inbox` in the same transaction as the points, so a second delivery is acknowledged
//! without effect, and the harness proves it for every schedule within its bounds.
//!
//! The lab's store has fixed tables, so the balance lives in a `stock` row named
//! [`LOYALTY_BALANCE_SKU`] (`available_qty` is the balance); a real consumer would have its
//! own table.

use crate::ids::{ConsumerName, Sku, Tick, TxId};
use crate::inbox::{ConsumeMessage, ConsumerConfig, ConsumerImplementation, Envelope};
use crate::step::{EffectSteps, InTransaction, Step};
use crate::store::{MessagePayload, StockRow, Store, StoreConfig, StoreError};
use crate::testing::harness::ConsumerUnderTest;

/// The `stock` row that holds the customer's points.
pub(crate) const LOYALTY_BALANCE_SKU: &str = "loyalty-points";

/// Points per item ordered.
pub(crate) const POINTS_PER_ITEM: i64 = 10;

/// The effect: `UPDATE stock SET available_qty = available_qty + points`, one statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AwardPoints {
    points: i64,
    done: bool,
}

impl AwardPoints {
    /// The points for `envelope`'s order: 10 per item; 0 for other messages.
    pub(crate) fn for_message(envelope: &Envelope) -> AwardPoints {
        let points = match &envelope.payload {
            MessagePayload::OrderPlaced { lines, .. } => {
                lines.iter().map(|line| i64::from(line.qty) * POINTS_PER_ITEM).sum()
            }
            MessagePayload::PaymentCaptured { .. } | MessagePayload::OrderCancelled { .. } => 0,
        };
        AwardPoints { points, done: false }
    }
}

impl EffectSteps for AwardPoints {
    type Output = i64;
    type Error = StoreError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        (!self.done).then(|| {
            format!(
                "UPDATE stock SET available_qty = available_qty + {} WHERE sku = '{LOYALTY_BALANCE_SKU}'",
                self.points
            )
        })
    }

    fn step(&mut self, store: &mut Store, tx: TxId, _now: Tick) -> Result<Step<i64>, StoreError> {
        let points = self.points;
        match store.update::<StockRow>(tx, &Sku::new(LOYALTY_BALANCE_SKU), |row| {
            row.available_qty += points;
        }) {
            Ok(_) => {
                self.done = true;
                Ok(Step::Done(points))
            }
            Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
            Err(error) => Err(error),
        }
    }
}

/// The store both versions start from: a balance of 0.
fn loyalty_store() -> Store {
    Store::with_stock(StoreConfig::default(), [(Sku::new(LOYALTY_BALANCE_SKU), 0)])
}

/// The balance in `store`.
fn balance(store: &Store) -> i64 {
    store.committed().stock.get(&Sku::new(LOYALTY_BALANCE_SKU)).map_or(0, |row| row.available_qty)
}

/// The deliberately non-idempotent consumer: the effect in a transaction of its own, on
/// every delivery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NaiveLoyaltyPoints;

impl NaiveLoyaltyPoints {
    /// The consumer.
    pub fn new() -> NaiveLoyaltyPoints {
        NaiveLoyaltyPoints
    }
}

impl ConsumerUnderTest for NaiveLoyaltyPoints {
    type Handler = InTransaction<AwardPoints>;
    type Observation = i64;

    fn initial_store(&self) -> Store {
        loyalty_store()
    }

    fn handler(&self, envelope: &Envelope) -> InTransaction<AwardPoints> {
        InTransaction::new(AwardPoints::for_message(envelope))
    }

    fn observe(&self, store: &Store) -> i64 {
        balance(store)
    }
}

/// The fixed consumer: the effect inside the inbox consumer (P4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InboxLoyaltyPoints;

impl InboxLoyaltyPoints {
    /// The consumer.
    pub fn new() -> InboxLoyaltyPoints {
        InboxLoyaltyPoints
    }
}

impl ConsumerUnderTest for InboxLoyaltyPoints {
    type Handler = ConsumeMessage<AwardPoints>;
    type Observation = i64;

    fn initial_store(&self) -> Store {
        loyalty_store()
    }

    fn handler(&self, envelope: &Envelope) -> ConsumeMessage<AwardPoints> {
        let config = ConsumerConfig {
            consumer: ConsumerName::new("loyalty-points"),
            implementation: ConsumerImplementation::Idempotent,
            retention_ticks: 1_000,
        };
        ConsumeMessage::new(config, envelope.clone(), AwardPoints::for_message(envelope))
    }

    fn observe(&self, store: &Store) -> i64 {
        balance(store)
    }
}
