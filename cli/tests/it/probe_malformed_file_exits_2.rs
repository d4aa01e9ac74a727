//! `probe` refuses what it cannot use before sending anything, with exit 2 and the exact
//! field: an unknown field, a value out of bounds, a non-loopback host without
//! `--allow-host`, an `https://` target (no TLS in the probe), an unknown fault, and a service
//! that is not running.

use crate::common::{run_cli_in, scratch_dir};

fn check(from: &str, to: &str, args: &[&str], expect: &str) {
    let example = include_str!("../../../examples/probe/top_up.toml");
    assert!(example.contains(from), "{from}");
    let dir = scratch_dir(&format!("probe_malformed_{}", to.len()));
    std::fs::write(dir.join("probe.toml"), example.replacen(from, to, 1)).unwrap();
    let mut all_args = vec!["probe", "probe.toml"];
    all_args.extend_from_slice(args);
    let run = run_cli_in(&dir, &all_args);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert_eq!(run.stderr, format!("error: {expect}\n"));
}

#[test]
fn a_malformed_probe_file_exits_2_naming_the_field() {
    check(
        "effect_per_operation = 10",
        "effect_per_operation = 10\nquery = 'SELECT 1'",
        &[],
        "probe.toml: oracle.query: unknown field `query`, expected one of \
         `effect_per_operation`, `http`, `sqlite`, `postgres` (line 22, column 1)",
    );
    check(
        "copies_max = 3",
        "copies_max = 300",
        &[],
        "probe.toml: schedule.copies_max: invalid value: integer `300`, expected u8 (line 32, \
         column 14)",
    );
    check("copies_max = 3", "copies_max = 9", &[], "probe.toml: schedule.copies_max: from 2 to 8");
    check(
        "http://127.0.0.1:8080",
        "http://192.0.2.1:8080",
        &[],
        "target.base_url: 192.0.2.1 is not a loopback host; probe it only if it is yours, with \
         --allow-host 192.0.2.1",
    );
    check(
        "http://127.0.0.1:8080",
        "https://127.0.0.1:8080",
        &[],
        "probe.toml: target.base_url: https:// is not supported (the probe has no TLS): give \
         the service's plain http:// address",
    );
    check(
        "copies_max = 3",
        "copies_max = 3\nfaults = [\"duplicate\", \"dupe\"]",
        &[],
        "probe.toml: schedule.faults[1]: unknown variant `dupe`, expected one of `duplicate`, \
         `lost_response`, `hang_up`, `key_reuse`, `missing_key`, `reorder`, `concurrent`, \
         `retry_in_flight` (line 33, column 24)",
    );
}

#[test]
fn a_service_that_is_not_running_exits_2() {
    // A port that was free a moment ago: nothing listens on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = scratch_dir("probe_not_running");
    let example = include_str!("../../../examples/probe/top_up.toml");
    let text = example.replace("127.0.0.1:8080", &format!("127.0.0.1:{port}"));
    std::fs::write(dir.join("probe.toml"), text).unwrap();
    let run = run_cli_in(&dir, &["probe", "probe.toml"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with(&format!("error: reset.http: POST http://127.0.0.1:{port}/reset: ")),
        "{}",
        run.stderr
    );
}
