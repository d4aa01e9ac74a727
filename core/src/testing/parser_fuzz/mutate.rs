//! The mutations of the parser fuzzer ([`super::ParserFuzz`]): each case's random stream, the
//! tokens, numbers, sizes and keys it draws from, and the mutations of a JSON text and of a share
//! link, each a pure function of the stream.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::Value;

use super::Mutation;
use crate::rng::DeterministicRng;

/// A stream's seed for case `case` of fuzz seed `seed` (splitmix64 of both).
pub(super) fn mix(seed: u64, case: u64) -> u64 {
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

pub(super) fn random_bytes(rng: &mut DeterministicRng) -> Vec<u8> {
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
pub(super) fn mutate_json(text: &str, rng: &mut DeterministicRng) -> Option<(Mutation, String)> {
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

pub(super) fn mutate_link(text: &str, rng: &mut DeterministicRng) -> (Mutation, String) {
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
