//! Why a program was refused: [`ProgramError`], one variant a mistake, naming the block (counted
//! from 0 as the JSON's `blocks`) and, through [`ProgramError::field`], the field of the JSON
//! that the page, the package and the CLI point at.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a program was refused. Every variant names the block (`index`, from 0) where it can.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ProgramError {
    /// The file is longer than a program can be.
    #[error("the program is {bytes} bytes long; the most is {bytes_max}")]
    TooLong {
        /// Its length.
        bytes: usize,
        /// The limit.
        bytes_max: usize,
    },
    /// The JSON does not read as a program.
    #[error("JSON line {line}, column {column}{}: {message}", at_path(path))]
    Json {
        /// The field being read, such as `blocks[3].on_conflict`; empty for the whole file.
        path: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What went wrong.
        message: String,
    },
    /// A block carries a field it does not have.
    #[error("block {index}: {block} has no field `{field}`")]
    UnknownField {
        /// The block.
        index: usize,
        /// Its name.
        block: String,
        /// The field.
        field: String,
    },
    /// Another version of the format.
    #[error("program format_version {found} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        /// The file's version.
        found: u32,
        /// The version read.
        supported: u32,
    },
    /// A handler that the file's format version does not have yet.
    #[error(
        "handler {handler} needs program format_version {needed} or later (the file says {found})"
    )]
    HandlerNeedsNewerVersion {
        /// The handler's name.
        handler: String,
        /// The file's version.
        found: u32,
        /// The first version with the handler.
        needed: u32,
    },
    /// No blocks.
    #[error("the program has no blocks")]
    Empty,
    /// A block of another handler's palette.
    #[error("block {index}: {block} is not a block of the {handler} handler")]
    BlockNotForHandler {
        /// The block.
        index: usize,
        /// Its name.
        block: String,
        /// The program's handler.
        handler: String,
    },
    /// A status skip with no `select_order` read before it on some path.
    #[error("block {index}: the skip has no order status to read (put a select_order before it)")]
    SkipWithoutOrderRead {
        /// The skip.
        index: usize,
    },
    /// `answer_paid` with the transaction still open: the client would hear "paid" before the
    /// payment is committed.
    #[error("block {index}: answer_paid with the transaction still open (COMMIT first)")]
    AnswerInTransaction {
        /// The block.
        index: usize,
    },
    /// A `MarkPaid` path that reaches the end without an answer.
    #[error("the program can end without answering (end every path with answer_paid or refuse)")]
    MissingAnswer,
    /// More blocks than a program may hold.
    #[error("the program has {count} blocks; the most is {max}")]
    TooManyBlocks {
        /// How many.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A label's name is empty, too long, or not of `a-z`, `0-9`, `_`, `-`.
    #[error("block {index}: the label `{name}` must be 1 to 32 of a-z, 0-9, _ and -")]
    InvalidLabel {
        /// The block.
        index: usize,
        /// The name.
        name: String,
    },
    /// Two labels of one name.
    #[error("block {index}: the label `{name}` is already at block {first_index}")]
    DuplicateLabel {
        /// The second label.
        index: usize,
        /// The name.
        name: String,
        /// The first label of that name.
        first_index: usize,
    },
    /// A skip to a label that no block has.
    #[error("block {index}: no label `{label}` to skip to")]
    UnknownLabel {
        /// The skip.
        index: usize,
        /// The label.
        label: String,
    },
    /// A skip to a label above it: skips go forward only, so a program always ends.
    #[error(
        "block {index}: the label `{label}` is above the skip (block {target}); skips go forward"
    )]
    JumpBackwards {
        /// The skip.
        index: usize,
        /// The label.
        label: String,
        /// The label's block.
        target: usize,
    },
    /// A skip into the body of a loop from outside it (or from another loop).
    #[error(
        "block {index}: the label `{label}` is inside a loop over the lines the skip is not in"
    )]
    JumpIntoLoop {
        /// The skip.
        index: usize,
        /// The label.
        label: String,
    },
    /// A loop inside a loop.
    #[error("block {index}: a loop over the lines inside another one")]
    NestedLoop {
        /// The inner `for_each_line`.
        index: usize,
    },
    /// `next_line` with no loop open.
    #[error("block {index}: next_line without for_each_line before it")]
    NextLineWithoutLoop {
        /// The block.
        index: usize,
    },
    /// A loop that never reaches its `next_line`.
    #[error("block {index}: for_each_line without next_line after it")]
    LoopNotClosed {
        /// The `for_each_line`.
        index: usize,
    },
    /// A statement about one order line outside the loop over the lines.
    #[error("block {index}: {block} is about one order line and must be inside for_each_line")]
    LineStatementOutsideLoop {
        /// The block.
        index: usize,
        /// Its name.
        block: String,
    },
    /// No `ACK`: the broker would deliver the message forever.
    #[error("the program never acknowledges the message (no ack block)")]
    MissingAck,
    /// A second `ACK`.
    #[error("block {index}: a second ack (the first is block {first_index})")]
    SecondAck {
        /// The second.
        index: usize,
        /// The first.
        first_index: usize,
    },
    /// `ACK` inside the loop would acknowledge once per line.
    #[error("block {index}: ack inside the loop over the lines")]
    AckInLoop {
        /// The block.
        index: usize,
    },
    /// A skip with no row count to read: the block before it is not a statement that reports
    /// rows.
    #[error(
        "block {index}: the skip has no row count to read (put it right after an INSERT, SELECT or UPDATE)"
    )]
    SkipWithoutRowCount {
        /// The skip.
        index: usize,
    },
    /// `BEGIN` while a transaction is open.
    #[error("block {index}: BEGIN while a transaction is already open")]
    BeginInTransaction {
        /// The block.
        index: usize,
    },
    /// A statement with no transaction open.
    #[error("block {index}: {block} runs with no transaction open (BEGIN first)")]
    StatementOutsideTransaction {
        /// The block.
        index: usize,
        /// Its name.
        block: String,
    },
    /// `COMMIT` or `ROLLBACK` with no transaction open.
    #[error("block {index}: {block} without BEGIN")]
    EndWithoutBegin {
        /// The block.
        index: usize,
        /// `commit` or `rollback`.
        block: String,
    },
    /// A path ends with its transaction open.
    #[error("the program can end with a transaction open (opened at block {begin_index})")]
    TransactionLeftOpen {
        /// The `BEGIN` of the open transaction, as far as it is known.
        begin_index: usize,
    },
}

impl ProgramError {
    /// The block the error names, if it names one.
    pub fn block_index(&self) -> Option<usize> {
        match self {
            ProgramError::UnknownField { index, .. }
            | ProgramError::InvalidLabel { index, .. }
            | ProgramError::DuplicateLabel { index, .. }
            | ProgramError::UnknownLabel { index, .. }
            | ProgramError::JumpBackwards { index, .. }
            | ProgramError::JumpIntoLoop { index, .. }
            | ProgramError::NestedLoop { index }
            | ProgramError::NextLineWithoutLoop { index }
            | ProgramError::LoopNotClosed { index }
            | ProgramError::LineStatementOutsideLoop { index, .. }
            | ProgramError::SecondAck { index, .. }
            | ProgramError::AckInLoop { index }
            | ProgramError::SkipWithoutRowCount { index }
            | ProgramError::BeginInTransaction { index }
            | ProgramError::StatementOutsideTransaction { index, .. }
            | ProgramError::EndWithoutBegin { index, .. }
            | ProgramError::BlockNotForHandler { index, .. }
            | ProgramError::SkipWithoutOrderRead { index }
            | ProgramError::AnswerInTransaction { index } => Some(*index),
            ProgramError::TransactionLeftOpen { begin_index } => Some(*begin_index),
            ProgramError::TooLong { .. }
            | ProgramError::Json { .. }
            | ProgramError::UnsupportedVersion { .. }
            | ProgramError::Empty
            | ProgramError::TooManyBlocks { .. }
            | ProgramError::MissingAck
            | ProgramError::HandlerNeedsNewerVersion { .. }
            | ProgramError::MissingAnswer => None,
        }
    }

    /// The field of the program's JSON the error is about, as the page and the CLI point at
    /// it: the JSON's own path for a text that does not read, `format_version` for a version
    /// refused, `blocks[i]` for a block, `blocks` for what the blocks lack or have too many of;
    /// `None` for the whole text (too long) or a JSON error at its root.
    pub fn field(&self) -> Option<String> {
        match self {
            ProgramError::Json { path, .. } => (!path.is_empty()).then(|| path.clone()),
            ProgramError::UnsupportedVersion { .. }
            | ProgramError::HandlerNeedsNewerVersion { .. } => Some("format_version".to_owned()),
            ProgramError::Empty
            | ProgramError::TooManyBlocks { .. }
            | ProgramError::MissingAck
            | ProgramError::MissingAnswer => Some("blocks".to_owned()),
            ProgramError::TooLong { .. } => None,
            other => other.block_index().map(|index| format!("blocks[{index}]")),
        }
    }
}

fn at_path(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!(", at `{path}`") }
}
