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
    fn next_statement(&self) -> Option<String>;

    /// Runs the next statement at virtual time `now`.
    fn step(&mut self, store: &mut Store, now: Tick) -> Result<Step<Self::Output>, Self::Error>;

    /// The transaction the handler has open, if any: a crash of the handler rolls it back.
    fn open_transaction(&self) -> Option<TxId>;
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
pub const STEPS_PER_HANDLER_MAX: usize = 10_000;

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
