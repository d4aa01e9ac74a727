//! The wallet top-up services the axum example (`examples/probe/axum-service`, which the other
//! probe tests start) does not have, each a real HTTP/1.1 server on an ephemeral 127.0.0.1 port
//! (std's `TcpListener`, a thread per connection, `Connection: close`): the top-up API with its
//! balance in PostgreSQL, for the PostgreSQL oracle (`Design::Naive` applies every request;
//! `Design::Idempotent` keeps the key, the request's fingerprint and its answer in the same
//! critical section as the balance, replays the answer for the same key and body, answers 422
//! for the same key with another body and 400 without a key), and `Design::CheckThenInsert`, in
//! memory, whose race only concurrent copies find. Each serves `GET /wallets/w1` (the balance)
//! and `POST /reset`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Which service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// Applies every request.
    Naive,
    /// Key, fingerprint and answer stored with the balance.
    Idempotent,
    /// Checks the key, then does the work outside the transaction and stores the key after
    /// it, with nothing unique to stop a second copy in between: sequential duplicates are
    /// replayed, copies at once are both applied.
    CheckThenInsert,
}

/// Where the balance is kept.
enum Balance {
    Memory(i64),
    /// A connection string.
    Postgres(String),
}

fn postgres(connection: &str) -> postgres::Client {
    connection.parse::<postgres::Config>().unwrap().connect(postgres::NoTls).unwrap()
}

impl Balance {
    fn add(&mut self, amount: i64) -> i64 {
        match self {
            Balance::Memory(balance) => {
                *balance += amount;
                *balance
            }
            Balance::Postgres(connection) => postgres(connection)
                .query_one(
                    "UPDATE wallets SET balance = balance + $1 WHERE id = 'w1' RETURNING balance",
                    &[&amount],
                )
                .unwrap()
                .get(0),
        }
    }

    fn get(&self) -> i64 {
        match self {
            Balance::Memory(balance) => *balance,
            Balance::Postgres(connection) => postgres(connection)
                .query_one("SELECT balance FROM wallets WHERE id = 'w1'", &[])
                .unwrap()
                .get(0),
        }
    }

    fn reset(&mut self) {
        match self {
            Balance::Memory(balance) => *balance = 0,
            Balance::Postgres(connection) => {
                postgres(connection).execute("UPDATE wallets SET balance = 0", &[]).unwrap();
            }
        }
    }
}

struct State {
    design: Design,
    balance: Balance,
    /// Key -> (fingerprint, status, body).
    keys: BTreeMap<String, (String, u16, String)>,
}

/// A running service; it serves until the test binary ends.
pub struct Service {
    /// Its port on 127.0.0.1.
    pub port: u16,
}

/// Starts `design` with its balance in memory (the tests start `Design::CheckThenInsert` so).
pub fn start(design: Design) -> Service {
    serve(State { design, balance: Balance::Memory(0), keys: BTreeMap::new() })
}

/// Starts `design` with its balance in the `wallets` table (created here) of the PostgreSQL
/// database `connection` names.
pub fn start_over_postgres(design: Design, connection: &str) -> Service {
    postgres(connection)
        .batch_execute(
            "CREATE TABLE wallets (id TEXT PRIMARY KEY, balance BIGINT NOT NULL);
             INSERT INTO wallets VALUES ('w1', 0);",
        )
        .unwrap();
    serve(State {
        design,
        balance: Balance::Postgres(connection.to_owned()),
        keys: BTreeMap::new(),
    })
}

fn serve(state: State) -> Service {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let state = Arc::new(Mutex::new(state));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let state = Arc::clone(&state);
            std::thread::spawn(move || {
                let _ = handle(stream, &state);
            });
        }
    });
    Service { port }
}

struct HttpRequest {
    method: String,
    path: String,
    key: Option<String>,
    body: String,
}

fn read_request(stream: &TcpStream) -> std::io::Result<HttpRequest> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let (mut length, mut key) = (0usize, None);
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "idempotency-key" => key = Some(value.trim().to_owned()),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(HttpRequest { method, path, key, body: String::from_utf8_lossy(&body).into_owned() })
}

fn handle(mut stream: TcpStream, state: &Mutex<State>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let request = read_request(&stream)?;
    let (status, body) = answer(&request, state);
    let reason = match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Unprocessable Content",
    };
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

fn answer(request: &HttpRequest, state: &Mutex<State>) -> (u16, String) {
    let design = state.lock().unwrap().design;
    if design == Design::CheckThenInsert && request.path == "/top-ups" {
        return check_then_insert(state, request);
    }
    let mut state = state.lock().unwrap();
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/wallets/w1") => (200, format!(r#"{{"balance":{}}}"#, state.balance.get())),
        ("POST", "/reset") => {
            state.balance.reset();
            state.keys.clear();
            (200, "{}".to_owned())
        }
        ("POST", "/top-ups") => top_up(&mut state, request),
        _ => (404, "{}".to_owned()),
    }
}

fn amount(request: &HttpRequest) -> i64 {
    serde_json::from_str::<serde_json::Value>(&request.body)
        .ok()
        .and_then(|json| json["amount"].as_i64())
        .unwrap_or(0)
}

/// The race: `SELECT` the key, then (no lock held, nothing unique) do the work and insert.
fn check_then_insert(state: &Mutex<State>, request: &HttpRequest) -> (u16, String) {
    let Some(key) = &request.key else {
        return (400, r#"{"title":"Idempotency-Key is missing"}"#.to_owned());
    };
    if let Some((fingerprint, status, body)) = state.lock().unwrap().keys.get(key) {
        if *fingerprint != request.body {
            return (422, r#"{"title":"Idempotency-Key reused with another body"}"#.to_owned());
        }
        return (*status, body.clone());
    }
    // Wide enough that copies released together both pass the check on a loaded machine.
    std::thread::sleep(Duration::from_millis(50));
    let mut state = state.lock().unwrap();
    let answer = (201, format!(r#"{{"balance":{}}}"#, state.balance.add(amount(request))));
    state.keys.insert(key.clone(), (request.body.clone(), answer.0, answer.1.clone()));
    answer
}

fn top_up(state: &mut State, request: &HttpRequest) -> (u16, String) {
    let amount = amount(request);
    // The work a real handler does, inside the transaction: copies sent at once overlap here.
    std::thread::sleep(Duration::from_millis(2));
    match (state.design, &request.key) {
        (Design::Naive | Design::CheckThenInsert, _) => {
            (201, format!(r#"{{"balance":{}}}"#, state.balance.add(amount)))
        }
        (Design::Idempotent, None) => (400, r#"{"title":"Idempotency-Key is missing"}"#.to_owned()),
        (Design::Idempotent, Some(key)) => match state.keys.get(key) {
            Some((fingerprint, status, body)) if *fingerprint == request.body => {
                (*status, body.clone())
            }
            Some(_) => (422, r#"{"title":"Idempotency-Key reused with another body"}"#.to_owned()),
            None => {
                let answer = (201, format!(r#"{{"balance":{}}}"#, state.balance.add(amount)));
                state.keys.insert(key.clone(), (request.body.clone(), answer.0, answer.1.clone()));
                answer
            }
        },
    }
}
