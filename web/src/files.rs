//! Files in and out of the page: exporting the run (trace JSON, or the core's Mermaid text)
//! as a download, and importing a trace or scenario file. Both run as effects of the App
//! (`use_effect_with`): the buttons only ask for them.

use gloo::file::{Blob, File, ObjectUrl};
use idempotency_lab::sim::{Scenario, Trace};
use wasm_bindgen::JsCast;

use crate::notices::Problem;
use crate::state::Action;

/// A file to hand to the browser as a download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Download {
    /// The file's name.
    pub name: String,
    /// Its MIME type.
    pub mime: &'static str,
    /// Its text.
    pub content: String,
}

/// Starts the download; the returned URL must live until the browser has taken the file (the
/// App keeps it until the next download).
pub fn start_download(download: &Download) -> Option<ObjectUrl> {
    let blob = Blob::new_with_options(download.content.as_str(), Some(download.mime));
    let url = ObjectUrl::from(blob);
    let document = gloo::utils::document();
    let anchor = document.create_element("a").ok()?;
    anchor.set_attribute("href", &url).ok()?;
    anchor.set_attribute("download", &download.name).ok()?;
    anchor.dyn_into::<web_sys::HtmlElement>().ok()?.click();
    Some(url)
}

/// What an imported file's text opens: a trace if it reads as one, else a scenario, else an
/// error that says both reasons.
pub fn action_for_file(name: &str, text: &str) -> Action {
    match Trace::from_json(text) {
        Ok(trace) => Action::LoadTrace(Box::new(trace)),
        Err(trace_error) => match Scenario::from_json(text) {
            Ok(scenario) => Action::LoadScenario(Box::new(scenario)),
            Err(scenario_error) => Action::ShowError(Problem::FileKind {
                name: name.to_owned(),
                trace: trace_error.to_string(),
                scenario: scenario_error.to_string(),
            }),
        },
    }
}

/// Reads `file` as text and hands the result to `done`; the reader must be kept alive.
pub fn read_file(
    file: &File,
    done: impl FnOnce(Action) + 'static,
) -> gloo::file::callbacks::FileReader {
    let name = file.name();
    gloo::file::callbacks::read_as_text(file, move |result| match result {
        Ok(text) => done(action_for_file(&name, &text)),
        Err(error) => done(Action::ShowError(Problem::FileUnread { name, why: error.to_string() })),
    })
}
