//! A scenario: everything a run starts from, except the seed. Serde JSON with a
//! `format_version`, so that a lesson file, a link and a trace all name the same world.
//!
//! A scenario says which twin of each pattern runs ([`Patterns`]), the shop's initial stock,
//! the requests the clients send ([`RequestSpec`]), the clients' retry policy, the idempotency
//! layer's lease and retention, the consumers (how many instances, visibility timeout,
//! retention), the relay, which faults to inject where ([`Injection`]) or at random
//! ([`FaultRates`]), and the limits of the run. Parsing ([`Scenario::from_json`]) is strict:
//! an unknown field, a wrong type or a request that names a missing request is a typed
//! [`ScenarioError`] that names the field, the line and the column.

use serde::{Deserialize, Serialize};

use crate::faults::FaultClass;
use crate::history::HistoryConfig;
use crate::idempotency::{Config as ApiConfig, Implementation};
use crate::ids::PaymentId;
use crate::inbox::ConsumerImplementation;
use crate::order::OrderImplementation;
use crate::outbox::RelayConfig;
use crate::program::HandlerProgram;
use crate::shop::ShopConfig;
use crate::sim::action::RequestIndex;
use crate::sim::bounds;
use crate::sim::fault::{FaultRates, Injection, MessageRef};
use crate::sim::json;
use crate::stock::StockImplementation;
use crate::store::OrderLine;

mod error;

pub use error::ScenarioError;

/// The version of the scenario format this crate reads and writes.
pub(crate) const SCENARIO_FORMAT_VERSION: u32 = 1;

/// Which twin of a pattern runs.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum PatternMode {
    /// The naive twin: what the seed says breaks.
    Naive,
    /// The idempotent version.
    #[default]
    Idempotent,
}

/// The switch of each pattern, P1-P4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patterns {
    /// P1, stock reservation.
    pub p1_stock: PatternMode,
    /// P2, the order state machine.
    pub p2_order: PatternMode,
    /// P3, the `Idempotency-Key` layer.
    pub p3_api: PatternMode,
    /// P4, the inbox consumer.
    pub p4_inbox: PatternMode,
}

impl Patterns {
    /// Every pattern in `mode`.
    pub fn all(mode: PatternMode) -> Patterns {
        Patterns { p1_stock: mode, p2_order: mode, p3_api: mode, p4_inbox: mode }
    }

    /// P1's implementation.
    pub(crate) fn stock(self) -> StockImplementation {
        match self.p1_stock {
            PatternMode::Naive => StockImplementation::Naive,
            PatternMode::Idempotent => StockImplementation::Idempotent,
        }
    }

    /// P2's implementation.
    pub(crate) fn order(self) -> OrderImplementation {
        match self.p2_order {
            PatternMode::Naive => OrderImplementation::Naive,
            PatternMode::Idempotent => OrderImplementation::Idempotent,
        }
    }

    /// P3's implementation.
    pub(crate) fn api(self) -> Implementation {
        match self.p3_api {
            PatternMode::Naive => Implementation::Naive,
            PatternMode::Idempotent => Implementation::Idempotent,
        }
    }

    /// P4's implementation.
    pub(crate) fn inbox(self) -> ConsumerImplementation {
        match self.p4_inbox {
            PatternMode::Naive => ConsumerImplementation::Naive,
            PatternMode::Idempotent => ConsumerImplementation::Idempotent,
        }
    }
}

/// One of the four patterns, for a lesson's focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Pattern {
    /// Stock reservation.
    P1,
    /// The order state machine.
    P2,
    /// The `Idempotency-Key` layer.
    P3,
    /// The inbox consumer.
    P4,
}

impl Pattern {
    /// The four patterns, in order.
    pub(crate) const ALL: [Pattern; 4] = [Pattern::P1, Pattern::P2, Pattern::P3, Pattern::P4];
}

impl Patterns {
    /// These switches with `pattern` set to `mode`.
    pub fn with(self, pattern: Pattern, mode: PatternMode) -> Patterns {
        match pattern {
            Pattern::P1 => Patterns { p1_stock: mode, ..self },
            Pattern::P2 => Patterns { p2_order: mode, ..self },
            Pattern::P3 => Patterns { p3_api: mode, ..self },
            Pattern::P4 => Patterns { p4_inbox: mode, ..self },
        }
    }
}

/// What a request asks the shop. In JSON, tagged by `op`, which comes first as the lab writes
/// it (a later `op` still reads; see [`json::TagFirst`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Operation {
    /// `POST /orders` with these lines.
    PlaceOrder {
        /// What is ordered.
        lines: Vec<OrderLine>,
    },
    /// `POST /orders/{id}/payments` for the order that request `order_of` places.
    PayOrder {
        /// The `place_order` request whose order is paid.
        order_of: RequestIndex,
        /// The payment's id.
        payment_id: PaymentId,
    },
    /// `POST /orders/{id}/cancel` for the order that request `order_of` places.
    CancelOrder {
        /// The `place_order` request whose order is cancelled.
        order_of: RequestIndex,
    },
}

/// [`Operation`]'s externally tagged twin, through which it reads; the compiler checks that it
/// builds exactly [`Operation`]'s variants.
#[derive(Deserialize)]
#[serde(remote = "Operation", rename_all = "snake_case", deny_unknown_fields)]
// Serde's `remote` needs `Operation`'s own variant names, which are the JSON tags.
#[allow(clippy::enum_variant_names)]
enum OperationFields {
    PlaceOrder { lines: Vec<OrderLine> },
    PayOrder { order_of: RequestIndex, payment_id: PaymentId },
    CancelOrder { order_of: RequestIndex },
}

impl json::TagFirst for Operation {
    const TAG: &'static str = "op";
    const EXPECTING: &'static str =
        "an operation object tagged by \"op\": place_order, pay_order or cancel_order";

    fn from_external<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        OperationFields::deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Operation {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <Operation as json::TagFirst>::deserialize_tag_first(deserializer)
    }
}

/// One request a client sends (and retries, by the retry policy).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestSpec {
    /// What it asks.
    pub operation: Operation,
    /// It is sent no earlier than this tick.
    #[serde(default)]
    pub send_at_tick: u64,
    /// It is sent only once this earlier request has its final answer (or its client gave up).
    #[serde(default)]
    pub after: Option<RequestIndex>,
}

/// Which key a retry carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum KeyOnRetry {
    /// The key of the first send: what a correct client does.
    #[default]
    SameKey,
    /// A new key each time: the client bug of F11 on every retry.
    NewKey,
}

/// The clients' retry policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientConfig {
    /// How long a client waits for an answer before it retries.
    pub(crate) timeout_ticks: u64,
    /// How many sends a request gets at most, the first included.
    pub(crate) attempts_max: u32,
    /// How long a client waits before retrying after a 409 or a 5xx answer.
    pub(crate) backoff_ticks: u64,
    /// Which key a retry carries.
    #[serde(default)]
    pub(crate) key_on_retry: KeyOnRetry,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            timeout_ticks: 10,
            attempts_max: 4,
            backoff_ticks: 10,
            key_on_retry: KeyOnRetry::SameKey,
        }
    }
}

/// The reserve-stock consumer and the broker's delivery rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSetup {
    /// How many instances share the consumer's name (and inbox rows): 2 to 8, 2 by default.
    pub instances: usize,
    /// How long a delivered message stays invisible: if it is not acked by then, the broker
    /// delivers it again.
    pub(crate) visibility_timeout_ticks: u64,
    /// How many deliveries a message gets before the broker dead-letters it.
    pub(crate) deliveries_max: u32,
    /// How long an inbox row is kept before the retention job may purge it.
    pub(crate) inbox_retention_ticks: u64,
}

impl Default for ConsumerSetup {
    fn default() -> Self {
        ConsumerSetup {
            instances: 2,
            visibility_timeout_ticks: 20,
            deliveries_max: 5,
            inbox_retention_ticks: 100,
        }
    }
}

/// The retention job that purges inbox rows and idempotency keys past their window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetentionJobConfig {
    /// Whether it runs: when on, the clock also advances to the moments rows expire.
    pub(crate) enabled: bool,
}

/// How the scheduler picks among enabled actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleConfig {
    /// The chance per million that the clock advances while other work could run (which
    /// makes timeouts fire on slow requests and visibility timeouts on slow consumers). At 0,
    /// the clock advances only when nothing else can run.
    pub early_clock_advance_per_million: u32,
}

/// The limits of a run: hitting one stops it with a recorded reason, never a hang.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Steps per run.
    pub steps_max: usize,
    /// Steps a trace records (the run stops when it is full).
    pub(crate) trace_steps_max: usize,
    /// Entries in the broker's queue.
    pub(crate) queue_len_max: usize,
    /// Records of the history.
    pub(crate) history_records_max: usize,
    /// How often the state is snapshotted for rewinding: every this many steps.
    pub(crate) snapshot_every_steps: usize,
    /// How many random faults a run takes at most (injections do not count).
    pub(crate) random_faults_max: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps_max: 2_000,
            trace_steps_max: 2_000,
            queue_len_max: 64,
            history_records_max: HistoryConfig::default().records_max,
            snapshot_every_steps: 16,
            random_faults_max: 8,
        }
    }
}

/// Everything a run starts from, except the seed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// [`SCENARIO_FORMAT_VERSION`].
    pub format_version: u32,
    /// A short stable name, such as `f1-duplicate-delivery`.
    pub id: String,
    /// The lesson's title.
    pub title: String,
    /// A paragraph for the learner: what happens, what to look at.
    pub description: String,
    /// Which twin of each pattern runs.
    #[serde(default)]
    pub patterns: Patterns,
    /// The patterns the lesson is about: [`Scenario::with_mode`] switches these and leaves
    /// the others as `patterns` says. Empty means all four.
    #[serde(default)]
    pub focus: Vec<Pattern>,
    /// The initial stock and the store's limits.
    #[serde(default)]
    pub shop: ShopConfig,
    /// The requests, in the order they are listed (their [`RequestIndex`]).
    pub requests: Vec<RequestSpec>,
    /// The clients' retry policy.
    #[serde(default)]
    pub client: ClientConfig,
    /// The idempotency layer's lease, retention and failure policy.
    #[serde(default)]
    pub api: ApiConfig,
    /// The consumer instances and the broker.
    #[serde(default)]
    pub consumers: ConsumerSetup,
    /// The outbox relay.
    #[serde(default)]
    pub relay: RelayConfig,
    /// The retention job.
    #[serde(default)]
    pub retention_job: RetentionJobConfig,
    /// The scheduler.
    #[serde(default)]
    pub schedule: ScheduleConfig,
    /// Faults at named targets.
    #[serde(default)]
    pub injections: Vec<Injection>,
    /// Random faults.
    #[serde(default)]
    pub fault_rates: FaultRates,
    /// The limits of the run.
    #[serde(default)]
    pub limits: Limits,
    /// A learner's program that runs in place of the built-in reserve-stock consumer (and so
    /// of the P1 and P4 switches); absent, the built-in runs, and the JSON has no such field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumer_program: Option<HandlerProgram>,
    /// A learner's program that runs in place of the built-in `MarkPaid` (and so of the P2
    /// switch for payments); absent, the built-in runs, and the JSON has no such field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark_paid_program: Option<HandlerProgram>,
}

/// The fewest consumer instances a scenario may have: two, so that a race (F4) can happen.
#[cfg(feature = "testing")]
pub(crate) const INSTANCES_MIN: usize = bounds::INSTANCES.min as usize;

impl Scenario {
    /// Reads and validates a scenario.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        bounds::SCENARIO_JSON.check(String::new, text.len() as u64)?;
        let scenario: Scenario = json::from_json("scenario", text)?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// The scenario as pretty JSON (two-space indent, fields in declaration order).
    pub fn to_json(&self) -> String {
        // Plain data always serializes; the fallback is never used.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The same scenario with every pattern in `mode`.
    pub fn with_all_patterns(&self, mode: PatternMode) -> Scenario {
        Scenario { patterns: Patterns::all(mode), ..self.clone() }
    }

    /// The same scenario without its own faults (its injections and random fault rates): a
    /// run whose faults are all a learner's (a course task that has the learner break it, the
    /// CLI's `run --no-scripted-faults`).
    pub fn without_scripted_faults(&self) -> Scenario {
        Scenario { injections: Vec::new(), fault_rates: Default::default(), ..self.clone() }
    }

    /// The patterns the lesson is about: its focus, or all four if it names none.
    pub fn focus_patterns(&self) -> &[Pattern] {
        if self.focus.is_empty() { &Pattern::ALL } else { &self.focus }
    }

    /// The same scenario with the lesson's focus patterns ([`Scenario::focus_patterns`]) in
    /// `mode`: the page's naive/idempotent switch.
    pub fn with_mode(&self, mode: PatternMode) -> Scenario {
        let patterns = self
            .focus_patterns()
            .iter()
            .fold(self.patterns, |patterns, pattern| patterns.with(*pattern, mode));
        Scenario { patterns, ..self.clone() }
    }

    /// The fault classes the scenario injects or draws at random, in order, without repeats:
    /// the faults a lesson is about, which a check or a fuzz of it places itself.
    ///
    /// ```
    /// use idempotency_lab::faults::FaultClass;
    /// use idempotency_lab::sim::catalogue_scenario;
    ///
    /// let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
    /// assert_eq!(lesson.fault_classes(), vec![FaultClass::F1]);
    /// ```
    pub fn fault_classes(&self) -> Vec<FaultClass> {
        let mut classes: Vec<FaultClass> = self
            .injections
            .iter()
            .map(Injection::fault_class)
            .chain(self.fault_rates.0.keys().copied())
            .collect();
        classes.sort();
        classes.dedup();
        classes
    }

    /// Checks what the JSON's shape cannot: version, the bounds of [`crate::sim::bounds`],
    /// references.
    pub(crate) fn validate(&self) -> Result<(), ScenarioError> {
        if self.format_version != SCENARIO_FORMAT_VERSION {
            return Err(ScenarioError::UnsupportedVersion {
                found: self.format_version,
                supported: SCENARIO_FORMAT_VERSION,
            });
        }
        bounds::check_scenario(self)?;
        crate::sim::consumer::InstalledProgram::of(self.consumer_program.as_ref())?;
        crate::sim::consumer::InstalledProgram::mark_paid(self.mark_paid_program.as_ref())?;
        let count = self.requests.len();
        let known = |field: String, request: RequestIndex| {
            if request.0 < count {
                Ok(())
            } else {
                Err(ScenarioError::UnknownRequest { field, request, requests: count })
            }
        };
        let places_order = |field: String, request: RequestIndex| {
            known(field.clone(), request)?;
            match self.requests.get(request.0).map(|spec| &spec.operation) {
                Some(Operation::PlaceOrder { .. }) => Ok(()),
                _ => Err(ScenarioError::NotAnOrderRequest { field, request }),
            }
        };
        for (index, spec) in self.requests.iter().enumerate() {
            match &spec.operation {
                Operation::PlaceOrder { .. } => {}
                Operation::PayOrder { order_of, .. } | Operation::CancelOrder { order_of } => {
                    places_order(format!("requests[{index}].operation.order_of"), *order_of)?;
                }
            }
            if let Some(after) = spec.after {
                known(format!("requests[{index}].after"), after)?;
            }
        }
        for (index, injection) in self.injections.iter().enumerate() {
            for request in injection.requests() {
                known(format!("injections[{index}]"), request)?;
            }
            if let Some(MessageRef::OrderPlacedOf(request)) = injection.message() {
                places_order(format!("injections[{index}].message.order_placed_of"), *request)?;
            }
        }
        Ok(())
    }
}
