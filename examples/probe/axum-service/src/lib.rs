//! A wallet top-up API and a webhook consumer, written with axum over SQLite as a reader would
//! write them, each in a broken and a correct version, for `idempotency-lab probe` to probe
//! (README, "Probe a running service"). Every version serves the same routes:
//!
//! - `POST /top-ups` (top-up versions): `{"wallet": "w1", "amount": 10, ...}` with an
//!   `Idempotency-Key` header; `201 {"balance":N}`.
//! - `POST /webhooks` (webhook versions): `{"id": "evt_1", "wallet": "w1", "amount": 5, ...}`;
//!   `200 {"duplicate":false}`, or `true` for a copy the inbox recognised.
//! - `GET /wallets/{id}`: `{"balance":N}`, what the probe's HTTP oracle reads.
//! - `POST /reset`: every balance back to 0, the stored keys and the inbox emptied, so that the
//!   probe can replay a smaller schedule from the same start.
//!
//! [`Service::TopUpRaw`] credits every request it gets. [`Service::TopUpKeyed`] follows the
//! IETF draft `draft-ietf-httpapi-idempotency-key-header` as Brandur Leach's "Implementing
//! Stripe-like Idempotency Keys in Postgres" does: the key, the request it came with and the
//! answer are stored in the same transaction as the credit, so a copy either finds them (and
//! gets the same answer, or 422 with another body) or waits for that transaction; SQLite's
//! `BEGIN IMMEDIATE` takes the write lock at once, so two copies never both find nothing.
//! [`Service::WebhookNaive`] credits every delivery. [`Service::WebhookInbox`] inserts the event
//! id into an `inbox` table in the credit's transaction and credits only if the row is new.
//!
//! Each request runs its SQL on a connection of its own (from a small pool) on tokio's blocking
//! threads, so copies sent at once overlap as they would in a deployed service.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::Deserialize;

/// Which service runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// `POST /top-ups` credits every request; the `Idempotency-Key` header is ignored.
    TopUpRaw,
    /// `POST /top-ups` under the `Idempotency-Key`: key, request and answer stored in the
    /// credit's transaction; the same key and body replayed, another body 422, no key 400.
    TopUpKeyed,
    /// `POST /webhooks` credits every delivery.
    WebhookNaive,
    /// `POST /webhooks` records the event id in the inbox in the credit's transaction and
    /// acknowledges a duplicate without crediting.
    WebhookInbox,
}

impl Service {
    /// Every service, in the order the usage lists them.
    pub const ALL: [Service; 4] =
        [Service::TopUpRaw, Service::TopUpKeyed, Service::WebhookNaive, Service::WebhookInbox];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Service::TopUpRaw => "top-up-raw",
            Service::TopUpKeyed => "top-up-keyed",
            Service::WebhookNaive => "webhook-naive",
            Service::WebhookInbox => "webhook-inbox",
        }
    }

    /// The service named `name` on the command line.
    pub fn from_name(name: &str) -> Option<Service> {
        Service::ALL.into_iter().find(|service| service.name() == name)
    }
}

/// The tables, created if missing, with the one wallet the example probe files credit.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS wallets (id TEXT PRIMARY KEY, balance INTEGER NOT NULL);
INSERT INTO wallets (id, balance) VALUES ('w1', 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS idempotency_keys (
    key TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    status INTEGER NOT NULL,
    answer TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS inbox (event_id TEXT PRIMARY KEY);
";

/// Creates the tables of [`SCHEMA`] in the SQLite file `database` (and the file), in WAL mode
/// so that the probe's SQL oracle reads while the service writes.
pub fn create_schema(database: &Path) -> rusqlite::Result<()> {
    let connection = Connection::open(database)?;
    connection.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    connection.execute_batch(SCHEMA)
}

/// The routes of `service` over the SQLite file `database` (its tables already created).
pub fn router(service: Service, database: PathBuf) -> Router {
    let routes = Router::new().route("/wallets/{id}", get(wallet)).route("/reset", post(reset));
    let routes = match service {
        Service::TopUpRaw => routes.route("/top-ups", post(top_up_raw)),
        Service::TopUpKeyed => routes.route("/top-ups", post(top_up_keyed)),
        Service::WebhookNaive => routes.route("/webhooks", post(webhook_naive)),
        Service::WebhookInbox => routes.route("/webhooks", post(webhook_inbox)),
    };
    routes.with_state(Database::new(database))
}

/// Serves `service` over `database` on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    service: Service,
    database: PathBuf,
) -> std::io::Result<()> {
    axum::serve(listener, router(service, database)).await
}

/// Starts `service` over the SQLite file `database` (its tables created) on a free port of
/// 127.0.0.1, on a thread and runtime of its own, and returns its address: how the tests start
/// it. It serves until the process ends.
pub fn spawn(service: Service, database: &Path) -> std::io::Result<SocketAddr> {
    create_schema(database).map_err(std::io::Error::other)?;
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    listener.set_nonblocking(true)?;
    let address = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let database = database.to_owned();
    std::thread::spawn(move || {
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            serve(listener, service, database).await
        })
    });
    Ok(address)
}

/// The SQLite file and its idle connections: a request takes one (or opens one), and gives it
/// back when done, as a connection pool does. Keeping connections open also spares SQLite the
/// checkpoint it runs when a database's last connection closes.
#[derive(Clone)]
struct Database {
    path: Arc<PathBuf>,
    idle: Arc<Mutex<Vec<Connection>>>,
}

impl Database {
    fn new(path: PathBuf) -> Database {
        Database { path: Arc::new(path), idle: Arc::new(Mutex::new(Vec::new())) }
    }

    /// Runs `work` on a connection of its own on tokio's blocking threads (SQLite's calls
    /// block); a database error is a 500.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, Problem> {
        let database = self.clone();
        let done = tokio::task::spawn_blocking(move || {
            let mut connection = database.take()?;
            let result = work(&mut connection);
            if result.is_ok() {
                database.give_back(connection);
            }
            result
        })
        .await;
        match done {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(problem(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string())),
            Err(error) => Err(problem(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string())),
        }
    }

    fn take(&self) -> rusqlite::Result<Connection> {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        if let Some(connection) = idle {
            return Ok(connection);
        }
        let connection = Connection::open(&*self.path)?;
        connection.busy_timeout(Duration::from_secs(5))?;
        // WAL's usual setting: a commit survives the service's crash without waiting for the
        // disk (SQLite's documentation, "WAL mode"); `FULL`, the default, syncs every commit.
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(connection)
    }

    fn give_back(&self, connection: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < IDLE_CONNECTIONS_MAX {
            idle.push(connection);
        }
    }
}

/// The most idle connections kept.
const IDLE_CONNECTIONS_MAX: usize = 8;

/// A JSON answer.
fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// An error answer: an RFC 9457 problem with its title.
struct Problem {
    status: StatusCode,
    title: String,
}

fn problem(status: StatusCode, title: &str) -> Problem {
    Problem { status, title: title.to_owned() }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "title": self.title }).to_string();
        (self.status, [(header::CONTENT_TYPE, "application/problem+json")], body).into_response()
    }
}

/// A top-up's body (other fields are ignored).
#[derive(Deserialize)]
struct TopUp {
    wallet: String,
    amount: i64,
}

/// A webhook event's body (other fields are ignored).
#[derive(Deserialize)]
struct Event {
    id: String,
    wallet: String,
    amount: i64,
}

fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    serde_json::from_slice(body)
        .map_err(|error| problem(StatusCode::BAD_REQUEST, &format!("the body: {error}")))
}

/// `amount` added to `wallet` (created at 0 if new); the new balance.
fn credit(connection: &Connection, wallet: &str, amount: i64) -> rusqlite::Result<i64> {
    connection.query_row(
        "INSERT INTO wallets (id, balance) VALUES (?1, ?2)
         ON CONFLICT (id) DO UPDATE SET balance = balance + excluded.balance
         RETURNING balance",
        params![wallet, amount],
        |row| row.get(0),
    )
}

fn balance_answer(balance: i64) -> String {
    format!(r#"{{"balance":{balance}}}"#)
}

async fn wallet(State(database): State<Database>, UrlPath(id): UrlPath<String>) -> Response {
    let balance = database
        .run(move |connection| {
            connection
                .query_row("SELECT balance FROM wallets WHERE id = ?1", [&id], |row| {
                    row.get::<_, i64>(0)
                })
                .optional()
        })
        .await;
    match balance {
        Ok(Some(balance)) => json(StatusCode::OK, balance_answer(balance)),
        Ok(None) => problem(StatusCode::NOT_FOUND, "no such wallet").into_response(),
        Err(problem) => problem.into_response(),
    }
}

async fn reset(State(database): State<Database>) -> Response {
    let done = database
        .run(|connection| {
            connection.execute_batch(
                "BEGIN IMMEDIATE;
                 DELETE FROM idempotency_keys;
                 DELETE FROM inbox;
                 UPDATE wallets SET balance = 0;
                 COMMIT;",
            )
        })
        .await;
    match done {
        Ok(()) => json(StatusCode::OK, "{}".to_owned()),
        Err(problem) => problem.into_response(),
    }
}

/// The broken version: every request credits the wallet, a retry of the same key again.
async fn top_up_raw(State(database): State<Database>, body: Bytes) -> Result<Response, Problem> {
    let top_up: TopUp = parse(&body)?;
    let balance =
        database.run(move |connection| credit(connection, &top_up.wallet, top_up.amount)).await?;
    Ok(json(StatusCode::CREATED, balance_answer(balance)))
}

/// The correct version: in one `BEGIN IMMEDIATE` transaction, look the key up; the same key
/// with the same request gets the stored answer, with another request 422; a new key credits
/// the wallet and stores the key, its request and the answer before the transaction commits.
async fn top_up_keyed(
    State(database): State<Database>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Problem> {
    let Some(key) = headers.get("idempotency-key").and_then(|value| value.to_str().ok()) else {
        return Err(problem(StatusCode::BAD_REQUEST, "Idempotency-Key is missing"));
    };
    let key = key.to_owned();
    let top_up: TopUp = parse(&body)?;
    // The request's fingerprint: here its body itself (a service may store a hash instead).
    let request = String::from_utf8_lossy(&body).into_owned();
    let (status, answer) = database
        .run(move |connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let stored = transaction
                .query_row(
                    "SELECT request, status, answer FROM idempotency_keys WHERE key = ?1",
                    [&key],
                    |row| Ok((row.get::<_, String>(0)?, row.get::<_, u16>(1)?, row.get(2)?)),
                )
                .optional()?;
            let outcome = match stored {
                Some((stored_request, status, answer)) if stored_request == request => {
                    Some((status, answer))
                }
                Some(_) => None,
                None => {
                    let balance = credit(&transaction, &top_up.wallet, top_up.amount)?;
                    let answer = balance_answer(balance);
                    transaction.execute(
                        "INSERT INTO idempotency_keys (key, request, status, answer)
                         VALUES (?1, ?2, 201, ?3)",
                        params![key, request, answer],
                    )?;
                    Some((201, answer))
                }
            };
            transaction.commit()?;
            Ok(outcome)
        })
        .await?
        .ok_or_else(|| {
            problem(StatusCode::UNPROCESSABLE_ENTITY, "Idempotency-Key reused with another body")
        })?;
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    Ok(json(status, answer))
}

/// The broken consumer: every delivery credits the wallet, a redelivery again.
async fn webhook_naive(State(database): State<Database>, body: Bytes) -> Result<Response, Problem> {
    let event: Event = parse(&body)?;
    database.run(move |connection| credit(connection, &event.wallet, event.amount)).await?;
    Ok(json(StatusCode::OK, r#"{"duplicate":false}"#.to_owned()))
}

/// The correct consumer: the event id inserted into the inbox in the credit's transaction; a
/// copy finds it there (or waits for the first copy's transaction) and is acknowledged without
/// a credit.
async fn webhook_inbox(State(database): State<Database>, body: Bytes) -> Result<Response, Problem> {
    let event: Event = parse(&body)?;
    let duplicate = database
        .run(move |connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let inserted = transaction.execute(
                "INSERT INTO inbox (event_id) VALUES (?1) ON CONFLICT DO NOTHING",
                [&event.id],
            )?;
            if inserted == 1 {
                credit(&transaction, &event.wallet, event.amount)?;
            }
            transaction.commit()?;
            Ok(inserted == 0)
        })
        .await?;
    Ok(json(StatusCode::OK, format!(r#"{{"duplicate":{duplicate}}}"#)))
}
