//! Fencing: the token a request holds its key with ([`next_fencing_token`]), the token of a
//! stored key, and what a request whose lease ended finds when it comes to complete.

use crate::idempotency::event::FoundKey;
use crate::ids::{IdempotencyKey, Tick};
use crate::store::{FencingToken, IdempotencyKeyRow, KeyState};

/// The fencing token of a request that gets a key at `now`, replacing a holder with token
/// `replaced` if there was one: larger than `replaced`, and larger than `now`.
///
/// Drawing tokens from the clock keeps them growing even when the previous token is unknown
/// (the key was released or purged): any earlier holder got its token at an earlier tick, since
/// a lease lasts at least one tick, so its token is at most `now`.
pub(crate) fn next_fencing_token(replaced: Option<FencingToken>, now: Tick) -> FencingToken {
    let from_clock = now.0.saturating_add(1);
    let from_replaced = replaced.map_or(0, |FencingToken(token)| token.saturating_add(1));
    FencingToken(from_clock.max(from_replaced))
}

/// The token of a key in progress; a completed key has none.
pub(super) fn fencing_token_of(row: &IdempotencyKeyRow) -> Option<FencingToken> {
    match row.state {
        KeyState::InProgress { fencing_token, .. } => Some(fencing_token),
        KeyState::Completed { .. } => None,
    }
}

pub(super) fn found_key(row: Option<&IdempotencyKeyRow>) -> FoundKey {
    match row.map(|row| &row.state) {
        None => FoundKey::Absent,
        Some(KeyState::InProgress { fencing_token, .. }) => {
            FoundKey::InProgress { fencing_token: *fencing_token }
        }
        Some(KeyState::Completed { response }) => FoundKey::Completed { status: response.status },
    }
}

pub(super) fn stale_detail(
    key: IdempotencyKey,
    FencingToken(token): FencingToken,
    found: &FoundKey,
) -> String {
    let found_text = match found {
        FoundKey::Absent => "the key is no longer stored (released or forgotten)".to_owned(),
        FoundKey::InProgress { fencing_token: FencingToken(newer) } => {
            format!("another request holds it now with fencing token {newer}")
        }
        FoundKey::Completed { status } => {
            format!("another request completed it with status {status}, which retries replay")
        }
    };
    format!(
        "this request's lease on Idempotency-Key {key} (fencing token {token}) ended before it \
         completed, and {found_text}; this request's result was not stored"
    )
}
