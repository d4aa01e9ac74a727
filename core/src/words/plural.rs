//! Plural forms: an entry of the catalogue that depends on a count, and the categories the
//! languages' rules pick from ([`super::Language::plural_category`]).

/// The plural category of a count, as CLDR names them for cardinals (English uses `One` and
/// `Many`, where CLDR says `other`; Russian uses all three).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PluralCategory {
    /// 1, 21, 101 in Russian; 1 in English.
    One,
    /// 2-4, 22-24 in Russian; unused in English.
    Few,
    /// Everything else: 0, 5-20, 25, 111 in Russian; all but 1 in English.
    Many,
}

/// The forms of one entry for each plural category, each a template with `{n}` for the count
/// (English repeats its `many` form as `few`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plural {
    /// The form for [`PluralCategory::One`].
    pub one: &'static str,
    /// The form for [`PluralCategory::Few`].
    pub few: &'static str,
    /// The form for [`PluralCategory::Many`].
    pub many: &'static str,
}

impl Plural {
    /// English forms: one, and the rest.
    pub(crate) const fn en(one: &'static str, many: &'static str) -> Plural {
        Plural { one, few: many, many }
    }

    /// Russian forms: one, few, many.
    pub(crate) const fn ru(one: &'static str, few: &'static str, many: &'static str) -> Plural {
        Plural { one, few, many }
    }

    /// The form for `category`.
    pub(crate) fn form(&self, category: PluralCategory) -> &'static str {
        match category {
            PluralCategory::One => self.one,
            PluralCategory::Few => self.few,
            PluralCategory::Many => self.many,
        }
    }
}
