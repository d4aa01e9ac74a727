//! Installing what the build and the tests need, when it is missing: Debian's packages (the
//! wasm toolchain fallback, Chromium, PostgreSQL), the wasm-bindgen CLI at the exact version of
//! `Cargo.lock`, and a wasm-opt that can read the output.
//!
//! Each `ensure_*` first looks for a working tool and installs only if there is none, so a
//! second run does no work.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::command::{probe, run};
use crate::{XtaskError, io_error};

/// Installs Debian packages with `apt-get` (refreshing the package lists first), as root or
/// through `sudo`.
pub fn apt_install(packages: &[&str]) -> Result<(), XtaskError> {
    let is_root = probe("id", &["-u"]).as_deref() == Some("0");
    let sudo_prefix: &[&str] = if is_root { &[] } else { &["sudo"] };
    if !is_root && probe("sudo", &["-n", "true"]).is_none() {
        return Err(XtaskError::MissingTool {
            tool: "root",
            hint: format!(
                "run as root, or install yourself: apt-get install -y {}",
                packages.join(" ")
            ),
        });
    }
    let apt = |args: &[&str]| {
        let mut command = Command::new(sudo_prefix.first().copied().unwrap_or("apt-get"));
        if !sudo_prefix.is_empty() {
            command.arg("apt-get");
        }
        command.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        command
    };
    run(&mut apt(&["update", "-q"]))?;
    let mut install = apt(&["install", "-y", "-q", "--no-install-recommends"]);
    install.args(packages);
    run(&mut install)
}

/// The path of a Chromium binary, installing Debian's `chromium` if there is none.
/// `LAB_CHROMIUM` overrides the search.
pub fn ensure_chromium() -> Result<PathBuf, XtaskError> {
    if let Some(path) = find_chromium() {
        return Ok(path);
    }
    apt_install(&["chromium"])?;
    find_chromium().ok_or_else(|| XtaskError::MissingTool {
        tool: "chromium",
        hint: "apt-get install chromium did not provide /usr/bin/chromium".into(),
    })
}

/// A Chromium binary that answers `--version`, without installing anything.
pub fn find_chromium() -> Option<PathBuf> {
    let candidates = std::env::var_os("LAB_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from));
    candidates.into_iter().find(|path| path.exists() && probe(path, &["--version"]).is_some())
}

/// The directory of PostgreSQL's server programs (`initdb`, `pg_ctl`), installing Debian's
/// `postgresql` if there is none: the differential test starts a private server with them.
/// `LAB_PG_BIN` overrides the search.
pub fn ensure_postgresql() -> Result<PathBuf, XtaskError> {
    if let Some(bin) = find_postgresql() {
        return Ok(bin);
    }
    apt_install(&["postgresql"])?;
    find_postgresql().ok_or_else(|| XtaskError::MissingTool {
        tool: "postgresql",
        hint: "apt-get install postgresql did not provide /usr/lib/postgresql/<version>/bin".into(),
    })
}

/// PostgreSQL's server programs, newest version first, without installing anything.
pub fn find_postgresql() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("LAB_PG_BIN").map(PathBuf::from) {
        return bin.join("initdb").exists().then_some(bin);
    }
    let mut bins: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| entry.ok().map(|entry| entry.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists() && bin.join("pg_ctl").exists())
        .collect();
    bins.sort();
    bins.pop()
}

/// The oldest Node the package supports, and so the oldest its tests accept.
pub const NODE_MAJOR_MIN: u32 = 18;

/// A Node of [`NODE_MAJOR_MIN`] or later, installing Debian's `nodejs` if there is none: the
/// package's tests run it. `LAB_NODE` overrides the search.
pub fn ensure_node() -> Result<PathBuf, XtaskError> {
    if let Some(node) = find_node() {
        return Ok(node);
    }
    apt_install(&["nodejs"])?;
    find_node().ok_or_else(|| XtaskError::MissingTool {
        tool: "node",
        hint: format!("apt-get install nodejs did not provide Node {NODE_MAJOR_MIN} or later"),
    })
}

/// A Node of [`NODE_MAJOR_MIN`] or later (`LAB_NODE`, else `node` or `nodejs` on PATH),
/// without installing anything.
pub fn find_node() -> Option<PathBuf> {
    let candidates = std::env::var_os("LAB_NODE")
        .map(PathBuf::from)
        .into_iter()
        .chain(["node", "nodejs"].map(PathBuf::from));
    candidates.into_iter().find(|node| {
        probe(node, &["--version"])
            .and_then(|version| {
                version.trim_start_matches('v').split('.').next()?.parse::<u32>().ok()
            })
            .is_some_and(|major| major >= NODE_MAJOR_MIN)
    })
}

/// The wasm-bindgen version that `Cargo.lock` pins: the CLI must match it exactly.
pub fn locked_wasm_bindgen_version(workspace_root: &Path) -> Result<String, XtaskError> {
    let lock_path = workspace_root.join("Cargo.lock");
    let lock = std::fs::read_to_string(&lock_path).map_err(io_error("read", &lock_path))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\""
            && let Some(version) = lines
                .next()
                .and_then(|next| next.trim().strip_prefix("version = \""))
                .and_then(|rest| rest.strip_suffix('"'))
        {
            return Ok(version.to_owned());
        }
    }
    Err(XtaskError::Unexpected {
        path: lock_path,
        problem: "no wasm-bindgen package; run `cargo generate-lockfile`".into(),
    })
}

/// A `wasm-bindgen` binary of exactly `version`, installed with `cargo install` if missing.
pub fn ensure_wasm_bindgen(version: &str) -> Result<PathBuf, XtaskError> {
    let cargo_bin = cargo_home().join("bin");
    let candidates = [PathBuf::from("wasm-bindgen"), cargo_bin.join("wasm-bindgen")];
    let wanted = format!("wasm-bindgen {version}");
    let matches =
        |path: &PathBuf| probe(path, &["--version"]).is_some_and(|v| v.starts_with(&wanted));
    if let Some(found) = candidates.iter().find(|path| matches(path)) {
        return Ok(found.clone());
    }
    // Without --locked: one dependency locked by the CLI's own lock file is not on the registry.
    // With --force: cargo's install records may claim a binary that is gone or another version.
    run(Command::new(cargo())
        .args(["install", "--force", "wasm-bindgen-cli", "--version"])
        .arg(format!("={version}")))?;
    candidates.into_iter().find(matches).ok_or_else(|| XtaskError::MissingTool {
        tool: "wasm-bindgen",
        hint: format!(
            "cargo install wasm-bindgen-cli --version ={version} did not put it on PATH or in {}",
            cargo_bin.display()
        ),
    })
}

/// The npm package that provides a current wasm-opt, pinned.
pub const NPM_BINARYEN: &str = "binaryen@132.0.0";

/// A wasm-opt that can optimize `wasm` (checked by running it), or `None` if none works and
/// none can be installed. Debian's binaryen 108 cannot read current wasm-bindgen output, so a
/// tool on PATH is tried first and npm's binaryen, installed under `tools_dir`, second.
pub fn find_working_wasm_opt(tools_dir: &Path, wasm: &Path) -> Option<PathBuf> {
    let npm_wasm_opt = tools_dir.join("binaryen/node_modules/.bin/wasm-opt");
    let works = |path: &Path| {
        let scratch = tools_dir.join("wasm-opt-probe.wasm");
        let ok = Command::new(path)
            .args(crate::page::WASM_OPT_FEATURES)
            .arg("-O1")
            .arg(wasm)
            .arg("-o")
            .arg(&scratch)
            .output()
            .is_ok_and(|output| output.status.success());
        let _ = std::fs::remove_file(&scratch);
        ok
    };
    if works(Path::new("wasm-opt")) {
        return Some(PathBuf::from("wasm-opt"));
    }
    if !npm_wasm_opt.exists() && probe("npm", &["--version"]).is_some() {
        let prefix = tools_dir.join("binaryen");
        let installed = run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(NPM_BINARYEN));
        if let Err(error) = installed {
            eprintln!("xtask: could not install {NPM_BINARYEN} from npm: {error}");
        }
    }
    works(&npm_wasm_opt).then_some(npm_wasm_opt)
}

/// The cargo that runs this tool (rustup's or the system's).
pub fn cargo() -> PathBuf {
    std::env::var_os("CARGO").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("cargo"))
}

fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME").map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".cargo")
    })
}
