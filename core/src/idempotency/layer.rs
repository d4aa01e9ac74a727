//! The idempotent twin of pattern P3: the seed's `IdempotencyFilter` as a step machine, plus
//! what the seed lacks (fingerprint comparison, lease, fencing, failure policy, retention).
//!
//! One request runs these statements, one per step, so that the simulator can interleave two
//! requests with the same key and make the check-then-act race really happen:
//!
//! 1. parse the `Idempotency-Key` header (no store access): missing or not a UUID is 400;
//! 2. the reservation, a short transaction of its own as in the seed: `BEGIN`, `SELECT` the
//!    key, then one of: replay a completed key, 409 for a key whose lease holds, 422 for a key
//!    first used with another fingerprint, `INSERT ... ON CONFLICT DO NOTHING` for an absent key
//!    (the atomic reservation: a concurrent request that inserted first wins, and this one gets
//!    409), a fenced `UPDATE` to take over a key whose lease ended, or a `DELETE` of a key whose
//!    retention is over followed by the insert; then `COMMIT`;
//! 3. the business handler's own steps (its own transaction);
//! 4. the completion, a transaction of its own: `BEGIN`, an `UPDATE` (store the response) or a
//!    `DELETE` (release the key after a handler failure, if the failure policy says so), checked
//!    against this request's fencing token, then `COMMIT`.
//!
//! A crash between the steps (the simulator drops the machine and rolls back its open
//! transaction) leaves a reserved key in progress: retries get 409 until its lease ends, then
//! take it over. A request that was slow rather than dead finds, when it completes, that its
//! token no longer holds the key: its completion is rejected, the newer request's state is
//! kept, and it answers 409.
//!
//! Known limit, kept on purpose because it is the seed's design: the handler's effect and the
//! key's completion are two transactions. A crash after the handler committed and before the
//! key completed lets the request that takes the key over run the handler a second time. A
//! handler that must never run twice writes its effect and the key in one transaction.

mod fencing;
mod handler;
mod state;

pub(crate) use fencing::next_fencing_token;
use fencing::{fencing_token_of, found_key, stale_detail};
pub use handler::HttpHandler;
#[cfg(test)]
pub(crate) use handler::describe_response;
pub(crate) use handler::{failure_detail, step_handler};
pub use state::LayerState;
pub(crate) use state::{AfterReservation, Completion};

use crate::idempotency::config::{Config, FailurePolicy, lease_holds};
use crate::idempotency::error::IdempotencyError;
use crate::idempotency::event::IdempotencyEvent;
use crate::idempotency::fingerprint::{fingerprint, short_fingerprint};
use crate::idempotency::key::{KeyHeaderError, parse_idempotency_key};
use crate::idempotency::problem::{ProblemType, problem_response};
use crate::idempotency::request::{HttpRequest, HttpResponse};
use crate::ids::{IdempotencyKey, Tick, TxId};
use crate::sql::statements::{self, OnConflict};
use crate::step::{Step, Steps};
use crate::store::{
    FencingToken, IdempotencyKeyRow, Inserted, KeyState, RequestFingerprint, RowLockWait, Store,
    StoreError,
};

/// One request through the idempotent layer, around the business handler `H`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IdempotencyLayer<H> {
    config: Config,
    request: std::sync::Arc<HttpRequest>,
    fingerprint: RequestFingerprint,
    handler: H,
    state: LayerState,
    events: Vec<IdempotencyEvent>,
}

impl<H: HttpHandler> IdempotencyLayer<H> {
    /// `request` through the layer, with `handler` (built for this request) behind it. Nothing
    /// runs until the first step.
    pub(crate) fn new(config: Config, request: HttpRequest, handler: H) -> Self {
        let fingerprint = fingerprint(&request);
        IdempotencyLayer {
            config,
            request: request.into(),
            fingerprint,
            handler,
            state: LayerState::ParseKeyHeader,
            events: Vec::new(),
        }
    }

    /// Where the request is.
    pub fn state(&self) -> &LayerState {
        &self.state
    }

    /// The business handler.
    pub(crate) fn handler(&self) -> &H {
        &self.handler
    }

    /// The events not yet taken.
    #[cfg(test)]
    pub(crate) fn events(&self) -> &[IdempotencyEvent] {
        &self.events
    }

    /// Takes the events collected since the last call, oldest first.
    pub(crate) fn take_events(&mut self) -> Vec<IdempotencyEvent> {
        std::mem::take(&mut self.events)
    }

    fn step_state(
        &mut self,
        store: &mut Store,
        now: Tick,
    ) -> Result<Step<HttpResponse>, IdempotencyError> {
        match self.state.clone() {
            LayerState::ParseKeyHeader => Ok(self.parse_key_header()),
            LayerState::BeginReservation { key } => {
                let tx = store.begin()?;
                self.state = LayerState::SelectKey { key, tx };
                Ok(Step::Continue)
            }
            LayerState::SelectKey { key, tx } => {
                let row = store.get::<IdempotencyKeyRow>(tx, &key)?;
                self.state = self.decide_on_row(key, tx, row, now);
                Ok(Step::Continue)
            }
            LayerState::DeleteExpiredKey { key, tx, expired } => {
                let config = self.config;
                let forgotten = |row: &IdempotencyKeyRow| config.is_forgotten(row, now);
                if let Err(wait) =
                    split_blocked(store.delete_where::<IdempotencyKeyRow>(tx, &key, forgotten))?
                {
                    return Ok(Step::Blocked(wait));
                }
                // Deleted, or purged meanwhile, or taken by another request: the insert that
                // follows finds out, as the seed's reservation does.
                let replaced_fencing_token = fencing_token_of(&expired);
                self.state = LayerState::InsertKey { key, tx, replaced_fencing_token };
                Ok(Step::Continue)
            }
            LayerState::InsertKey { key, tx, replaced_fencing_token } => {
                self.insert_key(store, key, tx, replaced_fencing_token, now)
            }
            LayerState::TakeOverKey { key, tx, previous_fencing_token } => {
                self.take_over_key(store, key, tx, previous_fencing_token, now)
            }
            LayerState::CommitReservation { key, tx, then } => {
                store.commit(tx)?;
                match then {
                    AfterReservation::Answer(response) => {
                        self.state = LayerState::Done;
                        Ok(Step::Done(response))
                    }
                    AfterReservation::RunHandler { fencing_token } => {
                        self.state = LayerState::RunHandler { key, fencing_token };
                        Ok(Step::Continue)
                    }
                }
            }
            LayerState::RunHandler { key, fencing_token } => {
                let response = match step_handler(&mut self.handler, store, now) {
                    Step::Continue => return Ok(Step::Continue),
                    Step::Blocked(wait) => return Ok(Step::Blocked(wait)),
                    Step::Done(response) => response,
                };
                let completion = self.completion_for(response);
                self.state = LayerState::BeginCompletion { key, fencing_token, completion };
                Ok(Step::Continue)
            }
            LayerState::BeginCompletion { key, fencing_token, completion } => {
                let tx = store.begin()?;
                self.state = LayerState::WriteCompletion { key, fencing_token, tx, completion };
                Ok(Step::Continue)
            }
            LayerState::WriteCompletion { key, fencing_token, tx, completion } => {
                self.write_completion(store, key, fencing_token, tx, completion)
            }
            LayerState::ReadStaleKey { key, fencing_token, tx } => {
                let row = store.get::<IdempotencyKeyRow>(tx, &key)?;
                let found = found_key(row.as_ref());
                let detail = stale_detail(key, fencing_token, &found);
                self.events.push(IdempotencyEvent::StaleCompletionRejected {
                    key,
                    fencing_token,
                    found,
                });
                let response = problem_response(ProblemType::IdempotencyKeyTakenOver, detail);
                self.state = LayerState::CommitCompletion { tx, response };
                Ok(Step::Continue)
            }
            LayerState::CommitCompletion { tx, response } => {
                store.commit(tx)?;
                self.state = LayerState::Done;
                Ok(Step::Done(response))
            }
            LayerState::Done => Err(IdempotencyError::AlreadyDone),
        }
    }

    /// `INSERT INTO idempotency_keys ... ON CONFLICT DO NOTHING`: the key reserved for this
    /// request, or lost to another.
    fn insert_key(
        &mut self,
        store: &mut Store,
        key: IdempotencyKey,
        tx: TxId,
        replaced_fencing_token: Option<FencingToken>,
        now: Tick,
    ) -> Result<Step<HttpResponse>, IdempotencyError> {
        let row = self.reservation_row(key, replaced_fencing_token, now);
        let (fencing_token, lease_expires_at) = match row.state {
            KeyState::InProgress { fencing_token, lease_expires_at } => {
                (fencing_token, lease_expires_at)
            }
            KeyState::Completed { .. } => return Err(IdempotencyError::AlreadyDone),
        };
        let inserted = match split_blocked(store.insert_on_conflict_do_nothing(tx, row))? {
            Err(wait) => return Ok(Step::Blocked(wait)),
            Ok(inserted) => inserted,
        };
        self.state = match inserted {
            Inserted::Inserted => {
                self.events.push(IdempotencyEvent::KeyReserved {
                    key,
                    fencing_token,
                    lease_expires_at,
                });
                let then = AfterReservation::RunHandler { fencing_token };
                LayerState::CommitReservation { key, tx, then }
            }
            Inserted::AlreadyPresent => self.reservation_lost(key, tx),
        };
        Ok(Step::Continue)
    }

    /// The guarded `UPDATE` that takes over a key whose lease ran out, only if it is still the
    /// row this request read (same fingerprint, same previous fencing token).
    fn take_over_key(
        &mut self,
        store: &mut Store,
        key: IdempotencyKey,
        tx: TxId,
        previous_fencing_token: FencingToken,
        now: Tick,
    ) -> Result<Step<HttpResponse>, IdempotencyError> {
        let state = self.take_over_state(previous_fencing_token, now);
        let (config, fingerprint) = (self.config, &self.fingerprint);
        let still_ours_to_take = |row: &IdempotencyKeyRow| {
            row.fingerprint == *fingerprint
                && !lease_holds(row, now)
                && !config.is_forgotten(row, now)
                && fencing_token_of(row) == Some(previous_fencing_token)
        };
        let taken = store.update_where::<IdempotencyKeyRow>(tx, &key, still_ours_to_take, |row| {
            row.state = state.clone()
        });
        let taken = match split_blocked(taken)? {
            Err(wait) => return Ok(Step::Blocked(wait)),
            Ok(taken) => taken,
        };
        self.state = match (taken, state) {
            (Some(_), KeyState::InProgress { lease_expires_at, fencing_token }) => {
                self.events.push(IdempotencyEvent::KeyTakenOver {
                    key,
                    previous_fencing_token,
                    fencing_token,
                    lease_expires_at,
                });
                let then = AfterReservation::RunHandler { fencing_token };
                LayerState::CommitReservation { key, tx, then }
            }
            _ => self.reservation_lost(key, tx),
        };
        Ok(Step::Continue)
    }

    /// The response stored (or the key released) only while this request still holds the key
    /// by its fencing token; a stale holder is told so.
    fn write_completion(
        &mut self,
        store: &mut Store,
        key: IdempotencyKey,
        fencing_token: FencingToken,
        tx: TxId,
        completion: Completion,
    ) -> Result<Step<HttpResponse>, IdempotencyError> {
        let holds_key = |row: &IdempotencyKeyRow| {
            matches!(
                row.state,
                KeyState::InProgress { fencing_token: token, .. } if token == fencing_token
            )
        };
        let written = match &completion {
            Completion::StoreResponse(response) => {
                let state = KeyState::Completed { response: response.clone().into() };
                store
                    .update_where::<IdempotencyKeyRow>(tx, &key, holds_key, |row| row.state = state)
                    .map(|row| row.is_some())
            }
            Completion::ReleaseKey(_) => store
                .delete_where::<IdempotencyKeyRow>(tx, &key, holds_key)
                .map(|row| row.is_some()),
        };
        let written = match split_blocked(written)? {
            Err(wait) => return Ok(Step::Blocked(wait)),
            Ok(written) => written,
        };
        if !written {
            self.state = LayerState::ReadStaleKey { key, fencing_token, tx };
            return Ok(Step::Continue);
        }
        let response = match completion {
            Completion::StoreResponse(response) => {
                self.events.push(IdempotencyEvent::ResponseStored {
                    key,
                    fencing_token,
                    status: response.status,
                });
                response
            }
            Completion::ReleaseKey(response) => {
                self.events.push(IdempotencyEvent::KeyReleased { key, fencing_token });
                response
            }
        };
        self.state = LayerState::CommitCompletion { tx, response };
        Ok(Step::Continue)
    }

    fn parse_key_header(&mut self) -> Step<HttpResponse> {
        match parse_idempotency_key(&self.request) {
            Ok(key) => {
                self.state = LayerState::BeginReservation { key };
                Step::Continue
            }
            Err(error) => {
                let problem_type = match error {
                    KeyHeaderError::Missing => ProblemType::IdempotencyKeyMissing,
                    KeyHeaderError::Repeated { .. } | KeyHeaderError::NotAUuid { .. } => {
                        ProblemType::IdempotencyKeyInvalid
                    }
                };
                let response = problem_response(problem_type, error.to_string());
                self.events.push(IdempotencyEvent::KeyHeaderRejected { error });
                self.state = LayerState::Done;
                Step::Done(response)
            }
        }
    }

    /// The decision of the `SELECT`: what the key's row, as read, means for this request.
    fn decide_on_row(
        &mut self,
        key: IdempotencyKey,
        tx: TxId,
        row: Option<IdempotencyKeyRow>,
        now: Tick,
    ) -> LayerState {
        let Some(row) = row else {
            return LayerState::InsertKey { key, tx, replaced_fencing_token: None };
        };
        if self.config.is_forgotten(&row, now) {
            self.events.push(IdempotencyEvent::KeyExpired { key, created_at: row.created_at });
            return LayerState::DeleteExpiredKey { key, tx, expired: row };
        }
        if row.fingerprint != self.fingerprint {
            let detail = format!(
                "Idempotency-Key {key} was first used with a request of fingerprint {}, and this \
                 request ({} {}) has fingerprint {}: the method, path or body differs; use a new \
                 key for a new request",
                short_fingerprint(&row.fingerprint),
                self.request.method,
                self.request.path,
                short_fingerprint(&self.fingerprint),
            );
            self.events.push(IdempotencyEvent::FingerprintMismatch {
                key,
                stored: row.fingerprint,
                received: self.fingerprint.clone(),
            });
            let then = AfterReservation::Answer(problem_response(
                ProblemType::IdempotencyKeyReused,
                detail,
            ));
            return LayerState::CommitReservation { key, tx, then };
        }
        match row.state {
            KeyState::Completed { response } => {
                self.events
                    .push(IdempotencyEvent::ResponseReplayed { key, status: response.status });
                let then = AfterReservation::Answer(response.into());
                LayerState::CommitReservation { key, tx, then }
            }
            KeyState::InProgress { lease_expires_at, .. } if now < lease_expires_at => {
                let detail = format!(
                    "a request with Idempotency-Key {key} is still in progress; its lease holds \
                     until {lease_expires_at} (now is {now}): retry after that"
                );
                self.events.push(IdempotencyEvent::KeyInProgress { key, lease_expires_at });
                let then = AfterReservation::Answer(problem_response(
                    ProblemType::IdempotencyKeyInProgress,
                    detail,
                ));
                LayerState::CommitReservation { key, tx, then }
            }
            KeyState::InProgress { fencing_token, .. } => {
                LayerState::TakeOverKey { key, tx, previous_fencing_token: fencing_token }
            }
        }
    }

    /// The row the reservation inserts at `now`: in progress, with a new lease and token.
    fn reservation_row(
        &self,
        key: IdempotencyKey,
        replaced_fencing_token: Option<FencingToken>,
        now: Tick,
    ) -> IdempotencyKeyRow {
        IdempotencyKeyRow {
            key,
            fingerprint: self.fingerprint.clone(),
            state: KeyState::InProgress {
                lease_expires_at: self.config.lease_expires_at(now),
                fencing_token: next_fencing_token(replaced_fencing_token, now),
            },
            created_at: now,
        }
    }

    /// The state a takeover at `now` writes: a new lease and a token above the old one.
    fn take_over_state(&self, previous_fencing_token: FencingToken, now: Tick) -> KeyState {
        KeyState::InProgress {
            lease_expires_at: self.config.lease_expires_at(now),
            fencing_token: next_fencing_token(Some(previous_fencing_token), now),
        }
    }

    fn reservation_lost(&mut self, key: IdempotencyKey, tx: TxId) -> LayerState {
        self.events.push(IdempotencyEvent::ReservationLost { key });
        let detail = format!(
            "a concurrent request reserved Idempotency-Key {key} between this request's read \
             and its reservation; retry to get its response"
        );
        let then = AfterReservation::Answer(problem_response(
            ProblemType::IdempotencyKeyReservedConcurrently,
            detail,
        ));
        LayerState::CommitReservation { key, tx, then }
    }

    /// Applies the failure policy to the handler's answer, and records how the handler ended.
    fn completion_for(&mut self, response: HttpResponse) -> Completion {
        if !response.is_server_error() {
            self.events.push(IdempotencyEvent::HandlerCompleted { status: response.status });
            return Completion::StoreResponse(response);
        }
        self.events.push(IdempotencyEvent::HandlerFailed {
            status: response.status,
            detail: failure_detail(&response),
        });
        match self.config.failure_policy {
            FailurePolicy::ReleaseKey => Completion::ReleaseKey(response),
            FailurePolicy::StoreAndReplay => Completion::StoreResponse(response),
        }
    }
}

impl<H: HttpHandler> Steps for IdempotencyLayer<H> {
    type Output = HttpResponse;
    type Error = IdempotencyError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        let retention_ticks = self.config.retention_ticks;
        Some(match &self.state {
            LayerState::ParseKeyHeader => "-- parse header Idempotency-Key".to_owned(),
            LayerState::BeginReservation { .. } | LayerState::BeginCompletion { .. } => {
                "BEGIN".to_owned()
            }
            LayerState::SelectKey { key, .. } | LayerState::ReadStaleKey { key, .. } => {
                statements::select_key(*key)
            }
            LayerState::DeleteExpiredKey { key, .. } => {
                statements::delete_forgotten_key(*key, now, retention_ticks)
            }
            LayerState::InsertKey { key, replaced_fencing_token, .. } => statements::insert(
                &self.reservation_row(*key, *replaced_fencing_token, now),
                OnConflict::DoNothing,
            ),
            LayerState::TakeOverKey { key, previous_fencing_token, .. } => {
                statements::take_over_key(
                    *key,
                    &self.fingerprint.0,
                    *previous_fencing_token,
                    &self.take_over_state(*previous_fencing_token, now),
                    now,
                    retention_ticks,
                )
            }
            LayerState::CommitReservation { .. } | LayerState::CommitCompletion { .. } => {
                "COMMIT".to_owned()
            }
            LayerState::RunHandler { .. } => {
                self.handler.next_statement(now).unwrap_or_else(|| "-- handler".to_owned())
            }
            LayerState::WriteCompletion { key, fencing_token, completion, .. } => {
                match completion {
                    Completion::StoreResponse(response) => statements::complete_key(
                        *key,
                        *fencing_token,
                        &KeyState::Completed { response: response.clone().into() },
                    ),
                    Completion::ReleaseKey(_) => statements::release_key(*key, *fencing_token),
                }
            }
            LayerState::Done => return None,
        })
    }

    fn next_begins(&self, now: Tick) -> bool {
        match &self.state {
            LayerState::BeginReservation { .. } | LayerState::BeginCompletion { .. } => true,
            LayerState::RunHandler { .. } => self.handler.next_begins(now),
            LayerState::ParseKeyHeader
            | LayerState::SelectKey { .. }
            | LayerState::ReadStaleKey { .. }
            | LayerState::DeleteExpiredKey { .. }
            | LayerState::InsertKey { .. }
            | LayerState::TakeOverKey { .. }
            | LayerState::CommitReservation { .. }
            | LayerState::CommitCompletion { .. }
            | LayerState::WriteCompletion { .. }
            | LayerState::Done => false,
        }
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<HttpResponse>, Self::Error> {
        let result = self.step_state(store, now);
        if result.is_err() {
            if let Some(tx) = self.open_transaction() {
                // It may have ended already; an unknown transaction is fine here.
                let _ = store.rollback(tx);
            }
            self.state = LayerState::Done;
        }
        result
    }

    fn open_transaction(&self) -> Option<TxId> {
        match &self.state {
            LayerState::SelectKey { tx, .. }
            | LayerState::DeleteExpiredKey { tx, .. }
            | LayerState::InsertKey { tx, .. }
            | LayerState::TakeOverKey { tx, .. }
            | LayerState::CommitReservation { tx, .. }
            | LayerState::WriteCompletion { tx, .. }
            | LayerState::ReadStaleKey { tx, .. }
            | LayerState::CommitCompletion { tx, .. } => Some(*tx),
            LayerState::RunHandler { .. } => self.handler.open_transaction(),
            LayerState::ParseKeyHeader
            | LayerState::BeginReservation { .. }
            | LayerState::BeginCompletion { .. }
            | LayerState::Done => None,
        }
    }
}

/// Separates a row-lock wait, which is a step outcome, from a real failure.
pub(crate) fn split_blocked<T>(
    result: Result<T, StoreError>,
) -> Result<Result<T, RowLockWait>, StoreError> {
    match result {
        Ok(value) => Ok(Ok(value)),
        Err(StoreError::Blocked(wait)) => Ok(Err(wait)),
        Err(error) => Err(error),
    }
}
