//! Reading what the user names: a built-in scenario by id, a scenario file, a trace file. Every
//! way this can fail is an [`InputError`] that names the file (or id) and, for a malformed
//! file, the field, the line and the column the core's parser reported; the CLI prints it and
//! exits with code 2. Nothing here panics on a file's content.

use std::path::{Path, PathBuf};

use idempotency_lab::program::{HandlerProgram, ProgramError};
use idempotency_lab::sim::{
    CATALOGUE, CatalogueError, ReplayError, Scenario, ScenarioError, Trace, TraceError,
    catalogue_scenario, locate,
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
    #[error("{}", describe_json_error(what, source_name, message, place))]
    Malformed {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The file (or built-in id) read.
        source_name: String,
        /// What went wrong, in plain words.
        message: String,
        /// Where: the path of the field being read (`requests[0].operation.lines[0].qty`,
        /// empty for the whole file), its line and column, and the offending line with a caret
        /// (boxed: kept out of the size of every other error).
        place: Box<Place>,
    },
    /// The JSON reads but is refused: another format version, a dangling reference, a number
    /// out of range. When the refused field is in the file, where it is.
    #[error("{}", describe_refusal(what, source_name, message, place.as_deref()))]
    Invalid {
        /// `scenario` or `trace`.
        what: &'static str,
        /// The file (or built-in id) read.
        source_name: String,
        /// Why, as the core says it.
        message: String,
        /// The refused field's path, line, column and snippet, when the file has it (boxed,
        /// as above).
        place: Option<Box<Place>>,
    },
    /// A built-in scenario does not read: a bug of the catalogue.
    #[error("{0}")]
    Catalogue(CatalogueError),
    /// No lesson of the course has this id.
    #[error("`{name}` is not a lesson of the course; the lessons are: {lessons}")]
    UnknownLesson {
        /// The id as given (shortened).
        name: String,
        /// The lessons' ids.
        lessons: String,
    },
    /// The built-in course does not read: a bug of the course file.
    #[error("the built-in course is refused: {0}")]
    Course(String),
    /// A trace could not be graded: it does not reproduce from its scenario, seed and
    /// choices (edited, relabelled, cut short), or does not replay at all.
    #[error("lesson {lesson}: {message}")]
    Grade {
        /// The lesson.
        lesson: String,
        /// Why.
        message: String,
    },
    /// A `run --inject` choice is malformed or never taken (boxed: a rare error, kept out of
    /// the size of every other).
    #[error(transparent)]
    Inject(Box<crate::inject::InjectError>),
    /// A trace could not be replayed at all.
    #[error("trace `{source_name}` cannot be replayed: {error}")]
    Replay {
        /// The file read.
        source_name: String,
        /// Why.
        error: ReplayError,
    },
}

impl From<crate::inject::InjectError> for InputError {
    fn from(error: crate::inject::InjectError) -> InputError {
        InputError::Inject(Box::new(error))
    }
}

/// Where in a file a refused field is.
#[derive(Clone, Debug)]
pub struct Place {
    /// The field's path.
    pub path: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// The line with a caret under the column.
    pub snippet: String,
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
        .map_err(|error| scenario_error("scenario", name.to_owned(), &text, "", error))?;
    Ok(NamedScenario { source_name: name.to_owned(), scenario })
}

/// The trace in the file at `path`, and the file's text.
pub fn load_trace(path: &Path) -> Result<(Trace, String), InputError> {
    let text = read_text("trace", path)?;
    let source_name = path.display().to_string();
    let trace = Trace::from_json(&text).map_err(|error| match error {
        TraceError::Json(error) => scenario_error("trace", source_name, &text, "", error),
        TraceError::Scenario(error) => {
            scenario_error("trace", source_name, &text, "scenario.", error)
        }
        TraceError::UnsupportedVersion { .. } => {
            invalid("trace", source_name, &text, "format_version", &error)
        }
        TraceError::TooManySteps { .. } => invalid("trace", source_name, &text, "steps", &error),
    })?;
    Ok((trace, text))
}

/// The handler program in the file at `path`: a malformed file names the line, the column and
/// the field; a refused one the block (`blocks[3]`) and where it is.
pub fn load_program(path: &Path) -> Result<HandlerProgram, InputError> {
    let text = read_text("program", path)?;
    let source_name = path.display().to_string();
    HandlerProgram::from_json(&text).map_err(|error| match error {
        ProgramError::Json { path, line, column, message } => {
            let snippet = snippet(&text, line, column);
            let place = Box::new(Place { path, line, column, snippet });
            InputError::Malformed { what: "program", source_name, message, place }
        }
        other => {
            let field = other.field().unwrap_or_default();
            invalid("program", source_name, &text, &field, &other)
        }
    })
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

/// The input error for a refused scenario (or a trace's scenario, its fields under `prefix`),
/// with the refused field's place in `text` when it can be found there.
fn scenario_error(
    what: &'static str,
    source_name: String,
    text: &str,
    prefix: &str,
    error: ScenarioError,
) -> InputError {
    match error {
        ScenarioError::Json { path, line, column, message } => {
            let snippet = snippet(text, line, column);
            let place = Box::new(Place { path, line, column, snippet });
            InputError::Malformed { what, source_name, message, place }
        }
        other => {
            let field = other.field().map(|field| format!("{prefix}{field}")).unwrap_or_default();
            invalid(what, source_name, text, &field, &other)
        }
    }
}

fn invalid(
    what: &'static str,
    source_name: String,
    text: &str,
    path: &str,
    error: &dyn std::fmt::Display,
) -> InputError {
    let place = locate(text, path).map(|(line, column)| {
        Box::new(Place {
            path: path.to_owned(),
            line,
            column,
            snippet: snippet(text, line, column),
        })
    });
    InputError::Invalid { what, source_name, message: error.to_string(), place }
}

/// How much of a long line the snippet shows on each side of the column.
const SNIPPET_CHARS_EACH_SIDE: usize = 60;

/// The line `line` of `text` (a window of it around `column` if it is long), numbered, with a
/// caret under `column`.
fn snippet(text: &str, line: usize, column: usize) -> String {
    let Some(line_text) = line.checked_sub(1).and_then(|index| text.lines().nth(index)) else {
        return String::new();
    };
    let chars: Vec<char> = line_text.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    let caret_at = column.saturating_sub(1).min(chars.len());
    let start = caret_at.saturating_sub(SNIPPET_CHARS_EACH_SIDE);
    let end = (caret_at + SNIPPET_CHARS_EACH_SIDE).min(chars.len());
    let mut shown: String = chars.get(start..end).unwrap_or_default().iter().collect();
    let mut caret_column = caret_at - start;
    if start > 0 {
        shown.insert_str(0, "...");
        caret_column += 3;
    }
    if end < chars.len() {
        shown.push_str("...");
    }
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    format!("{gutter} |\n{number} | {shown}\n{gutter} | {}^", " ".repeat(caret_column))
}

fn describe_json_error(what: &str, source_name: &str, message: &str, place: &Place) -> String {
    let Place { path, line, column, snippet } = place;
    let field = if path.is_empty() { String::new() } else { format!("\n  field:   `{path}`") };
    format!(
        "{what} file `{source_name}` is malformed\n  at:      line {line}, column {column}{field}\n  problem: {message}\n{snippet}"
    )
}

fn describe_refusal(what: &str, source_name: &str, message: &str, place: Option<&Place>) -> String {
    match place {
        None => format!("{what} `{source_name}` is refused: {message}"),
        Some(place) => format!(
            "{what} `{source_name}` is refused: {message}\n  at:      line {}, column {}\n  field:   `{}`\n{}",
            place.line, place.column, place.path, place.snippet
        ),
    }
}
