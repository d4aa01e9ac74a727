//! The Mermaid export: a trace as the text of a Mermaid `sequenceDiagram`, for a README, an
//! issue or a design document.
//!
//! It renders the diagram model of [`crate::sim::diagram`] and derives nothing itself, so the
//! export and the page's SVG always agree. Participants are the diagram's lanes in order
//! (`Client`, `API`, `Store`, `Relay`, `Broker`, `Consumer A`, `Consumer B`, ...). Requests,
//! statements, commits, publishes and deliveries are solid arrows (`->>`), responses and acks
//! dashed ones (`-->>`); every arrow's text starts with the trace step's number. Marks are
//! notes over their lane: `Note over Broker: 10 duplicate d051b29e`; a violation's note gives
//! the invariant, its title and the sentence. A step's decisive moments
//! ([`crate::view::moments`]) follow as notes with their English headline, over the lane the
//! step's first item starts on: `Note over API: 35 stored answer replayed, the handler does
//! not run`. The text is deterministic: the same trace gives the same bytes.
//!
//! Characters Mermaid would read as syntax (`#`, `;`, `<`, `>`) are written as its numeric
//! entities (`#35;`), and line breaks as spaces.

use crate::sim::Trace;
use crate::view::diagram::{ArrowKind, Diagram, DiagramItem, DiagramStep, Lane, MarkKind, diagram};
use crate::words::Language;

/// The Mermaid `sequenceDiagram` of a trace (see the module's documentation).
pub fn trace_to_mermaid(trace: &Trace) -> String {
    let patterns = trace.scenario.patterns;
    let header = format!(
        "{}, seed {}, P1 {:?}, P2 {:?}, P3 {:?}, P4 {:?}",
        trace.scenario.id,
        trace.seed,
        patterns.p1_stock,
        patterns.p2_order,
        patterns.p3_api,
        patterns.p4_inbox
    );
    diagram_to_mermaid(&diagram(trace), &header)
}

/// The Mermaid `sequenceDiagram` of a diagram model; `comment` becomes a `%%` line under the
/// header (empty: none).
pub(crate) fn diagram_to_mermaid(diagram: &Diagram, comment: &str) -> String {
    let mut text = String::from("sequenceDiagram\n");
    let comment = one_line(comment);
    if !comment.trim().is_empty() {
        text.push_str(&format!("    %% {comment}\n"));
    }
    for lane in &diagram.lanes {
        let id = participant_id(*lane);
        let name = lane.name();
        if id == name {
            text.push_str(&format!("    participant {id}\n"));
        } else {
            text.push_str(&format!("    participant {id} as {}\n", escape(&name)));
        }
    }
    for step in &diagram.steps {
        for item in &step.items {
            match item {
                DiagramItem::Arrow { from, to, kind, label, .. } => {
                    let arrow = match kind {
                        ArrowKind::Response | ArrowKind::Ack => "-->>",
                        ArrowKind::Request
                        | ArrowKind::Statement
                        | ArrowKind::Commit
                        | ArrowKind::Publish
                        | ArrowKind::Deliver => "->>",
                    };
                    text.push_str(&format!(
                        "    {}{arrow}{}: {} {}\n",
                        participant_id(*from),
                        participant_id(*to),
                        step.step,
                        escape(label)
                    ));
                }
                DiagramItem::Mark { lane, kind, label, detail } => {
                    let note = match kind {
                        MarkKind::Violation => detail,
                        _ => label,
                    };
                    text.push_str(&format!(
                        "    Note over {}: {} {}\n",
                        participant_id(*lane),
                        step.step,
                        escape(note)
                    ));
                }
            }
        }
        if let Some(lane) = first_lane(step) {
            for moment in &step.moments {
                text.push_str(&format!(
                    "    Note over {}: {} {}\n",
                    participant_id(lane),
                    step.step,
                    escape(moment.headline(Language::En))
                ));
            }
        }
    }
    text
}

/// The lane a step's first item starts on: the actor's, for every step with a moment (its
/// statement arrow, or the mark and the ack of a consumer).
fn first_lane(step: &DiagramStep) -> Option<Lane> {
    step.items.first().map(|item| match item {
        DiagramItem::Arrow { from, .. } => *from,
        DiagramItem::Mark { lane, .. } => *lane,
    })
}

/// A lane's Mermaid participant id: its name without spaces (`ConsumerA`).
fn participant_id(lane: Lane) -> String {
    lane.name().chars().filter(|c| !c.is_whitespace()).collect()
}

fn one_line(text: &str) -> String {
    text.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect()
}

/// Text Mermaid prints as is: syntax characters as numeric entities, line breaks as spaces.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => escaped.push_str("#35;"),
            ';' => escaped.push_str("#59;"),
            '<' => escaped.push_str("#60;"),
            '>' => escaped.push_str("#62;"),
            '\n' | '\r' => escaped.push(' '),
            other => escaped.push(other),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;
    use crate::sim::{PatternMode, Simulation, catalogue_scenario};

    fn check(id: &str, mode: PatternMode, expected: Expect) {
        let scenario = catalogue_scenario(id).unwrap().with_mode(mode);
        let trace = Simulation::run(scenario, 0).unwrap();
        let text = trace_to_mermaid(&trace);
        assert_eq!(text, trace_to_mermaid(&trace), "deterministic");
        expected.assert_eq(&text);
    }

    #[test]
    fn escape_writes_syntax_characters_as_entities() {
        assert_eq!(escape("deliver #2; a<b>c\nd"), "deliver #35;2#59; a#60;b#62;c d");
    }

    #[test]
    fn duplicate_delivery_naive() {
        check(
            "f01-duplicate-delivery",
            PatternMode::Naive,
            expect![[r#"
                sequenceDiagram
                    %% f01-duplicate-delivery, seed 0, P1 Naive, P2 Naive, P3 Naive, P4 Naive
                    participant Client
                    participant API
                    participant Store
                    participant Relay
                    participant Broker
                    participant ConsumerA as Consumer A
                    participant ConsumerB as Consumer B
                    Client->>API: 1 POST /orders
                    API->>Store: 3 BEGIN
                    API->>Store: 4 SELECT stock
                    API->>Store: 5 INSERT orders
                    API->>Store: 6 INSERT outbox
                    API->>Store: 7 COMMIT
                    Relay->>Store: 8 SELECT outbox
                    Relay->>Broker: 9 publish d051b29e
                    Note over Broker: 10 duplicate d051b29e
                    Relay->>Store: 11 BEGIN
                    Broker->>ConsumerA: 12 deliver #35;1 d051b29e
                    Relay->>Store: 13 UPDATE outbox
                    Relay->>Store: 14 COMMIT
                    Broker->>ConsumerB: 16 deliver #35;2 d051b29e
                    Note over ConsumerB: 16 delivery #35;2
                    API-->>Client: 17 201
                    ConsumerA->>Store: 18 BEGIN
                    ConsumerB->>Store: 19 BEGIN
                    ConsumerA->>Store: 20 UPDATE stock
                    ConsumerA->>Store: 21 INSERT reservations
                    ConsumerA->>Store: 22 COMMIT
                    ConsumerB->>Store: 23 UPDATE stock
                    ConsumerB->>Store: 24 INSERT reservations
                    ConsumerA-->>Broker: 25 ack d051b29e
                    ConsumerB->>Store: 26 COMMIT
                    Note over ConsumerB: 26 I2 One reservation per order line: Order 73128e1c-fa54-4a40-a579-c0096c3c237c has 6 units of apple reserved, but it asks for only 3: the reservation effect ran twice.
                    ConsumerB-->>Broker: 27 ack d051b29e
                    Note over ConsumerB: 27 I6 Each OrderPlaced processed once: At quiescence, reserve-stock processed OrderPlaced d051b29e-45c8-4853-a592-75602f463cea of order 73128e1c-fa54-4a40-a579-c0096c3c237c twice, not exactly once (the message was published once).
            "#]],
        );
    }

    #[test]
    fn lost_response_idempotent() {
        check(
            "f05-lost-response",
            PatternMode::Idempotent,
            expect![[r#"
            sequenceDiagram
                %% f05-lost-response, seed 0, P1 Idempotent, P2 Idempotent, P3 Idempotent, P4 Idempotent
                participant Client
                participant API
                participant Store
                participant Relay
                participant Broker
                participant ConsumerA as Consumer A
                participant ConsumerB as Consumer B
                Client->>API: 1 POST /orders
                API->>Store: 3 BEGIN
                API->>Store: 4 SELECT idempotency_keys
                API->>Store: 5 INSERT idempotency_keys
                API->>Store: 6 COMMIT
                API->>Store: 8 BEGIN
                API->>Store: 9 SELECT stock
                API->>Store: 10 INSERT orders
                API->>Store: 11 INSERT outbox
                API->>Store: 12 COMMIT
                Relay->>Store: 13 SELECT outbox
                API->>Store: 15 BEGIN
                API->>Store: 16 UPDATE idempotency_keys
                API->>Store: 17 COMMIT
                Note over API: 18 response lost
                Relay->>Broker: 19 publish d051b29e
                Relay->>Store: 20 BEGIN
                Broker->>ConsumerB: 21 deliver #35;1 d051b29e
                Relay->>Store: 22 UPDATE outbox
                ConsumerB->>Store: 23 BEGIN
                ConsumerB->>Store: 24 INSERT inbox
                Relay->>Store: 25 COMMIT
                ConsumerB->>Store: 26 INSERT reservations
                ConsumerB->>Store: 27 UPDATE stock
                ConsumerB->>Store: 28 COMMIT
                ConsumerB-->>Broker: 29 ack d051b29e
                Note over Client: 31 timeout
                Client->>API: 32 POST /orders (again)
                API->>Store: 34 BEGIN
                API->>Store: 35 SELECT idempotency_keys
                Note over API: 35 replayed 201
                Note over API: 35 stored answer replayed, the handler does not run
                API->>Store: 36 COMMIT
                API-->>Client: 37 201
        "#]],
        );
    }
}
