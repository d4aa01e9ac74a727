//! Packages from the npm registry that tests need (axe-core, TypeScript, esbuild): each installed once
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

/// esbuild, pinned: the bundler the package's README recipes are proved with.
pub const ESBUILD: &str = "esbuild@0.28.2";

/// A new app directory whose `node_modules/idempotency-lab` is the built `dist/pkg/` (as npm
/// would install it), with `files` (name, contents) written in it.
pub fn app_with_package(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = crate::node::fresh_dir(name);
    let modules = dir.join("node_modules");
    std::fs::create_dir_all(&modules).expect("create node_modules");
    std::os::unix::fs::symlink(crate::node::package_dir(), modules.join("idempotency-lab"))
        .expect("link the package into node_modules");
    for (file, contents) in files {
        std::fs::write(dir.join(file), contents)
            .unwrap_or_else(|error| panic!("write {file}: {error}"));
    }
    dir
}

/// Runs esbuild in `dir` with `args`; panics with its output unless it succeeds.
pub fn esbuild(dir: &std::path::Path, args: &[&str]) {
    let esbuild = package(ESBUILD, "esbuild", "bin/esbuild");
    let output = Command::new(esbuild.join("bin/esbuild"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|error| panic!("run esbuild: {error}"));
    assert!(
        output.status.success(),
        "esbuild {args:?} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
