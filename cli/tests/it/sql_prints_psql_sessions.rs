//! `idempotency-lab sql`: the inbox race of F4 (idempotent) as psql scripts: the setup, one
//! script per session, each statement tagged with its step, and Consumer A's inbox insert
//! marked as waiting for Consumer B's session, then returning with a unique violation; exit 0.

use crate::common::run_cli;
use expect_test::expect;

#[test]
fn the_inbox_race_prints_as_psql_sessions_with_the_wait_marked() {
    let run = run_cli(&["sql", "f04-concurrent-delivery", "--mode", "idempotent", "--seed", "0"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    assert!(run.stdout.contains("CREATE TABLE inbox (message_id uuid NOT NULL"));
    let consumer_b = run.stdout.split("-- session ").find(|part| part.starts_with("3: Consumer A"));
    expect![[r#"
        3: Consumer A (a psql of its own)
        BEGIN; -- step 22
        INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('d051b29e-45c8-4853-a592-75602f463cea', 'reserve-stock', 0); -- step 29: waits for Consumer B; go on there, it returns after that session ends its transaction
        -- step 33: the statement above returns with a unique violation
        ROLLBACK; -- step 33: the lab rolls tx5 back here
        -- step 34: ACK d051b29e-45c8-4853-a592-75602f463cea

    "#]].assert_eq(consumer_b.unwrap_or_default());
}
