//! The workspace's own source files, for the tests that read them (the architecture
//! invariants, the catalogue's Cyrillic check): every file with an extension below a folder,
//! build output, installed tools and dot folders skipped.

use std::path::{Path, PathBuf};

/// Folders not searched: build output, installed tools and version control.
pub const SKIPPED_DIRS: &[&str] = &["target", ".git", "node_modules", "dist"];

/// Every file below `dir` whose extension is `extension`, unsorted.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect(dir, extension, &mut files);
    files
}

fn collect(dir: &Path, extension: &str, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref()) && !name.starts_with('.') {
                collect(&path, extension, files);
            }
        } else if path.extension().is_some_and(|ext| ext == extension) {
            files.push(path);
        }
    }
}
