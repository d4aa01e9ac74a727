//! The share link as the parser fuzzer makes and opens it: the one implementation of the two
//! link callbacks of `testing::parser_fuzz`, which the core's own fuzz tests and the
//! `parser_fuzz` bench both pass in. The fuzzer takes them as callbacks because `testing` may
//! not use the view (ARCHITECTURE.md's layers); the view may give them, since they name
//! nothing of `testing`.

use super::{ShareError, ShareLink, SharedScenario};
use crate::sim::Run;

/// The fragment of `run`'s link at `step`: naming its lesson, as [`ShareLink::of_run`] does
/// for a built-in lesson, or, if `inline`, carrying its scenario whole (`j=`), as the link of
/// an edited lesson does. The fuzzer's `link_of`: its two link seeds of each lesson.
pub fn parser_fuzz_link_of(run: &Run, step: usize, inline: bool) -> String {
    let link = ShareLink::of_run(run, step);
    if !inline {
        return link.encode();
    }
    let scenario = SharedScenario::Inline { scenario: Box::new(run.scenario.clone()) };
    ShareLink { scenario, ..link }.encode()
}

/// The page's `fromLink`: decodes `fragment` and opens it at its step; the steps of the opened
/// run. The fuzzer's `open_link`: how a link case runs.
pub fn parser_fuzz_open_link(fragment: &str) -> Result<usize, ShareError> {
    Ok(ShareLink::decode(fragment)?.open()?.simulation.steps().len())
}
