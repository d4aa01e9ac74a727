//! `idempotency-lab check` with a memory bound too small for the lesson: the checker stops
//! with its typed memory outcome, prints the progress it made (states, unique states, depth)
//! in the chosen language, and exits 3, not a proof, as for its other bounds.

use idempotency_lab::words::{Language, fill};

use crate::common::run_cli;

/// The part of a bounded report after the reason: `S states, U unique, depth D)`, as numbers.
fn progress(rest: &str) -> Vec<usize> {
    rest.split(|c: char| !c.is_ascii_digit()).filter_map(|part| part.parse().ok()).collect()
}

#[test]
fn a_memory_bound_hit_first_prints_the_progress_and_exits_3() {
    let run =
        run_cli(&["check", "p4-inbox-consumer", "--mode", "idempotent", "--bytes-max", "100000"]);
    assert_eq!(run.code, 3, "bounded; stdout: {}; stderr: {}", run.stdout, run.stderr);
    let rest = run
        .stdout
        .strip_prefix(
            "bounded: the memory limit of 100000 bytes (0.1 MiB) was reached, not a proof (",
        )
        .unwrap_or_else(|| panic!("the memory outcome in words: {}", run.stdout));
    // Some states, fewer than the 773 the whole proof takes, and a depth reached.
    let [states, unique, depth] = progress(rest)[..] else { panic!("progress: {rest}") };
    assert!(0 < unique && unique < 773 && states <= unique && depth > 0, "{rest}");

    let russian = run_cli(&[
        "check",
        "p4-inbox-consumer",
        "--mode",
        "idempotent",
        "--bytes-max",
        "100000",
        "--lang",
        "ru",
    ]);
    assert_eq!(russian.code, 3);
    // The same report in the catalogue's Russian.
    let words = Language::Ru.words();
    let reason =
        fill(words.report.check_bound_bytes_max, &[("bytes_max", &100000), ("mib", &"0.1")]);
    let expected = fill(
        words.report.check_bounded,
        &[("reason", &reason), ("states", &states), ("unique", &unique), ("depth", &depth)],
    );
    assert_eq!(russian.stdout, format!("{expected}\n"));
}
