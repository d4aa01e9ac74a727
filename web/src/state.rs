//! The page's state and its reducer: which scenario, which seed, which twin of each pattern,
//! the run (a core [`Simulation`]) and the step the learner is looking at. Every button of the
//! page is an [`Action`]; [`LabState::reduce`] is the only place the state changes, and it
//! only calls the core: the page holds no simulation logic of its own.

use std::rc::Rc;

use idempotency_lab::sim::{
    self, CATALOGUE, Choice, Pattern, PatternMode, Patterns, Scenario, Simulation, Trace,
    TraceStep, World,
};
use idempotency_lab::view::{self, ShareError, ShareLink, SharedScenario, UserChoice};
use yew::prelude::*;

/// The catalogue entry the page opens with.
pub const FIRST_SCENARIO: &str = "f01-duplicate-delivery";
/// The id shown for a scenario that came from a file rather than the catalogue.
pub const IMPORTED_SCENARIO: &str = "imported";
/// Play speeds offered, in milliseconds per step.
pub const SPEEDS_MS: [u32; 4] = [1200, 600, 250, 80];

/// Everything the page shows.
#[derive(Clone, Debug)]
pub struct LabState {
    /// The catalogue id of the scenario, or [`IMPORTED_SCENARIO`].
    pub scenario_id: String,
    /// The scenario as loaded, before the pattern switches.
    pub base: Scenario,
    /// The twin of each pattern that runs.
    pub patterns: Patterns,
    /// The seed of the run.
    pub seed: u64,
    /// The run so far (it may be ahead of the cursor after a rewind). Shared between states,
    /// so that an action that does not change the run does not copy it.
    pub sim: Rc<Simulation>,
    /// How many steps are shown: 0 is the start.
    pub cursor: usize,
    /// The world after `cursor` steps.
    pub world: World,
    /// Whether play is on.
    pub playing: bool,
    /// Milliseconds per step while playing.
    pub speed_ms: u32,
    /// The last error to show in the banner (a bad link, a bad file, a refused fault).
    pub error: Option<String>,
    /// Leave the address's fragment alone: it holds a link that could not be opened, which
    /// the learner may want to read; the next action clears this.
    pub keep_fragment: bool,
    /// Whether the naive-vs-idempotent comparison is shown.
    pub compare_open: bool,
}

/// What the learner can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Open a catalogue scenario (naive focus patterns, seed 0).
    SelectScenario(String),
    /// Run with another seed.
    SetSeed(u64),
    /// Switch one pattern's twin.
    SetPattern(Pattern, PatternMode),
    /// Switch the lesson's focus patterns (all four if it names none) to one twin.
    SetAllPatterns(PatternMode),
    /// Start the run again from step 0.
    Reset,
    /// One step forward (taking a new step at the end of the run).
    StepForward,
    /// One step back.
    StepBack,
    /// Show the state after this many steps.
    SeekTo(usize),
    /// Run to the end (quiescence or a limit).
    RunToEnd,
    /// Play on or off.
    TogglePlay,
    /// A play timer tick: like `StepForward`, and stop playing at the end.
    PlayTick,
    /// Milliseconds per step while playing.
    SetSpeed(u32),
    /// Apply a (fault) action chosen by the learner at the cursor; later steps are dropped.
    Inject(sim::Action),
    /// Open a run read from a trace file or a share link.
    LoadTrace(Box<Trace>),
    /// Open a run found by the checker or the fuzzer, shown at `step` (where it broke).
    OpenRunAt(Box<Trace>, usize),
    /// Open a scenario read from a file.
    LoadScenario(Box<Scenario>),
    /// Open a share link (a URL fragment).
    OpenLink(String),
    /// Show or hide the naive-vs-idempotent comparison.
    ToggleCompare,
    /// Show an error in the banner.
    ShowError(String),
    /// Hide the banner.
    DismissError,
}

impl LabState {
    /// The page's first state: the first lesson, its focus patterns naive, seed 0.
    pub fn initial() -> LabState {
        let scenario = sim::catalogue_scenario(FIRST_SCENARIO)
            .map_err(|error| error.to_string())
            .and_then(|scenario| LabState::fresh(FIRST_SCENARIO, scenario, 0));
        match scenario {
            Ok(state) => state,
            // The catalogue is compiled in and tested: this is a bug, shown, not panicked on.
            Err(error) => {
                let mut state = LabState::empty();
                state.error = Some(error);
                state
            }
        }
    }

    fn empty() -> LabState {
        let base = Scenario::from_json("{\"format_version\":1,\"requests\":[]}")
            .unwrap_or_else(|_| first_catalogue_scenario());
        let sim = Simulation::new(base.clone(), 0).unwrap_or_else(|_| {
            Simulation::new(first_catalogue_scenario(), 0).expect("the catalogue is valid")
        });
        LabState {
            scenario_id: IMPORTED_SCENARIO.to_owned(),
            patterns: base.patterns,
            world: sim.world().clone(),
            base,
            seed: 0,
            sim: Rc::new(sim),
            cursor: 0,
            playing: false,
            speed_ms: SPEEDS_MS[1],
            error: None,
            keep_fragment: false,
            compare_open: false,
        }
    }

    /// A new run of `base` with its focus patterns naive.
    pub fn fresh(id: &str, base: Scenario, seed: u64) -> Result<LabState, String> {
        let patterns = base.with_mode(PatternMode::Naive).patterns;
        LabState::with_run(id, base, patterns, seed)
    }

    fn with_run(
        id: &str,
        base: Scenario,
        patterns: Patterns,
        seed: u64,
    ) -> Result<LabState, String> {
        let scenario = Scenario { patterns, ..base.clone() };
        let sim = Simulation::new(scenario, seed).map_err(|error| error.to_string())?;
        Ok(LabState {
            scenario_id: id.to_owned(),
            base,
            patterns,
            seed,
            world: sim.world().clone(),
            sim: Rc::new(sim),
            cursor: 0,
            playing: false,
            speed_ms: SPEEDS_MS[1],
            error: None,
            keep_fragment: false,
            compare_open: false,
        })
    }

    /// The page's first state for the address's fragment: the run a share link names, or the
    /// first lesson with an error banner that says why the link could not be opened.
    pub fn initial_for_fragment(fragment: &str) -> LabState {
        let fragment = fragment.trim_start_matches('#');
        if fragment.is_empty() {
            return LabState::initial();
        }
        match LabState::from_link(fragment) {
            Ok(state) => state,
            Err(error) => {
                let mut state = LabState::initial();
                state.error = Some(error);
                state.keep_fragment = true;
                state
            }
        }
    }

    /// The state a share link names: its scenario, seed, patterns and the learner's choices,
    /// replayed up to the link's step.
    pub fn from_link(fragment: &str) -> Result<LabState, String> {
        let explain = |error: ShareError| format!("This share link cannot be opened: {error}.");
        let link = ShareLink::decode(fragment).map_err(explain)?;
        let opened = link.open().map_err(explain)?;
        let (id, base) = match &link.scenario {
            SharedScenario::Catalogue { id } => {
                let base = sim::catalogue_scenario(id).map_err(|error| error.to_string())?;
                (id.clone(), base)
            }
            SharedScenario::Inline { scenario } => {
                (IMPORTED_SCENARIO.to_owned(), (**scenario).clone())
            }
        };
        let mut state = LabState::with_run(&id, base, link.patterns, link.seed)?;
        state.cursor = opened.simulation.steps().len();
        state.world = opened.simulation.world().clone();
        state.sim = Rc::new(opened.simulation);
        Ok(state)
    }

    /// The learner's choices in the run.
    pub fn user_choices(&self) -> Vec<UserChoice> {
        view::user_choices(self.sim.steps())
    }

    /// The share link of what the page shows: scenario, seed, patterns, choices, step.
    pub fn share_fragment(&self) -> String {
        ShareLink::new(self.sim.scenario(), self.seed, self.user_choices(), self.cursor).encode()
    }

    /// A state that shows `trace` replayed, at its last step.
    pub fn from_trace(trace: &Trace) -> Result<LabState, String> {
        let id = if sim::catalogue_scenario(&trace.scenario.id).is_ok() {
            trace.scenario.id.clone()
        } else {
            IMPORTED_SCENARIO.to_owned()
        };
        let mut state =
            LabState::with_run(&id, trace.scenario.clone(), trace.scenario.patterns, trace.seed)?;
        state.sim = Rc::new(replay_steps(&state.sim, &trace.steps, trace.steps.len())?);
        state.cursor = state.sim.steps().len();
        state.world = state.sim.world().clone();
        Ok(state)
    }

    /// The step shown last (the one that led to the cursor), if any.
    pub fn current_step(&self) -> Option<&TraceStep> {
        self.cursor.checked_sub(1).and_then(|index| self.sim.steps().get(index))
    }

    /// The steps up to the cursor.
    pub fn shown_steps(&self) -> &[TraceStep] {
        let steps = self.sim.steps();
        steps.get(..self.cursor).unwrap_or(steps)
    }

    /// Whether a step forward is possible.
    pub fn can_step_forward(&self) -> bool {
        self.cursor < self.sim.steps().len() || self.sim.stop_reason().is_none()
    }

    /// The run up to the cursor, as a trace (what a share link or an export carries).
    pub fn trace_at_cursor(&self) -> Trace {
        // At the last step taken, the run itself: it knows whether it has ended.
        if self.cursor == self.sim.steps().len() {
            return self.sim.trace();
        }
        match replay_steps(&self.sim, self.sim.steps(), self.cursor) {
            Ok(truncated) => truncated.trace(),
            Err(_) => self.sim.trace(),
        }
    }

    fn seek(&mut self, step: usize) {
        let step = step.min(self.sim.steps().len());
        let world = if step == self.sim.steps().len() {
            Ok(self.sim.world().clone())
        } else {
            self.sim.world_after(step).map_err(|error| error.to_string())
        };
        match world {
            Ok(world) => {
                self.world = world;
                self.cursor = step;
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn step_forward(&mut self) -> bool {
        if self.cursor < self.sim.steps().len() {
            self.seek(self.cursor + 1);
            return true;
        }
        if self.sim.stop_reason().is_none() && Rc::make_mut(&mut self.sim).step().is_some() {
            self.cursor = self.sim.steps().len();
            self.world = self.sim.world().clone();
            return true;
        }
        false
    }

    fn rebuild(&mut self, id: &str, base: Scenario, patterns: Patterns, seed: u64) {
        match LabState::with_run(id, base, patterns, seed) {
            Ok(state) => {
                *self =
                    LabState { speed_ms: self.speed_ms, compare_open: self.compare_open, ..state }
            }
            Err(error) => self.error = Some(error),
        }
    }

    fn inject(&mut self, action: sim::Action) {
        let mut truncated = match replay_steps(&self.sim, self.sim.steps(), self.cursor) {
            Ok(truncated) => truncated,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        match truncated.step_with(action) {
            Ok(_) => {
                self.sim = Rc::new(truncated);
                self.cursor = self.sim.steps().len();
                self.world = self.sim.world().clone();
            }
            Err(error) => self.error = Some(format!("the fault could not be applied: {error}")),
        }
    }
}

/// A new run of `sim`'s scenario and seed that takes the first `count` of `steps` again: the
/// learner's choices by hand, the scheduler's by the same seed.
pub fn replay_steps(
    sim: &Simulation,
    steps: &[TraceStep],
    count: usize,
) -> Result<Simulation, String> {
    let mut replayed =
        Simulation::new(sim.scenario().clone(), sim.seed()).map_err(|error| error.to_string())?;
    for recorded in steps.iter().take(count) {
        if recorded.chosen_by == Choice::User {
            replayed.step_with(recorded.action.clone()).map_err(|error| {
                format!("step {} chosen by hand cannot be replayed: {error}", recorded.step)
            })?;
        } else if replayed.step().is_none() {
            break;
        }
    }
    Ok(replayed)
}

fn first_catalogue_scenario() -> Scenario {
    CATALOGUE
        .iter()
        .find_map(|entry| Scenario::from_json(entry.json).ok())
        .expect("the catalogue has valid scenarios")
}

impl Reducible for LabState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        if action != Action::DismissError {
            next.keep_fragment = false;
        }
        match action {
            Action::SelectScenario(id) => match sim::catalogue_scenario(&id) {
                Ok(base) => match LabState::fresh(&id, base, next.seed) {
                    Ok(state) => next = LabState { speed_ms: next.speed_ms, ..state },
                    Err(error) => next.error = Some(error),
                },
                Err(error) => next.error = Some(error.to_string()),
            },
            Action::SetSeed(seed) => {
                let (id, base, patterns) =
                    (next.scenario_id.clone(), next.base.clone(), next.patterns);
                next.rebuild(&id, base, patterns, seed);
            }
            Action::SetPattern(pattern, mode) => {
                let (id, base, seed) = (next.scenario_id.clone(), next.base.clone(), next.seed);
                let patterns = next.patterns.with(pattern, mode);
                next.rebuild(&id, base, patterns, seed);
            }
            Action::SetAllPatterns(mode) => {
                let (id, base, seed) = (next.scenario_id.clone(), next.base.clone(), next.seed);
                let patterns =
                    Scenario { patterns: next.patterns, ..base.clone() }.with_mode(mode).patterns;
                next.rebuild(&id, base, patterns, seed);
            }
            Action::Reset => {
                let (id, base, patterns, seed) =
                    (next.scenario_id.clone(), next.base.clone(), next.patterns, next.seed);
                next.rebuild(&id, base, patterns, seed);
            }
            Action::StepForward => {
                next.step_forward();
            }
            Action::StepBack => {
                let step = next.cursor.saturating_sub(1);
                next.seek(step);
            }
            Action::SeekTo(step) => next.seek(step),
            Action::RunToEnd => {
                Rc::make_mut(&mut next.sim).run_to_end();
                let end = next.sim.steps().len();
                next.seek(end);
                next.playing = false;
            }
            Action::TogglePlay => next.playing = !next.playing && next.can_step_forward(),
            Action::PlayTick => {
                if !next.playing {
                    return self;
                }
                if !next.step_forward() {
                    next.playing = false;
                }
            }
            Action::SetSpeed(speed_ms) => next.speed_ms = speed_ms.max(10),
            Action::Inject(action) => {
                next.playing = false;
                next.inject(action);
            }
            Action::LoadTrace(trace) => match LabState::from_trace(&trace) {
                Ok(state) => next = LabState { speed_ms: next.speed_ms, ..state },
                Err(error) => next.error = Some(format!("this run cannot be opened: {error}")),
            },
            Action::OpenRunAt(trace, step) => match LabState::from_trace(&trace) {
                Ok(state) => {
                    next = LabState { speed_ms: next.speed_ms, ..state };
                    next.seek(step);
                }
                Err(error) => next.error = Some(format!("this run cannot be opened: {error}")),
            },
            Action::LoadScenario(scenario) => {
                let id = if sim::catalogue_scenario(&scenario.id).is_ok() {
                    scenario.id.clone()
                } else {
                    IMPORTED_SCENARIO.to_owned()
                };
                let patterns = scenario.patterns;
                next.rebuild(&id, *scenario, patterns, 0);
            }
            Action::OpenLink(fragment) => match LabState::from_link(&fragment) {
                Ok(state) => {
                    next = LabState {
                        speed_ms: next.speed_ms,
                        compare_open: next.compare_open,
                        ..state
                    }
                }
                Err(error) => {
                    next.error = Some(error);
                    next.keep_fragment = true;
                }
            },
            Action::ToggleCompare => next.compare_open = !next.compare_open,
            Action::ShowError(error) => next.error = Some(error),
            Action::DismissError => next.error = None,
        }
        Rc::new(next)
    }
}
