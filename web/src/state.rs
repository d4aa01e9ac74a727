//! The lab's state and its transition, the lab's part of the page's one reducer
//! (`crate::page`): which scenario, which seed, which twin of each pattern, the learner's
//! choices, the run they make (a core [`Run`], played into a [`Simulation`]) and the step the
//! learner is looking at. Every button of the run is an [`Action`]; [`LabState::reduce`] is
//! the only place this state changes, and it only calls the core: the page holds no
//! simulation logic of its own.
//!
//! The learner's choices belong to the run, not to a step of one twin: a pattern switch
//! plays the same choices in the other twin and keeps the step shown; rewinding only moves
//! the cursor, so the run's future (and a link taken there) keeps every choice; a choice made
//! at an earlier step starts a new branch, which the page says. Reset starts the same run
//! again with every choice; a seed change and a scenario change carry each choice whose
//! target is in the new run ([`Run::carry`]) and name the others. A lesson's run starts as
//! its course file says, never with the learner's choices (they would spoil the lesson); the
//! choices of the run it replaced are offered ([`LabState::left_behind`]): Keep carries them
//! into the lesson's run as a scenario change does, dismissing the offer forgets them.

use std::rc::Rc;

use idempotency_lab::course::Point;
use idempotency_lab::sim::{
    self, CATALOGUE, ChoiceOutcome, Pattern, PatternMode, Patterns, Played, ReplayError, Run,
    RunOpener, Scenario, Simulation, Trace, TraceStep, UserChoice, World,
};
use idempotency_lab::view::{IndexedRun, ShareError, ShareLink, SharedScenario};

use crate::notices::{Notice, Problem};

#[cfg(test)]
mod tests;

/// The catalogue entry the page opens with.
pub const FIRST_SCENARIO: &str = "f01-duplicate-delivery";
/// The id shown for a scenario that came from a file rather than the catalogue.
pub const IMPORTED_SCENARIO: &str = "imported";
/// Play speeds offered, in milliseconds per step.
pub const SPEEDS_MS: [u32; 4] = [1200, 600, 250, 80];

/// What the share link of a run shown is made of ([`LabState::share_of`]): cheap to keep and
/// compare at every render (the run is compared by identity), encoded only when the link is
/// written ([`ShareOf::fragment`]), which a long inline scenario makes costly.
#[derive(Clone, Debug)]
pub struct ShareOf {
    sim: Rc<IndexedRun>,
    choices: Vec<UserChoice>,
    cursor: usize,
    presenter: bool,
}

impl ShareOf {
    /// The link's fragment (`view::ShareLink::encode`).
    pub fn fragment(&self) -> String {
        self.sim.share_fragment(&self.choices, self.cursor, self.presenter)
    }
}

impl PartialEq for ShareOf {
    /// The same run (a run's scenario and seed never change), choices, step and view.
    fn eq(&self, other: &ShareOf) -> bool {
        Rc::ptr_eq(&self.sim, &other.sim)
            && (&self.choices, self.cursor, self.presenter)
                == (&other.choices, other.cursor, other.presenter)
    }
}

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
    /// The learner's choices, by step (those ahead of the cursor too).
    pub choices: Vec<UserChoice>,
    /// Where the run took each choice.
    pub outcomes: Vec<ChoiceOutcome>,
    /// The run so far (it may be ahead of the cursor after a rewind), with the index of its
    /// steps that every step taken extends and a branch keeps up to where it branched, so a
    /// screen at any step costs its window. Shared between states, so that an action that does
    /// not change the run does not copy it.
    pub sim: Rc<IndexedRun>,
    /// How many steps are shown: 0 is the start.
    pub cursor: usize,
    /// The world after `cursor` steps.
    pub world: World,
    /// Whether play is on.
    pub playing: bool,
    /// Milliseconds per step while playing.
    pub speed_ms: u32,
    /// The last error to show in the banner (a bad link, a bad file, a refused fault).
    pub error: Option<Problem>,
    /// What the last action did to the learner's choices, when the page must say it (a new
    /// branch, a choice a pattern switch could not place).
    pub notice: Option<Notice>,
    /// Leave the address's fragment alone: it holds a link that could not be opened, which
    /// the learner may want to read; the next action clears this.
    pub keep_fragment: bool,
    /// Whether the naive-vs-idempotent comparison is shown.
    pub compare_open: bool,
    /// Whether the page shows its presenter view (large type; the diagram, the invariants and
    /// the changed tables on one screen). The share link carries it; opening a run keeps it.
    pub presenter: bool,
    /// The run being opened in slices (a long link or trace file), if one is: the page shows
    /// its progress and a Cancel button, and the run above until it is open.
    pub opening: Option<Opening>,
    /// The steps of the learner's choices that the last seed change, scenario change or Keep
    /// could not carry into the new run (the core's [`Run::carry`]): the page names them, in
    /// its language.
    pub dropped: Vec<usize>,
    /// The learner's choices in the run that a lesson's run replaced ([`Action::OpenLesson`]),
    /// which the page offers to keep ([`Action::KeepLeftBehind`]); empty when there were none,
    /// once kept or declined ([`Action::DeclineLeftBehind`]), and once the learner makes a
    /// choice in the new run or opens another one.
    pub left_behind: Vec<UserChoice>,
}

/// What is being opened in slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningKind {
    /// A share link (the address's fragment).
    Link,
    /// A trace file.
    Trace,
}

/// A run being opened in slices, as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Which opening this is (the page's count): a later one replaces it.
    pub generation: u64,
    /// What is opened.
    pub kind: OpeningKind,
    /// Steps replayed so far.
    pub steps: usize,
    /// The steps the run opens to.
    pub total: usize,
}

/// A run opened in slices, ready to show: a state of its own.
#[derive(Clone, Debug)]
pub struct OpenedRun(pub Rc<LabState>);

impl PartialEq for OpenedRun {
    fn eq(&self, other: &OpenedRun) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A share link or a trace being opened: the core's [`RunOpener`] of its run, advanced a slice
/// at a time by the page (`crate::opening`), and what the state needs once it is open.
#[derive(Clone, Debug)]
pub struct Pending {
    opener: RunOpener,
    source: Source,
}

#[derive(Clone, Debug)]
enum Source {
    Link { link: Box<ShareLink>, id: String, base: Scenario },
    Trace { id: String, base: Scenario, seed: u64 },
}

impl Pending {
    /// The opening of a share link (a URL fragment): its errors are those of
    /// [`LabState::from_link`].
    pub fn of_link(fragment: &str) -> Result<Pending, Problem> {
        let link = ShareLink::decode(fragment).map_err(explain_link)?;
        let opener = link.opener().map_err(explain_link)?;
        let (id, base) = match &link.scenario {
            SharedScenario::Catalogue { id } => {
                let base = sim::catalogue_scenario(id)
                    .map_err(|error| Problem::Link(error.to_string()))?;
                (id.clone(), base)
            }
            SharedScenario::Inline { scenario } => {
                (IMPORTED_SCENARIO.to_owned(), (**scenario).clone())
            }
        };
        Ok(Pending { opener, source: Source::Link { link: Box::new(link), id, base } })
    }

    /// The opening of `trace`, to its last step: its errors are those of
    /// [`LabState::from_trace`].
    pub fn of_trace(trace: &Trace) -> Result<Pending, Problem> {
        let id = if sim::catalogue_scenario(&trace.scenario.id).is_ok() {
            trace.scenario.id.clone()
        } else {
            IMPORTED_SCENARIO.to_owned()
        };
        let opener = RunOpener::of_trace(trace).map_err(explain_trace)?;
        let source = Source::Trace { id, base: trace.scenario.clone(), seed: trace.seed };
        Ok(Pending { opener, source })
    }

    /// What is opened.
    pub fn kind(&self) -> OpeningKind {
        match self.source {
            Source::Link { .. } => OpeningKind::Link,
            Source::Trace { .. } => OpeningKind::Trace,
        }
    }

    /// Takes up to `moves_max` moves of the run; returns whether it is open.
    pub fn advance(&mut self, moves_max: usize) -> Result<bool, Problem> {
        let advanced = self.opener.advance(moves_max);
        match &self.source {
            Source::Link { .. } => advanced.map_err(|error| explain_link(error.into())),
            Source::Trace { .. } => advanced.map_err(explain_trace),
        }
    }

    /// The opening's progress, as the page shows it.
    pub fn opening(&self, generation: u64) -> Opening {
        let (steps, total) = self.opener.progress();
        Opening { generation, kind: self.kind(), steps, total }
    }

    /// The state of the opened run (what is not opened yet is opened now).
    pub fn finish(self) -> Result<LabState, Problem> {
        match self.source {
            Source::Link { link, id, base } => {
                let opened = link.opened(self.opener).map_err(explain_link)?;
                let mut state = LabState::with_run(&id, base, link.patterns, link.seed, Vec::new())
                    .map_err(|problem| match problem {
                        Problem::Run(why) => Problem::Link(why),
                        other => other,
                    })?;
                state.choices = opened.run.choices;
                state.outcomes = opened.outcomes;
                state.sim = Rc::new(IndexedRun::new(opened.simulation));
                state.notice = state.missing_notice();
                state.presenter = link.presenter;
                state.show_new_run_at(opened.step);
                Ok(state)
            }
            Source::Trace { id, base, seed } => {
                let (run, played) = self.opener.finish().map_err(explain_trace)?;
                let patterns = base.patterns;
                let mut state = LabState::with_run(&id, base, patterns, seed, Vec::new())?;
                state.choices = run.choices;
                state.outcomes = played.outcomes;
                state.sim = Rc::new(IndexedRun::new(played.simulation));
                let end = state.sim.steps().len();
                state.show_new_run_at(end);
                Ok(state)
            }
        }
    }
}

fn explain_link(error: ShareError) -> Problem {
    Problem::Link(error.to_string())
}

fn explain_trace(error: sim::RunError) -> Problem {
    Problem::Run(ReplayError::from(error).to_string())
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
    /// Switch the lesson's focus patterns (all four if it names none) to one twin: the
    /// JavaScript API's `setMode`, as the CLI's `--mode`.
    SetAllPatterns(PatternMode),
    /// Set every pattern's switch: the page's "All naive" and "All idempotent" (every
    /// pattern, whatever the scenario's focus), and a lesson's step arriving with the
    /// switches its course file sets.
    SetPatterns(Patterns),
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
    /// Apply a (fault) action chosen by the learner at the cursor; before the end of the run,
    /// this starts a new branch there (the run's later steps and choices are replaced).
    Inject(sim::Action),
    /// Open a run read from a trace file or a share link.
    LoadTrace(Box<Trace>),
    /// Open a run found by the checker or the fuzzer, shown at `step` (where it broke).
    OpenRunAt(Box<Trace>, usize),
    /// Open a scenario read from a file.
    LoadScenario(Box<Scenario>),
    /// Open a lesson of the course: its scenario (`Lesson::scenario`), seed 0, with the
    /// switches its step starts from (`Lesson::patterns_at`), at step 0, without the learner's
    /// choices; those of the run it replaces are offered ([`LabState::left_behind`]).
    OpenLesson {
        /// The lesson's scenario.
        scenario: Box<Scenario>,
        /// Every pattern's switch.
        patterns: Patterns,
    },
    /// Show the run at a point of it ([`Point::resolve`]), running it on to its end first if
    /// it has not got there; `unreachable` (in the page's language) is the banner's text if
    /// the run never gets there (`None`: the run stays where it was, silently, as when a
    /// trainer's link asks for a point that only the learner's own fault reaches).
    GoTo {
        /// The point.
        point: Point,
        /// What the banner says if the run never reaches it.
        unreachable: Option<String>,
    },
    /// A link in the address that cannot be opened: the banner says why, and the address
    /// keeps it until the next action.
    RefuseLink(String),
    /// Open a share link (a URL fragment).
    OpenLink(String),
    /// A run starts opening in slices: the page shows its progress (and the run it showed).
    OpeningStarted(Opening),
    /// The opening's progress.
    OpeningProgress(Opening),
    /// The run of an opening is open; `generation` is `None` for one opened in its first
    /// slice, which the page never showed as opening.
    Opened {
        /// The opening's generation.
        generation: Option<u64>,
        /// What was opened.
        kind: OpeningKind,
        /// The run's state.
        run: OpenedRun,
    },
    /// An opening failed (as [`Action::Opened`], `generation` is `None` if it did at once).
    OpeningFailed {
        /// The opening's generation.
        generation: Option<u64>,
        /// What was opened.
        kind: OpeningKind,
        /// Why.
        error: Problem,
    },
    /// The learner cancels the opening: the page keeps the run it shows and says how far the
    /// opening got.
    CancelOpening {
        /// The steps replayed.
        steps: usize,
        /// The steps the run opens to.
        total: usize,
    },
    /// Show or hide the naive-vs-idempotent comparison.
    ToggleCompare,
    /// Turn the presenter view on or off.
    TogglePresenter,
    /// Carry the choices a lesson's run left behind ([`LabState::left_behind`]) into the run
    /// shown, where their targets are ([`Run::carry`]), naming those dropped; at step 0.
    KeepLeftBehind,
    /// Decline that offer (its dismiss button, or moving on in the lesson): the choices left
    /// behind are forgotten.
    DeclineLeftBehind,
    /// Show a problem in the banner.
    ShowError(Problem),
    /// Hide the banners (and forget the choices a lesson's run left behind).
    DismissError,
}

impl LabState {
    /// The page's first state: the first lesson, its focus patterns naive, seed 0.
    pub fn initial() -> LabState {
        let scenario = sim::catalogue_scenario(FIRST_SCENARIO)
            .map_err(|error| Problem::Run(error.to_string()))
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
            choices: Vec::new(),
            outcomes: Vec::new(),
            sim: Rc::new(IndexedRun::new(sim)),
            cursor: 0,
            playing: false,
            speed_ms: SPEEDS_MS[1],
            error: None,
            notice: None,
            keep_fragment: false,
            compare_open: false,
            presenter: false,
            opening: None,
            dropped: Vec::new(),
            left_behind: Vec::new(),
        }
    }

    /// A new run of `base` with its focus patterns naive.
    pub fn fresh(id: &str, base: Scenario, seed: u64) -> Result<LabState, Problem> {
        let patterns = base.with_mode(PatternMode::Naive).patterns;
        LabState::with_run(id, base, patterns, seed, Vec::new())
    }

    /// The state of a run of `base` with `patterns`, `seed` and the learner's `choices`,
    /// played until every choice is placed, at step 0.
    fn with_run(
        id: &str,
        base: Scenario,
        patterns: Patterns,
        seed: u64,
        choices: Vec<UserChoice>,
    ) -> Result<LabState, Problem> {
        let run = Run { scenario: Scenario { patterns, ..base.clone() }, seed, choices };
        let played = run.play().map_err(|error| Problem::Run(error.to_string()))?;
        LabState::of_played(id, base, run, played)
    }

    /// The state of `run` of `base`, `played`, at step 0.
    fn of_played(id: &str, base: Scenario, run: Run, played: Played) -> Result<LabState, Problem> {
        let world =
            played.simulation.world_after(0).map_err(|error| Problem::Run(error.to_string()))?;
        Ok(LabState {
            scenario_id: id.to_owned(),
            base,
            patterns: run.scenario.patterns,
            seed: run.seed,
            choices: run.choices,
            outcomes: played.outcomes,
            world,
            sim: Rc::new(IndexedRun::new(played.simulation)),
            cursor: 0,
            playing: false,
            speed_ms: SPEEDS_MS[1],
            error: None,
            notice: None,
            keep_fragment: false,
            compare_open: false,
            presenter: false,
            opening: None,
            dropped: Vec::new(),
            left_behind: Vec::new(),
        })
    }

    /// The run the page shows: what it is a pure function of.
    pub fn run(&self) -> Run {
        Run {
            scenario: self.sim.scenario().clone(),
            seed: self.seed,
            choices: self.choices.clone(),
        }
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
    /// shown at the link's step.
    pub fn from_link(fragment: &str) -> Result<LabState, Problem> {
        Pending::of_link(fragment)?.finish()
    }

    /// The share link of what the page shows: scenario, seed, patterns, every choice, step.
    pub fn share_fragment(&self) -> String {
        self.share_of().fragment()
    }

    /// What the share link of the run shown is made of, to be written when the page is idle.
    pub fn share_of(&self) -> ShareOf {
        ShareOf {
            sim: self.sim.clone(),
            choices: self.choices.clone(),
            cursor: self.cursor,
            presenter: self.presenter,
        }
    }

    /// A state that shows `trace` replayed, at its last step.
    pub fn from_trace(trace: &Trace) -> Result<LabState, Problem> {
        Pending::of_trace(trace)?.finish()
    }

    /// The step shown last (the one that led to the cursor), if any.
    pub fn current_step(&self) -> Option<&TraceStep> {
        self.cursor.checked_sub(1).and_then(|index| self.sim.steps().get(index))
    }

    /// How many steps are shown: those up to the cursor.
    pub fn shown(&self) -> usize {
        self.cursor.min(self.sim.steps().len())
    }

    /// The steps up to the cursor.
    pub fn shown_steps(&self) -> impl Iterator<Item = &TraceStep> + Clone {
        self.sim.steps().first(self.cursor)
    }

    /// Whether a step forward is possible.
    pub fn can_step_forward(&self) -> bool {
        self.cursor < self.sim.steps().len() || self.sim.stop_reason().is_none()
    }

    /// The run up to the cursor, as a trace (what an export carries): the choices it took
    /// by then, played to the cursor.
    pub fn trace_at_cursor(&self) -> Trace {
        // At the last step taken, the run itself: it knows whether it has ended.
        if self.cursor == self.sim.steps().len() {
            return self.sim.trace();
        }
        match self.run().until(&self.outcomes, self.cursor).play() {
            Ok(played) => {
                let mut sim = played.simulation;
                sim.run_to(self.cursor);
                sim.trace()
            }
            Err(_) => self.sim.trace(),
        }
    }

    /// A choice the run could not place, in words, or `None` if it placed them all.
    fn missing_notice(&self) -> Option<Notice> {
        let missing: Vec<UserChoice> = self
            .choices
            .iter()
            .zip(&self.outcomes)
            .filter(|(_, outcome)| **outcome == ChoiceOutcome::TargetMissing)
            .map(|(choice, _)| choice.clone())
            .collect();
        (!missing.is_empty()).then_some(Notice::ChoicesMissed(missing))
    }

    /// Shows the step `step` of the run shown: the world is moved on from the one shown when
    /// that is nearest (a step forward costs one step), else rebuilt from the run's nearest
    /// snapshot.
    fn seek(&mut self, step: usize) {
        let step = step.min(self.sim.steps().len());
        match self.sim.rewind(&mut self.world, self.cursor, step) {
            Ok(()) => self.cursor = step,
            Err(error) => self.error = Some(Problem::Run(error.to_string())),
        }
    }

    /// Shows the step `step` of a run that has just replaced the one shown: the world is
    /// rebuilt from the new run's snapshots, not moved on from the old run's.
    fn show_new_run_at(&mut self, step: usize) {
        let step = step.min(self.sim.steps().len());
        match self.sim.world_after(step) {
            Ok(world) => {
                self.world = world;
                self.cursor = step;
            }
            Err(error) => self.error = Some(Problem::Run(error.to_string())),
        }
    }

    fn step_forward(&mut self) -> bool {
        if self.cursor < self.sim.steps().len() {
            self.seek(self.cursor + 1);
            return true;
        }
        let sim = Rc::make_mut(&mut self.sim);
        if sim.stop_reason().is_none() && sim.step().is_some() {
            // The last step ends the run as running it to its end would (`Simulation::settle`).
            sim.settle();
            self.cursor = self.sim.steps().len();
            self.world = self.sim.world().clone();
            return true;
        }
        false
    }

    /// Shows the step at which the run is at `point`, running it on to its end first if it
    /// has not got there; if it never does, the banner says `unreachable`.
    fn go_to(&mut self, point: Point, unreachable: Option<String>) {
        let mut at = point.resolve(&self.sim);
        if at.is_none() && self.sim.stop_reason().is_none() {
            Rc::make_mut(&mut self.sim).run_to_end();
            at = point.resolve(&self.sim);
        }
        match at {
            Some(step) => self.seek(step),
            None => self.error = unreachable.map(Problem::Said).or(self.error.take()),
        }
    }

    /// A new run of `base` with `patterns` and `seed`, without choices, at step 0; returns
    /// whether it replaced the run shown (if not, the banner says why).
    fn rebuild(&mut self, id: &str, base: Scenario, patterns: Patterns, seed: u64) -> bool {
        match LabState::with_run(id, base, patterns, seed, Vec::new()) {
            Ok(state) => {
                *self = self.keeping_the_view(state);
                true
            }
            Err(error) => {
                self.error = Some(error);
                false
            }
        }
    }

    /// A new run of `base` with `patterns` and `seed` that carries every one of `choices` whose
    /// target is there (the core's [`Run::carry`]); the others are dropped and the page names
    /// them. At step 0.
    fn carry_into(
        &mut self,
        id: &str,
        base: Scenario,
        patterns: Patterns,
        seed: u64,
        choices: Vec<UserChoice>,
    ) {
        let scenario = Scenario { patterns, ..base.clone() };
        let carried = Run::carry(scenario, seed, choices)
            .map_err(|error| Problem::Run(error.to_string()))
            .and_then(|carried| {
                let dropped = carried.dropped.iter().map(|choice| choice.step).collect();
                let state = LabState::of_played(id, base, carried.run, carried.played)?;
                Ok(LabState { dropped, ..state })
            });
        match carried {
            Ok(state) => *self = self.keeping_the_view(state),
            Err(error) => self.error = Some(error),
        }
    }

    /// The same run with another seed, carrying the learner's choices ([`LabState::carry_into`]).
    fn carry_to_seed(&mut self, seed: u64) {
        let (id, base) = (self.scenario_id.clone(), self.base.clone());
        let left_behind = std::mem::take(&mut self.left_behind);
        self.carry_into(&id, base, self.patterns, seed, self.choices.clone());
        self.left_behind = left_behind;
    }

    /// Another scenario of the catalogue, its focus patterns naive, with the same seed,
    /// carrying the learner's choices ([`LabState::carry_into`]).
    fn carry_to_scenario(&mut self, id: &str) {
        match sim::catalogue_scenario(id) {
            Ok(base) => {
                let patterns = base.with_mode(PatternMode::Naive).patterns;
                self.carry_into(id, base, patterns, self.seed, self.choices.clone());
            }
            Err(error) => self.error = Some(Problem::Run(error.to_string())),
        }
    }

    /// The choices the lesson's run left behind, carried into the run shown
    /// ([`LabState::carry_into`]), with its scenario, patterns and seed.
    fn keep_left_behind(&mut self) {
        if self.left_behind.is_empty() {
            return;
        }
        let choices = std::mem::take(&mut self.left_behind);
        let (id, base) = (self.scenario_id.clone(), self.base.clone());
        self.carry_into(&id, base, self.patterns, self.seed, choices);
    }

    /// The run again from step 0, with every choice the learner made in it.
    fn restart(&mut self) {
        let (id, base, seed) = (self.scenario_id.clone(), self.base.clone(), self.seed);
        match LabState::with_run(&id, base, self.patterns, seed, self.choices.clone()) {
            Ok(state) => {
                let left_behind = std::mem::take(&mut self.left_behind);
                *self = LabState { left_behind, ..self.keeping_the_view(state) };
                self.notice = self.missing_notice();
            }
            Err(error) => self.error = Some(error),
        }
    }

    /// `state`, shown as this state shows its runs: its play speed, whether the comparison is
    /// open, and the presenter view.
    fn keeping_the_view(&self, state: LabState) -> LabState {
        LabState {
            speed_ms: self.speed_ms,
            compare_open: self.compare_open,
            presenter: self.presenter,
            ..state
        }
    }

    /// The same choices in the twins `patterns`, at the same step (or the run's end, if it
    /// ends sooner).
    fn switch_patterns(&mut self, patterns: Patterns) {
        let (id, base, seed) = (self.scenario_id.clone(), self.base.clone(), self.seed);
        match LabState::with_run(&id, base, patterns, seed, self.choices.clone()) {
            Ok(state) => {
                let cursor = self.cursor;
                let at_end = self.sim.stop_reason().is_some() && cursor == self.sim.steps().len();
                let left_behind = std::mem::take(&mut self.left_behind);
                *self = LabState { left_behind, ..self.keeping_the_view(state) };
                let sim = Rc::make_mut(&mut self.sim);
                sim.run_to(cursor);
                // Shown at the run's end before the switch: whether the other twin ends there
                // too is found by trying its next step, so that the page never shows "34 / 34"
                // of a run that goes on, nor asks to run on a run that has ended.
                if at_end && sim.steps().len() == cursor {
                    sim.step();
                }
                self.notice = self.missing_notice();
                self.show_new_run_at(cursor);
            }
            Err(error) => self.error = Some(error),
        }
    }

    /// The learner takes `action` at the cursor: a new choice after the choices the run took
    /// by then. Before the run's last step, this is a new branch, and the page says so.
    fn inject(&mut self, action: sim::Action) {
        let Some(anchored) = sim::anchor(&self.world, &action) else {
            self.error = Some(Problem::FaultWithoutTarget(action));
            return;
        };
        let kept = self.run().until(&self.outcomes, self.cursor);
        let dropped = self.choices.len() - kept.choices.len();
        let branch = self.cursor < self.sim.steps().len();
        let mut choices = kept.choices;
        choices.push(UserChoice { step: self.cursor + 1, action: anchored });
        let run = Run { choices, ..kept };
        let played = match run.play() {
            Ok(played) => played,
            Err(error) => {
                self.error = Some(Problem::Fault(error.to_string()));
                return;
            }
        };
        if played.outcomes.last() != Some(&ChoiceOutcome::Taken { step: self.cursor + 1 }) {
            self.error = Some(Problem::FaultNotEnabled(action));
            return;
        }
        self.notice = branch.then_some(Notice::NewBranch { step: self.cursor + 1, later: dropped });
        // The run has a choice of the learner's own now: the offer of a lesson's left-behind
        // choices ends.
        self.left_behind.clear();
        self.choices = run.choices;
        self.outcomes = played.outcomes;
        // The new run is this one played again to the cursor: the index of those steps stays.
        debug_assert!(
            played.simulation.steps().first(self.cursor).eq(self.sim.steps().first(self.cursor))
        );
        let index = self.sim.index().clone();
        self.sim = Rc::new(IndexedRun::branched(played.simulation, index, self.cursor));
        let step = self.cursor + 1;
        self.show_new_run_at(step);
    }
}

fn first_catalogue_scenario() -> Scenario {
    CATALOGUE
        .iter()
        .find_map(|entry| Scenario::from_json(entry.json).ok())
        .expect("the catalogue has valid scenarios")
}

impl LabState {
    /// The state after `action`: the lab's part of the page's one reducer
    /// (`crate::page::PageState`), and the JavaScript API's (`crate::api`). Pure: it only calls
    /// the core.
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if self.is_stale(&action) {
            return self;
        }
        let mut next = (*self).clone();
        if action != Action::DismissError {
            next.keep_fragment = false;
        }
        // What the learner does meanwhile is done to the run shown; the opening goes on.
        let about_opening = matches!(
            action,
            Action::OpeningStarted(_)
                | Action::OpeningProgress(_)
                | Action::Opened { .. }
                | Action::OpeningFailed { .. }
                | Action::CancelOpening { .. }
        );
        if let Action::PlayTick = action
            && !next.playing
        {
            return self;
        }
        match action {
            Action::OpeningStarted(_)
            | Action::OpeningProgress(_)
            | Action::Opened { .. }
            | Action::OpeningFailed { .. }
            | Action::CancelOpening { .. } => next.opening_news(action, self.opening),
            Action::SelectScenario(_)
            | Action::LoadTrace(_)
            | Action::OpenRunAt(..)
            | Action::LoadScenario(_)
            | Action::OpenLesson { .. }
            | Action::RefuseLink(_)
            | Action::OpenLink(_) => next.open_run(action),
            action => next.drive(action),
        }
        if !about_opening {
            next.opening = self.opening;
        }
        Rc::new(next)
    }

    /// Whether `action` is the news of an opening that was cancelled or replaced (or a Cancel
    /// with nothing opening): it changes nothing.
    fn is_stale(&self, action: &Action) -> bool {
        let current = |generation: Option<u64>| match generation {
            None => true,
            Some(generation) => {
                self.opening.is_some_and(|opening| opening.generation == generation)
            }
        };
        match action {
            Action::OpeningProgress(opening) => !current(Some(opening.generation)),
            Action::Opened { generation, .. } | Action::OpeningFailed { generation, .. } => {
                !current(*generation)
            }
            Action::CancelOpening { .. } => self.opening.is_none(),
            _ => false,
        }
    }

    /// The learner drives the run shown: its seed, twins, steps, play, faults and panels.
    fn drive(&mut self, action: Action) {
        match action {
            Action::SetSeed(seed) => self.carry_to_seed(seed),
            Action::SetPattern(pattern, mode) => {
                let patterns = self.patterns.with(pattern, mode);
                self.switch_patterns(patterns);
            }
            Action::SetAllPatterns(mode) => {
                let base = Scenario { patterns: self.patterns, ..self.base.clone() };
                self.switch_patterns(base.with_mode(mode).patterns);
            }
            Action::SetPatterns(patterns) => self.switch_patterns(patterns),
            Action::Reset => self.restart(),
            Action::StepForward => {
                self.step_forward();
            }
            Action::StepBack => self.seek(self.cursor.saturating_sub(1)),
            Action::SeekTo(step) => self.seek(step),
            Action::RunToEnd => {
                Rc::make_mut(&mut self.sim).run_to_end();
                self.seek(self.sim.steps().len());
                self.playing = false;
            }
            Action::TogglePlay => self.playing = !self.playing && self.can_step_forward(),
            // Playing (`reduce` ignores a tick otherwise) until a step forward is not possible.
            Action::PlayTick => self.playing = self.step_forward(),
            Action::SetSpeed(speed_ms) => self.speed_ms = speed_ms.max(10),
            Action::Inject(action) => {
                self.playing = false;
                self.inject(action);
            }
            Action::GoTo { point, unreachable } => {
                self.playing = false;
                self.go_to(point, unreachable);
            }
            Action::ToggleCompare => self.compare_open = !self.compare_open,
            Action::TogglePresenter => self.presenter = !self.presenter,
            Action::KeepLeftBehind => {
                self.playing = false;
                self.keep_left_behind();
            }
            Action::DeclineLeftBehind => self.left_behind.clear(),
            Action::ShowError(error) => self.error = Some(error),
            Action::DismissError => {
                self.error = None;
                self.notice = None;
                self.dropped.clear();
                self.left_behind.clear();
            }
            // Opening a run and the news of an opening are `open_run`'s and `opening_news`'.
            _ => {}
        }
    }

    /// The page opens another run: a scenario of the catalogue, a lesson's, a file's, a
    /// link's, or the checker's counterexample.
    fn open_run(&mut self, action: Action) {
        match action {
            Action::SelectScenario(id) => self.carry_to_scenario(&id),
            Action::LoadTrace(trace) => self.open_trace(&trace, None),
            Action::OpenRunAt(trace, step) => self.open_trace(&trace, Some(step)),
            Action::LoadScenario(scenario) => {
                let id = if sim::catalogue_scenario(&scenario.id).is_ok() {
                    scenario.id.clone()
                } else {
                    IMPORTED_SCENARIO.to_owned()
                };
                let patterns = scenario.patterns;
                if self.rebuild(&id, *scenario, patterns, 0) {
                    self.left_behind.clear();
                }
            }
            Action::OpenLesson { scenario, patterns } => {
                let id = scenario.id.clone();
                // The choices of the run replaced; of the one before it, if it had none (a
                // lesson's step of another scenario, opened and left without a choice).
                let left_behind = match self.choices.is_empty() {
                    true => self.left_behind.clone(),
                    false => self.choices.clone(),
                };
                self.playing = false;
                if self.rebuild(&id, *scenario, patterns, 0) {
                    self.left_behind = left_behind;
                }
            }
            Action::RefuseLink(error) => {
                self.error = Some(Problem::Said(error));
                self.keep_fragment = true;
            }
            Action::OpenLink(fragment) => match LabState::from_link(&fragment) {
                Ok(state) => {
                    *self = LabState {
                        speed_ms: self.speed_ms,
                        compare_open: self.compare_open,
                        ..state
                    }
                }
                Err(error) => {
                    self.error = Some(error);
                    self.keep_fragment = true;
                }
            },
            _ => {}
        }
    }

    /// Opens `trace`'s run, at its last step or at `step`.
    fn open_trace(&mut self, trace: &Trace, step: Option<usize>) {
        match LabState::from_trace(trace) {
            Ok(state) => {
                *self = LabState { speed_ms: self.speed_ms, presenter: self.presenter, ..state };
                if let Some(step) = step {
                    self.seek(step);
                }
            }
            Err(error) => self.error = Some(error),
        }
    }

    /// The news of a run opening in slices (`previous` is the opening before the news).
    fn opening_news(&mut self, action: Action, previous: Option<Opening>) {
        match action {
            Action::OpeningStarted(opening) | Action::OpeningProgress(opening) => {
                self.opening = Some(opening);
            }
            Action::Opened { kind, run, .. } => {
                let state = (*run.0).clone();
                *self = match kind {
                    OpeningKind::Link => LabState {
                        speed_ms: self.speed_ms,
                        compare_open: self.compare_open,
                        ..state
                    },
                    OpeningKind::Trace => {
                        LabState { speed_ms: self.speed_ms, presenter: self.presenter, ..state }
                    }
                };
                self.opening = None;
            }
            Action::OpeningFailed { kind, error, .. } => {
                self.opening = None;
                match kind {
                    OpeningKind::Link => {
                        self.error = Some(error);
                        self.keep_fragment = true;
                    }
                    OpeningKind::Trace => self.error = Some(error),
                }
            }
            Action::CancelOpening { steps, total } => {
                // A link that was not opened stays in the address, for the learner to open
                // again; the next action brings the address back to the run shown.
                self.keep_fragment = previous.is_some_and(|o| o.kind == OpeningKind::Link);
                self.opening = None;
                self.notice = Some(Notice::OpeningCancelled { steps, total });
            }
            _ => {}
        }
    }
}
