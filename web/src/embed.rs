//! The embeddable view: `mount(element, options)` renders the page's own Yew view ([`App`])
//! into any element of any page, as the package's `<idempotency-lab>` custom element does for
//! each of its instances. Each embed is its own Yew app with its own state: it starts from
//! its options (a lesson, a mode, a step, a view, a language, presenter mode), never from the
//! page's address, and it writes neither the address nor local storage nor `<html lang>`, and
//! takes no keyboard shortcuts from the document, so several embeds on one page (naive beside
//! idempotent on one slide) share nothing and leave the host page alone.

use std::rc::Rc;

use idempotency_lab::view::Language;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::api::{Lab, LabError, convert};
use crate::app::App;
use crate::state::{FIRST_SCENARIO, LabState};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What an embed shows: the diagram with its controls, the naive-vs-idempotent comparison, or the whole page. */
export type EmbedView = "diagram" | "compare" | "full";

/** Options of `mount`, as the `<idempotency-lab>` element's attributes give them. */
export interface MountOptions {
  /** A built-in lesson's id (default the page's first lesson). */
  lesson?: string;
  /** The twin of the lesson's focus patterns (default naive). */
  mode?: Mode;
  /** The step shown first (default 0). */
  step?: number;
  /** What shows (default "full"). */
  view?: EmbedView;
  /** The language of the labels and the lesson: "en" (default) or "ru". */
  lang?: string;
  /** Presenter mode: large type for a projector. */
  presenter?: boolean;
}
"#;

/// What an embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedView {
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
            EmbedView::Diagram => "embed-diagram",
            EmbedView::Compare => "embed-compare",
            EmbedView::Full => "embed-full",
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
    /// Its language.
    pub language: Language,
    /// Presenter mode.
    pub presenter: bool,
}

impl PartialEq for Embedding {
    /// An embedding is its mount: two are the same only if they are one.
    fn eq(&self, other: &Embedding) -> bool {
        std::ptr::eq(self, other)
    }
}

/// A mounted embed; `unmount()` removes it from its element.
#[wasm_bindgen]
pub struct Embed {
    handle: Option<yew::AppHandle<App>>,
}

#[wasm_bindgen]
impl Embed {
    /// Removes the embed's view from its element and ends its app.
    pub fn unmount(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
    }
}

/// Renders the lab's view into `element` with `options`; a bad option is a `LabError` naming
/// it (`options.lesson`, `options.step`), and the element is left untouched.
#[wasm_bindgen]
pub fn mount(
    #[wasm_bindgen(unchecked_param_type = "Element")] element: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MountOptions")] options: JsValue,
) -> Result<Embed, JsValue> {
    let element = element.dyn_into::<web_sys::Element>().map_err(|value| {
        LabError::argument(
            "element",
            format!("must be a DOM element, not {}", convert::describe(&value)),
        )
    })?;
    let embedding = embedding(&options)?;
    install_console_panic_hook();
    let props = crate::app::AppProps { presenter: false, embed: Some(Rc::new(embedding)) };
    let handle = yew::Renderer::<App>::with_root_and_props(element, props).render();
    Ok(Embed { handle: Some(handle) })
}

/// Reads `options` into the embed's first state.
fn embedding(options: &JsValue) -> Result<Embedding, LabError> {
    let read = |key: &str| convert::option(options, "options", key);
    let lesson = match read("lesson")? {
        value if value.is_undefined() || value.is_null() => JsValue::from_str(FIRST_SCENARIO),
        value => value,
    };
    let mut lab = Lab::lesson(lesson).map_err(|_| {
        LabError::argument(
            "options.lesson",
            "must be the id of a built-in lesson (see Lab.lessons())",
        )
    })?;
    let mode = read("mode")?;
    if !mode.is_undefined() && !mode.is_null() {
        lab.set_mode_checked(&mode, "options.mode")?;
    }
    let step = read("step")?;
    if !step.is_undefined() && !step.is_null() {
        lab.step_to_checked(&step, "options.step")?;
    }
    let view = match read("view")? {
        value if value.is_undefined() || value.is_null() => String::from("full"),
        value => convert::string(&value, "options.view")?,
    };
    let view = match view.as_str() {
        "full" => EmbedView::Full,
        "diagram" => EmbedView::Diagram,
        "compare" => EmbedView::Compare,
        other => {
            return Err(LabError::argument(
                "options.view",
                format!("must be \"diagram\", \"compare\" or \"full\", not {other:?}"),
            ));
        }
    };
    let language = match read("lang")? {
        value if value.is_undefined() || value.is_null() => Language::default(),
        value => convert::string(&value, "options.lang")?
            .parse::<Language>()
            .map_err(|error| LabError::argument("options.lang", error))?,
    };
    let presenter = read("presenter")?.is_truthy();
    let mut initial = lab.into_state();
    initial.compare_open = view == EmbedView::Compare;
    Ok(Embedding { initial, view, language, presenter })
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
