//! Tests of the invariants: a clean shop passes every check, and each way of breaking an
//! invariant yields exactly the expected violations (every check runs, so a test also shows
//! that no other invariant fires), with their rows and sentences snapshot-tested. A property
//! test shows that `check_all` never panics on arbitrary small tables and histories.

use std::collections::BTreeMap;
use std::sync::Arc;

use expect_test::{Expect, expect};
use proptest::prelude::*;
use uuid::Uuid;

use super::*;
use crate::history::{
    ApiResponse, HandlerRunEnd, InboxUse, KeyLease, MessageEvent, RequestAttempt, ResponseOrigin,
};
use crate::ids::{ChargeId, IdempotencyKey, MessageId, OrderId, PaymentId, Sku, Tick};
use crate::store::{
    ChargeRow, FencingToken, InboxRow, MessagePayload, OrderLine, OrderRow, OrderStatus, OutboxRow,
    RequestFingerprint, ReservationRow, StockRow, Tables, WriteSet,
};

fn order_id(n: u128) -> OrderId {
    OrderId(Uuid::from_u128(n))
}

fn message_id(n: u128) -> MessageId {
    MessageId(Uuid::from_u128(0x100 + n))
}

fn key(n: u128) -> IdempotencyKey {
    IdempotencyKey(Uuid::from_u128(0x200 + n))
}

fn sku(name: &str) -> Sku {
    Sku::new(name)
}

fn reserve_stock() -> ConsumerName {
    ConsumerName::new("reserve-stock")
}

fn payment(name: &str) -> PaymentId {
    PaymentId::new(name)
}

fn lines(lines: &[(&str, u32)]) -> Vec<OrderLine> {
    lines.iter().map(|(name, qty)| OrderLine { sku: sku(name), qty: *qty }).collect()
}

fn lease(token: u64, expires_at: u64) -> Option<KeyLease> {
    Some(KeyLease { fencing_token: FencingToken(token), expires_at: Tick(expires_at) })
}

/// The tables, history and quiescence that the checks read, with one row-level setter per table.
#[derive(Clone, Debug)]
struct Shop {
    tables: Tables,
    history: History,
    quiescence: Quiescence,
}

impl Shop {
    fn stock(&mut self, name: &str, on_hand_qty: i64, available_qty: i64) -> &mut Self {
        Arc::make_mut(&mut self.tables.stock)
            .insert(sku(name), StockRow { sku: sku(name), on_hand_qty, available_qty });
        self
    }

    fn order(&mut self, id: u128, order_lines: &[(&str, u32)], status: OrderStatus) -> &mut Self {
        let row = OrderRow { id: order_id(id), lines: lines(order_lines).into(), status };
        Arc::make_mut(&mut self.tables.orders).insert(row.id, row);
        self
    }

    fn reservation(&mut self, order: u128, name: &str, qty: i64) -> &mut Self {
        let row = ReservationRow { order_id: order_id(order), sku: sku(name), qty };
        Arc::make_mut(&mut self.tables.reservations).insert(row.key(), row);
        self
    }

    fn charge(&mut self, id: u64, order: u128, payment_name: &str) -> &mut Self {
        let row = ChargeRow {
            id: ChargeId(id),
            order_id: order_id(order),
            payment_id: payment(payment_name),
        };
        Arc::make_mut(&mut self.tables.charges).insert(row.id, row);
        self
    }

    fn order_placed(
        &mut self,
        message: u128,
        order: u128,
        order_lines: &[(&str, u32)],
    ) -> &mut Self {
        let row = OutboxRow {
            message_id: message_id(message),
            payload: MessagePayload::OrderPlaced {
                order_id: order_id(order),
                lines: lines(order_lines).into(),
            },
            published: true,
            created_at: Tick(1),
        };
        Arc::make_mut(&mut self.tables.outbox).insert(row.message_id, row);
        self
    }

    fn inbox(&mut self, message: u128, processed_at: u64) -> &mut Self {
        let row = InboxRow {
            message_id: message_id(message),
            consumer: reserve_stock(),
            processed_at: Tick(processed_at),
        };
        Arc::make_mut(&mut self.tables.inbox).insert(row.key(), row);
        self
    }

    fn event(&mut self, event: MessageEvent) -> &mut Self {
        self.history.record_message_event(event).unwrap();
        self
    }

    fn published(&mut self, message: u128, at: u64) -> &mut Self {
        self.event(MessageEvent::Published {
            message_id: message_id(message),
            published_at: Tick(at),
        })
    }

    fn effect(&mut self, message: u128, inbox: InboxUse, at: u64) -> &mut Self {
        self.event(MessageEvent::EffectCommitted {
            message_id: message_id(message),
            consumer: reserve_stock(),
            inbox,
            committed_at: Tick(at),
        })
    }

    fn acknowledged(&mut self, message: u128, at: u64) -> &mut Self {
        self.event(MessageEvent::Acknowledged {
            message_id: message_id(message),
            consumer: reserve_stock(),
            acknowledged_at: Tick(at),
        })
    }

    fn purged(&mut self, message: u128, at: u64) -> &mut Self {
        self.event(MessageEvent::InboxRowPurged {
            message_id: message_id(message),
            consumer: reserve_stock(),
            purged_at: Tick(at),
        })
    }

    fn response(
        &mut self,
        key_number: Option<u128>,
        attempt: RequestAttempt,
        origin: ResponseOrigin,
        status: u16,
        body: &str,
        at: u64,
    ) -> &mut Self {
        self.response_to("POST /orders apple=2", key_number, attempt, origin, status, body, at)
    }

    /// An answer to a request with `fingerprint`.
    #[allow(clippy::too_many_arguments)]
    fn response_to(
        &mut self,
        fingerprint: &str,
        key_number: Option<u128>,
        attempt: RequestAttempt,
        origin: ResponseOrigin,
        status: u16,
        body: &str,
        at: u64,
    ) -> &mut Self {
        self.history
            .record_response(ApiResponse {
                key: key_number.map(key),
                fingerprint: RequestFingerprint(fingerprint.into()),
                attempt,
                origin,
                status,
                body: body.to_owned(),
                answered_at: Tick(at),
            })
            .unwrap();
        self
    }

    fn run(
        &mut self,
        key_number: u128,
        lease: Option<KeyLease>,
        started_at: u64,
        end: Option<HandlerRunEnd>,
    ) -> &mut Self {
        let run = self
            .history
            .record_handler_run_started(key(key_number), lease, Tick(started_at))
            .unwrap();
        if let Some(end) = end {
            self.history.record_handler_run_ended(run, end).unwrap();
        }
        self
    }
}

fn finished(at: u64) -> Option<HandlerRunEnd> {
    Some(HandlerRunEnd::Finished { at: Tick(at) })
}

fn crashed(at: u64) -> Option<HandlerRunEnd> {
    Some(HandlerRunEnd::Crashed { at: Tick(at) })
}

/// A shop in which everything went right, at quiescence: order 1 (2 apples) was placed under
/// key 1, its response lost and replayed to the retry, reserved once by the inbox consumer
/// despite a redelivery, and paid; order 2 (1 pear) is placed and reserved, and its double
/// submit was refused with 409.
fn clean_shop() -> Shop {
    let mut shop = Shop {
        tables: Tables::default(),
        history: History::default(),
        quiescence: Quiescence::Quiescent {
            order_placed_consumers: vec![reserve_stock()],
            dead_lettered: Vec::new(),
        },
    };
    shop.stock("apple", 10, 8)
        .stock("pear", 5, 4)
        .order(1, &[("apple", 2)], OrderStatus::Paid { payment_id: payment("pay-1") })
        .order(2, &[("pear", 1)], OrderStatus::Placed)
        .reservation(1, "apple", 2)
        .reservation(2, "pear", 1)
        .charge(1, 1, "pay-1")
        .order_placed(1, 1, &[("apple", 2)])
        .order_placed(2, 2, &[("pear", 1)])
        .inbox(1, 3)
        .inbox(2, 7);
    shop.run(1, lease(1, 11), 1, finished(2))
        .response(
            Some(1),
            RequestAttempt::First,
            ResponseOrigin::Completed,
            201,
            r#"{"order":1}"#,
            2,
        )
        .response(
            Some(1),
            RequestAttempt::Duplicate,
            ResponseOrigin::Replayed,
            201,
            r#"{"order":1}"#,
            5,
        )
        .run(2, lease(1, 16), 6, finished(7))
        .response(Some(2), RequestAttempt::Duplicate, ResponseOrigin::Refused, 409, "", 6)
        .response(
            Some(2),
            RequestAttempt::First,
            ResponseOrigin::Completed,
            201,
            r#"{"order":2}"#,
            7,
        );
    shop.published(1, 2)
        .effect(1, InboxUse::WithInbox, 3)
        .published(1, 4)
        .acknowledged(1, 5)
        .published(2, 7)
        .effect(2, InboxUse::WithInbox, 8)
        .acknowledged(2, 8);
    shop
}

/// Runs every check and compares the violations, one per paragraph, with `expect`.
fn check(shop: &Shop, expect: Expect) {
    let violations = check_all(&shop.tables, &shop.history, &shop.quiescence);
    let actual: String = violations
        .iter()
        .map(|violation| {
            let rows = violation.rows.iter().map(render_row).collect::<Vec<_>>().join(", ");
            format!("{} [{}]\n    {}\n", violation.invariant, rows, violation.sentence)
        })
        .collect();
    expect.assert_eq(&actual);
    for violation in &violations {
        let invariant = violation.invariant;
        assert!(invariant.check(&shop.tables, &shop.history, &shop.quiescence).contains(violation));
    }
    check_incremental(shop, &violations);
}

/// The incremental checker finds the same violations as [`check_all`], in the same order: built
/// from the shop's state, and brought to it in one update from the clean shop it was made from.
fn check_incremental(shop: &Shop, violations: &[Violation]) {
    let afresh = Incremental::new(&shop.tables, &shop.history);
    assert_eq!(afresh.violations(&shop.tables, &shop.history, &shop.quiescence), violations);
    let clean = clean_shop();
    let extends = |old: &History, new: &History| {
        new.responses().starts_with(old.responses())
            && new.message_events().starts_with(old.message_events())
            && new.handler_runs().len() >= old.handler_runs().len()
            && new.handler_runs().iter().zip(old.handler_runs()).all(|(new, old)| {
                new.key == old.key && new.started_at == old.started_at && new.lease == old.lease
            })
    };
    if extends(&clean.history, &shop.history) {
        let mut updated = Incremental::new(&clean.tables, &clean.history);
        updated.update(&shop.tables, &before_image(&clean.tables, &shop.tables), &shop.history);
        assert_eq!(
            updated.violations(&shop.tables, &shop.history, &shop.quiescence),
            violations,
            "the incremental checker, updated from the clean shop"
        );
    }
}

/// The before-image of going from `old` to `new`: every row that differs, as it was in `old`.
fn before_image(old: &Tables, new: &Tables) -> WriteSet {
    fn table<K: Ord + Clone, R: Clone + PartialEq>(
        old: &BTreeMap<K, R>,
        new: &BTreeMap<K, R>,
    ) -> BTreeMap<K, Option<R>> {
        old.keys()
            .chain(new.keys())
            .filter(|key| old.get(*key) != new.get(*key))
            .map(|key| (key.clone(), old.get(key).cloned()))
            .collect()
    }
    WriteSet {
        orders: table(&old.orders, &new.orders),
        stock: table(&old.stock, &new.stock),
        reservations: table(&old.reservations, &new.reservations),
        inbox: table(&old.inbox, &new.inbox),
        outbox: table(&old.outbox, &new.outbox),
        idempotency_keys: table(&old.idempotency_keys, &new.idempotency_keys),
        charges: table(&old.charges, &new.charges),
    }
}

fn render_row(row: &RowRef) -> String {
    match row {
        // The tests' UUIDs are small numbers: print only their last group.
        RowRef::Table { table, key } => {
            format!("{}[{}]", table.as_str(), key).replace("00000000-0000-0000-0000-", "")
        }
        RowRef::Response { index } => format!("responses[{index}]"),
        RowRef::HandlerRun { run } => format!("handler_runs[{}]", run.0),
        RowRef::MessageEvent { index } => format!("message_events[{index}]"),
    }
}

#[test]
fn a_clean_shop_breaks_no_invariant() {
    check(&clean_shop(), expect![""]);
}

#[test]
fn every_invariant_has_a_title_and_a_description() {
    let titles: Vec<String> = InvariantId::ALL
        .iter()
        .map(|id| {
            assert!(id.description().ends_with('.'));
            format!("{id} {}", id.title())
        })
        .collect();
    expect![[r#"
        [
            "I1 Stock is conserved",
            "I2 One reservation per order line",
            "I3 Charged at most once",
            "I4 Same key, same answer",
            "I5 Inbox row exactly when applied",
            "I6 Each OrderPlaced processed once",
            "I7 No 5xx for a duplicate",
        ]
    "#]]
    .assert_debug_eq(&titles);
}

// I1

#[test]
fn i1_stock_taken_twice_by_the_naive_decrement_is_not_conserved() {
    let mut shop = clean_shop();
    shop.stock("apple", 10, 6);
    check(
        &shop,
        expect![[r#"
            I1 [stock["apple"], reservations[["000000000001","apple"]]]
                Stock of apple is not conserved: 10 on hand, but 6 available and 2 reserved (8).
        "#]],
    );
}

#[test]
fn i1_stock_created_from_nothing_is_not_conserved() {
    let mut shop = clean_shop();
    shop.stock("apple", 10, 9);
    check(
        &shop,
        expect![[r#"
            I1 [stock["apple"], reservations[["000000000001","apple"]]]
                Stock of apple is not conserved: 10 on hand, but 9 available and 2 reserved (11).
        "#]],
    );
}

#[test]
fn i1_available_below_zero_is_reported_on_its_own() {
    let mut shop = clean_shop();
    shop.stock("apple", 1, -1);
    check(
        &shop,
        expect![[r#"
            I1 [stock["apple"]]
                Available stock of apple is -1: it must never go below zero.
        "#]],
    );
}

#[test]
fn i1_available_below_zero_and_not_conserved_are_two_violations() {
    let mut shop = clean_shop();
    shop.stock("apple", 1, -3);
    check(
        &shop,
        expect![[r#"
            I1 [stock["apple"], reservations[["000000000001","apple"]]]
                Stock of apple is not conserved: 1 on hand, but -3 available and 2 reserved (-1).
            I1 [stock["apple"]]
                Available stock of apple is -3: it must never go below zero.
        "#]],
    );
}

#[test]
fn i1_available_stock_of_zero_is_conserved_and_not_below_zero() {
    let mut shop = clean_shop();
    // Order 1 reserves 2 apples: 2 on hand, 0 available, 2 reserved is the last apple sold.
    shop.stock("apple", 2, 0);
    check(&shop, expect![""]);
}

#[test]
fn i1_a_reservation_of_a_sku_without_stock_is_not_conserved() {
    let mut shop = clean_shop();
    shop.order(2, &[("pear", 1), ("plum", 3)], OrderStatus::Placed).reservation(2, "plum", 3);
    check(
        &shop,
        expect![[r#"
            I1 [reservations[["000000000002","plum"]]]
                Stock of plum is not conserved: 3 reserved, but plum has no stock row (0 on hand).
        "#]],
    );
}

#[test]
fn i1_sums_do_not_overflow() {
    let mut shop = clean_shop();
    shop.stock("apple", i64::MAX, i64::MAX).reservation(1, "apple", i64::MAX);
    let violations = check_i1_stock_conserved(&shop.tables);
    expect!["Stock of apple is not conserved: 9223372036854775807 on hand, but 9223372036854775807 available and 9223372036854775807 reserved (18446744073709551614)."].assert_eq(&violations[0].sentence);
}

// I2

#[test]
fn i2_a_duplicate_delivery_to_the_naive_twin_doubles_the_reservation() {
    let mut shop = clean_shop();
    shop.stock("apple", 10, 6).reservation(1, "apple", 4);
    check(
        &shop,
        expect![[r#"
            I2 [reservations[["000000000001","apple"]], orders["000000000001"]]
                Order 00000000-0000-0000-0000-000000000001 has 4 units of apple reserved, but it asks for only 2: the reservation effect ran twice.
        "#]],
    );
}

#[test]
fn i2_a_reservation_above_the_line_but_not_a_multiple_is_reported() {
    let mut shop = clean_shop();
    shop.stock("apple", 10, 7).reservation(1, "apple", 3);
    check(
        &shop,
        expect![[r#"
            I2 [reservations[["000000000001","apple"]], orders["000000000001"]]
                Order 00000000-0000-0000-0000-000000000001 has 3 units of apple reserved, but it asks for only 2: more than one reservation effect ran.
        "#]],
    );
}

#[test]
fn i2_a_reservation_needs_its_order_and_its_line() {
    let mut shop = clean_shop();
    shop.stock("apple", 10, 5).reservation(1, "pear", 1).reservation(9, "apple", 3);
    shop.stock("pear", 5, 3);
    check(
        &shop,
        expect![[r#"
            I2 [reservations[["000000000001","pear"]], orders["000000000001"]]
                Order 00000000-0000-0000-0000-000000000001 has 1 unit of pear reserved, but it has no pear line.
            I2 [reservations[["000000000009","apple"]]]
                Order 00000000-0000-0000-0000-000000000009 has 3 units of apple reserved, but no such order exists.
        "#]],
    );
}

#[test]
fn i2_a_reservation_is_never_negative_and_zero_is_released() {
    let mut shop = clean_shop();
    shop.stock("apple", 10, 12)
        .reservation(1, "apple", -2)
        .stock("pear", 5, 5)
        .reservation(2, "pear", 0);
    check(
        &shop,
        expect![[r#"
            I2 [reservations[["000000000001","apple"]], orders["000000000001"]]
                Order 00000000-0000-0000-0000-000000000001 has -2 units of apple reserved: a reservation is never negative, so more was released than reserved.
        "#]],
    );
}

#[test]
fn i2_lines_of_the_same_sku_add_up() {
    let mut shop = clean_shop();
    shop.order(2, &[("pear", 1), ("pear", 2)], OrderStatus::Placed)
        .stock("pear", 5, 2)
        .reservation(2, "pear", 3);
    check(&shop, expect![""]);
}

// I3

#[test]
fn i3_a_repeated_payment_that_charges_again_is_reported() {
    let mut shop = clean_shop();
    shop.charge(2, 1, "pay-1");
    check(
        &shop,
        expect![[r#"
            I3 [orders["000000000001"], charges[1], charges[2]]
                Order 00000000-0000-0000-0000-000000000001 was charged twice: charge-1 (payment pay-1), charge-2 (payment pay-1).
        "#]],
    );
}

#[test]
fn i3_a_paid_order_has_exactly_one_charge_for_its_payment() {
    let mut shop = clean_shop();
    Arc::make_mut(&mut shop.tables.charges).clear();
    shop.order(3, &[], OrderStatus::Shipped { payment_id: payment("pay-3") })
        .charge(3, 3, "pay-4")
        .order(4, &[], OrderStatus::Cancelled { payment_id: Some(payment("pay-5")) })
        .order_placed(3, 3, &[])
        .order_placed(4, 4, &[]);
    shop.quiescence = Quiescence::WorkPending;
    check(
        &shop,
        expect![[r#"
            I3 [orders["000000000001"]]
                Order 00000000-0000-0000-0000-000000000001 is Paid with payment pay-1, but it was never charged.
            I3 [orders["000000000003"], charges[3]]
                Order 00000000-0000-0000-0000-000000000003 is Shipped with payment pay-3, but its charge charge-3 is for payment pay-4.
            I3 [orders["000000000004"]]
                Order 00000000-0000-0000-0000-000000000004 is Cancelled with payment pay-5, but it was never charged.
        "#]],
    );
}

#[test]
fn i3_a_charge_needs_its_order() {
    let mut shop = clean_shop();
    shop.charge(2, 7, "pay-7");
    check(
        &shop,
        expect![[r#"
            I3 [charges[2]]
                Order 00000000-0000-0000-0000-000000000007 does not exist, but it was charged: charge-2 (payment pay-7).
        "#]],
    );
}

#[test]
fn i3_an_order_without_a_payment_may_have_one_charge_but_not_two() {
    let mut shop = clean_shop();
    shop.order(2, &[("pear", 1)], OrderStatus::Cancelled { payment_id: None })
        .charge(2, 2, "pay-2");
    check(&shop, expect![""]);
    shop.charge(3, 2, "pay-2");
    check(
        &shop,
        expect![[r#"
            I3 [orders["000000000002"], charges[2], charges[3]]
                Order 00000000-0000-0000-0000-000000000002 was charged twice: charge-2 (payment pay-2), charge-3 (payment pay-2).
        "#]],
    );
}

// I4

#[test]
fn i4_a_retry_that_runs_the_handler_again_gets_another_answer() {
    let mut shop = clean_shop();
    shop.response(
        Some(1),
        RequestAttempt::Duplicate,
        ResponseOrigin::Completed,
        201,
        r#"{"order":3}"#,
        9,
    )
    .response(Some(1), RequestAttempt::Duplicate, ResponseOrigin::Replayed, 200, "", 10);
    check(
        &shop,
        expect![[r#"
            I4 [responses[0], responses[4]]
                Requests with key 00000000-0000-0000-0000-000000000201 got different answers: status 201 with body `{"order":1}` at t2, but status 201 with body `{"order":3}` at t9 (the handler ran again).
            I4 [responses[0], responses[5]]
                Requests with key 00000000-0000-0000-0000-000000000201 got different answers: status 201 with body `{"order":1}` at t2, but status 200 with an empty body at t10 (a replay).
        "#]],
    );
}

#[test]
fn i4_a_keys_answer_goes_only_to_the_request_it_was_first_given_to() {
    // Key 1 was first answered for 2 apples. Its stored answer replayed to a request for pears
    // agrees with the first answer, status and body, and is still a violation: a layer that
    // skips the fingerprint comparison does exactly this. The naive twin running the handler
    // again for the pears is one violation, not two. A 422 for the pears is the right answer.
    let mut shop = clean_shop();
    let pears = "POST /orders pear=1";
    shop.response_to(pears, Some(1), RequestAttempt::First, ResponseOrigin::Refused, 422, "", 9)
        .response_to(
            pears,
            Some(1),
            RequestAttempt::First,
            ResponseOrigin::Replayed,
            201,
            r#"{"order":1}"#,
            10,
        )
        .response_to(
            pears,
            Some(1),
            RequestAttempt::First,
            ResponseOrigin::Completed,
            201,
            r#"{"order":3}"#,
            11,
        );
    check(
        &shop,
        expect![[r#"
            I4 [responses[0], responses[5]]
                Key 00000000-0000-0000-0000-000000000201 answered another request: status 201 with body `{"order":1}` at t10 went to a request whose method, path or body differs from the one the key first answered at t2 (a replay of the stored answer); a key reused for another request must get 422.
            I4 [responses[0], responses[6]]
                Key 00000000-0000-0000-0000-000000000201 answered another request: status 201 with body `{"order":3}` at t11 went to a request whose method, path or body differs from the one the key first answered at t2 (the handler ran again for it); a key reused for another request must get 422.
        "#]],
    );
    // The reference is the key's first answer, not its first request: a first request whose
    // failure released the key leaves the key to the next request that completes it.
    let mut released = clean_shop();
    released
        .response_to(pears, Some(3), RequestAttempt::First, ResponseOrigin::Released, 500, "", 9)
        .response(Some(3), RequestAttempt::First, ResponseOrigin::Completed, 201, "{}", 10)
        .response(Some(3), RequestAttempt::Duplicate, ResponseOrigin::Replayed, 201, "{}", 11)
        .response_to(
            pears,
            Some(3),
            RequestAttempt::Duplicate,
            ResponseOrigin::Refused,
            422,
            "",
            12,
        );
    check(&released, expect![""]);
}

#[test]
fn i4_refusals_and_released_failures_are_not_the_keys_answer() {
    let mut shop = clean_shop();
    shop.response(Some(3), RequestAttempt::First, ResponseOrigin::Released, 500, "db down", 9)
        .response(
            Some(3),
            RequestAttempt::First,
            ResponseOrigin::Refused,
            422,
            "fingerprint mismatch",
            10,
        )
        .response(
            Some(3),
            RequestAttempt::Duplicate,
            ResponseOrigin::Completed,
            201,
            r#"{"order":3}"#,
            11,
        )
        .response(None, RequestAttempt::First, ResponseOrigin::Completed, 201, r#"{"order":4}"#, 12)
        .response(
            None,
            RequestAttempt::First,
            ResponseOrigin::Completed,
            201,
            r#"{"order":5}"#,
            12,
        );
    check(&shop, expect![""]);
}

#[test]
fn i4_a_takeover_before_the_lease_of_a_crashed_run_ends_is_reported() {
    let mut shop = clean_shop();
    shop.run(3, lease(1, 20), 10, crashed(12)).run(3, lease(2, 25), 15, finished(16));
    check(
        &shop,
        expect![[r#"
        I4 [handler_runs[2], handler_runs[3]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 3 with token 2 started at t15 while run 2, started at t10, still held the key: it crashed at t12, but its lease with token 1 runs until t20.
    "#]],
    );
}

#[test]
fn i4_a_takeover_when_the_lease_ends_is_fine_even_if_the_stale_run_goes_on() {
    let mut shop = clean_shop();
    shop.run(3, lease(1, 20), 10, finished(24)).run(3, lease(2, 30), 20, finished(21)).run(
        3,
        lease(3, 40),
        30,
        None,
    );
    check(&shop, expect![""]);
}

#[test]
fn i4_a_run_that_starts_before_another_finished_within_its_lease_is_reported() {
    let mut shop = clean_shop();
    shop.run(3, lease(1, 20), 10, finished(14)).run(3, lease(2, 20), 12, None);
    check(
        &shop,
        expect![[r#"
        I4 [handler_runs[2], handler_runs[3]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 3 with token 2 started at t12 while run 2, started at t10, still held the key: it finished only at t14, within its lease with token 1 (until t20).
    "#]],
    );
}

#[test]
fn i4_a_run_that_finishes_when_its_lease_ends_held_the_key_by_its_lease() {
    let mut shop = clean_shop();
    shop.run(3, lease(1, 20), 10, finished(20)).run(3, lease(2, 30), 15, None);
    check(
        &shop,
        expect![[r#"
        I4 [handler_runs[2], handler_runs[3]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 3 with token 2 started at t15 while run 2, started at t10, still held the key: its lease with token 1 runs until t20 (it finished at t20).
    "#]],
    );
}

#[test]
fn i4_names_the_first_of_two_runs_that_hold_the_key_until_the_same_tick() {
    let mut shop = clean_shop();
    // Runs 2 and 3 both hold key 3 until t15; run 4 starts while both do and is reported
    // against run 2, the first holder, not against run 3, which was itself a second run.
    shop.run(3, None, 10, finished(15)).run(3, None, 11, finished(15)).run(3, None, 12, None);
    check(
        &shop,
        expect![[r#"
        I4 [handler_runs[2], handler_runs[3]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 3 started at t11 while run 2, started at t10, still held the key: it had no lease and ran until it finished at t15.
        I4 [handler_runs[2], handler_runs[4]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 4 started at t12 while run 2, started at t10, still held the key: it had no lease and ran until it finished at t15.
    "#]],
    );
}

#[test]
fn i4_a_double_submit_to_the_naive_twin_runs_the_handler_twice_at_once() {
    let mut shop = clean_shop();
    // Key 3: three runs without a lease; the second starts while the first runs, the third
    // while the second runs. Key 4: the second run starts when the first crashed, which is fine.
    shop.run(3, None, 10, finished(13)).run(3, None, 10, None).run(3, None, 11, crashed(12));
    shop.run(4, None, 10, crashed(12)).run(4, None, 12, None);
    check(
        &shop,
        expect![[r#"
        I4 [handler_runs[2], handler_runs[3]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 3 started at t10 while run 2, started at t10, still held the key: it had no lease and ran until it finished at t13.
        I4 [handler_runs[3], handler_runs[4]]
            The handler of key 00000000-0000-0000-0000-000000000203 ran twice at once: run 4 started at t11 while run 3, started at t10, still held the key: it had no lease and was still running.
    "#]],
    );
}

// I5

#[test]
fn i5_an_inbox_row_without_an_effect_is_reported() {
    let mut shop = clean_shop();
    shop.inbox(3, 9);
    check(
        &shop,
        expect![[r#"
            I5 [inbox[["000000000103","reserve-stock"]]]
                Inbox row (00000000-0000-0000-0000-000000000103, reserve-stock) exists, but reserve-stock never applied message 00000000-0000-0000-0000-000000000103.
        "#]],
    );
}

#[test]
fn i5_an_effect_without_its_inbox_row_is_reported() {
    let mut shop = clean_shop();
    Arc::make_mut(&mut shop.tables.inbox).remove(&(message_id(2), reserve_stock()));
    check(
        &shop,
        expect![[r#"
        I5 [message_events[5]]
            reserve-stock applied message 00000000-0000-0000-0000-000000000102 at t8, but there is no inbox row (00000000-0000-0000-0000-000000000102, reserve-stock) and no purge of it since.
    "#]],
    );
}

#[test]
fn i5_a_purged_row_is_gone_until_the_next_effect() {
    let mut shop = clean_shop();
    Arc::make_mut(&mut shop.tables.inbox).remove(&(message_id(1), reserve_stock()));
    shop.purged(1, 50);
    check(&shop, expect![""]);

    let mut row_still_there = clean_shop();
    row_still_there.purged(1, 50);
    check(
        &row_still_there,
        expect![[r#"
            I5 [inbox[["000000000101","reserve-stock"]], message_events[1], message_events[7]]
                Inbox row (00000000-0000-0000-0000-000000000101, reserve-stock) exists, but it was purged at t50 and reserve-stock has not applied message 00000000-0000-0000-0000-000000000101 since.
        "#]],
    );
}

#[test]
fn i5_a_duplicate_after_the_retention_window_applies_again_which_i5_allows_and_i6_reports() {
    let mut shop = clean_shop();
    shop.purged(1, 50).effect(1, InboxUse::WithInbox, 60).inbox(1, 60);
    check(
        &shop,
        expect![[r#"
            I6 [outbox["000000000101"], message_events[1], message_events[8]]
                At quiescence, reserve-stock processed OrderPlaced 00000000-0000-0000-0000-000000000101 of order 00000000-0000-0000-0000-000000000001 twice, not exactly once (the message was published twice).
        "#]],
    );
}

#[test]
fn i5_two_effects_under_one_inbox_row_are_reported() {
    let mut shop = clean_shop();
    shop.effect(2, InboxUse::WithInbox, 9);
    shop.quiescence = Quiescence::WorkPending;
    check(
        &shop,
        expect![[r#"
            I5 [inbox[["000000000102","reserve-stock"]], message_events[5], message_events[7]]
                reserve-stock applied message 00000000-0000-0000-0000-000000000102 twice (at t8, t9) with no purge of its inbox row (00000000-0000-0000-0000-000000000102, reserve-stock) in between: the inbox row must stop every effect after the first.
        "#]],
    );
}

#[test]
fn i5_does_not_check_a_consumer_without_an_inbox() {
    let mut shop = clean_shop();
    shop.effect(3, InboxUse::WithoutInbox, 9);
    check(&shop, expect![""]);
}

// I6

#[test]
fn i6_a_redelivery_to_the_naive_consumer_is_processed_twice() {
    let mut shop = clean_shop();
    Arc::make_mut(&mut shop.tables.inbox).clear();
    shop.history = History::default();
    shop.published(1, 2)
        .effect(1, InboxUse::WithoutInbox, 3)
        .published(1, 4)
        .effect(1, InboxUse::WithoutInbox, 5)
        .published(2, 6)
        .effect(2, InboxUse::WithoutInbox, 7);
    check(
        &shop,
        expect![[r#"
            I6 [outbox["000000000101"], message_events[1], message_events[3]]
                At quiescence, reserve-stock processed OrderPlaced 00000000-0000-0000-0000-000000000101 of order 00000000-0000-0000-0000-000000000001 twice, not exactly once (the message was published twice).
        "#]],
    );
    shop.quiescence = Quiescence::WorkPending;
    check(&shop, expect![""]);
}

#[test]
fn i6_an_unpublished_order_placed_is_never_processed() {
    let mut shop = clean_shop();
    shop.order(3, &[], OrderStatus::Placed).order_placed(3, 3, &[]).order(
        4,
        &[],
        OrderStatus::Placed,
    );
    check(
        &shop,
        expect![[r#"
            I6 [outbox["000000000103"]]
                At quiescence, reserve-stock processed OrderPlaced 00000000-0000-0000-0000-000000000103 of order 00000000-0000-0000-0000-000000000003 0 times, not exactly once (the message was published 0 times).
            I6 [orders["000000000004"]]
                At quiescence, order 00000000-0000-0000-0000-000000000004 has no OrderPlaced message in the outbox, so no consumer processed its placement.
        "#]],
    );
    shop.quiescence =
        Quiescence::Quiescent { order_placed_consumers: Vec::new(), dead_lettered: Vec::new() };
    check(&shop, expect![""]);
}

// I7

#[test]
fn i7_a_repeated_payment_call_that_fails_with_500_is_reported() {
    let mut shop = clean_shop();
    shop.response(
        None,
        RequestAttempt::First,
        ResponseOrigin::Completed,
        500,
        "first attempts may fail",
        9,
    )
    .response(
        None,
        RequestAttempt::Duplicate,
        ResponseOrigin::Completed,
        500,
        "cannot pay an order in status Paid",
        10,
    )
    .response(Some(3), RequestAttempt::Duplicate, ResponseOrigin::Released, 503, "", 11);
    check(
        &shop,
        expect![[r#"
            I7 [responses[5]]
                A duplicate request without a key got status 500 with body `cannot pay an order in status Paid` at t10: a duplicate must never make the API fail.
            I7 [responses[6]]
                A duplicate request with key 00000000-0000-0000-0000-000000000203 got status 503 with an empty body at t11: a duplicate must never make the API fail.
        "#]],
    );
}

// Never panics

fn small_uuid() -> impl Strategy<Value = Uuid> + Clone {
    (0u128..4).prop_map(Uuid::from_u128)
}

fn small_sku() -> impl Strategy<Value = Sku> {
    prop::sample::select(vec!["apple", "pear"]).prop_map(Sku::new)
}

fn any_qty() -> impl Strategy<Value = i64> {
    prop_oneof![-3i64..12, Just(i64::MIN), Just(i64::MAX)]
}

fn any_tick() -> impl Strategy<Value = Tick> {
    prop_oneof![(0u64..30).prop_map(Tick), Just(Tick(u64::MAX))]
}

fn any_payment_id() -> impl Strategy<Value = PaymentId> {
    prop::sample::select(vec!["pay-1", "pay-2"]).prop_map(PaymentId::new)
}

fn any_consumer() -> impl Strategy<Value = ConsumerName> {
    prop::sample::select(vec!["reserve-stock", "send-email"]).prop_map(ConsumerName::new)
}

fn any_lines() -> impl Strategy<Value = Vec<OrderLine>> {
    prop::collection::vec(
        (small_sku(), prop_oneof![0u32..4, Just(u32::MAX)])
            .prop_map(|(sku, qty)| OrderLine { sku, qty }),
        0..3,
    )
}

fn any_status() -> impl Strategy<Value = OrderStatus> {
    prop_oneof![
        Just(OrderStatus::Placed),
        any_payment_id().prop_map(|payment_id| OrderStatus::Paid { payment_id }),
        any_payment_id().prop_map(|payment_id| OrderStatus::Shipped { payment_id }),
        prop::option::of(any_payment_id())
            .prop_map(|payment_id| OrderStatus::Cancelled { payment_id }),
    ]
}

fn any_tables() -> impl Strategy<Value = Tables> {
    let stock = prop::collection::vec(
        (small_sku(), any_qty(), any_qty()).prop_map(|(sku, on_hand_qty, available_qty)| {
            StockRow { sku, on_hand_qty, available_qty }
        }),
        0..3,
    );
    let orders = prop::collection::vec(
        (small_uuid(), any_lines(), any_status()).prop_map(|(id, lines, status)| OrderRow {
            id: OrderId(id),
            lines: lines.into(),
            status,
        }),
        0..4,
    );
    let reservations = prop::collection::vec(
        (small_uuid(), small_sku(), any_qty()).prop_map(|(order, sku, qty)| ReservationRow {
            order_id: OrderId(order),
            sku,
            qty,
        }),
        0..4,
    );
    let charges =
        prop::collection::vec(
            (0u64..4, small_uuid(), any_payment_id()).prop_map(|(id, order, payment_id)| {
                ChargeRow { id: ChargeId(id), order_id: OrderId(order), payment_id }
            }),
            0..4,
        );
    let payload = prop_oneof![
        (small_uuid(), any_lines()).prop_map(|(order, lines)| MessagePayload::OrderPlaced {
            order_id: OrderId(order),
            lines: lines.into()
        }),
        (small_uuid(), any_payment_id()).prop_map(|(order, payment_id)| {
            MessagePayload::PaymentCaptured { order_id: OrderId(order), payment_id }
        }),
        small_uuid().prop_map(|order| MessagePayload::OrderCancelled { order_id: OrderId(order) }),
    ];
    let outbox = prop::collection::vec(
        (small_uuid(), payload, any::<bool>(), any_tick()).prop_map(
            |(message, payload, published, created_at)| OutboxRow {
                message_id: MessageId(message),
                payload,
                published,
                created_at,
            },
        ),
        0..4,
    );
    let inbox = prop::collection::vec(
        (small_uuid(), any_consumer(), any_tick()).prop_map(|(message, consumer, processed_at)| {
            InboxRow { message_id: MessageId(message), consumer, processed_at }
        }),
        0..4,
    );
    (stock, orders, reservations, charges, outbox, inbox).prop_map(
        |(stock, orders, reservations, charges, outbox, inbox)| {
            fn keyed<R: Row>(rows: Vec<R>) -> Arc<BTreeMap<R::Key, R>> {
                Arc::new(rows.into_iter().map(|row| (row.key(), row)).collect())
            }
            Tables {
                stock: keyed(stock),
                orders: keyed(orders),
                reservations: keyed(reservations),
                charges: keyed(charges),
                outbox: keyed(outbox),
                inbox: keyed(inbox),
                ..Tables::default()
            }
        },
    )
}

/// One call of the history's recording API, possibly a wrong one (ending an unknown run).
#[derive(Clone, Debug)]
enum Record {
    Response(ApiResponse),
    RunStarted(IdempotencyKey, Option<KeyLease>, Tick),
    RunEnded(usize, HandlerRunEnd),
    Event(MessageEvent),
}

fn any_record() -> impl Strategy<Value = Record> {
    let key = small_uuid().prop_map(IdempotencyKey);
    let message = small_uuid().prop_map(MessageId);
    let response = (
        prop::option::of(key.clone()),
        prop::sample::select(vec![RequestAttempt::First, RequestAttempt::Duplicate]),
        prop::sample::select(vec![
            ResponseOrigin::Completed,
            ResponseOrigin::Replayed,
            ResponseOrigin::Released,
            ResponseOrigin::Refused,
        ]),
        prop::sample::select(vec![0u16, 200, 201, 409, 500, u16::MAX]),
        prop::sample::select(vec!["", "a", "b"]),
        any_tick(),
    )
        .prop_map(|(key, attempt, origin, status, body, answered_at)| {
            Record::Response(ApiResponse {
                key,
                fingerprint: RequestFingerprint("f".into()),
                attempt,
                origin,
                status,
                body: body.to_owned(),
                answered_at,
            })
        });
    let lease = prop::option::of((0u64..3, any_tick()).prop_map(|(token, expires_at)| KeyLease {
        fencing_token: FencingToken(token),
        expires_at,
    }));
    let end = (any::<bool>(), any_tick()).prop_map(|(crash, at)| {
        if crash { HandlerRunEnd::Crashed { at } } else { HandlerRunEnd::Finished { at } }
    });
    let event = prop_oneof![
        (message.clone(), any_tick()).prop_map(|(message_id, published_at)| {
            MessageEvent::Published { message_id, published_at }
        }),
        (message.clone(), any_consumer(), any::<bool>(), any_tick()).prop_map(
            |(message_id, consumer, with_inbox, committed_at)| {
                let inbox = if with_inbox { InboxUse::WithInbox } else { InboxUse::WithoutInbox };
                MessageEvent::EffectCommitted { message_id, consumer, inbox, committed_at }
            }
        ),
        (message.clone(), any_consumer(), any_tick()).prop_map(
            |(message_id, consumer, acknowledged_at)| MessageEvent::Acknowledged {
                message_id,
                consumer,
                acknowledged_at
            }
        ),
        (message, any_consumer(), any_tick()).prop_map(|(message_id, consumer, purged_at)| {
            MessageEvent::InboxRowPurged { message_id, consumer, purged_at }
        }),
    ];
    prop_oneof![
        response,
        (key, lease, any_tick()).prop_map(|(key, lease, at)| Record::RunStarted(key, lease, at)),
        (0usize..6, end).prop_map(|(run, end)| Record::RunEnded(run, end)),
        event.prop_map(Record::Event),
    ]
}

fn any_history() -> impl Strategy<Value = History> {
    prop::collection::vec(any_record(), 0..16).prop_map(|records| {
        let mut history = History::new(crate::history::HistoryConfig { records_max: 12 });
        for record in records {
            // Wrong calls and calls past the limit are typed errors; the history stays as it was.
            let _ = match record {
                Record::Response(response) => history.record_response(response).map(drop),
                Record::RunStarted(key, lease, at) => {
                    history.record_handler_run_started(key, lease, at).map(drop)
                }
                Record::RunEnded(run, end) => {
                    history.record_handler_run_ended(HandlerRunId(run), end)
                }
                Record::Event(event) => history.record_message_event(event).map(drop),
            };
        }
        history
    })
}

fn any_quiescence() -> impl Strategy<Value = Quiescence> {
    prop_oneof![
        Just(Quiescence::WorkPending),
        prop::collection::vec(any_consumer(), 0..3).prop_map(|order_placed_consumers| {
            Quiescence::Quiescent { order_placed_consumers, dead_lettered: Vec::new() }
        }),
    ]
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(256))]

    #[test]
    fn check_all_never_panics_and_is_deterministic(
        tables in any_tables(),
        history in any_history(),
        quiescence in any_quiescence(),
    ) {
        let violations = check_all(&tables, &history, &quiescence);
        prop_assert_eq!(&violations, &check_all(&tables, &history, &quiescence));
        // In the fixed order: invariant by invariant, and each is what its own check finds.
        let expected: Vec<Violation> = InvariantId::ALL
            .into_iter()
            .flat_map(|invariant| invariant.check(&tables, &history, &quiescence))
            .collect();
        prop_assert_eq!(&violations, &expected);
        for violation in &violations {
            prop_assert!(!violation.sentence.is_empty());
            prop_assert!(!violation.rows.is_empty());
        }
    }

    #[test]
    fn check_all_never_panics_on_a_history_read_back_from_json(
        tables in any_tables(),
        runs in prop::collection::vec((small_uuid(), any_tick(), any_tick(), any_tick()), 0..4),
    ) {
        // Deserialization bypasses the recording API: a run may end before it starts.
        let runs: Vec<serde_json::Value> = runs
            .into_iter()
            .map(|(key, started_at, expires_at, ended_at)| serde_json::json!({
                "key": key,
                "lease": {"fencing_token": 1, "expires_at": expires_at},
                "started_at": started_at,
                "end": {"ended": "finished", "at": ended_at},
            }))
            .collect();
        let json = serde_json::json!({
            "config": {"records_max": 0},
            "responses": [],
            "handler_runs": runs,
            "message_events": [],
        });
        let history: History = serde_json::from_value(json).unwrap();
        let quiescence = Quiescence::Quiescent { order_placed_consumers: vec![reserve_stock()], dead_lettered: Vec::new() };
        let _ = check_all(&tables, &history, &quiescence);
    }
}
