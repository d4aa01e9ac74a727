//! The lab's run keeps the index of its steps through what a learner does to it: steps, a run
//! to the end, a rewind, a fault at an earlier step (a branch), a pattern switch. After each,
//! every step of the run is indexed and the index answers at the cursor as the steps up to it
//! do.

use std::rc::Rc;

use idempotency_lab::sim::PatternMode;
use idempotency_lab::view::{Language, breaking_steps, dead_letter_sentences, moments};

use super::{Action, LabState};

/// The index of `lab`'s run covers its steps, and answers at the cursor as they do.
fn check(lab: &LabState, after: &str) {
    let index = lab.sim.index();
    assert_eq!(index.steps_indexed(), lab.sim.steps().len(), "after {after}");
    let (shown, steps) = (lab.shown(), lab.shown_steps());
    let every: Vec<_> = index.moments_drawn(shown, 0).collect();
    assert_eq!(every, moments(steps.clone()), "after {after}");
    assert_eq!(index.breaking_steps(shown), breaking_steps(steps.clone()), "after {after}");
    assert_eq!(
        index.dead_letter_sentences(shown, Language::En),
        dead_letter_sentences(steps, Language::En),
        "after {after}"
    );
}

#[test]
fn the_runs_index_follows_steps_rewinds_branches_and_switches() {
    let mut lab = Rc::new(LabState::initial());
    check(&lab, "opening");
    let act = |lab: Rc<LabState>, action: Action| {
        let name = format!("{action:?}");
        let next = lab.reduce(action);
        check(&next, &name);
        next
    };
    for _ in 0..4 {
        lab = act(lab, Action::StepForward);
    }
    lab = act(lab, Action::RunToEnd);
    let end = lab.sim.steps().len();
    assert!(end > 8, "the first lesson runs on: {end} steps");
    lab = act(lab, Action::SeekTo(end / 2));
    // A fault at the step rewound to: a branch that keeps the steps before it.
    let fault = lab.world.enabled_fault_actions().into_iter().next().expect("a fault applies");
    lab = act(lab, Action::Inject(fault));
    assert_eq!(lab.cursor, end / 2 + 1);
    lab = act(lab, Action::RunToEnd);
    lab = act(lab, Action::SetAllPatterns(PatternMode::Idempotent));
    lab = act(lab, Action::SeekTo(3));
    act(lab, Action::StepForward);
}
