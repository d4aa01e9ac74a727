//! The page's controls: the scenario bar (scenario, seed, the naive / idempotent switches,
//! the lesson's text), the run's controls (reset, step, play, speed, the rewind slider and
//! the view buttons) and the files bar (compare, check, export, import, share).

use idempotency_lab::sim::{CATALOGUE, Pattern, PatternMode, Patterns};
use idempotency_lab::view::lesson_text;
use yew::prelude::*;

use crate::app::Edges;
use crate::app::edges::Files;
use crate::app::view::{send, to_lab};
use crate::labels::ui;
use crate::notices::Problem;
use crate::page::{PageAction, PageState};
use crate::presenter::ViewButtons;
use crate::state::{Action, IMPORTED_SCENARIO, SPEEDS_MS};

/// A `<select>`'s or `<input>`'s change, as the lab's action `read` makes of its value.
fn on_value(edges: &Edges, read: impl Fn(String) -> Option<Action> + 'static) -> Callback<Event> {
    let dispatcher = edges.dispatcher.clone();
    Callback::from(move |event: Event| {
        let input: web_sys::HtmlInputElement = event.target_unchecked_into();
        if let Some(action) = read(input.value()) {
            dispatcher.dispatch(PageAction::Lab(action));
        }
    })
}

/// The scenario picker, the seed, the naive/idempotent switches and the lesson's text.
pub fn scenario_bar(state: &PageState, edges: &Edges, in_lesson: bool) -> Html {
    let (lab, language) = (&state.lab, state.language);
    let ui = ui(language);
    let lesson = lesson_text(&lab.base, language);
    let on_scenario = on_value(edges, |id| Some(Action::SelectScenario(id)));
    let on_seed = on_value(edges, move |value| {
        Some(match value.trim().parse() {
            Ok(seed) => Action::SetSeed(seed),
            Err(_) => Action::ShowError(Problem::Said(format!(
                "{} {}, not {:?}",
                ui.seed_error,
                u64::MAX,
                value
            ))),
        })
    });
    html! {
        <section class="scenario" aria-label={language.words().labels.ui_scenario_group}>
            <div class="scenario-row">
                // A lesson runs its own scenario and seed; the lesson panel tells about it.
                if !in_lesson {
                <label>{ ui.scenario }
                    <select data-testid="scenario" onchange={on_scenario}>
                        if lab.scenario_id == IMPORTED_SCENARIO {
                            <option value={IMPORTED_SCENARIO} selected=true>{ format!("{} {}", ui.imported, lesson.title) }</option>
                        }
                        { for CATALOGUE.iter().map(|entry| html! {
                            <option value={entry.id} selected={entry.id == lab.scenario_id}>{ entry.id }</option>
                        }) }
                    </select>
                </label>
                <label>{ ui.seed }
                    <input data-testid="seed" class="seed" type="text" inputmode="numeric" value={lab.seed.to_string()} onchange={on_seed} />
                </label>
                }
                <span class="modes">
                    <button data-testid="all-naive" onclick={send(edges, PageAction::Lab(Action::SetPatterns(Patterns::all(PatternMode::Naive))))}>{ ui.all_naive }</button>
                    <button data-testid="all-idempotent" onclick={send(edges, PageAction::Lab(Action::SetPatterns(Patterns::all(PatternMode::Idempotent))))}>{ ui.all_idempotent }</button>
                </span>
            </div>
            { pattern_switches(state, edges) }
            if !in_lesson {
                <h2 class="title" data-testid="scenario-title">{ lesson.title }</h2>
                <p class="description" data-testid="scenario-description">{ lesson.description }</p>
            }
        </section>
    }
}

/// One switch per pattern between its naive and idempotent twin; the lesson's focus marked.
pub fn pattern_switches(state: &PageState, edges: &Edges) -> Html {
    let (lab, language) = (&state.lab, state.language);
    let ui = ui(language);
    let patterns = lab.patterns;
    let switches = [
        (Pattern::P1, ui.patterns[0], patterns.p1_stock),
        (Pattern::P2, ui.patterns[1], patterns.p2_order),
        (Pattern::P3, ui.patterns[2], patterns.p3_api),
        (Pattern::P4, ui.patterns[3], patterns.p4_inbox),
    ];
    html! {
        <div class="patterns" role="group" aria-label={language.words().labels.ui_patterns_group}>
            { for switches.into_iter().map(|(pattern, name, mode)| {
                let naive = mode == PatternMode::Naive;
                let focus = lab.base.focus.contains(&pattern);
                let next = if naive { PatternMode::Idempotent } else { PatternMode::Naive };
                html! {
                    <button class={classes!("pattern", if naive { "naive" } else { "idempotent" }, focus.then_some("focus"))}
                        data-testid={format!("pattern-{pattern:?}")} data-mode={if naive { "naive" } else { "idempotent" }}
                        aria-pressed={(!naive).to_string()}
                        onclick={send(edges, PageAction::Lab(Action::SetPattern(pattern, next)))}>
                        { name }{ ": " }<b>{ if naive { ui.naive } else { ui.idempotent } }</b>
                    </button>
                }
            }) }
        </div>
    }
}

/// Reset, back, step, play, to the end, the speed, the rewind slider, the position and the
/// view buttons.
pub fn run_controls(state: &PageState, edges: &Edges) -> Html {
    let (lab, language) = (&state.lab, state.language);
    let ui = ui(language);
    let steps_total = lab.sim.steps().len();
    // A prediction not answered yet: the run waits at its start (`PageState::prediction_pending`).
    let waits = state.prediction_pending();
    let lab_button = |action: Action| send(edges, PageAction::Lab(action));
    let on_speed = on_value(edges, |value| value.parse().ok().map(Action::SetSpeed));
    let dispatcher = edges.dispatcher.clone();
    let on_slider = Callback::from(move |event: InputEvent| {
        let input: web_sys::HtmlInputElement = event.target_unchecked_into();
        if let Ok(step) = input.value().parse() {
            dispatcher.dispatch(PageAction::Lab(Action::SeekTo(step)));
        }
    });
    html! {
        <section class="controls" aria-label={language.words().labels.ui_controls_group}>
            <button data-testid="reset" onclick={lab_button(Action::Reset)} title={ui.reset.1}>{ ui.reset.0 }</button>
            <button data-testid="step-back" onclick={lab_button(Action::StepBack)} disabled={lab.cursor == 0} title={ui.back.1}>{ ui.back.0 }</button>
            <button data-testid="step" onclick={lab_button(Action::StepForward)} disabled={waits || !lab.can_step_forward()} title={ui.step.1}>{ ui.step.0 }</button>
            <button data-testid="play" class="play" onclick={lab_button(Action::TogglePlay)} disabled={waits && !lab.playing} title={ui.play.2}>
                { if lab.playing { ui.play.1 } else { ui.play.0 } }
            </button>
            <button data-testid="run-to-end" onclick={lab_button(Action::RunToEnd)} disabled={waits || !lab.can_step_forward()}>{ ui.to_end }</button>
            <label class="speed">{ ui.speed }
                <select data-testid="speed" onchange={on_speed}>
                    { for SPEEDS_MS.iter().enumerate().map(|(index, speed)| html! {
                        <option value={speed.to_string()} selected={*speed == lab.speed_ms}>{ ui.speeds.get(index).copied().unwrap_or("") }</option>
                    }) }
                </select>
            </label>
            <input type="range" class="slider" data-testid="slider" aria-label={language.words().labels.ui_go_to_step}
                min="0" max={steps_total.to_string()} value={lab.cursor.to_string()} oninput={on_slider} disabled={waits} />
            <span class="position" data-testid="position">{ format!("{} {} / {}", ui.position, lab.cursor, steps_total) }</span>
            { view_buttons(state, edges) }
        </section>
    }
}

/// The type scale, fullscreen and the presenter switch.
fn view_buttons(state: &PageState, edges: &Edges) -> Html {
    let dispatcher = edges.dispatcher.clone();
    let on_scale = Callback::from(move |action| dispatcher.dispatch(PageAction::Scale(action)));
    let on_presenter = to_lab(edges, |()| Action::TogglePresenter);
    let root = edges.root.clone();
    let on_fullscreen = Callback::from(move |()| crate::presenter::toggle_fullscreen(&root));
    html! {
        <ViewButtons ui={ui(state.language)} scale={state.type_scale} {on_scale} presenter={state.lab.presenter} {on_presenter}
            fullscreen={state.fullscreen} {on_fullscreen} />
    }
}

/// Compare, check, the exports, the import and the share link.
pub fn files_bar(state: &PageState, edges: &Edges, files: &Files) -> Html {
    let (lab, language) = (&state.lab, state.language);
    let ui = ui(language);
    let check_open = state.check.is_some();
    // The field is filled when the page is idle after a step (`edges::use_address`), and
    // again when it takes the focus, so that what is copied is the link of the step shown.
    let on_share_focus = {
        let share = lab.share_of();
        Callback::from(move |event: FocusEvent| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            input.set_value(&format!("{}{}", crate::app::edges::page_address(), share.fragment()));
            input.select();
        })
    };
    html! {
        <section class="files" aria-label={language.words().labels.ui_files_group}>
            <button data-testid="compare-toggle" class={classes!(lab.compare_open.then_some("active"))}
                onclick={send(edges, PageAction::Lab(Action::ToggleCompare))} aria-pressed={lab.compare_open.to_string()}>
                { if lab.compare_open { ui.compare.1 } else { ui.compare.0 } }
            </button>
            <button data-testid="check-toggle" class={classes!(check_open.then_some("active"))}
                onclick={send(edges, PageAction::ToggleCheck)} aria-pressed={check_open.to_string()}>
                { if check_open { ui.check.1 } else { ui.check.0 } }
            </button>
            <button data-testid="export-json" onclick={files.on_export_json.clone()}>{ ui.export.0 }</button>
            <button data-testid="export-mermaid" onclick={files.on_export_mermaid.clone()}>{ ui.export.1 }</button>
            <label class="import">{ ui.import }
                <input type="file" data-testid="import" accept=".json,application/json" onchange={files.on_import.clone()} />
            </label>
            <label class="share">{ ui.share }
                <input type="text" readonly=true data-testid="share-link" ref={edges.share_field.clone()}
                    onfocus={on_share_focus} />
            </label>
        </section>
    }
}
