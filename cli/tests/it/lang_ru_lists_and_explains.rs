//! `--lang ru` gives the catalogue and a lesson's explanation in Russian, with the core's
//! texts (the lesson's translation, the invariants' and faults' Russian titles); an unknown
//! language is a usage error (exit 2); a scenario file of one's own keeps its own texts.

use crate::common::run_cli;
use expect_test::expect;
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
    expect!["f01-duplicate-delivery         F1: брокер доставляет сообщение дважды"]
        .assert_eq(run.stdout.lines().next().unwrap());
    // English stays the default.
    assert_eq!(run_cli(&["list", "--lang", "en"]).stdout, run_cli(&["list"]).stdout);
}

#[test]
fn explain_in_russian_tells_the_duplicate_delivery_lesson() {
    let run = run_cli(&["explain", "f01-duplicate-delivery", "--lang", "ru"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    expect![[r#"
        f01-duplicate-delivery
        F1: брокер доставляет сообщение дважды

        Клиент заказывает 3 яблока. Relay публикует сообщение OrderPlaced этого заказа, а
        брокер, который обещает доставку как минимум один раз, кладёт в очередь вторую копию.
        Наивный консьюмер резервирует остаток на каждую копию: за заказом числится 6 яблок, хотя
        он просил 3 (I2), и в итоге сообщение обработано дважды (I6). Идемпотентный консьюмер
        вставляет id сообщения в свой Inbox в той же транзакции, что и резервацию; вторая копия
        упирается в уникальный ключ, транзакция откатывается, и сообщение подтверждается без
        эффекта.

        Паттерны, которые переключает --mode:
          P1  резервация остатка (одна резервация на строку заказа)
          P2  конечный автомат заказа (оплата и отмена один раз)
          P3  слой Idempotency-Key в API
          P4  Inbox консьюмера резервации остатка
        Сбои:
          F1   внедрён: брокер доставляет сообщение дважды
        Ожидаемые нарушения (seed 0):
          naive       I2 Одна резервация на строку заказа, I6 Каждое OrderPlaced обработано один раз
          idempotent  нет
        Посмотреть: idempotency-lab run f01-duplicate-delivery --mode naive
    "#]]
    .assert_eq(&run.stdout);
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
    assert!(lines.contains(&"Сбои:"), "{}", run.stdout);
}
