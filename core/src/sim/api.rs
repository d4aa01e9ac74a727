//! The API side of the world: requests in flight through the P3 layer and the shop's handlers,
//! and answers in flight on the network.
//!
//! Each send of a request is an [`ApiAttempt`]: an [`ApiLayer`] (naive or idempotent) around a
//! [`ShopHandler`], stepped one statement at a time. When it answers, the answer is recorded in
//! the history (the API gave it, whatever happens next) and travels as an [`InFlightResponse`]
//! until the network delivers it or loses it (F5).

use serde::{Deserialize, Serialize};

use crate::history::{HandlerRunId, KeyLease, RequestAttempt, ResponseOrigin};
use crate::idempotency::{ApiLayer, HttpResponse, LayerState};
use crate::ids::{IdempotencyKey, TxId};
use crate::shop_api::ShopHandler;
use crate::sim::action::RequestIndex;
use crate::sim::fault::ApiCrashPoint;
use crate::store::RequestFingerprint;

/// One send of a request, running in the API.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ApiAttempt {
    /// The request.
    pub request: RequestIndex,
    /// Which send of it, from 1.
    pub send_number: u32,
    /// First send or duplicate.
    pub kind: RequestAttempt,
    /// The key it carries.
    pub key: IdempotencyKey,
    /// Its fingerprint.
    pub fingerprint: RequestFingerprint,
    /// The layer and the handler.
    pub layer: ApiLayer<ShopHandler>,
    /// The transaction whose row lock it waits for, if its last step was blocked.
    pub waiting_for: Option<TxId>,
    /// Its handler run in the history, once the handler started.
    pub handler_run: Option<HandlerRunId>,
    /// The lease its reservation will grant once it commits.
    pub pending_lease: Option<KeyLease>,
    /// How its answer came about, from the layer's events so far.
    pub origin: ResponseOrigin,
    /// Whether it has run a step.
    pub started: bool,
    /// Whether its handler uses the request's planned order ids.
    pub uses_planned_order: bool,
}

impl ApiAttempt {
    /// The shop handler behind the layer.
    pub fn handler(&self) -> &ShopHandler {
        match &self.layer {
            ApiLayer::Naive(layer) => layer.handler(),
            ApiLayer::Idempotent(layer) => layer.handler(),
        }
    }

    /// Whether the attempt is at `point` now.
    pub fn is_at(&self, point: ApiCrashPoint) -> bool {
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
                            | LayerState::CommitCompletion { .. }
                    )
            }
        }
    }
}

/// An answer on its way to the client.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InFlightResponse {
    /// The request.
    pub request: RequestIndex,
    /// Which send of it, from 1.
    pub send_number: u32,
    /// The answer.
    pub response: HttpResponse,
}
