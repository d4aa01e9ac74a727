//! README's "Using `core` from Rust" quotes what `core/examples/duplicate_delivery.rs` prints
//! ("It prints:"). This runs the example's program (its file, compiled in here; its `main`
//! only prints what `duplicate_delivery` returns) and compares the output with the quote, line
//! for line, so a change to either fails until the other follows.

#[allow(dead_code)] // the example's `main`, which cargo runs as the example
#[path = "../../../core/examples/duplicate_delivery.rs"]
mod duplicate_delivery;

const README: &str = include_str!("../../../README.md");

/// The `text` block after "It prints:" in `section` of the README.
fn quoted_output(section_heading: &str) -> Result<String, String> {
    let heading = format!("\n{section_heading}\n");
    let start = README.find(&heading).ok_or(format!("no section {section_heading:?}"))?;
    let section = &README[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let quote = section.find("\nIt prints:\n").ok_or("no \"It prints:\" in the section")?;
    let block = &section[quote..];
    let open = block.find("```text\n").ok_or("no text block after \"It prints:\"")?;
    let body = &block[open + "```text\n".len()..];
    let close = body.find("```").ok_or("the text block is not closed")?;
    Ok(body[..close].to_owned())
}

#[test]
fn the_duplicate_delivery_example_prints_the_readmes_quote() {
    let printed = duplicate_delivery::duplicate_delivery().expect("the example runs");
    let quoted = quoted_output("## Using `core` from Rust").unwrap();
    assert_eq!(printed, quoted);
    // What the quote teaches: the naive twin lost three apples and broke I2, the inbox did not.
    assert!(printed.starts_with("Naive: 4 of 10 apples available\n  I2: "), "{printed}");
    assert!(printed.ends_with("\nIdempotent: 7 of 10 apples available\n"), "{printed}");
}

#[test]
fn a_missing_quote_is_an_error_not_an_empty_match() {
    assert_eq!(
        quoted_output("## No such section"),
        Err("no section \"## No such section\"".to_owned())
    );
    assert_eq!(
        quoted_output("## Tests and benchmarks"),
        Err("no \"It prints:\" in the section".to_owned())
    );
}
