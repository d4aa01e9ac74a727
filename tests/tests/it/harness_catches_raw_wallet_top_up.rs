//! The HTTP harness catches a deliberately non-idempotent user handler plugged raw: a wallet
//! top-up that adds the amount on every request. The fuzzer shrinks its failing schedule to a
//! single fault (the key reused with another payload, answered 201 instead of 422), and the
//! exhaustive check finds a shortest schedule: a double submit whose two requests both top up
//! and get different answers.

use expect_test::expect;
use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{
    HandlerPlug, HarnessStep, HttpAction, HttpHarnessConfig, check_handler, fuzz_handler,
};
use idempotency_lab::testing::wallet_top_up::WalletTopUp;

fn raw() -> HttpHarnessConfig {
    HttpHarnessConfig::default().with_plug(HandlerPlug::Raw)
}

#[test]
fn the_fuzzer_shrinks_the_counterexample_to_one_fault() {
    let report = fuzz_handler(WalletTopUp, raw());
    let counterexample = report.counterexample.expect("the raw top-up is caught");
    assert_eq!(report.cases_run, 1);
    assert_eq!(counterexample.faults(), 1);
    assert_eq!(counterexample.actions.len(), 11);
    expect![[r#"
        Send { operation: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Deliver { attempt: 0 }
        ReuseKey { operation: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
    "#]]
    .assert_eq(&render(&counterexample.actions));
    expect![[r#"
        operation 0's key, reused with another payload, got 201 {"amount":700,"balance":1200}, but a reused key must get 422 (Idempotency-Key reused with a different request)
    "#]].assert_eq(&format!("{}\n", counterexample.violation.sentence));
}

#[test]
fn the_checker_finds_a_shortest_schedule() {
    let report = check_handler(WalletTopUp, raw());
    let ExploreOutcome::Violated { violation, path } = report.outcome else {
        panic!("expected a violation, got {:?}", report.outcome)
    };
    let faults: Vec<&HttpAction> = path.iter().filter(|action| action.is_fault()).collect();
    assert_eq!(faults, [&HttpAction::DoubleSubmit { operation: 0 }]);
    assert_eq!(path.len(), 10);
    expect![[r#"
        requests with operation 0's key got different answers: 201 {"amount":500,"balance":500} first, then 201 {"amount":500,"balance":1000}
    "#]].assert_eq(&format!("{}\n", violation.sentence));
}

#[test]
fn each_fault_alone_catches_it() {
    // One class at a time, the others off: F5, F6 and F7 each catch the raw handler; F8 alone
    // does not (a crash rolls back the open transaction, and the retry tops up once).
    let none = HttpHarnessConfig {
        lost_responses_max: 0,
        double_submits_max: 0,
        key_reuses_max: 0,
        crashes_max: 0,
        ..raw()
    };
    let only = [
        HttpHarnessConfig { lost_responses_max: 1, ..none },
        HttpHarnessConfig { double_submits_max: 1, ..none },
        HttpHarnessConfig { key_reuses_max: 1, ..none },
        HttpHarnessConfig { crashes_max: 1, ..none },
    ];
    let caught: Vec<bool> = only
        .iter()
        .map(|config| {
            matches!(check_handler(WalletTopUp, *config).outcome, ExploreOutcome::Violated { .. })
        })
        .collect();
    assert_eq!(caught, [true, true, true, false]);
    assert_eq!(check_handler(WalletTopUp, none).outcome, ExploreOutcome::Proved);
}

/// One action a line.
fn render(actions: &[HttpAction]) -> String {
    actions.iter().map(|action| format!("{action:?}\n")).collect()
}
