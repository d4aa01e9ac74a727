//! What waits in a world, for display: each pending item on its diagram lane with the fault
//! actions a learner can take on exactly it, and the clock with what falls due when time
//! passes. What is pending and what is due is the model's ([`World::pending`] and
//! [`World::deadlines`]); this module only words it and places it.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::{Tick, TxId};
use crate::sim::{
    Action, AttemptId, ClientState, DeadlineReason, EntryId, EntryState, InstanceId, Operation,
    PendingWork, RequestIndex, Target, World,
};
use crate::view::diagram::{Lane, instance_name, short};
use crate::words::{Language, Words, fill};

/// What waits at the cursor, and where a learner can hit it with a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "target", rename_all = "snake_case")]
pub enum PendingTarget {
    /// A client's request with no final answer yet (not sent, waiting, or backing off).
    Request {
        /// The request.
        request: RequestIndex,
    },
    /// A send of a request, running in the API.
    Attempt {
        /// The send.
        attempt: AttemptId,
    },
    /// An answer of the API on the network, on its way to the client.
    Answer {
        /// The send it answers.
        attempt: AttemptId,
    },
    /// The outbox relay: running, or with unpublished rows to publish.
    Relay,
    /// One copy of a message in the broker.
    Message {
        /// The copy.
        entry: EntryId,
    },
    /// The delivery a consumer instance is processing.
    Delivery {
        /// The instance.
        instance: InstanceId,
    },
    /// The retention job, running.
    Retention,
    /// The virtual clock, when something is due later and the learner may let time pass to
    /// it (a timeout, a redelivery, a lease or a retention window that runs out).
    Clock,
}

impl PendingTarget {
    /// The lane the item waits on; `None` for the clock, which has no lane.
    pub(crate) fn lane(self) -> Option<Lane> {
        match self {
            PendingTarget::Request { .. } => Some(Lane::Client),
            PendingTarget::Attempt { .. } | PendingTarget::Answer { .. } => Some(Lane::Api),
            PendingTarget::Relay => Some(Lane::Relay),
            PendingTarget::Message { .. } => Some(Lane::Broker),
            PendingTarget::Delivery { instance } => Some(Lane::Consumer { instance }),
            PendingTarget::Retention => Some(Lane::Retention),
            PendingTarget::Clock => None,
        }
    }

    /// The item a learner's action (a fault, or letting time pass) is aimed at; `None` for the
    /// other normal actions, which the scheduler takes.
    pub(crate) fn of_action(action: &Action) -> Option<PendingTarget> {
        if let Action::AdvanceClock { .. } = action {
            return Some(PendingTarget::Clock);
        }
        Some(match action.fault_target()? {
            Target::Request(request) => PendingTarget::Request { request },
            Target::Attempt(attempt) => PendingTarget::Attempt { attempt },
            Target::Answer(attempt) => PendingTarget::Answer { attempt },
            Target::Relay => PendingTarget::Relay,
            Target::Entry(entry) => PendingTarget::Message { entry },
            Target::Delivery(instance) | Target::Instance(instance) => {
                PendingTarget::Delivery { instance }
            }
        })
    }
}

impl fmt::Display for PendingTarget {
    /// A short stable id: `request-0`, `attempt-1`, `answer-1`, `relay`, `message-0`,
    /// `delivery-0`, `retention`, `clock`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PendingTarget::Request { request } => write!(f, "request-{}", request.0),
            PendingTarget::Attempt { attempt } => write!(f, "attempt-{}", attempt.0),
            PendingTarget::Answer { attempt } => write!(f, "answer-{}", attempt.0),
            PendingTarget::Relay => f.write_str("relay"),
            PendingTarget::Message { entry } => write!(f, "message-{}", entry.0),
            PendingTarget::Delivery { instance } => write!(f, "delivery-{}", instance.0),
            PendingTarget::Retention => f.write_str("retention"),
            PendingTarget::Clock => f.write_str("clock"),
        }
    }
}

/// One thing that waits at the cursor (a request, an answer, a message, a delivery, ...), with
/// the actions a learner can take on exactly it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingItem {
    /// What it is: no other item of the same world has it (the page keys its rows by it).
    pub target: PendingTarget,
    /// A short label (`request 0 POST /orders: awaiting its answer`).
    pub label: String,
    /// The full text, for a tooltip.
    pub detail: String,
    /// The fault actions enabled on it now, in [`World::enabled_fault_actions`] order; for the
    /// clock, the one `AdvanceClock` to the next deadline.
    pub actions: Vec<Action>,
}

impl PendingItem {
    /// The lane it waits on (`None`: the clock).
    pub fn lane(&self) -> Option<Lane> {
        self.target.lane()
    }
}

/// What waits in `world`, lane by lane (Client, API, Relay, Broker, consumers, retention, then
/// the clock), each item with the fault actions that apply to exactly it. Every enabled fault
/// action of the world is on exactly one item. The items are the world's own pending work
/// ([`World::pending`]); the clock is an item only when time can pass while something else
/// could still happen (otherwise a plain step moves it anyway).
pub fn pending(world: &World) -> Vec<PendingItem> {
    pending_in(world, Language::En)
}

/// [`pending`] with the items' labels and tooltips in `language`.
pub fn pending_in(world: &World, language: Language) -> Vec<PendingItem> {
    let w = language.words();
    let mut items: Vec<PendingItem> = Vec::new();
    for work in world.pending() {
        let item = match work {
            PendingWork::Request { request } => request_item(world, request, w),
            PendingWork::Attempt { attempt, waiting_for } => {
                attempt_item(world, attempt, waiting_for, w)
            }
            PendingWork::Answer { attempt } => answer_item(world, attempt, w),
            PendingWork::RelayRun | PendingWork::UnpublishedOutbox => {
                if items.iter().any(|item| item.target == PendingTarget::Relay) {
                    continue;
                }
                Some(relay_item(world, w))
            }
            PendingWork::Message { entry } => message_item(world, entry, language),
            PendingWork::Delivery { instance, .. } => delivery_item(world, instance, language),
            PendingWork::RetentionRun => Some(item(
                PendingTarget::Retention,
                w.diagram.pend_retention_label.to_owned(),
                w.diagram.pend_retention_detail.to_owned(),
            )),
        };
        items.extend(item);
    }
    let clock_actions = clock_item(world, &mut items, w);
    place_actions(world, clock_actions, &mut items);
    items.sort_by_key(|item| (item.lane().is_none(), item.lane()));
    items
}

fn request_item(world: &World, request: RequestIndex, w: &Words) -> Option<PendingItem> {
    let client = world.clients().get(request.0)?;
    let what = operation_label(&client.spec.operation);
    let state = match &client.state {
        ClientState::NotSent => w.diagram.pend_not_sent.to_owned(),
        ClientState::Awaiting { deadline, .. } => {
            fill(w.diagram.pend_awaits, &[("tick", &deadline.0)])
        }
        ClientState::BackingOff { retry_at } => {
            fill(w.diagram.pend_retries_at, &[("tick", &retry_at.0)])
        }
        ClientState::Answered { .. } | ClientState::GaveUp => return None,
    };
    Some(item(
        PendingTarget::Request { request },
        fill(
            w.diagram.pend_request_label,
            &[("request", &request.0), ("what", &what), ("state", &state)],
        ),
        fill(
            w.diagram.pend_request_detail,
            &[
                ("request", &request.0),
                ("what", &what),
                ("sends", &client.sends),
                ("key", &client.current_key),
            ],
        ),
    ))
}

fn waiting_text(waiting_for: Option<TxId>, w: &Words) -> String {
    match waiting_for {
        Some(holder) => fill(w.diagram.pend_waits_for, &[("holder", &holder)]),
        None => String::new(),
    }
}

fn attempt_item(
    world: &World,
    attempt: AttemptId,
    waiting_for: Option<TxId>,
    w: &Words,
) -> Option<PendingItem> {
    let running = world.attempts().get(&attempt)?;
    let waiting = waiting_text(waiting_for, w);
    Some(item(
        PendingTarget::Attempt { attempt },
        fill(
            w.diagram.pend_attempt_label,
            &[("attempt", &attempt.0), ("request", &running.request.0), ("waiting", &waiting)],
        ),
        fill(
            w.diagram.pend_attempt_detail,
            &[
                ("send", &running.send_number),
                ("request", &running.request.0),
                ("key", &running.key),
            ],
        ),
    ))
}

fn answer_item(world: &World, attempt: AttemptId, w: &Words) -> Option<PendingItem> {
    let answer = world.responses().get(&attempt)?;
    let status = answer.response.status;
    Some(item(
        PendingTarget::Answer { attempt },
        fill(w.diagram.pend_answer_label, &[("status", &status), ("request", &answer.request.0)]),
        fill(
            w.diagram.pend_answer_detail,
            &[
                ("status", &status),
                ("attempt", &attempt.0),
                ("send", &answer.send_number),
                ("request", &answer.request.0),
            ],
        ),
    ))
}

fn relay_item(world: &World, w: &Words) -> PendingItem {
    let unpublished =
        world.store().committed().outbox.values().filter(|row| !row.published).count();
    let published = world.relay_published_not_marked();
    let label = match (world.relay().is_some(), published.len()) {
        (true, 0) => w.diagram.pend_relay_runs.to_owned(),
        (true, count) => fill(w.diagram.pend_relay_published, &[("count", &count)]),
        (false, _) => fill(w.diagram.pend_outbox_unpublished, &[("count", &unpublished)]),
    };
    let ids = published.iter().map(short).collect::<Vec<_>>().join(", ");
    item(
        PendingTarget::Relay,
        label,
        fill(w.diagram.pend_relay_detail, &[("unpublished", &unpublished), ("ids", &ids)]),
    )
}

fn message_item(world: &World, entry: EntryId, language: Language) -> Option<PendingItem> {
    let w = language.words();
    let copy = world.broker().entries.get(&entry)?;
    let state = match &copy.state {
        EntryState::Ready { visible_at } if *visible_at > world.now() => {
            fill(w.diagram.pend_queued_visible, &[("tick", &visible_at.0)])
        }
        EntryState::Ready { .. } => w.diagram.pend_queued.to_owned(),
        EntryState::InFlight { instances, .. } => {
            let names = instances
                .iter()
                .map(|instance| instance_name(*instance, language))
                .collect::<Vec<_>>()
                .join(", ");
            fill(w.diagram.pend_in_flight, &[("instances", &names)])
        }
        EntryState::HeldUntilAnswered { request } => {
            fill(w.diagram.pend_held_until_answered, &[("request", &request.0)])
        }
        EntryState::HeldUntil { tick } => {
            fill(w.diagram.pend_held_until_tick, &[("tick", &tick.0)])
        }
        EntryState::AwaitingOriginalAck { .. } => w.diagram.pend_late_copy.to_owned(),
    };
    Some(item(
        PendingTarget::Message { entry },
        fill(
            w.diagram.pend_message_label,
            &[("id", &short(&copy.message_id)), ("entry", &entry.0), ("state", &state)],
        ),
        fill(
            w.diagram.pend_message_detail,
            &[("entry", &entry.0), ("id", &copy.message_id), ("deliveries", &copy.deliveries)],
        ),
    ))
}

fn delivery_item(world: &World, instance: InstanceId, language: Language) -> Option<PendingItem> {
    let w = language.words();
    let delivery = world.consumers().get(instance.0)?.delivery.as_ref()?;
    let waiting = waiting_text(delivery.waiting_for, w);
    Some(item(
        PendingTarget::Delivery { instance },
        fill(
            w.diagram.pend_delivery_label,
            &[
                ("number", &delivery.delivery_number),
                ("id", &short(&delivery.message_id)),
                ("waiting", &waiting),
            ],
        ),
        fill(
            w.diagram.pend_delivery_detail,
            &[
                ("instance", &instance_name(instance, language)),
                ("entry", &delivery.entry.0),
                ("id", &delivery.message_id),
                ("number", &delivery.delivery_number),
            ],
        ),
    ))
}

/// The clock's item, if time can pass while something else could happen, with what falls
/// due; returns the clock advance to place on it.
fn clock_item(world: &World, items: &mut Vec<PendingItem>, w: &Words) -> Vec<Action> {
    let normal = world.enabled_normal_actions();
    let clock = normal.iter().find(|action| matches!(action, Action::AdvanceClock { .. }));
    let others = normal.iter().any(|action| !matches!(action, Action::AdvanceClock { .. }));
    let (Some(advance), true, Some(deadline)) = (clock, others, world.next_deadline()) else {
        return Vec::new();
    };
    let due = due_at(world, deadline, w);
    items.push(item(
        PendingTarget::Clock,
        fill(w.diagram.pend_clock_label, &[("now", &world.now().0), ("deadline", &deadline.0)]),
        if due.is_empty() {
            fill(w.diagram.pend_clock_something, &[("tick", &deadline.0)])
        } else {
            fill(w.diagram.pend_clock_due, &[("tick", &deadline.0), ("due", &due.join("; "))])
        },
    ));
    vec![advance.clone()]
}

/// Puts each enabled fault action (and the clock's advance) on the item it targets; an action
/// whose target has no item gets an item of its own. The items are found by their target in an
/// index, not by a search each: a large world waits on a thousand items with thousands of
/// fault actions.
fn place_actions(world: &World, clock_actions: Vec<Action>, items: &mut Vec<PendingItem>) {
    let mut at: BTreeMap<PendingTarget, usize> = BTreeMap::new();
    for (index, item) in items.iter().enumerate() {
        // The first item of a target takes its actions, as a search from the start would.
        at.entry(item.target).or_insert(index);
    }
    for action in world.enabled_fault_actions().into_iter().chain(clock_actions) {
        let Some(target) = PendingTarget::of_action(&action) else { continue };
        match at.get(&target).and_then(|index| items.get_mut(*index)) {
            Some(item) => item.actions.push(action),
            None => {
                at.insert(target, items.len());
                items.push(PendingItem {
                    target,
                    label: target.to_string().replace('-', " "),
                    detail: String::new(),
                    actions: vec![action],
                });
            }
        }
    }
}

fn item(target: PendingTarget, label: String, detail: String) -> PendingItem {
    PendingItem { target, label, detail, actions: Vec::new() }
}

/// `POST /orders`, `POST /orders/…/payments`, `POST /orders/…/cancel`.
fn operation_label(operation: &Operation) -> &'static str {
    match operation {
        Operation::PlaceOrder { .. } => "POST /orders",
        Operation::PayOrder { .. } => "POST /orders/…/payments",
        Operation::CancelOrder { .. } => "POST /orders/…/cancel",
    }
}

/// What falls due at `tick`, in words: the world's deadlines at that tick.
fn due_at(world: &World, tick: Tick, w: &Words) -> Vec<String> {
    world
        .deadlines()
        .into_iter()
        .filter(|deadline| deadline.at == tick)
        .map(|deadline| due_text(&deadline.reason, w))
        .collect()
}

/// A deadline's reason, in words.
fn due_text(reason: &DeadlineReason, w: &Words) -> String {
    match reason {
        DeadlineReason::RequestDue { request } => {
            fill(w.diagram.due_request, &[("request", &request.0)])
        }
        DeadlineReason::ClientTimeout { request } => {
            fill(w.diagram.due_timeout, &[("request", &request.0)])
        }
        DeadlineReason::ClientRetry { request } => {
            fill(w.diagram.due_retry, &[("request", &request.0)])
        }
        DeadlineReason::MessageVisible { entry } => {
            fill(w.diagram.due_visible, &[("entry", &entry.0)])
        }
        DeadlineReason::Redelivery { entry } => {
            fill(w.diagram.due_redelivery, &[("entry", &entry.0)])
        }
        DeadlineReason::HoldEnds { entry } => fill(w.diagram.due_hold_ends, &[("entry", &entry.0)]),
        DeadlineReason::InboxRowExpires { message_id } => {
            fill(w.diagram.due_inbox_expires, &[("id", &short(message_id))])
        }
        DeadlineReason::KeyRetentionEnds { key } => {
            fill(w.diagram.due_key_expires, &[("key", &short(key))])
        }
        DeadlineReason::KeyLeaseAndRetentionEnd { key } => {
            fill(w.diagram.due_key_lease_expires, &[("key", &short(key))])
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::sim::{PatternMode, Simulation, catalogue_scenario};
    use crate::view::diagram::lanes;

    fn render_pending(items: &[PendingItem]) -> String {
        let mut text = String::new();
        for item in items {
            let lane = item.lane().map(Lane::name).unwrap_or_else(|| "-".to_owned());
            text.push_str(&format!("[{lane}] {}: {}\n", item.target, item.label));
            for action in &item.actions {
                text.push_str(&format!("    {action:?}\n"));
            }
        }
        text
    }

    /// Every catalogue lesson, both modes, every step: each enabled fault action is on exactly
    /// one pending item, on the lane of its target, and a clock item carries one clock advance
    /// with the reasons it is due.
    #[test]
    fn every_enabled_fault_is_on_exactly_one_pending_item() {
        for entry in crate::sim::CATALOGUE {
            for mode in [PatternMode::Naive, PatternMode::Idempotent] {
                let scenario = catalogue_scenario(entry.id).unwrap().with_mode(mode);
                let lanes = lanes(&scenario);
                let mut simulation = Simulation::new(scenario, 0).unwrap();
                loop {
                    let world = simulation.world();
                    let items = pending(world);
                    // The page keys its rows by target: each is one item's.
                    let targets: std::collections::BTreeSet<PendingTarget> =
                        items.iter().map(|item| item.target).collect();
                    assert_eq!(targets.len(), items.len(), "{} {mode:?}", entry.id);
                    let placed: Vec<&Action> =
                        items.iter().flat_map(|item| &item.actions).collect();
                    let faults = world.enabled_fault_actions();
                    for fault in &faults {
                        let on: Vec<&PendingItem> =
                            items.iter().filter(|item| item.actions.contains(fault)).collect();
                        assert_eq!(on.len(), 1, "{} {mode:?}: {fault:?}", entry.id);
                        assert_eq!(Some(on[0].target), PendingTarget::of_action(fault));
                        assert!(!on[0].detail.is_empty(), "{fault:?} has an unnamed item");
                    }
                    let clocks = placed
                        .iter()
                        .filter(|action| matches!(action, Action::AdvanceClock { .. }))
                        .count();
                    assert_eq!(placed.len(), faults.len() + clocks, "{} {mode:?}", entry.id);
                    for item in &items {
                        if let Some(lane) = item.lane() {
                            assert!(lanes.contains(&lane), "{} {lane}", entry.id);
                        } else {
                            assert_eq!(item.actions.len(), 1);
                            assert!(world.is_enabled(&item.actions[0]));
                            assert!(
                                !due_at(
                                    world,
                                    world.next_deadline().unwrap(),
                                    Language::En.words()
                                )
                                .is_empty(),
                                "{} {mode:?}: no reason for the deadline",
                                entry.id
                            );
                        }
                    }
                    if simulation.step().is_none() {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn the_pending_items_of_the_duplicate_delivery_lesson() {
        let scenario =
            catalogue_scenario("f01-duplicate-delivery").unwrap().with_mode(PatternMode::Naive);
        let mut simulation = Simulation::new(scenario, 0).unwrap();
        let mut seen = String::new();
        for step in [0, 1, 9, 12, 17, 21] {
            while simulation.steps().len() < step {
                simulation.step().unwrap();
            }
            seen.push_str(&format!("after step {step}:\n"));
            seen.push_str(&render_pending(&pending(simulation.world())));
        }
        expect![[r#"
            after step 0:
            [Client] request-0: request 0 POST /orders: not sent yet
                DoubleSubmit { request: RequestIndex(0) }
            after step 1:
            [Client] request-0: request 0 POST /orders: awaits its answer (timeout at tick 10)
            [API] attempt-0: attempt 0 of request 0 runs
                CrashApi { attempt: AttemptId(0) }
            [-] clock: clock: tick 0, next deadline at tick 10
                AdvanceClock { ticks: 10 }
            after step 9:
            [Client] request-0: request 0 POST /orders: awaits its answer (timeout at tick 10)
            [API] attempt-0: attempt 0 of request 0 runs
                CrashApi { attempt: AttemptId(0) }
            [Relay] relay: relay runs: 1 published, not marked
                CrashRelay
            [Broker] message-0: message d051b29e (entry 0): queued
                DuplicateMessage { entry: EntryId(0) }
                HoldMessage { entry: EntryId(0), until: Ticks { ticks: 20 } }
                DuplicateAfterRetention { entry: EntryId(0) }
            [-] clock: clock: tick 0, next deadline at tick 10
                AdvanceClock { ticks: 10 }
            after step 12:
            [Client] request-0: request 0 POST /orders: awaits its answer (timeout at tick 10)
            [API] attempt-0: attempt 0 of request 0 runs
                CrashApi { attempt: AttemptId(0) }
            [Relay] relay: relay runs: 1 published, not marked
                CrashRelay
            [Broker] message-0: message d051b29e (entry 0): in flight at Consumer A
                DuplicateMessage { entry: EntryId(0) }
                DeliverConcurrently { entry: EntryId(0), instance: InstanceId(1) }
                DuplicateAfterRetention { entry: EntryId(0) }
            [Broker] message-1: message d051b29e (entry 1): queued
                DuplicateMessage { entry: EntryId(1) }
                HoldMessage { entry: EntryId(1), until: Ticks { ticks: 20 } }
                DuplicateAfterRetention { entry: EntryId(1) }
            [Consumer A] delivery-0: delivery #1 of d051b29e
            [-] clock: clock: tick 0, next deadline at tick 10
                AdvanceClock { ticks: 10 }
            after step 17:
            [Broker] message-0: message d051b29e (entry 0): in flight at Consumer A
                DuplicateMessage { entry: EntryId(0) }
                DuplicateAfterRetention { entry: EntryId(0) }
            [Broker] message-1: message d051b29e (entry 1): in flight at Consumer B
                DuplicateMessage { entry: EntryId(1) }
                DuplicateAfterRetention { entry: EntryId(1) }
            [Consumer A] delivery-0: delivery #1 of d051b29e
            [Consumer B] delivery-1: delivery #2 of d051b29e
            [-] clock: clock: tick 0, next deadline at tick 20
                AdvanceClock { ticks: 20 }
            after step 21:
            [Broker] message-0: message d051b29e (entry 0): in flight at Consumer A
                DuplicateMessage { entry: EntryId(0) }
                DuplicateAfterRetention { entry: EntryId(0) }
            [Broker] message-1: message d051b29e (entry 1): in flight at Consumer B
                DuplicateMessage { entry: EntryId(1) }
                DuplicateAfterRetention { entry: EntryId(1) }
            [Consumer A] delivery-0: delivery #1 of d051b29e
                CrashConsumerBeforeCommit { instance: InstanceId(0) }
            [Consumer B] delivery-1: delivery #2 of d051b29e
                CrashConsumerBeforeCommit { instance: InstanceId(1) }
            [-] clock: clock: tick 0, next deadline at tick 20
                AdvanceClock { ticks: 20 }
        "#]]
        .assert_eq(&seen);
    }
}
