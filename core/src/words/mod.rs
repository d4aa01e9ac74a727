//! The lab's words: the catalogue ([`Words`], one file per topic, each entry in English and
//! Russian side by side), the languages themselves ([`Language`]), their plural rules
//! ([`Plural`]) and the filling of a template's named placeholders ([`fill`]).
//!
//! Every learner-facing string of the core, the page and the CLI is an entry of [`Words`]: a
//! plain text, a template with `{name}` placeholders, or a [`Plural`] with the forms a count
//! needs (Russian three: 1 шаг, 2 шага, 5 шагов; English two). An entry is declared once, in
//! its topic's file (`counts.rs`, `findings.rs`, `glossary.rs`, ...: see `catalogue.rs`), with
//! its English and Russian side by side, so adding one touches one file and an entry missing in
//! one language does not compile; a test checks that both languages use the same placeholders
//! in every entry.
//!
//! It is a typed catalogue rather than Fluent: the texts are compiled in (no parser, no
//! resource files, nothing to load in the page), and the module sits at the bottom of the
//! core's layers, below the invariants, so the checks render the English sentence a trace
//! records from the same entry the page renders in Russian.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

mod actions;
mod build;
mod catalogue;
mod check;
mod counts;
mod course;
mod diagram;
mod findings;
mod glossary;
mod labels;
mod lessons;
mod notices;
mod plural;
mod report;
mod topic;

pub use catalogue::Entry;
pub(crate) use catalogue::Words;
pub(crate) use plural::{Plural, PluralCategory};

/// A language of the lab's texts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// English, the default, and the language of traces.
    #[default]
    En,
    /// Russian.
    Ru,
}

impl Language {
    /// Every language, in the order a switch shows them.
    pub const ALL: [Language; 2] = [Language::En, Language::Ru];

    /// The language's code: `en` or `ru` (ISO 639-1).
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Ru => "ru",
        }
    }

    /// The language's catalogue.
    pub fn words(self) -> &'static Words {
        match self {
            Language::En => &Words::EN,
            Language::Ru => &Words::RU,
        }
    }

    /// The plural category of `count` in this language (CLDR's rules for cardinals).
    pub(crate) fn plural_category(self, count: u128) -> PluralCategory {
        match self {
            Language::En => match count {
                1 => PluralCategory::One,
                _ => PluralCategory::Many,
            },
            Language::Ru => {
                let (last, last_two) = (count % 10, count % 100);
                if last == 1 && last_two != 11 {
                    PluralCategory::One
                } else if (2..=4).contains(&last) && !(12..=14).contains(&last_two) {
                    PluralCategory::Few
                } else {
                    PluralCategory::Many
                }
            }
        }
    }

    /// `plural`'s form for `count`, its `{n}` filled with `count` (a negative count takes
    /// the form of its absolute value; one beyond `i128` prints as 0).
    pub fn count(self, plural: &Plural, count: impl TryInto<i128>) -> String {
        let count: i128 = count.try_into().unwrap_or(0);
        fill(plural.form(self.plural_category(count.unsigned_abs())), &[("n", &count)])
    }

    /// `value` with its digits in groups of three, as the language writes a large number
    /// (`200,000`, `200 000` with a no-break space).
    pub fn number(self, value: u64) -> String {
        let digits = value.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 2);
        for (index, digit) in digits.chars().enumerate() {
            if index > 0 && (digits.len() - index).is_multiple_of(3) {
                out.push(self.group_separator());
            }
            out.push(digit);
        }
        out
    }

    /// What separates a large number's groups of three digits, by CLDR's rule for the language:
    /// a comma in English, a no-break space in Russian (so a number never breaks a line). A
    /// rule of the language, as its plurals are, not a word of the catalogue.
    fn group_separator(self) -> char {
        match self {
            Language::En => ',',
            Language::Ru => '\u{a0}',
        }
    }

    /// How many times, in words: `once`, `twice`, `3 times` (`один раз`, `дважды`, `3 раза`).
    pub(crate) fn times(self, count: impl TryInto<u128>) -> String {
        // A count is never negative; one that is would print as 0.
        let count: u128 = count.try_into().unwrap_or(0);
        let words = self.words();
        match count {
            1 => words.counts.times_once.to_owned(),
            2 => words.counts.times_twice.to_owned(),
            _ => self.count(&words.counts.times, count),
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code this build has no texts for.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown language {code:?}: the lab speaks `en` and `ru`")]
pub struct UnknownLanguage {
    /// The code given.
    pub(crate) code: String,
}

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// Reads `en` or `ru`, in any case.
    fn from_str(code: &str) -> Result<Language, UnknownLanguage> {
        Language::ALL
            .into_iter()
            .find(|language| language.code().eq_ignore_ascii_case(code))
            .ok_or_else(|| UnknownLanguage { code: code.to_owned() })
    }
}

/// Whether `c` is a Cyrillic letter (the Russian alphabet and the rest of Unicode's Cyrillic
/// block): what the catalogue's tests, and the test that keeps Russian inside the catalogue,
/// look for.
pub fn is_cyrillic(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

/// `template` with each `{name}` replaced by the value of `name` in `args`. A placeholder
/// with no argument stays as written (the catalogue's tests make sure none does); an
/// argument's value is inserted as it is, never read as a template.
pub fn fill(template: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    let mut text = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            text.push_str(&rest[open..]);
            return text;
        };
        let name = &after[..close];
        match args.iter().find(|(arg, _)| *arg == name) {
            Some((_, value)) => {
                use fmt::Write;
                let _ = write!(text, "{value}");
            }
            None => text.push_str(&rest[open..open + close + 2]),
        }
        rest = &after[close + 1..];
    }
    text.push_str(rest);
    text
}

/// The `{name}` placeholders of `template`, in order of first use.
#[cfg(test)]
pub(crate) fn placeholders(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = &after[..close];
        if !names.contains(&name) {
            names.push(name);
        }
        rest = &after[close + 1..];
    }
    names
}

#[cfg(test)]
mod tests;
