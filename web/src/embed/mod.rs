//! The embeddable view: `mount(element, options)` renders the page's own Yew view ([`App`])
//! into any element of any page, as the package's `<idempotency-lab>` custom element does for
//! each of its instances (inside its shadow root). Each embed is its own Yew app with its own
//! state: it starts from its options (a lesson or a share link, a seed, the modes, a step, a
//! view, a language, presenter mode, autoplay), never from the page's address, and it writes
//! neither the address nor local storage nor `<html lang>`, and takes no keyboard shortcuts
//! from the document, so several embeds on one page (naive beside idempotent on one slide)
//! share nothing and leave the host page alone.
//!
//! The returned [`Embed`] drives what it shows from script (`step`, `back`, `stepTo`,
//! `inject`, `reset`, `lab`) through the same `Lab` methods as the API, over the state the
//! embed shows ([`link`]); the embed tells its `onEvent` callback of each step and each
//! invariant that breaks or holds again.

mod link;
mod options;

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

pub use link::{EmbedLink, ShownLab, use_embed_link};

use crate::api::{ErrorKind, Lab, LabError, convert};
use crate::app::App;
use crate::state::LabState;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What an embed shows: the slide (the diagram around the current step, the pending item's
 * faults and the invariants, sized to its box), the diagram with the page's controls, the
 * naive-vs-idempotent comparison, or the whole page. */
export type EmbedView = "slide" | "diagram" | "compare" | "full";

/** The chrome of the slide view: none (keys and methods only), step (back, step, play, reset
 * and the position) or full (also the pattern switches, the speed and the slider). */
export type EmbedControls = "none" | "step" | "full";

/** What an embed's step event tells. */
export interface LabStepDetail {
  /** The step shown: 0 is the start. */
  step: number;
  /** The steps the run has taken so far. */
  steps: number;
  /** Whether the run has ended at the step shown. */
  ended: boolean;
}

/** What an embed's invariant event tells: an invariant broke, or holds again. */
export interface LabInvariantDetail {
  id: InvariantId;
  held: boolean;
  /** The step shown when it changed. */
  step: number;
  title: string;
}

/** Options of `mount`, as the `<idempotency-lab>` element's attributes give them. */
export interface MountOptions {
  /** A built-in lesson's id (default the page's first lesson). */
  lesson?: LessonId;
  /** A share link's fragment (`#v=2&s=...`), opened instead of a lesson. */
  run?: string;
  /** The run's seed (default the lesson's, 0). */
  seed?: number | bigint;
  /** The twin of the lesson's focus patterns (default naive, as `Lab.lesson`). */
  mode?: Mode;
  /** The twin of each pattern named, after `mode`: `{ p1: "idempotent", p4: "naive" }`. */
  modes?: Partial<Record<PatternId, Mode>>;
  /** The step shown first (default 0). */
  step?: number;
  /** What shows (default "full"; the element's default is "slide"). */
  view?: EmbedView;
  /** The slide view's chrome (default "step"). */
  controls?: EmbedControls;
  /** The language of the labels and the lesson (default "en"). */
  lang?: Language;
  /** Presenter mode: large type for a projector. */
  presenter?: boolean;
  /** Plays the run on its own from the step shown. */
  autoplay?: boolean;
  /** Told of each step (`"lab-step"`) and each invariant that changes (`"lab-invariant"`). */
  onEvent?: (type: "lab-step" | "lab-invariant", detail: LabStepDetail | LabInvariantDetail) => void;
}
"#;

/// What an embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedView {
    /// The diagram around the current step, the pending item's faults and the invariants,
    /// filling the element's box, with the chrome [`Controls`] asks for.
    Slide,
    /// The controls and the sequence diagram with its pending items and the invariants.
    Diagram,
    /// The controls and the naive-vs-idempotent comparison.
    Compare,
    /// The whole page.
    Full,
}

impl EmbedView {
    /// The class on the embed's root, which `style.css` of the package reads.
    pub fn class(self) -> &'static str {
        match self {
            EmbedView::Slide => "embed-slide",
            EmbedView::Diagram => "embed-diagram",
            EmbedView::Compare => "embed-compare",
            EmbedView::Full => "embed-full",
        }
    }
}

/// The slide view's chrome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controls {
    /// No buttons: the element's methods and keys drive it.
    None,
    /// Back, step, play, reset and the position.
    Step,
    /// The page's run controls and pattern switches.
    Full,
}

impl Controls {
    /// The class on the slide's root.
    pub fn class(self) -> &'static str {
        match self {
            Controls::None => "controls-none",
            Controls::Step => "controls-step",
            Controls::Full => "controls-full",
        }
    }
}

/// How an embed starts: its first state and how it shows.
#[derive(Debug)]
pub struct Embedding {
    /// The state it opens with.
    pub initial: LabState,
    /// What it shows.
    pub view: EmbedView,
    /// The slide view's chrome.
    pub controls: Controls,
    /// Its language.
    pub language: idempotency_lab::view::Language,
    /// Presenter mode.
    pub presenter: bool,
    /// Told of steps and invariants (`onEvent`).
    pub on_event: Option<js_sys::Function>,
    /// What script drives: the state shown and the embed's dispatcher.
    pub link: Rc<EmbedLink>,
}

impl PartialEq for Embedding {
    /// An embedding is its mount: two are the same only if they are one.
    fn eq(&self, other: &Embedding) -> bool {
        std::ptr::eq(self, other)
    }
}

/// A mounted embed; `unmount()` removes it from its element. Its methods drive what it shows
/// as the page's buttons do; after `unmount()` each is a `LabError` of kind `Unmounted`.
#[wasm_bindgen]
pub struct Embed {
    handle: Option<yew::AppHandle<App>>,
    link: Rc<EmbedLink>,
}

impl Embed {
    /// The state shown, unless the embed was unmounted.
    fn shown(&self) -> Result<Rc<LabState>, LabError> {
        match self.handle {
            Some(_) => Ok(self.link.shown()),
            None => Err(LabError::new(ErrorKind::Unmounted, "this embed was unmounted")),
        }
    }

    /// Runs `change` on a `Lab` over the state shown, then shows what it made (if anything).
    fn drive<T>(&self, change: impl FnOnce(&mut Lab) -> Result<T, JsValue>) -> Result<T, JsValue> {
        let shown = self.shown()?;
        let mut lab = Lab::over(shown.clone());
        let result = change(&mut lab)?;
        let next = lab.shared_state();
        if !Rc::ptr_eq(&shown, &next) {
            self.link.show(next);
        }
        Ok(result)
    }
}

#[wasm_bindgen]
impl Embed {
    /// Removes the embed's view from its element and ends its app.
    pub fn unmount(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
    }

    /// The step shown: 0 is the start.
    #[wasm_bindgen(getter)]
    pub fn cursor(&self) -> usize {
        self.link.shown().cursor
    }

    /// One step forward; `false` when the run has ended there.
    pub fn step(&self) -> Result<bool, JsValue> {
        self.drive(|lab| lab.step())
    }

    /// One step back (nothing at the start); returns the step shown.
    pub fn back(&self) -> Result<usize, JsValue> {
        self.drive(|lab| {
            lab.step_back()?;
            Ok(lab.cursor())
        })
    }

    /// Shows the state after `step` steps, taking new steps if needed; returns the step
    /// reached.
    #[wasm_bindgen(js_name = stepTo)]
    pub fn step_to(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] step: JsValue,
    ) -> Result<usize, JsValue> {
        self.drive(|lab| lab.step_to(step))
    }

    /// Applies a fault to a waiting item, as `Lab.inject` does.
    pub fn inject(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] item: JsValue,
        #[wasm_bindgen(unchecked_param_type = "FaultClass | \"clock\" | LabAction")] fault: JsValue,
    ) -> Result<(), JsValue> {
        self.drive(|lab| lab.inject(item, fault))
    }

    /// The run again from its start, keeping its choices: the page's Reset.
    pub fn reset(&self) -> Result<(), JsValue> {
        self.drive(|lab| Ok(lab.reset()?))
    }

    /// A `Lab` over what the embed shows now: a copy, which moves without moving the embed.
    pub fn lab(&self) -> Result<Lab, JsValue> {
        Ok(Lab::over(self.shown()?))
    }
}

/// Renders the lab's view into `element` with `options`; a bad option is a `LabError` naming
/// it (`options.lesson`, `options.step`), and the element is left untouched.
#[wasm_bindgen]
pub fn mount(
    #[wasm_bindgen(unchecked_param_type = "Element | ShadowRoot")] element: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MountOptions")] options: JsValue,
) -> Result<Embed, JsValue> {
    let element = element.dyn_into::<web_sys::Element>().map_err(|value| {
        LabError::argument(
            "element",
            format!("must be a DOM element, not {}", convert::describe(&value)),
        )
    })?;
    let embedding = options::embedding(&options)?;
    install_console_panic_hook();
    let link = embedding.link.clone();
    let props = crate::app::AppProps { presenter: false, embed: Some(Rc::new(embedding)) };
    let handle = yew::Renderer::<App>::with_root_and_props(element, props).render();
    Ok(Embed { handle: Some(handle), link })
}

/// An embed's panic goes to the console (the host page keeps its body: no banner).
fn install_console_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            gloo::console::error!(format!("Idempotency Lab crashed: {info}"));
        }));
    });
}
