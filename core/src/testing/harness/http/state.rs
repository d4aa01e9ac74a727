//! The HTTP harness's world: its actions ([`HttpAction`], the faults F5-F8 among them), the
//! requests in flight, what each client knows, and the whole state the model steps.

use crate::idempotency::HttpResponse;
use crate::ids::{Tick, TxId};
use crate::store::Store;
use crate::testing::harness::{HarnessStep, HarnessViolation};

/// One step of the HTTP harness's world.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HttpAction {
    /// The client of `operation` sends its request for the first time.
    Send {
        /// The operation, from 0.
        operation: usize,
    },
    /// Request `attempt` (an index into the requests in flight) runs one statement.
    Step {
        /// The request.
        attempt: usize,
    },
    /// The answer of request `attempt` reaches its client.
    Deliver {
        /// The request.
        attempt: usize,
    },
    /// The client of `operation`, without a final answer and with no request in flight, sends
    /// its request again, same key, same payload.
    Retry {
        /// The operation.
        operation: usize,
    },
    /// Nothing runs and a client waits out its backoff: the clock moves to `to`.
    AdvanceClock {
        /// The new time.
        to: Tick,
    },
    /// F5: the network loses the answer of request `attempt`.
    LoseResponse {
        /// The request.
        attempt: usize,
    },
    /// F6: the client of `operation` sends its request again while one is in flight.
    DoubleSubmit {
        /// The operation.
        operation: usize,
    },
    /// F7: `operation`'s key, which has its answer, is sent with another payload.
    ReuseKey {
        /// The operation whose key is reused.
        operation: usize,
    },
    /// F8: the API crashes while running request `attempt`: its open transaction rolls back
    /// and it never answers.
    Crash {
        /// The request.
        attempt: usize,
    },
}

impl HarnessStep for HttpAction {
    /// F5-F8.
    fn is_fault(&self) -> bool {
        matches!(
            self,
            HttpAction::LoseResponse { .. }
                | HttpAction::DoubleSubmit { .. }
                | HttpAction::ReuseKey { .. }
                | HttpAction::Crash { .. }
        )
    }
}

/// Where one request in flight is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AttemptState<L> {
    /// Running through the plug.
    Running {
        /// The plug's step machine (the layer or the naive twin, with the handler inside).
        layer: L,
        /// Statements run.
        steps: u32,
        /// The transaction whose row lock its last statement waited for, if it waits.
        waiting_for: Option<TxId>,
    },
    /// Answered; the answer is on its way to the client.
    Answered {
        /// The answer.
        response: HttpResponse,
    },
}

/// One request in flight.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HttpAttempt<L> {
    /// The operation whose key it carries.
    pub(crate) operation: usize,
    /// Whether it carries another payload under that key (F7).
    pub(crate) reused_key: bool,
    /// Where it is.
    pub(crate) state: AttemptState<L>,
}

/// What one operation's client knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ClientState {
    /// Requests sent, the first included.
    pub(crate) attempts: u32,
    /// Whether it has a final answer.
    pub(crate) answered: bool,
    /// After a 409 or a 5xx: it retries no earlier than this.
    pub(crate) retry_at: Option<Tick>,
}

/// The HTTP harness's world.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HttpHarnessState<L> {
    /// The store.
    pub(crate) store: Store,
    /// The clock.
    pub(crate) now: Tick,
    /// One client per operation.
    pub(crate) clients: Vec<ClientState>,
    /// The requests in flight, in the order they were sent.
    pub(crate) attempts: Vec<HttpAttempt<L>>,
    /// Per operation, the first final answer its key got (status and body).
    pub(crate) key_answers: Vec<Option<(u16, String)>>,
    /// Lost responses taken.
    pub(crate) lost_responses: u32,
    /// Double submits taken.
    pub(crate) double_submits: u32,
    /// Key reuses taken.
    pub(crate) key_reuses: u32,
    /// Crashes taken.
    pub(crate) crashes: u32,
    /// What went wrong, if something did (the schedule ends there).
    pub(crate) violation: Option<HarnessViolation>,
}
