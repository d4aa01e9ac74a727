//! The monkey on the page: `cargo run -p idempotency-lab-tests --bin monkey -- --actions 1000
//! --seed N`. It serves the built `dist/` (`LAB_DIST_DIR`, else built now), opens it in
//! headless Chromium, does that many random actions chosen by the seed (1,000 and seed 1 by
//! default; see `idempotency_lab_tests::monkey`), checking the page after each, and prints a
//! summary: the actions and time per kind and the errors (0), or the first problem with the
//! seed and every action that led to it, and then fails. `--log` prints every action too.

use std::process::ExitCode;

use idempotency_lab_tests::monkey::run_on_fresh_page;

fn main() -> ExitCode {
    let mut actions = 1000usize;
    let mut seed = 1u64;
    let mut log = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let parsed = match arg.as_str() {
            "--log" => {
                log = true;
                true
            }
            "--actions" => args
                .next()
                .and_then(|value| value.parse().ok())
                .map(|value| actions = value)
                .is_some(),
            "--seed" => {
                args.next().and_then(|value| value.parse().ok()).map(|value| seed = value).is_some()
            }
            _ => false,
        };
        if !parsed {
            eprintln!("usage: monkey [--actions N] [--seed N] [--log]");
            return ExitCode::from(2);
        }
    }
    match run_on_fresh_page(seed, actions, &format!("bin-{seed}")) {
        Ok(report) => {
            if log {
                for line in &report.log {
                    println!("  {line}");
                }
            }
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("{failure}");
            println!(
                "monkey: seed {seed}, failed after {} of {actions} actions, errors 1",
                failure.actions_to_replay()
            );
            ExitCode::FAILURE
        }
    }
}
