//! Reading a user's JSON (a scenario, a trace) so that an error names the exact field: its
//! path (`requests[0].operation.lines[0].qty`, tracked by `serde_path_to_error` while the
//! text is read), its line and column, and a plain message where serde's would mislead (a
//! top-level array read as a struct's fields in order says "expected u32"; an integer too
//! large for its field says "invalid type: floating point").
//!
//! Internally tagged enums (`{"op": "place_order", "lines": [...]}`) are buffered by serde
//! before their variant is known, which loses the path and the position of everything inside
//! them. [`TagFirst`] reads such an enum without buffering when its tag comes first (as every
//! file the lab writes has it), through the enum's externally tagged twin (a `remote` derive,
//! which the compiler checks against the enum itself); a tag given later still reads, by
//! buffering, with the path ending at the enum.
//!
//! [`locate`] finds where the value at a path starts in the text, so that an error found
//! after reading (a bound, a reference) points at its line and column too.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    VariantAccess, Visitor,
};

use crate::sim::scenario::ScenarioError;

/// Reads `text` as a `T` (an object): a syntax or shape error is [`ScenarioError::Json`] with
/// the path of the field, its line and column, and a plain message.
pub(crate) fn from_json<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, ScenarioError> {
    if let Some((line, column, found)) = not_an_object(text) {
        return Err(ScenarioError::Json {
            path: String::new(),
            line,
            column,
            message: format!("a {what} is a JSON object ({{...}}), but this is {found}"),
        });
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        // A segment serde_path_to_error could not name (a key not yet read) is `?`.
        let path = error.path().to_string();
        let path = path.trim_end_matches(".?").trim_end_matches('?');
        let path = if path == "." { String::new() } else { path.to_owned() };
        json_error(text, path, error.inner())
    })?;
    deserializer.end().map_err(|error| json_error(text, String::new(), &error))?;
    Ok(value)
}

/// The error for serde_json's `error` at `path`, with its position and a plain message.
fn json_error(text: &str, path: String, error: &serde_json::Error) -> ScenarioError {
    let (line, column) = (error.line(), error.column());
    let message = error.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = message.strip_suffix(&suffix).unwrap_or(&message).to_owned();
    let message = integer_out_of_range(text, line, column, &message).unwrap_or(message);
    let path = match named_field(&message) {
        Some(field) if path.is_empty() => field.to_owned(),
        Some(field) if path != field && !path.ends_with(&format!(".{field}")) => {
            format!("{path}.{field}")
        }
        _ => path,
    };
    ScenarioError::Json { path: shortened(path), line, column, message: shortened(message) }
}

/// The most characters of a message or a path an error keeps. serde_json quotes the offending
/// value whole (`invalid type: string "…", expected u64`), and a key or a string may be
/// megabytes long: an error stays a sentence to read.
pub(crate) const ERROR_TEXT_CHARS_MAX: usize = 240;

/// `text` itself if it is short; else its start and its end (where serde_json's message says
/// what was expected) around a count of the characters left out.
pub(crate) fn shortened(text: String) -> String {
    const HEAD: usize = 160;
    const TAIL: usize = 60;
    let chars = text.chars().count();
    if chars <= ERROR_TEXT_CHARS_MAX {
        return text;
    }
    let head: String = text.chars().take(HEAD).collect();
    let tail: String = text.chars().skip(chars - TAIL).collect();
    format!("{head}… ({} characters left out) …{tail}", chars - HEAD - TAIL)
}

/// The field a "missing field `x`", "unknown field `x`" or "duplicate field `x`" message
/// names: serde raises these at the enclosing object, so the path ends one step short.
fn named_field(message: &str) -> Option<&str> {
    ["missing field `", "unknown field `", "duplicate field `"].iter().find_map(|marker| {
        let rest = message.strip_prefix(marker)?;
        rest.get(..rest.find('`')?)
    })
}

/// Where the text starts with something other than an object: its line, column and what it
/// is. `None` for an object, and for text that is not JSON at all (the parser says why).
fn not_an_object(text: &str) -> Option<(usize, usize, &'static str)> {
    let (offset, first) = text.char_indices().find(|(_, c)| !c.is_ascii_whitespace())?;
    let found = match first {
        '[' => "an array",
        '"' => "a string",
        '-' | '0'..='9' => "a number",
        't' | 'f' => "a boolean",
        'n' => "null",
        _ => return None,
    };
    let before = text.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
    Some((line, column, found))
}

/// The ranges of the integer types serde names in "expected u32".
fn integer_range(expected: &str) -> Option<(i128, i128)> {
    Some(match expected {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

/// A plain message for an integer that does not fit its field: serde_json reads an integer
/// beyond `u64` as a float ("invalid type: floating point `1.8446744073709552e19`, expected
/// u64") and a negative one for an unsigned field as "invalid value: integer `-1`". The
/// literal is taken from the text, just before the error's position.
fn integer_out_of_range(text: &str, line: usize, column: usize, message: &str) -> Option<String> {
    if !(message.starts_with("invalid type: floating point")
        || message.starts_with("invalid value: integer"))
    {
        return None;
    }
    let expected = message.rsplit("expected ").next()?;
    let (min, max) = integer_range(expected)?;
    let line_text = text.lines().nth(line.checked_sub(1)?)?;
    let before: String = line_text.chars().take(column).collect();
    let literal: String = before
        .chars()
        .rev()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.'))
        .collect::<Vec<char>>()
        .into_iter()
        .rev()
        .collect();
    let integral =
        !literal.is_empty() && literal.trim_start_matches('-').chars().all(|c| c.is_ascii_digit());
    if !integral {
        return None;
    }
    Some(format!(
        "the integer {literal} is out of range: this field takes an integer from {min} to {max}"
    ))
}

/// An internally tagged enum that reads through its externally tagged twin, so that the
/// fields inside keep their path and position (see the module's documentation).
pub(crate) trait TagFirst: Sized {
    /// The tag's field name, such as `op`.
    const TAG: &'static str;
    /// What the value is, for "invalid type: ..., expected {EXPECTING}".
    const EXPECTING: &'static str;
    /// Reads the externally tagged form: `deserializer` gives an enum.
    fn from_external<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;

    /// The `Deserialize` implementation: call this from `impl Deserialize for Self`.
    fn deserialize_tag_first<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TagFirstVisitor(PhantomData))
    }
}

struct TagFirstVisitor<T>(PhantomData<T>);

impl<'de, T: TagFirst> Visitor<'de> for TagFirstVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Err(de::Error::missing_field(T::TAG));
        };
        if first == T::TAG {
            let variant: String = map.next_value()?;
            return T::from_external(TaggedRest { variant, map });
        }
        // The tag comes later: buffer the object, as serde's own derive would.
        let mut object = serde_json::Map::new();
        object.insert(first, map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
            if object.insert(key.clone(), value).is_some() {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
        }
        let variant = match object.remove(T::TAG) {
            Some(serde_json::Value::String(variant)) => variant,
            Some(other) => {
                return Err(de::Error::custom(format_args!(
                    "the field `{}` must be a string, not {other}",
                    T::TAG
                )));
            }
            None => return Err(de::Error::missing_field(T::TAG)),
        };
        let external = serde_json::Value::Object(
            [(variant, serde_json::Value::Object(object))].into_iter().collect(),
        );
        T::from_external(external).map_err(de::Error::custom)
    }
}

/// The rest of a tagged object, after its tag, given as an externally tagged enum: the
/// variant is the tag's value and the variant's fields are the object's remaining entries,
/// read from the same (path-tracking) map.
struct TaggedRest<A> {
    variant: String,
    map: A,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for TaggedRest<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for TaggedRest<A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), A::Error> {
        let variant: de::value::StringDeserializer<A::Error> =
            self.variant.clone().into_deserializer();
        Ok((seed.deserialize(variant)?, self))
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for TaggedRest<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        match self.map.next_key::<String>()? {
            None => Ok(()),
            Some(key) => Err(de::Error::unknown_field(&key, &[])),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value, A::Error> {
        Err(de::Error::custom("a tagged newtype variant is not supported"))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a tagged tuple variant is not supported"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.map)
    }
}

/// Where the value at `path` (`requests[0].operation.lines[0].qty`, or `limits.steps_max`)
/// starts in `text`: its line and column, from 1. `None` if the text has no such value (a
/// field left to its default) or the path is empty.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    let segments = parse_path(path)?;
    let bytes = text.as_bytes();
    let mut position = skip_whitespace(bytes, 0);
    for segment in segments {
        position = match segment {
            PathSegment::Key(key) => find_key(bytes, position, &key)?,
            PathSegment::Index(index) => find_index(bytes, position, index)?,
        };
    }
    let before = text.get(..position)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
    Some((line, column))
}

enum PathSegment {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Option<Vec<PathSegment>> {
    let mut segments = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = part.split_once('[').map_or((part, ""), |(key, rest)| (key, rest));
        if !key.is_empty() {
            segments.push(PathSegment::Key(key.to_owned()));
        }
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']')?;
            segments.push(PathSegment::Index(index.parse().ok()?));
            rest = after.strip_prefix('[').unwrap_or(after);
        }
    }
    (!segments.is_empty()).then_some(segments)
}

fn skip_whitespace(bytes: &[u8], mut position: usize) -> usize {
    while bytes.get(position).is_some_and(u8::is_ascii_whitespace) {
        position += 1;
    }
    position
}

/// The end of the JSON value starting at `position` (strings, nesting and scalars; the text
/// is known to be valid JSON, but a malformed one only ends the search).
fn skip_value(bytes: &[u8], position: usize) -> Option<usize> {
    match bytes.get(position)? {
        b'"' => skip_string(bytes, position),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = position;
            loop {
                match bytes.get(at)? {
                    b'"' => {
                        at = skip_string(bytes, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let mut at = position;
            while bytes
                .get(at)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                at += 1;
            }
            Some(at)
        }
    }
}

fn skip_string(bytes: &[u8], position: usize) -> Option<usize> {
    let mut at = position + 1;
    loop {
        match bytes.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// In the object at `position`, where the value of `key` starts.
fn find_key(bytes: &[u8], position: usize, key: &str) -> Option<usize> {
    if bytes.get(position) != Some(&b'{') {
        return None;
    }
    let mut at = skip_whitespace(bytes, position + 1);
    while bytes.get(at) == Some(&b'"') {
        let end = skip_string(bytes, at)?;
        let name: String = serde_json::from_slice(bytes.get(at..end)?).ok()?;
        at = skip_whitespace(bytes, end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = skip_whitespace(bytes, at + 1);
        if name == key {
            return Some(at);
        }
        at = skip_whitespace(bytes, skip_value(bytes, at)?);
        if bytes.get(at) == Some(&b',') {
            at = skip_whitespace(bytes, at + 1);
        }
    }
    None
}

/// In the array at `position`, where its `index`-th value starts.
fn find_index(bytes: &[u8], position: usize, index: usize) -> Option<usize> {
    if bytes.get(position) != Some(&b'[') {
        return None;
    }
    let mut at = skip_whitespace(bytes, position + 1);
    for _ in 0..index {
        at = skip_whitespace(bytes, skip_value(bytes, at)?);
        if bytes.get(at) != Some(&b',') {
            return None;
        }
        at = skip_whitespace(bytes, at + 1);
    }
    matches!(bytes.get(at), Some(byte) if *byte != b']').then_some(at)
}

#[cfg(test)]
mod tests;
