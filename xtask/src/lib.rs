//! Idempotency Lab's tooling, run as `cargo xtask <command>` (the alias lives in
//! `.cargo/config.toml`). It builds the page without trunk or a preinstalled wasm target,
//! serves it, and runs every test; the browser tests use it as a library to build and serve
//! the page they open.
//!
//! Nothing here is needed at run time by the lab itself: the page is static files.

pub mod classic;
pub mod command;
pub mod install;
pub mod mutants;
pub mod package;
pub mod page;
pub mod serve;
pub mod setup;

use std::path::{Path, PathBuf};

/// What can go wrong in the tooling. Every variant names the command or file involved.
#[derive(Debug, thiserror::Error)]
pub enum XtaskError {
    /// A command could not be started.
    #[error("could not start `{command}`: {source}")]
    CommandNotStarted {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// A command ran and failed.
    #[error("`{command}` failed with {status}")]
    CommandFailed {
        /// The command line.
        command: String,
        /// Its exit status.
        status: std::process::ExitStatus,
    },
    /// A file could not be read or written.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },
    /// A tool the build needs is missing and could not be installed.
    #[error("{tool} is missing: {hint}")]
    MissingTool {
        /// The tool.
        tool: &'static str,
        /// What to do about it.
        hint: String,
    },
    /// The page's initial transfer grew past its budget ([`page::INITIAL_TRANSFER_BUDGET`]).
    #[error(
        "the page's initial transfer is {gzip_bytes} bytes gzipped ({files}), over its budget of \
         {budget} bytes: find what grew (twiggy top over a build with names), or raise the \
         budget in xtask/src/page.rs with the reason"
    )]
    OverBudget {
        /// The files of the initial transfer, with their gzipped sizes.
        files: String,
        /// Their gzipped total.
        gzip_bytes: u64,
        /// The budget.
        budget: u64,
    },
    /// A file did not have the expected content.
    #[error("{}: {problem}", path.display())]
    Unexpected {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        problem: String,
    },
}

/// An `Io` error for `path`.
pub(crate) fn io_error(
    action: &'static str,
    path: &Path,
) -> impl FnOnce(std::io::Error) -> XtaskError {
    let path = path.to_path_buf();
    move |source| XtaskError::Io { action, path, source }
}

/// The workspace's root directory (the parent of this crate's manifest directory).
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}
