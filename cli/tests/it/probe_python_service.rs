//! The probe does not care what it probes: `examples/probe/top_up_service.py`, a top-up API in
//! Python's standard library only (`http.server`, `sqlite3`), started here on a free
//! 127.0.0.1 port, probed through `examples/probe/top_up.toml` with its SQLite file read by
//! the SQL oracle beside the HTTP one. The naive mode is caught; the idempotent mode (key,
//! fingerprint and answer in the balance's `BEGIN IMMEDIATE` transaction) holds. Without a
//! `python3` on the machine the test says so and checks nothing. The README's quoted output
//! is the naive mode's too, byte for byte, so a reader can reproduce it with Python alone.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::{CliRun, run_cli_in, scratch_dir};
use crate::probe_top_up_services::{as_on_port_8080, check_readme_output, example_probe_dir};

/// The Python service, killed when dropped.
struct PythonService {
    child: Child,
    port: u16,
}

impl Drop for PythonService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_python(mode: &str, database: &std::path::Path) -> Option<PythonService> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/probe/top_up_service.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(mode)
        .arg(database)
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut()?).read_line(&mut line).ok()?;
    let port = line.trim().parse().ok()?;
    Some(PythonService { child, port })
}

fn probe_python(mode: &str, name: &str, schedules: &str) -> Option<CliRun> {
    let database = scratch_dir(&format!("{name}_database")).join("wallets.db");
    let Some(service) = start_python(mode, &database) else {
        eprintln!("no python3 here: the Python service is not probed");
        return None;
    };
    let dir = example_probe_dir(name, service.port);
    let path = dir.join("examples/probe/top_up.toml");
    let sqlite = format!(
        "[oracle.sqlite]\ndatabase = {:?}\nquery = \"SELECT balance FROM wallets WHERE id = 'w1'\"\n\n\
         [reset]",
        database.display().to_string()
    );
    let text = std::fs::read_to_string(&path).unwrap().replacen("[reset]", &sqlite, 1);
    std::fs::write(&path, text).unwrap();
    let args = [
        "probe",
        "examples/probe/top_up.toml",
        "--seed",
        "5",
        "--schedules",
        schedules,
        "--requests",
        "100000",
    ];
    Some(run_cli_in(&dir, &args))
}

#[test]
fn the_readme_output_comes_from_the_python_service_too() {
    let database = scratch_dir("probe_python_readme_database").join("wallets.db");
    let Some(service) = start_python("naive", &database) else {
        eprintln!("no python3 here: the Python service is not probed");
        return;
    };
    let dir = example_probe_dir("probe_python_readme", service.port);
    let run = run_cli_in(&dir, &["probe", "examples/probe/top_up.toml", "--seed", "1"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let command = "idempotency-lab probe examples/probe/top_up.toml --seed 1";
    check_readme_output(0, command, &as_on_port_8080(&run.stdout, service.port));
}

#[test]
fn a_python_service_is_probed_like_any_other() {
    let Some(naive) = probe_python("naive", "probe_python_naive", "12") else { return };
    assert_eq!(naive.code, 1, "{}{}", naive.stdout, naive.stderr);
    assert!(naive.stdout.contains(" to 1 operation and 1 fault: #"), "{}", naive.stdout);
    assert!(
        naive.stdout.contains(
            "SQL `SELECT balance FROM wallets WHERE id = 'w1'` changed by 20, each distinct \
             operation applied once changes it by 10"
        ),
        "{}",
        naive.stdout
    );
    // The correct version holds for 1,000 schedules, as the Rust example's correct versions do.
    let Some(idempotent) = probe_python("idempotent", "probe_python_idempotent", "1000") else {
        return;
    };
    assert_eq!(idempotent.code, 0, "{}{}", idempotent.stdout, idempotent.stderr);
    assert!(idempotent.stdout.contains("held for 1000 schedules"), "{}", idempotent.stdout);
}
