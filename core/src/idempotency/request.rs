//! The HTTP request and response that the idempotency layer sees, free of any web framework.
//!
//! A request is a method, a path, an ordered list of headers and a body; a response is a
//! status, an ordered list of headers and a body. Header names compare case-insensitively, as
//! HTTP says (`Idempotency-Key` and `idempotency-key` are one header); values are kept byte for
//! byte. What the layer stores of a response is the store's [`StoredResponse`]: the two convert
//! into each other without loss, so that a replay is exactly the first answer.

use serde::{Deserialize, Serialize};

use crate::store::StoredResponse;

/// The header that carries the idempotency key.
pub const IDEMPOTENCY_KEY_HEADER: &str = "Idempotency-Key";

/// The header that names a body's media type.
pub(crate) const CONTENT_TYPE_HEADER: &str = "content-type";

/// One HTTP request, as the API receives it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HttpRequest {
    /// The method, such as `POST`; compared as sent (HTTP methods are case-sensitive).
    pub(crate) method: String,
    /// The path, such as `/charges`.
    pub(crate) path: String,
    /// The headers in the order the client sent them; a name may repeat.
    pub(crate) headers: Vec<(String, String)>,
    /// The body, as text.
    pub(crate) body: String,
}

impl HttpRequest {
    /// A request with these parts and no headers.
    pub fn new(
        method: impl Into<String>,
        path: impl Into<String>,
        body: impl Into<String>,
    ) -> Self {
        HttpRequest {
            method: method.into(),
            path: path.into(),
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// This request with one more header, added after the others.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The values of every header named `name` (compared case-insensitively), in order.
    pub(crate) fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        header_values(&self.headers, name)
    }
}

/// One HTTP response, as the API answers it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HttpResponse {
    /// The status code, such as `201`.
    pub status: u16,
    /// The headers in the order they were set.
    pub headers: Vec<(String, String)>,
    /// The body, as text.
    pub body: String,
}

impl HttpResponse {
    /// The value of the first header named `name` (compared case-insensitively), if any.
    #[cfg(test)]
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header_name, _)| header_name.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Whether the status is a server error (5xx), which the failure policy applies to.
    pub(crate) fn is_server_error(&self) -> bool {
        (500..=599).contains(&self.status)
    }
}

impl From<HttpResponse> for StoredResponse {
    fn from(response: HttpResponse) -> StoredResponse {
        StoredResponse { status: response.status, headers: response.headers, body: response.body }
    }
}

impl From<StoredResponse> for HttpResponse {
    fn from(stored: StoredResponse) -> HttpResponse {
        HttpResponse { status: stored.status, headers: stored.headers, body: stored.body }
    }
}

/// The values of every header in `headers` named `name`, compared case-insensitively (ASCII,
/// as HTTP field names are ASCII tokens), in order.
pub(crate) fn header_values<'a>(
    headers: &'a [(String, String)],
    name: &'a str,
) -> impl Iterator<Item = &'a str> + 'a {
    headers
        .iter()
        .filter(move |(header_name, _)| header_name.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}
