//! The run's index against the derivation from scratch it replaces: at many cursors of every
//! lesson in both twins and of random runs, before and after a branch, each of its answers is
//! what the functions over the prefix's steps give, and a screen with it is the screen derived
//! without it ([`Screen::from_scratch`]).

use proptest::prelude::*;

use super::*;
use crate::faults::FaultClass;
use crate::sim::{
    CATALOGUE, PatternMode, Patterns, Scenario, Simulation, StepLog, catalogue_scenario,
};
use crate::view::{
    IndexedRun, Screen, ScreenInput, WINDOW_STEPS, breaking_steps, dead_letter_sentences,
    first_drawn, moments,
};

/// How far before the window a check reveals: none, a little, and every step.
const REVEALED: [usize; 3] = [0, 7, usize::MAX];

/// Checks the index of `steps` at `cursor` against the derivation over the steps up to it: the
/// moments drawn on each window the learner may reveal, where each invariant broke, and the
/// dead letters in both languages.
fn check_answers(index: &RunIndex, steps: &StepLog, cursor: usize) -> Result<(), String> {
    assert!(cursor <= steps.len(), "a cursor within the run");
    let prefix = steps.first(cursor);
    let every_moment = moments(prefix.clone());
    for revealed in REVEALED {
        let hidden = first_drawn(cursor, revealed);
        let expected: Vec<Moment> =
            every_moment.iter().copied().filter(|moment| moment.step > hidden).collect();
        let drawn: Vec<Moment> = index.moments_drawn(cursor, hidden).collect();
        if drawn != expected {
            return Err(format!("moments at {cursor}, hidden {hidden}: {drawn:?} != {expected:?}"));
        }
    }
    let breaks = index.breaking_steps(cursor);
    if breaks != breaking_steps(prefix.clone()) {
        return Err(format!(
            "breaks at {cursor}: {breaks:?} != {:?}",
            breaking_steps(prefix.clone())
        ));
    }
    for language in Language::ALL {
        if index.dead_letter_sentences(cursor, language)
            != dead_letter_sentences(prefix.clone(), language)
        {
            return Err(format!("dead letters at {cursor} in {language:?}"));
        }
    }
    Ok(())
}

/// Checks the screen of `run` at `cursor` with its index against the screen derived from
/// scratch, for each window the learner may reveal, in both languages.
fn check_screen(run: &IndexedRun, cursor: usize) -> Result<(), String> {
    let world = run.world_after(cursor).map_err(|error| format!("{error:?}"))?;
    let at_end = cursor == run.steps().len();
    for revealed in REVEALED {
        for language in Language::ALL {
            let input = ScreenInput {
                run,
                cursor,
                world: &world,
                stop: run.stop_reason().filter(|_| at_end),
                revealed,
                waits: false,
                language,
            };
            if Screen::at(&input) != Screen::from_scratch(&input) {
                return Err(format!("the screen at {cursor}, revealed {revealed}, {language:?}"));
            }
        }
    }
    Ok(())
}

/// Both checks at `cursor`.
fn check(run: &IndexedRun, cursor: usize) -> Result<(), String> {
    check_answers(run.index(), run.steps(), cursor)?;
    check_screen(run, cursor)
}

/// Cursors spread over a run of `steps`: its start, its end, and about `count` between.
fn cursors(steps: usize, count: usize) -> impl Iterator<Item = usize> {
    let stride = (steps / count.max(1)).max(1);
    (0..=steps).step_by(stride).chain([steps])
}

#[test]
fn every_lesson_in_both_twins_indexed_step_by_step_answers_as_its_steps_do() {
    let mut kinds = std::collections::BTreeSet::new();
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let scenario = catalogue_scenario(entry.id).unwrap().with_all_patterns(mode);
            let mut run = IndexedRun::new(Simulation::new(scenario, 0).unwrap());
            // At each new step, and at a step rewound to: an answer for a prefix.
            while run.step().is_some() {
                let taken = run.steps().len();
                check(&run, taken).unwrap_or_else(|why| panic!("{} {mode:?}: {why}", entry.id));
                check(&run, taken / 2).unwrap_or_else(|why| panic!("{} {mode:?}: {why}", entry.id));
            }
            // Every step rewound to once the run has ended, among them those between a moment's
            // statement and the step that tells it (known later, not drawn yet).
            for cursor in 0..=run.steps().len() {
                check(&run, cursor).unwrap_or_else(|why| panic!("{} {mode:?}: {why}", entry.id));
            }
            kinds.extend(moments(run.steps()).iter().map(|moment| moment.kind));
        }
    }
    // The lessons draw every kind of moment, so each kind's mapping is checked above.
    assert_eq!(kinds.len(), crate::view::MomentKind::ALL.len(), "{kinds:?}");
}

#[test]
fn every_lesson_truncated_at_each_step_and_indexed_again_answers_as_its_steps_do() {
    // A truncation between a statement and the step that tells its moment (an inbox insert
    // and its acknowledgement, a guarded `UPDATE` and its `COMMIT`) keeps the moment finder's
    // state of the kept steps, not that of the steps forgotten.
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let scenario = catalogue_scenario(entry.id).unwrap().with_all_patterns(mode);
            let run = IndexedRun::new({
                let mut simulation = Simulation::new(scenario, 0).unwrap();
                simulation.run_to_end();
                simulation
            });
            let steps = run.steps();
            for kept in 0..=steps.len() {
                let mut index = run.index().clone();
                index.truncate(steps, kept);
                assert_eq!(index.steps_indexed(), kept);
                check_answers(&index, steps, kept)
                    .unwrap_or_else(|why| panic!("{} {mode:?} kept {kept}: {why}", entry.id));
                index.extend(steps);
                check_answers(&index, steps, steps.len())
                    .unwrap_or_else(|why| panic!("{} {mode:?} kept {kept}: {why}", entry.id));
            }
        }
    }
}

#[test]
fn a_long_run_answers_for_its_prefixes_and_after_a_branch() {
    let scenario = crate::sim::bounds::longest_run_scenario().unwrap();
    let mut simulation = Simulation::new(scenario.clone(), 3).unwrap();
    simulation.run_to(1_500);
    let run = IndexedRun::new(simulation);
    for cursor in cursors(1_500, 12) {
        check(&run, cursor).unwrap();
    }
    // Truncated to its first 600 steps and indexed on to 900 (the same run played again):
    // what is kept and what is indexed again answer as the steps do.
    let mut again = Simulation::new(scenario, 3).unwrap();
    again.run_to(900);
    let branched = IndexedRun::branched(again, run.index().clone(), 600);
    assert_eq!(branched.index().steps_indexed(), 900);
    for cursor in cursors(900, 9) {
        check(&branched, cursor).unwrap();
    }
}

/// Takes steps of `simulation` chosen by `choices` among every enabled action (faults too),
/// indexing each into `index` and checking the index at its new end and at a cursor rewound to.
fn walk(
    simulation: &mut Simulation,
    index: &mut RunIndex,
    choices: &[u16],
) -> Result<(), TestCaseError> {
    for (at, choice) in choices.iter().enumerate() {
        let enabled = simulation.world().enabled_actions();
        if enabled.is_empty() {
            break;
        }
        let action = enabled[usize::from(*choice) % enabled.len()].clone();
        if simulation.step_with(action).is_err() {
            break;
        }
        index.extend(simulation.steps());
        let taken = simulation.steps().len();
        for cursor in [taken, at * 7 % (taken + 1)] {
            check_answers(index, simulation.steps(), cursor).map_err(TestCaseError::fail)?;
        }
    }
    Ok(())
}

/// A run of `scenario` and `seed` walked by `first`, indexed step by step; then a branch at
/// `branch_at` of its steps, walked on by `then` from there: the index truncated to the steps
/// kept and extended by the branch's answers as the branch's steps do, and so do its screens.
fn index_across_a_branch(
    scenario: &Scenario,
    seed: u64,
    first: &[u16],
    branch_at: usize,
    then: &[u16],
) -> Result<(), TestCaseError> {
    let mut simulation = Simulation::new(scenario.clone(), seed).unwrap();
    let mut index = RunIndex::default();
    walk(&mut simulation, &mut index, first)?;
    let kept = branch_at % (simulation.steps().len() + 1);
    let mut branch = Simulation::new(scenario.clone(), seed).unwrap();
    walk(&mut branch, &mut RunIndex::default(), &first[..kept])?;
    prop_assert!(branch.steps().first(kept).eq(simulation.steps().first(kept)), "kept {}", kept);
    let mut unused = RunIndex::default();
    walk(&mut branch, &mut unused, then)?;
    let run = IndexedRun::branched(branch, index, kept);
    prop_assert_eq!(run.index().steps_indexed(), run.steps().len());
    for cursor in cursors(run.steps().len(), 16).chain([kept]) {
        check(&run, cursor).map_err(TestCaseError::fail)?;
    }
    for cursor in 0..=run.steps().len() {
        check_answers(run.index(), run.steps(), cursor).map_err(TestCaseError::fail)?;
    }
    // Truncated to nothing, and indexed again: the run's index from its start.
    let mut index = run.index().clone();
    index.truncate(run.steps(), 0);
    index.extend(run.steps());
    for cursor in cursors(run.steps().len(), 8) {
        check_answers(&index, run.steps(), cursor).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

fn random_runs(mode: PatternMode) -> impl Strategy<Value = Scenario> {
    crate::testing::configured_scenario(crate::testing::ScenarioShape {
        random_faults: crate::testing::RandomFaults::On,
        ..crate::testing::ScenarioShape::new(Patterns::all(mode), &FaultClass::ALL)
    })
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(32))]

    #[test]
    fn the_index_answers_as_the_steps_do_across_a_branch_on_random_naive_runs(
        scenario in random_runs(PatternMode::Naive),
        seed in crate::testing::seed(),
        first in proptest::collection::vec(any::<u16>(), 0..160),
        branch_at in any::<usize>(),
        then in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        index_across_a_branch(&scenario, seed, &first, branch_at, &then)?;
    }

    #[test]
    fn the_index_answers_as_the_steps_do_across_a_branch_on_random_idempotent_runs(
        scenario in random_runs(PatternMode::Idempotent),
        seed in crate::testing::seed(),
        first in proptest::collection::vec(any::<u16>(), 0..160),
        branch_at in any::<usize>(),
        then in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        index_across_a_branch(&scenario, seed, &first, branch_at, &then)?;
    }
}

#[test]
fn a_window_before_any_step_draws_no_moment() {
    let index = RunIndex::default();
    assert_eq!(index.moments_drawn(0, 0).count(), 0);
    assert_eq!(index.breaking_steps(0), BTreeMap::new());
    assert!(index.dead_letter_sentences(0, Language::En).is_empty());
    assert_eq!(first_drawn(WINDOW_STEPS, 0), 0);
}
