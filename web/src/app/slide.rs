//! An embed's slide view (`view="slide"`, the `<idempotency-lab>` element's default): what fits
//! a slide's box, whatever its size. The diagram around the current step with what waits
//! below it (each pending item's fault buttons), and the invariants, one line each; above them
//! the chrome the embed's `controls` asks for: none, the step bar (the page's run controls,
//! of which the package's `embed.css` shows reset, back, step, play and the position) or all
//! of them with the pattern switches. The box's size sets the type (`embed.css`, by container
//! query units): nothing here reads a layout.

use idempotency_lab::view::{breaking_steps, lanes, moments, pending_in};
use yew::prelude::*;

use crate::app::Edges;
use crate::app::controls::{pattern_switches, run_controls};
use crate::app::view::{banners, caption, to_lab};
use crate::diagram::SequenceDiagram;
use crate::embed::{Controls, Embedding};
use crate::invariants::InvariantsPanel;
use crate::page::{PageAction, PageState};
use crate::state::Action;

/// How many steps up to the current one the slide draws: enough to tell the story of the
/// step, few enough to draw fast on every step.
pub const SLIDE_STEPS: usize = 12;

/// The slide: its chrome, the caption, the diagram and the invariants.
pub fn slide(state: &UseReducerHandle<PageState>, edges: &Edges, embed: &Embedding) -> Html {
    let chrome = match embed.controls {
        Controls::None => Html::default(),
        Controls::Step => run_controls(state, edges),
        Controls::Full => html! {
            <div class="slide-chrome">{ pattern_switches(state, edges) }{ run_controls(state, edges) }</div>
        },
    };
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
                { caption(state) }
            }
            <div class="slide-body">
                { slide_diagram(state, edges) }
                { slide_invariants(state, edges) }
            </div>
        </main>
    }
}

/// The last [`SLIDE_STEPS`] steps up to the cursor, and what waits now.
fn slide_diagram(state: &PageState, edges: &Edges) -> Html {
    let (lab, language) = (&state.lab, state.language);
    let shown = lab.shown_steps();
    let first = shown.len().saturating_sub(SLIDE_STEPS);
    let drawn = shown.get(first..).unwrap_or_default().to_vec();
    let drawn_moments: Vec<_> =
        moments(shown).into_iter().filter(|moment| moment.step > first).collect();
    html! {
        <SequenceDiagram lanes={lanes(lab.sim.scenario())} steps={drawn} presenter=true
            moments={drawn_moments} {language} hidden={first} on_reveal={Callback::from(|()| ())}
            on_select={to_lab(edges, Action::SeekTo)} pending={pending_in(&lab.world, language)}
            on_inject={to_lab(edges, Action::Inject)} />
    }
}

/// The invariants, as the page lists them; the slide's styles make each one line (a badge in
/// a small box) and leave out the sentences and the jumps.
fn slide_invariants(state: &PageState, edges: &Edges) -> Html {
    let lab = &state.lab;
    let dispatcher = edges.dispatcher.clone();
    let on_jump = Callback::from(move |step| dispatcher.dispatch(PageAction::JumpTo(step)));
    html! {
        <InvariantsPanel violations={lab.world.violations()} breaks={breaking_steps(lab.shown_steps())}
            {on_jump} language={state.language} />
    }
}
