//! The parser fuzzer's own tests: a few thousand cases end without a panic, each refusal a
//! typed error, with cases accepted and refused for every kind of input; the generator is a
//! pure function of its seed and the case's number.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::*;
use crate::view::{parser_fuzz_link_of, parser_fuzz_open_link};

/// The cases the test runs.
const CASES: u64 = 3_000;

fn fuzzer(seed: u64) -> ParserFuzz {
    ParserFuzz::new(seed, catalogue_seeds(&parser_fuzz_link_of)).expect("every kind has seeds")
}

#[test]
fn every_seed_is_accepted_unmutated() {
    let fuzz = fuzzer(0);
    assert_eq!(fuzz.seeds().len(), CATALOGUE.len() * 4);
    for seed in fuzz.seeds() {
        let input = ParserInput {
            case: 0,
            kind: seed.kind,
            seed_name: seed.name.clone(),
            mutations: Vec::new(),
            run_seed: 0,
            text: seed.text.clone(),
        };
        assert!(run_case(&input, &parser_fuzz_open_link).is_ok(), "{} is refused", seed.name);
    }
}

#[test]
fn mutated_inputs_never_panic_and_each_kind_is_both_accepted_and_refused() {
    let fuzz = fuzzer(11);
    // Per kind: (accepted, refused).
    let mut counts: BTreeMap<InputKind, (u64, u64)> = BTreeMap::new();
    for case in 0..CASES {
        let input = fuzz.input(case);
        let outcome = catch_unwind(AssertUnwindSafe(|| run_case(&input, &parser_fuzz_open_link)));
        let Ok(outcome) = outcome else {
            panic!("fuzz seed 11, case {case} ({:?}) panicked on {:?}", input.mutations, input.text)
        };
        let entry = counts.entry(input.kind).or_default();
        match outcome {
            Ok(_) => entry.0 += 1,
            Err(refusal) => {
                // A refusal is the typed error of the input's own parser, and says what it is.
                let typed = matches!(
                    (&refusal, input.kind),
                    (Refusal::Scenario(_), InputKind::Scenario)
                        | (Refusal::Trace(_) | Refusal::Replay(_), InputKind::Trace)
                        | (Refusal::Link(_), InputKind::Link)
                );
                assert!(typed, "case {case}: {:?} refused as {refusal:?}", input.kind);
                let said = refusal.to_string();
                assert!(!said.is_empty());
                assert!(
                    said.chars().count() <= REFUSAL_CHARS_MAX,
                    "case {case}: a refusal of {} characters",
                    said.chars().count()
                );
                entry.1 += 1;
            }
        }
    }
    for kind in InputKind::ALL {
        let (accepted, refused) = counts.get(&kind).copied().unwrap_or_default();
        assert!(accepted > 0 && refused > 0, "{kind}: {accepted} accepted, {refused} refused");
    }
}

#[test]
fn the_same_seed_gives_the_same_inputs_and_another_seed_others() {
    let (a, b, c) = (fuzzer(5), fuzzer(5), fuzzer(6));
    let inputs = |fuzz: &ParserFuzz| (0..200).map(|case| fuzz.input(case)).collect::<Vec<_>>();
    assert_eq!(inputs(&a), inputs(&b));
    assert_ne!(inputs(&a), inputs(&c));
    // A case is drawn from its number alone, not from the cases before it.
    assert_eq!(a.input(150), fuzzer(5).input(150));
}

#[test]
fn a_fuzzer_without_a_seed_of_some_kind_is_refused() {
    let seeds: Vec<ParserSeed> = catalogue_seeds(&parser_fuzz_link_of)
        .into_iter()
        .filter(|s| s.kind != InputKind::Link)
        .collect();
    assert_eq!(
        ParserFuzz::new(0, seeds).err(),
        Some(ParserFuzzError::NoSeed { kind: InputKind::Link })
    );
}
