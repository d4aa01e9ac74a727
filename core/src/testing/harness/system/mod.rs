//! The harness over a user's own system: their consumer or HTTP handler over their own store
//! (an SQLite connection, a pool, a struct), not a `Steps` machine over the lab's tables.
//!
//! The user implements [`SystemUnderTest`]: how to start from a clean store, how one delivery
//! runs in their own unit of work (their own BEGIN and COMMIT, the commit wrapped in
//! [`UnitOfWork::commit`] so that the harness can crash just before or just after it), what the
//! store shows, and the exactly-once oracle (what each distinct message applied once shows).
//! Their message strategy and the harness's faults make a [`Schedule`] ([`schedules`], a
//! proptest `Strategy` to use in their own `proptest!`); [`run_schedule`] runs one against the
//! system and [`fuzz_system`] draws and shrinks them with a seeded runner. A failure reads as a
//! short story ([`ScheduleRun::story`]).
//!
//! Faults ([`FaultKind`]): a duplicate delivery (F1; on the HTTP side a double submit, F6), a
//! crash after a commit before the acknowledgement (F2; HTTP: F8 after commit) or before a
//! commit (F3; HTTP: F8 before it), a delivery that outlives the visibility timeout and is
//! delivered again (HTTP: the response is lost and the client retries, F5), and a later message
//! overtaking an earlier one (F9). A crashed or timed-out delivery is delivered again, so every
//! message is applied at least once and the oracle is the right reference.
//!
//! Deliveries run one after another: code that runs its delivery in one call cannot be
//! interleaved. Two instances interleaved statement by statement (F4) need the code written as
//! steps: that is the [`crate::testing::harness::consumer`] harness, over the lab's store.

mod run;
mod schedule;
mod story;

use std::fmt::{self, Debug, Display};

use uuid::Uuid;

use crate::ids::MessageId;

#[cfg(test)]
pub(crate) use run::SystemFuzzReport;
pub(crate) use run::{DeliveryOutcome, ScheduleEvent, ScheduleRun, ScheduleViolation};
pub use run::{SystemFuzzConfig, fuzz_system, run_schedule};
#[cfg(test)]
pub(crate) use schedule::Fault;
pub(crate) use schedule::FaultKind;
pub use schedule::{Schedule, ScheduleConfig, schedules};

/// Which side the system is: how the story words a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A message consumer: a broker delivers messages and takes acknowledgements.
    Consumer,
    /// An HTTP handler: clients send requests, each with its own `Idempotency-Key`, and read
    /// the answers.
    Http,
}

/// A user's system under test.
pub trait SystemUnderTest {
    /// A message's payload (an HTTP request's body), drawn by the user's strategy.
    type Message: Clone + Debug;
    /// What one delivery answers: `()` for a consumer, a response for an HTTP handler. Every
    /// answer to one message must be the same.
    type Answer: Clone + Debug + PartialEq;
    /// What the store shows: compared with [`SystemUnderTest::exactly_once`].
    type Observation: Clone + Debug + PartialEq;

    /// How the story words a delivery.
    const SIDE: Side = Side::Consumer;

    /// Empties the store to its state before any message (each schedule starts there).
    fn reset(&mut self) -> Result<(), DeliveryError>;

    /// Runs one delivery of `envelope` in the system's own unit of work. Wrap each commit in
    /// [`UnitOfWork::commit`] and return its error with `?`: when the harness crashes the
    /// delivery there, the open transaction must roll back (rusqlite's `Transaction` does when
    /// dropped).
    fn deliver(
        &mut self,
        envelope: &Envelope<Self::Message>,
        unit: &mut UnitOfWork,
    ) -> Result<Self::Answer, DeliveryError>;

    /// What the store shows now (committed state).
    fn observe(&mut self) -> Result<Self::Observation, DeliveryError>;

    /// The exactly-once oracle, a reference model: what the store shows after each of
    /// `messages` (distinct, in the order they were published) is applied once.
    fn exactly_once(&self, messages: &[Self::Message]) -> Self::Observation;
}

/// One message as the system receives it: its id (on the HTTP side, its `Idempotency-Key`)
/// and its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope<M> {
    /// The message's id: the same on every copy, different for every message.
    pub message_id: MessageId,
    /// The payload.
    pub payload: M,
}

/// The id of the `index`-th message published (from 0): a fixed UUID,
/// `00000000-0000-4000-8000-` and `index + 1` in twelve hex digits.
pub(crate) fn message_id_of(index: usize) -> MessageId {
    let number = u128::try_from(index).unwrap_or(u128::MAX).saturating_add(1) & 0xffff_ffff_ffff;
    MessageId(Uuid::from_u128((0x4000u128 << 64) | (0x8000u128 << 48) | number))
}

/// Where the harness crashes a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum CrashPoint {
    /// Just before the delivery's commit number `commit` (from 0): its transaction rolls back.
    BeforeCommit(u8),
    /// Just after commit number `commit`: what it committed stays, nothing after it runs, and
    /// the delivery is not acknowledged.
    AfterCommit(u8),
}

/// One delivery's unit of work as the harness sees it: it counts the commits and crashes the
/// delivery at its planned [`CrashPoint`], if the delivery reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitOfWork {
    plan: Option<CrashPoint>,
    commits: u8,
    crashed: Option<CrashPoint>,
}

impl UnitOfWork {
    /// A unit of work that crashes at `plan`, if it gets there.
    pub(crate) fn new(plan: Option<CrashPoint>) -> UnitOfWork {
        UnitOfWork { plan, commits: 0, crashed: None }
    }

    /// Runs `commit` (the system's own COMMIT), unless the harness crashes the delivery just
    /// before it; after it, the harness may crash the delivery too. A crash is
    /// [`DeliveryError::Crashed`]: return it with `?`.
    pub fn commit<T, E>(
        &mut self,
        commit: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, DeliveryError>
    where
        DeliveryError: From<E>,
    {
        let index = self.commits;
        self.commits = self.commits.saturating_add(1);
        if self.crashed.is_some() {
            return Err(DeliveryError::Crashed);
        }
        if self.plan == Some(CrashPoint::BeforeCommit(index)) {
            self.crashed = self.plan;
            return Err(DeliveryError::Crashed);
        }
        let value = commit()?;
        if self.plan == Some(CrashPoint::AfterCommit(index)) {
            self.crashed = self.plan;
            return Err(DeliveryError::Crashed);
        }
        Ok(value)
    }

    /// Commits reached so far (crashed ones included).
    #[cfg(test)]
    pub(crate) fn commits(&self) -> u8 {
        self.commits
    }

    /// Where the harness crashed the delivery, if it did.
    pub(crate) fn crashed(&self) -> Option<CrashPoint> {
        self.crashed
    }
}

/// Why a delivery did not answer: the harness crashed it, or the system failed. Any error type
/// converts into it with `?` (as `anyhow::Error` does, it is not itself a `std::error::Error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveryError {
    /// The harness crashed the delivery ([`UnitOfWork::commit`]).
    Crashed,
    /// The system failed: the error's text.
    Failed(String),
}

impl<E: std::error::Error> From<E> for DeliveryError {
    fn from(error: E) -> DeliveryError {
        DeliveryError::Failed(error.to_string())
    }
}

impl Display for DeliveryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeliveryError::Crashed => f.write_str("crashed by the harness"),
            DeliveryError::Failed(error) => f.write_str(error),
        }
    }
}

#[cfg(test)]
mod tests;
