//! The side-by-side view: one schedule (scenario, seed, the learner's choices) run with the
//! lesson's focus patterns naive and idempotent (`view::compare`), each side's invariants and
//! final tables, with what differs marked: invariants broken on one side only, and rows that
//! differ between the two ends.

use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::ChoiceOutcome;
use idempotency_lab::store::TableName;
use idempotency_lab::view::{ComparedRun, Comparison, Language, choice_target_text};
use idempotency_lab::words::fill;
use yew::prelude::*;

use crate::tables::TableView;

/// Props of [`CompareView`].
#[derive(Properties)]
pub struct CompareViewProps {
    /// The comparison, or why it could not be made.
    pub comparison: std::rc::Rc<Result<Comparison, String>>,
    /// The page's language.
    pub language: Language,
}

impl PartialEq for CompareViewProps {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.comparison, &other.comparison) && self.language == other.language
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
    let language = props.language;
    let w = language.words();
    let verdict = if comparison.naive_only.is_empty() && comparison.row_differences.is_empty() {
        w.course.cmp_same.to_owned()
    } else {
        fill(
            w.course.cmp_verdict,
            &[
                ("invariants", &list(&comparison.naive_only, language)),
                ("rows", &comparison.row_differences.len()),
            ],
        )
    };
    html! {
        <section class="compare" data-testid="compare" aria-label={w.course.cmp_aria}>
            <h2>{ w.course.cmp_heading }</h2>
            <p class="verdict" data-testid="compare-verdict">{ verdict }</p>
            { choices(comparison, language) }
            <div class="compare-sides">
                { side("naive", &comparison.naive, &comparison.naive_only, comparison, true, language) }
                { side("idempotent", &comparison.idempotent, &comparison.idempotent_only, comparison, false, language) }
            </div>
        </section>
    }
}

/// The learner's choices, each with where each twin took it, or that its target does not
/// exist there.
fn choices(comparison: &Comparison, language: Language) -> Html {
    if comparison.choices.is_empty() {
        return Html::default();
    }
    let w = language.words();
    let outcome = |outcome: &ChoiceOutcome, twin: &str| match outcome {
        ChoiceOutcome::Taken { step } => {
            fill(w.course.cmp_taken, &[("twin", &twin), ("step", step)])
        }
        ChoiceOutcome::TargetMissing => fill(w.course.cmp_missing, &[("twin", &twin)]),
    };
    html! {
        <ul class="compare-choices" data-testid="compare-choices">
            { for comparison.choices.iter().enumerate().map(|(index, choice)| {
                let missing = [choice.naive, choice.idempotent].contains(&ChoiceOutcome::TargetMissing);
                html! {
                    <li class={classes!(missing.then_some("missing"))} data-testid={format!("compare-choice-{index}")}
                        data-naive={outcome_code(&choice.naive)} data-idempotent={outcome_code(&choice.idempotent)}>
                        { fill(w.course.cmp_choice, &[
                            ("step", &choice.choice.step),
                            ("target", &choice_target_text(&choice.choice.action, language)),
                            ("naive", &outcome(&choice.naive, w.course.cmp_naive)),
                            ("idempotent", &outcome(&choice.idempotent, w.course.cmp_idempotent)),
                        ]) }
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

fn list(ids: &[InvariantId], language: Language) -> String {
    if ids.is_empty() {
        return language.words().course.cmp_none.to_owned();
    }
    ids.iter().map(|id| format!("{id} ({})", id.title_in(language))).collect::<Vec<_>>().join(", ")
}

fn side(
    name: &'static str,
    run: &ComparedRun,
    only_here: &[InvariantId],
    comparison: &Comparison,
    naive: bool,
    language: Language,
) -> Html {
    let w = language.words();
    let ever = run.trace.invariants_ever_violated();
    let tables = run.simulation.world().store().committed();
    html! {
        <div class={classes!("compare-side", name)} data-testid={format!("compare-{name}")}>
            <h3>{ fill(if naive { w.course.cmp_side_naive } else { w.course.cmp_side_idempotent },
                &[("steps", &language.count(&w.counts.steps, run.trace.steps.len()))]) }</h3>
            <ul class="compare-invariants">
                { for InvariantId::ALL.iter().map(|&id| {
                    let broken = ever.contains(&id);
                    let differs = only_here.contains(&id);
                    html! {
                        <li class={classes!(if broken { "broken" } else { "ok" }, differs.then_some("differs"))}
                            data-testid={format!("compare-{name}-{id}")} data-state={if broken { "broken" } else { "ok" }}>
                            { if broken { "✗ " } else { "✓ " } }<strong>{ id.to_string() }</strong>{ " " }{ id.title_in(language) }
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
                html! { <TableView {table} rows={tables.rows_json(table)} {marked} {language} /> }
            }) }
        </div>
    }
}
