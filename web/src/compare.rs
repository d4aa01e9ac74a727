//! The side-by-side view: one schedule (scenario, seed, the learner's choices) run with the
//! lesson's focus patterns naive and idempotent (`view::compare`), each side's invariants and
//! final tables, with what differs marked: invariants broken on one side only, and rows that
//! differ between the two ends.

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::ChoiceOutcome;
use idempotency_lab::store::TableName;
use idempotency_lab::view::{ComparedRun, Comparison};
use yew::prelude::*;

use crate::tables::TableView;

/// Props of [`CompareView`].
#[derive(Properties)]
pub struct CompareViewProps {
    /// The comparison, or why it could not be made.
    pub comparison: std::rc::Rc<Result<Comparison, String>>,
}

impl PartialEq for CompareViewProps {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.comparison, &other.comparison)
    }
}

/// Both runs side by side.
#[function_component(CompareView)]
pub fn compare_view(props: &CompareViewProps) -> Html {
    let comparison = match props.comparison.as_ref() {
        Ok(comparison) => comparison,
        Err(error) => {
            return html! { <section class="compare" data-testid="compare"><p class="error-text">{ error.clone() }</p></section> };
        }
    };
    let verdict = if comparison.naive_only.is_empty() && comparison.row_differences.is_empty() {
        "Both twins end the same: this schedule does not tell them apart.".to_owned()
    } else {
        format!(
            "Broken only by the naive twin: {}. Rows that differ at the end: {}.",
            list(&comparison.naive_only),
            comparison.row_differences.len()
        )
    };
    html! {
        <section class="compare" data-testid="compare" aria-label="Naive and idempotent side by side">
            <h2>{ "Same schedule, both twins" }</h2>
            <p class="verdict" data-testid="compare-verdict">{ verdict }</p>
            { choices(comparison) }
            <div class="compare-sides">
                { side("naive", &comparison.naive, &comparison.naive_only, comparison, true) }
                { side("idempotent", &comparison.idempotent, &comparison.idempotent_only, comparison, false) }
            </div>
        </section>
    }
}

/// The learner's choices, each with where each twin took it, or that its target does not
/// exist there.
fn choices(comparison: &Comparison) -> Html {
    if comparison.choices.is_empty() {
        return Html::default();
    }
    let outcome = |outcome: &ChoiceOutcome, twin: &str| match outcome {
        ChoiceOutcome::Taken { step } => format!("{twin}: taken at step {step}"),
        ChoiceOutcome::TargetMissing => format!("{twin}: not applied, no such target in this twin"),
    };
    html! {
        <ul class="compare-choices" data-testid="compare-choices">
            { for comparison.choices.iter().enumerate().map(|(index, choice)| {
                let missing = [choice.naive, choice.idempotent].contains(&ChoiceOutcome::TargetMissing);
                html! {
                    <li class={classes!(missing.then_some("missing"))} data-testid={format!("compare-choice-{index}")}
                        data-naive={outcome_code(&choice.naive)} data-idempotent={outcome_code(&choice.idempotent)}>
                        { format!("Your choice at step {} on {}: {}; {}.", choice.choice.step, choice.choice.action.target_text(),
                            outcome(&choice.naive, "naive"), outcome(&choice.idempotent, "idempotent")) }
                    </li>
                }
            }) }
        </ul>
    }
}

fn outcome_code(outcome: &ChoiceOutcome) -> String {
    match outcome {
        ChoiceOutcome::Taken { step } => format!("taken:{step}"),
        ChoiceOutcome::TargetMissing => "missing".to_owned(),
    }
}

fn list(ids: &[InvariantId]) -> String {
    if ids.is_empty() {
        return "none".to_owned();
    }
    ids.iter().map(|id| format!("{id} ({})", id.title())).collect::<Vec<_>>().join(", ")
}

fn side(
    name: &'static str,
    run: &ComparedRun,
    only_here: &[InvariantId],
    comparison: &Comparison,
    naive: bool,
) -> Html {
    let ever = run.trace.invariants_ever_violated();
    let tables = run.simulation.world().store().committed();
    html! {
        <div class={classes!("compare-side", name)} data-testid={format!("compare-{name}")}>
            <h3>{ format!("{} twin: {} steps", if naive { "Naive" } else { "Idempotent" }, run.trace.steps.len()) }</h3>
            <ul class="compare-invariants">
                { for InvariantId::ALL.iter().map(|&id| {
                    let broken = ever.contains(&id);
                    let differs = only_here.contains(&id);
                    html! {
                        <li class={classes!(if broken { "broken" } else { "ok" }, differs.then_some("differs"))}
                            data-testid={format!("compare-{name}-{id}")} data-state={if broken { "broken" } else { "ok" }}>
                            { if broken { "✗ " } else { "✓ " } }<strong>{ id.to_string() }</strong>{ " " }{ id.title() }
                        </li>
                    }
                }) }
            </ul>
            { for TableName::ALL.iter().filter(|&&table| !tables.rows_json(table).is_empty() || comparison.row_differences.iter().any(|d| d.table == table)).map(|&table| {
                let marked: Vec<serde_json::Value> = comparison
                    .row_differences
                    .iter()
                    .filter(|difference| difference.table == table)
                    .filter_map(|difference| if naive { difference.naive.clone() } else { difference.idempotent.clone() })
                    .collect();
                html! { <TableView {table} rows={tables.rows_json(table)} {marked} /> }
            }) }
        </div>
    }
}
