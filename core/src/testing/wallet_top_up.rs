//! A worked example for the HTTP harness: `POST /wallet/top-ups` adds an amount to a wallet's
//! balance and answers 201 with the amount and the new balance, in two versions.
//!
//! [`WalletTopUp`]'s handler ([`TopUp`]) adds the amount on every request: raw, a retry after
//! a lost response tops the wallet up twice, and the harness catches it. Behind the lab's
//! `Idempotency-Key` layer it survives lost responses, double submits and reused keys, but not
//! every crash: the layer completes the key in a transaction of its own after the handler's, so
//! a crash between the two lets the retry that takes the key over run the handler again (the
//! layer's documented limit, `idempotency::layer`). [`KeyedWalletTopUp`]'s handler
//! ([`KeyedTopUp`]) keeps its own key table and writes the key, with its answer, in the same
//! transaction as the balance: raw, it passes every schedule, crashes included.
//!
//! The lab's store has fixed tables: the balance lives in a `stock` row named [`WALLET_SKU`]
//! (`available_qty` is the balance), and the keyed version uses the `idempotency_keys` table.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::idempotency::{
    CONTENT_TYPE_HEADER, HttpRequest, HttpResponse, KeyHeaderError, ProblemType, fingerprint,
    parse_idempotency_key, problem_response, short_fingerprint,
};
use crate::ids::{IdempotencyKey, Sku, Tick, TxId};
use crate::step::{Step, Steps};
use crate::store::{
    FencingToken, IdempotencyKeyRow, Inserted, KeyState, RequestFingerprint, StockRow, Store,
    StoreConfig, StoreError,
};
use crate::testing::harness::HandlerUnderTest;

/// The `stock` row that holds the wallet's balance.
pub(crate) const WALLET_SKU: &str = "wallet";

/// The path the handler serves.
pub(crate) const TOP_UPS_PATH: &str = "/wallet/top-ups";

/// The body of a top-up request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TopUpBody {
    /// What to add, in cents.
    pub(crate) amount: i64,
}

/// The body of the 201 answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct TopUpDoneBody {
    /// What was added.
    pub(crate) amount: i64,
    /// The balance after it.
    pub(crate) balance: i64,
}

/// The top-up request of operation `operation`: `POST /wallet/top-ups` with an amount of
/// `500 + 200 * operation` cents, so that two operations never send the same payload.
pub(crate) fn top_up_request(operation: usize) -> HttpRequest {
    let amount = 500 + 200 * i64::try_from(operation).unwrap_or(0);
    // A struct of one number always serializes; the fallback is never used.
    let body = serde_json::to_string(&TopUpBody { amount }).unwrap_or_default();
    HttpRequest::new("POST", TOP_UPS_PATH, body)
}

/// Why a top-up handler failed: only its statements can.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TopUpError {
    /// A statement failed in the store.
    #[error("the top-up failed in the store: {0}")]
    Store(#[from] StoreError),
    /// The wallet's row is missing.
    #[error("the wallet row `{WALLET_SKU}` does not exist")]
    NoWallet,
    /// `step` was called after the handler had answered.
    #[error("the top-up handler has already answered")]
    AlreadyDone,
}

/// The store both versions start from: a balance of 0.
fn wallet_store() -> Store {
    Store::with_stock(StoreConfig::default(), [(Sku::new(WALLET_SKU), 0)])
}

/// The balance in `store`.
pub(crate) fn wallet_balance(store: &Store) -> i64 {
    store.committed().stock.get(&Sku::new(WALLET_SKU)).map_or(0, |row| row.available_qty)
}

fn read_body(body: &str) -> Result<TopUpBody, HttpResponse> {
    serde_json::from_str::<TopUpBody>(body).map_err(|error| {
        problem_response(
            ProblemType::RequestBodyInvalid,
            format!("the body must be JSON {{\"amount\": <cents>}}: {error}"),
        )
    })
}

/// `UPDATE stock SET available_qty = available_qty + amount WHERE sku = 'wallet'`: the 201
/// answer, or a lock wait.
fn add_to_balance(
    store: &mut Store,
    tx: TxId,
    amount: i64,
) -> Result<Result<HttpResponse, Step<HttpResponse>>, TopUpError> {
    let row = match store.update::<StockRow>(tx, &Sku::new(WALLET_SKU), |row| {
        row.available_qty += amount;
    }) {
        Ok(row) => row.ok_or(TopUpError::NoWallet)?,
        Err(StoreError::Blocked(wait)) => return Ok(Err(Step::Blocked(wait))),
        Err(error) => return Err(error.into()),
    };
    let done = TopUpDoneBody { amount, balance: row.available_qty };
    Ok(Ok(HttpResponse {
        status: 201,
        headers: vec![(CONTENT_TYPE_HEADER.to_owned(), "application/json".to_owned())],
        // Two numbers always serialize; the fallback is never used.
        body: serde_json::to_string(&done).unwrap_or_default(),
    }))
}

fn add_statement(amount: i64) -> String {
    format!(
        "UPDATE stock SET available_qty = available_qty + {amount} WHERE sku = '{WALLET_SKU}' \
         RETURNING available_qty"
    )
}

/// Where a [`TopUp`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TopUpState {
    /// The body is read next.
    ParseBody,
    /// The transaction begins next.
    Begin {
        /// The amount.
        amount: i64,
    },
    /// The balance is updated next.
    AddToBalance {
        /// The transaction.
        tx: TxId,
        /// The amount.
        amount: i64,
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

/// The deliberately non-idempotent handler: parse the body, `BEGIN`, add the amount, `COMMIT`,
/// answer 201. It ignores the `Idempotency-Key` header.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TopUp {
    body: String,
    state: TopUpState,
}

impl TopUp {
    /// The handler for `request`.
    pub(crate) fn for_request(request: &HttpRequest) -> TopUp {
        TopUp { body: request.body.clone(), state: TopUpState::ParseBody }
    }

    fn step_state(&mut self, store: &mut Store) -> Result<Step<HttpResponse>, TopUpError> {
        match self.state.clone() {
            TopUpState::ParseBody => match read_body(&self.body) {
                Ok(body) => {
                    self.state = TopUpState::Begin { amount: body.amount };
                    Ok(Step::Continue)
                }
                Err(response) => {
                    self.state = TopUpState::Done;
                    Ok(Step::Done(response))
                }
            },
            TopUpState::Begin { amount } => {
                let tx = store.begin()?;
                self.state = TopUpState::AddToBalance { tx, amount };
                Ok(Step::Continue)
            }
            TopUpState::AddToBalance { tx, amount } => match add_to_balance(store, tx, amount)? {
                Ok(response) => {
                    self.state = TopUpState::Commit { tx, response };
                    Ok(Step::Continue)
                }
                Err(wait) => Ok(wait),
            },
            TopUpState::Commit { tx, response } => {
                store.commit(tx)?;
                self.state = TopUpState::Done;
                Ok(Step::Done(response))
            }
            TopUpState::Done => Err(TopUpError::AlreadyDone),
        }
    }
}

impl Steps for TopUp {
    type Output = HttpResponse;
    type Error = TopUpError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        match &self.state {
            TopUpState::ParseBody => Some("-- parse the request body".to_owned()),
            TopUpState::Begin { .. } => Some("BEGIN".to_owned()),
            TopUpState::AddToBalance { amount, .. } => Some(add_statement(*amount)),
            TopUpState::Commit { .. } => Some("COMMIT".to_owned()),
            TopUpState::Done => None,
        }
    }

    fn step(&mut self, store: &mut Store, _now: Tick) -> Result<Step<HttpResponse>, TopUpError> {
        let result = self.step_state(store);
        if result.is_err() {
            if let Some(tx) = self.open_transaction() {
                let _ = store.rollback(tx);
            }
            self.state = TopUpState::Done;
        }
        result
    }

    fn open_transaction(&self) -> Option<TxId> {
        match &self.state {
            TopUpState::AddToBalance { tx, .. } | TopUpState::Commit { tx, .. } => Some(*tx),
            TopUpState::ParseBody | TopUpState::Begin { .. } | TopUpState::Done => None,
        }
    }
}

/// Where a [`KeyedTopUp`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KeyedTopUpState {
    /// The key header and the body are read next.
    ParseRequest,
    /// The transaction begins next.
    Begin {
        /// The key.
        key: IdempotencyKey,
        /// The amount.
        amount: i64,
    },
    /// The key is inserted next: `INSERT ... ON CONFLICT DO NOTHING`, which waits for a
    /// concurrent request's uncommitted row of the same key.
    InsertKey {
        /// The transaction.
        tx: TxId,
        /// The key.
        key: IdempotencyKey,
        /// The amount.
        amount: i64,
    },
    /// The key was there: its row is read next.
    ReadKey {
        /// The transaction.
        tx: TxId,
        /// The key.
        key: IdempotencyKey,
    },
    /// The key is new: the balance is updated next.
    AddToBalance {
        /// The transaction.
        tx: TxId,
        /// The key.
        key: IdempotencyKey,
        /// The amount.
        amount: i64,
    },
    /// The key's row gets the answer next.
    CompleteKey {
        /// The transaction.
        tx: TxId,
        /// The key.
        key: IdempotencyKey,
        /// The answer.
        response: HttpResponse,
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

/// The fixed handler: the key, the balance and the answer in one transaction. A request whose
/// key is stored gets the stored answer if it is the same request (same fingerprint), and 422
/// if it is another; a concurrent request with the same key waits for the first one's commit.
/// A crash anywhere rolls everything back, so nothing half-done is left for a retry to repeat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyedTopUp {
    request: HttpRequest,
    fingerprint: RequestFingerprint,
    state: KeyedTopUpState,
}

impl KeyedTopUp {
    /// The handler for `request` (its key header and body are read).
    pub(crate) fn for_request(request: &HttpRequest) -> KeyedTopUp {
        KeyedTopUp {
            fingerprint: fingerprint(request),
            request: request.clone(),
            state: KeyedTopUpState::ParseRequest,
        }
    }

    fn parse(&self) -> Result<(IdempotencyKey, TopUpBody), HttpResponse> {
        let key = parse_idempotency_key(&self.request).map_err(|error| {
            let problem_type = match error {
                KeyHeaderError::Missing => ProblemType::IdempotencyKeyMissing,
                KeyHeaderError::Repeated { .. } | KeyHeaderError::NotAUuid { .. } => {
                    ProblemType::IdempotencyKeyInvalid
                }
            };
            problem_response(problem_type, error.to_string())
        })?;
        Ok((key, read_body(&self.request.body)?))
    }

    fn step_state(
        &mut self,
        store: &mut Store,
        now: Tick,
    ) -> Result<Step<HttpResponse>, TopUpError> {
        match self.state.clone() {
            KeyedTopUpState::ParseRequest => match self.parse() {
                Ok((key, body)) => {
                    self.state = KeyedTopUpState::Begin { key, amount: body.amount };
                    Ok(Step::Continue)
                }
                Err(response) => {
                    self.state = KeyedTopUpState::Done;
                    Ok(Step::Done(response))
                }
            },
            KeyedTopUpState::Begin { key, amount } => {
                let tx = store.begin()?;
                self.state = KeyedTopUpState::InsertKey { tx, key, amount };
                Ok(Step::Continue)
            }
            KeyedTopUpState::InsertKey { tx, key, amount } => {
                // In progress only inside this transaction: it commits completed or not at all.
                let row = IdempotencyKeyRow {
                    key,
                    fingerprint: self.fingerprint.clone(),
                    state: KeyState::InProgress {
                        lease_expires_at: now,
                        fencing_token: FencingToken(0),
                    },
                    created_at: now,
                };
                self.state = match store.insert_on_conflict_do_nothing(tx, row) {
                    Ok(Inserted::Inserted) => KeyedTopUpState::AddToBalance { tx, key, amount },
                    Ok(Inserted::AlreadyPresent) => KeyedTopUpState::ReadKey { tx, key },
                    Err(StoreError::Blocked(wait)) => return Ok(Step::Blocked(wait)),
                    Err(error) => return Err(error.into()),
                };
                Ok(Step::Continue)
            }
            KeyedTopUpState::ReadKey { tx, key } => {
                let row = store.get::<IdempotencyKeyRow>(tx, &key)?;
                let response = match row {
                    Some(row) if row.fingerprint != self.fingerprint => problem_response(
                        ProblemType::IdempotencyKeyReused,
                        format!(
                            "Idempotency-Key {key} was first used with a request of fingerprint \
                             {}, and this one has fingerprint {}: use a new key for a new request",
                            short_fingerprint(&row.fingerprint),
                            short_fingerprint(&self.fingerprint)
                        ),
                    ),
                    Some(IdempotencyKeyRow { state: KeyState::Completed { response }, .. }) => {
                        response.into()
                    }
                    // Committed rows are always completed; answer as if it were in progress.
                    Some(_) | None => problem_response(
                        ProblemType::IdempotencyKeyInProgress,
                        format!("a request with Idempotency-Key {key} is in progress"),
                    ),
                };
                self.state = KeyedTopUpState::Commit { tx, response };
                Ok(Step::Continue)
            }
            KeyedTopUpState::AddToBalance { tx, key, amount } => {
                match add_to_balance(store, tx, amount)? {
                    Ok(response) => {
                        self.state = KeyedTopUpState::CompleteKey { tx, key, response };
                        Ok(Step::Continue)
                    }
                    Err(wait) => Ok(wait),
                }
            }
            KeyedTopUpState::CompleteKey { tx, key, response } => {
                let stored = response.clone().into();
                store.update::<IdempotencyKeyRow>(tx, &key, |row| {
                    row.state = KeyState::Completed { response: stored };
                })?;
                self.state = KeyedTopUpState::Commit { tx, response };
                Ok(Step::Continue)
            }
            KeyedTopUpState::Commit { tx, response } => {
                store.commit(tx)?;
                self.state = KeyedTopUpState::Done;
                Ok(Step::Done(response))
            }
            KeyedTopUpState::Done => Err(TopUpError::AlreadyDone),
        }
    }
}

impl Steps for KeyedTopUp {
    type Output = HttpResponse;
    type Error = TopUpError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        Some(match &self.state {
            KeyedTopUpState::ParseRequest => {
                "-- parse header Idempotency-Key and the request body".to_owned()
            }
            KeyedTopUpState::Begin { .. } => "BEGIN".to_owned(),
            KeyedTopUpState::InsertKey { key, .. } => format!(
                "INSERT INTO idempotency_keys (key, fingerprint, state, created_at) VALUES \
                 ('{key}', '{}', 'in_progress', now) ON CONFLICT DO NOTHING",
                short_fingerprint(&self.fingerprint)
            ),
            KeyedTopUpState::ReadKey { key, .. } => {
                format!("SELECT * FROM idempotency_keys WHERE key = '{key}'")
            }
            KeyedTopUpState::AddToBalance { amount, .. } => add_statement(*amount),
            KeyedTopUpState::CompleteKey { key, response, .. } => format!(
                "UPDATE idempotency_keys SET state = 'completed', response = ({}, {}) WHERE \
                 key = '{key}'",
                response.status, response.body
            ),
            KeyedTopUpState::Commit { .. } => "COMMIT".to_owned(),
            KeyedTopUpState::Done => return None,
        })
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<HttpResponse>, TopUpError> {
        let result = self.step_state(store, now);
        if result.is_err() {
            if let Some(tx) = self.open_transaction() {
                let _ = store.rollback(tx);
            }
            self.state = KeyedTopUpState::Done;
        }
        result
    }

    fn open_transaction(&self) -> Option<TxId> {
        match &self.state {
            KeyedTopUpState::InsertKey { tx, .. }
            | KeyedTopUpState::ReadKey { tx, .. }
            | KeyedTopUpState::AddToBalance { tx, .. }
            | KeyedTopUpState::CompleteKey { tx, .. }
            | KeyedTopUpState::Commit { tx, .. } => Some(*tx),
            KeyedTopUpState::ParseRequest
            | KeyedTopUpState::Begin { .. }
            | KeyedTopUpState::Done => None,
        }
    }
}

/// The top-up endpoint with the non-idempotent [`TopUp`] handler.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WalletTopUp;

impl HandlerUnderTest for WalletTopUp {
    type Handler = TopUp;
    type Observation = i64;

    fn initial_store(&self) -> Store {
        wallet_store()
    }

    fn request(&self, operation: usize) -> HttpRequest {
        top_up_request(operation)
    }

    fn handler(&self, request: &HttpRequest) -> TopUp {
        TopUp::for_request(request)
    }

    fn observe(&self, store: &Store) -> i64 {
        wallet_balance(store)
    }
}

/// The top-up endpoint with the [`KeyedTopUp`] handler, which keeps its own keys: plug it raw.
/// Behind the lab's layer it would meet the layer's own in-progress row of the same key in the
/// store's one `idempotency_keys` table and answer 409 to every retry, which the harness
/// reports as a client that never gets a final answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KeyedWalletTopUp;

impl HandlerUnderTest for KeyedWalletTopUp {
    type Handler = KeyedTopUp;
    type Observation = i64;

    fn initial_store(&self) -> Store {
        wallet_store()
    }

    fn request(&self, operation: usize) -> HttpRequest {
        top_up_request(operation)
    }

    fn handler(&self, request: &HttpRequest) -> KeyedTopUp {
        KeyedTopUp::for_request(request)
    }

    fn observe(&self, store: &Store) -> i64 {
        wallet_balance(store)
    }
}
