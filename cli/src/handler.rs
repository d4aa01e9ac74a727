//! `handler check <program.json> [--lesson <id>]`: a learner's handler program judged by the
//! exhaustive checker over a lesson's schedules, with the sentence on why its counterexample
//! breaks. The program says which handler it is: a consumer is judged by default in
//! `p4-inbox-consumer` (every interleaving of two consumer instances with one duplicate
//! delivery, one crash after commit and one before), a `MarkPaid` in `p2-order-state-machine`
//! (every interleaving with one lost answer and its retry). Exit codes as `check`: 0 holds within the bounds, 1
//! counterexample, 2 input error, 3 a bound reached first.

use std::fmt::Write as _;
use std::path::Path;

use idempotency_lab::check::CheckConfig;
use idempotency_lab::check::judge::{
    build_check_config_for, build_lesson, scenario_with_program, why_in,
};
use idempotency_lab::program::{HandlerKind, HandlerProgram};
use idempotency_lab::words::{Language, fill};

use crate::input::{InputError, load_program, load_scenario};
use crate::verify::{self, CheckBounds, CheckKind, CheckVerdict};

/// What `handler check` reads from the command line.
pub struct HandlerCheck<'a> {
    /// The program file.
    pub program: &'a Path,
    /// The lesson (a built-in id or a scenario file) whose world judges it; `None` for the
    /// handler's build lesson.
    pub lesson: Option<&'a str>,
    /// The seed of the lesson's ids.
    pub seed: u64,
    /// The checker's bounds.
    pub bounds: CheckBounds,
    /// The language of the words.
    pub language: Language,
}

/// Judges the program; the verdict's text carries the schedules judged and, for a
/// counterexample, why it breaks.
pub fn check(request: &HandlerCheck<'_>) -> Result<CheckVerdict, InputError> {
    let program: HandlerProgram = load_program(request.program)?;
    let lesson = load_scenario(request.lesson.unwrap_or(build_lesson(program.handler)))?;
    let words = request.language.words();
    let source_name = request.program.display().to_string();
    let run =
        verify::Run { source_name: &source_name, mode_name: "program", language: request.language };
    let config = CheckConfig {
        depth_max: request.bounds.depth_max,
        states_max: request.bounds.states_max,
        bytes_max: request.bounds.bytes_max,
        ..build_check_config_for(program.handler)
    };
    let scenario = scenario_with_program(&lesson.scenario, &program);
    let mut verdict = verify::check_with(&run, scenario, request.seed, config)?;
    let faults = match program.handler {
        HandlerKind::ReserveStockConsumer => words.report.handler_consumer_faults,
        HandlerKind::MarkPaid => words.report.handler_mark_paid_faults,
    };
    let mut preface = format!("{}: {faults}\n", lesson.source_name);
    if verdict.kind == CheckKind::Violated {
        let why = why_in(&program, request.language);
        let _ = writeln!(verdict.headline, "{why}");
        let _ = writeln!(preface);
        verdict.text = insert_after_headline(&verdict.text, why);
    }
    if verdict.kind == CheckKind::Proved {
        verdict.text = fill(
            words.report.handler_holds,
            &[("states", &verdict.stats.unique_states), ("depth", &verdict.stats.depth_reached)],
        ) + "\n";
    }
    verdict.text.insert_str(0, &preface);
    verdict.headline.insert_str(0, &preface);
    Ok(verdict)
}

/// `text` with `why` as a line after its headline (the verdict and the invariants, which end
/// at the first blank line).
fn insert_after_headline(text: &str, why: &str) -> String {
    match text.split_once("\n\n") {
        Some((headline, rest)) => format!("{headline}\n{why}\n\n{rest}"),
        None => format!("{text}{why}\n"),
    }
}
