//! The build task's part of the reducer on data: moves change the draft by the core's rules
//! and send the focus after the block, a move that cannot be done changes nothing, and a
//! verdict counts only for the run and the draft it judged.

use std::rc::Rc;

use idempotency_lab::check::judge::Judgement;
use idempotency_lab::course::{Assembly, BuildVerdict};
use yew::Reducible;

use super::{BlockControl, BuildFocus, BuildMsg, BuildStatus, goal_at};
use crate::course;
use crate::page::{FocusTarget, PageAction, PageState};

/// The page at the consumer's build task: the lesson opened at its build step.
fn at_build_task() -> (Rc<PageState>, usize, usize) {
    let course = course::course().unwrap();
    let index = course.position("build-consumer").unwrap();
    let lesson = &course.lessons[index];
    let step = (0..lesson.steps.len()).find(|step| goal_at(lesson, *step).is_some()).unwrap();
    let state = Rc::new(PageState::default()).reduce(PageAction::OpenLesson {
        lesson: index,
        step,
        resume: false,
    });
    (state, index, step)
}

fn build(state: Rc<PageState>, msg: BuildMsg) -> Rc<PageState> {
    state.reduce(PageAction::Build(msg))
}

fn focus(state: &PageState) -> Option<FocusTarget> {
    state.focus.map(|focus| focus.target)
}

#[test]
fn adding_places_the_entry_and_focuses_the_palette_entry_that_took_its_place() {
    let (state, index, step) = at_build_task();
    let state = build(state, BuildMsg::Add(0));
    assert_eq!(state.build.at, Some((index, step)));
    assert_eq!(state.build.assembly.placed.len(), 1);
    assert_eq!(focus(&state), Some(FocusTarget::Build(BuildFocus::Add(1))));
    // An entry placed already: nothing changes, the focus stays.
    let generation = state.focus.unwrap().generation;
    let again = build(state.clone(), BuildMsg::Add(0));
    assert_eq!(again.build, state.build);
    assert_eq!(again.focus.unwrap().generation, generation);
}

#[test]
fn moving_a_block_keeps_the_focus_on_the_block_and_removing_on_its_place() {
    let (state, _, _) = at_build_task();
    let state =
        [0, 2, 3].into_iter().fold(state, |state, entry| build(state, BuildMsg::Add(entry)));
    let state = build(state, BuildMsg::Shift { position: 2, up: true });
    let entries: Vec<usize> = state.build.assembly.placed.iter().map(|p| p.entry).collect();
    assert_eq!(entries, [0, 3, 2]);
    assert_eq!(focus(&state), Some(FocusTarget::Build(BuildFocus::Block(1, BlockControl::Up))));
    let state = build(state, BuildMsg::Shift { position: 1, up: false });
    assert_eq!(focus(&state), Some(FocusTarget::Build(BuildFocus::Block(2, BlockControl::Down))));
    let state = build(state, BuildMsg::Remove(2));
    assert_eq!(focus(&state), Some(FocusTarget::Build(BuildFocus::Block(1, BlockControl::Remove))));
    let state = build(build(state, BuildMsg::Remove(0)), BuildMsg::Remove(0));
    assert!(state.build.assembly.placed.is_empty());
    assert_eq!(focus(&state), Some(FocusTarget::Build(BuildFocus::Add(0))));
    // The selectors fall back to the other move, then Remove, then Check.
    let selectors = BuildFocus::Block(0, BlockControl::Up).selectors();
    assert_eq!(selectors[0], "[data-testid=build-up-0]");
    assert_eq!(selectors.last().unwrap(), "[data-testid=build-check]");
}

#[test]
fn a_verdict_counts_only_for_its_run_and_the_draft_it_judged() {
    let (state, _, _) = at_build_task();
    let state = build(state, BuildMsg::Add(0));
    assert_eq!(state.build.status(goal(&state)), BuildStatus::Invalid);
    let state = build(state, BuildMsg::Check);
    let generation = state.build.judging.as_ref().unwrap().generation;
    assert_eq!(state.build.status(goal(&state)), BuildStatus::Judging);
    let holds = |generation| BuildMsg::Finish {
        generation,
        judgement: Rc::new(Ok(Judgement::Holds { states: 7, depth: 3 })),
        elapsed_ms: 1.0,
    };
    // News of an older run changes nothing.
    let stale_news = build(state.clone(), holds(generation - 1));
    assert_eq!(stale_news.build, state.build);
    let judged = build(state, holds(generation));
    assert!(judged.build.judging.is_none());
    let verdict = judged.build.verdict_now().unwrap();
    assert_eq!(verdict.result.as_ref().unwrap().0, BuildVerdict::Holds { states: 7 });
    // A proof passes the step and focuses Next.
    let (_, lesson, step) = judged.course.lesson().unwrap();
    assert!(judged.course.progress.of(lesson).passed.contains(&step));
    assert_eq!(focus(&judged), Some(FocusTarget::LessonNext));
    // The draft changed: the verdict is stale.
    let changed = build(judged, BuildMsg::Add(1));
    assert!(changed.build.verdict_now().is_none());
    assert_eq!(changed.build.assembly.placed.len(), 2);
    assert_ne!(changed.build.assembly, Assembly::default());
}

#[test]
fn a_counterexample_opens_in_the_diagram_at_the_step_that_broke_it() {
    let (state, index, step) = at_build_task();
    let lesson = &course::course().unwrap().lessons[index];
    let goal = goal_at(lesson, step).unwrap();
    // The consumer with no inbox at all: every block of the palette's naive reading.
    let mut assembly = Assembly::default();
    for entry in [0, 4, 6, 7, 8, 9, 10, 15, 14] {
        assembly = assembly.add(goal, entry).unwrap();
    }
    let (scenario, config) = super::judge_input(lesson, step, &assembly).unwrap();
    let judgement = idempotency_lab::check::judge::judge_scenario(scenario, 0, config).unwrap();
    let Judgement::Counterexample { counterexample, .. } = &judgement else {
        panic!("expected a counterexample, got {judgement:?}")
    };
    let steps = counterexample.path.len();
    let state = [0, 4, 6, 7, 8, 9, 10, 15, 14]
        .into_iter()
        .fold(state, |state, entry| build(state, BuildMsg::Add(entry)));
    let state = build(state, BuildMsg::Check);
    let generation = state.build.judging.as_ref().unwrap().generation;
    let state = build(
        state,
        BuildMsg::Finish { generation, judgement: Rc::new(Ok(judgement)), elapsed_ms: 5.0 },
    );
    assert_eq!(state.build.status(goal), BuildStatus::Refuted);
    assert_eq!(state.lab.cursor, steps);
    assert!(state.lab.sim.scenario().consumer_program.is_some());
    let (_, lesson, step) = state.course.lesson().unwrap();
    assert!(!state.course.progress.of(lesson).passed.contains(&step));
}

fn goal(state: &PageState) -> &'static idempotency_lab::course::BuildGoal {
    let (_, lesson, step) = state.course.lesson().unwrap();
    goal_at(lesson, step).unwrap()
}
