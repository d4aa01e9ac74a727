//! axe-core, the accessibility checker, from the npm registry: installed under
//! `target/tools/axe-core` the first time a test needs it (npm itself from Debian if missing),
//! pinned to one version, and run inside the page by [`crate::browser::LabPage::axe_violations`].

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The npm package, pinned.
pub const AXE_CORE: &str = "axe-core@4.14.1";

/// The source of `axe.min.js`, installing the package first if it is missing. Panics (the
/// test fails) if it cannot be installed.
pub fn axe_source() -> String {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE
        .get_or_init(|| {
            let prefix = xtask::workspace_root().join("target/tools/axe-core");
            let script: PathBuf = prefix.join("node_modules/axe-core/axe.min.js");
            if !script.exists() {
                if Command::new("npm").arg("--version").output().is_err() {
                    xtask::setup::apt_install(&["npm"])
                        .unwrap_or_else(|error| panic!("installing npm for {AXE_CORE}: {error}"));
                }
                std::fs::create_dir_all(&prefix).expect("create target/tools/axe-core");
                let status = Command::new("npm")
                    .args(["install", "--no-audit", "--no-fund", "--prefix"])
                    .arg(&prefix)
                    .arg(AXE_CORE)
                    .status()
                    .unwrap_or_else(|error| panic!("run npm install {AXE_CORE}: {error}"));
                assert!(status.success(), "npm install {AXE_CORE} failed: {status}");
            }
            std::fs::read_to_string(&script)
                .unwrap_or_else(|error| panic!("read {}: {error}", script.display()))
        })
        .clone()
}
