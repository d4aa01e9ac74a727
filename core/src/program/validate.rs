//! The validator and compiler: a [`HandlerProgram`] becomes a [`CompiledProgram`] (its jumps
//! resolved to block indexes, its loops paired) only if it is well formed, and each mistake is
//! one typed [`ProgramError`] variant naming the block, counted from 0 as the JSON's `blocks`.
//!
//! The structure is checked in block order (each block belongs to the program's handler,
//! labels, skips, the loop, the one `ACK`); then the transactions along every path: each path
//! through the skips is followed with whether a transaction is open, so that `COMMIT` without
//! `BEGIN`, a statement outside a transaction, a transaction left open at the end, an answer
//! before `COMMIT` or a `MarkPaid` path that never answers is found on the path that does it.
//! Skips go forward only and the loop runs once per order line, so every program ends.

use std::collections::{BTreeMap, BTreeSet};

use crate::program::block::Block;
use crate::program::format::{BLOCKS_MAX, HandlerKind, HandlerProgram, PROGRAM_FORMAT_VERSION};

mod error;

pub use error::ProgramError;

/// The longest label.
pub(crate) const LABEL_CHARS_MAX: usize = 32;

/// A program that passed validation, ready to run: its blocks, each skip's target and each
/// loop's bounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompiledProgram {
    program: HandlerProgram,
    /// For each block: the block index a skip goes to; for `next_line`, its `for_each_line`;
    /// for `for_each_line`, its `next_line`.
    targets: Vec<Option<usize>>,
    uses_inbox: bool,
}

impl CompiledProgram {
    /// The program.
    pub(crate) fn program(&self) -> &HandlerProgram {
        &self.program
    }

    /// The blocks.
    pub(crate) fn blocks(&self) -> &[Block] {
        &self.program.blocks
    }

    /// Where block `index` goes: a skip's label, a loop's other end.
    pub(crate) fn target(&self, index: usize) -> Option<usize> {
        self.targets.get(index).copied().flatten()
    }

    /// Whether the program reads or writes the inbox: then a message without an id is refused
    /// before anything runs, as the seed's consumer throws.
    pub(crate) fn uses_inbox(&self) -> bool {
        self.uses_inbox
    }
}

/// Validates `program` and resolves its skips and loops.
pub fn compile(program: &HandlerProgram) -> Result<CompiledProgram, ProgramError> {
    check_version(program)?;
    let blocks = &program.blocks;
    if blocks.is_empty() {
        return Err(ProgramError::Empty);
    }
    if blocks.len() > BLOCKS_MAX {
        return Err(ProgramError::TooManyBlocks { count: blocks.len(), max: BLOCKS_MAX });
    }
    if let Some((index, block)) =
        blocks.iter().enumerate().find(|(_, block)| !block.handlers().contains(&program.handler))
    {
        return Err(ProgramError::BlockNotForHandler {
            index,
            block: block.name().to_owned(),
            handler: program.handler.name().to_owned(),
        });
    }
    let labels = labels(blocks)?;
    let loop_of = loops(blocks)?;
    let mut targets = vec![None; blocks.len()];
    for (index, block) in blocks.iter().enumerate() {
        match block {
            skip if skip.skip_label().is_some() => {
                let label = skip.skip_label().unwrap_or_default();
                let target = jump_target(index, label, &labels, &loop_of)?;
                targets[index] = Some(target);
            }
            Block::ForEachLine | Block::NextLine => {
                targets[index] = loop_of.pairs.get(&index).copied();
            }
            other if other.is_per_line() && loop_of.body[index].is_none() => {
                return Err(ProgramError::LineStatementOutsideLoop {
                    index,
                    block: other.name().to_owned(),
                });
            }
            _ => {}
        }
    }
    if program.handler == HandlerKind::ReserveStockConsumer {
        check_ack(blocks, &loop_of)?;
    }
    let uses_inbox =
        blocks.iter().any(|block| matches!(block, Block::InsertInbox { .. } | Block::SelectInbox));
    let compiled = CompiledProgram { program: program.clone(), targets, uses_inbox };
    check_paths(&compiled)?;
    Ok(compiled)
}

/// The file's version is one this build reads, and has the program's handler.
fn check_version(program: &HandlerProgram) -> Result<(), ProgramError> {
    let found = program.format_version;
    if !(1..=PROGRAM_FORMAT_VERSION).contains(&found) {
        return Err(ProgramError::UnsupportedVersion { found, supported: PROGRAM_FORMAT_VERSION });
    }
    let needed = program.handler.format_version_min();
    if found < needed {
        return Err(ProgramError::HandlerNeedsNewerVersion {
            handler: program.handler.name().to_owned(),
            found,
            needed,
        });
    }
    Ok(())
}

/// Each label's block, after checking names and repeats.
fn labels(blocks: &[Block]) -> Result<BTreeMap<&str, usize>, ProgramError> {
    let mut labels = BTreeMap::new();
    for (index, block) in blocks.iter().enumerate() {
        let Block::Label { name } = block else { continue };
        let valid = !name.is_empty()
            && name.chars().count() <= LABEL_CHARS_MAX
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-".contains(c));
        if !valid {
            return Err(ProgramError::InvalidLabel { index, name: name.clone() });
        }
        if let Some(&first_index) = labels.get(name.as_str()) {
            return Err(ProgramError::DuplicateLabel { index, name: name.clone(), first_index });
        }
        labels.insert(name.as_str(), index);
    }
    Ok(labels)
}

/// The loops of a program: for each block, the `for_each_line` whose body holds it (the loop's
/// own two blocks included), and each loop end's partner.
struct Loops {
    body: Vec<Option<usize>>,
    pairs: BTreeMap<usize, usize>,
}

fn loops(blocks: &[Block]) -> Result<Loops, ProgramError> {
    let mut body = vec![None; blocks.len()];
    let mut pairs = BTreeMap::new();
    let mut open: Option<usize> = None;
    for (index, block) in blocks.iter().enumerate() {
        match (block, open) {
            (Block::ForEachLine, Some(_)) => return Err(ProgramError::NestedLoop { index }),
            (Block::ForEachLine, None) => open = Some(index),
            (Block::NextLine, None) => return Err(ProgramError::NextLineWithoutLoop { index }),
            (Block::NextLine, Some(start)) => {
                pairs.insert(start, index);
                pairs.insert(index, start);
                body[index] = Some(start);
                open = None;
            }
            _ => {}
        }
        if let Some(start) = open {
            body[index] = Some(start);
        }
    }
    match open {
        Some(index) => Err(ProgramError::LoopNotClosed { index }),
        None => Ok(Loops { body, pairs }),
    }
}

fn jump_target(
    index: usize,
    label: &str,
    labels: &BTreeMap<&str, usize>,
    loops: &Loops,
) -> Result<usize, ProgramError> {
    let target = *labels
        .get(label)
        .ok_or_else(|| ProgramError::UnknownLabel { index, label: label.to_owned() })?;
    if target <= index {
        return Err(ProgramError::JumpBackwards { index, label: label.to_owned(), target });
    }
    // A skip may stay in its loop's body or leave it; it may not enter another body.
    if let Some(target_loop) = loops.body[target]
        && loops.body[index] != Some(target_loop)
    {
        return Err(ProgramError::JumpIntoLoop { index, label: label.to_owned() });
    }
    Ok(target)
}

fn check_ack(blocks: &[Block], loops: &Loops) -> Result<(), ProgramError> {
    let mut first: Option<usize> = None;
    for (index, block) in blocks.iter().enumerate() {
        if !matches!(block, Block::Ack) {
            continue;
        }
        if let Some(first_index) = first {
            return Err(ProgramError::SecondAck { index, first_index });
        }
        if loops.body[index].is_some() {
            return Err(ProgramError::AckInLoop { index });
        }
        first = Some(index);
    }
    first.map(|_| ()).ok_or(ProgramError::MissingAck)
}

/// What the path check knows on entry to a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PathState {
    /// The `BEGIN` of the open transaction, if one is open.
    open_since: Option<usize>,
    /// The statement right before reported rows; `Some(true)` if 0 rows aborted its
    /// transaction.
    rows: Option<bool>,
    /// The last statement was a `select_order`, whose status the status skips read.
    read_order: bool,
}

/// Follows every path with whether a transaction is open; the error at the lowest block wins,
/// so the message does not depend on the order paths are followed in.
fn check_paths(compiled: &CompiledProgram) -> Result<(), ProgramError> {
    let blocks = compiled.blocks();
    let start = PathState { open_since: None, rows: None, read_order: false };
    let answers = compiled.program().handler == HandlerKind::MarkPaid;
    let mut seen: BTreeSet<(usize, PathState)> = BTreeSet::new();
    let mut work = vec![(0usize, start)];
    let mut errors: Vec<(usize, ProgramError)> = Vec::new();
    while let Some((index, state)) = work.pop() {
        if !seen.insert((index, state)) {
            continue;
        }
        let Some(block) = blocks.get(index) else {
            if let Some(begin_index) = state.open_since {
                errors.push((blocks.len(), ProgramError::TransactionLeftOpen { begin_index }));
            } else if answers {
                errors.push((blocks.len(), ProgramError::MissingAnswer));
            }
            continue;
        };
        match next_states(compiled, index, block, state) {
            Ok(next) => work.extend(next),
            Err(error) => errors.push((index, error)),
        }
    }
    match errors.into_iter().min_by_key(|(index, _)| *index) {
        Some((_, error)) => Err(error),
        None => Ok(()),
    }
}

fn next_states(
    compiled: &CompiledProgram,
    index: usize,
    block: &Block,
    state: PathState,
) -> Result<Vec<(usize, PathState)>, ProgramError> {
    let next = index + 1;
    let plain = |open_since| PathState { open_since, rows: None, read_order: state.read_order };
    let name = || block.name().to_owned();
    Ok(match block {
        Block::Begin => match state.open_since {
            Some(_) => return Err(ProgramError::BeginInTransaction { index }),
            None => vec![(next, plain(Some(index)))],
        },
        Block::Commit | Block::Rollback => match state.open_since {
            None => return Err(ProgramError::EndWithoutBegin { index, block: name() }),
            Some(_) => vec![(next, plain(None))],
        },
        Block::Ack => vec![(next, plain(state.open_since))],
        Block::InsertInbox { .. }
        | Block::SelectInbox
        | Block::SelectReservation
        | Block::InsertReservation { .. }
        | Block::TakeStock { .. }
        | Block::UpdateOrderPaid { .. }
        | Block::SelectOrder { .. }
        | Block::InsertCharge => {
            if state.open_since.is_none() {
                return Err(ProgramError::StatementOutsideTransaction { index, block: name() });
            }
            let rows = block.reports_rows().then(|| block.zero_rows_abort());
            let read_order = matches!(block, Block::SelectOrder { .. });
            vec![(next, PathState { open_since: state.open_since, rows, read_order })]
        }
        Block::IfNotPlacedSkipTo { .. } | Block::IfPaidByThisPaymentSkipTo { .. } => {
            if !state.read_order {
                return Err(ProgramError::SkipWithoutOrderRead { index });
            }
            let target = compiled.target(index).unwrap_or(next);
            vec![(target, plain(state.open_since)), (next, plain(state.open_since))]
        }
        Block::AnswerPaid => match state.open_since {
            Some(_) => return Err(ProgramError::AnswerInTransaction { index }),
            None => Vec::new(),
        },
        Block::Refuse => Vec::new(),
        Block::IfNoRowsSkipTo { .. } | Block::IfRowsSkipTo { .. } => {
            let Some(zero_aborts) = state.rows else {
                return Err(ProgramError::SkipWithoutRowCount { index });
            };
            let target = compiled.target(index).unwrap_or(next);
            let on_zero = plain(if zero_aborts { None } else { state.open_since });
            let on_rows = plain(state.open_since);
            match block {
                Block::IfNoRowsSkipTo { .. } => vec![(target, on_zero), (next, on_rows)],
                _ => vec![(target, on_rows), (next, on_zero)],
            }
        }
        Block::Label { .. } => vec![(next, state)],
        Block::ForEachLine => vec![(next, plain(state.open_since))],
        Block::NextLine => {
            let body = compiled.target(index).map_or(next, |start| start + 1);
            vec![(body, plain(state.open_since)), (next, plain(state.open_since))]
        }
    })
}
