//! The page's reducer on data: each test dispatches what a learner does and reads the state
//! (the view, the run shown, the panels, where the focus goes), natively, with no browser.

use std::rc::Rc;

use idempotency_lab::course::CourseStep;
use idempotency_lab::sim::{
    Action as SimAction, AnchoredAction, PatternMode, Patterns, RequestIndex, UserChoice,
};
use idempotency_lab::view::Language;
use yew::Reducible;

use super::{FocusTarget, PageAction, PageState};
use crate::check_panel::{CheckMsg, CheckTarget};
use crate::course::state::{CourseAction, PageView};
use crate::course::{self as course, PanelEvent};
use crate::notices::Problem;
use crate::presenter::TypeScaleAction;
use crate::state::Action;

/// The page after `actions`, from its default state (the free lab's first scenario).
fn after(actions: impl IntoIterator<Item = PageAction>) -> Rc<PageState> {
    actions.into_iter().fold(Rc::new(PageState::default()), |state, action| state.reduce(action))
}

/// Where the last action sent the focus.
fn focus(state: &PageState) -> Option<FocusTarget> {
    state.focus.map(|focus| focus.target)
}

fn open_first_lesson() -> PageAction {
    PageAction::OpenLesson { lesson: 0, step: 0, resume: false }
}

#[test]
fn start_opens_the_lesson_runs_its_scenario_and_focuses_its_card() {
    let state = after([open_first_lesson()]);
    let lesson = &course::course().unwrap().lessons[0];
    assert_eq!(state.course.view, PageView::Lesson { lesson: 0, step: 0 });
    assert_eq!(state.lab.base, lesson.scenario().unwrap());
    assert_eq!(state.lab.cursor, 0);
    assert_eq!(focus(&state), Some(FocusTarget::LessonCard));
    assert!(state.course.progress.of(lesson).visited.contains(&0));
}

#[test]
fn next_passes_the_step_moves_on_and_focuses_the_new_card() {
    let state = after([open_first_lesson(), PageAction::Panel(PanelEvent::Next)]);
    let lesson = &course::course().unwrap().lessons[0];
    assert_eq!(state.course.view, PageView::Lesson { lesson: 0, step: 1 });
    assert!(state.course.progress.of(lesson).passed.contains(&0));
    assert_eq!(focus(&state), Some(FocusTarget::LessonCard));
    let generation = state.focus.unwrap().generation;
    let back = state.reduce(PageAction::Panel(PanelEvent::Back));
    assert_eq!(back.course.view, PageView::Lesson { lesson: 0, step: 0 });
    assert_eq!(back.focus.unwrap().generation, generation + 1, "the same target, asked again");
}

#[test]
fn go_there_shows_the_point_and_focuses_next() {
    let lesson = &course::course().unwrap().lessons[0];
    let step = lesson.steps.iter().skip(1).position(|step| {
        matches!(step, CourseStep::Narration(narration) if narration.at != idempotency_lab::course::Point::Start)
    });
    let step = step.expect("lesson 1 has a narration at a point") + 1;
    let open = PageAction::OpenLesson { lesson: 0, step, resume: false };
    let CourseStep::Narration(narration) = &lesson.steps[step] else { unreachable!() };
    let state = after([open, PageAction::Panel(PanelEvent::GoThere(narration.at))]);
    let at = narration.at.resolve(&state.lab.sim).expect("the run reaches the point");
    assert_eq!(state.lab.cursor, at);
    assert_eq!(focus(&state), Some(FocusTarget::LessonNext));
}

#[test]
fn a_right_answer_passes_the_step_and_focuses_next() {
    let state = after([
        open_first_lesson(),
        PageAction::Panel(PanelEvent::Next),
        PageAction::Panel(PanelEvent::Answered),
    ]);
    let lesson = &course::course().unwrap().lessons[0];
    assert!(state.course.progress.of(lesson).passed.contains(&1));
    assert_eq!(state.course.view, PageView::Lesson { lesson: 0, step: 1 });
    assert_eq!(focus(&state), Some(FocusTarget::LessonNext));
}

#[test]
fn to_the_end_and_the_last_step_focus_the_caption_and_a_step_between_does_not() {
    let one_step = after([PageAction::Lab(Action::StepForward)]);
    assert_eq!(one_step.lab.cursor, 1);
    assert_eq!(focus(&one_step), None, "Step keeps its focus while it can step again");

    let ended = after([PageAction::Lab(Action::RunToEnd)]);
    assert!(!ended.lab.can_step_forward());
    assert_eq!(focus(&ended), Some(FocusTarget::Caption));

    let last = ended.lab.cursor;
    let stepped = after([
        PageAction::Lab(Action::RunToEnd),
        PageAction::Lab(Action::SeekTo(last - 1)),
        PageAction::Lab(Action::StepForward),
    ]);
    assert_eq!(stepped.lab.cursor, last);
    assert_eq!(focus(&stepped), Some(FocusTarget::Caption), "Step is disabled at the end");
}

#[test]
fn back_to_the_list_shows_the_course_and_focuses_it() {
    let state = after([open_first_lesson(), PageAction::Panel(PanelEvent::ToList)]);
    assert_eq!(state.course.view, PageView::Course);
    assert_eq!(focus(&state), Some(FocusTarget::CourseList));
    let lab = state.reduce(PageAction::Course(CourseAction::ShowLab));
    assert_eq!(lab.course.view, PageView::Lab);
    assert!(lab.course.progress.free_lab);
    assert_eq!(focus(&lab), Some(FocusTarget::Caption), "the free lab's button is gone");
}

#[test]
fn a_lesson_step_that_names_a_twin_switches_the_patterns() {
    let lesson = &course::course().unwrap().lessons[0];
    let idempotent =
        lesson.steps.iter().position(|step| step.run() == Some(PatternMode::Idempotent));
    let step = idempotent.expect("lesson 1 has an idempotent step");
    let actions = std::iter::once(open_first_lesson())
        .chain((0..step).map(|_| PageAction::Panel(PanelEvent::Next)));
    let state = after(actions);
    assert_eq!(state.course.view, PageView::Lesson { lesson: 0, step });
    assert_eq!(state.lab.patterns, lesson.patterns_at(step).unwrap());
    assert_eq!(state.lab.patterns.p1_stock, PatternMode::Idempotent);
}

/// The position of the lesson with this id.
fn lesson_position(id: &str) -> usize {
    course::course().unwrap().position(id).unwrap()
}

#[test]
fn each_step_opens_with_the_patterns_its_course_file_sets() {
    // Retention's last task, "now from all naive", opens all naive though the steps before
    // it are idempotent; by Next from the step before it too.
    let index = lesson_position("retention");
    let lesson = &course::course().unwrap().lessons[index];
    let last = lesson.steps.len() - 1;
    let opened = after([PageAction::OpenLesson { lesson: index, step: last, resume: false }]);
    assert_eq!(opened.lab.patterns, Patterns::all(PatternMode::Naive));
    let before = PageAction::OpenLesson { lesson: index, step: last - 1, resume: false };
    let state = after([before, PageAction::Panel(PanelEvent::Next)]);
    assert_eq!(state.lab.patterns, Patterns::all(PatternMode::Naive));
}

#[test]
fn all_idempotent_switches_every_pattern_whatever_the_lessons_focus() {
    // mark-paid's focus is P2 and it starts with P3 naive: "All idempotent" turns P3 on too.
    let index = lesson_position("mark-paid");
    let all = PageAction::Lab(Action::SetPatterns(Patterns::all(PatternMode::Idempotent)));
    let state = after([PageAction::OpenLesson { lesson: index, step: 0, resume: false }, all]);
    assert_eq!(state.lab.patterns, Patterns::all(PatternMode::Idempotent));
    let none = PageAction::Lab(Action::SetPatterns(Patterns::all(PatternMode::Naive)));
    assert_eq!(state.reduce(none).lab.patterns, Patterns::all(PatternMode::Naive));
}

#[test]
fn a_switch_at_the_runs_end_knows_whether_the_other_twin_ends_there_too() {
    // The inbox lesson with P4 idempotent, run to its end (34 steps), then P4 switched back
    // to naive there: the naive twin goes on past 34, and the page shows that it does (one
    // more step taken), never "34 / 34" of a run that has not ended.
    let index = lesson_position("inbox");
    let open = PageAction::OpenLesson { lesson: index, step: 0, resume: false };
    let p4 = |mode| PageAction::Lab(Action::SetPattern(idempotency_lab::sim::Pattern::P4, mode));
    let state = after([open, p4(PatternMode::Idempotent), PageAction::Lab(Action::RunToEnd)]);
    let end = state.lab.cursor;
    assert!(state.lab.sim.stop_reason().is_some());
    assert_eq!(end, state.lab.sim.steps().len());
    let switched = state.reduce(p4(PatternMode::Naive));
    let sim = &switched.lab.sim;
    assert_eq!(switched.lab.cursor, end);
    assert!(
        sim.stop_reason().is_some() || sim.steps().len() > end,
        "at {end} of {} steps, the run neither ended nor shows more",
        sim.steps().len()
    );
    assert!(sim.steps().len() > end, "the naive twin is longer: {}", sim.steps().len());
}

#[test]
fn the_check_panel_opens_fresh_keeps_its_picks_ignores_stale_news_and_closes() {
    let open = after([PageAction::ToggleCheck]);
    assert_eq!(open.check.as_ref().map(|check| check.generation), Some(0));
    let picked = open.reduce(PageAction::Check(CheckMsg::Target(CheckTarget::Reference)));
    assert_eq!(picked.check.as_ref().unwrap().target, CheckTarget::Reference);
    let stale = CheckMsg::Progress { generation: 7, job: crate::check_panel::Job::Idle };
    let same = picked.clone().reduce(PageAction::Check(stale));
    assert_eq!(same.check, picked.check);
    let closed = same.reduce(PageAction::ToggleCheck);
    assert_eq!(closed.check, None);
    let news = closed.reduce(PageAction::Check(CheckMsg::Limit(10)));
    assert_eq!(news.check, None, "the news of a closed panel opens nothing");
}

#[test]
fn a_jump_goes_to_the_step_and_counts_so_the_page_brings_it_into_view() {
    let state = after([PageAction::Lab(Action::RunToEnd), PageAction::JumpTo(2)]);
    assert_eq!(state.lab.cursor, 2);
    assert_eq!(state.jumps, 1);
    assert_eq!(state.reduce(PageAction::JumpTo(2)).jumps, 2);
}

#[test]
fn reveal_holds_only_at_its_cursor() {
    let state = after([PageAction::Lab(Action::RunToEnd), PageAction::Reveal]);
    assert_eq!(state.extra_revealed(), idempotency_lab::view::WINDOW_STEPS);
    let moved = state.reduce(PageAction::Lab(Action::StepBack));
    assert_eq!(moved.extra_revealed(), 0);
}

#[test]
fn settings_and_what_the_page_is_told_are_kept() {
    let state = after([
        PageAction::SetLanguage(Language::Ru),
        PageAction::Scale(TypeScaleAction::Larger),
        PageAction::SetNarrow(true),
        PageAction::SetFullscreen(true),
    ]);
    assert_eq!(state.language, Language::Ru);
    assert!(state.type_scale.percent() > 100);
    assert!(state.narrow && state.fullscreen);
}

#[test]
fn a_bad_course_link_shows_the_course_with_its_banner() {
    let state = after([PageAction::RefuseCourseLink("no such lesson".to_owned())]);
    assert_eq!(state.course.view, PageView::Course);
    assert_eq!(state.lab.error, Some(Problem::Said("no such lesson".to_owned())));
    assert!(state.lab.keep_fragment);
}

#[test]
fn a_trainers_link_opens_the_lesson_at_its_step_visited_not_passed() {
    let state = after([PageAction::OpenLessonByLink { lesson: 0, step: 2, presenter: false }]);
    let lesson = &course::course().unwrap().lessons[0];
    assert_eq!(state.course.view, PageView::Lesson { lesson: 0, step: 2 });
    let progress = state.course.progress.of(lesson);
    assert_eq!(progress.visited.len(), 3);
    assert!(progress.passed.is_empty());
    assert!(!state.lab.presenter);
    let presenting = after([PageAction::OpenLessonByLink { lesson: 0, step: 2, presenter: true }]);
    assert!(presenting.lab.presenter, "presenter=1 opens the presenter view");
    let plain =
        presenting.reduce(PageAction::OpenLessonByLink { lesson: 0, step: 1, presenter: false });
    assert!(!plain.lab.presenter, "a link without presenter=1 shows the lesson without it");
}

/// The page of a learner who finished every lesson (each step passed, each lesson done).
fn after_the_whole_course() -> Rc<PageState> {
    let mut state = PageState::default();
    let mut progress = state.course.progress.clone();
    for lesson in &course::course().unwrap().lessons {
        for step in 0..lesson.steps.len() {
            progress.pass(lesson, step);
        }
        progress.finish(lesson);
    }
    state.course =
        Rc::new(crate::course::state::CourseState { progress, ..(*state.course).clone() });
    Rc::new(state)
}

/// #34's repro: after a rehearsal (every step passed), a link to a narration opened the
/// narration over an empty run at step 0 with no way to its point. Now every narration's link
/// opens the run at its point, whatever the progress; only a point that the learner's own
/// fault reaches (none on a fresh run) leaves the run at its start, and then the card offers
/// "Go there".
#[test]
fn a_link_opens_the_run_at_the_point_its_step_needs_whatever_the_progress() {
    let course = course::course().unwrap();
    let mut opened_at_a_point = 0;
    for (index, lesson) in course.lessons.iter().enumerate() {
        for (step, course_step) in lesson.steps.iter().enumerate() {
            let CourseStep::Narration(narration) = course_step else { continue };
            let link = PageAction::OpenLessonByLink { lesson: index, step, presenter: true };
            let state = after_the_whole_course().reduce(link);
            assert_eq!(state.course.view, PageView::Lesson { lesson: index, step });
            assert_eq!(state.lab.error, None, "{} step {step}: no banner", lesson.id);
            assert!(state.jumps > 0, "{} step {step}: the point is brought into view", lesson.id);
            let status = course::step_status(lesson, step, &state.lab);
            if status == (course::StepStatus::Narration { reached: true }) {
                let at = narration.at.resolve(&state.lab.sim).unwrap();
                assert_eq!(state.lab.cursor, at, "{} step {step}: shown at its point", lesson.id);
                opened_at_a_point += 1;
            } else {
                let mut fresh = idempotency_lab::sim::Simulation::new(
                    lesson.scenario().unwrap().with_mode(lesson.mode_at(step)),
                    0,
                )
                .unwrap();
                fresh.run_to_end();
                assert_eq!(narration.at.resolve(&fresh), None, "{} step {step}", lesson.id);
            }
        }
    }
    assert!(opened_at_a_point > 0, "no narration's link opened at its point");
}

/// The free lab's first scenario, stepped until the message can be duplicated, duplicated.
fn with_a_duplicate() -> Rc<PageState> {
    let mut state = Rc::new(PageState::default());
    loop {
        let enabled = state.lab.world.enabled_actions();
        let duplicate =
            enabled.into_iter().find(|action| matches!(action, SimAction::DuplicateMessage { .. }));
        if let Some(action) = duplicate {
            return state.reduce(PageAction::Lab(Action::Inject(action)));
        }
        assert!(state.lab.cursor < 60, "no duplicate within 60 steps");
        state = state.reduce(PageAction::Lab(Action::StepForward));
    }
}

#[test]
fn a_seed_change_and_reset_keep_the_learners_fault() {
    let state = with_a_duplicate();
    assert_eq!(state.lab.choices.len(), 1);
    let seeded = state.reduce(PageAction::Lab(Action::SetSeed(5)));
    assert_eq!(seeded.lab.seed, 5);
    assert_eq!(seeded.lab.cursor, 0);
    assert_eq!(seeded.lab.choices.len(), 1, "the fault is carried to seed 5");
    assert!(seeded.lab.dropped.is_empty());
    let reset = seeded.clone().reduce(PageAction::Lab(Action::Reset));
    assert_eq!(reset.lab.cursor, 0);
    assert_eq!(reset.lab.choices.len(), 1, "Reset keeps the fault");
    assert!(reset.lab.choices == seeded.lab.choices);
}

#[test]
fn a_choice_that_hits_nothing_after_a_seed_change_is_dropped_and_named() {
    let state = PageState::default();
    let mut lab = (*state.lab).clone();
    // The first scenario has one request: request 5 never sends.
    let missing = AnchoredAction::DoubleSubmit { request: RequestIndex(5) };
    lab.choices = vec![UserChoice { step: 2, action: missing }];
    let state = Rc::new(PageState { lab: Rc::new(lab), ..state });
    let seeded = state.reduce(PageAction::Lab(Action::SetSeed(1)));
    assert_eq!(seeded.lab.dropped, vec![2]);
    assert!(seeded.lab.choices.is_empty());
    let dismissed = seeded.reduce(PageAction::Lab(Action::DismissError));
    assert!(dismissed.lab.dropped.is_empty());
}

#[test]
fn play_steps_on_each_tick_and_stops_at_the_end() {
    let mut state = after([PageAction::Lab(Action::TogglePlay)]);
    assert!(state.lab.playing);
    for tick in 1..=500 {
        state = state.reduce(PageAction::Lab(Action::PlayTick));
        if !state.lab.playing {
            assert!(!state.lab.can_step_forward(), "play stopped at tick {tick} before the end");
            let idle = state.clone().reduce(PageAction::Lab(Action::PlayTick));
            assert_eq!(idle.lab.cursor, state.lab.cursor, "a tick while paused does nothing");
            return;
        }
        assert_eq!(state.lab.cursor, tick);
    }
    panic!("play never reached the end");
}

#[test]
fn a_prediction_is_asked_before_the_run_shows_its_answer() {
    // Lesson 1: the fix task's run, run to its end, shows the stock table at the end; Next to
    // the prediction "how many apples at the end?" shows the run from its start, its steps
    // kept.
    let lesson = &course::course().unwrap().lessons[0];
    let prediction = lesson
        .steps
        .iter()
        .rposition(|step| matches!(step, CourseStep::Prediction(_)))
        .expect("lesson 1 has a prediction");
    let open = PageAction::OpenLesson { lesson: 0, step: prediction - 1, resume: false };
    let there = after([open, PageAction::Lab(Action::RunToEnd)]);
    assert!(there.lab.cursor > 0);
    let asked = there.reduce(PageAction::Panel(PanelEvent::Next));
    assert_eq!(asked.course.view, PageView::Lesson { lesson: 0, step: prediction });
    assert_eq!(asked.lab.cursor, 0, "the prediction is asked at the run's start");
    assert!(!asked.lab.sim.steps().is_empty(), "the run's steps are kept");
    // Answered, Back and Next again leave the run where it is.
    let answered = asked.reduce(PageAction::Panel(PanelEvent::Answered));
    let again = answered
        .reduce(PageAction::Lab(Action::SeekTo(3)))
        .reduce(PageAction::Panel(PanelEvent::Back))
        .reduce(PageAction::Lab(Action::SeekTo(3)))
        .reduce(PageAction::Panel(PanelEvent::Next));
    assert_eq!(again.lab.cursor, 3);
}

/// #34 item 4: a prediction is asked before the screen can answer it. While it is not
/// answered, the run waits at its start (no step, play, to the end, slider or jump moves it);
/// answered, the run goes on. Resumed at such a prediction, the run is shown from its start.
#[test]
fn the_run_waits_at_its_start_until_the_prediction_is_answered() {
    let lesson = &course::course().unwrap().lessons[0];
    assert!(matches!(lesson.steps[1], CourseStep::Prediction(_)), "lesson 1's second step");
    let asked = after([open_first_lesson(), PageAction::Panel(PanelEvent::Next)]);
    assert!(asked.prediction_pending());
    assert_eq!(asked.lab.cursor, 0);
    for tried in [
        PageAction::Lab(Action::StepForward),
        PageAction::Lab(Action::RunToEnd),
        PageAction::Lab(Action::SeekTo(5)),
        PageAction::Lab(Action::TogglePlay),
        PageAction::Lab(Action::PlayTick),
        PageAction::JumpTo(5),
    ] {
        let state = Rc::clone(&asked).reduce(tried.clone());
        assert_eq!(state.lab.cursor, 0, "{tried:?} moved the run before the answer");
        assert!(!state.lab.playing, "{tried:?}");
    }
    let answered = Rc::clone(&asked).reduce(PageAction::Panel(PanelEvent::Answered));
    assert!(!answered.prediction_pending());
    let ran = answered.reduce(PageAction::Lab(Action::RunToEnd));
    assert!(ran.lab.cursor > 0 && !ran.lab.can_step_forward());

    // Run on at the narration before it, then open the lesson again at the prediction with
    // Resume: the run is shown from its start.
    let on = after([
        open_first_lesson(),
        PageAction::Lab(Action::RunToEnd),
        PageAction::Course(CourseAction::ShowCourse),
        PageAction::OpenLesson { lesson: 0, step: 1, resume: true },
    ]);
    assert!(on.prediction_pending());
    assert_eq!(on.lab.cursor, 0, "resumed at an unanswered prediction");
    assert!(on.lab.sim.steps().len() > 1, "the run's steps stay, one click away");
}

/// The free lab's run with a duplicate (as [`with_a_duplicate`]) and, after it, a choice that
/// hits a request no built-in scenario has (request 5): the one is carried, the other dropped.
fn with_a_duplicate_and_a_choice_that_hits_nothing() -> (Rc<PageState>, usize) {
    let state = with_a_duplicate();
    let mut lab = (*state.lab).clone();
    let missing_step = lab.choices[0].step + 3;
    let missing = AnchoredAction::DoubleSubmit { request: RequestIndex(5) };
    lab.choices.push(UserChoice { step: missing_step, action: missing });
    (Rc::new(PageState { lab: Rc::new(lab), ..(*state).clone() }), missing_step)
}

#[test]
fn a_scenario_change_carries_the_choices_that_hit_and_names_the_others() {
    let (state, missing_step) = with_a_duplicate_and_a_choice_that_hits_nothing();
    let duplicate = state.lab.choices[0].action.clone();
    let seeded = state.reduce(PageAction::Lab(Action::SetSeed(3)));
    assert_eq!(seeded.lab.dropped, vec![missing_step], "the seed change names it");
    let switched =
        seeded.reduce(PageAction::Lab(Action::SelectScenario("f02-crash-after-commit".to_owned())));
    assert_eq!(switched.lab.error, None);
    assert_eq!(switched.lab.scenario_id, "f02-crash-after-commit");
    assert_eq!(switched.lab.seed, 3, "the seed is kept");
    assert_eq!(switched.lab.cursor, 0);
    let actions: Vec<_> = switched.lab.choices.iter().map(|choice| &choice.action).collect();
    assert_eq!(actions, [&duplicate], "the duplicate is carried into the other scenario");
    assert!(
        switched
            .lab
            .outcomes
            .iter()
            .all(|outcome| matches!(outcome, idempotency_lab::sim::ChoiceOutcome::Taken { .. })),
        "{:?}",
        switched.lab.outcomes
    );
    // The choice dropped by the seed change is not in the run any more: nothing more drops.
    assert!(switched.lab.dropped.is_empty());

    // Straight from the run with both: the scenario change names the one it drops.
    let (state, missing_step) = with_a_duplicate_and_a_choice_that_hits_nothing();
    let switched =
        state.reduce(PageAction::Lab(Action::SelectScenario("f02-crash-after-commit".to_owned())));
    assert_eq!(switched.lab.choices.len(), 1);
    assert_eq!(switched.lab.dropped, vec![missing_step]);
    let dismissed = switched.reduce(PageAction::Lab(Action::DismissError));
    assert!(dismissed.lab.dropped.is_empty());
    assert_eq!(dismissed.lab.choices.len(), 1, "dismissing the banner keeps the run");
}

#[test]
fn a_pattern_switch_keeps_every_choice() {
    let (state, _) = with_a_duplicate_and_a_choice_that_hits_nothing();
    let choices = state.lab.choices.clone();
    let all = Patterns::all(PatternMode::Idempotent);
    let switched = state.reduce(PageAction::Lab(Action::SetPatterns(all)));
    assert_eq!(switched.lab.choices, choices, "a switch keeps even the choice that hits nothing");
    let one =
        PageAction::Lab(Action::SetPattern(idempotency_lab::sim::Pattern::P4, PatternMode::Naive));
    assert_eq!(switched.reduce(one).lab.choices, choices);
}

#[test]
fn a_lesson_starts_without_the_learners_choices_and_offers_to_keep_them() {
    let (state, _) = with_a_duplicate_and_a_choice_that_hits_nothing();
    let choices = state.lab.choices.clone();
    let lesson = state.reduce(open_first_lesson());
    let scenario = course::course().unwrap().lessons[0].scenario().unwrap();
    assert_eq!(lesson.lab.base, scenario);
    assert!(lesson.lab.choices.is_empty(), "the lesson's run starts as its course file says");
    assert_eq!(lesson.lab.left_behind, choices, "the choices left behind are offered");
    assert_eq!(focus(&lesson), Some(FocusTarget::LessonCard));

    // A switch the lesson's step makes keeps the offer; Keep carries what hits into the run.
    let switched = Rc::clone(&lesson)
        .reduce(PageAction::Lab(Action::SetPatterns(Patterns::all(PatternMode::Idempotent))));
    assert_eq!(switched.lab.left_behind, choices);
    let kept = Rc::clone(&lesson).reduce(PageAction::Lab(Action::KeepLeftBehind));
    assert!(kept.lab.left_behind.is_empty(), "the offer is taken");
    assert_eq!(kept.lab.base, scenario, "the lesson's run, with the choices");
    assert_eq!(kept.lab.choices.len(), 1, "{:?}", kept.lab.choices);
    assert_eq!(kept.lab.choices[0].action, choices[0].action);
    assert_eq!(kept.lab.dropped, vec![choices[1].step], "the one that hits nothing is named");
    assert_eq!(kept.lab.cursor, 0);
    assert_eq!(focus(&kept), Some(FocusTarget::Caption), "the Keep button is gone");

    // Dismissed or declined, the offer is forgotten, and so it is when the learner moves on in
    // the lesson; a choice of the learner's own in the lesson's run ends it too; Keep with
    // nothing offered does nothing.
    let declined = Rc::clone(&lesson).reduce(PageAction::Lab(Action::DeclineLeftBehind));
    assert!(declined.lab.left_behind.is_empty() && declined.lab.choices.is_empty());
    assert_eq!(focus(&declined), Some(FocusTarget::Caption), "its button is gone");
    let next = Rc::clone(&lesson).reduce(PageAction::Panel(PanelEvent::Next));
    assert_eq!(next.course.view, PageView::Lesson { lesson: 0, step: 1 });
    assert!(next.lab.left_behind.is_empty(), "Next declines the offer");
    let dismissed = Rc::clone(&lesson).reduce(PageAction::Lab(Action::DismissError));
    assert!(dismissed.lab.left_behind.is_empty() && dismissed.lab.choices.is_empty());
    let again = Rc::clone(&dismissed).reduce(PageAction::Lab(Action::KeepLeftBehind));
    assert!(again.lab.choices.is_empty() && again.lab.dropped.is_empty());
    let mut own = Rc::clone(&lesson);
    let fault = loop {
        if let Some(fault) = own.lab.world.enabled_fault_actions().into_iter().next() {
            break fault;
        }
        assert!(own.lab.can_step_forward(), "the lesson's run offers no fault");
        own = own.reduce(PageAction::Lab(Action::StepForward));
    };
    let own = own.reduce(PageAction::Lab(Action::Inject(fault)));
    assert_eq!(own.lab.choices.len(), 1);
    assert!(own.lab.left_behind.is_empty(), "a choice of the learner's own ends the offer");

    // A run without choices offers nothing.
    let fresh = after([open_first_lesson()]);
    assert!(fresh.lab.left_behind.is_empty());
}

#[test]
fn the_offer_is_worded_in_both_languages_with_their_plurals() {
    for language in Language::ALL {
        let words = language.words();
        for count in [1_usize, 2, 5, 21] {
            let offer = language.count(&words.notices.carry_offer, count);
            assert!(offer.contains(&count.to_string()) && !offer.contains('{'), "{offer}");
        }
        assert!(!words.notices.carry_offer_keep.trim().is_empty());
    }
}

#[test]
fn a_file_or_link_opened_focuses_the_caption_and_one_refused_the_error_banner() {
    let fragment = PageState::default().lab.share_fragment();
    let opened = after([PageAction::Lab(Action::OpenLink(fragment))]);
    assert_eq!(opened.lab.error, None);
    assert_eq!(focus(&opened), Some(FocusTarget::Caption));

    let refused = after([PageAction::Lab(Action::OpenLink("v=2&s=nothing-here".to_owned()))]);
    assert!(refused.lab.error.is_some());
    assert_eq!(focus(&refused), Some(FocusTarget::Error));
    assert_eq!(FocusTarget::Error.selectors(), ["[data-testid=error]"]);

    let scenario = idempotency_lab::sim::catalogue_scenario("f05-lost-response").unwrap();
    let loaded = after([PageAction::Lab(Action::LoadScenario(Box::new(scenario.clone())))]);
    assert_eq!(loaded.lab.base, scenario);
    assert_eq!(focus(&loaded), Some(FocusTarget::Caption));
    let trace = idempotency_lab::sim::Simulation::run(scenario, 0).unwrap();
    let traced = after([PageAction::Lab(Action::LoadTrace(Box::new(trace)))]);
    assert_eq!(traced.lab.error, None);
    assert_eq!(focus(&traced), Some(FocusTarget::Caption));

    let unread = Problem::FileUnread { name: "a.json".to_owned(), why: "gone".to_owned() };
    let unread = after([PageAction::Lab(Action::ShowError(unread))]);
    assert_eq!(focus(&unread), Some(FocusTarget::Error));
    // The seed field's complaint leaves the focus in the field.
    let said = after([PageAction::Lab(Action::ShowError(Problem::Said("no".to_owned())))]);
    assert_eq!(focus(&said), None);

    // The news of an opening in slices: opened, the caption; failed, the banner; stale news
    // (of an opening that is not the page's) moves nothing.
    use crate::state::{OpenedRun, Opening, OpeningKind};
    let run = OpenedRun(Rc::new(crate::state::LabState::initial()));
    let kind = OpeningKind::Trace;
    let news = after([PageAction::Lab(Action::Opened { generation: None, kind, run })]);
    assert_eq!(focus(&news), Some(FocusTarget::Caption));
    let error = Problem::Run("steps[3]".to_owned());
    let failed = after([PageAction::Lab(Action::OpeningFailed { generation: None, kind, error })]);
    assert_eq!(focus(&failed), Some(FocusTarget::Error));
    let opening = Opening { generation: 7, kind, steps: 0, total: 10 };
    let error = Problem::Run("late".to_owned());
    let stale = after([
        PageAction::Lab(Action::OpeningStarted(opening)),
        PageAction::Lab(Action::OpeningFailed { generation: Some(6), kind, error }),
    ]);
    assert_eq!(focus(&stale), None);
}
