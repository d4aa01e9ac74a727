//! The architecture invariants of ARCHITECTURE.md that the layering and catalogue tests do not
//! cover, checked by reading the workspace's sources: the core reads no clock, file, network,
//! process or OS randomness and depends on nothing of the web; it decides no order by hashing;
//! every crate forbids `unsafe` through the workspace's lints; every `.rs` file opens with a
//! `//!` paragraph. Each rule is a pure function over file texts, and a test beside each shows
//! that a breaking line is noticed.

use std::path::Path;

use idempotency_lab_tests::sources::files_with_extension;

/// What the core may not name in its code (comments aside), each with what it would bring in.
const CORE_FORBIDDEN: &[(&str, &str)] = &[
    ("Instant", "a clock"),
    ("SystemTime", "a clock"),
    ("std::fs", "the file system"),
    ("std::net", "the network"),
    ("std::process", "other processes"),
    ("std::env", "the environment"),
    ("std::io::stdin", "the terminal"),
    ("thread_rng", "OS randomness"),
    ("OsRng", "OS randomness"),
    ("getrandom", "OS randomness"),
];

/// Core files allowed one of [`CORE_FORBIDDEN`], each with the name and the reason.
const CORE_ALLOWED: &[(&str, &str, &str)] = &[(
    "core/src/testing/config.rs",
    "std::env",
    "proptest's own PROPTEST_CASES and PROPTEST_RNG_SEED steer every property test",
)];

/// Hashed collections: iterating one decides an order by hash.
const HASHED: &[&str] = &["HashMap", "HashSet"];

/// Core files that may hold a hashed collection, each with why no order follows from it.
const HASHED_ALLOWED: &[(&str, &str)] =
    &[("core/src/check/explorer.rs", "the set of visited fingerprints, only asked for membership")];

/// Crates of the web that the core may not depend on.
const WEB_CRATES: &[&str] = &["wasm-bindgen", "web-sys", "js-sys", "yew", "gloo", "getrandom"];

/// Every `.rs` file under `dir`, as (path relative to `root` with `/`, text), sorted.
fn rust_sources(root: &Path, dir: &str) -> Vec<(String, String)> {
    let mut files = files_with_extension(&root.join(dir), "rs");
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(&file).unwrap();
            (relative, text)
        })
        .collect()
}

/// A line without its `//` comment.
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// `file:line: name (what it brings)` for each forbidden name in the core's code.
fn core_reaches_outside(sources: &[(String, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (file, text) in sources {
        for (number, line) in text.lines().enumerate() {
            for (name, what) in CORE_FORBIDDEN {
                let allowed = CORE_ALLOWED.iter().any(|(f, n, _)| f == file && n == name);
                if !allowed && code_of(line).contains(name) {
                    found.push(format!("{file}:{}: {name} ({what})", number + 1));
                }
            }
        }
    }
    found
}

/// `file:line: name` for each hashed collection in the core's code outside [`HASHED_ALLOWED`].
fn core_hashes(sources: &[(String, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (file, text) in sources {
        if HASHED_ALLOWED.iter().any(|(allowed, _)| allowed == file) {
            continue;
        }
        for (number, line) in text.lines().enumerate() {
            for name in HASHED {
                if code_of(line).contains(name) {
                    found.push(format!("{file}:{}: {name}", number + 1));
                }
            }
        }
    }
    found
}

/// The web crates a manifest names in a section of dependencies the library builds with
/// (`[dependencies]` and target-specific ones; dev- and build-dependencies aside).
fn web_dependencies(manifest: &str) -> Vec<String> {
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        if in_dependencies && WEB_CRATES.contains(&name) {
            found.push(name.to_string());
        }
    }
    found
}

/// Whether a member's manifest takes the workspace's lints (`[lints]` then `workspace = true`).
fn takes_workspace_lints(manifest: &str) -> bool {
    let mut in_lints = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_lints = line == "[lints]";
        } else if in_lints && line.replace(' ', "") == "workspace=true" {
            return true;
        }
    }
    false
}

/// The workspace's members, read from the root manifest's `members = [...]` line.
fn members(root_manifest: &str) -> Vec<String> {
    let line = root_manifest
        .lines()
        .find(|line| line.trim_start().starts_with("members"))
        .expect("the root manifest lists its members on one line");
    line.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

/// The files whose first line is not a `//!` paragraph.
fn files_without_a_purpose(sources: &[(String, String)]) -> Vec<String> {
    sources
        .iter()
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(file, _)| file.clone())
        .collect()
}

#[test]
fn the_core_reads_no_clock_file_network_or_os_randomness() {
    let root = xtask::workspace_root();
    let sources = rust_sources(&root, "core/src");
    assert!(sources.len() > 50, "core/src moved: {} files found", sources.len());
    let found = core_reaches_outside(&sources);
    assert!(
        found.is_empty(),
        "the core must stay sans-IO: time and randomness are arguments (a Tick, a seeded \
         DeterministicRng):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_core_depends_on_nothing_of_the_web() {
    let root = xtask::workspace_root();
    let manifest = std::fs::read_to_string(root.join("core/Cargo.toml")).unwrap();
    assert_eq!(web_dependencies(&manifest), Vec::<String>::new());
}

#[test]
fn the_core_decides_no_order_by_hashing() {
    let root = xtask::workspace_root();
    let found = core_hashes(&rust_sources(&root, "core/src"));
    assert!(
        found.is_empty(),
        "use BTreeMap/BTreeSet, or list the file with why no order follows from it:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_crate_forbids_unsafe_through_the_workspace_lints() {
    let root = xtask::workspace_root();
    let root_manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        root_manifest.contains("[workspace.lints.rust]")
            && root_manifest.contains("unsafe_code = \"forbid\""),
        "the workspace's lints must forbid unsafe code"
    );
    let members = members(&root_manifest);
    assert!(members.len() >= 6, "members: {members:?}");
    for member in members {
        let manifest = std::fs::read_to_string(root.join(&member).join("Cargo.toml")).unwrap();
        assert!(
            takes_workspace_lints(&manifest),
            "{member}/Cargo.toml needs [lints] workspace = true"
        );
    }
}

#[test]
fn every_rust_file_opens_with_its_purpose() {
    let root = xtask::workspace_root();
    let sources = rust_sources(&root, ".");
    assert!(sources.len() > 200, "the workspace moved: {} files found", sources.len());
    let found = files_without_a_purpose(&sources);
    assert!(found.is_empty(), "open each with a `//!` paragraph:\n{}", found.join("\n"));
}

#[test]
fn a_breaking_line_is_noticed_by_each_rule() {
    let file = |path: &str, text: &str| vec![(path.to_string(), text.to_string())];
    let clock = file("core/src/sim/clock.rs", "//! x\nlet now = std::time::Instant::now();\n");
    assert_eq!(core_reaches_outside(&clock), ["core/src/sim/clock.rs:2: Instant (a clock)"]);
    let comment = file("core/src/sim/clock.rs", "//! x\n// not Instant::now(), a Tick\n");
    assert!(core_reaches_outside(&comment).is_empty());
    let env_elsewhere = file("core/src/sim/world.rs", "let v = std::env::var(\"X\");\n");
    assert_eq!(core_reaches_outside(&env_elsewhere).len(), 1);
    let env_allowed = file("core/src/testing/config.rs", "let v = std::env::var(\"X\");\n");
    assert!(core_reaches_outside(&env_allowed).is_empty());

    let hashed = file("core/src/view/diagram.rs", "use std::collections::HashMap;\n");
    assert_eq!(core_hashes(&hashed), ["core/src/view/diagram.rs:1: HashMap"]);

    let web = "[dependencies]\nserde = \"1\"\n\n[target.'cfg(target_arch = \"wasm32\")'.dependencies]\n\
               wasm-bindgen = \"0.2\"\n\n[dev-dependencies]\nyew = \"0.23\"\n";
    assert_eq!(web_dependencies(web), ["wasm-bindgen"]);

    assert!(takes_workspace_lints("[package]\nname = \"x\"\n\n[lints]\nworkspace = true\n"));
    assert!(!takes_workspace_lints("[package]\nname = \"x\"\nworkspace = true\n"));
    assert_eq!(members("[workspace]\nmembers = [\"core\", \"web\"]\n"), ["core", "web"]);

    let bare = file("web/src/x.rs", "use std::fmt;\n//! late\n");
    assert_eq!(files_without_a_purpose(&bare), ["web/src/x.rs"]);
}
