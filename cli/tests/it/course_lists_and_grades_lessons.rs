//! `idempotency-lab course` lists the workshop course; `lesson <id>` tells a lesson without
//! its answers; `lesson <id> --check <trace.json>...` grades the learner's own traces against
//! the lesson's tasks: exit 0 when every task passed, 1 not yet (with the core's reason and
//! the task's hint), 2 for an unknown lesson or a bad trace file.

use crate::common::{run_cli, scratch_dir};
use expect_test::{expect, expect_file};

/// `run --json` of a lesson's scenario in `mode`, saved under `dir` as `name`.
fn saved_run(dir: &std::path::Path, scenario: &str, mode: &str, name: &str) -> String {
    let run = run_cli(&["run", scenario, "--mode", mode, "--json"]);
    assert!(run.code <= 1, "{}", run.stderr);
    let path = dir.join(name);
    std::fs::write(&path, &run.stdout).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn course_lists_every_lesson_in_order_in_both_languages() {
    let run = run_cli(&["course"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    expect![[r#"
        1. reservation-ledger: P1. The reservation ledger (7 steps)
        2. mark-paid: P2. MarkPaid on the order state machine (5 steps)
        3. idempotency-key: P3. The Idempotency-Key layer (6 steps)
        4. inbox: P4. The inbox consumer (5 steps)
        5. build-consumer: Build it yourself: the consumer (P4 + P1) (3 steps)
        6. build-mark-paid: Build it yourself: MarkPaid (P2) (3 steps)
        7. lease-takeover: Beyond the article: lease and takeover (4 steps)
        8. fencing: Beyond the article: a slow request and the fencing token (5 steps)
        9. fingerprint: Beyond the article: one key, another body (422) (4 steps)
        10. retention: Beyond the article: retention (4 steps)
        11. outbox-relay: Beyond the article: outbox and relay (5 steps)
        12. races: Beyond the article: two instances at once (5 steps)
        13. crash-before-commit: Beyond the article: where the crash happens (4 steps)
        14. new-key: Beyond the article: what keys cannot fix (3 steps)
    "#]]
    .assert_eq(&run.stdout);
    let run = run_cli(&["--lang", "ru", "course"]);
    assert_eq!(run.code, 0);
    // In Russian, with Russian plurals (one, few, many).
    expect_file!["snapshots/course_ru.txt"].assert_eq(&run.stdout);
}

#[test]
fn lesson_tells_the_steps_without_their_answers() {
    let run = run_cli(&["lesson", "reservation-ledger"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert!(run.stdout.starts_with("Lesson 1 of 14: P1. The reservation ledger\n\n"));
    assert!(
        run.stdout.contains("2. Prediction (naive): The broker will deliver OrderPlaced twice.")
    );
    assert!(run.stdout.contains("3. Task: Break it yourself."));
    // A task whose run starts without the scenario's own faults says how to start it here.
    assert!(run.stdout.contains("\n   From a terminal: this task's run starts without the scenario's own faults; place yours (F1) with idempotency-lab run p1-stock-reservation --no-scripted-faults --inject <choice> --json\n4. Narration"), "{}", run.stdout);
    assert!(run.stdout.contains("5. Task: Keep the same schedule, switch P1 to idempotent"));
    // The explanation after a right answer is not printed: it gives the answer away.
    assert!(!run.stdout.contains("4: each delivery took 3 apples"), "{}", run.stdout);
    assert!(run.stdout.ends_with("idempotency-lab lesson reservation-ledger --check <trace.json>... (traces from the page's \"Trace JSON\" button or from run --json)\n"));
}

#[test]
fn lesson_check_passes_a_task_that_one_of_the_traces_passes() {
    let dir = scratch_dir("lesson-check-inbox");
    let naive = saved_run(&dir, "p4-inbox-consumer", "naive", "naive.json");
    let switched = saved_run(&dir, "p4-inbox-consumer", "idempotent", "switched.json");
    let run = run_cli(&["lesson", "inbox", "--check", &naive]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    expect![[r#"
        task 4: not yet: From the lesson's start, P1 naive, P2 idempotent, P3 idempotent, P4 naive, switch exactly one pattern, P4, to idempotent, and leave the others as they start. Hint: The consumer's pattern is P4; the crash stays in the run.
        0 of 1 tasks passed
    "#]]
    .assert_eq(run.stdout.split("\n\n").last().unwrap());
    let run = run_cli(&["lesson", "inbox", "--check", &naive, &switched]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.ends_with("task 4: passed\n1 of 1 tasks passed\n"), "{}", run.stdout);
    let run = run_cli(&["--lang", "ru", "lesson", "inbox", "--check", &switched]);
    assert_eq!(run.code, 0);
    expect_file!["snapshots/lesson_inbox_check_passed_ru.txt"]
        .assert_eq(run.stdout.split("\n\n").last().unwrap());
}

#[test]
fn lesson_check_says_which_task_waits_and_why() {
    let dir = scratch_dir("lesson-check-other");
    // A run of another lesson's scenario passes nothing here.
    let other = saved_run(&dir, "f04-concurrent-delivery", "idempotent", "other.json");
    let run = run_cli(&["lesson", "crash-before-commit", "--check", &other]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("task 3: not yet: This run is not of this lesson: open the lesson again."),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("0 of 2 tasks passed\n"), "{}", run.stdout);
}

#[test]
fn lesson_refuses_an_unknown_lesson_and_a_bad_trace_with_exit_2() {
    let run = run_cli(&["lesson", "nope"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("error: `nope` is not a lesson of the course; the lessons are: reservation-ledger, mark-paid,"), "{}", run.stderr);
    let dir = scratch_dir("lesson-check-bad");
    let path = dir.join("bad.json");
    std::fs::write(&path, "{\"format_version\": 1, \"seed\": \"zero\"}").unwrap();
    let run = run_cli(&["lesson", "inbox", "--check", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("bad.json"), "{}", run.stderr);
    let run = run_cli(&["lesson", "inbox", "--check"]);
    assert_eq!(run.code, 2);
}
