//! A run told as a short story, as the harness tells its runs (`harness::system::story`): the
//! operations with their keys and bodies, each send with its answer, each fault named before
//! the sends it makes, the effect each oracle read, and the verdict; and the same run as a
//! curl transcript a reader can replay by hand. Pure: text from the run's record.

use std::fmt::Write;

use crate::probe::file::{Keying, ProbeFile, Reset};
use crate::probe::judge::Exchange;
use crate::probe::plan::{Request, Role};
use crate::probe::schedule::{Fault, Operation};
use crate::probe::shrink::ProbeRun;

fn fault_sentence(file: &ProbeFile, operation: &Operation, fault: Fault) -> String {
    let api = matches!(file.keying, Keying::Api { .. });
    let number = operation.number;
    match (fault, &file.keying) {
        (Fault::Duplicate, _) if api => {
            format!(
                "F6 double submit: #{number} is sent once more after its answer, same key and body"
            )
        }
        (Fault::Duplicate, _) => {
            format!(
                "F1 duplicate delivery: #{number} is delivered once more after it was acknowledged"
            )
        }
        (Fault::LostResponse, _) if api => format!(
            "F5 lost response: #{number}'s answer is dropped, the client retries with the same key"
        ),
        (Fault::LostResponse, _) => format!(
            "redelivery after a timeout: the sender drops #{number}'s answer and delivers it again"
        ),
        (Fault::HangUp, _) => format!(
            "hang-up: the prober closes #{number}'s connection once it is sent, before the answer, \
             retries {} ms later and once more after that answer (the draft: the same answer, or \
             409 while the first is in progress)",
            file.schedule.in_flight_delay_ms
        ),
        (Fault::KeyReuse, _) => format!(
            "F7 key reuse: #{number}'s key is sent again with another body (the draft: 422)"
        ),
        (Fault::MissingKey, Keying::Api { key_header, .. }) => format!(
            "missing key: #{number}'s request is sent without {key_header} (the draft: 400)"
        ),
        (Fault::MissingKey, Keying::Webhook { .. }) => "missing key".to_owned(),
        (Fault::Reorder, _) => {
            format!("F9 reorder: #{number} is delivered after #{}", number + 1)
        }
        (Fault::Concurrent { copies }, _) if api => format!(
            "F6 concurrent copies: #{number} is sent {copies} times at once, same key, each on its \
             own thread (the draft: the same answer, or 409 while one is in progress)"
        ),
        (Fault::Concurrent { copies }, _) => format!(
            "F4 concurrent delivery: #{number} is delivered {copies} times at once, each on its own \
             thread"
        ),
        (Fault::RetryInFlight, _) => format!(
            "F5 retry in flight: #{number} is retried {} ms after the first send, before its answer \
             (the draft: the same answer, or 409 while the first is in progress)",
            file.schedule.in_flight_delay_ms
        ),
    }
}

fn send_words(api: bool, role: Role, answer_dropped: bool) -> &'static str {
    match (api, role, answer_dropped) {
        (true, Role::First, false) => "sent",
        (true, Role::First, true) => "sent, answer dropped by the prober",
        (false, Role::First, false) => "delivered",
        (false, Role::First, true) => "delivered, answer dropped (the sender timed out)",
        (true, Role::Repeat, _) => "sent again",
        (false, Role::Repeat, _) => "delivered again",
        (true, Role::Overlapping, _) => "copy sent",
        (false, Role::Overlapping, _) => "copy delivered",
        (_, Role::Reused, _) => "sent with the same key and another body",
        (_, Role::Keyless, _) => "sent without the key",
        (true, Role::HungUp, _) => "sent, connection closed before the answer",
        (false, Role::HungUp, _) => "delivered, connection closed before the acknowledgement",
    }
}

/// The run as a story, one line per operation, fault and send, the effects and the verdict
/// last.
pub fn story(file: &ProbeFile, run: &ProbeRun) -> String {
    let api = matches!(file.keying, Keying::Api { .. });
    let mut story = String::new();
    for (index, operation) in run.schedule.operations.iter().enumerate() {
        let body = run
            .phases
            .iter()
            .zip(&run.requests)
            .flat_map(|(phase, requests)| phase.sends.iter().zip(requests))
            .find(|(send, _)| send.operation == index && send.role == Role::First)
            .or_else(|| {
                run.phases
                    .iter()
                    .zip(&run.requests)
                    .flat_map(|(phase, requests)| phase.sends.iter().zip(requests))
                    .find(|(send, _)| send.operation == index)
            })
            .map_or(String::new(), |(_, request)| request.body.clone());
        let id = if api { "key" } else { "event id" };
        let _ =
            writeln!(story, "operation #{}: {id} {}, body {body}", operation.number, operation.key);
    }
    let mut step = 0;
    let mut told = vec![false; run.schedule.operations.len()];
    for (phase, exchanges) in run.phases.iter().zip(&run.exchanges) {
        for (send, exchange) in phase.sends.iter().zip(exchanges) {
            let operation = &run.schedule.operations[send.operation];
            if !told[send.operation] {
                told[send.operation] = true;
                if let Some(fault) = operation.fault {
                    let _ = writeln!(story, "  {}", fault_sentence(file, operation, fault));
                }
            }
            step += 1;
            let answer = exchange_text(exchange);
            let words = send_words(api, send.role, send.answer_dropped);
            let _ = writeln!(story, "{step}. #{} {words}: {answer}", operation.number);
        }
    }
    for reading in &run.effects {
        let _ = writeln!(
            story,
            "effect: {} read {} before, {} after",
            reading.oracle, reading.before, reading.after
        );
    }
    if run.violations.is_empty() {
        let _ = writeln!(
            story,
            "=> held: same key same answer, the draft's statuses, each operation applied once"
        );
    }
    for violation in &run.violations {
        let _ = writeln!(story, "=> {}", violation.sentence(&run.schedule));
    }
    story
}

/// What a send got, in a few words.
fn exchange_text(exchange: &Exchange) -> String {
    match exchange {
        Exchange::Answered(answer) => answer.short(),
        Exchange::HungUp => "(hung up: no answer read)".to_owned(),
        Exchange::Failed(error) => format!("no answer ({error})"),
    }
}

/// `text` in single quotes for a POSIX shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn curl(request: &Request) -> String {
    let mut line = format!("curl -sS -i -X {} {}", request.method, quoted(&request.url));
    for (name, value) in &request.headers {
        let _ = write!(line, " -H {}", quoted(&format!("{name}: {value}")));
    }
    let _ = write!(line, " --data-raw {}", quoted(&request.body));
    line
}

/// The run as shell commands: the reset, then each send as a `curl` (the sends of one phase
/// in the background, then `wait`), each followed by the answer it got as a comment.
pub fn transcript(file: &ProbeFile, run: &ProbeRun) -> String {
    let mut text = String::new();
    let Reset { http, sql } = &file.reset;
    if let Some((method, path)) = http {
        let url = format!("{}{path}", file.target.base_url.url);
        let _ = writeln!(text, "curl -sS -X {} {}", method.name(), quoted(&url));
    }
    if let (Some(sql), Some(sqlite)) = (sql, &file.oracle.sqlite) {
        let _ = writeln!(text, "sqlite3 {} {}", quoted(&sqlite.database_as_written), quoted(sql));
    }
    if let (Some(sql), Some(postgres)) = (sql, &file.oracle.postgres) {
        let _ = writeln!(text, "psql {} -c {}", quoted(&postgres.connection), quoted(sql));
    }
    for ((phase, requests), exchanges) in run.phases.iter().zip(&run.requests).zip(&run.exchanges) {
        let at_once = phase.sends.len() > 1;
        for (send, request) in phase.sends.iter().zip(requests) {
            let delay = if send.delay_ms > 0 {
                format!("sleep {}; ", send.delay_ms as f64 / 1000.0)
            } else {
                String::new()
            };
            let mut line = curl(request);
            if send.role == Role::HungUp {
                // curl cannot close right after sending; a short limit is the nearest.
                line.push_str(" --max-time 0.05");
            }
            if at_once {
                let _ = writeln!(text, "({delay}{line}) &");
            } else {
                let _ = writeln!(text, "{delay}{line}");
            }
        }
        if at_once {
            let _ = writeln!(text, "wait");
        }
        for exchange in exchanges {
            let _ = writeln!(text, "# -> {}", exchange_text(exchange));
        }
    }
    text
}
