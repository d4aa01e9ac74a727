//! When the lab stops, the page says so in its language and keeps the run it showed.
//!
//! Two things stop the wasm for good: an allocation the browser cannot give (the allocator's
//! failure aborts, a trap: `RuntimeError: unreachable`) and a panic (the page is built with
//! `panic = "abort"`: the hook runs, then the same trap). No Rust code may run after a trap,
//! so the banner is shown by a listener of plain JavaScript installed at start ([`install`]):
//! on a `WebAssembly.RuntimeError` it prepends a banner with the words the page keeps on the
//! document's root in its language ([`set_language`]: `data-lab-crash`, `data-lab-reload`),
//! the panic's message if the hook recorded one (`data-lab-panic`), and a Reload button that
//! opens the address again (the address holds the run at the step shown). The page below the
//! banner is made inert: it shows the run as it was at the last step that worked.

use std::panic::PanicHookInfo;

use idempotency_lab::view::Language;

/// The listener: plain JavaScript, so that it runs after the wasm stopped.
const LISTENER: &str = r#"
const error = event.error ?? event.reason;
if (!(error instanceof WebAssembly.RuntimeError)) return;
if (document.querySelector('[data-testid=crashed]') !== null) return;
const root = document.documentElement;
const banner = document.createElement('div');
banner.className = 'error-banner crash-banner';
banner.setAttribute('role', 'alert');
banner.dataset.testid = 'crashed';
const text = document.createElement('span');
const panic = root.dataset.labPanic;
text.textContent = (root.dataset.labCrash ?? '') + (panic ? ' (' + panic + ')' : '');
const reload = document.createElement('button');
reload.className = 'reload';
reload.dataset.testid = 'crash-reload';
reload.textContent = root.dataset.labReload ?? '⟳';
reload.addEventListener('click', () => location.reload());
banner.append(text, reload);
for (const main of document.querySelectorAll('main')) main.inert = true;
document.body.prepend(banner);
reload.focus();
"#;

/// Installs the panic hook and the listener, and puts the words in `language` on the root.
/// Called once, before the app mounts.
pub fn install(language: Language) {
    std::panic::set_hook(Box::new(record_panic));
    set_language(language);
    // The page's own `index.html` sets no policy that forbids a function built from text.
    let listener = js_sys::Function::new_with_args("event", LISTENER);
    let window = gloo::utils::window();
    for kind in ["error", "unhandledrejection"] {
        window.add_event_listener_with_callback(kind, &listener).ok();
    }
}

/// Puts the banner's words in `language` on the document's root, for the listener.
pub fn set_language(language: Language) {
    let Some(root) = gloo::utils::document().document_element() else { return };
    let words = language.words();
    root.set_attribute("data-lab-crash", words.build.crash_stopped).ok();
    root.set_attribute("data-lab-reload", words.build.crash_reload).ok();
}

/// The panic hook: logs the panic and records its message for the banner; the trap that
/// follows (`panic = "abort"`) shows it.
fn record_panic(info: &PanicHookInfo<'_>) {
    let message = info.to_string();
    gloo::console::error!(format!("Idempotency Lab crashed: {message}"));
    if let Some(root) = gloo::utils::document().document_element() {
        root.set_attribute("data-lab-panic", &message).ok();
    }
}
