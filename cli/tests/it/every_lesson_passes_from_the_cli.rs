//! Every lesson of the course can be passed from a terminal alone: the commands of README.md's
//! "The course from a terminal" block (runs with the right modes, pattern switches and
//! injected faults, then `lesson <id> --check`) are run as they stand, each `lesson --check`
//! must pass every task of its lesson, and every lesson of the course must be in the block.
//! The README is read from disk, so a lesson or task added without its commands fails here.
//! The example programs a build lesson's commands name are copied beside the runs, as they
//! stand in a checkout.

use crate::common::{run_cli_in, scratch_dir};

/// The commands of the first ```sh block after "### The course from a terminal", comments and
/// blank lines left out.
fn readme_course_commands() -> Vec<String> {
    let readme = include_str!("../../../README.md");
    let section = &readme[readme.find("### The course from a terminal").unwrap()..];
    let start = section.find("```sh\n").unwrap() + "```sh\n".len();
    let end = start + section[start..].find("```").unwrap();
    section[start..end]
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The course's lesson ids, in order, as `course` lists them.
fn course_lessons(dir: &std::path::Path) -> Vec<String> {
    let course = run_cli_in(dir, &["course"]);
    assert_eq!(course.code, 0, "{}", course.stderr);
    course
        .stdout
        .lines()
        .map(|line| {
            let (_, rest) = line.split_once(". ").unwrap();
            rest.split_once(':').unwrap().0.to_owned()
        })
        .collect()
}

#[test]
fn the_readmes_commands_pass_every_task_of_every_lesson() {
    let dir = scratch_dir("every-lesson-from-the-cli");
    // The example programs the build lessons' commands name, where a checkout has them.
    let programs = dir.join("examples/programs");
    std::fs::create_dir_all(&programs).unwrap();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/programs");
    for file in std::fs::read_dir(examples).unwrap() {
        let path = file.unwrap().path();
        std::fs::copy(&path, programs.join(path.file_name().unwrap())).unwrap();
    }
    let mut passed = Vec::new();
    for command in readme_course_commands() {
        let (command, output) = match command.split_once(" > ") {
            Some((command, output)) => (command, Some(output.trim())),
            None => (command.as_str(), None),
        };
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "idempotency-lab", "{command}");
        let run = run_cli_in(&dir, &words[1..]);
        match output {
            Some(file) => {
                // A run: exit 0 or 1 (an invariant broke, which a "break it" task wants).
                assert!(run.code <= 1, "`{command}` exits {}: {}", run.code, run.stderr);
                std::fs::write(dir.join(file), &run.stdout).unwrap();
            }
            None => {
                assert_eq!(words[1], "lesson", "{command}");
                assert_eq!(run.code, 0, "`{command}`:\n{}{}", run.stdout, run.stderr);
                let summary = run.stdout.lines().last().unwrap();
                let (done, total) = summary
                    .strip_suffix(" tasks passed")
                    .and_then(|counts| counts.split_once(" of "))
                    .unwrap_or_else(|| panic!("`{command}` ends with {summary:?}"));
                assert_eq!(done, total, "`{command}`:\n{}", run.stdout);
                passed.push(words[2].to_owned());
            }
        }
    }
    assert_eq!(passed, course_lessons(&dir), "the README's block passes these lessons");
}
