//! The clients: one per scripted request, each with its retry policy's state.
//!
//! A client sends its request once its start tick has come and the request it waits for has
//! its answer; then it waits for an answer until its timeout, retries after a timeout or after
//! a 409 or 5xx answer (with the same key, or a new one if its policy or fault F11 says so),
//! and gives up after `attempts_max` sends. A late answer to a send it no longer waits for is
//! ignored (the history has it all the same: the API gave it).

use serde::{Deserialize, Serialize};

use crate::ids::{IdempotencyKey, MessageId, OrderId, Tick};
use crate::sim::action::AttemptId;
use crate::sim::scenario::RequestSpec;

/// Where a client is with its request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ClientState {
    /// Not sent yet.
    NotSent,
    /// Sent; waiting for an answer to one of these sends until `deadline`.
    Awaiting {
        /// The sends it waits for (two after a double submit).
        attempts: Vec<AttemptId>,
        /// When it stops waiting.
        deadline: Tick,
    },
    /// Will send again at `retry_at`.
    BackingOff {
        /// When.
        retry_at: Tick,
    },
    /// Got its final answer.
    Answered {
        /// Its status.
        status: u16,
    },
    /// Ran out of attempts.
    GaveUp,
}

/// The ids the server will use for the first order this request places, drawn when the world
/// is made, so that a payment or a cancel can name the order before it exists (F9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlannedOrder {
    /// The order's id.
    pub order_id: OrderId,
    /// Its `OrderPlaced` message's id.
    pub message_id: MessageId,
}

/// One client and its request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClientRequest {
    /// What it sends.
    pub spec: RequestSpec,
    /// The key of its first send, drawn when the world is made.
    pub key: IdempotencyKey,
    /// The key its latest send carried.
    pub current_key: IdempotencyKey,
    /// For `place_order`: the ids of its first order.
    pub planned_order: Option<PlannedOrder>,
    /// Whether a send in flight (or a committed order) holds the planned ids.
    pub planned_order_taken: bool,
    /// How many sends so far.
    pub sends: u32,
    /// Where it is.
    pub state: ClientState,
}

impl ClientRequest {
    /// Whether it has its final answer or gave up.
    pub fn is_finished(&self) -> bool {
        matches!(self.state, ClientState::Answered { .. } | ClientState::GaveUp)
    }
}
