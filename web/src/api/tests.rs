//! The JavaScript API's TypeScript unions against the core's own lists: every lesson id, fault
//! class, invariant, language, action name and table name the core knows is in its union, and
//! nothing else, so a new variant in the core fails here until the types name it.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{Action, CATALOGUE};
use idempotency_lab::store::TableName;
use idempotency_lab::view::Language;

/// The quoted members of `export type <name> = ...;` in the API's TypeScript.
fn union(name: &str) -> Vec<String> {
    let start = format!("export type {name} =");
    let text = super::TYPESCRIPT.split(&start).nth(1).unwrap_or_else(|| panic!("no type {name}"));
    let body = text.split(';').next().unwrap_or_default();
    body.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

fn check(name: &str, expected: Vec<String>) {
    let mut union = union(name);
    let mut expected = expected;
    union.sort();
    expected.sort();
    assert_eq!(union, expected, "the TypeScript union {name} and the core's list differ");
}

/// The action names serde knows, as its error for an unknown one lists them.
fn action_names() -> Vec<String> {
    let error = serde_json::from_str::<Action>(r#"{"action":"no_such_action"}"#)
        .expect_err("no action is called no_such_action")
        .to_string();
    let listed = error.split("expected one of").nth(1).expect("serde lists the variants");
    listed.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn the_typescript_unions_are_the_cores_lists() {
    check("LessonId", CATALOGUE.iter().map(|entry| entry.id.to_owned()).collect());
    check("FaultClass", FaultClass::ALL.iter().map(ToString::to_string).collect());
    check("InvariantId", InvariantId::ALL.iter().map(ToString::to_string).collect());
    check("Language", Language::ALL.iter().map(|language| language.code().to_owned()).collect());
    check("LabActionName", action_names());
    check("TableName", TableName::ALL.iter().map(|table| table.as_str().to_owned()).collect());
}
