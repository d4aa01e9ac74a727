//! Reading what the user names: a built-in scenario by id, a scenario file, a trace file. Every
//! way this can fail is an [`InputError`] that names the file (or id) and, for a malformed
//! file, the field, the line and the column the core's parser reported; the CLI prints it and
//! exits with code 2. Nothing here panics on a file's content.

use std::path::{Path, PathBuf};

use idempotency_lab::sim::{
    CATALOGUE, CatalogueError, ReplayError, Scenario, ScenarioError, Trace, TraceError,
    catalogue_scenario,
};
use thiserror::Error;

/// Why a command's input could not be had. Each is a usage or input error: exit code 2.
#[derive(Debug, Error)]
pub enum InputError {
    /// The argument is neither a built-in id nor an existing file.
    #[error(
        "`{name}` is neither a built-in scenario nor a file (`idempotency-lab list` shows the built-in ids)"
    )]
    UnknownScenario {
        /// The argument as given.
        name: String,
    },
    /// The file does not exist.
    #[error("{what} file `{}` does not exist", path.display())]
    FileMissing {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
    },
    /// The file exists but cannot be read.
    #[error("{what} file `{}` cannot be read: {message}", path.display())]
    FileUnreadable {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// The file is not UTF-8 text.
    #[error(
        "{what} file `{}` is not UTF-8 text: invalid byte at line {line}, column {column}",
        path.display()
    )]
    NotUtf8 {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The line of the first invalid byte, from 1.
        line: usize,
        /// Its column (in characters), from 1.
        column: usize,
    },
    /// The JSON does not read as a scenario or a trace.
    #[error("{}", describe_json_error(what, source_name, line, column, field.as_deref(), message))]
    Malformed {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The file (or built-in id) read.
        source_name: String,
        /// The field being read, when the parser could tell.
        field: Option<String>,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What went wrong, without the parser's own "at line L column C" suffix.
        message: String,
    },
    /// The JSON reads but is refused: another format version, a dangling reference, a number
    /// out of range.
    #[error("{what} `{source_name}` is refused: {message}")]
    Invalid {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The file (or built-in id) read.
        source_name: String,
        /// Why, as the core says it.
        message: String,
    },
    /// A built-in scenario does not read: a bug of the catalogue.
    #[error("{0}")]
    Catalogue(CatalogueError),
    /// A trace could not be replayed at all.
    #[error("trace `{source_name}` cannot be replayed: {error}")]
    Replay {
        /// The file read.
        source_name: String,
        /// Why.
        error: ReplayError,
    },
}

/// A scenario and where it came from.
#[derive(Clone, Debug)]
pub struct NamedScenario {
    /// The built-in id or the file's path, for messages.
    pub source_name: String,
    /// The scenario.
    pub scenario: Scenario,
}

/// The built-in scenario `name`, or else the scenario in the file at path `name`.
pub fn load_scenario(name: &str) -> Result<NamedScenario, InputError> {
    if CATALOGUE.iter().any(|entry| entry.id == name) {
        let scenario = catalogue_scenario(name).map_err(InputError::Catalogue)?;
        return Ok(NamedScenario { source_name: name.to_owned(), scenario });
    }
    let path = Path::new(name);
    if !path.exists() && !looks_like_a_path(name) {
        return Err(InputError::UnknownScenario { name: name.to_owned() });
    }
    let text = read_text("scenario", path)?;
    let scenario = Scenario::from_json(&text)
        .map_err(|error| scenario_error("scenario", name.to_owned(), error))?;
    Ok(NamedScenario { source_name: name.to_owned(), scenario })
}

/// The trace in the file at `path`, and the file's text.
pub fn load_trace(path: &Path) -> Result<(Trace, String), InputError> {
    let text = read_text("trace", path)?;
    let source_name = path.display().to_string();
    let trace = Trace::from_json(&text).map_err(|error| match error {
        TraceError::Json(error) => scenario_error("trace", source_name, error),
        TraceError::UnsupportedVersion { .. } => {
            InputError::Invalid { what: "trace", source_name, message: error.to_string() }
        }
        TraceError::Scenario(error) => InputError::Invalid {
            what: "trace",
            source_name,
            message: format!("its scenario: {error}"),
        },
    })?;
    Ok((trace, text))
}

/// Whether an argument that names no existing file was meant as a path rather than an id.
fn looks_like_a_path(name: &str) -> bool {
    name.contains('/') || name.contains('\\') || name.ends_with(".json")
}

fn read_text(what: &'static str, path: &Path) -> Result<String, InputError> {
    let bytes = std::fs::read(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => InputError::FileMissing { what, path: path.to_owned() },
        _ => InputError::FileUnreadable { what, path: path.to_owned(), message: error.to_string() },
    })?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.as_bytes().get(..error.utf8_error().valid_up_to()).unwrap_or_default();
        // The prefix is valid UTF-8 by construction; the fallback is never used.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
        InputError::NotUtf8 { what, path: path.to_owned(), line, column }
    })
}

fn scenario_error(what: &'static str, source_name: String, error: ScenarioError) -> InputError {
    match error {
        ScenarioError::Json { field, line, column, message } => {
            let suffix = format!(" at line {line} column {column}");
            let message = message.strip_suffix(&suffix).unwrap_or(&message).to_owned();
            InputError::Malformed { what, source_name, field, line, column, message }
        }
        other => InputError::Invalid { what, source_name, message: other.to_string() },
    }
}

fn describe_json_error(
    what: &str,
    source_name: &str,
    line: &usize,
    column: &usize,
    field: Option<&str>,
    message: &str,
) -> String {
    let field = match field {
        Some(field) => format!("\n  field:   `{field}`"),
        None => String::new(),
    };
    format!(
        "{what} file `{source_name}` is malformed\n  at:      line {line}, column {column}{field}\n  problem: {message}"
    )
}
