//! `MarkPaid` programs: the built-in twins of P2 written as programs judged exactly as the
//! built-ins, the typical wrong answers refuted with their shortest counterexamples pinned, the
//! right answers proved with their state counts pinned, and the validator's errors for the
//! `MarkPaid` palette.

use std::fmt::Write as _;

use expect_test::{Expect, expect};

use super::{judgement_line, program};
use crate::check::judge::{
    Judgement, MARK_PAID_BUILD_LESSON, MARK_PAID_RACE_FAULTS, build_check_config_for, judge,
    judge_scenario, why_in,
};
use crate::check::{CheckConfig, FaultBudget};
use crate::order::OrderImplementation;
use crate::program::*;
use crate::sim::{PatternMode, Scenario, catalogue_scenario};
use crate::words::Language;

const SEED: &str = include_str!("../../../../examples/programs/mark-paid-seed.json");
const NAIVE: &str = include_str!("../../../../examples/programs/mark-paid-naive.json");
const WITHOUT_GUARD: &str =
    include_str!("../../../../examples/programs/mark-paid-update-without-status-guard.json");
const CHECK_THEN_UPDATE: &str =
    include_str!("../../../../examples/programs/mark-paid-check-then-update.json");
const FOR_UPDATE: &str =
    include_str!("../../../../examples/programs/mark-paid-select-for-update.json");

/// The built-in `MarkPaid` of `scenario`'s P2 switch judged beside the same handler written as
/// a program: the same verdict, the same count of states, the same shortest path.
fn check_same_as_builtin(scenario: &Scenario, config: &CheckConfig) -> String {
    let program = builtin_mark_paid(scenario.patterns.order());
    let builtin = judge_scenario(scenario.clone(), 0, config.clone()).unwrap();
    let installed = Scenario { mark_paid_program: Some(program), ..scenario.clone() };
    let programmed = judge_scenario(installed, 0, config.clone()).unwrap();
    assert_eq!(judgement_line(&programmed), judgement_line(&builtin), "{}", scenario.id);
    if let (
        Judgement::Counterexample { counterexample: a, .. },
        Judgement::Counterexample { counterexample: b, .. },
    ) = (&builtin, &programmed)
    {
        assert_eq!(a.path, b.path, "{}", scenario.id);
        assert_eq!(a.violations, b.violations, "{}", scenario.id);
    }
    judgement_line(&builtin)
}

#[test]
fn the_builtin_mark_paid_as_programs_judge_as_the_builtins_on_the_payment_lessons() {
    let mut lines = String::new();
    for id in [MARK_PAID_BUILD_LESSON, "f08-api-crash"] {
        let lesson = catalogue_scenario(id).unwrap();
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let scenario = lesson.without_scripted_faults().with_mode(mode);
            let scenario = Scenario {
                patterns: scenario.patterns.with(crate::sim::Pattern::P2, mode),
                ..scenario
            };
            for faults in [
                FaultBudget::for_scenario(&lesson),
                build_check_config_for(HandlerKind::MarkPaid).faults,
            ] {
                // Bounded so a debug build stays quick: a bounded check must stop at the same
                // state for both.
                let config = CheckConfig {
                    faults,
                    states_max: 30_000,
                    ..build_check_config_for(HandlerKind::MarkPaid)
                };
                let line = check_same_as_builtin(&scenario, &config);
                let _ = writeln!(lines, "{id} {mode:?}: {line}");
            }
        }
    }
    expect![[r#"
        p2-order-state-machine Naive: counterexample: 37 steps, I3 after 1358 states
        p2-order-state-machine Naive: counterexample: 37 steps, I3 after 1358 states
        p2-order-state-machine Idempotent: holds: 2433 states, depth 52
        p2-order-state-machine Idempotent: holds: 2433 states, depth 52
        f08-api-crash Naive: counterexample: 35 steps, I3 after 4374 states
        f08-api-crash Naive: counterexample: 36 steps, I3 after 1167 states
        f08-api-crash Idempotent: bounded: the limit of 30000 unique states was reached after 30000 states
        f08-api-crash Idempotent: holds: 6045 states, depth 53
    "#]].assert_eq(&lines);
}

fn build_lesson() -> Scenario {
    catalogue_scenario(MARK_PAID_BUILD_LESSON).unwrap()
}

/// Judges `text` over the `MarkPaid` build lesson: the verdict, and for a counterexample its
/// invariant's sentence and the sentence on why.
fn check_judged(text: &str, config: CheckConfig, expect: Expect) {
    let program = program(text);
    let judgement = judge(&program, &build_lesson(), 0, config).unwrap();
    let mut out = judgement_line(&judgement);
    if let Judgement::Counterexample { counterexample, .. } = &judgement {
        for violation in &counterexample.violations {
            let _ =
                write!(out, "\n{}: {}", violation.invariant, violation.sentence_in(Language::En));
        }
        let _ = write!(out, "\n{}", why_in(&program, Language::En));
    }
    expect.assert_eq(&out);
}

#[test]
fn the_seeds_mark_paid_holds_for_every_schedule() {
    check_judged(
        SEED,
        build_check_config_for(HandlerKind::MarkPaid),
        expect!["holds: 2433 states, depth 52"],
    );
}

#[test]
fn check_then_update_with_for_update_holds_for_every_schedule() {
    check_judged(
        FOR_UPDATE,
        build_check_config_for(HandlerKind::MarkPaid),
        expect!["holds: 2798 states, depth 53"],
    );
}

#[test]
fn the_naive_mark_paid_is_refuted() {
    check_judged(
        NAIVE,
        build_check_config_for(HandlerKind::MarkPaid),
        expect![[r#"
        counterexample: 37 steps, I3 after 1358 states
        I3: Order 73128e1c-fa54-4a40-a579-c0096c3c237c was charged twice: charge-1 (payment pay-1), charge-2 (payment pay-1).
        Why: the UPDATE has no status guard, so it moves a paid order to paid again and reports 1 row: every repeat of the payment charges once more."#]],
    );
}

#[test]
fn the_update_without_the_status_guard_is_refuted() {
    check_judged(
        WITHOUT_GUARD,
        build_check_config_for(HandlerKind::MarkPaid),
        expect![[r#"
        counterexample: 37 steps, I3 after 1358 states
        I3: Order 73128e1c-fa54-4a40-a579-c0096c3c237c was charged twice: charge-1 (payment pay-1), charge-2 (payment pay-1).
        Why: the UPDATE has no status guard, so it moves a paid order to paid again and reports 1 row: every repeat of the payment charges once more."#]],
    );
}

#[test]
fn check_then_update_without_for_update_survives_a_retry_and_loses_the_race() {
    // A retry after a lost answer comes after the first run: the plain SELECT reads 'paid'.
    check_judged(
        CHECK_THEN_UPDATE,
        build_check_config_for(HandlerKind::MarkPaid),
        expect!["holds: 2798 states, depth 53"],
    );
    // A double submit races two runs: both read 'placed' before either commits.
    let race = CheckConfig {
        faults: FaultBudget::of(&MARK_PAID_RACE_FAULTS),
        ..build_check_config_for(HandlerKind::MarkPaid)
    };
    check_judged(
        CHECK_THEN_UPDATE,
        race.clone(),
        expect![[r#"
        counterexample: 22 steps, I3 after 36154 states
        I3: Order 73128e1c-fa54-4a40-a579-c0096c3c237c was charged twice: charge-1 (payment pay-1), charge-2 (payment pay-1).
        Why: a plain SELECT that reads 'placed' proves nothing under concurrency: two requests both read 'placed' before either commits, both update and both charge. The guarded UPDATE (AND status = 'placed') or SELECT ... FOR UPDATE decides atomically."#]],
    );
    // The same race does not refute the row lock within the bound.
    check_judged(
        FOR_UPDATE,
        CheckConfig { states_max: 20_000, ..race },
        expect!["bounded: the limit of 20000 unique states was reached after 20000 states"],
    );
}

#[test]
fn the_builtins_and_examples_validate_and_write_back_as_they_read() {
    for order in [OrderImplementation::Naive, OrderImplementation::Idempotent] {
        let builtin = builtin_mark_paid(order);
        assert_eq!(HandlerProgram::from_json(&builtin.to_json()).unwrap(), builtin);
    }
    for text in [SEED, NAIVE, WITHOUT_GUARD, CHECK_THEN_UPDATE, FOR_UPDATE] {
        let read = program(text);
        assert_eq!(program(&read.to_json()), read);
    }
    assert_eq!(program(SEED), builtin_mark_paid(OrderImplementation::Idempotent));
    assert_eq!(program(NAIVE), builtin_mark_paid(OrderImplementation::Naive));
}

/// A `MarkPaid` program of these blocks (JSON objects, comma-separated), in `version`.
fn with_blocks(version: u32, blocks: &str) -> String {
    format!(r#"{{"format_version": {version}, "handler": "mark_paid", "blocks": [{blocks}]}}"#)
}

#[test]
fn every_mark_paid_mistake_is_its_own_error_naming_the_block() {
    let begin = r#"{"block": "begin"}"#;
    let commit = r#"{"block": "commit"}"#;
    let paid = r#"{"block": "answer_paid"}"#;
    let update = r#"{"block": "update_order_paid", "guard": "placed"}"#;
    let select = r#"{"block": "select_order", "lock": "for_update"}"#;
    let not_placed = r#"{"block": "if_not_placed_skip_to", "label": "end"}"#;
    let end = r#"{"block": "label", "name": "end"}"#;
    let cases: Vec<String> = vec![
        with_blocks(1, &format!("{begin},{update},{commit},{paid}")),
        with_blocks(3, &format!("{begin},{update},{commit},{paid}")),
        with_blocks(2, &format!(r#"{begin},{update},{commit},{{"block": "ack"}}"#)),
        with_blocks(2, &format!("{begin},{update},{commit}")),
        with_blocks(2, &format!("{begin},{update},{paid}")),
        with_blocks(2, &format!("{begin},{update},{not_placed},{end},{commit},{paid}")),
        with_blocks(2, &format!("{update},{commit},{paid}")),
        with_blocks(2, &format!(r#"{begin},{update},{{"block": "insert_charge", "x": 1}},{commit},{paid}"#)),
        with_blocks(2, r#"{"block": "select_order", "lock": "share"}"#),
        with_blocks(2, &format!("{begin},{select},{not_placed},{commit},{paid},{end},{{\"block\": \"refuse\"}}")),
        r#"{"format_version": 2, "handler": "reserve_stock_consumer", "blocks": [{"block": "begin"}, {"block": "insert_charge"}, {"block": "commit"}, {"block": "ack"}]}"#.to_owned(),
    ];
    let errors: Vec<String> = cases
        .iter()
        .map(|text| match HandlerProgram::from_json(text) {
            Ok(_) => "accepted".to_owned(),
            Err(error) => format!("{error} [block {:?}]", error.block_index()),
        })
        .collect();
    expect![[r#"
        handler mark_paid needs program format_version 2 or later (the file says 1) [block None]
        program format_version 3 is not supported (this build reads 2) [block None]
        block 3: ack is not a block of the mark_paid handler [block Some(3)]
        the program can end without answering (end every path with answer_paid or refuse) [block None]
        block 2: answer_paid with the transaction still open (COMMIT first) [block Some(2)]
        block 2: the skip has no order status to read (put a select_order before it) [block Some(2)]
        block 0: update_order_paid runs with no transaction open (BEGIN first) [block Some(0)]
        block 2: insert_charge has no field `x` [block Some(2)]
        JSON line 1, column 100, at `blocks[0]`: unknown variant `share`, expected `none` or `for_update` [block None]
        accepted
        block 1: insert_charge is not a block of the reserve_stock_consumer handler [block Some(1)]"#]].assert_eq(&errors.join("\n"));
}

#[test]
fn each_mark_paid_wrong_answer_is_named_and_told_why_in_both_languages() {
    let mut lines = Vec::new();
    for text in [SEED, FOR_UPDATE, NAIVE, WITHOUT_GUARD, CHECK_THEN_UPDATE] {
        let program = program(text);
        let english = why_in(&program, Language::En);
        let russian = why_in(&program, Language::Ru);
        assert_ne!(russian, english);
        lines.push(format!("{:?}: {english}", diagnose(&program)));
    }
    expect![[r#"
        None: Why: the schedule above is the shortest one that breaks the invariant; follow its statements in the diagram.
        None: Why: the schedule above is the shortest one that breaks the invariant; follow its statements in the diagram.
        Some(UnguardedUpdate): Why: the UPDATE has no status guard, so it moves a paid order to paid again and reports 1 row: every repeat of the payment charges once more.
        Some(UnguardedUpdate): Why: the UPDATE has no status guard, so it moves a paid order to paid again and reports 1 row: every repeat of the payment charges once more.
        Some(CheckThenUpdate): Why: a plain SELECT that reads 'placed' proves nothing under concurrency: two requests both read 'placed' before either commits, both update and both charge. The guarded UPDATE (AND status = 'placed') or SELECT ... FOR UPDATE decides atomically."#]].assert_eq(&lines.join("\n"));
}

#[test]
fn a_scenario_refuses_a_program_of_another_handler_in_its_field() {
    let lesson = build_lesson();
    let consumer = builtin_consumer(
        crate::inbox::ConsumerImplementation::Idempotent,
        crate::stock::StockImplementation::Idempotent,
    );
    let swapped = Scenario { mark_paid_program: Some(consumer), ..lesson.clone() };
    let error = swapped.validate().unwrap_err();
    assert_eq!(error.field(), Some("mark_paid_program"));
    let swapped = Scenario { consumer_program: Some(program(SEED)), ..lesson };
    expect!["consumer_program: a mark_paid program cannot stand in for this handler"]
        .assert_eq(&swapped.validate().unwrap_err().to_string());
}

/// Mutated `MarkPaid` programs (text cut, block names and parameters swapped, blocks
/// reordered) never make the reader, the validator or a run of the simulator panic; whatever
/// reads is valid and runs in the build lesson.
#[test]
fn mutated_mark_paid_programs_are_refused_or_run_never_panic() {
    use crate::rng::DeterministicRng;
    const TOKENS: [&str; 10] = [
        "\"begin\"",
        "\"commit\"",
        "\"rollback\"",
        "\"answer_paid\"",
        "\"refuse\"",
        "\"insert_charge\"",
        "\"none\"",
        "\"placed\"",
        "\"for_update\"",
        "\"repeat\"",
    ];
    let examples = [SEED, NAIVE, WITHOUT_GUARD, CHECK_THEN_UPDATE, FOR_UPDATE];
    let lesson = build_lesson();
    let mut rng = DeterministicRng::from_seed(39);
    let (mut read, mut refused) = (0, 0);
    for case in 0..400u64 {
        let mut text = examples[rng.below(examples.len() as u64) as usize].to_owned();
        for _ in 0..=rng.below(3) {
            match rng.below(3) {
                0 => {
                    let at = rng.below(text.len() as u64) as usize;
                    if text.is_char_boundary(at) {
                        text.truncate(at);
                    }
                }
                1 => {
                    let from = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                    let to = TOKENS[rng.below(TOKENS.len() as u64) as usize];
                    text = text.replacen(from, to, 1 + rng.below(2) as usize);
                }
                _ => {
                    let mut lines: Vec<&str> = text.lines().collect();
                    let (a, b) = (rng.below(lines.len() as u64), rng.below(lines.len() as u64));
                    lines.swap(a as usize, b as usize);
                    text = lines.join("\n");
                }
            }
        }
        match HandlerProgram::from_json(&text) {
            Ok(program) => {
                read += 1;
                let scenario = crate::check::judge::scenario_with_program(&lesson, &program);
                let trace = crate::sim::Simulation::run(scenario, case).unwrap();
                assert!(!trace.steps.is_empty(), "case {case}");
            }
            Err(_) => refused += 1,
        }
    }
    assert!(read > 20 && refused > 20, "read {read}, refused {refused}");
}
