//! README's "Fuzz your own consumer" and "Fuzz a consumer or HTTP handler written as steps"
//! quote the harness examples; this keeps the quotes true. Each `rust` or `text` block of a
//! section, line by line (trimmed, blank lines skipped), must appear in order in its source
//! file: an example, which cargo compiles and which runs its own assertions (`cargo run
//! --example <name>`), the example's library, or the test that pins the story it prints.

const README: &str = include_str!("../../../README.md");
const LOYALTY_POINTS: &str = include_str!("../../../core/examples/harness_loyalty_points.rs");
const WALLET_TOP_UP: &str = include_str!("../../../core/examples/harness_wallet_top_up.rs");
const SQLITE_POINTS_LIB: &str = include_str!("../../../examples/sqlite/src/points.rs");
const SQLITE_POINTS: &str = include_str!("../../../examples/sqlite/examples/sqlite_points.rs");
const SQLITE_POINTS_TEST: &str = include_str!("harness_sqlite_points.rs");

/// The `rust` and `text` blocks of the README section whose heading line is `heading`.
fn blocks(heading: &str) -> Vec<Vec<&'static str>> {
    let heading = format!("\n{heading}\n");
    let start = README.find(&heading).expect("the section exists");
    let section = &README[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let section = &section[..section.find("\n### ").unwrap_or(section.len())];
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in section.lines() {
        match (line.trim(), current.as_mut()) {
            ("```rust" | "```text", None) => current = Some(Vec::new()),
            ("```", Some(_)) => blocks.extend(current.take()),
            ("", _) | (_, None) => {}
            (text, Some(block)) => block.push(text),
        }
    }
    blocks
}

/// The lines of `block` that do not appear, in order, among the trimmed lines of `source`.
fn missing_in_order<'a>(block: &[&'a str], source: &str) -> Vec<&'a str> {
    let source: Vec<&str> = source.lines().map(str::trim).collect();
    let mut at = 0;
    let mut missing = Vec::new();
    for wanted in block {
        match source[at..].iter().position(|line| line == wanted) {
            Some(offset) => at += offset + 1,
            None => missing.push(*wanted),
        }
    }
    missing
}

#[test]
fn each_snippet_of_fuzz_your_own_consumer_is_in_its_source() {
    let blocks = blocks("### Fuzz your own consumer");
    let sources = [SQLITE_POINTS_LIB, SQLITE_POINTS, SQLITE_POINTS_TEST, SQLITE_POINTS_TEST];
    assert_eq!(blocks.len(), sources.len());
    for (block, source) in blocks.iter().zip(sources) {
        assert_eq!(missing_in_order(block, source), Vec::<&str>::new());
    }
    assert!(blocks.iter().all(|block| block.len() >= 5));
}

#[test]
fn each_snippet_of_the_steps_harness_is_in_its_example() {
    let blocks = blocks("### Fuzz a consumer or HTTP handler written as steps");
    assert_eq!(blocks.len(), 2);
    assert_eq!(missing_in_order(&blocks[0], LOYALTY_POINTS), Vec::<&str>::new());
    assert_eq!(missing_in_order(&blocks[1], WALLET_TOP_UP), Vec::<&str>::new());
    assert!(blocks.iter().all(|block| block.len() >= 8));
}

#[test]
fn a_changed_line_is_noticed() {
    let blocks = blocks("### Fuzz a consumer or HTTP handler written as steps");
    let mut changed = blocks[1].clone();
    let line = changed.iter().position(|line| line.starts_with("let raw = ")).unwrap();
    changed[line] = "let raw = HttpHarnessConfig::default();";
    assert_eq!(
        missing_in_order(&changed, WALLET_TOP_UP),
        ["let raw = HttpHarnessConfig::default();"]
    );
}
