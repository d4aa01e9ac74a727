//! Tests of the bounds: the extreme scenario is accepted, one past any bound is refused with
//! the field's path, and the repros (huge limits in a link, huge lists, a huge title,
//! a zero quantity) are refused before anything runs.

use super::*;
use crate::sim::{Trace, TraceError, catalogue_scenario};
use crate::view::ShareLink;

/// `scenario` as JSON with the value at `pointer` (RFC 6901) replaced by `value`.
fn with(scenario: &Scenario, pointer: &str, value: serde_json::Value) -> String {
    let mut json: serde_json::Value = serde_json::from_str(&scenario.to_json()).unwrap();
    *json.pointer_mut(pointer).unwrap_or_else(|| panic!("no {pointer}")) = value;
    json.to_string()
}

/// Checks that `text` is refused with exactly `expect`.
fn check_refused(text: &str, expect: expect_test::Expect) {
    let error = Scenario::from_json(text).unwrap_err();
    expect.assert_eq(&error.to_string());
}

#[test]
fn the_extreme_scenario_is_accepted_and_every_bound_is_listed_once() {
    let extreme = extreme_scenario().unwrap();
    assert_eq!(extreme.requests.len() as u64, REQUESTS.max);
    assert_eq!(extreme.limits.snapshot_every_steps as u64, SNAPSHOT_EVERY.min);
    let mut fields: Vec<&str> = BOUNDS.iter().map(|bound| bound.field).collect();
    fields.sort();
    fields.dedup();
    assert_eq!(fields.len(), BOUNDS.len());
    for bound in BOUNDS {
        assert!(bound.min <= bound.max, "{bound:?}");
    }
}

#[test]
fn one_past_a_number_bound_is_refused_naming_the_field() {
    let extreme = extreme_scenario().unwrap();
    let cases = [
        ("/limits/steps_max", STEPS.max + 1),
        ("/limits/trace_steps_max", TRACE_STEPS.max + 1),
        ("/limits/queue_len_max", QUEUE_LEN.max + 1),
        ("/limits/history_records_max", HISTORY_RECORDS.max + 1),
        ("/limits/random_faults_max", RANDOM_FAULTS.max + 1),
        ("/limits/snapshot_every_steps", SNAPSHOT_EVERY.min - 1),
        ("/fault_rates/F7", FAULT_RATE.max + 1),
        ("/client/attempts_max", CLIENT_ATTEMPTS.max + 1),
        ("/client/timeout_ticks", 0),
        ("/consumers/deliveries_max", DELIVERIES.max + 1),
        ("/consumers/instances", INSTANCES.max + 1),
        ("/api/lease_ticks", TICKS_MAX + 1),
        ("/requests/5/send_at_tick", TICKS_MAX + 1),
        ("/requests/3/operation/lines/2/qty", LINE_QTY.max + 1),
        ("/shop/stock/7/qty", STOCK_QTY.max + 1),
        ("/relay/batch_size_max", RELAY_BATCH.max + 1),
        ("/schedule/early_clock_advance_per_million", PER_MILLION_MAX + 1),
        ("/shop/store/rows_per_table_max", ROWS_PER_TABLE.max + 1),
    ];
    for (pointer, value) in cases {
        let text = with(&extreme, pointer, serde_json::json!(value));
        let error = Scenario::from_json(&text).unwrap_err();
        let ScenarioError::OutOfRange { field, value: refused, .. } = &error else {
            panic!("{pointer}: {error:?}")
        };
        let path = pointer.trim_start_matches('/').replace('/', ".");
        let path =
            path.split('.')
                .map(|part| {
                    if part.parse::<usize>().is_ok() {
                        format!("[{part}]")
                    } else {
                        part.to_owned()
                    }
                })
                .fold(String::new(), |path, part| {
                    if path.is_empty() || part.starts_with('[') {
                        path + &part
                    } else {
                        path + "." + &part
                    }
                });
        assert_eq!((field.as_str(), *refused), (path.as_str(), value), "{pointer}");
    }
}

#[test]
fn repro_4_a_link_whose_limits_would_freeze_the_page_is_refused_naming_the_field() {
    // Lesson f01 with four limits at 1,000,000 and an F1 rate of 1,000,000: each alone is
    // refused, by name, before anything runs.
    let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
    for limit in ["trace_steps_max", "queue_len_max", "random_faults_max", "history_records_max"] {
        let text = with(&lesson, &format!("/limits/{limit}"), serde_json::json!(1_000_000));
        let scenario: Scenario = serde_json::from_str(&text).unwrap();
        let link = ShareLink::new(&scenario, 0, Vec::new(), 0).encode();
        let error = ShareLink::decode(&link).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!(
                "the link's scenario: limits.{limit} is 1000000, but must be between"
            )),
            "{error}"
        );
    }
    let text = with(&lesson, "/fault_rates", serde_json::json!({ "F1": 1_000_001 }));
    check_refused(
        &text,
        expect_test::expect!["fault_rates.F1 is 1000001, but must be between 0 and 1000000"],
    );
}

#[test]
fn repro_4_huge_lists_titles_and_a_zero_quantity_are_refused_naming_the_field() {
    let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let lines: Vec<serde_json::Value> =
        (0..5_000).map(|_| serde_json::json!({ "sku": "apple", "qty": 1 })).collect();
    check_refused(
        &with(&lesson, "/requests/0/operation/lines", serde_json::json!(lines)),
        expect_test::expect![
            "requests[0].operation.lines has 5000 entries, but must have between 1 and 16"
        ],
    );
    let stock: Vec<serde_json::Value> = (0..100_000)
        .map(|index| serde_json::json!({ "sku": format!("s{index}"), "qty": 1 }))
        .collect();
    check_refused(
        &with(&lesson, "/shop/stock", serde_json::json!(stock)),
        expect_test::expect!["the input is 2490471 bytes, more than the 1048576 bytes accepted"],
    );
    let stock: Vec<serde_json::Value> =
        (0..65).map(|index| serde_json::json!({ "sku": format!("s{index}"), "qty": 1 })).collect();
    check_refused(
        &with(&lesson, "/shop/stock", serde_json::json!(stock)),
        expect_test::expect!["shop.stock has 65 entries, but must have between 0 and 64"],
    );
    let requests: Vec<serde_json::Value> = (0..65)
        .map(|_| serde_json::json!({"operation": {"op": "place_order", "lines": [{"sku": "apple", "qty": 1}]}}))
        .collect();
    check_refused(
        &with(&lesson, "/requests", serde_json::json!(requests)),
        expect_test::expect!["requests has 65 entries, but must have between 0 and 64"],
    );
    check_refused(
        &with(&lesson, "/title", serde_json::json!("t".repeat(10 << 20))),
        expect_test::expect!["the input is 10487350 bytes, more than the 1048576 bytes accepted"],
    );
    check_refused(
        &with(&lesson, "/title", serde_json::json!("\u{3c4}".repeat(201))),
        expect_test::expect!["title has 201 characters, but must have between 1 and 200"],
    );
    check_refused(
        &with(&lesson, "/requests/0/operation/lines/0/qty", serde_json::json!(0)),
        expect_test::expect![
            "requests[0].operation.lines[0].qty is 0, but must be between 1 and 1000000"
        ],
    );
    check_refused(
        &with(&lesson, "/shop/stock/0/qty", serde_json::json!(-3)),
        expect_test::expect!["shop.stock[0].qty is -3, but must not be negative"],
    );
    check_refused(
        &with(
            &lesson,
            "/injections/0",
            serde_json::json!({"fault": "crash_consumer_before_commit", "message": {"order_placed_of": 0}, "delivery": 0}),
        ),
        expect_test::expect!["injections[0].delivery is 0, but must be between 1 and 100"],
    );
}

#[test]
fn a_trace_longer_than_its_scenario_allows_is_refused() {
    let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let trace = crate::sim::Simulation::run(lesson, 0).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&trace.to_json()).unwrap();
    json["scenario"]["limits"]["trace_steps_max"] = serde_json::json!(trace.steps.len() - 1);
    assert_eq!(
        Trace::from_json(&json.to_string()),
        Err(TraceError::TooManySteps {
            steps: trace.steps.len(),
            trace_steps_max: trace.steps.len() - 1
        })
    );
}

/// The README's table of bounds, one row per bound, as [`readme_row`] writes it.
#[test]
fn the_readme_lists_every_bound() {
    let readme = include_str!("../../../../README.md");
    let missing: Vec<String> =
        BOUNDS.iter().map(readme_row).filter(|row| !readme.contains(row.as_str())).collect();
    assert!(missing.is_empty(), "README lacks these rows:\n{}", missing.join("\n"));
}

fn readme_row(bound: &Bound) -> String {
    let what = match bound.kind {
        BoundKind::Number => "value",
        BoundKind::Entries => "entries",
        BoundKind::Chars => "characters",
        BoundKind::Bytes => "bytes",
    };
    format!("| `{}` | {what} | {} | {} |", bound.field, bound.min, bound.max)
}
