//! `idempotency-lab handler check`: the seed's consumer, and its `MarkPaid`, written as
//! programs hold for every schedule (exit 0, the state counts pinned); each typical wrong answer gets its shortest
//! counterexample with the invariant, the sentence on why and the trace (exit 1), whose JSON
//! `replay` reproduces; a program that does not validate names the file, the block and its line
//! (exit 2); a bound reached first is not a proof (exit 3). The expected Russian is in
//! `snapshots/`, as no `.rs` file outside the core's catalogue holds Russian.

use expect_test::expect_file;
use idempotency_lab::words::Language;

use crate::common::{run_cli, run_cli_in, scratch_dir};

/// The example program `name` (under `examples/programs/`).
fn example(name: &str) -> String {
    format!("{}/../examples/programs/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The exit code, then from stdout the schedules judged, the verdict (with the shortest
/// path's length), the invariants broken and why, in the order printed: every line up to the
/// sentence on why, but the blank ones and the trace's.
fn check_verdict(args: &[&str], expect: expect_test::Expect) {
    expect.assert_eq(&verdict_lines(args));
}

fn verdict_lines(args: &[&str]) -> String {
    let run = run_cli(args);
    let mut shown: Vec<String> = vec![format!("exit {}", run.code)];
    let language = if args.contains(&"ru") { Language::Ru } else { Language::En };
    let why = [
        language.words().report.handler_why_ack_before_commit,
        language.words().report.handler_why_inbox_own_transaction,
        language.words().report.handler_why_check_then_insert,
        language.words().report.handler_why_no_inbox,
        language.words().report.handler_why_check_then_update,
        language.words().report.handler_why_unguarded_update,
        language.words().report.handler_why_other,
    ];
    for line in run.stdout.lines() {
        if !line.is_empty() && !line.contains("first broken at step") {
            shown.push(line.to_owned());
        }
        if why.contains(&line) || run.code != 1 && shown.len() == 3 {
            break;
        }
    }
    shown.join("\n")
}

#[test]
fn the_seeds_consumer_holds_and_exits_0() {
    check_verdict(
        &["handler", "check", &example("consumer-seed.json")],
        expect_test::expect![[r#"
            exit 0
            p4-inbox-consumer: schedules: every interleaving of two consumer instances, with one duplicate delivery, one crash after commit and one crash before commit
            holds for every schedule within the bounds: 39084 states, depth 43"#]],
    );
}

#[test]
fn ack_before_commit_gets_a_counterexample_and_exits_1() {
    check_verdict(
        &["handler", "check", &example("consumer-ack-before-commit.json")],
        expect_test::expect![[r#"
            exit 1
            p4-inbox-consumer: schedules: every interleaving of two consumer instances, with one duplicate delivery, one crash after commit and one crash before commit
            violated after 20123 states (25255 unique): shortest path of 29 steps
              I6 Each OrderPlaced processed once: At quiescence, reserve-stock processed OrderPlaced d051b29e-45c8-4853-a592-75602f463cea of order 73128e1c-fa54-4a40-a579-c0096c3c237c 0 times, not exactly once (the message was published once).
            Why: the ACK runs before the COMMIT, so a crash in between rolls the effect back after the broker has forgotten the message, and nothing redelivers it."#]],
    );
}

#[test]
fn the_inbox_row_in_its_own_transaction_gets_a_counterexample() {
    check_verdict(
        &["handler", "check", &example("consumer-inbox-in-its-own-transaction.json")],
        expect_test::expect![[r#"
            exit 1
            p4-inbox-consumer: schedules: every interleaving of two consumer instances, with one duplicate delivery, one crash after commit and one crash before commit
            violated after 64 states (123 unique): shortest path of 18 steps
              I5 Inbox row exactly when applied: Inbox row (d051b29e-45c8-4853-a592-75602f463cea, reserve-stock) exists, but reserve-stock never applied message d051b29e-45c8-4853-a592-75602f463cea.
            Why: the inbox row commits in a transaction of its own, so for a moment (and forever, if the consumer crashes then) the inbox says the message was processed while its effect is not there."#]],
    );
}

#[test]
fn check_then_insert_gets_a_counterexample_in_russian_too() {
    let args = ["handler", "check", &example("consumer-check-then-insert.json"), "--lang", "ru"];
    expect_file!["snapshots/handler_check_then_insert_ru.txt"].assert_eq(&verdict_lines(&args));
}

#[test]
fn the_naive_consumer_gets_a_counterexample() {
    check_verdict(
        &[
            "handler",
            "check",
            &example("consumer-naive.json"),
            "--lesson",
            "f01-duplicate-delivery",
        ],
        expect_test::expect![[r#"
            exit 1
            f01-duplicate-delivery: schedules: every interleaving of two consumer instances, with one duplicate delivery, one crash after commit and one crash before commit
            violated after 6474 states (10447 unique): shortest path of 25 steps
              I2 One reservation per order line: Order 73128e1c-fa54-4a40-a579-c0096c3c237c has 6 units of apple reserved, but it asks for only 3: the reservation effect ran twice.
            Why: nothing remembers that the message was processed, so a duplicate or a redelivery after a crash applies the effect again."#]],
    );
}

#[test]
fn the_json_counterexample_is_a_trace_that_replays() {
    let run = run_cli(&["handler", "check", &example("consumer-ack-before-commit.json"), "--json"]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("Why: the ACK runs before the COMMIT"), "{}", run.stderr);
    assert!(run.stdout.contains("\"consumer_program\""), "the trace carries the program");
    let dir = scratch_dir("handler_check_json");
    std::fs::write(dir.join("counterexample.json"), &run.stdout).unwrap();
    let replay = run_cli_in(&dir, &["replay", "counterexample.json"]);
    assert_eq!(replay.code, 0, "replays: {}{}", replay.stdout, replay.stderr);
}

#[test]
fn an_invalid_program_names_the_file_and_the_block_and_exits_2() {
    let path = example("invalid-commit-without-begin.json");
    let run = run_cli(&["handler", "check", &path]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    expect_test::expect![[r#"
        error: program `PROGRAM` is refused: block 5: commit without BEGIN
          at:      line 10, column 5
          field:   `blocks[5]`
           |
        10 |     {"block": "commit"},
           |     ^
    "#]]
    .assert_eq(&run.stderr.replace(&path, "PROGRAM"));
}

#[test]
fn a_malformed_program_names_the_line_the_column_and_the_field() {
    let dir = scratch_dir("handler_check_malformed");
    let text = std::fs::read_to_string(example("consumer-seed.json"))
        .unwrap()
        .replace("\"guard\": \"available_qty\"", "\"guard\": \"sometimes\"");
    std::fs::write(dir.join("program.json"), text).unwrap();
    let run = run_cli_in(&dir, &["handler", "check", "program.json"]);
    assert_eq!(run.code, 2);
    expect_test::expect![[r#"
        error: program file `program.json` is malformed
          at:      line 12, column 4
          field:   `blocks[6]`
          problem: unknown variant `sometimes`, expected `none` or `available_qty`
           |
        12 |     {"block": "label", "name": "next"},
           |    ^
    "#]]
    .assert_eq(&run.stderr);
    let missing = run_cli_in(&dir, &["handler", "check", "nowhere.json"]);
    assert_eq!(missing.code, 2);
    assert_eq!(missing.stderr, "error: program file `nowhere.json` does not exist\n");
    let lesson = run_cli_in(&dir, &["handler", "check", "program.json", "--lesson", "f99"]);
    assert_eq!(lesson.code, 2);
}

#[test]
fn a_bound_reached_first_is_not_a_proof_and_exits_3() {
    let run = run_cli(&["handler", "check", &example("consumer-seed.json"), "--states-max", "500"]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("not a proof"), "{}", run.stdout);
}

#[test]
fn the_seeds_mark_paid_holds_in_the_p2_lesson_by_default() {
    check_verdict(
        &["handler", "check", &example("mark-paid-seed.json")],
        expect_test::expect![[r#"
        exit 0
        p2-order-state-machine: schedules: every interleaving of the shop around the payment request, with one lost answer and its retry with the same key, and no Idempotency-Key layer in front of MarkPaid
        holds for every schedule within the bounds: 2433 states, depth 52"#]],
    );
}

#[test]
fn select_for_update_holds_too() {
    check_verdict(
        &["handler", "check", &example("mark-paid-select-for-update.json")],
        expect_test::expect![[r#"
            exit 0
            p2-order-state-machine: schedules: every interleaving of the shop around the payment request, with one lost answer and its retry with the same key, and no Idempotency-Key layer in front of MarkPaid
            holds for every schedule within the bounds: 2798 states, depth 53"#]],
    );
}

#[test]
fn the_update_without_the_status_guard_gets_a_counterexample() {
    check_verdict(
        &["handler", "check", &example("mark-paid-update-without-status-guard.json")],
        expect_test::expect![[r#"
            exit 1
            p2-order-state-machine: schedules: every interleaving of the shop around the payment request, with one lost answer and its retry with the same key, and no Idempotency-Key layer in front of MarkPaid
            violated after 1337 states (1358 unique): shortest path of 37 steps
              I3 Charged at most once: Order 73128e1c-fa54-4a40-a579-c0096c3c237c was charged twice: charge-1 (payment pay-1), charge-2 (payment pay-1).
            Why: the UPDATE has no status guard, so it moves a paid order to paid again and reports 1 row: every repeat of the payment charges once more."#]],
    );
}

#[test]
fn the_naive_mark_paid_gets_a_counterexample_in_russian_too() {
    let args = ["handler", "check", &example("mark-paid-naive.json"), "--lang", "ru"];
    expect_file!["snapshots/handler_mark_paid_naive_ru.txt"].assert_eq(&verdict_lines(&args));
}
