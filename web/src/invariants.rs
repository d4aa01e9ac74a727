//! The invariants I1-I7 after the current step, as the core's screen model words them
//! ([`InvariantLine`]): green when they hold, red with their sentences when they do not, and
//! a button that jumps to the step that broke them.

use idempotency_lab::view::{InvariantLine, Language};
use idempotency_lab::words::fill;
use yew::prelude::*;

/// Props of [`InvariantsPanel`].
#[derive(Properties, PartialEq)]
pub struct InvariantsPanelProps {
    /// One line per invariant ([`idempotency_lab::view::Screen::invariants`]).
    pub lines: Vec<InvariantLine>,
    /// Jumps to a step.
    pub on_jump: Callback<usize>,
    /// The language of the panel's own labels.
    #[prop_or_default]
    pub language: Language,
    /// The dead letters up to the cursor, in the core's words: their own outcome, beside the
    /// invariants.
    #[prop_or_default]
    pub dead_letters: Vec<String>,
}

/// One badge per invariant.
#[function_component(InvariantsPanel)]
pub fn invariants_panel(props: &InvariantsPanelProps) -> Html {
    let words = props.language.words();
    html! {
        <section class="invariants" aria-label={words.labels.ui_invariants}>
            <h2>{ words.labels.ui_invariants }</h2>
            <ul>
            { for props.lines.iter().map(|line| {
                let ok = line.holds();
                let id = line.id.to_string();
                html! {
                    <li class={classes!("invariant", if ok { "ok" } else { "broken" })}
                        data-testid={format!("invariant-{id}")} data-state={if ok { "ok" } else { "broken" }}
                        title={line.description.clone()}>
                        <span class="badge">{ if ok { "✓" } else { "✗" } }</span>
                        <strong>{ format!("{id} ") }</strong>{ line.title.clone() }
                        { for line.sentences.iter().map(|sentence| html! {
                            <p class="sentence">{ sentence.clone() }</p>
                        }) }
                        if let Some(step) = line.broke_at.filter(|_| !ok) {
                            <button class="jump" data-testid={format!("jump-{id}")}
                                onclick={let on_jump = props.on_jump.clone(); move |_| on_jump.emit(step)}>
                                { fill(words.labels.ui_go_to_break, &[("step", &step)]) }
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
