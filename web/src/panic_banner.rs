//! A panic never leaves a blank page: the hook logs the panic to the console and puts a banner
//! at the top of the page that says what happened and how to recover.

use std::panic::PanicHookInfo;

/// Installs the hook. Called once, before the app mounts.
pub fn install() {
    std::panic::set_hook(Box::new(show_banner));
}

fn show_banner(info: &PanicHookInfo<'_>) {
    let message = info.to_string();
    gloo::console::error!(format!("Idempotency Lab crashed: {message}"));
    let Some(body) = gloo::utils::document().body() else { return };
    let Ok(banner) = gloo::utils::document().create_element("div") else { return };
    banner.set_class_name("error-banner");
    banner.set_attribute("role", "alert").ok();
    banner.set_text_content(Some(&format!(
        "The lab hit a bug and stopped: {message}. Reload the page to start again."
    )));
    body.prepend_with_node_1(&banner).ok();
}
