//! Public test support, compiled with the `testing` feature: proptest strategies for the
//! simulator's inputs ([`strategies`]), the property fuzzer with shrinking ([`fuzz`]), and the
//! harness that fuzzes and exhaustively checks a user's own consumer ([`harness`], with the
//! worked example [`loyalty_points`]).
//!
//! ```
//! use idempotency_lab::sim::{FaultClass, PatternMode, Patterns};
//! use idempotency_lab::testing::{FuzzConfig, ScenarioShape, fuzz, fuzz_case, scenario};
//!
//! let shape = ScenarioShape::new(Patterns::all(PatternMode::Naive), &[FaultClass::F1]);
//! let report = fuzz(fuzz_case(scenario(shape)), FuzzConfig::default(), &mut |_| {});
//! let failure = report.failure.expect("the naive consumer breaks under a duplicate");
//! assert!(failure.faults() <= 1);
//! ```

pub mod fuzz;
pub mod harness;
pub mod loyalty_points;
pub mod strategies;

pub use fuzz::{FuzzConfig, FuzzFailure, FuzzProgress, FuzzReport, FuzzRun, fuzz, run_case};
pub use strategies::{
    FuzzCase, RandomFaults, ScenarioShape, fault_rates, fuzz_case, lesson_cases, scenario, seed,
};

#[cfg(test)]
mod tests;
