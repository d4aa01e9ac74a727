//! The fault classes' table (`faults::FAULT_CLASSES`) against the simulator's enums that carry
//! a class: the action of every class is called as the table says, in [`Action`] and in
//! [`AnchoredAction`] alike, and belongs to its class; every injection of the built-in lessons
//! is tagged as the table says for its class. A class added to one and not the other fails
//! here, naming it.

use crate::faults::{FAULT_CLASSES, FaultClass};
use crate::sim::{Action, AnchoredAction, CATALOGUE, Injection, catalogue_scenario};

/// The variant names serde knows for `T`, as its error for an unknown one lists them.
fn variant_names<T: serde::de::DeserializeOwned + std::fmt::Debug>(tag: &str) -> Vec<String> {
    let error = serde_json::from_value::<T>(serde_json::json!({ tag: "no_such_variant" }))
        .expect_err("no variant is called no_such_variant")
        .to_string();
    let listed = error.split("expected one of").nth(1).expect("serde lists the variants");
    listed.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

/// The action called `name`, its fields filled with whatever its variant takes.
fn action_called(name: &str) -> Action {
    let fields = serde_json::json!({
        "action": name, "request": 0, "attempt": 0, "entry": 0, "instance": 0, "key_of": 1,
        "ticks": 1, "until": { "until": "ticks", "ticks": 1 },
    });
    serde_json::from_value(fields).unwrap_or_else(|error| panic!("action {name}: {error}"))
}

#[test]
fn every_fault_action_is_named_as_the_table_says() {
    let actions = variant_names::<Action>("action");
    for row in &FAULT_CLASSES {
        assert!(actions.contains(&row.action.to_owned()), "{}: no action {}", row.id, row.action);
    }
    for name in &actions {
        let class = action_called(name).fault_class();
        let listed = FAULT_CLASSES.iter().find(|row| row.action == name).map(|row| row.class);
        assert_eq!(class, listed, "`{name}`: its fault class and the table's differ");
    }
}

#[test]
fn anchored_choices_mirror_the_actions() {
    let mut actions = variant_names::<Action>("action");
    let mut anchored = variant_names::<AnchoredAction>("action");
    actions.sort();
    anchored.sort();
    assert_eq!(anchored, actions, "AnchoredAction's variants and Action's differ");
}

#[test]
fn every_injection_is_tagged_as_the_table_says() {
    for row in &FAULT_CLASSES {
        let error =
            serde_json::from_value::<Injection>(serde_json::json!({ "fault": row.injection }))
                .expect_err("an injection has fields")
                .to_string();
        assert!(
            error.contains("missing field"),
            "{}: no injection {}: {error}",
            row.id,
            row.injection
        );
    }
    let mut classes: Vec<FaultClass> = Vec::new();
    for entry in CATALOGUE {
        let scenario = catalogue_scenario(entry.id).expect("a built-in lesson reads");
        for injection in &scenario.injections {
            let json = serde_json::to_value(injection).expect("an injection serializes");
            let class = injection.fault_class();
            assert_eq!(json["fault"], class.injection_name(), "{}: {injection:?}", entry.id);
            classes.push(class);
        }
    }
    assert!(!classes.is_empty(), "the lessons inject faults");
}
