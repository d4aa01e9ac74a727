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
//! This file keeps the state, the order of the enabled actions and the dispatch of an action
//! to its actor. Each actor owns its behaviour in its own file, as TigerBeetle's simulator is
//! laid out: `client` (sends, timeouts, retries, F6, F7, F11), `api` (attempts through the P3
//! layer, F8), `network` (answers in flight, F5), `relay` (the outbox relay, F12), `broker`
//! (queue, deliveries, acks, dead letters, F1, F4, F9, F10), `consumer` (instances, F2, F3),
//! `retention` (the retention job), `locks` (lock waits and deadlock breaking), `clock` (the
//! deadlines and the clock's advance) and `pending` (the work still to do).
//!
//! One step runs one statement of one step machine. A machine whose statement must wait for a
//! row lock (`Step::Blocked`) keeps its place and the transaction it waits for; its next step is
//! not enabled until that transaction has ended, and the scheduler picks another actor. Time
//! only moves by [`Action::AdvanceClock`], to the next deadline (a timeout, a redelivery, a
//! retry, an expiry), so a run never spins.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::history::{History, HistoryConfig};
use crate::ids::{ConsumerName, IdempotencyKey, MessageId, OrderId, Tick};
use crate::invariants::{Incremental, Quiescence, Verdict, Violation, check_all};
use crate::rng::DeterministicRng;
use crate::sim::action::{Action, AttemptId, RequestIndex};
use crate::sim::api::ApiAttempt;
use crate::sim::broker::Broker;
use crate::sim::client::{ClientRequest, ClientState, PlannedOrder};
use crate::sim::consumer::{ConsumerInstance, InstalledProgram};
use crate::sim::network::InFlightResponse;
use crate::sim::relay::RelayRun;
use crate::sim::retention::RetentionRun;
use crate::sim::scenario::{
    ClientConfig, ConsumerSetup, Limits, Operation, Patterns, RetentionJobConfig, Scenario,
    ScenarioError,
};
use crate::sim::trace::{SimEvent, StepRecord};
use crate::store::Store;

mod error;

pub(crate) use error::missing;
pub(crate) use error::{ApplyError, Target};

/// The name every instance of the reserve-stock consumer shares (`inbox.consumer`).
pub(crate) const RESERVE_STOCK_CONSUMER: &str = "reserve-stock";

/// What the world needs of its scenario while it runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WorldConfig {
    /// Which twins run.
    pub(crate) patterns: Patterns,
    /// The idempotency layer's configuration.
    pub(crate) api: crate::idempotency::Config,
    /// The clients' retry policy.
    pub(crate) client: ClientConfig,
    /// The consumers and the broker.
    pub(crate) consumers: ConsumerSetup,
    /// The relay.
    pub(crate) relay: crate::outbox::RelayConfig,
    /// The retention job.
    pub(crate) retention_job: RetentionJobConfig,
    /// The limits.
    pub(crate) limits: Limits,
    /// The consumer's name.
    pub(crate) consumer_name: ConsumerName,
    /// The learner's program that runs in place of the built-in consumer, if any.
    pub(crate) consumer_program: InstalledProgram,
    /// The learner's program that runs in place of the built-in `MarkPaid`, if any.
    pub(crate) mark_paid_program: InstalledProgram,
}

/// Whether `action` is in `enabled`, the enabled actions of a state: whether it can be applied
/// there. A `HoldMessage` may name any release.
pub(crate) fn is_listed(enabled: &[Action], action: &Action) -> bool {
    match action {
        Action::HoldMessage { entry, .. } => enabled
            .iter()
            .any(|other| matches!(other, Action::HoldMessage { entry: e, .. } if e == entry)),
        _ => enabled.contains(action),
    }
}

/// The whole state of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    pub(super) config: WorldConfig,
    pub(super) now: Tick,
    pub(super) rng: DeterministicRng,
    pub(super) store: Store,
    pub(super) history: History,
    pub(super) clients: Vec<ClientRequest>,
    pub(super) attempts: BTreeMap<AttemptId, ApiAttempt>,
    pub(super) next_attempt: usize,
    pub(super) responses: BTreeMap<AttemptId, InFlightResponse>,
    pub(super) relay: Option<RelayRun>,
    pub(super) broker: Broker,
    pub(super) consumers: Vec<ConsumerInstance>,
    pub(super) retention: Option<RetentionRun>,
    invariants: InvariantChecker,
}

/// The incremental invariant checker of a world, built at the first step that is recorded
/// ([`World::apply_listed`]) and kept up to date by every later one; a step that bypasses it
/// ([`World::apply_enabled`]) drops it, to be built again from the state if needed. It is a
/// function of the store and the history, so two worlds are equal whatever it holds (and
/// [`World`]'s `Hash` leaves it out).
#[derive(Clone, Debug, Default)]
struct InvariantChecker(Option<Box<Incremental>>);

impl PartialEq for InvariantChecker {
    fn eq(&self, _: &InvariantChecker) -> bool {
        true
    }
}

impl Eq for InvariantChecker {}

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
pub(super) struct StepOut {
    pub(super) statement: Option<String>,
    pub(super) request: Option<RequestIndex>,
    pub(super) attempt: Option<AttemptId>,
    pub(super) message_id: Option<MessageId>,
    pub(super) key: Option<IdempotencyKey>,
    pub(super) events: Vec<SimEvent>,
}

impl World {
    /// The world at tick 0 for `scenario`, drawing its keys and planned order ids from `rng`.
    pub(crate) fn new(
        scenario: &Scenario,
        mut rng: DeterministicRng,
    ) -> Result<World, ScenarioError> {
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
                    spec: Arc::new(spec.clone()),
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
            consumer_program: InstalledProgram::of(scenario.consumer_program.as_ref())?,
            mark_paid_program: InstalledProgram::mark_paid(scenario.mark_paid_program.as_ref())?,
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
            invariants: InvariantChecker::default(),
        })
    }

    /// The configuration.
    pub(crate) fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// The virtual time.
    pub(crate) fn now(&self) -> Tick {
        self.now
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The history.
    pub(crate) fn history(&self) -> &History {
        &self.history
    }

    /// The clients, by request index.
    pub(crate) fn clients(&self) -> &[ClientRequest] {
        &self.clients
    }

    /// The requests in flight in the API.
    pub(crate) fn attempts(&self) -> &BTreeMap<AttemptId, ApiAttempt> {
        &self.attempts
    }

    /// The answers on the network.
    pub(crate) fn responses(&self) -> &BTreeMap<AttemptId, InFlightResponse> {
        &self.responses
    }

    /// The relay's run, if one is running.
    pub(crate) fn relay(&self) -> Option<&RelayRun> {
        self.relay.as_ref()
    }

    /// The broker.
    pub(crate) fn broker(&self) -> &Broker {
        &self.broker
    }

    /// The consumer instances.
    pub(crate) fn consumers(&self) -> &[ConsumerInstance] {
        &self.consumers
    }

    /// The retention job's run, if one is running.
    pub(crate) fn retention(&self) -> Option<&RetentionRun> {
        self.retention.as_ref()
    }

    /// The planned order of a `place_order` request.
    pub(crate) fn planned_order(&self, request: RequestIndex) -> Option<PlannedOrder> {
        self.clients.get(request.0).and_then(|client| client.planned_order)
    }

    /// Every invariant violation now: the incremental checker's list where the steps that led
    /// here kept one (equal to the full check, which debug builds assert after every step and
    /// here), else the full check of every table and record.
    pub fn violations(&self) -> Vec<Violation> {
        let (tables, quiescence) = (self.store.committed(), self.quiescence());
        let Some(checker) = &self.invariants.0 else {
            return check_all(tables, &self.history, &quiescence);
        };
        let violations = checker.violations(tables, &self.history, &quiescence);
        debug_assert_eq!(
            violations,
            check_all(tables, &self.history, &quiescence),
            "the incremental invariants differ from the full check"
        );
        violations
    }

    /// Whether work is pending (I6 is checked only when none is).
    pub(crate) fn quiescence(&self) -> Quiescence {
        if self.has_pending_work() {
            Quiescence::WorkPending
        } else {
            Quiescence::Quiescent {
                order_placed_consumers: vec![self.config.consumer_name.clone()],
                dead_lettered: self
                    .broker
                    .dead_letters
                    .iter()
                    .map(|dead_letter| dead_letter.message_id)
                    .collect(),
            }
        }
    }

    /// What can happen now, in a fixed order: normal actions (clients, API, network, relay,
    /// broker, consumers, retention, clock), then fault actions in the order of the fault classes.
    pub fn enabled_actions(&self) -> Vec<Action> {
        let mut actions = self.enabled_normal_actions();
        actions.extend(self.enabled_fault_actions());
        actions
    }

    /// The normal actions enabled now.
    pub(crate) fn enabled_normal_actions(&self) -> Vec<Action> {
        // Room for a step of every actor, so that a large world's list is not grown in steps.
        let mut actions = Vec::with_capacity(
            self.clients.len()
                + self.attempts.len()
                + self.responses.len()
                + self.consumers.len()
                + 4,
        );
        self.enabled_client_actions(&mut actions);
        self.enabled_api_steps(&mut actions);
        self.enabled_response_deliveries(&mut actions);
        if self.relay_step_enabled() {
            actions.push(Action::RelayStep);
        }
        self.enabled_broker_deliveries(&mut actions);
        self.enabled_consumer_steps(&mut actions);
        if self.purge_enabled() {
            actions.push(Action::PurgeStep);
        }
        if let Some(deadline) = self.next_deadline() {
            actions.push(Action::AdvanceClock { ticks: deadline.ticks_since(self.now) });
        }
        actions
    }

    /// The fault actions enabled now, in the order of the fault classes.
    pub fn enabled_fault_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        let queued = self.broker.queued_entries();
        actions.extend(queued.iter().map(|entry| Action::DuplicateMessage { entry: *entry }));
        self.enabled_consumer_crashes(&mut actions);
        self.enabled_concurrent_deliveries(&mut actions);
        actions.extend(
            self.responses.keys().map(|attempt| Action::LoseResponse { attempt: *attempt }),
        );
        self.enabled_client_faults(&mut actions);
        actions.extend(self.attempts.keys().map(|attempt| Action::CrashApi { attempt: *attempt }));
        self.enabled_holds(&mut actions);
        actions
            .extend(queued.iter().map(|entry| Action::DuplicateAfterRetention { entry: *entry }));
        self.enabled_retries_with_new_key(&mut actions);
        if self.relay_crashable() {
            actions.push(Action::CrashRelay);
        }
        actions
    }

    /// Whether `action` can be applied now. A `HoldMessage` may name any release.
    pub(crate) fn is_enabled(&self, action: &Action) -> bool {
        is_listed(&self.enabled_actions(), action)
    }

    /// Applies one action: the next state and what the step did.
    #[cfg(test)]
    pub(crate) fn apply(&mut self, action: &Action) -> Result<StepRecord, ApplyError> {
        if !self.is_enabled(action) {
            return Err(ApplyError::NotEnabled { action: action.clone() });
        }
        self.apply_listed(action)
    }

    /// [`World::apply`] of an action known to be enabled: one that [`World::enabled_actions`]
    /// listed in this very state ([`is_listed`]), so the list is not computed again.
    pub(crate) fn apply_listed(&mut self, action: &Action) -> Result<StepRecord, ApplyError> {
        // The store logs this step's operations, for a caller that replays the step's
        // statement elsewhere (the differential test against PostgreSQL), and the rows its
        // commits change, for the record.
        self.store.start_statement_log();
        self.store.start_step();
        let mut out = StepOut::default();
        self.perform_within_limits(action, &mut out)?;
        let row_changes = self.store.step_row_changes();
        let quiescence = self.quiescence();
        let verdict = self.checked_violations(&quiescence);
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
            new_violations: verdict.new,
            violated: verdict.violated,
            quiescent: matches!(quiescence, Quiescence::Quiescent { .. }),
        })
    }

    /// Applies an action that [`World::enabled_actions`] listed in this very state: no check
    /// that the action is enabled, no [`StepRecord`] (no row diff) and no invariants (the
    /// exhaustive checker asks [`World::violations`] of the states it has not seen before),
    /// which is what the checker needs on its hot path. Use [`World::apply`], the checked form,
    /// for any action that does not come from the enabled lists of this state.
    pub(crate) fn apply_enabled(&mut self, action: &Action) -> Result<(), ApplyError> {
        self.store.stop_statement_log();
        self.store.start_step();
        self.invariants.0 = None;
        let mut out = StepOut::default();
        self.perform_within_limits(action, &mut out)
    }

    /// Applies an action that an earlier run of the same scenario applied in this very state (a
    /// rewind replaying a run's own recorded steps): no check that it is enabled (debug builds
    /// assert it), no statement log, no record and no invariants, which the recorded step
    /// already has. The incremental checker is dropped, to be built again if the world is
    /// stepped on with [`World::apply`].
    pub(crate) fn replay_recorded(&mut self, action: &Action) -> Result<(), ApplyError> {
        debug_assert!(self.is_enabled(action), "a recorded action is enabled in its state");
        self.store.stop_statement_log();
        self.store.start_step();
        self.invariants.0 = None;
        let mut out = StepOut::default();
        self.perform_within_limits(action, &mut out)
    }

    /// [`World::perform`], failing with [`ApplyError::StoreLimit`] if a limit of the store
    /// refused one of its statements.
    fn perform_within_limits(
        &mut self,
        action: &Action,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        self.perform(action, out)?;
        match self.store.take_limit_refusal() {
            Some(refusal) => Err(ApplyError::StoreLimit(refusal)),
            None => Ok(()),
        }
    }

    /// A copy of the world to keep for rewinding: everything but the incremental invariant
    /// checker, which a copy builds again from its state at its first step. The checker's
    /// indexes and violations grow with the run; a snapshot every few steps need not copy them.
    pub(crate) fn snapshot(&mut self) -> World {
        let checker = std::mem::take(&mut self.invariants);
        let snapshot = self.clone();
        self.invariants = checker;
        snapshot
    }

    /// What the step did to the invariants, from the incremental checker fed with the rows the
    /// step's commits changed and the history records it appended: the violations that
    /// appeared and every invariant violated now. Debug builds check the checker's whole list
    /// against [`check_all`] after every step.
    fn checked_violations(&mut self, quiescence: &Quiescence) -> Verdict {
        let tables = self.store.committed();
        let checker = match &mut self.invariants.0 {
            Some(checker) => {
                checker.update(tables, self.store.step_before_image(), &self.history);
                checker
            }
            None => self.invariants.0.insert(Box::new(Incremental::new(tables, &self.history))),
        };
        let verdict = checker.verdict(tables, &self.history, quiescence);
        #[cfg(debug_assertions)]
        {
            let full = check_all(tables, &self.history, quiescence);
            debug_assert_eq!(
                checker.violations(tables, &self.history, quiescence),
                full,
                "the incremental invariants differ from the full check"
            );
            let mut violated: Vec<crate::invariants::InvariantId> =
                full.iter().map(|violation| violation.invariant).collect();
            violated.dedup();
            debug_assert_eq!(verdict.violated, violated, "the violated invariants differ");
        }
        verdict
    }

    /// The whole list of violations the incremental checker holds now, if it has been built
    /// (for the test that compares it with [`check_all`]).
    #[cfg(test)]
    pub(crate) fn incremental_violations(&self) -> Option<Vec<Violation>> {
        let checker = self.invariants.0.as_ref()?;
        Some(checker.violations(self.store.committed(), &self.history, &self.quiescence()))
    }

    /// Performs `action` by its actor, then breaks a deadlock and dead-letters exhausted
    /// copies.
    fn perform(&mut self, action: &Action, out: &mut StepOut) -> Result<(), ApplyError> {
        let performed = self.dispatch(action, out);
        debug_assert!(
            !matches!(performed, Err(ApplyError::MissingTarget { .. })),
            "an enabled action's target is missing: {action:?}: {performed:?}"
        );
        performed?;
        self.break_deadlock(out);
        self.dead_letter_exhausted(out);
        Ok(())
    }

    fn dispatch(&mut self, action: &Action, out: &mut StepOut) -> Result<(), ApplyError> {
        match action {
            Action::ClientSend { request } => self.client_send(*request, out),
            Action::ClientTimeout { request } => self.client_timeout(*request, out),
            Action::ClientRetry { request } => self.client_retry(*request, out),
            Action::ApiStep { attempt } => self.api_step(*attempt, out),
            Action::DeliverResponse { attempt } => self.deliver_response(*attempt, out),
            Action::RelayStep => self.relay_step(out),
            Action::BrokerDeliver { entry, instance } => self.deliver(*entry, *instance, out),
            Action::ConsumerStep { instance } => self.consumer_step(*instance, out),
            Action::PurgeStep => self.purge_step(out),
            Action::AdvanceClock { ticks } => {
                self.advance_clock(*ticks, out);
                Ok(())
            }
            Action::DuplicateMessage { entry } => self.duplicate_message(*entry, out),
            Action::CrashConsumerAfterCommit { instance }
            | Action::CrashConsumerBeforeCommit { instance } => self.crash_consumer(*instance, out),
            Action::DeliverConcurrently { entry, instance } => {
                self.deliver_concurrently(*entry, *instance, out)
            }
            Action::LoseResponse { attempt } => self.lose_response(*attempt, out),
            Action::DoubleSubmit { request } => self.double_submit(*request, out),
            Action::SendWithKeyOf { request, key_of } => {
                self.send_with_key_of(*request, *key_of, out)
            }
            Action::CrashApi { attempt } => self.crash_api(*attempt, out),
            Action::HoldMessage { entry, until } => self.hold_message(*entry, until, out),
            Action::DuplicateAfterRetention { entry } => {
                self.duplicate_after_retention(*entry, out)
            }
            Action::RetryWithNewKey { request } => self.retry_with_new_key(*request, out),
            Action::CrashRelay => self.crash_relay(out),
        }
    }

    /// The client of `request`.
    pub(super) fn client(&self, request: RequestIndex) -> Result<&ClientRequest, ApplyError> {
        self.clients.get(request.0).ok_or(missing(Target::Request(request)))
    }

    /// The client of `request`, to change.
    pub(super) fn client_mut(
        &mut self,
        request: RequestIndex,
    ) -> Result<&mut ClientRequest, ApplyError> {
        self.clients.get_mut(request.0).ok_or(missing(Target::Request(request)))
    }
}
