//! The page's settings store: the browser's local storage where the browser allows it, and a
//! map in memory where it does not.
//!
//! Local storage is not always there: a browser may refuse it to a page opened from disk
//! (`file://`), in a private window, or when the user blocks site data, and then reading
//! `window.localStorage` throws; a full store throws on writing. None of that may stop the page
//! or lose a setting the learner just chose: every value is also kept in memory for the life
//! of the page, read before local storage, so a setting holds until the page closes even where
//! nothing can be stored. Values are JSON, as they were when the page stored them with gloo.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;

thread_local! {
    /// Every value set since the page opened, by key.
    static MEMORY: RefCell<BTreeMap<String, String>> = const { RefCell::new(BTreeMap::new()) };
}

/// The value stored under `key`: the one set since the page opened, else the one in local
/// storage. `None` if there is none, storage cannot be read, or it does not parse as a `T`.
pub fn get<T: DeserializeOwned>(key: &str) -> Option<T> {
    let json = MEMORY
        .with(|memory| memory.borrow().get(key).cloned())
        .or_else(|| local_storage()?.get_item(key).ok().flatten())?;
    serde_json::from_str(&json).ok()
}

/// Stores `value` under `key`: in memory always, and in local storage if the browser lets the
/// page write it (an error there is ignored: the value is kept in memory).
pub fn set<T: Serialize + ?Sized>(key: &str, value: &T) {
    let Ok(json) = serde_json::to_string(value) else { return };
    if let Some(storage) = local_storage() {
        storage.set_item(key, &json).ok();
    }
    MEMORY.with(|memory| memory.borrow_mut().insert(key.to_owned(), json));
}

/// The page's local storage, if the browser gives it (reading `window.localStorage` may throw).
fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}
