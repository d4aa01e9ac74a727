//! The lab's one WebAssembly module, shared by the teaching page and the package
//! (`dist/pkg/`): the page's entry point ([`start_page`], which `index.html` calls after
//! init), the JavaScript API over the core (`api`: `Lab`, its check and fuzz), and the
//! embeddable view (`embed`: `mount`, behind the `<idempotency-lab>` element of the package's
//! script). One build serves both, so the page's load and the package's are the same bytes.

mod api;
mod app;
mod build;
mod check_panel;
mod compare;
mod course;
mod crash;
mod diagram;
mod embed;
mod faults;
mod files;
mod invariants;
mod labels;
mod notices;
mod opening;
mod page;
mod presenter;
mod state;
mod step_list;
mod storage;
mod tables;
mod yielding;

use wasm_bindgen::prelude::wasm_bindgen;

/// Mounts the whole page into the document's body: what `index.html` runs after init. It
/// installs the banner of a stopped lab first (`crash`); the package's API and embeds never
/// call it, so a page that embeds the lab keeps its own body, address and storage.
#[wasm_bindgen(js_name = startPage)]
pub fn start_page() {
    crash::install(idempotency_lab::view::Language::default());
    yew::Renderer::<app::App>::new().render();
}
