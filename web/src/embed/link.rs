//! What ties a mounted embed's script surface to its Yew app: [`EmbedLink`] holds the state the
//! embed shows and its reducer's dispatcher, so `Embed.step()` runs the `Lab` method over that
//! state and hands the result to the reducer ([`PageAction::ShowLab`]); and
//! [`use_embed_link`], the app's effect that keeps the link's state current (a click, a key, a
//! play tick) and tells the embed's `onEvent` of each step and each invariant that changes.

use std::cell::RefCell;
use std::rc::Rc;

use idempotency_lab::invariants::InvariantId;
use serde_json::json;
use yew::prelude::*;

use crate::api::convert;
use crate::embed::Embedding;
use crate::page::{PageAction, PageState};
use crate::state::LabState;

/// A lab state handed to the reducer by script: equal only to itself.
#[derive(Clone, Debug)]
pub struct ShownLab(pub Rc<LabState>);

impl PartialEq for ShownLab {
    fn eq(&self, other: &ShownLab) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The state an embed shows, and how to show another.
pub struct EmbedLink {
    shown: RefCell<Rc<LabState>>,
    dispatcher: RefCell<Option<UseReducerDispatcher<PageState>>>,
    /// A state script gave before the app rendered first, to hand over when it does.
    unsent: RefCell<bool>,
}

impl std::fmt::Debug for EmbedLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbedLink").field("cursor", &self.shown.borrow().cursor).finish()
    }
}

impl EmbedLink {
    /// A link over the embed's first state.
    pub fn new(initial: Rc<LabState>) -> EmbedLink {
        EmbedLink {
            shown: RefCell::new(initial),
            dispatcher: RefCell::new(None),
            unsent: RefCell::new(false),
        }
    }

    /// The state shown (or about to be: what script gave last).
    pub fn shown(&self) -> Rc<LabState> {
        self.shown.borrow().clone()
    }

    /// Shows `lab`: through the reducer, or as soon as the app has one.
    pub fn show(&self, lab: Rc<LabState>) {
        *self.shown.borrow_mut() = lab.clone();
        match &*self.dispatcher.borrow() {
            Some(dispatcher) => dispatcher.dispatch(PageAction::ShowLab(ShownLab(lab))),
            None => *self.unsent.borrow_mut() = true,
        }
    }

    /// The app rendered `lab` with `dispatcher`.
    fn rendered(&self, dispatcher: UseReducerDispatcher<PageState>, lab: Rc<LabState>) {
        if self.unsent.replace(false) {
            dispatcher.dispatch(PageAction::ShowLab(ShownLab(self.shown())));
        } else {
            *self.shown.borrow_mut() = lab;
        }
        *self.dispatcher.borrow_mut() = Some(dispatcher);
    }
}

/// What the events compare from one render to the next: the step shown, the steps taken, and
/// the invariants broken (bit `i` for `InvariantId::ALL[i]`).
#[derive(Clone, Copy, PartialEq)]
struct Seen {
    cursor: usize,
    steps: usize,
    broken: u8,
}

/// The bit of `invariant` in [`Seen::broken`].
fn bit(invariant: InvariantId) -> u8 {
    let index = InvariantId::ALL.iter().position(|&id| id == invariant).unwrap_or(0);
    1 << index
}

/// An embed's effect after each render: its link follows the state shown, and its `onEvent`
/// hears of a step moved (`lab-step`) and of each invariant that broke or holds again
/// (`lab-invariant`). Nothing for the page itself.
#[hook]
pub fn use_embed_link(state: &UseReducerHandle<PageState>, embed: Option<Rc<Embedding>>) {
    let seen = use_mut_ref(|| None::<Seen>);
    let dispatcher = state.dispatcher();
    let lab = state.lab.clone();
    let language = state.language;
    use_effect(move || {
        let Some(embed) = embed else { return };
        embed.link.rendered(dispatcher, lab.clone());
        let now = Seen {
            cursor: lab.cursor,
            steps: lab.sim.steps().len(),
            broken: lab
                .world
                .violations()
                .iter()
                .fold(0, |mask, violation| mask | bit(violation.invariant)),
        };
        let before = seen.replace(Some(now));
        let (Some(before), Some(on_event)) = (before, embed.on_event.as_ref()) else { return };
        let tell = |kind: &str, detail: serde_json::Value| {
            let _ = on_event.call2(
                &wasm_bindgen::JsValue::NULL,
                &kind.into(),
                &convert::to_js(&detail),
            );
        };
        if (before.cursor, before.steps) != (now.cursor, now.steps) {
            let ended = !lab.can_step_forward();
            tell("lab-step", json!({ "step": now.cursor, "steps": now.steps, "ended": ended }));
        }
        for invariant in InvariantId::ALL {
            let (held, held_before) =
                (now.broken & bit(invariant) == 0, before.broken & bit(invariant) == 0);
            if held != held_before {
                tell(
                    "lab-invariant",
                    json!({ "id": invariant.to_string(), "held": held, "step": now.cursor,
                        "title": invariant.title_in(language) }),
                );
            }
        }
    });
}
