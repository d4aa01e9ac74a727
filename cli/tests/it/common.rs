//! Runs the built `idempotency-lab` binary and captures what it printed, for the integration
//! tests of this directory; and gives each test a scratch directory of its own.

use std::path::PathBuf;
use std::process::Command;

/// What one run of the binary printed and how it exited.
pub struct CliRun {
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text.
    pub stderr: String,
    /// The exit code.
    pub code: i32,
}

/// Runs `idempotency-lab` with `args`.
pub fn run_cli(args: &[&str]) -> CliRun {
    let output = Command::new(env!("CARGO_BIN_EXE_idempotency-lab")).args(args).output().unwrap();
    CliRun {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code().unwrap(),
    }
}

/// A fresh, empty directory for the test `name`, under cargo's scratch directory for tests.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `idempotency-lab` with `args` in the directory `dir`.
pub fn run_cli_in(dir: &std::path::Path, args: &[&str]) -> CliRun {
    let output = Command::new(env!("CARGO_BIN_EXE_idempotency-lab"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    CliRun {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code().unwrap(),
    }
}
