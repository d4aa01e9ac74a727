//! The probe's I/O at the edge: HTTP requests through `ureq` (blocking, keep-alive connections
//! used again from request to request, every request bounded by the probe file's timeout, no
//! redirects followed, answers bounded in size), the SQLite oracle through `rusqlite` and the
//! PostgreSQL one through `postgres` (connect and statement bounded by the same timeout).
//! Everything else in `probe` is pure.

use std::time::Duration;

use crate::probe::file::{HttpOracle, Method, PostgresOracle, ProbeFile, SqliteOracle};
use crate::probe::judge::{Answer, Exchange};
use crate::probe::plan::Request;

/// The largest answer body read, in bytes.
pub const ANSWER_BYTES_MAX: u64 = 1024 * 1024;

/// The most idle connections kept open to the service between requests.
const IDLE_CONNECTIONS_MAX: usize = 16;

/// A blocking HTTP client with the probe file's timeout; shared by the threads of a phase.
pub struct Client {
    agent: ureq::Agent,
    base_url: String,
    timeout: Duration,
}

impl Client {
    /// A client for `file`'s target.
    pub fn new(file: &ProbeFile) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_millis(file.target.timeout_ms)))
            .http_status_as_error(false)
            .max_redirects(0)
            // Keep-alive: a connection the service left open is used again by the next
            // request (ureq checks it is still open first and never resends a request), so a
            // schedule costs its requests, not a TCP handshake each. Copies sent at once each
            // take a connection of their own.
            .max_idle_connections(IDLE_CONNECTIONS_MAX)
            .max_idle_connections_per_host(IDLE_CONNECTIONS_MAX)
            .user_agent("idempotency-lab-probe")
            .build()
            .into();
        let timeout = Duration::from_millis(file.target.timeout_ms);
        Client { agent, base_url: file.target.base_url.url.clone(), timeout }
    }

    /// Sends `request` and reads its whole answer.
    pub fn send(&self, request: &Request) -> Exchange {
        let mut builder = match request.method {
            "PUT" => self.agent.put(&request.url),
            "PATCH" => self.agent.patch(&request.url),
            _ => self.agent.post(&request.url),
        };
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let answer = builder
            .send(request.body.as_bytes())
            .map_err(|error| error.to_string())
            .and_then(read_answer);
        match answer {
            Ok(answer) => Exchange::Answered(answer),
            Err(error) => Exchange::Failed(error),
        }
    }

    /// Sends `request` on a connection of its own and closes it at once, before any answer:
    /// HTTP/1.1 written by hand, since a client library reads the answer it asked for.
    pub fn hang_up(&self, request: &Request) -> Exchange {
        match write_and_close(request, self.timeout) {
            Ok(()) => Exchange::HungUp,
            Err(error) => Exchange::Failed(error),
        }
    }

    /// `method path` on the service, for a reset: a 2xx or an error.
    pub fn reset(&self, method: Method, path: &str) -> Result<(), String> {
        let url = format!("{}{path}", self.base_url);
        let builder = match method {
            Method::Post => self.agent.post(&url),
            Method::Put => self.agent.put(&url),
            Method::Patch => self.agent.patch(&url),
        };
        let response = builder.send(&[][..]).map_err(|error| {
            format!("{} {url}: {error} (is the service running?)", method.name())
        })?;
        let answer = read_answer(response)?;
        if !(200..300).contains(&answer.status) {
            return Err(format!("{} {path} answered {}", method.name(), answer.short()));
        }
        Ok(())
    }

    /// The number at the oracle's pointer in the JSON answer of `GET path`.
    pub fn read_http_effect(&self, oracle: &HttpOracle) -> Result<f64, String> {
        let url = format!("{}{}", self.base_url, oracle.path);
        let response = self
            .agent
            .get(&url)
            .call()
            .map_err(|error| format!("GET {url}: {error} (is the service running?)"))?;
        let answer = read_answer(response)?;
        if !(200..300).contains(&answer.status) {
            return Err(format!("GET {} answered {}", oracle.path, answer.short()));
        }
        let json: serde_json::Value = serde_json::from_str(&answer.body)
            .map_err(|error| format!("GET {} is not JSON: {error}", oracle.path))?;
        let value = json.pointer(&oracle.pointer).ok_or_else(|| {
            format!("GET {} has nothing at {}: {}", oracle.path, oracle.pointer, answer.short())
        })?;
        number(value).ok_or_else(|| {
            format!("GET {} has {value} at {}, not a number", oracle.path, oracle.pointer)
        })
    }
}

fn number(value: &serde_json::Value) -> Option<f64> {
    match value {
        serde_json::Value::Number(number) => number.as_f64(),
        serde_json::Value::String(text) => text.parse().ok(),
        _ => None,
    }
}

fn write_and_close(request: &Request, timeout: Duration) -> Result<(), String> {
    use std::io::Write;
    use std::net::ToSocketAddrs;
    let rest = request.url.strip_prefix("http://").ok_or("not an http:// URL")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let with_port = if authority.ends_with(']') || !authority.contains(':') {
        format!("{authority}:80")
    } else {
        authority.to_owned()
    };
    let address = with_port
        .to_socket_addrs()
        .map_err(|error| format!("{authority}: {error}"))?
        .next()
        .ok_or_else(|| format!("{authority}: no address"))?;
    let mut stream = std::net::TcpStream::connect_timeout(&address, timeout)
        .map_err(|error| format!("connect {authority}: {error}"))?;
    stream.set_write_timeout(Some(timeout)).map_err(|error| error.to_string())?;
    let mut head = format!(
        "{} {} HTTP/1.1\r\nHost: {authority}\r\nContent-Length: {}\r\nConnection: close\r\n",
        request.method,
        if path.is_empty() { "/" } else { path },
        request.body.len()
    );
    for (name, value) in &request.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(request.body.as_bytes()))
        .and_then(|()| stream.flush())
        .map_err(|error| format!("send to {authority}: {error}"))?;
    // Closing now, with nothing read: the service's answer finds the connection gone.
    let _ = stream.shutdown(std::net::Shutdown::Both);
    Ok(())
}

fn read_answer(mut response: ureq::http::Response<ureq::Body>) -> Result<Answer, String> {
    let status = response.status().as_u16();
    let bytes = response
        .body_mut()
        .with_config()
        .limit(ANSWER_BYTES_MAX)
        .read_to_vec()
        .map_err(|error| error.to_string())?;
    Ok(Answer { status, body: String::from_utf8_lossy(&bytes).into_owned() })
}

/// The SQLite oracle's one number: the first column of the query's only row (NULL reads 0,
/// as `SUM` over no rows).
pub fn read_sqlite_effect(oracle: &SqliteOracle) -> Result<f64, String> {
    let connection = open(oracle)?;
    connection
        .query_row(&oracle.query, [], |row| {
            let value: rusqlite::types::Value = row.get(0)?;
            Ok(value)
        })
        .map_err(|error| format!("the query failed: {error}"))
        .and_then(|value| match value {
            rusqlite::types::Value::Integer(number) => Ok(number as f64),
            rusqlite::types::Value::Real(number) => Ok(number),
            rusqlite::types::Value::Null => Ok(0.0),
            other => Err(format!("the query gave {other:?}, not a number")),
        })
}

/// Runs the reset statement(s) on the SQLite oracle's database.
pub fn reset_sqlite(oracle: &SqliteOracle, sql: &str) -> Result<(), String> {
    open(oracle)?.execute_batch(sql).map_err(|error| format!("the reset SQL failed: {error}"))
}

fn open(oracle: &SqliteOracle) -> Result<rusqlite::Connection, String> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = rusqlite::Connection::open_with_flags(&oracle.database, flags)
        .map_err(|error| format!("cannot open {}: {error}", oracle.database_as_written))?;
    connection
        .busy_timeout(Duration::from_secs(2))
        .map_err(|error| format!("cannot open {}: {error}", oracle.database_as_written))?;
    Ok(connection)
}

/// A connection to the PostgreSQL oracle's database, every statement bounded by `timeout_ms`.
fn connect_postgres(oracle: &PostgresOracle, timeout_ms: u64) -> Result<postgres::Client, String> {
    let mut config: postgres::Config =
        oracle.connection.parse().map_err(|error| format!("the connection string: {error}"))?;
    config.connect_timeout(Duration::from_millis(timeout_ms));
    let mut client =
        config.connect(postgres::NoTls).map_err(|error| format!("cannot connect: {error}"))?;
    client
        .batch_execute(&format!("SET statement_timeout = {timeout_ms}"))
        .map_err(|error| format!("cannot set statement_timeout: {error}"))?;
    Ok(client)
}

/// The PostgreSQL oracle's one number: the first column of the query's first row, read as
/// text (any numeric type; NULL reads 0, as `SUM` over no rows).
pub fn read_postgres_effect(oracle: &PostgresOracle, timeout_ms: u64) -> Result<f64, String> {
    let mut client = connect_postgres(oracle, timeout_ms)?;
    let messages =
        client.simple_query(&oracle.query).map_err(|error| format!("the query failed: {error}"))?;
    let row = messages
        .iter()
        .find_map(|message| match message {
            postgres::SimpleQueryMessage::Row(row) => Some(row),
            _ => None,
        })
        .ok_or_else(|| "the query gave no row".to_owned())?;
    match row.try_get(0).map_err(|error| format!("the query gave no column: {error}"))? {
        None => Ok(0.0),
        Some(text) => text.parse().map_err(|_| format!("the query gave {text:?}, not a number")),
    }
}

/// Runs the reset statement(s) on the PostgreSQL oracle's database.
pub fn reset_postgres(oracle: &PostgresOracle, sql: &str, timeout_ms: u64) -> Result<(), String> {
    connect_postgres(oracle, timeout_ms)?
        .batch_execute(sql)
        .map_err(|error| format!("the reset SQL failed: {error}"))
}
