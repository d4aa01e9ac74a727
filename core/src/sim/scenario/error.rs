//! Why a scenario is refused: [`ScenarioError`], a typed error naming the field, for the JSON that
//! does not read and for every bound or reference a read scenario breaks.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::program::ProgramError;
use crate::sim::action::RequestIndex;

/// Why a scenario was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ScenarioError {
    /// The consumer program is not a valid program.
    #[error("consumer_program: {0}")]
    Program(ProgramError),
    /// The `MarkPaid` program is not a valid program.
    #[error("mark_paid_program: {0}")]
    MarkPaidProgram(ProgramError),
    /// A program in the field of another handler.
    #[error("{field}: a {handler} program cannot stand in for this handler")]
    ProgramForAnotherHandler {
        /// `consumer_program` or `mark_paid_program`.
        field: String,
        /// The program's handler.
        handler: String,
    },
    /// The JSON does not read as a scenario (or a trace).
    #[error("{}", describe_json_error(path, *line, *column, message))]
    Json {
        /// The path of the field being read, such as `requests[0].operation.lines[0].qty`;
        /// empty for the whole value.
        path: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What went wrong, in plain words (serde_json's message, without its position).
        message: String,
    },
    /// The file is of another format version.
    #[error("scenario format_version {found} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A request or injection names a request that does not exist.
    #[error("{field} names request {}, but the scenario has {requests} requests", request.0)]
    UnknownRequest {
        /// Where the reference is, such as `requests[1].operation.order_of`.
        field: String,
        /// The request named.
        request: RequestIndex,
        /// How many requests there are.
        requests: usize,
    },
    /// An order reference names a request that does not place an order.
    #[error("{field} names request {}, which does not place an order", request.0)]
    NotAnOrderRequest {
        /// Where the reference is.
        field: String,
        /// The request named.
        request: RequestIndex,
    },
    /// A number is outside its range ([`crate::sim::bounds`]).
    #[error("{field} is {value}, but must be between {min} and {max}")]
    OutOfRange {
        /// The field's path, such as `requests[0].operation.lines[0].qty`.
        field: String,
        /// Its value.
        value: u64,
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
    /// A number that must not be negative is.
    #[error("{field} is {value}, but must not be negative")]
    Negative {
        /// The field's path.
        field: String,
        /// Its value.
        value: i64,
    },
    /// A list has too many (or too few) entries.
    #[error("{field} has {entries} entries, but must have between {min} and {max}")]
    TooManyEntries {
        /// The list's path, such as `requests` or `requests[3].operation.lines`.
        field: String,
        /// How many it has.
        entries: u64,
        /// The fewest allowed.
        min: u64,
        /// The most allowed.
        max: u64,
    },
    /// A string is too long (or too short).
    #[error("{field} has {chars} characters, but must have between {min} and {max}")]
    BadLength {
        /// The string's path, such as `title`.
        field: String,
        /// How many characters it has.
        chars: u64,
        /// The fewest allowed.
        min: u64,
        /// The most allowed.
        max: u64,
    },
    /// The input is larger than any accepted scenario or trace could be.
    #[error("the input is {bytes} bytes, more than the {max} bytes accepted")]
    TooLarge {
        /// Its size.
        bytes: u64,
        /// The most accepted.
        max: u64,
    },
}

impl ScenarioError {
    /// The path of the field the error is about, when it names one: what a front end points
    /// at (with [`crate::sim::locate`], its line and column in the text).
    pub fn field(&self) -> Option<&str> {
        match self {
            ScenarioError::Json { path, .. } => (!path.is_empty()).then_some(path.as_str()),
            ScenarioError::UnsupportedVersion { .. } => Some("format_version"),
            ScenarioError::UnknownRequest { field, .. }
            | ScenarioError::NotAnOrderRequest { field, .. }
            | ScenarioError::OutOfRange { field, .. }
            | ScenarioError::Negative { field, .. }
            | ScenarioError::TooManyEntries { field, .. }
            | ScenarioError::BadLength { field, .. } => Some(field),
            ScenarioError::TooLarge { .. } => None,
            ScenarioError::Program(_) => Some("consumer_program"),
            ScenarioError::MarkPaidProgram(_) => Some("mark_paid_program"),
            ScenarioError::ProgramForAnotherHandler { field, .. } => Some(field),
        }
    }
}

fn describe_json_error(path: &str, line: usize, column: usize, message: &str) -> String {
    let at = if path.is_empty() { String::new() } else { format!(", at `{path}`") };
    format!("JSON line {line}, column {column}{at}: {message}")
}
