//! `probe` against the Rust example services written with axum over SQLite
//! (`examples/probe/axum-service`), each started here on a free 127.0.0.1 port with its own
//! database, through the example probe files (their port swapped for the service's). The raw
//! top-up API and the naive webhook consumer are caught and shrunk to one fault; the keyed
//! top-up API (Brandur Leach's design) and the inbox consumer hold for 1,000 schedules each,
//! judged by the HTTP oracle and by the SQL oracle reading the service's own database.

use std::path::PathBuf;
use std::time::Instant;

use idempotency_lab_axum_example::{Service, spawn};

use crate::common::{CliRun, run_cli_in, scratch_dir};
use crate::probe_top_up_services::{as_on_port_8080, check_readme_output};

/// The schedules a correct version must hold for.
const SCHEDULES_HELD: u32 = 1_000;

/// A started example service and the scratch directory its probe files are written in.
pub struct Example {
    /// Where the probe files and the database are.
    pub dir: PathBuf,
    /// Its port on 127.0.0.1.
    pub port: u16,
}

/// Starts `service` with its database `wallets.db` in a fresh scratch directory `name`.
pub fn start_example(service: Service, name: &str) -> Example {
    let dir = scratch_dir(name);
    let address = spawn(service, &dir.join("wallets.db")).unwrap();
    Example { dir, port: address.port() }
}

impl Example {
    /// Writes the example probe file `example` (its text), pointed at this service and with
    /// `extra` appended, as `probe.toml`.
    fn write_probe_file(&self, example: &str, extra: &str) {
        let text = example.replace("127.0.0.1:8080", &format!("127.0.0.1:{}", self.port));
        std::fs::write(self.dir.join("probe.toml"), text + extra).unwrap();
    }

    fn probe(&self, args: &[&str]) -> CliRun {
        let mut all = vec!["probe", "probe.toml"];
        all.extend_from_slice(args);
        run_cli_in(&self.dir, &all)
    }
}

const TOP_UP: &str = include_str!("../../../examples/probe/top_up.toml");
const WEBHOOK: &str = include_str!("../../../examples/probe/webhook.toml");

/// The SQL oracle on the service's database, beside the example's HTTP one.
const SQL_ORACLE: &str = "\n[oracle.sqlite]\ndatabase = \"wallets.db\"\nquery = \"SELECT balance FROM wallets WHERE id = 'w1'\"\n";

/// The shrunk schedule's line, checked to have at most two faults.
fn shrunk_line(run: &CliRun) -> &str {
    let line = run.stdout.lines().find(|line| line.starts_with("shrunk in")).unwrap();
    assert!(
        line.contains(" to 1 operation and 1 fault: #")
            || line.contains(" and 2 faults: #")
            || line.contains(" to 2 operations and 1 fault: #"),
        "{}",
        run.stdout
    );
    line
}

/// Probes a correct version for [`SCHEDULES_HELD`] schedules and checks that every one held,
/// with both oracles; prints the schedules per second.
fn holds_for_every_schedule(example: &Example, what: &str) {
    let schedules = SCHEDULES_HELD.to_string();
    let args = ["--seed", "7", "--schedules", schedules.as_str(), "--requests", "100000"];
    let started = Instant::now();
    let run = example.probe(&args);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let held = format!("held for {SCHEDULES_HELD} schedules (");
    assert!(run.stdout.contains(&held), "{}", run.stdout);
    assert!(
        run.stdout.contains("GET /wallets/w1 at /balance")
            && run.stdout.contains("SQL `SELECT balance FROM wallets WHERE id = 'w1'`"),
        "{}",
        run.stdout
    );
    eprintln!(
        "{what}: {SCHEDULES_HELD} schedules in {seconds:.1} s, {:.0} schedules/s",
        f64::from(SCHEDULES_HELD) / seconds
    );
}

#[test]
fn the_raw_top_up_api_is_caught_with_the_readme_story() {
    let example = start_example(Service::TopUpRaw, "probe_axum_raw");
    example.write_probe_file(TOP_UP, "");
    let run = example.probe(&["--seed", "1"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(shrunk_line(&run).ends_with(": #2 duplicate"), "{}", run.stdout);
    let command = "idempotency-lab probe examples/probe/top_up.toml --seed 1";
    let output = as_on_port_8080(&run.stdout, example.port)
        .replace("probe.toml --seed 1", "examples/probe/top_up.toml --seed 1");
    check_readme_output(0, command, &output);
}

#[test]
fn the_keyed_top_up_api_holds_for_1000_schedules() {
    let example = start_example(Service::TopUpKeyed, "probe_axum_keyed");
    example.write_probe_file(TOP_UP, SQL_ORACLE);
    holds_for_every_schedule(&example, "top-up-keyed");
}

#[test]
fn the_naive_webhook_consumer_is_caught_with_the_readme_story() {
    let example = start_example(Service::WebhookNaive, "probe_axum_webhook_naive");
    example.write_probe_file(WEBHOOK, "");
    let run = example.probe(&["--seed", "3"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(shrunk_line(&run).ends_with(": #2 duplicate"), "{}", run.stdout);
    let command = "idempotency-lab probe examples/probe/webhook.toml --seed 3";
    let output = as_on_port_8080(&run.stdout, example.port)
        .replace("probe.toml --seed 3", "examples/probe/webhook.toml --seed 3");
    check_readme_output(2, command, &output);
}

#[test]
fn the_inbox_webhook_consumer_holds_for_1000_schedules() {
    let example = start_example(Service::WebhookInbox, "probe_axum_webhook_inbox");
    example.write_probe_file(WEBHOOK, SQL_ORACLE);
    holds_for_every_schedule(&example, "webhook-inbox");
}
