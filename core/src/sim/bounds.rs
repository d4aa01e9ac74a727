//! The bounds of every input a user can reach: a scenario file, a trace file, a share link.
//! One table ([`BOUNDS`]) that validation, the CLI, the page, the README and the tests all
//! read, so that a bound is stated once.
//!
//! The budget they keep: any accepted scenario runs each step in well under a millisecond and
//! a whole run (trace, snapshots and all) in under 256 MB on a laptop-class core; the
//! `bounds` benchmark (`cargo bench -p idempotency-lab --bench bounds`) runs the most
//! expensive scenario these bounds accept ([`extreme_scenario`]) and reports both figures.
//! What makes a step expensive is the size of the world it checks (every invariant is checked
//! over the whole store and history after every step): the store grows with requests, their
//! attempts and their lines, the history with the steps. So the bounds cap those, and the
//! number of steps a run may take; the rest (ticks, quantities, rates) are capped where a
//! larger value means nothing more (a rate per million above a million) or only invites an
//! overflow. Refusing is a typed [`ScenarioError`] that names the field by its path, such as
//! `requests[0].operation.lines[0].qty`.

use crate::faults::FaultClass;
use crate::sim::fault::InjectionOrdinal;
use crate::sim::scenario::{Operation, Scenario, ScenarioError};

/// What a bound counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoundKind {
    /// The value of a number.
    Number,
    /// The entries of a list.
    Entries,
    /// The characters of a string.
    Chars,
    /// The bytes of a whole input.
    Bytes,
}

/// One bound: the field it holds for (`[]` stands for every index), what it counts, and the
/// range accepted, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The field's path, `[]` for any index: `requests[].operation.lines[].qty`.
    pub(crate) field: &'static str,
    /// What is counted.
    pub(crate) kind: BoundKind,
    /// The least accepted.
    pub(crate) min: u64,
    /// The most accepted.
    pub(crate) max: u64,
}

impl Bound {
    const fn number(field: &'static str, min: u64, max: u64) -> Bound {
        Bound { field, kind: BoundKind::Number, min, max }
    }

    const fn entries(field: &'static str, min: u64, max: u64) -> Bound {
        Bound { field, kind: BoundKind::Entries, min, max }
    }

    const fn chars(field: &'static str, min: u64, max: u64) -> Bound {
        Bound { field, kind: BoundKind::Chars, min, max }
    }

    /// Whether `value` is accepted.
    pub(crate) fn accepts(&self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }

    /// `Ok` if `value` is accepted, else the typed error for the field at `path` (the
    /// bound's field with its indexes filled in).
    pub(crate) fn check(
        &self,
        path: impl FnOnce() -> String,
        value: u64,
    ) -> Result<(), ScenarioError> {
        if self.accepts(value) {
            return Ok(());
        }
        let field = path();
        let (min, max) = (self.min, self.max);
        Err(match self.kind {
            BoundKind::Number => ScenarioError::OutOfRange { field, value, min, max },
            BoundKind::Entries => ScenarioError::TooManyEntries { field, entries: value, min, max },
            BoundKind::Chars => ScenarioError::BadLength { field, chars: value, min, max },
            BoundKind::Bytes => ScenarioError::TooLarge { bytes: value, max },
        })
    }
}

/// The most ticks any duration or moment of a scenario may name (a timeout, a lease, a
/// retention window, a send time): far beyond any lesson, far below an overflow.
pub(crate) const TICKS_MAX: u64 = 1_000_000;

/// A chance per million is at most certain.
pub(crate) const PER_MILLION_MAX: u64 = 1_000_000;

/// The bytes of a scenario's JSON (a file, or the inline scenario of a link once decoded).
pub(crate) const SCENARIO_JSON: Bound =
    Bound { field: "scenario JSON", kind: BoundKind::Bytes, min: 0, max: 1 << 20 };
/// The bytes of a trace's JSON.
pub(crate) const TRACE_JSON: Bound =
    Bound { field: "trace JSON", kind: BoundKind::Bytes, min: 0, max: 64 << 20 };
/// The characters of a share link.
pub(crate) const LINK: Bound =
    Bound { field: "link", kind: BoundKind::Chars, min: 0, max: 4 << 20 };

/// The scenario's id.
pub(crate) const ID: Bound = Bound::chars("id", 1, 64);
/// The lesson's title.
pub(crate) const TITLE: Bound = Bound::chars("title", 1, 200);
/// The lesson's paragraph.
pub(crate) const DESCRIPTION: Bound = Bound::chars("description", 0, 4_000);
/// The patterns a lesson is about.
pub(crate) const FOCUS: Bound = Bound::entries("focus", 0, 4);
/// The skus of the warehouse.
pub(crate) const STOCK: Bound = Bound::entries("shop.stock", 0, 64);
/// A sku's name.
pub(crate) const STOCK_SKU: Bound = Bound::chars("shop.stock[].sku", 1, 64);
/// A sku's initial quantity.
pub(crate) const STOCK_QTY: Bound = Bound::number("shop.stock[].qty", 0, 1_000_000_000);
/// Open transactions at once.
pub(crate) const OPEN_TRANSACTIONS: Bound =
    Bound::number("shop.store.open_transactions_max", 1, 64);
/// Rows per table.
pub(crate) const ROWS_PER_TABLE: Bound = Bound::number("shop.store.rows_per_table_max", 1, 100_000);
/// The requests.
pub(crate) const REQUESTS: Bound = Bound::entries("requests", 0, 64);
/// The lines of one order.
pub(crate) const ORDER_LINES: Bound = Bound::entries("requests[].operation.lines", 1, 16);
/// A line's sku.
pub(crate) const LINE_SKU: Bound = Bound::chars("requests[].operation.lines[].sku", 1, 64);
/// A line's quantity: at least one (an empty line is a 422 that no lesson means).
pub(crate) const LINE_QTY: Bound = Bound::number("requests[].operation.lines[].qty", 1, 1_000_000);
/// A payment's id.
pub(crate) const PAYMENT_ID: Bound = Bound::chars("requests[].operation.payment_id", 1, 64);
/// When a request is sent.
pub(crate) const SEND_AT_TICK: Bound = Bound::number("requests[].send_at_tick", 0, TICKS_MAX);
/// The client's timeout.
pub(crate) const CLIENT_TIMEOUT: Bound = Bound::number("client.timeout_ticks", 1, TICKS_MAX);
/// Sends per request.
pub(crate) const CLIENT_ATTEMPTS: Bound = Bound::number("client.attempts_max", 1, 16);
/// The client's backoff.
pub(crate) const CLIENT_BACKOFF: Bound = Bound::number("client.backoff_ticks", 0, TICKS_MAX);
/// The P3 lease.
pub(crate) const API_LEASE: Bound = Bound::number("api.lease_ticks", 0, TICKS_MAX);
/// The P3 retention window.
pub(crate) const API_RETENTION: Bound = Bound::number("api.retention_ticks", 0, TICKS_MAX);
/// Consumer instances: two at least, so that a race (F4) can happen.
pub(crate) const INSTANCES: Bound = Bound::number("consumers.instances", 2, 8);
/// The broker's visibility timeout.
pub(crate) const VISIBILITY_TIMEOUT: Bound =
    Bound::number("consumers.visibility_timeout_ticks", 1, TICKS_MAX);
/// Deliveries before a dead letter.
pub(crate) const DELIVERIES: Bound = Bound::number("consumers.deliveries_max", 1, 100);
/// The inbox's retention window.
pub(crate) const INBOX_RETENTION: Bound =
    Bound::number("consumers.inbox_retention_ticks", 0, TICKS_MAX);
/// Rows one relay run publishes.
pub(crate) const RELAY_BATCH: Bound = Bound::number("relay.batch_size_max", 0, 64);
/// Early clock advances.
pub(crate) const EARLY_CLOCK: Bound =
    Bound::number("schedule.early_clock_advance_per_million", 0, PER_MILLION_MAX);
/// The injections.
pub(crate) const INJECTIONS: Bound = Bound::entries("injections", 0, 64);
/// The delivery an injected consumer crash (F2, F3) hits.
pub(crate) const INJECTED_DELIVERY: Bound =
    Bound::number("injections[].delivery", 1, DELIVERIES.max);
/// The send an injected lost response (F5) or API crash (F8) hits.
pub(crate) const INJECTED_ATTEMPT: Bound =
    Bound::number("injections[].attempt", 1, CLIENT_ATTEMPTS.max);
/// A random fault's rate.
pub(crate) const FAULT_RATE: Bound = Bound::number("fault_rates.F*", 0, PER_MILLION_MAX);
/// Steps per run.
pub(crate) const STEPS: Bound = Bound::number("limits.steps_max", 1, 20_000);
/// Steps a trace records.
pub(crate) const TRACE_STEPS: Bound = Bound::number("limits.trace_steps_max", 1, 20_000);
/// Entries of the broker's queue.
pub(crate) const QUEUE_LEN: Bound = Bound::number("limits.queue_len_max", 1, 4_096);
/// Records of the history.
pub(crate) const HISTORY_RECORDS: Bound = Bound::number("limits.history_records_max", 1, 100_000);
/// Steps between snapshots.
pub(crate) const SNAPSHOT_EVERY: Bound = Bound::number("limits.snapshot_every_steps", 16, 20_000);
/// Random faults per run.
pub(crate) const RANDOM_FAULTS: Bound = Bound::number("limits.random_faults_max", 0, 2_000);

/// Every bound, in the order of the scenario's fields: what the README lists.
pub const BOUNDS: &[Bound] = &[
    SCENARIO_JSON,
    TRACE_JSON,
    LINK,
    ID,
    TITLE,
    DESCRIPTION,
    FOCUS,
    STOCK,
    STOCK_SKU,
    STOCK_QTY,
    OPEN_TRANSACTIONS,
    ROWS_PER_TABLE,
    REQUESTS,
    ORDER_LINES,
    LINE_SKU,
    LINE_QTY,
    PAYMENT_ID,
    SEND_AT_TICK,
    CLIENT_TIMEOUT,
    CLIENT_ATTEMPTS,
    CLIENT_BACKOFF,
    API_LEASE,
    API_RETENTION,
    INSTANCES,
    VISIBILITY_TIMEOUT,
    DELIVERIES,
    INBOX_RETENTION,
    RELAY_BATCH,
    EARLY_CLOCK,
    INJECTIONS,
    INJECTED_DELIVERY,
    INJECTED_ATTEMPT,
    FAULT_RATE,
    STEPS,
    TRACE_STEPS,
    QUEUE_LEN,
    HISTORY_RECORDS,
    SNAPSHOT_EVERY,
    RANDOM_FAULTS,
];

fn chars(text: &str) -> u64 {
    text.chars().count() as u64
}

fn len<T>(items: &[T]) -> u64 {
    items.len() as u64
}

fn at(path: &'static str) -> impl FnOnce() -> String {
    move || path.to_owned()
}

/// Checks a scenario against every bound; the first field out of bounds is the error.
pub(crate) fn check_scenario(scenario: &Scenario) -> Result<(), ScenarioError> {
    ID.check(at("id"), chars(&scenario.id))?;
    TITLE.check(at("title"), chars(&scenario.title))?;
    DESCRIPTION.check(at("description"), chars(&scenario.description))?;
    FOCUS.check(at("focus"), len(&scenario.focus))?;
    check_shop(scenario)?;
    check_requests(scenario)?;
    let client = &scenario.client;
    CLIENT_TIMEOUT.check(at("client.timeout_ticks"), client.timeout_ticks)?;
    CLIENT_ATTEMPTS.check(at("client.attempts_max"), u64::from(client.attempts_max))?;
    CLIENT_BACKOFF.check(at("client.backoff_ticks"), client.backoff_ticks)?;
    API_LEASE.check(at("api.lease_ticks"), scenario.api.lease_ticks)?;
    API_RETENTION.check(at("api.retention_ticks"), scenario.api.retention_ticks)?;
    let consumers = &scenario.consumers;
    INSTANCES.check(at("consumers.instances"), consumers.instances as u64)?;
    VISIBILITY_TIMEOUT
        .check(at("consumers.visibility_timeout_ticks"), consumers.visibility_timeout_ticks)?;
    DELIVERIES.check(at("consumers.deliveries_max"), u64::from(consumers.deliveries_max))?;
    INBOX_RETENTION
        .check(at("consumers.inbox_retention_ticks"), consumers.inbox_retention_ticks)?;
    RELAY_BATCH.check(at("relay.batch_size_max"), scenario.relay.batch_size_max as u64)?;
    EARLY_CLOCK.check(
        at("schedule.early_clock_advance_per_million"),
        u64::from(scenario.schedule.early_clock_advance_per_million),
    )?;
    check_injections(scenario)?;
    for (class, rate) in &scenario.fault_rates.0 {
        FAULT_RATE.check(|| format!("fault_rates.{class}"), u64::from(*rate))?;
    }
    check_limits(scenario)
}

fn check_shop(scenario: &Scenario) -> Result<(), ScenarioError> {
    let shop = &scenario.shop;
    STOCK.check(at("shop.stock"), len(&shop.stock))?;
    for (index, line) in shop.stock.iter().enumerate() {
        STOCK_SKU.check(|| format!("shop.stock[{index}].sku"), chars(line.sku.as_str()))?;
        let Ok(qty) = u64::try_from(line.qty) else {
            return Err(ScenarioError::Negative {
                field: format!("shop.stock[{index}].qty"),
                value: line.qty,
            });
        };
        STOCK_QTY.check(|| format!("shop.stock[{index}].qty"), qty)?;
    }
    OPEN_TRANSACTIONS
        .check(at("shop.store.open_transactions_max"), shop.store.open_transactions_max as u64)?;
    ROWS_PER_TABLE.check(at("shop.store.rows_per_table_max"), shop.store.rows_per_table_max as u64)
}

fn check_requests(scenario: &Scenario) -> Result<(), ScenarioError> {
    REQUESTS.check(at("requests"), len(&scenario.requests))?;
    for (index, spec) in scenario.requests.iter().enumerate() {
        let operation = || format!("requests[{index}].operation");
        match &spec.operation {
            Operation::PlaceOrder { lines } => {
                ORDER_LINES.check(|| format!("{}.lines", operation()), len(lines))?;
                for (line_index, line) in lines.iter().enumerate() {
                    let line_path = || format!("{}.lines[{line_index}]", operation());
                    LINE_SKU.check(|| format!("{}.sku", line_path()), chars(line.sku.as_str()))?;
                    LINE_QTY.check(|| format!("{}.qty", line_path()), u64::from(line.qty))?;
                }
            }
            Operation::PayOrder { payment_id, .. } => {
                PAYMENT_ID
                    .check(|| format!("{}.payment_id", operation()), chars(payment_id.as_str()))?;
            }
            Operation::CancelOrder { .. } => {}
        }
        SEND_AT_TICK.check(|| format!("requests[{index}].send_at_tick"), spec.send_at_tick)?;
    }
    Ok(())
}

/// An injection's delivery or attempt counts from 1 (a 0 would never fire, silently) up to
/// the most any scenario may have ([`DELIVERIES`], [`CLIENT_ATTEMPTS`]).
fn check_injections(scenario: &Scenario) -> Result<(), ScenarioError> {
    INJECTIONS.check(at("injections"), len(&scenario.injections))?;
    for (index, injection) in scenario.injections.iter().enumerate() {
        match injection.ordinal() {
            Some(InjectionOrdinal::Delivery(delivery)) => {
                INJECTED_DELIVERY
                    .check(|| format!("injections[{index}].delivery"), u64::from(delivery))?;
            }
            Some(InjectionOrdinal::Attempt(attempt)) => {
                INJECTED_ATTEMPT
                    .check(|| format!("injections[{index}].attempt"), u64::from(attempt))?;
            }
            None => {}
        }
    }
    Ok(())
}

fn check_limits(scenario: &Scenario) -> Result<(), ScenarioError> {
    let limits = &scenario.limits;
    STEPS.check(at("limits.steps_max"), limits.steps_max as u64)?;
    TRACE_STEPS.check(at("limits.trace_steps_max"), limits.trace_steps_max as u64)?;
    QUEUE_LEN.check(at("limits.queue_len_max"), limits.queue_len_max as u64)?;
    HISTORY_RECORDS.check(at("limits.history_records_max"), limits.history_records_max as u64)?;
    SNAPSHOT_EVERY.check(at("limits.snapshot_every_steps"), limits.snapshot_every_steps as u64)?;
    RANDOM_FAULTS.check(at("limits.random_faults_max"), limits.random_faults_max as u64)
}

/// The most expensive scenario the bounds accept, for the benchmark and the tests: the most
/// requests, each an order of the most lines over the most skus, sent by naive clients (every
/// retry a new order) with the most attempts and the shortest timeout, the naive patterns
/// (duplicates take effect and grow the store), the most consumer instances, every fault
/// class at the highest rate, the most random faults, the longest strings, the most frequent
/// snapshots and every limit at its most.
pub fn extreme_scenario() -> Result<Scenario, ScenarioError> {
    let text = |bound: Bound, letter: char| -> String {
        std::iter::repeat_n(letter, bound.max as usize).collect()
    };
    let skus: Vec<String> = (0..STOCK.max)
        .map(|index| {
            let mut sku = format!("sku-{index}-");
            sku.extend(std::iter::repeat_n('x', STOCK_SKU.max as usize - sku.len()));
            sku
        })
        .collect();
    let stock: Vec<serde_json::Value> =
        skus.iter().map(|sku| serde_json::json!({ "sku": sku, "qty": STOCK_QTY.max })).collect();
    let requests: Vec<serde_json::Value> = (0..REQUESTS.max as usize)
        .map(|request| {
            let lines: Vec<serde_json::Value> = (0..ORDER_LINES.max as usize)
                .map(|line| {
                    let sku = &skus[(request + line) % skus.len()];
                    serde_json::json!({ "sku": sku, "qty": 1 + line })
                })
                .collect();
            serde_json::json!({
                "operation": { "op": "place_order", "lines": lines },
                "send_at_tick": request % 4,
            })
        })
        .collect();
    let fault_rates: serde_json::Map<String, serde_json::Value> = FaultClass::ALL
        .into_iter()
        .map(|class| (class.to_string(), serde_json::json!(FAULT_RATE.max)))
        .collect();
    let scenario = serde_json::json!({
        "format_version": 1,
        "id": text(ID, 'i'),
        "title": text(TITLE, 't'),
        "description": text(DESCRIPTION, 'd'),
        "patterns": {
            "p1_stock": "naive", "p2_order": "naive", "p3_api": "naive", "p4_inbox": "naive"
        },
        "shop": { "stock": stock },
        "requests": requests,
        "client": {
            "timeout_ticks": 1,
            "attempts_max": CLIENT_ATTEMPTS.max,
            "backoff_ticks": 0,
            "key_on_retry": "new_key"
        },
        "consumers": {
            "instances": INSTANCES.max,
            "visibility_timeout_ticks": 1,
            "deliveries_max": DELIVERIES.max,
            "inbox_retention_ticks": 1
        },
        "relay": { "batch_size_max": RELAY_BATCH.max },
        "retention_job": { "enabled": true },
        "schedule": { "early_clock_advance_per_million": 100_000 },
        "fault_rates": fault_rates,
        "limits": {
            "steps_max": STEPS.max,
            "trace_steps_max": TRACE_STEPS.max,
            "queue_len_max": QUEUE_LEN.max,
            "history_records_max": HISTORY_RECORDS.max,
            "snapshot_every_steps": SNAPSHOT_EVERY.min,
            "random_faults_max": RANDOM_FAULTS.max
        }
    });
    Scenario::from_json(&scenario.to_string())
}

/// The longest run the bounds accept: [`extreme_scenario`] with only F1, F5, F6 and F11 drawn,
/// each at its largest rate, and the clock advanced early at every chance. Lost answers
/// retried with new keys keep creating 16-line orders until `limits.steps_max`, so the run
/// reaches the step limit with the largest world the bounds allow: the scenario the memory and
/// step budgets (`benches/long_run.rs`, `benches/bounds.rs`) are measured on.
pub fn longest_run_scenario() -> Result<Scenario, ScenarioError> {
    let mut scenario = extreme_scenario()?;
    let drawn = [FaultClass::F1, FaultClass::F5, FaultClass::F6, FaultClass::F11];
    scenario.fault_rates = crate::sim::fault::FaultRates(
        FaultClass::ALL
            .into_iter()
            .map(|class| (class, if drawn.contains(&class) { FAULT_RATE.max as u32 } else { 0 }))
            .collect(),
    );
    scenario.schedule.early_clock_advance_per_million = EARLY_CLOCK.max as u32;
    // Through the parser, as a link or a file would bring it: every bound checked.
    Scenario::from_json(&scenario.to_json())
}

#[cfg(test)]
mod tests;
