//! The API side of the world: requests in flight through the P3 layer and the shop's handlers.
//!
//! Each send of a request is an [`ApiAttempt`]: an [`ApiLayer`] (naive or idempotent) around a
//! [`ShopHandler`], stepped one statement at a time. When it answers, the answer is recorded in
//! the history (the API gave it, whatever happens next) and handed to the network
//! ([`crate::sim::InFlightResponse`]). The API's fault is its crash mid-request (F8): the open
//! transaction rolls back and the handler run ends crashed.

use uuid::Uuid;

use crate::history::{
    ApiResponse, HandlerRunEnd, HandlerRunId, KeyLease, RequestAttempt, ResponseOrigin,
};
use crate::idempotency::{
    ApiLayer, HttpResponse, IdempotencyError, IdempotencyEvent, LayerState, fingerprint,
};
use crate::ids::{IdempotencyKey, MessageId, OrderId, TxId};
use crate::shop_api::{
    HandlerConfig, ServerIds, ShopHandler, cancel_order_request, pay_order_request,
    place_order_request,
};
use crate::sim::action::{Action, AttemptId, RequestIndex};
use crate::sim::fault::ApiCrashPoint;
use crate::sim::network::InFlightResponse;
use crate::sim::scenario::Operation;
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, Target, World, missing};
use crate::step::{Step, Steps};
use crate::store::RequestFingerprint;

/// One send of a request, running in the API.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ApiAttempt {
    /// The request.
    pub(crate) request: RequestIndex,
    /// Which send of it, from 1.
    pub(crate) send_number: u32,
    /// First send or duplicate.
    pub(crate) kind: RequestAttempt,
    /// The key it carries.
    pub(crate) key: IdempotencyKey,
    /// Its fingerprint.
    pub(crate) fingerprint: RequestFingerprint,
    /// The layer and the handler.
    pub(crate) layer: ApiLayer<ShopHandler>,
    /// The transaction whose row lock it waits for, if its last step was blocked.
    pub(crate) waiting_for: Option<TxId>,
    /// Its handler run in the history, once the handler started.
    pub(crate) handler_run: Option<HandlerRunId>,
    /// The lease its reservation will grant once it commits.
    pub(crate) pending_lease: Option<KeyLease>,
    /// How its answer came about, from the layer's events so far.
    pub(crate) origin: ResponseOrigin,
    /// Whether it has run a step.
    pub(crate) started: bool,
    /// Whether its handler uses the request's planned order ids.
    pub(crate) uses_planned_order: bool,
}

impl ApiAttempt {
    /// The shop handler behind the layer.
    pub(crate) fn handler(&self) -> &ShopHandler {
        match &self.layer {
            ApiLayer::Naive(layer) => layer.handler(),
            ApiLayer::Idempotent(layer) => layer.handler(),
        }
    }

    /// What the layer's `event` tells about this attempt: the lease its reservation or takeover
    /// will grant once it commits, and how its answer comes about.
    fn note(&mut self, event: &IdempotencyEvent) {
        if let IdempotencyEvent::KeyReserved { fencing_token, lease_expires_at, .. }
        | IdempotencyEvent::KeyTakenOver { fencing_token, lease_expires_at, .. } = event
        {
            // The run starts once the reservation commits (a crash before that rolls the
            // reservation back, and no handler ran).
            self.pending_lease =
                Some(KeyLease { fencing_token: *fencing_token, expires_at: *lease_expires_at });
        }
        self.origin = self.origin.after(event);
    }

    /// Whether the attempt is at `point` now.
    pub(crate) fn is_at(&self, point: ApiCrashPoint) -> bool {
        match (point, &self.layer) {
            (ApiCrashPoint::AfterKeyReserved, ApiLayer::Naive(_)) => {
                self.handler().has_not_started()
            }
            (ApiCrashPoint::AfterKeyReserved, ApiLayer::Idempotent(layer)) => {
                matches!(layer.state(), LayerState::RunHandler { .. })
                    && self.handler().has_not_started()
            }
            (ApiCrashPoint::AfterHandlerCommitted, ApiLayer::Naive(_)) => {
                self.handler().has_committed()
            }
            (ApiCrashPoint::AfterHandlerCommitted, ApiLayer::Idempotent(layer)) => {
                self.handler().has_committed()
                    || matches!(
                        layer.state(),
                        LayerState::BeginCompletion { .. }
                            | LayerState::WriteCompletion { .. }
                            | LayerState::ReadStaleKey { .. }
                            | LayerState::CommitCompletion { .. }
                    )
            }
        }
    }
}

impl World {
    /// An API step for every attempt not waiting for a lock or a connection.
    pub(super) fn enabled_api_steps(&self, actions: &mut Vec<Action>) {
        for (attempt, state) in &self.attempts {
            if self.lock_free(state.waiting_for)
                && self.connection_free(
                    || state.layer.open_transaction(),
                    || state.layer.next_begins(self.now),
                )
            {
                actions.push(Action::ApiStep { attempt: *attempt });
            }
        }
    }

    /// One send of `request` with `key` reaches the API: the HTTP request its operation makes,
    /// the server's ids (the request's planned ones for its first order), the layer and the
    /// handler, as a new attempt.
    pub(super) fn send(
        &mut self,
        request: RequestIndex,
        kind: RequestAttempt,
        key: IdempotencyKey,
        out: &mut StepOut,
    ) -> Result<AttemptId, ApplyError> {
        let client = self.client(request)?;
        let planned_order_of = |order_of: RequestIndex| {
            self.clients
                .get(order_of.0)
                .and_then(|client| client.planned_order)
                .map_or(OrderId(Uuid::nil()), |planned| planned.order_id)
        };
        let (http, places_order) = match &client.spec.operation {
            Operation::PlaceOrder { lines } => (place_order_request(lines, Some(key)), true),
            Operation::PayOrder { order_of, payment_id } => {
                (pay_order_request(planned_order_of(*order_of), payment_id, Some(key)), false)
            }
            Operation::CancelOrder { order_of } => {
                (cancel_order_request(planned_order_of(*order_of), Some(key)), false)
            }
        };
        let use_planned = places_order && !client.planned_order_taken;
        let planned = client.planned_order;
        let ids = match (use_planned, planned) {
            (true, Some(planned)) => {
                ServerIds { order_id: planned.order_id, message_id: planned.message_id }
            }
            _ if places_order => ServerIds {
                order_id: OrderId(self.rng.uuid()),
                message_id: MessageId(self.rng.uuid()),
            },
            _ => ServerIds { order_id: OrderId(Uuid::nil()), message_id: MessageId(Uuid::nil()) },
        };
        let method_and_path = format!("{} {}", http.method, http.path);
        let request_fingerprint = fingerprint(&http);
        let handler = ShopHandler::new(
            HandlerConfig {
                order: self.config.patterns.order(),
                mark_paid_program: self.config.mark_paid_program.shared(),
            },
            http.clone(),
            ids,
        );
        let layer = ApiLayer::new(self.config.patterns.api(), self.config.api, http, handler);
        let attempt = AttemptId(self.next_attempt);
        self.next_attempt = self.next_attempt.saturating_add(1);
        let client = self.client_mut(request)?;
        client.sends = client.sends.saturating_add(1);
        if use_planned {
            client.planned_order_taken = true;
        }
        let send_number = client.sends;
        self.attempts.insert(
            attempt,
            ApiAttempt {
                request,
                send_number,
                kind,
                key,
                fingerprint: request_fingerprint,
                layer,
                waiting_for: None,
                handler_run: None,
                pending_lease: None,
                origin: ResponseOrigin::Completed,
                started: false,
                uses_planned_order: use_planned && planned.is_some(),
            },
        );
        out.request = Some(request);
        out.attempt = Some(attempt);
        out.key = Some(key);
        out.events.push(SimEvent::RequestSent { request, attempt, kind, key, method_and_path });
        Ok(attempt)
    }

    /// One statement of the attempt `id`: the layer's step, what its events say (the lease,
    /// the answer's origin, the start of the handler run), and the answer or failure if it
    /// ended.
    pub(super) fn api_step(&mut self, id: AttemptId, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let attempt = self.attempts.get_mut(&id).ok_or_else(|| missing(Target::Attempt(id)))?;
        out.request = Some(attempt.request);
        out.attempt = Some(id);
        out.key = Some(attempt.key);
        out.statement = attempt.layer.next_statement(now);
        if !attempt.started {
            attempt.started = true;
            if matches!(attempt.layer, ApiLayer::Naive(_)) {
                let run = self.history.record_handler_run_started(attempt.key, None, now)?;
                attempt.handler_run = Some(run);
                out.events.push(SimEvent::HandlerRunStarted { run });
            }
        }
        let result = attempt.layer.step(&mut self.store, now);
        for event in attempt.layer.take_events() {
            attempt.note(&event);
            out.events.push(SimEvent::Idempotency { event });
        }
        if let ApiLayer::Idempotent(layer) = &attempt.layer
            && matches!(layer.state(), LayerState::RunHandler { .. })
            && let Some(lease) = attempt.pending_lease.take()
        {
            let run = self.history.record_handler_run_started(attempt.key, Some(lease), now)?;
            attempt.handler_run = Some(run);
            out.events.push(SimEvent::HandlerRunStarted { run });
        }
        match result {
            Ok(Step::Continue) => attempt.waiting_for = None,
            Ok(Step::Blocked(wait)) => {
                attempt.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            Ok(Step::Done(response)) => self.api_answered(id, response, out)?,
            Err(error) => self.api_failed(id, &error, out)?,
        }
        Ok(())
    }

    /// The attempt answered: its handler run ends, the history records the answer, and the
    /// answer goes on the network.
    fn api_answered(
        &mut self,
        id: AttemptId,
        response: HttpResponse,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let now = self.now;
        let attempt = self.end_attempt(id, HandlerRunEnd::Finished { at: now })?;
        self.history.record_response(ApiResponse {
            key: Some(attempt.key),
            fingerprint: attempt.fingerprint.clone(),
            attempt: attempt.kind,
            origin: attempt.origin,
            status: response.status,
            body: response.body.clone(),
            answered_at: now,
        })?;
        out.events.push(SimEvent::Answered {
            attempt: id,
            status: response.status,
            origin: attempt.origin,
            body: response.body.clone(),
        });
        self.responses.insert(
            id,
            InFlightResponse {
                request: attempt.request,
                send_number: attempt.send_number,
                response,
            },
        );
        Ok(())
    }

    /// The attempt failed without an answer (a store limit, a rolled-back deadlock victim).
    fn api_failed(
        &mut self,
        id: AttemptId,
        error: &IdempotencyError,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        self.end_attempt(id, HandlerRunEnd::Crashed { at: self.now })?;
        out.events.push(SimEvent::ApiFailed { attempt: id, error: error.to_string() });
        Ok(())
    }

    /// Removes the attempt `id`, ends its handler run with `end` and frees its planned order
    /// ids if it did not commit its order.
    fn end_attempt(&mut self, id: AttemptId, end: HandlerRunEnd) -> Result<ApiAttempt, ApplyError> {
        let attempt = self.attempts.remove(&id).ok_or_else(|| missing(Target::Attempt(id)))?;
        if let Some(run) = attempt.handler_run {
            self.history.record_handler_run_ended(run, end)?;
        }
        self.release_planned_order_if_unused(&attempt)?;
        Ok(attempt)
    }

    /// Frees the planned order ids of an attempt that ended without committing its order, so
    /// that the request's next send uses them.
    fn release_planned_order_if_unused(&mut self, attempt: &ApiAttempt) -> Result<(), ApplyError> {
        if !attempt.uses_planned_order {
            return Ok(());
        }
        let committed = &self.store.committed().orders;
        let client = self
            .clients
            .get_mut(attempt.request.0)
            .ok_or_else(|| missing(Target::Request(attempt.request)))?;
        if let Some(planned) = client.planned_order
            && !committed.contains_key(&planned.order_id)
        {
            client.planned_order_taken = false;
        }
        Ok(())
    }

    /// F8: the API crashes running the attempt `id`: its open transaction rolls back.
    pub(super) fn crash_api(&mut self, id: AttemptId, out: &mut StepOut) -> Result<(), ApplyError> {
        let attempt = self.attempts.get(&id).ok_or_else(|| missing(Target::Attempt(id)))?;
        out.request = Some(attempt.request);
        out.attempt = Some(id);
        out.key = Some(attempt.key);
        let rolled_back = attempt.layer.open_transaction();
        if let Some(tx) = rolled_back {
            // Open by construction; a transaction already gone leaves nothing to undo.
            let _ = self.store.rollback(tx);
        }
        self.end_attempt(id, HandlerRunEnd::Crashed { at: self.now })?;
        out.events.push(SimEvent::ApiCrashed { attempt: id, rolled_back });
        Ok(())
    }
}
