//! The JavaScript API's edge: every argument read from a `JsValue` with a typed error that
//! names it, every core error turned into a `LabError` (a JavaScript `Error` whose `name` is
//! `"LabError"`, with a `kind`, the `field` it is about and, for a scenario or a trace, the
//! `line` and `column` in the text), and results handed over as JSON values. Nothing here
//! decides anything: a wrong argument is refused before the core sees it, and the core's own
//! errors keep their words and their field paths.

use idempotency_lab::faults::FaultClass;
use idempotency_lab::program::ProgramError;
use idempotency_lab::sim::{Pattern, PatternMode, ScenarioError, TraceError, locate};
use idempotency_lab::words::Language;
use wasm_bindgen::{JsCast, JsValue};

/// What kind of wrong a [`LabError`] reports (its `kind` in JavaScript).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An argument of the wrong type or out of its range.
    BadArgument,
    /// No built-in lesson has the id.
    UnknownLesson,
    /// A scenario's JSON does not read or is not valid.
    InvalidScenario,
    /// A trace's JSON does not read, or does not replay.
    InvalidTrace,
    /// A share link cannot be opened.
    InvalidLink,
    /// A handler program's JSON does not read or does not validate.
    InvalidProgram,
    /// The item or the fault asked for does not wait or does not apply now.
    NotApplicable,
    /// The core refused to run (a limit of the scenario, a checker that cannot start).
    RunFailed,
    /// The element cannot host an embed (no DOM, or not an element).
    MountFailed,
    /// The embed was unmounted: it has nothing left to drive.
    Unmounted,
}

impl ErrorKind {
    /// The `kind` string JavaScript sees.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::BadArgument => "BadArgument",
            ErrorKind::UnknownLesson => "UnknownLesson",
            ErrorKind::InvalidScenario => "InvalidScenario",
            ErrorKind::InvalidTrace => "InvalidTrace",
            ErrorKind::InvalidLink => "InvalidLink",
            ErrorKind::InvalidProgram => "InvalidProgram",
            ErrorKind::NotApplicable => "NotApplicable",
            ErrorKind::RunFailed => "RunFailed",
            ErrorKind::MountFailed => "MountFailed",
            ErrorKind::Unmounted => "Unmounted",
        }
    }
}

/// A typed error for JavaScript: thrown as an `Error` named `LabError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabError {
    /// What kind of wrong.
    pub kind: ErrorKind,
    /// The whole message.
    pub message: String,
    /// The argument (`seed`, `options.statesMax`) or the JSON path
    /// (`requests[0].operation.lines[0].qty`) it is about.
    pub field: Option<String>,
    /// Where in the text, for a scenario or a trace: line and column, from 1.
    pub place: Option<(usize, usize)>,
}

impl LabError {
    /// An error of `kind` with `message`, about no field.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> LabError {
        LabError { kind, message: message.into(), field: None, place: None }
    }

    /// A wrong argument `field`: `message` says what it must be.
    pub fn argument(field: &str, message: impl std::fmt::Display) -> LabError {
        LabError {
            kind: ErrorKind::BadArgument,
            message: format!("{field} {message}"),
            field: Some(field.to_owned()),
            place: None,
        }
    }

    /// A scenario that does not read or is not valid, with its field's path and place.
    pub fn scenario(kind: ErrorKind, text: &str, error: &ScenarioError) -> LabError {
        let field = error.field().map(str::to_owned);
        let place = match error {
            ScenarioError::Json { line, column, .. } => Some((*line, *column)),
            _ => field.as_deref().and_then(|field| locate(text, field)),
        };
        LabError { kind, message: error.to_string(), field, place }
    }

    /// A handler program that does not read or does not validate: the field it is about
    /// (`blocks[3]`, `format_version`) and its place in `text`, as the CLI shows them.
    pub fn program(text: &str, error: &ProgramError) -> LabError {
        let field = error.field();
        let place = match error {
            ProgramError::Json { line, column, .. } => Some((*line, *column)),
            _ => field.as_deref().and_then(|field| locate(text, field)),
        };
        LabError { kind: ErrorKind::InvalidProgram, message: error.to_string(), field, place }
    }

    /// A trace that does not read, with its field's path and place when it names one.
    pub fn trace(text: &str, error: &TraceError) -> LabError {
        match error {
            TraceError::Json(inner) => LabError {
                message: error.to_string(),
                ..LabError::scenario(ErrorKind::InvalidTrace, text, inner)
            },
            TraceError::Scenario(inner) => {
                let mut located = LabError::scenario(ErrorKind::InvalidTrace, text, inner);
                located.field = located.field.map(|field| format!("scenario.{field}"));
                located.place = located.field.as_deref().and_then(|field| locate(text, field));
                LabError { message: error.to_string(), ..located }
            }
            TraceError::UnsupportedVersion { .. } => LabError {
                kind: ErrorKind::InvalidTrace,
                message: error.to_string(),
                field: Some("format_version".into()),
                place: locate(text, "format_version"),
            },
            TraceError::TooManySteps { .. } => LabError {
                kind: ErrorKind::InvalidTrace,
                message: error.to_string(),
                field: Some("steps".into()),
                place: locate(text, "steps"),
            },
        }
    }
}

impl From<LabError> for JsValue {
    fn from(error: LabError) -> JsValue {
        let js = js_sys::Error::new(&error.message);
        js.set_name("LabError");
        let set = |key: &str, value: JsValue| {
            js_sys::Reflect::set(&js, &JsValue::from_str(key), &value).ok();
        };
        set("kind", JsValue::from_str(error.kind.code()));
        set("field", error.field.as_deref().map_or(JsValue::NULL, JsValue::from_str));
        let (line, column) =
            error.place.map_or((JsValue::NULL, JsValue::NULL), |(line, column)| {
                (JsValue::from(line as f64), JsValue::from(column as f64))
            });
        set("line", line);
        set("column", column);
        js.into()
    }
}

/// The first fault class of the table, which argument errors name with the last as a range
/// (`F1 to F12` while the table has twelve).
pub const FIRST_CLASS: FaultClass = FaultClass::ALL[0];
/// The last fault class of the table.
pub const LAST_CLASS: FaultClass = FaultClass::ALL[FaultClass::ALL.len() - 1];

/// What a value is, for a message: `a number (NaN)`, `a string`, `undefined`.
pub fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if let Some(number) = value.as_f64() {
        return format!("the number {number}");
    }
    if let Some(text) = value.as_string() {
        let shown: String = text.chars().take(40).collect();
        return format!("the string {shown:?}");
    }
    if value.is_bigint() {
        return "a bigint out of range".into();
    }
    if js_sys::Array::is_array(value) {
        return "an array".into();
    }
    match value.js_typeof().as_string().as_deref() {
        Some("object") => "an object".into(),
        Some(other) => format!("a {other}"),
        None => "a value of unknown type".into(),
    }
}

/// A string argument.
pub fn string(value: &JsValue, field: &str) -> Result<String, LabError> {
    value.as_string().ok_or_else(|| {
        LabError::argument(field, format!("must be a string, not {}", describe(value)))
    })
}

/// An integer argument within `min..=max`: a number (a safe integer) or a bigint.
pub fn integer(value: &JsValue, field: &str, min: u64, max: u64) -> Result<u64, LabError> {
    let wrong = || {
        LabError::argument(
            field,
            format!("must be an integer from {min} to {max}, not {}", describe(value)),
        )
    };
    let parsed = if let Some(number) = value.as_f64() {
        let safe = number.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&number);
        safe.then_some(number as u64)
    } else if value.is_bigint() {
        value
            .dyn_ref::<js_sys::BigInt>()
            .and_then(|big| big.to_string(10).ok())
            .and_then(|text| String::from(text).parse::<u64>().ok())
    } else {
        None
    };
    parsed.filter(|number| (min..=max).contains(number)).ok_or_else(wrong)
}

/// `p1`..`p4` (either case).
pub fn pattern(value: &JsValue, field: &str) -> Result<Pattern, LabError> {
    let wrong = || {
        LabError::argument(
            field,
            format!("must be \"p1\", \"p2\", \"p3\" or \"p4\", not {}", describe(value)),
        )
    };
    match value.as_string().map(|text| text.to_ascii_lowercase()).as_deref() {
        Some("p1") => Ok(Pattern::P1),
        Some("p2") => Ok(Pattern::P2),
        Some("p3") => Ok(Pattern::P3),
        Some("p4") => Ok(Pattern::P4),
        _ => Err(wrong()),
    }
}

/// `naive` or `idempotent`.
pub fn mode(value: &JsValue, field: &str) -> Result<PatternMode, LabError> {
    match value.as_string().as_deref() {
        Some("naive") => Ok(PatternMode::Naive),
        Some("idempotent") => Ok(PatternMode::Idempotent),
        _ => Err(LabError::argument(
            field,
            format!("must be \"naive\" or \"idempotent\", not {}", describe(value)),
        )),
    }
}

/// A language of the lab's words, by its code (`"en"`, `"ru"`).
pub fn language(value: &JsValue, field: &str) -> Result<Language, LabError> {
    value.as_string().and_then(|code| code.parse().ok()).ok_or_else(|| {
        let codes: Vec<String> =
            Language::ALL.iter().map(|language| format!("\"{}\"", language.code())).collect();
        LabError::argument(
            field,
            format!("must be {}, not {}", codes.join(" or "), describe(value)),
        )
    })
}

/// An options object (`undefined` and `null` read as `{}`): its field `key`, `undefined` if
/// absent.
pub fn option(options: &JsValue, field: &str, key: &str) -> Result<JsValue, LabError> {
    if options.is_undefined() || options.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(LabError::argument(
            field,
            format!("must be an object, not {}", describe(options)),
        ));
    }
    js_sys::Reflect::get(options, &JsValue::from_str(key))
        .map_err(|_| LabError::argument(field, format!("has a `{key}` that cannot be read")))
}

/// The field `key` of the options object `options` (`undefined` and `null` read as `{}`) read
/// by `read`, which names it `options.<key>` in its error; `default` when it is absent.
pub fn option_or<T>(
    options: &JsValue,
    key: &str,
    default: T,
    read: impl FnOnce(&JsValue, &str) -> Result<T, LabError>,
) -> Result<T, LabError> {
    match option(options, "options", key)? {
        value if value.is_undefined() => Ok(default),
        value => read(&value, &format!("options.{key}")),
    }
}

/// An optional `AbortSignal` (anything with an `aborted` flag): `undefined` or `null` is none,
/// handed back as `undefined`.
pub fn signal(value: &JsValue, field: &str) -> Result<JsValue, LabError> {
    if value.is_undefined() || value.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    let has_flag = value.is_object()
        && js_sys::Reflect::has(value, &JsValue::from_str("aborted")).unwrap_or(false);
    if !has_flag {
        return Err(LabError::argument(
            field,
            format!("must be an AbortSignal, not {}", describe(value)),
        ));
    }
    Ok(value.clone())
}

/// An optional callback: `undefined` or `null` is none.
pub fn callback(value: &JsValue, field: &str) -> Result<Option<js_sys::Function>, LabError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.dyn_ref::<js_sys::Function>().cloned().map(Some).ok_or_else(|| {
        LabError::argument(field, format!("must be a function, not {}", describe(value)))
    })
}

/// A serializable value as a JavaScript value (through JSON: plain objects, arrays,
/// strings, numbers).
pub fn to_js(value: &impl serde::Serialize) -> JsValue {
    serde_json::to_string(value)
        .ok()
        .and_then(|json| js_sys::JSON::parse(&json).ok())
        .unwrap_or(JsValue::NULL)
}
