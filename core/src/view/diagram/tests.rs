//! The diagram model of lessons and traces: lanes, statement labels, and every lesson drawn
//! only on its own lanes.

use expect_test::expect;

use super::*;
use crate::sim::{PatternMode, Simulation, catalogue_scenario};

fn render(diagram: &Diagram) -> String {
    let mut text = format!(
        "lanes: {}\n",
        diagram.lanes.iter().map(|lane| lane.name()).collect::<Vec<_>>().join(", ")
    );
    for step in &diagram.steps {
        for item in &step.items {
            let line = match item {
                DiagramItem::Arrow { from, to, kind, label, .. } => {
                    format!("{from} -> {to} {kind:?}: {label}")
                }
                DiagramItem::Mark { lane, kind, label, .. } => {
                    format!("[{lane}] {kind:?}: {label}")
                }
            };
            text.push_str(&format!("{:>3} {line}\n", step.step));
        }
    }
    text
}

#[test]
fn lanes_follow_the_instances_and_the_retention_job() {
    let mut scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let names = |scenario: &Scenario| {
        lanes(scenario).into_iter().map(Lane::name).collect::<Vec<_>>().join(", ")
    };
    assert_eq!(names(&scenario), "Client, API, Store, Relay, Broker, Consumer A, Consumer B");
    scenario.consumers.instances = 3;
    scenario.retention_job.enabled = true;
    assert_eq!(
        names(&scenario),
        "Client, API, Store, Relay, Broker, Consumer A, Consumer B, Consumer C, Retention"
    );
}

#[test]
fn statements_are_labelled_by_verb_and_table() {
    let check = |statement: &str, expected: Option<(ArrowKind, &str)>| {
        let got = statement_arrow(statement);
        assert_eq!(
            got.as_ref().map(|(kind, label)| (*kind, label.as_str())),
            expected,
            "{statement}"
        );
    };
    check("BEGIN", Some((ArrowKind::Statement, "BEGIN")));
    check("COMMIT", Some((ArrowKind::Commit, "COMMIT")));
    check("ROLLBACK", Some((ArrowKind::Commit, "ROLLBACK")));
    check(
        "SELECT sku FROM stock WHERE sku IN ('apple')",
        Some((ArrowKind::Statement, "SELECT stock")),
    );
    check(
        "INSERT INTO orders (id, status) VALUES ('x', 'Placed')",
        Some((ArrowKind::Statement, "INSERT orders")),
    );
    check("UPDATE stock SET available_qty = 1", Some((ArrowKind::Statement, "UPDATE stock")));
    check("DELETE FROM inbox WHERE x", Some((ArrowKind::Statement, "DELETE inbox")));
    check("-- answer 201 to the client", None);
    check("PUBLISH d051b29e", None);
    check("ACK d051b29e", None);
    check("", None);
}

#[test]
fn the_duplicate_delivery_lesson_in_naive_mode() {
    let scenario =
        catalogue_scenario("f01-duplicate-delivery").unwrap().with_mode(PatternMode::Naive);
    let trace = Simulation::run(scenario, 0).unwrap();
    let diagram = diagram(&trace);
    assert_eq!(diagram.steps.len(), trace.steps.len());
    expect![[r#"
        lanes: Client, API, Store, Relay, Broker, Consumer A, Consumer B
          1 Client -> API Request: POST /orders
          3 API -> Store Statement: BEGIN
          4 API -> Store Statement: SELECT stock
          5 API -> Store Statement: INSERT orders
          6 API -> Store Statement: INSERT outbox
          7 API -> Store Commit: COMMIT
          8 Relay -> Store Statement: SELECT outbox
          9 Relay -> Broker Publish: publish d051b29e
         10 [Broker] Duplicate: duplicate d051b29e
         11 Relay -> Store Statement: BEGIN
         12 Broker -> Consumer A Deliver: deliver #1 d051b29e
         13 Relay -> Store Statement: UPDATE outbox
         14 Relay -> Store Commit: COMMIT
         16 Broker -> Consumer B Deliver: deliver #2 d051b29e
         16 [Consumer B] Duplicate: delivery #2
         17 API -> Client Response: 201
         18 Consumer A -> Store Statement: BEGIN
         19 Consumer B -> Store Statement: BEGIN
         20 Consumer A -> Store Statement: UPDATE stock
         21 Consumer A -> Store Statement: INSERT reservations
         22 Consumer A -> Store Commit: COMMIT
         23 Consumer B -> Store Statement: UPDATE stock
         24 Consumer B -> Store Statement: INSERT reservations
         25 Consumer A -> Broker Ack: ack d051b29e
         26 Consumer B -> Store Commit: COMMIT
         26 [Consumer B] Violation: I2 violated
         27 Consumer B -> Broker Ack: ack d051b29e
         27 [Consumer B] Violation: I6 violated
    "#]]
    .assert_eq(&render(&diagram));
}

#[test]
fn every_catalogue_lesson_draws_only_on_its_lanes() {
    for entry in crate::sim::CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let scenario = catalogue_scenario(entry.id).unwrap().with_mode(mode);
            let trace = Simulation::run(scenario, 0).unwrap();
            let diagram = diagram(&trace);
            assert_eq!(diagram.lanes, lanes(&trace.scenario), "{}", entry.id);
            let violations: usize = diagram
                .steps
                .iter()
                .flat_map(|step| &step.items)
                .filter(|item| matches!(item, DiagramItem::Mark { kind: MarkKind::Violation, .. }))
                .count();
            let expected: usize = trace.steps.iter().map(|step| step.new_violations.len()).sum();
            assert_eq!(violations, expected, "{} {mode:?}", entry.id);
        }
    }
}
