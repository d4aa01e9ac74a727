//! `cargo xtask mutants`: mutation testing of the core's safety-critical code with
//! cargo-mutants, which injects one bug at a time (a function that returns a default, a `==`
//! turned into `!=`, a `&&` into `||`, ...) and runs the core's tests against it. A mutant the
//! tests do not catch is a rule no test guards: it is killed by a new test or listed, with the
//! reason it is equivalent, in `core/mutants-equivalent.md`.
//!
//! What it mutates and how it tests (the files, the core's library tests) is
//! `.cargo/mutants.toml`, so that a plain `cargo mutants` from the root does the same. This
//! command adds what a shared machine needs: one job at a time, a timeout per mutant, and a
//! check that cargo-mutants is installed. It takes minutes per file and hours for the whole
//! scope, so it is not part of `cargo xtask test`; narrow it with cargo-mutants' own arguments
//! after `--` (`--list` to count, `--re <regex>` on the mutants' names, which start with their
//! file and line, for one file or a few lines (`--file` would add files to the configured ones);
//! `--in-place` in a throwaway checkout to reuse its warm target directory).

use std::path::Path;
use std::process::Command;

use crate::{XtaskError, command, setup};

/// How `cargo xtask mutants` runs cargo-mutants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutantsRun {
    /// Mutants built and tested at once (`--jobs`): each needs its own build. Ignored with
    /// `--in-place`, which is one job by construction.
    pub jobs: u32,
    /// Seconds after which a mutant's tests count as hung (`--timeout`): a mutant that makes a
    /// loop endless is caught this way.
    pub timeout_seconds: u64,
    /// Further arguments for cargo-mutants.
    pub args: Vec<String>,
}

/// The cargo-mutants command line of `run`, from `root`. With `--in-place` (mutate the tree
/// itself, reusing its target directory: for a throwaway checkout) there is one job by
/// construction, and cargo-mutants refuses `--jobs`.
pub fn mutants_command(root: &Path, run: &MutantsRun) -> Command {
    let mut cargo = Command::new(setup::cargo());
    cargo.current_dir(root).arg("mutants");
    if !run.args.iter().any(|arg| arg == "--in-place") {
        cargo.args(["--jobs", &run.jobs.to_string()]);
    }
    cargo.args(["--timeout", &run.timeout_seconds.to_string()]).args(&run.args);
    cargo
}

/// Runs cargo-mutants as `run` says. Fails with a hint if it is not installed, and when it
/// finds a mutant the tests miss (its exit status says so; the report is in `mutants.out/`).
pub fn mutants(root: &Path, run: &MutantsRun) -> Result<(), XtaskError> {
    let cargo = setup::cargo();
    if command::probe(&cargo, &["mutants", "--version"]).is_none() {
        return Err(XtaskError::MissingTool {
            tool: "cargo-mutants",
            hint: "install it with `cargo install --locked cargo-mutants`".to_owned(),
        });
    }
    command::run(&mut mutants_command(root, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_has_one_job_a_timeout_and_the_callers_arguments_last() {
        let run = MutantsRun {
            jobs: 1,
            timeout_seconds: 240,
            args: vec!["--re".to_owned(), "inbox".to_owned()],
        };
        let line = command::display(&mutants_command(Path::new("."), &run));
        assert!(line.ends_with(" mutants --jobs 1 --timeout 240 --re inbox"), "{line}");
        let in_place = MutantsRun { args: vec!["--in-place".to_owned()], ..run };
        let line = command::display(&mutants_command(Path::new("."), &in_place));
        assert!(line.ends_with(" mutants --timeout 240 --in-place"), "{line}");
    }
}
