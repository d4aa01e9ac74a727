//! Where the invariants of a run broke: the one rule behind the page's "go to step N, where it
//! broke" buttons and the step at which a counterexample opens.
//!
//! A trace step lists the violations it made new (`new_violations`) and every invariant
//! violated after it (`violated`). An invariant broke at the last step that made a violation of
//! it new (an invariant can break again after it was broken); in a slice of a run that starts
//! after that step, at the first step that shows it violated.

use std::collections::BTreeMap;

use crate::invariants::InvariantId;
use crate::sim::TraceStep;

/// For each invariant violated somewhere in `steps`, the step at which it broke: the last step
/// whose new violations name it, or, failing that, the first step at which it is violated.
pub fn breaking_steps<'a>(
    steps: impl IntoIterator<Item = &'a TraceStep>,
) -> BTreeMap<InvariantId, usize> {
    let mut first_violated: BTreeMap<InvariantId, usize> = BTreeMap::new();
    let mut last_new: BTreeMap<InvariantId, usize> = BTreeMap::new();
    for step in steps {
        for &invariant in &step.violated {
            first_violated.entry(invariant).or_insert(step.step);
        }
        for violation in &step.new_violations {
            last_new.insert(violation.invariant, step.step);
        }
    }
    first_violated.extend(last_new);
    first_violated
}

/// The first step of `steps` at which one of `invariants` broke (a step whose new violations
/// name one of them): where a counterexample that violates them opens.
pub fn first_break<'a>(
    steps: impl IntoIterator<Item = &'a TraceStep>,
    invariants: &[InvariantId],
) -> Option<usize> {
    steps
        .into_iter()
        .find(|step| {
            step.new_violations.iter().any(|violation| invariants.contains(&violation.invariant))
        })
        .map(|step| step.step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{PatternMode, Simulation, catalogue_scenario};

    /// The naive duplicate-delivery lesson, run to its end.
    fn naive_lesson_steps() -> Vec<TraceStep> {
        let scenario = catalogue_scenario("f01-duplicate-delivery")
            .unwrap()
            .with_all_patterns(PatternMode::Naive);
        let mut simulation = Simulation::new(scenario, 0).unwrap();
        simulation.run_to_end();
        simulation.steps().to_vec()
    }

    fn names(step: &TraceStep, invariant: InvariantId) -> bool {
        step.new_violations.iter().any(|violation| violation.invariant == invariant)
    }

    #[test]
    fn each_invariant_broke_at_the_last_step_that_made_it_new() {
        let steps = naive_lesson_steps();
        let breaks = breaking_steps(&steps);
        assert!(breaks.contains_key(&InvariantId::I2), "the naive lesson breaks I2: {breaks:?}");
        for invariant in InvariantId::ALL {
            let Some(&at) = breaks.get(&invariant) else {
                assert!(!steps.iter().any(|step| step.violated.contains(&invariant)));
                continue;
            };
            assert!(names(&steps[at - 1], invariant), "{invariant} is new at step {at}");
            assert!(!steps[at..].iter().any(|step| names(step, invariant)), "{invariant}");
        }
    }

    #[test]
    fn a_slice_after_the_break_points_at_its_first_violated_step() {
        let steps = naive_lesson_steps();
        let at = first_break(&steps, &[InvariantId::I2]).expect("I2 breaks");
        assert!(names(&steps[at - 1], InvariantId::I2));
        assert!(!steps[..at - 1].iter().any(|step| step.violated.contains(&InvariantId::I2)));
        let after = &steps[at..];
        if after.iter().any(|step| names(step, InvariantId::I2)) {
            return;
        }
        assert_eq!(breaking_steps(after).get(&InvariantId::I2), Some(&(at + 1)));
    }

    #[test]
    fn nothing_broke_in_a_clean_run_or_for_no_invariant() {
        let scenario = catalogue_scenario("f01-duplicate-delivery")
            .unwrap()
            .with_all_patterns(PatternMode::Idempotent);
        let mut simulation = Simulation::new(scenario, 0).unwrap();
        simulation.run_to_end();
        assert_eq!(breaking_steps(simulation.steps()), BTreeMap::new());
        assert_eq!(first_break(&naive_lesson_steps(), &[]), None);
    }
}
