//! The clients: one per scripted request, each with its retry policy's state.
//!
//! A client sends its request once its start tick has come and the request it waits for has
//! its answer; then it waits for an answer until its timeout, retries after a timeout or after
//! a 409 or 5xx answer (with the same key, or a new one if its policy or fault F11 says so),
//! and gives up after `attempts_max` sends. A late answer to a send it no longer waits for is
//! ignored (the history has it all the same: the API gave it).
//!
//! The client's faults are its own: a double submit (F6), a send with another request's key
//! (F7) and a retry with a new key (F11).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::history::RequestAttempt;
use crate::ids::{IdempotencyKey, MessageId, OrderId, Tick};
use crate::sim::action::{Action, AttemptId, RequestIndex};
use crate::sim::clock::{Deadline, DeadlineReason};
use crate::sim::scenario::{KeyOnRetry, RequestSpec};
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, World};

/// Where a client is with its request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(crate) enum ClientState {
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
pub(crate) struct PlannedOrder {
    /// The order's id.
    pub(crate) order_id: OrderId,
    /// Its `OrderPlaced` message's id.
    pub(crate) message_id: MessageId,
}

/// One client and its request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct ClientRequest {
    /// What it sends: the scenario's, shared by every copy of the world.
    pub(crate) spec: Arc<RequestSpec>,
    /// The key of its first send, drawn when the world is made.
    pub(crate) key: IdempotencyKey,
    /// The key its latest send carried.
    pub(crate) current_key: IdempotencyKey,
    /// For `place_order`: the ids of its first order.
    pub(crate) planned_order: Option<PlannedOrder>,
    /// Whether a send in flight (or a committed order) holds the planned ids.
    pub(crate) planned_order_taken: bool,
    /// How many sends so far.
    pub(crate) sends: u32,
    /// Where it is.
    pub(crate) state: ClientState,
}

impl ClientRequest {
    /// Whether it has its final answer or gave up.
    pub(crate) fn is_finished(&self) -> bool {
        matches!(self.state, ClientState::Answered { .. } | ClientState::GaveUp)
    }
}

impl World {
    /// Whether `request`'s client has its final answer or gave up.
    pub(super) fn client_finished(&self, request: RequestIndex) -> bool {
        self.clients.get(request.0).is_some_and(ClientRequest::is_finished)
    }

    /// Whether `client` may send for the first time now: its start tick has come and the
    /// request it waits for is finished.
    fn can_send(&self, client: &ClientRequest) -> bool {
        client.state == ClientState::NotSent
            && self.now.0 >= client.spec.send_at_tick
            && self.may_send_after_others(client)
    }

    /// Whether the request `client` waits for, if any, is finished.
    fn may_send_after_others(&self, client: &ClientRequest) -> bool {
        client.spec.after.is_none_or(|after| self.client_finished(after))
    }

    fn retry_due(&self, client: &ClientRequest) -> bool {
        matches!(client.state, ClientState::BackingOff { retry_at } if self.now >= retry_at)
    }

    /// Per client, in request order: a first send, a timeout, a retry.
    pub(super) fn enabled_client_actions(&self, actions: &mut Vec<Action>) {
        for (index, client) in self.clients.iter().enumerate() {
            let request = RequestIndex(index);
            if self.can_send(client) {
                actions.push(Action::ClientSend { request });
            }
            if matches!(client.state, ClientState::Awaiting { deadline, .. } if self.now >= deadline)
            {
                actions.push(Action::ClientTimeout { request });
            }
            if self.retry_due(client) {
                actions.push(Action::ClientRetry { request });
            }
        }
    }

    /// F6 on every request that may be sent now, then F7: each of them with the key of every
    /// other request sent before.
    pub(super) fn enabled_client_faults(&self, actions: &mut Vec<Action>) {
        let sendable: Vec<RequestIndex> = self
            .clients
            .iter()
            .enumerate()
            .filter(|(_, client)| self.can_send(client))
            .map(|(index, _)| RequestIndex(index))
            .collect();
        actions.extend(sendable.iter().map(|request| Action::DoubleSubmit { request: *request }));
        for request in &sendable {
            for (index, other) in self.clients.iter().enumerate() {
                if index != request.0 && other.sends > 0 {
                    actions.push(Action::SendWithKeyOf {
                        request: *request,
                        key_of: RequestIndex(index),
                    });
                }
            }
        }
    }

    /// F11 on every client whose retry is due.
    pub(super) fn enabled_retries_with_new_key(&self, actions: &mut Vec<Action>) {
        for (index, client) in self.clients.iter().enumerate() {
            if self.retry_due(client) {
                actions.push(Action::RetryWithNewKey { request: RequestIndex(index) });
            }
        }
    }

    /// When each client next has something to do: its first send (once the request it waits
    /// for is finished), its timeout, its retry.
    pub(super) fn client_deadlines(&self, deadlines: &mut impl FnMut(Deadline)) {
        for (index, client) in self.clients.iter().enumerate() {
            let request = RequestIndex(index);
            let (at, reason) = match &client.state {
                ClientState::NotSent if self.may_send_after_others(client) => {
                    (Tick(client.spec.send_at_tick), DeadlineReason::RequestDue { request })
                }
                ClientState::Awaiting { deadline, .. } => {
                    (*deadline, DeadlineReason::ClientTimeout { request })
                }
                ClientState::BackingOff { retry_at } => {
                    (*retry_at, DeadlineReason::ClientRetry { request })
                }
                ClientState::NotSent | ClientState::Answered { .. } | ClientState::GaveUp => {
                    continue;
                }
            };
            deadlines(Deadline { at, reason });
        }
    }

    /// The first send, with the request's own key.
    pub(super) fn client_send(
        &mut self,
        request: RequestIndex,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let key = self.client(request)?.key;
        self.send_and_await(request, &[RequestAttempt::First], key, out)
    }

    /// F6: the first send, twice at once, with the same key.
    pub(super) fn double_submit(
        &mut self,
        request: RequestIndex,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let key = self.client(request)?.key;
        let kinds = [RequestAttempt::First, RequestAttempt::Duplicate];
        self.send_and_await(request, &kinds, key, out)
    }

    /// F7: the first send, with the key `key_of` sent last.
    pub(super) fn send_with_key_of(
        &mut self,
        request: RequestIndex,
        key_of: RequestIndex,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let key = self.client(key_of)?.current_key;
        self.send_and_await(request, &[RequestAttempt::First], key, out)
    }

    pub(super) fn client_timeout(
        &mut self,
        request: RequestIndex,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        out.request = Some(request);
        out.events.push(SimEvent::ClientTimedOut { request });
        self.schedule_retry_or_give_up(request, self.now, out)
    }

    /// A retry with the key the retry policy says: the last one, or a new one.
    pub(super) fn client_retry(
        &mut self,
        request: RequestIndex,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let key = match self.config.client.key_on_retry {
            KeyOnRetry::SameKey => self.client(request)?.current_key,
            KeyOnRetry::NewKey => self.new_key(request)?,
        };
        self.send_and_await(request, &[RequestAttempt::Duplicate], key, out)
    }

    /// F11: a retry with a new key, whatever the policy says.
    pub(super) fn retry_with_new_key(
        &mut self,
        request: RequestIndex,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let key = self.new_key(request)?;
        self.send_and_await(request, &[RequestAttempt::Duplicate], key, out)
    }

    /// A key drawn for `request`'s next send (the client must exist: nothing is drawn for a
    /// missing one).
    fn new_key(&mut self, request: RequestIndex) -> Result<IdempotencyKey, ApplyError> {
        self.client(request)?;
        Ok(IdempotencyKey(self.rng.uuid()))
    }

    /// Sends the request once per entry of `kinds`, all with `key`, and waits for them.
    fn send_and_await(
        &mut self,
        request: RequestIndex,
        kinds: &[RequestAttempt],
        key: IdempotencyKey,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let mut attempts = Vec::new();
        for kind in kinds {
            attempts.push(self.send(request, *kind, key, out)?);
        }
        let deadline = self.now.plus(self.config.client.timeout_ticks);
        let client = self.client_mut(request)?;
        client.current_key = key;
        client.state = ClientState::Awaiting { attempts, deadline };
        Ok(())
    }

    fn schedule_retry_or_give_up(
        &mut self,
        request: RequestIndex,
        retry_at: Tick,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let attempts_max = self.config.client.attempts_max;
        let client = self.client_mut(request)?;
        if client.sends < attempts_max {
            client.state = ClientState::BackingOff { retry_at };
            out.events.push(SimEvent::RetryScheduled { request, retry_at });
        } else {
            client.state = ClientState::GaveUp;
            out.events.push(SimEvent::ClientGaveUp { request });
        }
        Ok(())
    }

    /// The client of `request` gets the answer `status` to `attempt`: a late answer is
    /// ignored, a 409 or a 5xx schedules a retry after the backoff, any other is final.
    pub(super) fn client_receives(
        &mut self,
        request: RequestIndex,
        attempt: AttemptId,
        status: u16,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let awaited = matches!(
            &self.client(request)?.state,
            ClientState::Awaiting { attempts, .. } if attempts.contains(&attempt)
        );
        if !awaited {
            out.events.push(SimEvent::LateResponseIgnored { attempt });
            return Ok(());
        }
        if status == 409 || status >= 500 {
            let retry_at = self.now.plus(self.config.client.backoff_ticks);
            return self.schedule_retry_or_give_up(request, retry_at, out);
        }
        self.client_mut(request)?.state = ClientState::Answered { status };
        out.events.push(SimEvent::ClientAnswered { request, status });
        Ok(())
    }
}
