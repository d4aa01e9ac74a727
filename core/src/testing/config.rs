//! The one configuration of the property tests: how many cases, and from which seed, so that a
//! failure seen in a log replays.
//!
//! [`proptest_config`] gives every property test (the core's, the integration tests', and a
//! user's own `proptest!`) the same two rules:
//! - the case count is the test's own unless `PROPTEST_CASES` says otherwise (a nightly run can
//!   ask for more, a quick run for fewer);
//! - the seed is `PROPTEST_RNG_SEED` if it is set, and otherwise one drawn now; either way it is
//!   printed with the command that replays it. The test harness shows a test's printed output
//!   only when the test fails, so the line appears exactly beside a failure.
//!
//! Proptest with a fixed seed is deterministic (its cases and its shrinking), so the printed
//! pair of variables replays the failing case, then shrinks it to the same minimal input.

use std::hash::BuildHasher;

use proptest::test_runner::{Config, RngSeed};
use thiserror::Error;

/// The environment variable that sets the number of cases (proptest's own name for it).
pub(crate) const CASES_VAR: &str = "PROPTEST_CASES";

/// The environment variable that fixes the seed (proptest's own name for it).
pub(crate) const SEED_VAR: &str = "PROPTEST_RNG_SEED";

/// The case count and seed of one property test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PropertyRun {
    /// How many cases the test runs.
    pub(crate) cases: u32,
    /// The seed of proptest's generator.
    pub(crate) seed: u64,
}

impl PropertyRun {
    /// The line printed at the start of a test: the run and how to replay it.
    pub(crate) fn replay_line(&self) -> String {
        format!(
            "property test: seed {seed}, {cases} cases; replay with {SEED_VAR}={seed} \
             {CASES_VAR}={cases}",
            seed = self.seed,
            cases = self.cases
        )
    }
}

/// A variable of the environment that does not say what it must.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum PropertyEnvError {
    /// `PROPTEST_CASES` is not a whole number from 1 to `u32::MAX`.
    #[error("{CASES_VAR}={value:?} is not a number of cases from 1 to {max}", max = u32::MAX)]
    Cases {
        /// The variable's value.
        value: String,
    },
    /// `PROPTEST_RNG_SEED` is not a whole number from 0 to `u64::MAX`.
    #[error("{SEED_VAR}={value:?} is not a seed from 0 to {max}", max = u64::MAX)]
    Seed {
        /// The variable's value.
        value: String,
    },
}

/// The run of a test whose own case count is `cases_default`, given the values of
/// [`CASES_VAR`] and [`SEED_VAR`] (`None` when unset) and a source of a fresh seed, called only
/// when no seed is given. Surrounding spaces are ignored; anything else that is not a number in
/// range is an error naming the variable, never a silent fallback to a random seed.
pub(crate) fn property_run(
    cases_default: u32,
    cases_var: Option<&str>,
    seed_var: Option<&str>,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<PropertyRun, PropertyEnvError> {
    let cases = match cases_var {
        None => cases_default,
        Some(value) => match value.trim().parse::<u32>() {
            Ok(cases) if cases > 0 => cases,
            _ => return Err(PropertyEnvError::Cases { value: value.to_owned() }),
        },
    };
    let seed = match seed_var {
        None => fresh_seed(),
        Some(value) => value
            .trim()
            .parse::<u64>()
            .map_err(|_| PropertyEnvError::Seed { value: value.to_owned() })?,
    };
    Ok(PropertyRun { cases, seed })
}

/// The proptest configuration of a run: proptest's defaults (which read the other `PROPTEST_*`
/// variables), with the run's case count and its fixed seed.
pub(crate) fn config_of(run: PropertyRun) -> Config {
    Config { cases: run.cases, rng_seed: RngSeed::Fixed(run.seed), ..Config::default() }
}

/// The configuration of a property test that runs `cases_default` cases unless
/// `PROPTEST_CASES` says otherwise, from the seed `PROPTEST_RNG_SEED` or a fresh one; it prints
/// the seed and the command that replays it (shown by the test harness when the test fails).
/// Use it as `#![proptest_config(proptest_config(256))]`, or with `TestRunner::new`.
///
/// # Panics
///
/// If either variable is set to something that is not a number in range: a replay that
/// silently ran another seed would mislead.
pub fn proptest_config(cases_default: u32) -> Config {
    let cases_var = env_value(CASES_VAR);
    let seed_var = env_value(SEED_VAR);
    let run = property_run(cases_default, cases_var.as_deref(), seed_var.as_deref(), || {
        // A fresh seed per test: the standard library's per-process random hash keys.
        std::collections::hash_map::RandomState::new().hash_one(0u8)
    })
    .unwrap_or_else(|error| panic!("{error}"));
    println!("{}", run.replay_line());
    config_of(run)
}

/// A variable's value, `None` when unset; a value that is not Unicode is kept (lossily) so that
/// it is reported, not ignored.
fn env_value(name: &str) -> Option<String> {
    match std::env::var(name) {
        Ok(value) => Some(value),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(value)) => Some(value.to_string_lossy().into_owned()),
    }
}
