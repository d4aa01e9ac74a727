//! The fault buttons of the diagram's pending items (their words are the core's,
//! `view::fault_button_text`). Which faults apply to which item is the core's decision
//! (`view::pending`); a click dispatches the same core `Action` the scheduler would take, as
//! the learner's choice (`Simulation::step_with`), so the run replays and the link carries it.

use idempotency_lab::sim::Action;
use idempotency_lab::view::{Language, action_text, fault_button_text};
use yew::prelude::*;

/// One button that applies `action` through `on_inject`. A fault carries its class
/// (`data-fault="F1"`) in a badge and its description in the tooltip; letting time pass is
/// `data-testid="advance-clock"`.
pub fn fault_button(action: &Action, language: Language, on_inject: &Callback<Action>) -> Html {
    let class = action.fault_class();
    let title = match class {
        Some(class) => format!(
            "{class}: {} ({})",
            class.description_in(language),
            action_text(action, language)
        ),
        None => action_text(action, language),
    };
    let label = fault_button_text(action, language);
    let testid = matches!(action, Action::AdvanceClock { .. }).then_some("advance-clock");
    let onclick = {
        let on_inject = on_inject.clone();
        let action = action.clone();
        move |_: MouseEvent| on_inject.emit(action.clone())
    };
    html! {
        <button type="button" class={classes!("fault", class.is_none().then_some("clock"))}
            data-fault={class.map(|class| class.to_string())} data-testid={testid} {title} {onclick}>
            if let Some(class) = class {
                <span class="fault-class">{ class.to_string() }</span>{ " " }
            }
            { label }
        </button>
    }
}
