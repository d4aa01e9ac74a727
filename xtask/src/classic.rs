//! The package's two derived scripts. `embed-style.js` is the styles of the element's shadow
//! root as a module ([`shadow_css`]: the page's `style.css` with its `:root` rule on the
//! shadow host and `rem` sizes made relative to the host, then `embed.css`), so bundlers carry
//! it like any import. `idempotency-lab.embed.js` is the whole package as one classic script
//! ([`render_classic_script`]): wasm-bindgen's glue and `element.js` without their `export`s,
//! the styles, and the wasm gzipped and base64'd, unpacked by the browser's own
//! `DecompressionStream`. A classic script loads from `file://`, where browsers refuse
//! modules and fetches, so a deck saved on a laptop shows live embeds when double-clicked.

use std::io::Write as _;

/// The classic script's name within the package.
pub const CLASSIC_SCRIPT: &str = "idempotency-lab.embed.js";

/// The shadow root's styles module's name within the package.
pub const SHADOW_STYLE_MODULE: &str = "embed-style.js";

/// The styles of the element's shadow root: `page` (the page's `style.css`) with `:root` as
/// `:host` and every `rem` as `em` (a host page's root font size must not scale the lab: the
/// host sets its own), then `embed` (the embeds' rules), its `rem`s too.
pub fn shadow_css(page: &str, embed: &str) -> String {
    let page = format!("{page}\n{embed}").replace(":root", ":host");
    let mut out = String::with_capacity(page.len());
    let bytes = page.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let after_number =
            index > 0 && (bytes[index - 1].is_ascii_digit() || bytes[index - 1] == b'.');
        let unit_ends = bytes.get(index + 3).is_none_or(|next| !next.is_ascii_alphanumeric());
        if after_number && page[index..].starts_with("rem") && unit_ends {
            out.push_str("em");
            index += 3;
            continue;
        }
        let char_len = page[index..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&page[index..index + char_len]);
        index += char_len;
    }
    out
}

/// `text` as a JavaScript string literal (JSON's rules, and `<` escaped so that the script may
/// also sit inside `<script>`).
pub fn js_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `source` (an ES module without imports) as plain script: `export` dropped from its
/// declarations, its `export { ... }` lines removed, `import.meta.url` the document's address.
fn without_exports(source: &str) -> Result<String, String> {
    let mut out = String::with_capacity(source.len());
    for line in source.lines() {
        if line.starts_with("import ") {
            return Err(format!("it imports: {line}"));
        }
        if line.starts_with("export {") {
            continue;
        }
        let line = ["export class ", "export function ", "export const ", "export let "]
            .iter()
            .find_map(|prefix| line.strip_prefix("export ").filter(|_| line.starts_with(prefix)))
            .unwrap_or(line);
        if line.starts_with("export ") {
            return Err(format!("it exports what a script cannot: {line}"));
        }
        out.push_str(&line.replace("import.meta.url", "document.baseURI"));
        out.push('\n');
    }
    Ok(out)
}

/// The name of the glue's init function: its default export
/// (`export { initSync, __wbg_init as default };`).
fn init_function(glue: &str) -> Option<&str> {
    glue.lines().filter(|line| line.starts_with("export {")).find_map(|line| {
        line.trim_end_matches([' ', ';', '}'])
            .trim_start_matches("export {")
            .split(',')
            .find_map(|name| name.trim().strip_suffix(" as default"))
            .map(str::trim)
    })
}

/// The package as one classic script: `glue` (wasm-bindgen's `--target web` output),
/// `element` (`element.js`), `css` (the shadow root's styles) and `wasm`, gzipped and base64'd.
/// It defines `<idempotency-lab>` once the wasm is ready, and sets `globalThis.IdempotencyLab`
/// (`Lab`, `Embed`, `mount`, `LabError`, `ELEMENT_NAME`, and `ready`, a promise).
pub fn render_classic_script(
    glue: &str,
    element: &str,
    css: &str,
    wasm: &[u8],
) -> Result<String, String> {
    use base64::Engine as _;
    let init = init_function(glue).ok_or("the glue names no default export (its init)")?;
    let glue = without_exports(glue).map_err(|error| format!("the glue: {error}"))?;
    let element = without_exports(element).map_err(|error| format!("element.js: {error}"))?;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(wasm).map_err(|error| error.to_string())?;
    let gzipped = gzip.finish().map_err(|error| error.to_string())?;
    let wasm = base64::engine::general_purpose::STANDARD.encode(gzipped);
    let css = js_string(css);
    Ok(format!(
        "// Idempotency Lab as one classic script: `<script src=\"{CLASSIC_SCRIPT}\"></script>` defines\n\
         // <idempotency-lab> from any page, also one opened from disk (file://). Built by `cargo xtask build`.\n\
         (() => {{\n\"use strict\";\n{glue}\n{element}\n{{\n  \
         const css = {css};\n  \
         const wasmGzipBase64 = \"{wasm}\";\n  \
         const wasmBytes = () => {{\n    \
         const gzipped = Uint8Array.from(atob(wasmGzipBase64), (c) => c.charCodeAt(0));\n    \
         const stream = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream(\"gzip\"));\n    \
         return new Response(stream).arrayBuffer();\n  }};\n  \
         guardFreed([Lab, Embed]);\n  \
         const ready = wasmBytes()\n    \
         .then((bytes) => {init}({{ module_or_path: bytes }}))\n    \
         .then(() => defineElement({{ mount, css }}));\n  \
         globalThis.IdempotencyLab = {{ Lab, Embed, mount, LabError, ELEMENT_NAME, ready }};\n}}\n}})();\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shadow_styles_put_root_on_the_host_and_rem_on_the_host_font() {
        let css = shadow_css(
            ":root { font-size: 18px; }\n.a { padding: 1.5rem 0.3rem; margin: 2rem; }\n.remark { x: 1; }",
            ".b { margin: 1rem; }",
        );
        assert_eq!(
            css,
            ":host { font-size: 18px; }\n.a { padding: 1.5em 0.3em; margin: 2em; }\n.remark { x: 1; }\n.b { margin: 1em; }"
        );
    }

    #[test]
    fn a_module_becomes_a_script_without_its_exports() {
        let glue = "let wasm;\nexport class Lab {}\nexport function mount() { return import.meta.url; }\nexport { initSync, __wbg_init as default };\n";
        assert_eq!(init_function(glue), Some("__wbg_init"));
        assert_eq!(
            without_exports(glue).as_deref(),
            Ok("let wasm;\nclass Lab {}\nfunction mount() { return document.baseURI; }\n")
        );
        assert!(without_exports("import x from \"y\";\n").is_err());
        assert!(without_exports("export default function f() {}\n").is_err());
    }

    #[test]
    fn a_string_literal_escapes_what_would_end_it_or_a_script() {
        assert_eq!(js_string("a\"b\\c\n</style>"), "\"a\\\"b\\\\c\\n\\u003c/style>\"");
    }
}
