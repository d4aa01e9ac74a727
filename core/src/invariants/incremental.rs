//! [`Incremental`]: the invariants I1-I7 kept up to date step by step, from the rows a step's
//! commits changed (the store's before-image) and the history records appended (or ended)
//! since the last check, instead of over every table and the whole history each time.
//!
//! Every invariant but I6 is judged group by group (I1 by sku, I2 by reservation, I3 by order,
//! I4 by answer and by key, I5 by inbox row, I7 by answer), each group's verdict a function of
//! its own rows and records alone. The checker keeps indexes from a group to its rows and the
//! violations each group has now; a step re-judges only the groups it touched, with the very
//! functions the full checks use, and the result is the concatenation in the full checks'
//! order. So [`Incremental::violations`] equals [`super::check_all`] after every step, which
//! stays the reference (a property test checks the two agree on random runs). I6 is judged
//! only when no work is pending, and then in full.

use std::collections::{BTreeMap, BTreeSet};

use super::answers::{i4_answer, i4_key_runs, i7_response};
use super::messages::{InboxEvent, i5_row};
use super::rows::{i1_reserved_without_stock, i1_stock, i2_reservation, i3_order};
use super::{InvariantId, Quiescence, Violation, check_i6_order_placed_processed_once};
use crate::history::{HandlerRunId, History};
use crate::ids::{ChargeId, ConsumerName, IdempotencyKey, MessageId, OrderId, Sku};
use crate::store::{ChargeRow, ReservationRow, Tables, WriteSet};

/// The invariants' state between two steps: indexes of the committed rows and the history, and
/// the violations of every group that has any.
#[derive(Clone, Debug, Default)]
pub(crate) struct Incremental {
    // How much of the history has been read.
    responses_seen: usize,
    runs_seen: usize,
    events_seen: usize,
    /// The handler runs that had not ended when last read.
    open_runs: BTreeSet<usize>,

    // Indexes.
    reservations_by_sku: BTreeMap<Sku, BTreeSet<OrderId>>,
    charges_by_order: BTreeMap<OrderId, BTreeSet<ChargeId>>,
    first_answers: BTreeMap<IdempotencyKey, usize>,
    runs_by_key: BTreeMap<IdempotencyKey, Vec<usize>>,
    inbox_events: BTreeMap<(MessageId, ConsumerName), Vec<(usize, InboxEvent)>>,

    // The violations now, by group; a group with none has no entry.
    i1_stock: BTreeMap<Sku, Vec<Violation>>,
    i1_without_stock: BTreeMap<Sku, Vec<Violation>>,
    i2: BTreeMap<(OrderId, Sku), Vec<Violation>>,
    i3: BTreeMap<OrderId, Vec<Violation>>,
    i4_answers: Vec<Violation>,
    i4_runs: BTreeMap<IdempotencyKey, Vec<Violation>>,
    i5: BTreeMap<(MessageId, ConsumerName), Vec<Violation>>,
    i7: Vec<Violation>,
    /// I6's violations at the last verdict: judged in full, only when no work is pending.
    i6: Vec<Violation>,

    /// The violations that appeared since the last verdict, by the part of the order they
    /// take in [`super::check_all`].
    added: Added,
}

/// Violations that appeared since the last verdict, in [`super::check_all`]'s order once
/// concatenated (I6 is judged at the verdict itself).
#[derive(Clone, Debug, Default)]
struct Added {
    i1_stock: Vec<Violation>,
    i1_without_stock: Vec<Violation>,
    i2: Vec<Violation>,
    i3: Vec<Violation>,
    i4_answers: Vec<Violation>,
    i4_runs: Vec<Violation>,
    i5: Vec<Violation>,
    i7: Vec<Violation>,
}

/// What a step did to the violations: what [`Incremental::verdict`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The violations that stand now and did not at the last verdict, in
    /// [`super::check_all`]'s order.
    pub(crate) new: Vec<Violation>,
    /// Every invariant violated now, in order.
    pub(crate) violated: Vec<InvariantId>,
}

/// The groups a step touched.
#[derive(Default)]
struct Touched {
    skus: BTreeSet<Sku>,
    reservations: BTreeSet<(OrderId, Sku)>,
    orders: BTreeSet<OrderId>,
    keys: BTreeSet<IdempotencyKey>,
    inbox_rows: BTreeSet<(MessageId, ConsumerName)>,
}

impl Incremental {
    /// The checker of a state: every row and record read, every group judged.
    pub(crate) fn new(tables: &Tables, history: &History) -> Incremental {
        let mut checker = Incremental::default();
        let mut touched = Touched::default();
        for (order_id, sku) in tables.reservations.keys() {
            checker.reservations_by_sku.entry(sku.clone()).or_default().insert(*order_id);
            touched.reservations.insert((*order_id, sku.clone()));
        }
        for charge in tables.charges.values() {
            checker.charges_by_order.entry(charge.order_id).or_default().insert(charge.id);
        }
        touched.skus.extend(tables.stock.keys().cloned());
        touched.skus.extend(checker.reservations_by_sku.keys().cloned());
        touched.orders.extend(tables.orders.keys().copied());
        touched.orders.extend(checker.charges_by_order.keys().copied());
        touched.inbox_rows.extend(tables.inbox.keys().cloned());
        checker.read_history(history, &mut touched);
        checker.judge(tables, history, &touched);
        checker
    }

    /// Brings the checker up to date after a step: `tables` are the committed rows now,
    /// `before` the before-image of the rows the step's commits wrote (every row that changed
    /// since the checker last saw the tables is in it), `history` the history now (only
    /// appended to, and runs ended, since).
    pub(crate) fn update(&mut self, tables: &Tables, before: &WriteSet, history: &History) {
        let mut touched = Touched::default();
        for (order_id, sku) in before.reservations.keys() {
            let key = (*order_id, sku.clone());
            if tables.reservations.contains_key(&key) {
                self.reservations_by_sku.entry(sku.clone()).or_default().insert(*order_id);
            } else if let Some(orders) = self.reservations_by_sku.get_mut(sku) {
                orders.remove(order_id);
                if orders.is_empty() {
                    self.reservations_by_sku.remove(sku);
                }
            }
            touched.skus.insert(sku.clone());
            touched.reservations.insert(key);
        }
        for (id, old) in &before.charges {
            if let Some(old) = old {
                if let Some(charges) = self.charges_by_order.get_mut(&old.order_id) {
                    charges.remove(id);
                    if charges.is_empty() {
                        self.charges_by_order.remove(&old.order_id);
                    }
                }
                touched.orders.insert(old.order_id);
            }
            if let Some(new) = tables.charges.get(id) {
                self.charges_by_order.entry(new.order_id).or_default().insert(*id);
                touched.orders.insert(new.order_id);
            }
        }
        touched.skus.extend(before.stock.keys().cloned());
        for order_id in before.orders.keys() {
            touched.orders.insert(*order_id);
            touched.reservations.extend(
                tables
                    .reservations
                    .range((*order_id, Sku::new(""))..)
                    .take_while(|((reserved_for, _), _)| reserved_for == order_id)
                    .map(|(key, _)| key.clone()),
            );
        }
        touched.inbox_rows.extend(before.inbox.keys().cloned());
        self.read_history(history, &mut touched);
        self.judge(tables, history, &touched);
    }

    /// What changed since the last verdict (or since the checker was built: then every
    /// violation is new): the violations that appeared, and every invariant violated now. It
    /// costs what changed, not what stands: a long run with thousands of standing violations
    /// neither copies nor compares them at every step. [`Incremental::violations`] is the
    /// whole list; the two agree (`sim::tests` checks it on random runs).
    pub(crate) fn verdict(
        &mut self,
        tables: &Tables,
        history: &History,
        quiescence: &Quiescence,
    ) -> Verdict {
        let i6_now = if matches!(quiescence, Quiescence::Quiescent { .. }) {
            check_i6_order_placed_processed_once(tables, history, quiescence)
        } else {
            Vec::new()
        };
        let i6_new: Vec<Violation> =
            i6_now.iter().filter(|violation| !self.i6.contains(violation)).cloned().collect();
        self.i6 = i6_now;
        let added = std::mem::take(&mut self.added);
        let mut new = added.i1_stock;
        for part in [
            added.i1_without_stock,
            added.i2,
            added.i3,
            added.i4_answers,
            added.i4_runs,
            added.i5,
            i6_new,
            added.i7,
        ] {
            new.extend(part);
        }
        let mut violated = Vec::new();
        let mut violated_if = |invariant: InvariantId, holds: bool| {
            if holds {
                violated.push(invariant);
            }
        };
        violated_if(
            InvariantId::I1,
            !self.i1_stock.is_empty() || !self.i1_without_stock.is_empty(),
        );
        violated_if(InvariantId::I2, !self.i2.is_empty());
        violated_if(InvariantId::I3, !self.i3.is_empty());
        violated_if(InvariantId::I4, !self.i4_answers.is_empty() || !self.i4_runs.is_empty());
        violated_if(InvariantId::I5, !self.i5.is_empty());
        violated_if(InvariantId::I6, !self.i6.is_empty());
        violated_if(InvariantId::I7, !self.i7.is_empty());
        Verdict { new, violated }
    }

    /// Every violation now, in [`super::check_all`]'s order (`World::violations`; debug builds
    /// compare it with the full check after every step).
    pub(crate) fn violations(
        &self,
        tables: &Tables,
        history: &History,
        quiescence: &Quiescence,
    ) -> Vec<Violation> {
        let mut violations = Vec::new();
        violations.extend(self.i1_stock.values().flatten().cloned());
        violations.extend(self.i1_without_stock.values().flatten().cloned());
        violations.extend(self.i2.values().flatten().cloned());
        violations.extend(self.i3.values().flatten().cloned());
        violations.extend(self.i4_answers.iter().cloned());
        violations.extend(self.i4_runs.values().flatten().cloned());
        violations.extend(self.i5.values().flatten().cloned());
        if matches!(quiescence, Quiescence::Quiescent { .. }) {
            violations.extend(check_i6_order_placed_processed_once(tables, history, quiescence));
        }
        violations.extend(self.i7.iter().cloned());
        violations
    }

    /// Reads the history records appended since the last read, and the runs ended since.
    fn read_history(&mut self, history: &History, touched: &mut Touched) {
        let responses = history.responses();
        for (index, response) in responses.iter().enumerate().skip(self.responses_seen) {
            let answers_before = self.i4_answers.len();
            i4_answer(history, &mut self.first_answers, index, response, &mut self.i4_answers);
            self.added.i4_answers.extend(self.i4_answers.iter().skip(answers_before).cloned());
            let found = i7_response(index, response);
            self.added.i7.extend(found.iter().cloned());
            self.i7.extend(found);
        }
        self.responses_seen = responses.len();

        let runs = history.handler_runs();
        self.open_runs.retain(|index| match runs.get(*index) {
            Some(run) if run.end.is_none() => true,
            Some(run) => {
                touched.keys.insert(run.key);
                false
            }
            None => false,
        });
        for (index, run) in runs.iter().enumerate().skip(self.runs_seen) {
            self.runs_by_key.entry(run.key).or_default().push(index);
            touched.keys.insert(run.key);
            if run.end.is_none() {
                self.open_runs.insert(index);
            }
        }
        self.runs_seen = runs.len();

        let events = history.message_events();
        for (index, event) in events.iter().enumerate().skip(self.events_seen) {
            let Some((message_id, consumer, event)) = InboxEvent::of(event) else { continue };
            let key = (message_id, consumer.clone());
            self.inbox_events.entry(key.clone()).or_default().push((index, event));
            touched.inbox_rows.insert(key);
        }
        self.events_seen = events.len();
    }

    /// Judges the touched groups again.
    fn judge(&mut self, tables: &Tables, history: &History, touched: &Touched) {
        for sku in &touched.skus {
            let reservations: Vec<&ReservationRow> = self
                .reservations_by_sku
                .get(sku)
                .into_iter()
                .flatten()
                .filter_map(|order_id| tables.reservations.get(&(*order_id, sku.clone())))
                .collect();
            let mut violations = Vec::new();
            match tables.stock.get(sku) {
                Some(stock) => {
                    i1_stock(stock, &reservations, &mut violations);
                    self.i1_without_stock.remove(sku);
                    set(&mut self.i1_stock, sku.clone(), violations, &mut self.added.i1_stock);
                }
                None => {
                    i1_reserved_without_stock(sku, &reservations, &mut violations);
                    self.i1_stock.remove(sku);
                    set(
                        &mut self.i1_without_stock,
                        sku.clone(),
                        violations,
                        &mut self.added.i1_without_stock,
                    );
                }
            }
        }
        for key in &touched.reservations {
            let mut violations = Vec::new();
            if let Some(reservation) = tables.reservations.get(key) {
                i2_reservation(reservation, tables.orders.get(&key.0), &mut violations);
            }
            set(&mut self.i2, key.clone(), violations, &mut self.added.i2);
        }
        for order_id in &touched.orders {
            let charges: Vec<&ChargeRow> = self
                .charges_by_order
                .get(order_id)
                .into_iter()
                .flatten()
                .filter_map(|id| tables.charges.get(id))
                .collect();
            let mut violations = Vec::new();
            i3_order(*order_id, tables.orders.get(order_id), &charges, &mut violations);
            set(&mut self.i3, *order_id, violations, &mut self.added.i3);
        }
        let runs = history.handler_runs();
        for key in &touched.keys {
            let mut key_runs: Vec<_> = self
                .runs_by_key
                .get(key)
                .into_iter()
                .flatten()
                .filter_map(|index| runs.get(*index).map(|run| (HandlerRunId(*index), run)))
                .collect();
            let mut violations = Vec::new();
            i4_key_runs(*key, &mut key_runs, &mut violations);
            set(&mut self.i4_runs, *key, violations, &mut self.added.i4_runs);
        }
        for key in &touched.inbox_rows {
            let events = self.inbox_events.get(key).map(Vec::as_slice).unwrap_or_default();
            let mut violations = Vec::new();
            i5_row(key.0, &key.1, tables.inbox.get(key), events, &mut violations);
            set(&mut self.i5, key.clone(), violations, &mut self.added.i5);
        }
    }
}

/// Records a group's violations (none removes its entry), and adds to `added` those the group
/// did not have before.
fn set<K: Ord>(
    groups: &mut BTreeMap<K, Vec<Violation>>,
    key: K,
    violations: Vec<Violation>,
    added: &mut Vec<Violation>,
) {
    let before = groups.get(&key).map(Vec::as_slice).unwrap_or_default();
    added.extend(violations.iter().filter(|violation| !before.contains(violation)).cloned());
    if violations.is_empty() {
        groups.remove(&key);
    } else {
        groups.insert(key, violations);
    }
}
