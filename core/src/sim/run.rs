//! A run as a pure function of (scenario, seed, patterns, the learner's choices): the one
//! replay of the crate.
//!
//! A [`Run`] is the scenario (its `patterns` are the twins that run), the seed and the
//! learner's [`UserChoice`]s, each anchored to what it hits ([`crate::sim::AnchoredAction`])
//! and the step it was made at. Playing it ([`Run::play`], or [`RunPlayer`] in slices) takes
//! the scheduler's choice at every step but those where a learner's choice is taken. The
//! choices are taken in their order, each as near to its step as its target allows:
//! - at its step, if its target is there and the action enabled;
//! - else at the latest step before it (after the choice before it) where it was;
//! - else at the first step after it where it is;
//! - else nowhere: its target never exists in this run, [`ChoiceOutcome::TargetMissing`],
//!   and the next choice is placed as if it had not been made.
//!
//! In the run the choices were made in, each is taken exactly at its step, so a trace replays
//! to the same bytes ([`Run::replay`]); in the other twin of a pattern, or after a pattern
//! switch, the same choice hits the same request, message copy, delivery or instance wherever
//! that exists, and [`Played::outcomes`] says for each where it was taken or that it was not.
//! [`Run::anchor`] turns choices recorded as plain actions at step numbers (a trace, a
//! version-1 share link) into a run. [`Run::carry`] is what a seed change keeps: the same
//! choices placed in the other run by what they hit, and those whose target is not there
//! dropped and named.

use std::cell::OnceCell;

use thiserror::Error;

use crate::sim::action::Action;
use crate::sim::choice::{AnchoredAction, UserChoice, anchor};
use crate::sim::scenario::{Scenario, ScenarioError};
use crate::sim::scheduler::{ReplayError, Simulation};
use crate::sim::trace::{Choice, StopReason, Trace};
use crate::sim::world::{ApplyError, is_listed};

/// One run: what it is a pure function of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The scenario, with the pattern switches that run.
    pub scenario: Scenario,
    /// The seed.
    pub seed: u64,
    /// The learner's choices, by step, strictly increasing from step 1.
    pub choices: Vec<UserChoice>,
}

/// Where a learner's choice was taken in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChoiceOutcome {
    /// At this step (the choice's own step in the run it was made in).
    Taken {
        /// The step, from 1.
        step: usize,
    },
    /// Its target never exists (or its action is never enabled) in this run.
    TargetMissing,
}

/// A played run.
#[derive(Clone, Debug)]
pub struct Played {
    /// The run once every choice is placed: it steps on with the scheduler alone.
    pub simulation: Simulation,
    /// Where each choice was taken, in the order of [`Run::choices`].
    pub outcomes: Vec<ChoiceOutcome>,
}

/// The learner's choices carried into another run ([`Run::carry`]).
#[derive(Clone, Debug)]
pub struct Carried {
    /// The run with the choices that hit something in it, each at the step it was taken.
    pub run: Run,
    /// That run, played to where its last choice is taken.
    pub played: Played,
    /// The choices whose target never exists in it, in their order.
    pub dropped: Vec<UserChoice>,
}

/// Why a run cannot be played or its choices anchored.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RunError {
    /// The scenario is invalid.
    #[error(transparent)]
    Scenario(ScenarioError),
    /// The choices are not in strictly increasing step order from step 1.
    #[error("the choice at step {step} comes after step {previous}: steps must increase from 1")]
    ChoiceOutOfOrder {
        /// The step of the choice.
        step: usize,
        /// The step of the choice before it (0 for the first).
        previous: usize,
    },
    /// A choice recorded as an action is not enabled at its step ([`Run::anchor`]).
    #[error("the choice at step {step} cannot be taken: {error}")]
    ChoiceRefused {
        /// The step.
        step: usize,
        /// Why.
        error: ApplyError,
    },
    /// The run stops before the step of a choice recorded as an action ([`Run::anchor`]).
    #[error("the choice at step {step} is never reached: the run stops after {steps} steps")]
    ChoiceNotReached {
        /// The step.
        step: usize,
        /// The steps of the run.
        steps: usize,
    },
}

impl Run {
    /// Plays the run to where every choice is placed.
    pub fn play(&self) -> Result<Played, RunError> {
        let mut player = RunPlayer::new(self)?;
        while !player.advance(usize::MAX) {}
        Ok(player.finish())
    }

    /// Plays the run to its end (quiescence or a limit).
    pub fn play_to_end(&self) -> Result<Played, RunError> {
        let mut played = self.play()?;
        played.simulation.run_to_end();
        Ok(played)
    }

    /// The run whose choices are the actions `taken` at their step numbers, in `scenario` with
    /// `seed`: each action is anchored in the world it is taken in, the scheduler takes every
    /// other step. Returns the run and the simulation after its last choice.
    pub(crate) fn anchor(
        scenario: Scenario,
        seed: u64,
        taken: &[(usize, Action)],
    ) -> Result<(Run, Simulation), RunError> {
        let mut anchorer = RunAnchorer::new(scenario, seed, taken.to_vec())?;
        while !anchorer.advance(usize::MAX)? {}
        Ok(anchorer.finish())
    }

    /// The run of a trace: its scenario and seed, and its steps chosen by the user
    /// ([`Choice::User`]) as choices.
    pub fn of_trace(trace: &Trace) -> Result<Run, ReplayError> {
        Run::anchor(trace.scenario.clone(), trace.seed, &user_actions(trace))
            .map(|(run, _)| run)
            .map_err(ReplayError::from)
    }

    /// The part of this run up to `step` as a run of its own: the choices that its play took
    /// (`outcomes`, from [`Played::outcomes`]) at or before `step`, at the steps they were
    /// taken. Playing it gives the same first `step` steps; a new choice after them starts a
    /// new branch of the run (the choices after `step` are not in it).
    pub fn until(&self, outcomes: &[ChoiceOutcome], step: usize) -> Run {
        let choices = self
            .choices
            .iter()
            .zip(outcomes)
            .filter_map(|(choice, outcome)| match outcome {
                ChoiceOutcome::Taken { step: taken } if *taken <= step => {
                    Some(UserChoice { step: *taken, action: choice.action.clone() })
                }
                ChoiceOutcome::Taken { .. } | ChoiceOutcome::TargetMissing => None,
            })
            .collect();
        Run { scenario: self.scenario.clone(), seed: self.seed, choices }
    }

    /// The learner's `choices` carried into another run: the same scenario with another seed,
    /// or another scenario. Each is placed as [`Run::play`] places it, by what it hits; those
    /// whose target never exists there are dropped and returned, in their order, so that the
    /// page can say which. The carried run holds the others at the steps they were taken, so
    /// it replays to the same steps, and its outcomes are theirs.
    pub fn carry(
        scenario: Scenario,
        seed: u64,
        choices: Vec<UserChoice>,
    ) -> Result<Carried, RunError> {
        let run = Run { scenario, seed, choices };
        let played = run.play()?;
        let dropped = run
            .choices
            .iter()
            .zip(&played.outcomes)
            .filter(|(_, outcome)| **outcome == ChoiceOutcome::TargetMissing)
            .map(|(choice, _)| choice.clone())
            .collect();
        let kept = run.until(&played.outcomes, usize::MAX);
        let outcomes =
            kept.choices.iter().map(|choice| ChoiceOutcome::Taken { step: choice.step }).collect();
        let played = Played { simulation: played.simulation, outcomes };
        Ok(Carried { run: kept, played, dropped })
    }

    /// Runs a trace again: the result equals the trace. A trace of a run that was still going
    /// (`stop` is [`StopReason::Running`]: the page exports the run up to the step it shows)
    /// replays to its last step; any other runs on to its end.
    ///
    /// One pass, read once: the run its choices were made in takes each at its recorded step
    /// (as [`RunOpener::of_trace`] opens it), and no snapshot is kept, since nothing rewinds it.
    pub fn replay(trace: &Trace) -> Result<Trace, ReplayError> {
        let mut anchorer =
            RunAnchorer::new(trace.scenario.clone(), trace.seed, user_actions(trace))?;
        anchorer.simulation.keep_no_snapshots();
        while !anchorer.advance(usize::MAX)? {}
        let (_, mut simulation) = anchorer.finish();
        if trace.stop == StopReason::Running {
            simulation.run_to(trace.steps.len());
        } else {
            simulation.run_to_end();
        }
        Ok(simulation.into_trace())
    }
}

impl From<RunError> for ReplayError {
    fn from(error: RunError) -> ReplayError {
        match error {
            RunError::Scenario(error) => ReplayError::Scenario(error),
            RunError::ChoiceRefused { step, error } => ReplayError::Apply { step, error },
            RunError::ChoiceOutOfOrder { step, previous } => {
                ReplayError::OutOfOrder { step, previous }
            }
            RunError::ChoiceNotReached { step, steps } => ReplayError::NotReached { step, steps },
        }
    }
}

/// A run being played, a slice at a time (the page plays a long run between frames).
#[derive(Clone, Debug)]
pub(crate) struct RunPlayer {
    choices: Vec<UserChoice>,
    simulation: Simulation,
    outcomes: Vec<ChoiceOutcome>,
    window: Window,
}

/// Where the next choice is being placed.
#[derive(Clone, Debug, Default)]
struct Window {
    /// Steps taken when the choice before it was placed.
    start: usize,
    /// The run at `start`, kept once a step is taken past it.
    checkpoint: Option<Simulation>,
    /// The latest count of steps taken, before the choice's step, at which it was enabled.
    latest_enabled: Option<usize>,
    /// What the scan for this choice saw of the choices after it ([`AHEAD_MAX`] at most),
    /// in their order: were this one missing, the next would be placed in the same window,
    /// over the same scheduler's steps, so the one scan places it too.
    ahead: Vec<Ahead>,
}

/// How many choices after the one being placed a window's scan watches: a run of missing
/// choices up to this long costs one scan to the run's end, not one each.
const AHEAD_MAX: usize = 32;

/// What a window's scan saw of a later choice: where it would be placed in this window.
#[derive(Clone, Copy, Debug, Default)]
struct Ahead {
    /// The latest count of steps taken, before the choice's step, at which it was enabled.
    latest_before: Option<usize>,
    /// The first count of steps taken, from the one before the choice's step, at which it was
    /// enabled.
    first_from_due: Option<usize>,
}

impl Ahead {
    /// Where the choice is taken (the count of steps taken before it) by the rule of
    /// [`Run`]: at its step, else the latest step before it, else the first after it; `None`
    /// if its target was never there.
    fn placed_after(&self, due: usize) -> Option<usize> {
        let at_due = due.saturating_sub(1);
        if self.first_from_due == Some(at_due) {
            return Some(at_due);
        }
        self.latest_before.or(self.first_from_due)
    }
}

impl RunPlayer {
    /// A player at the start of `run`.
    pub(crate) fn new(run: &Run) -> Result<RunPlayer, RunError> {
        check_order(run.choices.iter().map(|choice| choice.step))?;
        let simulation =
            Simulation::new(run.scenario.clone(), run.seed).map_err(RunError::Scenario)?;
        Ok(RunPlayer {
            choices: run.choices.clone(),
            simulation,
            outcomes: Vec::with_capacity(run.choices.len()),
            window: Window::default(),
        })
    }

    /// Takes up to `moves_max` moves (a step, or going back to place a choice); returns
    /// whether every choice is placed.
    pub(crate) fn advance(&mut self, moves_max: usize) -> bool {
        for _ in 0..moves_max {
            if self.is_done() {
                return true;
            }
            self.advance_one();
        }
        self.is_done()
    }

    /// Whether every choice is placed.
    pub(crate) fn is_done(&self) -> bool {
        self.outcomes.len() >= self.choices.len()
    }

    /// The steps the run has taken so far, and the choices placed out of all: for a progress
    /// bar.
    pub(crate) fn progress(&self) -> (usize, usize, usize) {
        (self.simulation.steps().len(), self.outcomes.len(), self.choices.len())
    }

    /// The run as far as it is played, and where its choices were placed.
    pub(crate) fn finish(self) -> Played {
        Played { simulation: self.simulation, outcomes: self.outcomes }
    }

    fn advance_one(&mut self) {
        let Some(choice) = self.choices.get(self.outcomes.len()) else { return };
        let taken = self.simulation.steps().len();
        let due = self.due(choice);
        let now = Now::of(&self.simulation);
        let enabled = now.enabled(&choice.action);
        // What the later choices see at this step matters only if the scan goes on past it,
        // the scheduler's run (the window is reset when this choice is taken).
        let next = self.outcomes.len().saturating_add(1);
        let later = self.choices.get(next..).unwrap_or_default();
        watch_ahead(&mut self.window.ahead, self.window.start, later, taken, &now);
        drop(now);
        if taken.saturating_add(1) >= due {
            if let Some(action) = enabled
                && self.simulation.step_with(action).is_ok()
            {
                self.placed(ChoiceOutcome::Taken { step: taken.saturating_add(1) });
                return;
            }
            if let Some(at) = self.window.latest_enabled {
                self.take_earlier(at);
                return;
            }
        } else if enabled.is_some() {
            self.window.latest_enabled = Some(taken);
        }
        if self.window.checkpoint.is_none() {
            debug_assert_eq!(taken, self.window.start, "a window's first step is at its start");
            self.window.checkpoint = Some(self.simulation.clone());
        }
        if self.simulation.step().is_none() {
            match self.window.latest_enabled {
                Some(at) => self.take_earlier(at),
                None => self.missing(),
            }
        }
    }

    /// The step a choice is due at in the current window: its own, or the window's first.
    fn due(&self, choice: &UserChoice) -> usize {
        choice.step.max(self.window.start.saturating_add(1))
    }

    fn placed(&mut self, outcome: ChoiceOutcome) {
        self.outcomes.push(outcome);
        self.window = Window { start: self.simulation.steps().len(), ..Window::default() };
    }

    /// Goes back to the run after `at` steps, where the choice was last enabled, and takes it.
    fn take_earlier(&mut self, at: usize) {
        let Some(checkpoint) = self.window.checkpoint.take() else {
            // Stepping past the window's start keeps its checkpoint: only a bug gets here.
            debug_assert!(false, "a choice enabled earlier in its window without a checkpoint");
            self.window.ahead.clear();
            return self.missing();
        };
        self.simulation = checkpoint;
        self.simulation.run_to(at);
        let taken = self.simulation.steps().len();
        let action = self
            .choices
            .get(self.outcomes.len())
            .and_then(|choice| choice.action.enabled_in(self.simulation.world()));
        let taken_now =
            taken == at && action.is_some_and(|action| self.simulation.step_with(action).is_ok());
        if taken_now {
            self.placed(ChoiceOutcome::Taken { step: at.saturating_add(1) });
        } else {
            // The run is a pure function of its inputs: the same steps again enable it.
            debug_assert!(false, "a choice enabled after {at} steps is not enabled again");
            // The scan stopped before the run's end: it saw nothing certain of the others.
            self.window.ahead.clear();
            self.missing();
        }
    }

    /// The choice's target never exists: back to the window's start, for the next choice.
    /// The scan that found it missing was the scheduler's run from that start to its end,
    /// the very steps the next choices' scans would take: the watched ones are placed from
    /// what it saw, each missing one without another scan, the first that is there taken where
    /// it saw it.
    fn missing(&mut self) {
        self.outcomes.push(ChoiceOutcome::TargetMissing);
        let ahead = std::mem::take(&mut self.window.ahead);
        self.restart_window();
        for seen in ahead {
            let Some(choice) = self.choices.get(self.outcomes.len()) else { return };
            let Some(at) = seen.placed_after(self.due(choice)) else {
                self.outcomes.push(ChoiceOutcome::TargetMissing);
                continue;
            };
            self.simulation.run_to(at);
            let action = Now::of(&self.simulation).enabled(&choice.action);
            let taken = self.simulation.steps().len() == at
                && action.is_some_and(|action| self.simulation.step_with(action).is_ok());
            if taken {
                self.placed(ChoiceOutcome::Taken { step: at.saturating_add(1) });
            } else {
                // The run is a pure function of its inputs: the same steps enable it again.
                debug_assert!(false, "a choice seen enabled after {at} steps is not again");
                self.restart_window();
            }
            return;
        }
    }

    /// Back to the window's start, with nothing seen yet: the next choice is scanned for from
    /// there.
    fn restart_window(&mut self) {
        if let Some(checkpoint) = &self.window.checkpoint {
            self.simulation = checkpoint.clone();
        }
        self.window.latest_enabled = None;
        self.window.ahead.clear();
    }
}

/// Choices recorded as plain actions at step numbers being anchored, a step at a time:
/// [`Run::anchor`] in slices.
#[derive(Clone, Debug)]
pub(crate) struct RunAnchorer {
    seed: u64,
    taken: Vec<(usize, Action)>,
    simulation: Simulation,
    choices: Vec<UserChoice>,
}

impl RunAnchorer {
    /// An anchorer at the start of the run of `scenario` with `seed`, for the actions `taken`
    /// at their step numbers.
    pub(crate) fn new(
        scenario: Scenario,
        seed: u64,
        taken: Vec<(usize, Action)>,
    ) -> Result<RunAnchorer, RunError> {
        check_order(taken.iter().map(|(step, _)| *step))?;
        let simulation = Simulation::new(scenario, seed).map_err(RunError::Scenario)?;
        let choices = Vec::with_capacity(taken.len());
        Ok(RunAnchorer { seed, taken, simulation, choices })
    }

    /// Takes up to `moves_max` steps (the scheduler's, or an action taken and anchored);
    /// returns whether every action is anchored.
    pub(crate) fn advance(&mut self, moves_max: usize) -> Result<bool, RunError> {
        for _ in 0..moves_max {
            let Some((step, action)) = self.taken.get(self.choices.len()) else {
                return Ok(true);
            };
            let step = *step;
            if self.simulation.steps().len().saturating_add(1) < step {
                if self.simulation.step().is_none() {
                    let steps = self.simulation.steps().len();
                    return Err(RunError::ChoiceNotReached { step, steps });
                }
                continue;
            }
            let refused = |error| RunError::ChoiceRefused { step, error };
            let anchored = anchor(self.simulation.world(), action)
                .ok_or_else(|| refused(ApplyError::NotEnabled { action: action.clone() }))?;
            self.simulation.step_with(action.clone()).map_err(refused)?;
            self.choices.push(UserChoice { step, action: anchored });
        }
        Ok(self.is_done())
    }

    /// Whether every action is anchored.
    pub(crate) fn is_done(&self) -> bool {
        self.choices.len() >= self.taken.len()
    }

    /// The steps the run has taken so far.
    pub(crate) fn steps(&self) -> usize {
        self.simulation.steps().len()
    }

    /// The run of the actions anchored so far, and the simulation after the last of them.
    pub(crate) fn finish(self) -> (Run, Simulation) {
        let scenario = self.simulation.scenario().clone();
        (Run { scenario, seed: self.seed, choices: self.choices }, self.simulation)
    }
}

/// A run being opened, a slice at a time (the page opens a long link or trace between
/// frames): its choices placed by a [`RunPlayer`] (for a trace, its actions anchored by a
/// [`RunAnchorer`], which takes each at its step), then the scheduler's steps taken until the
/// run has `target` steps or stops. Opened to the end, it is what [`Run::play`] (for a trace,
/// [`Run::of_trace`] and [`Run::play`]) and stepping on to `target` give.
#[derive(Clone, Debug)]
pub struct RunOpener {
    phase: OpenPhase,
    target: usize,
}

#[derive(Clone, Debug)]
enum OpenPhase {
    Anchoring(Box<RunAnchorer>),
    Placing(Box<(Run, RunPlayer)>),
    Stepping(Box<Stepping>),
    /// Only within [`RunOpener::advance`], between two phases.
    Moving,
}

#[derive(Clone, Debug)]
struct Stepping {
    run: Run,
    played: Played,
    /// Whether `target` steps are taken or the run has stopped.
    open: bool,
}

impl RunOpener {
    /// An opener of `run`, to be played until every choice is placed, then stepped on until
    /// `target` steps are taken (or the run stops).
    pub(crate) fn new(run: Run, target: usize) -> Result<RunOpener, RunError> {
        let player = RunPlayer::new(&run)?;
        Ok(RunOpener { phase: OpenPhase::Placing(Box::new((run, player))), target })
    }

    /// An opener of the run of `trace` ([`Run::of_trace`]), to the trace's last step.
    pub fn of_trace(trace: &Trace) -> Result<RunOpener, RunError> {
        let anchorer = RunAnchorer::new(trace.scenario.clone(), trace.seed, user_actions(trace))?;
        Ok(RunOpener { phase: OpenPhase::Anchoring(Box::new(anchorer)), target: trace.steps.len() })
    }

    /// Takes up to `moves_max` moves (a step, or going back to place a choice); returns
    /// whether the run is open: every choice placed, and `target` steps taken or the run
    /// stopped.
    pub fn advance(&mut self, moves_max: usize) -> Result<bool, RunError> {
        let placed = match &mut self.phase {
            OpenPhase::Anchoring(anchorer) => anchorer.advance(moves_max)?,
            OpenPhase::Placing(placing) => placing.1.advance(moves_max),
            OpenPhase::Stepping(stepping) => {
                for _ in 0..moves_max {
                    if stepping.open {
                        break;
                    }
                    let simulation = &mut stepping.played.simulation;
                    stepping.open =
                        simulation.steps().len() >= self.target || simulation.step().is_none();
                }
                return Ok(stepping.open);
            }
            OpenPhase::Moving => return Ok(true),
        };
        if placed {
            self.phase = match std::mem::replace(&mut self.phase, OpenPhase::Moving) {
                OpenPhase::Anchoring(anchorer) => {
                    // In the run its choices were made in, each is taken at its step.
                    let (run, simulation) = (*anchorer).finish();
                    let outcomes = run
                        .choices
                        .iter()
                        .map(|choice| ChoiceOutcome::Taken { step: choice.step })
                        .collect();
                    let played = Played { simulation, outcomes };
                    OpenPhase::Stepping(Box::new(Stepping { run, played, open: false }))
                }
                OpenPhase::Placing(placing) => {
                    let (run, player) = *placing;
                    let played = player.finish();
                    OpenPhase::Stepping(Box::new(Stepping { run, played, open: false }))
                }
                phase => phase,
            };
        }
        Ok(false)
    }

    /// The steps the run has taken so far, and the steps it is opened to: for a progress
    /// line (the run may stop before them, or go beyond them to place a choice).
    pub fn progress(&self) -> (usize, usize) {
        let steps = match &self.phase {
            OpenPhase::Anchoring(anchorer) => anchorer.steps(),
            OpenPhase::Placing(placing) => placing.1.progress().0,
            OpenPhase::Stepping(stepping) => stepping.played.simulation.steps().len(),
            OpenPhase::Moving => 0,
        };
        (steps, self.target)
    }

    /// Whether the run is open ([`RunOpener::advance`] returned `true`).
    #[cfg(test)]
    pub(crate) fn is_open(&self) -> bool {
        match &self.phase {
            OpenPhase::Stepping(stepping) => stepping.open,
            OpenPhase::Anchoring(_) | OpenPhase::Placing(_) => false,
            OpenPhase::Moving => true,
        }
    }

    /// The run and its play as far as it is opened (all of it once `RunOpener::is_open`):
    /// opens the rest first if it is not.
    pub fn finish(mut self) -> Result<(Run, Played), RunError> {
        while !self.advance(usize::MAX)? {}
        match self.phase {
            OpenPhase::Stepping(stepping) => Ok((stepping.run, stepping.played)),
            // `advance` leaves every phase but the last behind it.
            OpenPhase::Anchoring(_) | OpenPhase::Placing(_) | OpenPhase::Moving => {
                unreachable!("a run opener is stepping once it is open")
            }
        }
    }
}

/// A run's state now, as a learner's choices see it: the actions that may be taken, listed
/// once and only if a choice's target is there.
struct Now<'a> {
    simulation: &'a Simulation,
    listed: OnceCell<Vec<Action>>,
}

impl<'a> Now<'a> {
    fn of(simulation: &'a Simulation) -> Now<'a> {
        Now { simulation, listed: OnceCell::new() }
    }

    /// The action `choice` hits now, if it may be taken: never once the run has stopped or
    /// reached a limit (a step there is refused).
    fn enabled(&self, choice: &AnchoredAction) -> Option<Action> {
        let simulation = self.simulation;
        if simulation.stop_reason().is_some() || simulation.limit_reached().is_some() {
            return None;
        }
        let action = choice.resolve(simulation.world())?;
        let listed = self.listed.get_or_init(|| simulation.world().enabled_actions());
        is_listed(listed, &action).then_some(action)
    }
}

/// Notes, for each choice `later` than the one being placed (as many as `ahead` watches,
/// [`AHEAD_MAX`] at most), whether it may be taken after `taken` steps of the scan of the
/// window that started after `start` steps.
fn watch_ahead(
    ahead: &mut Vec<Ahead>,
    start: usize,
    later: &[UserChoice],
    taken: usize,
    now: &Now<'_>,
) {
    let watched = later.len().min(AHEAD_MAX);
    if ahead.len() < watched {
        ahead.resize(watched, Ahead::default());
    }
    for (choice, seen) in later.iter().zip(ahead.iter_mut()) {
        if now.enabled(&choice.action).is_none() {
            continue;
        }
        let due = choice.step.max(start.saturating_add(1));
        if taken.saturating_add(1) < due {
            seen.latest_before = Some(taken);
        } else if seen.first_from_due.is_none() {
            seen.first_from_due = Some(taken);
        }
    }
}

/// The steps of `trace` that its user chose, as actions at their step numbers.
fn user_actions(trace: &Trace) -> Vec<(usize, Action)> {
    trace
        .steps
        .iter()
        .filter(|step| step.chosen_by == Choice::User)
        .map(|step| (step.step, step.action.clone()))
        .collect()
}

fn check_order(steps: impl Iterator<Item = usize>) -> Result<(), RunError> {
    let mut previous = 0;
    for step in steps {
        if step <= previous {
            return Err(RunError::ChoiceOutOfOrder { step, previous });
        }
        previous = step;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
