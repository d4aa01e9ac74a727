//! README's package section quotes what `examples/node.mjs f01-duplicate-delivery` prints
//! ("It prints:"). This runs the example against the built `dist/pkg/` (a copy of the example
//! beside a link to the package, so it finds `../dist/pkg/node.js` wherever `dist` is) and
//! compares its output with the quote.

use idempotency_lab_tests::node::{fresh_dir, package_dir};

const README: &str = include_str!("../../../README.md");
const SECTION: &str = "\n## In a slide, a bundler or Node: the package\n";

#[test]
fn node_example_prints_what_the_readme_quotes() {
    let start = README.find(SECTION).expect("README has the package section");
    let section = &README[start + SECTION.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let block = &section[section.find("\nIt prints:\n").expect("a quoted output")..];
    let body = &block[block.find("```text\n").expect("a text block") + "```text\n".len()..];
    let quoted = &body[..body.find("```").expect("the quote is closed")];

    let dir = fresh_dir("node-example");
    std::fs::create_dir_all(dir.join("examples")).expect("mkdir examples");
    std::fs::create_dir_all(dir.join("dist")).expect("mkdir dist");
    std::os::unix::fs::symlink(package_dir(), dir.join("dist/pkg")).expect("link dist/pkg");
    let example = dir.join("examples/node.mjs");
    std::fs::copy(xtask::workspace_root().join("examples/node.mjs"), &example)
        .expect("copy examples/node.mjs");
    let node = xtask::setup::ensure_node().unwrap_or_else(|error| panic!("no Node: {error}"));
    let output = std::process::Command::new(node)
        .arg(&example)
        .arg("f01-duplicate-delivery")
        .output()
        .expect("run node examples/node.mjs");
    std::fs::remove_dir_all(&dir).ok();
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(printed, quoted);
    assert!(printed.contains("\n  I2 VIOLATED "), "the naive twin breaks I2: {printed}");
    assert!(printed.ends_with("idempotent: every invariant held\n"), "{printed}");
}
