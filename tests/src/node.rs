//! Running the package's Node scripts (`tests/node/*.mjs`) against the built `dist/pkg/`: the
//! Node the test command installed (`LAB_NODE`), or one found or installed now, and a fresh
//! directory for what a script writes.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::browser::dist_dir;

/// What a script printed.
pub struct NodeOutput {
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// The package's directory, `dist/pkg/`, checked to hold the Node entry point.
pub fn package_dir() -> PathBuf {
    let package = dist_dir().join(xtask::package::PACKAGE_DIR);
    assert!(package.join("node.js").exists(), "no built package in {}", package.display());
    package
}

/// A new empty directory under the system's temporary directory.
pub fn fresh_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    let dir =
        std::env::temp_dir().join(format!("idempotency-lab-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|error| panic!("mkdir {}: {error}", dir.display()));
    dir
}

/// Runs `tests/node/<script>` with the package's directory and `args`; panics with its output
/// unless it exits with success.
pub fn run_script(script: &str, args: &[&Path]) -> NodeOutput {
    let node = xtask::setup::ensure_node().unwrap_or_else(|error| panic!("no Node: {error}"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("node").join(script);
    let output = Command::new(&node)
        .arg(&path)
        .arg(package_dir())
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("start {} {}: {error}", node.display(), path.display()));
    let result = NodeOutput {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(
        output.status.success(),
        "node {script} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        output.status,
        result.stdout,
        result.stderr
    );
    result
}
