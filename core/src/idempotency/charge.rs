//! An example business handler behind the layer: `POST /charges` takes money for an order.
//!
//! It writes one row of `charges` in a transaction of its own and answers 201 with the charge.
//! It is what the lessons put behind both twins: a retry after a lost response through the
//! naive endpoint shows up as a second charge row, through the idempotent layer as a replay of
//! the first 201. Its body is JSON, `{"order_id": "<uuid>", "payment_id": "<text>"}`; a body
//! that does not read as that is answered 400 without touching the store.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::idempotency::layer::split_blocked;
use crate::idempotency::problem::{ProblemType, problem_response};
use crate::idempotency::request::{CONTENT_TYPE_HEADER, HttpRequest, HttpResponse};
use crate::ids::{ChargeId, OrderId, PaymentId, Tick, TxId};
use crate::step::{Step, Steps};
use crate::store::{ChargeRow, Store, StoreError};

/// The path the handler serves.
pub(crate) const CHARGES_PATH: &str = "/charges";

/// The body of a `POST /charges` request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChargeRequestBody {
    /// The order to charge.
    pub(crate) order_id: OrderId,
    /// The payment provider's id of the payment.
    pub(crate) payment_id: PaymentId,
}

/// The body of the 201 answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct ChargeCreatedBody {
    /// The new charge's id.
    pub(crate) charge_id: ChargeId,
    /// The order charged.
    pub(crate) order_id: OrderId,
    /// The payment charged.
    pub(crate) payment_id: PaymentId,
}

/// A `POST /charges` request with this body and no headers.
pub(crate) fn charge_request(order_id: OrderId, payment_id: PaymentId) -> HttpRequest {
    let body = ChargeRequestBody { order_id, payment_id };
    // Two ids always serialize; the fallback is never used.
    HttpRequest::new("POST", CHARGES_PATH, serde_json::to_string(&body).unwrap_or_default())
}

/// Where a [`CreateCharge`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum CreateChargeState {
    /// The body is read next.
    ParseBody,
    /// The transaction begins next.
    Begin {
        /// What to charge.
        body: ChargeRequestBody,
    },
    /// The charge row is inserted next.
    InsertCharge {
        /// The transaction.
        tx: TxId,
        /// What to charge.
        body: ChargeRequestBody,
    },
    /// The transaction commits next, then the handler answers.
    Commit {
        /// The transaction.
        tx: TxId,
        /// The answer.
        response: HttpResponse,
    },
    /// Answered.
    Done,
}

/// Why [`CreateCharge`] failed: only its statements can.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum CreateChargeError {
    /// A statement failed in the store.
    #[error("creating the charge failed in the store: {0}")]
    Store(#[from] StoreError),
    /// `step` was called after the handler had answered.
    #[error("the charge handler has already answered")]
    AlreadyDone,
}

/// The `POST /charges` handler for one request, as a step machine: parse the body, `BEGIN`,
/// `INSERT INTO charges`, `COMMIT`, answer 201.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CreateCharge {
    body: String,
    state: CreateChargeState,
}

impl CreateCharge {
    /// The handler for `request` (only its body is read).
    pub(crate) fn for_request(request: &HttpRequest) -> CreateCharge {
        CreateCharge { body: request.body.clone(), state: CreateChargeState::ParseBody }
    }

    fn step_state(&mut self, store: &mut Store) -> Result<Step<HttpResponse>, CreateChargeError> {
        match self.state.clone() {
            CreateChargeState::ParseBody => {
                match serde_json::from_str::<ChargeRequestBody>(&self.body) {
                    Ok(body) => {
                        self.state = CreateChargeState::Begin { body };
                        Ok(Step::Continue)
                    }
                    Err(error) => {
                        self.state = CreateChargeState::Done;
                        Ok(Step::Done(problem_response(
                            ProblemType::RequestBodyInvalid,
                            format!(
                                "the body must be JSON {{\"order_id\": \"<uuid>\", \
                                 \"payment_id\": \"<text>\"}}: {error}"
                            ),
                        )))
                    }
                }
            }
            CreateChargeState::Begin { body } => {
                let tx = store.begin()?;
                self.state = CreateChargeState::InsertCharge { tx, body };
                Ok(Step::Continue)
            }
            CreateChargeState::InsertCharge { tx, body } => {
                let charge = ChargeRow {
                    id: store.next_charge_id(),
                    order_id: body.order_id,
                    payment_id: body.payment_id.clone(),
                };
                let charge_id = charge.id;
                if let Err(wait) = split_blocked(store.insert(tx, charge))? {
                    return Ok(Step::Blocked(wait));
                }
                let created = ChargeCreatedBody {
                    charge_id,
                    order_id: body.order_id,
                    payment_id: body.payment_id,
                };
                let response = HttpResponse {
                    status: 201,
                    headers: vec![
                        (CONTENT_TYPE_HEADER.to_owned(), "application/json".to_owned()),
                        ("location".to_owned(), format!("{CHARGES_PATH}/{}", charge_id.0)),
                    ],
                    // Ids and text always serialize; the fallback is never used.
                    body: serde_json::to_string(&created).unwrap_or_default(),
                };
                self.state = CreateChargeState::Commit { tx, response };
                Ok(Step::Continue)
            }
            CreateChargeState::Commit { tx, response } => {
                store.commit(tx)?;
                self.state = CreateChargeState::Done;
                Ok(Step::Done(response))
            }
            CreateChargeState::Done => Err(CreateChargeError::AlreadyDone),
        }
    }
}

impl Steps for CreateCharge {
    type Output = HttpResponse;
    type Error = CreateChargeError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        match &self.state {
            CreateChargeState::ParseBody => Some("-- parse the request body".to_owned()),
            CreateChargeState::Begin { .. } => Some("BEGIN".to_owned()),
            CreateChargeState::InsertCharge { body, .. } => Some(format!(
                "INSERT INTO charges (id, order_id, payment_id) VALUES \
                 (nextval('charges_id_seq'), '{}', '{}')",
                body.order_id, body.payment_id
            )),
            CreateChargeState::Commit { .. } => Some("COMMIT".to_owned()),
            CreateChargeState::Done => None,
        }
    }

    fn step(&mut self, store: &mut Store, _now: Tick) -> Result<Step<HttpResponse>, Self::Error> {
        let result = self.step_state(store);
        if result.is_err() {
            if let Some(tx) = self.open_transaction() {
                let _ = store.rollback(tx);
            }
            self.state = CreateChargeState::Done;
        }
        result
    }

    fn open_transaction(&self) -> Option<TxId> {
        match &self.state {
            CreateChargeState::InsertCharge { tx, .. } | CreateChargeState::Commit { tx, .. } => {
                Some(*tx)
            }
            CreateChargeState::ParseBody
            | CreateChargeState::Begin { .. }
            | CreateChargeState::Done => None,
        }
    }
}
