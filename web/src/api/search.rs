//! `Lab.check`, `Lab.checkHandler` and `Lab.fuzz`: the core's exhaustive checker (on a run's
//! scenario, or as the judge of a handler program) and shrinking fuzzer driven in the core's slices
//! ([`idempotency_lab::slice`]), as the page's panel drives them, behind a
//! Promise: between slices the task yields to the event loop (a zero timeout), so the caller
//! stays responsive, hears `onProgress`, and may cancel through an `AbortSignal`. The budget,
//! the cases and every verdict are the core's; this module reads the options and converts the
//! results.

use std::time::Duration;

use idempotency_lab::check::judge::{
    build_check_config_for, build_lesson, scenario_with_program, why_in,
};
use idempotency_lab::check::{
    CheckConfig, CheckOutcome, CheckProgress, CheckStatus, Checker, FaultBudget,
    two_consumers_duplicate_and_crash_config,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::program::HandlerProgram;
use idempotency_lab::sim::{Scenario, catalogue_scenario};
use idempotency_lab::testing::{FuzzConfig, FuzzReport, FuzzRun, lesson_cases};
use idempotency_lab::view::first_break;
use idempotency_lab::words::Language;
use serde_json::json;
use wasm_bindgen::JsValue;
use yew::platform::time::sleep;

use super::convert::{self, ErrorKind, LabError};
use crate::check_panel::{CHECK_STEP_STATES, FUZZ_CASES, STATE_LIMITS};

/// The most unique states a check may store.
const STATES_MAX: u64 = 10_000_000;
/// The most cases a fuzz may run.
const CASES_MAX: u64 = 1_000_000;
/// The longest path a check may explore.
const DEPTH_MAX: u64 = 10_000;

/// Starts a check of `scenario` with `seed`; the Promise resolves to its `CheckResult`.
pub fn check(
    scenario: Scenario,
    seed: u64,
    options: &JsValue,
    on_progress: &JsValue,
) -> Result<js_sys::Promise, LabError> {
    let on_progress = convert::callback(on_progress, "onProgress")?;
    let reference = two_consumers_duplicate_and_crash_config();
    let states_max = convert::option_or(options, "statesMax", STATE_LIMITS[1], |value, field| {
        Ok(convert::integer(value, field, 1, STATES_MAX)? as usize)
    })?;
    let depth_max =
        convert::option_or(options, "depthMax", reference.depth_max, |value, field| {
            Ok(convert::integer(value, field, 1, DEPTH_MAX)? as usize)
        })?;
    let faults = budget(&convert::option(options, "options", "faults")?, &scenario)?;
    let language = convert::option_or(options, "language", Language::En, convert::language)?;
    let signal = convert::option_or(options, "signal", JsValue::UNDEFINED, convert::signal)?;
    let config = CheckConfig {
        depth_max,
        states_max,
        faults,
        progress_every_states: CHECK_STEP_STATES,
        ..reference
    };
    let checker = Checker::new(scenario, seed, config)
        .map_err(|error| LabError::new(ErrorKind::RunFailed, error.to_string()))?;
    Ok(wasm_bindgen_futures::future_to_promise(drive_check(checker, on_progress, signal, language)))
}

/// Starts the judge of a handler program (its JSON, as `handler check` reads it) over a
/// lesson's schedules, as the build task and `idempotency-lab handler check` judge it: the
/// handler's build lesson unless `options.lesson` names another, the judge's faults and bounds
/// unless `options.statesMax` or `options.depthMax` narrow them. The Promise resolves to its
/// `HandlerCheckResult`: the `CheckResult`, the handler, the lesson and, for a counterexample,
/// the sentence on why the program breaks in `options.language`.
pub fn check_handler(
    program_json: &str,
    options: &JsValue,
    on_progress: &JsValue,
) -> Result<js_sys::Promise, LabError> {
    let program = HandlerProgram::from_json(program_json)
        .map_err(|error| LabError::program(program_json, &error))?;
    let on_progress = convert::callback(on_progress, "onProgress")?;
    let lesson = convert::option_or(
        options,
        "lesson",
        build_lesson(program.handler).to_owned(),
        convert::string,
    )?;
    let base = catalogue_scenario(&lesson).map_err(|error| LabError {
        field: Some("options.lesson".into()),
        ..LabError::new(ErrorKind::UnknownLesson, error.to_string())
    })?;
    let seed = convert::option_or(options, "seed", 0, |value, field| {
        convert::integer(value, field, 0, u64::MAX)
    })?;
    let language = convert::option_or(options, "language", Language::En, convert::language)?;
    let judge = build_check_config_for(program.handler);
    let states_max = convert::option_or(options, "statesMax", judge.states_max, |value, field| {
        Ok(convert::integer(value, field, 1, STATES_MAX)? as usize)
    })?;
    let depth_max = convert::option_or(options, "depthMax", judge.depth_max, |value, field| {
        Ok(convert::integer(value, field, 1, DEPTH_MAX)? as usize)
    })?;
    let signal = convert::option_or(options, "signal", JsValue::UNDEFINED, convert::signal)?;
    let config =
        CheckConfig { depth_max, states_max, progress_every_states: CHECK_STEP_STATES, ..judge };
    let checker = Checker::new(scenario_with_program(&base, &program), seed, config)
        .map_err(|error| LabError::new(ErrorKind::RunFailed, error.to_string()))?;
    let why = why_in(&program, language);
    let handler = program.handler;
    Ok(wasm_bindgen_futures::future_to_promise(async move {
        let mut result = check_in_slices(checker, on_progress, signal, language).await?;
        let violated = result["outcome"] == "violated";
        result["handler"] = json!(handler);
        result["lesson"] = json!(lesson);
        result["why"] = if violated { json!(why) } else { serde_json::Value::Null };
        Ok(convert::to_js(&result))
    }))
}

/// The fault budget `value` names: `"lesson"` (or absent) the scenario's own faults one each,
/// `"none"`, or an object of counts per class (`{ F1: 1, F2: 1 }`).
fn budget(value: &JsValue, scenario: &Scenario) -> Result<FaultBudget, LabError> {
    const FIELD: &str = "options.faults";
    if value.is_undefined() || value.as_string().as_deref() == Some("lesson") {
        return Ok(FaultBudget::for_scenario(scenario));
    }
    if value.as_string().as_deref() == Some("none") {
        return Ok(FaultBudget::none());
    }
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(LabError::argument(
            FIELD,
            format!(
                "must be \"lesson\", \"none\" or an object of counts such as {{ F1: 1 }}, not {}",
                convert::describe(value)
            ),
        ));
    }
    let mut classes = Vec::new();
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let name = key.as_string().unwrap_or_default();
        let Some(class) = FaultClass::from_id(&name) else {
            return Err(LabError::argument(
                &format!("{FIELD}.{name}"),
                format!(
                    "is not a fault class ({} to {})",
                    convert::FIRST_CLASS,
                    convert::LAST_CLASS
                ),
            ));
        };
        let field = format!("{FIELD}.{name}");
        let count = js_sys::Reflect::get(value, &key).unwrap_or(JsValue::UNDEFINED);
        classes.push((class, convert::integer(&count, &field, 0, 16)? as u32));
    }
    Ok(FaultBudget::of(&classes))
}

use wasm_bindgen::JsCast as _;

fn aborted(signal: &JsValue) -> bool {
    signal.is_object()
        && js_sys::Reflect::get(signal, &JsValue::from_str("aborted"))
            .is_ok_and(|aborted| aborted.is_truthy())
}

fn report_progress(
    on_progress: &Option<js_sys::Function>,
    progress: JsValue,
) -> Result<(), JsValue> {
    match on_progress {
        Some(callback) => callback.call1(&JsValue::NULL, &progress).map(drop),
        None => Ok(()),
    }
}

fn check_stats(stats: &CheckProgress) -> serde_json::Value {
    json!({
        "statesExplored": stats.states_explored,
        "uniqueStates": stats.unique_states,
        "depthReached": stats.depth_reached,
        "frontierLen": stats.frontier_len,
    })
}

async fn drive_check(
    checker: Checker,
    on_progress: Option<js_sys::Function>,
    signal: JsValue,
    language: Language,
) -> Result<JsValue, JsValue> {
    Ok(convert::to_js(&check_in_slices(checker, on_progress, signal, language).await?))
}

/// Runs `checker` in slices to its end (or until `signal` aborts), yielding to the event loop
/// between slices; its `CheckResult`.
async fn check_in_slices(
    mut checker: Checker,
    on_progress: Option<js_sys::Function>,
    signal: JsValue,
    language: Language,
) -> Result<serde_json::Value, JsValue> {
    loop {
        if aborted(&signal) {
            let stats = checker.progress();
            return Ok(json!({
                "outcome": "cancelled", "stats": check_stats(&stats), "reason": null,
                "violations": [], "counterexample": null, "brokenAtStep": null,
            }));
        }
        let status = checker.run_slice(CHECK_STEP_STATES, &mut js_sys::Date::now);
        match status {
            Ok(CheckStatus::Running(progress)) => {
                report_progress(&on_progress, convert::to_js(&check_stats(&progress)))?;
            }
            Ok(CheckStatus::Done(report)) => {
                return Ok(check_result(report.outcome, &report.stats, language));
            }
            Err(error) => {
                return Err(LabError::new(ErrorKind::RunFailed, error.to_string()).into());
            }
        }
        sleep(Duration::ZERO).await;
    }
}

/// The `CheckResult` of `outcome`, its violations' titles and sentences in `language`.
fn check_result(
    outcome: CheckOutcome,
    stats: &CheckProgress,
    language: Language,
) -> serde_json::Value {
    let stats = check_stats(stats);
    match outcome {
        CheckOutcome::Proved => json!({
            "outcome": "proved", "stats": stats, "reason": null, "violations": [],
            "counterexample": null, "brokenAtStep": null,
        }),
        CheckOutcome::Bounded { reason } => json!({
            "outcome": "bounded", "stats": stats, "reason": reason.to_string(), "violations": [],
            "counterexample": null, "brokenAtStep": null,
        }),
        CheckOutcome::Violated(counterexample) => {
            let violations: Vec<_> = counterexample
                .violations
                .iter()
                .map(|violation| {
                    json!({
                        "invariant": violation.invariant.to_string(),
                        "title": violation.invariant.title_in(language),
                        "sentence": violation.sentence_in(language),
                    })
                })
                .collect();
            json!({
                "outcome": "violated", "stats": stats, "reason": null, "violations": violations,
                "counterexample": counterexample.trace.to_json_file(),
                "brokenAtStep": counterexample.path.len(),
            })
        }
    }
}

/// Starts a fuzz of `scenario`'s lesson; the Promise resolves to its `FuzzResult`.
pub fn fuzz(
    scenario: Scenario,
    seed: u64,
    options: &JsValue,
    on_progress: &JsValue,
) -> Result<js_sys::Promise, LabError> {
    let on_progress = convert::callback(on_progress, "onProgress")?;
    let cases = convert::option_or(options, "cases", FUZZ_CASES, |value, field| {
        Ok(convert::integer(value, field, 1, CASES_MAX)? as u32)
    })?;
    let fuzz_seed = convert::option_or(options, "seed", seed, |value, field| {
        convert::integer(value, field, 0, u64::MAX)
    })?;
    let signal = convert::option_or(options, "signal", JsValue::UNDEFINED, convert::signal)?;
    let config = FuzzConfig { cases, fuzz_seed, ..FuzzConfig::default() };
    Ok(wasm_bindgen_futures::future_to_promise(drive_fuzz(scenario, config, on_progress, signal)))
}

async fn drive_fuzz(
    scenario: Scenario,
    config: FuzzConfig,
    on_progress: Option<js_sys::Function>,
    signal: JsValue,
) -> Result<JsValue, JsValue> {
    let mut run = FuzzRun::new(lesson_cases(scenario), config);
    loop {
        if aborted(&signal) {
            let report = run.report();
            return Ok(convert::to_js(&json!({
                "outcome": "cancelled", "casesRun": report.cases_run,
                "distinctSeeds": report.distinct_seeds, "violated": [], "shrunkSeed": null,
                "counterexample": null, "brokenAtStep": null,
            })));
        }
        let report = run.run_slice(&mut js_sys::Date::now);
        if report.finished {
            return Ok(convert::to_js(&fuzz_result(report)));
        }
        let progress = run.progress();
        let progress = json!({
            "casesRun": progress.cases_run, "cases": progress.cases, "failed": progress.failed,
        });
        report_progress(&on_progress, convert::to_js(&progress))?;
        sleep(Duration::ZERO).await;
    }
}

fn fuzz_result(report: FuzzReport) -> serde_json::Value {
    let Some(failure) = report.failure else {
        return json!({
            "outcome": "passed", "casesRun": report.cases_run,
            "distinctSeeds": report.distinct_seeds, "violated": [], "shrunkSeed": null,
            "counterexample": null, "brokenAtStep": null,
        });
    };
    let violated: Vec<String> =
        failure.violated.iter().map(|invariant| invariant.to_string()).collect();
    let broke_at =
        first_break(&failure.trace.steps, &failure.violated).unwrap_or(failure.trace.steps.len());
    json!({
        "outcome": "violated", "casesRun": report.cases_run,
        "distinctSeeds": report.distinct_seeds, "violated": violated,
        "shrunkSeed": failure.shrunk.seed.to_string(), "counterexample": failure.trace.to_json_file(),
        "brokenAtStep": broke_at,
    })
}
