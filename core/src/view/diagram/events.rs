//! The diagram's items for each event of a step, grouped by who the event belongs to: a
//! request's (client, API, the P3 layer), a message's way to the broker, a consumer's, and the
//! store's and the retention job's. Each item's label and tooltip come from the catalogue in
//! the diagram's language.

use super::*;

/// The items `event`, on `lane` (the actor of its step), adds to the diagram.
pub(super) fn event_items(
    lane: Lane,
    event: &SimEvent,
    items: &mut Vec<DiagramItem>,
    language: Language,
) {
    match event {
        SimEvent::RequestSent { .. }
        | SimEvent::Idempotency { .. }
        | SimEvent::ApiFailed { .. }
        | SimEvent::ApiCrashed { .. }
        | SimEvent::ResponseDelivered { .. }
        | SimEvent::LateResponseIgnored { .. }
        | SimEvent::ResponseLost { .. }
        | SimEvent::ClientTimedOut { .. }
        | SimEvent::ClientGaveUp { .. } => request_items(event, items, language),
        SimEvent::Published { .. }
        | SimEvent::RelayFailed { .. }
        | SimEvent::RelayCrashed { .. }
        | SimEvent::MessageDuplicated { .. }
        | SimEvent::MessageHeld { .. }
        | SimEvent::MessageReleased { .. }
        | SimEvent::DeadLettered { .. } => message_items(event, items, language),
        SimEvent::Delivered { .. }
        | SimEvent::MessageConsumed { .. }
        | SimEvent::ConsumerFailed { .. }
        | SimEvent::ConsumerCrashed { .. } => consumer_items(event, items, language),
        SimEvent::Blocked { .. }
        | SimEvent::RetentionFailed { .. }
        | SimEvent::DeadlockDetected { .. } => store_items(lane, event, items, language),
        // A replayed answer is marked by the P3 layer's event; every answer travels with the
        // response arrow of the step that delivers it.
        SimEvent::Answered { .. }
        | SimEvent::HandlerRunStarted { .. }
        | SimEvent::RetryScheduled { .. }
        | SimEvent::ClientAnswered { .. }
        | SimEvent::RelayFinished { .. }
        | SimEvent::EffectCommitted { .. }
        | SimEvent::InboxRowsPurged { .. }
        | SimEvent::KeysPurged { .. }
        | SimEvent::ClockAdvanced { .. } => {}
    }
}

/// The items of a request's events: the client's sends, timeouts and answers, the API's
/// failures and crashes, and the P3 layer's replays and refusals.
fn request_items(event: &SimEvent, items: &mut Vec<DiagramItem>, language: Language) {
    let w = language.words();
    use crate::history::RequestAttempt;
    match event {
        SimEvent::RequestSent { request, attempt, kind, key, method_and_path } => {
            let label = match kind {
                RequestAttempt::First => method_and_path.to_string(),
                RequestAttempt::Duplicate => {
                    fill(w.diagram.dg_again, &[("request", method_and_path)])
                }
            };
            items.push(arrow(
                Lane::Client,
                Lane::Api,
                ArrowKind::Request,
                label,
                fill(
                    w.diagram.dgt_request_sent,
                    &[("request", &request.0), ("attempt", &attempt.0), ("key", key)],
                ),
            ));
        }
        SimEvent::Idempotency { event } => match event {
            IdempotencyEvent::ResponseReplayed { key, status } => items.push(mark(
                Lane::Api,
                MarkKind::Duplicate,
                fill(w.diagram.dg_replayed, &[("status", status)]),
                fill(w.diagram.dgt_replayed, &[("key", key), ("status", status)]),
            )),
            IdempotencyEvent::KeyInProgress { key, lease_expires_at } => items.push(mark(
                Lane::Api,
                MarkKind::Duplicate,
                w.diagram.dg_key_in_progress.to_owned(),
                fill(w.diagram.dgt_key_in_progress, &[("key", key), ("until", lease_expires_at)]),
            )),
            IdempotencyEvent::FingerprintMismatch { key, .. } => items.push(mark(
                Lane::Api,
                MarkKind::Duplicate,
                w.diagram.dg_key_reused.to_owned(),
                fill(w.diagram.dgt_key_reused, &[("key", key)]),
            )),
            _ => {}
        },
        SimEvent::ApiFailed { attempt, error } => items.push(mark(
            Lane::Api,
            MarkKind::Failed,
            w.diagram.dg_failed_no_answer.to_owned(),
            fill(w.diagram.dgt_api_failed, &[("attempt", &attempt.0), ("error", error)]),
        )),
        SimEvent::ApiCrashed { attempt, rolled_back } => items.push(mark(
            Lane::Api,
            MarkKind::Crash,
            w.diagram.dg_api_crash.to_owned(),
            match rolled_back {
                Some(tx) => fill(
                    w.diagram.dgt_api_crash_rolled_back,
                    &[("attempt", &attempt.0), ("tx", tx)],
                ),
                None => fill(w.diagram.dgt_api_crash, &[("attempt", &attempt.0)]),
            },
        )),
        SimEvent::ResponseDelivered { attempt, status } => items.push(arrow(
            Lane::Api,
            Lane::Client,
            ArrowKind::Response,
            status.to_string(),
            fill(w.diagram.dgt_answer, &[("attempt", &attempt.0), ("status", status)]),
        )),
        SimEvent::LateResponseIgnored { attempt } => items.push(mark(
            Lane::Client,
            MarkKind::Timeout,
            w.diagram.dg_late_ignored.to_owned(),
            fill(w.diagram.dgt_late_ignored, &[("attempt", &attempt.0)]),
        )),
        SimEvent::ResponseLost { attempt } => items.push(mark(
            Lane::Api,
            MarkKind::LostResponse,
            w.diagram.dg_response_lost.to_owned(),
            fill(w.diagram.dgt_response_lost, &[("attempt", &attempt.0)]),
        )),
        SimEvent::ClientTimedOut { request } => items.push(mark(
            Lane::Client,
            MarkKind::Timeout,
            w.diagram.dg_timeout.to_owned(),
            fill(w.diagram.dgt_timeout, &[("request", &request.0)]),
        )),
        SimEvent::ClientGaveUp { request } => items.push(mark(
            Lane::Client,
            MarkKind::Timeout,
            w.diagram.dg_gave_up.to_owned(),
            fill(w.diagram.dgt_gave_up, &[("request", &request.0)]),
        )),
        // The other events are drawn by the other groups.
        _ => {}
    }
}

/// The items of a message's way to the broker: the relay's publishes, failures and crashes,
/// and what the broker does to a copy (duplicated, held, released, dead-lettered).
fn message_items(event: &SimEvent, items: &mut Vec<DiagramItem>, language: Language) {
    let w = language.words();
    match event {
        SimEvent::Published { message_id, entry } => items.push(arrow(
            Lane::Relay,
            Lane::Broker,
            ArrowKind::Publish,
            fill(w.diagram.dg_publish, &[("id", &short(message_id))]),
            fill(w.diagram.dgt_published, &[("id", message_id), ("entry", &entry.0)]),
        )),
        SimEvent::RelayFailed { error } => {
            items.push(mark(
                Lane::Relay,
                MarkKind::Failed,
                w.diagram.dg_relay_failed.to_owned(),
                error.clone(),
            ));
        }
        SimEvent::RelayCrashed { crashed } => items.push(mark(
            Lane::Relay,
            MarkKind::Crash,
            w.diagram.dg_relay_crash.to_owned(),
            fill(
                w.diagram.dgt_relay_crash,
                &[(
                    "published",
                    &crashed
                        .published_not_marked
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                )],
            ),
        )),
        SimEvent::MessageDuplicated { entry, copy, message_id } => items.push(mark(
            Lane::Broker,
            MarkKind::Duplicate,
            fill(w.diagram.dg_duplicate, &[("id", &short(message_id))]),
            fill(
                w.diagram.dgt_duplicate,
                &[("id", message_id), ("copy", &copy.0), ("entry", &entry.0)],
            ),
        )),
        SimEvent::MessageHeld { entry } => items.push(mark(
            Lane::Broker,
            MarkKind::Held,
            fill(w.diagram.dg_hold, &[("entry", &entry.0)]),
            fill(w.diagram.dgt_held, &[("entry", &entry.0)]),
        )),
        SimEvent::MessageReleased { entry } => items.push(mark(
            Lane::Broker,
            MarkKind::Held,
            fill(w.diagram.dg_release, &[("entry", &entry.0)]),
            fill(w.diagram.dgt_released, &[("entry", &entry.0)]),
        )),
        SimEvent::DeadLettered { entry, message_id } => items.push(mark(
            Lane::Broker,
            MarkKind::Failed,
            w.diagram.dg_dead_lettered.to_owned(),
            fill(w.diagram.dgt_dead_lettered, &[("entry", &entry.0), ("id", message_id)]),
        )),
        // The other events are drawn by the other groups.
        _ => {}
    }
}

/// The items of a consumer's events: deliveries (a second one marked), acks, failures and
/// crashes.
fn consumer_items(event: &SimEvent, items: &mut Vec<DiagramItem>, language: Language) {
    let w = language.words();
    match event {
        SimEvent::Delivered { entry, message_id, instance, delivery_number } => {
            items.push(arrow(
                Lane::Broker,
                Lane::Consumer { instance: *instance },
                ArrowKind::Deliver,
                fill(
                    w.diagram.dg_deliver,
                    &[("number", delivery_number), ("id", &short(message_id))],
                ),
                fill(
                    w.diagram.dgt_delivered,
                    &[("entry", &entry.0), ("id", message_id), ("number", delivery_number)],
                ),
            ));
            if *delivery_number > 1 {
                items.push(mark(
                    Lane::Consumer { instance: *instance },
                    MarkKind::Duplicate,
                    fill(w.diagram.dg_delivery_again, &[("number", delivery_number)]),
                    fill(
                        w.diagram.dgt_delivered_again,
                        &[("id", message_id), ("number", delivery_number)],
                    ),
                ));
            }
        }
        SimEvent::MessageConsumed { instance, outcome } => {
            let consumer = Lane::Consumer { instance: *instance };
            let message = outcome.message_id();
            let message_short = message.map(|id| short(&id)).unwrap_or_default();
            let consumer_name = instance_name(*instance, language);
            if let ConsumeOutcome::DuplicateIgnored { message_id, .. } = outcome {
                items.push(mark(
                    consumer,
                    MarkKind::Duplicate,
                    w.diagram.dg_duplicate_ignored.to_owned(),
                    fill(w.diagram.dgt_duplicate_ignored, &[("id", message_id)]),
                ));
            }
            items.push(arrow(
                consumer,
                Lane::Broker,
                ArrowKind::Ack,
                fill(w.diagram.dg_ack, &[("id", &message_short)]).trim_end().to_owned(),
                match message {
                    Some(id) => {
                        fill(w.diagram.dgt_ack, &[("instance", &consumer_name), ("id", &id)])
                    }
                    None => fill(w.diagram.dgt_ack_delivery, &[("instance", &consumer_name)]),
                },
            ));
        }
        SimEvent::ConsumerFailed { instance, error } => items.push(mark(
            Lane::Consumer { instance: *instance },
            MarkKind::Failed,
            w.diagram.dg_failed_no_ack.to_owned(),
            error.clone(),
        )),
        SimEvent::ConsumerCrashed { instance, crashed } => items.push(mark(
            Lane::Consumer { instance: *instance },
            MarkKind::Crash,
            match crashed {
                ConsumerCrashed::BeforeBegin => w.diagram.dg_crash,
                ConsumerCrashed::BeforeCommit { .. } => w.diagram.dg_crash_before_commit,
                ConsumerCrashed::AfterCommitBeforeAck { .. } => w.diagram.dg_crash_after_commit,
                ConsumerCrashed::AfterEnd => w.diagram.dg_crash_after_ack,
            }
            .to_owned(),
            fill(
                w.diagram.dgt_consumer_crashed,
                &[
                    ("instance", &instance_name(*instance, language)),
                    ("crashed", &format!("{crashed:?}")),
                ],
            ),
        )),
        // The other events are drawn by the other groups.
        _ => {}
    }
}

/// The items of the store's and the retention job's events on `lane`: a wait for a lock, a
/// deadlock, a failed purge.
fn store_items(lane: Lane, event: &SimEvent, items: &mut Vec<DiagramItem>, language: Language) {
    let w = language.words();
    match event {
        SimEvent::Blocked { wait } => items.push(mark(
            lane,
            MarkKind::Blocked,
            fill(w.diagram.dg_waits_for, &[("holder", &wait.holder)]),
            fill(
                w.diagram.dgt_waits_for,
                &[
                    ("tx", &wait.tx),
                    ("holder", &wait.holder),
                    ("table", &wait.table.as_str()),
                    ("key", &wait.key),
                ],
            ),
        )),
        SimEvent::RetentionFailed { error } => items.push(mark(
            Lane::Retention,
            MarkKind::Failed,
            w.diagram.dg_retention_failed.to_owned(),
            error.clone(),
        )),
        SimEvent::DeadlockDetected { cycle, victim } => items.push(mark(
            Lane::Store,
            MarkKind::Failed,
            fill(w.diagram.dg_deadlock, &[("victim", victim)]),
            fill(
                w.diagram.dgt_deadlock,
                &[
                    (
                        "cycle",
                        &cycle.iter().map(ToString::to_string).collect::<Vec<_>>().join(" -> "),
                    ),
                    ("victim", victim),
                ],
            ),
        )),
        // The other events are drawn by the other groups.
        _ => {}
    }
}
