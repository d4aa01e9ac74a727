//! The npm-style package `dist/pkg/`, written beside the page from the same wasm-bindgen
//! output, moved there (one copy of the wasm for both: the page loads it from `pkg/` and
//! calls `startPage()`, the package exports the API and the embeds): the glue and the wasm with their TypeScript declarations, the package's own
//! entry points from `web/pkg/` (`index.js` for browsers and bundlers, `node.js` for Node,
//! which loads the wasm from disk, and `index.d.ts`, the types of both), its `package.json` and `README.md`,
//! `style.css` (the page's styles, which the page links from here) and `embed.css` (the
//! embeds' rules, for `mount` in a page's own DOM); `element.js` (the custom element, in a shadow root) with `embed-style.js` (its
//! styles) and `idempotency-lab.embed.js`, the whole package as one classic script for pages
//! opened from disk (`crate::classic`). The examples that use it
//! (`examples/embed.html`) go to `dist/examples/`, so `cargo xtask serve` serves them.

use std::path::Path;

use crate::page::OUTPUT_STEM;
use crate::{XtaskError, classic, io_error};

/// The package's directory within `dist/`.
pub const PACKAGE_DIR: &str = "pkg";
/// The package's hand-written files, in `web/pkg/`.
/// One `index.d.ts` types both entry points: they export the same names.
pub const PACKAGE_SOURCES: [&str; 6] =
    ["index.js", "element.js", "index.d.ts", "node.js", "package.json", "README.md"];
/// The pages of `examples/` that `dist/examples/` serves.
pub const EXAMPLE_PAGES: [&str; 1] = ["embed.html"];

/// Writes `<dist>/pkg/` and `<dist>/examples/` from the wasm-bindgen output already in `dist`
/// and the sources under `root`.
pub fn write_package(root: &Path, dist: &Path) -> Result<(), XtaskError> {
    let package = dist.join(PACKAGE_DIR);
    std::fs::create_dir_all(&package).map_err(io_error("create", &package))?;
    // Moved, not copied: the page loads the glue and the wasm from the package.
    for generated in [
        format!("{OUTPUT_STEM}.js"),
        format!("{OUTPUT_STEM}_bg.wasm"),
        format!("{OUTPUT_STEM}_bg.wasm.d.ts"),
    ] {
        let from = dist.join(&generated);
        std::fs::rename(&from, package.join(&generated)).map_err(io_error("move", &from))?;
    }
    // The glue's types without `[Symbol.dispose]`, which lib es2022 does not know: they then
    // check with `skipLibCheck: false` on any lib from es2022 (`free()` still releases).
    let types_name = format!("{OUTPUT_STEM}.d.ts");
    let types = read(&dist.join(&types_name))?;
    let types: String = types
        .lines()
        .filter(|line| line.trim() != "[Symbol.dispose](): void;")
        .flat_map(|line| [line, "\n"])
        .collect();
    let types_path = package.join(&types_name);
    std::fs::write(&types_path, types).map_err(io_error("write", &types_path))?;
    let root_types = dist.join(&types_name);
    std::fs::remove_file(&root_types).map_err(io_error("remove", &root_types))?;
    let sources = root.join("web/pkg");
    for name in PACKAGE_SOURCES {
        copy(&sources.join(name), &package.join(name))?;
    }
    // The page's styles, moved: the page links them from the package. The embeds' rules
    // beside them, for `mount` into a page's own DOM.
    let page_style_path = dist.join("style.css");
    let page_style = read(&page_style_path)?;
    std::fs::rename(&page_style_path, package.join("style.css"))
        .map_err(io_error("move", &page_style_path))?;
    let embed_style = read(&sources.join("embed.css"))?;
    copy(&sources.join("embed.css"), &package.join("embed.css"))?;
    let shadow_style = classic::shadow_css(&page_style, &embed_style);
    let module_path = package.join(classic::SHADOW_STYLE_MODULE);
    let module = format!(
        "// The styles of <idempotency-lab>'s shadow root (`cargo xtask build` writes them).\nexport default {};\n",
        classic::js_string(&shadow_style)
    );
    std::fs::write(&module_path, module).map_err(io_error("write", &module_path))?;
    write_classic_script(&package, &sources, &shadow_style)?;

    let examples = dist.join("examples");
    std::fs::create_dir_all(&examples).map_err(io_error("create", &examples))?;
    for name in EXAMPLE_PAGES {
        copy(&root.join("examples").join(name), &examples.join(name))?;
    }
    Ok(())
}

/// Writes [`classic::CLASSIC_SCRIPT`] into `package` from the glue and the wasm in `dist`.
fn write_classic_script(
    package: &Path,
    sources: &Path,
    shadow_style: &str,
) -> Result<(), XtaskError> {
    let glue_path = package.join(format!("{OUTPUT_STEM}.js"));
    let glue = read(&glue_path)?;
    let element = read(&sources.join("element.js"))?;
    let wasm_path = package.join(format!("{OUTPUT_STEM}_bg.wasm"));
    let wasm = std::fs::read(&wasm_path).map_err(io_error("read", &wasm_path))?;
    let script = classic::render_classic_script(&glue, &element, shadow_style, &wasm)
        .map_err(|problem| XtaskError::Unexpected { path: glue_path, problem })?;
    let path = package.join(classic::CLASSIC_SCRIPT);
    std::fs::write(&path, script).map_err(io_error("write", &path))
}

fn copy(from: &Path, to: &Path) -> Result<(), XtaskError> {
    std::fs::copy(from, to).map(drop).map_err(io_error("copy", from))
}

fn read(path: &Path) -> Result<String, XtaskError> {
    std::fs::read_to_string(path).map_err(io_error("read", path))
}
