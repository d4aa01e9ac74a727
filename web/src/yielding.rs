//! The page's long jobs between frames (opening a link or a file, the check, the fuzzer, the
//! build task's judge): how a job yields to the browser after each slice, and how often it
//! shows its progress.

use std::time::Duration;

use yew::platform::time::sleep;

/// How often a job in slices reports its progress, in milliseconds: each report renders the
/// page again, so not after every slice.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// Lets the browser render and handle input, then goes on: a message posted to a fresh
/// `MessageChannel`, a task that runs after what is queued, without the 4 ms to which the
/// browser holds a chain of zero-delay timers (a quarter of each 12 ms slice). Where the
/// channel cannot be made, a zero-delay timer.
pub async fn yield_to_browser() {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        sleep(Duration::ZERO).await;
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        channel.port1().set_onmessage(Some(&resolve));
        if channel.port2().post_message(&wasm_bindgen::JsValue::UNDEFINED).is_err() {
            channel.port1().set_onmessage(None);
            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    channel.port1().set_onmessage(None);
}
