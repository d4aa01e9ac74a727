//! The view side of the core: what front ends derive from the model ([`crate::sim`]) to show
//! it, computed once here so that the page, the CLI and the tests show the same thing.
//!
//! `sim` is the model: the world, its transitions, the scheduler and the trace. This module
//! reads it and never changes it. [`Screen::at`] is the one call a front end makes: everything
//! one screen shows at a point of a run, in one language (`screen`), over the run and the index
//! of its steps that lets a screen cost its window, not the run (`run_index`: [`RunIndex`],
//! held with its simulation as an [`IndexedRun`], `indexed_run`). Its parts: the sequence diagram's model (`diagram`), the run's decisive
//! moments it narrates (`moments`) and its Mermaid text (`mermaid`), what waits at the cursor
//! for display (`pending`), one schedule run in both modes side by side (`compare`), where each
//! invariant broke (`breaks`), the dead letters in words (`dead_letters`), how much of a large world a screen draws (`drawn`), a limit of the store reached in words (`limit_reached`), the link that carries a run (`share`), and the words (`lang`:
//! the languages and the invariants' and faults' titles; `lesson`: the lessons' texts).
//! Nothing in `sim` uses this module.

mod action_words;
mod breaks;
mod compare;
mod dead_letters;
mod diagram;
mod drawn;
mod indexed_run;
mod lesson;
mod limit_reached;
mod mermaid;
mod moments;
mod pending;
mod psql;
mod run_index;
mod screen;
mod share;

pub use crate::words::Language;
pub use action_words::{action_text, choice_target_text, fault_button_text, fired_faults_text};
pub use breaks::{breaking_steps, first_break};
pub use compare::{CompareInput, ComparedRun, Comparison, compare};
pub use dead_letters::dead_letter_sentences;
pub use diagram::{ArrowKind, DiagramItem, Lane, MarkKind, lanes, step_items_in};
pub use drawn::{
    DrawnPending, DrawnRows, PENDING_DRAWN_PER_LANE, ROWS_DRAWN, drawn_pending, drawn_rows,
};
pub use indexed_run::IndexedRun;
pub use lesson::{LessonText, lesson_text};
pub use limit_reached::limit_reached_sentence;
pub use mermaid::trace_to_mermaid;
pub use moments::{Moment, MomentKind, moments};
pub use pending::{PendingItem, PendingTarget, pending, pending_in};
pub use psql::psql_scripts;
pub use run_index::RunIndex;
pub use screen::{
    InvariantLine, Screen, ScreenInput, ScreenStep, WINDOW_STEPS, first_drawn, invariant_lines,
    stop_sentence,
};
pub use share::{
    ShareError, ShareLink, SharedScenario, parser_fuzz_link_of, parser_fuzz_open_link,
};
