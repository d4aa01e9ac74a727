//! Tests of the outbox relay: order and limit of a batch, marking, a crash after publish and
//! before marking (F12) that publishes the same message twice, and the whole chain from an
//! outbox row to a consumer that applies the effect once (inbox) or twice (naive).

use expect_test::{Expect, expect};

use super::*;
use crate::inbox::tests::{
    APPLES_INITIAL, available_apples, charges_for, deliver, message_id, payment_captured,
    store_with_apples,
};
use crate::inbox::{ConsumeOutcome, ConsumerImplementation};

fn outbox_row(n: u128, created_at: u64, published: bool) -> OutboxRow {
    OutboxRow {
        message_id: message_id(n),
        payload: payment_captured(n),
        published,
        created_at: Tick(created_at),
    }
}

fn store_with_outbox(rows: &[OutboxRow]) -> Store {
    let mut store = store_with_apples();
    store
        .transaction(|store, tx| -> Result<(), StoreError> {
            rows.iter().try_for_each(|row| store.insert(tx, row.clone()))
        })
        .unwrap();
    store
}

fn short(id: MessageId) -> String {
    format!("m{}", id.0.as_u128())
}

fn unpublished(store: &Store) -> Vec<String> {
    store
        .committed()
        .outbox
        .values()
        .filter(|row| !row.published)
        .map(|row| short(row.message_id))
        .collect()
}

/// Runs one relay alone, tracing each statement and each message it hands over, then the
/// unpublished rows left.
fn check(rows: &[OutboxRow], config: RelayConfig, expect: Expect) {
    let mut store = store_with_outbox(rows);
    let mut relay = RelayOutbox::new(config);
    let mut lines = Vec::new();
    while let Some(statement) = relay.next_statement(Tick(0)) {
        let result = relay.step(&mut store, Tick(1000)).unwrap();
        let shortened = statement.replace("00000000-0000-0000-0000-00000000000", "m");
        let said = match result {
            Step::Continue => "ok".to_owned(),
            Step::Blocked(wait) => format!("blocked: {wait}"),
            Step::Done(relayed) => {
                let ids: Vec<String> = relayed.published.into_iter().map(short).collect();
                if ids.is_empty() {
                    "done, nothing to publish".to_owned()
                } else {
                    format!("done, published and marked: {}", ids.join(", "))
                }
            }
        };
        lines.push(format!("{shortened} -> {said}"));
        for envelope in relay.take_published() {
            lines.push(format!(
                "  broker takes {}",
                envelope.message_id.map_or("no-id".to_owned(), short)
            ));
        }
    }
    lines.push(format!("unpublished: {:?}", unpublished(&store)));
    expect.assert_eq(&lines.join("\n"));
}

#[test]
fn the_relay_publishes_the_oldest_unpublished_rows_then_marks_them() {
    check(
        &[
            outbox_row(1, 30, false),
            outbox_row(2, 10, false),
            outbox_row(3, 10, true),
            outbox_row(4, 20, false),
        ],
        RelayConfig { batch_size_max: 16 },
        expect![[r#"
            SELECT message_id, payload FROM outbox WHERE NOT published ORDER BY created_at, message_id LIMIT 16 -> ok
            PUBLISH m2 -> ok
              broker takes m2
            PUBLISH m4 -> ok
              broker takes m4
            PUBLISH m1 -> ok
              broker takes m1
            BEGIN -> ok
            UPDATE outbox SET published = true WHERE message_id IN ('m2', 'm4', 'm1') -> ok
            COMMIT -> done, published and marked: m2, m4, m1
            unpublished: []"#]],
    );
}

#[test]
fn the_batch_limit_leaves_the_rest_for_the_next_run() {
    check(
        &[outbox_row(3, 10, false), outbox_row(1, 10, false), outbox_row(2, 5, false)],
        RelayConfig { batch_size_max: 2 },
        expect![[r#"
            SELECT message_id, payload FROM outbox WHERE NOT published ORDER BY created_at, message_id LIMIT 2 -> ok
            PUBLISH m2 -> ok
              broker takes m2
            PUBLISH m1 -> ok
              broker takes m1
            BEGIN -> ok
            UPDATE outbox SET published = true WHERE message_id IN ('m2', 'm1') -> ok
            COMMIT -> done, published and marked: m2, m1
            unpublished: ["m3"]"#]],
    );
}

#[test]
fn an_outbox_with_nothing_unpublished_ends_after_the_select() {
    check(
        &[outbox_row(1, 10, true)],
        RelayConfig::default(),
        expect![[r#"
        SELECT message_id, payload FROM outbox WHERE NOT published ORDER BY created_at, message_id LIMIT 16 -> done, nothing to publish
        unpublished: []"#]],
    );
}

#[test]
fn relay_outbox_once_returns_the_messages_and_marks_them() {
    let mut store = store_with_outbox(&[outbox_row(1, 10, false), outbox_row(2, 11, false)]);
    let (envelopes, relayed) =
        relay_outbox_once(&mut store, RelayConfig::default(), Tick(20)).unwrap();
    let ids: Vec<Option<MessageId>> =
        envelopes.iter().map(|envelope| envelope.message_id).collect();
    assert_eq!(ids, [Some(message_id(1)), Some(message_id(2))]);
    assert_eq!(envelopes[0].payload, payment_captured(1));
    assert_eq!(relayed, OutboxRelayed { published: vec![message_id(1), message_id(2)] });
    assert!(unpublished(&store).is_empty());

    // The next run finds nothing.
    let (envelopes, relayed) =
        relay_outbox_once(&mut store, RelayConfig::default(), Tick(21)).unwrap();
    assert_eq!((envelopes, relayed), (vec![], OutboxRelayed { published: vec![] }));
}

#[test]
fn stepping_a_finished_relay_is_a_typed_error() {
    let mut store = store_with_outbox(&[]);
    let mut relay = RelayOutbox::new(RelayConfig::default());
    run_to_completion(&mut relay, &mut store, Tick(1)).unwrap();
    assert_eq!(relay.step(&mut store, Tick(2)), Err(RelayError::AlreadyEnded));
}

/// Runs a relay until the state `stop_at` says so, then crashes it. Returns what the broker took
/// (drained after every step) and the crash report.
fn run_and_crash(
    store: &mut Store,
    stop_at: impl Fn(&RelayState) -> bool,
) -> (Vec<Envelope>, RelayCrashed) {
    let mut relay = RelayOutbox::new(RelayConfig::default());
    let mut taken = Vec::new();
    while !stop_at(relay.state()) {
        relay.step(store, Tick(1)).unwrap();
        taken.extend(relay.take_published());
    }
    (taken, relay.crash(store))
}

#[test]
fn a_relay_crash_after_publish_before_marking_publishes_the_message_again() {
    let mut store = store_with_outbox(&[outbox_row(1, 10, false)]);

    let (first_run, crashed) =
        run_and_crash(&mut store, |state| matches!(state, RelayState::Begin { .. }));
    assert_eq!(
        crashed,
        RelayCrashed {
            rolled_back: None,
            published_not_marked: vec![message_id(1)],
            published_not_taken: vec![]
        }
    );
    assert_eq!(unpublished(&store), ["m1"]);

    let (second_run, relayed) =
        relay_outbox_once(&mut store, RelayConfig::default(), Tick(2)).unwrap();
    assert_eq!(relayed.published, [message_id(1)]);
    let published: Vec<Option<MessageId>> =
        first_run.iter().chain(&second_run).map(|envelope| envelope.message_id).collect();
    assert_eq!(
        published,
        [Some(message_id(1)), Some(message_id(1))],
        "F12: the same id published twice"
    );
    assert!(unpublished(&store).is_empty());
}

#[test]
fn a_relay_crash_inside_the_marking_transaction_rolls_the_marks_back() {
    let mut store = store_with_outbox(&[outbox_row(1, 10, false), outbox_row(2, 11, false)]);
    let (taken, crashed) =
        run_and_crash(&mut store, |state| matches!(state, RelayState::Commit { .. }));
    assert_eq!(taken.len(), 2);
    let tx = crashed.rolled_back.unwrap();
    assert!(!store.is_open(tx));
    assert_eq!(crashed.published_not_marked, [message_id(1), message_id(2)]);
    assert_eq!(unpublished(&store), ["m1", "m2"]);
}

#[test]
fn a_crash_reports_the_messages_the_caller_had_not_taken_yet() {
    let mut store = store_with_outbox(&[outbox_row(1, 10, false)]);
    let mut relay = RelayOutbox::new(RelayConfig::default());
    relay.step(&mut store, Tick(1)).unwrap();
    relay.step(&mut store, Tick(1)).unwrap();
    let crashed = relay.crash(&mut store);
    let not_taken: Vec<Option<MessageId>> =
        crashed.published_not_taken.iter().map(|envelope| envelope.message_id).collect();
    assert_eq!(not_taken, [Some(message_id(1))]);
    assert_eq!(crashed.published_not_marked, [message_id(1)]);
}

#[test]
fn two_relays_racing_both_publish_and_the_second_marking_waits_for_the_first() {
    let mut store = store_with_outbox(&[outbox_row(1, 10, false)]);
    let mut first = RelayOutbox::new(RelayConfig::default());
    let mut second = RelayOutbox::new(RelayConfig::default());
    // Both read and publish before either marks.
    for _ in 0..3 {
        first.step(&mut store, Tick(1)).unwrap();
        second.step(&mut store, Tick(1)).unwrap();
    }
    assert!(matches!(first.state(), RelayState::MarkPublished { .. }));
    first.step(&mut store, Tick(1)).unwrap();
    assert!(matches!(second.step(&mut store, Tick(1)), Ok(Step::Blocked(_))));
    assert_eq!(
        first.step(&mut store, Tick(1)),
        Ok(Step::Done(OutboxRelayed { published: vec![message_id(1)] }))
    );
    assert_eq!(
        run_to_completion(&mut second, &mut store, Tick(1)),
        Ok(OutboxRelayed { published: vec![message_id(1)] })
    );
    assert_eq!(first.take_published().len() + second.take_published().len(), 2);
    assert!(unpublished(&store).is_empty());
}

#[test]
fn an_outbox_row_published_twice_is_applied_once_by_the_inbox_and_twice_by_the_naive_consumer() {
    for (implementation, charges_expected) in
        [(ConsumerImplementation::Idempotent, 1), (ConsumerImplementation::Naive, 2)]
    {
        let mut store = store_with_outbox(&[outbox_row(1, 10, false)]);
        let (mut broker, _) =
            run_and_crash(&mut store, |state| matches!(state, RelayState::Begin { .. }));
        let (second_run, _) =
            relay_outbox_once(&mut store, RelayConfig::default(), Tick(2)).unwrap();
        broker.extend(second_run);
        assert_eq!(broker.len(), 2);

        let outcomes: Vec<ConsumeOutcome<_>> = broker
            .iter()
            .enumerate()
            .map(|(index, envelope)| {
                deliver(&mut store, implementation, envelope, Tick(10 + index as u64)).unwrap()
            })
            .collect();
        let applied: Vec<bool> = outcomes.iter().map(ConsumeOutcome::applied_effect).collect();
        let applied_expected = implementation == ConsumerImplementation::Naive;
        assert_eq!(applied, [true, applied_expected], "{implementation:?}");
        assert_eq!(charges_for(&store, 1), charges_expected, "{implementation:?}");
        assert_eq!(available_apples(&store), APPLES_INITIAL - charges_expected as i64);
    }
}

#[test]
fn the_relay_names_the_transaction_it_holds_open_at_every_step() {
    // The lock graph (deadlock breaking) finds the relay's marking transaction through
    // `open_transaction`: from BEGIN to COMMIT it names the open transaction; the autocommit
    // SELECT and the publishes hold none.
    let mut store = store_with_outbox(&[outbox_row(1, 10, false), outbox_row(2, 11, false)]);
    let mut relay = RelayOutbox::new(RelayConfig::default());
    assert_eq!(relay.open_transaction(), None, "before the SELECT");
    let mut held = Vec::new();
    while let Some(statement) = relay.next_statement(Tick(1)) {
        relay.step(&mut store, Tick(1)).unwrap();
        let open = relay.open_transaction().filter(|tx| store.is_open(*tx));
        held.push(format!(
            "{} -> {}",
            statement.split_whitespace().next().unwrap_or(""),
            if open.is_some() { "holds its transaction" } else { "holds none" }
        ));
    }
    expect![[r#"
        SELECT -> holds none
        PUBLISH -> holds none
        PUBLISH -> holds none
        BEGIN -> holds its transaction
        UPDATE -> holds its transaction
        COMMIT -> holds none"#]]
    .assert_eq(&held.join("\n"));
}
