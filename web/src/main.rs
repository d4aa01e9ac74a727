//! The teaching page's entry point: installs the panic banner, then mounts the Yew app.

mod app;
mod check_panel;
mod compare;
mod diagram;
mod faults;
mod files;
mod invariants;
mod labels;
mod panic_banner;
mod presenter;
mod state;
mod step_list;
mod storage;
mod tables;

fn main() {
    panic_banner::install();
    yew::Renderer::<app::App>::new().render();
}
