//! `probe` against the axum example's top-up API (`examples/probe/axum-service`) started here on
//! 127.0.0.1 ephemeral ports, through the example probe file `examples/probe/top_up.toml` (its
//! port swapped for the service's): the raw version's failure as JSON and JUnit, and caught
//! through a hang-up; the keyed version holds, with the README's output; `--rate` and
//! `--requests` bound what is sent. Also the README helpers the other probe tests use.

use idempotency_lab_axum_example::Service;

use crate::common::{run_cli_in, scratch_dir};
use crate::probe_axum_example::start_example;

/// Starts the axum example's `service`, with its database in a scratch directory of its own;
/// its port.
fn start(service: Service, name: &str) -> u16 {
    start_example(service, &format!("{name}_service")).port
}

/// The example probe file, pointed at `port`, written as `examples/probe/top_up.toml` under a
/// scratch directory `name`, which is returned.
pub fn example_probe_dir(name: &str, port: u16) -> std::path::PathBuf {
    let example = include_str!("../../../examples/probe/top_up.toml");
    let dir = scratch_dir(name);
    let text = example.replace("127.0.0.1:8080", &format!("127.0.0.1:{port}"));
    std::fs::create_dir_all(dir.join("examples/probe")).unwrap();
    std::fs::write(dir.join("examples/probe/top_up.toml"), text).unwrap();
    dir
}

/// The `nth` block (from 0) fenced with `fence` after the heading `heading` of README.md.
fn readme_block(heading: &str, fence: &str, nth: usize) -> String {
    let readme = include_str!("../../../README.md");
    let mut section = &readme[readme.find(heading).unwrap()..];
    let open = format!("```{fence}\n");
    for _ in 0..nth {
        let start = section.find(&open).unwrap() + open.len();
        section = &section[start..];
    }
    let start = section.find(&open).unwrap() + open.len();
    let end = start + section[start..].find("```\n").unwrap();
    section[start..end].to_owned()
}

/// Checks that README's `nth` text block of the probe section is `command` and `output`.
pub fn check_readme_output(nth: usize, command: &str, output: &str) {
    let readme = readme_block("## Probe a running service", "text", nth);
    assert!(
        readme.strip_prefix(&format!("$ {command}\n")) == Some(output),
        "README's output of `{command}` differs from the real one:\n{output}"
    );
}

#[test]
fn the_readme_quotes_the_example_probe_files() {
    let top_up = include_str!("../../../examples/probe/top_up.toml");
    assert_eq!(readme_block("## Probe a running service", "toml", 0), top_up);
    let webhook = include_str!("../../../examples/probe/webhook.toml");
    assert_eq!(readme_block("## Probe a running service", "toml", 1), webhook);
}

/// The output with the service's port written as the example's 8080.
pub fn as_on_port_8080(output: &str, port: u16) -> String {
    output.replace(&format!("127.0.0.1:{port}"), "127.0.0.1:8080")
}

#[test]
fn keyed_top_up_holds() {
    let port = start(Service::TopUpKeyed, "probe_keyed");
    let dir = example_probe_dir("probe_keyed", port);
    let args = ["probe", "examples/probe/top_up.toml", "--seed", "1", "--schedules", "40"];
    let run = run_cli_in(&dir, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let command = "idempotency-lab probe examples/probe/top_up.toml --seed 1 --schedules 40";
    check_readme_output(1, command, &as_on_port_8080(&run.stdout, port));
}

#[test]
fn json_and_junit_give_the_failure_as_data() {
    let port = start(Service::TopUpRaw, "probe_raw_json");
    let dir = example_probe_dir("probe_raw_json", port);
    let args = ["probe", "examples/probe/top_up.toml", "--seed", "1", "--json", "--junit", "j.xml"];
    let run = run_cli_in(&dir, &args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["outcome"], "violated");
    assert_eq!(report["seed"], 1);
    let failure = &report["failure"];
    assert_eq!(failure["drawn"], "#1, #2 retry_in_flight");
    assert_eq!(failure["shrinking"]["shrunk"], true);
    assert_eq!(failure["run"]["schedule"], "#2 duplicate");
    let sends = failure["run"]["sends"].as_array().unwrap();
    let answers: Vec<&str> =
        sends.iter().map(|send| send["answer"]["body"].as_str().unwrap()).collect();
    assert_eq!(answers, [r#"{"balance":10}"#, r#"{"balance":20}"#]);
    assert_eq!(sends[1]["role"], "repeat");
    assert_eq!(failure["run"]["violations"].as_array().unwrap().len(), 2);
    assert!(failure["story"].as_str().unwrap().contains("F6 double submit"));

    let junit = std::fs::read_to_string(dir.join("j.xml")).unwrap();
    let head: Vec<&str> = junit.lines().take(4).collect();
    assert_eq!(
        head,
        [
            r#"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites>",
            r#"  <testsuite name="idempotency-lab probe POST http://127.0.0.1:PORT/top-ups (api, key in Idempotency-Key)" tests="1" failures="1" errors="0">"#
                .replace("PORT", &port.to_string())
                .as_str(),
            r#"    <testcase classname="probe.seed-1" name="schedule 1: #1, #2 retry_in_flight">"#,
        ]
    );
    assert!(
        junit.contains(
            r#"<failure message="not idempotent: #2 answered 201 {&quot;balance&quot;:10} first"#
        ),
        "{junit}"
    );
    assert!(junit.ends_with("    </testcase>\n  </testsuite>\n</testsuites>\n"), "{junit}");
}

#[test]
fn rate_spaces_the_requests_out() {
    let port = start(Service::TopUpKeyed, "probe_rate");
    let dir = example_probe_dir("probe_rate", port);
    let args = ["probe", "examples/probe/top_up.toml", "--schedules", "2", "--rate", "20"];
    let started = std::time::Instant::now();
    let run = run_cli_in(&dir, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Two schedules: each a reset and a reading, at least one send, a reading; the last
    // admitted at least 7 intervals of 50 ms after the first.
    assert!(started.elapsed() >= std::time::Duration::from_millis(350), "{:?}", started.elapsed());
    let zero = run_cli_in(&dir, &["probe", "examples/probe/top_up.toml", "--rate", "0"]);
    assert_eq!((zero.code, zero.stderr.as_str()), (2, "error: --rate: at least 1\n"));
    let budget = ["probe", "examples/probe/top_up.toml", "--seed", "1", "--requests", "3"];
    let budget = run_cli_in(&dir, &budget);
    assert_eq!(budget.code, 0, "{}{}", budget.stdout, budget.stderr);
    assert!(
        budget.stdout.contains("stopped by --requests 3 after 1 schedules\n"),
        "{}",
        budget.stdout
    );
    let none = run_cli_in(&dir, &["probe", "examples/probe/top_up.toml", "--requests", "0"]);
    assert_eq!(none.code, 2, "{}", none.stdout);
    assert!(none.stderr.starts_with("error: --requests: the first schedule alone sends "));
}

#[test]
fn a_hang_up_is_caught_on_the_raw_service() {
    let port = start(Service::TopUpRaw, "probe_raw_hang_up");
    let dir = example_probe_dir("probe_raw_hang_up", port);
    let path = dir.join("examples/probe/top_up.toml");
    let text = std::fs::read_to_string(&path).unwrap() + "faults = [\"hang_up\"]\n";
    std::fs::write(&path, text).unwrap();
    let run = run_cli_in(&dir, &["probe", "examples/probe/top_up.toml", "--seed", "2"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let shrunk = run.stdout.lines().find(|line| line.starts_with("shrunk in")).unwrap();
    assert!(shrunk.contains(" to 1 operation and 1 fault: #"), "{}", run.stdout);
    assert!(shrunk.ends_with(" hang_up"), "{}", run.stdout);
    // The retry and the one after it are both applied; the copy the prober hung up on is too,
    // unless the server saw the client leave before its handler began (hyper then drops it).
    let applied_by = |change: u32| {
        run.stdout.contains(&format!(
            "changed by {change}, each distinct operation applied once changes it by 10"
        ))
    };
    assert!(
        run.stdout
            .contains(" sent, connection closed before the answer: (hung up: no answer read)")
            && (applied_by(20) || applied_by(30))
            && run.stdout.contains(" --max-time 0.05) &\n"),
        "{}",
        run.stdout
    );
}
