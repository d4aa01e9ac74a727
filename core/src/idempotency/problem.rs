//! Error responses in the style of RFC 9457 ("Problem Details for HTTP APIs").
//!
//! Every error the layer answers is a JSON object with `type`, `title`, `status` and `detail`,
//! sent as `application/problem+json`. The `type` is a `tag:` URI (RFC 4151), which RFC 9457
//! suggests for problem types that are not meant to be dereferenced; `title` is fixed per type;
//! `detail` says what was wrong with this very request (which key, which lease, which
//! fingerprint). The kinds of problem are a closed enum, so the set of error answers is visible
//! in one place.

use serde::{Deserialize, Serialize};

use crate::idempotency::request::{CONTENT_TYPE_HEADER, HttpResponse};

/// The media type of a problem body.
pub(crate) const PROBLEM_CONTENT_TYPE: &str = "application/problem+json";

/// The kinds of problem the layer and its example handler answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ProblemType {
    /// 400: no `Idempotency-Key` header.
    IdempotencyKeyMissing,
    /// 400: the `Idempotency-Key` header is not one UUID.
    IdempotencyKeyInvalid,
    /// 409: a request with this key is still being processed (its lease holds).
    IdempotencyKeyInProgress,
    /// 409: a concurrent request reserved the key between this request's read and its insert.
    IdempotencyKeyReservedConcurrently,
    /// 409: this request's lease ran out and another request took the key over; this
    /// request's result was not kept.
    IdempotencyKeyTakenOver,
    /// 422: the key was first used with a different request.
    IdempotencyKeyReused,
    /// 400: the handler could not read the request body.
    RequestBodyInvalid,
    /// 500: the handler failed.
    HandlerFailed,
}

impl ProblemType {
    /// The problem's `type` URI.
    pub(crate) fn type_uri(self) -> &'static str {
        match self {
            ProblemType::IdempotencyKeyMissing => {
                "tag:idempotency-lab,2025:idempotency-key-missing"
            }
            ProblemType::IdempotencyKeyInvalid => {
                "tag:idempotency-lab,2025:idempotency-key-invalid"
            }
            ProblemType::IdempotencyKeyInProgress => {
                "tag:idempotency-lab,2025:idempotency-key-in-progress"
            }
            ProblemType::IdempotencyKeyReservedConcurrently => {
                "tag:idempotency-lab,2025:idempotency-key-reserved-concurrently"
            }
            ProblemType::IdempotencyKeyTakenOver => {
                "tag:idempotency-lab,2025:idempotency-key-taken-over"
            }
            ProblemType::IdempotencyKeyReused => "tag:idempotency-lab,2025:idempotency-key-reused",
            ProblemType::RequestBodyInvalid => "tag:idempotency-lab,2025:request-body-invalid",
            ProblemType::HandlerFailed => "tag:idempotency-lab,2025:handler-failed",
        }
    }

    /// The problem's `title`: the same for every occurrence of the type.
    pub(crate) fn title(self) -> &'static str {
        match self {
            ProblemType::IdempotencyKeyMissing => "Idempotency-Key header is missing",
            ProblemType::IdempotencyKeyInvalid => "Idempotency-Key header is invalid",
            ProblemType::IdempotencyKeyInProgress => {
                "A request with this Idempotency-Key is in progress"
            }
            ProblemType::IdempotencyKeyReservedConcurrently => {
                "A concurrent request reserved this Idempotency-Key"
            }
            ProblemType::IdempotencyKeyTakenOver => {
                "The lease on this Idempotency-Key was taken over"
            }
            ProblemType::IdempotencyKeyReused => "Idempotency-Key reused with a different request",
            ProblemType::RequestBodyInvalid => "Request body is invalid",
            ProblemType::HandlerFailed => "The request failed",
        }
    }

    /// The HTTP status the problem is answered with.
    pub(crate) fn status(self) -> u16 {
        match self {
            ProblemType::IdempotencyKeyMissing
            | ProblemType::IdempotencyKeyInvalid
            | ProblemType::RequestBodyInvalid => 400,
            ProblemType::IdempotencyKeyInProgress
            | ProblemType::IdempotencyKeyReservedConcurrently
            | ProblemType::IdempotencyKeyTakenOver => 409,
            ProblemType::IdempotencyKeyReused => 422,
            ProblemType::HandlerFailed => 500,
        }
    }
}

/// A problem details object (RFC 9457), in the member order it is serialized in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Problem {
    /// The problem type's URI.
    #[serde(rename = "type")]
    pub(crate) type_uri: String,
    /// The problem type's fixed title.
    pub(crate) title: String,
    /// The HTTP status.
    pub(crate) status: u16,
    /// What was wrong with this request.
    pub(crate) detail: String,
}

impl Problem {
    /// A problem of `problem_type`, with `detail` saying what was wrong.
    pub(crate) fn new(problem_type: ProblemType, detail: impl Into<String>) -> Problem {
        Problem {
            type_uri: problem_type.type_uri().to_owned(),
            title: problem_type.title().to_owned(),
            status: problem_type.status(),
            detail: detail.into(),
        }
    }

    /// The problem as a response: its status, `content-type: application/problem+json`, and
    /// the JSON body.
    pub(crate) fn to_response(&self) -> HttpResponse {
        // A struct of strings and a number always serializes; the fallback is never used.
        let body = serde_json::to_string(self).unwrap_or_else(|_| String::from("{}"));
        HttpResponse {
            status: self.status,
            headers: vec![(CONTENT_TYPE_HEADER.to_owned(), PROBLEM_CONTENT_TYPE.to_owned())],
            body,
        }
    }
}

/// The response for a problem of `problem_type` with `detail`.
pub(crate) fn problem_response(
    problem_type: ProblemType,
    detail: impl Into<String>,
) -> HttpResponse {
    Problem::new(problem_type, detail).to_response()
}
