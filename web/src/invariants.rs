//! The invariants I1-I7 after the current step: green when they hold, red with the core's
//! sentence when they do not, and a button that jumps to the step that broke them.

use std::collections::BTreeMap;

use idempotency_lab::invariants::{InvariantId, Violation};
use idempotency_lab::view::Language;
use idempotency_lab::words::fill;
use yew::prelude::*;

/// Props of [`InvariantsPanel`].
#[derive(Properties, PartialEq)]
pub struct InvariantsPanelProps {
    /// The violations of the world at the cursor.
    pub violations: Vec<Violation>,
    /// Where each invariant broke, among the steps up to the cursor
    /// ([`idempotency_lab::view::breaking_steps`]).
    pub breaks: BTreeMap<InvariantId, usize>,
    /// Jumps to a step.
    pub on_jump: Callback<usize>,
    /// The language of the titles, descriptions and sentences.
    #[prop_or_default]
    pub language: Language,
    /// The dead letters up to the cursor, in the core's words
    /// (`view::dead_letter_sentences`): their own outcome, beside the invariants.
    #[prop_or_default]
    pub dead_letters: Vec<String>,
}

/// One badge per invariant.
#[function_component(InvariantsPanel)]
pub fn invariants_panel(props: &InvariantsPanelProps) -> Html {
    let words = props.language.words();
    html! {
        <section class="invariants" aria-label={words.ui_invariants}>
            <h2>{ words.ui_invariants }</h2>
            <ul>
            { for InvariantId::ALL.iter().map(|&invariant| {
                let broken: Vec<&Violation> =
                    props.violations.iter().filter(|violation| violation.invariant == invariant).collect();
                let ok = broken.is_empty();
                let id = invariant.to_string();
                let jump = (!ok).then(|| props.breaks.get(&invariant).copied()).flatten();
                html! {
                    <li class={classes!("invariant", if ok { "ok" } else { "broken" })}
                        data-testid={format!("invariant-{id}")} data-state={if ok { "ok" } else { "broken" }}
                        title={invariant.description_in(props.language)}>
                        <span class="badge">{ if ok { "✓" } else { "✗" } }</span>
                        <strong>{ format!("{id} ") }</strong>{ invariant.title_in(props.language) }
                        { for broken.iter().map(|violation| html! {
                            <p class="sentence">{ violation.sentence_in(props.language) }</p>
                        }) }
                        if let Some(step) = jump {
                            <button class="jump" data-testid={format!("jump-{id}")}
                                onclick={let on_jump = props.on_jump.clone(); move |_| on_jump.emit(step)}>
                                { fill(words.ui_go_to_break, &[("step", &step)]) }
                            </button>
                        }
                    </li>
                }
            }) }
            </ul>
            { for props.dead_letters.iter().map(|sentence| html! {
                <p class="dead-letter" data-testid="dead-letter">{ sentence.clone() }</p>
            }) }
        </section>
    }
}
