//! The fuzz and exhaustive-check panel: checks every interleaving of the page's run (or of the
//! checker's reference scenario) within a fault budget the learner picks, or fuzzes the lesson
//! over many seeds, in slices between frames so the page stays responsive, with a progress
//! bar, a Cancel button that stops the work, and a button that opens the counterexample in the
//! diagram.
//!
//! Every decision is the core's: the page only drives [`Checker::run_for`] and
//! [`FuzzRun::run_for`] one slice at a time (a `spawn_local` task that yields to the browser
//! after each slice) and renders what they report.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use idempotency_lab::check::{
    CheckConfig, CheckError, CheckOutcome, CheckProgress, CheckReport, CheckStatus, Checker,
    FaultBudget, two_consumers_duplicate_and_crash, two_consumers_duplicate_and_crash_config,
    two_consumers_two_orders_duplicate_and_crash,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{PatternMode, Patterns, Scenario, Trace};
use idempotency_lab::testing::{FuzzConfig, FuzzProgress, FuzzRun, lesson_cases};
use idempotency_lab::view::{fired_faults_text, first_break};
use idempotency_lab::words::{Language, fill};
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::yielding::{PROGRESS_EVERY_MS, yield_to_browser};

/// States the checker expands per call; calls repeat until the slice's time
/// ([`SLICE_MS`](idempotency_lab::slice::SLICE_MS)) has passed.
pub const CHECK_STEP_STATES: usize = 16;
/// Cases one fuzz run takes at most.
pub const FUZZ_CASES: u32 = 256;
/// The limits of unique states the learner can pick.
pub const STATE_LIMITS: [usize; 3] = [10_000, 100_000, 1_000_000];

/// What is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckTarget {
    /// The page's run: its scenario, pattern switches and seed.
    ThisRun,
    /// The checker's reference scenario (two consumers, a duplicate and a crash) with the
    /// page's pattern switches.
    Reference,
    /// The checker's two-message reference scenario (two orders, so two distinct messages)
    /// with the page's pattern switches.
    ReferenceTwoOrders,
}

/// The fault budgets offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetPreset {
    /// One fault of each class the lesson injects or draws at random (the reference budget,
    /// one F1 and one F2, when it names none).
    Lesson,
    /// One duplicate delivery.
    OneDuplicate,
    /// One duplicate delivery and one crash after commit.
    DuplicateAndCrash,
    /// Two duplicate deliveries.
    TwoDuplicates,
    /// No faults: the normal interleavings only.
    NoFaults,
}

impl BudgetPreset {
    /// Every preset, in the order of the picker.
    pub const ALL: [BudgetPreset; 5] = [
        BudgetPreset::Lesson,
        BudgetPreset::OneDuplicate,
        BudgetPreset::DuplicateAndCrash,
        BudgetPreset::TwoDuplicates,
        BudgetPreset::NoFaults,
    ];

    fn key(self) -> &'static str {
        match self {
            BudgetPreset::Lesson => "lesson",
            BudgetPreset::OneDuplicate => "f1",
            BudgetPreset::DuplicateAndCrash => "f1-f2",
            BudgetPreset::TwoDuplicates => "f1x2",
            BudgetPreset::NoFaults => "none",
        }
    }

    fn from_key(key: &str) -> BudgetPreset {
        BudgetPreset::ALL
            .into_iter()
            .find(|preset| preset.key() == key)
            .unwrap_or(BudgetPreset::Lesson)
    }

    /// The budget for a check of `scenario`.
    pub fn budget(self, scenario: &Scenario) -> FaultBudget {
        match self {
            BudgetPreset::Lesson => FaultBudget::for_scenario(scenario),
            BudgetPreset::OneDuplicate => FaultBudget::of(&[(FaultClass::F1, 1)]),
            BudgetPreset::DuplicateAndCrash => {
                FaultBudget::of(&[(FaultClass::F1, 1), (FaultClass::F2, 1)])
            }
            BudgetPreset::TwoDuplicates => FaultBudget::of(&[(FaultClass::F1, 2)]),
            BudgetPreset::NoFaults => FaultBudget::none(),
        }
    }

    fn label(self, language: Language) -> &'static str {
        let w = language.words();
        match self {
            BudgetPreset::Lesson => w.check.ck_preset_lesson,
            BudgetPreset::OneDuplicate => w.check.ck_preset_one_duplicate,
            BudgetPreset::DuplicateAndCrash => w.check.ck_preset_duplicate_and_crash,
            BudgetPreset::TwoDuplicates => w.check.ck_preset_two_duplicates,
            BudgetPreset::NoFaults => w.check.ck_preset_no_faults,
        }
    }
}

/// A fault budget in words: `F1 ×1 + F2 ×1`, or `no faults`.
pub fn budget_text(budget: &FaultBudget, language: Language) -> String {
    if budget.0.is_empty() {
        return language.words().check.ck_no_faults.to_owned();
    }
    let parts: Vec<String> =
        budget.0.iter().map(|(class, count)| format!("{class} ×{count}")).collect();
    parts.join(" + ")
}

/// The pattern switches in words: `P1 naive, P2 naive, P3 idempotent, P4 naive`.
pub fn patterns_text(patterns: &Patterns, language: Language) -> String {
    let w = language.words();
    let word = |mode: PatternMode| match mode {
        PatternMode::Naive => w.labels.ui_naive,
        PatternMode::Idempotent => w.labels.ui_idempotent,
    };
    format!(
        "P1 {}, P2 {}, P3 {}, P4 {}",
        word(patterns.p1_stock),
        word(patterns.p2_order),
        word(patterns.p3_api),
        word(patterns.p4_inbox)
    )
}

/// The scenario and configuration a check of `target` runs, as the page builds them from its
/// run, `preset` and `states_max`.
pub fn check_input(
    target: CheckTarget,
    run: &Scenario,
    preset: BudgetPreset,
    states_max: usize,
) -> (Scenario, CheckConfig) {
    let scenario = match target {
        CheckTarget::ThisRun => run.clone(),
        CheckTarget::Reference => two_consumers_duplicate_and_crash(run.patterns),
        CheckTarget::ReferenceTwoOrders => {
            two_consumers_two_orders_duplicate_and_crash(run.patterns)
        }
    };
    let config = CheckConfig {
        states_max,
        faults: preset.budget(&scenario),
        progress_every_states: CHECK_STEP_STATES,
        ..two_consumers_duplicate_and_crash_config()
    };
    (scenario, config)
}

/// Props of [`CheckPanel`].
#[derive(Properties, PartialEq)]
pub struct CheckPanelProps {
    /// The page's scenario, with its pattern switches.
    pub scenario: Scenario,
    /// The page's seed.
    pub seed: u64,
    /// The panel's state, part of the page's one state (`crate::page::PageState::check`).
    pub state: CheckState,
    /// What the learner picks and what the work reports, for the page's reducer.
    pub on_message: Callback<CheckMsg>,
    /// Opens a run in the page at a step: the counterexample, at its violating step.
    pub on_open: Callback<(Rc<Trace>, usize)>,
    /// The page's language, of the findings the core words (a check stopped by a bound).
    pub language: Language,
}

/// What runs now.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// Nothing.
    Idle,
    /// The checker, with its progress and its limit of unique states.
    Checking {
        /// How far it got.
        progress: CheckProgress,
        /// The limit.
        states_max: usize,
    },
    /// The fuzzer, with its progress.
    Fuzzing(FuzzProgress),
}

/// How a run ended, in words, with the run to open if there is one.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// `proved`, `violated`, `bounded`, `passed`, `cancelled` or `error`.
    kind: &'static str,
    summary: String,
    details: Vec<String>,
    open: Option<(Rc<Trace>, usize)>,
}

/// The panel's state while it is open: what the learner picked, what runs and what the last
/// run found. The page holds it (`None` when the panel is closed); [`CheckState::reduce`] is
/// its part of the page's reducer.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckState {
    /// Which run is the current one: the news of an older run changes nothing.
    pub generation: u64,
    /// What runs.
    pub job: Job,
    /// What runs, or ran last, in words.
    pub what: String,
    /// What the last run found.
    pub finding: Option<Finding>,
    /// What is checked.
    pub target: CheckTarget,
    /// The fault budget.
    pub preset: BudgetPreset,
    /// The limit of unique states.
    pub states_max: usize,
}

impl Default for CheckState {
    fn default() -> CheckState {
        CheckState {
            generation: 0,
            job: Job::Idle,
            what: String::new(),
            finding: None,
            target: CheckTarget::ThisRun,
            preset: BudgetPreset::Lesson,
            states_max: STATE_LIMITS[1],
        }
    }
}

/// What the learner picks in the panel, and what its work reports.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckMsg {
    /// Check this target.
    Target(CheckTarget),
    /// With this fault budget.
    Preset(BudgetPreset),
    /// Within this many unique states.
    Limit(usize),
    /// A check or a fuzz run starts: a new generation.
    Start {
        /// What runs, in words.
        what: String,
        /// Its first progress.
        job: Job,
    },
    /// The progress of the run of `generation`.
    Progress {
        /// The run's generation.
        generation: u64,
        /// Its progress.
        job: Job,
    },
    /// The run of `generation` ended.
    Finish {
        /// The run's generation.
        generation: u64,
        /// What it found.
        finding: Finding,
    },
}

impl CheckState {
    /// The state after `msg`.
    pub fn reduce(&self, msg: CheckMsg) -> CheckState {
        let mut next = self.clone();
        match msg {
            CheckMsg::Target(target) => next.target = target,
            CheckMsg::Preset(preset) => next.preset = preset,
            CheckMsg::Limit(states_max) => next.states_max = states_max,
            CheckMsg::Start { what, job } => {
                next.generation += 1;
                next.job = job;
                next.what = what;
                next.finding = None;
            }
            CheckMsg::Progress { generation, job } if generation == self.generation => {
                next.job = job;
            }
            CheckMsg::Finish { generation, finding } if generation == self.generation => {
                next.job = Job::Idle;
                next.finding = Some(finding);
            }
            // A message of a run that was cancelled or replaced.
            CheckMsg::Progress { .. } | CheckMsg::Finish { .. } => {}
        }
        next
    }

    /// Whether a check or a fuzz run is going.
    pub fn running(&self) -> bool {
        self.job != Job::Idle
    }
}

fn stats_text(stats: &CheckProgress, language: Language) -> String {
    fill(
        language.words().check.ck_stats,
        &[
            ("explored", &stats.states_explored),
            ("unique", &stats.unique_states),
            ("depth", &stats.depth_reached),
        ],
    )
}

fn check_finding(outcome: CheckOutcome, stats: &CheckProgress, language: Language) -> Finding {
    match outcome {
        CheckOutcome::Proved => Finding {
            kind: "proved",
            summary: fill(
                language.words().check.ck_proved,
                &[
                    ("explored", &stats.states_explored),
                    ("unique", &stats.unique_states),
                    ("depth", &stats.depth_reached),
                ],
            ),
            details: vec![],
            open: None,
        },
        CheckOutcome::Bounded { reason } => Finding {
            kind: "bounded",
            summary: fill(
                language.words().report.check_panel_bounded,
                &[
                    ("reason", &reason.sentence_in(language)),
                    ("states", &stats.states_explored),
                    ("unique", &stats.unique_states),
                    ("depth", &stats.depth_reached),
                ],
            ),
            details: vec![],
            open: None,
        },
        CheckOutcome::Violated(counterexample) => {
            let ids: Vec<String> = counterexample
                .violations
                .iter()
                .map(|violation| {
                    format!("{} {}", violation.invariant, violation.invariant.title_in(language))
                })
                .collect();
            Finding {
                kind: "violated",
                summary: fill(
                    language.words().check.ck_violated,
                    &[
                        ("ids", &ids.join(", ")),
                        ("steps", &counterexample.path.len()),
                        ("stats", &stats_text(stats, language)),
                    ],
                ),
                details: counterexample
                    .violations
                    .iter()
                    .map(|violation| {
                        format!("{}: {}", violation.invariant, violation.sentence_in(language))
                    })
                    .collect(),
                open: Some((Rc::new(counterexample.trace), counterexample.path.len())),
            }
        }
    }
}

fn error_finding(error: String, language: Language) -> Finding {
    Finding {
        kind: "error",
        summary: fill(language.words().check.ck_error, &[("error", &error)]),
        details: vec![],
        open: None,
    }
}

/// How a check run in slices ended.
pub enum SliceEnd {
    /// `cancel` was set: the counters when it stopped.
    Cancelled(CheckProgress),
    /// The check ended: its report, or the error it stopped with.
    Done(Result<CheckReport, CheckError>),
}

/// Runs `checker` in slices of at most [`SLICE_MS`](idempotency_lab::slice::SLICE_MS) until it ends or `cancel` is set, yielding
/// to the browser between slices ([`yield_to_browser`]) and reporting its progress to
/// `progress` every [`PROGRESS_EVERY_MS`]: the one loop by which the page checks without
/// freezing (this panel, and the build task's judge).
pub async fn check_in_slices(
    mut checker: Checker,
    cancel: Rc<Cell<bool>>,
    progress: Callback<CheckProgress>,
) -> SliceEnd {
    let mut reported = js_sys::Date::now();
    loop {
        if cancel.get() {
            return SliceEnd::Cancelled(checker.progress());
        }
        let status = checker.run_slice(CHECK_STEP_STATES, &mut js_sys::Date::now);
        match status {
            Ok(CheckStatus::Running(stats)) => {
                if js_sys::Date::now() - reported >= PROGRESS_EVERY_MS {
                    reported = js_sys::Date::now();
                    progress.emit(stats);
                }
            }
            Ok(CheckStatus::Done(report)) => return SliceEnd::Done(Ok(report)),
            Err(error) => return SliceEnd::Done(Err(error)),
        }
        // Yield to the browser: it renders the progress and handles clicks (Cancel) here.
        yield_to_browser().await;
    }
}

/// Runs `checker` in slices until it ends or `cancel` is set, reporting to `dispatch`.
async fn drive_check(
    checker: Checker,
    states_max: usize,
    language: Language,
    generation: u64,
    cancel: Rc<Cell<bool>>,
    dispatch: Callback<CheckMsg>,
) {
    let progress = dispatch.reform(move |progress| CheckMsg::Progress {
        generation,
        job: Job::Checking { progress, states_max },
    });
    let finding = match check_in_slices(checker, cancel, progress).await {
        SliceEnd::Cancelled(stats) => Finding {
            kind: "cancelled",
            summary: fill(
                language.words().check.ck_cancelled,
                &[("stats", &stats_text(&stats, language))],
            ),
            details: vec![],
            open: None,
        },
        SliceEnd::Done(Ok(report)) => check_finding(report.outcome, &report.stats, language),
        SliceEnd::Done(Err(error)) => error_finding(error.to_string(), language),
    };
    dispatch.emit(CheckMsg::Finish { generation, finding });
}

/// Fuzzes `scenario` in slices until the run ends or `cancel` is set.
async fn drive_fuzz(
    scenario: Scenario,
    fuzz_seed: u64,
    language: Language,
    generation: u64,
    cancel: Rc<Cell<bool>>,
    dispatch: Callback<CheckMsg>,
) {
    let config = FuzzConfig { cases: FUZZ_CASES, fuzz_seed, ..FuzzConfig::default() };
    let mut run = FuzzRun::new(lesson_cases(scenario), config);
    loop {
        if cancel.get() {
            let report = run.report();
            dispatch.emit(CheckMsg::Finish {
                generation,
                finding: Finding {
                    kind: "cancelled",
                    summary: fill(
                        language.words().check.ck_fuzz_cancelled,
                        &[("run", &report.cases_run), ("cases", &FUZZ_CASES)],
                    ),
                    details: vec![],
                    open: None,
                },
            });
            return;
        }
        let report = run.run_slice(&mut js_sys::Date::now);
        if report.finished {
            dispatch.emit(CheckMsg::Finish { generation, finding: fuzz_finding(report, language) });
            return;
        }
        dispatch.emit(CheckMsg::Progress { generation, job: Job::Fuzzing(run.progress()) });
        yield_to_browser().await;
    }
}

fn fuzz_finding(report: idempotency_lab::testing::FuzzReport, language: Language) -> Finding {
    let w = language.words();
    let Some(failure) = report.failure else {
        return Finding {
            kind: "passed",
            summary: fill(
                w.check.ck_fuzz_passed,
                &[("cases", &report.cases_run), ("seeds", &report.distinct_seeds)],
            ),
            details: vec![],
            open: None,
        };
    };
    let ids: Vec<String> = failure
        .violated
        .iter()
        .map(|invariant| format!("{invariant} {}", invariant.title_in(language)))
        .collect();
    let trace = failure.trace;
    let fired = trace.fired_faults();
    // The first step at which a violated invariant broke: where the diagram opens.
    let broke_at = first_break(&trace.steps, &failure.violated).unwrap_or(trace.steps.len());
    Finding {
        kind: "violated",
        summary: fill(
            w.check.ck_fuzz_violated,
            &[
                ("ids", &ids.join(", ")),
                ("case", &report.cases_run),
                ("cases", &FUZZ_CASES),
                ("shrink", &failure.shrink_steps),
                ("seed", &failure.shrunk.seed),
                ("injected", &fired_faults_text(&fired.injected, language)),
                ("random", &fired_faults_text(&fired.random, language)),
                ("broke_at", &broke_at),
                ("steps", &trace.steps.len()),
            ],
        ),
        details: trace
            .steps
            .iter()
            .flat_map(|step| step.new_violations.iter())
            .filter(|violation| failure.violated.contains(&violation.invariant))
            .map(|violation| {
                format!("{}: {}", violation.invariant, violation.sentence_in(language))
            })
            .take(3)
            .collect(),
        open: Some((Rc::new(trace), broke_at)),
    }
}

/// The running task's cancel flag, set when the panel closes (the page leaves it) or a new
/// run replaces the task.
#[hook]
fn use_cancel_flag() -> Rc<RefCell<Rc<Cell<bool>>>> {
    let cancel = use_mut_ref(|| Rc::new(Cell::new(false)));
    {
        let cancel = cancel.clone();
        use_effect_with((), move |_| move || cancel.borrow().set(true));
    }
    cancel
}

/// Sets the running task's flag, and gives the next task a fresh one.
fn fresh_flag(cancel: &RefCell<Rc<Cell<bool>>>) -> Rc<Cell<bool>> {
    cancel.borrow().set(true);
    let flag = Rc::new(Cell::new(false));
    *cancel.borrow_mut() = flag.clone();
    flag
}

/// Check: the checker over `scenario` with `config`, in a task of slices.
fn on_check(
    props: &CheckPanelProps,
    cancel: &Rc<RefCell<Rc<Cell<bool>>>>,
    (scenario, config): (Scenario, CheckConfig),
    what: String,
) -> Callback<MouseEvent> {
    let generation = props.state.generation + 1;
    let (seed, language, send) = (props.seed, props.language, props.on_message.clone());
    let cancel = cancel.clone();
    Callback::from(move |_: MouseEvent| {
        let states_max = config.states_max;
        send.emit(CheckMsg::Start {
            what: fill(language.words().check.ck_checking, &[("what", &what)]),
            job: Job::Checking { progress: CheckProgress::default(), states_max },
        });
        match Checker::new(scenario.clone(), seed, config.clone()) {
            Ok(checker) => {
                let flag = fresh_flag(&cancel);
                spawn_local(drive_check(
                    checker,
                    states_max,
                    language,
                    generation,
                    flag,
                    send.clone(),
                ));
            }
            Err(error) => send.emit(CheckMsg::Finish {
                generation,
                finding: error_finding(error.to_string(), language),
            }),
        }
    })
}

/// Fuzz: the fuzzer over the page's run, in a task of slices.
fn on_fuzz(props: &CheckPanelProps, cancel: &Rc<RefCell<Rc<Cell<bool>>>>) -> Callback<MouseEvent> {
    let generation = props.state.generation + 1;
    let (seed, run, send) = (props.seed, props.scenario.clone(), props.on_message.clone());
    let language = props.language;
    let cancel = cancel.clone();
    Callback::from(move |_: MouseEvent| {
        send.emit(CheckMsg::Start {
            what: fill(
                language.words().check.ck_fuzzing,
                &[
                    ("scenario", &run.id),
                    ("patterns", &patterns_text(&run.patterns, language)),
                    ("cases", &FUZZ_CASES),
                    ("seed", &seed),
                ],
            ),
            job: Job::Fuzzing(FuzzProgress { cases_run: 0, cases: FUZZ_CASES, failed: false }),
        });
        let flag = fresh_flag(&cancel);
        spawn_local(drive_fuzz(run.clone(), seed, language, generation, flag, send.clone()));
    })
}

/// A `<select>`'s change, as the message `read` makes of its value.
fn on_select(
    send: &Callback<CheckMsg>,
    read: impl Fn(&str) -> Option<CheckMsg> + 'static,
) -> Callback<Event> {
    let send = send.clone();
    Callback::from(move |event: Event| {
        let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
        if let Some(msg) = read(&select.value()) {
            send.emit(msg);
        }
    })
}

/// What to check, the fault budget and the limit.
fn check_options(state: &CheckState, send: &Callback<CheckMsg>, language: Language) -> Html {
    let w = language.words();
    let running = state.running();
    let on_target = on_select(send, |value| {
        Some(CheckMsg::Target(match value {
            "reference" => CheckTarget::Reference,
            "reference-two-orders" => CheckTarget::ReferenceTwoOrders,
            _ => CheckTarget::ThisRun,
        }))
    });
    let on_preset = on_select(send, |value| Some(CheckMsg::Preset(BudgetPreset::from_key(value))));
    let on_limit = on_select(send, |value| value.parse().ok().map(CheckMsg::Limit));
    let target = state.target;
    html! {
        <div class="check-options">
            <label>{ w.check.ck_what }
                <select data-testid="check-target" onchange={on_target} disabled={running}>
                    <option value="this-run" selected={target == CheckTarget::ThisRun}>{ w.check.ck_target_this_run }</option>
                    <option value="reference" selected={target == CheckTarget::Reference}>{ w.check.ck_target_reference }</option>
                    <option value="reference-two-orders" selected={target == CheckTarget::ReferenceTwoOrders}>{ w.check.ck_target_reference_two }</option>
                </select>
            </label>
            <label>{ w.check.ck_faults }
                <select data-testid="check-budget" onchange={on_preset} disabled={running}>
                    { for BudgetPreset::ALL.iter().map(|option| html! {
                        <option value={option.key()} selected={*option == state.preset}>{ option.label(language) }</option>
                    }) }
                </select>
            </label>
            <label>{ w.check.ck_limit }
                <select data-testid="check-limit" onchange={on_limit} disabled={running}>
                    { for STATE_LIMITS.iter().map(|limit| html! {
                        <option value={limit.to_string()} selected={*limit == state.states_max}>{ fill(w.check.ck_limit_option, &[("limit", limit)]) }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// The progress bar of what runs.
fn progress_bar(job: &Job, language: Language) -> Html {
    let w = language.words();
    match job {
        Job::Idle => html! {},
        Job::Checking { progress, states_max } => html! {
            <div class="check-progress" data-testid="check-progress">
                <progress max={states_max.to_string()} value={progress.unique_states.to_string()} />
                <span>{ fill(w.check.ck_progress_check, &[
                    ("unique", &progress.unique_states),
                    ("limit", states_max),
                    ("explored", &progress.states_explored),
                    ("depth", &progress.depth_reached),
                    ("frontier", &progress.frontier_len),
                ]) }</span>
            </div>
        },
        Job::Fuzzing(progress) => html! {
            <div class="check-progress" data-testid="check-progress">
                <progress max={progress.cases.to_string()} value={progress.cases_run.to_string()} />
                <span>{ fill(w.check.ck_progress_fuzz, &[("run", &progress.cases_run), ("cases", &progress.cases)]) }</span>
            </div>
        },
    }
}

/// What the last run found, with the button that opens its counterexample.
fn finding_view(
    finding: &Finding,
    on_open: &Callback<(Rc<Trace>, usize)>,
    language: Language,
) -> Html {
    html! {
        <div class={classes!("check-result", finding.kind)} data-testid="check-result" data-kind={finding.kind}>
            <p class="summary" data-testid="check-summary">{ finding.summary.clone() }</p>
            { for finding.details.iter().map(|detail| html! { <p class="sentence">{ detail.clone() }</p> }) }
            if let Some((trace, step)) = finding.open.clone() {
                <button data-testid="open-counterexample" onclick={
                    let on_open = on_open.clone();
                    move |_| on_open.emit((trace.clone(), step))
                }>{ fill(language.words().check.ck_open, &[("step", &step)]) }</button>
            }
        </div>
    }
}

/// The panel.
#[function_component(CheckPanel)]
pub fn check_panel(props: &CheckPanelProps) -> Html {
    let cancel = use_cancel_flag();
    let state = &props.state;
    let running = state.running();
    let input = check_input(state.target, &props.scenario, state.preset, state.states_max);
    let (language, w) = (props.language, props.language.words());
    let what = fill(
        w.check.ck_what_line,
        &[
            ("scenario", &input.0.id),
            ("patterns", &patterns_text(&input.0.patterns, language)),
            ("seed", &props.seed),
            ("faults", &budget_text(&input.1.faults, language)),
            ("limit", &input.1.states_max),
        ],
    );
    let will_check = fill(w.check.ck_will_check, &[("what", &what)]);
    let on_check = on_check(props, &cancel, input, what);
    let on_fuzz = on_fuzz(props, &cancel);
    let on_cancel = Callback::from(move |_: MouseEvent| cancel.borrow().set(true));
    let status = match (running, state.finding.is_some()) {
        (true, _) => "running",
        (false, true) => "done",
        (false, false) => "idle",
    };
    html! {
        <section class="check-panel" aria-label={props.language.words().labels.ui_check_group} data-testid="check-panel" data-status={status}>
            <h2>{ w.check.ck_heading }</h2>
            { check_options(state, &props.on_message, language) }
            <p class="check-what" data-testid="check-what">{ will_check }</p>
            <div class="check-buttons">
                <button data-testid="check-run" onclick={on_check} disabled={running}>{ w.check.ck_run_check }</button>
                <button data-testid="fuzz-run" onclick={on_fuzz} disabled={running}>{ fill(w.check.ck_run_fuzz, &[("cases", &FUZZ_CASES)]) }</button>
                <button data-testid="check-cancel" onclick={on_cancel} disabled={!running}>{ w.check.ck_cancel }</button>
            </div>
            if running || state.finding.is_some() {
                <p class="check-running" data-testid="check-running-what">{ state.what.clone() }</p>
            }
            { progress_bar(&state.job, language) }
            if let Some(finding) = &state.finding {
                { finding_view(finding, &props.on_open, language) }
            }
        </section>
    }
}
