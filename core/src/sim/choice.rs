//! A learner's choice anchored to what it hits, so that the same choice means the same thing
//! in both twins of a pattern.
//!
//! An [`Action`] names its target by a number drawn during the run ([`AttemptId`],
//! [`EntryId`]): "attempt 3", "entry 2". Those numbers differ as soon as two runs differ (the
//! naive and the idempotent twin run different statements), so a choice kept as an action
//! would hit something else, or nothing, after a pattern switch. An [`AnchoredAction`] names
//! the same target by meaning instead, as a scenario's injections do:
//! - a send of a request: the request and the send's number ([`SendRef`]: "the 2nd send of
//!   request 0");
//! - a copy of a message: the message ([`MessageAnchor`]: the `OrderPlaced` of request 0) and
//!   which of its copies in the queue ([`CopyRef`]);
//! - a delivery: the message and the delivery's number ([`DeliveryRef`]), whichever consumer
//!   instance has it;
//! - a request, a consumer instance, the relay, the retention job and the clock as they are.
//!
//! [`anchor`] turns an action into its anchored form in the world it is taken in;
//! [`AnchoredAction::resolve`] turns it back into the action it means in a world, if that
//! world holds its target. In the world it was anchored in, resolving gives the action back
//! (a test holds this for every enabled action of every lesson).

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;
use crate::sim::action::{Action, AttemptId, EntryId, HoldRelease, InstanceId, RequestIndex};
use crate::sim::world::World;

/// A broker message, by where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageAnchor {
    /// The `OrderPlaced` of the order a `POST /orders` request places first (the same in
    /// both twins: its id is drawn when the world is made).
    OrderPlacedOf(RequestIndex),
    /// Any other message by its id (a second order a naive retry placed): it exists only in
    /// runs that drew it.
    Id(MessageId),
}

/// One send of a request: its first send is 1, a retry or a double submit's copy the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendRef {
    /// The request.
    pub request: RequestIndex,
    /// Which send, from 1.
    pub send: u32,
}

/// One copy of a message in the broker: the `copy`-th of its copies in the queue now (0: the
/// oldest), in the order they were enqueued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CopyRef {
    /// The message.
    pub message: MessageAnchor,
    /// Which of its queued copies, from 0.
    pub copy: u32,
}

/// One delivery of a message to a consumer instance: deliveries are numbered from 1 over all
/// the message's copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeliveryRef {
    /// The message.
    pub message: MessageAnchor,
    /// Which delivery, from 1.
    pub delivery: u32,
}

/// An [`Action`] with its targets named by meaning (see the module's documentation). The
/// variants are those of [`Action`], with the same JSON names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnchoredAction {
    /// The request's first send.
    ClientSend {
        /// The request.
        request: RequestIndex,
    },
    /// The request's client times out.
    ClientTimeout {
        /// The request.
        request: RequestIndex,
    },
    /// The request's client retries.
    ClientRetry {
        /// The request.
        request: RequestIndex,
    },
    /// The API runs one statement of this send.
    ApiStep {
        /// The send.
        send: SendRef,
    },
    /// The network brings the answer to this send.
    DeliverResponse {
        /// The send.
        send: SendRef,
    },
    /// The relay runs one statement.
    RelayStep,
    /// The broker delivers this copy to this instance.
    BrokerDeliver {
        /// The copy.
        copy: CopyRef,
        /// The instance.
        instance: InstanceId,
    },
    /// This instance runs one statement.
    ConsumerStep {
        /// The instance.
        instance: InstanceId,
    },
    /// The retention job runs one statement.
    PurgeStep,
    /// The clock's advance to its next deadline, however far that is in the run.
    AdvanceClock,
    /// F1: a second copy of this copy.
    DuplicateMessage {
        /// The copy.
        copy: CopyRef,
    },
    /// F2: the instance with this delivery crashes after its commit.
    CrashConsumerAfterCommit {
        /// The delivery.
        delivery: DeliveryRef,
    },
    /// F3: the instance with this delivery crashes before its commit.
    CrashConsumerBeforeCommit {
        /// The delivery.
        delivery: DeliveryRef,
    },
    /// F4: this copy, in flight, to this instance too.
    DeliverConcurrently {
        /// The copy.
        copy: CopyRef,
        /// The instance.
        instance: InstanceId,
    },
    /// F5: the answer to this send is lost.
    LoseResponse {
        /// The send.
        send: SendRef,
    },
    /// F6: the request's first send, twice.
    DoubleSubmit {
        /// The request.
        request: RequestIndex,
    },
    /// F7: the request sent with the key of `key_of`.
    SendWithKeyOf {
        /// The request.
        request: RequestIndex,
        /// The request whose key is reused.
        key_of: RequestIndex,
    },
    /// F8: the API crashes during this send.
    CrashApi {
        /// The send.
        send: SendRef,
    },
    /// F9: this copy is held until `until`.
    HoldMessage {
        /// The copy.
        copy: CopyRef,
        /// Until when.
        until: HoldRelease,
    },
    /// F10: this copy comes again after the retention window.
    DuplicateAfterRetention {
        /// The copy.
        copy: CopyRef,
    },
    /// F11: the request retried with a new key.
    RetryWithNewKey {
        /// The request.
        request: RequestIndex,
    },
    /// F12: the relay crashes after publishing, before marking.
    CrashRelay,
}

/// A learner's choice: an anchored action and the step it was taken at in the run it was
/// made in (from 1). In another run (another twin, another seed) the step is where to look
/// for the target first; see [`crate::sim::Run`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserChoice {
    /// The step's number, from 1.
    pub step: usize,
    /// What the learner did.
    pub action: AnchoredAction,
}

/// `action`'s anchored form in `world`, the world it is taken in; `None` if `world` does not
/// hold its target (the action could not be taken there either).
pub fn anchor(world: &World, action: &Action) -> Option<AnchoredAction> {
    use AnchoredAction as A;
    let send = |attempt: &AttemptId| send_of(world, *attempt);
    let copy = |entry: &EntryId| copy_of(world, *entry);
    Some(match action {
        Action::ClientSend { request } => A::ClientSend { request: *request },
        Action::ClientTimeout { request } => A::ClientTimeout { request: *request },
        Action::ClientRetry { request } => A::ClientRetry { request: *request },
        Action::ApiStep { attempt } => A::ApiStep { send: send(attempt)? },
        Action::DeliverResponse { attempt } => A::DeliverResponse { send: send(attempt)? },
        Action::RelayStep => A::RelayStep,
        Action::BrokerDeliver { entry, instance } => {
            A::BrokerDeliver { copy: copy(entry)?, instance: *instance }
        }
        Action::ConsumerStep { instance } => A::ConsumerStep { instance: *instance },
        Action::PurgeStep => A::PurgeStep,
        Action::AdvanceClock { .. } => A::AdvanceClock,
        Action::DuplicateMessage { entry } => A::DuplicateMessage { copy: copy(entry)? },
        Action::CrashConsumerAfterCommit { instance } => {
            A::CrashConsumerAfterCommit { delivery: delivery_of(world, *instance)? }
        }
        Action::CrashConsumerBeforeCommit { instance } => {
            A::CrashConsumerBeforeCommit { delivery: delivery_of(world, *instance)? }
        }
        Action::DeliverConcurrently { entry, instance } => {
            A::DeliverConcurrently { copy: copy(entry)?, instance: *instance }
        }
        Action::LoseResponse { attempt } => A::LoseResponse { send: send(attempt)? },
        Action::DoubleSubmit { request } => A::DoubleSubmit { request: *request },
        Action::SendWithKeyOf { request, key_of } => {
            A::SendWithKeyOf { request: *request, key_of: *key_of }
        }
        Action::CrashApi { attempt } => A::CrashApi { send: send(attempt)? },
        Action::HoldMessage { entry, until } => {
            A::HoldMessage { copy: copy(entry)?, until: until.clone() }
        }
        Action::DuplicateAfterRetention { entry } => {
            A::DuplicateAfterRetention { copy: copy(entry)? }
        }
        Action::RetryWithNewKey { request } => A::RetryWithNewKey { request: *request },
        Action::CrashRelay => A::CrashRelay,
    })
}

impl AnchoredAction {
    /// The action this means in `world`, if `world` holds its target. Whether the action is
    /// enabled there is [`World::is_enabled`]'s to say.
    pub(crate) fn resolve(&self, world: &World) -> Option<Action> {
        use AnchoredAction as A;
        let attempt = |send: &SendRef| attempt_of(world, *send);
        let entry = |copy: &CopyRef| entry_of(world, *copy);
        Some(match self {
            A::ClientSend { request } => Action::ClientSend { request: *request },
            A::ClientTimeout { request } => Action::ClientTimeout { request: *request },
            A::ClientRetry { request } => Action::ClientRetry { request: *request },
            A::ApiStep { send } => Action::ApiStep { attempt: attempt(send)? },
            A::DeliverResponse { send } => {
                Action::DeliverResponse { attempt: response_of(world, *send)? }
            }
            A::RelayStep => Action::RelayStep,
            A::BrokerDeliver { copy, instance } => {
                Action::BrokerDeliver { entry: entry(copy)?, instance: *instance }
            }
            A::ConsumerStep { instance } => Action::ConsumerStep { instance: *instance },
            A::PurgeStep => Action::PurgeStep,
            A::AdvanceClock => world
                .enabled_normal_actions()
                .into_iter()
                .find(|action| matches!(action, Action::AdvanceClock { .. }))?,
            A::DuplicateMessage { copy } => Action::DuplicateMessage { entry: entry(copy)? },
            A::CrashConsumerAfterCommit { delivery } => {
                Action::CrashConsumerAfterCommit { instance: instance_of(world, *delivery)? }
            }
            A::CrashConsumerBeforeCommit { delivery } => {
                Action::CrashConsumerBeforeCommit { instance: instance_of(world, *delivery)? }
            }
            A::DeliverConcurrently { copy, instance } => {
                Action::DeliverConcurrently { entry: entry(copy)?, instance: *instance }
            }
            A::LoseResponse { send } => {
                Action::LoseResponse { attempt: response_of(world, *send)? }
            }
            A::DoubleSubmit { request } => Action::DoubleSubmit { request: *request },
            A::SendWithKeyOf { request, key_of } => {
                Action::SendWithKeyOf { request: *request, key_of: *key_of }
            }
            A::CrashApi { send } => Action::CrashApi { attempt: attempt(send)? },
            A::HoldMessage { copy, until } => {
                Action::HoldMessage { entry: entry(copy)?, until: until.clone() }
            }
            A::DuplicateAfterRetention { copy } => {
                Action::DuplicateAfterRetention { entry: entry(copy)? }
            }
            A::RetryWithNewKey { request } => Action::RetryWithNewKey { request: *request },
            A::CrashRelay => Action::CrashRelay,
        })
    }

    /// The action this means in `world` if it is enabled there now.
    pub(crate) fn enabled_in(&self, world: &World) -> Option<Action> {
        self.resolve(world).filter(|action| world.is_enabled(action))
    }
}

impl std::fmt::Display for MessageAnchor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageAnchor::OrderPlacedOf(request) => write!(f, "the OrderPlaced of {request}"),
            MessageAnchor::Id(id) => write!(f, "message {}", id.0),
        }
    }
}

impl std::fmt::Display for SendRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "send {} of {}", self.send, self.request)
    }
}

impl std::fmt::Display for CopyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "queued copy {} of {}", self.copy.saturating_add(1), self.message)
    }
}

impl std::fmt::Display for DeliveryRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "delivery {} of {}", self.delivery, self.message)
    }
}

fn message_anchor(world: &World, message_id: MessageId) -> MessageAnchor {
    world
        .clients()
        .iter()
        .position(|client| client.planned_order.is_some_and(|order| order.message_id == message_id))
        .map_or(MessageAnchor::Id(message_id), |index| {
            MessageAnchor::OrderPlacedOf(RequestIndex(index))
        })
}

fn message_id(world: &World, message: MessageAnchor) -> Option<MessageId> {
    match message {
        MessageAnchor::OrderPlacedOf(request) => {
            world.planned_order(request).map(|planned| planned.message_id)
        }
        MessageAnchor::Id(id) => Some(id),
    }
}

fn send_of(world: &World, attempt: AttemptId) -> Option<SendRef> {
    let (request, send) = match world.attempts().get(&attempt) {
        Some(running) => (running.request, running.send_number),
        None => {
            let answer = world.responses().get(&attempt)?;
            (answer.request, answer.send_number)
        }
    };
    Some(SendRef { request, send })
}

fn attempt_of(world: &World, send: SendRef) -> Option<AttemptId> {
    world
        .attempts()
        .iter()
        .find(|(_, running)| running.request == send.request && running.send_number == send.send)
        .map(|(id, _)| *id)
}

fn response_of(world: &World, send: SendRef) -> Option<AttemptId> {
    world
        .responses()
        .iter()
        .find(|(_, answer)| answer.request == send.request && answer.send_number == send.send)
        .map(|(id, _)| *id)
}

fn copy_of(world: &World, entry: EntryId) -> Option<CopyRef> {
    let message_id = world.broker().entries.get(&entry)?.message_id;
    let copy = world.broker().entries_of(message_id).position(|(id, _)| id == entry)?;
    Some(CopyRef { message: message_anchor(world, message_id), copy: u32::try_from(copy).ok()? })
}

fn entry_of(world: &World, copy: CopyRef) -> Option<EntryId> {
    let message_id = message_id(world, copy.message)?;
    let index = usize::try_from(copy.copy).ok()?;
    world.broker().entries_of(message_id).nth(index).map(|(id, _)| id)
}

fn delivery_of(world: &World, instance: InstanceId) -> Option<DeliveryRef> {
    let delivery = world.consumers().get(instance.0)?.delivery.as_ref()?;
    Some(DeliveryRef {
        message: message_anchor(world, delivery.message_id),
        delivery: delivery.delivery_number,
    })
}

fn instance_of(world: &World, delivery: DeliveryRef) -> Option<InstanceId> {
    let message_id = message_id(world, delivery.message)?;
    world
        .consumers()
        .iter()
        .position(|instance| {
            instance.delivery.as_ref().is_some_and(|current| {
                current.message_id == message_id && current.delivery_number == delivery.delivery
            })
        })
        .map(InstanceId)
}
