//! One schedule against both modes: the same lesson run with its naive twins and with its
//! idempotent versions, side by side, and what differs between the two runs.
//!
//! "The same schedule" cannot mean the same actions step for step: the naive and the
//! idempotent code run different statements, so after the first difference the two runs take
//! different paths. It means the same inputs to the scheduler: the same scenario (requests,
//! injections, fault rates, limits), the same seed, and the same user's choices. Injections
//! name their target by meaning (the `OrderPlaced` of request 0, the second send of request
//! 1), not by step, so each fires in both runs at the matching moment; the seed's draws are
//! the same sequence in both. The learner's choices are anchored the same way (a request and
//! its send, a message's copy or delivery, an instance: [`crate::sim::AnchoredAction`]), and
//! each run places each of them as near to its step as its target allows ([`Run`]); where a
//! target does not exist in one twin, [`Comparison::choices`] says so, choice by choice, for
//! the page to show.
//!
//! The [`Comparison`] lists the invariants violated (at any step) in one run and not the other,
//! and the committed rows that differ at the end, by table and key, as the JSON of
//! [`crate::store::Tables::rows_json`]; [`Comparison::at_step`] gives the same at a step
//! number (each run taken at that step, or at its end if it is shorter).

use serde::Serialize;

use crate::invariants::InvariantId;
#[cfg(test)]
use crate::sim::RewindError;
use crate::sim::{
    ChoiceOutcome, PatternMode, Patterns, Run, Scenario, Simulation, Trace, UserChoice,
};
use crate::store::{TableName, Tables};
use crate::view::share::ShareError;

/// What to compare: one schedule, two sets of pattern switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareInput {
    /// The scenario (its own `patterns` are replaced by each side's).
    pub(crate) scenario: Scenario,
    /// The seed.
    pub(crate) seed: u64,
    /// The user's choices, by step, strictly increasing from step 1.
    pub(crate) user_choices: Vec<UserChoice>,
    /// The switches of the naive side.
    pub(crate) naive: Patterns,
    /// The switches of the idempotent side.
    pub(crate) idempotent: Patterns,
}

impl CompareInput {
    /// Every pattern naive against every pattern idempotent.
    #[cfg(test)]
    pub(crate) fn all_patterns(
        scenario: Scenario,
        seed: u64,
        user_choices: Vec<UserChoice>,
    ) -> CompareInput {
        CompareInput {
            scenario,
            seed,
            user_choices,
            naive: Patterns::all(PatternMode::Naive),
            idempotent: Patterns::all(PatternMode::Idempotent),
        }
    }

    /// The lesson's focus patterns switched ([`Scenario::with_mode`]), the others as the
    /// scenario says: the page's naive/idempotent switch, both ways.
    pub fn focus(scenario: Scenario, seed: u64, user_choices: Vec<UserChoice>) -> CompareInput {
        let naive = scenario.with_mode(PatternMode::Naive).patterns;
        let idempotent = scenario.with_mode(PatternMode::Idempotent).patterns;
        CompareInput { scenario, seed, user_choices, naive, idempotent }
    }
}

/// One side of a comparison.
#[derive(Clone, Debug)]
pub struct ComparedRun {
    /// The whole run.
    pub trace: Trace,
    /// The run, kept for `Comparison::at_step`.
    pub simulation: Simulation,
    /// Where each of the learner's choices was taken in this run.
    pub(crate) outcomes: Vec<ChoiceOutcome>,
}

/// One of the learner's choices in both runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceComparison {
    /// The choice.
    pub choice: UserChoice,
    /// Where the naive run took it.
    pub naive: ChoiceOutcome,
    /// Where the idempotent run took it.
    pub idempotent: ChoiceOutcome,
}

/// A committed row that differs between the two runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RowDifference {
    /// The table.
    pub table: TableName,
    /// The primary key, as JSON.
    pub(crate) key: serde_json::Value,
    /// The row in the naive run; `None`: no such row there.
    pub naive: Option<serde_json::Value>,
    /// The row in the idempotent run; `None`: no such row there.
    pub idempotent: Option<serde_json::Value>,
}

/// The two runs compared at one moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg(test)]
pub(crate) struct StepComparison {
    /// The naive run's step compared (the step asked for, or its last step).
    pub(crate) naive_step: usize,
    /// The idempotent run's step compared.
    pub(crate) idempotent_step: usize,
    /// Invariants violated after that step in the naive run and not in the idempotent one.
    pub(crate) naive_only: Vec<InvariantId>,
    /// Invariants violated after that step in the idempotent run and not in the naive one.
    pub(crate) idempotent_only: Vec<InvariantId>,
    /// Rows that differ, table then key order.
    pub(crate) row_differences: Vec<RowDifference>,
}

/// One schedule run in both modes.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The naive side.
    pub naive: ComparedRun,
    /// The idempotent side.
    pub idempotent: ComparedRun,
    /// Invariants violated at some step of the naive run and at none of the idempotent one.
    pub naive_only: Vec<InvariantId>,
    /// Invariants violated at some step of the idempotent run and at none of the naive one.
    pub idempotent_only: Vec<InvariantId>,
    /// Invariants violated in both runs.
    #[cfg(test)]
    pub(crate) both: Vec<InvariantId>,
    /// Committed rows that differ at the end of the runs, table then key order.
    pub row_differences: Vec<RowDifference>,
    /// The learner's choices, each with where each run took it.
    pub choices: Vec<ChoiceComparison>,
}

/// Runs one schedule in both modes and compares them (see the module's documentation).
/// Fails only if the scenario is invalid ([`ShareError::InvalidScenario`]) or the user's
/// choices are not in step order ([`ShareError::UserChoiceOutOfOrder`]).
pub fn compare(input: &CompareInput) -> Result<Comparison, ShareError> {
    let naive = run_side(input, input.naive)?;
    let idempotent = run_side(input, input.idempotent)?;
    let naive_ever = naive.trace.invariants_ever_violated();
    let idempotent_ever = idempotent.trace.invariants_ever_violated();
    let row_differences = row_differences(
        naive.simulation.world().store().committed(),
        idempotent.simulation.world().store().committed(),
    );
    let choices = input
        .user_choices
        .iter()
        .zip(naive.outcomes.iter().zip(&idempotent.outcomes))
        .map(|(choice, (naive, idempotent))| ChoiceComparison {
            choice: choice.clone(),
            naive: *naive,
            idempotent: *idempotent,
        })
        .collect();
    Ok(Comparison {
        choices,
        naive_only: only_in(&naive_ever, &idempotent_ever),
        idempotent_only: only_in(&idempotent_ever, &naive_ever),
        #[cfg(test)]
        both: naive_ever.iter().filter(|id| idempotent_ever.contains(id)).copied().collect(),
        row_differences,
        naive,
        idempotent,
    })
}

impl Comparison {
    /// The two runs compared after `step` steps each (0: the start); a run shorter than
    /// `step` is taken at its end. Rebuilds both worlds from the runs' snapshots.
    #[cfg(test)]
    pub(crate) fn at_step(&self, step: usize) -> Result<StepComparison, RewindError> {
        let naive_step = step.min(self.naive.trace.steps.len());
        let idempotent_step = step.min(self.idempotent.trace.steps.len());
        let naive_world = self.naive.simulation.world_after(naive_step)?;
        let idempotent_world = self.idempotent.simulation.world_after(idempotent_step)?;
        let violated = |trace: &Trace, step: usize| -> Vec<InvariantId> {
            step.checked_sub(1)
                .and_then(|index| trace.steps.get(index))
                .map(|recorded| recorded.violated.clone())
                .unwrap_or_default()
        };
        let naive_violated = violated(&self.naive.trace, naive_step);
        let idempotent_violated = violated(&self.idempotent.trace, idempotent_step);
        Ok(StepComparison {
            naive_step,
            idempotent_step,
            naive_only: only_in(&naive_violated, &idempotent_violated),
            idempotent_only: only_in(&idempotent_violated, &naive_violated),
            row_differences: row_differences(
                naive_world.store().committed(),
                idempotent_world.store().committed(),
            ),
        })
    }

    /// Whether a row differs at the end: for the page to mark it in the table `table`.
    #[cfg(test)]
    pub(crate) fn row_differs(&self, table: TableName, key: &serde_json::Value) -> bool {
        self.row_differences
            .iter()
            .any(|difference| difference.table == table && difference.key == *key)
    }
}

fn run_side(input: &CompareInput, patterns: Patterns) -> Result<ComparedRun, ShareError> {
    let scenario = Scenario { patterns, ..input.scenario.clone() };
    let run = Run { scenario, seed: input.seed, choices: input.user_choices.clone() };
    let played = run.play_to_end().map_err(ShareError::from)?;
    Ok(ComparedRun {
        trace: played.simulation.trace(),
        simulation: played.simulation,
        outcomes: played.outcomes,
    })
}

fn only_in(these: &[InvariantId], those: &[InvariantId]) -> Vec<InvariantId> {
    these.iter().filter(|id| !those.contains(id)).copied().collect()
}

/// The rows that differ between two states, as (naive, idempotent) pairs.
fn row_differences(naive: &Tables, idempotent: &Tables) -> Vec<RowDifference> {
    naive
        .diff(idempotent)
        .into_iter()
        .map(|change| RowDifference {
            table: change.table,
            key: change.key,
            naive: change.before,
            idempotent: change.after,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::sim::{Action, AnchoredAction, CopyRef, MessageAnchor, World, catalogue_scenario};

    fn describe(differences: &[RowDifference]) -> String {
        differences
            .iter()
            .map(|difference| {
                let show = |row: &Option<serde_json::Value>| {
                    row.as_ref().map_or("-".to_owned(), ToString::to_string)
                };
                format!(
                    "{} {}\n  naive:      {}\n  idempotent: {}\n",
                    difference.table.as_str(),
                    difference.key,
                    show(&difference.naive),
                    show(&difference.idempotent)
                )
            })
            .collect()
    }

    #[test]
    fn duplicate_delivery_shows_i2_in_naive_only_and_the_reservation_and_stock_rows() {
        let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
        let comparison = compare(&CompareInput::focus(scenario, 0, Vec::new())).unwrap();
        assert_eq!(comparison.naive_only, vec![InvariantId::I2, InvariantId::I6]);
        assert!(comparison.idempotent_only.is_empty());
        assert!(comparison.both.is_empty());
        assert!(comparison.choices.is_empty());
        expect![[r#"
            stock "apple"
              naive:      {"available_qty":4,"on_hand_qty":10,"sku":"apple"}
              idempotent: {"available_qty":7,"on_hand_qty":10,"sku":"apple"}
            reservations ["73128e1c-fa54-4a40-a579-c0096c3c237c","apple"]
              naive:      {"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","qty":6,"sku":"apple"}
              idempotent: {"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","qty":3,"sku":"apple"}
            inbox ["d051b29e-45c8-4853-a592-75602f463cea","reserve-stock"]
              naive:      -
              idempotent: {"consumer":"reserve-stock","message_id":"d051b29e-45c8-4853-a592-75602f463cea","processed_at":0}
            idempotency_keys "9419cd3e-08dc-425c-a205-7ed1edf9be26"
              naive:      -
              idempotent: {"created_at":0,"fingerprint":"sha256:f03c1e76da8ef9c204abe833d21dc763e46746d229a08c1eb46a08be1e6f42c2","key":"9419cd3e-08dc-425c-a205-7ed1edf9be26","state":{"response":{"body":"{\"order_id\":\"73128e1c-fa54-4a40-a579-c0096c3c237c\",\"status\":\"Placed\"}","headers":[["content-type","application/json"],["location","/orders/73128e1c-fa54-4a40-a579-c0096c3c237c"]],"status":201},"state":"completed"}}
        "#]].assert_eq(&describe(&comparison.row_differences));
        let tables: Vec<TableName> =
            comparison.row_differences.iter().map(|difference| difference.table).collect();
        assert!(tables.contains(&TableName::Reservations));
        assert!(tables.contains(&TableName::Stock));
        for difference in &comparison.row_differences {
            assert!(comparison.row_differs(difference.table, &difference.key));
        }

        let start = comparison.at_step(0).unwrap();
        assert_eq!((start.naive_step, start.idempotent_step), (0, 0));
        assert!(start.row_differences.is_empty());
        assert!(start.naive_only.is_empty());
        let end = comparison.at_step(usize::MAX).unwrap();
        assert_eq!(end.naive_step, comparison.naive.trace.steps.len());
        assert_eq!(end.idempotent_step, comparison.idempotent.trace.steps.len());
        assert_eq!(end.row_differences, comparison.row_differences);
        let i2_step = comparison.naive.trace.summary.first_violation_step[&InvariantId::I2];
        let at_i2 = comparison.at_step(i2_step).unwrap();
        assert!(at_i2.naive_only.contains(&InvariantId::I2), "{at_i2:?}");
    }

    #[test]
    fn all_patterns_switches_every_pattern() {
        let scenario = catalogue_scenario("p1-stock-reservation").unwrap();
        let input = CompareInput::all_patterns(scenario.clone(), 0, Vec::new());
        assert_eq!(input.naive, Patterns::all(PatternMode::Naive));
        let comparison = compare(&input).unwrap();
        assert_eq!(comparison.naive.trace.scenario.patterns, Patterns::all(PatternMode::Naive));
        assert_eq!(
            comparison.idempotent.trace.scenario.patterns,
            Patterns::all(PatternMode::Idempotent)
        );
        assert!(!comparison.naive_only.is_empty());
        let focus = CompareInput::focus(scenario, 0, Vec::new());
        assert_eq!(focus.naive.p1_stock, PatternMode::Naive);
    }

    /// The lesson's focus patterns naive, `steps` scheduler steps, then the first enabled
    /// action `pick` accepts, by the learner: the run's one choice.
    fn one_choice(
        lesson: &str,
        steps: usize,
        pick: impl Fn(&World, &Action) -> bool,
    ) -> Vec<UserChoice> {
        let scenario = catalogue_scenario(lesson).unwrap().with_mode(PatternMode::Naive);
        let mut simulation = Simulation::new(scenario.clone(), 0).unwrap();
        for _ in 0..steps {
            simulation.step().unwrap();
        }
        let world = simulation.world();
        let action =
            world.enabled_actions().into_iter().find(|action| pick(world, action)).unwrap();
        Run::anchor(scenario, 0, &[(steps + 1, action)]).unwrap().0.choices
    }

    #[test]
    fn both_twins_get_the_learners_fault() {
        // Repro 2: f03, nine steps, F1 on the pending message, Compare.
        let choices = one_choice("f03-crash-before-commit", 9, |_, action| {
            matches!(action, Action::DuplicateMessage { .. })
        });
        let scenario = catalogue_scenario("f03-crash-before-commit").unwrap();
        let comparison = compare(&CompareInput::focus(scenario, 0, choices.clone())).unwrap();
        assert_eq!(comparison.choices.len(), 1);
        assert_eq!(comparison.choices[0].naive, ChoiceOutcome::Taken { step: 10 });
        let ChoiceOutcome::Taken { step } = comparison.choices[0].idempotent else {
            panic!("{:?}", comparison.choices);
        };
        let recorded = &comparison.idempotent.trace.steps[step - 1];
        assert!(matches!(recorded.action, Action::DuplicateMessage { .. }), "{recorded:?}");
        // The contrast is the patterns', not a fault one side did not get.
        assert_eq!(comparison.naive_only, vec![InvariantId::I2, InvariantId::I6]);
        assert!(comparison.idempotent_only.is_empty());
    }

    #[test]
    fn a_choice_whose_target_one_twin_lacks_is_named_there() {
        // The naive P3 twin of f05 places a second order on the retry: a message with no
        // counterpart in the idempotent twin. Duplicating it applies to the naive side only.
        let second_order = |world: &World, action: &Action| match action {
            Action::DuplicateMessage { entry } => {
                world.broker().entries.get(entry).is_some_and(|copy| {
                    world.planned_order(crate::sim::RequestIndex(0)).map(|order| order.message_id)
                        != Some(copy.message_id)
                })
            }
            _ => false,
        };
        let scenario = catalogue_scenario("f05-lost-response").unwrap();
        let naive = scenario.with_mode(PatternMode::Naive);
        let mut simulation = Simulation::new(naive, 0).unwrap();
        let steps = std::iter::from_fn(|| {
            let world = simulation.world();
            let found = world.enabled_actions().iter().any(|action| second_order(world, action));
            (!found && simulation.step().is_some()).then_some(())
        })
        .count();
        let choices = one_choice("f05-lost-response", steps, second_order);
        assert!(
            matches!(
                choices[0].action,
                AnchoredAction::DuplicateMessage {
                    copy: CopyRef { message: MessageAnchor::Id(_), .. }
                }
            ),
            "{choices:?}"
        );
        let comparison = compare(&CompareInput::focus(scenario.clone(), 0, choices)).unwrap();
        assert_eq!(comparison.choices[0].naive, ChoiceOutcome::Taken { step: steps + 1 });
        assert_eq!(comparison.choices[0].idempotent, ChoiceOutcome::TargetMissing);
        let unordered = vec![
            UserChoice { step: 1, action: AnchoredAction::CrashRelay },
            UserChoice { step: 1, action: AnchoredAction::CrashRelay },
        ];
        assert_eq!(
            compare(&CompareInput::focus(scenario, 0, unordered)).unwrap_err(),
            ShareError::UserChoiceOutOfOrder { step: 1, previous: 1 }
        );
    }
}
