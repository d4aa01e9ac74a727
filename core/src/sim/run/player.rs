//! Playing a run forward: [`RunPlayer`] takes a run's steps and places each of its choices at
//! its step, in slices of moves, so that a long run never blocks its caller; a choice whose
//! action is not enabled when due is watched for a few steps ahead, then reported missing.

use super::{ChoiceOutcome, Now, Played, Run, RunError, Simulation, UserChoice, check_order};

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
