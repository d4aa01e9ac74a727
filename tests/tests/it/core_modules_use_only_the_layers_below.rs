//! The architecture invariants of ARCHITECTURE.md on which core module may use which, checked
//! by reading `core/src`: every `crate::<module>` a module's non-test code names must be in its
//! row of [`MAY_USE`], and every module of the crate must have a row. The table is the layering
//! bottom-up: ids and faults, the store, the step machines, the patterns, the history and the
//! invariants, the wired shop, the simulator (the model), then the checker and the view, which
//! read the model and never each other, the course over the model, the checker (its build
//! task's judge) and the view, and the
//! testing kit on top.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each core module and the core modules its non-test code may name.
const MAY_USE: &[(&str, &[&str])] = &[
    ("ids", &[]),
    ("rng", &[]),
    ("words", &[]),
    ("slice", &[]),
    ("faults", &["words"]),
    ("store", &["ids"]),
    ("sql", &["ids", "store"]),
    ("step", &["ids", "store"]),
    ("shop", &["ids", "store"]),
    ("stock", &["ids", "sql", "step", "store"]),
    ("order", &["ids", "sql", "step", "stock", "store"]),
    ("inbox", &["ids", "sql", "step", "store"]),
    ("outbox", &["ids", "inbox", "sql", "step", "store"]),
    ("idempotency", &["ids", "sql", "step", "store"]),
    ("program", &["ids", "inbox", "order", "sql", "step", "stock", "store", "words"]),
    ("history", &["idempotency", "ids", "store"]),
    ("invariants", &["history", "ids", "store", "words"]),
    ("shop_api", &["idempotency", "ids", "order", "program", "shop", "step", "stock", "store"]),
    (
        "sim",
        &[
            "faults",
            "history",
            "idempotency",
            "ids",
            "inbox",
            "invariants",
            "order",
            "outbox",
            "program",
            "rng",
            "shop",
            "shop_api",
            "step",
            "stock",
            "store",
        ],
    ),
    (
        "check",
        &["faults", "history", "ids", "invariants", "program", "sim", "slice", "store", "words"],
    ),
    (
        "view",
        &[
            "faults",
            "history",
            "idempotency",
            "ids",
            "inbox",
            "invariants",
            "sim",
            "sql",
            "store",
            "words",
        ],
    ),
    // The build task: the learner's program (`program`) judged by the checker (`check`).
    ("course", &["check", "faults", "ids", "invariants", "program", "sim", "view", "words"]),
    (
        "testing",
        &[
            "check",
            "faults",
            "idempotency",
            "ids",
            "inbox",
            "invariants",
            "outbox",
            "rng",
            "shop",
            "sim",
            "slice",
            "step",
            "store",
        ],
    ),
];

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "tests" && name != "snapshots") {
                rust_files(&path, files);
            }
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && path.file_name().is_some_and(|name| name != "tests.rs")
        {
            files.push(path);
        }
    }
}

/// The core modules named by `crate::<module>` in `line`.
fn named_modules(line: &str) -> Vec<&str> {
    line.match_indices("crate::")
        .map(|(at, _)| {
            let rest = &line[at + "crate::".len()..];
            let end =
                rest.find(|c: char| !(c.is_ascii_lowercase() || c == '_')).unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|module| !module.is_empty())
        .collect()
}

#[test]
fn each_core_module_uses_only_the_modules_its_row_allows() {
    let src = xtask::workspace_root().join("core/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut modules = BTreeSet::new();
    let mut breaches = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = relative
            .components()
            .next()
            .and_then(|first| first.as_os_str().to_str())
            .map(|first| first.trim_end_matches(".rs"))
            .unwrap();
        if module == "lib" {
            continue;
        }
        modules.insert(module.to_owned());
        let Some((_, allowed)) = MAY_USE.iter().find(|(name, _)| *name == module) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        // Test code may use anything: it ends the file, from its `#[cfg(test)]` on.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for used in named_modules(line) {
                if used != module && !allowed.contains(&used) {
                    breaches.push(format!(
                        "{}:{}: {module} uses {used}",
                        relative.display(),
                        number + 1
                    ));
                }
            }
        }
    }
    assert_eq!(breaches, Vec::<String>::new(), "core modules breaking the layering");
    let listed: BTreeSet<String> = MAY_USE.iter().map(|(name, _)| (*name).to_owned()).collect();
    assert_eq!(modules, listed, "every core module has exactly one row in MAY_USE");
}

#[test]
fn a_use_of_a_higher_layer_is_noticed() {
    assert_eq!(named_modules("use crate::sim::{World, Action};"), ["sim"]);
    assert_eq!(
        named_modules("let x = crate::view::pending(w); crate::ids::Tick(0)"),
        ["view", "ids"]
    );
    assert_eq!(named_modules("use crate::{self};"), Vec::<&str>::new());
}
