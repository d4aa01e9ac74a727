//! The data model of the sequence diagram: lanes, and per trace step the arrows and marks to
//! draw, derived from the step's action, statement, events and new violations.
//!
//! The page's SVG diagram and the Mermaid export ([`crate::view::trace_to_mermaid`]) both draw
//! this model, so the derivation lives here once and the web code only maps items to
//! coordinates. Lanes are fixed per run: `Client`, `API`, `Store`, `Relay`, `Broker`, one lane
//! per consumer instance (`Consumer A`, `Consumer B`, ...) and `Retention` when the retention
//! job runs. The network and the clock have no lane: a delivered answer is an arrow from
//! `API` to `Client`, a lost one a mark on `API`, a timeout a mark on `Client`, a clock advance
//! draws nothing (the step's tick says it).
//!
//! Derivation, per step:
//! - a SQL statement (`BEGIN`, `SELECT`, `INSERT`, `UPDATE`, `DELETE`, `COMMIT`, `ROLLBACK`)
//!   is an arrow from the actor's lane to `Store`, of kind [`ArrowKind::Statement`] or
//!   [`ArrowKind::Commit`], labelled with its verb and table (`INSERT orders`); comments
//!   (`-- route ...`), `PUBLISH` and `ACK` are drawn from the events instead;
//! - events: a sent request is a request arrow `Client -> API`; a delivered answer a response
//!   arrow `API -> Client`; a publish `Relay -> Broker`; a delivery `Broker -> Consumer X`; a
//!   consumed message an ack `Consumer X -> Broker`; crashes, lost answers, duplicates (queued
//!   copies, redeliveries, replayed answers, ignored copies), lock waits, deadlocks, timeouts,
//!   held and dead-lettered messages are marks;
//! - each violation that appeared at the step is a [`MarkKind::Violation`] on the actor's
//!   lane (`Client` for the network and the clock), naming the invariant.
//!
//! Items of a step keep this order: statement arrow first, then the events' items in event
//! order, then the violations. Beside the items, each step has its decisive moments
//! ([`crate::view::moments`]: `INSERT ... ON CONFLICT DO NOTHING -> 0 rows`, a replayed answer,
//! ...), which the page draws as callouts with their headline and why.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::idempotency::IdempotencyEvent;
use crate::ids::Tick;
use crate::inbox::{ConsumeOutcome, ConsumerCrashed};
use crate::sim::{Action, Actor, InstanceId, Scenario, SimEvent, Trace, TraceStep};
use crate::view::moments::{MomentKind, moments};
use crate::words::{Language, fill};

/// One vertical lane of the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "lane", rename_all = "snake_case")]
pub enum Lane {
    /// The clients (every request).
    Client,
    /// The API behind the P3 layer.
    Api,
    /// The transactional store.
    Store,
    /// The outbox relay.
    Relay,
    /// The message broker.
    Broker,
    /// One instance of the reserve-stock consumer.
    Consumer {
        /// The instance.
        instance: InstanceId,
    },
    /// The retention job (inbox rows and idempotency keys).
    Retention,
}

/// A consumer instance's name in `language`, as its lane shows it: `Consumer A`,
/// its Russian name (an instance past Z by its number).
pub(crate) fn instance_name(instance: InstanceId, language: Language) -> String {
    let letter = u8::try_from(instance.0)
        .ok()
        .filter(|index| *index < 26)
        .map(|index| char::from(b'A' + index));
    let name = letter.map_or_else(|| instance.0.to_string(), String::from);
    fill(language.words().glossary.lane_consumer, &[("name", &name)])
}

impl Lane {
    /// The lane's title: `Client`, `API`, `Store`, `Relay`, `Broker`, `Consumer A`, ...,
    /// `Retention`.
    pub fn name(self) -> String {
        match self {
            Lane::Client => "Client".to_owned(),
            Lane::Api => "API".to_owned(),
            Lane::Store => "Store".to_owned(),
            Lane::Relay => "Relay".to_owned(),
            Lane::Broker => "Broker".to_owned(),
            Lane::Consumer { instance } => instance.lane_name(),
            Lane::Retention => "Retention".to_owned(),
        }
    }

    /// [`Lane::name`] in `language`.
    pub fn name_in(self, language: Language) -> String {
        let words = language.words();
        match self {
            Lane::Client => words.glossary.lane_client.to_owned(),
            Lane::Api => words.glossary.lane_api.to_owned(),
            Lane::Store => words.glossary.lane_store.to_owned(),
            Lane::Relay => words.glossary.lane_relay.to_owned(),
            Lane::Broker => words.glossary.lane_broker.to_owned(),
            Lane::Consumer { instance } => instance_name(instance, language),
            Lane::Retention => words.glossary.lane_retention.to_owned(),
        }
    }

    /// The lane an actor's step is drawn in: the network and the clock, which have no lane,
    /// are drawn on `Client` (a delivered or lost answer, a timeout).
    pub(crate) fn of_actor(actor: Actor) -> Lane {
        match actor {
            Actor::Client { .. } | Actor::Network | Actor::Clock => Lane::Client,
            Actor::Api { .. } => Lane::Api,
            Actor::Relay => Lane::Relay,
            Actor::Broker => Lane::Broker,
            Actor::Consumer { instance } => Lane::Consumer { instance },
            Actor::RetentionJob => Lane::Retention,
        }
    }
}

impl fmt::Display for Lane {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// What an arrow stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrowKind {
    /// A client sends an HTTP request to the API.
    Request,
    /// The network brings the API's answer to the client.
    Response,
    /// An actor runs a SQL statement against the store (not a commit).
    Statement,
    /// An actor commits its transaction (or rolls it back).
    Commit,
    /// The relay hands a message to the broker.
    Publish,
    /// The broker delivers a copy of a message to a consumer instance.
    Deliver,
    /// A consumer instance acknowledges a message to the broker.
    Ack,
}

/// What a mark on one lane stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// An actor crashed (API F8, consumer F2/F3, relay F12).
    Crash,
    /// The network lost an answer of the API (F5).
    LostResponse,
    /// A duplicate was made or met: a second copy queued (F1, F10), a redelivery, a second
    /// send, a concurrent delivery (F4), a replayed or refused answer of the P3 layer, a copy
    /// the inbox ignored.
    Duplicate,
    /// A statement waits for another transaction's row lock.
    Blocked,
    /// An invariant is violated from this step on.
    Violation,
    /// A client's timeout fired, or it gave up.
    Timeout,
    /// A message was held back (F9) or released.
    Held,
    /// A step failed without crashing: a store limit, a dead-lettered message, a deadlock
    /// victim.
    Failed,
}

/// One thing to draw for a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "snake_case")]
pub enum DiagramItem {
    /// An arrow between two lanes.
    Arrow {
        /// Where it starts.
        from: Lane,
        /// Where it ends.
        to: Lane,
        /// What it stands for.
        kind: ArrowKind,
        /// A short label (`POST /orders`, `INSERT orders`, `201`, `deliver #2 d051b29e`).
        label: String,
        /// The full text, for a tooltip (the statement, the message id, the body).
        detail: String,
    },
    /// A mark on one lane.
    Mark {
        /// The lane.
        lane: Lane,
        /// What it stands for.
        kind: MarkKind,
        /// A short label (`crash before commit`, `I2 violated`).
        label: String,
        /// The full text, for a tooltip (the violation's sentence, ...).
        detail: String,
    },
}

/// The items of one trace step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DiagramStep {
    /// The step's number, from 1 (as in the trace).
    pub(crate) step: usize,
    /// The virtual time.
    pub(crate) tick: Tick,
    /// What to draw, in order (may be empty: a clock advance).
    pub(crate) items: Vec<DiagramItem>,
    /// The decisive moments of the step, each a callout beside its row
    /// ([`crate::view::moments`]).
    pub(crate) moments: Vec<MomentKind>,
}

/// The whole diagram of a trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Diagram {
    /// The lanes, left to right.
    pub(crate) lanes: Vec<Lane>,
    /// One entry per trace step, in order.
    pub(crate) steps: Vec<DiagramStep>,
}

/// The lanes of a run of `scenario`, left to right: `Client`, `API`, `Store`, `Relay`,
/// `Broker`, one per consumer instance, and `Retention` if the retention job is enabled.
pub fn lanes(scenario: &Scenario) -> Vec<Lane> {
    let mut lanes = vec![Lane::Client, Lane::Api, Lane::Store, Lane::Relay, Lane::Broker];
    lanes.extend(
        (0..scenario.consumers.instances)
            .map(|index| Lane::Consumer { instance: InstanceId(index) }),
    );
    if scenario.retention_job.enabled {
        lanes.push(Lane::Retention);
    }
    lanes
}

/// The diagram of a whole trace. Its lanes are [`lanes`] of the trace's scenario, plus any
/// lane a step draws on that the scenario does not announce (kept sorted), so every item's
/// lanes are in `lanes`.
pub(crate) fn diagram(trace: &Trace) -> Diagram {
    let mut moments = moments(&trace.steps).into_iter().peekable();
    let steps: Vec<DiagramStep> = trace
        .steps
        .iter()
        .map(|step| DiagramStep {
            step: step.step,
            tick: step.tick,
            items: step_items(step),
            moments: std::iter::from_fn(|| moments.next_if(|moment| moment.step == step.step))
                .map(|moment| moment.kind)
                .collect(),
        })
        .collect();
    let mut lanes = lanes(&trace.scenario);
    for item in steps.iter().flat_map(|step| &step.items) {
        let used: &[Lane] = match item {
            DiagramItem::Arrow { from, to, .. } => &[*from, *to],
            DiagramItem::Mark { lane, .. } => &[*lane],
        };
        for lane in used {
            if !lanes.contains(lane) {
                lanes.push(*lane);
                lanes.sort();
            }
        }
    }
    Diagram { lanes, steps }
}

/// What to draw for one trace step (see the module's documentation for the rules), labelled
/// in English.
pub(crate) fn step_items(step: &TraceStep) -> Vec<DiagramItem> {
    step_items_in(step, Language::En)
}

/// [`step_items`] with the arrows' and marks' labels and tooltips in `language`.
pub fn step_items_in(step: &TraceStep, language: Language) -> Vec<DiagramItem> {
    let w = language.words();
    let lane = Lane::of_actor(step.actor);
    let mut items = Vec::new();
    if let Some(statement) = &step.statement
        && let Some((kind, label)) = statement_arrow(statement)
    {
        items.push(DiagramItem::Arrow {
            from: lane,
            to: Lane::Store,
            kind,
            label,
            detail: statement.clone(),
        });
    }
    match &step.action {
        Action::CrashConsumerAfterCommit { .. }
        | Action::CrashConsumerBeforeCommit { .. }
        | Action::CrashApi { .. }
        | Action::CrashRelay => {}
        Action::DeliverConcurrently { entry, instance } => items.push(mark(
            Lane::Broker,
            MarkKind::Duplicate,
            w.diagram.dg_concurrent.to_owned(),
            fill(
                w.diagram.dgt_concurrent,
                &[("entry", &entry.0), ("instance", &instance_name(*instance, language))],
            ),
        )),
        Action::DoubleSubmit { request } => items.push(mark(
            Lane::Client,
            MarkKind::Duplicate,
            w.diagram.dg_double_submit.to_owned(),
            fill(w.diagram.dgt_double_submit, &[("request", &request.0)]),
        )),
        Action::SendWithKeyOf { request, key_of } => items.push(mark(
            Lane::Client,
            MarkKind::Duplicate,
            fill(w.diagram.dg_key_of, &[("request", &key_of.0)]),
            fill(w.diagram.dgt_key_of, &[("request", &request.0), ("key_of", &key_of.0)]),
        )),
        Action::RetryWithNewKey { request } => items.push(mark(
            Lane::Client,
            MarkKind::Duplicate,
            w.diagram.dg_retry_new_key.to_owned(),
            fill(w.diagram.dgt_retry_new_key, &[("request", &request.0)]),
        )),
        _ => {}
    }
    for event in &step.events {
        event_items(lane, event, &mut items, language);
    }
    for violation in &step.new_violations {
        items.push(mark(
            lane,
            MarkKind::Violation,
            fill(w.diagram.dg_violated, &[("invariant", &violation.invariant)]),
            violation.to_string(),
        ));
    }
    items
}

fn mark(lane: Lane, kind: MarkKind, label: String, detail: String) -> DiagramItem {
    DiagramItem::Mark { lane, kind, label, detail }
}

fn arrow(from: Lane, to: Lane, kind: ArrowKind, label: String, detail: String) -> DiagramItem {
    DiagramItem::Arrow { from, to, kind, label, detail }
}

/// The first eight characters of an id: enough to tell messages apart on a diagram.
pub(super) fn short(id: &impl fmt::Display) -> String {
    id.to_string().chars().take(8).collect()
}

/// The store arrow of a statement: `None` for a comment, `PUBLISH`, `ACK` or anything that is
/// not SQL.
fn statement_arrow(statement: &str) -> Option<(ArrowKind, String)> {
    let words: Vec<&str> = statement.split_whitespace().collect();
    let word = |index: usize| words.get(index).copied().unwrap_or("");
    let after = |keyword: &str| {
        words
            .iter()
            .position(|word| word.eq_ignore_ascii_case(keyword))
            .and_then(|position| words.get(position + 1))
            .map(|table| table.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_'))
            .unwrap_or("")
    };
    let with_table = |verb: &str, table: &str| {
        if table.is_empty() { verb.to_owned() } else { format!("{verb} {table}") }
    };
    match word(0).to_ascii_uppercase().as_str() {
        "BEGIN" => Some((ArrowKind::Statement, "BEGIN".to_owned())),
        "COMMIT" => Some((ArrowKind::Commit, "COMMIT".to_owned())),
        "ROLLBACK" => Some((ArrowKind::Commit, "ROLLBACK".to_owned())),
        "SELECT" => Some((ArrowKind::Statement, with_table("SELECT", after("FROM")))),
        "INSERT" => Some((ArrowKind::Statement, with_table("INSERT", after("INTO")))),
        "UPDATE" => Some((ArrowKind::Statement, with_table("UPDATE", word(1)))),
        "DELETE" => Some((ArrowKind::Statement, with_table("DELETE", after("FROM")))),
        _ => None,
    }
}

mod events;

use events::event_items;

#[cfg(test)]
mod tests;
