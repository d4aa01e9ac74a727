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
//!
//! Every invariant is one row of the table in `invariants!` below: its id, its title and
//! description in the catalogue and its check. [`InvariantId`], [`InvariantId::ALL`], the words and
//! [`InvariantId::check`] follow from it; the TypeScript union `InvariantId` is compared with
//! it by `web/src/api/tests.rs`.
//!
//! Adding an invariant: a row in the table; its check beside those that read the same
//! (`rows.rs`, `answers.rs`, `messages.rs`), what it finds as a [`Finding`] (`finding.rs`),
//! its title and description in `words/glossary.rs` and its sentence in `words/findings.rs`; its
//! group's index and violations in [`Incremental`] (`incremental.rs`, which debug builds and a
//! property test compare with [`check_all`] after every step); and its id in the TypeScript
//! union of `web/src/api/mod.rs`. The exhaustive checker (`check/world_model.rs`) stays sound
//! only if the check is:
//! - a function of its group alone, judged again whenever a step touches the group: the
//!   incremental checker and the checker's states see only the groups a step changed;
//! - blind to consumer instances: it never names or counts instance A or B (the symmetry
//!   reduction swaps them);
//! - reading the history per idempotency key or per message only, in the order recorded
//!   within one key or message, never across them (the checker hashes a canonical history
//!   that keeps only that order); and the number of records, if it must;
//! - deterministic and total: no panic, no hashing order, sums that cannot overflow.
//!
//! If one of these cannot hold, change the reduction it breaks in `check/world_model.rs`
//! with it, and the pinned state counts of `check/scenarios.rs` will say so.

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

pub(crate) use answers::{check_i4_same_key_same_answer, check_i7_no_server_error_for_a_duplicate};
pub(crate) use finding::{AnswerSource, Finding, FoundAnswer, KeyHold};
pub(crate) use incremental::{Incremental, Verdict};
pub(crate) use messages::{
    check_i5_inbox_row_exactly_when_applied, check_i6_order_placed_processed_once,
};
pub(crate) use rows::{
    check_i1_stock_conserved, check_i2_one_reservation_per_order_line,
    check_i3_charged_at_most_once,
};

/// Declares [`InvariantId`], [`InvariantId::ALL`] and each invariant's words and check from
/// one table, as matches: the page, which needs only those, carries no table.
macro_rules! invariants {
    ($(
        $(#[$doc:meta])*
        $id:ident: $title:ident, $description:ident, $check:expr;
    )*) => {
        /// The name of one invariant of DESIGN.md.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum InvariantId {
            $( $(#[$doc])* $id, )*
        }

        impl InvariantId {
            /// Every invariant, in the order [`check_all`] checks them.
            pub const ALL: [InvariantId; [$(stringify!($id)),*].len()] =
                [$(InvariantId::$id),*];

            /// [`InvariantId::title`] in `language`.
            pub fn title_in(self, language: Language) -> &'static str {
                let words = language.words();
                match self {
                    $( InvariantId::$id => words.glossary.$title, )*
                }
            }

            /// What the invariant says, in a sentence or two, in `language`.
            pub fn description_in(self, language: Language) -> &'static str {
                let words = language.words();
                match self {
                    $( InvariantId::$id => words.glossary.$description, )*
                }
            }

            /// Runs this invariant's check.
            pub(crate) fn check(
                self,
                tables: &Tables,
                history: &History,
                quiescence: &Quiescence,
            ) -> Vec<Violation> {
                match self {
                    $( InvariantId::$id => ($check)(tables, history, quiescence), )*
                }
            }
        }
    };
}

invariants! {
    // id  its title and description in the catalogue
    //     its check (in the file of what it reads: `rows.rs`, `answers.rs`, `messages.rs`)
    /// Stock is conserved.
    I1: i1_title, i1_description,
        |tables, _, _| check_i1_stock_conserved(tables);
    /// At most one reservation effect per (order, sku).
    I2: i2_title, i2_description,
        |tables, _, _| check_i2_one_reservation_per_order_line(tables);
    /// An order is charged at most once.
    I3: i3_title, i3_description,
        |tables, _, _| check_i3_charged_at_most_once(tables);
    /// Same key, same answer, for the same request only; one handler per key at a time.
    I4: i4_title, i4_description,
        |_, history, _| check_i4_same_key_same_answer(history);
    /// An inbox row exists exactly when its effect was applied.
    I5: i5_title, i5_description,
        |tables, history, _| check_i5_inbox_row_exactly_when_applied(tables, history);
    /// At quiescence every `OrderPlaced` was processed exactly once per consumer.
    I6: i6_title, i6_description,
        check_i6_order_placed_processed_once;
    /// No duplicate made the API answer 5xx.
    I7: i7_title, i7_description,
        |_, history, _| check_i7_no_server_error_for_a_duplicate(history);
}

impl InvariantId {
    /// A short title, for a badge on the page, in English ([`InvariantId::title_in`] any
    /// language).
    pub fn title(self) -> &'static str {
        self.title_in(Language::En)
    }

    /// What the invariant says, in a sentence or two, in English.
    #[cfg(test)]
    pub(crate) fn description(self) -> &'static str {
        self.description_in(Language::En)
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
pub(crate) enum RowRef {
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
    pub(crate) fn to_row<R: Row>(row: &R) -> RowRef {
        RowRef::to_key::<R>(&row.key())
    }

    /// The reference of the row of `R`'s table with this primary key.
    pub(crate) fn to_key<R: Row>(key: &R::Key) -> RowRef {
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
    pub(crate) rows: Vec<RowRef>,
    /// What is wrong, in plain English words, with the concrete values: the finding's
    /// sentence, as a trace records it.
    pub sentence: String,
    /// What is wrong, as data.
    #[serde(skip)]
    pub(crate) finding: Finding,
}

impl Violation {
    /// The violation of `invariant` over `rows` that `finding` describes.
    pub(crate) fn new(invariant: InvariantId, rows: Vec<RowRef>, finding: Finding) -> Violation {
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
