//! Tests of P4: the naive consumer applies a duplicate twice, the inbox consumer once; a message
//! without an id is refused; crashes before and after the commit; two instances racing on one
//! message; retention; and a property over random schedules of all of these.
//!
//! The business effect here is [`ChargeForMessage`], a small effect of the tests' own (two
//! statements: insert a `charges` row, take one apple from `stock`), so that the number of
//! times it was applied can be counted exactly. The outbox tests reuse it.

use expect_test::{Expect, expect};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestError, TestRng, TestRunner};
use thiserror::Error;
use uuid::Uuid;

use super::*;
use crate::ids::{ChargeId, OrderId, PaymentId, Sku};
use crate::store::{ChargeRow, StockRow, StoreConfig};

// ---------------------------------------------------------------------------------------------
// The test effect and the world it runs in.

/// How many apples the test store starts with.
pub(crate) const APPLES_INITIAL: i64 = 100;

pub(crate) fn apple() -> Sku {
    Sku::new("apple")
}

pub(crate) fn store_with_apples() -> Store {
    Store::with_stock(StoreConfig::default(), [(apple(), APPLES_INITIAL)])
}

pub(crate) fn message_id(n: u128) -> MessageId {
    MessageId(Uuid::from_u128(n))
}

pub(crate) fn order_id(n: u128) -> OrderId {
    OrderId(Uuid::from_u128(0x0a00 + n))
}

/// Message `n`: "payment `pay-n` was captured for order `n`", with id `n`.
pub(crate) fn payment_captured(n: u128) -> MessagePayload {
    MessagePayload::PaymentCaptured {
        order_id: order_id(n),
        payment_id: PaymentId::new(format!("pay-{n}")),
    }
}

pub(crate) fn message(n: u128) -> Envelope {
    Envelope { message_id: Some(message_id(n)), payload: payment_captured(n) }
}

pub(crate) fn config(implementation: ConsumerImplementation) -> ConsumerConfig {
    ConsumerConfig {
        consumer: ConsumerName::new("charge-payment"),
        implementation,
        retention_ticks: 100,
    }
}

/// Why [`ChargeForMessage`] failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum ChargeError {
    /// A statement failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The effect was told to fail at its second statement.
    #[error("the charge was refused")]
    Refused,
    /// The message is not a `PaymentCaptured`.
    #[error("not a payment: {0:?}")]
    NotAPayment(MessagePayload),
    /// No `stock` row for the sku.
    #[error("no stock row")]
    NoStock,
}

/// Where a [`ChargeForMessage`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ChargeState {
    InsertCharge,
    TakeApple { charge_id: ChargeId },
    Done,
}

/// The tests' business effect: `INSERT INTO charges`, then `UPDATE stock SET available_qty =
/// available_qty - 1 WHERE sku = 'apple'` (which takes the row lock of `stock`, so two
/// instances can block each other inside the effect too). Each application leaves one
/// `charges` row for the order and one apple fewer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ChargeForMessage {
    payload: MessagePayload,
    refuse: bool,
    state: ChargeState,
}

impl ChargeForMessage {
    pub(crate) fn new(payload: &MessagePayload) -> Self {
        ChargeForMessage {
            payload: payload.clone(),
            refuse: false,
            state: ChargeState::InsertCharge,
        }
    }

    pub(crate) fn refusing(payload: &MessagePayload) -> Self {
        ChargeForMessage { refuse: true, ..ChargeForMessage::new(payload) }
    }
}

impl EffectSteps for ChargeForMessage {
    type Output = ChargeId;
    type Error = ChargeError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        match self.state {
            ChargeState::InsertCharge => {
                Some("INSERT INTO charges (order_id, payment_id)".to_owned())
            }
            ChargeState::TakeApple { .. } => {
                Some("UPDATE stock SET available_qty = available_qty - 1".to_owned())
            }
            ChargeState::Done => None,
        }
    }

    fn step(
        &mut self,
        store: &mut Store,
        tx: TxId,
        _now: Tick,
    ) -> Result<Step<ChargeId>, ChargeError> {
        match self.state.clone() {
            ChargeState::InsertCharge => {
                let MessagePayload::PaymentCaptured { order_id, payment_id } = &self.payload else {
                    return Err(ChargeError::NotAPayment(self.payload.clone()));
                };
                let id = store.next_charge_id();
                store.insert(
                    tx,
                    ChargeRow { id, order_id: *order_id, payment_id: payment_id.clone() },
                )?;
                self.state = ChargeState::TakeApple { charge_id: id };
                Ok(Step::Continue)
            }
            ChargeState::TakeApple { charge_id } => {
                if self.refuse {
                    return Err(ChargeError::Refused);
                }
                match store.update::<StockRow>(tx, &apple(), |row| row.available_qty -= 1) {
                    Ok(Some(_)) => {
                        self.state = ChargeState::Done;
                        Ok(Step::Done(charge_id))
                    }
                    Ok(None) => Err(ChargeError::NoStock),
                    Err(StoreError::Blocked(wait)) => Ok(Step::Blocked(wait)),
                    Err(error) => Err(error.into()),
                }
            }
            ChargeState::Done => Err(StoreError::UnknownTransaction { tx }.into()),
        }
    }
}

/// A delivery of `envelope` with the charge as its effect.
pub(crate) fn consumer(
    implementation: ConsumerImplementation,
    envelope: &Envelope,
) -> ConsumeMessage<ChargeForMessage> {
    ConsumeMessage::new(
        config(implementation),
        envelope.clone(),
        ChargeForMessage::new(&envelope.payload),
    )
}

pub(crate) fn deliver(
    store: &mut Store,
    implementation: ConsumerImplementation,
    envelope: &Envelope,
    now: Tick,
) -> Result<ConsumeOutcome<ChargeId>, RunError<InboxError<ChargeError>>> {
    consume_message(
        store,
        config(implementation),
        envelope.clone(),
        ChargeForMessage::new(&envelope.payload),
        now,
    )
}

/// How many times the effect was applied for message `n` (committed `charges` rows).
pub(crate) fn charges_for(store: &Store, n: u128) -> usize {
    store.committed().charges.values().filter(|charge| charge.order_id == order_id(n)).count()
}

pub(crate) fn available_apples(store: &Store) -> i64 {
    store.committed().stock.get(&apple()).map_or(-1, |row| row.available_qty)
}

fn has_inbox_row(store: &Store, n: u128) -> bool {
    store.committed().inbox.keys().any(|(id, _)| *id == message_id(n))
}

/// A short name of a message id for traces: `m1` for message 1.
fn short(id: Option<MessageId>) -> String {
    match id {
        Some(id) => format!("m{}", id.0.as_u128()),
        None => "no-id".to_owned(),
    }
}

fn describe_outcome(outcome: &ConsumeOutcome<ChargeId>) -> String {
    match outcome {
        ConsumeOutcome::MessageProcessed { message_id, tx, effect_output } => {
            format!("MessageProcessed {} in {tx}: {effect_output}", short(*message_id))
        }
        ConsumeOutcome::DuplicateIgnored { message_id, tx } => {
            format!("DuplicateIgnored {} (rolled back {tx})", short(Some(*message_id)))
        }
    }
}

/// The rows that tell the two consumers apart: charges per order, apples left, inbox rows.
fn describe_store(store: &Store) -> String {
    let mut lines = Vec::new();
    for charge in store.committed().charges.values() {
        lines.push(format!(
            "charges: {} for order {}",
            charge.id,
            charge.order_id.0.as_u128() - 0x0a00
        ));
    }
    lines.push(format!("stock: apple available {}", available_apples(store)));
    for row in store.committed().inbox.values() {
        lines.push(format!(
            "inbox: {} {} at {}",
            short(Some(row.message_id)),
            row.consumer,
            row.processed_at
        ));
    }
    lines.push(format!("open transactions: {}", store.open_transactions().count()));
    lines.join("\n")
}

/// Delivers `deliveries` one after the other (each alone, to its ack) at ticks 1, 2, ... and
/// compares the outcomes and the store with `expect`.
fn check(implementation: ConsumerImplementation, deliveries: &[Envelope], expect: Expect) {
    let mut store = store_with_apples();
    let mut lines = Vec::new();
    for (index, envelope) in deliveries.iter().enumerate() {
        let now = Tick(index as u64 + 1);
        let line = match deliver(&mut store, implementation, envelope, now) {
            Ok(outcome) => describe_outcome(&outcome),
            Err(error) => format!("error: {error}"),
        };
        lines.push(format!("deliver {} at {now}: {line}", short(envelope.message_id)));
    }
    lines.push(describe_store(&store));
    expect.assert_eq(&lines.join("\n"));
}

/// Steps `handler` once and records `name: statement -> result` in `trace`.
fn step_traced<S: Steps>(
    trace: &mut Vec<String>,
    name: &str,
    handler: &mut S,
    store: &mut Store,
    now: Tick,
) -> Result<Step<S::Output>, S::Error>
where
    S::Output: std::fmt::Debug,
    S::Error: std::fmt::Display,
{
    let statement = handler.next_statement(now).unwrap_or_else(|| "(nothing)".to_owned());
    let open_before = handler.open_transaction();
    let result = handler.step(store, now);
    let ended_without_commit = statement != "COMMIT" && handler.open_transaction().is_none();
    let said = match (&result, open_before) {
        // In these tests the only statement that ends a transaction without COMMIT is the
        // inbox insert that hits the unique constraint.
        (Ok(Step::Continue), Some(tx)) if ended_without_commit => {
            format!("unique violation, {tx} rolled back")
        }
        (Ok(Step::Continue), _) => "ok".to_owned(),
        (Ok(Step::Blocked(wait)), _) => format!("blocked: {} waits for {}", wait.tx, wait.holder),
        (Ok(Step::Done(_)), _) => "done".to_owned(),
        (Err(error), _) => format!("error: {error}"),
    };
    trace.push(format!("{name}: {statement} -> {said}"));
    result
}

fn shorten_ids(text: &str) -> String {
    text.replace("00000000-0000-0000-0000-00000000000", "m")
}

// ---------------------------------------------------------------------------------------------
// A duplicate: naive twice, idempotent once.

#[test]
fn the_naive_consumer_applies_a_duplicate_twice() {
    check(
        ConsumerImplementation::Naive,
        &[message(1), message(1)],
        expect![[r#"
            deliver m1 at t1: MessageProcessed m1 in tx1: charge-1
            deliver m1 at t2: MessageProcessed m1 in tx2: charge-2
            charges: charge-1 for order 1
            charges: charge-2 for order 1
            stock: apple available 98
            open transactions: 0"#]],
    );
}

#[test]
fn the_idempotent_consumer_applies_a_duplicate_once_and_acks_it() {
    check(
        ConsumerImplementation::Idempotent,
        &[message(1), message(1), message(2), message(1)],
        expect![[r#"
            deliver m1 at t1: MessageProcessed m1 in tx1: charge-1
            deliver m1 at t2: DuplicateIgnored m1 (rolled back tx2)
            deliver m2 at t3: MessageProcessed m2 in tx3: charge-2
            deliver m1 at t4: DuplicateIgnored m1 (rolled back tx4)
            charges: charge-1 for order 1
            charges: charge-2 for order 2
            stock: apple available 98
            inbox: m1 charge-payment at t1
            inbox: m2 charge-payment at t3
            open transactions: 0"#]],
    );
}

#[test]
fn exact_counts_of_a_duplicate_for_both_consumers() {
    for (implementation, charges_expected) in
        [(ConsumerImplementation::Naive, 2), (ConsumerImplementation::Idempotent, 1)]
    {
        let mut store = store_with_apples();
        let first = deliver(&mut store, implementation, &message(1), Tick(1)).unwrap();
        let second = deliver(&mut store, implementation, &message(1), Tick(2)).unwrap();
        assert!(first.applied_effect());
        assert_eq!(second.applied_effect(), implementation == ConsumerImplementation::Naive);
        assert_eq!(second.message_id(), Some(message_id(1)));
        assert_eq!(charges_for(&store, 1), charges_expected);
        assert_eq!(available_apples(&store), APPLES_INITIAL - charges_expected as i64);
        let inbox_rows_expected = usize::from(implementation == ConsumerImplementation::Idempotent);
        assert_eq!(store.committed().inbox.len(), inbox_rows_expected);
    }
}

#[test]
fn two_consumers_each_process_the_message_once() {
    let mut store = store_with_apples();
    let shipping = ConsumerConfig {
        consumer: ConsumerName::new("notify-shipping"),
        ..config(ConsumerImplementation::Idempotent)
    };
    for now in [Tick(1), Tick(2)] {
        deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), now).unwrap();
        consume_message(
            &mut store,
            shipping.clone(),
            message(1),
            ChargeForMessage::new(&payment_captured(1)),
            now,
        )
        .unwrap();
    }
    assert_eq!(charges_for(&store, 1), 2);
    let consumers: Vec<&str> =
        store.committed().inbox.keys().map(|(_, consumer)| consumer.as_str()).collect();
    assert_eq!(consumers, ["charge-payment", "notify-shipping"]);
}

// ---------------------------------------------------------------------------------------------
// A message without an id; an effect that fails; a finished consumer.

#[test]
fn a_message_without_an_id_is_a_typed_error_and_writes_nothing() {
    let mut store = store_with_apples();
    let before = store.clone();
    let envelope = Envelope { message_id: None, payload: payment_captured(1) };
    let mut consumer = consumer(ConsumerImplementation::Idempotent, &envelope);
    assert_eq!(
        consumer.next_statement(Tick(0)).as_deref(),
        Some("throw InvalidOperationException(\"no MessageId\")")
    );

    let error = consumer.step(&mut store, Tick(1)).unwrap_err();
    assert_eq!(
        error,
        InboxError::MissingMessageId {
            consumer: ConsumerName::new("charge-payment"),
            payload: payment_captured(1)
        }
    );
    assert!(!error.is_retryable());
    assert_eq!(store, before, "nothing written, no transaction begun");
    assert_eq!(consumer.state(), &ConsumeState::Ended);
    assert_eq!(consumer.open_transaction(), None);
    assert_eq!(consumer.next_statement(Tick(0)), None);
}

#[test]
fn the_naive_consumer_does_not_even_look_at_the_message_id() {
    check(
        ConsumerImplementation::Naive,
        &[Envelope { message_id: None, payload: payment_captured(1) }],
        expect![[r#"
            deliver no-id at t1: MessageProcessed no-id in tx1: charge-1
            charges: charge-1 for order 1
            stock: apple available 99
            open transactions: 0"#]],
    );
}

#[test]
fn a_failing_effect_rolls_back_the_inbox_row_too() {
    let mut store = store_with_apples();
    let error = consume_message(
        &mut store,
        config(ConsumerImplementation::Idempotent),
        message(1),
        ChargeForMessage::refusing(&payment_captured(1)),
        Tick(1),
    )
    .unwrap_err();
    assert_eq!(error, RunError::Failed(InboxError::Effect(ChargeError::Refused)));
    assert!(InboxError::<ChargeError>::Effect(ChargeError::Refused).is_retryable());
    assert_eq!(charges_for(&store, 1), 0);
    assert!(!has_inbox_row(&store, 1));
    assert_eq!(store.open_transactions().count(), 0);

    // The redelivery, with an effect that works this time, is processed.
    let outcome =
        deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(2)).unwrap();
    assert!(outcome.applied_effect());
    assert_eq!(charges_for(&store, 1), 1);
}

#[test]
fn stepping_a_finished_consumer_is_a_typed_error() {
    let mut store = store_with_apples();
    let mut consumer = consumer(ConsumerImplementation::Idempotent, &message(1));
    run_to_completion(&mut consumer, &mut store, Tick(1)).unwrap();
    assert_eq!(
        consumer.step(&mut store, Tick(2)),
        Err(InboxError::AlreadyEnded { consumer: ConsumerName::new("charge-payment") })
    );
    assert_eq!(charges_for(&store, 1), 1);
}

// ---------------------------------------------------------------------------------------------
// Crashes.

#[test]
fn the_statements_of_one_delivery() {
    for (implementation, expect) in [
        (
            ConsumerImplementation::Idempotent,
            expect![[r#"
                A: BEGIN -> ok
                A: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 1) -> ok
                A: INSERT INTO charges (order_id, payment_id) -> ok
                A: UPDATE stock SET available_qty = available_qty - 1 -> ok
                A: COMMIT -> ok
                A: ACK m1 -> done"#]],
        ),
        (
            ConsumerImplementation::Naive,
            expect![[r#"
                A: BEGIN -> ok
                A: INSERT INTO charges (order_id, payment_id) -> ok
                A: UPDATE stock SET available_qty = available_qty - 1 -> ok
                A: COMMIT -> ok
                A: ACK m1 -> done"#]],
        ),
    ] {
        let mut store = store_with_apples();
        let mut trace = Vec::new();
        let mut a = consumer(implementation, &message(1));
        while a.next_statement(Tick(0)).is_some() {
            step_traced(&mut trace, "A", &mut a, &mut store, Tick(1)).unwrap();
        }
        expect.assert_eq(&shorten_ids(&trace.join("\n")));
    }
}

#[test]
fn a_crash_before_commit_leaves_no_inbox_row_and_no_effect() {
    let mut store = store_with_apples();
    let before = store.committed().clone();
    let mut a = consumer(ConsumerImplementation::Idempotent, &message(1));
    while !matches!(a.state(), ConsumeState::Commit { .. }) {
        assert_eq!(a.step(&mut store, Tick(1)), Ok(Step::Continue));
    }
    let tx = a.open_transaction().unwrap();

    let crashed = a.crash(&mut store);
    assert_eq!(crashed, ConsumerCrashed::BeforeCommit { tx });
    assert!(crashed.needs_redelivery());
    assert_eq!(store.committed(), &before);
    assert!(!store.is_open(tx));
    assert!(!has_inbox_row(&store, 1));
    assert_eq!(charges_for(&store, 1), 0);

    // The redelivery applies the effect, once.
    let outcome =
        deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(2)).unwrap();
    assert!(outcome.applied_effect());
    assert_eq!((charges_for(&store, 1), has_inbox_row(&store, 1)), (1, true));
}

#[test]
fn a_crash_after_commit_before_ack_is_redelivered_and_absorbed() {
    for (implementation, charges_expected) in
        [(ConsumerImplementation::Naive, 2), (ConsumerImplementation::Idempotent, 1)]
    {
        let mut store = store_with_apples();
        let mut a = consumer(implementation, &message(1));
        while a.state() != &ConsumeState::Acknowledge {
            assert_eq!(a.step(&mut store, Tick(1)), Ok(Step::Continue));
        }
        let crashed = a.crash(&mut store);
        assert_eq!(crashed, ConsumerCrashed::AfterCommitBeforeAck { applied_effect: true });
        assert!(crashed.needs_redelivery());
        assert_eq!(charges_for(&store, 1), 1, "the commit stands");

        let redelivery = deliver(&mut store, implementation, &message(1), Tick(2)).unwrap();
        assert_eq!(redelivery.applied_effect(), implementation == ConsumerImplementation::Naive);
        assert_eq!(charges_for(&store, 1), charges_expected);
    }
}

#[test]
fn a_crash_at_every_step_then_a_redelivery_applies_the_effect_exactly_once() {
    let steps_total = 6;
    for crash_after_steps in 0..=steps_total {
        let mut store = store_with_apples();
        let mut a = consumer(ConsumerImplementation::Idempotent, &message(1));
        for _ in 0..crash_after_steps {
            a.step(&mut store, Tick(1)).unwrap();
        }
        let crashed = a.crash(&mut store);
        assert_eq!(crashed.needs_redelivery(), crash_after_steps < steps_total);
        assert_eq!(store.open_transactions().count(), 0);
        // I5 right after the crash: the row exists exactly when the effect does.
        assert_eq!(
            has_inbox_row(&store, 1),
            charges_for(&store, 1) == 1,
            "after {crash_after_steps} steps"
        );
        if crashed.needs_redelivery() {
            deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(2)).unwrap();
        }
        assert_eq!(
            (charges_for(&store, 1), has_inbox_row(&store, 1)),
            (1, true),
            "after {crash_after_steps} steps"
        );
    }
}

#[test]
fn a_crash_after_ack_changes_nothing() {
    let mut store = store_with_apples();
    let mut a = consumer(ConsumerImplementation::Idempotent, &message(1));
    run_to_completion(&mut a, &mut store, Tick(1)).unwrap();
    let before = store.clone();
    assert_eq!(a.crash(&mut store), ConsumerCrashed::AfterEnd);
    assert_eq!(store, before);
}

// ---------------------------------------------------------------------------------------------
// Two instances of the consumer race on one message (F4).

/// Steps the two instances in `schedule` order (`'A'` or `'B'`; a finished instance is
/// skipped) and returns the trace, the store and the outcomes.
fn race(
    implementation: ConsumerImplementation,
    schedule: &str,
) -> (String, Store, Vec<ConsumeOutcome<ChargeId>>) {
    let mut store = store_with_apples();
    let mut a = consumer(implementation, &message(1));
    let mut b = consumer(implementation, &message(1));
    let mut trace = Vec::new();
    let mut outcomes = Vec::new();
    for name in schedule.chars() {
        let handler = if name == 'A' { &mut a } else { &mut b };
        if handler.next_statement(Tick(0)).is_none() {
            continue;
        }
        if let Step::Done(outcome) =
            step_traced(&mut trace, &name.to_string(), handler, &mut store, Tick(1)).unwrap()
        {
            trace.push(format!("{name}: {}", describe_outcome(&outcome)));
            outcomes.push(outcome);
        }
    }
    (shorten_ids(&trace.join("\n")), store, outcomes)
}

#[test]
fn two_idempotent_instances_interleaved_on_one_message_apply_it_once() {
    let (trace, store, outcomes) = race(ConsumerImplementation::Idempotent, "ABABBAAAABBBB");
    expect![[r#"
        A: BEGIN -> ok
        B: BEGIN -> ok
        A: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 1) -> ok
        B: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 1) -> blocked: tx2 waits for tx1
        B: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 1) -> blocked: tx2 waits for tx1
        A: INSERT INTO charges (order_id, payment_id) -> ok
        A: UPDATE stock SET available_qty = available_qty - 1 -> ok
        A: COMMIT -> ok
        A: ACK m1 -> done
        A: MessageProcessed m1 in tx1: charge-1
        B: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 1) -> unique violation, tx2 rolled back
        B: ACK m1 -> done
        B: DuplicateIgnored m1 (rolled back tx2)"#]]
    .assert_eq(&trace);
    assert_eq!(outcomes.iter().filter(|outcome| outcome.applied_effect()).count(), 1);
    assert_eq!(charges_for(&store, 1), 1);
    assert_eq!(available_apples(&store), APPLES_INITIAL - 1);
    assert_eq!(store.open_transactions().count(), 0);
}

#[test]
fn when_the_first_instance_crashes_the_waiting_one_applies_the_effect() {
    let mut store = store_with_apples();
    let mut a = consumer(ConsumerImplementation::Idempotent, &message(1));
    let mut b = consumer(ConsumerImplementation::Idempotent, &message(1));
    a.step(&mut store, Tick(1)).unwrap();
    a.step(&mut store, Tick(1)).unwrap();
    b.step(&mut store, Tick(1)).unwrap();
    assert!(matches!(b.step(&mut store, Tick(1)), Ok(Step::Blocked(_))));

    assert!(matches!(a.crash(&mut store), ConsumerCrashed::BeforeCommit { .. }));
    let outcome = run_to_completion(&mut b, &mut store, Tick(2)).unwrap();
    assert!(outcome.applied_effect());
    assert_eq!((charges_for(&store, 1), has_inbox_row(&store, 1)), (1, true));
}

#[test]
fn two_naive_instances_interleaved_on_one_message_apply_it_twice() {
    let (trace, store, outcomes) = race(ConsumerImplementation::Naive, "ABABABBAABBB");
    expect![[r#"
        A: BEGIN -> ok
        B: BEGIN -> ok
        A: INSERT INTO charges (order_id, payment_id) -> ok
        B: INSERT INTO charges (order_id, payment_id) -> ok
        A: UPDATE stock SET available_qty = available_qty - 1 -> ok
        B: UPDATE stock SET available_qty = available_qty - 1 -> blocked: tx2 waits for tx1
        B: UPDATE stock SET available_qty = available_qty - 1 -> blocked: tx2 waits for tx1
        A: COMMIT -> ok
        A: ACK m1 -> done
        A: MessageProcessed m1 in tx1: charge-1
        B: UPDATE stock SET available_qty = available_qty - 1 -> ok
        B: COMMIT -> ok
        B: ACK m1 -> done
        B: MessageProcessed m1 in tx2: charge-2"#]]
    .assert_eq(&trace);
    assert_eq!(outcomes.iter().filter(|outcome| outcome.applied_effect()).count(), 2);
    assert_eq!(charges_for(&store, 1), 2);
    assert_eq!(available_apples(&store), APPLES_INITIAL - 2);
}

// ---------------------------------------------------------------------------------------------
// Retention (F10).

#[test]
fn a_duplicate_within_the_retention_window_is_ignored_and_after_it_processed_again() {
    let mut store = store_with_apples();
    let idempotent = config(ConsumerImplementation::Idempotent);
    deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(10)).unwrap();
    deliver(&mut store, ConsumerImplementation::Idempotent, &message(2), Tick(50)).unwrap();

    // At t110 the row of t10 is exactly 100 ticks old: kept.
    let purged = purge_expired_inbox_rows(&mut store, idempotent.clone(), Tick(110)).unwrap();
    assert_eq!(
        purged,
        InboxRowsPurged {
            consumer: idempotent.consumer.clone(),
            processed_before: Tick(10),
            message_ids: vec![]
        }
    );
    let duplicate =
        deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(110)).unwrap();
    assert!(!duplicate.applied_effect());

    // At t111 it is older than the window: purged, and the late duplicate is processed again.
    let purged = purge_expired_inbox_rows(&mut store, idempotent.clone(), Tick(111)).unwrap();
    assert_eq!(
        purged,
        InboxRowsPurged {
            consumer: idempotent.consumer.clone(),
            processed_before: Tick(11),
            message_ids: vec![message_id(1)]
        }
    );
    assert!(!has_inbox_row(&store, 1));
    assert!(has_inbox_row(&store, 2));
    let late_duplicate =
        deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(111)).unwrap();
    assert!(late_duplicate.applied_effect());
    assert_eq!(charges_for(&store, 1), 2, "the retention window is the limit of the guarantee");
    assert_eq!(charges_for(&store, 2), 1);
}

#[test]
fn a_purge_deletes_only_its_own_consumers_rows() {
    let mut store = store_with_apples();
    let other = ConsumerConfig {
        consumer: ConsumerName::new("notify-shipping"),
        retention_ticks: 1_000,
        ..config(ConsumerImplementation::Idempotent)
    };
    deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(1)).unwrap();
    consume_message(
        &mut store,
        other.clone(),
        message(1),
        ChargeForMessage::new(&payment_captured(1)),
        Tick(1),
    )
    .unwrap();

    let purged =
        purge_expired_inbox_rows(&mut store, config(ConsumerImplementation::Idempotent), Tick(500))
            .unwrap();
    assert_eq!(purged.message_ids, vec![message_id(1)]);
    let left: Vec<&str> =
        store.committed().inbox.keys().map(|(_, consumer)| consumer.as_str()).collect();
    assert_eq!(left, ["notify-shipping"]);
    let purged = purge_expired_inbox_rows(&mut store, other, Tick(500)).unwrap();
    assert_eq!(purged.message_ids, vec![]);
}

#[test]
fn a_delivery_racing_a_purge_waits_for_it_then_processes_the_message_again() {
    let mut store = store_with_apples();
    deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(1)).unwrap();
    let mut purge = PurgeExpiredInboxRows::new(config(ConsumerImplementation::Idempotent));
    let mut a = consumer(ConsumerImplementation::Idempotent, &message(1));
    let mut trace = Vec::new();
    let now = Tick(200);
    step_traced(&mut trace, "purge", &mut purge, &mut store, now).unwrap();
    step_traced(&mut trace, "purge", &mut purge, &mut store, now).unwrap();
    step_traced(&mut trace, "A", &mut a, &mut store, now).unwrap();
    step_traced(&mut trace, "A", &mut a, &mut store, now).unwrap();
    step_traced(&mut trace, "purge", &mut purge, &mut store, now).unwrap();
    while a.next_statement(now).is_some() {
        step_traced(&mut trace, "A", &mut a, &mut store, now).unwrap();
    }
    expect![[r#"
        purge: BEGIN -> ok
        purge: DELETE FROM inbox WHERE consumer = 'charge-payment' AND processed_at < 100 -> ok
        A: BEGIN -> ok
        A: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 200) -> blocked: tx3 waits for tx2
        purge: COMMIT -> done
        A: INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('m1', 'charge-payment', 200) -> ok
        A: INSERT INTO charges (order_id, payment_id) -> ok
        A: UPDATE stock SET available_qty = available_qty - 1 -> ok
        A: COMMIT -> ok
        A: ACK m1 -> done"#]]
    .assert_eq(&shorten_ids(&trace.join("\n")));
    assert_eq!(charges_for(&store, 1), 2);
    assert_eq!(
        store.committed().inbox.values().map(|row| row.processed_at).collect::<Vec<_>>(),
        [now]
    );
}

// ---------------------------------------------------------------------------------------------
// The property: random deliveries, duplicates, crashes and interleavings of two instances.

const MESSAGES: u128 = 3;
const INSTANCES: usize = 2;

/// One move of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    /// The broker hands a pending delivery (picked by index, modulo) to an idle instance.
    Deliver { instance: usize, pending: usize },
    /// The broker delivers message `message` once more (F1; to an instance later, possibly while
    /// another instance is processing it, F4).
    Duplicate { message: u128 },
    /// An instance runs one statement.
    Step { instance: usize },
    /// An instance crashes wherever it is (F2, F3): its transaction is rolled back, and an
    /// unacknowledged delivery goes back to the broker.
    Crash { instance: usize },
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        2 => (0..INSTANCES, 0..8usize)
            .prop_map(|(instance, pending)| Action::Deliver { instance, pending }),
        1 => (1..=MESSAGES).prop_map(|message| Action::Duplicate { message }),
        6 => (0..INSTANCES).prop_map(|instance| Action::Step { instance }),
        1 => (0..INSTANCES).prop_map(|instance| Action::Crash { instance }),
    ]
}

/// The broker, two instances of one consumer, and the store.
struct World {
    implementation: ConsumerImplementation,
    store: Store,
    pending: Vec<Envelope>,
    instances: Vec<Option<ConsumeMessage<ChargeForMessage>>>,
    now: Tick,
}

impl World {
    fn new(implementation: ConsumerImplementation) -> World {
        World {
            implementation,
            store: store_with_apples(),
            pending: (1..=MESSAGES).map(message).collect(),
            instances: (0..INSTANCES).map(|_| None).collect(),
            now: Tick(0),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<(), String> {
        self.now = self.now.plus(1);
        match *action {
            Action::Deliver { instance, pending } => {
                if self.instances[instance].is_none() && !self.pending.is_empty() {
                    let envelope = self.pending.remove(pending % self.pending.len());
                    self.instances[instance] = Some(consumer(self.implementation, &envelope));
                }
            }
            Action::Duplicate { message: n } => self.pending.push(message(n)),
            Action::Step { instance } => {
                if let Some(handler) = self.instances[instance].as_mut() {
                    match handler.step(&mut self.store, self.now) {
                        Ok(Step::Continue | Step::Blocked(_)) => {}
                        Ok(Step::Done(_)) => self.instances[instance] = None,
                        Err(error) => return Err(format!("instance {instance} failed: {error}")),
                    }
                }
            }
            Action::Crash { instance } => {
                if let Some(handler) = self.instances[instance].take() {
                    let envelope = handler.envelope().clone();
                    if handler.crash(&mut self.store).needs_redelivery() {
                        self.pending.push(envelope);
                    }
                }
            }
        }
        self.check_at_most_once()
    }

    /// Runs every delivery to its ack with no more faults: the broker's "eventually".
    fn drain(&mut self) -> Result<(), String> {
        for _ in 0..10_000 {
            if self.pending.is_empty() && self.instances.iter().all(Option::is_none) {
                return Ok(());
            }
            for instance in 0..INSTANCES {
                self.apply(&Action::Deliver { instance, pending: 0 })?;
                self.apply(&Action::Step { instance })?;
            }
        }
        Err("the deliveries did not drain within 10000 rounds".to_owned())
    }

    /// After every action: no effect applied twice; for the inbox consumer, I5.
    fn check_at_most_once(&self) -> Result<(), String> {
        for n in 1..=MESSAGES {
            let charges = charges_for(&self.store, n);
            if charges > 1 {
                return Err(format!("message m{n} applied {charges} times"));
            }
            if self.implementation == ConsumerImplementation::Idempotent
                && has_inbox_row(&self.store, n) != (charges == 1)
            {
                return Err(format!("I5: inbox row of m{n} without its effect, or the reverse"));
            }
        }
        Ok(())
    }

    /// At quiescence: every message applied exactly once, stock consistent, nothing open.
    fn check_exactly_once(&self) -> Result<(), String> {
        self.check_at_most_once()?;
        for n in 1..=MESSAGES {
            let charges = charges_for(&self.store, n);
            if charges != 1 {
                return Err(format!("message m{n} applied {charges} times at quiescence"));
            }
        }
        let apples_expected = APPLES_INITIAL - MESSAGES as i64;
        if available_apples(&self.store) != apples_expected {
            return Err(format!(
                "{} apples left, {apples_expected} expected",
                available_apples(&self.store)
            ));
        }
        if self.store.open_transactions().count() != 0 {
            return Err("a transaction is left open".to_owned());
        }
        Ok(())
    }
}

/// Runs `actions`, drains, and checks exactly-once (and I5 for the inbox consumer).
fn check_schedule(
    implementation: ConsumerImplementation,
    actions: &[Action],
) -> Result<(), String> {
    let mut world = World::new(implementation);
    for action in actions {
        world.apply(action)?;
    }
    world.drain()?;
    world.check_exactly_once()
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(512))]

    #[test]
    fn the_inbox_consumer_applies_each_message_exactly_once(
        actions in prop::collection::vec(action(), 0..60)
    ) {
        let result = check_schedule(ConsumerImplementation::Idempotent, &actions);
        prop_assert_eq!(result, Ok(()));
    }
}

#[test]
fn the_same_property_catches_the_naive_consumer() {
    let config = Config { cases: 512, failure_persistence: None, ..Config::default() };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let result = runner.run(&prop::collection::vec(action(), 0..60), |actions| {
        let result = check_schedule(ConsumerImplementation::Naive, &actions);
        prop_assert_eq!(result, Ok(()));
        Ok(())
    });
    let Err(TestError::Fail(_, minimal)) = result else {
        panic!("the naive consumer passed: {result:?}");
    };
    // The shrunk counterexample: one duplicate delivery.
    let shown =
        format!("{minimal:?}\n{:?}", check_schedule(ConsumerImplementation::Naive, &minimal));
    expect![[r#"
        [Duplicate { message: 1 }]
        Err("message m1 applied 2 times")"#]]
    .assert_eq(&shown);
    assert_eq!(check_schedule(ConsumerImplementation::Idempotent, &minimal), Ok(()));
}

#[test]
fn a_store_at_its_transaction_limit_fails_the_delivery_retryably_and_writes_nothing() {
    let limits = StoreConfig { open_transactions_max: 1, ..StoreConfig::default() };
    let mut store = Store::with_stock(limits, [(apple(), APPLES_INITIAL)]);
    let holder = store.begin().unwrap();
    let mut a = consumer(ConsumerImplementation::Idempotent, &message(1));
    let error = a.step(&mut store, Tick(1)).unwrap_err();
    assert_eq!(error, InboxError::Store(StoreError::TooManyOpenTransactions { open: 1, limit: 1 }));
    assert!(error.is_retryable());
    assert_eq!(a.state(), &ConsumeState::Ended);

    store.rollback(holder).unwrap();
    assert_eq!(a.crash(&mut store), ConsumerCrashed::AfterEnd);
    let outcome =
        deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(2)).unwrap();
    assert!(outcome.applied_effect());
}

#[test]
fn an_inbox_row_expires_exactly_when_the_purge_deletes_it() {
    for retention_ticks in [0, 1, 5, 30] {
        let config = ConsumerConfig {
            consumer: ConsumerName::new("reserve-stock"),
            implementation: ConsumerImplementation::Idempotent,
            retention_ticks,
        };
        let purge = PurgeExpiredInboxRows::new(config.clone());
        for processed_at in 0..40 {
            for now in 0..80 {
                let deleted = Tick(processed_at) < purge.processed_before(Tick(now));
                let expired = Tick(now) >= config.inbox_row_expires_at(Tick(processed_at));
                assert_eq!(deleted, expired, "{processed_at} {now} {retention_ticks}");
            }
        }
    }
}

#[test]
fn the_purge_names_the_transaction_it_holds_open_at_every_step() {
    // The lock graph (deadlock breaking) and a crash find the retention job's transaction
    // through `open_transaction`: it must name the open transaction from BEGIN to COMMIT, and
    // nothing before or after.
    let mut store = store_with_apples();
    deliver(&mut store, ConsumerImplementation::Idempotent, &message(1), Tick(1)).unwrap();
    let mut purge = PurgeExpiredInboxRows::new(config(ConsumerImplementation::Idempotent));
    let now = Tick(500);
    assert_eq!(purge.open_transaction(), None, "before BEGIN");
    let mut held = Vec::new();
    while purge.next_statement(now).is_some() {
        let step = purge.step(&mut store, now).unwrap();
        held.push(purge.open_transaction().map(|tx| store.is_open(tx)));
        if let Step::Done(purged) = step {
            assert_eq!(purged.message_ids, [message_id(1)]);
        }
    }
    // After BEGIN and after DELETE the open transaction is named; after COMMIT none is.
    assert_eq!(held, [Some(true), Some(true), None]);
}
