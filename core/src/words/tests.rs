//! The catalogues against each other: every entry in both languages, with the same
//! placeholders, no English left in Russian where a translation is due, and the plural rules
//! on the counts that tell them apart. `rendered.rs` pins what the rest of the core renders in
//! Russian, so that the expected Russian lives in this folder too.

use super::*;

mod rendered;

fn cyrillic(text: &str) -> bool {
    text.chars().any(is_cyrillic)
}

/// `form` with its placeholders taken out.
fn without_placeholders(form: &str) -> String {
    let names = placeholders(form);
    let args: Vec<(&str, &dyn std::fmt::Display)> =
        names.iter().map(|name| (*name, &"" as &dyn std::fmt::Display)).collect();
    fill(form, &args)
}

fn forms(entry: Entry) -> Vec<&'static str> {
    match entry {
        Entry::Text(text) => vec![text],
        Entry::Plural(plural) => vec![plural.one, plural.few, plural.many],
    }
}

#[test]
fn every_entry_exists_in_both_languages_with_the_same_placeholders() {
    let en = Language::En.words().entries();
    let ru = Language::Ru.words().entries();
    assert_eq!(en.len(), ru.len());
    for ((name, en_entry), (ru_name, ru_entry)) in en.into_iter().zip(ru) {
        assert_eq!(name, ru_name);
        assert_eq!(
            matches!(en_entry, Entry::Plural(_)),
            matches!(ru_entry, Entry::Plural(_)),
            "{name}: a plural in one language is a plural in the other"
        );
        let mut en_names: Vec<&str> = forms(en_entry).into_iter().flat_map(placeholders).collect();
        let mut ru_names: Vec<&str> = forms(ru_entry).into_iter().flat_map(placeholders).collect();
        en_names.sort_unstable();
        en_names.dedup();
        ru_names.sort_unstable();
        ru_names.dedup();
        assert_eq!(en_names, ru_names, "{name}: placeholders differ between en and ru");
        for form in forms(ru_entry) {
            // An entry with letters is translated; one of symbols and ids alone may repeat.
            if without_placeholders(form).chars().any(|c| c.is_ascii_alphabetic())
                && !forms(en_entry).contains(&form)
            {
                assert!(cyrillic(form), "{name}: {form:?} is not Russian");
            }
        }
        for form in forms(en_entry) {
            assert!(!cyrillic(form), "{name}: {form:?} is not English");
        }
        if let Entry::Plural(plural) = en_entry {
            assert_eq!(plural.few, plural.many, "{name}: English has two forms");
        }
    }
}

#[test]
fn plural_forms_take_their_count() {
    for language in Language::ALL {
        for (name, entry) in language.words().entries() {
            if let Entry::Plural(plural) = entry {
                for form in forms(Entry::Plural(plural)) {
                    assert_eq!(placeholders(form), ["n"], "{language} {name}: {form:?}");
                }
            }
        }
    }
}

#[test]
fn russian_plurals_pick_one_few_or_many() {
    let steps = |count: u128| Language::Ru.count(&Language::Ru.words().counts.steps, count);
    let expected = [
        (0, "0 шагов"),
        (1, "1 шаг"),
        (2, "2 шага"),
        (4, "4 шага"),
        (5, "5 шагов"),
        (11, "11 шагов"),
        (12, "12 шагов"),
        (14, "14 шагов"),
        (21, "21 шаг"),
        (22, "22 шага"),
        (25, "25 шагов"),
        (101, "101 шаг"),
        (111, "111 шагов"),
        (112, "112 шагов"),
        (122, "122 шага"),
    ];
    for (count, text) in expected {
        assert_eq!(steps(count), text, "{count}");
    }
    let units = |count: u128| Language::Ru.count(&Language::Ru.words().counts.units, count);
    assert_eq!([units(1), units(2), units(5)], ["1 единица", "2 единицы", "5 единиц"]);
}

#[test]
fn english_plurals_pick_one_or_many() {
    let steps = |count: u128| Language::En.count(&Language::En.words().counts.steps, count);
    for (count, text) in [(0, "0 steps"), (1, "1 step"), (2, "2 steps"), (21, "21 steps")] {
        assert_eq!(steps(count), text);
    }
}

#[test]
fn times_are_words_for_once_and_twice() {
    let en: Vec<String> = [1, 2, 3, 5, 21].map(|count| Language::En.times(count)).into();
    assert_eq!(en, ["once", "twice", "3 times", "5 times", "21 times"]);
    let ru: Vec<String> = [1, 2, 3, 5, 21, 22].map(|count| Language::Ru.times(count)).into();
    assert_eq!(ru, ["один раз", "дважды", "3 раза", "5 раз", "21 раз", "22 раза"]);
}

#[test]
fn fill_replaces_named_placeholders_and_keeps_values_as_written() {
    let body = "{\"id\":1}";
    assert_eq!(
        fill("key {key}: {body}, {key} {missing}", &[("key", &"k1"), ("body", &body)]),
        "key k1: {\"id\":1}, k1 {missing}"
    );
    assert_eq!(fill("no close {brace", &[]), "no close {brace");
    assert_eq!(placeholders("{a} {b} {a}"), ["a", "b"]);
}

#[test]
fn codes_read_back_in_any_case_and_others_are_named() {
    for language in Language::ALL {
        assert_eq!(language.code().parse::<Language>(), Ok(language));
        assert_eq!(language.code().to_uppercase().parse::<Language>(), Ok(language));
    }
    assert_eq!(
        "de".parse::<Language>().unwrap_err().to_string(),
        "unknown language \"de\": the lab speaks `en` and `ru`"
    );
    assert_eq!(Language::default(), Language::En);
}

#[test]
fn a_large_number_is_written_in_groups_of_three_as_each_language_writes_it() {
    assert_eq!(Language::En.number(0), "0");
    assert_eq!(Language::En.number(999), "999");
    assert_eq!(Language::En.number(1_000), "1,000");
    assert_eq!(Language::En.number(41_426), "41,426");
    assert_eq!(Language::En.number(200_000), "200,000");
    assert_eq!(Language::En.number(1_234_567), "1,234,567");
    assert_eq!(Language::En.number(u64::MAX), "18,446,744,073,709,551,615");
    // Russian separates the groups with a no-break space, so a number never breaks a line.
    assert_eq!(Language::Ru.number(200_000), "200\u{a0}000");
    assert_eq!(Language::Ru.number(12), "12");
}
