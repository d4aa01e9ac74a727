//! `check` and `fuzz`: the exhaustive checker of `idempotency_lab::check` and the shrinking
//! fuzzer of `idempotency_lab::testing`, driven in slices from the command line.
//!
//! Both print their progress to stderr (a single updating line on a terminal, at most one line
//! per slice otherwise, so that piped output and tests stay clean) and their result to stdout.
//! The CLI reads the clock (for cases per second); the core never does.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::time::Instant;

use idempotency_lab::check::{
    CheckConfig, CheckError, CheckOutcome, CheckReport, CheckStatus, Checker, ExploreStats,
    FaultBudget, two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::sim::{Scenario, Trace};
use idempotency_lab::testing::{FuzzConfig, FuzzReport, FuzzRun, lesson_cases};
use idempotency_lab::view::fired_faults_text;
use idempotency_lab::words::{Language, fill};

use crate::input::InputError;
use crate::render;

/// States expanded per slice of `check` between two progress reports.
const CHECK_SLICE_STATES: usize = 10_000;
/// Cases run per slice of `fuzz` between two progress reports.
const FUZZ_SLICE_CASES: u32 = 64;

/// Bounds of a `check` run, from the command line.
pub struct CheckBounds {
    /// The longest path explored, in steps.
    pub depth_max: usize,
    /// The most unique states stored.
    pub states_max: usize,
    /// The most bytes the checker holds (its estimate).
    pub bytes_max: usize,
}

impl Default for CheckBounds {
    /// The bounds of the checker's reference configuration.
    fn default() -> Self {
        let reference = two_consumers_duplicate_and_crash_config();
        CheckBounds {
            depth_max: reference.depth_max,
            states_max: reference.states_max,
            bytes_max: reference.bytes_max,
        }
    }
}

/// Which of the three verdicts a `check` reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// Every reachable state within the bounds and the fault budget kept every invariant.
    Proved,
    /// An invariant broke.
    Violated,
    /// A bound stopped the check before it covered every state.
    Bounded,
}

/// How a `check` ended: its verdict, in words, and the counterexample if it found one.
pub struct CheckVerdict {
    /// Proved, violated or bounded.
    pub kind: CheckKind,
    /// The report in words (with the counterexample's trace as text when violated).
    pub text: String,
    /// The verdict as one line of JSON, for `--json` when there is no counterexample.
    pub summary_json: String,
    /// The report's opening lines (the verdict and the invariants broken, without the
    /// trace), which `--json` writes to stderr beside the trace on stdout.
    pub headline: String,
    /// The counterexample, a trace that `replay` and the page open.
    pub counterexample: Option<Trace>,
    /// What the checker explored.
    pub stats: ExploreStats,
}

/// What a `check` or `fuzz` reports on: the scenario's name, the mode, and the language of
/// the report.
pub struct Run<'a> {
    /// The scenario's id or file.
    pub source_name: &'a str,
    /// The mode's name.
    pub mode_name: &'a str,
    /// The language of the words.
    pub language: Language,
}

/// Checks `scenario` exhaustively within `bounds` and the faults its lesson names, reporting
/// progress to stderr.
pub fn check(
    run: &Run<'_>,
    scenario: Scenario,
    seed: u64,
    bounds: CheckBounds,
) -> Result<CheckVerdict, InputError> {
    let config = CheckConfig {
        depth_max: bounds.depth_max,
        states_max: bounds.states_max,
        bytes_max: bounds.bytes_max,
        faults: FaultBudget::for_scenario(&scenario),
        progress_every_states: CHECK_SLICE_STATES,
        ..two_consumers_duplicate_and_crash_config()
    };
    check_with(run, scenario, seed, config)
}

/// Checks `scenario` exhaustively under `config`, reporting progress to stderr: `check`'s
/// engine, which `handler check` drives with a build task's faults.
pub fn check_with(
    run: &Run<'_>,
    scenario: Scenario,
    seed: u64,
    config: CheckConfig,
) -> Result<CheckVerdict, InputError> {
    let invalid = |message: String| InputError::Invalid {
        what: "scenario",
        source_name: run.source_name.to_owned(),
        message,
        place: None,
    };
    let checker =
        Checker::new(scenario, seed, config).map_err(|error| invalid(error.to_string()))?;
    let report = check_with_progress(checker).map_err(|error| invalid(error.to_string()))?;
    Ok(check_verdict(run, report))
}

/// Runs `checker` to its end, its progress on stderr: one line rewritten in place on a
/// terminal, a line a slice otherwise.
fn check_with_progress(mut checker: Checker) -> Result<CheckReport, CheckError> {
    let terminal = std::io::stderr().is_terminal();
    let mut stderr = std::io::stderr();
    let report = loop {
        let status = checker.run_for(CHECK_SLICE_STATES, &mut |progress| {
            if terminal {
                let _ = write!(
                    stderr,
                    "\rchecking: {} states ({} unique), depth {}, frontier {}   ",
                    progress.states_explored,
                    progress.unique_states,
                    progress.depth_reached,
                    progress.frontier_len
                );
                let _ = stderr.flush();
            }
        })?;
        match status {
            CheckStatus::Done(report) => break report,
            CheckStatus::Running(progress) => {
                if !terminal {
                    let _ = writeln!(
                        stderr,
                        "checking: {} states ({} unique), depth {}, frontier {}",
                        progress.states_explored,
                        progress.unique_states,
                        progress.depth_reached,
                        progress.frontier_len
                    );
                }
            }
        }
    };
    if terminal {
        let _ = writeln!(stderr);
    }
    Ok(report)
}

/// A finished check's verdict in `run`'s language: its text, its JSON summary and, when an
/// invariant broke, the counterexample's trace.
fn check_verdict(run: &Run<'_>, report: CheckReport) -> CheckVerdict {
    let Run { source_name, mode_name, language } = *run;
    let words = language.words();
    let stats = &report.stats;
    let summary_json = |outcome: &str, reason: Option<String>| {
        let mut summary = serde_json::json!({
            "outcome": outcome,
            "states_explored": stats.states_explored,
            "unique_states": stats.unique_states,
            "depth_reached": stats.depth_reached,
        });
        if let Some(reason) = reason {
            summary["reason"] = serde_json::Value::String(reason);
        }
        format!("{summary}\n")
    };
    match report.outcome {
        CheckOutcome::Proved => CheckVerdict {
            kind: CheckKind::Proved,
            stats: *stats,
            text: fill(
                words.report.check_proved,
                &[
                    ("depth", &stats.depth_reached),
                    ("states", &stats.states_explored),
                    ("unique", &stats.unique_states),
                ],
            ) + "\n",
            summary_json: summary_json("proved", None),
            headline: String::new(),
            counterexample: None,
        },
        CheckOutcome::Bounded { reason } => CheckVerdict {
            kind: CheckKind::Bounded,
            stats: *stats,
            text: fill(
                words.report.check_bounded,
                &[
                    ("reason", &reason.sentence_in(language)),
                    ("states", &stats.states_explored),
                    ("unique", &stats.unique_states),
                    ("depth", &stats.depth_reached),
                ],
            ) + "\n",
            summary_json: summary_json("bounded", Some(reason.to_string())),
            headline: String::new(),
            counterexample: None,
        },
        CheckOutcome::Violated(counterexample) => {
            let mut text = String::new();
            let steps = language.count(&words.counts.steps, counterexample.path.len());
            let _ = writeln!(
                text,
                "{}",
                fill(
                    words.report.check_violated,
                    &[
                        ("states", &stats.states_explored),
                        ("unique", &stats.unique_states),
                        ("steps", &steps),
                    ],
                )
            );
            for violation in &counterexample.violations {
                let _ = writeln!(
                    text,
                    "  {} {}: {}",
                    violation.invariant,
                    violation.invariant.title_in(language),
                    violation.sentence_in(language)
                );
            }
            let trace = counterexample.trace;
            let headline = text.clone();
            let _ = writeln!(text, "\n{}", words.report.check_counterexample);
            text.push_str(&render::run_header(&trace, source_name, mode_name, language));
            text.push_str(&render::trace_lines(&trace));
            text.push_str(&render::invariant_report(&trace, language));
            CheckVerdict {
                kind: CheckKind::Violated,
                stats: *stats,
                text,
                summary_json: summary_json("violated", None),
                headline,
                counterexample: Some(trace),
            }
        }
    }
}

/// What a fuzz run found: its report in words and, if a case broke an invariant, the shrunk
/// case's trace.
pub struct FuzzVerdict {
    /// The report in words (with the shrunk trace as text when violated).
    pub text: String,
    /// The verdict as one line of JSON, for `--json` when there is no counterexample.
    pub summary_json: String,
    /// The report's opening lines (the case, the faults that fired, the shrunk case's
    /// injections and rates, without the trace), which `--json` writes to stderr.
    pub headline: String,
    /// The shrunk case's trace, which `replay` and the page open; `None` if no case broke an
    /// invariant.
    pub counterexample: Option<Trace>,
}

/// Fuzzes `scenario` for at most `cases` cases with the fuzzer's seed `fuzz_seed`.
pub fn fuzz(run: &Run<'_>, scenario: Scenario, fuzz_seed: u64, cases: u32) -> FuzzVerdict {
    let Run { source_name, mode_name, language } = *run;
    let words = language.words();
    let config = FuzzConfig {
        cases,
        fuzz_seed,
        progress_every_cases: FUZZ_SLICE_CASES,
        ..FuzzConfig::default()
    };
    let mut report = fuzz_with_progress(scenario, config);
    let Some(failure) = report.failure.take() else {
        return no_violation_verdict(&report, language);
    };
    let mut text = String::new();
    let violated: Vec<String> = failure.violated.iter().map(ToString::to_string).collect();
    let _ = writeln!(
        text,
        "{}",
        fill(
            words.report.fuzz_violation,
            &[
                ("case", &report.cases_run),
                ("cases", &cases),
                ("violated", &violated.join(", ")),
                ("shrink", &language.count(&words.counts.steps, failure.shrink_steps)),
                ("seed", &failure.shrunk.seed),
            ],
        )
    );
    let shrunk = &failure.shrunk.scenario;
    let fired = failure.trace.fired_faults();
    let _ = writeln!(
        text,
        "{}",
        fill(
            words.report.fuzz_fired,
            &[
                ("injected", &fired_faults_text(&fired.injected, language)),
                ("random", &fired_faults_text(&fired.random, language)),
            ],
        )
    );
    let _ = writeln!(
        text,
        "{}",
        fill(words.report.fuzz_injections, &[("count", &shrunk.injections.len())])
    );
    for injection in &shrunk.injections {
        let json = serde_json::to_string(injection).unwrap_or_default();
        let _ = writeln!(text, "  {} {json}", injection.fault_class());
    }
    if shrunk.fault_rates.0.is_empty() {
        let _ = writeln!(text, "{}", words.report.fuzz_rates_none);
    } else {
        let rates: Vec<String> = shrunk
            .fault_rates
            .0
            .iter()
            .map(|(class, rate)| fill(words.report.fuzz_rate, &[("class", class), ("rate", rate)]))
            .collect();
        let _ =
            writeln!(text, "{}", fill(words.report.fuzz_rates, &[("rates", &rates.join(", "))]));
    }
    let headline = text.clone();
    let _ = writeln!(text, "\n{}", words.report.fuzz_shrunk_trace);
    text.push_str(&render::run_header(&failure.trace, source_name, mode_name, language));
    text.push_str(&render::trace_lines(&failure.trace));
    text.push_str(&render::invariant_report(&failure.trace, language));
    let summary = serde_json::json!({ "outcome": "violated", "cases_run": report.cases_run });
    FuzzVerdict {
        text,
        summary_json: format!("{summary}\n"),
        headline,
        counterexample: Some(failure.trace),
    }
}

/// Fuzzes `scenario` under `config` to the end, its progress on stderr (one line rewritten in
/// place on a terminal, a line a slice otherwise), then its speed.
fn fuzz_with_progress(scenario: Scenario, config: FuzzConfig) -> FuzzReport {
    let cases = config.cases;
    let mut run = FuzzRun::new(lesson_cases(scenario), config);
    let terminal = std::io::stderr().is_terminal();
    let mut stderr = std::io::stderr();
    let started = Instant::now();
    let report = loop {
        let report = run.run_for(FUZZ_SLICE_CASES, &mut |progress| {
            if terminal {
                let _ = write!(
                    stderr,
                    "\rfuzzing: {} of {} cases   ",
                    progress.cases_run, progress.cases
                );
                let _ = stderr.flush();
            }
        });
        if report.finished {
            break report;
        }
        if !terminal {
            let _ = writeln!(stderr, "fuzzing: {} of {cases} cases", report.cases_run);
        }
    };
    let elapsed = started.elapsed();
    if terminal {
        let _ = writeln!(stderr);
    }
    let _ = writeln!(
        stderr,
        "fuzzed {} cases in {:.2} s: {:.0} cases/s",
        report.cases_run,
        elapsed.as_secs_f64(),
        report.cases_per_second(elapsed)
    );
    report
}

/// The verdict of a fuzz run in which no case broke an invariant.
fn no_violation_verdict(report: &FuzzReport, language: Language) -> FuzzVerdict {
    let words = language.words();
    let mut summary = serde_json::json!({
        "outcome": "no_violation",
        "cases_run": report.cases_run,
        "distinct_seeds": report.distinct_seeds,
    });
    let mut text = fill(
        words.report.fuzz_no_violation,
        &[
            ("cases", &language.count(&words.counts.cases, report.cases_run)),
            ("seeds", &report.distinct_seeds),
        ],
    ) + "\n";
    if let Some((case, limit)) = &report.first_limit_reached {
        summary["limits_reached"] = report.limits_reached.into();
        let first = idempotency_lab::view::limit_reached_sentence(limit, language);
        let cases = language.count(&words.counts.cases, report.limits_reached);
        let line = fill(
            words.check.fuzz_limits_reached,
            &[("cases", &cases), ("seed", &case.seed), ("first", &first)],
        );
        let _ = writeln!(text, "{line}");
    }
    FuzzVerdict {
        text,
        summary_json: format!("{summary}\n"),
        headline: String::new(),
        counterexample: None,
    }
}
