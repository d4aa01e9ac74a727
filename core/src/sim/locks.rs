//! Lock waits between the actors' transactions, and breaking a deadlock as PostgreSQL does.
//!
//! An actor whose statement met another transaction's row lock records the transaction it
//! waits for; its next step is enabled once that transaction has ended ([`World::lock_free`]).
//! After every step the world looks for a cycle of such waits and, like PostgreSQL's
//! "deadlock detected", rolls back the youngest transaction of the cycle.

use std::collections::BTreeMap;

use crate::ids::TxId;
use crate::sim::trace::SimEvent;
use crate::sim::world::{StepOut, World};
use crate::step::Steps;

impl World {
    /// Whether an actor that waits for `waiting_for` (if anything) may step: that transaction
    /// has ended.
    pub(super) fn lock_free(&self, waiting_for: Option<TxId>) -> bool {
        waiting_for.is_none_or(|holder| !self.store.is_open(holder))
    }

    /// Whether an actor may step as far as the store's connections go, as with a pool of
    /// `shop.store.open_transactions_max` connections: a statement that begins a transaction
    /// waits while that many are open, and steps once one of them ends. Every open transaction
    /// belongs to an actor that can step (a cycle of lock waits is broken), so the wait ends.
    /// `open` is the transaction the actor holds (one that holds one never begins another);
    /// `next`, its next statement, is asked for only while the store is full and the actor holds
    /// none, since building a statement's text costs (when the store is not full, nothing
    /// changes: runs that never fill the store are the same step for step).
    pub(super) fn connection_free(
        &self,
        open: Option<TxId>,
        next: impl FnOnce() -> Option<String>,
    ) -> bool {
        self.store.can_begin() || open.is_some() || next().as_deref() != Some("BEGIN")
    }

    /// Each blocked actor's open transaction and the transaction it waits for.
    fn lock_waits(&self) -> BTreeMap<TxId, TxId> {
        let mut waits = BTreeMap::new();
        let mut add = |own: Option<TxId>, holder: Option<TxId>| {
            if let (Some(own), Some(holder)) = (own, holder)
                && self.store.is_open(own)
                && self.store.is_open(holder)
            {
                waits.insert(own, holder);
            }
        };
        for attempt in self.attempts.values() {
            add(attempt.layer.open_transaction(), attempt.waiting_for);
        }
        if let Some(run) = &self.relay {
            add(run.machine.open_transaction(), run.waiting_for);
        }
        for instance in &self.consumers {
            if let Some(delivery) = &instance.delivery {
                add(delivery.machine.open_transaction(), delivery.waiting_for);
            }
        }
        if let Some(run) = &self.retention {
            add(run.open_transaction(), run.waiting_for);
        }
        waits
    }

    /// Finds a cycle of transactions waiting for each other's row locks and, as PostgreSQL
    /// does ("deadlock detected"), aborts one: the youngest of the cycle. Its actor's next
    /// statement then fails on the rolled-back transaction and takes its failure path (a 500
    /// from the handler, a delivery that is not acked, ...).
    pub(super) fn break_deadlock(&mut self, out: &mut StepOut) {
        let Some(cycle) = wait_cycle(&self.lock_waits()) else { return };
        let Some(victim) = cycle.iter().max().copied() else { return };
        // Open by construction (lock_waits keeps open transactions only).
        let _ = self.store.rollback(victim);
        self.stop_waiting_in(victim);
        out.events.push(SimEvent::DeadlockDetected { cycle, victim });
    }

    /// The actor whose transaction is `victim` waits no more: its next statement runs (and
    /// fails on the rolled-back transaction).
    fn stop_waiting_in(&mut self, victim: TxId) {
        for attempt in self.attempts.values_mut() {
            if attempt.layer.open_transaction() == Some(victim) {
                attempt.waiting_for = None;
            }
        }
        if let Some(run) = &mut self.relay
            && run.machine.open_transaction() == Some(victim)
        {
            run.waiting_for = None;
        }
        for instance in &mut self.consumers {
            if let Some(delivery) = &mut instance.delivery
                && delivery.machine.open_transaction() == Some(victim)
            {
                delivery.waiting_for = None;
            }
        }
        if let Some(run) = &mut self.retention
            && run.open_transaction() == Some(victim)
        {
            run.waiting_for = None;
        }
    }
}

/// The first cycle of `waits` (own transaction to the one it waits for), in key order of its
/// start: the transactions of the cycle, in wait order.
fn wait_cycle(waits: &BTreeMap<TxId, TxId>) -> Option<Vec<TxId>> {
    for start in waits.keys() {
        let mut path = vec![*start];
        let mut current = *start;
        while let Some(next) = waits.get(&current) {
            if let Some(position) = path.iter().position(|tx| tx == next) {
                return Some(path.split_off(position));
            }
            if path.len() > waits.len() {
                break;
            }
            path.push(*next);
            current = *next;
        }
    }
    None
}
