//! [`FaultBudget`]: how many faults of each class one path of a check may take, and the one
//! rule that derives a check's budget from a scenario.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::check::two_consumers_duplicate_and_crash_config;
use crate::faults::FaultClass;
use crate::sim::Scenario;

/// How many faults of each class one path may take. A class not listed is never taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FaultBudget(pub BTreeMap<FaultClass, u32>);

impl FaultBudget {
    /// No faults at all: only the normal interleavings.
    pub fn none() -> FaultBudget {
        FaultBudget(BTreeMap::new())
    }

    /// `count` faults of each class in `classes`.
    pub fn of(classes: &[(FaultClass, u32)]) -> FaultBudget {
        FaultBudget(classes.iter().copied().collect())
    }

    /// The budget of a check of `scenario`, the rule the CLI's `check` and the page's "the
    /// lesson's faults" share: one fault of each class its injections and fault rates name
    /// (the checker drops the scenario's own injections and places the faults itself,
    /// anywhere they can happen); when it names none, the reference budget of
    /// [`crate::check::two_consumers_duplicate_and_crash_config`] (one F1, one F2).
    pub fn for_scenario(scenario: &Scenario) -> FaultBudget {
        let classes = scenario.fault_classes();
        if classes.is_empty() {
            return two_consumers_duplicate_and_crash_config().faults;
        }
        FaultBudget(classes.into_iter().map(|class| (class, 1)).collect())
    }

    /// How many faults of `class` a path may take.
    pub(crate) fn allowed(&self, class: FaultClass) -> u32 {
        self.0.get(&class).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{FaultRates, catalogue_scenario};

    #[test]
    fn a_scenario_budgets_one_fault_of_each_class_it_names() {
        let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
        assert_eq!(lesson.fault_classes(), [FaultClass::F1]);
        assert_eq!(FaultBudget::for_scenario(&lesson), FaultBudget::of(&[(FaultClass::F1, 1)]));

        let mut rated = lesson.clone();
        rated.injections.clear();
        rated.fault_rates = FaultRates([(FaultClass::F2, 500_000)].into_iter().collect());
        assert_eq!(FaultBudget::for_scenario(&rated), FaultBudget::of(&[(FaultClass::F2, 1)]));
    }

    #[test]
    fn a_scenario_without_faults_gets_the_reference_budget() {
        let mut quiet = catalogue_scenario("f01-duplicate-delivery").unwrap();
        quiet.injections.clear();
        quiet.fault_rates = FaultRates::none();
        assert_eq!(quiet.fault_classes(), []);
        assert_eq!(
            FaultBudget::for_scenario(&quiet),
            FaultBudget::of(&[(FaultClass::F1, 1), (FaultClass::F2, 1)])
        );
    }
}
