//! For each naive twin P1-P4 (in its lesson's pattern switches), the property fuzzer finds a
//! run that breaks an invariant and shrinks it to a minimal schedule: at most 3 faults, and a
//! snapshot of the shrunk requests and injections guards what "minimal" looks like.

use expect_test::{Expect, expect};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId::{self, I1, I2, I3, I4, I5, I6};
use idempotency_lab::sim::{PatternMode, catalogue_scenario};
use idempotency_lab::testing::{FuzzConfig, ScenarioShape, fuzz, fuzz_case, scenario};

/// The faults a fuzzer may inject: those the patterns are built for, and the crashes and
/// losses that break their naive twins. F7 and F11 (client bugs no key can fix) and F10 (the
/// retention lesson) are left out: no pattern claims to survive them.
const CLASSES: [FaultClass; 9] = [
    FaultClass::F1,
    FaultClass::F2,
    FaultClass::F3,
    FaultClass::F4,
    FaultClass::F5,
    FaultClass::F6,
    FaultClass::F8,
    FaultClass::F9,
    FaultClass::F12,
];

/// Fuzzes the naive twin of `lesson` for a break of one of the pattern's own `invariants`
/// and compares the shrunk schedule with `expect`.
fn check(lesson: &str, invariants: &[InvariantId], expect: Expect) {
    let patterns = catalogue_scenario(lesson).unwrap().with_mode(PatternMode::Naive).patterns;
    let strategy = fuzz_case(scenario(ScenarioShape::new(patterns, &CLASSES)));
    let report = fuzz(
        strategy,
        FuzzConfig { cases: 512, invariants: invariants.to_vec(), ..FuzzConfig::default() },
        &mut |_| {},
    );
    let failure = report.failure.unwrap_or_else(|| panic!("{lesson}: no failure found"));
    assert!(failure.faults() <= 3, "{lesson}: {} faults", failure.faults());
    let shrunk = &failure.shrunk;
    let summary = format!(
        "violated {:?}, {} faults, seed {}\nrequests {}\ninjections {}\n",
        failure.violated,
        failure.faults(),
        shrunk.seed,
        serde_json::to_string(&shrunk.scenario.requests).unwrap(),
        serde_json::to_string(&shrunk.scenario.injections).unwrap(),
    );
    expect.assert_eq(&summary);
}

#[test]
fn p1_naive_stock_ledger() {
    check(
        "p1-stock-reservation",
        &[I1, I2],
        expect![[r#"
        violated [I2], 1 faults, seed 0
        requests [{"operation":{"op":"place_order","lines":[{"sku":"apple","qty":1}]},"send_at_tick":0,"after":null}]
        injections [{"fault":"duplicate_delivery","message":{"order_placed_of":0}}]
    "#]],
    );
}

#[test]
fn p2_naive_mark_paid() {
    check(
        "p2-order-state-machine",
        &[I3],
        expect![[r#"
        violated [I3], 1 faults, seed 0
        requests [{"operation":{"op":"place_order","lines":[{"sku":"apple","qty":1}]},"send_at_tick":0,"after":null},{"operation":{"op":"pay_order","order_of":0,"payment_id":"pay-1"},"send_at_tick":0,"after":0}]
        injections [{"fault":"double_submit","request":1}]
    "#]],
    );
}

#[test]
fn p3_naive_idempotency_layer() {
    check(
        "p3-idempotency-key",
        &[I4],
        expect![[r#"
        violated [I4], 1 faults, seed 0
        requests [{"operation":{"op":"place_order","lines":[{"sku":"apple","qty":1}]},"send_at_tick":0,"after":null}]
        injections [{"fault":"double_submit","request":0}]
    "#]],
    );
}

#[test]
fn p4_naive_inbox_consumer() {
    check(
        "p4-inbox-consumer",
        &[I2, I5, I6],
        expect![[r#"
        violated [I2, I6], 1 faults, seed 0
        requests [{"operation":{"op":"place_order","lines":[{"sku":"apple","qty":1}]},"send_at_tick":0,"after":null}]
        injections [{"fault":"duplicate_delivery","message":{"order_placed_of":0}}]
    "#]],
    );
}
