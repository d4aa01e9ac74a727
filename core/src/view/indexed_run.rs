//! A run a front end shows, with its index: a [`Simulation`] and the [`RunIndex`] of its steps,
//! which every step taken extends. The page, the embed and the JavaScript API hold their run
//! as one, so that a screen ([`crate::view::Screen::at`]) costs its window at any step of any
//! run, and no step can be taken without being indexed.
//!
//! It reads as its simulation (it dereferences to it); only the methods here take steps, each
//! of which indexes what it took. A branch (a learner's choice at an earlier step, which plays
//! the run again) keeps the index of the steps it kept ([`IndexedRun::branched`]).

use std::ops::Deref;

use crate::sim::{Simulation, StopReason, TraceStep};
use crate::view::RunIndex;

/// A simulation and the index of its steps (see the module's documentation).
#[derive(Clone, Debug)]
pub struct IndexedRun {
    simulation: Simulation,
    index: RunIndex,
}

impl IndexedRun {
    /// `simulation`, its steps so far indexed.
    pub fn new(simulation: Simulation) -> IndexedRun {
        let mut index = RunIndex::default();
        index.extend(simulation.steps());
        IndexedRun { simulation, index }
    }

    /// `simulation`, a branch of the run `index` indexed: its first `kept_steps` steps are
    /// that run's (the same run played again to there, then another choice), so their index
    /// is kept and only the steps after them are indexed.
    ///
    /// # Panics
    ///
    /// If `index` has fewer than `kept_steps` steps, or `simulation` fewer than `kept_steps`.
    pub fn branched(simulation: Simulation, mut index: RunIndex, kept_steps: usize) -> IndexedRun {
        let steps = simulation.steps();
        let kept = steps.get(..kept_steps).expect("a branch keeps steps its run has");
        index.truncate(kept);
        index.extend(steps);
        IndexedRun { simulation, index }
    }

    /// The index of the run's steps.
    pub fn index(&self) -> &RunIndex {
        &self.index
    }

    /// The simulation.
    pub fn simulation(&self) -> &Simulation {
        &self.simulation
    }

    /// The simulation, its index dropped.
    pub fn into_simulation(self) -> Simulation {
        self.simulation
    }

    /// [`Simulation::step`], the step indexed.
    pub fn step(&mut self) -> Option<&TraceStep> {
        let stepped = self.simulation.step().is_some();
        self.index.extend(self.simulation.steps());
        stepped.then(|| self.simulation.steps().last()).flatten()
    }

    /// [`Simulation::run_to`], the steps indexed.
    pub fn run_to(&mut self, steps: usize) -> bool {
        let reached = self.simulation.run_to(steps);
        self.index.extend(self.simulation.steps());
        reached
    }

    /// [`Simulation::run_to_end`], the steps indexed.
    pub fn run_to_end(&mut self) -> StopReason {
        let stop = self.simulation.run_to_end();
        self.index.extend(self.simulation.steps());
        stop
    }

    /// [`Simulation::settle`] (it takes no step).
    pub fn settle(&mut self) -> Option<&StopReason> {
        self.simulation.settle()
    }
}

impl Deref for IndexedRun {
    type Target = Simulation;

    fn deref(&self) -> &Simulation {
        &self.simulation
    }
}
