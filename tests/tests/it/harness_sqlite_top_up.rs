//! The harness over a user's own store, HTTP side: a wallet top-up handler over its own SQLite
//! tables (`examples/sqlite`). Raw, it is caught and shrunk to a single fault (pinned as a
//! story); with its `Idempotency-Key` and answer stored in the balance's transaction it passes
//! every drawn schedule of double submits, lost answers and crashes before and after commit.

use expect_test::expect;
use idempotency_lab::testing::harness::system::{SystemFuzzConfig, fuzz_system};
use idempotency_lab_sqlite_example::top_up::{TopUpDesign, TopUpHandler, top_ups};

fn handler(design: TopUpDesign) -> TopUpHandler {
    TopUpHandler::open(design).expect("in-memory SQLite opens")
}

#[test]
fn the_raw_handler_is_shrunk_to_a_single_fault() {
    let report =
        fuzz_system(&mut handler(TopUpDesign::Raw), top_ups(), SystemFuzzConfig::default());
    let caught = report.counterexample.expect("the raw handler is caught");
    assert_eq!(caught.run.faults_taken(), 1);
    expect![[r#"
        request #1 published: TopUp { wallet: "w-1", amount: 1 }
        1. #1 sent: answered Answer { status: 200, body: "{\"balance\":1}" }
          F6 double submit: the client sends it once more, same key
        2. #1 sent again: answered Answer { status: 200, body: "{\"balance\":2}" }
        => not exactly once: request #1 answered Answer { status: 200, body: "{\"balance\":1}" } first, then Answer { status: 200, body: "{\"balance\":2}" }
    "#]].assert_eq(&caught.run.story());
}

#[test]
fn the_key_in_the_balances_transaction_passes_every_schedule() {
    let config = SystemFuzzConfig { cases: 512, ..SystemFuzzConfig::default() };
    let report = fuzz_system(&mut handler(TopUpDesign::KeyInTransaction), top_ups(), config);
    assert_eq!(report.counterexample, None);
    assert_eq!((report.cases_run, report.runs), (512, 512));
}
