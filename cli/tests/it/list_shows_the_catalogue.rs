//! `idempotency-lab list` prints every built-in lesson, id and title, one line each, in
//! lesson order, and exits 0.

use crate::common::run_cli;
use expect_test::expect;

#[test]
fn list_prints_one_line_per_lesson() {
    let run = run_cli(&["list"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    expect![[r#"
        f01-duplicate-delivery         F1: the broker delivers a message twice
        f02-crash-after-commit         F2: a consumer crashes after commit, before ack
        f03-crash-before-commit        F3: a consumer crashes before commit
        f04-concurrent-delivery        F4: two consumer instances get the same message at once
        f05-lost-response              F5: the API's response is lost and the client retries with the same key
        f06-double-submit              F6: double submit, two concurrent requests with the same key
        f07-key-reuse                  F7: the same key with a different payload
        f08-api-crash                  F8: the API crashes mid-request
        f09-out-of-order               F9: a cancel overtakes the OrderPlaced message
        f10-duplicate-after-retention  F10: a duplicate arrives after the retention window
        f11-retry-with-new-key         F11: the client retries with a new key
        f12-relay-crash                F12: the relay crashes after publish, before marking published
        p1-stock-reservation           P1: the reservation ledger
        p2-order-state-machine         P2: MarkPaid on the order state machine
        p3-idempotency-key             P3: the Idempotency-Key layer
        p3-slow-request                P3: a slow request and the fencing token
        p4-inbox-consumer              P4: the inbox consumer
    "#]].assert_eq(&run.stdout);
    assert_eq!(run.stdout.lines().count(), idempotency_lab::sim::CATALOGUE.len());
}
