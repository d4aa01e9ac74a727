//! `cargo xtask install-check`: installs the CLI as the README tells a user to
//! (`cargo install --path cli`), into a fresh temporary root, and runs the installed
//! `idempotency-lab list` from there: it must exit 0 and list every built-in lesson
//! (`core/scenarios/*.json`). A release build with the workspace's profile (LTO, one codegen
//! unit) takes minutes, so this is a command of its own, not part of `cargo xtask test`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::command::run;
use crate::{XtaskError, io_error};

/// The CLI's binary, as `cargo install` names it.
pub const CLI_BINARY: &str = "idempotency-lab";

/// What an install check saw.
#[derive(Clone, Debug)]
pub struct InstallCheck {
    /// The installed binary (already removed with its temporary root).
    pub binary: PathBuf,
    /// How long `cargo install` took.
    pub install_time: Duration,
    /// What the installed `idempotency-lab list` printed.
    pub list_output: String,
}

/// Installs the CLI from `<root>/cli` into a fresh temporary root (the build itself in
/// `<root>/target/install-check`, so that a second check is quick), runs `list` from there,
/// checks it names every lesson in `<root>/core/scenarios/`, and removes the root again.
pub fn install_check(root: &Path) -> Result<InstallCheck, XtaskError> {
    let install_root =
        std::env::temp_dir().join(format!("idempotency-lab-install-{}", std::process::id()));
    if install_root.exists() {
        std::fs::remove_dir_all(&install_root).map_err(io_error("remove", &install_root))?;
    }
    let result = install_and_list(root, &install_root);
    std::fs::remove_dir_all(&install_root).ok();
    result
}

fn install_and_list(root: &Path, install_root: &Path) -> Result<InstallCheck, XtaskError> {
    let started = Instant::now();
    run(Command::new(crate::setup::cargo())
        .current_dir(root)
        .args(["install", "--locked", "--path", "cli", "--root"])
        .arg(install_root)
        .arg("--target-dir")
        .arg(root.join("target/install-check")))?;
    let install_time = started.elapsed();

    let binary =
        install_root.join("bin").join(format!("{CLI_BINARY}{}", std::env::consts::EXE_SUFFIX));
    let output = Command::new(&binary).arg("list").output().map_err(|source| {
        XtaskError::CommandNotStarted { command: format!("{} list", binary.display()), source }
    })?;
    if !output.status.success() {
        return Err(XtaskError::CommandFailed {
            command: format!("{} list", binary.display()),
            status: output.status,
        });
    }
    let list_output = String::from_utf8_lossy(&output.stdout).into_owned();
    let listed: Vec<&str> =
        list_output.lines().filter_map(|line| line.split_whitespace().next()).collect();
    let missing: Vec<String> =
        lesson_ids(root)?.into_iter().filter(|id| !listed.contains(&id.as_str())).collect();
    if !missing.is_empty() {
        return Err(XtaskError::Unexpected {
            path: binary,
            problem: format!("`list` does not name the lessons {}", missing.join(", ")),
        });
    }
    Ok(InstallCheck { binary, install_time, list_output })
}

/// The ids of the built-in lessons: the stems of `core/scenarios/*.json`, sorted.
fn lesson_ids(root: &Path) -> Result<Vec<String>, XtaskError> {
    let dir = root.join("core/scenarios");
    let mut ids: Vec<String> = std::fs::read_dir(&dir)
        .map_err(io_error("read", &dir))?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .filter_map(|path| path.file_stem().map(|stem| stem.to_string_lossy().into_owned()))
        .collect();
    ids.sort();
    if ids.is_empty() {
        return Err(XtaskError::Unexpected { path: dir, problem: "no lesson files".into() });
    }
    Ok(ids)
}
