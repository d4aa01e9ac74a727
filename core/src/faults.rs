//! The fault classes of DESIGN.md (`F1`, `F2`, ...), declared once: what goes wrong in the world, as the
//! invariants I1-I7 ([`crate::invariants::InvariantId`]) are what must hold in it. The two
//! lists are the lab's vocabulary: scenarios, actions, traces, the checker's budget, the page
//! and the CLI all name them, so they sit at the bottom of the crate and depend on nothing but
//! the words that describe them ([`crate::words`]).
//!
//! Every class is one row of the table in `fault_classes!` below, and everything else the lab
//! knows of a class by name follows from it: the [`FaultClass`] enum and [`FaultClass::ALL`],
//! its id (`F1`) in scenarios' `fault_rates`, traces, links and the checker's budgets, the
//! JSON name of its simulator action and anchored choice (which `--inject F1,...` and the
//! package's `inject(item, "F1")` take), the package's TypeScript unions `FaultClass` and
//! `FaultActionName` ([`FaultClass::TYPESCRIPT`]), the tag of its injection in a scenario, and its
//! sentence in the catalogue. `sim::tests` checks that the simulator's `Action`,
//! `AnchoredAction` and `Injection` carry the names the table gives.
//!
//! Adding a class: a row here, and its sentence in `words/glossary.rs` (one entry, its English
//! and Russian side by side). Then what it does, which the compiler asks for one match at a
//! time: its [`crate::sim::Action`] in `sim/action.rs` and what enables and applies it in
//! `sim/world.rs` (with the actor's own file), its anchored choice in `sim/choice.rs`, its
//! injection in `sim/fault.rs` (declared, validated, drafted for the fuzzer and fired there),
//! and its words on the page in `view/action_words.rs`. Then the tests ask for the rest: a
//! lesson that teaches it (`core/scenarios/`, listed in `sim/catalogue.rs`), since every
//! class has one.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::words::Language;

/// A fault class's names, from its row of the table: [`FAULT_CLASSES`] (its sentence is
/// [`FaultClass::description_in`], from the same row).
#[derive(Clone, Copy, Debug)]
pub struct FaultDescriptor {
    /// The class.
    #[cfg(test)]
    pub(crate) class: FaultClass,
    /// Its id, as scenarios, traces, links, budgets and the TypeScript union spell it: `F1`.
    pub id: &'static str,
    /// The JSON name of its simulator action (`sim::Action`) and of a learner's anchored
    /// choice of it (`sim::AnchoredAction`): `{"action": "duplicate_message", ...}`.
    pub(crate) action: &'static str,
    /// The tag of its injection in a scenario (`sim::Injection`):
    /// `{"fault": "duplicate_delivery", ...}`.
    #[cfg(test)]
    pub(crate) injection: &'static str,
}

/// Declares [`FaultClass`], [`FaultClass::ALL`], each class's id and sentence, and
/// [`FAULT_CLASSES`] from one table. The id and the sentence are matches rather than reads of
/// the table, so that the page, which needs only those, does not carry the table.
macro_rules! fault_classes {
    ($( $(#[$doc:meta])* $class:ident: $action:literal, $injection:literal, $words:ident; )*) => {
        /// The fault classes of DESIGN.md, in the order of their table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum FaultClass {
            $( $(#[$doc])* $class, )*
        }

        impl FaultClass {
            /// Every class, in order.
            pub const ALL: [FaultClass; [$(stringify!($class)),*].len()] =
                [$(FaultClass::$class),*];

            /// The class's id: `F1`.
            pub fn id(self) -> &'static str {
                match self {
                    $( FaultClass::$class => stringify!($class), )*
                }
            }

            /// The TypeScript types that follow from the table, which the JavaScript
            /// package's `.d.ts` declares (`web/src/api/mod.rs` hands them to wasm-bindgen):
            /// `FaultClass`, the union of the ids, and `FaultActionName`, that of the action
            /// names (part of `LabActionName`). A new row adds its id and its action there.
            pub const TYPESCRIPT: &'static str = concat!(
                "/** A fault class of the design, by its id (one row of the core's table of \
                 fault classes each). */\nexport type FaultClass =",
                $( "\n  | \"", stringify!($class), "\"", )*
                ";\n/** The simulator action of a fault class, by its name as the core \
                 serializes it. */\nexport type FaultActionName =",
                $( "\n  | \"", $action, "\"", )*
                ";\n"
            );

            /// What the fault is, in a sentence, in `language`.
            pub fn description_in(self, language: Language) -> &'static str {
                let words = language.words();
                match self {
                    $( FaultClass::$class => words.glossary.$words, )*
                }
            }
        }

        /// Every class's row of the table, in the order of [`FaultClass::ALL`].
        pub static FAULT_CLASSES: [FaultDescriptor; FaultClass::ALL.len()] = [$(
            FaultDescriptor {
                #[cfg(test)]
                class: FaultClass::$class,
                id: stringify!($class),
                action: $action,
                #[cfg(test)]
                injection: $injection,
            },
        )*];
    };
}

fault_classes! {
    // id   its action and anchored choice    its injection in a scenario     its sentence
    /// The broker delivers a message twice.
    F1:  "duplicate_message",                "duplicate_delivery",            f1_description;
    /// A consumer crashes after commit, before ack: redelivery.
    F2:  "crash_consumer_after_commit",      "crash_consumer_after_commit",   f2_description;
    /// A consumer crashes before commit: rollback, redelivery.
    F3:  "crash_consumer_before_commit",     "crash_consumer_before_commit",  f3_description;
    /// Two consumer instances get the same message at once.
    F4:  "deliver_concurrently",             "concurrent_delivery",           f4_description;
    /// The API's response is lost: the client times out and retries with the same key.
    F5:  "lose_response",                    "lose_response",                 f5_description;
    /// Double submit: two concurrent requests with the same key.
    F6:  "double_submit",                    "double_submit",                 f6_description;
    /// The same key is reused with a different payload.
    F7:  "send_with_key_of",                 "reuse_key",                     f7_description;
    /// The API crashes mid-request: the key stays in progress until its lease ends.
    F8:  "crash_api",                        "crash_api",                     f8_description;
    /// Messages or requests arrive out of order.
    F9:  "hold_message",                     "deliver_after",                 f9_description;
    /// A duplicate arrives after the retention window.
    F10: "duplicate_after_retention",        "duplicate_after_retention",     f10_description;
    /// The client retries with a new key.
    F11: "retry_with_new_key",               "retry_with_new_key",            f11_description;
    /// The relay crashes after publish, before marking the message published.
    F12: "crash_relay",                      "crash_relay_after_publish",     f12_description;
}

impl FaultClass {
    /// The class's row of the table.
    pub(crate) fn descriptor(self) -> &'static FaultDescriptor {
        // The table lists the classes in the enum's order (both come from one list).
        &FAULT_CLASSES[self as usize]
    }

    /// The class whose id is `id` (`"F1"`), exactly as the table spells it.
    pub fn from_id(id: &str) -> Option<FaultClass> {
        FaultClass::ALL.into_iter().find(|class| class.id() == id)
    }

    /// The JSON name of the class's simulator action and anchored choice: `duplicate_message`.
    pub fn action_name(self) -> &'static str {
        self.descriptor().action
    }

    /// The tag of the class's injection in a scenario: `duplicate_delivery`.
    #[cfg(test)]
    pub(crate) fn injection_name(self) -> &'static str {
        self.descriptor().injection
    }

    /// The ids of the first and the last class with `separator` between them, for messages:
    /// `F1 to F12`, `F1-F12`.
    pub fn id_range(separator: &str) -> String {
        let first = FaultClass::ALL.first().map_or("", |class| class.id());
        let last = FaultClass::ALL.last().map_or("", |class| class.id());
        format!("{first}{separator}{last}")
    }

    /// What the fault is, in a sentence, in English ([`FaultClass::description_in`] any
    /// language).
    #[cfg(test)]
    pub(crate) fn description(self) -> &'static str {
        self.description_in(Language::En)
    }
}

impl fmt::Display for FaultClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_class_once_under_its_own_name() {
        for (index, row) in FAULT_CLASSES.iter().enumerate() {
            assert_eq!(FaultClass::ALL.get(index), Some(&row.class), "row {index}");
            assert_eq!(row.id, format!("{:?}", row.class), "the id is the variant's name");
            assert_eq!(serde_json::to_value(row.class).unwrap(), row.id, "its JSON is its id");
            assert_eq!(FaultClass::from_id(row.id), Some(row.class));
            assert_eq!(row.class.id(), row.id);
            for language in Language::ALL {
                let sentence = row.class.description_in(language);
                assert!(!sentence.is_empty(), "{} in {language:?}", row.id);
            }
        }
        assert_eq!(FaultClass::from_id("f1"), None, "ids are exact, as serde reads them");
        assert_eq!(FaultClass::id_range(" to "), "F1 to F12");
    }

    #[test]
    fn the_typescript_types_list_every_class_and_its_action() {
        let types = FaultClass::TYPESCRIPT;
        assert!(types.contains("export type FaultClass =\n  | \"F1\"\n  | \"F2\"\n"), "{types}");
        assert!(types.contains("\n  | \"F12\";\n"), "{types}");
        assert!(
            types.contains("export type FaultActionName =\n  | \"duplicate_message\"\n"),
            "{types}"
        );
        assert!(types.ends_with("\n  | \"crash_relay\";\n"), "{types}");
        for row in &FAULT_CLASSES {
            assert_eq!(types.matches(&format!("| \"{}\"", row.id)).count(), 1, "{}", row.id);
            assert_eq!(types.matches(&format!("| \"{}\"", row.action)).count(), 1, "{}", row.id);
        }
    }
}
