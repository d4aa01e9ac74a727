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

mod open;
mod player;

pub(crate) use open::RunAnchorer;
pub use open::RunOpener;
pub(crate) use player::RunPlayer;

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
