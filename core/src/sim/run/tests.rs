//! Tests of the one replay: choices anchored to their targets survive a pattern switch, apply
//! to both twins, and a run with them replays to the same bytes.

use super::*;
use crate::sim::{
    AnchoredAction, CATALOGUE, CopyRef, MessageAnchor, PatternMode, RequestIndex,
    catalogue_scenario,
};

/// A lesson in `mode`, taken `steps` scheduler steps in; then the learner takes the first
/// enabled action that `pick` accepts (a fault on the diagram's pending items).
fn learner_run(
    lesson: &str,
    mode: PatternMode,
    steps: usize,
    pick: impl Fn(&Action) -> bool,
) -> (Run, Simulation) {
    let scenario = catalogue_scenario(lesson).unwrap().with_mode(mode);
    let mut simulation = Simulation::new(scenario.clone(), 0).unwrap();
    for _ in 0..steps {
        simulation.step().unwrap();
    }
    let action = simulation.world().enabled_actions().into_iter().find(|action| pick(action));
    let action = action.unwrap_or_else(|| panic!("{lesson}: nothing to pick after {steps} steps"));
    let (run, simulation) = Run::anchor(scenario, 0, &[(steps + 1, action)]).unwrap();
    (run, simulation)
}

fn with_mode(run: &Run, mode: PatternMode) -> Run {
    Run { scenario: run.scenario.with_mode(mode), ..run.clone() }
}

fn user_steps(simulation: &Simulation) -> Vec<(usize, Action)> {
    simulation
        .steps()
        .iter()
        .filter(|step| step.chosen_by == Choice::User)
        .map(|step| (step.step, step.action.clone()))
        .collect()
}

#[test]
fn a_pattern_switch_keeps_the_learners_fault() {
    // Repro 1: f03, nine steps, F1 on the pending message, then all idempotent.
    let duplicate = |action: &Action| matches!(action, Action::DuplicateMessage { .. });
    let (naive, taken) = learner_run("f03-crash-before-commit", PatternMode::Naive, 9, duplicate);
    assert_eq!(
        naive.choices[0].action,
        AnchoredAction::DuplicateMessage {
            copy: CopyRef { message: MessageAnchor::OrderPlacedOf(RequestIndex(0)), copy: 0 }
        }
    );
    let played = naive.play().unwrap();
    assert_eq!(played.outcomes, vec![ChoiceOutcome::Taken { step: 10 }]);
    assert_eq!(played.simulation.steps(), taken.steps());

    let switched = with_mode(&naive, PatternMode::Idempotent).play_to_end().unwrap();
    let [ChoiceOutcome::Taken { step }] = switched.outcomes[..] else {
        panic!("the fault is lost: {:?}", switched.outcomes);
    };
    let recorded = &switched.simulation.steps()[step - 1];
    assert_eq!(recorded.chosen_by, Choice::User);
    assert!(matches!(recorded.action, Action::DuplicateMessage { .. }), "{recorded:?}");
    // The duplicate is delivered: two OrderPlaced deliveries at least, and the idempotent
    // consumer keeps every invariant.
    let trace = switched.simulation.trace();
    assert!(trace.invariants_ever_violated().is_empty(), "{:?}", trace.invariants_ever_violated());
    // And back: the same run as before the switch, byte for byte.
    let back = with_mode(&with_mode(&naive, PatternMode::Idempotent), PatternMode::Naive);
    assert_eq!(back.play().unwrap().simulation.steps(), taken.steps());
}

#[test]
fn a_choice_is_taken_exactly_at_its_step_in_its_own_run() {
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let scenario = catalogue_scenario(entry.id).unwrap().with_mode(mode);
            let mut simulation = Simulation::new(scenario.clone(), 3).unwrap();
            // A fault every fourth step where one is enabled, the scheduler elsewhere.
            while simulation.steps().len() < 60 {
                let fault = simulation
                    .world()
                    .enabled_fault_actions()
                    .into_iter()
                    .next()
                    .filter(|_| simulation.steps().len() % 4 == 3);
                let moved = match fault {
                    Some(action) => simulation.step_with(action).is_ok(),
                    None => simulation.step().is_some(),
                };
                if !moved {
                    break;
                }
            }
            let trace = simulation.trace();
            let run = Run::of_trace(&trace).unwrap();
            let played = run.play().unwrap();
            let steps = played.simulation.steps();
            assert_eq!(steps, &trace.steps[..steps.len()], "{} {mode:?}", entry.id);
            assert!(
                played.outcomes.iter().zip(&run.choices).all(
                    |(outcome, choice)| *outcome == ChoiceOutcome::Taken { step: choice.step }
                ),
                "{} {mode:?}",
                entry.id
            );
            assert_eq!(Run::replay(&trace).unwrap(), trace, "{} {mode:?}", entry.id);
        }
    }
}

#[test]
fn every_enabled_action_resolves_back_from_its_anchor() {
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let scenario = catalogue_scenario(entry.id).unwrap().with_mode(mode);
            let mut simulation = Simulation::new(scenario, 1).unwrap();
            loop {
                let world = simulation.world();
                for action in world.enabled_actions() {
                    let anchored = crate::sim::anchor(world, &action)
                        .unwrap_or_else(|| panic!("{}: {action:?} has no anchor", entry.id));
                    assert_eq!(anchored.resolve(world), Some(action.clone()), "{}", entry.id);
                }
                if simulation.step().is_none() {
                    break;
                }
            }
        }
    }
}

#[test]
fn a_choice_whose_target_is_elsewhere_is_taken_nearest_to_its_step() {
    // Made in the idempotent twin, whose consumer runs more statements; the naive twin gets
    // there sooner, so the same fault is taken earlier there, never lost.
    let duplicate = |action: &Action| matches!(action, Action::DuplicateMessage { .. });
    let lesson = "f03-crash-before-commit";
    let enabled_at = |mode: PatternMode| -> Vec<usize> {
        let scenario = catalogue_scenario(lesson).unwrap().with_mode(mode);
        let mut simulation = Simulation::new(scenario, 0).unwrap();
        let mut at = Vec::new();
        loop {
            if simulation.world().enabled_actions().iter().any(duplicate) {
                at.push(simulation.steps().len());
            }
            if simulation.step().is_none() {
                return at;
            }
        }
    };
    // The last moment the message can be duplicated in the idempotent twin, long after the
    // naive twin has passed it.
    let idempotent_last = *enabled_at(PatternMode::Idempotent).last().unwrap();
    let naive_last = *enabled_at(PatternMode::Naive).last().unwrap();
    assert!(naive_last < idempotent_last, "{naive_last} {idempotent_last}");
    let (idempotent, _) = learner_run(lesson, PatternMode::Idempotent, idempotent_last, duplicate);
    let naive = with_mode(&idempotent, PatternMode::Naive).play().unwrap();
    assert_eq!(naive.outcomes, vec![ChoiceOutcome::Taken { step: naive_last + 1 }]);
    for mode in [PatternMode::Naive, PatternMode::Idempotent] {
        let played = with_mode(&idempotent, mode).play().unwrap();
        let [ChoiceOutcome::Taken { step }] = played.outcomes[..] else {
            panic!("{mode:?}: {:?}", played.outcomes);
        };
        let recorded = &played.simulation.steps()[step - 1];
        assert!(matches!(recorded.action, Action::DuplicateMessage { .. }), "{recorded:?}");
        assert_eq!(user_steps(&played.simulation).len(), 1);
    }
}

#[test]
fn a_choice_whose_target_never_exists_is_reported_and_the_next_still_applies() {
    let scenario = catalogue_scenario("p4-inbox-consumer").unwrap();
    let missing = UserChoice {
        step: 2,
        // p4 has one request: request 5 never sends.
        action: AnchoredAction::DoubleSubmit { request: RequestIndex(5) },
    };
    let double_submit =
        UserChoice { step: 3, action: AnchoredAction::DoubleSubmit { request: RequestIndex(0) } };
    let run = Run { scenario, seed: 0, choices: vec![missing, double_submit] };
    let played = run.play().unwrap();
    assert_eq!(played.outcomes[0], ChoiceOutcome::TargetMissing);
    // The second is placed as if the first had not been made: at the first step where the
    // request may still be sent, step 1 being before its own step.
    assert_eq!(played.outcomes[1], ChoiceOutcome::Taken { step: 1 });
    assert_eq!(
        user_steps(&played.simulation),
        vec![(1, Action::DoubleSubmit { request: RequestIndex(0) })]
    );
    let unordered = Run { choices: vec![run.choices[1].clone(), run.choices[0].clone()], ..run };
    assert_eq!(unordered.play().unwrap_err(), RunError::ChoiceOutOfOrder { step: 2, previous: 3 });
}

#[test]
fn a_player_in_slices_ends_where_one_call_ends() {
    let duplicate = |action: &Action| matches!(action, Action::DuplicateMessage { .. });
    let (naive, _) = learner_run("f03-crash-before-commit", PatternMode::Naive, 9, duplicate);
    let switched = with_mode(&naive, PatternMode::Idempotent);
    let whole = switched.play().unwrap();
    let mut player = RunPlayer::new(&switched).unwrap();
    let mut slices = 0;
    while !player.advance(2) {
        slices += 1;
    }
    assert!(slices > 2, "{slices}");
    let sliced = player.finish();
    assert_eq!(sliced.outcomes, whole.outcomes);
    assert_eq!(sliced.simulation.steps(), whole.simulation.steps());
}

#[test]
fn the_part_of_a_run_until_a_step_plays_its_first_steps() {
    // Two faults, made in the naive twin, played in the idempotent one: the part until a
    // step between them keeps the first, where the idempotent run took it.
    let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let naive = scenario.with_mode(PatternMode::Naive);
    let (_, taken) = play_picking(naive.clone(), 0, 60, |simulation, taken| {
        let due = taken.len() < 2 && simulation.steps().len() > 8 + 6 * taken.len();
        let duplicate = |action: &Action| matches!(action, Action::DuplicateMessage { .. });
        simulation.world().enabled_actions().into_iter().filter(|_| due).find(duplicate)
    });
    assert_eq!(taken.len(), 2, "{taken:?}");
    let (run, _) = Run::anchor(naive, 0, &taken).unwrap();
    let switched = with_mode(&run, PatternMode::Idempotent);
    let played = switched.play().unwrap();
    let ChoiceOutcome::Taken { step: first } = played.outcomes[0] else { panic!() };
    let ChoiceOutcome::Taken { step: second } = played.outcomes[1] else { panic!() };
    let part = switched.until(&played.outcomes, second - 1);
    assert_eq!(
        part.choices,
        vec![UserChoice { step: first, action: run.choices[0].action.clone() }]
    );
    let mut replayed = part.play().unwrap().simulation;
    while replayed.steps().len() < second - 1 {
        replayed.step().unwrap();
    }
    assert_eq!(replayed.steps().to_vec(), played.simulation.steps().to_vec()[..second - 1]);
}

/// Plays `scenario` with `seed` for `steps_max` steps (fewer if it stops): at each step the
/// action `pick` chooses, given the simulation and the actions it chose so far, is taken by
/// hand, as a learner takes a fault on the diagram; at every other step the scheduler's.
/// Returns the simulation and the actions taken by hand, each with its step.
fn play_picking(
    scenario: Scenario,
    seed: u64,
    steps_max: usize,
    pick: impl Fn(&Simulation, &[(usize, Action)]) -> Option<Action>,
) -> (Simulation, Vec<(usize, Action)>) {
    let mut simulation = Simulation::new(scenario, seed).unwrap();
    let mut taken = Vec::new();
    while simulation.steps().len() < steps_max {
        let moved = match pick(&simulation, &taken) {
            Some(action) => {
                let step = simulation.steps().len() + 1;
                let moved = simulation.step_with(action.clone()).is_ok();
                if moved {
                    taken.push((step, action));
                }
                moved
            }
            None => simulation.step().is_some(),
        };
        if !moved {
            break;
        }
    }
    (simulation, taken)
}

/// A lesson's run with a fault every fourth step where one is enabled, as a trace of 60 steps
/// (fewer if it stops).
fn faulty_trace(lesson: &str, mode: PatternMode) -> Trace {
    let scenario = catalogue_scenario(lesson).unwrap().with_mode(mode);
    let (simulation, _) = play_picking(scenario, 3, 60, |simulation, _| {
        let due = simulation.steps().len() % 4 == 3;
        simulation.world().enabled_fault_actions().into_iter().next().filter(|_| due)
    });
    simulation.trace()
}

#[test]
fn a_trace_opened_in_slices_is_the_run_of_the_trace_played_to_its_last_step() {
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let trace = faulty_trace(entry.id, mode);
            // The one-shot path: the run of the trace, played, stepped on to its last step.
            let run = Run::of_trace(&trace).unwrap();
            let whole = run.play().unwrap();
            let mut simulation = whole.simulation.clone();
            while simulation.steps().len() < trace.steps.len() && simulation.step().is_some() {}

            let mut opener = RunOpener::of_trace(&trace).unwrap();
            let mut slices = 0;
            while !opener.advance(3).unwrap() {
                slices += 1;
                let (steps, total) = opener.progress();
                assert!(steps <= total, "{} {mode:?}: {steps} of {total}", entry.id);
            }
            assert!(opener.is_open());
            assert!(slices >= trace.steps.len() / 3, "{} {mode:?}: {slices} slices", entry.id);
            let (opened, played) = opener.finish().unwrap();
            assert_eq!(opened, run, "{} {mode:?}", entry.id);
            assert_eq!(played.outcomes, whole.outcomes, "{} {mode:?}", entry.id);
            assert_eq!(played.simulation.steps(), simulation.steps(), "{} {mode:?}", entry.id);
            assert_eq!(played.simulation.trace(), simulation.trace(), "{} {mode:?}", entry.id);
        }
    }
}

#[test]
fn a_run_opened_in_slices_is_the_run_played_then_stepped_on() {
    let duplicate = |action: &Action| matches!(action, Action::DuplicateMessage { .. });
    let (naive, _) = learner_run("f03-crash-before-commit", PatternMode::Naive, 9, duplicate);
    let switched = with_mode(&naive, PatternMode::Idempotent);
    for target in [0, 5, 30, 10_000] {
        let whole = switched.play().unwrap();
        let mut simulation = whole.simulation.clone();
        while simulation.steps().len() < target && simulation.step().is_some() {}
        let mut opener = RunOpener::new(switched.clone(), target).unwrap();
        while !opener.advance(2).unwrap() {}
        let (run, played) = opener.finish().unwrap();
        assert_eq!(run, switched);
        assert_eq!(played.outcomes, whole.outcomes, "to {target}");
        assert_eq!(played.simulation.steps(), simulation.steps(), "to {target}");
        assert_eq!(played.simulation.stop_reason(), simulation.stop_reason(), "to {target}");
        // Finishing at once opens the rest.
        let (_, at_once) = RunOpener::new(switched.clone(), target).unwrap().finish().unwrap();
        assert_eq!(at_once.simulation.steps(), simulation.steps(), "to {target}");
    }
}

#[test]
fn an_anchorer_in_slices_refuses_what_the_one_shot_anchor_refuses() {
    let trace = faulty_trace("f01-duplicate-delivery", PatternMode::Naive);
    let mut taken: Vec<(usize, Action)> =
        user_steps(&Simulation::new(trace.scenario.clone(), 3).unwrap());
    assert!(taken.is_empty());
    taken.push((10_000, Action::RelayStep));
    let one_shot = Run::anchor(trace.scenario.clone(), trace.seed, &taken).unwrap_err();
    let mut anchorer = RunAnchorer::new(trace.scenario.clone(), trace.seed, taken).unwrap();
    let sliced = loop {
        match anchorer.advance(4) {
            Ok(false) => {}
            Ok(true) => panic!("a choice after the run's end is anchored"),
            Err(error) => break error,
        }
    };
    assert_eq!(sliced, one_shot);
    assert!(matches!(sliced, RunError::ChoiceNotReached { step: 10_000, .. }), "{sliced:?}");
}

#[test]
fn a_seed_change_carries_every_choice_whose_target_exists_and_names_the_rest() {
    let duplicate = |action: &Action| matches!(action, Action::DuplicateMessage { .. });
    let (naive, _) = learner_run("f03-crash-before-commit", PatternMode::Naive, 9, duplicate);
    for seed in [1, 7, 42] {
        let carried = Run::carry(naive.scenario.clone(), seed, naive.choices.clone()).unwrap();
        assert!(carried.dropped.is_empty(), "seed {seed}: {:?}", carried.dropped);
        assert_eq!(carried.run.seed, seed);
        assert_eq!(carried.run.choices.len(), 1);
        assert_eq!(carried.run.choices[0].action, naive.choices[0].action, "seed {seed}");
        let [ChoiceOutcome::Taken { step }] = carried.played.outcomes[..] else {
            panic!("seed {seed}: {:?}", carried.played.outcomes);
        };
        assert_eq!(carried.run.choices[0].step, step);
        // The carried run replays to the same steps: each choice at the step it was taken.
        let again = carried.run.play().unwrap();
        assert_eq!(again.outcomes, carried.played.outcomes);
        let shown = again.simulation.steps().len();
        assert_eq!(
            again.simulation.steps().to_vec(),
            carried.played.simulation.steps().to_vec()[..shown]
        );
    }
}

#[test]
fn a_carried_choice_whose_target_never_exists_is_dropped_and_the_others_kept() {
    let scenario = catalogue_scenario("p4-inbox-consumer").unwrap();
    let missing =
        UserChoice { step: 2, action: AnchoredAction::DoubleSubmit { request: RequestIndex(5) } };
    let double_submit =
        UserChoice { step: 3, action: AnchoredAction::DoubleSubmit { request: RequestIndex(0) } };
    let carried = Run::carry(scenario, 3, vec![missing.clone(), double_submit.clone()]).unwrap();
    assert_eq!(carried.dropped, vec![missing]);
    assert_eq!(carried.run.choices.len(), 1);
    assert_eq!(carried.run.choices[0].action, double_submit.action);
    assert_eq!(
        carried.played.outcomes,
        vec![ChoiceOutcome::Taken { step: carried.run.choices[0].step }]
    );
    assert_eq!(user_steps(&carried.played.simulation).len(), 1);
}

/// The rule of [`Run`], stated plainly and slowly: each choice is looked for over the whole of
/// the scheduler's run from where the choice before it was placed, taken at its step if it
/// may be taken there, else at the latest step before, else at the first after, else missing.
fn placed_by_the_rule(run: &Run) -> (Vec<ChoiceOutcome>, Simulation) {
    let mut simulation = Simulation::new(run.scenario.clone(), run.seed).unwrap();
    let mut outcomes = Vec::new();
    for choice in &run.choices {
        let due = choice.step.max(simulation.steps().len() + 1);
        let (mut latest_before, mut first_from_due) = (None, None);
        let mut scan = simulation.clone();
        loop {
            let taken = scan.steps().len();
            let may = scan.stop_reason().is_none()
                && scan.limit_reached().is_none()
                && choice.action.enabled_in(scan.world()).is_some();
            if may && taken + 1 < due {
                latest_before = Some(taken);
            } else if may && first_from_due.is_none() {
                first_from_due = Some(taken);
            }
            if scan.step().is_none() {
                break;
            }
        }
        let at = if first_from_due == Some(due - 1) {
            first_from_due
        } else {
            latest_before.or(first_from_due)
        };
        let Some(at) = at else {
            outcomes.push(ChoiceOutcome::TargetMissing);
            continue;
        };
        while simulation.steps().len() < at {
            simulation.step().unwrap();
        }
        simulation.step_with(choice.action.enabled_in(simulation.world()).unwrap()).unwrap();
        outcomes.push(ChoiceOutcome::Taken { step: at + 1 });
    }
    (outcomes, simulation)
}

/// A run of `lesson` in the naive twin with a fault every `every` steps where one is enabled,
/// its choices interleaved with `missing` choices whose target never exists (requests the
/// scenario never sends), one after each real choice at `stride`.
fn run_with_missing_choices(lesson: &str, seed: u64, every: usize, missing: &[usize]) -> Run {
    let scenario = catalogue_scenario(lesson).unwrap().with_mode(PatternMode::Naive);
    let (_, taken) = play_picking(scenario.clone(), seed, 80, |simulation, _| {
        let due = simulation.steps().len() % every == every - 1;
        simulation.world().enabled_fault_actions().into_iter().next().filter(|_| due)
    });
    let (run, _) = Run::anchor(scenario, seed, &taken).unwrap();
    // Each real choice `i` keeps its step; missing ones are put at the steps between them.
    let mut choices: Vec<UserChoice> = Vec::new();
    let mut real = run.choices.into_iter().peekable();
    let mut next_step = 1;
    for (index, count) in missing.iter().enumerate() {
        for offset in 0..*count {
            let request = RequestIndex(90 + index * 8 + offset);
            choices.push(UserChoice {
                step: next_step,
                action: AnchoredAction::DoubleSubmit { request },
            });
            next_step += 1;
        }
        if let Some(choice) = real.next_if(|choice| choice.step >= next_step) {
            next_step = choice.step + 1;
            choices.push(choice);
        }
    }
    choices.extend(real.filter(|choice| choice.step >= next_step));
    Run { scenario: run.scenario, seed, choices }
}

#[test]
fn choices_are_placed_by_the_rule_however_many_are_missing() {
    let patterns: [&[usize]; 4] = [&[1, 0, 2], &[3, 3, 3, 0, 1], &[0, 0, 5], &[40]];
    for entry in CATALOGUE {
        for (seed, missing) in patterns.iter().enumerate() {
            let naive = run_with_missing_choices(entry.id, seed as u64, 4 + seed, missing);
            for mode in [PatternMode::Naive, PatternMode::Idempotent] {
                let run = with_mode(&naive, mode);
                let (outcomes, simulation) = placed_by_the_rule(&run);
                let played = run.play().unwrap();
                let at = format!("{} seed {seed} {mode:?}", entry.id);
                assert_eq!(played.outcomes, outcomes, "{at}");
                assert_eq!(played.simulation.steps(), simulation.steps(), "{at}");
                assert!(outcomes.contains(&ChoiceOutcome::TargetMissing), "{at}");
            }
        }
    }
}

#[test]
fn a_run_of_missing_choices_costs_one_scan_not_one_each() {
    // Three choices whose target never exists, then one that is there: the first's scan to
    // the run's end places all four. Looked for one by one, it would take four scans.
    let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let length = Simulation::run(scenario.clone(), 0).unwrap().steps.len();
    let missing = |step, request| UserChoice {
        step,
        action: AnchoredAction::DoubleSubmit { request: RequestIndex(request) },
    };
    let present =
        UserChoice { step: 5, action: AnchoredAction::DoubleSubmit { request: RequestIndex(0) } };
    let run = Run {
        scenario,
        seed: 0,
        choices: vec![missing(2, 50), missing(3, 51), missing(4, 52), present],
    };
    let mut player = RunPlayer::new(&run).unwrap();
    let mut moves = 0;
    while !player.advance(1) {
        moves += 1;
    }
    let played = player.finish();
    assert_eq!(played.outcomes, placed_by_the_rule(&run).0);
    assert!(matches!(played.outcomes[3], ChoiceOutcome::Taken { .. }), "{:?}", played.outcomes);
    assert!(moves <= length + 2, "{moves} moves for a run of {length} steps");
}
