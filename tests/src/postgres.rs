//! A private PostgreSQL server for the differential test, and the driver that replays a lab
//! run on it statement by statement.
//!
//! [`PrivateServer::start`] runs Debian's `initdb` and `pg_ctl` in a fresh temporary directory
//! (as the `postgres` user when the tests run as root, since `initdb` refuses root), listening
//! only on a unix socket there, and stops and removes it on drop. [`replay`] runs one
//! [`Simulation`] to its end and, after every step, runs the step's statement on the server in
//! the same interleaving: one connection per lab transaction, each statement sent from that
//! connection's own thread, so a statement that waits for a row lock waits there while the
//! others go on. A statement is "blocked" when its backend waits for a heavyweight lock held
//! by another backend (`pg_stat_activity.wait_event_type = 'Lock'` and a non-empty
//! `pg_blocking_pids`); `lock_timeout` is only a safety net. Per step it compares what the lab
//! did with what the server did: blocked or not, rows affected, unique violations, and the
//! committed rows of every table after each commit.
//!
//! The server's own deadlock detector is held off (`deadlock_timeout` of a minute): the lab
//! breaks a cycle of waits by rolling back the youngest transaction, and the replay does the
//! same on the server (cancel the victim's waiting statement, roll it back), so both go on
//! from the same state.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use idempotency_lab::ids::TxId;
use idempotency_lab::sim::Simulation;
use idempotency_lab::sql::{self, SCHEMA, is_sql, table_rows_json};
use idempotency_lab::store::{StoreOp, TableName, Tables};

/// The role the tests connect as.
const ROLE: &str = "lab";

/// How long a statement may take before the replay gives up on the server.
const STATEMENT_WAIT_MAX: Duration = Duration::from_secs(10);

/// Why the private server could not be started or used.
#[derive(Debug)]
pub struct ServerError(pub String);

impl std::fmt::Display for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A PostgreSQL cluster of its own in a temporary directory, stopped and removed on drop.
pub struct PrivateServer {
    bin: PathBuf,
    dir: PathBuf,
    as_postgres_user: bool,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// A new directory of this server's own under the temporary directory. Each server of the
/// process takes the next number, and a name already there (left by an earlier process with the
/// same id) is skipped, never shared: two servers in one directory remove each other's files.
fn fresh_dir() -> Result<PathBuf, ServerError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let dir = std::env::temp_dir().join(format!(
            "idempotency-lab-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(ServerError(format!("mkdir {}: {error}", dir.display()))),
        }
    }
}

impl PrivateServer {
    /// Creates and starts the cluster, with the lab's schema in database `postgres`.
    pub fn start() -> Result<PrivateServer, ServerError> {
        let bin = xtask::setup::find_postgresql().ok_or_else(|| {
            ServerError(
                "no PostgreSQL server programs (initdb, pg_ctl): run `cargo xtask test`, which \
                 installs Debian's postgresql, or set LAB_PG_BIN"
                    .to_owned(),
            )
        })?;
        let dir = fresh_dir()?;
        let server = PrivateServer { bin, dir, as_postgres_user: is_root() };
        if server.as_postgres_user {
            server.run("chown", &["postgres", &server.dir.display().to_string()], false)?;
        }
        let data = server.dir.join("data").display().to_string();
        let initdb = server.bin.join("initdb").display().to_string();
        server.run(
            &initdb,
            &["-D", &data, "-A", "trust", "-U", ROLE, "--no-locale", "-E", "UTF8", "--no-sync"],
            true,
        )?;
        let options = format!(
            "-k {} -c listen_addresses='' -c fsync=off -c synchronous_commit=off \
             -c full_page_writes=off -c deadlock_timeout=60s -c max_connections=60",
            server.dir.display()
        );
        let pg_ctl = server.bin.join("pg_ctl").display().to_string();
        let log = server.dir.join("log").display().to_string();
        server.run(&pg_ctl, &["-D", &data, "-o", &options, "-l", &log, "-w", "start"], true)?;
        let mut client = server.connect()?;
        client.batch_execute(SCHEMA).map_err(|error| ServerError(format!("schema: {error}")))?;
        Ok(server)
    }

    fn run(&self, program: &str, args: &[&str], as_server_user: bool) -> Result<(), ServerError> {
        let mut command = if as_server_user && self.as_postgres_user {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--", program]);
            command
        } else {
            Command::new(program)
        };
        let output = command
            .args(args)
            .current_dir(&self.dir)
            .output()
            .map_err(|error| ServerError(format!("{program}: {error}")))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(ServerError(format!(
                "{program} {args:?} failed: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )))
        }
    }

    /// A new connection over the unix socket.
    pub fn connect(&self) -> Result<postgres::Client, ServerError> {
        postgres::Config::new()
            .host_path(&self.dir)
            .user(ROLE)
            .dbname("postgres")
            .connect(postgres::NoTls)
            .map_err(|error| ServerError(format!("connect: {error}")))
    }

    /// The socket directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for PrivateServer {
    fn drop(&mut self) {
        let data = self.dir.join("data").display().to_string();
        let pg_ctl = self.bin.join("pg_ctl").display().to_string();
        let _ = self.run(&pg_ctl, &["-D", &data, "-m", "immediate", "-w", "stop"], true);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a statement did on the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerOutcome {
    /// It finished: the rows it affected (or returned).
    Rows(u64),
    /// It failed with this SQLSTATE (`23505` is a unique violation).
    Failed(String),
    /// It waits for another transaction's lock.
    Blocked,
}

struct Session {
    pid: i32,
    commands: Sender<String>,
    results: Receiver<ServerOutcome>,
    pending: Option<String>,
    thread: Option<JoinHandle<()>>,
}

impl Session {
    fn open(server: &PrivateServer) -> Result<Session, ServerError> {
        let mut client = server.connect()?;
        client
            .batch_execute("SET lock_timeout = '20s'; SET statement_timeout = '30s'")
            .map_err(|error| ServerError(format!("session setup: {error}")))?;
        let pid: i32 = client
            .query_one("SELECT pg_backend_pid()", &[])
            .map_err(|error| ServerError(format!("pid: {error}")))?
            .get(0);
        let (commands, inbox) = channel::<String>();
        let (outbox, results) = channel();
        let thread = std::thread::spawn(move || {
            for statement in inbox {
                let outcome = match client.simple_query(&statement) {
                    Ok(messages) => ServerOutcome::Rows(
                        messages
                            .iter()
                            .filter_map(|message| match message {
                                postgres::SimpleQueryMessage::CommandComplete(rows) => Some(*rows),
                                _ => None,
                            })
                            .next_back()
                            .unwrap_or(0),
                    ),
                    Err(error) => ServerOutcome::Failed(
                        error
                            .code()
                            .map_or_else(|| error.to_string(), |code| code.code().to_owned()),
                    ),
                };
                if outbox.send(outcome).is_err() {
                    break;
                }
            }
        });
        Ok(Session { pid, commands, results, pending: None, thread: Some(thread) })
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closing the channel ends the thread, which drops its connection.
        let (closed, _) = channel();
        self.commands = closed;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One difference between the lab and the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The step number in the trace (from 1).
    pub step: usize,
    /// The step's statement.
    pub statement: String,
    /// What the lab did.
    pub lab: String,
    /// What the server did.
    pub server: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "step {}: {}\n    lab:        {}\n    postgresql: {}",
            self.step, self.statement, self.lab, self.server
        )
    }
}

/// What a replay compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayReport {
    /// Steps run.
    pub steps: usize,
    /// SQL statements run on the server.
    pub statements: usize,
    /// Of those, how many the server made wait.
    pub blocked: usize,
    /// Commits after which every table was compared.
    pub commits_compared: usize,
    /// The first difference, if any (the replay stops there).
    pub difference: Option<Difference>,
}

/// The server, a monitoring connection, and the idle sessions the replays reuse.
pub struct Differential {
    server: PrivateServer,
    monitor: postgres::Client,
    idle: Vec<Session>,
}

impl Differential {
    /// Starts a private server with the lab's schema.
    pub fn start() -> Result<Differential, ServerError> {
        let server = PrivateServer::start()?;
        let monitor = server.connect()?;
        Ok(Differential { server, monitor, idle: Vec::new() })
    }

    /// Runs `simulation` to its end, replaying each step on the server, and stops at the
    /// first difference.
    pub fn replay(&mut self, mut simulation: Simulation) -> Result<ReplayReport, ServerError> {
        reset(&mut self.monitor, simulation.world().store().committed())?;
        let mut replay = Replay {
            server: &self.server,
            monitor: &mut self.monitor,
            idle: &mut self.idle,
            sessions: BTreeMap::new(),
            written: BTreeMap::new(),
            actor_tx: BTreeMap::new(),
            report: ReplayReport::default(),
        };
        let outcome = (|| {
            while let Some(step) = simulation.step() {
                let number = step.step;
                let actor = format!("{:?}", step.actor);
                let statement = step.statement.clone();
                let ops = simulation.world().store().statement_log().to_vec();
                let committed = simulation.world().store().committed().clone();
                replay.step(number, actor, statement.as_deref(), &ops, &committed)?;
                if replay.report.difference.is_some() {
                    break;
                }
            }
            Ok::<(), ServerError>(())
        })();
        let open: Vec<TxId> = replay.sessions.keys().copied().collect();
        for tx in open {
            replay.roll_back(tx)?;
        }
        outcome?;
        Ok(replay.report)
    }
}

/// The replay of one run on the server.
struct Replay<'a> {
    server: &'a PrivateServer,
    monitor: &'a mut postgres::Client,
    idle: &'a mut Vec<Session>,
    sessions: BTreeMap<TxId, Session>,
    /// Rows each transaction's current statement has written so far, across its retries.
    written: BTreeMap<TxId, BTreeSet<String>>,
    /// Each actor's open transaction, for statements that log no operation (reads).
    actor_tx: BTreeMap<String, TxId>,
    report: ReplayReport,
}

fn err(error: impl std::fmt::Display) -> ServerError {
    ServerError(error.to_string())
}

/// Empties the tables (and restarts the charges sequence) and loads `tables`.
fn reset(client: &mut postgres::Client, tables: &Tables) -> Result<(), ServerError> {
    let names: Vec<&str> = TableName::ALL.iter().map(|table| table.as_str()).collect();
    let mut script =
        format!("TRUNCATE {}; ALTER SEQUENCE charges_id_seq RESTART;", names.join(", "));
    for statement in sql::load(tables) {
        script.push_str(&statement);
        script.push(';');
    }
    client.batch_execute(&script).map_err(err)
}

/// Every table on the server as `to_jsonb` rows, in a canonical order.
fn server_tables(
    client: &mut postgres::Client,
) -> Result<BTreeMap<String, Vec<String>>, ServerError> {
    let parts: Vec<String> = TableName::ALL
        .iter()
        .map(|table| {
            format!(
                "'{0}', (SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) FROM {0} t)",
                table.as_str()
            )
        })
        .collect();
    let query = format!("SELECT jsonb_build_object({})::text", parts.join(", "));
    let text: String = client.query_one(&query, &[]).map_err(err)?.get(0);
    let value: serde_json::Value = serde_json::from_str(&text).map_err(err)?;
    let mut tables = BTreeMap::new();
    for &table in TableName::ALL {
        let rows = value.get(table.as_str()).and_then(|rows| rows.as_array()).cloned();
        tables.insert(table.as_str().to_owned(), canonical(rows.unwrap_or_default()));
    }
    Ok(tables)
}

fn lab_tables(tables: &Tables) -> BTreeMap<String, Vec<String>> {
    TableName::ALL
        .iter()
        .map(|&table| (table.as_str().to_owned(), canonical(table_rows_json(tables, table))))
        .collect()
}

fn canonical(rows: Vec<serde_json::Value>) -> Vec<String> {
    let mut rows: Vec<String> = rows.iter().map(serde_json::Value::to_string).collect();
    rows.sort();
    rows
}

/// What the lab's step did with its statement, from the store's log.
#[derive(Debug)]
struct LabOutcome {
    blocked_by: Option<TxId>,
    unique_violation: bool,
}

impl Replay<'_> {
    fn is_waiting_for_a_lock(&mut self, pid: i32) -> Result<bool, ServerError> {
        let row = self
            .monitor
            .query_one(
                "SELECT coalesce(bool_or(wait_event_type = 'Lock' \
                 AND cardinality(pg_blocking_pids(pid)) > 0), false) \
                 FROM pg_stat_activity WHERE pid = $1",
                &[&pid],
            )
            .map_err(err)?;
        Ok(row.get(0))
    }

    /// Sends `statement` on `tx`'s session (or, if it is waiting there already from an earlier
    /// step, waits for it) and says what it did.
    fn run_on(&mut self, tx: TxId, statement: &str) -> Result<ServerOutcome, ServerError> {
        let session =
            self.sessions.get_mut(&tx).ok_or_else(|| err(format!("no session for {tx}")))?;
        if session.pending.is_none() {
            session.commands.send(statement.to_owned()).map_err(err)?;
            session.pending = Some(statement.to_owned());
        }
        self.poll(tx)
    }

    fn poll(&mut self, tx: TxId) -> Result<ServerOutcome, ServerError> {
        let started = Instant::now();
        loop {
            let session =
                self.sessions.get_mut(&tx).ok_or_else(|| err(format!("no session for {tx}")))?;
            match session.results.recv_timeout(Duration::from_micros(500)) {
                Ok(outcome) => {
                    session.pending = None;
                    return Ok(outcome);
                }
                Err(RecvTimeoutError::Disconnected) => return Err(err("session thread ended")),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let pid = session.pid;
            if self.is_waiting_for_a_lock(pid)? {
                return Ok(ServerOutcome::Blocked);
            }
            if started.elapsed() > STATEMENT_WAIT_MAX {
                return Err(err(format!("{tx}'s statement neither finished nor waited")));
            }
        }
    }

    /// Ends `tx` on the server: cancels a statement it is waiting in, then rolls back.
    fn roll_back(&mut self, tx: TxId) -> Result<(), ServerError> {
        let Some(session) = self.sessions.get(&tx) else { return Ok(()) };
        if session.pending.is_some() {
            let pid = session.pid;
            self.monitor.execute("SELECT pg_cancel_backend($1)", &[&pid]).map_err(err)?;
            let _ = self.poll(tx)?;
        }
        let outcome = self.run_on(tx, "ROLLBACK")?;
        if outcome != ServerOutcome::Rows(0) {
            return Err(err(format!("ROLLBACK of {tx}: {outcome:?}")));
        }
        self.end(tx);
        Ok(())
    }

    fn end(&mut self, tx: TxId) {
        if let Some(session) = self.sessions.remove(&tx)
            && session.pending.is_none()
        {
            self.idle.push(session);
        }
        self.written.remove(&tx);
        self.actor_tx.retain(|_, open| *open != tx);
    }

    fn differ(&mut self, step: usize, statement: &str, lab: String, server: String) {
        if self.report.difference.is_none() {
            self.report.difference =
                Some(Difference { step, statement: statement.to_owned(), lab, server });
        }
    }

    fn step(
        &mut self,
        number: usize,
        actor: String,
        statement: Option<&str>,
        ops: &[StoreOp],
        committed: &Tables,
    ) -> Result<(), ServerError> {
        self.report.steps += 1;
        let began = ops.iter().find_map(|op| match op {
            StoreOp::Begin { tx } => Some(*tx),
            _ => None,
        });
        let mut handled_end = BTreeSet::new();
        if let Some(statement) = statement.filter(|statement| is_sql(statement)) {
            let tx = match began {
                Some(tx) => {
                    let session = match self.idle.pop() {
                        Some(session) => session,
                        None => Session::open(self.server)?,
                    };
                    self.sessions.insert(tx, session);
                    self.actor_tx.insert(actor.clone(), tx);
                    Some(tx)
                }
                None => ops.iter().find_map(op_tx).or_else(|| self.actor_tx.get(&actor).copied()),
            };
            // A statement of a transaction the lab has ended (a deadlock victim's next step)
            // fails in the lab before it reaches the store; there is nothing to run.
            if let Some(tx) = tx.filter(|tx| self.sessions.contains_key(tx)) {
                let autocommit = began.is_some() && statement != "BEGIN";
                self.run_statement(number, tx, statement, ops, committed, &mut handled_end)?;
                if autocommit {
                    // A read outside a transaction: the lab begins and rolls back around it,
                    // the server runs it in autocommit mode.
                    handled_end.insert(tx);
                    self.end(tx);
                }
            }
        }
        for op in ops {
            if let StoreOp::Rollback { tx } = op
                && !handled_end.contains(tx)
            {
                self.roll_back(*tx)?;
            }
        }
        Ok(())
    }

    fn run_statement(
        &mut self,
        number: usize,
        tx: TxId,
        statement: &str,
        ops: &[StoreOp],
        committed: &Tables,
        handled_end: &mut BTreeSet<TxId>,
    ) -> Result<(), ServerError> {
        let lab = LabOutcome {
            blocked_by: ops.iter().find_map(|op| match op {
                StoreOp::Blocked(wait) => Some(wait.holder),
                _ => None,
            }),
            unique_violation: ops.iter().any(|op| matches!(op, StoreOp::UniqueViolation { .. })),
        };
        let written = self.written.entry(tx).or_default();
        for op in ops {
            if let StoreOp::Wrote { tx: writer, key, table } = op
                && *writer == tx
            {
                written.insert(format!("{}:{key}", table.as_str()));
            }
        }
        let was_pending = self.sessions.get(&tx).is_some_and(|session| session.pending.is_some());
        let outcome = self.run_on(tx, statement)?;
        if !was_pending {
            self.report.statements += 1;
        }
        if outcome == ServerOutcome::Blocked && !was_pending {
            self.report.blocked += 1;
        }
        let verb = statement.split_whitespace().next().unwrap_or_default();
        match (&outcome, lab.blocked_by) {
            (ServerOutcome::Blocked, Some(_)) => return Ok(()),
            (ServerOutcome::Blocked, None) => {
                let lab_said =
                    format!("ran at once ({:?})", self.written.get(&tx).map(BTreeSet::len));
                self.differ(number, statement, lab_said, "waits for a lock".to_owned());
                return Ok(());
            }
            (_, Some(holder)) => {
                self.differ(
                    number,
                    statement,
                    format!("waits for {holder}"),
                    format!("did not wait: {outcome:?}"),
                );
                return Ok(());
            }
            (_, None) => {}
        }
        let rows_written = self.written.remove(&tx).map_or(0, |rows| rows.len());
        match outcome {
            ServerOutcome::Failed(code) if code == "23505" && lab.unique_violation => {}
            ServerOutcome::Failed(code) => {
                self.differ(number, statement, format!("{lab:?}"), format!("failed with {code}"));
            }
            ServerOutcome::Rows(_) if lab.unique_violation => {
                self.differ(
                    number,
                    statement,
                    "unique violation".to_owned(),
                    format!("{outcome:?}"),
                );
            }
            ServerOutcome::Rows(rows) => {
                if matches!(verb, "INSERT" | "UPDATE" | "DELETE") && rows != rows_written as u64 {
                    self.differ(
                        number,
                        statement,
                        format!("{rows_written} rows"),
                        format!("{rows} rows"),
                    );
                }
                if verb == "COMMIT" {
                    handled_end.insert(tx);
                    self.end(tx);
                    self.compare_tables(number, statement, committed)?;
                }
            }
            ServerOutcome::Blocked => {}
        }
        Ok(())
    }

    fn compare_tables(
        &mut self,
        number: usize,
        statement: &str,
        committed: &Tables,
    ) -> Result<(), ServerError> {
        self.report.commits_compared += 1;
        let server = server_tables(self.monitor)?;
        let lab = lab_tables(committed);
        for (table, lab_rows) in &lab {
            let server_rows = server.get(table).cloned().unwrap_or_default();
            if *lab_rows != server_rows {
                self.differ(
                    number,
                    statement,
                    format!("{table}: {lab_rows:?}"),
                    format!("{table}: {server_rows:?}"),
                );
                return Ok(());
            }
        }
        Ok(())
    }
}

fn op_tx(op: &StoreOp) -> Option<TxId> {
    match op {
        StoreOp::Begin { tx }
        | StoreOp::Commit { tx }
        | StoreOp::Rollback { tx }
        | StoreOp::Wrote { tx, .. }
        | StoreOp::Skipped { tx }
        | StoreOp::UniqueViolation { tx, .. } => Some(*tx),
        StoreOp::Blocked(wait) => Some(wait.tx),
    }
}
