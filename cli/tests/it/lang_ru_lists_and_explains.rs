//! `--lang ru` gives the catalogue and a lesson's explanation in Russian, with the core's
//! texts (the lesson's translation, the invariants' and faults' Russian titles); an unknown
//! language is a usage error (exit 2); a scenario file of one's own keeps its own texts. The
//! expected Russian is in `snapshots/`, as no `.rs` file outside the core's catalogue holds
//! Russian.

use crate::common::run_cli;
use expect_test::expect_file;
use idempotency_lab::sim::CATALOGUE;
use idempotency_lab::view::Language;

#[test]
fn list_in_russian_prints_each_lessons_russian_title() {
    let run = run_cli(&["list", "--lang", "ru"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout.lines().count(), CATALOGUE.len());
    for (line, entry) in run.stdout.lines().zip(CATALOGUE) {
        let russian = entry.text(Language::Ru).unwrap();
        assert!(line.starts_with(entry.id), "{line}");
        assert!(line.ends_with(&russian.title), "{line} does not end with {:?}", russian.title);
    }
    expect_file!["snapshots/list_ru_first_line.txt"].assert_eq(run.stdout.lines().next().unwrap());
    // English stays the default.
    assert_eq!(run_cli(&["list", "--lang", "en"]).stdout, run_cli(&["list"]).stdout);
}

#[test]
fn explain_in_russian_tells_the_duplicate_delivery_lesson() {
    let run = run_cli(&["explain", "f01-duplicate-delivery", "--lang", "ru"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    expect_file!["snapshots/explain_f01_ru.txt"].assert_eq(&run.stdout);
}

#[test]
fn an_unknown_language_is_a_usage_error() {
    let run = run_cli(&["list", "--lang", "de"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("unknown language \"de\": the lab speaks `en` and `ru`"),
        "{}",
        run.stderr
    );
}

#[test]
fn explain_in_russian_of_an_own_file_keeps_its_own_text() {
    let dir = crate::common::scratch_dir("lang-ru-own-file");
    let path = dir.join("mine.json");
    std::fs::write(
        &path,
        r#"{"format_version": 1, "id": "f01-duplicate-delivery", "title": "My own lesson",
            "description": "My words.", "requests": []}"#,
    )
    .unwrap();
    let run = run_cli(&["explain", path.to_str().unwrap(), "--lang", "ru"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[1..4], ["My own lesson", "", "My words."]);
    assert!(lines.contains(&Language::Ru.words().glossary.explain_faults), "{}", run.stdout);
}
