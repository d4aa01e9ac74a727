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
    /// `open` gives the transaction the actor holds (one that holds one never begins another)
    /// and `begins` whether its next statement is `BEGIN`; each is asked only when the answer
    /// still depends on it: while the store is full, for every actor at every step (when the
    /// store is not full, nothing changes: runs that never fill the store are the same step for
    /// step).
    pub(super) fn connection_free(
        &self,
        open: impl FnOnce() -> Option<TxId>,
        begins: impl FnOnce() -> bool,
    ) -> bool {
        self.store.can_begin() || open().is_some() || !begins()
    }

    /// Each blocked actor's open transaction and the transaction it waits for.
    fn lock_waits(&self) -> BTreeMap<TxId, TxId> {
        let mut waits = BTreeMap::new();
        // An actor's own transaction is asked for only if it waits (most do not).
        let mut add = |holder: Option<TxId>, own: &dyn Fn() -> Option<TxId>| {
            if let Some(holder) = holder
                && let Some(own) = own()
                && self.store.is_open(own)
                && self.store.is_open(holder)
            {
                waits.insert(own, holder);
            }
        };
        for attempt in self.attempts.values() {
            add(attempt.waiting_for, &|| attempt.layer.open_transaction());
        }
        if let Some(run) = &self.relay {
            add(run.waiting_for, &|| run.machine.open_transaction());
        }
        for instance in &self.consumers {
            if let Some(delivery) = &instance.delivery {
                add(delivery.waiting_for, &|| delivery.machine.open_transaction());
            }
        }
        if let Some(run) = &self.retention {
            add(run.waiting_for, &|| run.open_transaction());
        }
        waits
    }

    /// Finds a cycle of transactions waiting for each other's row locks and, as PostgreSQL
    /// does ("deadlock detected"), aborts one: the youngest of the cycle. Its actor's next
    /// statement then fails on the rolled-back transaction and takes its failure path (a 500
    /// from the handler, a delivery that is not acked, ...).
    ///
    /// A cycle can only close when an actor starts to wait, and each actor waits for one
    /// transaction at most: a step whose actor did not start to wait ([`SimEvent::Blocked`])
    /// leaves no cycle, since the one before it was broken. The wait graph is then not built
    /// (debug builds check that it has no cycle).
    pub(super) fn break_deadlock(&mut self, out: &mut StepOut) {
        let started_to_wait =
            out.events.iter().any(|event| matches!(event, SimEvent::Blocked { .. }));
        if !started_to_wait {
            debug_assert_eq!(
                wait_cycle(&self.lock_waits()),
                None,
                "a cycle closed without a new wait"
            );
            return;
        }
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
