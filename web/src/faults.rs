//! The fault buttons of the diagram's pending items: the wording of each button and the
//! button itself. Which faults apply to which item is the core's decision
//! (`view::pending`); a click dispatches the same core `Action` the scheduler would take, as
//! the learner's choice (`Simulation::step_with`), so the run replays and the link carries it.

use idempotency_lab::sim::{Action, HoldRelease};
use yew::prelude::*;

use crate::labels::action_label;

/// The short label of a learner's action on a pending item (its target is the item, so the
/// label does not repeat it).
pub fn button_label(action: &Action) -> String {
    match action {
        Action::DuplicateMessage { .. } => "Duplicate".to_owned(),
        Action::DeliverConcurrently { instance, .. } => {
            format!("Race: also to {}", instance.lane_name())
        }
        Action::HoldMessage { until: HoldRelease::Ticks { ticks }, .. } => {
            format!("Hold back {ticks} ticks")
        }
        Action::HoldMessage { until: HoldRelease::RequestAnswered { request }, .. } => {
            format!("Hold until request {} is answered", request.0)
        }
        Action::DuplicateAfterRetention { .. } => "Again after retention".to_owned(),
        Action::CrashConsumerAfterCommit { .. } => "Crash after commit".to_owned(),
        Action::CrashConsumerBeforeCommit { .. } => "Crash before commit".to_owned(),
        Action::LoseResponse { .. } => "Lose this answer".to_owned(),
        Action::CrashApi { .. } => "Crash the API".to_owned(),
        Action::DoubleSubmit { .. } => "Double submit".to_owned(),
        Action::SendWithKeyOf { key_of, .. } => format!("Reuse the key of request {}", key_of.0),
        Action::RetryWithNewKey { .. } => "Retry with a new key".to_owned(),
        Action::CrashRelay => "Crash after publish".to_owned(),
        Action::AdvanceClock { ticks } => format!("Let {ticks} ticks pass"),
        other => action_label(other),
    }
}

/// One button that applies `action` through `on_inject`. A fault carries its class
/// (`data-fault="F1"`) in a badge and its description in the tooltip; letting time pass is
/// `data-testid="advance-clock"`.
pub fn fault_button(action: &Action, on_inject: &Callback<Action>) -> Html {
    let class = action.fault_class();
    let title = match class {
        Some(class) => format!("{class}: {} ({})", class.description(), action_label(action)),
        None => action_label(action),
    };
    let label = button_label(action);
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
