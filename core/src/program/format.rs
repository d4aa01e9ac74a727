//! The handler program as a file: a versioned, strict JSON format (`deny_unknown_fields`, one
//! tagged object per block) that the page, the CLI and the course all read with
//! [`HandlerProgram::from_json`], whose errors name the path, the line and the column.
//!
//! ```
//! use idempotency_lab::program::HandlerProgram;
//!
//! let text = r#"{"format_version": 1, "handler": "reserve_stock_consumer", "blocks": [
//!     {"block": "begin"}, {"block": "for_each_line"},
//!     {"block": "take_stock", "guard": "none"},
//!     {"block": "insert_reservation", "on_conflict": "add_qty"},
//!     {"block": "next_line"}, {"block": "commit"}, {"block": "ack"}]}"#;
//! let program = HandlerProgram::from_json(text).unwrap();
//! assert_eq!(program.blocks.len(), 7);
//! assert!(HandlerProgram::from_json(&text.replace("\"ack\"", "\"acknowledge\"")).is_err());
//! ```

use serde::{Deserialize, Serialize};

use crate::program::ProgramError;
use crate::program::block::Block;

/// The newest version of the program format this crate reads and writes. Version 1 has the
/// reserve-stock consumer only; version 2 adds `MarkPaid`. Every version-1 program is read as
/// it was, and a program is written in the oldest version that holds its handler
/// ([`HandlerKind::format_version_min`]), so a consumer program still writes version 1.
pub(crate) const PROGRAM_FORMAT_VERSION: u32 = 2;

/// The longest program file read, in bytes.
pub(crate) const PROGRAM_JSON_BYTES_MAX: usize = 64 * 1024;

/// The most blocks a program may hold.
pub(crate) const BLOCKS_MAX: usize = 64;

/// Which handler a program stands in for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandlerKind {
    /// The reserve-stock consumer of `OrderPlaced` (P4 around P1): the seed's
    /// `ReserveStockConsumer`.
    ReserveStockConsumer,
    /// `POST /orders/{id}/payments`, the seed's `MarkPaid` (P2): the order moves to paid
    /// and the payment is charged, once.
    MarkPaid,
}

impl HandlerKind {
    /// Every handler a program may stand in for.
    pub const ALL: [HandlerKind; 2] = [HandlerKind::ReserveStockConsumer, HandlerKind::MarkPaid];

    /// The first format version that has this handler.
    pub(crate) fn format_version_min(self) -> u32 {
        match self {
            HandlerKind::ReserveStockConsumer => 1,
            HandlerKind::MarkPaid => 2,
        }
    }

    /// Its name in the JSON (`mark_paid`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            HandlerKind::ReserveStockConsumer => "reserve_stock_consumer",
            HandlerKind::MarkPaid => "mark_paid",
        }
    }
}

/// A handler assembled from blocks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandlerProgram {
    /// [`PROGRAM_FORMAT_VERSION`].
    pub(crate) format_version: u32,
    /// The handler it replaces.
    pub handler: HandlerKind,
    /// The blocks, run from the first.
    pub blocks: Vec<Block>,
}

impl HandlerProgram {
    /// A program of `blocks` for `handler`, in the oldest format version that has `handler`.
    pub(crate) fn new(handler: HandlerKind, blocks: Vec<Block>) -> HandlerProgram {
        HandlerProgram { format_version: handler.format_version_min(), handler, blocks }
    }

    /// Reads a program and validates it ([`crate::program::compile`]): the first mistake is a
    /// typed [`ProgramError`] naming the block (or the JSON's path, line and column).
    pub fn from_json(text: &str) -> Result<HandlerProgram, ProgramError> {
        if text.len() > PROGRAM_JSON_BYTES_MAX {
            return Err(ProgramError::TooLong {
                bytes: text.len(),
                bytes_max: PROGRAM_JSON_BYTES_MAX,
            });
        }
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let program: HandlerProgram =
            serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
                let path = error.path().to_string();
                let path = path.trim_end_matches(".?").trim_end_matches('?');
                let path = if path == "." { String::new() } else { path.to_owned() };
                json_error(path, error.inner())
            })?;
        deserializer.end().map_err(|error| json_error(String::new(), &error))?;
        unknown_fields(text, &program)?;
        crate::program::compile(&program)?;
        Ok(program)
    }

    /// The program as pretty JSON, one block a line as the examples are written.
    #[cfg(test)]
    pub(crate) fn to_json(&self) -> String {
        let blocks: Vec<String> = self
            .blocks
            .iter()
            // Plain data always serializes; the fallback is never used.
            .map(|block| format!("    {}", serde_json::to_string(block).unwrap_or_default()))
            .collect();
        let handler = serde_json::to_string(&self.handler).unwrap_or_default();
        format!(
            "{{\n  \"format_version\": {},\n  \"handler\": {handler},\n  \"blocks\": [\n{}\n  ]\n}}\n",
            self.format_version,
            blocks.join(",\n")
        )
    }
}

/// Serde's `deny_unknown_fields` lets a block without parameters (`{"block": "ack"}`) carry
/// any other field; this refuses them too: a block's fields are exactly those it writes.
fn unknown_fields(text: &str, program: &HandlerProgram) -> Result<(), ProgramError> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return Ok(()) };
    let Some(blocks) = value.get("blocks").and_then(serde_json::Value::as_array) else {
        return Ok(());
    };
    for (index, (read, block)) in blocks.iter().zip(&program.blocks).enumerate() {
        let written = serde_json::to_value(block).unwrap_or_default();
        if let (Some(read), Some(written)) = (read.as_object(), written.as_object())
            && let Some(field) = read.keys().find(|field| !written.contains_key(*field))
        {
            return Err(ProgramError::UnknownField {
                index,
                block: block.name().to_owned(),
                field: field.clone(),
            });
        }
    }
    Ok(())
}

fn json_error(path: String, error: &serde_json::Error) -> ProgramError {
    let (line, column) = (error.line(), error.column());
    let message = error.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = message.strip_suffix(&suffix).unwrap_or(&message).to_owned();
    ProgramError::Json { path, line, column, message }
}
