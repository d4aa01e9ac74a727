//! `probe`: the schedules that break idempotency designs, sent to a running HTTP service in
//! any language, and judged. The pure part says what to send and what the answers and the
//! stored effect must be: `file` (the probe file, strict), `template` (fresh bodies),
//! `schedule` (drawn from the seed, made smaller), `plan` (a schedule as requests), `judge`
//! (the verdicts), `shrink` and `story`. The I/O is at the edge: `client` (HTTP through
//! `ureq`, SQLite through `rusqlite`, PostgreSQL through `postgres`) and `execute` (one
//! schedule against the service).
//!
//! Why schedules are drawn from the core's seeded stream and shrunk by `shrink`'s own greedy
//! loop rather than by proptest's `TestRunner`: each case is a round trip to a live service
//! whose answers under concurrency may differ from one run to the next, so the candidates are
//! tried in a fixed order (fewer operations, then simpler faults, then fewer faults) under an
//! explicit budget of re-runs (`SHRINK_RUNS_MAX`), each from a reset, each candidate tried
//! once; and the same seed must draw the same keys and bodies, which the README's checked
//! output and the printed replay command rely on.

mod client;
mod execute;
mod file;
mod judge;
mod plan;
mod report;
mod schedule;
mod shrink;
mod story;
mod template;
#[cfg(test)]
mod tests;

use std::path::Path;

use idempotency_lab::rng::DeterministicRng;

use crate::probe::client::Client;
use crate::probe::file::{ProbeFile, ProbeFileError};
use crate::probe::report::{Failure, Report, Shrinking};
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
    /// The JUnit file could not be written.
    #[error("--junit: cannot write {path}: {error}")]
    WriteJunit {
        /// The path as given.
        path: String,
        /// The system's error.
        error: std::io::Error,
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
    /// Requests per second at most, if bounded.
    pub rate: Option<u32>,
    /// Print the report as JSON.
    pub json: bool,
    /// Also write the report as JUnit XML to this file.
    pub junit: Option<std::path::PathBuf>,
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
    if options.rate == Some(0) {
        return Err(ProbeError::Option { option: "rate", message: "at least 1".to_owned() });
    }
    let report = run_schedules(&file, options)?;
    if let Some(path) = &options.junit {
        std::fs::write(path, report::junit(&file, &report, &shown))
            .map_err(|error| ProbeError::WriteJunit { path: path.display().to_string(), error })?;
    }
    let stdout = if options.json {
        report::json(&file, &report, &shown)
    } else {
        report::text(&file, &report, &shown)
    };
    Ok(ProbeOutcome { stdout, violated: report.failure.is_some() })
}

fn run_schedules(file: &ProbeFile, options: &ProbeOptions) -> Result<Report, ProbeError> {
    let client = Client::new(file);
    let mut pacer = execute::Pacer::new(options.rate);
    let mut rng = DeterministicRng::from_seed(options.seed);
    let mut report = Report {
        seed: options.seed,
        schedules_max: options.schedules,
        played: 0,
        drawn: Vec::new(),
        requests_sent: 0,
        stopped_by_requests_max: None,
        faults_sent: file.schedule.faults.iter().map(|name| (*name, 0)).collect(),
        oracles: Vec::new(),
        failure: None,
    };
    for number in 1..=options.schedules {
        let schedule = schedule::draw(&mut rng, &file.schedule);
        let sends: u64 =
            plan::plan(&schedule, 0).iter().map(|phase| phase.sends.len() as u64).sum();
        if report.requests_sent + sends > options.requests_max {
            if report.played == 0 {
                let message = format!("the first schedule alone sends {sends} requests");
                return Err(ProbeError::Option { option: "requests", message });
            }
            report.stopped_by_requests_max = Some(options.requests_max);
            break;
        }
        report.requests_sent += sends;
        report.played += 1;
        report.drawn.push(schedule.summary());
        for operation in &schedule.operations {
            let name = operation.fault.map(|fault| fault.kind());
            if let Some((_, count)) = report.faults_sent.iter_mut().find(|(n, _)| Some(*n) == name)
            {
                *count += 1;
            }
        }
        let run = execute::play(&client, file, &schedule, &mut pacer)?;
        if !run.violations.is_empty() {
            let drawn = schedule.summary();
            let (shrinking, run) = shrink_if_possible(&client, file, &mut pacer, run);
            report.failure = Some(Failure { number, drawn, shrinking, run });
            return Ok(report);
        }
    }
    report.oracles =
        execute::read_effects(&client, file)?.into_iter().map(|(oracle, _)| oracle).collect();
    Ok(report)
}

/// Shrinks `run` if the probe file can reset the service; a service that fails while
/// shrinking leaves the failure as found.
fn shrink_if_possible(
    client: &Client,
    file: &ProbeFile,
    pacer: &mut execute::Pacer,
    run: shrink::ProbeRun,
) -> (Shrinking, shrink::ProbeRun) {
    if !file.reset.is_configured() {
        return (Shrinking::NoReset, run);
    }
    let found = run.clone();
    match shrink(run, &file.schedule.faults, SHRINK_RUNS_MAX, |schedule| {
        execute::play(client, file, schedule, pacer)
    }) {
        Ok(shrunk) => {
            (Shrinking::Shrunk { runs: shrunk.runs, budget_spent: shrunk.budget_spent }, shrunk.run)
        }
        Err(error) => (Shrinking::Stopped { error: error.to_string() }, found),
    }
}
