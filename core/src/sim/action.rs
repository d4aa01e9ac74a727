//! What can happen in one step of the simulated world: [`Action`]s, as data.
//!
//! An action names its actor and its target by id (a request, an API attempt, a broker entry,
//! a consumer instance), never by reference, so that a list of actions is a schedule that can be
//! stored, replayed and explored. Normal actions move the system forward (send, step, deliver,
//! advance the clock); fault actions (one per fault class) are the things that go wrong, and they are
//! actions too, so an exhaustive checker can choose them like any other.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::faults::FaultClass;
use crate::sim::world::Target;

/// Declares a numbered id: a `usize` newtype, shown as its noun and its number (`request 0`).
macro_rules! numbered_id {
    ($(#[$doc:meta])* $name:ident, $noun:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub usize);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($noun, " {}"), self.0)
            }
        }
    };
}

numbered_id!(
    /// The position of a request in the scenario's list of requests.
    RequestIndex,
    "request"
);

numbered_id!(
    /// One HTTP request in flight to the API: one send of a request (a first send, a retry, a
    /// double submit's second copy). Numbered from 0 in the order they were sent.
    AttemptId,
    "attempt"
);

numbered_id!(
    /// One copy of a message in the broker's queue. A duplicate (F1, F10, F12) is a second
    /// entry with the same message id. Numbered from 0 in the order they were enqueued.
    EntryId,
    "entry"
);

/// One instance of the reserve-stock consumer: 0 is "Consumer A", 1 is "Consumer B".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct InstanceId(pub usize);

impl InstanceId {
    /// The name the page's lane shows: `Consumer A`, `Consumer B`, ...
    pub(crate) fn lane_name(self) -> String {
        let letter = u8::try_from(self.0 % 26).map_or('?', |offset| char::from(b'A' + offset));
        if self.0 < 26 { format!("Consumer {letter}") } else { format!("Consumer {}", self.0) }
    }
}

impl fmt::Display for InstanceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lane_name())
    }
}

/// When a held message (F9) becomes deliverable.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "until", rename_all = "snake_case")]
pub enum HoldRelease {
    /// Once this request has its final answer (or its client gave up): the message is
    /// overtaken by the request.
    RequestAnswered {
        /// The request.
        request: RequestIndex,
    },
    /// After this many ticks.
    Ticks {
        /// How long.
        ticks: u64,
    },
}

/// One step of the world. Fault actions name their fault class ([`Action::fault_class`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// The client sends a request for the first time.
    ClientSend {
        /// The request.
        request: RequestIndex,
    },
    /// The client's timeout for its request fires: it will retry (or give up).
    ClientTimeout {
        /// The request.
        request: RequestIndex,
    },
    /// The client sends its request again, with the key its retry policy says.
    ClientRetry {
        /// The request.
        request: RequestIndex,
    },
    /// The API runs one statement of one request (the P3 layer, then the shop's handler).
    ApiStep {
        /// The request in flight.
        attempt: AttemptId,
    },
    /// The network brings an answer of the API to its client.
    DeliverResponse {
        /// The request answered.
        attempt: AttemptId,
    },
    /// The outbox relay runs one statement (starting a run if none is running).
    RelayStep,
    /// The broker delivers a visible message to an idle consumer instance.
    BrokerDeliver {
        /// The copy delivered.
        entry: EntryId,
        /// The instance.
        instance: InstanceId,
    },
    /// A consumer instance runs one statement of its delivery.
    ConsumerStep {
        /// The instance.
        instance: InstanceId,
    },
    /// The retention job runs one statement (purging inbox rows, then idempotency keys).
    PurgeStep,
    /// Virtual time jumps to the next deadline (a timeout, a redelivery, a retry).
    AdvanceClock {
        /// By how much.
        ticks: u64,
    },
    /// F1: the broker puts a second copy of a message in the queue.
    DuplicateMessage {
        /// The copy duplicated.
        entry: EntryId,
    },
    /// F2: a consumer instance crashes after its commit, before its ack.
    CrashConsumerAfterCommit {
        /// The instance.
        instance: InstanceId,
    },
    /// F3: a consumer instance crashes with its transaction open: rollback.
    CrashConsumerBeforeCommit {
        /// The instance.
        instance: InstanceId,
    },
    /// F4: the broker delivers a message that is in flight at one instance to another one too.
    DeliverConcurrently {
        /// The copy.
        entry: EntryId,
        /// The second instance.
        instance: InstanceId,
    },
    /// F5: the network loses an answer of the API.
    LoseResponse {
        /// The request whose answer is lost.
        attempt: AttemptId,
    },
    /// F6: the client sends its request twice at once, with the same key.
    DoubleSubmit {
        /// The request.
        request: RequestIndex,
    },
    /// F7: the client sends its request with the key of another request (another payload).
    SendWithKeyOf {
        /// The request sent.
        request: RequestIndex,
        /// The request whose key it reuses.
        key_of: RequestIndex,
    },
    /// F8: the API process crashes in the middle of a request.
    CrashApi {
        /// The request in flight.
        attempt: AttemptId,
    },
    /// F9: a message is held back, so that later messages or requests overtake it.
    HoldMessage {
        /// The copy held.
        entry: EntryId,
        /// Until when.
        until: HoldRelease,
    },
    /// F10: a copy of a message arrives again after the inbox's retention window.
    DuplicateAfterRetention {
        /// The copy duplicated.
        entry: EntryId,
    },
    /// F11: the client retries with a new idempotency key (a client bug).
    RetryWithNewKey {
        /// The request.
        request: RequestIndex,
    },
    /// F12: the relay crashes after publishing, before marking the outbox rows published.
    CrashRelay,
}

impl Action {
    /// The fault class of a fault action, `None` for a normal one.
    pub fn fault_class(&self) -> Option<FaultClass> {
        Some(match self {
            Action::DuplicateMessage { .. } => FaultClass::F1,
            Action::CrashConsumerAfterCommit { .. } => FaultClass::F2,
            Action::CrashConsumerBeforeCommit { .. } => FaultClass::F3,
            Action::DeliverConcurrently { .. } => FaultClass::F4,
            Action::LoseResponse { .. } => FaultClass::F5,
            Action::DoubleSubmit { .. } => FaultClass::F6,
            Action::SendWithKeyOf { .. } => FaultClass::F7,
            Action::CrashApi { .. } => FaultClass::F8,
            Action::HoldMessage { .. } => FaultClass::F9,
            Action::DuplicateAfterRetention { .. } => FaultClass::F10,
            Action::RetryWithNewKey { .. } => FaultClass::F11,
            Action::CrashRelay => FaultClass::F12,
            Action::ClientSend { .. }
            | Action::ClientTimeout { .. }
            | Action::ClientRetry { .. }
            | Action::ApiStep { .. }
            | Action::DeliverResponse { .. }
            | Action::RelayStep
            | Action::BrokerDeliver { .. }
            | Action::ConsumerStep { .. }
            | Action::PurgeStep
            | Action::AdvanceClock { .. } => return None,
        })
    }

    /// What a fault action hits (the page offers it on that waiting item); `None` for a
    /// normal action.
    pub(crate) fn fault_target(&self) -> Option<Target> {
        Some(match self {
            Action::DuplicateMessage { entry }
            | Action::DeliverConcurrently { entry, .. }
            | Action::HoldMessage { entry, .. }
            | Action::DuplicateAfterRetention { entry } => Target::Entry(*entry),
            Action::CrashConsumerAfterCommit { instance }
            | Action::CrashConsumerBeforeCommit { instance } => Target::Delivery(*instance),
            Action::LoseResponse { attempt } => Target::Answer(*attempt),
            Action::CrashApi { attempt } => Target::Attempt(*attempt),
            Action::DoubleSubmit { request }
            | Action::SendWithKeyOf { request, .. }
            | Action::RetryWithNewKey { request } => Target::Request(*request),
            Action::CrashRelay => Target::Relay,
            Action::ClientSend { .. }
            | Action::ClientTimeout { .. }
            | Action::ClientRetry { .. }
            | Action::ApiStep { .. }
            | Action::DeliverResponse { .. }
            | Action::RelayStep
            | Action::BrokerDeliver { .. }
            | Action::ConsumerStep { .. }
            | Action::PurgeStep
            | Action::AdvanceClock { .. } => return None,
        })
    }

    /// The actor whose lane the step is drawn in.
    pub(crate) fn actor(&self) -> Actor {
        match self {
            Action::ClientSend { request }
            | Action::ClientTimeout { request }
            | Action::ClientRetry { request }
            | Action::DoubleSubmit { request }
            | Action::SendWithKeyOf { request, .. }
            | Action::RetryWithNewKey { request } => Actor::Client { request: *request },
            Action::ApiStep { attempt } | Action::CrashApi { attempt } => {
                Actor::Api { attempt: *attempt }
            }
            Action::DeliverResponse { .. } | Action::LoseResponse { .. } => Actor::Network,
            Action::RelayStep | Action::CrashRelay => Actor::Relay,
            Action::BrokerDeliver { .. }
            | Action::DuplicateMessage { .. }
            | Action::DeliverConcurrently { .. }
            | Action::HoldMessage { .. }
            | Action::DuplicateAfterRetention { .. } => Actor::Broker,
            Action::ConsumerStep { instance }
            | Action::CrashConsumerAfterCommit { instance }
            | Action::CrashConsumerBeforeCommit { instance } => {
                Actor::Consumer { instance: *instance }
            }
            Action::PurgeStep => Actor::RetentionJob,
            Action::AdvanceClock { .. } => Actor::Clock,
        }
    }
}

/// Who acts in a step: the lanes of the page's sequence diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "actor", rename_all = "snake_case")]
pub enum Actor {
    /// The client of one request.
    Client {
        /// The request.
        request: RequestIndex,
    },
    /// The API, running one request.
    Api {
        /// The request in flight.
        attempt: AttemptId,
    },
    /// The network between API and client.
    Network,
    /// The outbox relay.
    Relay,
    /// The message broker.
    Broker,
    /// A consumer instance.
    Consumer {
        /// The instance.
        instance: InstanceId,
    },
    /// The retention job (inbox rows and idempotency keys).
    RetentionJob,
    /// The virtual clock.
    Clock,
}

impl Actor {
    /// The lane's name: `Client`, `API`, `Network`, `Relay`, `Broker`, `Consumer A`, ...
    pub fn lane_name(self) -> String {
        match self {
            Actor::Client { .. } => "Client".to_owned(),
            Actor::Api { .. } => "API".to_owned(),
            Actor::Network => "Network".to_owned(),
            Actor::Relay => "Relay".to_owned(),
            Actor::Broker => "Broker".to_owned(),
            Actor::Consumer { instance } => instance.lane_name(),
            Actor::RetentionJob => "Retention".to_owned(),
            Actor::Clock => "Clock".to_owned(),
        }
    }
}
