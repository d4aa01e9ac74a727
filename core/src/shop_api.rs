//! The simulated shop's HTTP handlers and its broker consumer, wired from the pattern modules.
//!
//! The API serves three routes, each a step machine behind the P3 layer ([`crate::idempotency`]):
//! - `POST /orders` runs `PlaceOrder` (P2 with its transactional outbox) and answers 201 with
//!   the new order;
//! - `POST /orders/{id}/payments` runs `MarkPaid` (P2, naive or idempotent) and answers 200;
//! - `POST /orders/{id}/cancel` runs `Cancel`, which releases the order's stock (P1) in the same
//!   transaction, and answers 200.
//!
//! Domain refusals are answers, not failures: an unknown order is 404, a transition the status
//! does not allow is 409, bad lines are 422, an unreadable request is 400 (RFC 9457 problems).
//! Only a failing store statement is a handler failure, which the layer turns into a 500.
//!
//! The order and message ids of `POST /orders` are drawn by the caller (the simulator, from its
//! seeded RNG) and handed to [`ShopHandler::new`]: the server makes them, so a naive retry makes
//! a second order with new ids, exactly as in production.
//!
//! The consumer side is [`ReserveStockForMessage`]: the effect that the reserve-stock consumer
//! (P4's [`crate::inbox::ConsumeMessage`]) wraps, built from the `OrderPlaced` payload.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::idempotency::{
    CONTENT_TYPE_HEADER, HttpRequest, HttpResponse, IDEMPOTENCY_KEY_HEADER, PROBLEM_CONTENT_TYPE,
    Problem,
};
use crate::ids::{IdempotencyKey, MessageId, OrderId, PaymentId, Tick, TxId};
use crate::order::{
    OrderCommand, OrderCommandEffect, OrderError, OrderEvent, OrderImplementation, PlaceOrder,
    PlaceOrderEffect, PlaceOrderError,
};
use crate::program::{ProgramMarkPaid, SharedProgram};
use crate::step::{EffectSteps, InTransaction, Step, Steps};
use crate::stock::{
    ReserveStock, ReserveStockEffect, StockError, StockImplementation, StockReservationEvent,
};
use crate::store::{MessagePayload, OrderLine, Store, StoreError};

/// The path of `POST /orders`.
pub(crate) const ORDERS_PATH: &str = "/orders";

/// The content type of the handlers' JSON answers.
pub(crate) const JSON_CONTENT_TYPE: &str = "application/json";

/// The body of `POST /orders`: what the client orders. The ids are the server's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlaceOrderBody {
    /// The lines, in the client's order.
    pub(crate) lines: Vec<OrderLine>,
}

/// The body of `POST /orders/{id}/payments`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PaymentBody {
    /// The payment provider's id of the payment.
    pub(crate) payment_id: PaymentId,
}

/// The body of every 200/201 answer: the order and the status the request left it in. A
/// repeat that changed nothing (the same payment again) answers the same body as the first
/// call, as an idempotent operation should.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct OrderAnswerBody {
    /// The order.
    pub(crate) order_id: OrderId,
    /// Its status after the request: `Placed`, `Paid`, `Shipped`, `Cancelled`.
    pub(crate) status: String,
}

/// `POST /orders` with these lines and this key.
pub(crate) fn place_order_request(lines: &[OrderLine], key: Option<IdempotencyKey>) -> HttpRequest {
    let body = PlaceOrderBody { lines: lines.to_vec() };
    with_key(HttpRequest::new("POST", ORDERS_PATH, to_json(&body)), key)
}

/// `POST /orders/{order_id}/payments` with this payment and this key.
pub(crate) fn pay_order_request(
    order_id: OrderId,
    payment_id: &PaymentId,
    key: Option<IdempotencyKey>,
) -> HttpRequest {
    let body = PaymentBody { payment_id: payment_id.clone() };
    let path = format!("{ORDERS_PATH}/{order_id}/payments");
    with_key(HttpRequest::new("POST", path, to_json(&body)), key)
}

/// `POST /orders/{order_id}/cancel` with this key.
pub(crate) fn cancel_order_request(order_id: OrderId, key: Option<IdempotencyKey>) -> HttpRequest {
    let path = format!("{ORDERS_PATH}/{order_id}/cancel");
    with_key(HttpRequest::new("POST", path, "{}"), key)
}

fn with_key(request: HttpRequest, key: Option<IdempotencyKey>) -> HttpRequest {
    match key {
        Some(key) => request.with_header(IDEMPOTENCY_KEY_HEADER, key.to_string()),
        None => request,
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Plain structs of ids and strings always serialize; the fallback is never used.
    serde_json::to_string(value).unwrap_or_default()
}

/// The ids the server draws for one request: used by `POST /orders` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct ServerIds {
    /// The id a new order gets.
    pub(crate) order_id: OrderId,
    /// The id its `OrderPlaced` message gets.
    pub(crate) message_id: MessageId,
}

/// Which twins of P1 and P2 the handlers run (P3 is the layer around them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HandlerConfig {
    /// `MarkPaid` and `Cancel` (and, through `Cancel`, the stock release).
    pub(crate) order: OrderImplementation,
    /// A learner's `MarkPaid` program that runs in place of the built-in `MarkPaid`, if any.
    pub(crate) mark_paid_program: Option<SharedProgram>,
}

/// Why a shop handler failed without an answer: one of its statements failed in the store.
/// Its transaction has been rolled back.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub(crate) enum ShopHandlerError {
    /// A statement failed.
    #[error("a statement failed: {0}")]
    Store(#[from] StoreError),
    /// Releasing the stock of a cancelled order failed.
    #[error("{0}")]
    Release(String),
    /// The handler was stepped after it had answered: a bug of the caller.
    #[error("the handler was stepped after it had answered")]
    AlreadyAnswered,
}

/// Where a [`ShopHandler`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ShopHandlerState {
    /// The route and body are read next.
    ParseRequest,
    /// `PlaceOrder` runs, one statement per step, in its own transaction.
    PlaceOrder(InTransaction<PlaceOrderEffect>),
    /// `MarkPaid` or `Cancel` runs, one statement per step, in its own transaction.
    OrderCommand(InTransaction<OrderCommandEffect>),
    /// A learner's `MarkPaid` program runs, one statement per step.
    MarkPaidProgram(ProgramMarkPaid),
    /// The handler's transaction has ended; the answer is sent next. A crash here (fault F8)
    /// loses an answer whose effect is committed.
    Respond(HttpResponse),
    /// Answered.
    Done,
}

/// One request to the shop's API, as a step machine behind the P3 layer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ShopHandler {
    config: HandlerConfig,
    request: std::sync::Arc<HttpRequest>,
    ids: ServerIds,
    state: ShopHandlerState,
}

impl ShopHandler {
    /// The handler of `request`, with the ids the server drew for it.
    pub(crate) fn new(config: HandlerConfig, request: HttpRequest, ids: ServerIds) -> ShopHandler {
        ShopHandler { config, request: request.into(), ids, state: ShopHandlerState::ParseRequest }
    }

    /// Whether its transaction has committed and only the answer is left.
    pub(crate) fn has_committed(&self) -> bool {
        matches!(self.state, ShopHandlerState::Respond(_))
    }

    /// Whether it has run no statement yet.
    pub(crate) fn has_not_started(&self) -> bool {
        matches!(self.state, ShopHandlerState::ParseRequest)
    }

    fn parse_request(&mut self) -> Step<HttpResponse> {
        let method = self.request.method.as_str();
        let path = self.request.path.as_str();
        let route = path.strip_prefix(ORDERS_PATH);
        let response = match (method, route) {
            ("POST", Some("")) => {
                match serde_json::from_str::<PlaceOrderBody>(&self.request.body) {
                    Ok(body) => {
                        let command = PlaceOrder {
                            order_id: self.ids.order_id,
                            message_id: self.ids.message_id,
                            lines: body.lines,
                        };
                        match PlaceOrderEffect::in_own_transaction(command) {
                            Ok(machine) => {
                                self.state = ShopHandlerState::PlaceOrder(machine);
                                return Step::Continue;
                            }
                            Err(error) => problem(422, "order-invalid", error.to_string()),
                        }
                    }
                    Err(error) => body_invalid(&error),
                }
            }
            ("POST", Some(rest)) => match parse_order_route(rest) {
                Some((order_id, "payments")) => {
                    match serde_json::from_str::<PaymentBody>(&self.request.body) {
                        Ok(body) => {
                            self.start_mark_paid(order_id, body.payment_id);
                            return Step::Continue;
                        }
                        Err(error) => body_invalid(&error),
                    }
                }
                Some((order_id, "cancel")) => {
                    self.start_command(order_id, OrderCommand::Cancel);
                    return Step::Continue;
                }
                _ => problem(404, "route-not-found", format!("no route for {method} {path}")),
            },
            _ => problem(404, "route-not-found", format!("no route for {method} {path}")),
        };
        self.state = ShopHandlerState::Done;
        Step::Done(response)
    }

    /// `MarkPaid`: the learner's program if one is installed, else the built-in.
    fn start_mark_paid(&mut self, order_id: OrderId, payment_id: PaymentId) {
        let program = self.config.mark_paid_program.as_ref().and_then(|program| {
            ProgramMarkPaid::new(program.0.clone(), order_id, payment_id.clone())
        });
        match program {
            Some(program) => self.state = ShopHandlerState::MarkPaidProgram(program),
            None => self.start_command(order_id, OrderCommand::MarkPaid { payment_id }),
        }
    }

    fn start_command(&mut self, order_id: OrderId, command: OrderCommand) {
        self.state = ShopHandlerState::OrderCommand(OrderCommandEffect::in_own_transaction(
            order_id,
            command,
            self.config.order,
        ));
    }
}

fn parse_order_route(rest: &str) -> Option<(OrderId, &str)> {
    let rest = rest.strip_prefix('/')?;
    let (id, action) = rest.split_once('/')?;
    let uuid = uuid::Uuid::try_parse(id).ok()?;
    Some((OrderId(uuid), action))
}

/// An RFC 9457 problem answer of the shop's own kinds (`tag:idempotency-lab,2025:shop-...`).
fn problem(status: u16, kind: &str, detail: String) -> HttpResponse {
    let title = match status {
        400 => "Request body is invalid",
        404 => "Not found",
        409 => "The order's status does not allow this",
        422 => "The order is invalid",
        _ => "The request failed",
    };
    let problem = Problem {
        type_uri: format!("tag:idempotency-lab,2025:shop-{kind}"),
        title: title.to_owned(),
        status,
        detail,
    };
    HttpResponse {
        status,
        headers: vec![(CONTENT_TYPE_HEADER.to_owned(), PROBLEM_CONTENT_TYPE.to_owned())],
        body: to_json(&problem),
    }
}

fn body_invalid(error: &serde_json::Error) -> HttpResponse {
    problem(400, "body-invalid", format!("the body does not read: {error}"))
}

fn order_answer(status: u16, order_id: OrderId, order_status: &str) -> HttpResponse {
    let body = OrderAnswerBody { order_id, status: order_status.to_owned() };
    HttpResponse {
        status,
        headers: vec![
            (CONTENT_TYPE_HEADER.to_owned(), JSON_CONTENT_TYPE.to_owned()),
            ("location".to_owned(), format!("{ORDERS_PATH}/{order_id}")),
        ],
        body: to_json(&body),
    }
}

/// The status an order is in after the event.
fn status_after(event: &OrderEvent) -> &'static str {
    match event {
        OrderEvent::OrderPaid { .. } | OrderEvent::PaymentAlreadyRecorded { .. } => "Paid",
        OrderEvent::OrderShipped { .. } | OrderEvent::ShipmentAlreadyRecorded { .. } => "Shipped",
        OrderEvent::OrderCancelled { .. } | OrderEvent::CancellationAlreadyRecorded { .. } => {
            "Cancelled"
        }
    }
}

impl ShopHandler {
    /// What a step of `MarkPaid` or `Cancel` (built-in or program) means for the answer: the
    /// order as it is now (200), a problem (404, 409), or a failure without an answer.
    fn command_stepped(
        &mut self,
        order_id: OrderId,
        result: Result<Step<OrderEvent>, OrderError>,
    ) -> Result<Step<HttpResponse>, ShopHandlerError> {
        let response = match result {
            Ok(Step::Continue) => return Ok(Step::Continue),
            Ok(Step::Blocked(wait)) => return Ok(Step::Blocked(wait)),
            Ok(Step::Done(event)) => order_answer(200, order_id, status_after(&event)),
            Err(error @ OrderError::OrderNotFound { .. }) => {
                problem(404, "order-not-found", error.to_string())
            }
            Err(error @ OrderError::Transition { .. }) => {
                problem(409, "transition-refused", error.to_string())
            }
            Err(OrderError::Store(error)) => {
                self.state = ShopHandlerState::Done;
                return Err(ShopHandlerError::Store(error));
            }
            Err(error) => {
                self.state = ShopHandlerState::Done;
                return Err(ShopHandlerError::Release(error.to_string()));
            }
        };
        self.state = ShopHandlerState::Respond(response);
        Ok(Step::Continue)
    }
}

impl Steps for ShopHandler {
    type Output = HttpResponse;
    type Error = ShopHandlerError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match &self.state {
            ShopHandlerState::ParseRequest => Some(format!(
                "-- route {} {} and read its body",
                self.request.method, self.request.path
            )),
            ShopHandlerState::PlaceOrder(machine) => machine.next_statement(now),
            ShopHandlerState::OrderCommand(machine) => machine.next_statement(now),
            ShopHandlerState::MarkPaidProgram(machine) => machine.next_statement(now),
            ShopHandlerState::Respond(response) => {
                Some(format!("-- answer {} to the client", response.status))
            }
            ShopHandlerState::Done => None,
        }
    }

    fn next_begins(&self, now: Tick) -> bool {
        match &self.state {
            ShopHandlerState::PlaceOrder(machine) => machine.next_begins(now),
            ShopHandlerState::OrderCommand(machine) => machine.next_begins(now),
            ShopHandlerState::MarkPaidProgram(machine) => {
                crate::step::is_begin(machine.next_statement(now).as_deref())
            }
            ShopHandlerState::ParseRequest
            | ShopHandlerState::Respond(_)
            | ShopHandlerState::Done => false,
        }
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<HttpResponse>, Self::Error> {
        match &mut self.state {
            ShopHandlerState::ParseRequest => Ok(self.parse_request()),
            ShopHandlerState::PlaceOrder(machine) => {
                let response = match machine.step(store, now) {
                    Ok(Step::Continue) => return Ok(Step::Continue),
                    Ok(Step::Blocked(wait)) => return Ok(Step::Blocked(wait)),
                    Ok(Step::Done(placed)) => order_answer(201, placed.order_id, "Placed"),
                    Err(PlaceOrderError::Store(error)) => {
                        self.state = ShopHandlerState::Done;
                        return Err(ShopHandlerError::Store(error));
                    }
                    Err(
                        error @ (PlaceOrderError::OrderAlreadyExists { .. }
                        | PlaceOrderError::MessageAlreadyExists { .. }),
                    ) => problem(409, "order-exists", error.to_string()),
                    Err(error) => problem(422, "order-invalid", error.to_string()),
                };
                self.state = ShopHandlerState::Respond(response);
                Ok(Step::Continue)
            }
            ShopHandlerState::OrderCommand(machine) => {
                let order_id = machine.effect().order_id();
                let result = machine.step(store, now);
                self.command_stepped(order_id, result)
            }
            ShopHandlerState::MarkPaidProgram(machine) => {
                let order_id = machine.order_id();
                let result = machine.step(store, now);
                self.command_stepped(order_id, result)
            }
            ShopHandlerState::Respond(response) => {
                let response = response.clone();
                self.state = ShopHandlerState::Done;
                Ok(Step::Done(response))
            }
            ShopHandlerState::Done => Err(ShopHandlerError::AlreadyAnswered),
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        match &self.state {
            ShopHandlerState::PlaceOrder(machine) => machine.open_transaction(),
            ShopHandlerState::OrderCommand(machine) => machine.open_transaction(),
            ShopHandlerState::MarkPaidProgram(machine) => machine.open_transaction(),
            ShopHandlerState::ParseRequest
            | ShopHandlerState::Respond(_)
            | ShopHandlerState::Done => None,
        }
    }
}

/// Why the reserve-stock consumer's effect failed.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub(crate) enum ReserveStockConsumerError {
    /// The reservation failed (too little stock, an unknown sku, a store statement).
    #[error(transparent)]
    Stock(#[from] StockError),
    /// The message cannot be reserved (it is not an `OrderPlaced`, or its lines are invalid).
    #[error("the reserve-stock consumer rejects the message: {detail}")]
    Rejected {
        /// Why.
        detail: String,
    },
}

impl From<StoreError> for ReserveStockConsumerError {
    fn from(error: StoreError) -> Self {
        ReserveStockConsumerError::Stock(StockError::Store(error))
    }
}

/// The effect of the reserve-stock consumer: P1's reservation of an `OrderPlaced` message's
/// lines, or, for a message it cannot handle, a failure at its first statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ReserveStockForMessage {
    /// The reservation, one statement per step.
    Reserve(ReserveStockEffect),
    /// The message cannot be handled; the first step fails, saying why.
    Reject {
        /// Why.
        detail: String,
    },
}

impl ReserveStockForMessage {
    /// The effect for `payload`, naive or idempotent.
    pub(crate) fn new(payload: &MessagePayload, implementation: StockImplementation) -> Self {
        match payload {
            MessagePayload::OrderPlaced { order_id, lines } => {
                let command = ReserveStock { order_id: *order_id, lines: lines.to_vec() };
                match ReserveStockEffect::new(command, implementation) {
                    Ok(effect) => ReserveStockForMessage::Reserve(effect),
                    Err(error) => ReserveStockForMessage::Reject { detail: error.to_string() },
                }
            }
            MessagePayload::PaymentCaptured { .. } => ReserveStockForMessage::Reject {
                detail: "it does not handle PaymentCaptured".to_owned(),
            },
            MessagePayload::OrderCancelled { .. } => ReserveStockForMessage::Reject {
                detail: "it does not handle OrderCancelled".to_owned(),
            },
        }
    }
}

impl EffectSteps for ReserveStockForMessage {
    type Output = StockReservationEvent;
    type Error = ReserveStockConsumerError;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match self {
            ReserveStockForMessage::Reserve(effect) => effect.next_statement(now),
            ReserveStockForMessage::Reject { detail } => Some(format!("-- reject: {detail}")),
        }
    }

    fn step(
        &mut self,
        store: &mut Store,
        tx: TxId,
        now: Tick,
    ) -> Result<Step<StockReservationEvent>, ReserveStockConsumerError> {
        match self {
            ReserveStockForMessage::Reserve(effect) => Ok(effect.step(store, tx, now)?),
            ReserveStockForMessage::Reject { detail } => {
                Err(ReserveStockConsumerError::Rejected { detail: detail.clone() })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;
    use crate::ids::Sku;
    use crate::shop::ShopConfig;
    use crate::step::run_to_completion;

    fn ids() -> ServerIds {
        ServerIds {
            order_id: OrderId(Uuid::from_u128(1)),
            message_id: MessageId(Uuid::from_u128(2)),
        }
    }

    fn check(request: HttpRequest, store: &mut Store, expect: expect_test::Expect) {
        let config =
            HandlerConfig { order: OrderImplementation::Idempotent, mark_paid_program: None };
        let mut handler = ShopHandler::new(config, request, ids());
        let response = run_to_completion(&mut handler, store, Tick(1)).unwrap();
        expect.assert_eq(&format!("{} {}", response.status, response.body));
    }

    #[test]
    fn the_three_routes_answer_with_the_order_or_a_problem() {
        let mut store = ShopConfig::default().initial_store();
        let lines = vec![OrderLine { sku: Sku::new("apple"), qty: 3 }];
        check(
            place_order_request(&lines, None),
            &mut store,
            expect_test::expect![[
                r#"201 {"order_id":"00000000-0000-0000-0000-000000000001","status":"Placed"}"#
            ]],
        );
        assert_eq!(store.committed().outbox.len(), 1);
        let order_id = ids().order_id;
        check(
            pay_order_request(order_id, &PaymentId::new("pay-1"), None),
            &mut store,
            expect_test::expect![[
                r#"200 {"order_id":"00000000-0000-0000-0000-000000000001","status":"Paid"}"#
            ]],
        );
        check(
            pay_order_request(order_id, &PaymentId::new("pay-1"), None),
            &mut store,
            expect_test::expect![[
                r#"200 {"order_id":"00000000-0000-0000-0000-000000000001","status":"Paid"}"#
            ]],
        );
        check(
            cancel_order_request(OrderId(Uuid::from_u128(9)), None),
            &mut store,
            expect_test::expect![[
                r#"404 {"type":"tag:idempotency-lab,2025:shop-order-not-found","title":"Not found","status":404,"detail":"no order 00000000-0000-0000-0000-000000000009"}"#
            ]],
        );
        check(
            HttpRequest::new("POST", "/orders", "{"),
            &mut store,
            expect_test::expect![[
                r#"400 {"type":"tag:idempotency-lab,2025:shop-body-invalid","title":"Request body is invalid","status":400,"detail":"the body does not read: EOF while parsing an object at line 1 column 1"}"#
            ]],
        );
    }
}
