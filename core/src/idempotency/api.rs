//! One request through pattern P3, naive or idempotent, chosen by [`Implementation`].
//!
//! The simulator holds an [`ApiLayer`] per request in flight and steps it like any handler; the
//! page's switch between the twins is the `Implementation` it is built with. [`handle_request`]
//! runs one request alone to its answer, for tests and for code that needs no interleaving.

use crate::idempotency::config::{Config, Implementation};
use crate::idempotency::error::IdempotencyError;
use crate::idempotency::event::IdempotencyEvent;
use crate::idempotency::layer::{HttpHandler, IdempotencyLayer};
use crate::idempotency::naive::NaiveLayer;
use crate::idempotency::request::{HttpRequest, HttpResponse};
use crate::ids::{Tick, TxId};
#[cfg(test)]
use crate::step::{RunError, run_to_completion};
use crate::step::{Step, Steps};
use crate::store::Store;

/// One request through either twin, around the business handler `H`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ApiLayer<H> {
    /// No key handling.
    Naive(NaiveLayer<H>),
    /// The `Idempotency-Key` layer.
    Idempotent(IdempotencyLayer<H>),
}

impl<H: HttpHandler> ApiLayer<H> {
    /// `request` through the twin `implementation`, with `handler` (built for this request)
    /// behind it. The naive twin ignores `config`.
    pub fn new(
        implementation: Implementation,
        config: Config,
        request: HttpRequest,
        handler: H,
    ) -> Self {
        match implementation {
            Implementation::Naive => ApiLayer::Naive(NaiveLayer::new(request, handler)),
            Implementation::Idempotent => {
                ApiLayer::Idempotent(IdempotencyLayer::new(config, request, handler))
            }
        }
    }

    /// Takes the events collected since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<IdempotencyEvent> {
        match self {
            ApiLayer::Naive(layer) => layer.take_events(),
            ApiLayer::Idempotent(layer) => layer.take_events(),
        }
    }
}

impl<H: HttpHandler> Steps for ApiLayer<H> {
    type Output = HttpResponse;
    type Error = IdempotencyError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match self {
            ApiLayer::Naive(layer) => layer.next_statement(now),
            ApiLayer::Idempotent(layer) => layer.next_statement(now),
        }
    }

    fn next_begins(&self, now: Tick) -> bool {
        let begins = match self {
            ApiLayer::Naive(layer) => layer.next_begins(now),
            ApiLayer::Idempotent(layer) => layer.next_begins(now),
        };
        // The layers and the shop's handler answer from their state alone; the text is the
        // rule, checked on every call in debug builds (every test run).
        debug_assert_eq!(begins, crate::step::is_begin(self.next_statement(now).as_deref()));
        begins
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<HttpResponse>, Self::Error> {
        match self {
            ApiLayer::Naive(layer) => layer.step(store, now),
            ApiLayer::Idempotent(layer) => layer.step(store, now),
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        match self {
            ApiLayer::Naive(layer) => layer.open_transaction(),
            ApiLayer::Idempotent(layer) => layer.open_transaction(),
        }
    }
}

/// The answer to one request run alone, and what the layer did on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg(test)]
pub(crate) struct HandledRequest {
    /// What the client got.
    pub(crate) response: HttpResponse,
    /// What the layer did, oldest first.
    pub(crate) events: Vec<IdempotencyEvent>,
}

/// Runs `request` through the twin `implementation` alone, at `now`, to its answer.
#[cfg(test)]
pub(crate) fn handle_request<H: HttpHandler>(
    implementation: Implementation,
    config: Config,
    request: HttpRequest,
    handler: H,
    store: &mut Store,
    now: Tick,
) -> Result<HandledRequest, RunError<IdempotencyError>> {
    let mut layer = ApiLayer::new(implementation, config, request, handler);
    let response = run_to_completion(&mut layer, store, now)?;
    Ok(HandledRequest { response, events: layer.take_events() })
}
