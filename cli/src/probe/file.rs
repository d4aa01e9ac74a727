//! The probe file: what `probe` sends, to whom, and how it reads the effect. Read strictly
//! (`deny_unknown_fields`, every size and count bounded), each mistake a [`ProbeFileError`]
//! naming the exact field (`target.timeout_ms`) and, where TOML knows it, the line and column.
//! Pure: the text comes in, a validated [`ProbeFile`] goes out; no I/O here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::probe::schedule::{Fault, ScheduleConfig};
use crate::probe::template::{Template, Values};

/// The largest probe file read, in bytes.
pub const PROBE_FILE_BYTES_MAX: usize = 256 * 1024;
/// The longest body template, in bytes.
pub const BODY_BYTES_MAX: usize = 64 * 1024;
/// The most headers a request carries.
pub const HEADERS_MAX: usize = 32;
/// The longest path, header value, pointer or SQL query, in bytes.
pub const TEXT_BYTES_MAX: usize = 4096;
/// The longest timeout of one request, in milliseconds.
pub const TIMEOUT_MS_MAX: u64 = 60_000;
/// The most operations in one schedule.
pub const OPERATIONS_MAX: u8 = 8;
/// The most concurrent copies of one request.
pub const COPIES_MAX: u8 = 8;
/// The longest wait before a retry sent while the first is in flight, in milliseconds.
pub const IN_FLIGHT_DELAY_MS_MAX: u64 = 5_000;
/// The longest wait between two readings of the oracles while a hung-up request may still be
/// in progress, in milliseconds.
pub const SETTLE_MS_MAX: u64 = 10_000;

/// What a probe file gets wrong.
#[derive(Debug, thiserror::Error)]
pub enum ProbeFileError {
    /// The file is larger than [`PROBE_FILE_BYTES_MAX`].
    #[error("the probe file is {bytes} bytes, over the limit of {PROBE_FILE_BYTES_MAX}")]
    TooLarge {
        /// Its size.
        bytes: usize,
    },
    /// TOML that does not parse, or a field of the wrong type, unknown or missing.
    #[error("{field}: {message}{place}")]
    Field {
        /// The field's path (`target.timeout_ms`), empty for the whole file.
        field: String,
        /// What is wrong, in TOML's or serde's words.
        message: String,
        /// ` (line L, column C)` when known.
        place: String,
    },
    /// A field that parsed but whose value the probe cannot use.
    #[error("{field}: {message}")]
    Invalid {
        /// The field's path.
        field: String,
        /// What is wrong and what is allowed.
        message: String,
    },
}

fn invalid(field: &str, message: impl Into<String>) -> ProbeFileError {
    ProbeFileError::Invalid { field: field.to_owned(), message: message.into() }
}

/// Which kind of endpoint is probed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// An API that takes an idempotency key in a header.
    Api,
    /// A webhook consumer that deduplicates by the event's id in the body.
    Webhook,
}

/// The methods a probed request may use: those that carry a body and change state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Method {
    /// `POST`.
    #[serde(rename = "POST")]
    Post,
    /// `PUT`.
    #[serde(rename = "PUT")]
    Put,
    /// `PATCH`.
    #[serde(rename = "PATCH")]
    Patch,
}

impl Method {
    /// The method's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProbeFile {
    kind: Kind,
    target: RawTarget,
    api: Option<RawApi>,
    webhook: Option<RawWebhook>,
    oracle: RawOracle,
    reset: Option<RawReset>,
    schedule: Option<RawSchedule>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    base_url: String,
    method: Method,
    path: String,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    body: String,
    timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawApi {
    key_header: Option<String>,
    key_required: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWebhook {
    event_id_field: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOracle {
    effect_per_operation: f64,
    http: Option<RawHttpOracle>,
    sqlite: Option<RawSqliteOracle>,
    postgres: Option<RawPostgresOracle>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPostgresOracle {
    connection: String,
    query: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHttpOracle {
    path: String,
    pointer: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSqliteOracle {
    database: String,
    query: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReset {
    http: Option<RawHttpReset>,
    sql: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHttpReset {
    method: Method,
    path: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchedule {
    operations_max: Option<u8>,
    copies_max: Option<u8>,
    in_flight_delay_ms: Option<u64>,
    settle_ms: Option<u64>,
    faults: Option<Vec<Fault>>,
}

/// A base URL: `http://host[:port]`, with no path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrl {
    /// The host as written (`127.0.0.1`, `localhost`, `[::1]`, `api.example.com`).
    pub host: String,
    /// The URL as written, without a trailing slash.
    pub url: String,
}

impl BaseUrl {
    /// Whether the host is this machine.
    pub fn is_loopback(&self) -> bool {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        host == "localhost"
            || host.parse::<std::net::IpAddr>().is_ok_and(|address| address.is_loopback())
    }
}

/// How one operation is told apart from another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Keying {
    /// `kind = "api"`: a key in a header.
    Api {
        /// The header's name (`Idempotency-Key`).
        key_header: String,
        /// Whether a request without the key must be refused with 400.
        key_required: bool,
    },
    /// `kind = "webhook"`: the event's id at a JSON pointer of the body.
    Webhook {
        /// The JSON pointer (`/id`) the prober writes each event's id to.
        event_id_pointer: String,
    },
}

/// The request every operation sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Where the service listens.
    pub base_url: BaseUrl,
    /// The method.
    pub method: Method,
    /// The path, from `/`.
    pub path: String,
    /// Headers sent with every request, in name order.
    pub headers: Vec<(String, String)>,
    /// The body, with fresh values per operation.
    pub body: Template,
    /// The bound on one request, connect to last byte, in milliseconds.
    pub timeout_ms: u64,
}

/// An HTTP read of the effect: a `GET` whose JSON answer holds a number at `pointer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpOracle {
    /// The path, from `/`.
    pub path: String,
    /// The JSON pointer of the number (`/balance`).
    pub pointer: String,
}

/// A SQL read of the effect on a SQLite database: one row, one number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqliteOracle {
    /// The database file (relative paths are resolved against the probe file's directory).
    pub database: PathBuf,
    /// The database file as the probe file names it (for the transcript).
    pub database_as_written: String,
    /// The query.
    pub query: String,
}

/// A SQL read of the effect on PostgreSQL: one row, one number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostgresOracle {
    /// The connection string, as libpq takes it (`host=/run/postgresql user=app dbname=shop`
    /// or `postgresql://app@localhost/shop`).
    pub connection: String,
    /// The query.
    pub query: String,
}

/// How the effect is read: at least one of the three.
#[derive(Clone, Debug, PartialEq)]
pub struct Oracle {
    /// How much one operation, applied once, adds to what the oracle reads.
    pub effect_per_operation: f64,
    /// An HTTP read.
    pub http: Option<HttpOracle>,
    /// A SQL read on SQLite.
    pub sqlite: Option<SqliteOracle>,
    /// A SQL read on PostgreSQL.
    pub postgres: Option<PostgresOracle>,
}

/// How the service's state is reset between schedules; both may be given, HTTP first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Reset {
    /// A request (method and path).
    pub http: Option<(Method, String)>,
    /// A statement run on the SQLite oracle's database.
    pub sql: Option<String>,
}

impl Reset {
    /// Whether the probe can reset the service at all.
    pub fn is_configured(&self) -> bool {
        self.http.is_some() || self.sql.is_some()
    }
}

/// A validated probe file.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeFile {
    /// The request.
    pub target: Target,
    /// Keys or event ids.
    pub keying: Keying,
    /// The effect's reading.
    pub oracle: Oracle,
    /// The reset between schedules.
    pub reset: Reset,
    /// The bounds and faults of drawn schedules.
    pub schedule: ScheduleConfig,
}

impl ProbeFile {
    /// Reads a probe file's text; `directory` is where it lies (relative database paths are
    /// resolved against it).
    pub fn parse(text: &str, directory: &Path) -> Result<ProbeFile, ProbeFileError> {
        if text.len() > PROBE_FILE_BYTES_MAX {
            return Err(ProbeFileError::TooLarge { bytes: text.len() });
        }
        let raw = deserialize(text)?;
        let keying = keying(raw.kind, raw.api, raw.webhook)?;
        let target = target(raw.target)?;
        let oracle = oracle(raw.oracle, directory)?;
        let reset = reset(raw.reset, &oracle)?;
        let schedule = schedule(raw.schedule, &keying, &target)?;
        if let Keying::Webhook { event_id_pointer } = &keying {
            check_event_id_place(&target.body, event_id_pointer)?;
        }
        Ok(ProbeFile { target, keying, oracle, reset, schedule })
    }

    /// The kind probed.
    pub fn kind(&self) -> Kind {
        match self.keying {
            Keying::Api { .. } => Kind::Api,
            Keying::Webhook { .. } => Kind::Webhook,
        }
    }
}

fn deserialize(text: &str) -> Result<RawProbeFile, ProbeFileError> {
    let place = |span: Option<std::ops::Range<usize>>| match span {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |line| line.chars().count()) + 1;
            format!(" (line {line}, column {column})")
        }
        None => String::new(),
    };
    let deserializer = toml::Deserializer::parse(text).map_err(|error| ProbeFileError::Field {
        field: String::new(),
        message: error.message().to_owned(),
        place: place(error.span()),
    })?;
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let field = error.path().to_string();
        let inner = error.into_inner();
        ProbeFileError::Field {
            field: if field == "." { String::new() } else { field },
            message: inner.message().to_owned(),
            place: place(inner.span()),
        }
    })
}

fn keying(
    kind: Kind,
    api: Option<RawApi>,
    webhook: Option<RawWebhook>,
) -> Result<Keying, ProbeFileError> {
    match (kind, api, webhook) {
        (Kind::Api, _, Some(_)) => Err(invalid("webhook", "only for kind = \"webhook\"")),
        (Kind::Webhook, Some(_), _) => Err(invalid("api", "only for kind = \"api\"")),
        (Kind::Api, api, None) => {
            let key_header = api
                .as_ref()
                .and_then(|api| api.key_header.clone())
                .unwrap_or_else(|| "Idempotency-Key".to_owned());
            check_header_name("api.key_header", &key_header)?;
            let key_required = api.and_then(|api| api.key_required).unwrap_or(true);
            Ok(Keying::Api { key_header, key_required })
        }
        (Kind::Webhook, None, None) => {
            Err(invalid("webhook", "kind = \"webhook\" needs [webhook] with event_id_field"))
        }
        (Kind::Webhook, None, Some(webhook)) => {
            check_pointer("webhook.event_id_field", &webhook.event_id_field)?;
            if webhook.event_id_field.is_empty() {
                return Err(invalid("webhook.event_id_field", "the whole body cannot be the id"));
            }
            Ok(Keying::Webhook { event_id_pointer: webhook.event_id_field })
        }
    }
}

fn target(raw: RawTarget) -> Result<Target, ProbeFileError> {
    let base_url = base_url(&raw.base_url)?;
    check_path("target.path", &raw.path)?;
    if raw.headers.len() > HEADERS_MAX {
        return Err(invalid("target.headers", format!("at most {HEADERS_MAX} headers")));
    }
    let mut headers = Vec::with_capacity(raw.headers.len());
    for (name, value) in raw.headers {
        let field = format!("target.headers.{name}");
        check_header_name(&field, &name)?;
        if value.len() > TEXT_BYTES_MAX || value.chars().any(|c| c.is_control()) {
            return Err(invalid(&field, "a header value: printable, at most 4096 bytes"));
        }
        headers.push((name, value));
    }
    if raw.body.len() > BODY_BYTES_MAX {
        return Err(invalid("target.body", format!("at most {BODY_BYTES_MAX} bytes")));
    }
    let body = Template::parse(&raw.body).map_err(|message| invalid("target.body", message))?;
    let timeout_ms = raw.timeout_ms.unwrap_or(2_000);
    if !(1..=TIMEOUT_MS_MAX).contains(&timeout_ms) {
        return Err(invalid("target.timeout_ms", format!("from 1 to {TIMEOUT_MS_MAX}")));
    }
    Ok(Target { base_url, method: raw.method, path: raw.path, headers, body, timeout_ms })
}

fn base_url(url: &str) -> Result<BaseUrl, ProbeFileError> {
    let field = "target.base_url";
    if url.starts_with("https://") {
        return Err(invalid(
            field,
            "https:// is not supported (the probe has no TLS): give the service's plain http:// address",
        ));
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(invalid(field, "an http:// URL: http://host[:port]"));
    };
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.is_empty() || authority.contains(['/', '?', '#', '@', ' ']) {
        return Err(invalid(field, "http://host[:port], without a path, query or user"));
    }
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => {
            if port.parse::<u16>().is_err() {
                return Err(invalid(field, format!("the port {port:?} is not a number to 65535")));
            }
            host
        }
        _ => authority,
    };
    if host.is_empty() {
        return Err(invalid(field, "no host"));
    }
    Ok(BaseUrl { host: host.to_owned(), url: format!("http://{authority}") })
}

fn oracle(raw: RawOracle, directory: &Path) -> Result<Oracle, ProbeFileError> {
    if !raw.effect_per_operation.is_finite() || raw.effect_per_operation == 0.0 {
        return Err(invalid(
            "oracle.effect_per_operation",
            "a finite number other than 0: what one operation applied once adds",
        ));
    }
    let http = match raw.http {
        Some(http) => {
            check_path("oracle.http.path", &http.path)?;
            check_pointer("oracle.http.pointer", &http.pointer)?;
            Some(HttpOracle { path: http.path, pointer: http.pointer })
        }
        None => None,
    };
    let sqlite = match raw.sqlite {
        Some(sqlite) => {
            if sqlite.database.is_empty() || sqlite.database.len() > TEXT_BYTES_MAX {
                return Err(invalid("oracle.sqlite.database", "a file path"));
            }
            check_sql("oracle.sqlite.query", &sqlite.query)?;
            Some(SqliteOracle {
                database: directory.join(&sqlite.database),
                database_as_written: sqlite.database,
                query: sqlite.query,
            })
        }
        None => None,
    };
    let postgres = match raw.postgres {
        Some(postgres) => {
            if let Err(error) = postgres.connection.parse::<postgres::Config>() {
                return Err(invalid("oracle.postgres.connection", format!("{error}")));
            }
            check_sql("oracle.postgres.query", &postgres.query)?;
            Some(PostgresOracle { connection: postgres.connection, query: postgres.query })
        }
        None => None,
    };
    if http.is_none() && sqlite.is_none() && postgres.is_none() {
        return Err(invalid(
            "oracle",
            "needs [oracle.http], [oracle.sqlite] or [oracle.postgres] (one or more)",
        ));
    }
    Ok(Oracle { effect_per_operation: raw.effect_per_operation, http, sqlite, postgres })
}

fn reset(raw: Option<RawReset>, oracle: &Oracle) -> Result<Reset, ProbeFileError> {
    let Some(raw) = raw else { return Ok(Reset::default()) };
    let http = match raw.http {
        Some(http) => {
            check_path("reset.http.path", &http.path)?;
            Some((http.method, http.path))
        }
        None => None,
    };
    if let Some(sql) = &raw.sql {
        check_sql("reset.sql", sql)?;
        match (&oracle.sqlite, &oracle.postgres) {
            (None, None) => {
                return Err(invalid(
                    "reset.sql",
                    "runs on the SQL oracle's database: add [oracle.sqlite] or [oracle.postgres]",
                ));
            }
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "reset.sql",
                    "both [oracle.sqlite] and [oracle.postgres]: keep one, so the database it \
                     runs on is clear",
                ));
            }
            _ => {}
        }
    }
    Ok(Reset { http, sql: raw.sql })
}

fn schedule(
    raw: Option<RawSchedule>,
    keying: &Keying,
    target: &Target,
) -> Result<ScheduleConfig, ProbeFileError> {
    let raw = raw.unwrap_or(RawSchedule {
        operations_max: None,
        copies_max: None,
        in_flight_delay_ms: None,
        settle_ms: None,
        faults: None,
    });
    let operations_max = raw.operations_max.unwrap_or(3);
    if !(1..=OPERATIONS_MAX).contains(&operations_max) {
        return Err(invalid("schedule.operations_max", format!("from 1 to {OPERATIONS_MAX}")));
    }
    let copies_max = raw.copies_max.unwrap_or(3);
    if !(2..=COPIES_MAX).contains(&copies_max) {
        return Err(invalid("schedule.copies_max", format!("from 2 to {COPIES_MAX}")));
    }
    let in_flight_delay_ms = raw.in_flight_delay_ms.unwrap_or(10);
    if in_flight_delay_ms > IN_FLIGHT_DELAY_MS_MAX {
        return Err(invalid(
            "schedule.in_flight_delay_ms",
            format!("from 0 to {IN_FLIGHT_DELAY_MS_MAX}"),
        ));
    }
    let settle_ms = raw.settle_ms.unwrap_or(100);
    if !(1..=SETTLE_MS_MAX).contains(&settle_ms) {
        return Err(invalid("schedule.settle_ms", format!("from 1 to {SETTLE_MS_MAX}")));
    }
    let applicable = Fault::applicable(keying, target.body.varies());
    let faults = match raw.faults {
        None => applicable,
        Some(faults) => {
            if faults.is_empty() {
                return Err(invalid("schedule.faults", "at least one fault"));
            }
            for (index, fault) in faults.iter().enumerate() {
                if !applicable.contains(fault) {
                    let why = fault.why_not_applicable(keying);
                    return Err(invalid(&format!("schedule.faults[{index}]"), why));
                }
            }
            let mut faults = faults;
            faults.sort();
            faults.dedup();
            faults
        }
    };
    Ok(ScheduleConfig { operations_max, copies_max, in_flight_delay_ms, settle_ms, faults })
}

/// The webhook's body must be JSON with an object where the event id goes.
fn check_event_id_place(body: &Template, pointer: &str) -> Result<(), ProbeFileError> {
    let rendered = body.render(Values { number: 1, uuid: "uuid", key: "key" });
    let json: serde_json::Value = serde_json::from_str(&rendered).map_err(|error| {
        invalid(
            "target.body",
            format!("a webhook's body must be JSON (the event id goes in it): {error}"),
        )
    })?;
    let parent = pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
    if !json.pointer(parent).is_some_and(serde_json::Value::is_object) {
        return Err(invalid(
            "webhook.event_id_field",
            format!("target.body has no JSON object at {parent:?} to hold the event id"),
        ));
    }
    Ok(())
}

fn check_path(field: &str, path: &str) -> Result<(), ProbeFileError> {
    if !path.starts_with('/')
        || path.len() > TEXT_BYTES_MAX
        || path.chars().any(|c| c.is_whitespace() || c.is_control() || c == '#')
    {
        return Err(invalid(field, "a path from /, without spaces or #, at most 4096 bytes"));
    }
    Ok(())
}

fn check_pointer(field: &str, pointer: &str) -> Result<(), ProbeFileError> {
    if !(pointer.is_empty() || pointer.starts_with('/')) || pointer.len() > TEXT_BYTES_MAX {
        return Err(invalid(field, "a JSON pointer (RFC 6901) such as /balance"));
    }
    Ok(())
}

fn check_header_name(field: &str, name: &str) -> Result<(), ProbeFileError> {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || name.len() > 256 || !name.chars().all(token) {
        return Err(invalid(field, "a header name (letters, digits and !#$%&'*+-.^_`|~)"));
    }
    Ok(())
}

fn check_sql(field: &str, sql: &str) -> Result<(), ProbeFileError> {
    if sql.trim().is_empty() || sql.len() > TEXT_BYTES_MAX {
        return Err(invalid(field, "one SQL statement, at most 4096 bytes"));
    }
    Ok(())
}
