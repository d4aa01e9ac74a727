//! The whole simulated world as one value, and its transition function: the model in
//! Stateright's shape.
//!
//! [`World`] holds everything that decides what happens next: the store, the history, the
//! virtual clock, the RNG that draws ids, the clients, the requests in flight in the API, the
//! answers on the network, the relay, the broker, the consumer instances and the retention
//! job. It is `Clone + Eq + Hash`, so a checker can store and deduplicate states and a page can
//! rewind to one. [`World::enabled_actions`] lists what can happen now, in a fixed order
//! (normal actions, then fault actions by class); [`World::apply`] performs one and reports a
//! [`StepRecord`]: the statement run, the typed events, the rows the step's commits changed,
//! and every invariant violation after the step (checked with [`check_all`] after every step;
//! I6 only when no work is pending).
//!
//! One step runs one statement of one step machine. A machine whose statement must wait for a
//! row lock (`Step::Blocked`) keeps its place and the transaction it waits for; its next step is
//! not enabled until that transaction has ended, and the scheduler picks another actor. Time
//! only moves by [`Action::AdvanceClock`], to the next deadline (a timeout, a redelivery, a
//! retry, an expiry), so a run never spins.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use serde::Serialize;
use thiserror::Error;
use uuid::Uuid;

use crate::history::{
    HandlerRunEnd, History, HistoryConfig, HistoryError, InboxUse, KeyLease, MessageEvent,
    RequestAttempt, ResponseOrigin,
};
use crate::idempotency::{ApiLayer, IdempotencyEvent, LayerState, PurgeForgottenKeys, fingerprint};
use crate::ids::{ConsumerName, IdempotencyKey, MessageId, OrderId, Tick, TxId};
use crate::inbox::{
    ConsumeMessage, ConsumeState, ConsumerConfig, ConsumerImplementation, Envelope,
    PurgeExpiredInboxRows,
};
use crate::invariants::{Quiescence, Violation, check_all};
use crate::outbox::{RelayOutbox, RelayState};
use crate::rng::DeterministicRng;
use crate::shop_api::{
    HandlerConfig, ReserveStockForMessage, ServerIds, ShopHandler, cancel_order_request,
    pay_order_request, place_order_request,
};
use crate::sim::action::{Action, AttemptId, EntryId, HoldRelease, InstanceId, RequestIndex};
use crate::sim::api::{ApiAttempt, InFlightResponse};
use crate::sim::broker::{Broker, DeadLetter, EntryState};
use crate::sim::client::{ClientRequest, ClientState, PlannedOrder};
use crate::sim::consumer::{ConsumerInstance, Delivery, RelayRun, RetentionRun, RetentionStage};
use crate::sim::scenario::{
    ClientConfig, ConsumerSetup, KeyOnRetry, Limits, Operation, Patterns, RetentionJobConfig,
    Scenario, ScenarioError,
};
use crate::sim::trace::{SimEvent, StepRecord};
use crate::step::{Step, Steps};
use crate::store::{IdempotencyKeyRow, KeyState, OutboxRow, Row, RowChange, Store, Tables};

/// The name every instance of the reserve-stock consumer shares (`inbox.consumer`).
pub const RESERVE_STOCK_CONSUMER: &str = "reserve-stock";

/// What the world needs of its scenario while it runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WorldConfig {
    /// Which twins run.
    pub patterns: Patterns,
    /// The idempotency layer's configuration.
    pub api: crate::idempotency::Config,
    /// The clients' retry policy.
    pub client: ClientConfig,
    /// The consumers and the broker.
    pub consumers: ConsumerSetup,
    /// The relay.
    pub relay: crate::outbox::RelayConfig,
    /// The retention job.
    pub retention_job: RetentionJobConfig,
    /// The limits.
    pub limits: Limits,
    /// The consumer's name.
    pub consumer_name: ConsumerName,
}

/// Why an action could not be applied. The world may have been changed by the part of the
/// step that ran before a limit was hit; the simulator stops there.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ApplyError {
    /// The action is not enabled in this state.
    #[error("the action {action:?} is not enabled now")]
    NotEnabled {
        /// The action.
        action: Action,
    },
    /// The broker's queue is full.
    #[error("the broker's queue holds {queue_len_max} entries, its limit")]
    QueueFull {
        /// The limit.
        queue_len_max: usize,
    },
    /// The history is full.
    #[error(transparent)]
    History(#[from] HistoryError),
}

/// The whole state of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    config: WorldConfig,
    now: Tick,
    rng: DeterministicRng,
    store: Store,
    history: History,
    clients: Vec<ClientRequest>,
    attempts: BTreeMap<AttemptId, ApiAttempt>,
    next_attempt: usize,
    responses: BTreeMap<AttemptId, InFlightResponse>,
    relay: Option<RelayRun>,
    broker: Broker,
    consumers: Vec<ConsumerInstance>,
    retention: Option<RetentionRun>,
}

impl Hash for World {
    /// Hashes everything but the RNG's internal state (which has no `Hash`); equal worlds
    /// still hash equally, which is all a hash must guarantee.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.config.hash(state);
        self.now.hash(state);
        self.store.hash(state);
        self.history.hash(state);
        self.clients.hash(state);
        self.attempts.hash(state);
        self.next_attempt.hash(state);
        self.responses.hash(state);
        self.relay.hash(state);
        self.broker.hash(state);
        self.consumers.hash(state);
        self.retention.hash(state);
    }
}

/// What a step is building up.
#[derive(Default)]
struct StepOut {
    statement: Option<String>,
    request: Option<RequestIndex>,
    attempt: Option<AttemptId>,
    message_id: Option<MessageId>,
    key: Option<IdempotencyKey>,
    events: Vec<SimEvent>,
}

impl World {
    /// The world at tick 0 for `scenario`, drawing its keys and planned order ids from `rng`.
    pub fn new(scenario: &Scenario, mut rng: DeterministicRng) -> Result<World, ScenarioError> {
        scenario.validate()?;
        let clients = scenario
            .requests
            .iter()
            .map(|spec| {
                let key = IdempotencyKey(rng.uuid());
                let planned_order = match spec.operation {
                    Operation::PlaceOrder { .. } => Some(PlannedOrder {
                        order_id: OrderId(rng.uuid()),
                        message_id: MessageId(rng.uuid()),
                    }),
                    Operation::PayOrder { .. } | Operation::CancelOrder { .. } => None,
                };
                ClientRequest {
                    spec: spec.clone(),
                    key,
                    current_key: key,
                    planned_order,
                    planned_order_taken: false,
                    sends: 0,
                    state: ClientState::NotSent,
                }
            })
            .collect();
        let config = WorldConfig {
            patterns: scenario.patterns,
            api: scenario.api,
            client: scenario.client,
            consumers: scenario.consumers,
            relay: scenario.relay,
            retention_job: scenario.retention_job,
            limits: scenario.limits,
            consumer_name: ConsumerName::new(RESERVE_STOCK_CONSUMER),
        };
        let history =
            History::new(HistoryConfig { records_max: scenario.limits.history_records_max });
        Ok(World {
            consumers: vec![ConsumerInstance::default(); scenario.consumers.instances],
            config,
            now: Tick(0),
            rng,
            store: scenario.shop.initial_store(),
            history,
            clients,
            attempts: BTreeMap::new(),
            next_attempt: 0,
            responses: BTreeMap::new(),
            relay: None,
            broker: Broker::default(),
            retention: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// The virtual time.
    pub fn now(&self) -> Tick {
        self.now
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The clients, by request index.
    pub fn clients(&self) -> &[ClientRequest] {
        &self.clients
    }

    /// The requests in flight in the API.
    pub fn attempts(&self) -> &BTreeMap<AttemptId, ApiAttempt> {
        &self.attempts
    }

    /// The answers on the network.
    pub fn responses(&self) -> &BTreeMap<AttemptId, InFlightResponse> {
        &self.responses
    }

    /// The relay's run, if one is running.
    pub fn relay(&self) -> Option<&RelayRun> {
        self.relay.as_ref()
    }

    /// The broker.
    pub fn broker(&self) -> &Broker {
        &self.broker
    }

    /// The consumer instances.
    pub fn consumers(&self) -> &[ConsumerInstance] {
        &self.consumers
    }

    /// The retention job's run, if one is running.
    pub fn retention(&self) -> Option<&RetentionRun> {
        self.retention.as_ref()
    }

    /// The planned order of a `place_order` request.
    pub fn planned_order(&self, request: RequestIndex) -> Option<PlannedOrder> {
        self.clients.get(request.0).and_then(|client| client.planned_order)
    }

    /// Every invariant violation now.
    pub fn violations(&self) -> Vec<Violation> {
        check_all(self.store.committed(), &self.history, &self.quiescence())
    }

    /// Whether work is pending (I6 is checked only when none is).
    pub fn quiescence(&self) -> Quiescence {
        if !self.has_pending_work() {
            Quiescence::Quiescent {
                order_placed_consumers: vec![self.config.consumer_name.clone()],
            }
        } else {
            Quiescence::WorkPending
        }
    }

    /// What work is pending, in words; empty when none is.
    pub fn pending_work(&self) -> Vec<String> {
        let mut pending = Vec::new();
        for (index, client) in self.clients.iter().enumerate() {
            if !client.is_finished() {
                pending.push(format!("request {index} has no final answer"));
            }
        }
        for (id, attempt) in &self.attempts {
            match attempt.waiting_for {
                Some(holder) => pending.push(format!("{id} waits for {holder}")),
                None => pending.push(format!("{id} is running")),
            }
        }
        if !self.responses.is_empty() {
            pending.push(format!("{} answers on the network", self.responses.len()));
        }
        if self.relay.is_some() {
            pending.push("the relay is running".to_owned());
        }
        if self.has_unpublished_outbox_rows() {
            pending.push("the outbox has unpublished rows".to_owned());
        }
        if !self.broker.entries.is_empty() {
            pending.push(format!("the broker holds {} entries", self.broker.entries.len()));
        }
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery {
                pending.push(format!(
                    "{} is processing {}",
                    InstanceId(index),
                    delivery.message_id
                ));
            }
        }
        if self.retention.is_some() {
            pending.push("the retention job is running".to_owned());
        }
        pending
    }

    /// Whether any work is pending: [`World::pending_work`] is not empty. Formats nothing.
    fn has_pending_work(&self) -> bool {
        self.clients.iter().any(|client| !client.is_finished())
            || !self.attempts.is_empty()
            || !self.responses.is_empty()
            || self.relay.is_some()
            || self.has_unpublished_outbox_rows()
            || !self.broker.entries.is_empty()
            || self.consumers.iter().any(|instance| instance.delivery.is_some())
            || self.retention.is_some()
    }

    fn has_unpublished_outbox_rows(&self) -> bool {
        self.store.committed().outbox.values().any(|row| !row.published)
    }

    fn lock_free(&self, waiting_for: Option<TxId>) -> bool {
        waiting_for.is_none_or(|holder| !self.store.is_open(holder))
    }

    fn client_finished(&self, request: RequestIndex) -> bool {
        self.clients.get(request.0).is_some_and(ClientRequest::is_finished)
    }

    fn can_send(&self, client: &ClientRequest) -> bool {
        client.state == ClientState::NotSent
            && self.now.0 >= client.spec.send_at_tick
            && client.spec.after.is_none_or(|after| self.client_finished(after))
    }

    fn retry_due(&self, client: &ClientRequest) -> bool {
        matches!(client.state, ClientState::BackingOff { retry_at } if self.now >= retry_at)
    }

    fn is_deliverable(&self, entry: &crate::sim::broker::BrokerEntry) -> bool {
        let due = match &entry.state {
            EntryState::Ready { visible_at } => self.now >= *visible_at,
            EntryState::InFlight { redeliver_at, .. } => self.now >= *redeliver_at,
            EntryState::HeldUntilAnswered { request } => self.client_finished(*request),
            EntryState::HeldUntil { tick } => self.now >= *tick,
            EntryState::AwaitingOriginalAck { .. } => false,
        };
        due && entry.deliveries < self.config.consumers.deliveries_max
    }

    fn relay_crashable(&self) -> bool {
        self.relay.as_ref().is_some_and(|run| match run.machine.state() {
            RelayState::Publish { published_count, .. } => *published_count > 0,
            RelayState::Begin { .. }
            | RelayState::MarkPublished { .. }
            | RelayState::Commit { .. } => true,
            RelayState::SelectUnpublished | RelayState::Ended => false,
        })
    }

    /// The messages the running relay has published and not yet marked.
    pub fn relay_published_not_marked(&self) -> Vec<MessageId> {
        let Some(run) = &self.relay else { return Vec::new() };
        match run.machine.state() {
            RelayState::Publish { batch, published_count } => {
                batch.iter().take(*published_count).map(|row| row.message_id).collect()
            }
            RelayState::Begin { published }
            | RelayState::MarkPublished { published, .. }
            | RelayState::Commit { published, .. } => published.clone(),
            RelayState::SelectUnpublished | RelayState::Ended => Vec::new(),
        }
    }

    fn something_expired(&self) -> bool {
        let retention = self.config.consumers.inbox_retention_ticks;
        let processed_before = Tick(self.now.0.saturating_sub(retention));
        let tables = self.store.committed();
        tables.inbox.values().any(|row| {
            row.consumer == self.config.consumer_name && row.processed_at < processed_before
        }) || tables
            .idempotency_keys
            .values()
            .any(|row| self.config.api.is_forgotten(row, self.now))
    }

    fn purge_enabled(&self) -> bool {
        if !self.config.retention_job.enabled {
            return false;
        }
        match &self.retention {
            Some(run) => self.lock_free(run.waiting_for),
            None => self.something_expired(),
        }
    }

    /// The earliest deadline after now: when the clock next has a reason to move.
    pub fn next_deadline(&self) -> Option<Tick> {
        let mut deadlines: Vec<Tick> = Vec::new();
        for client in &self.clients {
            match &client.state {
                ClientState::NotSent => {
                    if client.spec.after.is_none_or(|after| self.client_finished(after)) {
                        deadlines.push(Tick(client.spec.send_at_tick));
                    }
                }
                ClientState::Awaiting { deadline, .. } => deadlines.push(*deadline),
                ClientState::BackingOff { retry_at } => deadlines.push(*retry_at),
                ClientState::Answered { .. } | ClientState::GaveUp => {}
            }
        }
        for entry in self.broker.entries.values() {
            match &entry.state {
                EntryState::Ready { visible_at } => deadlines.push(*visible_at),
                EntryState::InFlight { redeliver_at, .. } => deadlines.push(*redeliver_at),
                EntryState::HeldUntil { tick } => deadlines.push(*tick),
                EntryState::HeldUntilAnswered { .. } | EntryState::AwaitingOriginalAck { .. } => {}
            }
        }
        if self.config.retention_job.enabled {
            let tables = self.store.committed();
            let retention = self.config.consumers.inbox_retention_ticks;
            for row in tables.inbox.values() {
                deadlines.push(row.processed_at.plus(retention).plus(1));
            }
            let key_retention = self.config.api.retention_ticks;
            for row in tables.idempotency_keys.values() {
                let retention_over = row.created_at.plus(key_retention);
                deadlines.push(match row.state {
                    KeyState::InProgress { lease_expires_at, .. } => {
                        retention_over.max(lease_expires_at)
                    }
                    KeyState::Completed { .. } => retention_over,
                });
            }
        }
        deadlines.into_iter().filter(|deadline| *deadline > self.now).min()
    }

    /// What can happen now, in a fixed order: normal actions (clients, API, network, relay,
    /// broker, consumers, retention, clock), then fault actions by class (F1 to F12).
    pub fn enabled_actions(&self) -> Vec<Action> {
        let mut actions = self.enabled_normal_actions();
        actions.extend(self.enabled_fault_actions());
        actions
    }

    /// The normal actions enabled now.
    pub fn enabled_normal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        for (index, client) in self.clients.iter().enumerate() {
            let request = RequestIndex(index);
            if self.can_send(client) {
                actions.push(Action::ClientSend { request });
            }
            if matches!(client.state, ClientState::Awaiting { deadline, .. } if self.now >= deadline)
            {
                actions.push(Action::ClientTimeout { request });
            }
            if self.retry_due(client) {
                actions.push(Action::ClientRetry { request });
            }
        }
        for (attempt, state) in &self.attempts {
            if self.lock_free(state.waiting_for) {
                actions.push(Action::ApiStep { attempt: *attempt });
            }
        }
        for attempt in self.responses.keys() {
            actions.push(Action::DeliverResponse { attempt: *attempt });
        }
        let relay_enabled = match &self.relay {
            Some(run) => self.lock_free(run.waiting_for),
            None => self.has_unpublished_outbox_rows(),
        };
        if relay_enabled {
            actions.push(Action::RelayStep);
        }
        for (entry_id, entry) in &self.broker.entries {
            if self.is_deliverable(entry) {
                for (index, instance) in self.consumers.iter().enumerate() {
                    if instance.delivery.is_none() {
                        actions.push(Action::BrokerDeliver {
                            entry: *entry_id,
                            instance: InstanceId(index),
                        });
                    }
                }
            }
        }
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery
                && self.lock_free(delivery.waiting_for)
            {
                actions.push(Action::ConsumerStep { instance: InstanceId(index) });
            }
        }
        if self.purge_enabled() {
            actions.push(Action::PurgeStep);
        }
        if let Some(deadline) = self.next_deadline() {
            actions.push(Action::AdvanceClock { ticks: deadline.ticks_since(self.now) });
        }
        actions
    }

    /// The fault actions enabled now, by class.
    pub fn enabled_fault_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        let queued: Vec<EntryId> = self
            .broker
            .entries
            .iter()
            .filter(|(_, entry)| {
                matches!(entry.state, EntryState::Ready { .. } | EntryState::InFlight { .. })
            })
            .map(|(id, _)| *id)
            .collect();
        // F1
        actions.extend(queued.iter().map(|entry| Action::DuplicateMessage { entry: *entry }));
        // F2, F3
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery
                && matches!(delivery.machine.state(), ConsumeState::Acknowledge)
            {
                actions.push(Action::CrashConsumerAfterCommit { instance: InstanceId(index) });
            }
        }
        for (index, instance) in self.consumers.iter().enumerate() {
            if let Some(delivery) = &instance.delivery
                && delivery.machine.open_transaction().is_some()
            {
                actions.push(Action::CrashConsumerBeforeCommit { instance: InstanceId(index) });
            }
        }
        // F4
        for (entry_id, entry) in &self.broker.entries {
            if let EntryState::InFlight { instances, redeliver_at } = &entry.state
                && self.now < *redeliver_at
            {
                for (index, instance) in self.consumers.iter().enumerate() {
                    let id = InstanceId(index);
                    if instance.delivery.is_none() && !instances.contains(&id) {
                        actions
                            .push(Action::DeliverConcurrently { entry: *entry_id, instance: id });
                    }
                }
            }
        }
        // F5
        actions.extend(
            self.responses.keys().map(|attempt| Action::LoseResponse { attempt: *attempt }),
        );
        // F6, F7
        let sendable: Vec<RequestIndex> = self
            .clients
            .iter()
            .enumerate()
            .filter(|(_, client)| self.can_send(client))
            .map(|(index, _)| RequestIndex(index))
            .collect();
        actions.extend(sendable.iter().map(|request| Action::DoubleSubmit { request: *request }));
        for request in &sendable {
            for (index, other) in self.clients.iter().enumerate() {
                if index != request.0 && other.sends > 0 {
                    actions.push(Action::SendWithKeyOf {
                        request: *request,
                        key_of: RequestIndex(index),
                    });
                }
            }
        }
        // F8
        actions.extend(self.attempts.keys().map(|attempt| Action::CrashApi { attempt: *attempt }));
        // F9
        for (entry_id, entry) in &self.broker.entries {
            if matches!(entry.state, EntryState::Ready { .. }) && self.is_deliverable(entry) {
                actions.push(Action::HoldMessage {
                    entry: *entry_id,
                    until: HoldRelease::Ticks {
                        ticks: self.config.consumers.visibility_timeout_ticks.max(1),
                    },
                });
            }
        }
        // F10
        actions
            .extend(queued.iter().map(|entry| Action::DuplicateAfterRetention { entry: *entry }));
        // F11
        for (index, client) in self.clients.iter().enumerate() {
            if self.retry_due(client) {
                actions.push(Action::RetryWithNewKey { request: RequestIndex(index) });
            }
        }
        // F12
        if self.relay_crashable() {
            actions.push(Action::CrashRelay);
        }
        actions
    }

    /// Whether `action` can be applied now. A `HoldMessage` may name any release.
    pub fn is_enabled(&self, action: &Action) -> bool {
        let enabled = self.enabled_actions();
        match action {
            Action::HoldMessage { entry, .. } => enabled
                .iter()
                .any(|other| matches!(other, Action::HoldMessage { entry: e, .. } if e == entry)),
            _ => enabled.contains(action),
        }
    }

    /// Applies one action: the next state and what the step did.
    pub fn apply(&mut self, action: &Action) -> Result<StepRecord, ApplyError> {
        if !self.is_enabled(action) {
            return Err(ApplyError::NotEnabled { action: action.clone() });
        }
        let before = self.store.committed().clone();
        let mut out = StepOut::default();
        self.perform(action, &mut out)?;
        let row_changes = diff_tables(&before, self.store.committed());
        let quiescence = self.quiescence();
        let violations = check_all(self.store.committed(), &self.history, &quiescence);
        Ok(StepRecord {
            action: action.clone(),
            actor: action.actor(),
            tick: self.now,
            statement: out.statement,
            request: out.request,
            attempt: out.attempt,
            message_id: out.message_id,
            key: out.key,
            events: out.events,
            row_changes,
            violations,
            quiescent: matches!(quiescence, Quiescence::Quiescent { .. }),
        })
    }

    /// Applies an action that [`World::enabled_actions`] listed in this very state, and
    /// returns only the invariant violations after the step: no check that the action is
    /// enabled and no [`StepRecord`] (no row diff), which is what the exhaustive checker needs
    /// on its hot path. An action that is not enabled is applied all the same and may take the
    /// world where the simulator never goes: use [`World::apply`], the checked form, for any
    /// action that does not come from the enabled lists of this state.
    pub fn apply_enabled(&mut self, action: &Action) -> Result<Vec<Violation>, ApplyError> {
        let mut out = StepOut::default();
        self.perform(action, &mut out)?;
        Ok(check_all(self.store.committed(), &self.history, &self.quiescence()))
    }

    /// Performs `action`, then breaks a deadlock and dead-letters exhausted copies.
    fn perform(&mut self, action: &Action, out: &mut StepOut) -> Result<(), ApplyError> {
        match action {
            Action::ClientSend { request } => {
                let key = self.client(*request).map(|client| client.key);
                if let Some(key) = key {
                    self.send_and_await(*request, &[RequestAttempt::First], key, out);
                }
            }
            Action::ClientTimeout { request } => self.client_timeout(*request, out),
            Action::ClientRetry { request } => self.client_retry(*request, false, out),
            Action::ApiStep { attempt } => self.api_step(*attempt, out)?,
            Action::DeliverResponse { attempt } => self.deliver_response(*attempt, out),
            Action::RelayStep => self.relay_step(out)?,
            Action::BrokerDeliver { entry, instance } => {
                self.broker_deliver(*entry, *instance, false, out)
            }
            Action::ConsumerStep { instance } => self.consumer_step(*instance, out)?,
            Action::PurgeStep => self.purge_step(out)?,
            Action::AdvanceClock { ticks } => {
                let from = self.now;
                self.now = self.now.plus(*ticks);
                out.events.push(SimEvent::ClockAdvanced { from, to: self.now });
            }
            Action::DuplicateMessage { entry } => {
                self.duplicate_entry(*entry, None, out)?;
            }
            Action::CrashConsumerAfterCommit { instance }
            | Action::CrashConsumerBeforeCommit { instance } => self.crash_consumer(*instance, out),
            Action::DeliverConcurrently { entry, instance } => {
                self.broker_deliver(*entry, *instance, true, out)
            }
            Action::LoseResponse { attempt } => {
                if let Some(lost) = self.responses.remove(attempt) {
                    out.request = Some(lost.request);
                    out.attempt = Some(*attempt);
                    out.events.push(SimEvent::ResponseLost { attempt: *attempt });
                }
            }
            Action::DoubleSubmit { request } => {
                let key = self.client(*request).map(|client| client.key);
                if let Some(key) = key {
                    let kinds = [RequestAttempt::First, RequestAttempt::Duplicate];
                    self.send_and_await(*request, &kinds, key, out);
                }
            }
            Action::SendWithKeyOf { request, key_of } => {
                let key = self.client(*key_of).map(|client| client.current_key);
                if let Some(key) = key {
                    self.send_and_await(*request, &[RequestAttempt::First], key, out);
                }
            }
            Action::CrashApi { attempt } => self.crash_api(*attempt, out)?,
            Action::HoldMessage { entry, until } => {
                let state = match until {
                    HoldRelease::RequestAnswered { request } => {
                        EntryState::HeldUntilAnswered { request: *request }
                    }
                    HoldRelease::Ticks { ticks } => {
                        EntryState::HeldUntil { tick: self.now.plus(*ticks) }
                    }
                };
                if let Some(held) = self.broker.entries.get_mut(entry) {
                    held.state = state;
                    out.message_id = Some(held.message_id);
                    out.events.push(SimEvent::MessageHeld { entry: *entry });
                }
            }
            Action::DuplicateAfterRetention { entry } => {
                let delay_ticks = self.config.consumers.inbox_retention_ticks.saturating_add(2);
                self.duplicate_entry(*entry, Some(delay_ticks), out)?;
            }
            Action::RetryWithNewKey { request } => self.client_retry(*request, true, out),
            Action::CrashRelay => self.crash_relay(out)?,
        }
        self.break_deadlock(out);
        self.dead_letter_exhausted(out);
        Ok(())
    }

    fn client(&self, request: RequestIndex) -> Option<&ClientRequest> {
        self.clients.get(request.0)
    }

    /// Sends the request once per entry of `kinds`, all with `key`, and waits for them.
    fn send_and_await(
        &mut self,
        request: RequestIndex,
        kinds: &[RequestAttempt],
        key: IdempotencyKey,
        out: &mut StepOut,
    ) {
        let mut attempts = Vec::new();
        for kind in kinds {
            if let Some(attempt) = self.send(request, *kind, key, out) {
                attempts.push(attempt);
            }
        }
        let deadline = self.now.plus(self.config.client.timeout_ticks);
        if let Some(client) = self.clients.get_mut(request.0) {
            client.current_key = key;
            client.state = ClientState::Awaiting { attempts, deadline };
        }
    }

    fn send(
        &mut self,
        request: RequestIndex,
        kind: RequestAttempt,
        key: IdempotencyKey,
        out: &mut StepOut,
    ) -> Option<AttemptId> {
        let client = self.clients.get(request.0)?;
        let planned_order_of = |order_of: RequestIndex| {
            self.clients
                .get(order_of.0)
                .and_then(|client| client.planned_order)
                .map_or(OrderId(Uuid::nil()), |planned| planned.order_id)
        };
        let (http, places_order) = match &client.spec.operation {
            Operation::PlaceOrder { lines } => (place_order_request(lines, Some(key)), true),
            Operation::PayOrder { order_of, payment_id } => {
                (pay_order_request(planned_order_of(*order_of), payment_id, Some(key)), false)
            }
            Operation::CancelOrder { order_of } => {
                (cancel_order_request(planned_order_of(*order_of), Some(key)), false)
            }
        };
        let use_planned = places_order && !client.planned_order_taken;
        let planned = client.planned_order;
        let ids = match (use_planned, planned) {
            (true, Some(planned)) => {
                ServerIds { order_id: planned.order_id, message_id: planned.message_id }
            }
            _ if places_order => ServerIds {
                order_id: OrderId(self.rng.uuid()),
                message_id: MessageId(self.rng.uuid()),
            },
            _ => ServerIds { order_id: OrderId(Uuid::nil()), message_id: MessageId(Uuid::nil()) },
        };
        let method_and_path = format!("{} {}", http.method, http.path);
        let request_fingerprint = fingerprint(&http);
        let handler = ShopHandler::new(
            HandlerConfig { order: self.config.patterns.order() },
            http.clone(),
            ids,
        );
        let layer = ApiLayer::new(self.config.patterns.api(), self.config.api, http, handler);
        let attempt = AttemptId(self.next_attempt);
        self.next_attempt = self.next_attempt.saturating_add(1);
        let client = self.clients.get_mut(request.0)?;
        client.sends = client.sends.saturating_add(1);
        if use_planned {
            client.planned_order_taken = true;
        }
        self.attempts.insert(
            attempt,
            ApiAttempt {
                request,
                send_number: client.sends,
                kind,
                key,
                fingerprint: request_fingerprint,
                layer,
                waiting_for: None,
                handler_run: None,
                pending_lease: None,
                origin: ResponseOrigin::Completed,
                started: false,
                uses_planned_order: use_planned && planned.is_some(),
            },
        );
        out.request = Some(request);
        out.attempt = Some(attempt);
        out.key = Some(key);
        out.events.push(SimEvent::RequestSent { request, attempt, kind, key, method_and_path });
        Some(attempt)
    }

    fn client_timeout(&mut self, request: RequestIndex, out: &mut StepOut) {
        out.request = Some(request);
        out.events.push(SimEvent::ClientTimedOut { request });
        self.schedule_retry_or_give_up(request, self.now, out);
    }

    fn schedule_retry_or_give_up(
        &mut self,
        request: RequestIndex,
        retry_at: Tick,
        out: &mut StepOut,
    ) {
        let attempts_max = self.config.client.attempts_max;
        let Some(client) = self.clients.get_mut(request.0) else { return };
        if client.sends < attempts_max {
            client.state = ClientState::BackingOff { retry_at };
            out.events.push(SimEvent::RetryScheduled { request, retry_at });
        } else {
            client.state = ClientState::GaveUp;
            out.events.push(SimEvent::ClientGaveUp { request });
        }
    }

    fn client_retry(&mut self, request: RequestIndex, new_key: bool, out: &mut StepOut) {
        let Some(client) = self.clients.get(request.0) else { return };
        let key = if new_key || self.config.client.key_on_retry == KeyOnRetry::NewKey {
            IdempotencyKey(self.rng.uuid())
        } else {
            client.current_key
        };
        self.send_and_await(request, &[RequestAttempt::Duplicate], key, out);
    }

    fn api_step(&mut self, id: AttemptId, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let Some(attempt) = self.attempts.get_mut(&id) else { return Ok(()) };
        out.request = Some(attempt.request);
        out.attempt = Some(id);
        out.key = Some(attempt.key);
        out.statement = attempt.layer.next_statement();
        if !attempt.started {
            attempt.started = true;
            if matches!(attempt.layer, ApiLayer::Naive(_)) {
                let run = self.history.record_handler_run_started(attempt.key, None, now)?;
                attempt.handler_run = Some(run);
                out.events.push(SimEvent::HandlerRunStarted { run });
            }
        }
        let result = attempt.layer.step(&mut self.store, now);
        for event in attempt.layer.take_events() {
            out.events.push(SimEvent::Idempotency { event: event.clone() });
            match &event {
                IdempotencyEvent::KeyReserved { fencing_token, lease_expires_at, .. }
                | IdempotencyEvent::KeyTakenOver { fencing_token, lease_expires_at, .. } => {
                    // The run starts once the reservation commits (a crash before that rolls
                    // the reservation back, and no handler ran).
                    attempt.pending_lease = Some(KeyLease {
                        fencing_token: *fencing_token,
                        expires_at: *lease_expires_at,
                    });
                }
                IdempotencyEvent::ResponseReplayed { .. } => {
                    attempt.origin = ResponseOrigin::Replayed
                }
                IdempotencyEvent::KeyHeaderRejected { .. }
                | IdempotencyEvent::KeyInProgress { .. }
                | IdempotencyEvent::ReservationLost { .. }
                | IdempotencyEvent::FingerprintMismatch { .. }
                | IdempotencyEvent::StaleCompletionRejected { .. } => {
                    attempt.origin = ResponseOrigin::Refused
                }
                IdempotencyEvent::KeyReleased { .. } => attempt.origin = ResponseOrigin::Released,
                IdempotencyEvent::ResponseStored { .. }
                | IdempotencyEvent::HandlerCompleted { .. }
                | IdempotencyEvent::HandlerFailed { .. } => {
                    if attempt.origin != ResponseOrigin::Refused {
                        attempt.origin = ResponseOrigin::Completed;
                    }
                }
                IdempotencyEvent::KeyExpired { .. } => {}
            }
        }
        if let ApiLayer::Idempotent(layer) = &attempt.layer
            && matches!(layer.state(), LayerState::RunHandler { .. })
            && let Some(lease) = attempt.pending_lease.take()
        {
            let run = self.history.record_handler_run_started(attempt.key, Some(lease), now)?;
            attempt.handler_run = Some(run);
            out.events.push(SimEvent::HandlerRunStarted { run });
        }
        match result {
            Ok(Step::Continue) => attempt.waiting_for = None,
            Ok(Step::Blocked(wait)) => {
                attempt.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            Ok(Step::Done(response)) => {
                let Some(attempt) = self.attempts.remove(&id) else { return Ok(()) };
                if let Some(run) = attempt.handler_run {
                    self.history
                        .record_handler_run_ended(run, HandlerRunEnd::Finished { at: now })?;
                }
                self.release_planned_order_if_unused(&attempt);
                self.history.record_response(crate::history::ApiResponse {
                    key: Some(attempt.key),
                    fingerprint: attempt.fingerprint.clone(),
                    attempt: attempt.kind,
                    origin: attempt.origin,
                    status: response.status,
                    body: response.body.clone(),
                    answered_at: now,
                })?;
                out.events.push(SimEvent::Answered {
                    attempt: id,
                    status: response.status,
                    origin: attempt.origin,
                    body: response.body.clone(),
                });
                self.responses.insert(
                    id,
                    InFlightResponse {
                        request: attempt.request,
                        send_number: attempt.send_number,
                        response,
                    },
                );
            }
            Err(error) => {
                let Some(attempt) = self.attempts.remove(&id) else { return Ok(()) };
                if let Some(run) = attempt.handler_run {
                    self.history
                        .record_handler_run_ended(run, HandlerRunEnd::Crashed { at: now })?;
                }
                self.release_planned_order_if_unused(&attempt);
                out.events.push(SimEvent::ApiFailed { attempt: id, error: error.to_string() });
            }
        }
        Ok(())
    }

    /// Frees the planned order ids of an attempt that ended without committing its order, so
    /// that the request's next send uses them.
    fn release_planned_order_if_unused(&mut self, attempt: &ApiAttempt) {
        if !attempt.uses_planned_order {
            return;
        }
        let Some(client) = self.clients.get_mut(attempt.request.0) else { return };
        if let Some(planned) = client.planned_order
            && !self.store.committed().orders.contains_key(&planned.order_id)
        {
            client.planned_order_taken = false;
        }
    }

    fn crash_api(&mut self, id: AttemptId, out: &mut StepOut) -> Result<(), ApplyError> {
        let Some(attempt) = self.attempts.remove(&id) else { return Ok(()) };
        out.request = Some(attempt.request);
        out.attempt = Some(id);
        out.key = Some(attempt.key);
        let rolled_back = attempt.layer.open_transaction();
        if let Some(tx) = rolled_back {
            // Open by construction; a transaction already gone leaves nothing to undo.
            let _ = self.store.rollback(tx);
        }
        if let Some(run) = attempt.handler_run {
            self.history.record_handler_run_ended(run, HandlerRunEnd::Crashed { at: self.now })?;
        }
        self.release_planned_order_if_unused(&attempt);
        out.events.push(SimEvent::ApiCrashed { attempt: id, rolled_back });
        Ok(())
    }

    fn deliver_response(&mut self, id: AttemptId, out: &mut StepOut) {
        let Some(delivered) = self.responses.remove(&id) else { return };
        let request = delivered.request;
        let status = delivered.response.status;
        out.request = Some(request);
        out.attempt = Some(id);
        out.events.push(SimEvent::ResponseDelivered { attempt: id, status });
        let awaited = self.clients.get(request.0).is_some_and(|client| {
            matches!(&client.state, ClientState::Awaiting { attempts, .. } if attempts.contains(&id))
        });
        if !awaited {
            out.events.push(SimEvent::LateResponseIgnored { attempt: id });
            return;
        }
        if status == 409 || status >= 500 {
            let retry_at = self.now.plus(self.config.client.backoff_ticks);
            self.schedule_retry_or_give_up(request, retry_at, out);
        } else if let Some(client) = self.clients.get_mut(request.0) {
            client.state = ClientState::Answered { status };
            out.events.push(SimEvent::ClientAnswered { request, status });
        }
    }

    fn relay_step(&mut self, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let relay_config = self.config.relay;
        let run = self.relay.get_or_insert_with(|| RelayRun {
            machine: RelayOutbox::new(relay_config),
            waiting_for: None,
        });
        out.statement = run.machine.next_statement();
        let result = run.machine.step(&mut self.store, now);
        let published = run.machine.take_published();
        match result {
            Ok(Step::Continue) => run.waiting_for = None,
            Ok(Step::Blocked(wait)) => {
                run.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            Ok(Step::Done(relayed)) => {
                self.relay = None;
                out.events.push(SimEvent::RelayFinished { published: relayed.published });
            }
            Err(error) => {
                self.relay = None;
                out.events.push(SimEvent::RelayFailed { error: error.to_string() });
            }
        }
        for envelope in published {
            self.publish(envelope, out)?;
        }
        Ok(())
    }

    fn publish(&mut self, envelope: Envelope, out: &mut StepOut) -> Result<(), ApplyError> {
        let message_id = envelope.message_id.unwrap_or(MessageId(Uuid::nil()));
        let queue_len_max = self.config.limits.queue_len_max;
        let entry = self
            .broker
            .push(envelope, message_id, EntryState::Ready { visible_at: self.now }, queue_len_max)
            .ok_or(ApplyError::QueueFull { queue_len_max })?;
        self.history
            .record_message_event(MessageEvent::Published { message_id, published_at: self.now })?;
        out.message_id = Some(message_id);
        out.events.push(SimEvent::Published { message_id, entry });
        Ok(())
    }

    fn crash_relay(&mut self, out: &mut StepOut) -> Result<(), ApplyError> {
        let Some(run) = self.relay.take() else { return Ok(()) };
        let crashed = run.machine.crash(&mut self.store);
        let not_taken = crashed.published_not_taken.clone();
        out.events.push(SimEvent::RelayCrashed { crashed });
        for envelope in not_taken {
            self.publish(envelope, out)?;
        }
        Ok(())
    }

    fn duplicate_entry(
        &mut self,
        entry: EntryId,
        after_ack_delay_ticks: Option<u64>,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let Some(original) = self.broker.entries.get(&entry) else { return Ok(()) };
        let envelope = original.envelope.clone();
        let message_id = original.message_id;
        let state = match after_ack_delay_ticks {
            Some(delay_ticks) => EntryState::AwaitingOriginalAck { delay_ticks },
            None => EntryState::Ready { visible_at: self.now },
        };
        let queue_len_max = self.config.limits.queue_len_max;
        let copy = self
            .broker
            .push(envelope, message_id, state, queue_len_max)
            .ok_or(ApplyError::QueueFull { queue_len_max })?;
        out.message_id = Some(message_id);
        out.events.push(SimEvent::MessageDuplicated { entry, copy, message_id });
        Ok(())
    }

    fn broker_deliver(
        &mut self,
        entry_id: EntryId,
        instance: InstanceId,
        concurrently: bool,
        out: &mut StepOut,
    ) {
        let redeliver_at = self.now.plus(self.config.consumers.visibility_timeout_ticks);
        let Some(entry) = self.broker.entries.get_mut(&entry_id) else { return };
        entry.deliveries = entry.deliveries.saturating_add(1);
        match (&mut entry.state, concurrently) {
            (EntryState::InFlight { instances, .. }, true) => instances.push(instance),
            _ => entry.state = EntryState::InFlight { instances: vec![instance], redeliver_at },
        }
        let message_id = entry.message_id;
        let envelope = entry.envelope.clone();
        let count = self.broker.deliveries_by_message.entry(message_id).or_insert(0);
        *count = count.saturating_add(1);
        let delivery_number = *count;
        let consumer_config = ConsumerConfig {
            consumer: self.config.consumer_name.clone(),
            implementation: self.config.patterns.inbox(),
            retention_ticks: self.config.consumers.inbox_retention_ticks,
        };
        let effect = ReserveStockForMessage::new(&envelope.payload, self.config.patterns.stock());
        let machine = ConsumeMessage::new(consumer_config, envelope, effect);
        if let Some(consumer) = self.consumers.get_mut(instance.0) {
            consumer.delivery = Some(Delivery {
                entry: entry_id,
                message_id,
                delivery_number,
                machine,
                waiting_for: None,
            });
        }
        out.message_id = Some(message_id);
        out.events.push(SimEvent::Delivered {
            entry: entry_id,
            message_id,
            instance,
            delivery_number,
        });
    }

    fn consumer_step(&mut self, instance: InstanceId, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let inbox_use = match self.config.patterns.inbox() {
            ConsumerImplementation::Idempotent => InboxUse::WithInbox,
            ConsumerImplementation::Naive => InboxUse::WithoutInbox,
        };
        let consumer_name = self.config.consumer_name.clone();
        let Some(consumer) = self.consumers.get_mut(instance.0) else { return Ok(()) };
        let Some(delivery) = consumer.delivery.as_mut() else { return Ok(()) };
        out.statement = delivery.machine.next_statement();
        out.message_id = Some(delivery.message_id);
        let message_id = delivery.message_id;
        let was_committing = matches!(delivery.machine.state(), ConsumeState::Commit { .. });
        match delivery.machine.step(&mut self.store, now) {
            Ok(Step::Continue) => {
                delivery.waiting_for = None;
                if was_committing && matches!(delivery.machine.state(), ConsumeState::Acknowledge) {
                    self.history.record_message_event(MessageEvent::EffectCommitted {
                        message_id,
                        consumer: consumer_name,
                        inbox: inbox_use,
                        committed_at: now,
                    })?;
                    out.events.push(SimEvent::EffectCommitted {
                        message_id,
                        instance,
                        inbox: inbox_use,
                    });
                }
            }
            Ok(Step::Blocked(wait)) => {
                delivery.waiting_for = Some(wait.holder);
                out.events.push(SimEvent::Blocked { wait });
            }
            Ok(Step::Done(outcome)) => {
                let entry = delivery.entry;
                consumer.delivery = None;
                self.ack(entry, out);
                self.history.record_message_event(MessageEvent::Acknowledged {
                    message_id,
                    consumer: consumer_name,
                    acknowledged_at: now,
                })?;
                out.events.push(SimEvent::MessageConsumed { instance, outcome });
            }
            Err(error) => {
                consumer.delivery = None;
                out.events.push(SimEvent::ConsumerFailed { instance, error: error.to_string() });
            }
        }
        Ok(())
    }

    fn ack(&mut self, entry: EntryId, out: &mut StepOut) {
        let Some(acked) = self.broker.entries.remove(&entry) else { return };
        self.release_late_copies(acked.message_id, out);
    }

    /// Late copies (F10) of a message become visible their delay after its ack or dead letter.
    fn release_late_copies(&mut self, message_id: MessageId, out: &mut StepOut) {
        let now = self.now;
        for (entry_id, entry) in self.broker.entries.iter_mut() {
            if entry.message_id == message_id
                && let EntryState::AwaitingOriginalAck { delay_ticks } = entry.state
            {
                entry.state = EntryState::Ready { visible_at: now.plus(delay_ticks) };
                out.events.push(SimEvent::MessageReleased { entry: *entry_id });
            }
        }
    }

    fn crash_consumer(&mut self, instance: InstanceId, out: &mut StepOut) {
        let Some(consumer) = self.consumers.get_mut(instance.0) else { return };
        let Some(delivery) = consumer.delivery.take() else { return };
        out.message_id = Some(delivery.message_id);
        let crashed = delivery.machine.crash(&mut self.store);
        out.events.push(SimEvent::ConsumerCrashed { instance, crashed });
    }

    fn purge_step(&mut self, out: &mut StepOut) -> Result<(), ApplyError> {
        let now = self.now;
        let consumer_config = ConsumerConfig {
            consumer: self.config.consumer_name.clone(),
            implementation: self.config.patterns.inbox(),
            retention_ticks: self.config.consumers.inbox_retention_ticks,
        };
        let api_config = self.config.api;
        let run = self.retention.get_or_insert_with(|| RetentionRun {
            stage: RetentionStage::Inbox(PurgeExpiredInboxRows::new(consumer_config)),
            waiting_for: None,
        });
        match &mut run.stage {
            RetentionStage::Inbox(machine) => {
                out.statement = machine.next_statement();
                match machine.step(&mut self.store, now) {
                    Ok(Step::Continue) => run.waiting_for = None,
                    Ok(Step::Blocked(wait)) => {
                        run.waiting_for = Some(wait.holder);
                        out.events.push(SimEvent::Blocked { wait });
                    }
                    Ok(Step::Done(purged)) => {
                        for message_id in &purged.message_ids {
                            self.history.record_message_event(MessageEvent::InboxRowPurged {
                                message_id: *message_id,
                                consumer: purged.consumer.clone(),
                                purged_at: now,
                            })?;
                        }
                        run.stage = RetentionStage::Keys(PurgeForgottenKeys::new(api_config));
                        run.waiting_for = None;
                        out.events.push(SimEvent::InboxRowsPurged { purged });
                    }
                    Err(error) => {
                        self.retention = None;
                        out.events.push(SimEvent::RetentionFailed { error: error.to_string() });
                    }
                }
            }
            RetentionStage::Keys(machine) => {
                out.statement = machine.next_statement();
                match machine.step(&mut self.store, now) {
                    Ok(Step::Continue) => run.waiting_for = None,
                    Ok(Step::Blocked(wait)) => {
                        run.waiting_for = Some(wait.holder);
                        out.events.push(SimEvent::Blocked { wait });
                    }
                    Ok(Step::Done(keys)) => {
                        self.retention = None;
                        out.events.push(SimEvent::KeysPurged { keys });
                    }
                    Err(error) => {
                        self.retention = None;
                        out.events.push(SimEvent::RetentionFailed { error: error.to_string() });
                    }
                }
            }
        }
        Ok(())
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
            let own = match &run.stage {
                RetentionStage::Inbox(machine) => machine.open_transaction(),
                RetentionStage::Keys(machine) => machine.open_transaction(),
            };
            add(own, run.waiting_for);
        }
        waits
    }

    /// Finds a cycle of transactions waiting for each other's row locks and, as PostgreSQL
    /// does ("deadlock detected"), aborts one: the youngest of the cycle. Its actor's next
    /// statement then fails on the rolled-back transaction and takes its failure path (a 500
    /// from the handler, a delivery that is not acked, ...).
    fn break_deadlock(&mut self, out: &mut StepOut) {
        let waits = self.lock_waits();
        let mut cycle: Option<Vec<TxId>> = None;
        for start in waits.keys() {
            let mut path = vec![*start];
            let mut current = *start;
            while let Some(next) = waits.get(&current) {
                if let Some(position) = path.iter().position(|tx| tx == next) {
                    cycle = Some(path.split_off(position));
                    break;
                }
                if path.len() > waits.len() {
                    break;
                }
                path.push(*next);
                current = *next;
            }
            if cycle.is_some() {
                break;
            }
        }
        let Some(cycle) = cycle else { return };
        let Some(victim) = cycle.iter().max().copied() else { return };
        // Open by construction (lock_waits keeps open transactions only).
        let _ = self.store.rollback(victim);
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
        if let Some(run) = &mut self.retention {
            let own = match &run.stage {
                RetentionStage::Inbox(machine) => machine.open_transaction(),
                RetentionStage::Keys(machine) => machine.open_transaction(),
            };
            if own == Some(victim) {
                run.waiting_for = None;
            }
        }
        out.events.push(SimEvent::DeadlockDetected { cycle, victim });
    }

    /// Copies delivered `deliveries_max` times that come due again go to the dead letters.
    fn dead_letter_exhausted(&mut self, out: &mut StepOut) {
        let deliveries_max = self.config.consumers.deliveries_max;
        let exhausted: Vec<EntryId> = self
            .broker
            .entries
            .iter()
            .filter(|(_, entry)| {
                entry.deliveries >= deliveries_max
                    && matches!(entry.state, EntryState::InFlight { redeliver_at, .. } if self.now >= redeliver_at)
            })
            .map(|(id, _)| *id)
            .collect();
        for entry_id in exhausted {
            if let Some(entry) = self.broker.entries.remove(&entry_id) {
                self.broker.dead_letters.push(DeadLetter {
                    entry: entry_id,
                    message_id: entry.message_id,
                    at: self.now,
                });
                out.events
                    .push(SimEvent::DeadLettered { entry: entry_id, message_id: entry.message_id });
                self.release_late_copies(entry.message_id, out);
            }
        }
    }
}

/// The rows that differ between two versions of the committed tables, table then key order.
pub fn diff_tables(before: &Tables, after: &Tables) -> Vec<RowChange> {
    let mut changes = Vec::new();
    diff_table(&before.orders, &after.orders, &mut changes);
    diff_table(&before.stock, &after.stock, &mut changes);
    diff_table(&before.reservations, &after.reservations, &mut changes);
    diff_table(&before.inbox, &after.inbox, &mut changes);
    diff_table::<OutboxRow>(&before.outbox, &after.outbox, &mut changes);
    diff_table::<IdempotencyKeyRow>(
        &before.idempotency_keys,
        &after.idempotency_keys,
        &mut changes,
    );
    diff_table(&before.charges, &after.charges, &mut changes);
    changes
}

fn diff_table<R: Row>(
    before: &BTreeMap<R::Key, R>,
    after: &BTreeMap<R::Key, R>,
    changes: &mut Vec<RowChange>,
) {
    if before == after {
        return;
    }
    let keys: BTreeSet<&R::Key> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let (old, new) = (before.get(key), after.get(key));
        if old != new {
            changes.push(RowChange {
                table: R::TABLE,
                key: to_json_value(key),
                before: old.map(to_json_value),
                after: new.map(to_json_value),
            });
        }
    }
}

fn to_json_value<T: Serialize>(value: &T) -> serde_json::Value {
    // Rows and keys are plain data: serialization cannot fail.
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}
