//! The npm-style package `dist/pkg/`, written beside the page from the same wasm-bindgen
//! output (one wasm for both: the page calls `startPage()`, the package exports the API and
//! the embeds): the glue and the wasm with their TypeScript declarations, the package's own
//! entry points from `web/pkg/` (`index.js` for browsers and bundlers, `node.js` for Node,
//! which loads the wasm from disk, and `index.d.ts`, the types of both), its `package.json` and `README.md`,
//! and `style.css` (the page's styles and the embeds' rules). The examples that use it
//! (`examples/embed.html`) go to `dist/examples/`, so `cargo xtask serve` serves them.

use std::path::Path;

use crate::page::OUTPUT_STEM;
use crate::{XtaskError, io_error};

/// The package's directory within `dist/`.
pub const PACKAGE_DIR: &str = "pkg";
/// The package's hand-written files, in `web/pkg/`.
/// One `index.d.ts` types both entry points: they export the same names.
pub const PACKAGE_SOURCES: [&str; 5] =
    ["index.js", "index.d.ts", "node.js", "package.json", "README.md"];
/// The pages of `examples/` that `dist/examples/` serves.
pub const EXAMPLE_PAGES: [&str; 1] = ["embed.html"];

/// Writes `<dist>/pkg/` and `<dist>/examples/` from the wasm-bindgen output already in `dist`
/// and the sources under `root`.
pub fn write_package(root: &Path, dist: &Path) -> Result<(), XtaskError> {
    let package = dist.join(PACKAGE_DIR);
    std::fs::create_dir_all(&package).map_err(io_error("create", &package))?;
    for generated in [
        format!("{OUTPUT_STEM}.js"),
        format!("{OUTPUT_STEM}.d.ts"),
        format!("{OUTPUT_STEM}_bg.wasm"),
        format!("{OUTPUT_STEM}_bg.wasm.d.ts"),
    ] {
        copy(&dist.join(&generated), &package.join(&generated))?;
    }
    let sources = root.join("web/pkg");
    for name in PACKAGE_SOURCES {
        copy(&sources.join(name), &package.join(name))?;
    }
    let mut style = read(&root.join("web/style.css"))?;
    style.push('\n');
    style.push_str(&read(&sources.join("embed.css"))?);
    let style_path = package.join("style.css");
    std::fs::write(&style_path, style).map_err(io_error("write", &style_path))?;

    let examples = dist.join("examples");
    std::fs::create_dir_all(&examples).map_err(io_error("create", &examples))?;
    for name in EXAMPLE_PAGES {
        copy(&root.join("examples").join(name), &examples.join(name))?;
    }
    Ok(())
}

fn copy(from: &Path, to: &Path) -> Result<(), XtaskError> {
    std::fs::copy(from, to).map(drop).map_err(io_error("copy", from))
}

fn read(path: &Path) -> Result<String, XtaskError> {
    std::fs::read_to_string(path).map_err(io_error("read", path))
}
