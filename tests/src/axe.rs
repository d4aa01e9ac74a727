//! axe-core, the accessibility checker, from the npm registry: installed under
//! `target/tools/axe-core` the first time a test needs it (npm itself from Debian if missing),
//! pinned to one version, and run inside the page by [`crate::browser::LabPage::axe_violations`].

use std::sync::OnceLock;

/// The npm package, pinned.
pub const AXE_CORE: &str = "axe-core@4.14.1";

/// The source of `axe.min.js`, installing the package first if it is missing
/// ([`crate::npm::package`]). Panics (the test fails) if it cannot be installed.
pub fn axe_source() -> String {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE
        .get_or_init(|| {
            let script = crate::npm::package(AXE_CORE, "axe-core", "axe.min.js").join("axe.min.js");
            std::fs::read_to_string(&script)
                .unwrap_or_else(|error| panic!("read {}: {error}", script.display()))
        })
        .clone()
}
