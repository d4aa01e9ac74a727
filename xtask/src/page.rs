//! Building the page into a self-contained `dist/`: the wasm build (by one of two routes),
//! wasm-bindgen, wasm-opt where one works, and `index.html` with its styles; beside them the
//! same page as one file, [`SINGLE_FILE`], with the script, the styles and the wasm inlined,
//! which opens from disk (`file://`), where a browser fetches no module and no wasm.
//!
//! The two routes to a wasm build:
//! - standard: the active toolchain has the `wasm32-unknown-unknown` target (rustup users);
//! - Debian: where that target cannot be installed, Debian's `rustc-web` with the standard
//!   library's source (`rust-web-src`) builds `std` itself (`-Zbuild-std`, allowed on a stable
//!   compiler by `RUSTC_BOOTSTRAP=1`) and links with `wasm-ld-19`. Missing packages are
//!   installed with apt.
//!
//! The standard route is always preferred; the Debian one is taken by itself when needed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::command::{probe, run};
use crate::package::PACKAGE_DIR;
use crate::setup::{
    apt_install, ensure_wasm_bindgen, find_working_wasm_opt, locked_wasm_bindgen_version,
};
use crate::{XtaskError, io_error};

/// The web crate's package name.
pub const WEB_PACKAGE: &str = "idempotency-lab-web";
/// The stem of the generated files: `<stem>.js`, `<stem>_bg.wasm`.
pub const OUTPUT_STEM: &str = "idempotency_lab_web";
/// The wasm's export that mounts the page (the package's embeds and API never call it).
pub const START_PAGE: &str = "startPage";
/// The page as one self-contained file in `dist/`, to open from disk or hand out.
pub const SINGLE_FILE: &str = "idempotency-lab.html";
const WASM_TARGET: &str = "wasm32-unknown-unknown";
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";
const DEBIAN_CARGO: &str = "/usr/bin/cargo";
const DEBIAN_WASM_LD: &str = "/usr/bin/wasm-ld-19";
const DEBIAN_RUST_SRC: &str = "/usr/lib/rustlib/src/rust/library/Cargo.lock";
const DEBIAN_PACKAGES: [&str; 4] = ["rustc-web", "cargo-web", "rust-web-src", "lld-19"];

/// The wasm features that rustc enables by default and wasm-opt must accept.
pub const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-reference-types",
    "--enable-multivalue",
    "--strip-debug",
    "--strip-producers",
];

/// Which compiler built the wasm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WasmRoute {
    /// The active toolchain's installed `wasm32-unknown-unknown` target.
    Standard,
    /// Debian's `rustc-web` building `std` from source.
    DebianBuildStd,
}

/// What a build produced.
#[derive(Clone, Debug)]
pub struct PageBuild {
    /// The directory to serve.
    pub dist_dir: PathBuf,
    /// How the wasm was compiled.
    pub route: WasmRoute,
    /// Whether wasm-opt ran.
    pub wasm_optimized: bool,
    /// Sizes of the shipped files.
    pub sizes: Vec<FileSize>,
    /// Wall time of the whole build.
    pub elapsed: Duration,
}

/// The files a browser fetches to show the page: the page itself, its styles, the glue and
/// the wasm.
/// The styles, the glue and the wasm are the package's (`pkg/`): one copy of each serves the
/// page and the package.
pub const INITIAL_TRANSFER: [&str; 4] = [
    "index.html",
    "pkg/style.css",
    "pkg/idempotency_lab_web.js",
    "pkg/idempotency_lab_web_bg.wasm",
];

/// The most the initial transfer may weigh, gzipped, built by the Debian route with wasm-opt
/// (sizes are deterministic for one toolchain; the checkout's path still moves them by a few
/// KB): a ratchet, lowered as the page sheds weight (issue 36 aims at 250 KB). It was 728,000
/// (714,108 plus 2%); it was raised to 742,000 once, by the lesson's presenter view, trainer
/// links and the course's new words and tasks (issue 34), which took the transfer to 734,611:
/// about 1% over that. It was raised a second time, to 785,000, by handler programs (issue
/// 38): a scenario, a link or a trace may carry the learner's own consumer
/// (`consumer_program`), so the page parses, validates and runs it as the CLI does, which took
/// the transfer from 741,511 to 777,084 with the consumer's and `MarkPaid`'s programs (the
/// budget is that plus 1%). It was raised a third time, to 809,000, by the build task (issue
/// 38): the Parsons editor, the judge's verdicts in words and two lessons took the transfer
/// from 777,084 to 804,202 (the budget is that plus 0.6%, for the checkout's path). It was
/// raised a fourth time, to 815,000, by `Lab.checkHandler` (issue 38: a handler program judged
/// from JavaScript), which reads a program's JSON with the path-tracking reader the page had
/// not used for programs: 807,009 to 812,826, measured side by side in checkouts of the same
/// path length (the budget is that plus 0.3%). It was raised a fifth time, to 819,000, by
/// issues 32 and 33: the screen model's invariant lines and stop sentence in the JavaScript
/// API's language, the choices carried over a scenario change and a lesson's offer to keep
/// them, and the banner of a stopped lab (an allocation failure) in the page's language:
/// 812,904 to 816,597 (the budget is that plus 0.3%). It was raised a sixth time, to 822,000,
/// by issue 33's step at constant cost: the diagram's bands, its pending rows and the step
/// list's entries as keyed components that a step does not draw again, and the address written
/// after the frame: 816,842 to 819,698 (the budget is that plus 0.3%). It was raised a seventh
/// time, to 826,000, by issue 38's faster judge: the checker's states copied on write (shared
/// tables, history and ids) and fingerprinted with XXH64, which judge a consumer program in the
/// page in 0.6-0.7 of the time: 819,845 to 823,009, side by side in checkouts whose paths
/// differ by one character (the budget is that plus 0.4%). It was raised an eighth time, to
/// 830,000, by issue 33's long runs at constant cost: each table shared on its own and an
/// order's lines shared (a snapshot's steps under about a millisecond), the step's actions
/// listed without their SQL text, and the screen model's invariants read from the incremental
/// checker where a run kept one (the full check of every table was the slowest part of a
/// screen at a large world): 823,009 to 826,440, the same in two checkouts (the budget is
/// that plus 0.4%). It was raised a ninth time, to 834,000, by issue 33's screens of large
/// worlds: a table draws its first rows and a lane its first waiting items, with a button for
/// the rest (the longest accepted run held 32,207 elements, re-laid out at every step), and
/// the run's index that makes a screen cost its window instead of a scan of every step to the
/// cursor (its maps turned into sorted lists to weigh less): 826,194 to 831,322 (the budget is
/// that plus 0.3%). The way back down is issue 36's second module for check, fuzz and import,
/// loaded when first used. A build by another route is reported, not judged: its std is
/// compiled otherwise.
pub const INITIAL_TRANSFER_BUDGET: u64 = 834_000;

impl PageBuild {
    /// The initial transfer's gzipped bytes, and its files with theirs.
    pub fn initial_transfer(&self) -> (u64, String) {
        let files: Vec<&FileSize> = self
            .sizes
            .iter()
            .filter(|file| INITIAL_TRANSFER.contains(&file.name.as_str()))
            .collect();
        let total = files.iter().map(|file| file.gzip_bytes).sum();
        let listed = files
            .iter()
            .map(|file| format!("{} {}", file.name, file.gzip_bytes))
            .collect::<Vec<_>>()
            .join(", ");
        (total, listed)
    }

    /// Fails when a build by the Debian route with wasm-opt is over
    /// [`INITIAL_TRANSFER_BUDGET`].
    pub fn check_budget(&self) -> Result<(), XtaskError> {
        let (gzip_bytes, files) = self.initial_transfer();
        let judged = self.route == WasmRoute::DebianBuildStd && self.wasm_optimized;
        if judged && gzip_bytes > INITIAL_TRANSFER_BUDGET {
            return Err(XtaskError::OverBudget {
                files,
                gzip_bytes,
                budget: INITIAL_TRANSFER_BUDGET,
            });
        }
        Ok(())
    }
}

/// The size of one shipped file.
#[derive(Clone, Debug)]
pub struct FileSize {
    /// File name within `dist/`.
    pub name: String,
    /// Bytes as served.
    pub raw_bytes: u64,
    /// Bytes after gzip (best compression), as a server that compresses would send.
    pub gzip_bytes: u64,
}

/// Builds the page into `<root>/dist`.
pub fn build(root: &Path) -> Result<PageBuild, XtaskError> {
    let started = Instant::now();
    let route = choose_route();
    let wasm = compile_wasm(root, route)?;

    let staging = root.join("target/page-staging");
    recreate_dir(&staging)?;
    let version = locked_wasm_bindgen_version(root)?;
    let wasm_bindgen = ensure_wasm_bindgen(&version)?;
    run(Command::new(&wasm_bindgen)
        .args(["--target", "web", "--out-name", OUTPUT_STEM, "--out-dir"])
        .arg(&staging)
        .arg(&wasm))?;

    let bindgen_wasm = staging.join(format!("{OUTPUT_STEM}_bg.wasm"));
    let tools_dir = root.join("target/tools");
    std::fs::create_dir_all(&tools_dir).map_err(io_error("create", &tools_dir))?;
    let wasm_optimized = match find_working_wasm_opt(&tools_dir, &bindgen_wasm) {
        Some(wasm_opt) => {
            run(Command::new(wasm_opt)
                .args(WASM_OPT_FEATURES)
                .arg("-Oz")
                .arg(&bindgen_wasm)
                .arg("-o")
                .arg(&bindgen_wasm))?;
            true
        }
        None => {
            eprintln!(
                "xtask: no working wasm-opt (tried PATH and npm's binaryen); shipping unoptimized wasm"
            );
            false
        }
    };

    let index = std::fs::read_to_string(root.join("index.html"))
        .map_err(io_error("read", &root.join("index.html")))?;
    write_file(&staging.join("index.html"), render_index_html(&index).as_bytes())?;
    let style = root.join("web/style.css");
    std::fs::copy(&style, staging.join("style.css")).map_err(io_error("copy", &style))?;
    write_single_file(&staging, &index)?;
    crate::package::write_package(root, &staging)?;

    let dist_dir = root.join("dist");
    if dist_dir.exists() {
        std::fs::remove_dir_all(&dist_dir).map_err(io_error("remove", &dist_dir))?;
    }
    std::fs::rename(&staging, &dist_dir).map_err(io_error("move into place", &dist_dir))?;

    let sizes = [
        format!("{PACKAGE_DIR}/{OUTPUT_STEM}_bg.wasm"),
        format!("{PACKAGE_DIR}/{OUTPUT_STEM}.js"),
        "index.html".into(),
        format!("{PACKAGE_DIR}/style.css"),
        SINGLE_FILE.into(),
        format!("{PACKAGE_DIR}/index.js"),
        format!("{PACKAGE_DIR}/embed.css"),
        format!("{PACKAGE_DIR}/{}", crate::classic::CLASSIC_SCRIPT),
    ]
    .into_iter()
    .map(|name| file_size(&dist_dir, name))
    .collect::<Result<_, _>>()?;
    Ok(PageBuild { dist_dir, route, wasm_optimized, sizes, elapsed: started.elapsed() })
}

/// The standard route if the active toolchain has the wasm target's standard library.
pub fn choose_route() -> WasmRoute {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let has_wasm_std = probe(&rustc, &["--print", "target-libdir", "--target", WASM_TARGET])
        .map(PathBuf::from)
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .is_some_and(|entries| {
            entries
                .flatten()
                .any(|entry| entry.file_name().to_string_lossy().starts_with("libstd-"))
        });
    if has_wasm_std { WasmRoute::Standard } else { WasmRoute::DebianBuildStd }
}

fn compile_wasm(root: &Path, route: WasmRoute) -> Result<PathBuf, XtaskError> {
    let target_dir = root.join(match route {
        WasmRoute::Standard => "target/wasm",
        WasmRoute::DebianBuildStd => "target/wasm-debian",
    });
    let mut cargo = match route {
        WasmRoute::Standard => Command::new(crate::setup::cargo()),
        WasmRoute::DebianBuildStd => {
            ensure_debian_toolchain()?;
            let mut cargo = Command::new(DEBIAN_CARGO);
            cargo
                // Panics keep their message but not their file and line: the page's banner
                // says what went wrong, and the wasm sheds every location string.
                .env("RUSTFLAGS", "-Zlocation-detail=none")
                .env("RUSTC_BOOTSTRAP", "1")
                .env("RUSTC", DEBIAN_RUSTC)
                .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", DEBIAN_WASM_LD)
                .env_remove("RUSTUP_TOOLCHAIN")
                .env_remove("RUSTC_WRAPPER")
                .env_remove("RUSTDOC");
            cargo
        }
    };
    cargo.current_dir(root).args([
        "build",
        "--release",
        "--locked",
        "--package",
        WEB_PACKAGE,
        "--target",
        WASM_TARGET,
    ]);
    if route == WasmRoute::DebianBuildStd {
        cargo.arg("-Zbuild-std=std,panic_abort");
    }
    cargo.arg("--target-dir").arg(&target_dir);
    eprintln!("xtask: building the page's wasm by the {route:?} route");
    run(&mut cargo)?;
    Ok(target_dir.join(WASM_TARGET).join("release").join(format!("{OUTPUT_STEM}.wasm")))
}

fn ensure_debian_toolchain() -> Result<(), XtaskError> {
    let present = [DEBIAN_RUSTC, DEBIAN_CARGO, DEBIAN_WASM_LD, DEBIAN_RUST_SRC]
        .iter()
        .all(|path| Path::new(path).exists());
    if !present {
        eprintln!("xtask: no wasm32 target in this toolchain; installing Debian's wasm toolchain");
        apt_install(&DEBIAN_PACKAGES)?;
    }
    match probe(DEBIAN_RUSTC, &["--version"]) {
        Some(_) if Path::new(DEBIAN_RUST_SRC).exists() && Path::new(DEBIAN_WASM_LD).exists() => {
            Ok(())
        }
        _ => Err(XtaskError::MissingTool {
            tool: "a wasm32 toolchain",
            hint: format!(
                "install the target (`rustup target add {WASM_TARGET}`) or Debian's packages: apt-get install {}",
                DEBIAN_PACKAGES.join(" ")
            ),
        }),
    }
}

/// `index.html` as served: trunk's `data-trunk` links replaced by the files this build ships.
pub fn render_index_html(source: &str) -> String {
    let mut page = String::with_capacity(source.len());
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("<link data-trunk rel=\"rust\"") {
            page.push_str(&format!(
                "    <script type=\"module\">import init, {{ {START_PAGE} }} from './{PACKAGE_DIR}/{OUTPUT_STEM}.js'; await init({{ module_or_path: './{PACKAGE_DIR}/{OUTPUT_STEM}_bg.wasm' }}); {START_PAGE}();</script>\n"
            ));
        } else if trimmed.starts_with("<link data-trunk rel=\"css\"") {
            page.push_str(&format!(
                "    <link rel=\"stylesheet\" href=\"{PACKAGE_DIR}/style.css\" />\n"
            ));
        } else {
            page.push_str(line);
            page.push('\n');
        }
    }
    page
}

/// Writes [`SINGLE_FILE`] into `dir`, from the wasm-bindgen output and the styles already
/// there and the page's source `index`.
fn write_single_file(dir: &Path, index: &str) -> Result<(), XtaskError> {
    let snippets = dir.join("snippets");
    if snippets.exists() {
        return Err(XtaskError::Unexpected {
            path: snippets,
            problem: "wasm-bindgen wrote JavaScript snippets, which the single file does not carry"
                .into(),
        });
    }
    let read = |name: String| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(io_error("read", &path)).map(|bytes| (path, bytes))
    };
    let (glue_path, glue) = read(format!("{OUTPUT_STEM}.js"))?;
    let (style_path, style) = read("style.css".into())?;
    let (_, wasm) = read(format!("{OUTPUT_STEM}_bg.wasm"))?;
    let text = |path: PathBuf, bytes: Vec<u8>| {
        String::from_utf8(bytes)
            .map_err(|_| XtaskError::Unexpected { path, problem: "not UTF-8".into() })
    };
    let glue = text(glue_path.clone(), glue)?;
    let style = text(style_path.clone(), style)?;
    let page = render_single_file(index, &glue, &style, &wasm).map_err(|error| {
        let path = match error {
            InlineError::Script(_) => glue_path,
            InlineError::Style(_) => style_path,
        };
        XtaskError::Unexpected { path, problem: error.to_string() }
    })?;
    write_file(&dir.join(SINGLE_FILE), page.as_bytes())
}

/// Why a file cannot be inlined into the single-file page.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum InlineError {
    /// The script cannot sit inside `<script>` as it is.
    #[error("cannot inline the script: {0}")]
    Script(&'static str),
    /// The styles cannot sit inside `<style>` as they are.
    #[error("cannot inline the styles: {0}")]
    Style(&'static str),
}

/// The page as one file: `index.html` (trunk's source) with the styles in a `<style>`, and
/// wasm-bindgen's `--target web` glue in a module `<script>` that hands the wasm, inlined as
/// base64, to the glue's init function as bytes (its object form). Nothing is fetched, so the
/// file works from `file://`, where browsers load neither modules nor wasm from disk.
pub fn render_single_file(
    source: &str,
    glue: &str,
    style: &str,
    wasm: &[u8],
) -> Result<String, InlineError> {
    use base64::Engine as _;
    let lowercase = glue.to_ascii_lowercase();
    if lowercase.contains("</script") || lowercase.contains("<!--") {
        return Err(InlineError::Script("it contains `</script` or `<!--`"));
    }
    if style.to_ascii_lowercase().contains("</style") {
        return Err(InlineError::Style("it contains `</style`"));
    }
    // wasm-bindgen ends the glue with `export { initSync, __wbg_init as default };`: the name
    // of the init function is the default export's.
    let (export_line, init) = glue
        .lines()
        .filter(|line| line.starts_with("export {"))
        .find_map(|line| {
            line.trim_end_matches([' ', ';', '}'])
                .trim_start_matches("export {")
                .split(',')
                .find_map(|name| name.trim().strip_suffix(" as default"))
                .map(|init| (line, init.trim()))
        })
        .ok_or(InlineError::Script(
            "no `export { ... as default }` line names the init function",
        ))?;
    let glue = glue.replacen(export_line, "", 1);
    let wasm = base64::engine::general_purpose::STANDARD.encode(wasm);
    let mut page = String::with_capacity(source.len() + glue.len() + style.len() + wasm.len());
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("<link data-trunk rel=\"rust\"") {
            page.push_str("    <script type=\"module\">\n");
            page.push_str(glue.trim_end());
            // In a block, so that no name here meets one of the glue's.
            page.push_str(&format!(
                "\n{{\n  const base64 = \"{wasm}\";\n  \
                 const bytes = typeof Uint8Array.fromBase64 === \"function\"\n    \
                 ? Uint8Array.fromBase64(base64)\n    \
                 : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));\n  \
                 {init}({{ module_or_path: bytes }}).then(() => {START_PAGE}());\n}}\n    </script>\n"
            ));
        } else if trimmed.starts_with("<link data-trunk rel=\"css\"") {
            page.push_str("    <style>\n");
            page.push_str(style.trim_end());
            page.push_str("\n    </style>\n");
        } else {
            page.push_str(line);
            page.push('\n');
        }
    }
    Ok(page)
}

/// The raw and gzipped size of the file `name` in `dir`.
pub fn file_size(dir: &Path, name: String) -> Result<FileSize, XtaskError> {
    let path = dir.join(&name);
    let bytes = std::fs::read(&path).map_err(io_error("read", &path))?;
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(&bytes).map_err(io_error("gzip", &path))?;
    let gzip_bytes = gzip.finish().map_err(io_error("gzip", &path))?.len() as u64;
    Ok(FileSize { name, raw_bytes: bytes.len() as u64, gzip_bytes })
}

fn recreate_dir(dir: &Path) -> Result<(), XtaskError> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io_error("remove", dir))?;
    }
    std::fs::create_dir_all(dir).map_err(io_error("create", dir))
}

fn write_file(path: &Path, contents: &[u8]) -> Result<(), XtaskError> {
    std::fs::write(path, contents).map_err(io_error("write", path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_of(route: WasmRoute, wasm_gzip_bytes: u64) -> PageBuild {
        let file =
            |name: &str, gzip_bytes| FileSize { name: name.to_owned(), raw_bytes: 0, gzip_bytes };
        PageBuild {
            dist_dir: PathBuf::new(),
            route,
            wasm_optimized: true,
            sizes: vec![
                file("pkg/idempotency_lab_web_bg.wasm", wasm_gzip_bytes),
                file("pkg/idempotency_lab_web.js", 11_000),
                file("index.html", 500),
                file("pkg/style.css", 5_000),
                // The single file is not fetched by the page: it is not counted.
                file("idempotency-lab.html", 1_000_000),
            ],
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn the_initial_transfer_is_judged_against_its_budget_on_the_debian_route() {
        let under = build_of(WasmRoute::DebianBuildStd, INITIAL_TRANSFER_BUDGET - 16_500);
        assert_eq!(under.initial_transfer().0, INITIAL_TRANSFER_BUDGET);
        assert!(under.check_budget().is_ok());
        let over = build_of(WasmRoute::DebianBuildStd, INITIAL_TRANSFER_BUDGET - 16_499);
        let error = over.check_budget().unwrap_err().to_string();
        assert!(
            error.contains(&format!("is {} bytes gzipped", INITIAL_TRANSFER_BUDGET + 1)),
            "{error}"
        );
        assert!(error.contains("idempotency_lab_web_bg.wasm"), "{error}");
        assert!(build_of(WasmRoute::Standard, INITIAL_TRANSFER_BUDGET).check_budget().is_ok());
    }

    #[test]
    fn index_html_swaps_trunk_links_for_the_built_files() {
        let source = "<head>\n    <link data-trunk rel=\"rust\" href=\"web/Cargo.toml\" />\n    <link data-trunk rel=\"css\" href=\"web/style.css\" />\n</head>\n";
        expect_test::expect![[r#"
            <head>
                <script type="module">import init, { startPage } from './pkg/idempotency_lab_web.js'; await init({ module_or_path: './pkg/idempotency_lab_web_bg.wasm' }); startPage();</script>
                <link rel="stylesheet" href="pkg/style.css" />
            </head>
        "#]]
        .assert_eq(&render_index_html(source));
    }

    const INDEX: &str = "<head>\n    <link data-trunk rel=\"rust\" href=\"web/Cargo.toml\" />\n    <link data-trunk rel=\"css\" href=\"web/style.css\" />\n</head>\n<body><div id=\"app\"></div></body>\n";

    #[test]
    fn the_single_file_inlines_the_styles_the_glue_and_the_wasm() {
        let glue = "let wasm;\nasync function __wbg_init(module_or_path) { wasm = module_or_path; }\n\nexport { initSync, __wbg_init as default };\n";
        let page = render_single_file(INDEX, glue, "body { margin: 0; }\n", &[0, 97, 115, 109])
            .expect("inlined");
        expect_test::expect![[r#"
            <head>
                <script type="module">
            let wasm;
            async function __wbg_init(module_or_path) { wasm = module_or_path; }
            {
              const base64 = "AGFzbQ==";
              const bytes = typeof Uint8Array.fromBase64 === "function"
                ? Uint8Array.fromBase64(base64)
                : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
              __wbg_init({ module_or_path: bytes }).then(() => startPage());
            }
                </script>
                <style>
            body { margin: 0; }
                </style>
            </head>
            <body><div id="app"></div></body>
        "#]]
        .assert_eq(&page);
    }

    #[test]
    fn the_single_file_refuses_what_would_end_its_script_or_style_early() {
        let glue = "const s = '</SCRIPT>';\nexport { initSync, __wbg_init as default };\n";
        assert_eq!(
            render_single_file(INDEX, glue, "", &[]),
            Err(InlineError::Script("it contains `</script` or `<!--`"))
        );
        let glue = "export { initSync, __wbg_init as default };\n";
        assert_eq!(
            render_single_file(INDEX, glue, "a::after { content: '</style>'; }", &[]),
            Err(InlineError::Style("it contains `</style`"))
        );
        assert_eq!(
            render_single_file(INDEX, "export default function init() {}\n", "", &[]),
            Err(InlineError::Script("no `export { ... as default }` line names the init function"))
        );
    }
}
