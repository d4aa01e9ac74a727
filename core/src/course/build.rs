//! The build task: "build the fix yourself". The learner assembles a handler (the
//! reserve-stock consumer, P4 around P1, or `MarkPaid`, P2) from a palette of the seed's
//! statements and their naive twins, Parsons-style, and the exhaustive checker judges it
//! over every schedule within the task's bounds ([`crate::check::judge`]).
//!
//! The course file names what the task offers and how it is judged ([`BuildGoal`]): the
//! handler, the palette (the blocks offered, distractors among them, each placed at most
//! once), the invariants to keep, the faults to survive and the most states explored. The
//! learner's draft is an [`Assembly`]: which palette entries stand where, each with the
//! parameters the learner chose. Adding, removing, moving and choosing a parameter are its
//! transitions, each a typed [`AssemblyError`] when it cannot be done, so the page, the CLI
//! and the tests move blocks by one rule. The task passes only when the judge says the
//! program holds ([`BuildGoal::grade`]).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::check::judge::{JUDGE_STATES_MAX, Judgement, build_check_config};
use crate::check::{CheckConfig, FaultBudget};
use crate::faults::FaultClass;
use crate::invariants::InvariantId;
use crate::program::{
    BLOCKS_MAX, Block, HandlerKind, HandlerProgram, InboxConflict, OrderGuard, ReservationConflict,
    SelectLock, StockGuard,
};

/// What a build task offers and how its program is judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildGoal {
    /// The handler the learner builds.
    pub handler: HandlerKind,
    /// The blocks offered, in the order the palette shows them, each placed at most once:
    /// the blocks of a right answer and distractors. A parameter (a conflict clause, a guard,
    /// a skip's label) starts as written here and the learner may change it.
    pub palette: Vec<Block>,
    /// The invariants the program must keep.
    pub invariants: Vec<InvariantId>,
    /// The faults every schedule may take, each at most `count` times.
    pub(crate) faults: Vec<FaultAllowance>,
    /// The most unique states the judge explores before it answers "bounded".
    pub states_max: usize,
}

/// One class of fault a build task's schedules may take, and how many times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FaultAllowance {
    /// The class.
    pub(crate) class: FaultClass,
    /// How many times, from 1.
    pub(crate) count: u32,
}

/// The most faults of one class a build task allows: more makes a space the page cannot
/// judge in a few seconds.
pub(crate) const BUILD_FAULT_COUNT_MAX: u32 = 2;

/// Why a build goal in the course file was refused, naming the part of the goal (the caller
/// adds the field's path).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BuildGoalError {
    /// The palette is empty or longer than a program may be.
    #[error("palette has {len} blocks; it must have between 1 and {max}")]
    PaletteLength {
        /// Its length.
        len: usize,
        /// The most.
        max: usize,
    },
    /// A palette block of another handler.
    #[error("palette[{index}] is {block}, which is not a block of the {handler} handler")]
    BlockNotForHandler {
        /// The entry.
        index: usize,
        /// The block's name.
        block: String,
        /// The goal's handler.
        handler: String,
    },
    /// No invariant to keep, or one named twice.
    #[error("invariants must name at least one invariant, each once")]
    Invariants,
    /// A fault class named twice, or a count out of its range.
    #[error("faults[{index}] ({class}) must be a class not named before, count 1 to {max}")]
    Fault {
        /// The entry.
        index: usize,
        /// The class.
        class: FaultClass,
        /// The most of one class.
        max: u32,
    },
    /// A state bound out of its range.
    #[error("states_max is {value}; it must be between 1 and {max}")]
    StatesMax {
        /// The value.
        value: usize,
        /// The most.
        max: usize,
    },
}

impl BuildGoalError {
    /// The field of the goal it names, below `goal.build`: `palette[3]`, `faults[0]`.
    pub(crate) fn field(&self) -> String {
        match self {
            BuildGoalError::PaletteLength { .. } => "palette".to_owned(),
            BuildGoalError::BlockNotForHandler { index, .. } => format!("palette[{index}]"),
            BuildGoalError::Invariants => "invariants".to_owned(),
            BuildGoalError::Fault { index, .. } => format!("faults[{index}]"),
            BuildGoalError::StatesMax { .. } => "states_max".to_owned(),
        }
    }
}

impl BuildGoal {
    /// Checks the goal: a palette of the handler's blocks within [`BLOCKS_MAX`], invariants
    /// and faults each named once, counts and the state bound in range.
    pub(crate) fn validate(&self) -> Result<(), BuildGoalError> {
        let len = self.palette.len();
        if len == 0 || len > BLOCKS_MAX {
            return Err(BuildGoalError::PaletteLength { len, max: BLOCKS_MAX });
        }
        if let Some((index, block)) =
            self.palette.iter().enumerate().find(|(_, b)| !b.handlers().contains(&self.handler))
        {
            return Err(BuildGoalError::BlockNotForHandler {
                index,
                block: block.name().to_owned(),
                handler: self.handler.name().to_owned(),
            });
        }
        let repeated = |index: usize| self.invariants[..index].contains(&self.invariants[index]);
        if self.invariants.is_empty() || (0..self.invariants.len()).any(repeated) {
            return Err(BuildGoalError::Invariants);
        }
        for (index, fault) in self.faults.iter().enumerate() {
            let named_before = self.faults[..index].iter().any(|f| f.class == fault.class);
            if named_before || !(1..=BUILD_FAULT_COUNT_MAX).contains(&fault.count) {
                return Err(BuildGoalError::Fault {
                    index,
                    class: fault.class,
                    max: BUILD_FAULT_COUNT_MAX,
                });
            }
        }
        if !(1..=JUDGE_STATES_MAX).contains(&self.states_max) {
            return Err(BuildGoalError::StatesMax {
                value: self.states_max,
                max: JUDGE_STATES_MAX,
            });
        }
        Ok(())
    }

    /// The checker's configuration the judge runs with: the goal's faults, invariants and
    /// state bound over the build tasks' reference bounds ([`build_check_config`]).
    pub fn check_config(&self) -> CheckConfig {
        let faults: Vec<(FaultClass, u32)> =
            self.faults.iter().map(|fault| (fault.class, fault.count)).collect();
        CheckConfig {
            faults: FaultBudget::of(&faults),
            invariants: self.invariants.clone(),
            states_max: self.states_max,
            ..build_check_config()
        }
    }

    /// The learner's program: the blocks of `assembly`, in order, for the goal's handler.
    pub fn program(&self, assembly: &Assembly) -> HandlerProgram {
        let blocks = assembly.placed.iter().map(|placed| placed.block.clone()).collect();
        HandlerProgram::new(self.handler, blocks)
    }

    /// The palette entries not placed yet, in the palette's order.
    pub fn unplaced(&self, assembly: &Assembly) -> Vec<usize> {
        (0..self.palette.len())
            .filter(|entry| !assembly.placed.iter().any(|placed| placed.entry == *entry))
            .collect()
    }

    /// The forms palette entry `entry` can take: the block with each value of its parameter
    /// (a skip: each label the palette offers), itself first; one form if it has none.
    pub fn forms(&self, entry: usize) -> Vec<Block> {
        let Some(block) = self.palette.get(entry) else { return Vec::new() };
        let labels: Vec<String> = self
            .palette
            .iter()
            .filter_map(|block| match block {
                Block::Label { name } => Some(name.clone()),
                _ => None,
            })
            .collect();
        let mut forms = vec![block.clone()];
        for form in parameter_forms(block, &labels) {
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
        forms
    }

    /// The draft that places `program`'s blocks from the palette, each from the first entry
    /// not placed yet that can take its form: how a program from a file (the CLI's `lesson
    /// --check`) is held to the palette; `Err` with the first block no entry left offers.
    pub(crate) fn assembly_of(
        &self,
        program: &HandlerProgram,
    ) -> Result<Assembly, NotOnThePalette> {
        if program.handler != self.handler {
            return Err(NotOnThePalette { index: None });
        }
        let mut assembly = Assembly::default();
        for (index, block) in program.blocks.iter().enumerate() {
            let entry = self
                .unplaced(&assembly)
                .into_iter()
                .find(|entry| self.forms(*entry).contains(block))
                .ok_or(NotOnThePalette { index: Some(index) })?;
            assembly.placed.push(Placed { entry, block: block.clone() });
        }
        Ok(assembly)
    }

    /// Grades the judge's verdict on the learner's draft: passed only if the program holds.
    pub fn grade(&self, judgement: &Judgement) -> BuildVerdict {
        match judgement {
            Judgement::Holds { states, .. } => BuildVerdict::Holds { states: *states },
            Judgement::Counterexample { counterexample, .. } => BuildVerdict::Refuted {
                invariant: judgement.broken_invariant().unwrap_or(InvariantId::I1),
                steps: counterexample.path.len(),
            },
            Judgement::Bounded { states, .. } => BuildVerdict::Bounded { states: *states },
        }
    }
}

/// Every value of `block`'s parameter, in declaration order; `labels` for a skip.
fn parameter_forms(block: &Block, labels: &[String]) -> Vec<Block> {
    match block {
        Block::InsertInbox { .. } => [InboxConflict::Error, InboxConflict::DoNothing]
            .map(|on_conflict| Block::InsertInbox { on_conflict })
            .to_vec(),
        Block::InsertReservation { .. } => [
            ReservationConflict::DoNothing,
            ReservationConflict::AddQty,
            ReservationConflict::Error,
        ]
        .map(|on_conflict| Block::InsertReservation { on_conflict })
        .to_vec(),
        Block::TakeStock { .. } => [StockGuard::None, StockGuard::AvailableQty]
            .map(|guard| Block::TakeStock { guard })
            .to_vec(),
        Block::UpdateOrderPaid { .. } => [OrderGuard::None, OrderGuard::Placed]
            .map(|guard| Block::UpdateOrderPaid { guard })
            .to_vec(),
        Block::SelectOrder { .. } => [SelectLock::None, SelectLock::ForUpdate]
            .map(|lock| Block::SelectOrder { lock })
            .to_vec(),
        Block::IfNoRowsSkipTo { .. } => {
            labels.iter().map(|label| Block::IfNoRowsSkipTo { label: label.clone() }).collect()
        }
        Block::IfRowsSkipTo { .. } => {
            labels.iter().map(|label| Block::IfRowsSkipTo { label: label.clone() }).collect()
        }
        Block::IfNotPlacedSkipTo { .. } => {
            labels.iter().map(|label| Block::IfNotPlacedSkipTo { label: label.clone() }).collect()
        }
        Block::IfPaidByThisPaymentSkipTo { .. } => labels
            .iter()
            .map(|label| Block::IfPaidByThisPaymentSkipTo { label: label.clone() })
            .collect(),
        Block::Begin
        | Block::SelectInbox
        | Block::ForEachLine
        | Block::SelectReservation
        | Block::NextLine
        | Block::Label { .. }
        | Block::InsertCharge
        | Block::AnswerPaid
        | Block::Refuse
        | Block::Commit
        | Block::Rollback
        | Block::Ack => Vec::new(),
    }
}

/// A program that the palette cannot assemble: another handler's (`index` `None`), or one
/// whose block `index` no palette entry left offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotOnThePalette {
    /// The first block the palette does not offer, from 0.
    pub(crate) index: Option<usize>,
}

/// What the judge said of a build task's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildVerdict {
    /// Every schedule within the bounds keeps every invariant: the task passes.
    Holds {
        /// Unique states explored.
        states: usize,
    },
    /// A schedule breaks an invariant.
    Refuted {
        /// The first invariant it broke.
        invariant: InvariantId,
        /// The schedule's length in steps.
        steps: usize,
    },
    /// A bound stopped the judge: not a proof, so the task does not pass.
    Bounded {
        /// Unique states explored.
        states: usize,
    },
}

impl BuildVerdict {
    /// Whether the task passes.
    pub fn passes(self) -> bool {
        matches!(self, BuildVerdict::Holds { .. })
    }
}

/// One placed block of the learner's draft: which palette entry, in which form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// The palette entry.
    pub entry: usize,
    /// The block as the learner set its parameter (one of [`BuildGoal::forms`]).
    pub block: Block,
}

/// The learner's draft of a build task: the placed palette entries, in program order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Assembly {
    /// The placed blocks, from the first.
    pub placed: Vec<Placed>,
}

/// Why a move of a block cannot be done.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AssemblyError {
    /// No palette entry of that number.
    #[error("the palette has no entry {entry}")]
    NoSuchEntry {
        /// The entry.
        entry: usize,
    },
    /// The entry is placed already.
    #[error("palette entry {entry} is placed already")]
    AlreadyPlaced {
        /// The entry.
        entry: usize,
    },
    /// No placed block at that position.
    #[error("the program has no block {position}")]
    NoSuchPosition {
        /// The position, from 0.
        position: usize,
    },
    /// The first block cannot move up, nor the last down.
    #[error("block {position} cannot move further that way")]
    AtTheEdge {
        /// The position.
        position: usize,
    },
    /// A form the entry cannot take.
    #[error("block {position} cannot take that form")]
    NoSuchForm {
        /// The position.
        position: usize,
    },
}

impl Assembly {
    /// Palette entry `entry` placed at the end, in the form the palette offers it.
    pub fn add(&self, goal: &BuildGoal, entry: usize) -> Result<Assembly, AssemblyError> {
        let block = goal.palette.get(entry).ok_or(AssemblyError::NoSuchEntry { entry })?;
        if self.placed.iter().any(|placed| placed.entry == entry) {
            return Err(AssemblyError::AlreadyPlaced { entry });
        }
        let mut next = self.clone();
        next.placed.push(Placed { entry, block: block.clone() });
        Ok(next)
    }

    /// The block at `position` taken out, back to the palette.
    pub fn remove(&self, position: usize) -> Result<Assembly, AssemblyError> {
        self.at(position)?;
        let mut next = self.clone();
        next.placed.remove(position);
        Ok(next)
    }

    /// The block at `position` moved one place up (`up`) or down.
    pub fn shift(&self, position: usize, up: bool) -> Result<Assembly, AssemblyError> {
        self.at(position)?;
        let other = if up { position.checked_sub(1) } else { Some(position + 1) };
        let other = other
            .filter(|other| *other < self.placed.len())
            .ok_or(AssemblyError::AtTheEdge { position })?;
        let mut next = self.clone();
        next.placed.swap(position, other);
        Ok(next)
    }

    /// The block at `position` in form `form` (one of its entry's [`BuildGoal::forms`]).
    pub fn set_form(
        &self,
        goal: &BuildGoal,
        position: usize,
        form: usize,
    ) -> Result<Assembly, AssemblyError> {
        let entry = self.at(position)?.entry;
        let block =
            goal.forms(entry).get(form).cloned().ok_or(AssemblyError::NoSuchForm { position })?;
        let mut next = self.clone();
        next.placed[position].block = block;
        Ok(next)
    }

    fn at(&self, position: usize) -> Result<&Placed, AssemblyError> {
        self.placed.get(position).ok_or(AssemblyError::NoSuchPosition { position })
    }
}
