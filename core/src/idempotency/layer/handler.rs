//! The business handler behind the layer: one of its statements at a time, a typed failure
//! turned into its 5xx problem response, and the wording of responses for events and traces.
//! Shared by the idempotent layer and its naive twin.

use crate::idempotency::problem::{ProblemType, problem_response};
use crate::idempotency::request::HttpResponse;
use crate::ids::Tick;
use crate::step::{Step, Steps};
use crate::store::Store;

/// A business handler behind the API: a step machine that answers with an [`HttpResponse`],
/// whose typed failure can be told in words (the 500's detail).
pub trait HttpHandler: Steps<Output = HttpResponse, Error: std::fmt::Display> {}

impl<H> HttpHandler for H
where
    H: Steps<Output = HttpResponse>,
    H::Error: std::fmt::Display,
{
}

/// Runs one statement of the business handler. A handler failure becomes its 5xx problem
/// response, after making sure the handler's transaction is rolled back (its contract is to
/// roll back before failing). Shared by the idempotent layer and its naive twin.
pub(crate) fn step_handler<H: HttpHandler>(
    handler: &mut H,
    store: &mut Store,
    now: Tick,
) -> Step<HttpResponse> {
    match handler.step(store, now) {
        Ok(step) => step,
        Err(error) => {
            if let Some(handler_tx) = handler.open_transaction() {
                let _ = store.rollback(handler_tx);
            }
            Step::Done(handler_failure_response(&error))
        }
    }
}

pub(crate) fn handler_failure_response(error: &impl std::fmt::Display) -> HttpResponse {
    problem_response(ProblemType::HandlerFailed, format!("the handler failed: {error}"))
}

/// What a failure response says, for the `HandlerFailed` event: the problem's `detail` if the
/// body is a problem, else the start of the body.
pub(crate) fn failure_detail(response: &HttpResponse) -> String {
    serde_json::from_str::<crate::idempotency::problem::Problem>(&response.body)
        .map(|problem| problem.detail)
        .unwrap_or_else(|_| crate::idempotency::key::cut_to_chars(&response.body, 120))
}

/// A response summed up for a trace line: `(201, 2 headers, 87-byte body)`.
#[cfg(test)]
pub(crate) fn describe_response(response: &HttpResponse) -> String {
    format!(
        "({}, {} header{}, {}-byte body)",
        response.status,
        response.headers.len(),
        if response.headers.len() == 1 { "" } else { "s" },
        response.body.len()
    )
}
