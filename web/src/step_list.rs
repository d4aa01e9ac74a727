//! The run as a vertical list of steps: the diagram's text alternative, and the diagram itself
//! on a narrow screen (below [`NARROW_QUERY`]'s width), where lanes side by side cannot be
//! read.
//!
//! It renders the same screen model as the diagram (`view::Screen`): each step lists what the
//! diagram draws in its band, in words: an arrow as `Client → API: POST /orders`, a mark as
//! `Consumer A: ✗ crash before commit`, and after them the step's decisive moments, each a line
//! with its headline and why in the page's language.
//! Under the steps, on a narrow screen, what waits now with the same fault buttons as the
//! diagram's pending part. Beside the diagram on a wide screen the list is
//! there for screen readers only (visually hidden, without buttons: the diagram's pending part
//! has them), and the drawing is hidden from them.

use idempotency_lab::sim::Action;
use idempotency_lab::view::{
    DiagramItem, DrawnPending, Language, MarkKind, Moment, PendingItem, ScreenStep, drawn_pending,
};
use yew::prelude::*;

use crate::diagram::{moment_name, pending_left_out};
use crate::faults::fault_button;
use crate::labels::UiText;

/// The media query under which the page shows the list instead of the diagram.
pub const NARROW_QUERY: &str = "(max-width: 700px)";

/// Props of [`StepList`].
#[derive(Properties, PartialEq)]
pub struct StepListProps {
    /// The page's labels.
    pub ui: &'static UiText,
    /// The steps listed, each with its items and moments: the screen's window, ending at the
    /// cursor.
    pub steps: Vec<ScreenStep>,
    /// What the empty list says, when no step is shown yet.
    pub empty: Option<String>,
    /// The language of the moments' lines.
    pub language: Language,
    /// How many steps before them are not listed.
    pub hidden: usize,
    /// Lists more of the hidden steps.
    pub on_reveal: Callback<()>,
    /// What waits at the cursor, with the faults that apply to each item.
    pub pending: Vec<PendingItem>,
    /// Applies a fault (or lets time pass) chosen on a pending item.
    pub on_inject: Callback<Action>,
    /// Shown on screen, with the pending items and their buttons (a narrow screen); otherwise
    /// the list is for screen readers only, beside the diagram.
    pub visible: bool,
}

/// The steps of the run as a list.
#[function_component(StepList)]
pub fn step_list(props: &StepListProps) -> Html {
    let ui = props.ui;
    let scroller = use_node_ref();
    let current = props.steps.last().map(|step| step.step);
    {
        let scroller = scroller.clone();
        use_effect_with((current, props.visible), move |_| {
            if let Some(element) = scroller.cast::<web_sys::Element>() {
                element.set_scroll_top(element.scroll_height());
            }
        });
    }
    let on_earlier = {
        let on_reveal = props.on_reveal.clone();
        Callback::from(move |_: MouseEvent| on_reveal.emit(()))
    };
    let all_pending = use_state(|| false);
    let drawn = props.visible.then(|| drawn_pending(&props.pending, *all_pending));
    html! {
        <section class={classes!("step-list", (!props.visible).then_some("visually-hidden"))}
            data-testid="step-list" aria-label={ui.step_list}>
            // A scrolling box is focusable, so that the keyboard can scroll it too.
            <div class="step-list-scroll" ref={scroller} tabindex={props.visible.then_some("0")}>
                if props.hidden > 0 && props.visible {
                    <button type="button" class="earlier" data-testid="step-list-earlier" onclick={on_earlier}>
                        { format!("▲ {} {}", ui.earlier_steps, props.hidden) }
                    </button>
                }
                if let Some(empty) = &props.empty {
                    <p class="step-list-empty">{ empty.clone() }</p>
                }
                <ol class="step-list-steps">
                    { for props.steps.iter().map(|step| html! {
                        <StepEntry key={step.step} step={step.clone()} {ui} language={props.language} />
                    }) }
                </ol>
            </div>
            if let Some(drawn) = &drawn {
                { pending_list(drawn, pending_left_out(drawn, &all_pending, props.language), &props.on_inject, ui, props.language) }
            }
        </section>
    }
}

/// Props of [`StepEntry`].
#[derive(Properties, PartialEq)]
struct StepEntryProps {
    step: ScreenStep,
    ui: &'static UiText,
    language: Language,
}

/// One step: its number and tick, its action, and what the diagram draws for it, its moments
/// last. Keyed by its number, so a step that moves the window adds one entry and removes one,
/// and an entry whose step did not change is not rendered again.
#[function_component(StepEntry)]
fn step_entry(props: &StepEntryProps) -> Html {
    let StepEntryProps { step, ui, language } = props;
    let (ui, language) = (*ui, *language);
    let ScreenStep { items, moments, current, .. } = step;
    let current = *current;
    html! {
        <li class={classes!("step-entry", current.then_some("current"))} data-step={step.step.to_string()}
            aria-current={current.then_some("step")}>
            <p class="step-entry-head">
                <span class="step-entry-number">{ format!("{} {}", ui.step_caption.0, step.step) }</span>
                <span class="step-entry-tick">{ format!("{} {}", ui.step_caption.1, step.tick) }</span>
                <span class="step-entry-action">{ step.action.clone() }</span>
            </p>
            if !items.is_empty() || !moments.is_empty() {
                <ul class="step-entry-items">
                    { for items.iter().map(|item| item_entry(item, language)) }
                    { for moments.iter().map(|moment| moment_entry(moment, language)) }
                </ul>
            }
        </li>
    }
}

/// One arrow or mark of the diagram, in words.
fn item_entry(item: &DiagramItem, language: Language) -> Html {
    match item {
        DiagramItem::Arrow { from, to, label, detail, .. } => html! {
            <li class="step-item arrow-item" title={detail.clone()}>
                <span class="lanes">{ format!("{} → {}", from.name_in(language), to.name_in(language)) }</span>{ ": " }
                <span class="label">{ label.clone() }</span>
            </li>
        },
        DiagramItem::Mark { lane, kind, label, detail } => {
            let alarm = matches!(
                kind,
                MarkKind::Crash | MarkKind::LostResponse | MarkKind::Failed | MarkKind::Violation
            );
            html! {
                <li class={classes!("step-item", "mark-item", alarm.then_some("alarm"))} title={detail.clone()}>
                    <span class="lanes">{ lane.name_in(language) }</span>{ ": " }
                    <span class="label">{ label.clone() }</span>
                </li>
            }
        }
    }
}

/// One decisive moment, in words: its lane, its headline and why it matters.
fn moment_entry(moment: &Moment, language: Language) -> Html {
    html! {
        <li class="step-item moment" data-moment={moment_name(moment.kind)}>
            <span class="lanes">{ moment.lane.name_in(language) }</span>{ ": ✓ " }
            <span class="moment-headline">{ moment.kind.headline(language) }</span>{ " — " }
            <span class="moment-why">{ moment.kind.why(language) }</span>
        </li>
    }
}

/// What waits now, one card per item with its fault buttons (as the diagram's pending part).
fn pending_list(
    drawn: &DrawnPending,
    left_out: Html,
    on_inject: &Callback<Action>,
    ui: &UiText,
    language: Language,
) -> Html {
    let pending = &drawn.items;
    html! {
        <section class="step-list-pending" data-testid="step-list-pending" aria-label={ui.waiting_now}>
            <h3 class="pending-title">{ if pending.is_empty() { ui.nothing_waits } else { ui.waiting_now } }</h3>
            { left_out }
            <ul class="pending-rows">
                { for pending.iter().map(|item| {
                    let lane = item.lane().map(|lane| lane.name_in(language)).unwrap_or_else(|| ui.clock.to_owned());
                    html! {
                        <li class={classes!("pending-card", item.lane().is_none().then_some("clock"))}
                            data-testid={format!("list-pending-{}", item.target)}>
                            <span class="pending-lane">{ lane.clone() }</span>
                            <span class="pending-label" title={item.detail.clone()}>{ item.label.clone() }</span>
                            if !item.actions.is_empty() {
                                <span class="pending-actions" role="group" aria-label={format!("{} {lane}: {}", ui.faults_on, item.label)}>
                                    { for item.actions.iter().map(|action| fault_button(action, language, on_inject)) }
                                </span>
                            }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
