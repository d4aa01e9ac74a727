//! An embed's slide view (`view="slide"`, the `<idempotency-lab>` element's default): what fits
//! a slide's box, whatever its size. The page's own workspace, which the package's `embed.css`
//! lays out for the box: the diagram around the current step with what waits below it (each
//! pending item's fault buttons), and the invariants, one line each; above them
//! the chrome the embed's `controls` asks for: none, the step bar (the page's run controls,
//! of which the package's `embed.css` shows reset, back, step, play and the position) or all
//! of them with the pattern switches. The box's size sets the type (`embed.css`, by container
//! query units): nothing here reads a layout.

use yew::prelude::*;

use crate::app::Edges;
use crate::app::controls::{pattern_switches, run_controls};
use crate::app::view::{banners, caption, workspace};
use crate::embed::{Controls, Embedding};
use crate::page::PageState;

/// The slide: its chrome, the caption, the diagram and the invariants.
pub fn slide(state: &UseReducerHandle<PageState>, edges: &Edges, embed: &Embedding) -> Html {
    let chrome = match embed.controls {
        Controls::None => Html::default(),
        Controls::Step => run_controls(state, edges),
        Controls::Full => html! {
            <div class="slide-chrome">{ pattern_switches(state, edges) }{ run_controls(state, edges) }</div>
        },
    };
    let screen = state.screen();
    html! {
        <main class={classes!(
                "lab",
                "embed-slide",
                embed.controls.class(),
                embed.presenter.then_some("embed-presenter"),
            )} data-testid="app" ref={edges.root.clone()} lang={state.language.code()}>
            { banners(state, edges) }
            { chrome }
            if embed.controls != Controls::None {
                { caption(state, &screen) }
            }
            { workspace(state, edges, &screen) }
        </main>
    }
}
