//! The JavaScript API's TypeScript unions against the core's own lists: every lesson id, fault
//! class, invariant, language, action name and table name the core knows is in its union, and
//! nothing else, so a new variant in the core fails here until the types name it. The fault
//! classes' unions follow from their table (`FaultClass::TYPESCRIPT`): checked here too.

use idempotency_lab::faults::{FAULT_CLASSES, FaultClass};
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::program::HandlerKind;
use idempotency_lab::sim::{Action, CATALOGUE};
use idempotency_lab::store::TableName;
use idempotency_lab::view::Language;

/// The quoted members of `export type <name> = ...;` in the API's TypeScript: what `mod.rs`
/// writes, and the fault classes' types the core's table gives.
fn union(name: &str) -> Vec<String> {
    let start = format!("export type {name} =");
    let types = format!("{}{}", super::TYPESCRIPT, FaultClass::TYPESCRIPT);
    let text = types.split(&start).nth(1).unwrap_or_else(|| panic!("no type {name}"));
    let body = text.split(';').next().unwrap_or_default();
    body.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

/// Fails, naming what to add to and remove from the union, unless `export type <name>` in
/// `TYPESCRIPT` (`mod.rs`) lists exactly `expected`, in any order.
fn check(name: &str, expected: Vec<String>) {
    check_members(name, union(name), expected);
}

/// Fails unless `union`, the members of the TypeScript union `name`, are exactly `expected`.
fn check_members(name: &str, union: Vec<String>, expected: Vec<String>) {
    let missing: Vec<&String> = expected.iter().filter(|member| !union.contains(member)).collect();
    let extra: Vec<&String> = union.iter().filter(|member| !expected.contains(member)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "the TypeScript union {name} in web/src/api/mod.rs and the core's list differ:\n\
         add to the union: {missing:?}\nremove from the union: {extra:?}"
    );
    assert_eq!(union.len(), expected.len(), "the TypeScript union {name} repeats a member");
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
    check("FaultClass", FAULT_CLASSES.iter().map(|row| row.id.to_owned()).collect());
    check("InvariantId", InvariantId::ALL.iter().map(ToString::to_string).collect());
    check("Language", Language::ALL.iter().map(|language| language.code().to_owned()).collect());
    // `LabActionName` is the normal actions' names and `FaultActionName`.
    assert!(super::TYPESCRIPT.contains("| FaultActionName;"), "LabActionName lists the faults'");
    let mut names = union("LabActionName");
    names.extend(union("FaultActionName"));
    assert_eq!(names.len(), action_names().len(), "an action is named twice: {names:?}");
    check_members("LabActionName and FaultActionName", names, action_names());
    check("TableName", TableName::ALL.iter().map(|table| table.as_str().to_owned()).collect());
    check(
        "HandlerKind",
        HandlerKind::ALL
            .iter()
            .map(|kind| serde_json::to_value(kind).unwrap().as_str().unwrap().to_owned())
            .collect(),
    );
}
