//! A loyalty-points consumer over its own SQLite tables: each `AwardPoints` message adds points
//! to a customer's balance. Three versions of one delivery, each in its own transactions:
//!
//! - [`PointsDesign::Naive`]: `UPDATE points SET balance = balance + ?` on every delivery, so a
//!   duplicate adds the points twice;
//! - [`PointsDesign::Inbox`]: `INSERT INTO inbox ... ON CONFLICT DO NOTHING` and the effect in
//!   one transaction: a copy finds its id in the inbox and changes nothing;
//! - [`PointsDesign::InboxApart`]: the inbox row committed in its own transaction before the
//!   effect's, so a crash between the two leaves the message marked as processed and its points
//!   never added (the mistake the NServiceBus documentation calls the one customers miss most).
//!
//! [`PointsConsumer`] implements the harness's `SystemUnderTest`: reset, deliver, observe, and
//! the exactly-once oracle, a fold over the distinct messages.

use std::collections::BTreeMap;

use idempotency_lab::testing::harness::system::{
    DeliveryError, Envelope, SystemUnderTest, UnitOfWork,
};
use proptest::prelude::*;
use rusqlite::{Connection, params};

/// The message: add `points` to `customer`'s balance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwardPoints {
    /// The customer, one of [`CUSTOMERS`].
    pub customer: String,
    /// The points, 1 to 100.
    pub points: i64,
}

/// The customers the store knows, each with a balance of 0 at first.
pub const CUSTOMERS: [&str; 2] = ["ada", "grace"];

/// The message strategy: a customer of [`CUSTOMERS`] and 1 to 100 points.
pub fn award_points() -> impl Strategy<Value = AwardPoints> {
    (prop::sample::select(CUSTOMERS.to_vec()), 1i64..=100)
        .prop_map(|(customer, points)| AwardPoints { customer: customer.to_owned(), points })
}

/// Which version of the consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointsDesign {
    /// The effect on every delivery.
    Naive,
    /// The inbox row and the effect in one transaction.
    Inbox,
    /// The inbox row in its own transaction, then the effect in another.
    InboxApart,
}

const SCHEMA: &str = "
    CREATE TABLE points (customer TEXT PRIMARY KEY, balance INTEGER NOT NULL);
    CREATE TABLE inbox (message_id TEXT PRIMARY KEY);
";

/// The consumer with its store, an in-memory SQLite database.
pub struct PointsConsumer {
    design: PointsDesign,
    connection: Connection,
}

impl PointsConsumer {
    /// Opens the store and creates its tables.
    pub fn open(design: PointsDesign) -> rusqlite::Result<PointsConsumer> {
        let connection = Connection::open_in_memory()?;
        connection.execute_batch(SCHEMA)?;
        Ok(PointsConsumer { design, connection })
    }
}

const AWARD: &str = "UPDATE points SET balance = balance + ?1 WHERE customer = ?2";

/// Naive: the points on every delivery.
fn award_naive(
    connection: &mut Connection,
    envelope: &Envelope<AwardPoints>,
    unit: &mut UnitOfWork,
) -> Result<(), DeliveryError> {
    let award = &envelope.payload;
    let tx = connection.transaction()?;
    tx.execute(AWARD, params![award.points, award.customer])?;
    unit.commit(|| tx.commit())
}

/// The inbox row and the points in one transaction: a copy changes nothing.
fn award_with_inbox(
    connection: &mut Connection,
    envelope: &Envelope<AwardPoints>,
    unit: &mut UnitOfWork,
) -> Result<(), DeliveryError> {
    let award = &envelope.payload;
    let tx = connection.transaction()?;
    let inserted = tx.execute(
        "INSERT INTO inbox (message_id) VALUES (?1) ON CONFLICT DO NOTHING",
        [envelope.message_id.to_string()],
    )?;
    if inserted == 1 {
        tx.execute(AWARD, params![award.points, award.customer])?;
    }
    unit.commit(|| tx.commit())
}

/// The inbox row committed first, the points in a second transaction: a crash between the two
/// loses the points.
fn award_with_inbox_apart(
    connection: &mut Connection,
    envelope: &Envelope<AwardPoints>,
    unit: &mut UnitOfWork,
) -> Result<(), DeliveryError> {
    let award = &envelope.payload;
    let tx = connection.transaction()?;
    let inserted = tx.execute(
        "INSERT INTO inbox (message_id) VALUES (?1) ON CONFLICT DO NOTHING",
        [envelope.message_id.to_string()],
    )?;
    unit.commit(|| tx.commit())?;
    if inserted == 1 {
        let tx = connection.transaction()?;
        tx.execute(AWARD, params![award.points, award.customer])?;
        unit.commit(|| tx.commit())?;
    }
    Ok(())
}

impl SystemUnderTest for PointsConsumer {
    type Message = AwardPoints;
    type Answer = ();
    type Observation = BTreeMap<String, i64>;

    fn reset(&mut self) -> Result<(), DeliveryError> {
        self.connection.execute_batch(
            "DELETE FROM inbox; DELETE FROM points;
             INSERT INTO points (customer, balance) VALUES ('ada', 0), ('grace', 0);",
        )?;
        Ok(())
    }

    fn deliver(
        &mut self,
        envelope: &Envelope<AwardPoints>,
        unit: &mut UnitOfWork,
    ) -> Result<(), DeliveryError> {
        match self.design {
            PointsDesign::Naive => award_naive(&mut self.connection, envelope, unit),
            PointsDesign::Inbox => award_with_inbox(&mut self.connection, envelope, unit),
            PointsDesign::InboxApart => {
                award_with_inbox_apart(&mut self.connection, envelope, unit)
            }
        }
    }

    fn observe(&mut self) -> Result<BTreeMap<String, i64>, DeliveryError> {
        let mut query =
            self.connection.prepare("SELECT customer, balance FROM points ORDER BY customer")?;
        let rows = query.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn exactly_once(&self, messages: &[AwardPoints]) -> BTreeMap<String, i64> {
        let mut balances: BTreeMap<String, i64> =
            CUSTOMERS.iter().map(|customer| (customer.to_string(), 0)).collect();
        for award in messages {
            *balances.entry(award.customer.clone()).or_default() += award.points;
        }
        balances
    }
}
