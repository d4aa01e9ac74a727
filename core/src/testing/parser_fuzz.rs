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

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::Value;

use crate::rng::DeterministicRng;
use crate::sim::{
    CATALOGUE, ReplayError, Run, Scenario, ScenarioError, Simulation, Trace, TraceError,
    catalogue_scenario,
};

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

/// A stream's seed for case `case` of fuzz seed `seed` (splitmix64 of both).
fn mix(seed: u64, case: u64) -> u64 {
    splitmix(seed ^ splitmix(case))
}

fn splitmix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Tokens that JSON and links are made of, inserted whole.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "0",
    "-",
    "e",
    "null",
    "true",
    "\\",
    "\\u",
    "\\ud800",
    "%",
    "&",
    "=",
    "#",
    "\u{0}",
    "\u{feff}",
    "é",
    "🦀",
    "18446744073709551616",
    "1e308",
];

fn random_bytes(rng: &mut DeterministicRng) -> Vec<u8> {
    if rng.below(2) == 0 {
        return pick(TOKENS, rng).as_bytes().to_vec();
    }
    let count = 1 + rng.below(16);
    (0..count).map(|_| rng.below(256) as u8).collect()
}

fn pick<'a>(items: &[&'a str], rng: &mut DeterministicRng) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

/// Stands for raw JSON text in a value before it is written: replaced in the written text.
const RAW_MARKER: &str = "\u{1}raw-json\u{1}";
/// Stands for a repeated key in an object: replaced by the key in the written text.
const DUPLICATE_MARKER: &str = "\u{1}duplicate-key\u{1}";

/// Numbers beyond what a field holds, written as JSON text.
const EXTREME_NUMBERS: &[&str] = &[
    "18446744073709551616",
    "18446744073709551615",
    "9223372036854775808",
    "-9223372036854775809",
    "4294967296",
    "9007199254740993",
    "-1",
    "-0",
    "0.5",
    "1e308",
    "-1e308",
    "1e400",
    "1e-400",
    "340282366920938463463374607431768211456",
];

/// Sizes of huge strings: around the bounds of ids (64), titles (200), descriptions (4,000),
/// and up to a megabyte.
const STRING_CHARS: &[u64] = &[65, 201, 4_001, 65_537, 1_000_000];
/// Depths of nesting: around serde_json's recursion limit (128), and far beyond.
const NESTING_DEPTHS: &[u64] = &[127, 128, 129, 1_000, 100_000];
/// Lengths of big arrays: around the bounds (16, 64, 100, 20,000), and more.
const ARRAY_LENGTHS: &[u64] = &[17, 65, 101, 1_000, 20_001];
/// The most bytes a grown array may add.
const GROWTH_BYTES_MAX: usize = 4 << 20;
/// Keys a renamed key may get: others of the formats', and near misses.
const KEY_NAMES: &[&str] = &[
    "",
    "id",
    "op",
    "fault",
    "format_version",
    "steps",
    "seed",
    "requests",
    "injections",
    "limits",
    "unknown",
    "Id",
    "step ",
    "scenario",
];

/// A JSON mutation of `text`, if it reads as JSON.
fn mutate_json(text: &str, rng: &mut DeterministicRng) -> Option<(Mutation, String)> {
    let mut root: Value = serde_json::from_str(text).ok()?;
    let mut raw = None;
    let mut duplicate_key = None;
    let node = random_node(&mut root, rng);
    let mutation = match rng.below(11) {
        0 => {
            *node = other_type(node, rng);
            Mutation::ReplaceType
        }
        1 => {
            raw = Some(pick(EXTREME_NUMBERS, rng).to_owned());
            *node = Value::String(RAW_MARKER.to_owned());
            Mutation::ExtremeNumber
        }
        2 => {
            *node = nudged(node, rng);
            Mutation::NudgeNumber
        }
        3 => {
            let chars = STRING_CHARS[rng.below(STRING_CHARS.len() as u64) as usize];
            let unit = pick(&["a", "é", "🦀", "\"", "\n"], rng);
            *node = Value::String(unit.repeat(chars as usize));
            Mutation::HugeString
        }
        4 => {
            let depth = NESTING_DEPTHS[rng.below(NESTING_DEPTHS.len() as u64) as usize] as usize;
            raw = Some(match rng.below(2) {
                0 => format!("{}0{}", "[".repeat(depth), "]".repeat(depth)),
                _ => format!("{}0{}", "{\"a\":".repeat(depth), "}".repeat(depth)),
            });
            *node = Value::String(RAW_MARKER.to_owned());
            Mutation::DeepNesting
        }
        5 => {
            let map = object_or_replace(node, rng)?;
            let key = random_key(map, rng)?;
            map.remove(&key);
            Mutation::RemoveKey
        }
        6 => {
            let map = object_or_replace(node, rng)?;
            let key = random_key(map, rng)?;
            let value = match rng.below(2) {
                0 => map.get(&key).cloned().unwrap_or(Value::Null),
                _ => Value::Null,
            };
            map.insert(DUPLICATE_MARKER.to_owned(), value);
            duplicate_key = Some(key);
            Mutation::DuplicateKey
        }
        7 => {
            let map = object_or_replace(node, rng)?;
            let key = random_key(map, rng)?;
            let value = map.remove(&key).unwrap_or(Value::Null);
            let renamed = match rng.below(3) {
                0 => key.to_uppercase(),
                1 => format!("{key}_"),
                _ => pick(KEY_NAMES, rng).to_owned(),
            };
            map.insert(renamed, value);
            Mutation::RenameKey
        }
        8 => {
            *node = Value::Array(Vec::new());
            Mutation::EmptyArray
        }
        _ => {
            *node = grown(node, rng);
            Mutation::BigArray
        }
    };
    let mut written = match rng.below(2) {
        0 => serde_json::to_string(&root).ok()?,
        _ => serde_json::to_string_pretty(&root).ok()?,
    };
    if let Some(raw) = raw {
        written = written.replacen(&quoted(RAW_MARKER), &raw, 1);
    }
    if let Some(key) = duplicate_key {
        written = written.replacen(&quoted(DUPLICATE_MARKER), &quoted(&key), 1);
    }
    Some((mutation, written))
}

fn quoted(text: &str) -> String {
    // A string always serializes; the fallback is never used.
    serde_json::to_string(text).unwrap_or_default()
}

/// A node of `root`: from the root, stop with chance 1/4 or go into a random child.
fn random_node<'a>(root: &'a mut Value, rng: &mut DeterministicRng) -> &'a mut Value {
    let mut node = root;
    loop {
        let children = match &*node {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        };
        if children == 0 || rng.below(4) == 0 {
            return node;
        }
        let index = rng.below(children as u64) as usize;
        node = match node {
            Value::Array(items) => &mut items[index],
            Value::Object(map) => match map.values_mut().nth(index) {
                Some(child) => child,
                None => unreachable!("index below the object's length"),
            },
            _ => unreachable!("a node with children is a container"),
        };
    }
}

/// `node` as an object; a node that is not one is replaced by one of its type's others, and
/// `None` is returned only when that is not an object either.
fn object_or_replace<'a>(
    node: &'a mut Value,
    rng: &mut DeterministicRng,
) -> Option<&'a mut serde_json::Map<String, Value>> {
    if !node.is_object() {
        *node = other_type(node, rng);
    }
    node.as_object_mut()
}

fn random_key(map: &serde_json::Map<String, Value>, rng: &mut DeterministicRng) -> Option<String> {
    if map.is_empty() {
        return None;
    }
    map.keys().nth(rng.below(map.len() as u64) as usize).cloned()
}

fn other_type(node: &Value, rng: &mut DeterministicRng) -> Value {
    let choices = [
        Value::Null,
        Value::Bool(true),
        Value::from(0),
        Value::from(1.5),
        Value::from(-1),
        Value::String("x".to_owned()),
        Value::Array(vec![Value::Null]),
        serde_json::json!({ "op": "place_order" }),
        Value::Object(serde_json::Map::new()),
    ];
    let start = rng.below(choices.len() as u64) as usize;
    (0..choices.len())
        .map(|offset| &choices[(start + offset) % choices.len()])
        .find(|choice| std::mem::discriminant(*choice) != std::mem::discriminant(node))
        .cloned()
        .unwrap_or(Value::Null)
}

fn nudged(node: &Value, rng: &mut DeterministicRng) -> Value {
    let Some(number) = node.as_u64() else {
        return Value::from(rng.below(3) as i64 - 1);
    };
    match rng.below(6) {
        0 => Value::from(number.wrapping_add(1)),
        1 => number.checked_sub(1).map_or(Value::from(-1), Value::from),
        2 => Value::from(number.saturating_mul(2)),
        3 => Value::from(0),
        4 => Value::from(u64::MAX),
        _ => Value::from(u64::from(u32::MAX) + 1),
    }
}

fn grown(node: &Value, rng: &mut DeterministicRng) -> Value {
    let length = ARRAY_LENGTHS[rng.below(ARRAY_LENGTHS.len() as u64) as usize] as usize;
    let element = match node {
        Value::Array(items) if !items.is_empty() => {
            items[rng.below(items.len() as u64) as usize].clone()
        }
        other => other.clone(),
    };
    let element_bytes = serde_json::to_string(&element).map_or(1, |text| text.len().max(1));
    let length = length.min(GROWTH_BYTES_MAX / element_bytes).max(1);
    let mut items = match node {
        Value::Array(items) => items.clone(),
        _ => Vec::new(),
    };
    items.extend(std::iter::repeat_n(element, length));
    Value::Array(items)
}

/// The base64url of links: no padding written, padding accepted.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Values a link parameter may be given.
const LINK_VALUES: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "nnnn",
    "iiii",
    "nnni",
    "nnnnn",
    "xyz",
    "%20",
    "f01-duplicate-delivery",
    "no-such-lesson",
    "=",
    "1e3",
    " 1",
    "AAAA",
    "e30",
    "W10",
    "W3t9XQ",
    "!!!!",
];

fn mutate_link(text: &str, rng: &mut DeterministicRng) -> (Mutation, String) {
    let (head, fragment) = match text.split_once('#') {
        Some((_, after)) => ("#", after),
        None => ("", text),
    };
    let mut parts: Vec<String> = fragment.split('&').map(str::to_owned).collect();
    let index = rng.below(parts.len() as u64) as usize;
    let mutation = match rng.below(5) {
        0 => {
            let name = parts[index].split_once('=').map_or("", |(name, _)| name).to_owned();
            let value = match rng.below(4) {
                0 => {
                    "9".repeat(STRING_CHARS[rng.below(STRING_CHARS.len() as u64) as usize] as usize)
                }
                _ => pick(LINK_VALUES, rng).to_owned(),
            };
            parts[index] = format!("{name}={value}");
            Mutation::LinkValue
        }
        1 => {
            parts.remove(index);
            Mutation::LinkDropParameter
        }
        2 => {
            let copy = parts[index].clone();
            parts.insert(rng.below(parts.len() as u64 + 1) as usize, copy);
            Mutation::LinkDuplicateParameter
        }
        3 => {
            let junk =
                pick(&["%", "%zz", "%00", "%E2%82", "%25", "+", "&", "&&", "==", "#", "%26"], rng);
            let part = &mut parts[index];
            let at = rng.below(part.len() as u64 + 1) as usize;
            let at = (0..=at).rev().find(|at| part.is_char_boundary(*at)).unwrap_or(0);
            part.insert_str(at, junk);
            Mutation::LinkPercentJunk
        }
        _ => {
            let payload =
                parts.iter().position(|part| part.starts_with("j=") || part.starts_with("u="));
            if let Some(at) = payload {
                let (name, encoded) = parts[at].split_at(2);
                let json = BASE64URL
                    .decode(encoded)
                    .ok()
                    .and_then(|bytes| String::from_utf8(bytes).ok())
                    .unwrap_or_default();
                if let Some((_, mutated)) = mutate_json(&json, rng) {
                    parts[at] = format!("{name}{}", BASE64URL.encode(mutated));
                    return (Mutation::LinkPayload, format!("{head}{}", parts.join("&")));
                }
            }
            parts[index].push_str(pick(&["*", "===", "A", "_-", "%3D"], rng));
            Mutation::LinkPayload
        }
    };
    (mutation, format!("{head}{}", parts.join("&")))
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
