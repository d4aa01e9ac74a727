//! `--lang` is global: every command takes it, before or after its arguments. `run --lang ru`
//! prints the invariant report and the violation sentences in Russian from the core's
//! catalogue, with Russian plurals; the trace lines and every `--json` output are the same in
//! both languages.

use crate::common::run_cli;

#[test]
fn run_in_russian_reports_the_violations_in_russian() {
    let run = run_cli(&["run", "f01-duplicate-delivery", "--mode", "naive", "--lang", "ru"]);
    assert_eq!(run.code, 1);
    let report: Vec<&str> =
        run.stdout.lines().skip_while(|line| !line.starts_with("остановка")).collect();
    assert_eq!(
        report[..4],
        [
            "остановка: покой (ничего не ждёт) после 27 шагов, на тике 0",
            "сработавшие сбои: F1 x1",
            "нарушено инвариантов: 2",
            "  I2 Одна резервация на строку заказа: впервые нарушен на шаге 26 (нарушен и в конце)",
        ]
    );
    let sentence = report[4..]
        .iter()
        .take_while(|line| !line.starts_with("  I6"))
        .map(|line| line.trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        sentence,
        "У заказа 73128e1c-fa54-4a40-a579-c0096c3c237c зарезервировано apple: 6 единиц, но он \
         просит только 3: эффект резервации выполнился дважды."
    );
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
    assert_eq!(fuzz.stdout, "нарушений нет: 8 случаев (различных seed: 8)\n");
    let check =
        run_cli(&["check", "f01-duplicate-delivery", "--mode", "idempotent", "--lang", "ru"]);
    assert!(check.stdout.starts_with("доказано в пределах глубины"), "{}", check.stdout);
}
