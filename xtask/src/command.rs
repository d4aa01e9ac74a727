//! Running external commands with errors that name the command line.

use std::ffi::OsStr;
use std::process::{Command, Stdio};

use crate::XtaskError;

/// The command line as a user would type it, for messages.
pub fn display(command: &Command) -> String {
    let mut line = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        line.push(' ');
        line.push_str(&arg.to_string_lossy());
    }
    line
}

/// Runs `command` with inherited output; fails unless it exits with success.
pub fn run(command: &mut Command) -> Result<(), XtaskError> {
    let line = display(command);
    eprintln!("xtask: running {line}");
    let status = command
        .status()
        .map_err(|source| XtaskError::CommandNotStarted { command: line.clone(), source })?;
    if status.success() { Ok(()) } else { Err(XtaskError::CommandFailed { command: line, status }) }
}

/// Runs `program args` quietly and returns its standard output if it succeeded, `None` if it
/// could not start or failed: for probing which tools exist.
pub fn probe(program: impl AsRef<OsStr>, args: &[&str]) -> Option<String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
