//! `idempotency-lab`: the command line over the simulator of `idempotency_lab::sim`.
//!
//! `list` shows the built-in lessons, `explain` tells one, `run` runs a lesson or a scenario
//! file with a seed and prints the trace one line per step and the invariant report (or the
//! trace's JSON with `--json`), `replay` re-runs a saved trace and checks that it reproduces
//! byte for byte. The commands are thin: everything they print is a pure function of the
//! core's values (`render`), and everything they read goes through `input`, whose errors name
//! the file, the field, the line and the column. `check` explores every interleaving of a
//! scenario within bounds and `fuzz` runs the shrinking fuzzer over its faults and seeds
//! (`verify`). `course` lists the workshop course's lessons and `lesson` tells one or, with
//! `--check`, grades the learner's traces against its tasks (`course`), each only once it
//! reproduces; `run --inject` places the learner's own choices as the page does (`inject`).
//! `handler check` judges a learner's consumer program over a lesson's schedules (`handler`).
//!
//! Exit codes: 0 when the run kept every invariant (for `replay`: the trace reproduced; for
//! `check`: proved), 1 when an invariant was violated (for `replay`: it did not reproduce), 2
//! for a usage or input error, 3 when `check` hit a bound (depth, states, memory) before
//! covering every state.

#![forbid(unsafe_code)]

mod course;
mod handler;
mod inject;
mod input;
mod probe;
mod render;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use idempotency_lab::sim::{
    CATALOGUE, Pattern, PatternMode, Simulation, Trace, TraceDifference, catalogue_scenario,
    first_difference,
};
use idempotency_lab::view::lesson_text;
use idempotency_lab::words::{Language, fill};

use crate::input::{InputError, load_scenario, load_trace};
use crate::render::ModeOutcome;

/// The exit code of a run that kept every invariant, or of a trace that reproduced.
const EXIT_HELD: u8 = 0;
/// The exit code of a run that violated an invariant, or of a trace that did not reproduce.
const EXIT_VIOLATED: u8 = 1;
/// The exit code of a usage or input error (clap uses it for usage errors too).
const EXIT_INPUT_ERROR: u8 = 2;
/// The exit code of a `check` that hit a bound before covering every state: not a proof.
const EXIT_BOUNDED: u8 = 3;

/// Idempotency Lab: run the shop's simulator and watch duplicates, retries and races break
/// (or keep) its invariants.
///
/// Exit codes: 0 when no invariant was violated (replay: the trace reproduced; check: proved),
/// 1 when one was (replay: it did not reproduce), 2 for a usage or input error, 3 when `check`
/// hit a bound (depth, states, memory) before covering every state (not a proof).
#[derive(Debug, Parser)]
#[command(name = "idempotency-lab", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The language of the human text: `en` or `ru` (JSON output is the same in both).
    #[arg(long, global = true, default_value_t = Language::En)]
    lang: Language,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the built-in scenarios: id and title, one line each.
    List,
    /// List the lessons of the workshop course, in order: number, id, title, steps.
    Course,
    /// Tell a lesson of the course (its intro and steps, without the answers), or, with
    /// `--check`, grade your own runs against its tasks.
    ///
    /// Each task passes if one of the traces passes it. Exit codes with `--check`: 0 every
    /// task passed, 1 not yet, 2 usage or input error (an unknown lesson, a bad trace file, a
    /// trace that does not replay).
    Lesson {
        /// The lesson's id (see `course`).
        lesson: String,
        /// Trace files of your runs: the page's Download, or `run --json`.
        #[arg(long, num_args = 1.., value_name = "TRACE")]
        check: Vec<PathBuf>,
    },
    /// Explain a scenario: its paragraph, the patterns and faults it shows, and the
    /// invariants each mode violates.
    Explain {
        /// A built-in id (see `list`) or a scenario file (a scenario file of one's own is
        /// shown with its own title and paragraph in every language).
        scenario: String,
    },
    /// Run a scenario and print its trace and the invariant report.
    Run {
        /// A built-in id (see `list`) or a scenario file.
        scenario: String,
        /// The seed: the same scenario and seed give the same run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Which twin of the lesson's patterns runs.
        #[arg(long, value_enum, default_value_t = ModeArg::AsWritten)]
        mode: ModeArg,
        /// Print the trace as JSON (the format `replay` reads) instead of text.
        #[arg(long)]
        json: bool,
        /// Set one pattern's twin after `--mode` (repeatable): `P3=idempotent` keeps the
        /// others as `--mode` set them, as the page's switch of one pattern does.
        #[arg(long, value_name = "PN=naive|idempotent", value_parser = parse_pattern_switch)]
        pattern: Vec<(Pattern, PatternMode)>,
        /// Place a choice of your own, as the page's fault buttons do (repeatable, in order):
        /// `[STEP:]ACTION[,FIELD=VALUE...]`, the action by its name or fault class
        /// (`F2,message=0,delivery=1`: crash after commit of delivery 1 of the OrderPlaced of
        /// request 0; `F6,request=0`: a double submit), or the page's recorded choice as JSON.
        /// Without STEP, as early as its target allows after the choice before it.
        #[arg(long, value_name = "CHOICE")]
        inject: Vec<String>,
        /// Leave out the scenario's own faults (its injections and random fault rates), so
        /// that the faults are the ones `--inject` places: a course task that has you break
        /// the run yourself.
        #[arg(long)]
        no_scripted_faults: bool,
    },
    /// Print a run as psql scripts: the schema and starting rows, then one script per
    /// session (an API attempt, a consumer instance, the relay), every statement tagged with
    /// its step, and a mark where a statement waits for another session's lock. Run the
    /// sessions in separate psql terminals, the steps in number order, to replay the lesson on
    /// a real PostgreSQL.
    Sql {
        /// A built-in id (see `list`) or a scenario file.
        scenario: String,
        /// The seed: the same scenario and seed give the same run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Which twin of the lesson's patterns runs.
        #[arg(long, value_enum, default_value_t = ModeArg::AsWritten)]
        mode: ModeArg,
    },
    /// Re-run a trace saved by `run --json` and check that it reproduces byte for byte.
    Replay {
        /// The trace file.
        trace: PathBuf,
    },
    /// Check a scenario exhaustively: every interleaving and every placement of its faults,
    /// breadth-first, so a counterexample found is one of the shortest.
    ///
    /// The checker drops the scenario's own injections and places the faults itself: one of
    /// each class the scenario injects (one duplicate delivery F1 and one crash after commit F2
    /// if it injects none). Exit codes: 0 proved, 1 violated, 2 usage or input error, 3 a
    /// bound (depth, states, memory) was hit first (not a proof).
    Check {
        /// A built-in id (see `list`) or a scenario file.
        scenario: String,
        /// The seed the scenario's ids are drawn from.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Which twin of the lesson's patterns is checked.
        #[arg(long, value_enum, default_value_t = ModeArg::AsWritten)]
        mode: ModeArg,
        /// The longest path explored, in steps.
        #[arg(long, default_value_t = verify::CheckBounds::default().depth_max)]
        depth_max: usize,
        /// The most unique states stored.
        #[arg(long, default_value_t = verify::CheckBounds::default().states_max)]
        states_max: usize,
        /// The most memory the checker holds, in bytes (its estimate of its tables and of the
        /// states it keeps): the default keeps a check under 1 GB on any accepted scenario.
        #[arg(long, default_value_t = verify::CheckBounds::default().bytes_max)]
        bytes_max: usize,
        /// Print the counterexample as a trace (the JSON of `run --json`, which `replay` and
        /// the page's import open) and the verdict on stderr; without a counterexample, one
        /// line of JSON: `{"outcome": "proved" | "bounded", ...}`.
        #[arg(long)]
        json: bool,
    },
    /// Work with handler programs: consumers assembled from the palette's blocks.
    Handler {
        #[command(subcommand)]
        command: HandlerCommand,
    },
    /// Probe a running HTTP service (an API with idempotency keys, or a webhook consumer):
    /// send it the schedules that break idempotency designs (copies at once, lost answers and
    /// retries, a key reused with another body, a missing key, redeliveries) and judge its
    /// answers and the effect it stored.
    ///
    /// The schedules, keys and bodies are drawn from the seed. A failing schedule is shrunk
    /// by re-running smaller ones (the probe file's reset between them) and printed as a
    /// story and a curl transcript. Only loopback hosts unless `--allow-host` names the
    /// target's. Exit codes: 0 every schedule held, 1 a violation, 2 a bad probe file or
    /// option, or a service that cannot be reset or read.
    Probe {
        /// The probe file (TOML): target, kind, oracle, reset, schedule bounds.
        probe_file: PathBuf,
        /// The seed: the same seed draws the same schedules, keys and bodies.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many schedules at most (the probe stops at the first violation).
        #[arg(long, default_value_t = 20)]
        schedules: u32,
        /// How many requests the drawn schedules may send in all.
        #[arg(long, default_value_t = 1000)]
        requests: u64,
        /// A non-loopback host that may be probed (repeatable); probe only your own services.
        #[arg(long, value_name = "HOST")]
        allow_host: Vec<String>,
        /// Requests per second at most (resets and oracle reads included); unbounded without.
        #[arg(long)]
        rate: Option<u32>,
        /// Print the report as one JSON object: outcome, tally, and the failure's requests,
        /// answers, effects, verdicts, story and transcript.
        #[arg(long)]
        json: bool,
        /// Also write the report as JUnit XML to this file (one test case per schedule).
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
    },
    /// Fuzz a scenario: run random variants of it until one breaks an invariant, then shrink
    /// that case to a minimal one.
    ///
    /// Each case keeps the scenario as written (patterns, requests, consumers) and varies
    /// what goes wrong: any subset of its injected faults, random fault rates (up to 20 %) for
    /// the fault classes it injects, and any simulator seed. Shrinking goes to the fewest
    /// injections, no random faults and seed 0, so the counterexample shows which of the
    /// lesson's faults are enough. Exit codes: 0 no violation, 1 violation, 2 usage or input
    /// error.
    Fuzz {
        /// A built-in id (see `list`) or a scenario file.
        scenario: String,
        /// The fuzzer's own seed: the same seed gives the same cases.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many cases at most.
        #[arg(long, default_value_t = 256)]
        cases: u32,
        /// Which twin of the lesson's patterns is fuzzed.
        #[arg(long, value_enum, default_value_t = ModeArg::AsWritten)]
        mode: ModeArg,
        /// Print the shrunk counterexample as a trace (the JSON of `run --json`, which
        /// `replay` and the page's import open) and the report on stderr; without one, one
        /// line of JSON: `{"outcome": "no_violation", ...}`.
        #[arg(long)]
        json: bool,
    },
}

/// The `--mode` switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ModeArg {
    /// The lesson's patterns in their naive twin.
    Naive,
    /// The lesson's patterns in their idempotent version.
    Idempotent,
    /// The patterns as the scenario file sets them.
    AsWritten,
}

impl ModeArg {
    fn name(self) -> &'static str {
        match self {
            ModeArg::Naive => "naive",
            ModeArg::Idempotent => "idempotent",
            ModeArg::AsWritten => "as-written",
        }
    }
}

/// The `handler` subcommands.
#[derive(Debug, Subcommand)]
enum HandlerCommand {
    /// Judge a handler program: for a consumer, every interleaving of two consumer instances
    /// in the lesson's world, with one duplicate delivery, one crash after commit and one
    /// crash before commit; for `mark_paid`, every interleaving with one lost answer and its
    /// retry. Breadth-first, so a counterexample found is one of the shortest.
    ///
    /// Exit codes: 0 holds for every schedule within the bounds, 1 counterexample, 2 usage or
    /// input error (the file, the field, the block), 3 a bound was reached first (not a proof).
    Check {
        /// The program file (JSON: `format_version`, `handler`, `blocks`).
        program: PathBuf,
        /// The lesson whose world judges it: a built-in id (see `list`) or a scenario file;
        /// by default `p4-inbox-consumer` for a consumer program, `p2-order-state-machine` for
        /// a `mark_paid` one.
        #[arg(long)]
        lesson: Option<String>,
        /// The seed the lesson's ids are drawn from.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The longest path explored, in steps.
        #[arg(long, default_value_t = verify::CheckBounds::default().depth_max)]
        depth_max: usize,
        /// The most unique states stored.
        #[arg(long, default_value_t = idempotency_lab::check::judge::JUDGE_STATES_MAX)]
        states_max: usize,
        /// The most memory the checker holds, in bytes.
        #[arg(long, default_value_t = verify::CheckBounds::default().bytes_max)]
        bytes_max: usize,
        /// Print the counterexample as a trace (the JSON of `run --json`, which `replay` and
        /// the page's import open) and the verdict on stderr; without a counterexample, one
        /// line of JSON: `{"outcome": "proved" | "bounded", ...}`.
        #[arg(long)]
        json: bool,
    },
}

/// What a command printed and how it ends.
struct Outcome {
    stdout: String,
    exit_code: u8,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let lang = cli.lang;
    let result = match cli.command {
        Command::List => list(lang),
        Command::Course => {
            course::list(lang).map(|stdout| Outcome { stdout, exit_code: EXIT_HELD })
        }
        Command::Lesson { lesson, check } => {
            course::lesson(&lesson, &check, lang).map(|printed| Outcome {
                stdout: printed.stdout,
                exit_code: match printed.passed {
                    Some(false) => EXIT_VIOLATED,
                    Some(true) | None => EXIT_HELD,
                },
            })
        }
        Command::Explain { scenario } => explain(&scenario, lang),
        Command::Run { scenario, seed, mode, json, pattern, inject, no_scripted_faults } => {
            let choices = Choices { patterns: &pattern, injections: &inject, no_scripted_faults };
            run(&scenario, seed, mode, &choices, json, lang)
        }
        Command::Sql { scenario, seed, mode } => sql(&scenario, seed, mode),
        Command::Replay { trace } => replay(&trace, lang),
        Command::Check { scenario, seed, mode, depth_max, states_max, bytes_max, json } => {
            let bounds = verify::CheckBounds { depth_max, states_max, bytes_max };
            check(&scenario, seed, mode, bounds, json, lang)
        }
        Command::Fuzz { scenario, seed, cases, mode, json } => {
            fuzz(&scenario, seed, cases, mode, json, lang)
        }
        Command::Handler {
            command:
                HandlerCommand::Check { program, lesson, seed, depth_max, states_max, bytes_max, json },
        } => {
            let request = handler::HandlerCheck {
                program: &program,
                lesson: lesson.as_deref(),
                seed,
                bounds: verify::CheckBounds { depth_max, states_max, bytes_max },
                language: lang,
            };
            handler::check(&request).map(|verdict| verdict_outcome(verdict, json))
        }
        Command::Probe { probe_file, seed, schedules, requests, allow_host, rate, json, junit } => {
            let options = probe::ProbeOptions {
                seed,
                schedules,
                requests_max: requests,
                allow_host,
                rate,
                json,
                junit,
            };
            return finish(probe::probe(&probe_file, &options).map(|outcome| Outcome {
                stdout: outcome.stdout,
                exit_code: if outcome.violated { EXIT_VIOLATED } else { EXIT_HELD },
            }));
        }
    };
    finish(result)
}

/// Prints a command's outcome, or its error on stderr, and gives the exit code.
fn finish<E: std::fmt::Display>(result: Result<Outcome, E>) -> ExitCode {
    match result {
        Ok(outcome) => {
            write_ignoring_closed_pipe(&mut std::io::stdout().lock(), &outcome.stdout);
            ExitCode::from(outcome.exit_code)
        }
        Err(error) => {
            write_ignoring_closed_pipe(&mut std::io::stderr().lock(), &format!("error: {error}\n"));
            ExitCode::from(EXIT_INPUT_ERROR)
        }
    }
}

/// Writes `text`; a reader that went away (`| head`) is not an error worth a panic.
fn write_ignoring_closed_pipe(out: &mut dyn std::io::Write, text: &str) {
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn list(language: Language) -> Result<Outcome, InputError> {
    let mut entries = Vec::with_capacity(CATALOGUE.len());
    for entry in CATALOGUE {
        let scenario = catalogue_scenario(entry.id).map_err(InputError::Catalogue)?;
        entries.push(lesson_text(&scenario, language));
    }
    Ok(Outcome { stdout: render::catalogue_list(&entries), exit_code: EXIT_HELD })
}

fn explain(name: &str, language: Language) -> Result<Outcome, InputError> {
    let named = load_scenario(name)?;
    let seed = 0;
    let mut outcomes = Vec::new();
    for (mode_name, mode) in
        [("naive", PatternMode::Naive), ("idempotent", PatternMode::Idempotent)]
    {
        let trace = simulate(&named.source_name, named.scenario.with_mode(mode), seed)?;
        outcomes.push(ModeOutcome { mode_name, seed, violated: trace.invariants_ever_violated() });
    }
    Ok(Outcome {
        stdout: render::explanation(&named.scenario, &named.source_name, &outcomes, language),
        exit_code: EXIT_HELD,
    })
}

/// `scenario` with the patterns `mode` asks for.
fn scenario_in_mode(
    scenario: &idempotency_lab::sim::Scenario,
    mode: ModeArg,
) -> idempotency_lab::sim::Scenario {
    match mode {
        ModeArg::Naive => scenario.with_mode(PatternMode::Naive),
        ModeArg::Idempotent => scenario.with_mode(PatternMode::Idempotent),
        ModeArg::AsWritten => scenario.clone(),
    }
}

fn check(
    name: &str,
    seed: u64,
    mode: ModeArg,
    bounds: verify::CheckBounds,
    json: bool,
    language: Language,
) -> Result<Outcome, InputError> {
    let named = load_scenario(name)?;
    let scenario = scenario_in_mode(&named.scenario, mode);
    let run = verify::Run { source_name: &named.source_name, mode_name: mode.name(), language };
    let verdict = verify::check(&run, scenario, seed, bounds)?;
    Ok(verdict_outcome(verdict, json))
}

fn fuzz(
    name: &str,
    seed: u64,
    cases: u32,
    mode: ModeArg,
    json: bool,
    language: Language,
) -> Result<Outcome, InputError> {
    let named = load_scenario(name)?;
    let scenario = scenario_in_mode(&named.scenario, mode);
    let run = verify::Run { source_name: &named.source_name, mode_name: mode.name(), language };
    let verdict = verify::fuzz(&run, scenario, seed, cases);
    let exit_code = if verdict.counterexample.is_some() { EXIT_VIOLATED } else { EXIT_HELD };
    let stdout = if json {
        json_report(verdict.counterexample.as_ref(), &verdict.headline, verdict.summary_json)
    } else {
        verdict.text
    };
    Ok(Outcome { stdout, exit_code })
}

/// A verdict of the checker (`check`, `handler check`) as the command's output and exit code.
fn verdict_outcome(verdict: verify::CheckVerdict, json: bool) -> Outcome {
    let exit_code = match verdict.kind {
        verify::CheckKind::Proved => EXIT_HELD,
        verify::CheckKind::Violated => EXIT_VIOLATED,
        verify::CheckKind::Bounded => EXIT_BOUNDED,
    };
    let stdout = if json {
        json_report(verdict.counterexample.as_ref(), &verdict.headline, verdict.summary_json)
    } else {
        verdict.text
    };
    Outcome { stdout, exit_code }
}

/// What `check --json` and `fuzz --json` print: the counterexample as a trace, exactly as
/// `run --json` writes one (so that `replay` reproduces it and the page imports it), with the
/// report's opening lines on stderr; or, without one, the one-line summary.
fn json_report(counterexample: Option<&Trace>, headline: &str, summary_json: String) -> String {
    match counterexample {
        Some(trace) => {
            write_ignoring_closed_pipe(&mut std::io::stderr().lock(), headline);
            format!("{}\n", trace.to_json())
        }
        None => summary_json,
    }
}

/// What `run` takes beyond the scenario's own inputs: single pattern switches, and the
/// learner's choices (`inject`).
struct Choices<'a> {
    patterns: &'a [(Pattern, PatternMode)],
    injections: &'a [String],
    /// `--no-scripted-faults`: the scenario's injections and random rates left out.
    no_scripted_faults: bool,
}

/// `P3=idempotent`, for `run --pattern`.
fn parse_pattern_switch(text: &str) -> Result<(Pattern, PatternMode), String> {
    let (pattern, mode) =
        text.split_once('=').ok_or_else(|| format!("`{text}` is not PN=MODE (`P3=idempotent`)"))?;
    let pattern = match pattern.trim().to_ascii_uppercase().as_str() {
        "P1" => Pattern::P1,
        "P2" => Pattern::P2,
        "P3" => Pattern::P3,
        "P4" => Pattern::P4,
        other => return Err(format!("`{other}` is not a pattern: P1, P2, P3 or P4")),
    };
    let mode = match mode.trim() {
        "naive" => PatternMode::Naive,
        "idempotent" => PatternMode::Idempotent,
        other => return Err(format!("`{other}` is not a twin: naive or idempotent")),
    };
    Ok((pattern, mode))
}

fn run(
    name: &str,
    seed: u64,
    mode: ModeArg,
    choices: &Choices<'_>,
    json: bool,
    language: Language,
) -> Result<Outcome, InputError> {
    let named = load_scenario(name)?;
    let mut scenario = scenario_in_mode(&named.scenario, mode);
    for (pattern, twin) in choices.patterns {
        scenario.patterns = scenario.patterns.with(*pattern, *twin);
    }
    if choices.no_scripted_faults {
        scenario = scenario.without_scripted_faults();
    }
    let trace = if choices.injections.is_empty() {
        simulate(&named.source_name, scenario, seed)?
    } else {
        let user_choices = inject::parse_choices(choices.injections, &scenario)?;
        inject::run_with_choices(scenario, seed, user_choices, choices.injections)?
    };
    let stdout = if json {
        trace.to_json_file()
    } else {
        format!(
            "{}{}{}",
            render::run_header(&trace, &named.source_name, mode.name(), language),
            render::trace_lines(&trace),
            render::invariant_report(&trace, language)
        )
    };
    let exit_code =
        if trace.invariants_ever_violated().is_empty() { EXIT_HELD } else { EXIT_VIOLATED };
    Ok(Outcome { stdout, exit_code })
}

fn sql(name: &str, seed: u64, mode: ModeArg) -> Result<Outcome, InputError> {
    let named = load_scenario(name)?;
    let scenario = scenario_in_mode(&named.scenario, mode);
    let simulation =
        Simulation::without_snapshots(scenario, seed).map_err(|error| InputError::Invalid {
            what: "scenario",
            source_name: named.source_name.clone(),
            message: error.to_string(),
            place: None,
        })?;
    let stdout = format!(
        "-- Idempotency Lab: {}, mode {}, seed {seed}\n{}",
        named.source_name,
        mode.name(),
        idempotency_lab::view::psql_scripts(simulation)
    );
    Ok(Outcome { stdout, exit_code: EXIT_HELD })
}

fn simulate(
    source_name: &str,
    scenario: idempotency_lab::sim::Scenario,
    seed: u64,
) -> Result<Trace, InputError> {
    Simulation::run(scenario, seed).map_err(|error| InputError::Invalid {
        what: "scenario",
        source_name: source_name.to_owned(),
        message: error.to_string(),
        place: None,
    })
}

fn replay(path: &std::path::Path, language: Language) -> Result<Outcome, InputError> {
    let words = language.words();
    let (recorded, text) = load_trace(path)?;
    let source_name = path.display().to_string();
    let replayed = Simulation::replay(&recorded)
        .map_err(|error| InputError::Replay { source_name: source_name.clone(), error })?;
    let replayed_json = replayed.to_json();
    let recorded_text = text.strip_suffix('\n').unwrap_or(&text);
    if replayed_json == recorded_text {
        let steps = language.count(&words.counts.steps, recorded.steps.len());
        let stdout = fill(
            words.report.replay_reproduces,
            &[
                ("source", &source_name),
                ("scenario", &recorded.scenario.id),
                ("seed", &recorded.seed),
                ("steps", &steps),
            ],
        ) + "\n";
        return Ok(Outcome { stdout, exit_code: EXIT_HELD });
    }
    let why = if replayed == recorded {
        "the replay equals the trace, but the file is not in the form `run --json` writes \
         (was it reformatted?)"
            .to_owned()
    } else {
        let difference = first_difference(&recorded, &replayed);
        render::trace_difference(&difference.unwrap_or(TraceDifference::Summary))
    };
    let stdout =
        fill(words.report.replay_differs, &[("source", &source_name), ("why", &why)]) + "\n";
    Ok(Outcome { stdout, exit_code: EXIT_VIOLATED })
}
