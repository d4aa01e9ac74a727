//! `idempotency-lab explain <id>` prints the lesson's title, the learner's paragraph, the
//! patterns `--mode` switches, the faults it injects and what each mode violates; an unknown
//! id is an input error (exit 2).

use crate::common::run_cli;
use expect_test::expect;

#[test]
fn explain_tells_the_duplicate_delivery_lesson() {
    let run = run_cli(&["explain", "f01-duplicate-delivery"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    expect![[r#"
        f01-duplicate-delivery
        F1: the broker delivers a message twice

        A client places an order for 3 apples. The relay publishes its OrderPlaced message, and
        the broker, which promises delivery at least once, puts a second copy in the queue. The
        naive consumer reserves the stock for each copy: the order holds 6 apples where it asked
        for 3 (I2), and at the end the message was processed twice (I6). The idempotent consumer
        inserts the message id into its inbox in the same transaction as the reservation; the
        second copy hits the unique key, rolls back and is acknowledged with no effect.

        Patterns switched by --mode:
          P1  stock reservation (one reservation per order line)
          P2  the order state machine (pay and cancel once)
          P3  the Idempotency-Key layer of the API
          P4  the inbox of the reserve-stock consumer
        Faults:
          F1   injected: the broker delivers a message twice
        Expected violations (seed 0):
          naive       I2 One reservation per order line, I6 Each OrderPlaced processed once
          idempotent  none
        See it: idempotency-lab run f01-duplicate-delivery --mode naive
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn explain_of_a_lesson_with_one_focus_pattern_names_only_it() {
    let run = run_cli(&["explain", "p2-order-state-machine"]);
    assert_eq!(run.code, 0);
    expect![[r#"
        p2-order-state-machine
        P2: MarkPaid on the order state machine

        Only the order state machine changes here; the endpoint has no idempotency key handling.
        The payment's answer is lost and the client pays again. The naive MarkPaid charges on
        every call (I3). The seed's MarkPaid sees the order already paid by the same payment and
        does nothing: the retry answers the same 200 and no second charge is made.

        Patterns switched by --mode:
          P2  the order state machine (pay and cancel once)
        Faults:
          F5   injected: the API's response is lost: the client retries with the same key
        Expected violations (seed 0):
          naive       I3 Charged at most once
          idempotent  none
        See it: idempotency-lab run p2-order-state-machine --mode naive
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn explain_of_an_unknown_id_is_an_input_error() {
    let run = run_cli(&["explain", "f99-no-such-lesson"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    expect![[r#"
        error: `f99-no-such-lesson` is neither a built-in scenario nor a file (`idempotency-lab list` shows the built-in ids)
    "#]].assert_eq(&run.stderr);
}
