//! Tests of reading JSON: the exact path, line and column of a bad field wherever it is (on
//! another line than its key, inside a tagged operation or injection), plain messages for a
//! top-level non-object and an integer out of range, and [`locate`] for errors found after
//! reading.

use crate::sim::{Scenario, ScenarioError, Trace, TraceError, catalogue_scenario, locate};

/// The JSON error of `text`: path, line, column and message.
fn json_error(text: &str) -> (String, usize, usize, String) {
    match Scenario::from_json(text) {
        Err(ScenarioError::Json { path, line, column, message }) => (path, line, column, message),
        other => panic!("not a JSON error: {other:?}"),
    }
}

const HEAD: &str = r#"{"format_version": 1, "id": "x", "title": "t", "description": "d","#;

#[test]
fn repro_6_the_field_is_named_by_its_path_inside_a_tagged_operation_and_across_lines() {
    let text = format!(
        "{HEAD}\n \"requests\": [{{\"operation\": {{\"op\": \"place_order\",\n   \"lines\": [{{\"sku\": \"apple\",\n     \"qty\": \"three\"}}]}}}}]}}"
    );
    assert_eq!(
        json_error(&text),
        (
            "requests[0].operation.lines[0].qty".to_owned(),
            4,
            19,
            "invalid type: string \"three\", expected u32".to_owned()
        )
    );
    // The value on the line after its key: the nearest key on the error's line is none.
    let text = format!(
        "{HEAD} \"requests\": [],\n \"client\": {{\"timeout_ticks\":\n   \"ten\", \"attempts_max\": 2, \"backoff_ticks\": 1}}}}"
    );
    assert_eq!(json_error(&text).0, "client.timeout_ticks");
    // Inside an injection, after a nested object on the same line.
    let text = format!(
        "{HEAD} \"requests\": [], \"injections\": [{{\"fault\": \"crash_consumer_after_commit\", \"message\": {{\"order_placed_of\": 0}}, \"delivery\": true}}]}}"
    );
    let (path, _, _, message) = json_error(&text);
    assert_eq!(
        (path.as_str(), message.as_str()),
        ("injections[0].delivery", "invalid type: boolean `true`, expected u32")
    );
    // An unknown field inside a tagged operation.
    let text = format!(
        "{HEAD} \"requests\": [{{\"operation\": {{\"op\": \"cancel_order\", \"order_of\": 0, \"why\": 1}}}}]}}"
    );
    let (path, _, _, message) = json_error(&text);
    assert!(path.starts_with("requests[0].operation"), "{path}");
    assert!(message.starts_with("unknown field `why`, expected `order_of`"), "{message}");
    // An unknown variant names its tag's object.
    let text = format!("{HEAD} \"requests\": [{{\"operation\": {{\"op\": \"refund\"}}}}]}}");
    let (path, _, _, message) = json_error(&text);
    assert_eq!(path, "requests[0].operation");
    assert!(message.starts_with("unknown variant `refund`"), "{message}");
}

#[test]
fn repro_6_a_top_level_non_object_and_an_integer_out_of_range_have_plain_messages() {
    for (text, found) in
        [("[1, 2]", "an array"), ("  \"x\"", "a string"), ("\n7", "a number"), ("null", "null")]
    {
        let (path, line, column, message) = json_error(text);
        assert_eq!(path, "");
        assert_eq!(message, format!("a scenario is a JSON object ({{...}}), but this is {found}"));
        assert_eq!(
            (line, column),
            if text.starts_with('\n') {
                (2, 1)
            } else {
                (1, text.find(|c: char| c != ' ').unwrap() + 1)
            }
        );
    }
    let text = format!(
        "{HEAD} \"requests\": [{{\"operation\": {{\"op\": \"place_order\", \"lines\": []}}, \"send_at_tick\": 18446744073709551616}}]}}"
    );
    let (path, _, _, message) = json_error(&text);
    assert_eq!(path, "requests[0].send_at_tick");
    assert_eq!(
        message,
        "the integer 18446744073709551616 is out of range: this field takes an integer from 0 to 18446744073709551615"
    );
    let text = format!(
        "{HEAD} \"requests\": [{{\"operation\": {{\"op\": \"place_order\", \"lines\": [{{\"sku\": \"apple\", \"qty\": -1}}]}}}}]}}"
    );
    let (path, _, _, message) = json_error(&text);
    assert_eq!(path, "requests[0].operation.lines[0].qty");
    assert_eq!(
        message,
        "the integer -1 is out of range: this field takes an integer from 0 to 4294967295"
    );
    // A real float stays serde's message.
    let text = format!(
        "{HEAD} \"requests\": [{{\"operation\": {{\"op\": \"place_order\", \"lines\": []}}, \"send_at_tick\": 1.5}}]}}"
    );
    assert_eq!(json_error(&text).3, "invalid type: floating point `1.5`, expected u64");
    // A trace is read the same way.
    let Err(TraceError::Json(ScenarioError::Json { message, .. })) = Trace::from_json("[]") else {
        panic!()
    };
    assert_eq!(message, "a trace is a JSON object ({...}), but this is an array");
}

#[test]
fn a_tag_given_after_the_fields_still_reads() {
    let text = format!(
        "{HEAD} \"requests\": [{{\"operation\": {{\"lines\": [{{\"sku\": \"apple\", \"qty\": 2}}], \"op\": \"place_order\"}}}}]}}"
    );
    let later = Scenario::from_json(&text).unwrap();
    let first = Scenario::from_json(&text.replace(
        "{\"lines\": [{\"sku\": \"apple\", \"qty\": 2}], \"op\": \"place_order\"}",
        "{\"op\": \"place_order\", \"lines\": [{\"sku\": \"apple\", \"qty\": 2}]}",
    ))
    .unwrap();
    assert_eq!(later, first);
    let text = format!("{HEAD} \"requests\": [{{\"operation\": {{\"order_of\": 0}}}}]}}");
    assert!(json_error(&text).3.contains("missing field `op`"), "{:?}", json_error(&text));
    // Every lesson reads back from its own JSON, tags first.
    let lesson = catalogue_scenario("f08-api-crash").unwrap();
    assert_eq!(Scenario::from_json(&lesson.to_json()).unwrap(), lesson);
}

#[test]
fn locate_finds_the_value_at_a_path() {
    let text = "{\n  \"requests\": [\n    {\"operation\": {\"op\": \"x\", \"lines\": [{\"sku\": \"a\", \"qty\": 0}]}}\n  ],\n  \"limits\": {\"steps_max\": 9}\n}";
    assert_eq!(locate(text, "requests[0].operation.lines[0].qty"), Some((3, 61)));
    assert_eq!(locate(text, "limits.steps_max"), Some((5, 27)));
    assert_eq!(locate(text, "requests[1]"), None);
    assert_eq!(locate(text, "client.timeout_ticks"), None);
    assert_eq!(locate(text, ""), None);
    assert_eq!(locate("{\"a\": \"b\\\"}\", \"c\": [1, {\"d\": 2}]}", "c[1].d"), Some((1, 30)));
}

#[test]
fn a_megabyte_value_or_key_gives_a_short_error_that_still_names_the_field_and_the_type() {
    // Found by the parser fuzzer: serde_json quotes the offending string whole, so a 4 MB
    // string in a number field of a trace made a 4 MB error message (printed by the CLI,
    // shown by the page). A scenario may be up to 1 MiB: 200,000 crabs are 800 KB.
    let huge = "🦀".repeat(200_000);
    let text = format!(
        "{HEAD} \"requests\": [{{\"operation\": {{\"op\": \"place_order\", \"lines\": [{{\"sku\": \"apple\", \"qty\": \"{huge}\"}}]}}}}]}}"
    );
    let (path, line, _, message) = json_error(&text);
    assert_eq!((path.as_str(), line), ("requests[0].operation.lines[0].qty", 1));
    assert!(message.chars().count() <= 300, "{} characters", message.chars().count());
    assert!(message.starts_with("invalid type: string \"🦀🦀"), "{message}");
    assert!(message.ends_with("🦀\", expected u32"), "{message}");
    assert!(message.contains("… (199817 characters left out) …"), "{message}");
    // A huge unknown key: the path and the message stay short too.
    let key = "k".repeat(100_000);
    let text = format!("{HEAD} \"requests\": [], \"{key}\": 1}}");
    let (path, _, _, message) = json_error(&text);
    assert!(path.chars().count() <= 300 && message.chars().count() <= 300, "{path}\n{message}");
    assert!(message.starts_with("unknown field `kkk"), "{message}");
    // Short messages are kept whole.
    let text = format!("{HEAD} \"requests\": 3}}");
    assert_eq!(json_error(&text).3, "invalid type: integer `3`, expected a sequence");
}
