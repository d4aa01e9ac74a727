//! README's "Fuzz your own consumer or HTTP handler" quotes the harness examples; this keeps
//! the quotes true. Each `rust` block of the section, line by line (trimmed, blank lines
//! skipped), must appear in order in its example file, which cargo compiles and which runs its
//! own assertions (`cargo run -p idempotency-lab --features testing --example <name>`).

const README: &str = include_str!("../../../README.md");
const LOYALTY_POINTS: &str = include_str!("../../../core/examples/harness_loyalty_points.rs");
const WALLET_TOP_UP: &str = include_str!("../../../core/examples/harness_wallet_top_up.rs");

/// The `rust` blocks of the README section that starts with `heading`.
fn rust_blocks(heading: &str) -> Vec<Vec<&'static str>> {
    let start = README.find(heading).expect("the section exists");
    let section = &README[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in section.lines() {
        match (line.trim(), current.as_mut()) {
            ("```rust", None) => current = Some(Vec::new()),
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
fn each_snippet_is_in_its_example() {
    let blocks = rust_blocks("### Fuzz your own consumer or HTTP handler");
    assert_eq!(blocks.len(), 2);
    assert_eq!(missing_in_order(&blocks[0], LOYALTY_POINTS), Vec::<&str>::new());
    assert_eq!(missing_in_order(&blocks[1], WALLET_TOP_UP), Vec::<&str>::new());
    assert!(blocks.iter().all(|block| block.len() >= 8));
}

#[test]
fn a_changed_line_is_noticed() {
    let blocks = rust_blocks("### Fuzz your own consumer or HTTP handler");
    let mut changed = blocks[1].clone();
    let line = changed.iter().position(|line| line.starts_with("let raw = ")).unwrap();
    changed[line] = "let raw = HttpHarnessConfig::default();";
    assert_eq!(
        missing_in_order(&changed, WALLET_TOP_UP),
        ["let raw = HttpHarnessConfig::default();"]
    );
}
