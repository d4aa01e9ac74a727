//! A limit of the store reached, in words: the run stopped before a step that the store
//! (`shop.store`) refused for its size. It is an outcome of its own, shown beside the
//! invariants and never one of them (the step is not taken, so no invariant judges it), in the
//! page's and the CLI's language; the fuzzer's report names it too.

use crate::sim::LimitReached;
use crate::store::StoreError;
use crate::words::{Language, fill};

/// The sentence of `limit`, in `language`: the step not taken, the limit and the scenario's
/// field that sets it.
pub fn limit_reached_sentence(limit: &LimitReached, language: Language) -> String {
    let words = language.words();
    let step: (&str, &dyn std::fmt::Display) = ("step", &limit.step);
    match &limit.refusal {
        StoreError::TooManyOpenTransactions { limit, .. } => {
            fill(words.check.limit_open_transactions, &[step, ("limit", limit)])
        }
        StoreError::TableFull { table, limit } => fill(
            words.check.limit_table_full,
            &[step, ("table", &table.as_str()), ("limit", limit)],
        ),
        // Only a limit's refusal is recorded (`Store::take_limit_refusal`); any other is worded
        // as the failed step it would be.
        other @ (StoreError::UnknownTransaction { .. }
        | StoreError::UniqueViolation { .. }
        | StoreError::Blocked(_)) => fill(words.report.stop_step_failed, &[step, ("error", other)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{PatternMode, Simulation, catalogue_scenario};

    #[test]
    fn a_limit_reached_is_one_sentence_in_each_language() {
        let mut lesson =
            catalogue_scenario("f06-double-submit").unwrap().with_mode(PatternMode::Idempotent);
        lesson.shop.store.rows_per_table_max = 1;
        let trace = Simulation::run(lesson, 0).unwrap();
        let limit = trace.limit_reached.expect("the first order needs two writes");
        let english = limit_reached_sentence(&limit, Language::En);
        assert_eq!(
            english,
            format!(
                "Limit reached at step {}: the store's table {} is full, or a transaction holds \
                 as many writes as shop.store.rows_per_table_max allows (1). The run stops \
                 before it: a limit reached is its own outcome, not a fault of the shop, and no \
                 invariant judges that step.",
                limit.step,
                match limit.refusal {
                    StoreError::TableFull { table, .. } => table.as_str(),
                    _ => panic!("{limit:?}"),
                }
            )
        );
        let russian = limit_reached_sentence(&limit, Language::Ru);
        assert!(russian.contains(&format!(" {}", limit.step)), "{russian}");
        assert!(russian.chars().any(crate::words::is_cyrillic), "{russian}");
    }
}
