//! The fault classes F1-F12 of DESIGN.md: what goes wrong in the world, as the invariants
//! I1-I7 ([`crate::invariants::InvariantId`]) are what must hold in it. The two lists are the
//! lab's vocabulary: scenarios, actions, traces, the checker's budget, the page and the CLI all
//! name them, so they sit at the bottom of the crate and depend on nothing but the words that
//! describe them ([`crate::words`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::words::Language;

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

    /// What the fault is, in a sentence, in English ([`FaultClass::description_in`] any
    /// language).
    pub fn description(self) -> &'static str {
        self.description_in(Language::En)
    }

    /// [`FaultClass::description`] in `language`.
    pub fn description_in(self, language: Language) -> &'static str {
        let words = language.words();
        match self {
            FaultClass::F1 => words.f1_description,
            FaultClass::F2 => words.f2_description,
            FaultClass::F3 => words.f3_description,
            FaultClass::F4 => words.f4_description,
            FaultClass::F5 => words.f5_description,
            FaultClass::F6 => words.f6_description,
            FaultClass::F7 => words.f7_description,
            FaultClass::F8 => words.f8_description,
            FaultClass::F9 => words.f9_description,
            FaultClass::F10 => words.f10_description,
            FaultClass::F11 => words.f11_description,
            FaultClass::F12 => words.f12_description,
        }
    }
}

impl fmt::Display for FaultClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
