//! Why an action cannot be applied ([`ApplyError`]) and what it was aimed at ([`Target`]).

use std::fmt;

use thiserror::Error;

use crate::history::HistoryError;
use crate::sim::action::{Action, AttemptId, EntryId, InstanceId, RequestIndex};
use crate::store::StoreError;

/// Why an action could not be applied. The world may have been changed by the part of the
/// step that ran before a limit was hit; the simulator stops there.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ApplyError {
    /// The action is not enabled in this state.
    #[error("the action {action:?} is not enabled now")]
    NotEnabled {
        /// The action.
        action: Action,
    },
    /// The broker's queue is full.
    #[error("the broker's queue holds {queue_len_max} entries, its limit")]
    QueueFull {
        /// The limit.
        queue_len_max: usize,
    },
    /// The history is full.
    #[error(transparent)]
    History(#[from] HistoryError),
    /// A limit of the store (`shop.store`: open transactions, rows per table) refused one of
    /// the step's statements. Whoever ran it may have turned the refusal into an answer (a
    /// 500) or a failed delivery, which would blame the shop for the store's size; so the step
    /// fails instead, as at the broker's or the history's limit, and no invariant judges it.
    #[error("the store's limit was reached: {0}")]
    StoreLimit(StoreError),
    /// The action names something the world does not hold. [`World::apply`] applies only
    /// enabled actions, whose targets exist, so only a bug of the simulator gets here (debug
    /// builds assert it never happens).
    #[error("the action's target, {target}, is not in the world")]
    MissingTarget {
        /// What is missing.
        target: Target,
    },
}

/// Something an action names by id: what [`ApplyError::MissingTarget`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A client's request.
    Request(RequestIndex),
    /// A send running in the API.
    Attempt(AttemptId),
    /// An answer on the network.
    Answer(AttemptId),
    /// A copy of a message in the broker.
    Entry(EntryId),
    /// A consumer instance.
    Instance(InstanceId),
    /// The delivery a consumer instance is processing.
    Delivery(InstanceId),
    /// The relay's run.
    Relay,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Request(request) => write!(f, "{request}"),
            Target::Attempt(attempt) => write!(f, "{attempt} in the API"),
            Target::Answer(attempt) => write!(f, "the answer to {attempt}"),
            Target::Entry(entry) => write!(f, "{entry}"),
            Target::Instance(instance) => write!(f, "{instance}"),
            Target::Delivery(instance) => write!(f, "the delivery of {instance}"),
            Target::Relay => f.write_str("the relay's run"),
        }
    }
}

/// The error for a target an enabled action names and the world does not hold.
pub(crate) fn missing(target: Target) -> ApplyError {
    ApplyError::MissingTarget { target }
}
