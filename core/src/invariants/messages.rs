//! I5 and I6, the invariants judged on the inbox and outbox rows beside the message events of
//! the history: an inbox row exists exactly when its effect was applied, and at quiescence each
//! `OrderPlaced` was processed exactly once per consumer.

use std::collections::{BTreeMap, BTreeSet};

use super::{Finding, InvariantId, Quiescence, RowRef, Violation};
use crate::history::{History, InboxUse, MessageEvent};
use crate::ids::{ConsumerName, MessageId, OrderId, Tick};
use crate::store::{InboxRow, MessagePayload, OrderRow, OutboxRow, Tables};

/// I5: an inbox row exists exactly when its effect was applied.
///
/// Exact, with retention: for each `(message, consumer)`, the effects committed with an inbox
/// ([`InboxUse::WithInbox`]) and the purges of its inbox row ([`MessageEvent::InboxRowPurged`])
/// are taken in the order they happened. The row must exist exactly when the last of these is
/// an effect (after a purge, a row must be gone until the next effect); and between two purges
/// at most one effect may run, since the row stops the second. Effects of a consumer without an
/// inbox ([`InboxUse::WithoutInbox`], the naive twin) are not checked.
pub(crate) fn check_i5_inbox_row_exactly_when_applied(
    tables: &Tables,
    history: &History,
) -> Vec<Violation> {
    let mut events_by_row: BTreeMap<(MessageId, &ConsumerName), Vec<(usize, InboxEvent)>> =
        BTreeMap::new();
    for (index, event) in history.message_events().iter().enumerate() {
        let Some((message_id, consumer, event)) = InboxEvent::of(event) else { continue };
        events_by_row.entry((message_id, consumer)).or_default().push((index, event));
    }
    let row_keys: BTreeSet<(MessageId, &ConsumerName)> = tables
        .inbox
        .keys()
        .map(|(message_id, consumer)| (*message_id, consumer))
        .chain(events_by_row.keys().cloned())
        .collect();

    let mut violations = Vec::new();
    for (message_id, consumer) in row_keys {
        let events =
            events_by_row.get(&(message_id, consumer)).map(Vec::as_slice).unwrap_or_default();
        let inbox_row = tables.inbox.get(&(message_id, consumer.clone()));
        i5_row(message_id, consumer, inbox_row, events, &mut violations);
    }
    violations
}

/// A message event that I5 judges: an effect committed with an inbox, or a purge of an inbox
/// row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum InboxEvent {
    EffectCommitted(Tick),
    RowPurged(Tick),
}

impl InboxEvent {
    /// The inbox row `event` is about and what happened to it, if I5 judges it.
    pub(super) fn of(event: &MessageEvent) -> Option<(MessageId, &ConsumerName, InboxEvent)> {
        match event {
            MessageEvent::EffectCommitted {
                message_id,
                consumer,
                inbox: InboxUse::WithInbox,
                committed_at,
            } => Some((*message_id, consumer, InboxEvent::EffectCommitted(*committed_at))),
            MessageEvent::InboxRowPurged { message_id, consumer, purged_at } => {
                Some((*message_id, consumer, InboxEvent::RowPurged(*purged_at)))
            }
            MessageEvent::EffectCommitted { inbox: InboxUse::WithoutInbox, .. }
            | MessageEvent::Published { .. }
            | MessageEvent::Acknowledged { .. } => None,
        }
    }
}

/// I5 for one inbox row key: the row, if it exists, and the events about it (with their
/// positions in the history's message events, in order).
pub(super) fn i5_row(
    message_id: MessageId,
    consumer: &ConsumerName,
    inbox_row: Option<&InboxRow>,
    events: &[(usize, InboxEvent)],
    violations: &mut Vec<Violation>,
) {
    let rows = || {
        let mut rows: Vec<RowRef> = inbox_row.map(RowRef::to_row).into_iter().collect();
        rows.extend(events.iter().map(|(index, _)| RowRef::MessageEvent { index: *index }));
        rows
    };
    match (inbox_row, events.last()) {
        (Some(_), None) => violations.push(Violation::new(
            InvariantId::I5,
            rows(),
            Finding::InboxRowWithoutEffect { message: message_id, consumer: consumer.clone() },
        )),
        (Some(_), Some((_, InboxEvent::RowPurged(purged_at)))) => violations.push(Violation::new(
            InvariantId::I5,
            rows(),
            Finding::InboxRowAfterPurge {
                message: message_id,
                consumer: consumer.clone(),
                purged_at: *purged_at,
            },
        )),
        (None, Some((_, InboxEvent::EffectCommitted(committed_at)))) => {
            violations.push(Violation::new(
                InvariantId::I5,
                rows(),
                Finding::EffectWithoutInboxRow {
                    message: message_id,
                    consumer: consumer.clone(),
                    committed_at: *committed_at,
                },
            ))
        }
        (Some(_), Some((_, InboxEvent::EffectCommitted(_))))
        | (None, Some((_, InboxEvent::RowPurged(_))))
        | (None, None) => {}
    }
    // Effects between purges: at most one each.
    for run_of_effects in events.split(|(_, event)| matches!(event, InboxEvent::RowPurged(_))) {
        if run_of_effects.len() > 1 {
            let committed_at = run_of_effects
                .iter()
                .filter_map(|(_, event)| match event {
                    InboxEvent::EffectCommitted(at) => Some(*at),
                    InboxEvent::RowPurged(_) => None,
                })
                .collect();
            let mut rows: Vec<RowRef> = inbox_row.map(RowRef::to_row).into_iter().collect();
            rows.extend(
                run_of_effects.iter().map(|(index, _)| RowRef::MessageEvent { index: *index }),
            );
            violations.push(Violation::new(
                InvariantId::I5,
                rows,
                Finding::EffectsBetweenPurges {
                    message: message_id,
                    consumer: consumer.clone(),
                    committed_at,
                },
            ));
        }
    }
}

/// I6: at quiescence, every placed order has an `OrderPlaced` message in the outbox, and each
/// `OrderPlaced` message of the outbox was processed exactly once by each consumer of
/// [`Quiescence::Quiescent`]: its committed effects in the history
/// ([`MessageEvent::EffectCommitted`], with or without an inbox) count exactly one, or zero
/// for a message the broker dead-lettered (its own outcome, reported beside the invariants).
/// With work pending, or with no consumer named, nothing is checked.
pub(crate) fn check_i6_order_placed_processed_once(
    tables: &Tables,
    history: &History,
    quiescence: &Quiescence,
) -> Vec<Violation> {
    let (consumers, dead_lettered): (BTreeSet<&ConsumerName>, BTreeSet<&MessageId>) =
        match quiescence {
            Quiescence::WorkPending => return Vec::new(),
            Quiescence::Quiescent { order_placed_consumers, dead_lettered } => {
                (order_placed_consumers.iter().collect(), dead_lettered.iter().collect())
            }
        };
    if consumers.is_empty() {
        return Vec::new();
    }
    let mut effects: BTreeMap<(MessageId, &ConsumerName), Vec<usize>> = BTreeMap::new();
    let mut publish_counts: BTreeMap<MessageId, usize> = BTreeMap::new();
    for (index, event) in history.message_events().iter().enumerate() {
        match event {
            MessageEvent::EffectCommitted { message_id, consumer, .. } => {
                effects.entry((*message_id, consumer)).or_default().push(index);
            }
            MessageEvent::Published { message_id, .. } => {
                let count = publish_counts.entry(*message_id).or_default();
                *count = count.saturating_add(1);
            }
            MessageEvent::Acknowledged { .. } | MessageEvent::InboxRowPurged { .. } => {}
        }
    }
    let mut messages_by_order: BTreeMap<OrderId, Vec<&OutboxRow>> = BTreeMap::new();
    for outbox in tables.outbox.values() {
        if let MessagePayload::OrderPlaced { order_id, .. } = &outbox.payload {
            messages_by_order.entry(*order_id).or_default().push(outbox);
        }
    }
    let order_ids: BTreeSet<OrderId> =
        tables.orders.keys().chain(messages_by_order.keys()).copied().collect();

    let mut violations = Vec::new();
    for order_id in order_ids {
        let messages = messages_by_order.get(&order_id).map(Vec::as_slice).unwrap_or_default();
        if messages.is_empty() {
            violations.push(Violation::new(
                InvariantId::I6,
                vec![RowRef::to_key::<OrderRow>(&order_id)],
                Finding::NoOrderPlaced { order: order_id },
            ));
        }
        for message in messages {
            let message_id = message.message_id;
            for consumer in &consumers {
                let effect_indexes =
                    effects.get(&(message_id, *consumer)).map(Vec::as_slice).unwrap_or_default();
                // Once, or not at all for a dead letter: an operational outcome, not a loss.
                if effect_indexes.len() == 1
                    || (effect_indexes.is_empty() && dead_lettered.contains(&message_id))
                {
                    continue;
                }
                let mut rows = vec![RowRef::to_row(*message)];
                rows.extend(
                    effect_indexes.iter().map(|index| RowRef::MessageEvent { index: *index }),
                );
                let published = publish_counts.get(&message_id).copied().unwrap_or(0);
                violations.push(Violation::new(
                    InvariantId::I6,
                    rows,
                    Finding::NotProcessedOnce {
                        consumer: (*consumer).clone(),
                        message: message_id,
                        order: order_id,
                        processed: effect_indexes.len(),
                        published,
                    },
                ));
            }
        }
    }
    violations
}
