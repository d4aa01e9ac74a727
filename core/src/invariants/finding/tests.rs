//! The sentences of [`Finding`]: one finding of every kind reads in both languages with every
//! placeholder filled, each with its own sentence, and a violation keeps its serialized form,
//! reading back with its recorded sentence.

use super::*;
use crate::invariants::{InvariantId, Violation};
use uuid::Uuid;

/// One finding of every kind, with its invariant.
fn every_finding() -> Vec<(InvariantId, Finding)> {
    let order = OrderId(Uuid::from_u128(1));
    let message = MessageId(Uuid::from_u128(2));
    let key = IdempotencyKey(Uuid::from_u128(3));
    let sku = Sku::new("apple");
    let consumer = ConsumerName::new("reserve-stock");
    let payment = PaymentId::new("pay-1");
    let answer = FoundAnswer { status: 201, body: "{\"id\":1}".to_owned() };
    let empty = FoundAnswer { status: 500, body: String::new() };
    let mut findings = stock_findings(order, &sku);
    findings.extend(charge_findings(order, &payment));
    findings.extend(answer_findings(key, &answer, &empty));
    findings.extend(message_findings(order, message, consumer));
    findings.extend(duplicate_findings(key, empty));
    findings.extend(handler_ran_twice_findings(key));
    findings
}

/// The I1 and I2 findings (stock and reservations) of `order` and `sku`.
fn stock_findings(order: OrderId, sku: &Sku) -> Vec<(InvariantId, Finding)> {
    vec![
        (
            InvariantId::I1,
            Finding::StockNotConserved {
                sku: sku.clone(),
                on_hand: 10,
                available: 4,
                reserved: 3,
                accounted: 7,
            },
        ),
        (InvariantId::I1, Finding::AvailableBelowZero { sku: sku.clone(), available: -2 }),
        (InvariantId::I1, Finding::ReservedWithoutStock { sku: sku.clone(), reserved: 3 }),
        (InvariantId::I2, Finding::ReservedForMissingOrder { order, sku: sku.clone(), qty: 1 }),
        (InvariantId::I2, Finding::ReservedWithoutLine { order, sku: sku.clone(), qty: 2 }),
        (
            InvariantId::I2,
            Finding::ReservedTooMuch { order, sku: sku.clone(), qty: 6, ordered: 3, runs: Some(2) },
        ),
        (
            InvariantId::I2,
            Finding::ReservedTooMuch { order, sku: sku.clone(), qty: 5, ordered: 3, runs: None },
        ),
        (InvariantId::I2, Finding::ReservedNegative { order, sku: sku.clone(), qty: -1 }),
    ]
}

/// The I3 findings (charges) of `order` and its `payment`.
fn charge_findings(order: OrderId, payment: &PaymentId) -> Vec<(InvariantId, Finding)> {
    let charges = vec![(ChargeId(0), payment.clone()), (ChargeId(1), payment.clone())];
    vec![
        (InvariantId::I3, Finding::ChargedAgain { order, charges: charges.clone() }),
        (InvariantId::I3, Finding::ChargedMissingOrder { order, charges }),
        (
            InvariantId::I3,
            Finding::NeverCharged { order, status: "Paid", payment: payment.clone() },
        ),
        (
            InvariantId::I3,
            Finding::ChargeForOtherPayment {
                order,
                status: "Shipped",
                payment: payment.clone(),
                charge: ChargeId(0),
                charge_payment: PaymentId::new("pay-2"),
            },
        ),
    ]
}

/// The I4 findings of two answers of `key` (differing, or to another request).
fn answer_findings(
    key: IdempotencyKey,
    answer: &FoundAnswer,
    empty: &FoundAnswer,
) -> Vec<(InvariantId, Finding)> {
    vec![
        (
            InvariantId::I4,
            Finding::DifferentAnswers {
                key,
                first: (answer.clone(), Tick(1)),
                then: (empty.clone(), Tick(2)),
                source: AnswerSource::Replay,
            },
        ),
        (
            InvariantId::I4,
            Finding::AnotherRequest {
                key,
                answer: (answer.clone(), Tick(2)),
                first_at: Tick(1),
                source: AnswerSource::HandlerRanAgain,
            },
        ),
    ]
}

/// The I5 and I6 findings (inbox rows, effects, messages) of `message` and `consumer`.
fn message_findings(
    order: OrderId,
    message: MessageId,
    consumer: ConsumerName,
) -> Vec<(InvariantId, Finding)> {
    vec![
        (InvariantId::I5, Finding::InboxRowWithoutEffect { message, consumer: consumer.clone() }),
        (
            InvariantId::I5,
            Finding::InboxRowAfterPurge { message, consumer: consumer.clone(), purged_at: Tick(9) },
        ),
        (
            InvariantId::I5,
            Finding::EffectWithoutInboxRow {
                message,
                consumer: consumer.clone(),
                committed_at: Tick(3),
            },
        ),
        (
            InvariantId::I5,
            Finding::EffectsBetweenPurges {
                message,
                consumer: consumer.clone(),
                committed_at: vec![Tick(1), Tick(2), Tick(3)],
            },
        ),
        (InvariantId::I6, Finding::NoOrderPlaced { order }),
        (
            InvariantId::I6,
            Finding::NotProcessedOnce { consumer, message, order, processed: 2, published: 1 },
        ),
    ]
}

/// The I7 findings (a 5xx for a duplicate), with and without `key`.
fn duplicate_findings(key: IdempotencyKey, empty: FoundAnswer) -> Vec<(InvariantId, Finding)> {
    vec![
        (
            InvariantId::I7,
            Finding::ServerErrorForDuplicate { key: Some(key), answer: (empty.clone(), Tick(4)) },
        ),
        (InvariantId::I7, Finding::ServerErrorForDuplicate { key: None, answer: (empty, Tick(4)) }),
    ]
}

/// The I4 findings of a handler run twice for `key`, one for each way the key was held.
fn handler_ran_twice_findings(key: IdempotencyKey) -> Vec<(InvariantId, Finding)> {
    let holds = [
        KeyHold::Lease { token: 1, until: Tick(5) },
        KeyHold::CrashedInLease { at: Tick(2), token: 1, until: Tick(5) },
        KeyHold::FinishedInLease { at: Tick(4), token: 1, until: Tick(5) },
        KeyHold::LeaseAfterFinish { token: 1, until: Tick(5), at: Tick(6) },
        KeyHold::NoLeaseRunning,
        KeyHold::NoLeaseFinished { at: Tick(3) },
        KeyHold::NoLeaseCrashed { at: Tick(3) },
    ];
    let tokens = [Some(2), None, Some(3), None, None, None, None];
    holds
        .into_iter()
        .zip(tokens)
        .map(|(hold, token)| {
            (
                InvariantId::I4,
                Finding::HandlerRanTwice {
                    key,
                    run: (HandlerRunId(1), token, Tick(3)),
                    holder: (HandlerRunId(0), Tick(1)),
                    hold,
                },
            )
        })
        .collect()
}

fn cyrillic(text: &str) -> bool {
    text.chars().any(crate::words::is_cyrillic)
}

#[test]
fn every_finding_reads_in_both_languages_with_every_placeholder_filled() {
    let mut english_sentences = Vec::new();
    for (invariant, finding) in every_finding() {
        let en = finding.sentence_in(Language::En).unwrap();
        let ru = finding.sentence_in(Language::Ru).unwrap();
        for sentence in [&en, &ru] {
            let left: Vec<&str> = crate::words::placeholders(sentence)
                .into_iter()
                .filter(|name| !name.contains('"'))
                .collect();
            assert!(left.is_empty(), "{finding:?}: {sentence} keeps {left:?}");
            assert!(sentence.ends_with('.'), "{sentence}");
        }
        assert!(!cyrillic(&en), "{en}");
        assert!(cyrillic(&ru), "{ru}");
        // The violation records the English sentence and renders the Russian one.
        let violation = Violation::new(invariant, Vec::new(), finding);
        assert_eq!(violation.sentence, en);
        assert_eq!(violation.sentence_in(Language::Ru), ru);
        english_sentences.push(en);
    }
    let distinct: std::collections::BTreeSet<&String> = english_sentences.iter().collect();
    assert_eq!(distinct.len(), english_sentences.len(), "each finding has its own sentence");
}

#[test]
fn a_violation_serializes_as_before_and_reads_back_with_its_recorded_sentence() {
    let finding = Finding::ReservedTooMuch {
        order: OrderId(Uuid::from_u128(1)),
        sku: Sku::new("apple"),
        qty: 6,
        ordered: 3,
        runs: Some(2),
    };
    let violation = Violation::new(InvariantId::I2, Vec::new(), finding);
    let json = serde_json::to_string(&violation).unwrap();
    assert_eq!(
        json,
        "{\"invariant\":\"I2\",\"rows\":[],\"sentence\":\"Order \
         00000000-0000-0000-0000-000000000001 has 6 units of apple reserved, but it asks for \
         only 3: the reservation effect ran twice.\"}"
    );
    let read: Violation = serde_json::from_str(&json).unwrap();
    assert_eq!(read, violation);
    assert_eq!(read.finding, Finding::Recorded);
    assert_eq!(read.sentence_in(Language::Ru), violation.sentence);
    let six_units = Language::Ru.count(&Language::Ru.words().counts.units, 6);
    assert!(violation.sentence_in(Language::Ru).contains(&six_units));
}
