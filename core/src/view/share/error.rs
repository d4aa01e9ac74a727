//! Why a link could not be read or opened: [`ShareError`], each variant naming the field and
//! what was wrong with it.

use thiserror::Error;

use crate::sim::{ApplyError, RunError, ScenarioError};

/// Why a link could not be read or opened.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShareError {
    /// The fragment is empty.
    #[error("the link has no fragment to read")]
    Empty,
    /// The link is longer than any accepted run's link could be ([`crate::sim::bounds::LINK`]).
    #[error("the link has {chars} characters, more than the {max} accepted")]
    TooLong {
        /// Its length.
        chars: usize,
        /// The most accepted.
        max: u64,
    },
    /// A part between `&`s has no `=`.
    #[error("the link's part {part:?} is not of the form name=value")]
    MalformedPart {
        /// The part (its first characters).
        part: String,
    },
    /// A field this format does not know.
    #[error("the link has an unknown field {field:?}")]
    UnknownField {
        /// The field's name (its first characters).
        field: String,
    },
    /// A field given twice.
    #[error("the link gives the field {field:?} twice")]
    DuplicateField {
        /// The field's name.
        field: String,
    },
    /// A required field is missing.
    #[error("the link lacks the field {field}")]
    MissingField {
        /// The field (`v`, `seed`, `step`, or `s or j`).
        field: String,
    },
    /// The link is of another format version.
    #[error("link format version {found:?} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        /// The version in the link (its first characters).
        found: String,
        /// The version this build reads.
        supported: u32,
    },
    /// Both `s` and `j` are given.
    #[error("the link gives both a catalogue scenario (s) and an inline one (j)")]
    ConflictingScenario,
    /// No built-in scenario has this id.
    #[error("no built-in scenario is called {id:?}")]
    UnknownScenario {
        /// The id (its first characters).
        id: String,
    },
    /// The seed is not a number from 0 to 2^64 - 1.
    #[error("the seed {value:?} is not a number from 0 to 18446744073709551615: {message}")]
    BadSeed {
        /// The value (its first characters).
        value: String,
        /// Why.
        message: String,
    },
    /// The step is not a number.
    #[error("the step {value:?} is not a step number: {message}")]
    BadStep {
        /// The value (its first characters).
        value: String,
        /// Why.
        message: String,
    },
    /// The presenter switch is neither `1` nor `0`.
    #[error("the presenter switch {value:?} is neither 1 (on) nor 0 (off)")]
    BadPresenter {
        /// The value (its first characters).
        value: String,
    },
    /// The pattern switches are not four letters `n`/`i`.
    #[error("the patterns {value:?} are not four letters n (naive) or i (idempotent), P1 to P4")]
    BadPatterns {
        /// The value (its first characters).
        value: String,
    },
    /// A field is not base64url.
    #[error("the field {field} is not base64url: {message}")]
    BadBase64 {
        /// `j` or `u`.
        field: String,
        /// What the decoder said (with the offending position).
        message: String,
    },
    /// A field's decoded bytes are not UTF-8.
    #[error("the field {field} does not decode to UTF-8 text (byte {valid_up_to} is wrong)")]
    NotUtf8 {
        /// `j` or `u`.
        field: String,
        /// How many bytes were valid.
        valid_up_to: usize,
    },
    /// The user's choices do not read as JSON.
    #[error("the field {field} is not valid JSON at line {line}, column {column}: {message}")]
    BadJson {
        /// `u`.
        field: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// The inline scenario (`j`), or the built-in one, is refused.
    #[error("the link's scenario: {error}")]
    InvalidScenario {
        /// Why.
        error: ScenarioError,
    },
    /// The learner's choices are not in strictly increasing step order from step 1.
    #[error(
        "the user's choice at step {step} comes after step {previous}: steps must increase from 1"
    )]
    UserChoiceOutOfOrder {
        /// The step of the choice.
        step: usize,
        /// The step of the choice before it (0 for the first).
        previous: usize,
    },
    /// The run stopped before the step of a user's choice.
    #[error("the user's choice at step {step} is never reached: the run stops after {steps} steps")]
    UserChoiceNotReached {
        /// The step of the choice.
        step: usize,
        /// The steps of the run.
        steps: usize,
    },
    /// A user's choice is not enabled at its step.
    #[error("the user's choice at step {step} cannot be taken: {error}")]
    UserChoiceRefused {
        /// The step of the choice.
        step: usize,
        /// Why.
        error: ApplyError,
    },
    /// The link's step is beyond the end of the run.
    #[error("step {step} is beyond the {steps} steps of the run")]
    StepBeyondRun {
        /// The link's step.
        step: usize,
        /// The steps of the run.
        steps: usize,
    },
}

impl From<RunError> for ShareError {
    fn from(error: RunError) -> ShareError {
        match error {
            RunError::Scenario(error) => ShareError::InvalidScenario { error },
            RunError::ChoiceOutOfOrder { step, previous } => {
                ShareError::UserChoiceOutOfOrder { step, previous }
            }
            RunError::ChoiceRefused { step, error } => {
                ShareError::UserChoiceRefused { step, error }
            }
            RunError::ChoiceNotReached { step, steps } => {
                ShareError::UserChoiceNotReached { step, steps }
            }
        }
    }
}
