//! Public test support, compiled with the `testing` feature: the one configuration of every
//! property test, whose seed replays from the environment ([`config`]), proptest strategies for
//! the simulator's inputs ([`strategies`]), the property fuzzer with shrinking ([`fuzz`]), the
//! mutation fuzzer of the scenario, trace and share-link parsers ([`parser_fuzz`]), and the
//! harness that fuzzes and exhaustively checks a user's own consumer or HTTP handler
//! ([`harness`], with the worked examples [`loyalty_points`] and [`wallet_top_up`]).
//!
//! ```
//! use idempotency_lab::faults::FaultClass;
//! use idempotency_lab::sim::{PatternMode, Patterns};
//! use idempotency_lab::testing::{FuzzConfig, ScenarioShape, fuzz, fuzz_case, scenario};
//!
//! let shape = ScenarioShape::new(Patterns::all(PatternMode::Naive), &[FaultClass::F1]);
//! let report = fuzz(fuzz_case(scenario(shape)), FuzzConfig::default(), &mut |_| {});
//! let failure = report.failure.expect("the naive consumer breaks under a duplicate");
//! assert!(failure.faults() <= 1);
//! ```

pub(crate) mod config;
pub(crate) mod fuzz;
pub mod harness;
pub mod loyalty_points;
pub mod parser_fuzz;
pub mod strategies;
pub mod wallet_top_up;

pub use config::proptest_config;
pub use fuzz::{FuzzConfig, FuzzProgress, FuzzReport, FuzzRun, fuzz};
pub use parser_fuzz::{InputKind, ParserFuzz, ParserInput, catalogue_seeds};
#[cfg(test)]
pub(crate) use strategies::seed;
pub use strategies::{
    RandomFaults, SURVIVABLE_FAULTS, ScenarioShape, configured_scenario, fuzz_case, lesson_cases,
    scenario,
};

#[cfg(test)]
mod tests;
