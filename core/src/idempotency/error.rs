//! The layer's own typed failure: what stops it from answering at all.
//!
//! Almost everything that goes wrong in a request is an answer, not an error: a bad key is a
//! 400, a busy key a 409, a failed handler a 500 (see [`super::problem`]). What remains is the
//! store refusing one of the layer's own statements (too many open transactions, a full table)
//! and a caller stepping a request that has already answered.

use thiserror::Error;

use crate::store::StoreError;

/// Why the layer stopped without an answer. Its open transaction, if any, has been rolled back:
/// a key it had reserved stays in progress until its lease ends, as after a crash.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IdempotencyError {
    /// One of the layer's own statements failed in the store.
    #[error("the idempotency layer's statement failed: {0}")]
    Store(#[from] StoreError),
    /// `step` was called after the request had answered.
    #[error("the request has already answered; it has no further step")]
    AlreadyDone,
}
