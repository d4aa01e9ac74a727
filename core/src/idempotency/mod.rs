//! Pattern P3: the HTTP `Idempotency-Key` layer (the seed's third fragment, `IdempotencyFilter`)
//! and its naive twin, independent of any web framework.
//!
//! A request ([`HttpRequest`]) goes through an [`ApiLayer`] to a business handler, which is any
//! step machine answering an [`HttpResponse`] (the example is `CreateCharge`). The idempotent
//! twin ([`IdempotencyLayer`]) answers 400 to a missing or non-UUID key, replays a completed
//! key's stored status, headers and body exactly, answers 409 while a key's lease holds, reserves
//! a key atomically (`INSERT ... ON CONFLICT DO NOTHING`), answers 422 to a key reused with
//! another request (fingerprint), takes over a key whose lease ended with a larger fencing token
//! and rejects the stale request's late completion, applies a [`FailurePolicy`] to handler
//! failures, and forgets keys after their retention window. The naive twin ([`NaiveLayer`])
//! runs the handler for every request. Error answers are RFC 9457 problems ([`Problem`]); what
//! the layer did comes out as [`IdempotencyEvent`]s.
//!
//! Files: `request` (the HTTP types), `key` (header parsing), `fingerprint`, `problem`,
//! `config` (lease, retention, failure policy, twin), `event`, `error`, `layer` (the idempotent
//! step machine), `naive`, `api` (the twin switch and the whole-call convenience), `purge`
//! (retention housekeeping), `charge` (the example handler).
//!
//! [`IdempotencyLayer`]: layer::IdempotencyLayer
//! [`NaiveLayer`]: naive::NaiveLayer

mod api;
#[cfg(test)]
mod charge;
mod config;
mod error;
mod event;
mod fingerprint;
mod key;
mod layer;
mod naive;
mod problem;
mod purge;
mod request;

pub use api::ApiLayer;
#[cfg(test)]
pub(crate) use api::{HandledRequest, handle_request};
#[cfg(test)]
pub(crate) use charge::{CHARGES_PATH, CreateCharge, charge_request};
#[cfg(feature = "testing")]
pub(crate) use config::FailurePolicy;
pub use config::{Config, Implementation};
pub(crate) use error::IdempotencyError;
#[cfg(test)]
pub(crate) use event::FoundKey;
pub use event::IdempotencyEvent;
pub use fingerprint::fingerprint;
#[cfg(feature = "testing")]
pub(crate) use fingerprint::short_fingerprint;
#[cfg(test)]
pub(crate) use fingerprint::{
    FINGERPRINT_PREFIX, SHORT_FINGERPRINT_HEX_DIGITS, fingerprint_of_parts,
};
#[cfg(feature = "testing")]
pub(crate) use key::KeyHeaderError;
pub use key::parse_idempotency_key;
#[cfg(test)]
pub(crate) use key::{REJECTED_VALUE_CHARS_MAX, parse_key_value};
pub use layer::HttpHandler;
pub use layer::LayerState;
#[cfg(test)]
pub(crate) use layer::{IdempotencyLayer, describe_response, next_fencing_token};
pub(crate) use problem::{PROBLEM_CONTENT_TYPE, Problem};
#[cfg(feature = "testing")]
pub(crate) use problem::{ProblemType, problem_response};
pub(crate) use purge::PurgeForgottenKeys;
pub(crate) use request::CONTENT_TYPE_HEADER;
pub use request::{HttpRequest, HttpResponse, IDEMPOTENCY_KEY_HEADER};

#[cfg(test)]
mod tests;
