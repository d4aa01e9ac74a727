//! Handlers as step machines: one step is one statement of the seed's code.
//!
//! The simulator interleaves two handlers statement by statement (reserve the key, insert the
//! row, update, commit), so that a check-then-act race really loses. Each handler of the core is
//! therefore a value that implements [`Steps`]: [`Steps::step`] runs exactly one statement
//! against the store and says whether the handler goes on, waits for a row lock, or is done.
//! [`run_to_completion`] runs a handler alone, for tests and for code that needs no race.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{Tick, TxId};
use crate::store::{RowLockWait, Store, StoreError};

/// What one step of a handler did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step<T> {
    /// One statement ran; more follow.
    Continue,
    /// The statement must wait for another transaction's row lock; nothing changed, and the
    /// same statement runs again on the next step.
    Blocked(RowLockWait),
    /// The handler finished with this outcome (its transaction, if any, has ended).
    Done(T),
}

/// A handler that runs one statement at a time against the store.
pub trait Steps {
    /// What the handler reports when it is done.
    type Output;
    /// Its typed failure; a failure ends the handler, and the handler has rolled back its open
    /// transaction before returning it.
    type Error: From<StoreError>;

    /// The statement the next step will run, as a trace line (`INSERT INTO inbox ...`), or
    /// `None` if the handler is done.
    fn next_statement(&self, now: Tick) -> Option<String>;

    /// Whether the next statement is `BEGIN` (as [`Steps::next_statement`] says), without
    /// building its text: the simulator asks it of every actor at every step while the store's
    /// connections are all taken.
    fn next_begins(&self, now: Tick) -> bool {
        is_begin(self.next_statement(now).as_deref())
    }

    /// Runs the next statement at virtual time `now`.
    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<Self::Output>, Self::Error>;

    /// The transaction the handler has open, if any: a crash of the handler rolls it back.
    fn open_transaction(&self) -> Option<TxId>;
}

/// Whether a statement's text is `BEGIN`.
pub(crate) fn is_begin(statement: Option<&str>) -> bool {
    statement == Some("BEGIN")
}

/// Why [`run_to_completion`] stopped without an outcome.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RunError<E> {
    /// The handler failed.
    #[error(transparent)]
    Failed(E),
    /// The handler waits for a lock that another open transaction holds; alone, it would wait
    /// forever. Its own transaction has been rolled back.
    #[error("blocked: {0}")]
    Blocked(RowLockWait),
    /// The handler took more steps than the limit: a bug in the handler, reported, not looped.
    #[error("the handler did not finish within {steps_max} steps")]
    TooManySteps {
        /// The limit.
        steps_max: usize,
    },
}

/// How many steps [`run_to_completion`] allows one handler.
pub(crate) const STEPS_PER_HANDLER_MAX: usize = 10_000;

/// Runs `handler` alone until it is done. On any failure its open transaction is rolled back,
/// so the store is left as if the handler had never started its transaction.
pub fn run_to_completion<S: Steps>(
    handler: &mut S,
    store: &mut Store,
    now: Tick,
) -> Result<S::Output, RunError<S::Error>> {
    for _ in 0..STEPS_PER_HANDLER_MAX {
        match handler.step(store, now) {
            Ok(Step::Continue) => {}
            Ok(Step::Done(output)) => return Ok(output),
            Ok(Step::Blocked(wait)) => {
                roll_back_open_transaction(handler, store);
                return Err(RunError::Blocked(wait));
            }
            Err(error) => {
                roll_back_open_transaction(handler, store);
                return Err(RunError::Failed(error));
            }
        }
    }
    roll_back_open_transaction(handler, store);
    Err(RunError::TooManySteps { steps_max: STEPS_PER_HANDLER_MAX })
}

fn roll_back_open_transaction<S: Steps>(handler: &S, store: &mut Store) {
    if let Some(tx) = handler.open_transaction() {
        // The handler may have ended it already; an unknown transaction is fine here.
        let _ = store.rollback(tx);
    }
}

/// Work that runs inside a transaction its caller owns, one statement per step: a business
/// effect (reserve stock, mark paid) that the inbox consumer (P4) wraps together with its inbox
/// row, or that [`InTransaction`] commits on its own.
pub trait EffectSteps {
    /// What the effect reports when its statements are done.
    type Output;
    /// Its typed failure. On failure the caller rolls the transaction back.
    type Error: From<StoreError>;

    /// The statement the next step will run, or `None` if the effect is done.
    fn next_statement(&self, now: Tick) -> Option<String>;

    /// Runs the next statement inside `tx`. [`Step::Done`] means the effect's statements are
    /// done; the transaction is still open, and committing it is the caller's job.
    fn step(
        &mut self,
        store: &mut Store,
        tx: TxId,
        now: Tick,
    ) -> Result<Step<Self::Output>, Self::Error>;
}

/// Where an [`InTransaction`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum InTransactionState {
    /// `BEGIN` is next.
    Begin,
    /// The effect's statements run in this transaction.
    Effect(TxId),
    /// `COMMIT` is next.
    Commit(TxId),
    /// Committed or rolled back.
    Ended,
}

/// An effect run in a transaction of its own: `BEGIN`, the effect's statements, `COMMIT`.
/// A failure of the effect rolls the transaction back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InTransaction<E: EffectSteps> {
    effect: E,
    state: InTransactionState,
    output: Option<E::Output>,
}

impl<E: EffectSteps> InTransaction<E> {
    /// Wraps `effect`; nothing runs until the first step.
    pub(crate) fn new(effect: E) -> Self {
        InTransaction { effect, state: InTransactionState::Begin, output: None }
    }

    /// The wrapped effect.
    pub(crate) fn effect(&self) -> &E {
        &self.effect
    }
}

impl<E: EffectSteps> Steps for InTransaction<E> {
    type Output = E::Output;
    type Error = E::Error;

    fn next_statement(&self, now: Tick) -> Option<String> {
        match &self.state {
            InTransactionState::Begin => Some("BEGIN".to_owned()),
            InTransactionState::Effect(_) => self.effect.next_statement(now),
            InTransactionState::Commit(_) => Some("COMMIT".to_owned()),
            InTransactionState::Ended => None,
        }
    }

    fn next_begins(&self, now: Tick) -> bool {
        match &self.state {
            InTransactionState::Begin => true,
            InTransactionState::Effect(_) => is_begin(self.effect.next_statement(now).as_deref()),
            InTransactionState::Commit(_) | InTransactionState::Ended => false,
        }
    }

    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<E::Output>, E::Error> {
        match self.state.clone() {
            InTransactionState::Begin => {
                self.state = InTransactionState::Effect(store.begin()?);
                Ok(Step::Continue)
            }
            InTransactionState::Effect(tx) => match self.effect.step(store, tx, now) {
                Ok(Step::Continue) => Ok(Step::Continue),
                Ok(Step::Blocked(wait)) => Ok(Step::Blocked(wait)),
                Ok(Step::Done(output)) => {
                    self.output = Some(output);
                    self.state = InTransactionState::Commit(tx);
                    Ok(Step::Continue)
                }
                Err(error) => {
                    self.state = InTransactionState::Ended;
                    store.rollback(tx)?;
                    Err(error)
                }
            },
            InTransactionState::Commit(tx) => {
                store.commit(tx)?;
                self.state = InTransactionState::Ended;
                match self.output.take() {
                    Some(output) => Ok(Step::Done(output)),
                    // Unreachable by construction: Commit is entered only with an output.
                    None => Err(StoreError::UnknownTransaction { tx }.into()),
                }
            }
            InTransactionState::Ended => Err(StoreError::UnknownTransaction { tx: TxId(0) }.into()),
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        match self.state {
            InTransactionState::Effect(tx) | InTransactionState::Commit(tx) => Some(tx),
            InTransactionState::Begin | InTransactionState::Ended => None,
        }
    }
}
