//! A wallet top-up HTTP handler over its own SQLite tables: each request, under its own
//! `Idempotency-Key` (the envelope's id), adds an amount to a wallet and answers the new
//! balance. Two versions:
//!
//! - [`TopUpDesign::Raw`]: the handler runs on every request, so a retry after a lost answer,
//!   a double submit or a crash after commit tops up twice;
//! - [`TopUpDesign::KeyInTransaction`]: the key, with the answer, is stored in the
//!   `idempotency_keys` table in the balance's transaction; a request whose key is there gets
//!   the stored answer and changes nothing.
//!
//! [`TopUpHandler`] implements the harness's `SystemUnderTest` on its HTTP side: every answer
//! to one key must be the same, and the wallets must show each request applied once.

use std::collections::BTreeMap;

use idempotency_lab::testing::harness::system::{
    DeliveryError, Envelope, Side, SystemUnderTest, UnitOfWork,
};
use proptest::prelude::*;
use rusqlite::{Connection, OptionalExtension, params};

/// The request: `POST /wallets/{wallet}/top-ups` with this amount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopUp {
    /// The wallet, one of [`WALLETS`].
    pub wallet: String,
    /// The amount, 1 to 500.
    pub amount: i64,
}

/// An HTTP answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The status.
    pub status: u16,
    /// The body.
    pub body: String,
}

/// The wallets the store knows, each with a balance of 0 at first.
pub const WALLETS: [&str; 2] = ["w-1", "w-2"];

/// The request strategy: a wallet of [`WALLETS`] and 1 to 500.
pub fn top_ups() -> impl Strategy<Value = TopUp> {
    (prop::sample::select(WALLETS.to_vec()), 1i64..=500)
        .prop_map(|(wallet, amount)| TopUp { wallet: wallet.to_owned(), amount })
}

/// Which version of the handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TopUpDesign {
    /// Tops up on every request.
    Raw,
    /// Stores the key and its answer in the balance's transaction, replays it for a copy.
    KeyInTransaction,
}

const SCHEMA: &str = "
    CREATE TABLE wallets (wallet TEXT PRIMARY KEY, balance INTEGER NOT NULL);
    CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, status INTEGER NOT NULL, body TEXT NOT NULL);
";

/// The handler with its store, an in-memory SQLite database.
pub struct TopUpHandler {
    design: TopUpDesign,
    connection: Connection,
}

impl TopUpHandler {
    /// Opens the store and creates its tables.
    pub fn open(design: TopUpDesign) -> rusqlite::Result<TopUpHandler> {
        let connection = Connection::open_in_memory()?;
        connection.execute_batch(SCHEMA)?;
        Ok(TopUpHandler { design, connection })
    }
}

/// Adds the amount and reads the new balance, inside `tx`: the answer `200 {"balance":n}`.
fn top_up(tx: &rusqlite::Transaction<'_>, request: &TopUp) -> rusqlite::Result<Answer> {
    tx.execute(
        "UPDATE wallets SET balance = balance + ?1 WHERE wallet = ?2",
        params![request.amount, request.wallet],
    )?;
    let balance: i64 =
        tx.query_row("SELECT balance FROM wallets WHERE wallet = ?1", [&request.wallet], |row| {
            row.get(0)
        })?;
    Ok(Answer { status: 200, body: format!("{{\"balance\":{balance}}}") })
}

/// Raw: tops up on every request.
fn top_up_raw(
    connection: &mut Connection,
    request: &Envelope<TopUp>,
    unit: &mut UnitOfWork,
) -> Result<Answer, DeliveryError> {
    let tx = connection.transaction()?;
    let answer = top_up(&tx, &request.payload)?;
    unit.commit(|| tx.commit())?;
    Ok(answer)
}

/// The key and its answer in the balance's transaction: a copy gets the stored answer.
fn top_up_with_key(
    connection: &mut Connection,
    request: &Envelope<TopUp>,
    unit: &mut UnitOfWork,
) -> Result<Answer, DeliveryError> {
    let key = request.message_id.to_string();
    let tx = connection.transaction()?;
    let stored = tx
        .query_row("SELECT status, body FROM idempotency_keys WHERE key = ?1", [&key], |row| {
            Ok(Answer { status: row.get(0)?, body: row.get(1)? })
        })
        .optional()?;
    if let Some(answer) = stored {
        return Ok(answer);
    }
    let answer = top_up(&tx, &request.payload)?;
    tx.execute(
        "INSERT INTO idempotency_keys (key, status, body) VALUES (?1, ?2, ?3)",
        params![key, answer.status, answer.body],
    )?;
    unit.commit(|| tx.commit())?;
    Ok(answer)
}

impl SystemUnderTest for TopUpHandler {
    type Message = TopUp;
    type Answer = Answer;
    type Observation = BTreeMap<String, i64>;
    const SIDE: Side = Side::Http;

    fn reset(&mut self) -> Result<(), DeliveryError> {
        self.connection.execute_batch(
            "DELETE FROM idempotency_keys; DELETE FROM wallets;
             INSERT INTO wallets (wallet, balance) VALUES ('w-1', 0), ('w-2', 0);",
        )?;
        Ok(())
    }

    fn deliver(
        &mut self,
        request: &Envelope<TopUp>,
        unit: &mut UnitOfWork,
    ) -> Result<Answer, DeliveryError> {
        match self.design {
            TopUpDesign::Raw => top_up_raw(&mut self.connection, request, unit),
            TopUpDesign::KeyInTransaction => top_up_with_key(&mut self.connection, request, unit),
        }
    }

    fn observe(&mut self) -> Result<BTreeMap<String, i64>, DeliveryError> {
        let mut query =
            self.connection.prepare("SELECT wallet, balance FROM wallets ORDER BY wallet")?;
        let rows = query.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn exactly_once(&self, requests: &[TopUp]) -> BTreeMap<String, i64> {
        let mut balances: BTreeMap<String, i64> =
            WALLETS.iter().map(|wallet| (wallet.to_string(), 0)).collect();
        for request in requests {
            *balances.entry(request.wallet.clone()).or_default() += request.amount;
        }
        balances
    }
}
