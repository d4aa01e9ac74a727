//! The build task's editor, Parsons-style: the palette (the blocks not placed yet, each with
//! Add), the learner's handler (each block numbered, with its parameter's picker where it has
//! one, and Up, Down and Remove, each named for the block it moves), why the draft cannot run
//! yet (the core's typed refusal, worded), "Check my handler" and the judge's verdict. It only
//! renders the state (`super::BuildState`) and sends [`BuildMsg`]s; every move is a button, so
//! the mouse and the keyboard do the same.

use idempotency_lab::check::judge::why_in;
use idempotency_lab::course::{Assembly, BuildGoal, BuildVerdict};
use idempotency_lab::program::{compile, loop_depths};
use idempotency_lab::view::Language;
use idempotency_lab::words::fill;
use yew::prelude::*;

use super::{BlockControl, BuildMsg, BuildState};
use crate::check_panel::budget_text;

/// Props of [`BuildEditor`].
#[derive(Properties, PartialEq)]
pub struct BuildEditorProps {
    /// What the task offers and how it is judged.
    pub goal: BuildGoal,
    /// The draft, the judge's run and its verdict.
    pub state: BuildState,
    /// The page's language.
    pub language: Language,
    /// What the learner does.
    pub on_msg: Callback<BuildMsg>,
}

/// The editor.
#[function_component(BuildEditor)]
pub fn build_editor(props: &BuildEditorProps) -> Html {
    let (goal, state, language) = (&props.goal, &props.state, props.language);
    let w = language.words();
    let invariants: Vec<String> = goal.invariants.iter().map(ToString::to_string).collect();
    let bounds = fill(
        w.build.bd_bounds,
        &[
            ("faults", &budget_text(&goal.check_config().faults, language)),
            ("invariants", &invariants.join(", ")),
            ("states_max", &language.number(goal.states_max as u64)),
        ],
    );
    let refusal = compile(&goal.program(&state.assembly)).err();
    let status = state.status(goal).hook();
    let check = props.on_msg.reform(|_: MouseEvent| BuildMsg::Check);
    html! {
        <section class="build-editor" data-testid="build-editor" data-status={status}
            aria-labelledby="build-heading">
            <p class="build-bounds">{ bounds }</p>
            <div class="build-columns">
                { palette(goal, &state.assembly, language, &props.on_msg) }
                <div class="build-program">
                    <h3 id="build-heading">{ w.build.bd_heading }</h3>
                    if let Some(error) = &refusal {
                        <p class="build-refusal" data-testid="build-refusal">
                            { fill(w.build.bd_invalid, &[("error", &error.text_in(language))]) }
                        </p>
                    }
                    <button class="primary build-check" data-testid="build-check" onclick={check}
                        disabled={refusal.is_some()}>{ w.build.bd_check }</button>
                    <div class="build-verdict" data-testid="build-verdict" data-kind={status} aria-live="polite"
                        data-judge-ms={state.judged.as_ref().map(|judged| format!("{:.0}", judged.elapsed_ms))}>
                        { verdict(goal, state, language) }
                    </div>
                    { program(goal, &state.assembly, language, &props.on_msg) }
                </div>
            </div>
        </section>
    }
}

/// The palette: the entries not placed yet, each with Add.
fn palette(
    goal: &BuildGoal,
    assembly: &Assembly,
    language: Language,
    on_msg: &Callback<BuildMsg>,
) -> Html {
    let w = language.words();
    let unplaced = goal.unplaced(assembly);
    html! {
        <div class="build-palette">
            <h3>{ w.build.bd_palette }</h3>
            if unplaced.is_empty() {
                <p class="build-empty">{ w.build.bd_palette_empty }</p>
            }
            <ul class="build-blocks" aria-label={w.build.bd_palette}>
                { for unplaced.into_iter().map(|entry| {
                    let text = goal.palette[entry].text_in(language);
                    let name = fill(w.build.bd_add_name, &[("block", &text)]);
                    html! {
                        <li class="build-block" key={entry} data-entry={entry.to_string()}>
                            <code>{ text }</code>
                            <button data-testid={format!("build-add-{entry}")} aria-label={name}
                                onclick={on_msg.reform(move |_: MouseEvent| BuildMsg::Add(entry))}>{ w.build.bd_add }</button>
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// The learner's handler: each placed block with its picker and its moves.
fn program(
    goal: &BuildGoal,
    assembly: &Assembly,
    language: Language,
    on_msg: &Callback<BuildMsg>,
) -> Html {
    let w = language.words();
    if assembly.placed.is_empty() {
        return html! { <p class="build-empty" data-testid="build-program-empty">{ w.build.bd_program_empty }</p> };
    }
    let last = assembly.placed.len() - 1;
    let depths = loop_depths(assembly.placed.iter().map(|placed| &placed.block));
    html! {
        <ol class="build-blocks program" data-testid="build-program" aria-label={w.build.bd_heading}>
            { for assembly.placed.iter().enumerate().map(|(position, placed)| {
                let depth = depths.get(position).copied().unwrap_or(0);
                let text = placed.block.text_in(language);
                let n = (position + 1).to_string();
                let named = |template: &str| fill(template, &[("n", &n as &dyn std::fmt::Display), ("block", &text)]);
                let button = |control: BlockControl, label: &str, name: String, disabled: bool, msg: BuildMsg| html! {
                    <button data-testid={control.testid(position)} aria-label={name} {disabled}
                        onclick={on_msg.reform(move |_: MouseEvent| msg.clone())}>{ label.to_owned() }</button>
                };
                html! {
                    <li class="build-block" key={placed.entry} data-entry={placed.entry.to_string()}
                        data-position={position.to_string()} data-depth={depth.min(2).to_string()}>
                        <span class="build-number" aria-hidden="true">{ &n }</span>
                        if goal.forms(placed.entry).len() > 1 {
                            <code data-testid={format!("build-block-{position}")} title={text.clone()}>{ placed.block.head_in(language) }</code>
                            { form_picker(goal, position, placed, language, on_msg) }
                        } else {
                            <code data-testid={format!("build-block-{position}")}>{ text.clone() }</code>
                        }
                        <span class="build-moves">
                            { button(BlockControl::Up, w.build.bd_up, named(w.build.bd_up_name), position == 0,
                                BuildMsg::Shift { position, up: true }) }
                            { button(BlockControl::Down, w.build.bd_down, named(w.build.bd_down_name), position == last,
                                BuildMsg::Shift { position, up: false }) }
                            { button(BlockControl::Remove, w.build.bd_remove, named(w.build.bd_remove_name), false,
                                BuildMsg::Remove(position)) }
                        </span>
                    </li>
                }
            }) }
        </ol>
    }
}

/// The picker of a placed block's parameter, if its entry has more than one form.
fn form_picker(
    goal: &BuildGoal,
    position: usize,
    placed: &idempotency_lab::course::Placed,
    language: Language,
    on_msg: &Callback<BuildMsg>,
) -> Html {
    let forms = goal.forms(placed.entry);
    if forms.len() < 2 {
        return Html::default();
    }
    let onchange = on_msg.reform(move |event: Event| {
        let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
        BuildMsg::SetForm { position, form: select.value().parse().unwrap_or(0) }
    });
    let name = fill(language.words().build.bd_form_name, &[("n", &(position + 1))]);
    html! {
        <select class="build-form" data-testid={format!("build-form-{position}")} aria-label={name} {onchange}>
            { for forms.iter().enumerate().map(|(index, form)| html! {
                <option value={index.to_string()} selected={*form == placed.block}>
                    { form.parameter_text_in(language).unwrap_or_default() }
                </option>
            }) }
        </select>
    }
}

/// The judge's progress, or its last verdict in words: the proof's count of states, or the
/// broken invariant, the violation's sentence and why the program makes it.
fn verdict(goal: &BuildGoal, state: &BuildState, language: Language) -> Html {
    let w = language.words();
    if let Some(judging) = &state.judging {
        return html! {
            <p class="build-judging">
                <progress max={goal.states_max.to_string()} value={judging.states.to_string()} />
                { " " }{ fill(w.build.bd_checking, &[("states", &language.number(judging.states as u64))]) }
            </p>
        };
    }
    let Some(judged) = &state.judged else { return Html::default() };
    let stale = state.verdict_now().is_none();
    let program = goal.program(&judged.assembly);
    let lines: Vec<String> = match &judged.result {
        Ok((BuildVerdict::Holds { states }, _)) => {
            vec![fill(w.build.bd_holds, &[("states", &language.number(*states as u64))])]
        }
        Ok((BuildVerdict::Refuted { invariant, steps }, violation)) => {
            let mut lines = vec![fill(
                w.build.bd_refuted,
                &[
                    ("invariant", invariant as &dyn std::fmt::Display),
                    ("title", &invariant.title_in(language)),
                    ("steps", steps),
                ],
            )];
            lines.extend(violation.iter().map(|violation| violation.sentence_in(language)));
            lines.push(why_in(&program, language).to_owned());
            lines
        }
        Ok((BuildVerdict::Bounded { states }, _)) => {
            vec![fill(w.build.bd_bounded, &[("states", &language.number(*states as u64))])]
        }
        Err(error) => vec![fill(w.build.bd_error, &[("error", error)])],
    };
    html! {
        <>
            if stale {
                <p class="build-stale" data-testid="build-stale">{ w.build.bd_stale }</p>
            }
            { for lines.into_iter().enumerate().map(|(index, line)| html! {
                <p class={classes!(if index == 0 { "build-summary" } else { "sentence" })}>{ line }</p>
            }) }
        </>
    }
}
