//! The page's root component: a shell that wires the one state ([`PageState`], its reducer in
//! `crate::page`) to the effects at its edges (`edges.rs`: the play timer, the keys, the
//! address, storage, files, the focus) and to the components that render it (`view.rs`,
//! `controls.rs`). It decides nothing: the reducer does, over the core.

mod controls;
mod edges;
mod slide;
mod start;
mod view;

use std::rc::Rc;

use yew::prelude::*;

use crate::embed::Embedding;
use crate::opening::{FirstSlice, Openings};
use crate::page::PageState;

/// Props of [`App`]: none for the page; an embed's start and settings for an embed
/// (`crate::embed`), which then leaves the page's address, storage and keys alone.
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Open in the presenter view, even if the address's link does not ask for it (a link
    /// with `presenter=1` opens in it anyway).
    #[prop_or_default]
    pub presenter: bool,
    /// How the embed starts and shows; `None` for the page itself.
    #[prop_or_default]
    pub embed: Option<Rc<Embedding>>,
}

/// What the page's edges share: whether this is the page (not an embed), the reducer's
/// dispatcher, the openings of long runs, and the root element.
#[derive(Clone)]
pub struct Edges {
    /// The page itself, which owns the address, storage and the document's keys.
    pub page: bool,
    /// The one reducer's dispatcher.
    pub dispatcher: UseReducerDispatcher<PageState>,
    /// The openings of links and trace files in slices (`crate::opening`).
    pub openings: Rc<std::cell::RefCell<Openings>>,
    /// The page's root element.
    pub root: NodeRef,
    /// The share link's field, which the page fills when idle (`edges::use_address`).
    pub share_field: NodeRef,
}

/// The root of the page (or of one embed).
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    // Opening a link in slices: the rest of the address's link if its first slice did not
    // open it, handed on by the first effect.
    let openings = use_mut_ref(Openings::default);
    let first_opening = use_mut_ref(|| None::<FirstSlice>);
    let state = use_reducer(|| start::initial(props, &openings, &first_opening));
    let edges = Edges {
        page: props.embed.is_none(),
        dispatcher: state.dispatcher(),
        openings,
        root: use_node_ref(),
        share_field: use_node_ref(),
    };
    edges::use_first_opening(&edges, first_opening);
    edges::use_settings(&state, edges.page);
    edges::use_address(&state, edges.page, &edges.share_field);
    let now = edges::use_view_now(&state);
    edges::use_address_listener(&edges, &now);
    edges::use_keyboard(&edges, &now);
    edges::use_play_timer(&state, &edges);
    edges::use_browser_watch(&edges);
    edges::use_focus(&state, &edges.root);
    edges::use_jumps(&state, &edges.root);
    edges::use_build_judge(&state, &edges);
    crate::embed::use_embed_link(&state, props.embed.clone());
    let files = edges::use_files(&state, &edges);
    view::page(&state, &edges, &files, props.embed.as_deref())
}
