//! The fault buttons: for each pending request, message, consumer or relay, the faults the
//! world allows on it now (`World::enabled_fault_actions`). A click applies the fault as the
//! learner's choice (`Simulation::step_with`), so the run replays and the link carries it.

use std::collections::BTreeMap;

use idempotency_lab::sim::{Action, World};
use yew::prelude::*;

use crate::labels::{action_label, fault_target};

/// Props of [`FaultPanel`].
#[derive(Properties, PartialEq)]
pub struct FaultPanelProps {
    /// The world at the cursor.
    pub world: World,
    /// Applies a fault.
    pub on_inject: Callback<Action>,
}

/// The faults that can be injected now, grouped by what they hit.
#[function_component(FaultPanel)]
pub fn fault_panel(props: &FaultPanelProps) -> Html {
    let mut groups: BTreeMap<String, Vec<Action>> = BTreeMap::new();
    for action in props.world.enabled_fault_actions() {
        groups.entry(fault_target(&action)).or_default().push(action);
    }
    html! {
        <section class="faults" aria-label="Inject a fault">
            <h2>{ "Inject a fault" }</h2>
            if groups.is_empty() {
                <p class="muted">{ "Nothing pending can be hit by a fault right now. Step on." }</p>
            }
            { for groups.into_iter().map(|(target, actions)| html! {
                <div class="fault-group">
                    <span class="target">{ target }</span>
                    { for actions.into_iter().map(|action| {
                        let class = action.fault_class().map(|class| class.to_string()).unwrap_or_default();
                        let title = action.fault_class().map(|class| class.description()).unwrap_or_default();
                        let label = action_label(&action);
                        let on_inject = props.on_inject.clone();
                        html! {
                            <button class="fault" data-fault={class.clone()} {title}
                                onclick={move |_| on_inject.emit(action.clone())}>
                                <span class="fault-class">{ class }</span>{ " " }{ label }
                            </button>
                        }
                    }) }
                </div>
            }) }
        </section>
    }
}
