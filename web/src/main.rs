//! The teaching page's entry point.
fn main() {}
