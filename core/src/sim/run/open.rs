//! Opening a run in slices: [`RunAnchorer`] anchors a share link's or a trace's choices to the steps
//! they were taken at, and [`RunOpener`] plays the anchored run to its target step, so that a long
//! link opens with a progress line and can be cancelled.

use super::{
    Action, ApplyError, ChoiceOutcome, Played, Run, RunError, RunPlayer, Scenario, Simulation,
    Trace, UserChoice, anchor, check_order, user_actions,
};

/// Choices recorded as plain actions at step numbers being anchored, a step at a time:
/// [`Run::anchor`] in slices.
#[derive(Clone, Debug)]
pub(crate) struct RunAnchorer {
    seed: u64,
    taken: Vec<(usize, Action)>,
    pub(super) simulation: Simulation,
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
