//! How a checked state is fingerprinted and weighed: the state's canonical hash (runs and keys
//! renumbered by first appearance, consumer instances under each permutation when symmetry
//! reduction is on) and the estimate of its heap bytes that the memory bound reads.

use super::CheckState;
use crate::history::History;
use crate::ids::IdempotencyKey;
use crate::sim::{ApiAttempt, Broker, EntryState, InstanceId, World};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

/// How many bytes of heap a world holds per byte its fingerprint hashes: the overhead of its
/// maps, vectors and strings (nodes, spare capacity, lengths and pointers). Measured by the
/// resident memory of 300 clones: on the worst accepted scenario (the check bench's), a world
/// after 200 steps hashes 623 218 bytes and takes 952 784 (1.5 a byte), its initial world
/// 87 959 and 142 417 (1.6); the reference scenario's initial world 604 and 1 392 (2.3, but
/// small worlds weigh little against the bound).
pub(super) const HEAP_BYTES_PER_HASHED_BYTE: usize = 2;

/// A hasher that counts the bytes written to it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ByteCounter(pub(super) usize);

impl Hasher for ByteCounter {
    fn finish(&self) -> u64 {
        self.0 as u64
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = self.0.saturating_add(bytes.len());
    }
}

/// Hashes every part of `state` that names no consumer instance: the world's configuration,
/// clock, store, clients, API attempts and answers, relay and retention job, the faults spent,
/// and the history in its canonical form ([`hash_history`]). The world's attempt counter is the
/// sum of the clients' sends, so it is covered by the clients.
pub(super) fn hash_common(state: &CheckState, hasher: &mut impl Hasher) {
    let world = &state.world;
    world.config().hash(hasher);
    world.now().hash(hasher);
    world.store().hash(hasher);
    world.clients().hash(hasher);
    let runs = canonical_runs(world.history());
    world.attempts().len().hash(hasher);
    for (id, attempt) in world.attempts() {
        id.hash(hasher);
        hash_attempt(attempt, &runs, hasher);
    }
    world.responses().hash(hasher);
    world.relay().hash(hasher);
    world.retention().hash(hasher);
    state.faults_used.hash(hasher);
    hash_history(world.history(), hasher);
}

/// Each handler run's canonical name, by [`HandlerRunId`]: its key and its rank among the
/// key's runs (the order in which one key's runs were recorded is kept; the order across keys
/// is forgotten).
fn canonical_runs(history: &History) -> Vec<(IdempotencyKey, usize)> {
    let mut per_key: BTreeMap<IdempotencyKey, usize> = BTreeMap::new();
    history
        .handler_runs()
        .iter()
        .map(|run| {
            let rank = per_key.entry(run.key).or_insert(0);
            let name = (run.key, *rank);
            *rank += 1;
            name
        })
        .collect()
}

/// Hashes an API attempt with its handler run named canonically. The destructuring names every
/// field, so a field added to [`ApiAttempt`] does not compile until it is hashed here.
fn hash_attempt(attempt: &ApiAttempt, runs: &[(IdempotencyKey, usize)], hasher: &mut impl Hasher) {
    let ApiAttempt {
        request,
        send_number,
        kind,
        key,
        fingerprint,
        layer,
        waiting_for,
        handler_run,
        pending_lease,
        origin,
        started,
        uses_planned_order,
    } = attempt;
    request.hash(hasher);
    send_number.hash(hasher);
    kind.hash(hasher);
    key.hash(hasher);
    fingerprint.hash(hasher);
    layer.hash(hasher);
    waiting_for.hash(hasher);
    handler_run.map(|run| runs.get(run.0)).hash(hasher);
    pending_lease.hash(hasher);
    origin.hash(hasher);
    started.hash(hasher);
    uses_planned_order.hash(hasher);
}

/// Hashes the history in a canonical form: its length (the world's limit on records), then the
/// answers grouped by idempotency key, the handler runs grouped by key, and the message events
/// grouped by message, each group in the order recorded. What is forgotten is the order of
/// records of different keys, or of different messages, relative to each other.
fn hash_history(history: &History, hasher: &mut impl Hasher) {
    history.config().hash(hasher);
    history.len().hash(hasher);
    hash_grouped(history.responses(), |response| group(response.key.map(|key| key.0)), hasher);
    hash_grouped(history.handler_runs(), |run| group(Some(run.key.0)), hasher);
    hash_grouped(history.message_events(), |event| group(Some(event.message_id().0)), hasher);
}

/// A history record's group: its key (an idempotency key or a message id), or none, ordered as
/// the key is (`None` first, then the UUIDs in byte order). One plain type for every kind of
/// record, so the page carries one sort for all of them instead of one per record type.
type Group = (bool, u128);

fn group(key: Option<uuid::Uuid>) -> Group {
    key.map_or((false, 0), |key| (true, key.as_u128()))
}

/// Hashes `records` grouped by `key`: the groups in the order of their keys, each group's
/// records in the order recorded, each record after its group. A history whose records are in
/// group order already (one key, one message) is hashed in place, without allocating.
fn hash_grouped<T: Hash>(records: &[T], key: impl Fn(&T) -> Group, hasher: &mut impl Hasher) {
    records.len().hash(hasher);
    if records.is_sorted_by_key(&key) {
        for record in records {
            key(record).hash(hasher);
            record.hash(hasher);
        }
        return;
    }
    let mut order: Vec<(Group, usize)> = records.iter().map(&key).zip(0..).collect();
    order.sort_unstable();
    for (group, index) in order {
        group.hash(hasher);
        if let Some(record) = records.get(index) {
            record.hash(hasher);
        }
    }
}

/// Hashes the parts of the world that name consumer instances, with instance `i` renamed to
/// `permutation[i]`: the instances themselves, in their renamed order, and the broker, whose
/// in-flight entries list the instances holding them.
pub(super) fn hash_instances(world: &World, permutation: &[usize], hasher: &mut impl Hasher) {
    let rename = |instance: InstanceId| {
        InstanceId(permutation.get(instance.0).copied().unwrap_or(instance.0))
    };
    let consumers = world.consumers();
    // The instances in their renamed order: the one renamed to 0 first, then 1, and so on.
    for renamed in 0..consumers.len() {
        let original = permutation.iter().position(|&to| to == renamed).unwrap_or(renamed);
        if let Some(consumer) = consumers.get(original) {
            consumer.hash(hasher);
        }
    }
    let broker: &Broker = world.broker();
    broker.next_entry.hash(hasher);
    broker.dead_letters.hash(hasher);
    broker.deliveries_by_message.hash(hasher);
    broker.entries.len().hash(hasher);
    for (id, entry) in &broker.entries {
        id.hash(hasher);
        entry.envelope.hash(hasher);
        entry.message_id.hash(hasher);
        entry.deliveries.hash(hasher);
        match &entry.state {
            EntryState::InFlight { instances, redeliver_at } => {
                std::mem::discriminant(&entry.state).hash(hasher);
                instances.len().hash(hasher);
                for instance in instances {
                    rename(*instance).hash(hasher);
                }
                redeliver_at.hash(hasher);
            }
            other => other.hash(hasher),
        }
    }
}

/// Every permutation of `0..count`, the identity first.
pub(super) fn permutations(count: usize) -> Vec<Vec<usize>> {
    let mut all = vec![Vec::new()];
    for next in 0..count {
        let mut extended = Vec::new();
        for permutation in &all {
            for position in 0..=permutation.len() {
                let mut longer: Vec<usize> = permutation.clone();
                longer.insert(position, next);
                extended.push(longer);
            }
        }
        all = extended;
    }
    all.sort();
    all
}
