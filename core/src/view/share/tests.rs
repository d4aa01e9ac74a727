//! Tests of the share link: round trips, every error, opening a link at its step.

use base64::Engine as _;
use proptest::prelude::*;

use super::*;
use crate::sim::{
    AnchoredAction, ApplyError, CATALOGUE, CopyRef, DeliveryRef, EntryId, HoldRelease, InstanceId,
    MessageAnchor, PatternMode, RequestIndex, SendRef, Trace,
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
    assert_eq!(link.encode(), "#v=2&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12");
    assert_eq!(link.to_string(), link.encode());
    assert_eq!(ShareLink::decode(&link.encode()), Ok(link.clone()));
    // Without the `#`, or as a whole URL; and a version-1 link without choices means the same.
    assert_eq!(
        ShareLink::decode("v=2&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12"),
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
fn the_presenter_view_travels_in_the_link_and_is_off_when_absent() {
    let scenario = catalogue_scenario("f01-duplicate-delivery").unwrap();
    let link = ShareLink::new(&scenario.with_mode(PatternMode::Naive), 3, Vec::new(), 12);
    assert!(!link.presenter, "a new link shows the ordinary view");
    let presenting = link.clone().presenting(true);
    assert_eq!(
        presenting.encode(),
        "#v=2&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12&presenter=1"
    );
    assert_eq!(ShareLink::decode(&presenting.encode()), Ok(presenting.clone()));
    // Every link written before the field existed opens in the ordinary view; `0` is off too.
    assert_eq!(
        ShareLink::decode("#v=2&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12"),
        Ok(link.clone())
    );
    assert_eq!(
        ShareLink::decode("#v=2&s=f01-duplicate-delivery&seed=3&p=nnnn&step=12&presenter=0"),
        Ok(link.clone())
    );
    // How the run looks is not what it is: both open the same run at the same step.
    let (plain, shown) = (link.open().unwrap(), presenting.open().unwrap());
    assert_eq!((plain.run, plain.step), (shown.run, shown.step));
    check_err(
        "#v=2&s=f01-duplicate-delivery&seed=3&step=0&presenter=yes",
        ShareError::BadPresenter { value: "yes".to_owned() },
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
    assert!(fragment.starts_with("#v=2&j="), "{fragment}");
    assert!(fragment.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"#=&-_".contains(&byte)));
    let decoded = ShareLink::decode(&fragment).unwrap();
    assert_eq!(decoded, link);
    assert_eq!(decoded.scenario().unwrap(), scenario);
}

#[test]
fn a_link_opens_the_same_run_at_its_step() {
    let trace = run_with_user_fault();
    let run = Run::of_trace(&trace).unwrap();
    assert_eq!(run.choices.len(), 1);
    let first_copy = CopyRef { message: MessageAnchor::OrderPlacedOf(RequestIndex(0)), copy: 0 };
    assert_eq!(run.choices[0].action, AnchoredAction::DuplicateMessage { copy: first_copy });
    assert!(trace.invariants_ever_violated().contains(&crate::invariants::InvariantId::I2));

    let link = ShareLink::of_run(&run, 12);
    let opened = ShareLink::decode(&link.encode()).unwrap().open().unwrap();
    assert_eq!(opened.run, run);
    assert_eq!(opened.step, 12);
    assert_eq!(opened.outcomes, vec![ChoiceOutcome::Taken { step: run.choices[0].step }]);
    let steps = opened.simulation.steps();
    assert!(steps.len() >= 12);
    assert_eq!(steps, &trace.steps[..steps.len()]);

    // At the end of the run, the run has ended; at the start, its future is there.
    let end = ShareLink { step: trace.steps.len(), ..link.clone() }.open().unwrap();
    assert_eq!(end.simulation.steps(), trace.steps.as_slice());
    assert_eq!(end.simulation.stop_reason(), Some(&trace.stop));
    let start = ShareLink { step: 0, ..link }.open().unwrap();
    assert_eq!(start.step, 0);
    assert_eq!(start.simulation.steps(), &trace.steps[..start.simulation.steps().len()]);
    assert!(start.simulation.steps().iter().any(|step| step.chosen_by == crate::sim::Choice::User));
}

#[test]
fn a_link_taken_after_rewinding_keeps_the_runs_future() {
    // Repro 3: p4, all idempotent, F6 double submit at the start, one step back, the link.
    let opened =
        ShareLink::decode("#v=2&s=p4-inbox-consumer&seed=0&p=iiii&step=0").unwrap().open().unwrap();
    let double_submit = Action::DoubleSubmit { request: RequestIndex(0) };
    assert!(opened.simulation.world_after(0).unwrap().is_enabled(&double_submit));
    let scenario = opened.run.scenario.clone();
    let (run, _) = Run::anchor(scenario, 0, &[(1, double_submit.clone())]).unwrap();
    let fragment = ShareLink::of_run(&run, 0).encode();
    let reopened = ShareLink::decode(&fragment).unwrap().open().unwrap();
    assert_eq!(reopened.step, 0);
    assert_eq!(reopened.run.choices, run.choices);
    assert_eq!(reopened.simulation.steps()[0].action, double_submit);
    assert_eq!(reopened.outcomes, vec![ChoiceOutcome::Taken { step: 1 }]);
}

#[test]
fn a_version_1_link_opens_as_the_same_run() {
    let trace = run_with_user_fault();
    let user_step = trace.steps.iter().find(|step| step.chosen_by == crate::sim::Choice::User);
    let user_step = user_step.unwrap();
    let old = serde_json::to_string(&[StepChoice {
        step: user_step.step,
        action: Action::DuplicateMessage { entry: EntryId(0) },
    }])
    .unwrap();
    let fragment = format!(
        "#v=1&j={}&seed=7&p=nnnn&u={}&step=12",
        b64(&serde_json::to_string(&trace.scenario).unwrap()),
        b64(&old)
    );
    let link = ShareLink::decode(&fragment).unwrap();
    assert_eq!(link.user_choices, Run::of_trace(&trace).unwrap().choices);
    assert!(link.encode().starts_with("#v=2&"));
    let opened = link.open().unwrap();
    let steps = opened.simulation.steps();
    assert_eq!(steps, &trace.steps[..steps.len()]);
}

#[test]
fn opening_refuses_what_the_run_cannot_do() {
    let trace = run_with_user_fault();
    let link = ShareLink::of_run(&Run::of_trace(&trace).unwrap(), 0);
    let steps = trace.steps.len();
    assert_eq!(
        ShareLink { step: steps + 1, ..link.clone() }.open().unwrap_err(),
        ShareError::StepBeyondRun { step: steps + 1, steps }
    );
    // A version-1 choice is a plain action at its step: the run must be able to take it.
    let old = |step: usize| {
        let choices = [StepChoice { step, action: Action::CrashRelay }];
        format!(
            "#v=1&s=f01-duplicate-delivery&seed=7&p=nnnn&u={}&step=0",
            b64(&serde_json::to_string(&choices).unwrap())
        )
    };
    assert_eq!(
        ShareLink::decode(&old(1)).unwrap_err(),
        ShareError::UserChoiceRefused {
            step: 1,
            error: ApplyError::NotEnabled { action: Action::CrashRelay }
        }
    );
    let plain = Scenario {
        patterns: link.patterns,
        ..catalogue_scenario("f01-duplicate-delivery").unwrap()
    };
    let plain_steps = Simulation::run(plain, 7).unwrap().steps.len();
    assert_eq!(
        ShareLink::decode(&old(10_000)).unwrap_err(),
        ShareError::UserChoiceNotReached { step: 10_000, steps: plain_steps }
    );
    let zero = UserChoice { step: 0, action: AnchoredAction::CrashRelay };
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
        &format!("#v=3&{good}"),
        ShareError::UnsupportedVersion { found: "3".to_owned(), supported: 2 },
    );
    // A later version is refused as such, whatever fields it has.
    check_err("#v=9&zzz=1", ShareError::UnsupportedVersion { found: "9".to_owned(), supported: 2 });
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
        UserChoice { step: 5, action: AnchoredAction::CrashRelay },
        UserChoice { step: 5, action: AnchoredAction::CrashRelay },
    ])
    .unwrap();
    check_err(
        &format!("#v=2&{good}&u={}", b64(&unordered)),
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

fn action_strategy() -> impl Strategy<Value = AnchoredAction> {
    let small = 0usize..6;
    let message = prop_oneof![
        (0usize..4).prop_map(|request| MessageAnchor::OrderPlacedOf(RequestIndex(request))),
        any::<u128>()
            .prop_map(|id| MessageAnchor::Id(crate::ids::MessageId(uuid::Uuid::from_u128(id)))),
    ];
    let copy = (message.clone(), 0u32..3).prop_map(|(message, copy)| CopyRef { message, copy });
    let send = (small.clone(), 1u32..4)
        .prop_map(|(request, send)| SendRef { request: RequestIndex(request), send });
    prop_oneof![
        copy.clone().prop_map(|copy| AnchoredAction::DuplicateMessage { copy }),
        send.prop_map(|send| AnchoredAction::LoseResponse { send }),
        small
            .clone()
            .prop_map(|request| AnchoredAction::DoubleSubmit { request: RequestIndex(request) }),
        (small.clone(), small.clone()).prop_map(|(request, key_of)| {
            AnchoredAction::SendWithKeyOf {
                request: RequestIndex(request),
                key_of: RequestIndex(key_of),
            }
        }),
        (message, 1u32..4).prop_map(|(message, delivery)| {
            AnchoredAction::CrashConsumerAfterCommit { delivery: DeliveryRef { message, delivery } }
        }),
        (copy.clone(), 0u64..100).prop_map(|(copy, ticks)| AnchoredAction::HoldMessage {
            copy,
            until: HoldRelease::Ticks { ticks }
        }),
        (copy, small).prop_map(|(copy, instance)| AnchoredAction::BrokerDeliver {
            copy,
            instance: InstanceId(instance)
        }),
        Just(AnchoredAction::AdvanceClock),
        Just(AnchoredAction::CrashRelay),
        Just(AnchoredAction::RelayStep),
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
        (any::<usize>(), any::<bool>()),
    )
        .prop_map(|(index, inline, seed, (p1, p2, p3, p4), gaps, (step, presenter))| {
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
            ShareLink { scenario, seed, patterns, user_choices, step, presenter }
        })
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(64))]

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
                    Just("step"), Just("presenter"), Just("x")
                ],
                prop_oneof![
                    Just("2".to_owned()),
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
        if let Ok(link) = ShareLink::decode(&format!("#v=2&{fragment}")) {
            // A link that reads opens, or says why not; never a panic.
            let _ = link.open();
        }
    }
}

#[test]
fn a_runs_share_fragment_is_its_links_encoding_at_every_step() {
    let mut edited = catalogue_scenario("f05-lost-response").unwrap();
    edited.title = "An edited copy".to_owned();
    let built_in =
        catalogue_scenario("f01-duplicate-delivery").unwrap().with_all_patterns(PatternMode::Naive);
    for scenario in [built_in, edited] {
        let trace = run_with_user_fault();
        let choices = Run::of_trace(&trace).unwrap().choices;
        let mut run = crate::view::IndexedRun::new(Simulation::new(scenario.clone(), 7).unwrap());
        for step in 0..4 {
            for presenter in [false, true] {
                let expected = ShareLink::new(&scenario, 7, choices.clone(), step)
                    .presenting(presenter)
                    .encode();
                assert_eq!(run.share_fragment(&choices, step, presenter), expected);
            }
            run.step();
        }
    }
}
