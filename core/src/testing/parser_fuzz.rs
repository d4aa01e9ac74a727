//! A deterministic mutation fuzzer of every input parser a user reaches: a scenario file (the
//! CLI's `run` and the page's import), a trace file (the CLI's `replay`, the page's import)
//! and a share link (the page's address fragment).
//!
//! The seeds are the built-in lessons of the catalogue, the trace of running each (as
//! `run --json` writes it) and the share link of each run ([`catalogue_seeds`]). Case `n` of a
//! fuzz seed is a pure function of the two ([`ParserFuzz::input`]): a seed input, mutated one
//! to three times with the core's [`DeterministicRng`] (bytes flipped, the text cut, bytes
//! inserted, spans deleted, two seeds spliced; in the JSON, a value replaced by another type,
//! an extreme number such as 2^64, -1 or 1e308, a string of up to a megabyte, deep nesting, a
//! key removed, repeated or renamed, an array emptied or grown; in a link, a parameter's value
//! changed, a parameter dropped or repeated, percent-encoding junk, or the JSON inside `j` and
//! `u` mutated as above). So a failing case is reproduced from its seed and number alone.
//!
//! [`run_case`] hands one input to the product's own parser and, when the parser accepts it,
//! runs what it names as the product would (an accepted scenario to its end, a trace replayed,
//! a link opened at its step), because an accepted input must stay cheap: every refusal must
//! be a typed error, never a panic. The link parser lives in the view, which this module may
//! not use (ARCHITECTURE.md's layers), so the caller passes the link's two callbacks in; their
//! one implementation is the view's `parser_fuzz_link_of` and `parser_fuzz_open_link`, which
//! this module's tests and `cargo bench -p idempotency-lab --bench parser_fuzz` both pass.
//! Timing and catching panics are the caller's too: the generator reads no clock.

use std::fmt;

use crate::rng::DeterministicRng;
use crate::sim::{
    CATALOGUE, ReplayError, Run, Scenario, ScenarioError, Simulation, Trace, TraceError,
    catalogue_scenario,
};

mod mutate;

use mutate::{mix, mutate_json, mutate_link, random_bytes};

/// The kind of input a case feeds to its parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InputKind {
    /// A scenario's JSON.
    Scenario,
    /// A trace's JSON.
    Trace,
    /// A share link's fragment.
    Link,
}

impl InputKind {
    /// Every kind, in the order cases take them.
    pub(crate) const ALL: [InputKind; 3] = [InputKind::Scenario, InputKind::Trace, InputKind::Link];

    /// Its lower-case name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            InputKind::Scenario => "scenario",
            InputKind::Trace => "trace",
            InputKind::Link => "link",
        }
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One seed input: a valid input of its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParserSeed {
    /// Its kind.
    pub(crate) kind: InputKind,
    /// What it is (`trace of f01-duplicate-delivery`).
    pub(crate) name: String,
    /// Its text.
    pub(crate) text: String,
}

/// A mutation applied to an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mutation {
    /// One bit of one byte flipped.
    FlipBit,
    /// The text cut at a random place.
    Truncate,
    /// Random bytes, or JSON punctuation, inserted.
    InsertBytes,
    /// A span deleted.
    DeleteSpan,
    /// The start of this input joined to the end of another seed.
    Splice,
    /// A JSON value replaced by one of another type.
    ReplaceType,
    /// A JSON value replaced by an extreme number (2^64, -1, 1e308, ...).
    ExtremeNumber,
    /// A number moved a little (one more, one less, doubled, zero).
    NudgeNumber,
    /// A JSON value replaced by a string of up to a megabyte.
    HugeString,
    /// A JSON value replaced by deeply nested arrays or objects.
    DeepNesting,
    /// A key of an object removed.
    RemoveKey,
    /// A key of an object written twice.
    DuplicateKey,
    /// A key of an object renamed.
    RenameKey,
    /// A JSON value replaced by an empty array.
    EmptyArray,
    /// An array grown by repeating one of its elements (or a value wrapped in a big array).
    BigArray,
    /// A link parameter's value replaced.
    LinkValue,
    /// A link parameter dropped.
    LinkDropParameter,
    /// A link parameter repeated.
    LinkDuplicateParameter,
    /// Percent-encoding and separator junk put into a link.
    LinkPercentJunk,
    /// The JSON inside a link's `j` or `u` mutated.
    LinkPayload,
}

/// One generated case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParserInput {
    /// The case's number.
    pub case: u64,
    /// The kind of input, which names the parser it goes to.
    pub kind: InputKind,
    /// The seed input it was mutated from.
    pub seed_name: String,
    /// The mutations applied, in order.
    pub mutations: Vec<Mutation>,
    /// The seed of the run an accepted scenario is run with.
    pub(crate) run_seed: u64,
    /// The text given to the parser.
    pub text: String,
}

/// The fuzzer: its seeds and the fuzz seed from which every case is drawn.
#[derive(Clone, Debug)]
pub struct ParserFuzz {
    seed: u64,
    seeds: Vec<ParserSeed>,
}

/// Why a generator cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParserFuzzError {
    /// Some kind of input has no seed.
    #[error("no seed input of kind {kind}")]
    NoSeed {
        /// The kind.
        kind: InputKind,
    },
}

impl ParserFuzz {
    /// A fuzzer of `seeds` with fuzz seed `seed`; every kind must have a seed.
    pub fn new(seed: u64, seeds: Vec<ParserSeed>) -> Result<ParserFuzz, ParserFuzzError> {
        if let Some(kind) =
            InputKind::ALL.into_iter().find(|kind| !seeds.iter().any(|s| s.kind == *kind))
        {
            return Err(ParserFuzzError::NoSeed { kind });
        }
        Ok(ParserFuzz { seed, seeds })
    }

    /// The seeds.
    pub fn seeds(&self) -> &[ParserSeed] {
        &self.seeds
    }

    /// Case `case`: the kinds take turns; the seed of that kind and the mutations are drawn
    /// from a stream seeded by the fuzz seed and the case's number alone.
    pub fn input(&self, case: u64) -> ParserInput {
        let mut rng = DeterministicRng::from_seed(mix(self.seed, case));
        let kind = InputKind::ALL[(case % 3) as usize];
        let of_kind: Vec<&ParserSeed> = self.seeds.iter().filter(|s| s.kind == kind).collect();
        let seed = of_kind[rng.below(of_kind.len() as u64) as usize];
        let mut text = seed.text.clone();
        let count = 1 + rng.below(3);
        let mut mutations = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let (mutation, mutated) = self.mutate(kind, &text, &mut rng);
            mutations.push(mutation);
            text = mutated;
        }
        ParserInput {
            case,
            kind,
            seed_name: seed.name.clone(),
            mutations,
            run_seed: rng.below(4),
            text,
        }
    }

    fn mutate(
        &self,
        kind: InputKind,
        text: &str,
        rng: &mut DeterministicRng,
    ) -> (Mutation, String) {
        // Links: half the mutations are the link's own; the rest as for JSON (bytes, and the
        // JSON of the whole text, which is not JSON, so it falls back to bytes).
        if kind == InputKind::Link && rng.below(2) == 0 {
            return mutate_link(text, rng);
        }
        if rng.below(2) == 0
            && let Some(done) = mutate_json(text, rng)
        {
            return done;
        }
        self.mutate_bytes(text, rng)
    }

    fn mutate_bytes(&self, text: &str, rng: &mut DeterministicRng) -> (Mutation, String) {
        let mut bytes = text.as_bytes().to_vec();
        let len = bytes.len() as u64;
        let mutation = match rng.below(5) {
            0 => {
                if len > 0 {
                    let at = rng.below(len) as usize;
                    bytes[at] ^= 1 << rng.below(8);
                }
                Mutation::FlipBit
            }
            1 => {
                bytes.truncate(rng.below(len + 1) as usize);
                Mutation::Truncate
            }
            2 => {
                let at = rng.below(len + 1) as usize;
                let inserted = random_bytes(rng);
                bytes.splice(at..at, inserted);
                Mutation::InsertBytes
            }
            3 => {
                let from = rng.below(len + 1);
                let to = (from + 1 + rng.below(64.min(len - from + 1))).min(len);
                bytes.drain(from as usize..to as usize);
                Mutation::DeleteSpan
            }
            _ => {
                let other = &self.seeds[rng.below(self.seeds.len() as u64) as usize].text;
                let cut = rng.below(len + 1) as usize;
                let from = rng.below(other.len() as u64 + 1) as usize;
                bytes.truncate(cut);
                bytes.extend_from_slice(&other.as_bytes()[from..]);
                Mutation::Splice
            }
        };
        (mutation, String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// The seeds: for every lesson of the catalogue, its scenario file as written, the trace of a
/// run of it (with one step taken by the user's hand, so that replaying places a choice) as
/// `run --json` writes it, and two share links of that run, one naming the lesson and one
/// carrying the scenario inline, given by `link_of` (the view's `parser_fuzz_link_of`, passed
/// in because this module may not use the view) at the run's middle step.
pub fn catalogue_seeds(link_of: &dyn Fn(&Run, usize, bool) -> String) -> Vec<ParserSeed> {
    let mut seeds = Vec::new();
    for entry in CATALOGUE {
        let Ok(scenario) = catalogue_scenario(entry.id) else { continue };
        seeds.push(ParserSeed {
            kind: InputKind::Scenario,
            name: format!("scenario {}", entry.id),
            text: entry.json.to_owned(),
        });
        let Some((run, trace)) = run_with_a_choice(scenario) else { continue };
        seeds.push(ParserSeed {
            kind: InputKind::Trace,
            name: format!("trace of {}", entry.id),
            text: trace.to_json_file(),
        });
        let middle = trace.steps.len() / 2;
        for inline in [false, true] {
            let form = if inline { "inline" } else { "by id" };
            seeds.push(ParserSeed {
                kind: InputKind::Link,
                name: format!("link of {} ({form})", entry.id),
                text: link_of(&run, middle, inline),
            });
        }
    }
    seeds
}

/// A run of `scenario` with seed 0 whose second step is taken as the user's choice, and its
/// trace to the end.
fn run_with_a_choice(scenario: Scenario) -> Option<(Run, Trace)> {
    let plain = Simulation::run(scenario.clone(), 0).ok()?;
    let taken: Vec<_> =
        plain.steps.get(1).map(|step| (2, step.action.clone())).into_iter().collect();
    let (run, mut simulation) = Run::anchor(scenario, 0, &taken).ok()?;
    simulation.run_to_end();
    Some((run, simulation.trace()))
}

/// The most characters a refusal's message may have: it is shown to a person (the page, the
/// CLI), so it quotes at most a short part of the input, however long the input is.
pub const REFUSAL_CHARS_MAX: usize = 1_000;

/// Why a case's input was refused: the parser's typed error, or the run's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal<LinkError> {
    /// The scenario was refused.
    #[error("scenario: {0}")]
    Scenario(ScenarioError),
    /// The trace was refused.
    #[error("trace: {0}")]
    Trace(TraceError),
    /// The trace read but does not replay.
    #[error("replay: {0}")]
    Replay(ReplayError),
    /// The link was refused, or does not open.
    #[error("link: {0}")]
    Link(LinkError),
}

/// An accepted case: the steps its run took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// The steps of the run the input named.
    pub steps: usize,
}

/// Hands `input` to its parser, as the CLI and the page do, and runs what an accepted input
/// names: a scenario to its end with the case's run seed, a trace replayed
/// ([`Run::replay`], the CLI's `replay`), a link through `open_link` (decode and open; it
/// returns the steps of the opened run: the view's `parser_fuzz_open_link`).
pub fn run_case<LinkError>(
    input: &ParserInput,
    open_link: &dyn Fn(&str) -> Result<usize, LinkError>,
) -> Result<Accepted, Refusal<LinkError>> {
    let steps = match input.kind {
        InputKind::Scenario => {
            let scenario = Scenario::from_json(&input.text).map_err(Refusal::Scenario)?;
            Simulation::run(scenario, input.run_seed).map_err(Refusal::Scenario)?.steps.len()
        }
        InputKind::Trace => {
            let trace = Trace::from_json(&input.text).map_err(Refusal::Trace)?;
            Run::replay(&trace).map_err(Refusal::Replay)?.steps.len()
        }
        InputKind::Link => open_link(&input.text).map_err(Refusal::Link)?,
    };
    Ok(Accepted { steps })
}

#[cfg(test)]
mod tests;
