//! `probe`: the schedules that break idempotency designs, sent to a running HTTP service in
//! any language, and judged. The pure part says what to send and what the answers and the
//! stored effect must be: `file` (the probe file, strict), `template` (fresh bodies),
//! `schedule` (drawn from the seed, made smaller), `plan` (a schedule as requests), `judge`
//! (the verdicts), `shrink` and `story`. The I/O is at the edge: `client` (HTTP through
//! `ureq`, SQLite through `rusqlite`) and `execute` (one schedule against the service).

mod client;
mod execute;
mod file;
mod judge;
mod plan;
mod schedule;
mod shrink;
mod story;
mod template;
#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::path::Path;

use idempotency_lab::rng::DeterministicRng;

use crate::probe::client::Client;
use crate::probe::file::{Keying, ProbeFile, ProbeFileError};
use crate::probe::shrink::{SHRINK_RUNS_MAX, shrink};

/// The most schedules one probe draws.
pub const SCHEDULES_MAX: u32 = 10_000;

/// What `probe` could not do; each ends the command with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The probe file could not be read.
    #[error("cannot read {path}: {error}")]
    Read {
        /// The path as given.
        path: String,
        /// The system's error.
        error: std::io::Error,
    },
    /// The probe file is malformed.
    #[error("{path}: {error}")]
    File {
        /// The path as given.
        path: String,
        /// The field and what is wrong.
        error: ProbeFileError,
    },
    /// The target is not on this machine and `--allow-host` does not name it.
    #[error(
        "target.base_url: {host} is not a loopback host; probe it only if it is yours, with \
         --allow-host {host}"
    )]
    HostNotAllowed {
        /// The host.
        host: String,
    },
    /// A command-line bound.
    #[error("--{option}: {message}")]
    Option {
        /// The option.
        option: &'static str,
        /// What is allowed.
        message: String,
    },
    /// The service could not be reset or its effect read (it is down, or the probe file's
    /// reset or oracle does not fit it).
    #[error("{what}: {error}")]
    Service {
        /// The probe file's field whose I/O failed.
        what: &'static str,
        /// What failed.
        error: String,
    },
}

/// The command line's choices.
#[derive(Clone, Debug)]
pub struct ProbeOptions {
    /// The seed the schedules, keys and bodies are drawn from.
    pub seed: u64,
    /// How many schedules at most.
    pub schedules: u32,
    /// How many requests the drawn schedules may send in all (shrinking's re-runs apart).
    pub requests_max: u64,
    /// Hosts other than loopback that may be probed.
    pub allow_host: Vec<String>,
}

/// What a probe printed and whether it found a violation.
pub struct ProbeOutcome {
    /// The report.
    pub stdout: String,
    /// Whether a schedule broke the service's idempotency.
    pub violated: bool,
}

/// Reads the probe file at `path` and probes its service.
pub fn probe(path: &Path, options: &ProbeOptions) -> Result<ProbeOutcome, ProbeError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| ProbeError::Read { path: shown.clone(), error })?;
    let directory = path.parent().unwrap_or(Path::new("."));
    let file = ProbeFile::parse(&text, directory)
        .map_err(|error| ProbeError::File { path: shown.clone(), error })?;
    if !file.target.base_url.is_loopback()
        && !options.allow_host.contains(&file.target.base_url.host)
    {
        return Err(ProbeError::HostNotAllowed { host: file.target.base_url.host.clone() });
    }
    if !(1..=SCHEDULES_MAX).contains(&options.schedules) {
        let message = format!("from 1 to {SCHEDULES_MAX}");
        return Err(ProbeError::Option { option: "schedules", message });
    }
    run_schedules(&file, &shown, options)
}

fn heading(file: &ProbeFile, seed: u64) -> String {
    let keyed = match &file.keying {
        Keying::Api { key_header, .. } => format!("api, key in {key_header}"),
        Keying::Webhook { event_id_pointer } => format!("webhook, event id at {event_id_pointer}"),
    };
    format!(
        "probe {} {}{} ({keyed}), seed {seed}\n",
        file.target.method.name(),
        file.target.base_url.url,
        file.target.path
    )
}

fn run_schedules(
    file: &ProbeFile,
    shown: &str,
    options: &ProbeOptions,
) -> Result<ProbeOutcome, ProbeError> {
    let client = Client::new(file);
    let mut rng = DeterministicRng::from_seed(options.seed);
    let mut stdout = heading(file, options.seed);
    if !file.reset.is_configured() {
        stdout.push_str(
            "no reset in the probe file: each schedule is judged by the change it makes, and a \
             failure is not shrunk (shrinking re-runs schedules from a reset state)\n",
        );
    }
    let mut requests_sent = 0u64;
    let mut played = 0u32;
    let mut faults_sent: Vec<(schedule::FaultName, u32)> =
        file.schedule.faults.iter().map(|name| (*name, 0)).collect();
    for number in 1..=options.schedules {
        let schedule = schedule::draw(&mut rng, &file.schedule);
        let sends: u64 =
            plan::plan(&schedule, 0).iter().map(|phase| phase.sends.len() as u64).sum();
        if requests_sent + sends > options.requests_max {
            let _ = writeln!(
                stdout,
                "stopped by --requests {} after {played} schedules",
                options.requests_max
            );
            break;
        }
        requests_sent += sends;
        played += 1;
        for operation in &schedule.operations {
            let counted = faults_sent
                .iter_mut()
                .find(|(name, _)| Some(*name) == operation.fault.map(|fault| fault.name()));
            if let Some((_, count)) = counted {
                *count += 1;
            }
        }
        let run = execute::play(&client, file, &schedule)?;
        if run.violations.is_empty() {
            continue;
        }
        let _ = writeln!(
            stdout,
            "schedule {number} of {} broke it: {}",
            options.schedules,
            schedule.summary()
        );
        stdout.push_str(&failure(&client, file, shown, options.seed, run)?);
        return Ok(ProbeOutcome { stdout, violated: true });
    }
    let oracles: Vec<String> =
        execute::read_effects(&client, file)?.into_iter().map(|(oracle, _)| oracle).collect();
    let _ = writeln!(
        stdout,
        "held for {played} schedules ({requests_sent} requests): the same answer to every copy \
         of a key, the draft's statuses, and each operation applied once ({})",
        oracles.join("; ")
    );
    let tally: Vec<String> = faults_sent
        .iter()
        .map(|(name, count)| format!("{} {count}", schedule::fault_word(*name)))
        .collect();
    let _ = writeln!(stdout, "faults sent: {}", tally.join(", "));
    Ok(ProbeOutcome { stdout, violated: false })
}

fn failure(
    client: &Client,
    file: &ProbeFile,
    shown: &str,
    seed: u64,
    run: shrink::ProbeRun,
) -> Result<String, ProbeError> {
    let mut text = String::new();
    let run = if file.reset.is_configured() {
        let shrunk = shrink(run, &file.schedule.faults, SHRINK_RUNS_MAX, |schedule| {
            execute::play(client, file, schedule)
        })?;
        let operations = shrunk.run.schedule.operations.len();
        let faults = shrunk.run.schedule.fault_count();
        let _ = writeln!(
            text,
            "shrunk in {} runs to {operations} operation{} and {faults} fault{}: {}{}",
            shrunk.runs,
            if operations == 1 { "" } else { "s" },
            if faults == 1 { "" } else { "s" },
            shrunk.run.schedule.summary(),
            if shrunk.budget_spent { " (the shrink budget ran out first)" } else { "" }
        );
        shrunk.run
    } else {
        run
    };
    let _ = writeln!(text, "\n{}", story::story(file, &run));
    let _ = writeln!(text, "replay: idempotency-lab probe {shown} --seed {seed}");
    let _ = write!(text, "transcript (curl):\n{}", story::transcript(file, &run));
    Ok(text)
}
