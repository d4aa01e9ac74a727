//! The HTTP harness's world as a [`Model`]: which actions a state enables, how one applies,
//! and how a state is judged against exactly-once processing (the store's observation, I4's
//! same key same answer, 422 for a reused key).

use std::hash::{Hash, Hasher};

use super::{
    AttemptState, ClientState, HandlerUnderTest, HttpAction, HttpAttempt, HttpHarnessConfig,
    HttpHarnessState, STEPS_PER_REQUEST_MAX, idempotency_key_of,
};
use crate::check::fingerprint::{Fingerprint, StateHasher};
use crate::check::{Model, ModelLimit};
use crate::idempotency::{
    ApiLayer, HttpRequest, HttpResponse, IDEMPOTENCY_KEY_HEADER, ProblemType,
};
use crate::ids::Tick;
use crate::step::{Step, Steps, run_to_completion};
use crate::testing::harness::{HarnessViolation, sorted_fingerprints};

/// The step machine of one request through the plug.
pub(crate) type PluggedHandler<H> = ApiLayer<<H as HandlerUnderTest>::Handler>;

/// The HTTP harness's world as a model.
#[derive(Clone, Debug)]
pub(crate) struct HttpHarnessModel<H: HandlerUnderTest> {
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
    pub(crate) fn new(handler: H, config: HttpHarnessConfig) -> HttpHarnessModel<H> {
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
    #[cfg(test)]
    pub(crate) fn expected(&self) -> &H::Observation {
        &self.expected
    }

    /// The request of `operation` with its key; with `reused_key`, another operation's payload
    /// under that key (F7).
    pub(crate) fn request(&self, operation: usize, reused_key: bool) -> HttpRequest {
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
    pub(crate) fn violation_in(
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

    /// [`HttpAction::Step`]: one statement of a running attempt, judging its answer if it gives
    /// one; `None` if the attempt cannot step.
    fn step_attempt(
        &self,
        state: &HttpHarnessState<PluggedHandler<H>>,
        next: &mut HttpHarnessState<PluggedHandler<H>>,
        attempt: usize,
    ) -> Option<()> {
        if !Self::can_step(state, state.attempts.get(attempt)?) {
            return None;
        }
        let now = next.now;
        let slot = next.attempts.get_mut(attempt)?;
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
            return Some(());
        }
        match layer.step(&mut next.store, now) {
            Ok(Step::Continue) => {}
            Ok(Step::Blocked(wait)) => *waiting_for = Some(wait.holder),
            Ok(Step::Done(response)) => {
                slot.state = AttemptState::Answered { response: response.clone() };
                Self::judge_answer(next, operation, reused_key, &response);
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
        Some(())
    }

    /// [`HttpAction::Deliver`]: an answered attempt's response reaches its client, which is done
    /// with a final answer and otherwise retries after the backoff; `None` if it has no answer.
    fn deliver(
        &self,
        state: &HttpHarnessState<PluggedHandler<H>>,
        next: &mut HttpHarnessState<PluggedHandler<H>>,
        attempt: usize,
    ) -> Option<()> {
        let AttemptState::Answered { response } = &state.attempts.get(attempt)?.state else {
            return None;
        };
        let taken = next.attempts.remove(attempt);
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
        Some(())
    }

    /// Applies `action` to `state`; `None` if it is not enabled.
    pub(crate) fn apply(
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
            HttpAction::Step { attempt } => self.step_attempt(state, &mut next, *attempt)?,
            HttpAction::Deliver { attempt } => self.deliver(state, &mut next, *attempt)?,
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
    ) -> Result<Self::State, ModelLimit<HttpAction>> {
        self.apply(state, action).ok_or_else(|| ModelLimit::NotEnabled { action: action.clone() })
    }

    fn violation(&self, state: &Self::State) -> Option<HarnessViolation> {
        self.violation_in(state)
    }

    /// The requests in flight are told apart by what they carry, not by their position: the
    /// fingerprint sorts them.
    fn fingerprint(&self, state: &Self::State) -> Fingerprint {
        let mut hasher = StateHasher::default();
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
