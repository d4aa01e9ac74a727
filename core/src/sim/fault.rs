//! Faults as data in a scenario: explicit injections at a named message or request,
//! and random rates per fault class ([`FaultClass`], beside the invariants).
//!
//! A fault is always an [`crate::sim::Action`] in the end (see `Action::fault_class`). A
//! scenario asks for faults in two ways:
//! - an [`Injection`] names its target ("the `OrderPlaced` of request 0", "the first send of
//!   request 1") and the moment ("after the commit, before the ack, on its first delivery");
//!   the scheduler fires the matching fault action ([`trigger`], beside the injection it
//!   reads, so that an injection is declared, validated and fired in this file) the first
//!   step its trigger holds, once;
//! - [`FaultRates`] give, per fault class, a chance per million that the scheduler takes an
//!   enabled fault action of that class at a step. Rates are integers so that a scenario means
//!   the same on every platform.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::faults::FaultClass;
use crate::ids::MessageId;
use crate::sim::action::{Action, HoldRelease, InstanceId, RequestIndex};
use crate::sim::broker::EntryState;
use crate::sim::consumer::ConsumerMachine;
use crate::sim::json::TagFirst;
use crate::sim::world::World;

/// A broker message named by where it comes from, since its id is drawn during the run.
/// In JSON: `{"order_placed_of": 0}`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageRef {
    /// The `OrderPlaced` message of the first order that this `POST /orders` request places
    /// (its id is drawn when the world is made).
    OrderPlacedOf(RequestIndex),
}

/// Where in a request the API crashes (F8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApiCrashPoint {
    /// After the idempotency key is reserved (committed), before the handler's first statement
    /// (naive twin: before the handler's first statement).
    AfterKeyReserved,
    /// After the handler's transaction committed, before the answer is completed and sent.
    AfterHandlerCommitted,
}

/// One fault at a named target, fired once, the first step its trigger holds. In JSON,
/// tagged by `fault`, which comes first as the lab writes it (see [`TagFirst`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum Injection {
    /// F1: once the message is in the queue, the broker adds a second copy.
    DuplicateDelivery {
        /// The message.
        message: MessageRef,
    },
    /// F2: on the message's `delivery`-th delivery (from 1), the consumer crashes after its
    /// commit, before its ack.
    CrashConsumerAfterCommit {
        /// The message.
        message: MessageRef,
        /// Which delivery, from 1.
        delivery: u32,
    },
    /// F3: on the message's `delivery`-th delivery, the consumer crashes just before `COMMIT`.
    CrashConsumerBeforeCommit {
        /// The message.
        message: MessageRef,
        /// Which delivery, from 1.
        delivery: u32,
    },
    /// F4: once the message is in flight at one instance, another instance gets it too.
    ConcurrentDelivery {
        /// The message.
        message: MessageRef,
    },
    /// F5: the answer to the `attempt`-th send (from 1) of the request is lost.
    LoseResponse {
        /// The request.
        request: RequestIndex,
        /// Which send, from 1.
        attempt: u32,
    },
    /// F6: the request's first send is a double submit.
    DoubleSubmit {
        /// The request.
        request: RequestIndex,
    },
    /// F7: the request is sent with the key of `key_of` (which must have been sent before).
    ReuseKey {
        /// The request.
        request: RequestIndex,
        /// The request whose key is reused.
        key_of: RequestIndex,
    },
    /// F8: the API crashes at `point` during the `attempt`-th send of the request.
    CrashApi {
        /// The request.
        request: RequestIndex,
        /// Which send, from 1.
        attempt: u32,
        /// Where.
        point: ApiCrashPoint,
    },
    /// F9: the message is held until `after_request` has its final answer, so the request
    /// overtakes it.
    DeliverAfter {
        /// The message.
        message: MessageRef,
        /// The request that overtakes it.
        after_request: RequestIndex,
    },
    /// F10: a copy of the message arrives again after the inbox's retention window (counted
    /// from the original's ack).
    DuplicateAfterRetention {
        /// The message.
        message: MessageRef,
    },
    /// F11: the request's first retry uses a new idempotency key.
    RetryWithNewKey {
        /// The request.
        request: RequestIndex,
    },
    /// F12: the relay crashes after publishing the message, before marking it published.
    CrashRelayAfterPublish {
        /// The message.
        message: MessageRef,
    },
}

/// What an injection of any class may aim at, from which [`Injection::of_class`] takes what
/// its class needs: the fuzzer's draft of an injection.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg(feature = "testing")]
pub(crate) struct InjectionAim {
    /// A message: what F1-F4, F9, F10 and F12 hit.
    pub(crate) message: MessageRef,
    /// A request: what F5-F8 and F11 hit.
    pub(crate) request: RequestIndex,
    /// Another request than `request`, whose key F7 reuses; `None` when there is none.
    pub(crate) key_of: Option<RequestIndex>,
    /// The request whose answer F9's message waits for.
    pub(crate) after_request: RequestIndex,
    /// Which delivery (F2, F3) or send (F5, F8), from 1.
    pub(crate) ordinal: u32,
    /// Where F8 crashes.
    pub(crate) point: ApiCrashPoint,
}

/// The delivery or send an injection counts ([`Injection::ordinal`]), from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InjectionOrdinal {
    /// The message's `delivery`-th delivery (its field `delivery`).
    Delivery(u32),
    /// The request's `attempt`-th send (its field `attempt`).
    Attempt(u32),
}

/// [`Injection`]'s externally tagged twin, through which it reads; the compiler checks that it
/// builds exactly [`Injection`]'s variants.
#[derive(Deserialize)]
#[serde(remote = "Injection", rename_all = "snake_case", deny_unknown_fields)]
enum InjectionFields {
    DuplicateDelivery { message: MessageRef },
    CrashConsumerAfterCommit { message: MessageRef, delivery: u32 },
    CrashConsumerBeforeCommit { message: MessageRef, delivery: u32 },
    ConcurrentDelivery { message: MessageRef },
    LoseResponse { request: RequestIndex, attempt: u32 },
    DoubleSubmit { request: RequestIndex },
    ReuseKey { request: RequestIndex, key_of: RequestIndex },
    CrashApi { request: RequestIndex, attempt: u32, point: ApiCrashPoint },
    DeliverAfter { message: MessageRef, after_request: RequestIndex },
    DuplicateAfterRetention { message: MessageRef },
    RetryWithNewKey { request: RequestIndex },
    CrashRelayAfterPublish { message: MessageRef },
}

impl TagFirst for Injection {
    const TAG: &'static str = "fault";
    const EXPECTING: &'static str = "an injection object tagged by \"fault\"";

    fn from_external<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        InjectionFields::deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Injection {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Injection::deserialize_tag_first(deserializer)
    }
}

impl Injection {
    /// The fault class the injection belongs to.
    pub fn fault_class(&self) -> FaultClass {
        match self {
            Injection::DuplicateDelivery { .. } => FaultClass::F1,
            Injection::CrashConsumerAfterCommit { .. } => FaultClass::F2,
            Injection::CrashConsumerBeforeCommit { .. } => FaultClass::F3,
            Injection::ConcurrentDelivery { .. } => FaultClass::F4,
            Injection::LoseResponse { .. } => FaultClass::F5,
            Injection::DoubleSubmit { .. } => FaultClass::F6,
            Injection::ReuseKey { .. } => FaultClass::F7,
            Injection::CrashApi { .. } => FaultClass::F8,
            Injection::DeliverAfter { .. } => FaultClass::F9,
            Injection::DuplicateAfterRetention { .. } => FaultClass::F10,
            Injection::RetryWithNewKey { .. } => FaultClass::F11,
            Injection::CrashRelayAfterPublish { .. } => FaultClass::F12,
        }
    }

    /// The message the injection names, if it names one, for validation.
    pub(crate) fn message(&self) -> Option<&MessageRef> {
        match self {
            Injection::DuplicateDelivery { message }
            | Injection::CrashConsumerAfterCommit { message, .. }
            | Injection::CrashConsumerBeforeCommit { message, .. }
            | Injection::ConcurrentDelivery { message }
            | Injection::DeliverAfter { message, .. }
            | Injection::DuplicateAfterRetention { message }
            | Injection::CrashRelayAfterPublish { message } => Some(message),
            Injection::LoseResponse { .. }
            | Injection::DoubleSubmit { .. }
            | Injection::ReuseKey { .. }
            | Injection::CrashApi { .. }
            | Injection::RetryWithNewKey { .. } => None,
        }
    }

    /// Which delivery or send the injection waits for, if it counts one, for validation
    /// against [`crate::sim::bounds`].
    pub(crate) fn ordinal(&self) -> Option<InjectionOrdinal> {
        match self {
            Injection::CrashConsumerAfterCommit { delivery, .. }
            | Injection::CrashConsumerBeforeCommit { delivery, .. } => {
                Some(InjectionOrdinal::Delivery(*delivery))
            }
            Injection::LoseResponse { attempt, .. } | Injection::CrashApi { attempt, .. } => {
                Some(InjectionOrdinal::Attempt(*attempt))
            }
            Injection::DuplicateDelivery { .. }
            | Injection::ConcurrentDelivery { .. }
            | Injection::DoubleSubmit { .. }
            | Injection::ReuseKey { .. }
            | Injection::DeliverAfter { .. }
            | Injection::DuplicateAfterRetention { .. }
            | Injection::RetryWithNewKey { .. }
            | Injection::CrashRelayAfterPublish { .. } => None,
        }
    }

    /// An injection of `class` at `aim` (what a fuzzer drew); `None` when the class needs
    /// what `aim` lacks.
    #[cfg(feature = "testing")]
    pub(crate) fn of_class(class: FaultClass, aim: InjectionAim) -> Option<Injection> {
        let InjectionAim { message, request, key_of, after_request, ordinal, point } = aim;
        Some(match class {
            FaultClass::F1 => Injection::DuplicateDelivery { message },
            FaultClass::F2 => Injection::CrashConsumerAfterCommit { message, delivery: ordinal },
            FaultClass::F3 => Injection::CrashConsumerBeforeCommit { message, delivery: ordinal },
            FaultClass::F4 => Injection::ConcurrentDelivery { message },
            FaultClass::F5 => Injection::LoseResponse { request, attempt: ordinal },
            FaultClass::F6 => Injection::DoubleSubmit { request },
            FaultClass::F7 => Injection::ReuseKey { request, key_of: key_of? },
            FaultClass::F8 => Injection::CrashApi { request, attempt: ordinal, point },
            FaultClass::F9 => Injection::DeliverAfter { message, after_request },
            FaultClass::F10 => Injection::DuplicateAfterRetention { message },
            FaultClass::F11 => Injection::RetryWithNewKey { request },
            FaultClass::F12 => Injection::CrashRelayAfterPublish { message },
        })
    }

    /// The requests the injection names, for validation.
    pub(crate) fn requests(&self) -> Vec<RequestIndex> {
        let of_message = |message: &MessageRef| match message {
            MessageRef::OrderPlacedOf(request) => *request,
        };
        match self {
            Injection::DuplicateDelivery { message }
            | Injection::CrashConsumerAfterCommit { message, .. }
            | Injection::CrashConsumerBeforeCommit { message, .. }
            | Injection::ConcurrentDelivery { message }
            | Injection::DuplicateAfterRetention { message }
            | Injection::CrashRelayAfterPublish { message } => vec![of_message(message)],
            Injection::LoseResponse { request, .. }
            | Injection::DoubleSubmit { request }
            | Injection::CrashApi { request, .. }
            | Injection::RetryWithNewKey { request } => vec![*request],
            Injection::ReuseKey { request, key_of } => vec![*request, *key_of],
            Injection::DeliverAfter { message, after_request } => {
                vec![of_message(message), *after_request]
            }
        }
    }
}

fn message_id(world: &World, message: &MessageRef) -> Option<MessageId> {
    match message {
        MessageRef::OrderPlacedOf(request) => {
            world.planned_order(*request).map(|planned| planned.message_id)
        }
    }
}

/// The fault action `injection` fires now in `world`, whose enabled actions are `enabled`, if
/// its trigger holds: the scheduler fires it once, the first step it does.
pub(crate) fn trigger(world: &World, injection: &Injection, enabled: &[Action]) -> Option<Action> {
    let queued = |message_id: MessageId| {
        world.broker().entries_of(message_id).find(|(_, entry)| {
            matches!(entry.state, EntryState::Ready { .. } | EntryState::InFlight { .. })
        })
    };
    let instance_with =
        |message_id: MessageId, delivery: u32, want: fn(&ConsumerMachine) -> bool| {
            world.consumers().iter().enumerate().find_map(|(index, instance)| {
                let current = instance.delivery.as_ref()?;
                (current.message_id == message_id
                    && current.delivery_number == delivery
                    && want(&current.machine))
                .then_some(InstanceId(index))
            })
        };
    let enabled_action = |wanted: Action| enabled.contains(&wanted).then_some(wanted);
    match injection {
        Injection::DuplicateDelivery { message } => {
            let (entry, _) = queued(message_id(world, message)?)?;
            Some(Action::DuplicateMessage { entry })
        }
        Injection::CrashConsumerAfterCommit { message, delivery } => {
            let instance =
                instance_with(message_id(world, message)?, *delivery, ConsumerMachine::awaits_ack)?;
            Some(Action::CrashConsumerAfterCommit { instance })
        }
        Injection::CrashConsumerBeforeCommit { message, delivery } => {
            let instance = instance_with(
                message_id(world, message)?,
                *delivery,
                ConsumerMachine::about_to_commit,
            )?;
            Some(Action::CrashConsumerBeforeCommit { instance })
        }
        Injection::ConcurrentDelivery { message } => {
            let id = message_id(world, message)?;
            enabled
                .iter()
                .find(|action| match action {
                    Action::DeliverConcurrently { entry, .. } => world
                        .broker()
                        .entries
                        .get(entry)
                        .is_some_and(|queued| queued.message_id == id),
                    _ => false,
                })
                .cloned()
        }
        Injection::LoseResponse { request, attempt } => world
            .responses()
            .iter()
            .find(|(_, response)| response.request == *request && response.send_number == *attempt)
            .map(|(id, _)| Action::LoseResponse { attempt: *id }),
        Injection::DoubleSubmit { request } => {
            enabled_action(Action::DoubleSubmit { request: *request })
        }
        Injection::ReuseKey { request, key_of } => {
            enabled_action(Action::SendWithKeyOf { request: *request, key_of: *key_of })
        }
        Injection::CrashApi { request, attempt, point } => world
            .attempts()
            .iter()
            .find(|(_, running)| {
                running.request == *request
                    && running.send_number == *attempt
                    && running.is_at(*point)
            })
            .map(|(id, _)| Action::CrashApi { attempt: *id }),
        Injection::DeliverAfter { message, after_request } => {
            let id = message_id(world, message)?;
            let (entry, _) = world
                .broker()
                .entries_of(id)
                .find(|(_, entry)| matches!(entry.state, EntryState::Ready { .. }))?;
            Some(Action::HoldMessage {
                entry,
                until: HoldRelease::RequestAnswered { request: *after_request },
            })
        }
        Injection::DuplicateAfterRetention { message } => {
            let (entry, _) = queued(message_id(world, message)?)?;
            Some(Action::DuplicateAfterRetention { entry })
        }
        Injection::RetryWithNewKey { request } => {
            enabled_action(Action::RetryWithNewKey { request: *request })
        }
        Injection::CrashRelayAfterPublish { message } => {
            let id = message_id(world, message)?;
            world
                .relay_published_not_marked()
                .contains(&id)
                .then_some(Action::CrashRelay)
                .and_then(enabled_action)
        }
    }
}

/// Random faults: per class, the chance per million that, at a step where a fault action of
/// that class is enabled, the scheduler takes it. A class not listed never fires.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FaultRates(pub BTreeMap<FaultClass, u32>);

impl FaultRates {
    /// No random faults.
    pub(crate) fn none() -> FaultRates {
        FaultRates(BTreeMap::new())
    }

    /// The same rate for every class.
    #[cfg(test)]
    pub(crate) fn uniform(per_million: u32) -> FaultRates {
        FaultRates(FaultClass::ALL.into_iter().map(|class| (class, per_million)).collect())
    }

    /// The rate of `class`, 0 if unlisted.
    pub(crate) fn per_million(&self, class: FaultClass) -> u32 {
        self.0.get(&class).copied().unwrap_or(0)
    }

    /// Whether no class has a rate above 0.
    pub fn is_none(&self) -> bool {
        self.0.values().all(|rate| *rate == 0)
    }
}
