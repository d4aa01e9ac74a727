//! A small shop that runs all four patterns together, driven by generated sequences of
//! operations and faults, and recording into a `History` what happened outside the store, so
//! that the real `invariants::check_all` can judge every step.
//!
//! The property tests beside this module share it (it sits in a folder, so cargo does not take
//! it for a test of its own). It is a model of the world of DESIGN.md, kept small on purpose:
//!
//! - clients `POST /orders` through the P3 layer (naive or idempotent), with a handler that
//!   runs `PlaceOrder` (P2's transactional outbox: the order and its `OrderPlaced` message in one
//!   transaction). A client sends its request again, with the same key, only while it has no
//!   answer: after a lost response (F5), a crash of the API mid-request (F8), or a 409;
//! - the outbox relay publishes to the broker, and may crash after publishing, before marking
//!   the rows published (F12), so that the next run publishes the same message again;
//! - the broker delivers `OrderPlaced` to the `reserve-stock` consumer (P4, naive or
//!   idempotent), whose effect is P1's stock reservation (naive or idempotent) in the same
//!   transaction as its inbox row. A delivery may be duplicated (F1), crash before its commit
//!   (F3) or after it and before its ack (F2), or race a second instance of the consumer on the
//!   same message, statement by statement (F4);
//! - `MarkPaid` (with its charge) and `Cancel` (with its stock release) run on orders, possibly
//!   twice in a row (P2, naive or idempotent);
//! - the clock advances, so that the lease of a crashed request ends and a retry takes it over.
//!
//! Every operation runs to its end inside [`Shop::apply`]; races are resolved within the
//! operation. Nothing here decides whether an invariant holds: that is `check_all`'s job.

use std::collections::BTreeMap;
use std::fmt;

use idempotency_lab::history::{
    ApiResponse, HandlerRunEnd, HandlerRunId, History, InboxUse, KeyLease, MessageEvent,
    RequestAttempt, ResponseOrigin,
};
use idempotency_lab::idempotency::{
    self, ApiLayer, IDEMPOTENCY_KEY_HEADER, IdempotencyEvent, LayerState, parse_idempotency_key,
};
use idempotency_lab::ids::{ConsumerName, MessageId, OrderId, PaymentId, Sku, Tick};
use idempotency_lab::inbox::{
    ConsumeMessage, ConsumeState, ConsumerConfig, ConsumerCrashed, ConsumerImplementation, Envelope,
};
use idempotency_lab::invariants::{InvariantId, Quiescence, Violation, check_all};
use idempotency_lab::order::{
    OrderCommand, OrderCommandEffect, OrderError, OrderEvent, OrderImplementation, PlaceOrder,
    PlaceOrderEffect, PlaceOrderError,
};
use idempotency_lab::outbox::{RelayConfig, RelayOutbox, RelayState};
use idempotency_lab::shop::{InitialStock, ShopConfig};
use idempotency_lab::step::{InTransaction, RunError, Step, Steps, run_to_completion};
use idempotency_lab::stock::{ReserveStock, ReserveStockEffect, StockImplementation};
use idempotency_lab::store::{MessagePayload, OrderLine, Store};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestError, TestRunner};

// ---------------------------------------------------------------------------------------------
// Which twin of each pattern runs.

/// The twin of each of the four patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// P1, the stock reservation that the consumer applies.
    pub stock: StockImplementation,
    /// P2, `MarkPaid` and `Cancel`.
    pub order: OrderImplementation,
    /// P3, the `Idempotency-Key` layer in front of `POST /orders`.
    pub api: idempotency::Implementation,
    /// P4, the consumer of `OrderPlaced`.
    pub consumer: ConsumerImplementation,
}

impl Setup {
    /// Every pattern idempotent.
    pub fn idempotent() -> Setup {
        Setup {
            stock: StockImplementation::Idempotent,
            order: OrderImplementation::Idempotent,
            api: idempotency::Implementation::Idempotent,
            consumer: ConsumerImplementation::Idempotent,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The operations.

/// How many clients send `POST /orders`; each sends one request (and its retries).
pub const CLIENTS: usize = 3;

/// What goes wrong with one send of a client's request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestFault {
    /// Nothing.
    None,
    /// The API answered, the network lost the answer (F5): the client will retry.
    LoseResponse,
    /// The API crashed after this many of the request's statements (F8); the client will retry.
    CrashAfterSteps(u8),
}

/// What goes wrong with one delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryFault {
    /// Nothing: processed and acknowledged.
    None,
    /// The broker delivers the message twice in a row (F1).
    Duplicate,
    /// The consumer crashes after at most this many statements, before `COMMIT` (F3): rolled
    /// back, and the message stays with the broker.
    CrashBeforeCommit(u8),
    /// The consumer crashes after `COMMIT`, before `ACK` (F2): the message stays with the broker.
    CrashAfterCommit,
    /// Two instances of the consumer get the message at once and run interleaved (F4): bit `i`
    /// of the schedule (cyclically) says which instance runs the `i`-th statement.
    Race(u8),
}

/// What goes wrong with one run of the outbox relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelayFault {
    /// Nothing.
    None,
    /// The relay crashes after publishing, before marking the rows published (F12).
    CrashAfterPublish,
}

/// One operation of a generated run.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Client `client` sends (or, without an answer yet, resends) its `POST /orders`.
    SendOrderRequest {
        /// Which client, below [`CLIENTS`].
        client: usize,
        /// What goes wrong.
        fault: RequestFault,
    },
    /// The clock moves on.
    AdvanceClock {
        /// By how many ticks.
        ticks: u64,
    },
    /// One run of the outbox relay.
    RelayOutbox {
        /// What goes wrong.
        fault: RelayFault,
    },
    /// The broker delivers one of its pending messages.
    DeliverMessage {
        /// Which one, modulo how many are pending.
        message: usize,
        /// What goes wrong.
        fault: DeliveryFault,
    },
    /// `MarkPaid` on an order, `times` times in a row (a retried payment callback).
    MarkPaid {
        /// Which order, modulo how many exist (in the order they were placed).
        order: usize,
        /// Which payment: `pay-<payment>`.
        payment: usize,
        /// How many times.
        times: u8,
    },
    /// `Cancel` on an order, `times` times in a row.
    CancelOrder {
        /// Which order, modulo how many exist.
        order: usize,
        /// How many times.
        times: u8,
    },
}

impl fmt::Debug for Op {
    /// One short line per operation, for the snapshots of minimal counterexamples.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::SendOrderRequest { client, fault } => {
                write!(f, "client {client} sends POST /orders")?;
                match fault {
                    RequestFault::None => Ok(()),
                    RequestFault::LoseResponse => write!(f, ", the response is lost"),
                    RequestFault::CrashAfterSteps(steps) => {
                        write!(f, ", the API crashes after {steps} statements")
                    }
                }
            }
            Op::AdvanceClock { ticks } => write!(f, "the clock advances {ticks} ticks"),
            Op::RelayOutbox { fault: RelayFault::None } => write!(f, "the relay runs"),
            Op::RelayOutbox { fault: RelayFault::CrashAfterPublish } => {
                write!(f, "the relay publishes and crashes before marking")
            }
            Op::DeliverMessage { message, fault } => {
                write!(f, "the broker delivers pending message {message}")?;
                match fault {
                    DeliveryFault::None => Ok(()),
                    DeliveryFault::Duplicate => write!(f, " twice"),
                    DeliveryFault::CrashBeforeCommit(steps) => {
                        write!(f, ", the consumer crashes before commit (after {steps} statements)")
                    }
                    DeliveryFault::CrashAfterCommit => {
                        write!(f, ", the consumer crashes after commit, before ack")
                    }
                    DeliveryFault::Race(schedule) => {
                        write!(f, " to two consumer instances at once (schedule {schedule:08b})")
                    }
                }
            }
            Op::MarkPaid { order, payment, times } => {
                write!(f, "MarkPaid(pay-{payment}) on order {order}, {times} time(s)")
            }
            Op::CancelOrder { order, times } => {
                write!(f, "Cancel on order {order}, {times} time(s)")
            }
        }
    }
}

/// One operation, with faults drawn often enough that short runs meet them.
pub fn op() -> impl Strategy<Value = Op> {
    let request_fault = prop_oneof![
        3 => Just(RequestFault::None),
        1 => Just(RequestFault::LoseResponse),
        1 => (1u8..12).prop_map(RequestFault::CrashAfterSteps),
    ];
    let delivery_fault = prop_oneof![
        3 => Just(DeliveryFault::None),
        1 => Just(DeliveryFault::Duplicate),
        1 => (1u8..6).prop_map(DeliveryFault::CrashBeforeCommit),
        1 => Just(DeliveryFault::CrashAfterCommit),
        1 => any::<u8>().prop_map(DeliveryFault::Race),
    ];
    let relay_fault =
        prop_oneof![2 => Just(RelayFault::None), 1 => Just(RelayFault::CrashAfterPublish)];
    prop_oneof![
        3 => (0..CLIENTS, request_fault)
            .prop_map(|(client, fault)| Op::SendOrderRequest { client, fault }),
        2 => relay_fault.prop_map(|fault| Op::RelayOutbox { fault }),
        3 => (0usize..3, delivery_fault)
            .prop_map(|(message, fault)| Op::DeliverMessage { message, fault }),
        2 => (0usize..3, 0usize..2, 1u8..=2)
            .prop_map(|(order, payment, times)| Op::MarkPaid { order, payment, times }),
        1 => (0usize..3, 1u8..=2).prop_map(|(order, times)| Op::CancelOrder { order, times }),
        2 => (1u64..=40).prop_map(|ticks| Op::AdvanceClock { ticks }),
    ]
}

/// The configuration of a `proptest!` in these tests: the core's shared one
/// ([`idempotency_lab::testing::proptest_config`]: `cases` cases unless `PROPTEST_CASES` says
/// otherwise, the seed printed and `PROPTEST_RNG_SEED` to replay it), with failures persisted
/// under `proptest-regressions/` of the tests crate, in `regressions_file` (proptest cannot find
/// a crate root above `tests/tests/it/`, so the file is named here).
pub fn proptest_config(cases: u32, regressions_file: &'static str) -> Config {
    Config {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions_file))),
        ..idempotency_lab::testing::proptest_config(cases)
    }
}

/// A run: up to `len_max` operations.
pub fn ops(len_max: usize) -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(op(), 1..=len_max)
}

// ---------------------------------------------------------------------------------------------
// Ids and requests.

fn uuid_text(n: u128) -> String {
    format!("\"00000000-0000-0000-0000-{n:012x}\"")
}

/// The order id numbered `n` (ids are UUIDs; the crate's id types deserialize from text).
pub fn order_id(n: u128) -> OrderId {
    serde_json::from_str(&uuid_text(n)).unwrap()
}

fn message_id(n: u128) -> MessageId {
    serde_json::from_str(&uuid_text(n)).unwrap()
}

fn idempotency_key_text(client: usize) -> String {
    format!("00000000-0000-0000-0000-0000000c{client:04x}")
}

/// What client `client` orders: small, fixed, so that snapshots read well.
pub fn client_lines(client: usize) -> Vec<OrderLine> {
    let line = |sku: &str, qty| OrderLine { sku: Sku::new(sku), qty };
    match client % CLIENTS {
        0 => vec![line("apple", 1)],
        1 => vec![line("pear", 2)],
        _ => vec![line("apple", 2), line("pear", 1)],
    }
}

/// The `POST /orders` request of client `client`, with its idempotency key.
pub fn order_request(client: usize) -> idempotency::HttpRequest {
    let body = serde_json::to_string(&client_lines(client)).unwrap();
    idempotency::HttpRequest::new("POST", "/orders", body)
        .with_header(IDEMPOTENCY_KEY_HEADER, idempotency_key_text(client))
}

/// The `POST /orders` handler: `PlaceOrder` in a transaction of its own, answered 201 with the
/// new order's id. Each run places a new order with ids the caller drew for that run, as a
/// server does: that is what makes a naive retry visible as a second order with another id.
#[derive(Clone, Debug)]
pub struct PlaceOrderHandler {
    inner: InTransaction<PlaceOrderEffect>,
}

impl PlaceOrderHandler {
    /// The handler for one run.
    pub fn new(command: PlaceOrder) -> PlaceOrderHandler {
        PlaceOrderHandler { inner: PlaceOrderEffect::in_own_transaction(command).unwrap() }
    }
}

impl Steps for PlaceOrderHandler {
    type Output = idempotency::HttpResponse;
    type Error = PlaceOrderError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        self.inner.next_statement(now)
    }

    fn step(
        &mut self,
        store: &mut Store,
        now: Tick,
    ) -> Result<Step<idempotency::HttpResponse>, PlaceOrderError> {
        Ok(match self.inner.step(store, now)? {
            Step::Continue => Step::Continue,
            Step::Blocked(wait) => Step::Blocked(wait),
            Step::Done(placed) => Step::Done(idempotency::HttpResponse {
                status: 201,
                headers: vec![("location".to_owned(), format!("/orders/{}", placed.order_id))],
                body: serde_json::json!({ "order_id": placed.order_id }).to_string(),
            }),
        })
    }

    fn open_transaction(&self) -> Option<idempotency_lab::ids::TxId> {
        self.inner.open_transaction()
    }
}

// ---------------------------------------------------------------------------------------------
// The shop.

/// The consumer of `OrderPlaced`.
pub fn reserve_stock_consumer() -> ConsumerName {
    ConsumerName::new("reserve-stock")
}

#[derive(Clone, Copy, Debug, Default)]
struct Client {
    sent: bool,
    answered: bool,
}

/// The state of one run.
pub struct Shop {
    setup: Setup,
    store: Store,
    history: History,
    now: Tick,
    clients: [Client; CLIENTS],
    /// Deliveries the broker still owes, oldest first.
    broker: Vec<Envelope>,
    next_id: u128,
    api_config: idempotency::Config,
    coverage: BTreeMap<&'static str, usize>,
}

impl Shop {
    /// A shop with 100 apples and 100 pears: more than any run can order, so that a rejected
    /// reservation never hides what the patterns do.
    pub fn new(setup: Setup) -> Shop {
        let shop = ShopConfig {
            stock: vec![
                InitialStock { sku: Sku::new("apple"), qty: 100 },
                InitialStock { sku: Sku::new("pear"), qty: 100 },
            ],
            ..ShopConfig::default()
        };
        Shop {
            setup,
            store: shop.initial_store(),
            history: History::default(),
            now: Tick(1),
            clients: [Client::default(); CLIENTS],
            broker: Vec::new(),
            next_id: 1,
            // A retention far beyond any run: F10 (a duplicate after the window) is not what
            // these runs test, and would make the idempotent layer rerun a handler on purpose.
            api_config: idempotency::Config {
                lease_ticks: 30,
                retention_ticks: 1_000_000,
                ..idempotency::Config::default()
            },
            coverage: BTreeMap::new(),
        }
    }

    /// How often each interesting thing happened in this run (a takeover, a replay, an inbox
    /// that absorbed a duplicate, a consumer that waited for the other instance...), so that a
    /// test can show the generated runs reach them.
    pub fn coverage(&self) -> &BTreeMap<&'static str, usize> {
        &self.coverage
    }

    fn saw(&mut self, what: &'static str) {
        *self.coverage.entry(what).or_default() += 1;
    }

    /// Every violation now, with work still pending (I6 is not checked).
    pub fn violations(&self) -> Vec<Violation> {
        check_all(self.store.committed(), &self.history, &Quiescence::WorkPending)
    }

    /// Every violation, at quiescence: call after [`Shop::drain`].
    pub fn violations_at_quiescence(&self) -> Vec<Violation> {
        let quiescence = Quiescence::Quiescent {
            order_placed_consumers: vec![reserve_stock_consumer()],
            dead_lettered: Vec::new(),
        };
        check_all(self.store.committed(), &self.history, &quiescence)
    }

    fn fresh_number(&mut self) -> u128 {
        let n = self.next_id;
        self.next_id += 1;
        n
    }

    /// Runs one operation to its end.
    pub fn apply(&mut self, op: &Op) {
        match *op {
            Op::SendOrderRequest { client, fault } => self.send_order_request(client, fault),
            Op::AdvanceClock { ticks } => self.now = self.now.plus(ticks),
            Op::RelayOutbox { fault } => self.relay_outbox(fault),
            Op::DeliverMessage { message, fault } => {
                if !self.broker.is_empty() {
                    self.deliver(message % self.broker.len(), fault);
                }
            }
            Op::MarkPaid { order, payment, times } => {
                let payment_id = PaymentId::new(format!("pay-{payment}"));
                self.order_command(order, OrderCommand::MarkPaid { payment_id }, times);
            }
            Op::CancelOrder { order, times } => {
                self.order_command(order, OrderCommand::Cancel, times)
            }
        }
    }

    /// Runs the relay and delivers, without faults, until nothing is unpublished and the
    /// broker owes nothing.
    pub fn drain(&mut self) {
        for _ in 0..1_000 {
            let unpublished =
                self.store.committed().outbox.values().filter(|row| !row.published).count();
            if unpublished > 0 {
                self.relay_outbox(RelayFault::None);
            } else if !self.broker.is_empty() {
                let pending = self.broker.len();
                self.deliver(0, DeliveryFault::None);
                assert!(self.broker.len() < pending, "a fault-free delivery must be acknowledged");
            } else {
                return;
            }
        }
        panic!("the shop did not reach quiescence");
    }

    // --- P3 + PlaceOrder --------------------------------------------------------------------

    fn send_order_request(&mut self, client: usize, fault: RequestFault) {
        let state = self.clients[client];
        if state.answered {
            return; // The client has its answer and sends nothing more.
        }
        let attempt = if state.sent { RequestAttempt::Duplicate } else { RequestAttempt::First };
        self.clients[client].sent = true;

        let request = order_request(client);
        let key = parse_idempotency_key(&request).unwrap();
        let fingerprint = idempotency::fingerprint(&request);
        let command = PlaceOrder {
            order_id: order_id(self.fresh_number()),
            message_id: message_id(self.fresh_number()),
            lines: client_lines(client),
        };
        let handler = PlaceOrderHandler::new(command);
        let mut layer = ApiLayer::new(self.setup.api, self.api_config, request, handler);
        let now = self.now;

        let mut run: Option<HandlerRunId> = None;
        let mut lease: Option<KeyLease> = None;
        let mut origin: Option<ResponseOrigin> = None;
        for steps_done in 0.. {
            assert!(steps_done < 1_000, "the request did not end");
            if fault == RequestFault::CrashAfterSteps(steps_done as u8) {
                // The API process dies: the database rolls back its open transaction.
                if let Some(tx) = layer.open_transaction() {
                    self.store.rollback(tx).unwrap();
                }
                if let Some(run) = run {
                    self.history
                        .record_handler_run_ended(run, HandlerRunEnd::Crashed { at: now })
                        .unwrap();
                    self.saw("request: the API crashed while its handler held the key");
                } else {
                    self.saw("request: the API crashed before its handler ran");
                }
                return;
            }
            if steps_done == 0 && self.setup.api == idempotency::Implementation::Naive {
                // The naive endpoint runs the handler from its first statement, with no lease.
                run = Some(self.history.record_handler_run_started(key, None, now).unwrap());
            }
            let step = layer.step(&mut self.store, now).unwrap();
            for event in layer.take_events() {
                self.saw(event_name(&event));
                if let IdempotencyEvent::KeyReserved { fencing_token, lease_expires_at, .. }
                | IdempotencyEvent::KeyTakenOver { fencing_token, lease_expires_at, .. } = event
                {
                    lease = Some(KeyLease { fencing_token, expires_at: lease_expires_at });
                }
                // The origin follows the core's one rule, `ResponseOrigin::after`.
                origin = Some(origin.unwrap_or(ResponseOrigin::Completed).after(&event));
            }
            // The run holds the key from the commit of its reservation (or takeover) on.
            if let (None, Some(lease), ApiLayer::Idempotent(inner)) = (run, lease, &layer)
                && !matches!(
                    inner.state(),
                    LayerState::InsertKey { .. }
                        | LayerState::TakeOverKey { .. }
                        | LayerState::CommitReservation { .. }
                )
            {
                run = Some(self.history.record_handler_run_started(key, Some(lease), now).unwrap());
            }
            match step {
                Step::Continue => {}
                Step::Blocked(wait) => panic!("a request running alone waits for {wait:?}"),
                Step::Done(response) => {
                    if let Some(run) = run {
                        self.history
                            .record_handler_run_ended(run, HandlerRunEnd::Finished { at: now })
                            .unwrap();
                    }
                    let origin = origin.expect("every answer comes with an event saying why");
                    self.history
                        .record_response(ApiResponse {
                            key: Some(key),
                            fingerprint,
                            attempt,
                            origin,
                            status: response.status,
                            body: response.body,
                            answered_at: now,
                        })
                        .unwrap();
                    if attempt == RequestAttempt::Duplicate {
                        self.saw("request: a duplicate was answered");
                    }
                    if fault == RequestFault::LoseResponse {
                        self.saw("request: the response was lost");
                    }
                    let final_answer = response.status < 500 && response.status != 409;
                    self.clients[client].answered =
                        final_answer && fault != RequestFault::LoseResponse;
                    return;
                }
            }
        }
    }

    // --- Outbox relay -----------------------------------------------------------------------

    fn relay_outbox(&mut self, fault: RelayFault) {
        let mut relay = RelayOutbox::new(RelayConfig::default());
        let now = self.now;
        for _ in 0..1_000 {
            if fault == RelayFault::CrashAfterPublish
                && matches!(relay.state(), RelayState::Begin { .. })
            {
                let crashed = relay.crash(&mut self.store);
                if !crashed.published_not_marked.is_empty() {
                    self.saw("relay: crashed after publishing, before marking");
                }
                self.publish(crashed.published_not_taken);
                return;
            }
            let step = relay.step(&mut self.store, now).unwrap();
            let published = relay.take_published();
            self.publish(published);
            match step {
                Step::Continue => {}
                Step::Blocked(wait) => panic!("the relay running alone waits for {wait:?}"),
                Step::Done(_) => return,
            }
        }
        panic!("the relay did not end");
    }

    fn publish(&mut self, envelopes: Vec<Envelope>) {
        for envelope in envelopes {
            let message_id = envelope.message_id.unwrap();
            let published_before = self.history.message_events().iter().any(|event| {
                matches!(event, MessageEvent::Published { message_id: id, .. } if *id == message_id)
            });
            if published_before {
                self.saw("relay: published a message again");
            }
            self.history
                .record_message_event(MessageEvent::Published {
                    message_id,
                    published_at: self.now,
                })
                .unwrap();
            self.broker.push(envelope);
        }
    }

    // --- P4 consumer wrapping P1 ------------------------------------------------------------

    fn consumer(&self, envelope: &Envelope) -> ConsumeMessage<ReserveStockEffect> {
        let MessagePayload::OrderPlaced { order_id, lines } = &envelope.payload else {
            panic!("only OrderPlaced is published in this shop");
        };
        let command = ReserveStock { order_id: *order_id, lines: lines.to_vec() };
        let effect = ReserveStockEffect::new(command, self.setup.stock).unwrap();
        let config = ConsumerConfig {
            consumer: reserve_stock_consumer(),
            implementation: self.setup.consumer,
            retention_ticks: 1_000_000,
        };
        ConsumeMessage::new(config, envelope.clone(), effect)
    }

    /// Runs one statement of a consumer instance and records what the broker and the store saw.
    fn step_consumer(&mut self, instance: &mut ConsumeMessage<ReserveStockEffect>) -> Progress {
        let committing = matches!(instance.state(), ConsumeState::Commit { .. });
        let message_id = instance.envelope().message_id.unwrap();
        let now = self.now;
        let step = instance.step(&mut self.store, now);
        if committing && matches!(instance.state(), ConsumeState::Acknowledge) {
            let inbox = match self.setup.consumer {
                ConsumerImplementation::Naive => InboxUse::WithoutInbox,
                ConsumerImplementation::Idempotent => InboxUse::WithInbox,
            };
            let consumer = reserve_stock_consumer();
            let event =
                MessageEvent::EffectCommitted { message_id, consumer, inbox, committed_at: now };
            self.history.record_message_event(event).unwrap();
        }
        match step {
            Ok(Step::Continue) => Progress::Running,
            Ok(Step::Blocked(_)) => {
                self.saw("delivery: an instance waited for the other's lock");
                Progress::Blocked
            }
            Ok(Step::Done(outcome)) => {
                self.saw(if outcome.applied_effect() {
                    "delivery: the effect was applied"
                } else {
                    "delivery: the inbox absorbed a duplicate"
                });
                let consumer = reserve_stock_consumer();
                let event =
                    MessageEvent::Acknowledged { message_id, consumer, acknowledged_at: now };
                self.history.record_message_event(event).unwrap();
                Progress::Acknowledged
            }
            // Not acknowledged: the broker keeps the message.
            Err(_) => Progress::Failed,
        }
    }

    fn run_consumer_alone(
        &mut self,
        instance: &mut ConsumeMessage<ReserveStockEffect>,
    ) -> Progress {
        for _ in 0..1_000 {
            match self.step_consumer(instance) {
                Progress::Running => {}
                Progress::Blocked => panic!("a consumer running alone waits for a lock"),
                done => return done,
            }
        }
        panic!("the consumer did not end");
    }

    fn deliver(&mut self, index: usize, fault: DeliveryFault) {
        let envelope = self.broker[index].clone();
        match fault {
            DeliveryFault::None => {
                let mut instance = self.consumer(&envelope);
                if self.run_consumer_alone(&mut instance) == Progress::Acknowledged {
                    self.broker.remove(index);
                }
            }
            DeliveryFault::Duplicate => {
                let mut first = self.consumer(&envelope);
                let first = self.run_consumer_alone(&mut first);
                let mut second = self.consumer(&envelope);
                let second = self.run_consumer_alone(&mut second);
                if first == Progress::Acknowledged || second == Progress::Acknowledged {
                    self.broker.remove(index);
                }
            }
            DeliveryFault::CrashBeforeCommit(steps) => {
                let mut instance = self.consumer(&envelope);
                for _ in 0..steps {
                    if !matches!(
                        instance.state(),
                        ConsumeState::Begin
                            | ConsumeState::InsertInboxRow { .. }
                            | ConsumeState::Effect { .. }
                    ) {
                        break;
                    }
                    if self.step_consumer(&mut instance) != Progress::Running {
                        break;
                    }
                }
                let crashed = instance.crash(&mut self.store);
                if matches!(crashed, ConsumerCrashed::BeforeCommit { .. }) {
                    self.saw("delivery: the consumer crashed with its transaction open");
                }
            }
            DeliveryFault::CrashAfterCommit => {
                let mut instance = self.consumer(&envelope);
                for _ in 0..1_000 {
                    if matches!(instance.state(), ConsumeState::Acknowledge | ConsumeState::Ended) {
                        break;
                    }
                    if self.step_consumer(&mut instance) != Progress::Running {
                        break;
                    }
                }
                let crashed = instance.crash(&mut self.store);
                if crashed == (ConsumerCrashed::AfterCommitBeforeAck { applied_effect: true }) {
                    self.saw("delivery: the consumer crashed after commit, before ack");
                }
            }
            DeliveryFault::Race(schedule) => {
                let mut instances = [self.consumer(&envelope), self.consumer(&envelope)];
                let mut progress = [Progress::Running, Progress::Running];
                let mut turn = 0u32;
                let mut forced: Option<usize> = None;
                while progress.contains(&Progress::Running) || progress.contains(&Progress::Blocked)
                {
                    assert!(turn < 10_000, "the race did not end");
                    let running = |progress: &[Progress; 2], i: usize| {
                        matches!(progress[i], Progress::Running | Progress::Blocked)
                    };
                    let wanted = forced.take().unwrap_or(if schedule >> (turn % 8) & 1 == 1 {
                        0
                    } else {
                        1
                    });
                    let pick = if running(&progress, wanted) { wanted } else { 1 - wanted };
                    turn += 1;
                    progress[pick] = self.step_consumer(&mut instances[pick]);
                    if progress[pick] == Progress::Blocked {
                        assert!(running(&progress, 1 - pick), "instance {pick} waits for nobody");
                        forced = Some(1 - pick);
                    }
                }
                if progress.contains(&Progress::Acknowledged) {
                    self.broker.remove(index);
                }
            }
        }
    }

    // --- P2 ---------------------------------------------------------------------------------

    fn order_command(&mut self, order: usize, command: OrderCommand, times: u8) {
        let orders: Vec<OrderId> = self.store.committed().orders.keys().copied().collect();
        if orders.is_empty() {
            return;
        }
        let order_id = orders[order % orders.len()];
        for _ in 0..times {
            let mut effect =
                OrderCommandEffect::in_own_transaction(order_id, command.clone(), self.setup.order);
            match run_to_completion(&mut effect, &mut self.store, self.now) {
                Ok(event) => self.saw(order_event_name(&event)),
                Err(RunError::Failed(OrderError::Transition { .. })) => {
                    self.saw("order: a command was refused by the order's status")
                }
                Err(error) => panic!("{} on order {order_id} failed: {error:?}", command.name()),
            }
        }
    }
}

fn event_name(event: &IdempotencyEvent) -> &'static str {
    match event {
        IdempotencyEvent::KeyHeaderRejected { .. } => "layer: KeyHeaderRejected",
        IdempotencyEvent::KeyExpired { .. } => "layer: KeyExpired",
        IdempotencyEvent::KeyReserved { .. } => "layer: KeyReserved",
        IdempotencyEvent::KeyTakenOver { .. } => "layer: KeyTakenOver",
        IdempotencyEvent::ResponseReplayed { .. } => "layer: ResponseReplayed",
        IdempotencyEvent::KeyInProgress { .. } => "layer: KeyInProgress",
        IdempotencyEvent::ReservationLost { .. } => "layer: ReservationLost",
        IdempotencyEvent::FingerprintMismatch { .. } => "layer: FingerprintMismatch",
        IdempotencyEvent::HandlerCompleted { .. } => "layer: HandlerCompleted",
        IdempotencyEvent::HandlerFailed { .. } => "layer: HandlerFailed",
        IdempotencyEvent::ResponseStored { .. } => "layer: ResponseStored",
        IdempotencyEvent::KeyReleased { .. } => "layer: KeyReleased",
        IdempotencyEvent::StaleCompletionRejected { .. } => "layer: StaleCompletionRejected",
    }
}

fn order_event_name(event: &OrderEvent) -> &'static str {
    match event {
        OrderEvent::OrderPaid { .. } => "order: OrderPaid",
        OrderEvent::PaymentAlreadyRecorded { .. } => "order: PaymentAlreadyRecorded",
        OrderEvent::OrderShipped { .. } => "order: OrderShipped",
        OrderEvent::ShipmentAlreadyRecorded { .. } => "order: ShipmentAlreadyRecorded",
        OrderEvent::OrderCancelled { .. } => "order: OrderCancelled",
        OrderEvent::CancellationAlreadyRecorded { .. } => "order: CancellationAlreadyRecorded",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    Running,
    Blocked,
    Acknowledged,
    Failed,
}

// ---------------------------------------------------------------------------------------------
// Running generated sequences.

/// Where a search for a violation looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckAt {
    /// After every operation, with work pending.
    EveryOperation,
    /// After every operation, and once more after draining the relay and the broker, at
    /// quiescence (where I6 is checked).
    EveryOperationAndQuiescence,
}

/// The violations of `invariant` that `ops` makes `check_all` report, first found first.
pub fn violations_of(
    setup: Setup,
    ops: &[Op],
    invariant: InvariantId,
    at: CheckAt,
) -> Vec<Violation> {
    let mut shop = Shop::new(setup);
    for op in ops {
        shop.apply(op);
        let found: Vec<Violation> =
            shop.violations().into_iter().filter(|v| v.invariant == invariant).collect();
        if !found.is_empty() {
            return found;
        }
    }
    if at == CheckAt::EveryOperationAndQuiescence {
        shop.drain();
        return shop
            .violations_at_quiescence()
            .into_iter()
            .filter(|v| v.invariant == invariant)
            .collect();
    }
    Vec::new()
}

/// A minimal counterexample: the shrunk operations and what `check_all` said about them.
pub struct Counterexample {
    /// The operations, shrunk.
    pub ops: Vec<Op>,
    /// The violations of the invariant searched for.
    pub violations: Vec<Violation>,
}

impl Counterexample {
    /// The operations, one a line, then the violations' sentences: what the snapshots hold.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for (index, op) in self.ops.iter().enumerate() {
            text.push_str(&format!("{}. {op:?}\n", index + 1));
        }
        for violation in &self.violations {
            text.push_str(&format!("=> {violation}\n"));
        }
        text
    }
}

/// Searches generated runs (with a fixed seed, so that the result is the same every time) for
/// one that breaks `invariant` under `setup`, and returns it shrunk, or `None` if `cases` runs
/// found nothing.
pub fn search_counterexample(
    setup: Setup,
    invariant: InvariantId,
    at: CheckAt,
    cases: u32,
    len_max: usize,
) -> Option<Counterexample> {
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(0x1de_4b07e4c7),
        failure_persistence: None,
        max_shrink_iters: 10_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&ops(len_max), |ops| {
        let found = violations_of(setup, &ops, invariant, at);
        prop_assert!(found.is_empty(), "{}", found[0]);
        Ok(())
    });
    match result {
        Ok(()) => None,
        Err(TestError::Fail(_, ops)) => {
            let ops = remove_needless_ops(ops, |ops| {
                !violations_of(setup, ops, invariant, at).is_empty()
            });
            let violations = violations_of(setup, &ops, invariant, at);
            Some(Counterexample { ops, violations })
        }
        Err(TestError::Abort(reason)) => panic!("the search aborted: {reason}"),
    }
}

/// Removes operations one at a time, as long as `fails` still holds, until no single removal
/// keeps it. Proptest's shrinking of a vector removes elements before it simplifies them, so an
/// element simplified late (say, into a second `SendOrderRequest`) can stay although it is no
/// longer needed; this pass takes it out.
pub fn remove_needless_ops(mut ops: Vec<Op>, fails: impl Fn(&[Op]) -> bool) -> Vec<Op> {
    let mut index = 0;
    while index < ops.len() {
        let mut shorter = ops.clone();
        shorter.remove(index);
        if fails(&shorter) {
            ops = shorter;
            index = 0;
        } else {
            index += 1;
        }
    }
    ops
}

/// Runs `ops` on a shop set up as `setup`, checking after every operation that no invariant is
/// violated, then drains the shop and checks again at quiescence (where I6 applies). The error
/// names the operation after which the first violation appeared.
pub fn check_every_invariant_holds(setup: Setup, ops: &[Op]) -> Result<(), String> {
    let joined = |violations: Vec<Violation>| {
        violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    };
    let mut shop = Shop::new(setup);
    for (index, op) in ops.iter().enumerate() {
        shop.apply(op);
        let violations = shop.violations();
        if !violations.is_empty() {
            return Err(format!("after operation {} ({op:?}): {}", index + 1, joined(violations)));
        }
    }
    shop.drain();
    let violations = shop.violations_at_quiescence();
    if !violations.is_empty() {
        return Err(format!("at quiescence: {}", joined(violations)));
    }
    Ok(())
}
