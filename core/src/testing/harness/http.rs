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

use std::fmt::{Debug, Display};
use std::hash::{Hash, Hasher};

use crate::check::fingerprint::{Fingerprint, FnvHasher};
use crate::check::{ExploreBounds, Model};
use crate::idempotency::{
    ApiLayer, Config as LayerConfig, HttpRequest, HttpResponse, IDEMPOTENCY_KEY_HEADER,
    Implementation, ProblemType,
};
use crate::ids::{Tick, TxId};
use crate::step::{Step, Steps, run_to_completion};
use crate::store::Store;
use crate::testing::harness::{
    HarnessCheckReport, HarnessFuzzReport, HarnessStep, HarnessViolation, ScheduleFuzzing,
    check_model, fuzz_model, sorted_fingerprints,
};

/// The most statements one request may run before the harness calls it stuck.
pub const STEPS_PER_REQUEST_MAX: u32 = 64;

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
pub fn idempotency_key_of(operation: usize) -> String {
    format!("00000000-0000-4000-8000-{:012x}", operation.saturating_add(1))
}

/// One step of the HTTP harness's world.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HttpAction {
    /// The client of `operation` sends its request for the first time.
    Send {
        /// The operation, from 0.
        operation: usize,
    },
    /// Request `attempt` (an index into the requests in flight) runs one statement.
    Step {
        /// The request.
        attempt: usize,
    },
    /// The answer of request `attempt` reaches its client.
    Deliver {
        /// The request.
        attempt: usize,
    },
    /// The client of `operation`, without a final answer and with no request in flight, sends
    /// its request again, same key, same payload.
    Retry {
        /// The operation.
        operation: usize,
    },
    /// Nothing runs and a client waits out its backoff: the clock moves to `to`.
    AdvanceClock {
        /// The new time.
        to: Tick,
    },
    /// F5: the network loses the answer of request `attempt`.
    LoseResponse {
        /// The request.
        attempt: usize,
    },
    /// F6: the client of `operation` sends its request again while one is in flight.
    DoubleSubmit {
        /// The operation.
        operation: usize,
    },
    /// F7: `operation`'s key, which has its answer, is sent with another payload.
    ReuseKey {
        /// The operation whose key is reused.
        operation: usize,
    },
    /// F8: the API crashes while running request `attempt`: its open transaction rolls back
    /// and it never answers.
    Crash {
        /// The request.
        attempt: usize,
    },
}

impl HarnessStep for HttpAction {
    /// F5-F8.
    fn is_fault(&self) -> bool {
        matches!(
            self,
            HttpAction::LoseResponse { .. }
                | HttpAction::DoubleSubmit { .. }
                | HttpAction::ReuseKey { .. }
                | HttpAction::Crash { .. }
        )
    }
}

/// Where one request in flight is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttemptState<L> {
    /// Running through the plug.
    Running {
        /// The plug's step machine (the layer or the naive twin, with the handler inside).
        layer: L,
        /// Statements run.
        steps: u32,
        /// The transaction whose row lock its last statement waited for, if it waits.
        waiting_for: Option<TxId>,
    },
    /// Answered; the answer is on its way to the client.
    Answered {
        /// The answer.
        response: HttpResponse,
    },
}

/// One request in flight.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HttpAttempt<L> {
    /// The operation whose key it carries.
    pub operation: usize,
    /// Whether it carries another payload under that key (F7).
    pub reused_key: bool,
    /// Where it is.
    pub state: AttemptState<L>,
}

/// What one operation's client knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClientState {
    /// Requests sent, the first included.
    pub attempts: u32,
    /// Whether it has a final answer.
    pub answered: bool,
    /// After a 409 or a 5xx: it retries no earlier than this.
    pub retry_at: Option<Tick>,
}

/// The HTTP harness's world.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HttpHarnessState<L> {
    /// The store.
    pub store: Store,
    /// The clock.
    pub now: Tick,
    /// One client per operation.
    pub clients: Vec<ClientState>,
    /// The requests in flight, in the order they were sent.
    pub attempts: Vec<HttpAttempt<L>>,
    /// Per operation, the first final answer its key got (status and body).
    pub key_answers: Vec<Option<(u16, String)>>,
    /// Lost responses taken.
    pub lost_responses: u32,
    /// Double submits taken.
    pub double_submits: u32,
    /// Key reuses taken.
    pub key_reuses: u32,
    /// Crashes taken.
    pub crashes: u32,
    /// What went wrong, if something did (the schedule ends there).
    pub violation: Option<HarnessViolation>,
}

/// The step machine of one request through the plug.
pub type PluggedHandler<H> = ApiLayer<<H as HandlerUnderTest>::Handler>;

/// The HTTP harness's world as a model.
#[derive(Clone, Debug)]
pub struct HttpHarnessModel<H: HandlerUnderTest> {
    handler: H,
    config: HttpHarnessConfig,
    expected: H::Observation,
}

/// Whether an answer is final for its client: not a 409 (in progress, reserved concurrently,
/// taken over) and not a 5xx, which the client retries.
fn is_final(response: &HttpResponse) -> bool {
    response.status != 409 && !response.is_server_error()
}

fn describe(status: u16, body: &str) -> String {
    format!("{status} {body}")
}

impl<H: HandlerUnderTest> HttpHarnessModel<H> {
    /// The model of `handler` under `config`; the reference outcome is each operation's request
    /// run once, in order, alone, through the same plug.
    pub fn new(handler: H, config: HttpHarnessConfig) -> HttpHarnessModel<H> {
        let operations = config.operations.max(1);
        let mut model = HttpHarnessModel {
            expected: handler.observe(&handler.initial_store()),
            handler,
            config: HttpHarnessConfig { operations, ..config },
        };
        let mut store = model.handler.initial_store();
        for operation in 0..operations {
            let mut layer = model.plugged(operation, false);
            // A failure here shows up again in the explored runs, where it is reported.
            let _ = run_to_completion(&mut layer, &mut store, Tick(0));
        }
        model.expected = model.handler.observe(&store);
        model
    }

    /// What exactly-once processing leaves.
    pub fn expected(&self) -> &H::Observation {
        &self.expected
    }

    /// The request of `operation` with its key; with `reused_key`, another operation's payload
    /// under that key (F7).
    pub fn request(&self, operation: usize, reused_key: bool) -> HttpRequest {
        let payload =
            if reused_key { self.config.operations.saturating_add(operation) } else { operation };
        self.handler
            .request(payload)
            .with_header(IDEMPOTENCY_KEY_HEADER, idempotency_key_of(operation))
    }

    fn plugged(&self, operation: usize, reused_key: bool) -> PluggedHandler<H> {
        let request = self.request(operation, reused_key);
        let (implementation, layer) = self.config.plug.implementation();
        let handler = self.handler.handler(&request);
        ApiLayer::new(implementation, layer, request, handler)
    }

    fn in_flight(state: &HttpHarnessState<PluggedHandler<H>>, operation: usize) -> bool {
        state.attempts.iter().any(|attempt| attempt.operation == operation && !attempt.reused_key)
    }

    fn can_step(
        state: &HttpHarnessState<PluggedHandler<H>>,
        attempt: &HttpAttempt<PluggedHandler<H>>,
    ) -> bool {
        match &attempt.state {
            AttemptState::Running { waiting_for, .. } => {
                waiting_for.is_none_or(|holder| !state.store.is_open(holder))
            }
            AttemptState::Answered { .. } => false,
        }
    }

    fn can_retry(&self, state: &HttpHarnessState<PluggedHandler<H>>, operation: usize) -> bool {
        let Some(client) = state.clients.get(operation) else { return false };
        client.attempts > 0
            && !client.answered
            && client.attempts < self.config.attempts_max
            && client.retry_at.is_none_or(|at| state.now >= at)
            && !Self::in_flight(state, operation)
    }

    /// The time a waiting client retries at, if nothing runs and one waits.
    fn next_retry_time(&self, state: &HttpHarnessState<PluggedHandler<H>>) -> Option<Tick> {
        if !state.attempts.is_empty() {
            return None;
        }
        state
            .clients
            .iter()
            .filter(|client| !client.answered && client.attempts < self.config.attempts_max)
            .filter_map(|client| client.retry_at)
            .filter(|at| *at > state.now)
            .min()
    }

    /// Every operation sent and either answered or out of attempts, nothing in flight, and no
    /// clock advance left.
    fn is_done(&self, state: &HttpHarnessState<PluggedHandler<H>>) -> bool {
        state.attempts.is_empty()
            && state.clients.iter().enumerate().all(|(operation, client)| {
                client.attempts > 0 && (client.answered || !self.can_retry(state, operation))
            })
            && self.next_retry_time(state).is_none()
    }

    /// The violation in `state`, if any: one found when an answer was given, a deadlock, or at
    /// the end a client without a final answer or an observation other than the exactly-once
    /// one.
    pub fn violation(
        &self,
        state: &HttpHarnessState<PluggedHandler<H>>,
    ) -> Option<HarnessViolation> {
        if let Some(violation) = &state.violation {
            return Some(violation.clone());
        }
        let running: Vec<&HttpAttempt<PluggedHandler<H>>> = state
            .attempts
            .iter()
            .filter(|attempt| matches!(attempt.state, AttemptState::Running { .. }))
            .collect();
        if !running.is_empty() && running.iter().all(|attempt| !Self::can_step(state, attempt)) {
            return Some(HarnessViolation {
                sentence: format!(
                    "the requests in flight wait for each other's row locks forever: {} of them",
                    running.len()
                ),
            });
        }
        if !self.is_done(state) {
            return None;
        }
        if let Some((operation, client)) =
            state.clients.iter().enumerate().find(|(_, client)| !client.answered)
        {
            return Some(HarnessViolation {
                sentence: format!(
                    "operation {operation} got no final answer in {} requests (every answer was \
                     a 409 or a 5xx, lost, or cut by a crash)",
                    client.attempts
                ),
            });
        }
        let observed = self.handler.observe(&state.store);
        if observed != self.expected {
            return Some(HarnessViolation {
                sentence: format!(
                    "after every answer, the store shows {observed:?}, but running each \
                     operation exactly once shows {:?}",
                    self.expected
                ),
            });
        }
        None
    }

    /// Judges the answer of a request of `operation`, as the API gives it.
    fn judge_answer(
        state: &mut HttpHarnessState<PluggedHandler<H>>,
        operation: usize,
        reused_key: bool,
        response: &HttpResponse,
    ) {
        if reused_key {
            let expected = ProblemType::IdempotencyKeyReused.status();
            if response.status != expected {
                state.violation = Some(HarnessViolation {
                    sentence: format!(
                        "operation {operation}'s key, reused with another payload, got {}, but \
                         a reused key must get {expected} ({})",
                        describe(response.status, &response.body),
                        ProblemType::IdempotencyKeyReused.title()
                    ),
                });
            }
            return;
        }
        if !is_final(response) {
            return;
        }
        let Some(slot) = state.key_answers.get_mut(operation) else { return };
        match slot {
            None => *slot = Some((response.status, response.body.clone())),
            Some((status, body)) => {
                if (*status, body.as_str()) != (response.status, response.body.as_str()) {
                    state.violation = Some(HarnessViolation {
                        sentence: format!(
                            "requests with operation {operation}'s key got different answers: \
                             {} first, then {}",
                            describe(*status, body),
                            describe(response.status, &response.body)
                        ),
                    });
                }
            }
        }
    }

    fn push_attempt(
        &self,
        next: &mut HttpHarnessState<PluggedHandler<H>>,
        operation: usize,
        reused_key: bool,
    ) {
        next.attempts.push(HttpAttempt {
            operation,
            reused_key,
            state: AttemptState::Running {
                layer: self.plugged(operation, reused_key),
                steps: 0,
                waiting_for: None,
            },
        });
    }

    /// Applies `action` to `state`; `None` if it is not enabled.
    pub fn apply(
        &self,
        state: &HttpHarnessState<PluggedHandler<H>>,
        action: &HttpAction,
    ) -> Option<HttpHarnessState<PluggedHandler<H>>> {
        if state.violation.is_some() {
            return None;
        }
        let mut next = state.clone();
        match action {
            HttpAction::Send { operation } => {
                let client = next.clients.get_mut(*operation)?;
                if client.attempts > 0 {
                    return None;
                }
                client.attempts = 1;
                self.push_attempt(&mut next, *operation, false);
            }
            HttpAction::Retry { operation } => {
                if !self.can_retry(state, *operation) {
                    return None;
                }
                let client = next.clients.get_mut(*operation)?;
                client.attempts += 1;
                client.retry_at = None;
                self.push_attempt(&mut next, *operation, false);
            }
            HttpAction::DoubleSubmit { operation } => {
                let client = *state.clients.get(*operation)?;
                if next.double_submits >= self.config.double_submits_max
                    || client.answered
                    || client.attempts >= self.config.attempts_max
                    || !Self::in_flight(state, *operation)
                {
                    return None;
                }
                next.double_submits += 1;
                if let Some(client) = next.clients.get_mut(*operation) {
                    client.attempts += 1;
                }
                self.push_attempt(&mut next, *operation, false);
            }
            HttpAction::ReuseKey { operation } => {
                let client = state.clients.get(*operation)?;
                if next.key_reuses >= self.config.key_reuses_max || !client.answered {
                    return None;
                }
                next.key_reuses += 1;
                self.push_attempt(&mut next, *operation, true);
            }
            HttpAction::Step { attempt } => {
                if !Self::can_step(state, state.attempts.get(*attempt)?) {
                    return None;
                }
                let now = next.now;
                let slot = next.attempts.get_mut(*attempt)?;
                let (operation, reused_key) = (slot.operation, slot.reused_key);
                let AttemptState::Running { layer, steps, waiting_for } = &mut slot.state else {
                    return None;
                };
                *steps += 1;
                *waiting_for = None;
                if *steps > STEPS_PER_REQUEST_MAX {
                    next.violation = Some(HarnessViolation {
                        sentence: format!(
                            "a request of operation {operation} did not answer within \
                             {STEPS_PER_REQUEST_MAX} statements"
                        ),
                    });
                    return Some(next);
                }
                match layer.step(&mut next.store, now) {
                    Ok(Step::Continue) => {}
                    Ok(Step::Blocked(wait)) => *waiting_for = Some(wait.holder),
                    Ok(Step::Done(response)) => {
                        slot.state = AttemptState::Answered { response: response.clone() };
                        Self::judge_answer(&mut next, operation, reused_key, &response);
                    }
                    Err(error) => {
                        next.violation = Some(HarnessViolation {
                            sentence: format!(
                                "a request of operation {operation} failed instead of \
                                 answering: {error}"
                            ),
                        });
                    }
                }
            }
            HttpAction::Deliver { attempt } => {
                let AttemptState::Answered { response } = &state.attempts.get(*attempt)?.state
                else {
                    return None;
                };
                let taken = next.attempts.remove(*attempt);
                if !taken.reused_key {
                    let retry_at = next.now.plus(self.config.backoff_ticks);
                    let client = next.clients.get_mut(taken.operation)?;
                    if is_final(response) {
                        client.answered = true;
                        client.retry_at = None;
                    } else if !client.answered {
                        client.retry_at = Some(retry_at);
                    }
                }
            }
            HttpAction::LoseResponse { attempt } => {
                if next.lost_responses >= self.config.lost_responses_max
                    || !matches!(state.attempts.get(*attempt)?.state, AttemptState::Answered { .. })
                {
                    return None;
                }
                next.lost_responses += 1;
                next.attempts.remove(*attempt);
            }
            HttpAction::Crash { attempt } => {
                if next.crashes >= self.config.crashes_max {
                    return None;
                }
                let AttemptState::Running { layer, .. } = &state.attempts.get(*attempt)?.state
                else {
                    return None;
                };
                if let Some(tx) = layer.open_transaction() {
                    let _ = next.store.rollback(tx);
                }
                next.crashes += 1;
                next.attempts.remove(*attempt);
            }
            HttpAction::AdvanceClock { to } => {
                if self.next_retry_time(state) != Some(*to) {
                    return None;
                }
                next.now = *to;
            }
        }
        Some(next)
    }
}

impl<H: HandlerUnderTest> Model for HttpHarnessModel<H> {
    type State = HttpHarnessState<PluggedHandler<H>>;
    type Action = HttpAction;
    type Violation = HarnessViolation;

    fn initial_state(&self) -> Self::State {
        let operations = self.config.operations;
        HttpHarnessState {
            store: self.handler.initial_store(),
            now: Tick(0),
            clients: vec![ClientState::default(); operations],
            attempts: Vec::new(),
            key_answers: vec![None; operations],
            lost_responses: 0,
            double_submits: 0,
            key_reuses: 0,
            crashes: 0,
            violation: None,
        }
    }

    /// Normal actions first (send, step, deliver, retry, advance the clock), faults last, so
    /// that a schedule of small choices is a schedule without faults.
    fn actions(&self, state: &Self::State) -> Vec<HttpAction> {
        if state.violation.is_some() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        for (operation, client) in state.clients.iter().enumerate() {
            if client.attempts == 0 {
                actions.push(HttpAction::Send { operation });
            }
        }
        for (index, attempt) in state.attempts.iter().enumerate() {
            match attempt.state {
                AttemptState::Running { .. } if Self::can_step(state, attempt) => {
                    actions.push(HttpAction::Step { attempt: index })
                }
                AttemptState::Running { .. } => {}
                AttemptState::Answered { .. } => {
                    actions.push(HttpAction::Deliver { attempt: index })
                }
            }
        }
        for operation in 0..state.clients.len() {
            if self.can_retry(state, operation) {
                actions.push(HttpAction::Retry { operation });
            }
        }
        if let Some(to) = self.next_retry_time(state) {
            actions.push(HttpAction::AdvanceClock { to });
        }
        if state.lost_responses < self.config.lost_responses_max {
            for (index, attempt) in state.attempts.iter().enumerate() {
                if matches!(attempt.state, AttemptState::Answered { .. }) {
                    actions.push(HttpAction::LoseResponse { attempt: index });
                }
            }
        }
        if state.double_submits < self.config.double_submits_max {
            for (operation, client) in state.clients.iter().enumerate() {
                if !client.answered
                    && client.attempts < self.config.attempts_max
                    && Self::in_flight(state, operation)
                {
                    actions.push(HttpAction::DoubleSubmit { operation });
                }
            }
        }
        if state.key_reuses < self.config.key_reuses_max {
            for (operation, client) in state.clients.iter().enumerate() {
                if client.answered {
                    actions.push(HttpAction::ReuseKey { operation });
                }
            }
        }
        if state.crashes < self.config.crashes_max {
            for (index, attempt) in state.attempts.iter().enumerate() {
                if matches!(attempt.state, AttemptState::Running { .. }) {
                    actions.push(HttpAction::Crash { attempt: index });
                }
            }
        }
        actions
    }

    fn next_state(
        &self,
        state: &Self::State,
        action: &HttpAction,
    ) -> Result<(Self::State, Option<HarnessViolation>), String> {
        let next = self
            .apply(state, action)
            .ok_or_else(|| format!("the action {action:?} is not enabled"))?;
        let violation = self.violation(&next);
        Ok((next, violation))
    }

    fn initial_violation(&self, state: &Self::State) -> Option<HarnessViolation> {
        self.violation(state)
    }

    /// The requests in flight are told apart by what they carry, not by their position: the
    /// fingerprint sorts them.
    fn fingerprint(&self, state: &Self::State) -> Fingerprint {
        let mut hasher = FnvHasher::default();
        state.store.hash(&mut hasher);
        state.now.hash(&mut hasher);
        state.clients.hash(&mut hasher);
        state.key_answers.hash(&mut hasher);
        state.lost_responses.hash(&mut hasher);
        state.double_submits.hash(&mut hasher);
        state.key_reuses.hash(&mut hasher);
        state.crashes.hash(&mut hasher);
        state.violation.hash(&mut hasher);
        sorted_fingerprints(&state.attempts).hash(&mut hasher);
        hasher.finish()
    }
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
    let bounds = ExploreBounds { depth_max: config.depth_max, states_max: config.states_max };
    check_model(HttpHarnessModel::new(handler, config), bounds)
}
