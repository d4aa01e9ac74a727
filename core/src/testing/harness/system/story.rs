//! A run as a short story: the messages published, each delivery with what came of it, each
//! fault named with its class, and the verdict. Consumers read "delivered" and "acknowledged";
//! HTTP handlers read "sent" and "answered", a message being a request under its own key.

use std::fmt::{Debug, Write};

use crate::testing::harness::system::{
    CrashPoint, DeliveryOutcome, ScheduleEvent, ScheduleRun, ScheduleViolation, Side,
};

/// "1st", "2nd", "3rd", "4th"...
fn ordinal(index: u8) -> String {
    let number = u16::from(index) + 1;
    let suffix = match (number % 10, number % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{number}{suffix}")
}

/// `#n`, the message's number from 1.
fn number(message: usize) -> String {
    format!("#{}", message.saturating_add(1))
}

struct Words {
    message: &'static str,
    delivered: &'static str,
    acknowledged: &'static str,
    duplicate: &'static str,
    timed_out: &'static str,
    crashed_after: &'static str,
    crashed_before: &'static str,
}

const CONSUMER: Words = Words {
    message: "message",
    delivered: "delivered",
    acknowledged: "acknowledged",
    duplicate: "F1 duplicate: the broker delivers it once more",
    timed_out: "outlived the visibility timeout: delivered again, its late acknowledgement refused",
    crashed_after: "F2: crashed just after its",
    crashed_before: "F3: crashed just before its",
};

const HTTP: Words = Words {
    message: "request",
    delivered: "sent",
    acknowledged: "answered",
    duplicate: "F6 double submit: the client sends it once more, same key",
    timed_out: "F5: answered, but the answer is lost: the client retries, same key",
    crashed_after: "F8: the API crashed just after its",
    crashed_before: "F8: the API crashed just before its",
};

impl<M: Debug, A: Debug, O: Debug> ScheduleRun<M, A, O> {
    fn words(&self) -> &'static Words {
        match self.side {
            Side::Consumer => &CONSUMER,
            Side::Http => &HTTP,
        }
    }

    fn outcome_text(&self, outcome: &DeliveryOutcome<A>) -> String {
        let words = self.words();
        match outcome {
            DeliveryOutcome::Acknowledged { answer } => match self.side {
                Side::Consumer => words.acknowledged.to_owned(),
                Side::Http => format!("{} {answer:?}", words.acknowledged),
            },
            DeliveryOutcome::TimedOut { answer } => match self.side {
                Side::Consumer => words.timed_out.to_owned(),
                Side::Http => format!("{} ({answer:?})", words.timed_out),
            },
            DeliveryOutcome::Crashed { at: CrashPoint::AfterCommit(commit) } => format!(
                "{} {} commit: not {}, {} again",
                words.crashed_after,
                ordinal(*commit),
                words.acknowledged,
                words.delivered
            ),
            DeliveryOutcome::Crashed { at: CrashPoint::BeforeCommit(commit) } => format!(
                "{} {} commit, which rolls back: {} again",
                words.crashed_before,
                ordinal(*commit),
                words.delivered
            ),
            DeliveryOutcome::Failed { error } => format!("failed: {error}"),
        }
    }

    fn verdict_text(&self) -> String {
        let message = self.words().message;
        match &self.violation {
            None => "exactly once: the store shows each message applied once".to_owned(),
            Some(ScheduleViolation::ResetFailed { error }) => {
                format!("not run: resetting the store failed: {error}")
            }
            Some(ScheduleViolation::ObserveFailed { error }) => {
                format!("not judged: reading the store failed: {error}")
            }
            Some(ScheduleViolation::DeliveryFailed { message: index, error, .. }) => format!(
                "not exactly once: {message} {} failed ({error}); every delivery, a copy too, must \
                 be {}, not fail",
                number(*index),
                self.words().acknowledged
            ),
            Some(ScheduleViolation::DifferentAnswers { message: index, first, then }) => format!(
                "not exactly once: {message} {} answered {first:?} first, then {then:?}",
                number(*index)
            ),
            Some(ScheduleViolation::NotExactlyOnce { observed, expected }) => format!(
                "not exactly once: the store shows {observed:?}, but each {message} applied once \
                 shows {expected:?}"
            ),
        }
    }

    /// The run as a short story, one line per event, the verdict last.
    pub fn story(&self) -> String {
        let words = self.words();
        let mut story = String::new();
        for (index, payload) in self.messages.iter().enumerate() {
            let _ = writeln!(story, "{} {} published: {payload:?}", words.message, number(index));
        }
        for event in &self.events {
            let _ = match event {
                ScheduleEvent::Reordered { overtaken, overtaking } => writeln!(
                    story,
                    "  F9 reorder: {} overtakes {}",
                    number(*overtaking),
                    number(*overtaken)
                ),
                ScheduleEvent::Delivered { delivery, message, again, outcome } => writeln!(
                    story,
                    "{}. {} {}{}: {}",
                    delivery.saturating_add(1),
                    number(*message),
                    words.delivered,
                    if *again { " again" } else { "" },
                    self.outcome_text(outcome)
                ),
                ScheduleEvent::Duplicated { .. } => writeln!(story, "  {}", words.duplicate),
            };
        }
        let _ = writeln!(story, "=> {}", self.verdict_text());
        story
    }
}
