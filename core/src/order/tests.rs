//! Tests of P2: the transition rules over every (status, command) pair, the naive `MarkPaid`
//! charging twice where the seed's version does not, shipping and cancellation (with its
//! release of stock) repeated, racing payments, and `PlaceOrder` writing the order and its
//! outbox message together or not at all.

use std::fmt::Write as _;

use expect_test::{Expect, expect};
use uuid::Uuid;

use super::*;
use crate::ids::{ChargeId, MessageId, OrderId, PaymentId, Sku, Tick};
use crate::step::{EffectSteps, RunError, Step, Steps};
use crate::stock::{
    ReleasedStock, ReserveStock, StockImplementation, StockReleaseEvent, reserve_stock,
};
use crate::store::{
    MessagePayload, OrderLine, OrderRow, OrderStatus, OutboxRow, Store, StoreConfig,
};

fn sku(name: &str) -> Sku {
    Sku::new(name)
}

fn order(number: u128) -> OrderId {
    OrderId(Uuid::from_u128(number))
}

fn message(number: u128) -> MessageId {
    MessageId(Uuid::from_u128(0x1000 + number))
}

fn payment(name: &str) -> PaymentId {
    PaymentId::new(name)
}

fn line(name: &str, qty: u32) -> OrderLine {
    OrderLine { sku: sku(name), qty }
}

fn paid(name: &str) -> OrderStatus {
    OrderStatus::Paid { payment_id: payment(name) }
}

fn shipped(name: &str) -> OrderStatus {
    OrderStatus::Shipped { payment_id: payment(name) }
}

fn cancelled(name: Option<&str>) -> OrderStatus {
    OrderStatus::Cancelled { payment_id: name.map(payment) }
}

fn mark_paid_with(name: &str) -> OrderCommand {
    OrderCommand::MarkPaid { payment_id: payment(name) }
}

fn changed(to: OrderStatus) -> Result<StatusChange, TransitionError> {
    Ok(StatusChange::Changed { to })
}

fn wrong(command: OrderCommand, status: OrderStatus) -> Result<StatusChange, TransitionError> {
    Err(TransitionError::WrongStatus { command, status })
}

/// Every status an order can be in (with payment `p1` where it has one) and every command
/// (with the same payment `p1` and another one, `p2`).
fn every_status() -> Vec<OrderStatus> {
    vec![OrderStatus::Placed, paid("p1"), shipped("p1"), cancelled(None), cancelled(Some("p1"))]
}

fn every_command() -> Vec<OrderCommand> {
    vec![mark_paid_with("p1"), mark_paid_with("p2"), OrderCommand::Ship, OrderCommand::Cancel]
}

type Table = Vec<(OrderStatus, OrderCommand, Result<StatusChange, TransitionError>)>;

/// Asserts that `table` lists every (status, command) pair exactly once, in the order of
/// [`every_status`] then [`every_command`], and that `rules` gives each the expected result.
fn check_table(
    rules: fn(&OrderStatus, &OrderCommand) -> Result<StatusChange, TransitionError>,
    table: Table,
) {
    let pairs: Vec<(OrderStatus, OrderCommand)> =
        table.iter().map(|(status, command, _)| (status.clone(), command.clone())).collect();
    let every_pair: Vec<(OrderStatus, OrderCommand)> = every_status()
        .into_iter()
        .flat_map(|status| {
            every_command().into_iter().map(move |command| (status.clone(), command))
        })
        .collect();
    assert_eq!(pairs, every_pair, "the table must cover every pair once");
    for (status, command, expected) in table {
        assert_eq!(rules(&status, &command), expected, "{} on {status:?}", command.name());
    }
}

#[test]
fn transition_table_of_the_idempotent_rules() {
    use OrderCommand::{Cancel, Ship};
    use StatusChange::Unchanged;
    let placed = OrderStatus::Placed;
    check_table(
        transition,
        vec![
            (placed.clone(), mark_paid_with("p1"), changed(paid("p1"))),
            (placed.clone(), mark_paid_with("p2"), changed(paid("p2"))),
            (placed.clone(), Ship, wrong(Ship, placed.clone())),
            (placed.clone(), Cancel, changed(cancelled(None))),
            // The seed: the same payment on a paid order is a no-op...
            (paid("p1"), mark_paid_with("p1"), Ok(Unchanged)),
            // ...and another one is an error, never a silent second charge.
            (
                paid("p1"),
                mark_paid_with("p2"),
                Err(TransitionError::AlreadyPaidByAnotherPayment {
                    paid_by: payment("p1"),
                    rejected: payment("p2"),
                }),
            ),
            (paid("p1"), Ship, changed(shipped("p1"))),
            (paid("p1"), Cancel, changed(cancelled(Some("p1")))),
            (shipped("p1"), mark_paid_with("p1"), wrong(mark_paid_with("p1"), shipped("p1"))),
            (shipped("p1"), mark_paid_with("p2"), wrong(mark_paid_with("p2"), shipped("p1"))),
            (shipped("p1"), Ship, Ok(Unchanged)),
            (shipped("p1"), Cancel, wrong(Cancel, shipped("p1"))),
            (cancelled(None), mark_paid_with("p1"), wrong(mark_paid_with("p1"), cancelled(None))),
            (cancelled(None), mark_paid_with("p2"), wrong(mark_paid_with("p2"), cancelled(None))),
            (cancelled(None), Ship, wrong(Ship, cancelled(None))),
            (cancelled(None), Cancel, Ok(Unchanged)),
            (
                cancelled(Some("p1")),
                mark_paid_with("p1"),
                wrong(mark_paid_with("p1"), cancelled(Some("p1"))),
            ),
            (
                cancelled(Some("p1")),
                mark_paid_with("p2"),
                wrong(mark_paid_with("p2"), cancelled(Some("p1"))),
            ),
            (cancelled(Some("p1")), Ship, wrong(Ship, cancelled(Some("p1")))),
            (cancelled(Some("p1")), Cancel, Ok(Unchanged)),
        ],
    );
}

#[test]
fn transition_table_of_the_naive_twin() {
    use OrderCommand::{Cancel, Ship};
    let placed = OrderStatus::Placed;
    check_table(
        naive_transition,
        vec![
            (placed.clone(), mark_paid_with("p1"), changed(paid("p1"))),
            (placed.clone(), mark_paid_with("p2"), changed(paid("p2"))),
            (placed.clone(), Ship, wrong(Ship, placed.clone())),
            (placed.clone(), Cancel, changed(cancelled(None))),
            // No guard: a repeat is a change, so its effect (a charge) runs again.
            (paid("p1"), mark_paid_with("p1"), changed(paid("p1"))),
            (paid("p1"), mark_paid_with("p2"), changed(paid("p2"))),
            (paid("p1"), Ship, changed(shipped("p1"))),
            (paid("p1"), Cancel, changed(cancelled(Some("p1")))),
            (shipped("p1"), mark_paid_with("p1"), changed(paid("p1"))),
            (shipped("p1"), mark_paid_with("p2"), changed(paid("p2"))),
            (shipped("p1"), Ship, Ok(StatusChange::Unchanged)),
            (shipped("p1"), Cancel, changed(cancelled(Some("p1")))),
            (cancelled(None), mark_paid_with("p1"), changed(paid("p1"))),
            (cancelled(None), mark_paid_with("p2"), changed(paid("p2"))),
            (cancelled(None), Ship, wrong(Ship, cancelled(None))),
            (cancelled(None), Cancel, changed(cancelled(None))),
            (cancelled(Some("p1")), mark_paid_with("p1"), changed(paid("p1"))),
            (cancelled(Some("p1")), mark_paid_with("p2"), changed(paid("p2"))),
            (cancelled(Some("p1")), Ship, wrong(Ship, cancelled(Some("p1")))),
            (cancelled(Some("p1")), Cancel, changed(cancelled(Some("p1")))),
        ],
    );
}

#[test]
fn transition_errors_read_as_sentences() {
    let error = transition(&cancelled(None), &mark_paid_with("p1")).unwrap_err();
    assert_eq!(error.to_string(), "cannot MarkPaid an order in status Cancelled");
    let error = transition(&paid("p1"), &mark_paid_with("p2")).unwrap_err();
    assert_eq!(error.to_string(), "already paid by payment p1; payment p2 would charge it twice");
}

// ---------------------------------------------------------------------------------------------
// Handlers against the store.

/// A store with 10 apples and 10 pears, and order 1 (3 apples, 2 pears) placed and its stock
/// reserved.
fn store_with_order_placed_and_reserved() -> Store {
    let mut store =
        Store::with_stock(StoreConfig::default(), [(sku("apple"), 10), (sku("pear"), 10)]);
    let lines = vec![line("apple", 3), line("pear", 2)];
    place_order(
        &mut store,
        Tick(1),
        PlaceOrder { order_id: order(1), message_id: message(1), lines: lines.clone() },
    )
    .unwrap();
    reserve_stock(
        &mut store,
        Tick(2),
        ReserveStock { order_id: order(1), lines },
        StockImplementation::Idempotent,
    )
    .unwrap();
    store
}

/// The committed orders, charges, stock and reservations, one row a line.
fn render_tables(store: &Store) -> String {
    let tables = store.committed();
    let mut text = String::new();
    for row in tables.orders.values() {
        let _ = writeln!(text, "order {}: {:?}", row.id.0.as_u128(), row.status);
    }
    for row in tables.charges.values() {
        let _ = writeln!(
            text,
            "charge {}: order {} payment {}",
            row.id,
            row.order_id.0.as_u128(),
            row.payment_id
        );
    }
    for row in tables.stock.values() {
        let _ = writeln!(text, "stock {}: available={}", row.sku, row.available_qty);
    }
    for row in tables.reservations.values() {
        let _ = writeln!(
            text,
            "reservation order {} {}: qty={}",
            row.order_id.0.as_u128(),
            row.sku,
            row.qty
        );
    }
    text
}

/// Applies `commands` to order 1 one after another with `implementation`, starting from
/// [`store_with_order_placed_and_reserved`], and compares each outcome and the final tables
/// with `expect`. A failed command must leave the committed tables as they were.
fn check(implementation: OrderImplementation, commands: &[OrderCommand], expect: Expect) {
    let mut store = store_with_order_placed_and_reserved();
    let mut text = String::new();
    for command in commands {
        let before = store.committed().clone();
        let outcome =
            apply_order_command(&mut store, Tick(3), order(1), command.clone(), implementation);
        if outcome.is_err() {
            assert_eq!(store.committed(), &before, "a failed {command:?} changed the store");
        }
        let outcome = format!("{outcome:?}").replace(&Uuid::from_u128(1).to_string(), "order-1");
        let _ = writeln!(text, "{command:?} -> {outcome}");
    }
    text.push_str("--\n");
    text.push_str(&render_tables(&store));
    expect.assert_eq(&text);
}

#[test]
fn naive_mark_paid_charges_twice_on_a_repeated_payment() {
    check(
        OrderImplementation::Naive,
        &[mark_paid_with("p1"), mark_paid_with("p1")],
        expect![[r#"
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(2) })
            --
            order 1: Paid { payment_id: PaymentId("p1") }
            charge charge-1: order 1 payment p1
            charge charge-2: order 1 payment p1
            stock apple: available=7
            stock pear: available=8
            reservation order 1 apple: qty=3
            reservation order 1 pear: qty=2
        "#]],
    );
}

#[test]
fn mark_paid_with_the_same_payment_again_is_a_no_op() {
    check(
        OrderImplementation::Idempotent,
        &[mark_paid_with("p1"), mark_paid_with("p1")],
        expect![[r#"
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(PaymentAlreadyRecorded { order_id: OrderId(order-1), payment_id: PaymentId("p1") })
            --
            order 1: Paid { payment_id: PaymentId("p1") }
            charge charge-1: order 1 payment p1
            stock apple: available=7
            stock pear: available=8
            reservation order 1 apple: qty=3
            reservation order 1 pear: qty=2
        "#]],
    );
}

#[test]
fn another_payment_on_a_paid_order_is_an_error_not_a_second_charge() {
    check(
        OrderImplementation::Idempotent,
        &[mark_paid_with("p1"), mark_paid_with("p2")],
        expect![[r#"
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            MarkPaid { payment_id: PaymentId("p2") } -> Err(Failed(Transition { order_id: OrderId(order-1), error: AlreadyPaidByAnotherPayment { paid_by: PaymentId("p1"), rejected: PaymentId("p2") } }))
            --
            order 1: Paid { payment_id: PaymentId("p1") }
            charge charge-1: order 1 payment p1
            stock apple: available=7
            stock pear: available=8
            reservation order 1 apple: qty=3
            reservation order 1 pear: qty=2
        "#]],
    );
    // The naive twin charges the second payment too and forgets the first.
    check(
        OrderImplementation::Naive,
        &[mark_paid_with("p1"), mark_paid_with("p2")],
        expect![[r#"
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            MarkPaid { payment_id: PaymentId("p2") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p2"), charge_id: ChargeId(2) })
            --
            order 1: Paid { payment_id: PaymentId("p2") }
            charge charge-1: order 1 payment p1
            charge charge-2: order 1 payment p2
            stock apple: available=7
            stock pear: available=8
            reservation order 1 apple: qty=3
            reservation order 1 pear: qty=2
        "#]],
    );
}

#[test]
fn ship_once_repeat_is_a_no_op_and_a_wrong_status_is_an_error() {
    check(
        OrderImplementation::Idempotent,
        &[OrderCommand::Ship, mark_paid_with("p1"), OrderCommand::Ship, OrderCommand::Ship],
        expect![[r#"
            Ship -> Err(Failed(Transition { order_id: OrderId(order-1), error: WrongStatus { command: Ship, status: Placed } }))
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            Ship -> Ok(OrderShipped { order_id: OrderId(order-1) })
            Ship -> Ok(ShipmentAlreadyRecorded { order_id: OrderId(order-1) })
            --
            order 1: Shipped { payment_id: PaymentId("p1") }
            charge charge-1: order 1 payment p1
            stock apple: available=7
            stock pear: available=8
            reservation order 1 apple: qty=3
            reservation order 1 pear: qty=2
        "#]],
    );
}

#[test]
fn cancel_releases_the_stock_once_and_a_repeat_is_a_no_op() {
    check(
        OrderImplementation::Idempotent,
        &[mark_paid_with("p1"), OrderCommand::Cancel, OrderCommand::Cancel, mark_paid_with("p1")],
        expect![[r#"
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            Cancel -> Ok(OrderCancelled { order_id: OrderId(order-1), release: StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }, ReleasedStock { sku: Sku("pear"), qty: 2 }] } })
            Cancel -> Ok(CancellationAlreadyRecorded { order_id: OrderId(order-1) })
            MarkPaid { payment_id: PaymentId("p1") } -> Err(Failed(Transition { order_id: OrderId(order-1), error: WrongStatus { command: MarkPaid { payment_id: PaymentId("p1") }, status: Cancelled { payment_id: Some(PaymentId("p1")) } } }))
            --
            order 1: Cancelled { payment_id: Some(PaymentId("p1")) }
            charge charge-1: order 1 payment p1
            stock apple: available=10
            stock pear: available=10
        "#]],
    );
}

#[test]
fn naive_cancel_gives_the_stock_back_on_every_call() {
    check(
        OrderImplementation::Naive,
        &[OrderCommand::Cancel, OrderCommand::Cancel],
        expect![[r#"
            Cancel -> Ok(OrderCancelled { order_id: OrderId(order-1), release: StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }, ReleasedStock { sku: Sku("pear"), qty: 2 }] } })
            Cancel -> Ok(OrderCancelled { order_id: OrderId(order-1), release: StockReleased { order_id: OrderId(order-1), released: [ReleasedStock { sku: Sku("apple"), qty: 3 }, ReleasedStock { sku: Sku("pear"), qty: 2 }] } })
            --
            order 1: Cancelled { payment_id: None }
            stock apple: available=13
            stock pear: available=12
        "#]],
    );
}

#[test]
fn a_shipped_order_cannot_be_cancelled() {
    check(
        OrderImplementation::Idempotent,
        &[mark_paid_with("p1"), OrderCommand::Ship, OrderCommand::Cancel],
        expect![[r#"
            MarkPaid { payment_id: PaymentId("p1") } -> Ok(OrderPaid { order_id: OrderId(order-1), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
            Ship -> Ok(OrderShipped { order_id: OrderId(order-1) })
            Cancel -> Err(Failed(Transition { order_id: OrderId(order-1), error: WrongStatus { command: Cancel, status: Shipped { payment_id: PaymentId("p1") } } }))
            --
            order 1: Shipped { payment_id: PaymentId("p1") }
            charge charge-1: order 1 payment p1
            stock apple: available=7
            stock pear: available=8
            reservation order 1 apple: qty=3
            reservation order 1 pear: qty=2
        "#]],
    );
}

#[test]
fn a_payment_for_an_order_not_yet_placed_is_a_typed_error() {
    for implementation in [OrderImplementation::Naive, OrderImplementation::Idempotent] {
        let mut store = Store::with_stock(StoreConfig::default(), [(sku("apple"), 10)]);
        let outcome = mark_paid(&mut store, Tick(0), order(9), payment("p1"), implementation);
        assert_eq!(
            outcome,
            Err(RunError::Failed(OrderError::OrderNotFound { order_id: order(9) }))
        );
        assert!(store.committed().charges.is_empty());
    }
}

/// Where each implementation refuses a payment for a missing order: the naive `UPDATE` has no
/// status guard, so changing no row can only mean no order, and it stops there; the guarded
/// one changes no row for a repeat either, so it reads the status before it refuses.
#[test]
fn a_payment_for_a_missing_order_stops_at_the_naive_update_and_after_the_guarded_ones_select() {
    let statements = |implementation| {
        let mut store = Store::with_stock(StoreConfig::default(), [(sku("apple"), 10)]);
        let mut pay =
            OrderCommandEffect::in_own_transaction(order(1), mark_paid_with("p1"), implementation);
        statements_of(&mut pay, &mut store)
    };
    expect![[r#"
        BEGIN
        UPDATE orders SET status = 'Paid', payment_id = 'p1' WHERE id = 'order-1'  => stopped
    "#]]
    .assert_eq(&statements(OrderImplementation::Naive));
    expect![[r#"
        BEGIN
        UPDATE orders SET status = 'Paid', payment_id = 'p1' WHERE id = 'order-1' AND status = 'Placed'
        SELECT status, payment_id FROM orders WHERE id = 'order-1'  => stopped
    "#]]
    .assert_eq(&statements(OrderImplementation::Idempotent));
}

/// The statements a handler runs, one per step, until it is done.
fn statements_of<S: Steps>(handler: &mut S, store: &mut Store) -> String {
    let mut text = String::new();
    while let Some(statement) = handler.next_statement(Tick(0)) {
        let statement = statement.replace(&Uuid::from_u128(1).to_string(), "order-1");
        let statement = statement.replace(&message(1).to_string(), "message-1");
        let step = handler.step(store, Tick(0));
        let suffix = match step {
            Ok(Step::Continue) => "",
            Ok(Step::Done(_)) => "  => done",
            Ok(Step::Blocked(_)) | Err(_) => "  => stopped",
        };
        let _ = writeln!(text, "{statement}{suffix}");
        if suffix == "  => stopped" {
            break;
        }
    }
    text
}

#[test]
fn each_step_runs_one_statement() {
    let mut store = store_with_order_placed_and_reserved();
    let mut pay = OrderCommandEffect::in_own_transaction(
        order(1),
        mark_paid_with("p1"),
        OrderImplementation::Idempotent,
    );
    expect![[r#"
        BEGIN
        UPDATE orders SET status = 'Paid', payment_id = 'p1' WHERE id = 'order-1' AND status = 'Placed'
        INSERT INTO charges (id, order_id, payment_id) VALUES (nextval('charges_id_seq'), 'order-1', 'p1')
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut pay, &mut store));

    let mut cancel_handler = OrderCommandEffect::in_own_transaction(
        order(1),
        OrderCommand::Cancel,
        OrderImplementation::Idempotent,
    );
    expect![[r#"
        BEGIN
        UPDATE orders SET status = 'Cancelled' WHERE id = 'order-1' AND status IN ('Placed', 'Paid') RETURNING lines
        SELECT sku, qty FROM reservations WHERE order_id = 'order-1' ORDER BY sku
        DELETE FROM reservations WHERE order_id = 'order-1' AND sku = 'apple' RETURNING qty
        UPDATE stock SET available_qty = available_qty + 3 WHERE sku = 'apple'
        DELETE FROM reservations WHERE order_id = 'order-1' AND sku = 'pear' RETURNING qty
        UPDATE stock SET available_qty = available_qty + 2 WHERE sku = 'pear'
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut cancel_handler, &mut store));

    let mut store = Store::with_stock(StoreConfig::default(), [(sku("apple"), 10)]);
    let mut place = PlaceOrderEffect::in_own_transaction(PlaceOrder {
        order_id: order(1),
        message_id: message(1),
        lines: vec![line("apple", 3)],
    })
    .unwrap();
    expect![[r#"
        BEGIN
        SELECT sku FROM stock WHERE sku IN ('apple')
        INSERT INTO orders (id, lines, status, payment_id) VALUES ('order-1', '[{"qty":3,"sku":"apple"}]', 'Placed', NULL)
        INSERT INTO outbox (message_id, payload, published, created_at) VALUES ('message-1', '{"lines":[{"qty":3,"sku":"apple"}],"order_id":"order-1","type":"OrderPlaced"}', false, 0)
        COMMIT  => done
    "#]]
    .assert_eq(&statements_of(&mut place, &mut store));
}

#[test]
fn two_payments_racing_for_one_order_charge_once_only_with_the_seeds_mark_paid() {
    for (implementation, expected) in [
        (
            OrderImplementation::Idempotent,
            expect![[r#"
                first: Ok(OrderPaid { order_id: OrderId(00000000-0000-0000-0000-000000000001), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
                second: Err(Transition { order_id: OrderId(00000000-0000-0000-0000-000000000001), error: AlreadyPaidByAnotherPayment { paid_by: PaymentId("p1"), rejected: PaymentId("p2") } })
                order 1: Paid { payment_id: PaymentId("p1") }
                charge charge-1: order 1 payment p1
                stock apple: available=7
                stock pear: available=8
                reservation order 1 apple: qty=3
                reservation order 1 pear: qty=2
            "#]],
        ),
        (
            OrderImplementation::Naive,
            expect![[r#"
                first: Ok(OrderPaid { order_id: OrderId(00000000-0000-0000-0000-000000000001), payment_id: PaymentId("p1"), charge_id: ChargeId(1) })
                second: Ok(OrderPaid { order_id: OrderId(00000000-0000-0000-0000-000000000001), payment_id: PaymentId("p2"), charge_id: ChargeId(2) })
                order 1: Paid { payment_id: PaymentId("p2") }
                charge charge-1: order 1 payment p1
                charge charge-2: order 1 payment p2
                stock apple: available=7
                stock pear: available=8
                reservation order 1 apple: qty=3
                reservation order 1 pear: qty=2
            "#]],
        ),
    ] {
        let mut store = store_with_order_placed_and_reserved();
        let mut first =
            OrderCommandEffect::in_own_transaction(order(1), mark_paid_with("p1"), implementation);
        let mut second =
            OrderCommandEffect::in_own_transaction(order(1), mark_paid_with("p2"), implementation);
        // Both begin; the first updates the order; the second's update waits for its lock.
        assert_eq!(first.step(&mut store, Tick(0)).unwrap(), Step::Continue);
        assert_eq!(second.step(&mut store, Tick(0)).unwrap(), Step::Continue);
        assert_eq!(first.step(&mut store, Tick(0)).unwrap(), Step::Continue);
        let before = store.clone();
        assert!(matches!(second.step(&mut store, Tick(0)).unwrap(), Step::Blocked(_)));
        assert_eq!(store, before, "a blocked step changed the store");
        // The first charges and commits; then the second's update sees `Paid { p1 }`.
        let first_outcome = crate::step::run_to_completion(&mut first, &mut store, Tick(0));
        let second_outcome = match crate::step::run_to_completion(&mut second, &mut store, Tick(0))
        {
            Err(RunError::Failed(error)) => Err(error),
            Err(other) => panic!("{other:?}"),
            Ok(event) => Ok(event),
        };
        let text = format!(
            "first: {first_outcome:?}\nsecond: {second_outcome:?}\n{}",
            render_tables(&store)
        );
        expected.assert_eq(&text);
    }
}

#[test]
fn the_order_effect_runs_inside_the_callers_transaction() {
    // As the P4 consumer of `PaymentCaptured` will: its inbox row and the effect in one
    // transaction, so a crash before commit undoes both.
    let mut store = store_with_order_placed_and_reserved();
    let tx = store.begin().unwrap();
    let mut effect =
        OrderCommandEffect::new(order(1), mark_paid_with("p1"), OrderImplementation::Idempotent);
    assert_eq!(effect.step(&mut store, tx, Tick(0)).unwrap(), Step::Continue);
    let Step::Done(event) = effect.step(&mut store, tx, Tick(0)).unwrap() else {
        panic!("expected the charge to finish the effect");
    };
    assert_eq!(
        event,
        OrderEvent::OrderPaid {
            order_id: order(1),
            payment_id: payment("p1"),
            charge_id: ChargeId(1)
        }
    );
    assert_eq!(effect.step(&mut store, tx, Tick(0)), Err(OrderError::EffectAlreadyDone));
    assert!(store.is_open(tx));
    store.rollback(tx).unwrap();
    assert_eq!(store.committed().orders[&order(1)].status, OrderStatus::Placed);
    assert!(store.committed().charges.is_empty());
}

// ---------------------------------------------------------------------------------------------
// PlaceOrder and the transactional outbox.

#[test]
fn place_order_writes_the_order_and_its_message_in_one_transaction() {
    let mut store =
        Store::with_stock(StoreConfig::default(), [(sku("apple"), 10), (sku("pear"), 10)]);
    let lines = vec![line("pear", 2), line("apple", 3)];
    let command = PlaceOrder { order_id: order(1), message_id: message(1), lines: lines.clone() };
    let mut handler = PlaceOrderEffect::in_own_transaction(command).unwrap();
    // BEGIN, SELECT, INSERT INTO orders, INSERT INTO outbox: until the COMMIT nothing is
    // visible, so the relay never sees a message without its order, nor an order without its
    // message.
    for _ in 0..4 {
        assert_eq!(handler.step(&mut store, Tick(5)).unwrap(), Step::Continue);
        assert!(store.committed().orders.is_empty());
        assert!(store.committed().outbox.is_empty());
    }
    let placed = handler.step(&mut store, Tick(5)).unwrap();
    assert_eq!(
        placed,
        Step::Done(OrderPlaced {
            order_id: order(1),
            message_id: message(1),
            lines: lines.clone()
        })
    );
    assert_eq!(
        store.committed().orders[&order(1)],
        OrderRow { id: order(1), lines: lines.clone().into(), status: OrderStatus::Placed }
    );
    assert_eq!(
        store.committed().outbox[&message(1)],
        OutboxRow {
            message_id: message(1),
            payload: MessagePayload::OrderPlaced { order_id: order(1), lines: lines.into() },
            published: false,
            created_at: Tick(5),
        }
    );
    // Placing an order takes no stock: the consumer of `OrderPlaced` reserves it.
    assert!(store.committed().reservations.is_empty());
}

#[test]
fn a_crash_between_the_order_and_its_message_writes_neither() {
    let mut store = Store::with_stock(StoreConfig::default(), [(sku("apple"), 10)]);
    let before = store.committed().clone();
    let mut handler = PlaceOrderEffect::in_own_transaction(PlaceOrder {
        order_id: order(1),
        message_id: message(1),
        lines: vec![line("apple", 1)],
    })
    .unwrap();
    for _ in 0..3 {
        assert_eq!(handler.step(&mut store, Tick(0)).unwrap(), Step::Continue);
    }
    assert!(handler.next_statement(Tick(0)).unwrap().starts_with("INSERT INTO outbox"));
    // The crash: the handler's open transaction is rolled back.
    store.rollback(handler.open_transaction().unwrap()).unwrap();
    assert_eq!(store.committed(), &before);
}

#[test]
fn place_order_rejects_bad_input_naming_what_was_wrong_and_writes_nothing() {
    let mut store = Store::with_stock(StoreConfig::default(), [(sku("apple"), 10)]);
    place_order(
        &mut store,
        Tick(0),
        PlaceOrder { order_id: order(1), message_id: message(1), lines: vec![line("apple", 1)] },
    )
    .unwrap();
    let before = store.committed().clone();
    let attempts = [
        (order(2), message(2), vec![]),
        (order(2), message(2), vec![line("apple", 1), line("pear", 0)]),
        (order(2), message(2), vec![line("apple", 1), line("apple", 2)]),
        (order(2), message(2), vec![line("apple", 1), line("kiwi", 2)]),
        // The same order id again (a retry with a new message id), and a new order reusing a
        // message id: the unique constraints catch both, and nothing is written.
        (order(1), message(2), vec![line("apple", 1)]),
        (order(2), message(1), vec![line("apple", 1)]),
    ];
    let mut text = String::new();
    for (order_id, message_id, lines) in attempts {
        let outcome = place_order(&mut store, Tick(0), PlaceOrder { order_id, message_id, lines });
        assert_eq!(store.committed(), &before);
        assert_eq!(store.open_transactions().count(), 0);
        let _ = match outcome {
            Err(RunError::Failed(error)) => writeln!(text, "{error}"),
            other => writeln!(text, "unexpected: {other:?}"),
        };
    }
    expect![[r#"
        order 00000000-0000-0000-0000-000000000002: the order has no lines
        order 00000000-0000-0000-0000-000000000002: line 1 orders zero of pear
        order 00000000-0000-0000-0000-000000000002: lines 0 and 1 both order apple
        order 00000000-0000-0000-0000-000000000002: line 1 orders unknown sku kiwi
        order 00000000-0000-0000-0000-000000000001 exists already
        outbox message 00000000-0000-0000-0000-000000001001 exists already
    "#]]
    .assert_eq(&text);
}

#[test]
fn an_order_flows_from_placed_through_its_outbox_message_to_reserved_paid_and_cancelled() {
    let mut store = Store::with_stock(StoreConfig::default(), [(sku("apple"), 10)]);
    let placed = place_order(
        &mut store,
        Tick(0),
        PlaceOrder { order_id: order(1), message_id: message(1), lines: vec![line("apple", 4)] },
    )
    .unwrap();
    // The consumer acts on the message, as the relay would deliver it.
    let MessagePayload::OrderPlaced { order_id, lines } =
        store.committed().outbox[&placed.message_id].payload.clone()
    else {
        panic!("expected OrderPlaced");
    };
    reserve_stock(
        &mut store,
        Tick(1),
        ReserveStock { order_id, lines: lines.to_vec() },
        StockImplementation::Idempotent,
    )
    .unwrap();
    mark_paid(&mut store, Tick(2), order(1), payment("p1"), OrderImplementation::Idempotent)
        .unwrap();
    let cancelled_event = cancel(&mut store, Tick(3), order(1), OrderImplementation::Idempotent);
    assert_eq!(
        cancelled_event,
        Ok(OrderEvent::OrderCancelled {
            order_id: order(1),
            release: StockReleaseEvent::StockReleased {
                order_id: order(1),
                released: vec![ReleasedStock { sku: sku("apple"), qty: 4 }],
            },
        })
    );
    assert_eq!(
        render_tables(&store),
        "order 1: Cancelled { payment_id: Some(PaymentId(\"p1\")) }\n\
         charge charge-1: order 1 payment p1\n\
         stock apple: available=10\n"
    );
    assert_eq!(
        ship(&mut store, Tick(4), order(1), OrderImplementation::Idempotent),
        Err(RunError::Failed(OrderError::Transition {
            order_id: order(1),
            error: TransitionError::WrongStatus {
                command: OrderCommand::Ship,
                status: cancelled(Some("p1")),
            },
        }))
    );
}
