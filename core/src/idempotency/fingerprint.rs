//! The request fingerprint: a stable hash of what makes two requests "the same request".
//!
//! The seed stores `Hash(ctx.Arguments)` and never compares it; here the fingerprint is
//! compared, and the same key with another fingerprint is answered 422. It covers the method,
//! the path and the body, not the headers (a retry may carry another `Date` or trace id).
//!
//! It is SHA-256 (the `sha2` crate) over a length-prefixed encoding, so `("POST", "/ab", "c")`
//! and `("POST", "/a", "bc")` differ, and the value is the same on every platform, natively and
//! in WebAssembly, from one release to the next: `sha256:` then 64 lowercase hex digits. A
//! cryptographic hash rather than a fast one because a collision here would replay one
//! client's response to another request.

use sha2::{Digest, Sha256};

use crate::idempotency::request::HttpRequest;
use crate::store::RequestFingerprint;

/// What every fingerprint starts with: the algorithm, so a stored value says how it was made.
pub(crate) const FINGERPRINT_PREFIX: &str = "sha256:";

/// The domain-separation line hashed before the request's parts; changing the encoding must
/// change it.
const FINGERPRINT_ENCODING: &[u8] = b"idempotency-lab request fingerprint v1\n";

/// How many hex digits [`short_fingerprint`] keeps.
pub(crate) const SHORT_FINGERPRINT_HEX_DIGITS: usize = 12;

/// The fingerprint of `request`: its method, path and body.
pub fn fingerprint(request: &HttpRequest) -> RequestFingerprint {
    fingerprint_of_parts(&request.method, &request.path, &request.body)
}

/// The fingerprint of a request with this method, path and body.
pub(crate) fn fingerprint_of_parts(method: &str, path: &str, body: &str) -> RequestFingerprint {
    let mut hasher = Sha256::new();
    hasher.update(FINGERPRINT_ENCODING);
    for part in [method, path, body] {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let mut text = String::with_capacity(FINGERPRINT_PREFIX.len() + 64);
    text.push_str(FINGERPRINT_PREFIX);
    for byte in digest.iter() {
        text.push(hex_digit(byte >> 4));
        text.push(hex_digit(byte & 0x0f));
    }
    RequestFingerprint(text.into())
}

/// The fingerprint cut to its prefix and first [`SHORT_FINGERPRINT_HEX_DIGITS`] hex digits, for
/// trace lines and problem details that a person reads.
pub(crate) fn short_fingerprint(fingerprint: &RequestFingerprint) -> String {
    let text = &*fingerprint.0;
    let keep = FINGERPRINT_PREFIX.len() + SHORT_FINGERPRINT_HEX_DIGITS;
    match text.get(..keep) {
        Some(short) if text.len() > keep => format!("{short}…"),
        _ => text.to_owned(),
    }
}

fn hex_digit(nibble: u8) -> char {
    char::from_digit(u32::from(nibble), 16).unwrap_or('0')
}
