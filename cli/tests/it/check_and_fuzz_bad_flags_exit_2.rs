//! `check` and `fuzz` with a bad flag, a bad value or an unknown scenario: a usage or input
//! error on stderr, nothing on stdout, exit 2.

use crate::common::run_cli;

#[test]
fn bad_flags_and_values_exit_2() {
    let cases: [&[&str]; 6] = [
        &["check", "f01-duplicate-delivery", "--depth-max", "ten"],
        &["check", "f01-duplicate-delivery", "--mode", "sometimes"],
        &["check", "f01-duplicate-delivery", "--cases", "3"],
        &["fuzz", "f01-duplicate-delivery", "--cases", "-1"],
        &["fuzz", "f01-duplicate-delivery", "--states-max", "3"],
        &["check"],
    ];
    for args in cases {
        let run = run_cli(args);
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("error: "), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn an_unknown_scenario_exits_2() {
    for command in ["check", "fuzz"] {
        let run = run_cli(&[command, "no-such-lesson"]);
        assert_eq!(run.code, 2, "{command}");
        assert_eq!(run.stdout, "", "{command}");
        assert_eq!(
            run.stderr,
            "error: `no-such-lesson` is neither a built-in scenario nor a file \
             (`idempotency-lab list` shows the built-in ids)\n",
            "{command}"
        );
    }
}
