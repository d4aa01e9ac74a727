//! Tests of P1: the naive decrement takes stock twice on a duplicate, the idempotent ledger
//! does not; insufficient stock changes nothing; release happens once; a statement that waits
//! for a row lock changes nothing; and, by proptest, the ledger keeps stock conserved under any
//! sequence or interleaving of deliveries (with duplicates) and cancellations.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use expect_test::{Expect, expect};
use proptest::prelude::*;
use uuid::Uuid;

use super::*;
use crate::ids::Tick;
use crate::step::{EffectSteps, InTransaction, Steps, run_to_completion};
use crate::store::{StockRow, Store, StoreConfig, TableName};

fn sku(name: &str) -> Sku {
    Sku::new(name)
}

fn order(number: u128) -> OrderId {
    OrderId(Uuid::from_u128(number))
}

fn line(name: &str, qty: u32) -> OrderLine {
    OrderLine { sku: sku(name), qty }
}

fn store_with(stock: &[(&str, i64)]) -> Store {
    Store::with_stock(StoreConfig::default(), stock.iter().map(|(name, qty)| (sku(name), *qty)))
}

/// `order-N` for the order made by [`order`]`(N)`.
fn order_label(order_id: OrderId) -> String {
    format!("order-{}", order_id.0.as_u128())
}

/// The committed `stock` and `reservations` tables, one row a line.
fn render_tables(store: &Store) -> String {
    let mut text = String::new();
    for row in store.committed().stock.values() {
        let _ = writeln!(
            text,
            "stock {}: on_hand={} available={}",
            row.sku, row.on_hand_qty, row.available_qty
        );
    }
    for row in store.committed().reservations.values() {
        let _ = writeln!(
            text,
            "reservation {} {}: qty={}",
            order_label(row.order_id),
            row.sku,
            row.qty
        );
    }
    text
}

/// Invariant I1 and I2 as the lab states them, over the committed tables: per sku
/// `on_hand = available + sum(reservations)` and `available >= 0`; per (order, sku) a
/// reservation of at most the order line's quantity.
fn stock_violations(store: &Store, orders: &BTreeMap<OrderId, Vec<OrderLine>>) -> Vec<String> {
    let tables = store.committed();
    let mut violations = Vec::new();
    let mut reserved_per_sku: BTreeMap<&Sku, i64> = BTreeMap::new();
    for row in tables.reservations.values() {
        *reserved_per_sku.entry(&row.sku).or_insert(0) += row.qty;
        let line_qty = orders
            .get(&row.order_id)
            .and_then(|lines| lines.iter().find(|line| line.sku == row.sku))
            .map_or(0, |line| i64::from(line.qty));
        if row.qty > line_qty {
            violations.push(format!(
                "I2: {} holds {} of {}, its line orders {}",
                order_label(row.order_id),
                row.qty,
                row.sku,
                line_qty
            ));
        }
    }
    for row in tables.stock.values() {
        let reserved = reserved_per_sku.get(&row.sku).copied().unwrap_or(0);
        if row.on_hand_qty != row.available_qty + reserved {
            violations.push(format!(
                "I1: {} on hand {} != available {} + reserved {}",
                row.sku, row.on_hand_qty, row.available_qty, reserved
            ));
        }
        if row.available_qty < 0 {
            violations.push(format!("I1: {} available {} < 0", row.sku, row.available_qty));
        }
    }
    violations
}

/// A failed handler leaves the committed tables as they were and no transaction open (only the
/// store's transaction counter moves on).
fn assert_unchanged(store: &Store, before: &Store, what: &str) {
    assert_eq!(store.committed(), before.committed(), "a failed {what} changed the store");
    assert_eq!(store.open_transactions().count(), 0, "a failed {what} left a transaction open");
}

/// One operation of a [`check`] script.
#[derive(Clone, Debug)]
enum Operation {
    /// Deliver `OrderPlaced` for the order: reserve its lines.
    Reserve(u128, Vec<OrderLine>),
    /// Cancel the order: release its stock (the lines are for the naive twin).
    Release(u128, Vec<OrderLine>),
}

/// Runs `operations` one after another with `implementation` over a store holding `stock`, and
/// compares the outcome of each, the final tables and the invariant violations with `expect`.
/// Also asserts that an operation that fails leaves the store exactly as it found it.
fn check(
    implementation: StockImplementation,
    stock: &[(&str, i64)],
    operations: &[Operation],
    expect: Expect,
) {
    let mut store = store_with(stock);
    let mut orders = BTreeMap::new();
    let mut text = String::new();
    for operation in operations {
        let before = store.clone();
        let outcome = match operation {
            Operation::Reserve(number, lines) => {
                orders.insert(order(*number), lines.clone());
                let command = ReserveStock { order_id: order(*number), lines: lines.clone() };
                format!("{:?}", reserve_stock(&mut store, Tick(0), command, implementation))
            }
            Operation::Release(number, lines) => {
                let command = ReleaseStock { order_id: order(*number), lines: lines.clone() };
                format!("{:?}", release_stock(&mut store, Tick(0), command, implementation))
            }
        };
        if outcome.starts_with("Err") {
            assert_unchanged(&store, &before, &format!("{operation:?}"));
        }
        let outcome = outcome.replace(&Uuid::from_u128(1).to_string(), "order-1");
        let outcome = outcome.replace(&Uuid::from_u128(2).to_string(), "order-2");
        let _ = writeln!(text, "{operation:?} -> {outcome}");
    }
    text.push_str("--\n");
    text.push_str(&render_tables(&store));
    for violation in stock_violations(&store, &orders) {
        let _ = writeln!(text, "VIOLATION {violation}");
    }
    expect.assert_eq(&text);
}

#[test]
fn naive_decrement_takes_stock_twice_on_a_duplicate_delivery() {
    check(
        StockImplementation::Naive,
        &[("apple", 10)],
        &[
            Operation::Reserve(1, vec![line("apple", 3)]),
            Operation::Reserve(1, vec![line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            --
            stock apple: on_hand=10 available=4
            reservation order-1 apple: qty=6
            VIOLATION I2: order-1 holds 6 of apple, its line orders 3
        "#]],
    );
}

#[test]
fn idempotent_ledger_ignores_a_duplicate_delivery() {
    check(
        StockImplementation::Idempotent,
        &[("apple", 10)],
        &[
            Operation::Reserve(1, vec![line("apple", 3)]),
            Operation::Reserve(1, vec![line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(ReservationAlreadyPresent { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            --
            stock apple: on_hand=10 available=7
            reservation order-1 apple: qty=3
        "#]],
    );
}

#[test]
fn naive_decrement_can_take_available_below_zero() {
    check(
        StockImplementation::Naive,
        &[("apple", 5)],
        &[
            Operation::Reserve(1, vec![line("apple", 3)]),
            Operation::Reserve(1, vec![line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            --
            stock apple: on_hand=5 available=-1
            reservation order-1 apple: qty=6
            VIOLATION I2: order-1 holds 6 of apple, its line orders 3
            VIOLATION I1: apple available -1 < 0
        "#]],
    );
}

#[test]
fn insufficient_stock_is_a_typed_error_and_no_line_stays_reserved() {
    // The apple line (first in sku order) is reserved before the pear line fails: the rollback
    // takes it back, so the order holds nothing.
    check(
        StockImplementation::Idempotent,
        &[("apple", 10), ("pear", 5)],
        &[
            Operation::Reserve(1, vec![line("pear", 20), line("apple", 3)]),
            Operation::Reserve(2, vec![line("pear", 5)]),
            Operation::Reserve(1, vec![line("pear", 1), line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("pear"), qty: 20 }, OrderLine { sku: Sku("apple"), qty: 3 }]) -> Err(Failed(InsufficientStock { sku: Sku("pear"), requested: 20, available: 5 }))
            Reserve(2, [OrderLine { sku: Sku("pear"), qty: 5 }]) -> Ok(StockReserved { order_id: OrderId(order-2), lines: [OrderLine { sku: Sku("pear"), qty: 5 }] })
            Reserve(1, [OrderLine { sku: Sku("pear"), qty: 1 }, OrderLine { sku: Sku("apple"), qty: 3 }]) -> Err(Failed(InsufficientStock { sku: Sku("pear"), requested: 1, available: 0 }))
            --
            stock apple: on_hand=10 available=10
            stock pear: on_hand=5 available=0
            reservation order-2 pear: qty=5
        "#]],
    );
}

#[test]
fn unknown_skus_and_bad_lines_are_typed_errors_in_both_versions() {
    for implementation in [StockImplementation::Naive, StockImplementation::Idempotent] {
        check(
            implementation,
            &[("apple", 10)],
            &[
                Operation::Reserve(1, vec![line("apple", 1), line("kiwi", 1)]),
                Operation::Reserve(1, vec![]),
                Operation::Reserve(1, vec![line("apple", 0)]),
                Operation::Reserve(1, vec![line("apple", 1), line("apple", 2)]),
            ],
            expect![[r#"
                Reserve(1, [OrderLine { sku: Sku("apple"), qty: 1 }, OrderLine { sku: Sku("kiwi"), qty: 1 }]) -> Err(Failed(UnknownSku { sku: Sku("kiwi") }))
                Reserve(1, []) -> Err(Failed(InvalidLines { order_id: OrderId(order-1), error: NoLines }))
                Reserve(1, [OrderLine { sku: Sku("apple"), qty: 0 }]) -> Err(Failed(InvalidLines { order_id: OrderId(order-1), error: ZeroQuantity { line_index: 0, sku: Sku("apple") } }))
                Reserve(1, [OrderLine { sku: Sku("apple"), qty: 1 }, OrderLine { sku: Sku("apple"), qty: 2 }]) -> Err(Failed(InvalidLines { order_id: OrderId(order-1), error: DuplicateSku { sku: Sku("apple"), first_line_index: 0, second_line_index: 1 } }))
                --
                stock apple: on_hand=10 available=10
            "#]],
        );
    }
}

#[test]
fn idempotent_ledger_reserves_only_the_lines_not_yet_reserved() {
    check(
        StockImplementation::Idempotent,
        &[("apple", 10), ("pear", 10)],
        &[
            Operation::Reserve(1, vec![line("apple", 3)]),
            Operation::Reserve(1, vec![line("pear", 2), line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            Reserve(1, [OrderLine { sku: Sku("pear"), qty: 2 }, OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockPartlyReserved { order_id: OrderId(order-1), reserved_lines: [OrderLine { sku: Sku("pear"), qty: 2 }], already_present_lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            --
            stock apple: on_hand=10 available=7
            stock pear: on_hand=10 available=8
            reservation order-1 apple: qty=3
            reservation order-1 pear: qty=2
        "#]],
    );
}

#[test]
fn idempotent_release_gives_stock_back_exactly_once() {
    let lines = vec![line("apple", 3), line("pear", 2)];
    check(
        StockImplementation::Idempotent,
        &[("apple", 10), ("pear", 10)],
        &[
            Operation::Reserve(1, lines.clone()),
            Operation::Reserve(2, vec![line("apple", 1)]),
            Operation::Release(1, lines.clone()),
            Operation::Release(1, lines.clone()),
            // The idempotent release needs no lines: it releases what the rows hold.
            Operation::Release(2, vec![]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }, OrderLine { sku: Sku("pear"), qty: 2 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }, OrderLine { sku: Sku("pear"), qty: 2 }] })
            Reserve(2, [OrderLine { sku: Sku("apple"), qty: 1 }]) -> Ok(StockReserved { order_id: OrderId(order-2), lines: [OrderLine { sku: Sku("apple"), qty: 1 }] })
            Release(1, [OrderLine { sku: Sku("apple"), qty: 3 }, OrderLine { sku: Sku("pear"), qty: 2 }]) -> Ok(StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }, ReleasedStock { sku: Sku("pear"), qty: 2 }] })
            Release(1, [OrderLine { sku: Sku("apple"), qty: 3 }, OrderLine { sku: Sku("pear"), qty: 2 }]) -> Ok(NothingToRelease { order_id: OrderId(order-1) })
            Release(2, []) -> Ok(StockReleased { order_id: OrderId(order-2), released: [ReleasedStock { sku: Sku("apple"), qty: 1 }] })
            --
            stock apple: on_hand=10 available=10
            stock pear: on_hand=10 available=10
        "#]],
    );
}

#[test]
fn naive_release_gives_stock_back_on_every_cancellation() {
    check(
        StockImplementation::Naive,
        &[("apple", 10)],
        &[
            Operation::Reserve(1, vec![line("apple", 3)]),
            Operation::Release(1, vec![line("apple", 3)]),
            Operation::Release(1, vec![line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            Release(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }] })
            Release(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }] })
            --
            stock apple: on_hand=10 available=13
            VIOLATION I1: apple on hand 10 != available 13 + reserved 0
        "#]],
    );
}

#[test]
fn a_duplicate_after_the_release_reserves_again_which_only_the_inbox_can_stop() {
    // P1 alone forgets a released reservation: a late duplicate `OrderPlaced` (after the inbox
    // retention window, F10) reserves the cancelled order's stock again. Stock stays conserved,
    // but a cancelled order now holds stock; within the window P4's inbox row stops it.
    check(
        StockImplementation::Idempotent,
        &[("apple", 10)],
        &[
            Operation::Reserve(1, vec![line("apple", 3)]),
            Operation::Release(1, vec![]),
            Operation::Reserve(1, vec![line("apple", 3)]),
        ],
        expect![[r#"
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            Release(1, []) -> Ok(StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }] })
            Reserve(1, [OrderLine { sku: Sku("apple"), qty: 3 }]) -> Ok(StockReserved { order_id: OrderId(order-1), lines: [OrderLine { sku: Sku("apple"), qty: 3 }] })
            --
            stock apple: on_hand=10 available=7
            reservation order-1 apple: qty=3
        "#]],
    );
}

/// The statements a handler runs, one per step, until it is done.
fn statements_of<S: Steps<Error: std::fmt::Display>>(handler: &mut S, store: &mut Store) -> String {
    let mut text = String::new();
    while let Some(statement) = handler.next_statement(Tick(0)) {
        let statement = statement.replace(&Uuid::from_u128(1).to_string(), "order-1");
        match handler.step(store, Tick(0)) {
            Ok(Step::Continue) => {
                let _ = writeln!(text, "{statement}");
            }
            Ok(Step::Done(_)) => {
                let _ = writeln!(text, "{statement}  => done");
            }
            Ok(Step::Blocked(wait)) => panic!("blocked alone: {wait}"),
            Err(error) => {
                let _ = writeln!(text, "{statement}  => error: {error}");
                break;
            }
        }
    }
    text
}

#[test]
fn each_step_runs_one_statement_in_sku_order() {
    let mut store = store_with(&[("apple", 10), ("pear", 10)]);
    let lines = vec![line("pear", 2), line("apple", 3)];
    let command = ReserveStock { order_id: order(1), lines: lines.clone() };

    let mut naive =
        ReserveStockEffect::in_own_transaction(command.clone(), StockImplementation::Naive)
            .unwrap();
    expect![[r#"
        BEGIN
        UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple'
        INSERT INTO reservations (order_id, sku, qty) VALUES ('order-1', 'apple', 3) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
        UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear'
        INSERT INTO reservations (order_id, sku, qty) VALUES ('order-1', 'pear', 2) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut naive, &mut store));

    let mut store = store_with(&[("apple", 10), ("pear", 10)]);
    let mut idempotent =
        ReserveStockEffect::in_own_transaction(command.clone(), StockImplementation::Idempotent)
            .unwrap();
    expect![[r#"
        BEGIN
        INSERT INTO reservations (order_id, sku, qty) VALUES ('order-1', 'apple', 3) ON CONFLICT (order_id, sku) DO NOTHING
        UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
        INSERT INTO reservations (order_id, sku, qty) VALUES ('order-1', 'pear', 2) ON CONFLICT (order_id, sku) DO NOTHING
        UPDATE stock SET available_qty = available_qty - 2 WHERE sku = 'pear' AND available_qty >= 2
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut idempotent, &mut store));

    // The duplicate: each insert finds its row, so no stock statement runs.
    let mut duplicate =
        ReserveStockEffect::in_own_transaction(command, StockImplementation::Idempotent).unwrap();
    expect![[r#"
        BEGIN
        INSERT INTO reservations (order_id, sku, qty) VALUES ('order-1', 'apple', 3) ON CONFLICT (order_id, sku) DO NOTHING
        INSERT INTO reservations (order_id, sku, qty) VALUES ('order-1', 'pear', 2) ON CONFLICT (order_id, sku) DO NOTHING
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut duplicate, &mut store));

    let mut release = ReleaseStockEffect::in_own_transaction(
        ReleaseStock { order_id: order(1), lines },
        StockImplementation::Idempotent,
    );
    expect![[r#"
        BEGIN
        SELECT sku, qty FROM reservations WHERE order_id = 'order-1' ORDER BY sku
        DELETE FROM reservations WHERE order_id = 'order-1' AND sku = 'apple' RETURNING qty
        UPDATE stock SET available_qty = available_qty + 3 WHERE sku = 'apple'
        DELETE FROM reservations WHERE order_id = 'order-1' AND sku = 'pear' RETURNING qty
        UPDATE stock SET available_qty = available_qty + 2 WHERE sku = 'pear'
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut release, &mut store));
    assert_eq!(
        render_tables(&store),
        "stock apple: on_hand=10 available=10\nstock pear: on_hand=10 available=10\n"
    );
}

#[test]
fn the_effect_leaves_the_callers_transaction_open_and_its_rollback_undoes_everything() {
    let mut store = store_with(&[("apple", 10)]);
    let tx = store.begin().unwrap();
    let mut effect = ReserveStockEffect::new(
        ReserveStock { order_id: order(1), lines: vec![line("apple", 3)] },
        StockImplementation::Idempotent,
    )
    .unwrap();
    assert_eq!(effect.step(&mut store, tx, Tick(0)).unwrap(), Step::Continue);
    let done = effect.step(&mut store, tx, Tick(0)).unwrap();
    assert_eq!(
        done,
        Step::Done(StockReservationEvent::StockReserved {
            order_id: order(1),
            lines: vec![line("apple", 3)]
        })
    );
    assert!(store.is_open(tx));
    assert_eq!(effect.next_statement(Tick(0)), None);
    assert_eq!(effect.step(&mut store, tx, Tick(0)), Err(StockError::EffectAlreadyDone));
    // Inside the transaction the effect is visible; outside it is not, and a rollback (a crash
    // of the consumer before commit) leaves no trace.
    let in_tx = store.get::<StockRow>(tx, &sku("apple")).unwrap().unwrap();
    assert_eq!(in_tx.available_qty, 7);
    assert_eq!(store.committed().stock[&sku("apple")].available_qty, 10);
    store.rollback(tx).unwrap();
    assert_eq!(render_tables(&store), "stock apple: on_hand=10 available=10\n");
}

#[test]
fn a_statement_on_a_stock_row_held_by_another_transaction_is_blocked_and_changes_nothing() {
    for implementation in [StockImplementation::Naive, StockImplementation::Idempotent] {
        let mut store = store_with(&[("apple", 10)]);
        // Another transaction holds the apple row (say, another order's reservation).
        let holder = store.begin().unwrap();
        store
            .update::<StockRow>(holder, &sku("apple"), |row| row.available_qty -= 1)
            .unwrap()
            .unwrap();

        let mut handler = ReserveStockEffect::in_own_transaction(
            ReserveStock { order_id: order(1), lines: vec![line("apple", 3)] },
            implementation,
        )
        .unwrap();
        assert_eq!(handler.step(&mut store, Tick(0)).unwrap(), Step::Continue); // BEGIN
        let own_tx = handler.open_transaction().unwrap();
        if implementation == StockImplementation::Idempotent {
            // The reservation insert touches no stock row: it runs.
            assert_eq!(handler.step(&mut store, Tick(0)).unwrap(), Step::Continue);
        }

        let store_before = store.clone();
        let handler_before = handler.clone();
        let statement = handler.next_statement(Tick(0)).unwrap();
        assert!(statement.starts_with("UPDATE stock"), "{statement}");
        let Step::Blocked(wait) = handler.step(&mut store, Tick(0)).unwrap() else {
            panic!("expected the stock update to wait for {holder}");
        };
        assert_eq!((wait.tx, wait.holder, wait.table), (own_tx, holder, TableName::Stock));
        assert_eq!(store, store_before, "a blocked step changed the store");
        assert_eq!(handler, handler_before, "a blocked step moved the handler");
        // Blocked again while the holder is open: still nothing changes.
        assert!(matches!(handler.step(&mut store, Tick(0)).unwrap(), Step::Blocked(_)));
        assert_eq!(store, store_before);

        // Once the holder commits, the same statement runs against its committed value.
        store.commit(holder).unwrap();
        let event = run_to_completion(&mut handler, &mut store, Tick(0)).unwrap();
        assert_eq!(
            event,
            StockReservationEvent::StockReserved {
                order_id: order(1),
                lines: vec![line("apple", 3)]
            }
        );
        assert_eq!(
            render_tables(&store),
            "stock apple: on_hand=10 available=6\nreservation order-1 apple: qty=3\n"
        );
    }
}

/// Runs two handlers for the same command, alternating one step each (a blocked one retries on
/// its next turn), as two consumer instances given the same message at once (F4).
fn race<S: Steps + Clone>(handler: S, store: &mut Store) -> Vec<Result<S::Output, S::Error>> {
    let mut handlers = [handler.clone(), handler];
    let mut outcomes: [Option<Result<S::Output, S::Error>>; 2] = [None, None];
    for _ in 0..100 {
        for (index, handler) in handlers.iter_mut().enumerate() {
            if outcomes[index].is_some() {
                continue;
            }
            match handler.step(store, Tick(0)) {
                Ok(Step::Continue | Step::Blocked(_)) => {}
                Ok(Step::Done(output)) => outcomes[index] = Some(Ok(output)),
                Err(error) => outcomes[index] = Some(Err(error)),
            }
        }
    }
    outcomes.into_iter().map(|outcome| outcome.unwrap()).collect()
}

#[test]
fn two_instances_racing_on_one_delivery_take_stock_once_only_with_the_ledger() {
    let command = ReserveStock { order_id: order(1), lines: vec![line("apple", 3)] };

    let mut store = store_with(&[("apple", 10)]);
    let handler =
        ReserveStockEffect::in_own_transaction(command.clone(), StockImplementation::Naive)
            .unwrap();
    let outcomes = race(handler, &mut store);
    assert!(outcomes.iter().all(Result::is_ok));
    assert_eq!(
        render_tables(&store),
        "stock apple: on_hand=10 available=4\nreservation order-1 apple: qty=6\n"
    );

    let mut store = store_with(&[("apple", 10)]);
    let handler =
        ReserveStockEffect::in_own_transaction(command, StockImplementation::Idempotent).unwrap();
    let outcomes = race(handler, &mut store);
    let lines = vec![line("apple", 3)];
    assert_eq!(
        outcomes,
        vec![
            Ok(StockReservationEvent::StockReserved { order_id: order(1), lines: lines.clone() }),
            // The second insert waited for the first transaction, then found its row.
            Ok(StockReservationEvent::ReservationAlreadyPresent { order_id: order(1), lines }),
        ]
    );
    assert_eq!(
        render_tables(&store),
        "stock apple: on_hand=10 available=7\nreservation order-1 apple: qty=3\n"
    );
}

#[test]
fn two_releases_racing_give_stock_back_once() {
    let mut store = store_with(&[("apple", 10), ("pear", 10)]);
    let lines = vec![line("apple", 3), line("pear", 2)];
    reserve_stock(
        &mut store,
        Tick(0),
        ReserveStock { order_id: order(1), lines: lines.clone() },
        StockImplementation::Idempotent,
    )
    .unwrap();
    let handler = ReleaseStockEffect::in_own_transaction(
        ReleaseStock { order_id: order(1), lines },
        StockImplementation::Idempotent,
    );
    let outcomes = race(handler, &mut store);
    assert_eq!(
        outcomes,
        vec![
            Ok(StockReleaseEvent::StockReleased {
                order_id: order(1),
                released: vec![
                    ReleasedStock { sku: sku("apple"), qty: 3 },
                    ReleasedStock { sku: sku("pear"), qty: 2 },
                ],
            }),
            // Both selected the two rows; the second's deletes waited, then found them gone.
            Ok(StockReleaseEvent::NothingToRelease { order_id: order(1) }),
        ]
    );
    assert_eq!(
        render_tables(&store),
        "stock apple: on_hand=10 available=10\nstock pear: on_hand=10 available=10\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Property tests.

const SKUS: [&str; 3] = ["apple", "pear", "plum"];

/// A small shop: stock per sku, and three orders of one to three distinct skus.
#[derive(Clone, Debug)]
struct Shop {
    stock_qty: [i64; 3],
    orders: Vec<Vec<OrderLine>>,
}

fn shop_strategy() -> impl Strategy<Value = Shop> {
    let order_lines = proptest::sample::subsequence(SKUS.to_vec(), 1..=3)
        .prop_flat_map(|skus| {
            let count = skus.len();
            (Just(skus), proptest::collection::vec(1u32..=4, count))
        })
        .prop_map(|(skus, qtys)| {
            skus.into_iter().zip(qtys).map(|(name, qty)| line(name, qty)).collect::<Vec<_>>()
        });
    ([0i64..=10, 0i64..=10, 0i64..=10], proptest::collection::vec(order_lines, 3))
        .prop_map(|(stock_qty, orders)| Shop { stock_qty, orders })
}

impl Shop {
    fn store(&self) -> Store {
        Store::with_stock(
            StoreConfig::default(),
            SKUS.iter().zip(self.stock_qty).map(|(name, qty)| (sku(name), qty)),
        )
    }

    fn order_lines(&self) -> BTreeMap<OrderId, Vec<OrderLine>> {
        self.orders
            .iter()
            .enumerate()
            .map(|(index, lines)| (order_number(index), lines.clone()))
            .collect()
    }

    fn reserve(
        &self,
        index: usize,
        implementation: StockImplementation,
    ) -> InTransaction<ReserveStockEffect> {
        let lines = self.orders.get(index).cloned().unwrap_or_default();
        let command = ReserveStock { order_id: order_number(index), lines };
        ReserveStockEffect::in_own_transaction(command, implementation).unwrap()
    }

    fn release(
        &self,
        index: usize,
        implementation: StockImplementation,
    ) -> InTransaction<ReleaseStockEffect> {
        let lines = self.orders.get(index).cloned().unwrap_or_default();
        ReleaseStockEffect::in_own_transaction(
            ReleaseStock { order_id: order_number(index), lines },
            implementation,
        )
    }
}

fn order_number(index: usize) -> OrderId {
    order(index as u128 + 1)
}

/// One delivery of `OrderPlaced` (`cancel == false`) or of a cancellation, for an order index.
#[derive(Clone, Copy, Debug)]
struct Delivery {
    order_index: usize,
    cancel: bool,
}

fn deliveries_strategy() -> impl Strategy<Value = Vec<Delivery>> {
    // Deliveries outnumber cancellations three to one, so duplicates are common.
    proptest::collection::vec(
        (0usize..3, proptest::bool::weighted(0.25))
            .prop_map(|(order_index, cancel)| Delivery { order_index, cancel }),
        1..24,
    )
}

/// Runs the deliveries one after another; returns the violations seen after each delivery
/// (with its index) that left any.
fn violations_after_each(
    shop: &Shop,
    deliveries: &[Delivery],
    implementation: StockImplementation,
) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let mut store = shop.store();
    for (index, delivery) in deliveries.iter().enumerate() {
        let before = store.clone();
        let failed = if delivery.cancel {
            let mut handler = shop.release(delivery.order_index, implementation);
            run_to_completion(&mut handler, &mut store, Tick(0)).is_err()
        } else {
            let mut handler = shop.reserve(delivery.order_index, implementation);
            run_to_completion(&mut handler, &mut store, Tick(0)).is_err()
        };
        if failed {
            assert_unchanged(&store, &before, &format!("{delivery:?}"));
        }
        let violations = stock_violations(&store, &shop.order_lines());
        if !violations.is_empty() {
            found.push((index, violations));
        }
    }
    found
}

/// A handler of either kind in flight.
#[derive(Clone, Debug)]
enum InFlight {
    Reserve(InTransaction<ReserveStockEffect>),
    Release(InTransaction<ReleaseStockEffect>),
}

impl InFlight {
    /// Steps once; `Some(is_blocked)` while it runs on, `None` once it has ended.
    fn step(&mut self, store: &mut Store) -> Option<bool> {
        let step = match self {
            InFlight::Reserve(handler) => handler.step(store, Tick(0)).map(|step| step_kind(&step)),
            InFlight::Release(handler) => handler.step(store, Tick(0)).map(|step| step_kind(&step)),
        };
        // A failure (insufficient stock) has rolled its transaction back: it has ended too.
        step.ok().flatten()
    }
}

fn step_kind<T>(step: &Step<T>) -> Option<bool> {
    match step {
        Step::Continue => Some(false),
        Step::Blocked(_) => Some(true),
        Step::Done(_) => None,
    }
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(512))]

    #[test]
    fn the_idempotent_ledger_conserves_stock_under_any_sequence_of_deliveries(
        shop in shop_strategy(),
        deliveries in deliveries_strategy(),
    ) {
        let violations = violations_after_each(&shop, &deliveries, StockImplementation::Idempotent);
        prop_assert_eq!(violations, vec![]);
    }

    #[test]
    fn the_idempotent_ledger_conserves_stock_under_any_interleaving(
        shop in shop_strategy(),
        deliveries in deliveries_strategy(),
        schedule in proptest::collection::vec(0usize..4, 0..200),
    ) {
        // Every delivery starts a handler at once; the schedule picks which in-flight handler
        // runs its next statement (a blocked one just waits), then the rest run in turn.
        let mut store = shop.store();
        let mut in_flight: Vec<InFlight> = deliveries
            .iter()
            .map(|delivery| {
                if delivery.cancel {
                    InFlight::Release(shop.release(delivery.order_index, StockImplementation::Idempotent))
                } else {
                    InFlight::Reserve(shop.reserve(delivery.order_index, StockImplementation::Idempotent))
                }
            })
            .collect();
        let mut choices = schedule.into_iter();
        let mut steps = 0;
        while !in_flight.is_empty() {
            steps += 1;
            prop_assert!(steps < 10_000, "no progress");
            let pick = choices.next().unwrap_or(0) % in_flight.len();
            // Try the picked handler first, then the others: some handler is never blocked,
            // because every effect takes its row locks in one global order.
            let mut progressed = false;
            for offset in 0..in_flight.len() {
                let index = (pick + offset) % in_flight.len();
                match in_flight[index].step(&mut store) {
                    Some(true) => continue,
                    Some(false) => {}
                    None => {
                        in_flight.remove(index);
                    }
                }
                progressed = true;
                break;
            }
            prop_assert!(progressed, "every in-flight handler is blocked: a deadlock");
            let violations = stock_violations(&store, &shop.order_lines());
            prop_assert!(violations.is_empty(), "{:?}", violations);
        }
        prop_assert_eq!(store.open_transactions().count(), 0);
    }

    #[test]
    fn the_naive_twin_breaks_on_a_duplicate_delivery(
        shop in shop_strategy(),
        order_index in 0usize..3,
    ) {
        // Plenty of stock, so only the duplicate can break anything.
        let shop = Shop { stock_qty: [100, 100, 100], ..shop };
        let duplicate = [Delivery { order_index, cancel: false }; 2];
        prop_assert_eq!(
            violations_after_each(&shop, &duplicate, StockImplementation::Idempotent),
            vec![]
        );
        let violations = violations_after_each(&shop, &duplicate, StockImplementation::Naive);
        // Caught right after the duplicate: each of the order's lines is reserved twice over.
        prop_assert_eq!(violations.len(), 1);
        prop_assert_eq!(violations[0].0, 1);
        prop_assert_eq!(violations[0].1.len(), shop.orders[order_index].len());
    }
}

#[test]
fn the_same_check_catches_the_naive_twin_on_a_duplicate_then_a_cancellation() {
    let shop = Shop {
        stock_qty: [10, 10, 10],
        orders: vec![vec![line("apple", 3)], vec![line("pear", 1)], vec![line("plum", 1)]],
    };
    let deliveries = [
        Delivery { order_index: 0, cancel: false },
        Delivery { order_index: 0, cancel: false },
        Delivery { order_index: 0, cancel: true },
    ];
    assert_eq!(violations_after_each(&shop, &deliveries, StockImplementation::Idempotent), []);
    // The duplicate reserves twice; the cancellation then deletes the reservation but gives
    // back only the line's 3: 10 - 6 + 3 = 7 available, nothing reserved, 3 apples vanished.
    expect![[r#"
        [
            (
                1,
                [
                    "I2: order-1 holds 6 of apple, its line orders 3",
                ],
            ),
            (
                2,
                [
                    "I1: apple on hand 10 != available 7 + reserved 0",
                ],
            ),
        ]
    "#]]
    .assert_debug_eq(&violations_after_each(&shop, &deliveries, StockImplementation::Naive));
}
