//! The fault classes F1-F12 of DESIGN.md: what goes wrong in the world, as the invariants
//! I1-I7 ([`crate::invariants::InvariantId`]) are what must hold in it. The two lists are the
//! lab's vocabulary: scenarios, actions, traces, the checker's budget, the page and the CLI all
//! name them, so they sit at the bottom of the crate and depend on nothing.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The fault classes of DESIGN.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FaultClass {
    /// The broker delivers a message twice.
    F1,
    /// A consumer crashes after commit, before ack: redelivery.
    F2,
    /// A consumer crashes before commit: rollback, redelivery.
    F3,
    /// Two consumer instances get the same message at once.
    F4,
    /// The API's response is lost: the client times out and retries with the same key.
    F5,
    /// Double submit: two concurrent requests with the same key.
    F6,
    /// The same key is reused with a different payload.
    F7,
    /// The API crashes mid-request: the key stays in progress until its lease ends.
    F8,
    /// Messages or requests arrive out of order.
    F9,
    /// A duplicate arrives after the retention window.
    F10,
    /// The client retries with a new key.
    F11,
    /// The relay crashes after publish, before marking the message published.
    F12,
}

impl FaultClass {
    /// Every class, in order.
    pub const ALL: [FaultClass; 12] = [
        FaultClass::F1,
        FaultClass::F2,
        FaultClass::F3,
        FaultClass::F4,
        FaultClass::F5,
        FaultClass::F6,
        FaultClass::F7,
        FaultClass::F8,
        FaultClass::F9,
        FaultClass::F10,
        FaultClass::F11,
        FaultClass::F12,
    ];

    /// What the fault is, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            FaultClass::F1 => "the broker delivers a message twice",
            FaultClass::F2 => "a consumer crashes after commit, before ack: redelivery",
            FaultClass::F3 => "a consumer crashes before commit: rollback, redelivery",
            FaultClass::F4 => "two consumer instances get the same message at once",
            FaultClass::F5 => "the API's response is lost: the client retries with the same key",
            FaultClass::F6 => "double submit: two concurrent requests with the same key",
            FaultClass::F7 => "the same key is reused with a different payload",
            FaultClass::F8 => "the API crashes mid-request: the key stays in progress",
            FaultClass::F9 => "messages or requests arrive out of order",
            FaultClass::F10 => "a duplicate arrives after the retention window",
            FaultClass::F11 => "the client retries with a new key",
            FaultClass::F12 => "the relay crashes after publish, before marking published",
        }
    }
}

impl fmt::Display for FaultClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
