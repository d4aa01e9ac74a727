//! Reading the `Idempotency-Key` header: the first statement of the layer, with no store access.
//!
//! The seed accepts only a UUID (`Guid.TryParse`). The IETF draft "The Idempotency-Key HTTP
//! Header Field" sends the key as a structured-field string, in double quotes
//! (`Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`); both spellings are accepted.
//! Surrounding whitespace is not part of an HTTP field value and is trimmed. The key must appear
//! once: two `Idempotency-Key` headers are ambiguous and rejected, not silently merged.

use serde::{Deserialize, Serialize};
use thiserror::Error;
use uuid::Uuid;

use crate::idempotency::request::{HttpRequest, IDEMPOTENCY_KEY_HEADER};
use crate::ids::IdempotencyKey;

/// How many characters of a rejected header value a problem or an event repeats: enough to
/// recognise it, not so many that a hostile header fills the trace.
pub(crate) const REJECTED_VALUE_CHARS_MAX: usize = 64;

/// Why the `Idempotency-Key` header was rejected; the layer answers 400 with this as detail.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum KeyHeaderError {
    /// The request has no `Idempotency-Key` header.
    #[error(
        "the request has no Idempotency-Key header; send one with a UUID, made once per operation and reused on every retry of it"
    )]
    Missing,
    /// The request has the header more than once.
    #[error("the request has {count} Idempotency-Key headers; send exactly one")]
    Repeated {
        /// How many there were.
        count: usize,
    },
    /// The header's value is not a UUID.
    #[error(
        "the Idempotency-Key header must be a UUID, such as \"8e03978e-40d5-43e8-bc93-6894a57f9324\"; got {value:?}"
    )]
    NotAUuid {
        /// The value sent, cut to [`REJECTED_VALUE_CHARS_MAX`] characters.
        value: String,
    },
}

/// Reads the idempotency key of `request`.
pub fn parse_idempotency_key(request: &HttpRequest) -> Result<IdempotencyKey, KeyHeaderError> {
    let mut values = request.header_values(IDEMPOTENCY_KEY_HEADER);
    let Some(value) = values.next() else {
        return Err(KeyHeaderError::Missing);
    };
    let others = values.count();
    if others > 0 {
        return Err(KeyHeaderError::Repeated { count: others + 1 });
    }
    parse_key_value(value)
}

/// Reads one header value as a key: a UUID, bare or in double quotes, whitespace trimmed.
pub(crate) fn parse_key_value(value: &str) -> Result<IdempotencyKey, KeyHeaderError> {
    let trimmed = value.trim();
    let unquoted =
        trimmed.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')).unwrap_or(trimmed);
    Uuid::try_parse(unquoted).map(IdempotencyKey).map_err(|_| KeyHeaderError::NotAUuid {
        value: cut_to_chars(value, REJECTED_VALUE_CHARS_MAX),
    })
}

/// `text` cut to at most `chars_max` characters (never inside a character), with `…` added
/// when something was cut.
pub(crate) fn cut_to_chars(text: &str, chars_max: usize) -> String {
    match text.char_indices().nth(chars_max) {
        Some((byte_index, _)) => {
            let mut cut = text.get(..byte_index).unwrap_or_default().to_owned();
            cut.push('…');
            cut
        }
        None => text.to_owned(),
    }
}
