//! The exhaustive checker: every interleaving and every fault choice of a small scenario,
//! explored breadth-first over [`crate::sim::World::enabled_actions`] and
//! `crate::sim::World::apply`, in Stateright's manner.
//!
//! Visited states are deduplicated by a 64-bit fingerprint ([`fingerprint`]), symmetric
//! states (consumer instances A and B swapped) are explored once, and the first violation
//! found is at the smallest depth, so its path is one of the shortest; it comes back as a
//! [`crate::sim::Trace`] of user-chosen steps that the simulator replays and the page shows.
//! Bounds are explicit ([`CheckConfig`]); hitting one is the outcome
//! [`CheckOutcome::Bounded`]. Time is an input: [`Checker::run_for`] expands a given number of
//! states and returns, so a page runs the check in slices between frames, and a progress
//! callback reports states, depth and frontier.
//!
//! ```
//! use idempotency_lab::check::{CheckConfig, CheckOutcome, FaultBudget, check};
//! use idempotency_lab::faults::FaultClass;
//! use idempotency_lab::sim::{PatternMode, catalogue_scenario};
//!
//! let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
//! let config = CheckConfig {
//!     faults: FaultBudget::of(&[(FaultClass::F1, 1)]),
//!     ..CheckConfig::default()
//! };
//! let naive = check(lesson.with_mode(PatternMode::Naive), 0, config.clone(), &mut |_| {});
//! assert!(matches!(naive.unwrap().outcome, CheckOutcome::Violated(_)));
//! let idempotent = check(lesson.with_mode(PatternMode::Idempotent), 0, config, &mut |_| {});
//! assert_eq!(idempotent.unwrap().outcome, CheckOutcome::Proved);
//! ```
//!
//! Files: `budget` ([`FaultBudget`], and the one rule that derives a check's budget from a
//! scenario), `explorer` (the generic breadth-first engine over a [`Model`]), `fingerprint` (the
//! platform-independent state hash), `world_model` (the simulator's world as a model, the
//! [`Checker`]).

mod budget;
mod explorer;
pub(crate) mod fingerprint;
pub mod judge;
mod scenarios;
mod world_model;

pub use budget::FaultBudget;
pub(crate) use explorer::BYTES_MAX_DEFAULT;
#[cfg(test)]
pub(crate) use explorer::BoundReason;
#[cfg(feature = "testing")]
pub(crate) use explorer::{ExploreBounds, Explorer, Model, ModelLimit};
pub use explorer::{ExploreOutcome, ExploreStats};
pub use scenarios::{
    two_consumers_duplicate_and_crash, two_consumers_duplicate_and_crash_config,
    two_consumers_two_orders_duplicate_and_crash,
};
#[cfg(test)]
pub(crate) use world_model::SymmetryReduction;
pub use world_model::{
    CheckConfig, CheckError, CheckOutcome, CheckProgress, CheckReport, CheckStatus, Checker,
    Counterexample, check,
};

#[cfg(test)]
mod tests;
