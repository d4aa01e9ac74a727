//! The JavaScript API: `Lab`, one run of a lesson, a scenario, a trace or a share link, driven
//! from JavaScript as the page drives it. A `Lab` holds the page's own state ([`LabState`])
//! and changes it only through the page's reducer, so a step, a pattern switch or an injected
//! fault does exactly what the same button does on the page; every rule is the core's
//! (`sim::Run`, `view::pending`, `view::ShareLink`, `Trace::to_json_file`). This module only
//! reads arguments, calls, and converts results ([`convert`]); the exhaustive check and the
//! fuzzer, in slices behind a Promise, are [`search`].

pub mod convert;
mod search;

use std::rc::Rc;

use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{self, Action, CATALOGUE, Scenario, Trace};
use idempotency_lab::store::TableName;
use idempotency_lab::view::{
    Language, ShareLink, invariant_lines, lesson_text, pending, trace_to_mermaid,
};
use serde_json::json;
use wasm_bindgen::prelude::*;

pub use convert::{ErrorKind, LabError};

#[cfg(test)]
mod tests;

use crate::state::{self, LabState};

/// The API's TypeScript types beside those wasm-bindgen writes (`tests.rs` checks its unions
/// against the core's lists).
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "wasm-bindgen copies its text into the .d.ts; only tests read it")
)]
const TYPESCRIPT: &str = r#"
/** A pattern of the shop: P1 stock, P2 order state, P3 the API's Idempotency-Key, P4 the inbox. */
export type PatternId = "p1" | "p2" | "p3" | "p4";
/** A built-in lesson's id (`Lab.lessons()` lists them with their titles). */
export type LessonId =
  | "f01-duplicate-delivery" | "f02-crash-after-commit" | "f03-crash-before-commit"
  | "f04-concurrent-delivery" | "f05-lost-response" | "f06-double-submit" | "f07-key-reuse"
  | "f08-api-crash" | "f09-out-of-order" | "f10-duplicate-after-retention"
  | "f11-retry-with-new-key" | "f12-relay-crash" | "p1-stock-reservation"
  | "p2-order-state-machine" | "p3-idempotency-key" | "p3-slow-request"
  | "p4-inbox-consumer";
/** A language of the lab's words. */
export type Language = "en" | "ru";
/** Which twin of a pattern runs. */
export type Mode = "naive" | "idempotent";
/** An invariant, I1-I7. */
export type InvariantId = "I1" | "I2" | "I3" | "I4" | "I5" | "I6" | "I7";
/** A simulator action's name, as the core serializes it: a normal action's, or a fault's. */
export type LabActionName =
  | "client_send" | "client_timeout" | "client_retry" | "api_step" | "deliver_response"
  | "relay_step" | "broker_deliver" | "consumer_step" | "purge_step" | "advance_clock"
  | FaultActionName;
/** A simulator action as the core serializes it (`{ action: "duplicate_message", entry: 0 }`). */
export interface LabAction { action: LabActionName; [field: string]: unknown }

/** Every error the API throws: an `Error` named "LabError". */
export interface LabError extends Error {
  name: "LabError";
  kind: "BadArgument" | "UnknownLesson" | "InvalidScenario" | "InvalidTrace" | "InvalidLink"
    | "InvalidProgram" | "NotApplicable" | "RunFailed" | "MountFailed" | "Unmounted" | "Freed";
  /** The argument (`seed`, `options.statesMax`) or the JSON path (`requests[0].operation.lines[0].qty`). */
  field: string | null;
  /** Where in the scenario's, the trace's or the program's text, from 1. */
  line: number | null;
  column: number | null;
}

/** A built-in lesson. */
export interface LessonInfo { id: LessonId; title: string; description: string }

/** One fault (or letting time pass) that applies to a waiting item. */
export interface PendingFault {
  /** Its class, or null for letting time pass (the clock). */
  fault: FaultClass | null;
  /** A short label, as on the page's button. */
  label: string;
  /** The exact action, which `inject` also accepts. */
  action: LabAction;
}

/** Something that waits at the current step, with the faults that apply to exactly it. */
export interface PendingItem {
  /** Its id for `inject`: `request-0`, `attempt-1`, `answer-1`, `relay`, `message-0`, `delivery-0`, `retention`, `clock`. */
  item: string;
  label: string;
  detail: string;
  faults: PendingFault[];
}

/** One invariant at the current step. */
export interface InvariantStatus {
  id: InvariantId;
  title: string;
  /** Whether it holds now. */
  held: boolean;
  /** The core's sentences for its violations now. */
  violations: string[];
  /** The step at which it broke in the steps shown, or null. */
  brokeAtStep: number | null;
}

/** A table of the store. */
export type TableName =
  | "orders" | "stock" | "reservations" | "inbox" | "outbox" | "idempotency_keys" | "charges";
/** The committed rows of every table, by table name, as `to_jsonb` returns them. */
export type Tables = Record<TableName, Record<string, unknown>[]>;

/** How many faults of each class one path of the check may take. */
export type FaultBudget = "lesson" | "none" | Partial<Record<FaultClass, number>>;

/** Options of `check`. */
export interface CheckOptions {
  /** The fault budget: the lesson's faults one each (default), none, or counts per class. */
  faults?: FaultBudget;
  /** The most unique states stored (default 100000, at most 10000000). */
  statesMax?: number;
  /** The longest path explored, in steps (default the checker's reference bound). */
  depthMax?: number;
  /** The language of the violations' titles and sentences (default "en"). */
  language?: Language;
  /** Cancels the check between slices. */
  signal?: AbortSignal;
}

/** The checker's progress after a slice. */
export interface CheckProgress { statesExplored: number; uniqueStates: number; depthReached: number; frontierLen: number }

/** How a check ended. */
export interface CheckResult {
  outcome: "proved" | "violated" | "bounded" | "cancelled";
  stats: CheckProgress;
  /** Why a bound ended it (outcome "bounded"). */
  reason: string | null;
  violations: { invariant: InvariantId; title: string; sentence: string }[];
  /** The counterexample as a trace file (`Lab.fromTrace` opens it), or null. */
  counterexample: string | null;
  /** The step at which the counterexample breaks, or null. */
  brokenAtStep: number | null;
}

/** Which handler a program stands in for (its `handler` field). */
export type HandlerKind = "reserve_stock_consumer" | "mark_paid";

/** Options of `Lab.checkHandler`. */
export interface HandlerCheckOptions {
  /** The lesson whose world judges the program (default the handler's build lesson:
   * "p4-inbox-consumer" for a consumer, "p2-order-state-machine" for MarkPaid). */
  lesson?: LessonId;
  /** The seed of the lesson's ids (default 0). */
  seed?: number | bigint;
  /** The most unique states stored (default the judge's bound, at most 10000000). */
  statesMax?: number;
  /** The longest path explored, in steps (default the judge's bound). */
  depthMax?: number;
  /** The language of `why` (default "en"). */
  language?: Language;
  /** Cancels the judge between slices. */
  signal?: AbortSignal;
}

/** How a handler program was judged: a `CheckResult`, and what was judged. */
export interface HandlerCheckResult extends CheckResult {
  handler: HandlerKind;
  lesson: LessonId;
  /** Why the program breaks, for a counterexample (outcome "violated"), or null. */
  why: string | null;
}

/** Options of `fuzz`. */
export interface FuzzOptions {
  /** How many cases (default 256, at most 1000000). */
  cases?: number;
  /** The fuzzer's own seed (default the lab's seed). */
  seed?: number | bigint;
  /** Cancels the fuzz between slices. */
  signal?: AbortSignal;
}

/** The fuzzer's progress after a slice. */
export interface FuzzProgress { casesRun: number; cases: number; failed: boolean }

/** How a fuzz ended. */
export interface FuzzResult {
  outcome: "passed" | "violated" | "cancelled";
  casesRun: number;
  distinctSeeds: number;
  violated: InvariantId[];
  /** The seed of the shrunk failing case (decimal: a seed may exceed a number's range), or null. */
  shrunkSeed: string | null;
  /** The shrunk counterexample as a trace file, or null. */
  counterexample: string | null;
  brokenAtStep: number | null;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = TYPESCRIPT;

/// The fault classes' types, `FaultClass` and `FaultActionName`, from the core's table of
/// fault classes: a new class is in the package's types with nothing to write here.
#[wasm_bindgen(typescript_custom_section)]
const FAULT_TYPES: &'static str = FaultClass::TYPESCRIPT;

/// One run of the lab, driven from JavaScript.
#[wasm_bindgen]
pub struct Lab {
    state: Rc<LabState>,
}

impl Lab {
    fn of(state: LabState) -> Result<Lab, LabError> {
        match state.error {
            Some(error) => Err(LabError::new(ErrorKind::RunFailed, error.to_string())),
            None => Ok(Lab { state: Rc::new(state) }),
        }
    }

    /// Applies `action` through the page's reducer; a refused action (the reducer's banner
    /// error) is an error of `kind` and leaves the lab as it was.
    fn dispatch(&mut self, action: state::Action, kind: ErrorKind) -> Result<(), LabError> {
        let next = self.state.clone().reduce(action);
        if let Some(error) = &next.error {
            return Err(LabError::new(kind, error.to_string()));
        }
        self.state = next;
        Ok(())
    }

    fn trace(&self) -> Trace {
        self.state.trace_at_cursor()
    }

    /// A lab over the state an embed shows (`crate::embed`): its methods drive a copy.
    pub fn over(state: Rc<LabState>) -> Lab {
        Lab { state }
    }

    /// The state this lab holds now, shared.
    pub fn shared_state(&self) -> Rc<LabState> {
        self.state.clone()
    }

    /// `setPattern` with its arguments read.
    pub fn set_pattern_checked(
        &mut self,
        pattern: sim::Pattern,
        mode: sim::PatternMode,
    ) -> Result<(), LabError> {
        self.dispatch(state::Action::SetPattern(pattern, mode), ErrorKind::RunFailed)
    }

    /// Goes one step back (nothing at step 0): the page's Back.
    pub fn step_back(&mut self) -> Result<(), LabError> {
        self.dispatch(state::Action::StepBack, ErrorKind::RunFailed)
    }

    /// The run again from its start, with the same scenario, seed, patterns and choices: the
    /// page's Reset.
    pub fn reset(&mut self) -> Result<(), LabError> {
        self.dispatch(state::Action::Reset, ErrorKind::RunFailed)
    }

    /// The page's state this lab holds: what an embed opens with.
    pub fn into_state(self) -> LabState {
        Rc::unwrap_or_clone(self.state)
    }

    /// `setMode` with its argument called `field`.
    pub fn set_mode_checked(&mut self, mode: &JsValue, field: &str) -> Result<(), LabError> {
        let mode = convert::mode(mode, field)?;
        self.dispatch(state::Action::SetAllPatterns(mode), ErrorKind::RunFailed)
    }

    /// `stepTo` with its argument called `field`: the run stepped until it has `step` steps
    /// (or ends), then shown there.
    pub fn step_to_checked(&mut self, step: &JsValue, field: &str) -> Result<usize, LabError> {
        let limit = self.state.sim.scenario().limits.steps_max as u64;
        let step = convert::integer(step, field, 0, limit)? as usize;
        {
            let state = Rc::make_mut(&mut self.state);
            let sim = Rc::make_mut(&mut state.sim);
            sim.run_to(step);
            // Reached step by step, the last step ends the run as `runToEnd` would.
            sim.settle();
        }
        self.dispatch(state::Action::SeekTo(step), ErrorKind::RunFailed)?;
        Ok(self.state.cursor)
    }
}

#[wasm_bindgen]
impl Lab {
    /// The built-in lessons, in the catalogue's order.
    #[wasm_bindgen(unchecked_return_type = "LessonInfo[]")]
    pub fn lessons() -> JsValue {
        let lessons: Vec<_> = CATALOGUE
            .iter()
            .filter_map(|entry| sim::catalogue_scenario(entry.id).ok())
            .map(|scenario| {
                let text = lesson_text(&scenario, Default::default());
                json!({ "id": scenario.id, "title": text.title, "description": text.description })
            })
            .collect();
        convert::to_js(&lessons)
    }

    /// A built-in lesson, its focus patterns naive, seed 0 (as the page opens it).
    pub fn lesson(
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<Lab, JsValue> {
        let id = convert::string(&id, "id")?;
        let base = sim::catalogue_scenario(&id).map_err(|error| LabError {
            field: Some("id".into()),
            ..LabError::new(ErrorKind::UnknownLesson, error.to_string())
        })?;
        let state = LabState::fresh(&id, base, 0)
            .map_err(|error| LabError::new(ErrorKind::RunFailed, error.to_string()))?;
        Ok(Lab::of(state)?)
    }

    /// A scenario of one's own, from its JSON, its patterns as written, seed 0. A bad scenario
    /// is a `LabError` of kind `InvalidScenario` naming the field's path, line and column.
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(
        #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
    ) -> Result<Lab, JsValue> {
        let text = convert::string(&json, "json")?;
        let scenario = Scenario::from_json(&text)
            .map_err(|error| LabError::scenario(ErrorKind::InvalidScenario, &text, &error))?;
        let mut lab = Lab::of(LabState::initial())?;
        lab.dispatch(state::Action::LoadScenario(Box::new(scenario)), ErrorKind::RunFailed)?;
        Ok(lab)
    }

    /// A share link (its fragment, with or without `#`, or the whole address), opened at its
    /// step with every choice it carries.
    #[wasm_bindgen(js_name = fromLink)]
    pub fn from_link(
        #[wasm_bindgen(unchecked_param_type = "string")] fragment: JsValue,
    ) -> Result<Lab, JsValue> {
        let fragment = convert::string(&fragment, "fragment")?;
        let invalid = |message: String| LabError {
            field: Some("fragment".into()),
            ..LabError::new(ErrorKind::InvalidLink, message)
        };
        ShareLink::decode(&fragment).map_err(|error| invalid(error.to_string()))?;
        let fragment = fragment.split_once('#').map_or(fragment.as_str(), |(_, after)| after);
        Ok(Lab::of(LabState::from_link(fragment).map_err(|error| invalid(error.to_string()))?)?)
    }

    /// A trace file (what `traceJson()` and `run --json` give), replayed and shown at its
    /// last step.
    #[wasm_bindgen(js_name = fromTrace)]
    pub fn from_trace(
        #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
    ) -> Result<Lab, JsValue> {
        let text = convert::string(&json, "json")?;
        let trace = Trace::from_json(&text).map_err(|error| LabError::trace(&text, &error))?;
        let state = LabState::from_trace(&trace).map_err(|error| LabError {
            field: Some("json".into()),
            ..LabError::new(ErrorKind::InvalidTrace, error.to_string())
        })?;
        Ok(Lab::of(state)?)
    }

    /// The run with `seed` (a number up to 2^53 - 1, or a bigint), at step 0, carrying the
    /// learner's choices as the page does: those the new run can place are kept; returns the
    /// steps of those it dropped (the page names them in its banner).
    #[wasm_bindgen(js_name = setSeed, unchecked_return_type = "number[]")]
    pub fn set_seed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] seed: JsValue,
    ) -> Result<JsValue, JsValue> {
        let seed = convert::integer(&seed, "seed", 0, u64::MAX)?;
        self.dispatch(state::Action::SetSeed(seed), ErrorKind::RunFailed)?;
        Ok(convert::to_js(&self.state.dropped))
    }

    /// Switches one pattern's twin; the learner's choices replay in it, at the same step.
    #[wasm_bindgen(js_name = setPattern)]
    pub fn set_pattern(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "PatternId")] pattern: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Mode")] mode: JsValue,
    ) -> Result<(), JsValue> {
        let pattern = convert::pattern(&pattern, "pattern")?;
        let mode = convert::mode(&mode, "mode")?;
        Ok(self.dispatch(state::Action::SetPattern(pattern, mode), ErrorKind::RunFailed)?)
    }

    /// Switches the lesson's focus patterns (all four if it names none) to one twin: the
    /// CLI's `--mode`.
    #[wasm_bindgen(js_name = setMode)]
    pub fn set_mode(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Mode")] mode: JsValue,
    ) -> Result<(), JsValue> {
        Ok(self.set_mode_checked(&mode, "mode")?)
    }

    /// One step forward; `false` when the run has ended there.
    pub fn step(&mut self) -> Result<bool, JsValue> {
        if !self.state.can_step_forward() {
            return Ok(false);
        }
        let before = self.state.cursor;
        self.dispatch(state::Action::StepForward, ErrorKind::RunFailed)?;
        Ok(self.state.cursor > before)
    }

    /// Shows the state after `step` steps, taking new steps if the run has not gone that far;
    /// returns the step reached (fewer if the run ends first).
    #[wasm_bindgen(js_name = stepTo)]
    pub fn step_to(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] step: JsValue,
    ) -> Result<usize, JsValue> {
        Ok(self.step_to_checked(&step, "step")?)
    }

    /// Runs to the end (quiescence or a limit); returns the number of steps.
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&mut self) -> Result<usize, JsValue> {
        self.dispatch(state::Action::RunToEnd, ErrorKind::RunFailed)?;
        Ok(self.state.cursor)
    }

    /// The step shown: 0 is the start.
    #[wasm_bindgen(getter)]
    pub fn cursor(&self) -> usize {
        self.state.cursor
    }

    /// Whether the run has ended at the step shown.
    #[wasm_bindgen(getter)]
    pub fn ended(&self) -> bool {
        !self.state.can_step_forward()
    }

    /// The run's seed, as a decimal string (a seed may exceed a number's exact range).
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> String {
        self.state.seed.to_string()
    }

    /// The scenario's id.
    #[wasm_bindgen(getter, js_name = scenarioId)]
    pub fn scenario_id(&self) -> String {
        self.state.sim.scenario().id.clone()
    }

    /// What the last change did to the learner's choices, when the page would say it (a new
    /// branch, a choice a pattern switch could not place), or `undefined`.
    #[wasm_bindgen(getter)]
    pub fn notice(&self) -> Option<String> {
        self.state.notice.as_ref().map(ToString::to_string)
    }

    /// What waits at the step shown, each item with the faults that apply to exactly it.
    #[wasm_bindgen(unchecked_return_type = "PendingItem[]")]
    pub fn pending(&self) -> JsValue {
        let items: Vec<_> = pending(&self.state.world)
            .into_iter()
            .map(|item| {
                let faults: Vec<_> = item
                    .actions
                    .iter()
                    .map(|action| {
                        json!({
                            "fault": action.fault_class().map(|class| class.to_string()),
                            "label": idempotency_lab::view::fault_button_text(action, Language::En),
                            "action": action,
                        })
                    })
                    .collect();
                json!({
                    "item": item.target.to_string(),
                    "label": item.label,
                    "detail": item.detail,
                    "faults": faults,
                })
            })
            .collect();
        convert::to_js(&items)
    }

    /// Applies a fault to a waiting item at the step shown (before the run's last step, a new
    /// branch): `item` is a pending item's id, `fault` a fault class (`"F1"`, the first of that
    /// class on the item; `"clock"` lets time pass) or one of the item's exact actions.
    pub fn inject(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] item: JsValue,
        #[wasm_bindgen(unchecked_param_type = "FaultClass | \"clock\" | LabAction")] fault: JsValue,
    ) -> Result<(), JsValue> {
        let action = self.fault_action(&item, &fault)?;
        Ok(self.dispatch(state::Action::Inject(action), ErrorKind::NotApplicable)?)
    }

    /// The run up to the step shown as a trace file: byte for byte what
    /// `idempotency-lab run --json` prints for the same scenario, seed and mode.
    #[wasm_bindgen(js_name = traceJson)]
    pub fn trace_json(&self) -> String {
        self.trace().to_json_file()
    }

    /// The run up to the step shown as a Mermaid sequence diagram.
    pub fn mermaid(&self) -> String {
        trace_to_mermaid(&self.trace())
    }

    /// The share link of what the lab shows, as a URL fragment (`#v=2&s=...`).
    #[wasm_bindgen(js_name = shareLink)]
    pub fn share_link(&self) -> String {
        self.state.share_fragment()
    }

    /// I1-I7 at the step shown, as the page's panel shows them (the core's
    /// `view::invariant_lines`): held or not, with the core's sentences in `language` (default
    /// English), and where each broke.
    #[wasm_bindgen(unchecked_return_type = "InvariantStatus[]")]
    pub fn invariants(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "Language")] language: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let language = match language.filter(|value| !value.is_undefined()) {
            None => Language::En,
            Some(value) => convert::language(&value, "language")?,
        };
        let shown = self.state.shown();
        let breaks = self.state.sim.index().breaking_steps(shown);
        let lines = invariant_lines(&self.state.world.violations(), &breaks, language);
        let statuses: Vec<_> = lines
            .iter()
            .map(|line| {
                json!({
                    "id": line.id.to_string(),
                    "title": line.title,
                    "held": line.holds(),
                    "violations": line.sentences,
                    "brokeAtStep": line.broke_at,
                })
            })
            .collect();
        Ok(convert::to_js(&statuses))
    }

    /// The committed rows of every table at the step shown.
    #[wasm_bindgen(unchecked_return_type = "Tables")]
    pub fn tables(&self) -> JsValue {
        let committed = self.state.world.store().committed();
        let tables: serde_json::Map<String, serde_json::Value> = TableName::ALL
            .iter()
            .map(|table| (table.as_str().to_owned(), committed.rows_json(*table).into()))
            .collect();
        convert::to_js(&tables)
    }

    /// Checks every interleaving of this run's scenario, patterns and seed within a fault
    /// budget, in slices that yield to the event loop; `onProgress` hears after each slice.
    #[wasm_bindgen(unchecked_return_type = "Promise<CheckResult>")]
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CheckOptions")] options: Option<JsValue>,
        #[wasm_bindgen(
            js_name = onProgress,
            unchecked_optional_param_type = "(progress: CheckProgress) => void"
        )]
        on_progress: Option<JsValue>,
    ) -> Result<js_sys::Promise, JsValue> {
        let scenario = self.state.sim.scenario().clone();
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let on_progress = on_progress.unwrap_or(JsValue::UNDEFINED);
        Ok(search::check(scenario, self.state.seed, &options, &on_progress)?)
    }

    /// Judges a handler program (its JSON, as `idempotency-lab handler check` reads it) by
    /// the exhaustive checker over a lesson's schedules, in slices that yield to the event
    /// loop; `onProgress` hears after each slice. A program that does not read or validate is a
    /// `LabError` of kind `InvalidProgram` naming the block (`blocks[3]`), its line and column.
    #[wasm_bindgen(js_name = checkHandler, unchecked_return_type = "Promise<HandlerCheckResult>")]
    pub fn check_handler(
        #[wasm_bindgen(unchecked_param_type = "string")] program: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "HandlerCheckOptions")] options: Option<
            JsValue,
        >,
        #[wasm_bindgen(
            js_name = onProgress,
            unchecked_optional_param_type = "(progress: CheckProgress) => void"
        )]
        on_progress: Option<JsValue>,
    ) -> Result<js_sys::Promise, JsValue> {
        let program = convert::string(&program, "program")?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let on_progress = on_progress.unwrap_or(JsValue::UNDEFINED);
        Ok(search::check_handler(&program, &options, &on_progress)?)
    }

    /// Fuzzes this run's lesson (its faults, random fault rates and seeds), shrinking a
    /// failure to a minimal case, in slices; `onProgress` hears after each slice.
    #[wasm_bindgen(unchecked_return_type = "Promise<FuzzResult>")]
    pub fn fuzz(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "FuzzOptions")] options: Option<JsValue>,
        #[wasm_bindgen(
            js_name = onProgress,
            unchecked_optional_param_type = "(progress: FuzzProgress) => void"
        )]
        on_progress: Option<JsValue>,
    ) -> Result<js_sys::Promise, JsValue> {
        let scenario = self.state.sim.scenario().clone();
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let on_progress = on_progress.unwrap_or(JsValue::UNDEFINED);
        Ok(search::fuzz(scenario, self.state.seed, &options, &on_progress)?)
    }
}

impl Lab {
    /// The action `fault` names on the pending item `item`, as `inject` reads them.
    fn fault_action(&self, item: &JsValue, fault: &JsValue) -> Result<Action, LabError> {
        let id = convert::string(item, "item")?;
        let items = pending(&self.state.world);
        let Some(found) = items.iter().find(|pending| pending.target.to_string() == id) else {
            let waiting: Vec<String> = items.iter().map(|item| item.target.to_string()).collect();
            return Err(LabError {
                field: Some("item".into()),
                ..LabError::new(
                    ErrorKind::NotApplicable,
                    format!(
                        "nothing called {id:?} waits at step {} (waiting: {})",
                        self.state.cursor,
                        if waiting.is_empty() { "nothing".into() } else { waiting.join(", ") }
                    ),
                )
            });
        };
        let chosen = if let Some(name) = fault.as_string() {
            let known = name == "clock"
                || FaultClass::ALL.iter().any(|class| class.id().eq_ignore_ascii_case(&name));
            if !known {
                return Err(LabError::argument(
                    "fault",
                    format!(
                        "must be a fault class ({} to {}) or \"clock\", not {name:?}",
                        convert::FIRST_CLASS,
                        convert::LAST_CLASS
                    ),
                ));
            }
            found.actions.iter().find(|action| match action.fault_class() {
                Some(class) => class.id().eq_ignore_ascii_case(&name),
                None => name == "clock" && matches!(action, Action::AdvanceClock { .. }),
            })
        } else if fault.is_object() {
            let action = js_sys::JSON::stringify(fault)
                .ok()
                .and_then(|text| serde_json::from_str::<Action>(&String::from(text)).ok())
                .ok_or_else(|| LabError::argument("fault", "is not an action the lab knows"))?;
            found.actions.iter().find(|candidate| **candidate == action)
        } else {
            return Err(LabError::argument(
                "fault",
                format!(
                    "must be a fault class (\"F1\"), \"clock\" or an action, not {}",
                    convert::describe(fault)
                ),
            ));
        };
        chosen.cloned().ok_or_else(|| {
            let applicable: Vec<String> = found
                .actions
                .iter()
                .map(|action| {
                    action
                        .fault_class()
                        .map_or_else(|| "clock".to_owned(), |class| class.to_string())
                })
                .collect();
            LabError {
                field: Some("fault".into()),
                ..LabError::new(
                    ErrorKind::NotApplicable,
                    format!(
                        "that fault does not apply to {id} now (it takes: {})",
                        if applicable.is_empty() { "none".into() } else { applicable.join(", ") }
                    ),
                )
            }
        })
    }
}
