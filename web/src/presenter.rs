//! The presenter view's parts: the type scale (`+` and `-`, kept in the settings store), the
//! view buttons (smaller and larger type, fullscreen, the presenter switch), fullscreen through
//! the Fullscreen API, and bringing what a "go to step" names into view.
//!
//! The presenter view itself is a class on the page's root (`.lab.presenter`, see
//! `style.css`): at 1280x720 the diagram around the current step, the invariants and the
//! tables the step changed share one screen, the controls are compact, and the diagram is
//! drawn at a fixed scale ([`DIAGRAM_ZOOM`] times the type scale) so that its labels come out
//! at 20 px or more instead of shrinking to the column's width. Whether it is on is the
//! page's state ([`crate::state::LabState::presenter`]), which the share link carries.

use idempotency_lab::view::Language;
use yew::prelude::*;

use idempotency_lab::store::{RowChange, TableName, Tables};

use crate::labels::UiText;
use crate::storage;
use crate::tables::drawn_table;

/// The settings-store key of the type scale.
const TYPE_SCALE_SETTING: &str = "idempotency-lab.type-scale";

/// The type scales `+` and `-` step through, in percent; 100 is the default.
pub const TYPE_SCALES_PERCENT: [u32; 9] = [70, 80, 90, 100, 115, 130, 150, 175, 200];

/// The presenter view draws the diagram at this many pixels per unit of its drawing, times
/// the type scale: the diagram's 19-unit labels come out at 20.9 px at the default scale.
pub const DIAGRAM_ZOOM: f64 = 1.1;

/// The type scale of the page: an index into [`TYPE_SCALES_PERCENT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeScale {
    index: usize,
}

/// Larger or smaller type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeScaleAction {
    /// One step larger (`+`), up to the largest scale.
    Larger,
    /// One step smaller (`-`), down to the smallest scale.
    Smaller,
}

impl Default for TypeScale {
    fn default() -> TypeScale {
        TypeScale { index: TypeScale::DEFAULT_INDEX }
    }
}

impl TypeScale {
    /// The default scale, 100 %.
    const DEFAULT_INDEX: usize = 3;

    /// The scale kept in the settings store, or the default if none (or an unknown one) is.
    pub fn stored() -> TypeScale {
        let percent = storage::get::<u32>(TYPE_SCALE_SETTING);
        let index = TYPE_SCALES_PERCENT
            .iter()
            .position(|candidate| Some(*candidate) == percent)
            .unwrap_or(TypeScale::DEFAULT_INDEX);
        TypeScale { index }
    }

    /// The scale in percent.
    pub fn percent(self) -> u32 {
        TYPE_SCALES_PERCENT[self.index.min(TYPE_SCALES_PERCENT.len() - 1)]
    }

    /// Whether `+` can make the type larger still.
    pub fn can_grow(self) -> bool {
        self.index + 1 < TYPE_SCALES_PERCENT.len()
    }

    /// Whether `-` can make the type smaller still.
    pub fn can_shrink(self) -> bool {
        self.index > 0
    }

    /// The root's style: the scale as `--type-scale`, the diagram's pixels per unit as
    /// `--diagram-zoom`.
    pub fn style(self) -> String {
        let scale = f64::from(self.percent()) / 100.0;
        format!("--type-scale: {scale}; --diagram-zoom: {}", DIAGRAM_ZOOM * scale)
    }
}

impl TypeScale {
    /// The scale after `action` (the same at either end): part of the page's one reducer;
    /// the page stores it (`store`).
    pub fn next(self, action: TypeScaleAction) -> TypeScale {
        match action {
            TypeScaleAction::Larger if self.can_grow() => TypeScale { index: self.index + 1 },
            TypeScaleAction::Smaller if self.can_shrink() => TypeScale { index: self.index - 1 },
            TypeScaleAction::Larger | TypeScaleAction::Smaller => self,
        }
    }

    /// Keeps the scale in the settings store.
    pub fn store(self) {
        storage::set(TYPE_SCALE_SETTING, &self.percent());
    }
}

/// Puts `element` in fullscreen, or leaves fullscreen if something is in it. A browser that
/// refuses (no user gesture, fullscreen disabled) leaves the page as it is.
pub fn toggle_fullscreen(element: &NodeRef) {
    let document = gloo::utils::document();
    if document.fullscreen_element().is_some() {
        document.exit_fullscreen();
    } else if let Some(element) = element.cast::<web_sys::Element>() {
        element.request_fullscreen().ok();
    }
}

/// Whether the page (or anything in it) is in fullscreen now.
pub fn in_fullscreen() -> bool {
    gloo::utils::document().fullscreen_element().is_some()
}

/// Scrolls the smallest distance that shows every element matching one of `selectors` under
/// `root` (the first match of each), in order: a "go to step" brings the step it names, the
/// invariant and the rows the step changed into view.
pub fn bring_into_view(root: &NodeRef, selectors: &[String]) {
    let Some(root) = root.cast::<web_sys::Element>() else { return };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
    for selector in selectors {
        if let Ok(Some(element)) = root.query_selector(selector) {
            element.scroll_into_view_with_scroll_into_view_options(&options);
        }
    }
}

/// Props of [`ViewButtons`].
#[derive(Properties, PartialEq)]
pub struct ViewButtonsProps {
    /// The page's labels.
    pub ui: &'static UiText,
    /// The type scale now.
    pub scale: TypeScale,
    /// Makes the type larger or smaller.
    pub on_scale: Callback<TypeScaleAction>,
    /// Whether the presenter view is on.
    pub presenter: bool,
    /// Turns the presenter view on or off.
    pub on_presenter: Callback<()>,
    /// Whether the page is in fullscreen.
    pub fullscreen: bool,
    /// Enters or leaves fullscreen.
    pub on_fullscreen: Callback<()>,
}

/// The view's buttons: smaller and larger type, fullscreen, and the presenter switch.
#[function_component(ViewButtons)]
pub fn view_buttons(props: &ViewButtonsProps) -> Html {
    let ui = props.ui;
    let scale = |action: TypeScaleAction| {
        let on_scale = props.on_scale.clone();
        Callback::from(move |_: MouseEvent| on_scale.emit(action))
    };
    let emit = |callback: &Callback<()>| {
        let callback = callback.clone();
        Callback::from(move |_: MouseEvent| callback.emit(()))
    };
    html! {
        <span class="view-buttons" role="group" aria-label={ui.view_group}>
            <button type="button" data-testid="type-smaller" onclick={scale(TypeScaleAction::Smaller)}
                disabled={!props.scale.can_shrink()} title={ui.type_smaller.1} aria-label={ui.type_smaller.1}>
                { ui.type_smaller.0 }
            </button>
            <span class="type-scale" data-testid="type-scale" aria-live="polite">{ format!("{} %", props.scale.percent()) }</span>
            <button type="button" data-testid="type-larger" onclick={scale(TypeScaleAction::Larger)}
                disabled={!props.scale.can_grow()} title={ui.type_larger.1} aria-label={ui.type_larger.1}>
                { ui.type_larger.0 }
            </button>
            <button type="button" data-testid="fullscreen" onclick={emit(&props.on_fullscreen)}
                aria-pressed={props.fullscreen.to_string()} title={ui.fullscreen.1}>
                { ui.fullscreen.0 }
            </button>
            <button type="button" data-testid="presenter-toggle" class={classes!(props.presenter.then_some("active"))}
                onclick={emit(&props.on_presenter)} aria-pressed={props.presenter.to_string()} title={ui.presenter.1}>
                { ui.presenter.0 }
            </button>
        </span>
    }
}

/// Props of [`PresenterTables`].
#[derive(Properties, PartialEq)]
pub struct PresenterTablesProps {
    /// The committed tables to show.
    pub tables: Tables,
    /// The rows the current step changed.
    pub changes: Vec<RowChange>,
    /// The page's language.
    #[prop_or_default]
    pub language: Language,
}

/// The store's tables beside the diagram, in the presenter view: the tables the current step
/// changed first, then the stock (the shop's apples, which every lesson is about), then the
/// rest, so that what the step did is on screen with it.
#[function_component(PresenterTables)]
pub fn presenter_tables(props: &PresenterTablesProps) -> Html {
    let drawn_in_full = use_state(Vec::new);
    let touched = |table: TableName| props.changes.iter().any(|change| change.table == table);
    // Touched first, then the stock, then the rest, each in the core's order (a stable sort
    // by these ranks, without the sort's code in the page).
    let rank =
        |table: TableName| 2 * u8::from(!touched(table)) + u8::from(table != TableName::Stock);
    let order = (0..4u8).flat_map(|wanted| {
        TableName::ALL.iter().copied().filter(move |&table| rank(table) == wanted)
    });
    html! {
        // A scrolling box is focusable, so that the keyboard can scroll it too.
        <section class="tables presenter-tables" aria-label={props.language.words().labels.ui_store_tables} tabindex="0">
            { for order.map(|table| {
                drawn_table(table, &props.tables, &props.changes, &drawn_in_full, props.language)
            }) }
        </section>
    }
}
