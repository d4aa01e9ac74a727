//! The harness for users' own HTTP handlers: implement [`HandlerUnderTest`] for a request
//! handler written as a [`Steps`] machine over the lab's store that answers an
//! [`HttpResponse`], plug it raw or behind the lab's `Idempotency-Key` layer ([`HandlerPlug`]),
//! and the harness sends each operation's request with its own key, with the faults of HTTP:
//!
//! - F5: the API answers and the network loses the response; the client retries with the same
//!   key and payload;
//! - F6: the client submits twice: a second request with the same key while one is in flight;
//! - F7: after an operation has its answer, its key is reused with another payload;
//! - F8: the API crashes mid-request, between any two statements: its open transaction rolls
//!   back and no answer comes; the client retries, and behind the layer gets 409 until the
//!   crashed request's lease runs out (the clock moves only when nothing runs), then takes the
//!   key over.
//!
//! A client retries after a lost response or a crash at once, and after a 409 or a 5xx answer
//! once `backoff_ticks` have passed; other answers are final. Requests of one key interleave
//! statement by statement, so a check-then-act race is real.
//!
//! What is compared with exactly-once (each operation's request run once, alone, through the
//! same plug):
//! - the store's observation once every operation has its final answer;
//! - every final answer to one key (given by the API, even if the network then lost it) has the
//!   same status and body: invariant I4's rule, where 409s and 5xx are not the key's answer;
//! - a key reused with another payload (F7) is answered 422, the lab's
//!   [`ProblemType::IdempotencyKeyReused`];
//! - no request fails, waits forever or runs past [`STEPS_PER_REQUEST_MAX`] statements, and no
//!   client gives up without a final answer.
//!
//! The drivers are the shared ones of [`crate::testing::harness`]: [`fuzz_handler`] (proptest,
//! shrinking to a minimal schedule) and [`check_handler`] (breadth-first, a shortest schedule).
//! `core/examples/harness_wallet_top_up.rs` shows both on a wallet top-up handler.

mod model;
mod state;

use std::fmt::{Debug, Display};
use std::hash::Hash;

pub(crate) use model::HttpHarnessModel;
pub use state::HttpAction;
pub(crate) use state::{AttemptState, ClientState, HttpAttempt, HttpHarnessState};

use crate::check::{BYTES_MAX_DEFAULT, ExploreBounds};
use crate::idempotency::{Config as LayerConfig, HttpRequest, HttpResponse, Implementation};
use crate::step::Steps;
use crate::store::Store;
use crate::testing::harness::{
    HarnessCheckReport, HarnessFuzzReport, ScheduleFuzzing, check_model, fuzz_model,
};

/// The most statements one request may run before the harness calls it stuck.
pub(crate) const STEPS_PER_REQUEST_MAX: u32 = 64;

/// A user's HTTP request handler under test.
pub trait HandlerUnderTest {
    /// One request's step machine: it owns its transactions and answers a response. A typed
    /// failure becomes a 500 problem, as the lab's layer (and a web framework) answers it.
    type Handler: Steps<Output = HttpResponse, Error: Display> + Clone + Eq + Hash + Debug;
    /// What must be the same after retries and faults as after exactly-once processing.
    type Observation: Clone + Eq + Debug;

    /// The store before any request.
    fn initial_store(&self) -> Store;

    /// The request of operation `operation` (from 0), without an `Idempotency-Key` header:
    /// the harness adds [`idempotency_key_of`]. Requests of different operations must differ
    /// in method, path or body: the harness sends operation `operations + i`'s request under
    /// operation `i`'s key to reuse a key with another payload (F7).
    fn request(&self, operation: usize) -> HttpRequest;

    /// The handler for one request (the request carries its key).
    fn handler(&self, request: &HttpRequest) -> Self::Handler;

    /// What the handler's effects look like in `store` (committed state).
    fn observe(&self, store: &Store) -> Self::Observation;
}

/// How the handler is plugged in front of the clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandlerPlug {
    /// The handler answers every request itself (the lab's naive twin of P3): it runs on every
    /// request, so any idempotency is its own.
    Raw,
    /// Behind the lab's `Idempotency-Key` layer (P3) with this configuration.
    BehindLayer(LayerConfig),
}

impl HandlerPlug {
    fn implementation(self) -> (Implementation, LayerConfig) {
        match self {
            HandlerPlug::Raw => (Implementation::Naive, LayerConfig::default()),
            HandlerPlug::BehindLayer(config) => (Implementation::Idempotent, config),
        }
    }
}

/// The HTTP harness's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HttpHarnessConfig {
    /// Raw, or behind the layer.
    pub plug: HandlerPlug,
    /// Distinct operations, each with its own key; 1 or more.
    pub operations: usize,
    /// Lost responses (F5) a schedule may take.
    pub lost_responses_max: u32,
    /// Double submits (F6) a schedule may take.
    pub double_submits_max: u32,
    /// Keys reused with another payload (F7) a schedule may take.
    pub key_reuses_max: u32,
    /// API crashes mid-request (F8) a schedule may take.
    pub crashes_max: u32,
    /// Requests a client sends for one operation at most, the first included; a client that
    /// has none left without a final answer is a counterexample.
    pub attempts_max: u32,
    /// How long a client waits before retrying after a 409 or a 5xx: at least the layer's
    /// lease, so that a retry can take over a crashed request's key.
    pub backoff_ticks: u64,
    /// Fuzzing: how many schedules to draw.
    pub cases: u32,
    /// Fuzzing: the seed of the fuzzer's choices.
    pub fuzz_seed: u64,
    /// Checking: the longest schedule explored.
    pub depth_max: usize,
    /// Checking: the most unique states.
    pub states_max: usize,
}

impl Default for HttpHarnessConfig {
    /// Behind the layer (default lease 30 ticks); one operation; one fault of each class; 8
    /// attempts; a backoff of 30 ticks; 256 cases; depth 100, 500 000 states.
    fn default() -> Self {
        let layer = LayerConfig::default();
        HttpHarnessConfig {
            plug: HandlerPlug::BehindLayer(layer),
            operations: 1,
            lost_responses_max: 1,
            double_submits_max: 1,
            key_reuses_max: 1,
            crashes_max: 1,
            attempts_max: 8,
            backoff_ticks: layer.lease_ticks,
            cases: 256,
            fuzz_seed: 0,
            depth_max: 100,
            states_max: 500_000,
        }
    }
}

impl HttpHarnessConfig {
    /// This configuration with `plug`.
    pub fn with_plug(self, plug: HandlerPlug) -> HttpHarnessConfig {
        HttpHarnessConfig { plug, ..self }
    }
}

/// The `Idempotency-Key` of operation `operation`: a fixed UUID.
pub(crate) fn idempotency_key_of(operation: usize) -> String {
    format!("00000000-0000-4000-8000-{:012x}", operation.saturating_add(1))
}

/// Fuzzes `handler` with proptest: schedules of sends, statements, answers, retries, lost
/// responses, double submits, reused keys and crashes, shrunk to a minimal failing one.
pub fn fuzz_handler<H: HandlerUnderTest>(
    handler: H,
    config: HttpHarnessConfig,
) -> HarnessFuzzReport<HttpAction> {
    let model = HttpHarnessModel::new(handler, config);
    let requests = config.operations.max(1) * config.attempts_max.max(1) as usize + 1;
    fuzz_model(
        &model,
        ScheduleFuzzing {
            cases: config.cases,
            fuzz_seed: config.fuzz_seed,
            choices_max: 64,
            drain_steps_max: requests * (STEPS_PER_REQUEST_MAX as usize + 4),
            shrink_steps_max: 4_096,
        },
    )
}

/// Explores every schedule of `handler` within `config`'s bounds, breadth-first: a violation
/// comes with a shortest schedule.
pub fn check_handler<H: HandlerUnderTest>(
    handler: H,
    config: HttpHarnessConfig,
) -> HarnessCheckReport<HttpAction> {
    let bounds = ExploreBounds {
        depth_max: config.depth_max,
        states_max: config.states_max,
        bytes_max: BYTES_MAX_DEFAULT,
    };
    check_model(HttpHarnessModel::new(handler, config), bounds)
}
