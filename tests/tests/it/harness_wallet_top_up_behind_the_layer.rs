//! The non-idempotent wallet top-up behind the lab's `Idempotency-Key` layer (P3): lost
//! responses, double submits and reused keys cannot break it (fuzzed, and proved within the
//! bounds, state count pinned), but a crash of the API between the handler's commit and the
//! key's completion can: once the crashed request's lease runs out, the retry takes the key
//! over and runs the handler a second time. That is the layer's documented limit
//! (`idempotency::layer`), and the harness finds it with a shortest schedule.

use expect_test::expect;
use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{
    HarnessStep, HttpAction, HttpHarnessConfig, check_handler, fuzz_handler,
};
use idempotency_lab::testing::wallet_top_up::WalletTopUp;

fn no_crash() -> HttpHarnessConfig {
    HttpHarnessConfig { crashes_max: 0, ..HttpHarnessConfig::default() }
}

#[test]
fn no_fuzzed_schedule_without_a_crash_breaks_it() {
    let report = fuzz_handler(WalletTopUp, HttpHarnessConfig { cases: 512, ..no_crash() });
    assert_eq!(report.counterexample, None);
    assert_eq!(report.cases_run, 512);
}

#[test]
fn the_checker_proves_it_without_a_crash() {
    let report = check_handler(WalletTopUp, no_crash());
    assert_eq!(report.outcome, ExploreOutcome::Proved);
    assert_eq!(report.stats.unique_states, 651);
}

#[test]
fn a_crash_after_the_handler_commits_runs_it_twice() {
    let report = check_handler(WalletTopUp, HttpHarnessConfig::default());
    let ExploreOutcome::Violated { violation, path } = report.outcome else {
        panic!("expected a violation, got {:?}", report.outcome)
    };
    assert_eq!(path.len(), 32);
    // The crashed request had run all nine statements up to the handler's COMMIT: five of
    // the reservation, four of the handler.
    let crash = path.iter().position(|action| matches!(action, HttpAction::Crash { .. })).unwrap();
    let crashed = match path[crash] {
        HttpAction::Crash { attempt } => attempt,
        _ => unreachable!(),
    };
    let steps_before = path[..crash]
        .iter()
        .filter(|action| **action == HttpAction::Step { attempt: crashed })
        .count();
    assert_eq!(steps_before, 9);
    assert_eq!(path.iter().filter(|action| action.is_fault()).count(), 2);
    expect![[r#"
        Send { operation: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        DoubleSubmit { operation: 0 }
        Step { attempt: 1 }
        Step { attempt: 1 }
        Step { attempt: 1 }
        Step { attempt: 1 }
        Deliver { attempt: 1 }
        Crash { attempt: 0 }
        AdvanceClock { to: Tick(30) }
        Retry { operation: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Step { attempt: 0 }
        Deliver { attempt: 0 }
    "#]]
    .assert_eq(&render(&path));
    expect![[r#"
        after every answer, the store shows 1000, but running each operation exactly once shows 500
    "#]]
    .assert_eq(&format!("{}\n", violation.sentence));
}

/// One action a line.
fn render(actions: &[HttpAction]) -> String {
    actions.iter().map(|action| format!("{action:?}\n")).collect()
}
