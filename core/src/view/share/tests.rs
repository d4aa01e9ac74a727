//! Tests of the share link: round trips, every error, opening a link at its step.

use base64::Engine as _;
use proptest::prelude::*;

use super::*;
use crate::sim::{
    AttemptId, CATALOGUE, EntryId, HoldRelease, InstanceId, PatternMode, RequestIndex,
};

fn b64(text: &str) -> String {
    BASE64URL.encode(text)
}

fn check_err(fragment: &str, expected: ShareError) {
    assert_eq!(ShareLink::decode(fragment), Err(expected), "{fragment}");
}

/// A run of f01 in naive mode with a fault the user injects by hand at step 10: a second
/// copy of the published message.
fn run_with_user_fault() -> Trace {
    let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let scenario = Scenario { injections: Vec::new(), ..scenario.with_mode(PatternMode::Naive) };
    let mut simulation = Simulation::new(scenario, 7).unwrap();
    while simulation.world().broker().entries.is_empty() {
        simulation.step().unwrap();
    }
    simulation.step_with(Action::DuplicateMessage { entry: EntryId(0) }).unwrap();
    simulation.run_to_end();
    simulation.trace()
}

#[test]
fn encodes_a_catalogue_run_compactly() {
    let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let link = ShareLink::new(&scenario.with_mode(PatternMode::Naive), 3, Vec::new(), 12);
    assert_eq!(
        link.scenario,
        SharedScenario::Catalogue { id: "f01-duplicate-delivery".to_owned() }
    );
    assert_eq!(link.encode(), "#v=1&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12");
    assert_eq!(link.to_string(), link.encode());
    assert_eq!(ShareLink::decode(&link.encode()), Ok(link.clone()));
    // Without the `#`, or as a whole URL.
    assert_eq!(
        ShareLink::decode("v=1&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12"),
        Ok(link.clone())
    );
    assert_eq!(
        ShareLink::decode(
            "http://127.0.0.1:8080/index.html#step=12&p=nnnn&seed=3&s=f01-duplicate-delivery&v=1"
        ),
        Ok(link)
    );
}

#[test]
fn an_edited_or_imported_scenario_travels_inline() {
    let mut scenario = catalogue_scenario("f05-lost-response").unwrap();
    // An edit a user could make: another title and a third request.
    scenario.title = "My lost response; #2 <edited>".to_owned();
    let first = scenario.requests[0].clone();
    scenario.requests.push(first);
    let link = ShareLink::new(&scenario, 1, Vec::new(), 0);
    assert!(matches!(link.scenario, SharedScenario::Inline { .. }));
    let fragment = link.encode();
    assert!(fragment.starts_with("#v=1&j="), "{fragment}");
    assert!(fragment.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"#=&-_".contains(&byte)));
    let decoded = ShareLink::decode(&fragment).unwrap();
    assert_eq!(decoded, link);
    assert_eq!(decoded.scenario().unwrap(), scenario);
}

#[test]
fn a_link_opens_the_same_run_at_its_step() {
    let trace = run_with_user_fault();
    let choices = user_choices(&trace);
    assert_eq!(choices.len(), 1);
    assert_eq!(choices[0].action, Action::DuplicateMessage { entry: EntryId(0) });
    assert!(trace.invariants_ever_violated().contains(&crate::invariants::InvariantId::I2));

    let link = ShareLink::of_trace(&trace, 12);
    let fragment = link.encode();
    let opened = ShareLink::decode(&fragment).unwrap().open().unwrap();
    assert_eq!(opened.trace, trace);
    assert_eq!(opened.simulation.steps(), &trace.steps[..12]);
    assert_eq!(opened.simulation.trace().stop, crate::sim::StopReason::Running);

    // The simulation's own link says the same, at the step it has reached.
    assert_eq!(ShareLink::of_simulation(&opened.simulation), link);
    // The end of the run, and the start.
    let end = ShareLink { step: trace.steps.len(), ..link.clone() }.open().unwrap();
    assert_eq!(end.simulation.steps(), trace.steps.as_slice());
    let start = ShareLink { step: 0, ..link.clone() }.open().unwrap();
    assert!(start.simulation.steps().is_empty());
    assert_eq!(start.trace, trace);
}

#[test]
fn opening_refuses_what_the_run_cannot_do() {
    let trace = run_with_user_fault();
    let link = ShareLink::of_trace(&trace, 0);
    let steps = trace.steps.len();
    assert_eq!(
        ShareLink { step: steps + 1, ..link.clone() }.open().unwrap_err(),
        ShareError::StepBeyondRun { step: steps + 1, steps }
    );
    let refused = UserChoice { step: 1, action: Action::CrashRelay };
    assert_eq!(
        ShareLink { user_choices: vec![refused], ..link.clone() }.open().unwrap_err(),
        ShareError::UserChoiceRefused {
            step: 1,
            error: ApplyError::NotEnabled { action: Action::CrashRelay }
        }
    );
    // Without the user's duplicate, the run is shorter, and ends before step 10 000.
    let plain_steps = Simulation::run(link.scenario().unwrap(), link.seed).unwrap().steps.len();
    assert!(plain_steps < steps);
    let late = UserChoice { step: 10_000, action: Action::CrashRelay };
    assert_eq!(
        ShareLink { user_choices: vec![late], ..link.clone() }.open().unwrap_err(),
        ShareError::UserChoiceNotReached { step: 10_000, steps: plain_steps }
    );
    let zero = UserChoice { step: 0, action: Action::CrashRelay };
    assert_eq!(
        ShareLink { user_choices: vec![zero], ..link }.open().unwrap_err(),
        ShareError::UserChoiceOutOfOrder { step: 0, previous: 0 }
    );
}

#[test]
fn every_malformed_fragment_is_a_typed_error() {
    let good = "s=f01-duplicate-delivery&seed=3&step=0";
    check_err("", ShareError::Empty);
    check_err("#", ShareError::Empty);
    check_err("#v=1&oops", ShareError::MalformedPart { part: "oops".to_owned() });
    check_err("#v=1&v=1", ShareError::DuplicateField { field: "v".to_owned() });
    check_err(&format!("#{good}"), ShareError::MissingField { field: "v".to_owned() });
    check_err(
        &format!("#v=2&{good}"),
        ShareError::UnsupportedVersion { found: "2".to_owned(), supported: 1 },
    );
    // A later version is refused as such, whatever fields it has.
    check_err("#v=9&zzz=1", ShareError::UnsupportedVersion { found: "9".to_owned(), supported: 1 });
    check_err(&format!("#v=1&{good}&x=1"), ShareError::UnknownField { field: "x".to_owned() });
    check_err("#v=1&seed=3&step=0", ShareError::MissingField { field: "s or j".to_owned() });
    check_err(&format!("#v=1&{good}&j=e30"), ShareError::ConflictingScenario);
    check_err(
        "#v=1&s=f99-nothing&seed=3&step=0",
        ShareError::UnknownScenario { id: "f99-nothing".to_owned() },
    );
    check_err(
        "#v=1&s=f01-duplicate-delivery&step=0",
        ShareError::MissingField { field: "seed".to_owned() },
    );
    check_err(
        "#v=1&s=f01-duplicate-delivery&seed=-3&step=0",
        ShareError::BadSeed {
            value: "-3".to_owned(),
            message: "invalid digit found in string".to_owned(),
        },
    );
    check_err(
        "#v=1&s=f01-duplicate-delivery&seed=18446744073709551616&step=0",
        ShareError::BadSeed {
            value: "18446744073709551616".to_owned(),
            message: "number too large to fit in target type".to_owned(),
        },
    );
    check_err(&format!("#v=1&{good}&p=nnn"), ShareError::BadPatterns { value: "nnn".to_owned() });
    check_err(&format!("#v=1&{good}&p=nnnx"), ShareError::BadPatterns { value: "nnnx".to_owned() });
    check_err(
        "#v=1&s=f01-duplicate-delivery&seed=3",
        ShareError::MissingField { field: "step".to_owned() },
    );
    check_err(
        "#v=1&s=f01-duplicate-delivery&seed=3&step=two",
        ShareError::BadStep {
            value: "two".to_owned(),
            message: "invalid digit found in string".to_owned(),
        },
    );
    check_err(
        &format!("#v=1&{good}&u=a!b"),
        ShareError::BadBase64 {
            field: "u".to_owned(),
            message: "Invalid symbol 33, offset 1.".to_owned(),
        },
    );
    check_err(
        &format!("#v=1&{good}&u={}", BASE64URL.encode([0xff, 0xfe])),
        ShareError::NotUtf8 { field: "u".to_owned(), valid_up_to: 0 },
    );
    let error =
        ShareLink::decode(&format!("#v=1&{good}&u={}", b64("[\n{\"step\": 1,"))).unwrap_err();
    assert_eq!(
        error,
        ShareError::BadJson {
            field: "u".to_owned(),
            line: 2,
            column: 11,
            message: "EOF while parsing a value at line 2 column 11".to_owned(),
        }
    );
    assert_eq!(
        error.to_string(),
        "the field u is not valid JSON at line 2, column 11: EOF while parsing a value at line 2 column 11"
    );
    let unordered = serde_json::to_string(&[
        UserChoice { step: 5, action: Action::CrashRelay },
        UserChoice { step: 5, action: Action::CrashRelay },
    ])
    .unwrap();
    check_err(
        &format!("#v=1&{good}&u={}", b64(&unordered)),
        ShareError::UserChoiceOutOfOrder { step: 5, previous: 5 },
    );
    // An inline scenario is read strictly, with its field and position.
    let ShareError::InvalidScenario { error } = ShareLink::decode(&format!(
        "#v=1&j={}&seed=1&step=0",
        b64("{\"format_version\": 1, \"id\": 7}")
    ))
    .unwrap_err() else {
        panic!("not a scenario error");
    };
    assert_eq!(
        error.to_string(),
        "JSON line 1, column 29, at `id`: invalid type: integer `7`, expected a string"
    );
    // Long garbage is quoted short.
    let long = "x".repeat(1_000);
    check_err(
        &format!("#v=1&s={long}&seed=1&step=0"),
        ShareError::UnknownScenario { id: "x".repeat(QUOTED_CHARS_MAX) },
    );
}

fn action_strategy() -> impl Strategy<Value = Action> {
    let small = 0usize..6;
    prop_oneof![
        small.clone().prop_map(|entry| Action::DuplicateMessage { entry: EntryId(entry) }),
        small.clone().prop_map(|attempt| Action::LoseResponse { attempt: AttemptId(attempt) }),
        small.clone().prop_map(|request| Action::DoubleSubmit { request: RequestIndex(request) }),
        (small.clone(), small.clone()).prop_map(|(request, key_of)| Action::SendWithKeyOf {
            request: RequestIndex(request),
            key_of: RequestIndex(key_of)
        }),
        small.clone().prop_map(|instance| Action::CrashConsumerAfterCommit {
            instance: InstanceId(instance)
        }),
        (small.clone(), 0u64..100).prop_map(|(entry, ticks)| Action::HoldMessage {
            entry: EntryId(entry),
            until: HoldRelease::Ticks { ticks }
        }),
        (small.clone(), small).prop_map(|(entry, instance)| Action::BrokerDeliver {
            entry: EntryId(entry),
            instance: InstanceId(instance)
        }),
        any::<u64>().prop_map(|ticks| Action::AdvanceClock { ticks }),
        Just(Action::CrashRelay),
        Just(Action::RelayStep),
    ]
}

fn mode_strategy() -> impl Strategy<Value = PatternMode> {
    prop_oneof![Just(PatternMode::Naive), Just(PatternMode::Idempotent)]
}

fn link_strategy() -> impl Strategy<Value = ShareLink> {
    (
        0..CATALOGUE.len(),
        any::<bool>(),
        any::<u64>(),
        (mode_strategy(), mode_strategy(), mode_strategy(), mode_strategy()),
        proptest::collection::vec((1usize..40, action_strategy()), 0..6),
        any::<usize>(),
    )
        .prop_map(|(index, inline, seed, (p1, p2, p3, p4), gaps, step)| {
            let id = CATALOGUE[index].id;
            let scenario = if inline {
                let mut scenario = catalogue_scenario(id).unwrap();
                scenario.id = format!("imported-{id}");
                SharedScenario::Inline { scenario: Box::new(scenario) }
            } else {
                SharedScenario::Catalogue { id: id.to_owned() }
            };
            let mut at = 0;
            let user_choices = gaps
                .into_iter()
                .map(|(gap, action)| {
                    at += gap;
                    UserChoice { step: at, action }
                })
                .collect();
            let patterns = Patterns { p1_stock: p1, p2_order: p2, p3_api: p3, p4_inbox: p4 };
            ShareLink { scenario, seed, patterns, user_choices, step }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn encode_then_decode_is_the_identity(link in link_strategy()) {
        let fragment = link.encode();
        prop_assert!(fragment.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"#=&-_".contains(&byte)));
        prop_assert_eq!(ShareLink::decode(&fragment), Ok(link));
    }

    #[test]
    fn arbitrary_strings_never_panic(text in ".*") {
        let _ = ShareLink::decode(&text);
    }

    #[test]
    fn arbitrary_fields_never_panic(
        fields in proptest::collection::vec(
            (
                prop_oneof![
                    Just("v"), Just("s"), Just("j"), Just("seed"), Just("p"), Just("u"),
                    Just("step"), Just("x")
                ],
                prop_oneof![
                    Just("1".to_owned()),
                    Just("f01-duplicate-delivery".to_owned()),
                    "[0-9]{0,22}",
                    "[a-zA-Z0-9_=-]{0,40}",
                    proptest::collection::vec((1usize..30, action_strategy()), 0..3).prop_map(|choices| {
                        let choices: Vec<UserChoice> = choices
                            .into_iter()
                            .map(|(step, action)| UserChoice { step, action })
                            .collect();
                        b64(&serde_json::to_string(&choices).unwrap())
                    }),
                ],
            ),
            0..8,
        )
    ) {
        let fragment = fields
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("&");
        if let Ok(link) = ShareLink::decode(&format!("#v=1&{fragment}")) {
            // A link that reads opens, or says why not; never a panic.
            let _ = link.open();
        }
    }
}
