//! The oracle's verdicts on one run, from what it recorded: every answer of one key the same
//! (status and body), the IETF draft's statuses (422 for a key reused with another body, 400
//! for a missing key, 409 only while a copy is in progress), no 5xx, and the effect each
//! oracle read equal to each distinct operation applied once. For a webhook, every delivery
//! (a duplicate too) acknowledged with a 2xx. Pure: the run is a value here.

use crate::probe::file::Kind;
use crate::probe::plan::{Phase, Role};
use crate::probe::schedule::Schedule;

/// An answer as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The body, as text (lossy for non-UTF-8).
    pub body: String,
}

impl Answer {
    /// `201 {"balance":10}`, the body cut at 200 characters.
    pub fn short(&self) -> String {
        let body: String = self.body.trim_end().chars().take(200).collect();
        let cut = if self.body.trim_end().chars().count() > 200 { "..." } else { "" };
        if body.is_empty() {
            self.status.to_string()
        } else {
            format!("{} {body}{cut}", self.status)
        }
    }

    /// Whether two answers are the same: status, and body as JSON if both parse, else bytes.
    pub fn same_as(&self, other: &Answer) -> bool {
        if self.status != other.status {
            return false;
        }
        let json = |body: &str| serde_json::from_str::<serde_json::Value>(body).ok();
        match (json(&self.body), json(&other.body)) {
            (Some(left), Some(right)) => left == right,
            _ => self.body == other.body,
        }
    }
}

/// What one send got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exchange {
    /// An answer, read whole.
    Answered(Answer),
    /// The prober hung up after sending, as planned, and read nothing.
    HungUp,
    /// The transport's error (timeout, refused, reset).
    Failed(String),
}

/// One oracle's readings around a run.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectReading {
    /// `http GET /wallet /balance` or `sqlite <query>`.
    pub oracle: String,
    /// Before the first send.
    pub before: f64,
    /// After the last answer.
    pub after: f64,
}

/// What a run broke.
#[derive(Clone, Debug, PartialEq)]
pub enum Violation {
    /// A send got no answer within the timeout, or the connection failed.
    NoAnswer {
        /// The operation, from 0.
        operation: usize,
        /// The transport's error.
        error: String,
    },
    /// A 5xx.
    ServerError {
        /// The operation.
        operation: usize,
        /// The answer.
        answer: Answer,
    },
    /// An operation's first send was refused (not a 2xx).
    Refused {
        /// The operation.
        operation: usize,
        /// The answer.
        answer: Answer,
    },
    /// Every copy of an operation answered 409: none was applied.
    NeverApplied {
        /// The operation.
        operation: usize,
    },
    /// One key, one body, two answers.
    DifferentAnswers {
        /// The operation.
        operation: usize,
        /// The first answer.
        first: Answer,
        /// A later, different one.
        then: Answer,
    },
    /// A status other than the draft's for the send's role.
    WrongStatus {
        /// The operation.
        operation: usize,
        /// What was expected (`422`).
        expected: &'static str,
        /// What came.
        answer: Answer,
    },
    /// An oracle read another effect than each operation applied once.
    WrongEffect {
        /// The oracle.
        oracle: String,
        /// What it read changed by.
        observed: f64,
        /// What each distinct operation applied once changes it by.
        expected: f64,
    },
}

impl Violation {
    /// One sentence; `schedule` gives the operations their numbers.
    pub fn sentence(&self, schedule: &Schedule) -> String {
        let number = |operation: &usize| {
            let number =
                schedule.operations.get(*operation).map_or(0, |operation| operation.number);
            format!("#{number}")
        };
        match self {
            Violation::NoAnswer { operation, error } => {
                format!("{} got no answer: {error}", number(operation))
            }
            Violation::ServerError { operation, answer } => format!(
                "{} answered {}: a duplicate must never cause a 5xx",
                number(operation),
                answer.short()
            ),
            Violation::Refused { operation, answer } => format!(
                "{} was refused ({}) on its first send: is the probe file's request right?",
                number(operation),
                answer.short()
            ),
            Violation::NeverApplied { operation } => format!(
                "every copy of {} answered 409: one of them must be processed",
                number(operation)
            ),
            Violation::DifferentAnswers { operation, first, then } => format!(
                "not idempotent: {} answered {} first, then {}, to the same key and body",
                number(operation),
                first.short(),
                then.short()
            ),
            Violation::WrongStatus { operation, expected, answer } => format!(
                "{} answered {} where the draft expects {expected}",
                number(operation),
                answer.short()
            ),
            Violation::WrongEffect { oracle, observed, expected } => format!(
                "the effect is not exactly once: {oracle} changed by {observed}, each distinct \
                 operation applied once changes it by {expected}"
            ),
        }
    }
}

/// The verdicts on one run: `exchanges` holds each phase's sends' exchanges, in plan order.
pub fn judge(
    kind: Kind,
    phases: &[Phase],
    exchanges: &[Vec<Exchange>],
    effects: &[EffectReading],
    effect_per_operation: f64,
    operations: usize,
) -> Vec<Violation> {
    let mut violations = Vec::new();
    // Per operation: the answers its own key and body got, not 409, in order.
    let mut answers: Vec<Vec<Answer>> = vec![Vec::new(); operations];
    let mut conflicts = vec![0usize; operations];
    let mut sends = vec![0usize; operations];
    for (phase, phase_exchanges) in phases.iter().zip(exchanges) {
        for (send, exchange) in phase.sends.iter().zip(phase_exchanges) {
            let operation = send.operation;
            let answer = match exchange {
                Exchange::Answered(answer) => answer,
                Exchange::HungUp => continue,
                Exchange::Failed(error) => {
                    violations.push(Violation::NoAnswer { operation, error: error.clone() });
                    continue;
                }
            };
            if answer.status >= 500 {
                violations.push(Violation::ServerError { operation, answer: answer.clone() });
                continue;
            }
            match send.role {
                Role::Reused => expect(&mut violations, operation, answer, 422, "422"),
                Role::Keyless => expect(&mut violations, operation, answer, 400, "400"),
                Role::HungUp => {}
                Role::First | Role::Repeat | Role::Overlapping => {
                    sends[operation] += 1;
                    let overlapping = send.role == Role::Overlapping
                        || phase.sends.iter().any(|other| other.role == Role::Overlapping);
                    if answer.status == 409 && overlapping {
                        conflicts[operation] += 1;
                        continue;
                    }
                    judge_same_key(
                        kind,
                        &mut violations,
                        &mut answers[operation],
                        operation,
                        answer,
                    );
                }
            }
        }
    }
    for operation in 0..operations {
        if sends[operation] > 0 && conflicts[operation] == sends[operation] {
            violations.push(Violation::NeverApplied { operation });
        }
    }
    for reading in effects {
        let observed = reading.after - reading.before;
        let expected = effect_per_operation * operations as f64;
        if (observed - expected).abs() > 1e-9 * expected.abs().max(1.0) {
            violations.push(Violation::WrongEffect {
                oracle: reading.oracle.clone(),
                observed,
                expected,
            });
        }
    }
    violations
}

fn expect(
    violations: &mut Vec<Violation>,
    operation: usize,
    answer: &Answer,
    status: u16,
    expected: &'static str,
) {
    if answer.status != status {
        violations.push(Violation::WrongStatus { operation, expected, answer: answer.clone() });
    }
}

/// An answer to the operation's own key and body: the first must be a 2xx; for an API, every
/// later one the same as the first; for a webhook, every one a 2xx.
fn judge_same_key(
    kind: Kind,
    violations: &mut Vec<Violation>,
    seen: &mut Vec<Answer>,
    operation: usize,
    answer: &Answer,
) {
    let success = (200..300).contains(&answer.status);
    match (kind, seen.first()) {
        (_, None) if !success => {
            violations.push(Violation::Refused { operation, answer: answer.clone() })
        }
        (Kind::Api, Some(first)) if !answer.same_as(first) => {
            violations.push(Violation::DifferentAnswers {
                operation,
                first: first.clone(),
                then: answer.clone(),
            })
        }
        (Kind::Webhook, Some(_)) if !success => violations.push(Violation::WrongStatus {
            operation,
            expected: "a 2xx: a duplicate delivery is acknowledged",
            answer: answer.clone(),
        }),
        _ => {}
    }
    seen.push(answer.clone());
}
