//! Bad input never panics: a truncated file, a wrong type, an unknown field, a missing file, a
//! non-UTF-8 file and a dangling reference each get a message naming the file and (for JSON
//! errors) the field, the line and the column, on stderr, with exit code 2 and nothing on
//! stdout. The same holds for `replay` and for a usage error.

use crate::common::{run_cli, scratch_dir};
use expect_test::{Expect, expect};

/// A valid scenario, one field per line, for the cases to break.
const VALID: &str = r#"{
  "format_version": 1,
  "id": "one-order",
  "title": "One order",
  "description": "A client places one order.",
  "client": {
    "timeout_ticks": 10,
    "attempts_max": 4,
    "backoff_ticks": 10
  },
  "requests": [
    { "operation": { "op": "place_order", "lines": [{ "sku": "apple", "qty": 1 }] } }
  ]
}
"#;

/// Writes `bytes` to `file_name` in the test's directory, runs `run <file>` and checks the
/// exact stderr (with the directory replaced by `DIR`).
fn check(test: &str, file_name: &str, bytes: &[u8], expect: Expect) {
    let dir = scratch_dir(test);
    let path = dir.join(file_name);
    std::fs::write(&path, bytes).unwrap();
    let run = run_cli(&["run", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    expect.assert_eq(&run.stderr.replace(dir.to_str().unwrap(), "DIR"));
}

#[test]
fn the_valid_scenario_runs() {
    let dir = scratch_dir("valid");
    let path = dir.join("valid.json");
    std::fs::write(&path, VALID).unwrap();
    let run = run_cli(&["run", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_truncated_file() {
    let cut = VALID.find("\"backoff_ticks\"").unwrap();
    check(
        "truncated",
        "truncated.json",
        &VALID.as_bytes()[..cut],
        expect![[r#"
            error: scenario file `DIR/truncated.json` is malformed
              at:      line 9, column 4
              field:   `client`
              problem: EOF while parsing a value
              |
            9 |     
              |    ^
        "#]],
    );
}

#[test]
fn a_wrong_type_in_a_field() {
    let text = VALID.replace("\"timeout_ticks\": 10", "\"timeout_ticks\": \"ten\"");
    check(
        "wrong-type",
        "wrong-type.json",
        text.as_bytes(),
        expect![[r#"
            error: scenario file `DIR/wrong-type.json` is malformed
              at:      line 7, column 26
              field:   `client.timeout_ticks`
              problem: invalid type: string "ten", expected u64
              |
            7 |     "timeout_ticks": "ten",
              |                          ^
        "#]],
    );
}

#[test]
fn an_unknown_field() {
    let text =
        VALID.replace("\"attempts_max\": 4,", "\"attempts_max\": 4,\n    \"colour\": \"red\",");
    check(
        "unknown-field",
        "unknown-field.json",
        text.as_bytes(),
        expect![[r#"
            error: scenario file `DIR/unknown-field.json` is malformed
              at:      line 9, column 12
              field:   `client.colour`
              problem: unknown field `colour`, expected one of `timeout_ticks`, `attempts_max`, `backoff_ticks`, `key_on_retry`
              |
            9 |     "colour": "red",
              |            ^
        "#]],
    );
}

#[test]
fn a_non_utf8_file() {
    let mut bytes = VALID.as_bytes().to_vec();
    let at = VALID.find("One order").unwrap() + 4;
    bytes[at] = 0xff;
    check(
        "non-utf8",
        "non-utf8.json",
        &bytes,
        expect![[r#"
        error: scenario file `DIR/non-utf8.json` is not UTF-8 text: invalid byte at line 4, column 17
    "#]],
    );
}

#[test]
fn a_request_that_names_a_missing_request() {
    let text = VALID.replace(
        "\"qty\": 1 }] } }",
        "\"qty\": 1 }] } },\n    { \"operation\": { \"op\": \"cancel_order\", \"order_of\": 5 } }",
    );
    check(
        "dangling",
        "dangling.json",
        text.as_bytes(),
        expect![[r#"
            error: scenario `DIR/dangling.json` is refused: requests[1].operation.order_of names request 5, but the scenario has 2 requests
              at:      line 13, column 56
              field:   `requests[1].operation.order_of`
               |
            13 |     { "operation": { "op": "cancel_order", "order_of": 5 } }
               |                                                        ^
        "#]],
    );
}

#[test]
fn repro_4_a_zero_quantity_is_refused_with_its_path_and_a_caret() {
    let text = VALID.replace("\"qty\": 1 }", "\"qty\": 0 }");
    check(
        "zero-qty",
        "zero-qty.json",
        text.as_bytes(),
        expect![[r#"
        error: scenario `DIR/zero-qty.json` is refused: requests[0].operation.lines[0].qty is 0, but must be between 1 and 1000000
          at:      line 12, column 78
          field:   `requests[0].operation.lines[0].qty`
           |
        12 | ...: { "op": "place_order", "lines": [{ "sku": "apple", "qty": 0 }] } }
           |                                                                ^
    "#]],
    );
}

#[test]
fn repro_4_a_title_beyond_its_bound_is_refused_not_printed() {
    let title = "t".repeat(5_000);
    let text = VALID.replace("\"One order\"", &format!("\"{title}\""));
    check(
        "long-title",
        "long-title.json",
        text.as_bytes(),
        expect![[r#"
        error: scenario `DIR/long-title.json` is refused: title has 5000 characters, but must have between 1 and 200
          at:      line 4, column 12
          field:   `title`
          |
        4 |   "title": "ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt...
          |            ^
    "#]],
    );
}

#[test]
fn repro_6_a_top_level_array_is_named_as_such() {
    check(
        "array",
        "array.json",
        b"[1, 2, 3]\n",
        expect![[r#"
        error: scenario file `DIR/array.json` is malformed
          at:      line 1, column 1
          problem: a scenario is a JSON object ({...}), but this is an array
          |
        1 | [1, 2, 3]
          | ^
    "#]],
    );
}

#[test]
fn repro_6_an_integer_beyond_u64_is_out_of_range_not_a_float() {
    let text = VALID.replace("\"timeout_ticks\": 10", "\"timeout_ticks\": 18446744073709551616");
    check(
        "beyond-u64",
        "beyond-u64.json",
        text.as_bytes(),
        expect![[r#"
        error: scenario file `DIR/beyond-u64.json` is malformed
          at:      line 7, column 41
          field:   `client.timeout_ticks`
          problem: the integer 18446744073709551616 is out of range: this field takes an integer from 0 to 18446744073709551615
          |
        7 |     "timeout_ticks": 18446744073709551616,
          |                                         ^
    "#]],
    );
}

#[test]
fn a_missing_file() {
    let dir = scratch_dir("missing");
    let path = dir.join("missing.json");
    let run = run_cli(&["run", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    expect![[r#"
        error: scenario file `DIR/missing.json` does not exist
    "#]]
    .assert_eq(&run.stderr.replace(dir.to_str().unwrap(), "DIR"));
}

#[test]
fn a_name_that_is_neither_an_id_nor_a_file() {
    let run = run_cli(&["run", "no-such-lesson"]);
    assert_eq!(run.code, 2);
    expect![[r#"
        error: `no-such-lesson` is neither a built-in scenario nor a file (`idempotency-lab list` shows the built-in ids)
    "#]].assert_eq(&run.stderr);
}

#[test]
fn a_malformed_trace_for_replay() {
    let dir = scratch_dir("malformed-trace");
    let path = dir.join("trace.json");
    std::fs::write(&path, "{\n  \"format_version\": 1,\n  \"seed\": -1\n}\n").unwrap();
    let run = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    expect![[r#"
        error: trace file `DIR/trace.json` is malformed
          at:      line 3, column 12
          field:   `seed`
          problem: the integer -1 is out of range: this field takes an integer from 0 to 18446744073709551615
          |
        3 |   "seed": -1
          |            ^
    "#]]
    .assert_eq(&run.stderr.replace(dir.to_str().unwrap(), "DIR"));
}

#[test]
fn a_usage_error_exits_2() {
    let run = run_cli(&["run", "f01-duplicate-delivery", "--mode", "careless"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("invalid value 'careless' for '--mode <MODE>'"), "{}", run.stderr);
}
