//! A run a front end shows, with its index: a [`Simulation`] and the [`RunIndex`] of its steps,
//! which every step taken extends. The page, the embed and the JavaScript API hold their run
//! as one, so that a screen ([`crate::view::Screen::at`]) costs its window at any step of any
//! run, and no step can be taken without being indexed.
//!
//! It reads as its simulation (it dereferences to it); only the methods here take steps, each
//! of which indexes what it took. A branch (a learner's choice at an earlier step, which plays
//! the run again) keeps the index of the steps it kept ([`IndexedRun::branched`]).

use std::cell::OnceCell;
use std::ops::Deref;

use crate::sim::{Simulation, StopReason, TraceStep, UserChoice};
use crate::view::{RunIndex, ShareLink, SharedScenario};

/// A simulation and the index of its steps (see the module's documentation).
#[derive(Clone, Debug)]
pub struct IndexedRun {
    simulation: Simulation,
    index: RunIndex,
    /// The run's scenario as its share link carries it ([`SharedScenario::fragment_part`]),
    /// once a link was asked for: the run's scenario never changes, and carried inline it is
    /// most of a long link, which the page writes at every step.
    scenario_part: OnceCell<String>,
}

impl IndexedRun {
    /// `simulation`, its steps so far indexed.
    pub fn new(simulation: Simulation) -> IndexedRun {
        let mut index = RunIndex::default();
        index.extend(simulation.steps());
        IndexedRun { simulation, index, scenario_part: OnceCell::new() }
    }

    /// `simulation`, a branch of the run `index` indexed: its first `kept_steps` steps are
    /// that run's (the same run played again to there, then another choice), so their index
    /// is kept and only the steps after them are indexed.
    ///
    /// # Panics
    ///
    /// If `index` has fewer than `kept_steps` steps, or `simulation` fewer than `kept_steps`.
    pub fn branched(simulation: Simulation, mut index: RunIndex, kept_steps: usize) -> IndexedRun {
        index.truncate(simulation.steps(), kept_steps);
        index.extend(simulation.steps());
        IndexedRun { simulation, index, scenario_part: OnceCell::new() }
    }

    /// The fragment of the share link of this run ([`ShareLink::encode`]) with the learner's
    /// `choices`, showing `step`, in the presenter view if `presenter`. The scenario's part is
    /// encoded once per run.
    pub fn share_fragment(&self, choices: &[UserChoice], step: usize, presenter: bool) -> String {
        let scenario = self.simulation.scenario();
        let part = self.scenario_part.get_or_init(|| SharedScenario::of(scenario).fragment_part());
        ShareLink::encode_with(
            part,
            self.simulation.seed(),
            scenario.patterns,
            choices,
            step,
            presenter,
        )
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
