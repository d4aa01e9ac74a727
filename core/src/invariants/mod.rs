//! The invariants I1-I7 of DESIGN.md, as pure functions over the store's committed tables and
//! the [`History`] of what happened outside the store.
//!
//! Each check returns the [`Violation`]s it finds, each naming its invariant, the rows involved
//! and a sentence a learner can read with the concrete values in it. The checks never panic and
//! never fail, whatever the input: sums are taken in `i128` (no overflow for any number of `i64`
//! rows), and nothing is indexed. They assert in both directions where it makes sense: stock is
//! neither lost nor created, an inbox row has an effect and an effect has an inbox row, a paid
//! order has a charge and a charge has an order.
//!
//! The order of the violations is fixed: invariant by invariant, then by key (every map is a
//! `BTreeMap`), then by the order of the history. The simulator checks after every step and
//! stamps the step number on what it gets; nothing here knows about steps.
//!
//! The checks live by what they judge: `rows.rs` holds I1-I3, which read the committed rows
//! alone; `answers.rs` holds I4 and I7, which read the API's answers and handler runs in the
//! history; `messages.rs` holds I5 and I6, which read the inbox and outbox rows beside the
//! message events of the history. What a violation found is data ([`Finding`], in
//! `finding.rs`); its sentence comes from the catalogue of [`crate::words`], recorded in English.
//!
//! [`check_all`] judges everything from scratch and is the reference; [`Incremental`]
//! (`incremental.rs`), which the simulator keeps in its world, judges again only what a step
//! changed and finds the same violations in the same order.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::history::{HandlerRunId, History};
use crate::ids::{ConsumerName, MessageId};
use crate::store::{Row, TableName, Tables};
use crate::words::Language;

mod answers;
mod finding;
mod incremental;
mod messages;
mod rows;

pub use answers::{check_i4_same_key_same_answer, check_i7_no_server_error_for_a_duplicate};
pub use finding::{AnswerSource, Finding, FoundAnswer, KeyHold};
pub use incremental::{Incremental, Verdict};
pub use messages::{check_i5_inbox_row_exactly_when_applied, check_i6_order_placed_processed_once};
pub use rows::{
    check_i1_stock_conserved, check_i2_one_reservation_per_order_line,
    check_i3_charged_at_most_once,
};

/// The name of one invariant of DESIGN.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum InvariantId {
    /// Stock is conserved.
    I1,
    /// At most one reservation effect per (order, sku).
    I2,
    /// An order is charged at most once.
    I3,
    /// Same key, same answer, for the same request only; one handler per key at a time.
    I4,
    /// An inbox row exists exactly when its effect was applied.
    I5,
    /// At quiescence every `OrderPlaced` was processed exactly once per consumer.
    I6,
    /// No duplicate made the API answer 5xx.
    I7,
}

impl InvariantId {
    /// Every invariant, in the order [`check_all`] checks them.
    pub const ALL: [InvariantId; 7] = [
        InvariantId::I1,
        InvariantId::I2,
        InvariantId::I3,
        InvariantId::I4,
        InvariantId::I5,
        InvariantId::I6,
        InvariantId::I7,
    ];

    /// A short title, for a badge on the page.
    pub fn title(self) -> &'static str {
        match self {
            InvariantId::I1 => "Stock is conserved",
            InvariantId::I2 => "One reservation per order line",
            InvariantId::I3 => "Charged at most once",
            InvariantId::I4 => "Same key, same answer",
            InvariantId::I5 => "Inbox row exactly when applied",
            InvariantId::I6 => "Each OrderPlaced processed once",
            InvariantId::I7 => "No 5xx for a duplicate",
        }
    }

    /// What the invariant says, in a sentence or two.
    pub fn description(self) -> &'static str {
        match self {
            InvariantId::I1 => {
                "For every sku, the stock on hand equals the stock available plus the sum of its \
                 reservations, and the stock available never goes below zero."
            }
            InvariantId::I2 => {
                "At most one reservation effect per (order, sku): a reservation never holds more \
                 than the order asks for, never less than zero, and only for an order that \
                 exists and has a line of that sku."
            }
            InvariantId::I3 => {
                "An order is charged at most once, every charge is for an order that exists, and \
                 an order with a payment (paid, shipped, or cancelled after payment) has exactly \
                 one charge, for that payment."
            }
            InvariantId::I4 => {
                "Every completed request with the same idempotency key got the same status and \
                 body, the key's answer went only to requests with the method, path and body it \
                 was first answered for (another request with the key gets 422), and a key's \
                 handler never ran twice while the key was held (by a lease, or by a run without \
                 a lease that had not ended)."
            }
            InvariantId::I5 => {
                "An inbox row exists exactly when its effect was applied: each inbox row has a \
                 committed effect that no purge has erased, each effect of a consumer with an \
                 inbox has its row unless retention purged it, and the inbox lets one effect \
                 through per row."
            }
            InvariantId::I6 => {
                "When no work is pending, every placed order has an OrderPlaced message, and \
                 every consumer of OrderPlaced processed each such message exactly once."
            }
            InvariantId::I7 => {
                "No duplicate request (a retry, a double submit) made the API answer with a \
                 5xx status."
            }
        }
    }

    /// Runs this invariant's check.
    pub fn check(
        self,
        tables: &Tables,
        history: &History,
        quiescence: &Quiescence,
    ) -> Vec<Violation> {
        match self {
            InvariantId::I1 => check_i1_stock_conserved(tables),
            InvariantId::I2 => check_i2_one_reservation_per_order_line(tables),
            InvariantId::I3 => check_i3_charged_at_most_once(tables),
            InvariantId::I4 => check_i4_same_key_same_answer(history),
            InvariantId::I5 => check_i5_inbox_row_exactly_when_applied(tables, history),
            InvariantId::I6 => check_i6_order_placed_processed_once(tables, history, quiescence),
            InvariantId::I7 => check_i7_no_server_error_for_a_duplicate(history),
        }
    }
}

impl fmt::Display for InvariantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A row that a violation involves: a row of a table, or a record of the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RowRef {
    /// A committed row of a table, by primary key (as JSON, as [`crate::store::RowChange`]
    /// names it, so the page can highlight it).
    Table {
        /// The table.
        table: TableName,
        /// The primary key, as JSON.
        key: serde_json::Value,
    },
    /// An answer of the API: its position in [`History::responses`].
    Response {
        /// The position.
        index: usize,
    },
    /// A handler run under a key.
    HandlerRun {
        /// Its id, its position in [`History::handler_runs`].
        run: HandlerRunId,
    },
    /// A message event: its position in [`History::message_events`].
    MessageEvent {
        /// The position.
        index: usize,
    },
}

impl RowRef {
    /// The reference of a committed row.
    pub fn to_row<R: Row>(row: &R) -> RowRef {
        RowRef::to_key::<R>(&row.key())
    }

    /// The reference of the row of `R`'s table with this primary key.
    pub fn to_key<R: Row>(key: &R::Key) -> RowRef {
        // Keys are ids, strings and tuples of them: serialization cannot fail.
        let key = serde_json::to_value(key).unwrap_or(serde_json::Value::Null);
        RowRef::Table { table: R::TABLE, key }
    }
}

/// One broken invariant. The simulator adds the step at which it was found.
///
/// It serializes as its invariant, rows and English sentence (what traces record); the
/// [`Finding`] behind the sentence is not serialized, so a violation read back from a file has
/// [`Finding::Recorded`] and shows its recorded sentence in every language. Two violations are
/// equal when their invariant, rows and sentence are: the finding decides the sentence.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Violation {
    /// Which invariant.
    pub invariant: InvariantId,
    /// The rows and history records involved, the most telling first.
    pub rows: Vec<RowRef>,
    /// What is wrong, in plain English words, with the concrete values: the finding's
    /// sentence, as a trace records it.
    pub sentence: String,
    /// What is wrong, as data.
    #[serde(skip)]
    pub finding: Finding,
}

impl Violation {
    /// The violation of `invariant` over `rows` that `finding` describes.
    pub fn new(invariant: InvariantId, rows: Vec<RowRef>, finding: Finding) -> Violation {
        let sentence = finding.sentence_in(Language::En).unwrap_or_default();
        Violation { invariant, rows, sentence, finding }
    }

    /// The sentence in `language` (the recorded one for a violation read from a file).
    pub fn sentence_in(&self, language: Language) -> String {
        self.finding.sentence_in(language).unwrap_or_else(|| self.sentence.clone())
    }
}

impl PartialEq for Violation {
    fn eq(&self, other: &Violation) -> bool {
        (self.invariant, &self.rows, &self.sentence)
            == (other.invariant, &other.rows, &other.sentence)
    }
}

impl Eq for Violation {}

impl std::hash::Hash for Violation {
    /// Over the invariant and the sentence: equal violations have equal ones (the sentence
    /// names the rows' values), and the rows' JSON keys need not be hashed.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.invariant.hash(state);
        self.sentence.hash(state);
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.invariant, self.invariant.title(), self.sentence)
    }
}

/// Whether the run has work pending. Invariant I6 holds only when it has none.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "quiescence", rename_all = "snake_case")]
pub enum Quiescence {
    /// Messages are in flight, requests or handlers running: I6 is not checked.
    WorkPending,
    /// Nothing is pending: every `OrderPlaced` must have been processed exactly once by each of
    /// these consumers (the consumers subscribed to `OrderPlaced`), except that a message the
    /// broker dead-lettered may have been processed not at all: a dead letter is an
    /// operational outcome (the message waits in the dead-letter queue for an operator), not
    /// a message lost or processed twice.
    Quiescent {
        /// The consumers of `OrderPlaced`; duplicates are ignored.
        order_placed_consumers: Vec<ConsumerName>,
        /// The messages the broker dead-lettered.
        #[serde(default)]
        dead_lettered: Vec<MessageId>,
    },
}

/// Checks every invariant, I1 to I7, and returns every violation in a fixed order.
pub fn check_all(tables: &Tables, history: &History, quiescence: &Quiescence) -> Vec<Violation> {
    InvariantId::ALL
        .into_iter()
        .flat_map(|invariant| invariant.check(tables, history, quiescence))
        .collect()
}

#[cfg(test)]
mod tests;
