//! The naive twin of pattern P3: an endpoint with no idempotency handling at all.
//!
//! Every request runs the handler, whatever its `Idempotency-Key` header says (or whether it
//! has one). A client that retries after a lost response (fault F5) or submits twice (F6)
//! therefore creates a second charge or order: exactly what the seed's filter exists to stop.
//! Its steps are the handler's steps; a typed handler failure becomes a 500 problem, as a web
//! framework's default error handler would answer.

use crate::idempotency::error::IdempotencyError;
use crate::idempotency::event::IdempotencyEvent;
use crate::idempotency::layer::{HttpHandler, failure_detail, step_handler};
use crate::idempotency::request::{HttpRequest, HttpResponse};
use crate::ids::{Tick, TxId};
use crate::step::{Step, Steps};
use crate::store::Store;

/// One request through the naive endpoint: straight to the handler `H`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NaiveLayer<H> {
    request: std::sync::Arc<HttpRequest>,
    handler: H,
    done: bool,
    events: Vec<IdempotencyEvent>,
}

impl<H: HttpHandler> NaiveLayer<H> {
    /// `request` with `handler` (built for this request) behind it.
    pub(crate) fn new(request: HttpRequest, handler: H) -> Self {
        NaiveLayer { request: request.into(), handler, done: false, events: Vec::new() }
    }

    /// The business handler.
    pub(crate) fn handler(&self) -> &H {
        &self.handler
    }

    /// Takes the events collected since the last call, oldest first.
    pub(crate) fn take_events(&mut self) -> Vec<IdempotencyEvent> {
        std::mem::take(&mut self.events)
    }
}

impl<H: HttpHandler> Steps for NaiveLayer<H> {
    type Output = HttpResponse;
    type Error = IdempotencyError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        if self.done {
            return None;
        }
        Some(self.handler.next_statement(now).unwrap_or_else(|| "-- handler".to_owned()))
    }

    fn next_begins(&self, now: Tick) -> bool {
        !self.done && self.handler.next_begins(now)
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<HttpResponse>, Self::Error> {
        if self.done {
            return Err(IdempotencyError::AlreadyDone);
        }
        let response = match step_handler(&mut self.handler, store, now) {
            Step::Continue => return Ok(Step::Continue),
            Step::Blocked(wait) => return Ok(Step::Blocked(wait)),
            Step::Done(response) => response,
        };
        self.events.push(if response.is_server_error() {
            IdempotencyEvent::HandlerFailed {
                status: response.status,
                detail: failure_detail(&response),
            }
        } else {
            IdempotencyEvent::HandlerCompleted { status: response.status }
        });
        self.done = true;
        Ok(Step::Done(response))
    }

    fn open_transaction(&self) -> Option<TxId> {
        if self.done { None } else { self.handler.open_transaction() }
    }
}
