//! A static file server for `dist/`, on loopback: `cargo xtask serve` and the browser tests
//! use it. It serves `.wasm` as `application/wasm`, which streaming compilation requires.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::XtaskError;

/// A running server; it stops when dropped.
pub struct RunningServer {
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
    /// The address it listens on, such as `http://127.0.0.1:8080`.
    pub url: String,
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts serving `dist_dir` at `address` (port 0 picks a free port) on a background thread.
pub fn start(dist_dir: &Path, address: &str) -> Result<RunningServer, XtaskError> {
    let server = tiny_http::Server::http(address).map_err(|error| XtaskError::Io {
        action: "listen on",
        path: PathBuf::from(address),
        source: std::io::Error::other(error.to_string()),
    })?;
    let url = match server.server_addr() {
        tiny_http::ListenAddr::IP(socket) => format!("http://{socket}"),
        #[allow(unreachable_patterns)]
        _ => format!("http://{address}"),
    };
    let server = Arc::new(server);
    let dist_dir = dist_dir.to_path_buf();
    let serving = Arc::clone(&server);
    let thread = std::thread::spawn(move || {
        for request in serving.incoming_requests() {
            let _ = respond(&dist_dir, request);
        }
    });
    Ok(RunningServer { server, thread: Some(thread), url })
}

/// Serves until the process is stopped.
pub fn serve_forever(dist_dir: &Path, address: &str) -> Result<(), XtaskError> {
    let mut running = start(dist_dir, address)?;
    println!("Idempotency Lab is served at {}/ (Ctrl-C stops it)", running.url);
    if let Some(thread) = running.thread.take() {
        let _ = thread.join();
    }
    Ok(())
}

fn respond(dist_dir: &Path, request: tiny_http::Request) -> std::io::Result<()> {
    let Some(path) = file_for_url(dist_dir, request.url()) else {
        return request
            .respond(tiny_http::Response::from_string("not found").with_status_code(404));
    };
    match std::fs::read(&path) {
        Ok(bytes) => {
            let content_type = tiny_http::Header::from_bytes("Content-Type", content_type(&path))
                .expect("static header is valid");
            let no_cache = tiny_http::Header::from_bytes("Cache-Control", "no-cache")
                .expect("static header is valid");
            request.respond(
                tiny_http::Response::from_data(bytes)
                    .with_header(content_type)
                    .with_header(no_cache),
            )
        }
        Err(_) => {
            request.respond(tiny_http::Response::from_string("not found").with_status_code(404))
        }
    }
}

/// The file a URL names inside `dist_dir`, or `None` if it would leave it. The query and
/// fragment are ignored; `/` is `index.html`.
pub fn file_for_url(dist_dir: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let relative = path.trim_start_matches('/');
    let relative = if relative.is_empty() { "index.html" } else { relative };
    let relative = Path::new(relative);
    if relative.components().any(|component| !matches!(component, Component::Normal(_))) {
        return None;
    }
    Some(dist_dir.join(relative))
}

/// The `Content-Type` of a file, by its extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|ext| ext.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_map_into_dist_and_never_out_of_it() {
        let dist = Path::new("dist");
        assert_eq!(file_for_url(dist, "/"), Some(dist.join("index.html")));
        assert_eq!(file_for_url(dist, "/?seed=3#s=abc"), Some(dist.join("index.html")));
        assert_eq!(file_for_url(dist, "/style.css"), Some(dist.join("style.css")));
        assert_eq!(file_for_url(dist, "/../Cargo.toml"), None);
        assert_eq!(file_for_url(dist, "/a/../../x"), None);
    }

    #[test]
    fn wasm_is_served_as_application_wasm() {
        assert_eq!(content_type(Path::new("x_bg.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("index.html")), "text/html; charset=utf-8");
    }
}
