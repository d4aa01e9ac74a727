//! The handler programs: the palette's blocks run as the statements they name, the validator's
//! errors (one case per mistake), the built-in consumers as programs judged exactly as the
//! built-ins, and the typical wrong answers refuted with their shortest counterexamples.

mod mark_paid;

use std::fmt::Write as _;
use std::sync::Arc;

use expect_test::{Expect, expect};

use super::*;
use crate::check::judge::{Judgement, build_check_config, judge, judge_scenario};
use crate::check::{CheckConfig, FaultBudget, two_consumers_duplicate_and_crash};
use crate::ids::{ConsumerName, MessageId, OrderId, Sku, Tick};
use crate::inbox::Envelope;
use crate::shop::ShopConfig;
use crate::sim::{CATALOGUE, PatternMode, Patterns, Scenario, catalogue_scenario};
use crate::store::{MessagePayload, OrderLine, Store};

const SEED: &str = include_str!("../../../examples/programs/consumer-seed.json");
const DO_NOTHING: &str =
    include_str!("../../../examples/programs/consumer-on-conflict-do-nothing.json");
const NAIVE: &str = include_str!("../../../examples/programs/consumer-naive.json");
const ACK_BEFORE_COMMIT: &str =
    include_str!("../../../examples/programs/consumer-ack-before-commit.json");
const INBOX_OWN_TRANSACTION: &str =
    include_str!("../../../examples/programs/consumer-inbox-in-its-own-transaction.json");
const CHECK_THEN_INSERT: &str =
    include_str!("../../../examples/programs/consumer-check-then-insert.json");
const INVALID: &str = include_str!("../../../examples/programs/invalid-commit-without-begin.json");

fn judgement_line(judgement: &Judgement) -> String {
    match judgement {
        Judgement::Holds { states, depth } => format!("holds: {states} states, depth {depth}"),
        Judgement::Counterexample { counterexample, states } => format!(
            "counterexample: {} steps, {} after {states} states",
            counterexample.path.len(),
            counterexample
                .violations
                .iter()
                .map(|violation| violation.invariant.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Judgement::Bounded { reason, states } => format!("bounded: {reason} after {states} states"),
    }
}

/// The built-in consumer of `scenario`'s switches judged beside the same consumer written as
/// a program: the same verdict, the same count of states, the same shortest path.
fn check_same_as_builtin(scenario: &Scenario, config: &CheckConfig) -> Judgement {
    let patterns = scenario.patterns;
    let program = builtin_consumer(patterns.inbox(), patterns.stock());
    let builtin = judge_scenario(scenario.clone(), 0, config.clone()).unwrap();
    let installed = Scenario { consumer_program: Some(program), ..scenario.clone() };
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
    builtin
}

#[test]
fn the_builtin_consumers_as_programs_judge_as_the_builtins_on_the_reference_check() {
    let config = crate::check::two_consumers_duplicate_and_crash_config();
    let mut lines = Vec::new();
    for mode in [PatternMode::Naive, PatternMode::Idempotent] {
        let scenario = two_consumers_duplicate_and_crash(Patterns::all(mode));
        lines.push(judgement_line(&check_same_as_builtin(&scenario, &config)));
    }
    expect![[r#"
        counterexample: 20 steps, I2 after 2516 states
        holds: 29297 states, depth 39"#]]
    .assert_eq(&lines.join("\n"));
}

#[test]
fn the_builtin_consumers_as_programs_judge_as_the_builtins_across_every_lesson() {
    // Every lesson, as written and in both modes, with its own faults (the CLI's `check`
    // budget) and with the build tasks' faults, each bounded so a debug build stays quick: a
    // bounded check must stop at the same state for both.
    let mut lines = String::new();
    for entry in CATALOGUE {
        let lesson = catalogue_scenario(entry.id).unwrap();
        for scenario in [
            lesson.clone(),
            lesson.with_mode(PatternMode::Naive),
            lesson.with_mode(PatternMode::Idempotent),
        ] {
            for faults in [FaultBudget::for_scenario(&scenario), build_check_config().faults] {
                let config = CheckConfig {
                    faults,
                    states_max: 3_000,
                    ..crate::check::two_consumers_duplicate_and_crash_config()
                };
                let judgement = check_same_as_builtin(&scenario, &config);
                let _ = writeln!(lines, "{}: {}", entry.id, judgement_line(&judgement));
            }
        }
    }
    assert!(lines.lines().count() == CATALOGUE.len() * 6, "{lines}");
}

fn program(text: &str) -> HandlerProgram {
    HandlerProgram::from_json(text).unwrap()
}

fn build_lesson() -> Scenario {
    catalogue_scenario(crate::check::judge::CONSUMER_BUILD_LESSON).unwrap()
}

/// Judges `text` over the consumer build lesson: the verdict, and for a counterexample its
/// invariant's sentence and the trace's consumer statements.
fn check_judged(text: &str, expect: Expect) {
    let judgement = judge(&program(text), &build_lesson(), 0, build_check_config()).unwrap();
    let mut out = judgement_line(&judgement);
    if let Judgement::Counterexample { counterexample, .. } = &judgement {
        for violation in &counterexample.violations {
            let _ = write!(
                out,
                "\n{}: {}",
                violation.invariant,
                violation.sentence_in(crate::words::Language::En)
            );
        }
    }
    expect.assert_eq(&out);
}

#[test]
fn the_seeds_consumer_holds_for_every_schedule() {
    check_judged(SEED, expect!["holds: 39084 states, depth 43"]);
}

#[test]
fn the_consumer_with_on_conflict_do_nothing_holds_for_every_schedule() {
    check_judged(DO_NOTHING, expect!["holds: 41426 states, depth 45"]);
}

#[test]
fn the_naive_consumer_is_refuted() {
    check_judged(
        NAIVE,
        expect![[r#"
        counterexample: 25 steps, I2 after 10447 states
        I2: Order 73128e1c-fa54-4a40-a579-c0096c3c237c has 6 units of apple reserved, but it asks for only 3: the reservation effect ran twice."#]],
    );
}

#[test]
fn ack_before_commit_is_refuted() {
    check_judged(
        ACK_BEFORE_COMMIT,
        expect![[r#"
        counterexample: 29 steps, I6 after 25255 states
        I6: At quiescence, reserve-stock processed OrderPlaced d051b29e-45c8-4853-a592-75602f463cea of order 73128e1c-fa54-4a40-a579-c0096c3c237c 0 times, not exactly once (the message was published once)."#]],
    );
}

#[test]
fn the_inbox_row_in_its_own_transaction_is_refuted() {
    check_judged(
        INBOX_OWN_TRANSACTION,
        expect![[r#"
        counterexample: 18 steps, I5 after 123 states
        I5: Inbox row (d051b29e-45c8-4853-a592-75602f463cea, reserve-stock) exists, but reserve-stock never applied message d051b29e-45c8-4853-a592-75602f463cea."#]],
    );
}

#[test]
fn check_then_insert_without_the_unique_key_is_refuted() {
    check_judged(
        CHECK_THEN_INSERT,
        expect![[r#"
        counterexample: 29 steps, I2 after 34664 states
        I2: Order 73128e1c-fa54-4a40-a579-c0096c3c237c has 6 units of apple reserved, but it asks for only 3: the reservation effect ran twice."#]],
    );
}

#[test]
fn the_counterexample_replays_with_the_program_in_its_trace() {
    let judgement =
        judge(&program(ACK_BEFORE_COMMIT), &build_lesson(), 0, build_check_config()).unwrap();
    let Judgement::Counterexample { counterexample, .. } = judgement else {
        panic!("expected a counterexample, got {judgement:?}");
    };
    let json = counterexample.trace.to_json();
    let trace = crate::sim::Trace::from_json(&json).unwrap();
    assert!(trace.scenario.consumer_program.is_some());
    let replayed = crate::sim::Simulation::replay(&trace).unwrap();
    assert_eq!(replayed.to_json(), json);
}

/// Runs `blocks` alone for each of `deliveries` of one `OrderPlaced` (3 apples, 2 pears) in
/// turn against the shop's initial store, and prints each step's statement and what it did.
fn check_run(blocks: Vec<Block>, deliveries: usize, expect: Expect) {
    let compiled =
        Arc::new(compile(&HandlerProgram::new(HandlerKind::ReserveStockConsumer, blocks)).unwrap());
    let mut store: Store = ShopConfig::default().initial_store();
    let message_id = MessageId(uuid::Uuid::from_u128(7));
    let payload = MessagePayload::OrderPlaced {
        order_id: OrderId(uuid::Uuid::from_u128(1)),
        lines: vec![
            OrderLine { sku: Sku::new("pear"), qty: 2 },
            OrderLine { sku: Sku::new("apple"), qty: 3 },
        ]
        .into(),
    };
    let mut out = String::new();
    for delivery in 1..=deliveries {
        let _ = writeln!(out, "delivery {delivery}:");
        let envelope = Envelope { message_id: Some(message_id), payload: payload.clone() };
        let mut machine = ProgramConsumer::new(
            Arc::clone(&compiled),
            ConsumerName::new("reserve-stock"),
            message_id,
            envelope,
        );
        for _ in 0..50 {
            let Some(statement) = machine.next_statement(Tick(1)) else { break };
            let _ = write!(out, "  {statement}");
            match machine.step(&mut store, Tick(1)) {
                Ok(stepped) => {
                    if let Some(with_inbox) = stepped.effect_committed {
                        let _ = write!(out, "  => effect committed (inbox: {with_inbox})");
                    }
                    if stepped.acknowledged.is_some() {
                        let _ = write!(out, "  => acknowledged");
                    }
                    let _ = writeln!(out);
                    if stepped.progress == Progress::Ended {
                        break;
                    }
                }
                Err(error) => {
                    let _ = writeln!(out, "  => failed: {error}");
                    break;
                }
            }
        }
    }
    let tables = store.committed();
    let _ = writeln!(
        out,
        "stock: {:?}",
        tables
            .stock
            .values()
            .map(|row| (row.sku.to_string(), row.available_qty))
            .collect::<Vec<_>>()
    );
    let _ = writeln!(
        out,
        "reservations: {:?}",
        tables.reservations.values().map(|row| (row.sku.to_string(), row.qty)).collect::<Vec<_>>()
    );
    let _ = write!(out, "inbox rows: {}", tables.inbox.len());
    expect.assert_eq(&out);
}

#[test]
fn the_seeds_blocks_reserve_once_and_ignore_the_duplicate() {
    check_run(
        program(SEED).blocks,
        2,
        expect![[r#"
        delivery 1:
          BEGIN
          INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('00000000-0000-0000-0000-000000000007', 'reserve-stock', 1)
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'apple', 3) ON CONFLICT (order_id, sku) DO NOTHING
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'pear', 2) ON CONFLICT (order_id, sku) DO NOTHING
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear' AND available_qty >= 2
          COMMIT  => effect committed (inbox: true)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        delivery 2:
          BEGIN
          INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('00000000-0000-0000-0000-000000000007', 'reserve-stock', 1)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        stock: [("apple", 7), ("pear", 3)]
        reservations: [("apple", 3), ("pear", 2)]
        inbox rows: 1"#]],
    );
}

#[test]
fn the_naive_blocks_take_stock_on_every_delivery() {
    check_run(
        program(NAIVE).blocks,
        2,
        expect![[r#"
        delivery 1:
          BEGIN
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple'
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'apple', 3) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear'
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'pear', 2) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
          COMMIT  => effect committed (inbox: false)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        delivery 2:
          BEGIN
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple'
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'apple', 3) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear'
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'pear', 2) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
          COMMIT  => effect committed (inbox: false)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        stock: [("apple", 4), ("pear", 1)]
        reservations: [("apple", 6), ("pear", 4)]
        inbox rows: 0"#]],
    );
}

#[test]
fn the_check_blocks_read_without_writing() {
    let blocks = vec![
        Block::Begin,
        Block::SelectInbox,
        Block::ForEachLine,
        Block::SelectReservation,
        Block::InsertReservation { on_conflict: ReservationConflict::Error },
        Block::NextLine,
        Block::Rollback,
        Block::Ack,
    ];
    check_run(
        blocks,
        1,
        expect![[r#"
        delivery 1:
          BEGIN
          SELECT 1 FROM inbox WHERE message_id = '00000000-0000-0000-0000-000000000007' AND consumer = 'reserve-stock'
          SELECT qty FROM reservations WHERE order_id = '00000000-0000-0000-0000-000000000001' AND sku = 'apple'
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'apple', 3)
          SELECT qty FROM reservations WHERE order_id = '00000000-0000-0000-0000-000000000001' AND sku = 'pear'
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'pear', 2)
          ROLLBACK
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        stock: [("apple", 10), ("pear", 5)]
        reservations: []
        inbox rows: 0"#]],
    );
}

#[test]
fn a_plain_inserts_unique_violation_aborts_the_transaction() {
    let blocks = vec![
        Block::Begin,
        Block::ForEachLine,
        Block::InsertReservation { on_conflict: ReservationConflict::Error },
        Block::TakeStock { guard: StockGuard::AvailableQty },
        Block::NextLine,
        Block::Commit,
        Block::Ack,
    ];
    check_run(
        blocks,
        2,
        expect![[r#"
        delivery 1:
          BEGIN
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'apple', 3)
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'pear', 2)
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear' AND available_qty >= 2
          COMMIT  => effect committed (inbox: false)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        delivery 2:
          BEGIN
          INSERT INTO reservations (order_id, sku, qty) VALUES ('00000000-0000-0000-0000-000000000001', 'apple', 3)
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3  => failed: block 3: current transaction is aborted, commands ignored until end of transaction block
        stock: [("apple", 7), ("pear", 3)]
        reservations: [("apple", 3), ("pear", 2)]
        inbox rows: 0"#]],
    );
}

#[test]
fn the_guarded_decrement_refuses_more_than_is_available() {
    let blocks = vec![
        Block::Begin,
        Block::ForEachLine,
        Block::TakeStock { guard: StockGuard::AvailableQty },
        Block::NextLine,
        Block::Commit,
        Block::Ack,
    ];
    check_run(
        blocks,
        3,
        expect![[r#"
        delivery 1:
          BEGIN
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear' AND available_qty >= 2
          COMMIT  => effect committed (inbox: false)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        delivery 2:
          BEGIN
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear' AND available_qty >= 2
          COMMIT  => effect committed (inbox: false)
          ACK 00000000-0000-0000-0000-000000000007  => acknowledged
        delivery 3:
          BEGIN
          UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
          UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear' AND available_qty >= 2  => failed: block 2: sku pear: 2 requested, only 1 available
        stock: [("apple", 4), ("pear", 1)]
        reservations: []
        inbox rows: 0"#]],
    );
}

fn error_line(text: &str) -> String {
    match HandlerProgram::from_json(text) {
        Ok(program) => format!("accepted: {program:?}"),
        Err(error) => format!("{error} [block {:?}]", error.block_index()),
    }
}

/// A program of these blocks (JSON objects, comma-separated).
fn with_blocks(blocks: &str) -> String {
    format!(r#"{{"format_version": 1, "handler": "reserve_stock_consumer", "blocks": [{blocks}]}}"#)
}

#[test]
fn every_mistake_is_its_own_error_naming_the_block() {
    let begin = r#"{"block": "begin"}"#;
    let commit = r#"{"block": "commit"}"#;
    let ack = r#"{"block": "ack"}"#;
    let inbox = r#"{"block": "insert_inbox", "on_conflict": "do_nothing"}"#;
    let take = r#"{"block": "take_stock", "guard": "none"}"#;
    let each = r#"{"block": "for_each_line"}"#;
    let next = r#"{"block": "next_line"}"#;
    let skip = |kind: &str, label: &str| format!(r#"{{"block": "{kind}", "label": "{label}"}}"#);
    let label = |name: &str| format!(r#"{{"block": "label", "name": "{name}"}}"#);
    let cases: Vec<String> = vec![
        INVALID.to_owned(),
        with_blocks(""),
        with_blocks(&vec![ack; BLOCKS_MAX + 1].join(",")),
        with_blocks(&format!("{ack},{}", label("Ack!"))),
        with_blocks(&format!("{},{ack},{}", label("a"), label("a"))),
        with_blocks(&format!(
            "{begin},{inbox},{},{commit},{ack}",
            skip("if_no_rows_skip_to", "nowhere")
        )),
        with_blocks(&format!(
            "{},{begin},{inbox},{},{commit},{ack}",
            label("top"),
            skip("if_rows_skip_to", "top")
        )),
        with_blocks(&format!(
            "{begin},{inbox},{},{each},{},{take},{next},{commit},{ack}",
            skip("if_rows_skip_to", "in"),
            label("in")
        )),
        with_blocks(&format!("{begin},{each},{each},{take},{next},{next},{commit},{ack}")),
        with_blocks(&format!("{begin},{next},{commit},{ack}")),
        with_blocks(&format!("{begin},{each},{take},{commit},{ack}")),
        with_blocks(&format!("{begin},{take},{commit},{ack}")),
        with_blocks(&format!("{begin},{commit}")),
        with_blocks(&format!("{begin},{commit},{ack},{ack}")),
        with_blocks(&format!("{begin},{each},{take},{ack},{next},{commit}")),
        with_blocks(&format!(
            "{begin},{},{commit},{},{ack}",
            skip("if_no_rows_skip_to", "end"),
            label("end")
        )),
        with_blocks(&format!("{begin},{begin},{commit},{ack}")),
        with_blocks(&format!("{inbox},{ack}")),
        with_blocks(&format!(r#"{begin},{{"block": "rollback"}},{{"block": "rollback"}},{ack}"#)),
        with_blocks(&format!("{begin},{ack}")),
        with_blocks(&format!(
            r#"{begin},{{"block": "insert_inbox", "on_conflict": "error"}},{},{},{commit},{ack}"#,
            skip("if_no_rows_skip_to", "end"),
            label("end")
        )),
        with_blocks(r#"{"block": "ack", "when": "now"}"#),
        with_blocks(r#"{"block": "take_stock", "guard": "sometimes"}"#),
        with_blocks(r#"{"block": "acknowledge"}"#),
        INVALID.replace("\"format_version\": 1", "\"format_version\": 3"),
        "[1, 2]".to_owned(),
        "x".repeat(PROGRAM_JSON_BYTES_MAX + 1),
    ];
    let errors: Vec<String> = cases.iter().map(|text| error_line(text)).collect();
    expect![[r#"
        block 5: commit without BEGIN [block Some(5)]
        the program has no blocks [block None]
        the program has 65 blocks; the most is 64 [block None]
        block 1: the label `Ack!` must be 1 to 32 of a-z, 0-9, _ and - [block Some(1)]
        block 2: the label `a` is already at block 0 [block Some(2)]
        block 2: no label `nowhere` to skip to [block Some(2)]
        block 3: the label `top` is above the skip (block 0); skips go forward [block Some(3)]
        block 2: the label `in` is inside a loop over the lines the skip is not in [block Some(2)]
        block 2: a loop over the lines inside another one [block Some(2)]
        block 1: next_line without for_each_line before it [block Some(1)]
        block 1: for_each_line without next_line after it [block Some(1)]
        block 1: take_stock is about one order line and must be inside for_each_line [block Some(1)]
        the program never acknowledges the message (no ack block) [block None]
        block 3: a second ack (the first is block 2) [block Some(3)]
        block 3: ack inside the loop over the lines [block Some(3)]
        block 1: the skip has no row count to read (put it right after an INSERT, SELECT or UPDATE) [block Some(1)]
        block 1: BEGIN while a transaction is already open [block Some(1)]
        block 0: insert_inbox runs with no transaction open (BEGIN first) [block Some(0)]
        block 2: rollback without BEGIN [block Some(2)]
        the program can end with a transaction open (opened at block 0) [block Some(0)]
        block 4: commit without BEGIN [block Some(4)]
        block 0: ack has no field `when` [block Some(0)]
        JSON line 1, column 116, at `blocks[0]`: unknown variant `sometimes`, expected `none` or `available_qty` [block None]
        JSON line 1, column 93, at `blocks[0].block`: unknown variant `acknowledge`, expected one of `begin`, `insert_inbox`, `select_inbox`, `for_each_line`, `select_reservation`, `insert_reservation`, `take_stock`, `next_line`, `if_no_rows_skip_to`, `if_rows_skip_to`, `label`, `update_order_paid`, `select_order`, `insert_charge`, `if_not_placed_skip_to`, `if_paid_by_this_payment_skip_to`, `answer_paid`, `refuse`, `commit`, `rollback`, `ack` [block None]
        program format_version 3 is not supported (this build reads 2) [block None]
        JSON line 1, column 5, at `[1]`: expected value [block None]
        the program is 65537 bytes long; the most is 65536 [block None]"#]].assert_eq(&errors.join("\n"));
}

#[test]
fn the_builtins_and_examples_validate_and_write_back_as_they_read() {
    for inbox in [
        crate::inbox::ConsumerImplementation::Naive,
        crate::inbox::ConsumerImplementation::Idempotent,
    ] {
        for stock in [
            crate::stock::StockImplementation::Naive,
            crate::stock::StockImplementation::Idempotent,
        ] {
            let builtin = builtin_consumer(inbox, stock);
            assert_eq!(HandlerProgram::from_json(&builtin.to_json()).unwrap(), builtin);
        }
    }
    for text in
        [SEED, DO_NOTHING, NAIVE, ACK_BEFORE_COMMIT, INBOX_OWN_TRANSACTION, CHECK_THEN_INSERT]
    {
        let read = program(text);
        assert_eq!(program(&read.to_json()), read);
    }
    assert_eq!(
        program(SEED),
        builtin_consumer(
            crate::inbox::ConsumerImplementation::Idempotent,
            crate::stock::StockImplementation::Idempotent
        )
    );
}

#[test]
fn each_typical_wrong_answer_is_named_and_told_why_in_both_languages() {
    let mut lines = Vec::new();
    for text in [SEED, NAIVE, ACK_BEFORE_COMMIT, INBOX_OWN_TRANSACTION, CHECK_THEN_INSERT] {
        let program = program(text);
        lines.push(format!("{:?}", diagnose(&program)));
        let english = crate::check::judge::why_in(&program, crate::words::Language::En);
        lines.push(format!("  {english}"));
        // The Russian is the catalogue's entry of the same name (no Russian outside it).
        let russian = crate::check::judge::why_in(&program, crate::words::Language::Ru);
        let name = |language: crate::words::Language, text: &'static str| -> Option<&'static str> {
            let entries = language.words().entries();
            entries
                .iter()
                .find(|(_, entry)| *entry == crate::words::Entry::Text(text))
                .map(|(name, _)| *name)
        };
        assert_eq!(
            name(crate::words::Language::Ru, russian),
            name(crate::words::Language::En, english)
        );
        assert_ne!(russian, english);
    }
    expect![[r#"
        None
          Why: the schedule above is the shortest one that breaks the invariant; follow its statements in the diagram.
        Some(NoInbox)
          Why: nothing remembers that the message was processed, so a duplicate or a redelivery after a crash applies the effect again.
        Some(AckBeforeCommit)
          Why: the ACK runs before the COMMIT, so a crash in between rolls the effect back after the broker has forgotten the message, and nothing redelivers it.
        Some(InboxInOwnTransaction)
          Why: the inbox row commits in a transaction of its own, so for a moment (and forever, if the consumer crashes then) the inbox says the message was processed while its effect is not there.
        Some(CheckThenInsert)
          Why: a SELECT that finds no row proves nothing under concurrency: two instances both read 0 rows before either commits, and both apply the effect. Only the unique key's INSERT decides atomically."#]].assert_eq(&lines.join("\n"));
}

/// Mutated programs (bytes replaced, text cut, block names and parameters swapped) never make
/// the reader, the validator or a run of the simulator panic; whatever reads is valid.
#[test]
fn mutated_programs_are_refused_or_run_never_panic() {
    use crate::rng::DeterministicRng;
    const TOKENS: [&str; 12] = [
        "\"begin\"",
        "\"commit\"",
        "\"ack\"",
        "\"rollback\"",
        "\"next_line\"",
        "\"for_each_line\"",
        "\"error\"",
        "\"do_nothing\"",
        "\"none\"",
        "\"add_qty\"",
        "\"ack\"",
        "\"next\"",
    ];
    let examples =
        [SEED, DO_NOTHING, NAIVE, ACK_BEFORE_COMMIT, INBOX_OWN_TRANSACTION, CHECK_THEN_INSERT];
    let lesson = build_lesson();
    let mut rng = DeterministicRng::from_seed(38);
    let (mut read, mut refused) = (0, 0);
    for case in 0..600u64 {
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
                _ if text.lines().count() >= 2 => {
                    // Swap two block lines: reorders the program.
                    let mut lines: Vec<&str> = text.lines().collect();
                    let (a, b) = (rng.below(lines.len() as u64), rng.below(lines.len() as u64));
                    lines.swap(a as usize, b as usize);
                    text = lines.join("\n");
                }
                _ => {}
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

#[test]
fn an_editor_indents_the_blocks_inside_the_loop_and_nothing_else() {
    use crate::program::{Block, loop_depths};
    let seed = program(include_str!("../../../examples/programs/consumer-seed.json"));
    let depths = loop_depths(&seed.blocks);
    let shown: Vec<(String, usize)> = seed
        .blocks
        .iter()
        .zip(&depths)
        .map(|(block, depth)| (block.head_in(crate::words::Language::En), *depth))
        .collect();
    let inside: Vec<&str> =
        shown.iter().filter(|(_, depth)| *depth == 1).map(|(text, _)| text.as_str()).collect();
    assert!(!inside.is_empty(), "{shown:?}");
    // The loop's own blocks stand at the loop's level; what they enclose is one deeper.
    for (block, depth) in seed.blocks.iter().zip(&depths) {
        if matches!(block, Block::ForEachLine | Block::NextLine) {
            assert_eq!(*depth, 0, "{shown:?}");
        }
    }
    let first = seed.blocks.iter().position(|block| *block == Block::ForEachLine).unwrap();
    let last = seed.blocks.iter().position(|block| *block == Block::NextLine).unwrap();
    assert!(depths[first + 1..last].iter().all(|depth| *depth == 1), "{shown:?}");
    assert!(depths[..first].iter().chain(&depths[last..]).all(|depth| *depth == 0), "{shown:?}");
    // A draft that does not validate still shows: a stray next_line, a loop left open, a loop
    // inside a loop.
    let draft = [Block::NextLine, Block::ForEachLine, Block::ForEachLine, Block::Commit];
    assert_eq!(loop_depths(&draft), [0, 0, 1, 2]);
}
