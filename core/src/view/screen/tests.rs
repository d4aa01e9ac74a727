//! The screen model: the window, the caption, the invariants and the moments of a screen, in
//! both languages, over real runs of the catalogue.

use super::*;
use crate::sim::{PatternMode, Simulation, catalogue_scenario};

/// The screen of `simulation` after its run, in `language`.
fn screen_of(simulation: &IndexedRun, revealed: usize, language: Language) -> Screen {
    Screen::at(&ScreenInput {
        run: simulation,
        cursor: simulation.steps().len(),
        world: simulation.world(),
        stop: simulation.stop_reason(),
        revealed,
        waits: false,
        language,
    })
}

fn naive_duplicate_delivery() -> IndexedRun {
    let scenario =
        catalogue_scenario("f01-duplicate-delivery").unwrap().with_mode(PatternMode::Naive);
    let mut simulation = IndexedRun::new(Simulation::new(scenario, 0).unwrap());
    simulation.run_to_end();
    simulation
}

#[test]
fn an_empty_run_says_how_to_start_or_that_it_waits_for_the_prediction() {
    let simulation = IndexedRun::new(
        Simulation::new(catalogue_scenario("f01-duplicate-delivery").unwrap(), 0).unwrap(),
    );
    let mut input = ScreenInput {
        run: &simulation,
        cursor: 0,
        world: simulation.world(),
        stop: None,
        revealed: 0,
        waits: false,
        language: Language::En,
    };
    let screen = Screen::at(&input);
    let words = Language::En.words();
    assert_eq!(screen.caption, words.labels.ui_start);
    assert_eq!(screen.empty.as_deref(), Some(words.labels.ui_diagram_empty));
    assert!(screen.steps.is_empty() && screen.hidden == 0 && screen.changes.is_empty());
    assert_eq!(screen.lanes, lanes(simulation.scenario()));
    assert!(screen.invariants.iter().all(InvariantLine::holds));
    assert!(!screen.pending.is_empty(), "the first requests wait to be sent");
    input.waits = true;
    let screen = Screen::at(&input);
    assert_eq!(screen.caption, words.labels.ui_run_waits_for_prediction);
    assert_eq!(screen.empty.as_deref(), Some(words.labels.ui_run_waits_for_prediction));
}

#[test]
fn the_caption_says_the_step_shown_and_why_the_run_ended_in_the_screens_language() {
    let simulation = naive_duplicate_delivery();
    let last = simulation.steps().last().unwrap();
    let en = screen_of(&simulation, 0, Language::En);
    let expected = format!(
        "Step {} (tick {}): {}{}  ·  run ended: nothing left to do",
        last.step,
        last.tick,
        action_text(&last.action, Language::En),
        last.statement.as_deref().map(|statement| format!(" — {statement}")).unwrap_or_default()
    );
    assert_eq!(en.caption, expected);
    let ru = screen_of(&simulation, 0, Language::Ru);
    let words = Language::Ru.words();
    assert!(ru.caption.starts_with(&format!("{} {} ", words.labels.ui_step_caption, last.step)));
    assert!(ru.caption.ends_with(words.report.stop_quiescent), "{}", ru.caption);
    assert_ne!(words.report.stop_quiescent, Language::En.words().report.stop_quiescent);
    // Before the end, the caption says no reason.
    let world = simulation.world_after(3).unwrap();
    let mid = Screen::at(&ScreenInput {
        run: &simulation,
        cursor: 3,
        world: &world,
        stop: None,
        revealed: 0,
        waits: false,
        language: Language::En,
    });
    assert!(mid.caption.starts_with("Step 3 (tick "), "{}", mid.caption);
    assert!(!mid.caption.contains("run ended"), "{}", mid.caption);
    assert_eq!(mid.changes, simulation.steps()[2].row_changes);
}

#[test]
fn the_window_ends_at_the_cursor_and_grows_by_what_the_learner_revealed() {
    let scenario = crate::sim::bounds::longest_run_scenario().unwrap();
    let mut simulation = IndexedRun::new(Simulation::without_snapshots(scenario, 0).unwrap());
    simulation.run_to(500);
    let shown = simulation.steps().len();
    assert_eq!(shown, 500);
    let screen = screen_of(&simulation, 0, Language::En);
    assert_eq!(screen.steps.len(), WINDOW_STEPS);
    assert_eq!(screen.hidden, shown - WINDOW_STEPS);
    assert_eq!(screen.steps.first().unwrap().step, shown - WINDOW_STEPS + 1);
    assert_eq!(screen.steps.iter().filter(|step| step.current).count(), 1);
    assert!(screen.steps.last().unwrap().current);
    let revealed = screen_of(&simulation, WINDOW_STEPS, Language::En);
    assert_eq!(revealed.steps.len(), 2 * WINDOW_STEPS);
    assert_eq!(revealed.hidden, shown - 2 * WINDOW_STEPS);
    // Revealing more than there is draws the whole run.
    let all = screen_of(&simulation, usize::MAX, Language::En);
    assert_eq!((all.hidden, all.steps.len()), (0, shown));
    // Each drawn step carries its own moments, and together they are the run's moments of
    // the drawn steps.
    let expected: Vec<Moment> =
        moments(simulation.steps()).into_iter().filter(|moment| moment.step > all.hidden).collect();
    let carried: Vec<Moment> = all.steps.iter().flat_map(|step| step.moments.clone()).collect();
    assert_eq!(carried, expected);
    assert!(all.steps.iter().all(|step| step.moments.iter().all(|m| m.step == step.step)));
}

#[test]
fn the_invariants_name_where_each_broke_with_sentences_in_the_screens_language() {
    let simulation = naive_duplicate_delivery();
    let violations = simulation.world().violations();
    assert!(!violations.is_empty(), "the naive consumer breaks an invariant");
    let breaks = breaking_steps(simulation.steps());
    for language in Language::ALL {
        let screen = screen_of(&simulation, 0, language);
        assert_eq!(screen.invariants.len(), InvariantId::ALL.len());
        for line in &screen.invariants {
            let own: Vec<String> = violations
                .iter()
                .filter(|violation| violation.invariant == line.id)
                .map(|violation| violation.sentence_in(language))
                .collect();
            assert_eq!(line.sentences, own, "{}", line.id);
            assert_eq!(line.title, line.id.title_in(language));
            assert_eq!(line.broke_at, breaks.get(&line.id).copied(), "{}", line.id);
            assert!(line.holds() || line.broke_at.is_some(), "{}", line.id);
        }
    }
    let ru = screen_of(&simulation, 0, Language::Ru);
    let broken = ru.invariants.iter().find(|line| !line.holds()).unwrap();
    assert!(
        broken
            .sentences
            .iter()
            .all(|sentence| sentence.chars().any(|c| ('\u{430}'..='\u{44f}').contains(&c))),
        "{:?}",
        broken.sentences
    );
}

#[test]
fn every_stop_reason_is_worded_in_both_languages() {
    let reasons = [
        StopReason::Running,
        StopReason::Quiescent,
        StopReason::Stuck { pending: "2 requests".to_owned() },
        StopReason::StepLimit { steps_max: 20_000 },
        StopReason::TraceFull { trace_steps_max: 9 },
        StopReason::StepFailed { step: 4, error: "boom".to_owned() },
    ];
    for language in Language::ALL {
        for reason in &reasons {
            let sentence = stop_sentence(reason, language);
            assert!(!sentence.is_empty() && !sentence.contains('{'), "{sentence}");
        }
    }
    assert_eq!(
        stop_sentence(&StopReason::StepLimit { steps_max: 20_000 }, Language::En),
        "step limit 20000 reached"
    );
}
