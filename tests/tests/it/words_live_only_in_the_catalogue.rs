//! Every learner-facing string is an entry of the core's catalogue (`core/src/words/`), so
//! the Russian page, embed and CLI come from one place: no `.rs` file of the workspace outside
//! that folder holds a Cyrillic letter (its tests included: they read the expected Russian
//! from the catalogue, or pin it in snapshot files, or in `core/src/words/tests/`), and every
//! entry of the catalogue exists, non-empty, in every language.

use std::path::Path;

use idempotency_lab::words::{Entry, Language, is_cyrillic};
use idempotency_lab_tests::sources::files_with_extension;

/// The folder that holds the catalogue, the one place Russian is written in Rust.
const CATALOGUE_DIR: &str = "core/src/words";

/// Files outside the catalogue that may hold Cyrillic, each with its reason: none.
const ALLOWED: &[(&str, &str)] = &[];

/// `file:line: text` for each line of a `.rs` file outside the catalogue with a Cyrillic letter.
fn cyrillic_outside_the_catalogue(root: &Path) -> Vec<String> {
    let mut files = files_with_extension(root, "rs");
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if relative.starts_with(&format!("{CATALOGUE_DIR}/"))
            || ALLOWED.iter().any(|(allowed, _)| *allowed == relative)
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.chars().any(is_cyrillic) {
                found.push(format!("{relative}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_rust_file_outside_the_catalogue_holds_russian() {
    let root = xtask::workspace_root();
    assert!(root.join(CATALOGUE_DIR).join("catalogue.rs").is_file(), "the catalogue moved");
    let found = cyrillic_outside_the_catalogue(&root);
    assert!(
        found.is_empty(),
        "Russian outside {CATALOGUE_DIR}/: make it an entry of the catalogue (both languages) \
         and read it from there:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_russian_line_is_noticed() {
    let dir = std::env::temp_dir().join(format!("lab-words-{}", std::process::id()));
    let words = dir.join(CATALOGUE_DIR);
    std::fs::create_dir_all(&words).unwrap();
    std::fs::create_dir_all(dir.join("web/src")).unwrap();
    std::fs::write(words.join("ru.rs"), "const A: &str = \"\u{448}\u{430}\u{433}\";\n").unwrap();
    std::fs::write(dir.join("web/src/app.rs"), "// ok\nlet a = \"\u{448}\u{430}\u{433}\";\n")
        .unwrap();
    let found = cyrillic_outside_the_catalogue(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("web/src/app.rs:2: "), "{found:?}");
}

#[test]
fn every_catalogue_key_exists_in_every_language_and_is_not_empty() {
    let names = |language: Language| -> Vec<&'static str> {
        language.words().entries().into_iter().map(|(name, _)| name).collect()
    };
    let english = names(Language::En);
    for language in Language::ALL {
        assert_eq!(names(language), english, "{language}: the keys differ from English");
        for (name, entry) in language.words().entries() {
            let forms = match entry {
                Entry::Text(text) => vec![text],
                Entry::Plural(plural) => vec![plural.one, plural.few, plural.many],
            };
            for form in forms {
                assert!(!form.trim().is_empty(), "{language} {name} is empty");
            }
        }
    }
}
