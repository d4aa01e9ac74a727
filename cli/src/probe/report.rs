//! What a probe found, as a value ([`Report`]), and its renderings: the text a person reads
//! (the heading, the tally or the failure's story and curl transcript), the JSON a CI job reads
//! (`--json`) and JUnit XML (`--junit FILE`, one test case per schedule played). Pure.

use std::fmt::Write;

use serde_json::{Value, json};

use crate::probe::file::{Keying, ProbeFile};
use crate::probe::judge::Exchange;
use crate::probe::plan::Role;
use crate::probe::schedule::Fault;
use crate::probe::shrink::ProbeRun;
use crate::probe::story::{story, transcript};

/// How the failing schedule was shrunk, or why not.
#[derive(Clone, Debug, PartialEq)]
pub enum Shrinking {
    /// Shrunk by `runs` re-runs; `budget_spent` if it stopped at the bound.
    Shrunk {
        /// Re-runs made.
        runs: usize,
        /// Whether the bound stopped it.
        budget_spent: bool,
    },
    /// The probe file has no reset: not shrunk.
    NoReset,
    /// The service failed while shrinking (a reset or an oracle read): the failure as found.
    Stopped {
        /// What failed.
        error: String,
    },
}

/// The first failing schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Its number among the drawn schedules, from 1.
    pub number: u32,
    /// The schedule as drawn, in one line.
    pub drawn: String,
    /// How it was shrunk.
    pub shrinking: Shrinking,
    /// The run shown: the shrunk one, or the one found.
    pub run: ProbeRun,
}

/// What a probe did and found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The seed.
    pub seed: u64,
    /// `--schedules`.
    pub schedules_max: u32,
    /// Schedules played.
    pub played: u32,
    /// Each played schedule as drawn, in one line, in order.
    pub drawn: Vec<String>,
    /// Requests the played schedules sent (shrinking's re-runs apart).
    pub requests_sent: u64,
    /// `--requests`, if it ended the probe early.
    pub stopped_by_requests_max: Option<u64>,
    /// Operations sent with each fault.
    pub faults_sent: Vec<(Fault, u32)>,
    /// The oracles' names (when every schedule held).
    pub oracles: Vec<String>,
    /// The first failure, if any.
    pub failure: Option<Failure>,
}

fn target(file: &ProbeFile) -> String {
    format!("{} {}{}", file.target.method.name(), file.target.base_url.url, file.target.path)
}

fn keyed(file: &ProbeFile) -> String {
    match &file.keying {
        Keying::Api { key_header, .. } => format!("api, key in {key_header}"),
        Keying::Webhook { event_id_pointer } => format!("webhook, event id at {event_id_pointer}"),
    }
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

/// The report as text; `shown` is the probe file's path as given, for the replay line.
pub fn text(file: &ProbeFile, report: &Report, shown: &str) -> String {
    let mut text = format!("probe {} ({}), seed {}\n", target(file), keyed(file), report.seed);
    if !file.reset.is_configured() {
        text.push_str(
            "no reset in the probe file: each schedule is judged by the change it makes, and a \
             failure is not shrunk (shrinking re-runs schedules from a reset state)\n",
        );
    }
    if let Some(requests_max) = report.stopped_by_requests_max {
        let _ = writeln!(
            text,
            "stopped by --requests {requests_max} after {} schedules",
            report.played
        );
    }
    let Some(failure) = &report.failure else {
        let _ = writeln!(
            text,
            "held for {} schedules ({} requests): the same answer to every copy of a key, the \
             draft's statuses, and each operation applied once ({})",
            report.played,
            report.requests_sent,
            report.oracles.join("; ")
        );
        let tally: Vec<String> = report
            .faults_sent
            .iter()
            .map(|(name, count)| format!("{} {count}", name.word()))
            .collect();
        let _ = writeln!(text, "faults sent: {}", tally.join(", "));
        return text;
    };
    let _ = writeln!(
        text,
        "schedule {} of {} broke it: {}",
        failure.number, report.schedules_max, failure.drawn
    );
    let schedule = &failure.run.schedule;
    match &failure.shrinking {
        Shrinking::Shrunk { runs, budget_spent } => {
            let _ = writeln!(
                text,
                "shrunk in {runs} runs to {} and {}: {}{}",
                plural(schedule.operations.len(), "operation"),
                plural(schedule.fault_count(), "fault"),
                schedule.summary(),
                if *budget_spent { " (the shrink budget ran out first)" } else { "" }
            );
        }
        Shrinking::NoReset => {}
        Shrinking::Stopped { error } => {
            let _ = writeln!(text, "not shrunk: the service failed while shrinking: {error}");
        }
    }
    let _ = writeln!(text, "\n{}", story(file, &failure.run));
    let _ = writeln!(text, "replay: idempotency-lab probe {shown} --seed {}", report.seed);
    let _ = write!(text, "transcript (curl):\n{}", transcript(file, &failure.run));
    text
}

fn role_word(role: Role) -> &'static str {
    match role {
        Role::First => "first",
        Role::Repeat => "repeat",
        Role::Overlapping => "overlapping",
        Role::Reused => "reused_key",
        Role::Keyless => "keyless",
        Role::HungUp => "hung_up",
    }
}

fn run_json(run: &ProbeRun) -> Value {
    let mut sends = Vec::new();
    let phases = run.phases.iter().zip(&run.requests).zip(&run.exchanges);
    for (phase_number, ((phase, requests), exchanges)) in phases.enumerate() {
        for ((send, request), exchange) in phase.sends.iter().zip(requests).zip(exchanges) {
            let answer = match exchange {
                Exchange::Answered(answer) => {
                    json!({ "status": answer.status, "body": answer.body })
                }
                Exchange::HungUp => json!({ "hung_up": true }),
                Exchange::Failed(error) => json!({ "error": error }),
            };
            sends.push(json!({
                "phase": phase_number,
                "operation": run.schedule.operations[send.operation].number,
                "role": role_word(send.role),
                "answer_dropped": send.answer_dropped,
                "delay_ms": send.delay_ms,
                "request": {
                    "method": request.method,
                    "url": request.url,
                    "headers": request.headers,
                    "body": request.body,
                },
                "answer": answer,
            }));
        }
    }
    let effects: Vec<Value> = run
        .effects
        .iter()
        .map(|reading| json!({ "oracle": reading.oracle, "before": reading.before, "after": reading.after }))
        .collect();
    let violations: Vec<String> =
        run.violations.iter().map(|violation| violation.sentence(&run.schedule)).collect();
    json!({ "schedule": run.schedule.summary(), "sends": sends, "effects": effects, "violations": violations })
}

/// The report as one JSON object (and a newline).
pub fn json(file: &ProbeFile, report: &Report, shown: &str) -> String {
    let faults_sent: serde_json::Map<String, Value> = report
        .faults_sent
        .iter()
        .map(|(name, count)| (name.word().to_owned(), json!(count)))
        .collect();
    let failure = report.failure.as_ref().map(|failure| {
        let shrinking = match &failure.shrinking {
            Shrinking::Shrunk { runs, budget_spent } => {
                json!({ "shrunk": true, "runs": runs, "budget_spent": budget_spent })
            }
            Shrinking::NoReset => json!({ "shrunk": false, "why": "no reset in the probe file" }),
            Shrinking::Stopped { error } => json!({ "shrunk": false, "why": error }),
        };
        json!({
            "schedule_number": failure.number,
            "drawn": failure.drawn,
            "shrinking": shrinking,
            "run": run_json(&failure.run),
            "story": story(file, &failure.run),
            "transcript": transcript(file, &failure.run),
            "replay": format!("idempotency-lab probe {shown} --seed {}", report.seed),
        })
    });
    let value = json!({
        "outcome": if report.failure.is_some() { "violated" } else { "held" },
        "target": target(file),
        "kind": match file.keying { Keying::Api { .. } => "api", Keying::Webhook { .. } => "webhook" },
        "seed": report.seed,
        "schedules": report.played,
        "requests": report.requests_sent,
        "stopped_by_requests_max": report.stopped_by_requests_max,
        "faults_sent": faults_sent,
        "failure": failure,
    });
    format!("{value}\n")
}

/// `text` escaped for XML text and attribute values.
fn xml_escaped(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => escaped.push('?'),
            c => escaped.push(c),
        }
    }
    escaped
}

/// The report as JUnit XML: one test suite, one test case per schedule played, the failing
/// one with its story and transcript.
pub fn junit(file: &ProbeFile, report: &Report, shown: &str) -> String {
    let failures = usize::from(report.failure.is_some());
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        xml_escaped(&format!("idempotency-lab probe {} ({})", target(file), keyed(file))),
        report.drawn.len()
    );
    let classname = xml_escaped(&format!("probe.seed-{}", report.seed));
    for (index, drawn) in report.drawn.iter().enumerate() {
        let number = index + 1;
        let name = xml_escaped(&format!("schedule {number}: {drawn}"));
        let failure = report.failure.as_ref().filter(|failure| failure.number as usize == number);
        match failure {
            None => {
                let _ = writeln!(xml, "    <testcase classname=\"{classname}\" name=\"{name}\"/>");
            }
            Some(failure) => {
                let message = failure
                    .run
                    .violations
                    .first()
                    .map(|violation| violation.sentence(&failure.run.schedule))
                    .unwrap_or_default();
                let body = format!(
                    "{}\nreplay: idempotency-lab probe {shown} --seed {}\n{}",
                    story(file, &failure.run),
                    report.seed,
                    transcript(file, &failure.run)
                );
                let _ = writeln!(
                    xml,
                    "    <testcase classname=\"{classname}\" name=\"{name}\">\n      <failure \
                     message=\"{}\">{}</failure>\n    </testcase>",
                    xml_escaped(&message),
                    xml_escaped(&body)
                );
            }
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}
