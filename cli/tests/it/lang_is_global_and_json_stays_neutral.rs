//! `--lang` is global: every command takes it, before or after its arguments. `run --lang ru`
//! prints the invariant report and the violation sentences in Russian from the core's
//! catalogue, with Russian plurals; the trace lines and every `--json` output are the same in
//! both languages. The expected Russian is in `snapshots/`.

use crate::common::run_cli;
use expect_test::expect_file;
use idempotency_lab::words::Language;

#[test]
fn run_in_russian_reports_the_violations_in_russian() {
    let run = run_cli(&["run", "f01-duplicate-delivery", "--mode", "naive", "--lang", "ru"]);
    assert_eq!(run.code, 1);
    let stopped = Language::Ru.words().report.report_stopped.split(':').next().unwrap();
    let report: Vec<&str> =
        run.stdout.lines().skip_while(|line| !line.starts_with(stopped)).collect();
    // The report, the I2 sentence among it, with Russian plurals.
    expect_file!["snapshots/run_f01_naive_report_ru.txt"].assert_eq(&report.join("\n"));
    // The trace lines between the header and the report are the English run's.
    let english = run_cli(&["run", "f01-duplicate-delivery", "--mode", "naive"]);
    let steps = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter(|line| line.trim_start().starts_with(char::is_numeric))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(steps(&run.stdout), steps(&english.stdout));
}

#[test]
fn every_command_takes_lang_and_json_is_the_same_in_both_languages() {
    for args in [
        &["run", "f01-duplicate-delivery", "--json"][..],
        &["check", "f01-duplicate-delivery", "--mode", "naive", "--json"],
        &["fuzz", "f01-duplicate-delivery", "--mode", "idempotent", "--cases", "8", "--json"],
    ] {
        let english = run_cli(args);
        let mut russian_args = vec!["--lang", "ru"];
        russian_args.extend_from_slice(args);
        let russian = run_cli(&russian_args);
        assert_eq!(russian.code, english.code, "{args:?}");
        assert_eq!(russian.stdout, english.stdout, "{args:?}: JSON is language-neutral");
    }
    let sql = run_cli(&["sql", "f01-duplicate-delivery", "--lang", "ru"]);
    assert_eq!(sql.code, 0, "{}", sql.stderr);
    let fuzz = run_cli(&[
        "fuzz",
        "f01-duplicate-delivery",
        "--mode",
        "idempotent",
        "--cases",
        "8",
        "--lang",
        "ru",
    ]);
    assert_eq!(fuzz.code, 0, "{}", fuzz.stderr);
    expect_file!["snapshots/fuzz_f01_idempotent_ru.txt"].assert_eq(&fuzz.stdout);
    let check =
        run_cli(&["check", "f01-duplicate-delivery", "--mode", "idempotent", "--lang", "ru"]);
    let proved = Language::Ru.words().report.check_proved.split('{').next().unwrap();
    assert!(check.stdout.starts_with(proved), "{}", check.stdout);
}
