//! The decisive moments of a run: the steps where a pattern turns a duplicate, a retry or a
//! race away, each with a headline and one line on why it matters, derived from the trace so
//! that the page's diagram, its step list and the Mermaid export narrate the same steps.
//!
//! A moment is what a learner should stop at: the reservation's `INSERT ... ON CONFLICT DO
//! NOTHING` that inserted 0 rows (P1), `MarkPaid` on an order this payment paid already (P2),
//! the `Idempotency-Key` layer's 409, 422, lease takeover, stale completion and replay (P3),
//! and the inbox insert that met the unique key (P4). Each is derived from typed events, never
//! placed by hand:
//! - [`SimEvent::MessageConsumed`] with [`ConsumeOutcome::DuplicateIgnored`] is
//!   [`MomentKind::InboxDuplicate`]; a processed outcome whose reservation found a line reserved
//!   already is [`MomentKind::ReservationAlreadyPresent`] (both carried by the acknowledging
//!   step, where the delivery's outcome is final, and drawn by [`moments`] on the statement
//!   that did it: the insert of 0 rows, the inbox insert that met the key);
//! - the P3 layer's [`IdempotencyEvent`]s: `KeyInProgress` and `ReservationLost` (both answer
//!   409), `FingerprintMismatch` (422), `KeyTakenOver`, `StaleCompletionRejected`,
//!   `ResponseReplayed`.
//!
//! [`MomentKind::AlreadyPaid`] is the one moment no event carries: the repeat answers the same
//! 200 with the same body as the first call (as an idempotent operation should), and a signal
//! added to the trace would change the bytes of every recorded trace with a repeat (the golden
//! traces, saved files that `replay` checks byte for byte). So [`moments`] reads it from the
//! send's own statements, in the order P2's idempotent `MarkPaid` runs them
//! (`order::OrderCommandEffect`): the guarded `UPDATE orders SET status = 'Paid' ... AND status
//! = 'Placed'` matched nothing, `SELECT status, payment_id FROM orders` read the order, and the
//! transaction *commits*: a refused payment (another payment, a wrong status) rolls back in the
//! reading step and never commits. The `COMMIT` decides it, but the moment is drawn on the
//! guarded `UPDATE` that matched nothing, the statement that turned the repeat away (as a
//! consumer's moments are drawn on their insert). [`step_moments`], which sees one step, cannot
//! tell; every other kind it derives alone, and [`moments`] is the whole derivation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::idempotency::IdempotencyEvent;
use crate::inbox::ConsumeOutcome;
use crate::sim::{Actor, AttemptId, SimEvent, TraceStep};
use crate::view::diagram::Lane;
use crate::words::Language;

/// What a decisive moment of a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentKind {
    /// P1: `INSERT reservations ... ON CONFLICT DO NOTHING` inserted 0 rows: no stock is taken
    /// again.
    ReservationAlreadyPresent,
    /// P4: the `INSERT inbox` hit the unique key (the message was seen before): nothing was
    /// applied, the transaction rolled back, and the copy was acknowledged.
    InboxDuplicate,
    /// P2: `MarkPaid` on an order this payment paid already: a no-op, no second charge.
    AlreadyPaid,
    /// P3: 409, the key's first request is still in progress (its lease holds), or another
    /// request reserved the key first.
    KeyInProgress,
    /// P3: 422, the key was used with another body (the fingerprints differ).
    KeyReused,
    /// P3: the key's lease expired, and this request took the key over with a larger fencing
    /// token.
    LeaseTakeover,
    /// P3: a stale completion was rejected: its fencing token is older than the key's.
    StaleCompletion,
    /// P3: the key's stored answer was replayed; the handler did not run.
    ResponseReplayed,
}

impl MomentKind {
    /// Every kind, in the order of the patterns (P1, P4, P2, then P3's).
    #[cfg(test)]
    pub(crate) const ALL: [MomentKind; 8] = [
        MomentKind::ReservationAlreadyPresent,
        MomentKind::InboxDuplicate,
        MomentKind::AlreadyPaid,
        MomentKind::KeyInProgress,
        MomentKind::KeyReused,
        MomentKind::LeaseTakeover,
        MomentKind::StaleCompletion,
        MomentKind::ResponseReplayed,
    ];

    /// The moment in a few words, in `language`: `INSERT ... ON CONFLICT DO NOTHING -> 0
    /// rows`, `MarkPaid -> already paid, no-op`, `409: ...`. SQL, identifiers and statuses stay
    /// in Latin in every language.
    pub fn headline(self, language: Language) -> &'static str {
        let words = language.words();
        match self {
            MomentKind::ReservationAlreadyPresent => {
                words.notices.moment_reservation_already_present
            }
            MomentKind::InboxDuplicate => words.notices.moment_inbox_duplicate,
            MomentKind::AlreadyPaid => words.notices.moment_already_paid,
            MomentKind::KeyInProgress => words.notices.moment_key_in_progress,
            MomentKind::KeyReused => words.notices.moment_key_reused,
            MomentKind::LeaseTakeover => words.notices.moment_lease_takeover,
            MomentKind::StaleCompletion => words.notices.moment_stale_completion,
            MomentKind::ResponseReplayed => words.notices.moment_response_replayed,
        }
    }

    /// One line on why the moment matters, in `language`.
    pub fn why(self, language: Language) -> &'static str {
        let words = language.words();
        match self {
            MomentKind::ReservationAlreadyPresent => {
                words.notices.moment_reservation_already_present_why
            }
            MomentKind::InboxDuplicate => words.notices.moment_inbox_duplicate_why,
            MomentKind::AlreadyPaid => words.notices.moment_already_paid_why,
            MomentKind::KeyInProgress => words.notices.moment_key_in_progress_why,
            MomentKind::KeyReused => words.notices.moment_key_reused_why,
            MomentKind::LeaseTakeover => words.notices.moment_lease_takeover_why,
            MomentKind::StaleCompletion => words.notices.moment_stale_completion_why,
            MomentKind::ResponseReplayed => words.notices.moment_response_replayed_why,
        }
    }
}

/// A decisive moment at one step of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moment {
    /// The step ([`TraceStep::step`], from 1).
    pub step: usize,
    /// What it is.
    pub kind: MomentKind,
    /// The lane of the step's actor, where the diagram draws it.
    pub lane: Lane,
}

/// The moments one step shows by its own events, in event order, each kind at most once.
/// [`MomentKind::AlreadyPaid`] is never among them: only the send's earlier statements tell it
/// (see the module's documentation); [`moments`] has it.
pub(crate) fn step_moments(step: &TraceStep) -> Vec<MomentKind> {
    let mut kinds = Vec::new();
    for kind in step.events.iter().filter_map(event_moment) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// Every moment of a run, in step order: each step's [`step_moments`], and
/// [`MomentKind::AlreadyPaid`] on the guarded `UPDATE` of a payment that then found its order
/// paid by the same payment and committed.
///
/// A consumer's outcome is final on its acknowledging step, where its event is; the moment is
/// drawn on the statement that did it ([`ConsumerStatements`]): P1's
/// `INSERT INTO reservations ... ON CONFLICT DO NOTHING` that inserted 0 rows, P4's
/// `INSERT INTO inbox` that met the key. The trace is not changed: the view maps them.
pub fn moments<'a>(steps: impl IntoIterator<Item = &'a TraceStep>) -> Vec<Moment> {
    moments_of(&mut steps.into_iter())
}

/// [`moments`], compiled once for every kind of list of steps (the page's weight).
fn moments_of(steps: &mut dyn Iterator<Item = &TraceStep>) -> Vec<Moment> {
    let mut finder = MomentFinder::default();
    let mut moments = Vec::new();
    for step in steps {
        finder.step(step, &mut moments);
    }
    // Mapped back to their statements, the moments stay in step order (stable: two on one
    // step keep their event order).
    moments.sort_by_key(|moment| moment.step);
    moments
}

/// What finding the moments of a run step by step remembers between its steps: each send's
/// progress towards a repeated payment ([`PaymentRepeats`]) and each consumer's statements
/// ([`ConsumerStatements`]). [`moments`] follows a whole run with one; the run's index
/// (`view::RunIndex`) keeps one as the run grows.
#[derive(Clone, Debug, Default)]
pub(crate) struct MomentFinder {
    payments: PaymentRepeats,
    consumers: ConsumerStatements,
}

impl MomentFinder {
    /// Follows `step` and pushes onto `found` the moments it makes known, in the order
    /// [`moments`] lists them before it sorts them by the step each is drawn on (a moment is
    /// drawn on its own step or an earlier one, never a later one).
    pub(crate) fn step(&mut self, step: &TraceStep, found: &mut Vec<Moment>) {
        let lane = Lane::of_actor(step.actor);
        self.consumers.step(step);
        let kinds = step_moments(step);
        found.extend(kinds.into_iter().map(|kind| Moment {
            step: self.consumers.statement_of(step, kind).unwrap_or(step.step),
            kind,
            lane,
        }));
        if let Some(update) = self.payments.step(step) {
            found.push(Moment { step: update, kind: MomentKind::AlreadyPaid, lane });
        }
    }

    /// Follows `step` only: what a finder replaying a run's first steps needs.
    pub(crate) fn follow(&mut self, step: &TraceStep) {
        self.consumers.step(step);
        self.payments.step(step);
    }
}

/// The start of P1's idempotent ledger insert (`sql::statements::insert` of a reservation).
const RESERVATION_INSERT: &str = "INSERT INTO reservations ";

/// The start of the ledger's stock update, which follows an insert that inserted its row.
const STOCK_UPDATE: &str = "UPDATE stock ";

/// The start of P4's inbox insert (`sql::statements::insert` of an inbox row).
const INBOX_INSERT: &str = "INSERT INTO inbox ";

/// What one consumer instance's transaction has run so far, by its statements.
#[derive(Clone, Copy, Debug, Default)]
struct Delivery {
    /// The step of its last `INSERT INTO inbox`.
    inbox_insert: Option<usize>,
    /// The step of an `INSERT INTO reservations` whose next statement is not known yet.
    reservation_insert: Option<usize>,
    /// The step of its first `INSERT INTO reservations` that inserted 0 rows: the next
    /// statement was not the `UPDATE stock` that takes stock for a new row.
    reservation_present: Option<usize>,
}

/// Each consumer instance's [`Delivery`], by its statements in step order.
#[derive(Clone, Debug, Default)]
struct ConsumerStatements {
    deliveries: Vec<(Actor, Delivery)>,
}

impl ConsumerStatements {
    /// Follows `step`. A step that waited for a lock ran nothing: it is left out.
    fn step(&mut self, step: &TraceStep) {
        let Actor::Consumer { .. } = step.actor else { return };
        if step.events.iter().any(|event| matches!(event, SimEvent::Blocked { .. })) {
            return;
        }
        let Some(statement) = &step.statement else { return };
        let delivery = match self.deliveries.iter_mut().find(|(actor, _)| *actor == step.actor) {
            Some((_, delivery)) => delivery,
            None => {
                self.deliveries.push((step.actor, Delivery::default()));
                let last = self.deliveries.len() - 1;
                &mut self.deliveries[last].1
            }
        };
        if statement == "BEGIN" {
            *delivery = Delivery::default();
            return;
        }
        if let Some(insert) = delivery.reservation_insert.take()
            && !statement.starts_with(STOCK_UPDATE)
        {
            delivery.reservation_present.get_or_insert(insert);
        }
        if statement.starts_with(RESERVATION_INSERT) {
            delivery.reservation_insert = Some(step.step);
        } else if statement.starts_with(INBOX_INSERT) {
            delivery.inbox_insert = Some(step.step);
        }
    }

    /// The step of the statement that made `kind` happen, for a moment `step` (followed
    /// already) carries; `None` for a kind that is on its own step.
    fn statement_of(&self, step: &TraceStep, kind: MomentKind) -> Option<usize> {
        let (_, delivery) = self.deliveries.iter().find(|(actor, _)| *actor == step.actor)?;
        match kind {
            MomentKind::ReservationAlreadyPresent => delivery.reservation_present,
            MomentKind::InboxDuplicate => delivery.inbox_insert,
            _ => None,
        }
    }
}

/// The moment an event is, if any. Every event is listed, so that a new one is decided here.
fn event_moment(event: &SimEvent) -> Option<MomentKind> {
    match event {
        SimEvent::MessageConsumed { outcome, .. } => match outcome {
            ConsumeOutcome::DuplicateIgnored { .. } => Some(MomentKind::InboxDuplicate),
            ConsumeOutcome::MessageProcessed { effect_output, .. } => effect_output
                .found_existing_reservation()
                .then_some(MomentKind::ReservationAlreadyPresent),
        },
        SimEvent::Idempotency { event } => idempotency_moment(event),
        SimEvent::RequestSent { .. }
        | SimEvent::HandlerRunStarted { .. }
        | SimEvent::Answered { .. }
        | SimEvent::ApiFailed { .. }
        | SimEvent::ApiCrashed { .. }
        | SimEvent::Blocked { .. }
        | SimEvent::ResponseDelivered { .. }
        | SimEvent::LateResponseIgnored { .. }
        | SimEvent::ResponseLost { .. }
        | SimEvent::ClientTimedOut { .. }
        | SimEvent::RetryScheduled { .. }
        | SimEvent::ClientAnswered { .. }
        | SimEvent::ClientGaveUp { .. }
        | SimEvent::Published { .. }
        | SimEvent::RelayFinished { .. }
        | SimEvent::RelayFailed { .. }
        | SimEvent::RelayCrashed { .. }
        | SimEvent::Delivered { .. }
        | SimEvent::MessageDuplicated { .. }
        | SimEvent::MessageHeld { .. }
        | SimEvent::MessageReleased { .. }
        | SimEvent::DeadLettered { .. }
        | SimEvent::EffectCommitted { .. }
        | SimEvent::ConsumerFailed { .. }
        | SimEvent::ConsumerCrashed { .. }
        | SimEvent::InboxRowsPurged { .. }
        | SimEvent::KeysPurged { .. }
        | SimEvent::RetentionFailed { .. }
        | SimEvent::DeadlockDetected { .. }
        | SimEvent::ClockAdvanced { .. } => None,
    }
}

/// The moment a P3 layer's event is, if any.
fn idempotency_moment(event: &IdempotencyEvent) -> Option<MomentKind> {
    match event {
        // Both answer 409: the key is held (its lease holds), or was reserved first by another
        // request between this one's read and its write.
        IdempotencyEvent::KeyInProgress { .. } | IdempotencyEvent::ReservationLost { .. } => {
            Some(MomentKind::KeyInProgress)
        }
        IdempotencyEvent::FingerprintMismatch { .. } => Some(MomentKind::KeyReused),
        IdempotencyEvent::KeyTakenOver { .. } => Some(MomentKind::LeaseTakeover),
        IdempotencyEvent::StaleCompletionRejected { .. } => Some(MomentKind::StaleCompletion),
        IdempotencyEvent::ResponseReplayed { .. } => Some(MomentKind::ResponseReplayed),
        IdempotencyEvent::KeyHeaderRejected { .. }
        | IdempotencyEvent::KeyExpired { .. }
        | IdempotencyEvent::KeyReserved { .. }
        | IdempotencyEvent::HandlerCompleted { .. }
        | IdempotencyEvent::HandlerFailed { .. }
        | IdempotencyEvent::ResponseStored { .. }
        | IdempotencyEvent::KeyReleased { .. } => None,
    }
}

/// The start of P2's guarded `MarkPaid` update (`sql::statements::set_order_status` to
/// `Paid`); the naive `MarkPaid`'s update, unguarded, always matches its order.
const MARK_PAID_UPDATE: &str = "UPDATE orders SET status = 'Paid'";

/// The start of P2's read after a guarded update matched nothing
/// (`sql::statements::select_order_status`).
const ORDER_STATUS_READ: &str = "SELECT status, payment_id FROM orders ";

/// How far a send has gone towards an order already paid by its payment; each holds the step
/// of the guarded `UPDATE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PaymentRepeat {
    /// Its last statement was the guarded `UPDATE` to `Paid`.
    MarkPaidUpdated(usize),
    /// Then it read the order's status: the update matched nothing.
    StatusRead(usize),
}

/// Each API send's progress through [`PaymentRepeat`], by its statements in step order.
#[derive(Clone, Debug, Default)]
struct PaymentRepeats {
    sends: BTreeMap<AttemptId, PaymentRepeat>,
}

impl PaymentRepeats {
    /// Follows `step`; when it is the `COMMIT` of a `MarkPaid` whose order was paid by this
    /// payment already, the step of that `MarkPaid`'s guarded `UPDATE`.
    fn step(&mut self, step: &TraceStep) -> Option<usize> {
        let Actor::Api { attempt } = step.actor else { return None };
        let before = self.sends.remove(&attempt);
        // A crash (F8) or another step without a statement: the send starts over.
        let statement = step.statement.as_ref()?;
        let after = if statement.starts_with(MARK_PAID_UPDATE) {
            // Again, after a lock wait (a blocked step shows the statement it will run): the
            // last one is the one that ran.
            Some(PaymentRepeat::MarkPaidUpdated(step.step))
        } else if statement.starts_with(ORDER_STATUS_READ) {
            match before {
                Some(PaymentRepeat::MarkPaidUpdated(update)) => {
                    Some(PaymentRepeat::StatusRead(update))
                }
                _ => None,
            }
        } else {
            return match before {
                Some(PaymentRepeat::StatusRead(update)) if statement == "COMMIT" => Some(update),
                _ => None,
            };
        };
        if let Some(after) = after {
            self.sends.insert(attempt, after);
        }
        None
    }
}

#[cfg(test)]
mod tests;
