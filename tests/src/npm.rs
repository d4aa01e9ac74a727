//! Packages from the npm registry that tests need (axe-core, TypeScript): each installed once
//! under `target/tools/<name>` at a pinned version, npm itself from Debian if missing.

use std::path::PathBuf;
use std::process::Command;

/// The directory of the npm package `spec` (`name@version`), installed under
/// `target/tools/<dir>` unless `file` (a path inside the package) is already there. Panics
/// (the test fails) if it cannot be installed.
pub fn package(spec: &str, dir: &str, file: &str) -> PathBuf {
    let name = spec.rsplit_once('@').map_or(spec, |(name, _)| name);
    let prefix = xtask::workspace_root().join("target/tools").join(dir);
    let package = prefix.join("node_modules").join(name);
    if !package.join(file).exists() {
        if Command::new("npm").arg("--version").output().is_err() {
            xtask::setup::apt_install(&["npm"])
                .unwrap_or_else(|error| panic!("installing npm for {spec}: {error}"));
        }
        std::fs::create_dir_all(&prefix)
            .unwrap_or_else(|error| panic!("create target/tools/{dir}: {error}"));
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(spec)
            .status()
            .unwrap_or_else(|error| panic!("run npm install {spec}: {error}"));
        assert!(status.success(), "npm install {spec} failed: {status}");
        assert!(package.join(file).exists(), "npm install {spec} gave no {file}");
    }
    package
}
