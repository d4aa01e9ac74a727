//! [`Finding`]: what one violation found, as data (the invariant's case, the ids and the
//! numbers), rendered into a sentence in any language from the catalogue
//! ([`crate::words::Words`]). A trace records the English sentence, so traces stay the same
//! byte for byte whatever language a learner reads them in.

use std::fmt;

use crate::history::HandlerRunId;
use crate::ids::{
    ChargeId, ConsumerName, IdempotencyKey, MessageId, OrderId, PaymentId, Sku, Tick,
};
use crate::words::{Language, fill};

/// An answer of the API, as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundAnswer {
    /// Its HTTP status.
    pub(crate) status: u16,
    /// Its body, empty for none.
    pub(crate) body: String,
}

/// How a later answer of a key came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AnswerSource {
    /// A replay of the key's stored answer.
    Replay,
    /// The handler ran again.
    HandlerRanAgain,
}

/// Why an earlier handler run still held its key (I4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyHold {
    /// Its lease still runs, and it has not ended.
    Lease {
        /// The lease's fencing token.
        token: u64,
        /// When the lease ends.
        until: Tick,
    },
    /// It crashed, but its lease still runs.
    CrashedInLease {
        /// When it crashed.
        at: Tick,
        /// The lease's fencing token.
        token: u64,
        /// When the lease ends.
        until: Tick,
    },
    /// It finished within its lease, after the later run started.
    FinishedInLease {
        /// When it finished.
        at: Tick,
        /// The lease's fencing token.
        token: u64,
        /// When the lease ends.
        until: Tick,
    },
    /// Its lease runs past the moment it finished.
    LeaseAfterFinish {
        /// The lease's fencing token.
        token: u64,
        /// When the lease ends.
        until: Tick,
        /// When it finished.
        at: Tick,
    },
    /// It had no lease and was still running.
    NoLeaseRunning,
    /// It had no lease and ran until it finished.
    NoLeaseFinished {
        /// When it finished.
        at: Tick,
    },
    /// It had no lease and ran until it crashed.
    NoLeaseCrashed {
        /// When it crashed.
        at: Tick,
    },
}

/// What one violation found. Each variant is one sentence of the catalogue
/// (`i1_not_conserved`, ...), with the values it names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Finding {
    /// A violation read from a file: only its recorded (English) sentence is known.
    #[default]
    Recorded,
    /// I1: on hand is not available plus reserved.
    StockNotConserved {
        /// The sku.
        sku: Sku,
        /// Stock on hand.
        on_hand: i64,
        /// Stock available.
        available: i64,
        /// The sum of its reservations.
        reserved: i128,
        /// Available plus reserved.
        accounted: i128,
    },
    /// I1: available stock below zero.
    AvailableBelowZero {
        /// The sku.
        sku: Sku,
        /// Stock available.
        available: i64,
    },
    /// I1: reservations of a sku with no stock row.
    ReservedWithoutStock {
        /// The sku.
        sku: Sku,
        /// The sum of its reservations.
        reserved: i128,
    },
    /// I2: a reservation for an order that does not exist.
    ReservedForMissingOrder {
        /// The order.
        order: OrderId,
        /// The sku.
        sku: Sku,
        /// The reservation's quantity.
        qty: i64,
    },
    /// I2: a reservation of a sku the order has no line of.
    ReservedWithoutLine {
        /// The order.
        order: OrderId,
        /// The sku.
        sku: Sku,
        /// The reservation's quantity.
        qty: i64,
    },
    /// I2: more reserved than the order's lines ask for.
    ReservedTooMuch {
        /// The order.
        order: OrderId,
        /// The sku.
        sku: Sku,
        /// The reservation's quantity.
        qty: i64,
        /// What the order's lines of the sku ask for.
        ordered: i128,
        /// How often the effect ran, when the reservation is a multiple of the lines.
        runs: Option<i128>,
    },
    /// I2: a negative reservation.
    ReservedNegative {
        /// The order.
        order: OrderId,
        /// The sku.
        sku: Sku,
        /// The reservation's quantity.
        qty: i64,
    },
    /// I3: an order charged more than once.
    ChargedAgain {
        /// The order.
        order: OrderId,
        /// Its charges, with their payments.
        charges: Vec<(ChargeId, PaymentId)>,
    },
    /// I3: charges for an order that does not exist.
    ChargedMissingOrder {
        /// The order.
        order: OrderId,
        /// Its charges, with their payments.
        charges: Vec<(ChargeId, PaymentId)>,
    },
    /// I3: an order with a payment that was never charged.
    NeverCharged {
        /// The order.
        order: OrderId,
        /// Its status's name (`Paid`, ...), a value of `orders.status`.
        status: &'static str,
        /// The payment its status carries.
        payment: PaymentId,
    },
    /// I3: an order whose one charge is for another payment.
    ChargeForOtherPayment {
        /// The order.
        order: OrderId,
        /// Its status's name.
        status: &'static str,
        /// The payment its status carries.
        payment: PaymentId,
        /// The charge.
        charge: ChargeId,
        /// The charge's payment.
        charge_payment: PaymentId,
    },
    /// I4: two answers of a key to the same request differ.
    DifferentAnswers {
        /// The key.
        key: IdempotencyKey,
        /// The key's first answer, and when.
        first: (FoundAnswer, Tick),
        /// The later answer, and when.
        then: (FoundAnswer, Tick),
        /// How the later answer came about.
        source: AnswerSource,
    },
    /// I4: a key's answer given to a request with another fingerprint.
    AnotherRequest {
        /// The key.
        key: IdempotencyKey,
        /// The answer given, and when.
        answer: (FoundAnswer, Tick),
        /// When the key first answered.
        first_at: Tick,
        /// How the answer came about.
        source: AnswerSource,
    },
    /// I4: a key's handler started while an earlier run held the key.
    HandlerRanTwice {
        /// The key.
        key: IdempotencyKey,
        /// The later run, its fencing token, and when it started.
        run: (HandlerRunId, Option<u64>, Tick),
        /// The earlier run that held the key, and when it started.
        holder: (HandlerRunId, Tick),
        /// Why the earlier run still held it.
        hold: KeyHold,
    },
    /// I5: an inbox row with no effect.
    InboxRowWithoutEffect {
        /// The message.
        message: MessageId,
        /// The consumer.
        consumer: ConsumerName,
    },
    /// I5: an inbox row after its purge, with no effect since.
    InboxRowAfterPurge {
        /// The message.
        message: MessageId,
        /// The consumer.
        consumer: ConsumerName,
        /// When the row was purged.
        purged_at: Tick,
    },
    /// I5: an effect with no inbox row.
    EffectWithoutInboxRow {
        /// The message.
        message: MessageId,
        /// The consumer.
        consumer: ConsumerName,
        /// When the effect committed.
        committed_at: Tick,
    },
    /// I5: more than one effect between two purges of the row.
    EffectsBetweenPurges {
        /// The message.
        message: MessageId,
        /// The consumer.
        consumer: ConsumerName,
        /// When each effect committed.
        committed_at: Vec<Tick>,
    },
    /// I6: a placed order with no `OrderPlaced` message.
    NoOrderPlaced {
        /// The order.
        order: OrderId,
    },
    /// I6: a message not processed exactly once by a consumer.
    NotProcessedOnce {
        /// The consumer.
        consumer: ConsumerName,
        /// The message.
        message: MessageId,
        /// Its order.
        order: OrderId,
        /// How often the consumer's effect committed.
        processed: usize,
        /// How often the message was published.
        published: usize,
    },
    /// I7: a duplicate request got a 5xx.
    ServerErrorForDuplicate {
        /// The request's key, if it had one.
        key: Option<IdempotencyKey>,
        /// The answer, and when.
        answer: (FoundAnswer, Tick),
    },
}

impl Finding {
    /// The sentence in `language`; `None` for [`Finding::Recorded`], whose sentence is the
    /// one recorded.
    pub(crate) fn sentence_in(&self, language: Language) -> Option<String> {
        match self {
            Finding::Recorded => None,
            Finding::StockNotConserved { .. }
            | Finding::AvailableBelowZero { .. }
            | Finding::ReservedWithoutStock { .. }
            | Finding::ReservedForMissingOrder { .. }
            | Finding::ReservedWithoutLine { .. }
            | Finding::ReservedTooMuch { .. }
            | Finding::ReservedNegative { .. }
            | Finding::ChargedAgain { .. }
            | Finding::ChargedMissingOrder { .. }
            | Finding::NeverCharged { .. }
            | Finding::ChargeForOtherPayment { .. } => self.rows_sentence(language),
            Finding::DifferentAnswers { .. }
            | Finding::AnotherRequest { .. }
            | Finding::HandlerRanTwice { .. }
            | Finding::ServerErrorForDuplicate { .. } => self.answers_sentence(language),
            Finding::InboxRowWithoutEffect { .. }
            | Finding::InboxRowAfterPurge { .. }
            | Finding::EffectWithoutInboxRow { .. }
            | Finding::EffectsBetweenPurges { .. }
            | Finding::NoOrderPlaced { .. }
            | Finding::NotProcessedOnce { .. } => self.messages_sentence(language),
        }
    }

    /// The sentence of an I1-I3 finding (stock, reservations, charges); `None` for the others.
    fn rows_sentence(&self, language: Language) -> Option<String> {
        let words = language.words();
        let units = |qty: &i64| language.count(&words.counts.units, *qty);
        let text = match self {
            Finding::StockNotConserved { sku, on_hand, available, reserved, accounted } => fill(
                words.findings.i1_not_conserved,
                &[
                    ("sku", sku),
                    ("on_hand", on_hand),
                    ("available", available),
                    ("reserved", reserved),
                    ("accounted", accounted),
                ],
            ),
            Finding::AvailableBelowZero { sku, available } => {
                fill(words.findings.i1_below_zero, &[("sku", sku), ("available", available)])
            }
            Finding::ReservedWithoutStock { sku, reserved } => {
                fill(words.findings.i1_no_stock_row, &[("sku", sku), ("reserved", reserved)])
            }
            Finding::ReservedForMissingOrder { order, sku, qty } => fill(
                words.findings.i2_no_order,
                &[("order", order), ("units", &units(qty)), ("sku", sku)],
            ),
            Finding::ReservedWithoutLine { order, sku, qty } => fill(
                words.findings.i2_no_line,
                &[("order", order), ("units", &units(qty)), ("sku", sku)],
            ),
            Finding::ReservedTooMuch { order, sku, qty, ordered, runs } => {
                let how_often = match runs {
                    Some(runs) => {
                        let runs = u128::try_from(*runs).unwrap_or(0);
                        fill(words.findings.i2_effect_ran, &[("times", &language.times(runs))])
                    }
                    None => words.findings.i2_effects_ran.to_owned(),
                };
                fill(
                    words.findings.i2_too_much,
                    &[
                        ("order", order),
                        ("units", &units(qty)),
                        ("sku", sku),
                        ("ordered", ordered),
                        ("how_often", &how_often),
                    ],
                )
            }
            Finding::ReservedNegative { order, sku, qty } => fill(
                words.findings.i2_negative,
                &[("order", order), ("units", &units(qty)), ("sku", sku)],
            ),
            Finding::ChargedAgain { order, charges } => fill(
                words.findings.i3_charged_again,
                &[
                    ("order", order),
                    ("times", &language.times(charges.len())),
                    ("charges", &charge_list(charges, language)),
                ],
            ),
            Finding::ChargedMissingOrder { order, charges } => fill(
                words.findings.i3_no_order,
                &[("order", order), ("charges", &charge_list(charges, language))],
            ),
            Finding::NeverCharged { order, status, payment } => fill(
                words.findings.i3_never_charged,
                &[("order", order), ("status", status), ("payment", payment)],
            ),
            Finding::ChargeForOtherPayment { order, status, payment, charge, charge_payment } => {
                fill(
                    words.findings.i3_other_payment,
                    &[
                        ("order", order),
                        ("status", status),
                        ("payment", payment),
                        ("charge", charge),
                        ("charge_payment", charge_payment),
                    ],
                )
            }
            _ => return None,
        };
        Some(text)
    }

    /// The sentence of an I4 or I7 finding (the answers to a key); `None` for the others.
    fn answers_sentence(&self, language: Language) -> Option<String> {
        let words = language.words();
        let text = match self {
            Finding::DifferentAnswers { key, first, then, source } => {
                let how = match source {
                    AnswerSource::Replay => words.findings.i4_how_replay,
                    AnswerSource::HandlerRanAgain => words.findings.i4_how_ran_again,
                };
                fill(
                    words.findings.i4_different_answers,
                    &[
                        ("key", key),
                        ("first", &first.0.describe(language)),
                        ("first_at", &first.1),
                        ("then", &then.0.describe(language)),
                        ("then_at", &then.1),
                        ("how", &how),
                    ],
                )
            }
            Finding::AnotherRequest { key, answer, first_at, source } => {
                let how = match source {
                    AnswerSource::Replay => words.findings.i4_how_replay_stored,
                    AnswerSource::HandlerRanAgain => words.findings.i4_how_ran_again_for_it,
                };
                fill(
                    words.findings.i4_another_request,
                    &[
                        ("key", key),
                        ("answer", &answer.0.describe(language)),
                        ("answered_at", &answer.1),
                        ("first_at", first_at),
                        ("how", &how),
                    ],
                )
            }
            Finding::HandlerRanTwice { key, run, holder, hold } => {
                let (run_id, token, started_at) = run;
                let token = match token {
                    Some(token) => fill(words.findings.i4_with_token, &[("token", token)]),
                    None => String::new(),
                };
                fill(
                    words.findings.i4_ran_twice,
                    &[
                        ("key", key),
                        ("run", &fill(words.counts.run_name, &[("n", &run_id.0)])),
                        ("token", &token),
                        ("started_at", started_at),
                        ("holder", &fill(words.counts.run_name, &[("n", &holder.0.0)])),
                        ("holder_started_at", &holder.1),
                        ("hold", &hold.describe(language)),
                    ],
                )
            }
            Finding::ServerErrorForDuplicate { key, answer } => {
                let key = match key {
                    Some(key) => fill(words.findings.i7_with_key, &[("key", key)]),
                    None => words.findings.i7_without_key.to_owned(),
                };
                fill(
                    words.findings.i7_server_error,
                    &[("key", &key), ("answer", &answer.0.describe(language)), ("at", &answer.1)],
                )
            }
            _ => return None,
        };
        Some(text)
    }

    /// The sentence of an I5 or I6 finding (inbox rows, effects, messages); `None` for the
    /// others.
    fn messages_sentence(&self, language: Language) -> Option<String> {
        let words = language.words();
        let text = match self {
            Finding::InboxRowWithoutEffect { message, consumer } => fill(
                words.findings.i5_row_without_effect,
                &[
                    ("row", &row_name(message, consumer)),
                    ("consumer", consumer),
                    ("message", message),
                ],
            ),
            Finding::InboxRowAfterPurge { message, consumer, purged_at } => fill(
                words.findings.i5_row_after_purge,
                &[
                    ("row", &row_name(message, consumer)),
                    ("purged_at", purged_at),
                    ("consumer", consumer),
                    ("message", message),
                ],
            ),
            Finding::EffectWithoutInboxRow { message, consumer, committed_at } => fill(
                words.findings.i5_effect_without_row,
                &[
                    ("consumer", consumer),
                    ("message", message),
                    ("committed_at", committed_at),
                    ("row", &row_name(message, consumer)),
                ],
            ),
            Finding::EffectsBetweenPurges { message, consumer, committed_at } => {
                let ticks = committed_at.iter().map(Tick::to_string).collect::<Vec<_>>().join(", ");
                fill(
                    words.findings.i5_effects_between_purges,
                    &[
                        ("consumer", consumer),
                        ("message", message),
                        ("times", &language.times(committed_at.len())),
                        ("ticks", &ticks),
                        ("row", &row_name(message, consumer)),
                    ],
                )
            }
            Finding::NoOrderPlaced { order } => {
                fill(words.findings.i6_no_message, &[("order", order)])
            }
            Finding::NotProcessedOnce { consumer, message, order, processed, published } => fill(
                words.findings.i6_not_once,
                &[
                    ("consumer", consumer),
                    ("message", message),
                    ("order", order),
                    ("times", &language.times(*processed)),
                    ("published", &language.times(*published)),
                ],
            ),
            _ => return None,
        };
        Some(text)
    }
}

impl FoundAnswer {
    fn describe(&self, language: Language) -> String {
        let words = language.words();
        if self.body.is_empty() {
            fill(words.findings.answer_empty, &[("status", &self.status)])
        } else {
            fill(words.findings.answer_body, &[("status", &self.status), ("body", &self.body)])
        }
    }
}

impl KeyHold {
    fn describe(self, language: Language) -> String {
        let words = language.words();
        match self {
            KeyHold::Lease { token, until } => {
                fill(words.findings.hold_lease, &[("token", &token), ("until", &until)])
            }
            KeyHold::CrashedInLease { at, token, until } => fill(
                words.findings.hold_crashed_in_lease,
                &[("at", &at), ("token", &token), ("until", &until)],
            ),
            KeyHold::FinishedInLease { at, token, until } => fill(
                words.findings.hold_finished_in_lease,
                &[("at", &at), ("token", &token), ("until", &until)],
            ),
            KeyHold::LeaseAfterFinish { token, until, at } => fill(
                words.findings.hold_lease_after_finish,
                &[("token", &token), ("until", &until), ("at", &at)],
            ),
            KeyHold::NoLeaseRunning => words.findings.hold_no_lease_running.to_owned(),
            KeyHold::NoLeaseFinished { at } => {
                fill(words.findings.hold_no_lease_finished, &[("at", &at)])
            }
            KeyHold::NoLeaseCrashed { at } => {
                fill(words.findings.hold_no_lease_crashed, &[("at", &at)])
            }
        }
    }
}

fn charge_list(charges: &[(ChargeId, PaymentId)], language: Language) -> String {
    let words = language.words();
    charges
        .iter()
        .map(|(charge, payment)| {
            fill(words.findings.i3_charge_item, &[("charge", charge), ("payment", payment)])
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn row_name(message: &MessageId, consumer: &ConsumerName) -> impl fmt::Display {
    format!("({message}, {consumer})")
}

#[cfg(test)]
mod tests;
