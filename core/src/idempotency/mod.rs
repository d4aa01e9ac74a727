//! Pattern P3: the HTTP `Idempotency-Key` layer (the seed's third fragment, `IdempotencyFilter`)
//! and its naive twin, independent of any web framework.
//!
//! A request ([`HttpRequest`]) goes through an [`ApiLayer`] to a business handler, which is any
//! step machine answering an [`HttpResponse`] (the example is [`CreateCharge`]). The idempotent
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

mod api;
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

pub use api::{ApiLayer, HandledRequest, handle_request};
pub use charge::{
    CHARGES_PATH, ChargeCreatedBody, ChargeRequestBody, CreateCharge, CreateChargeError,
    CreateChargeState, charge_request,
};
pub use config::{Config, FailurePolicy, Implementation, lease_holds};
pub use error::IdempotencyError;
pub use event::{FoundKey, IdempotencyEvent};
pub use fingerprint::{
    FINGERPRINT_PREFIX, SHORT_FINGERPRINT_HEX_DIGITS, fingerprint, fingerprint_of_parts,
    short_fingerprint,
};
pub use key::{KeyHeaderError, REJECTED_VALUE_CHARS_MAX, parse_idempotency_key, parse_key_value};
pub use layer::{
    AfterReservation, Completion, IdempotencyLayer, LayerState, describe_response,
    next_fencing_token,
};
pub use naive::NaiveLayer;
pub use problem::{PROBLEM_CONTENT_TYPE, Problem, ProblemType, problem_response};
pub use purge::{PurgeForgottenKeys, PurgeState, purge_forgotten_keys};
pub use request::{
    CONTENT_TYPE_HEADER, HttpRequest, HttpResponse, IDEMPOTENCY_KEY_HEADER, header_values,
};

#[cfg(test)]
mod tests;
