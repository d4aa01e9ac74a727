//! Tests of pattern P3: exact statuses, headers and bodies for every answer of the layer, the
//! interleavings that make its races real (double submit, takeover, stale completion), the
//! naive twin creating a second charge where the layer replays, and property tests for
//! invariant I4 and for arbitrary header strings.

use expect_test::{Expect, expect};
use proptest::prelude::*;
use thiserror::Error;
use uuid::Uuid;

use super::*;
use crate::ids::{IdempotencyKey, OrderId, PaymentId, Tick, TxId};
use crate::step::{Step, Steps};
use crate::store::{
    ChargeRow, FencingToken, IdempotencyKeyRow, KeyState, RequestFingerprint, Store, StoreError,
};

// ---------------------------------------------------------------------------------------------
// Helpers

fn key(n: u128) -> IdempotencyKey {
    IdempotencyKey(Uuid::from_u128(n))
}

fn order(n: u128) -> OrderId {
    OrderId(Uuid::from_u128(0xA000 + n))
}

/// `POST /charges` for order `n` with payment `payment`, under `key` if any.
fn charge(key: Option<IdempotencyKey>, n: u128, payment: &str) -> HttpRequest {
    let request = charge_request(order(n), PaymentId::new(payment));
    match key {
        Some(key) => request.with_header(IDEMPOTENCY_KEY_HEADER, key.to_string()),
        None => request,
    }
}

fn config() -> Config {
    Config { lease_ticks: 10, retention_ticks: 100, failure_policy: FailurePolicy::ReleaseKey }
}

fn send(store: &mut Store, config: Config, request: HttpRequest, now: u64) -> HandledRequest {
    let handler = CreateCharge::for_request(&request);
    handle_request(Implementation::Idempotent, config, request, handler, store, Tick(now)).unwrap()
}

fn send_naive(store: &mut Store, request: HttpRequest, now: u64) -> HandledRequest {
    let handler = CreateCharge::for_request(&request);
    handle_request(Implementation::Naive, config(), request, handler, store, Tick(now)).unwrap()
}

fn render_response(response: &HttpResponse) -> String {
    let mut text = format!("{}\n", response.status);
    for (name, value) in &response.headers {
        text.push_str(&format!("{name}: {value}\n"));
    }
    text.push_str(&response.body);
    text.push('\n');
    text
}

fn render(handled: &HandledRequest) -> String {
    let mut text = render_response(&handled.response);
    for event in &handled.events {
        text.push_str(&format!("event {}\n", serde_json::to_string(event).unwrap()));
    }
    text
}

/// The module's check helper: the full answer (status, headers, body) and the events.
fn check(handled: &HandledRequest, expect: Expect) {
    expect.assert_eq(&render(handled));
}

fn charges(store: &Store) -> Vec<ChargeRow> {
    store.committed().charges.values().cloned().collect()
}

fn key_row(store: &Store, key: IdempotencyKey) -> Option<IdempotencyKeyRow> {
    store.committed().idempotency_keys.get(&key).cloned()
}

/// Steps `machine` once and logs `name now: statement -> outcome`.
fn step_logged<S>(
    name: &str,
    machine: &mut S,
    store: &mut Store,
    now: u64,
    log: &mut Vec<String>,
) -> Step<HttpResponse>
where
    S: Steps<Output = HttpResponse>,
    S::Error: std::fmt::Debug,
{
    let statement = machine.next_statement(Tick(now)).unwrap_or_default();
    let step = machine.step(store, Tick(now)).unwrap();
    let outcome = match &step {
        Step::Continue => "ok".to_owned(),
        Step::Blocked(wait) => format!("blocked by {}", wait.holder),
        Step::Done(response) => format!("answers {}", response.status),
    };
    log.push(format!("{name} t{now}: {statement} -> {outcome}"));
    step
}

fn step_until_statement<S>(
    name: &str,
    machine: &mut S,
    store: &mut Store,
    now: u64,
    log: &mut Vec<String>,
    prefix: &str,
) where
    S: Steps<Output = HttpResponse>,
    S::Error: std::fmt::Debug,
{
    for _ in 0..100 {
        if machine.next_statement(Tick(now)).is_some_and(|statement| statement.starts_with(prefix))
        {
            return;
        }
        let step = step_logged(name, machine, store, now, log);
        assert!(matches!(step, Step::Continue), "{name} stopped before {prefix}: {step:?}");
    }
    panic!("{name} never reached {prefix}");
}

fn finish<S>(
    name: &str,
    machine: &mut S,
    store: &mut Store,
    now: u64,
    log: &mut Vec<String>,
) -> HttpResponse
where
    S: Steps<Output = HttpResponse>,
    S::Error: std::fmt::Debug,
{
    for _ in 0..100 {
        if let Step::Done(response) = step_logged(name, machine, store, now, log) {
            return response;
        }
    }
    panic!("{name} never answered");
}

fn layer(config: Config, request: HttpRequest) -> IdempotencyLayer<CreateCharge> {
    let handler = CreateCharge::for_request(&request);
    IdempotencyLayer::new(config, request, handler)
}

/// The simulator's crash: drop the machine, roll back its open transaction.
fn crash<S: Steps>(machine: S, store: &mut Store) {
    if let Some(tx) = machine.open_transaction() {
        store.rollback(tx).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// The key header

#[test]
fn missing_key_is_400_problem_and_touches_nothing() {
    let mut store = Store::default();
    let handled = send(&mut store, config(), charge(None, 1, "pay-1"), 0);
    check(
        &handled,
        expect![[r#"
            400
            content-type: application/problem+json
            {"type":"tag:idempotency-lab,2025:idempotency-key-missing","title":"Idempotency-Key header is missing","status":400,"detail":"the request has no Idempotency-Key header; send one with a UUID, made once per operation and reused on every retry of it"}
            event {"event":"KeyHeaderRejected","error":{"reason":"missing"}}
        "#]],
    );
    assert_eq!(store, Store::default());
}

#[test]
fn non_uuid_key_is_400_problem_naming_the_value() {
    let mut store = Store::default();
    let request = charge(None, 1, "pay-1").with_header("idempotency-key", "order-42");
    let handled = send(&mut store, config(), request, 0);
    check(
        &handled,
        expect![[r#"
            400
            content-type: application/problem+json
            {"type":"tag:idempotency-lab,2025:idempotency-key-invalid","title":"Idempotency-Key header is invalid","status":400,"detail":"the Idempotency-Key header must be a UUID, such as \"8e03978e-40d5-43e8-bc93-6894a57f9324\"; got \"order-42\""}
            event {"event":"KeyHeaderRejected","error":{"reason":"not_a_uuid","value":"order-42"}}
        "#]],
    );
    assert_eq!(store, Store::default());
}

#[test]
fn repeated_key_header_is_400() {
    let mut store = Store::default();
    let request =
        charge(Some(key(1)), 1, "pay-1").with_header("IDEMPOTENCY-KEY", key(2).to_string());
    let handled = send(&mut store, config(), request, 0);
    check(
        &handled,
        expect![[r#"
            400
            content-type: application/problem+json
            {"type":"tag:idempotency-lab,2025:idempotency-key-invalid","title":"Idempotency-Key header is invalid","status":400,"detail":"the request has 2 Idempotency-Key headers; send exactly one"}
            event {"event":"KeyHeaderRejected","error":{"reason":"repeated","count":2}}
        "#]],
    );
}

#[test]
fn key_header_accepts_bare_quoted_and_padded_uuids_in_any_name_case() {
    let uuid = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    let expected = Ok(IdempotencyKey(Uuid::parse_str(uuid).unwrap()));
    for (name, value) in [
        ("Idempotency-Key", uuid.to_owned()),
        ("idempotency-key", format!("\"{uuid}\"")),
        ("IDEMPOTENCY-KEY", format!("  {uuid}\t")),
    ] {
        let request = HttpRequest::new("POST", "/charges", "").with_header(name, value);
        assert_eq!(parse_idempotency_key(&request), expected);
    }
    assert_eq!(
        parse_key_value("\"not-a-uuid\""),
        Err(KeyHeaderError::NotAUuid { value: "\"not-a-uuid\"".to_owned() })
    );
    // A long value is cut on a character boundary, never inside one.
    // Two bytes a character, as a non-Latin key would be.
    let long = "\u{3b1}\u{3b2}\u{3b3}\u{3b4}".repeat(40);
    let Err(KeyHeaderError::NotAUuid { value }) = parse_key_value(&long) else {
        panic!("a long non-UUID must be rejected");
    };
    assert_eq!(value.chars().count(), REJECTED_VALUE_CHARS_MAX + 1);
    assert!(value.ends_with('…'));
}

// ---------------------------------------------------------------------------------------------
// First request, replay, 422

#[test]
fn first_request_is_201_and_a_retry_replays_it_exactly() {
    let mut store = Store::default();
    let first = send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 0);
    check(
        &first,
        expect![[r#"
            201
            content-type: application/json
            location: /charges/1
            {"charge_id":1,"order_id":"00000000-0000-0000-0000-00000000a001","payment_id":"pay-1"}
            event {"event":"KeyReserved","key":"00000000-0000-0000-0000-000000000001","fencing_token":1,"lease_expires_at":10}
            event {"event":"HandlerCompleted","status":201}
            event {"event":"ResponseStored","key":"00000000-0000-0000-0000-000000000001","fencing_token":1,"status":201}
        "#]],
    );
    let retry = send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 3);
    check(
        &retry,
        expect![[r#"
            201
            content-type: application/json
            location: /charges/1
            {"charge_id":1,"order_id":"00000000-0000-0000-0000-00000000a001","payment_id":"pay-1"}
            event {"event":"ResponseReplayed","key":"00000000-0000-0000-0000-000000000001","status":201}
        "#]],
    );
    assert_eq!(retry.response, first.response);
    assert_eq!(charges(&store).len(), 1);
    let row = key_row(&store, key(1)).unwrap();
    assert_eq!(row.state, KeyState::Completed { response: first.response.clone().into() });
    assert_eq!(row.created_at, Tick(0));
    assert_eq!(row.fingerprint, fingerprint(&charge(None, 1, "pay-1")));
}

#[test]
fn the_layer_keeps_each_steps_events_in_order_until_they_are_taken() {
    let mut store = Store::default();
    let mut first = layer(config(), charge(Some(key(1)), 1, "pay-1"));
    let mut seen: Vec<IdempotencyEvent> = Vec::new();
    for _ in 0..100 {
        let step = first.step(&mut store, Tick(0)).unwrap();
        // A step only adds events: those of the earlier steps stay, in their order.
        assert!(first.events().starts_with(&seen), "{:?} after {seen:?}", first.events());
        seen = first.events().to_vec();
        if let Step::Done(response) = step {
            assert_eq!(response.status, 201);
            break;
        }
    }
    let reserved = IdempotencyEvent::KeyReserved {
        key: key(1),
        fencing_token: FencingToken(1),
        lease_expires_at: Tick(10),
    };
    let stored = IdempotencyEvent::ResponseStored {
        key: key(1),
        fencing_token: FencingToken(1),
        status: 201,
    };
    let expected = vec![reserved, IdempotencyEvent::HandlerCompleted { status: 201 }, stored];
    assert_eq!(first.events(), expected.as_slice());
    assert_eq!(first.take_events(), expected);
    assert!(first.events().is_empty());

    // A retry's replay is its one event.
    let mut retry = layer(config(), charge(Some(key(1)), 1, "pay-1"));
    let replayed = IdempotencyEvent::ResponseReplayed { key: key(1), status: 201 };
    assert_eq!(finish("retry", &mut retry, &mut store, 1, &mut Vec::new()).status, 201);
    assert_eq!(retry.events(), std::slice::from_ref(&replayed));
    assert_eq!(retry.take_events(), vec![replayed]);
}

#[test]
fn same_key_with_another_payload_is_422_and_the_stored_response_stays() {
    let mut store = Store::default();
    let first = send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 0);
    let reused = send(&mut store, config(), charge(Some(key(1)), 1, "pay-2"), 1);
    check(
        &reused,
        expect![[r#"
            422
            content-type: application/problem+json
            {"type":"tag:idempotency-lab,2025:idempotency-key-reused","title":"Idempotency-Key reused with a different request","status":422,"detail":"Idempotency-Key 00000000-0000-0000-0000-000000000001 was first used with a request of fingerprint sha256:6fdc201a4ef0…, and this request (POST /charges) has fingerprint sha256:0e739dc7a3cf…: the method, path or body differs; use a new key for a new request"}
            event {"event":"FingerprintMismatch","key":"00000000-0000-0000-0000-000000000001","stored":"sha256:6fdc201a4ef06f88a6042c1cba49f074a618d29962b86e9dabd01012951c67b6","received":"sha256:0e739dc7a3cf616653e32d029dd02c7f3ff7902224210a6da184d4a5314a9d5e"}
        "#]],
    );
    assert_eq!(charges(&store).len(), 1);
    let replay = send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 2);
    assert_eq!(replay.response, first.response);
}

// ---------------------------------------------------------------------------------------------
// Races: the seed's check-then-act, interleaved

#[test]
fn concurrent_same_key_loses_the_insert_and_gets_409() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut a = layer(config(), request.clone());
    let mut b = layer(config(), request);
    let mut log = Vec::new();
    // Both read the key as absent, then both insert: the seed's race.
    step_until_statement("A", &mut a, &mut store, 0, &mut log, "INSERT");
    step_until_statement("B", &mut b, &mut store, 0, &mut log, "INSERT");
    step_logged("A", &mut a, &mut store, 0, &mut log);
    assert!(matches!(step_logged("B", &mut b, &mut store, 0, &mut log), Step::Blocked(_)));
    step_logged("A", &mut a, &mut store, 0, &mut log);
    let b_response = finish("B", &mut b, &mut store, 0, &mut log);
    let a_response = finish("A", &mut a, &mut store, 0, &mut log);
    expect![[r#"
        A t0: -- parse header Idempotency-Key -> ok
        A t0: BEGIN -> ok
        A t0: SELECT * FROM idempotency_keys WHERE key = '00000000-0000-0000-0000-000000000001' -> ok
        B t0: -- parse header Idempotency-Key -> ok
        B t0: BEGIN -> ok
        B t0: SELECT * FROM idempotency_keys WHERE key = '00000000-0000-0000-0000-000000000001' -> ok
        A t0: INSERT INTO idempotency_keys (key, fingerprint, state, lease_expires_at, fencing_token, response_status, response_headers, response_body, created_at) VALUES ('00000000-0000-0000-0000-000000000001', 'sha256:6fdc201a4ef06f88a6042c1cba49f074a618d29962b86e9dabd01012951c67b6', 'in_progress', 10, 1, NULL, NULL, NULL, 0) ON CONFLICT (key) DO NOTHING -> ok
        B t0: INSERT INTO idempotency_keys (key, fingerprint, state, lease_expires_at, fencing_token, response_status, response_headers, response_body, created_at) VALUES ('00000000-0000-0000-0000-000000000001', 'sha256:6fdc201a4ef06f88a6042c1cba49f074a618d29962b86e9dabd01012951c67b6', 'in_progress', 10, 1, NULL, NULL, NULL, 0) ON CONFLICT (key) DO NOTHING -> blocked by tx1
        A t0: COMMIT -> ok
        B t0: INSERT INTO idempotency_keys (key, fingerprint, state, lease_expires_at, fencing_token, response_status, response_headers, response_body, created_at) VALUES ('00000000-0000-0000-0000-000000000001', 'sha256:6fdc201a4ef06f88a6042c1cba49f074a618d29962b86e9dabd01012951c67b6', 'in_progress', 10, 1, NULL, NULL, NULL, 0) ON CONFLICT (key) DO NOTHING -> ok
        B t0: COMMIT -> answers 409
        A t0: -- parse the request body -> ok
        A t0: BEGIN -> ok
        A t0: INSERT INTO charges (id, order_id, payment_id) VALUES (nextval('charges_id_seq'), '00000000-0000-0000-0000-00000000a001', 'pay-1') -> ok
        A t0: COMMIT -> ok
        A t0: BEGIN -> ok
        A t0: UPDATE idempotency_keys SET state = 'completed', lease_expires_at = NULL, fencing_token = NULL, response_status = 201, response_headers = '[["content-type","application/json"],["location","/charges/1"]]', response_body = '{"charge_id":1,"order_id":"00000000-0000-0000-0000-00000000a001","payment_id":"pay-1"}' WHERE key = '00000000-0000-0000-0000-000000000001' AND state = 'in_progress' AND fencing_token = 1 -> ok
        A t0: COMMIT -> answers 201
    "#]]
    .assert_eq(&(log.join("\n") + "\n"));
    expect![[r#"
        409
        content-type: application/problem+json
        {"type":"tag:idempotency-lab,2025:idempotency-key-reserved-concurrently","title":"A concurrent request reserved this Idempotency-Key","status":409,"detail":"a concurrent request reserved Idempotency-Key 00000000-0000-0000-0000-000000000001 between this request's read and its reservation; retry to get its response"}
    "#]]
    .assert_eq(&render_response(&b_response));
    assert_eq!(b.take_events(), vec![IdempotencyEvent::ReservationLost { key: key(1) }]);
    assert_eq!(a_response.status, 201);
    assert_eq!(charges(&store).len(), 1);
}

#[test]
fn a_retry_while_the_first_request_runs_gets_409_in_progress() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut a = layer(config(), request.clone());
    let mut log = Vec::new();
    step_until_statement("A", &mut a, &mut store, 0, &mut log, "-- parse the request body");
    let retry = send(&mut store, config(), request, 4);
    check(
        &retry,
        expect![[r#"
            409
            content-type: application/problem+json
            {"type":"tag:idempotency-lab,2025:idempotency-key-in-progress","title":"A request with this Idempotency-Key is in progress","status":409,"detail":"a request with Idempotency-Key 00000000-0000-0000-0000-000000000001 is still in progress; its lease holds until t10 (now is t4): retry after that"}
            event {"event":"KeyInProgress","key":"00000000-0000-0000-0000-000000000001","lease_expires_at":10}
        "#]],
    );
    assert_eq!(finish("A", &mut a, &mut store, 5, &mut log).status, 201);
    assert_eq!(charges(&store).len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Crash, lease, takeover, fencing

#[test]
fn crash_mid_request_leaves_key_in_progress_until_its_lease_ends_then_a_retry_takes_over() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut a = layer(config(), request.clone());
    let mut log = Vec::new();
    // A reserves the key and is inside its handler's transaction when the API crashes.
    step_until_statement("A", &mut a, &mut store, 2, &mut log, "COMMIT");
    step_logged("A", &mut a, &mut store, 2, &mut log); // COMMIT of the reservation
    step_until_statement("A", &mut a, &mut store, 2, &mut log, "COMMIT");
    assert!(a.open_transaction().is_some());
    crash(a, &mut store);
    assert!(charges(&store).is_empty(), "the crash rolled the handler's charge back");
    assert_eq!(
        key_row(&store, key(1)).unwrap().state,
        KeyState::InProgress { lease_expires_at: Tick(12), fencing_token: FencingToken(3) }
    );

    // While the lease holds, every retry gets 409 and the handler does not run.
    for now in [2, 7, 11] {
        let retry = send(&mut store, config(), request.clone(), now);
        assert_eq!(retry.response.status, 409);
        assert_eq!(
            retry.events,
            vec![IdempotencyEvent::KeyInProgress { key: key(1), lease_expires_at: Tick(12) }]
        );
    }
    assert!(charges(&store).is_empty());

    // At the end of the lease a retry takes the key over with a larger token and runs.
    let mut b = layer(config(), request.clone());
    let mut log = Vec::new();
    let response = finish("B", &mut b, &mut store, 12, &mut log);
    expect![[r#"
        B t12: -- parse header Idempotency-Key -> ok
        B t12: BEGIN -> ok
        B t12: SELECT * FROM idempotency_keys WHERE key = '00000000-0000-0000-0000-000000000001' -> ok
        B t12: UPDATE idempotency_keys SET state = 'in_progress', lease_expires_at = 22, fencing_token = 13, response_status = NULL, response_headers = NULL, response_body = NULL WHERE key = '00000000-0000-0000-0000-000000000001' AND fingerprint = 'sha256:6fdc201a4ef06f88a6042c1cba49f074a618d29962b86e9dabd01012951c67b6' AND state = 'in_progress' AND fencing_token = 3 AND lease_expires_at <= 12 AND created_at > -88 -> ok
        B t12: COMMIT -> ok
        B t12: -- parse the request body -> ok
        B t12: BEGIN -> ok
        B t12: INSERT INTO charges (id, order_id, payment_id) VALUES (nextval('charges_id_seq'), '00000000-0000-0000-0000-00000000a001', 'pay-1') -> ok
        B t12: COMMIT -> ok
        B t12: BEGIN -> ok
        B t12: UPDATE idempotency_keys SET state = 'completed', lease_expires_at = NULL, fencing_token = NULL, response_status = 201, response_headers = '[["content-type","application/json"],["location","/charges/2"]]', response_body = '{"charge_id":2,"order_id":"00000000-0000-0000-0000-00000000a001","payment_id":"pay-1"}' WHERE key = '00000000-0000-0000-0000-000000000001' AND state = 'in_progress' AND fencing_token = 13 -> ok
        B t12: COMMIT -> answers 201
    "#]]
    .assert_eq(&(log.join("\n") + "\n"));
    assert_eq!(
        b.take_events(),
        vec![
            IdempotencyEvent::KeyTakenOver {
                key: key(1),
                previous_fencing_token: FencingToken(3),
                fencing_token: FencingToken(13),
                lease_expires_at: Tick(22),
            },
            IdempotencyEvent::HandlerCompleted { status: 201 },
            IdempotencyEvent::ResponseStored {
                key: key(1),
                fencing_token: FencingToken(13),
                status: 201
            },
        ]
    );
    assert_eq!(response.status, 201);
    // Charge id 1 was drawn by the crashed transaction: a sequence is not rolled back.
    assert_eq!(charges(&store).iter().map(|charge| charge.id.0).collect::<Vec<_>>(), vec![2]);
    assert_eq!(send(&mut store, config(), request, 13).response, response);
}

#[test]
fn a_crash_inside_the_reservation_leaves_no_key() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut a = layer(config(), request.clone());
    let mut log = Vec::new();
    step_until_statement("A", &mut a, &mut store, 0, &mut log, "COMMIT");
    crash(a, &mut store);
    assert_eq!(key_row(&store, key(1)), None);
    assert_eq!(send(&mut store, config(), request, 1).response.status, 201);
}

#[test]
fn stale_completion_is_rejected_by_its_fencing_token_and_the_newer_response_is_kept() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut slow = layer(config(), request.clone());
    let mut log = Vec::new();
    // The slow request runs its handler to the end, then stalls before completing the key.
    step_until_statement("slow", &mut slow, &mut store, 0, &mut log, "UPDATE idempotency_keys");
    assert_eq!(charges(&store).len(), 1);

    // Its lease ends; a retry takes the key over and completes it.
    let retry = send(&mut store, config(), request.clone(), 10);
    assert_eq!(retry.response.status, 201);
    assert_eq!(
        retry.events.first(),
        Some(&IdempotencyEvent::KeyTakenOver {
            key: key(1),
            previous_fencing_token: FencingToken(1),
            fencing_token: FencingToken(11),
            lease_expires_at: Tick(20),
        })
    );

    // The slow request wakes up: its completion is fenced off.
    slow.take_events();
    let stale = finish("slow", &mut slow, &mut store, 11, &mut log);
    expect![[r#"
        409
        content-type: application/problem+json
        {"type":"tag:idempotency-lab,2025:idempotency-key-taken-over","title":"The lease on this Idempotency-Key was taken over","status":409,"detail":"this request's lease on Idempotency-Key 00000000-0000-0000-0000-000000000001 (fencing token 1) ended before it completed, and another request completed it with status 201, which retries replay; this request's result was not stored"}
    "#]]
    .assert_eq(&render_response(&stale));
    assert_eq!(
        slow.take_events(),
        vec![IdempotencyEvent::StaleCompletionRejected {
            key: key(1),
            fencing_token: FencingToken(1),
            found: FoundKey::Completed { status: 201 },
        }]
    );
    assert_eq!(
        key_row(&store, key(1)).unwrap().state,
        KeyState::Completed { response: retry.response.clone().into() }
    );
    assert_eq!(send(&mut store, config(), request, 12).response, retry.response);
    // The known limit of a key completed in its own transaction: both handlers charged.
    assert_eq!(charges(&store).len(), 2);
}

#[test]
fn stale_completion_while_the_new_holder_is_still_in_progress_is_rejected() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut slow = layer(config(), request.clone());
    let mut newer = layer(config(), request);
    let mut log = Vec::new();
    step_until_statement("slow", &mut slow, &mut store, 0, &mut log, "UPDATE idempotency_keys");
    step_until_statement(
        "newer",
        &mut newer,
        &mut store,
        10,
        &mut log,
        "-- parse the request body",
    );
    slow.take_events();
    let stale = finish("slow", &mut slow, &mut store, 10, &mut log);
    assert_eq!(stale.status, 409);
    assert_eq!(
        slow.take_events(),
        vec![IdempotencyEvent::StaleCompletionRejected {
            key: key(1),
            fencing_token: FencingToken(1),
            found: FoundKey::InProgress { fencing_token: FencingToken(11) },
        }]
    );
    assert_eq!(finish("newer", &mut newer, &mut store, 10, &mut log).status, 201);
}

#[test]
fn two_retries_after_the_lease_race_for_the_takeover_and_one_gets_409() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut crashed = layer(config(), request.clone());
    let mut log = Vec::new();
    step_until_statement("A", &mut crashed, &mut store, 0, &mut log, "-- parse the request body");
    crash(crashed, &mut store);
    let mut b = layer(config(), request.clone());
    let mut c = layer(config(), request);
    step_until_statement("B", &mut b, &mut store, 10, &mut log, "UPDATE");
    step_until_statement("C", &mut c, &mut store, 10, &mut log, "UPDATE");
    step_logged("B", &mut b, &mut store, 10, &mut log);
    assert!(matches!(step_logged("C", &mut c, &mut store, 10, &mut log), Step::Blocked(_)));
    step_logged("B", &mut b, &mut store, 10, &mut log);
    assert_eq!(finish("C", &mut c, &mut store, 10, &mut log).status, 409);
    assert_eq!(c.take_events(), vec![IdempotencyEvent::ReservationLost { key: key(1) }]);
    assert_eq!(finish("B", &mut b, &mut store, 10, &mut log).status, 201);
    assert_eq!(charges(&store).len(), 1);
}

#[test]
fn fencing_tokens_grow_past_the_replaced_token_and_the_clock() {
    assert_eq!(next_fencing_token(None, Tick(0)), FencingToken(1));
    assert_eq!(next_fencing_token(None, Tick(41)), FencingToken(42));
    assert_eq!(next_fencing_token(Some(FencingToken(90)), Tick(41)), FencingToken(91));
    assert_eq!(next_fencing_token(Some(FencingToken(3)), Tick(41)), FencingToken(42));
    assert_eq!(
        next_fencing_token(Some(FencingToken(u64::MAX)), Tick(u64::MAX)),
        FencingToken(u64::MAX)
    );
}

// ---------------------------------------------------------------------------------------------
// Failure policy

/// How [`FailingHandler`] fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FailureMode {
    /// It answers 503.
    AnswersServiceUnavailable,
    /// It returns a typed failure.
    ReturnsError,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
enum FailingHandlerError {
    #[error("the payment provider timed out")]
    PaymentProviderTimedOut,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A handler that begins a transaction, inserts a charge, then fails and rolls it back.
#[derive(Clone, Debug)]
struct FailingHandler {
    mode: FailureMode,
    tx: Option<TxId>,
    inserted: bool,
}

impl FailingHandler {
    fn new(mode: FailureMode) -> Self {
        FailingHandler { mode, tx: None, inserted: false }
    }
}

impl Steps for FailingHandler {
    type Output = HttpResponse;
    type Error = FailingHandlerError;

    fn next_statement(&self, _now: Tick) -> Option<String> {
        Some(match (self.tx, self.inserted) {
            (None, _) => "BEGIN".to_owned(),
            (Some(_), false) => "INSERT INTO charges ...".to_owned(),
            (Some(_), true) => "-- call the payment provider".to_owned(),
        })
    }

    fn step(&mut self, store: &mut Store, _now: Tick) -> Result<Step<HttpResponse>, Self::Error> {
        match (self.tx, self.inserted) {
            (None, _) => {
                self.tx = Some(store.begin()?);
                Ok(Step::Continue)
            }
            (Some(tx), false) => {
                let id = store.next_charge_id();
                store.insert(
                    tx,
                    ChargeRow { id, order_id: order(1), payment_id: PaymentId::new("pay-1") },
                )?;
                self.inserted = true;
                Ok(Step::Continue)
            }
            (Some(tx), true) => {
                store.rollback(tx)?;
                self.tx = None;
                match self.mode {
                    FailureMode::AnswersServiceUnavailable => Ok(Step::Done(HttpResponse {
                        status: 503,
                        headers: vec![("retry-after".to_owned(), "5".to_owned())],
                        body: "payment provider unavailable".to_owned(),
                    })),
                    FailureMode::ReturnsError => Err(FailingHandlerError::PaymentProviderTimedOut),
                }
            }
        }
    }

    fn open_transaction(&self) -> Option<TxId> {
        self.tx
    }
}

fn send_failing(store: &mut Store, config: Config, mode: FailureMode, now: u64) -> HandledRequest {
    let request = charge(Some(key(1)), 1, "pay-1");
    handle_request(
        Implementation::Idempotent,
        config,
        request,
        FailingHandler::new(mode),
        store,
        Tick(now),
    )
    .unwrap()
}

#[test]
fn failure_policy_release_key_lets_a_retry_run_the_handler_again() {
    let release = Config { failure_policy: FailurePolicy::ReleaseKey, ..config() };
    let mut store = Store::default();
    let failed = send_failing(&mut store, release, FailureMode::ReturnsError, 0);
    check(
        &failed,
        expect![[r#"
            500
            content-type: application/problem+json
            {"type":"tag:idempotency-lab,2025:handler-failed","title":"The request failed","status":500,"detail":"the handler failed: the payment provider timed out"}
            event {"event":"KeyReserved","key":"00000000-0000-0000-0000-000000000001","fencing_token":1,"lease_expires_at":10}
            event {"event":"HandlerFailed","status":500,"detail":"the handler failed: the payment provider timed out"}
            event {"event":"KeyReleased","key":"00000000-0000-0000-0000-000000000001","fencing_token":1}
        "#]],
    );
    assert_eq!(key_row(&store, key(1)), None);
    assert!(charges(&store).is_empty());

    let failed_again = send_failing(&mut store, release, FailureMode::AnswersServiceUnavailable, 1);
    check(
        &failed_again,
        expect![[r#"
            503
            retry-after: 5
            payment provider unavailable
            event {"event":"KeyReserved","key":"00000000-0000-0000-0000-000000000001","fencing_token":2,"lease_expires_at":11}
            event {"event":"HandlerFailed","status":503,"detail":"payment provider unavailable"}
            event {"event":"KeyReleased","key":"00000000-0000-0000-0000-000000000001","fencing_token":2}
        "#]],
    );
    assert_eq!(key_row(&store, key(1)), None);

    let retry = send(&mut store, release, charge(Some(key(1)), 1, "pay-1"), 2);
    assert_eq!(retry.response.status, 201);
    assert_eq!(charges(&store).len(), 1);
}

#[test]
fn failure_policy_store_and_replay_replays_the_error_and_never_reruns() {
    let store_errors = Config { failure_policy: FailurePolicy::StoreAndReplay, ..config() };
    for mode in [FailureMode::ReturnsError, FailureMode::AnswersServiceUnavailable] {
        let mut store = Store::default();
        let failed = send_failing(&mut store, store_errors, mode, 0);
        assert!(failed.response.is_server_error());
        assert!(matches!(failed.events.last(), Some(IdempotencyEvent::ResponseStored { .. })));
        let retry = send(&mut store, store_errors, charge(Some(key(1)), 1, "pay-1"), 1);
        assert_eq!(retry.response, failed.response, "{mode:?}");
        assert_eq!(
            retry.events,
            vec![IdempotencyEvent::ResponseReplayed {
                key: key(1),
                status: failed.response.status
            }]
        );
        assert!(charges(&store).is_empty(), "{mode:?}: the handler did not run again");
    }
}

// ---------------------------------------------------------------------------------------------
// Retention

#[test]
fn a_duplicate_after_the_retention_window_runs_again() {
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let first = send(&mut store, config(), request.clone(), 0);
    let within = send(&mut store, config(), request.clone(), 99);
    assert_eq!(within.response, first.response);
    assert_eq!(charges(&store).len(), 1);

    let after = send(&mut store, config(), request.clone(), 100);
    check(
        &after,
        expect![[r#"
            201
            content-type: application/json
            location: /charges/2
            {"charge_id":2,"order_id":"00000000-0000-0000-0000-00000000a001","payment_id":"pay-1"}
            event {"event":"KeyExpired","key":"00000000-0000-0000-0000-000000000001","created_at":0}
            event {"event":"KeyReserved","key":"00000000-0000-0000-0000-000000000001","fencing_token":101,"lease_expires_at":110}
            event {"event":"HandlerCompleted","status":201}
            event {"event":"ResponseStored","key":"00000000-0000-0000-0000-000000000001","fencing_token":101,"status":201}
        "#]],
    );
    assert_eq!(charges(&store).len(), 2, "F10: the window is over, the duplicate charged again");
    assert_eq!(key_row(&store, key(1)).unwrap().created_at, Tick(100));
    // Within the new window, the new response is replayed.
    assert_eq!(send(&mut store, config(), request, 150).response, after.response);
}

#[test]
fn a_reused_key_after_the_window_is_a_new_request_not_a_422() {
    let mut store = Store::default();
    send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 0);
    let other = send(&mut store, config(), charge(Some(key(1)), 2, "pay-2"), 100);
    assert_eq!(other.response.status, 201);
}

#[test]
fn a_key_whose_lease_holds_is_not_forgotten_even_past_retention() {
    let long_lease = Config { lease_ticks: 200, ..config() };
    let mut store = Store::default();
    let request = charge(Some(key(1)), 1, "pay-1");
    let mut a = layer(long_lease, request.clone());
    let mut log = Vec::new();
    step_until_statement("A", &mut a, &mut store, 0, &mut log, "-- parse the request body");
    let retry = send(&mut store, long_lease, request.clone(), 150);
    assert_eq!(retry.response.status, 409);
    let mut purge = PurgeForgottenKeys::new(long_lease);
    assert_eq!(crate::step::run_to_completion(&mut purge, &mut store, Tick(150)).unwrap(), vec![]);
    assert_eq!(finish("A", &mut a, &mut store, 150, &mut log).status, 201);
}

#[test]
fn purge_deletes_exactly_the_forgotten_keys() {
    let mut store = Store::default();
    send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 0);
    send(&mut store, config(), charge(Some(key(2)), 2, "pay-2"), 50);
    let mut purge = PurgeForgottenKeys::new(config());
    assert_eq!(purge.next_statement(Tick(0)).as_deref(), Some("BEGIN"));
    let purged = crate::step::run_to_completion(&mut purge, &mut store, Tick(120)).unwrap();
    assert_eq!(purged, vec![key(1)]);
    assert_eq!(
        store.committed().idempotency_keys.keys().copied().collect::<Vec<_>>(),
        vec![key(2)]
    );
    // The purged key is absent: its duplicate runs again, with a token past the clock.
    let again = send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 121);
    assert_eq!(again.response.status, 201);
    assert!(matches!(
        again.events.first(),
        Some(IdempotencyEvent::KeyReserved { fencing_token: FencingToken(122), .. })
    ));
    assert_eq!(charges(&store).len(), 3);
}

#[test]
fn the_purge_names_the_transaction_it_holds_open_at_every_step() {
    // The lock graph (deadlock breaking) finds the retention job's transaction, and the purge
    // rolls it back on a failure, through `open_transaction`: it must name the open
    // transaction from BEGIN to COMMIT, and nothing before or after.
    let mut store = Store::default();
    send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 0);
    let mut purge = PurgeForgottenKeys::new(config());
    let now = Tick(120);
    assert_eq!(purge.open_transaction(), None, "before BEGIN");
    let mut held = Vec::new();
    while purge.next_statement(now).is_some() {
        let step = purge.step(&mut store, now).unwrap();
        held.push(purge.open_transaction().map(|tx| store.is_open(tx)));
        if let Step::Done(purged) = step {
            assert_eq!(purged, vec![key(1)]);
        }
    }
    // After BEGIN and after DELETE the open transaction is named; after COMMIT none is.
    assert_eq!(held, [Some(true), Some(true), None]);
    assert_eq!(key_row(&store, key(1)), None);
}

// ---------------------------------------------------------------------------------------------
// The naive twin

#[test]
fn naive_twin_charges_twice_on_a_retry_and_the_layer_charges_once() {
    let request = charge(Some(key(1)), 1, "pay-1");

    let mut naive_store = Store::default();
    let first = send_naive(&mut naive_store, request.clone(), 0);
    let retry = send_naive(&mut naive_store, request.clone(), 1);
    assert_eq!(first.response.status, 201);
    assert_eq!(retry.response.status, 201);
    assert_ne!(retry.response.body, first.response.body);
    assert_eq!(retry.events, vec![IdempotencyEvent::HandlerCompleted { status: 201 }]);
    expect![[r#"
        [
            ChargeRow {
                id: ChargeId(
                    1,
                ),
                order_id: OrderId(
                    00000000-0000-0000-0000-00000000a001,
                ),
                payment_id: PaymentId(
                    "pay-1",
                ),
            },
            ChargeRow {
                id: ChargeId(
                    2,
                ),
                order_id: OrderId(
                    00000000-0000-0000-0000-00000000a001,
                ),
                payment_id: PaymentId(
                    "pay-1",
                ),
            },
        ]
    "#]]
    .assert_debug_eq(&charges(&naive_store));
    assert!(naive_store.committed().idempotency_keys.is_empty());

    let mut idempotent_store = Store::default();
    let first = send(&mut idempotent_store, config(), request.clone(), 0);
    let retry = send(&mut idempotent_store, config(), request, 1);
    assert_eq!(retry.response, first.response);
    assert_eq!(charges(&idempotent_store).len(), 1);
}

#[test]
fn naive_twin_turns_a_typed_handler_failure_into_a_500_problem() {
    let mut store = Store::default();
    let request = charge(None, 1, "pay-1");
    let handled = handle_request(
        Implementation::Naive,
        config(),
        request,
        FailingHandler::new(FailureMode::ReturnsError),
        &mut store,
        Tick(0),
    )
    .unwrap();
    assert_eq!(handled.response.status, 500);
    assert_eq!(handled.response.header("Content-Type"), Some(PROBLEM_CONTENT_TYPE));
    assert!(store.open_transactions().next().is_none());
}

#[test]
fn stepping_after_the_answer_is_a_typed_error() {
    let mut store = Store::default();
    let mut layer = layer(config(), charge(None, 1, "pay-1"));
    assert!(matches!(layer.step(&mut store, Tick(0)), Ok(Step::Done(_))));
    assert_eq!(layer.next_statement(Tick(0)), None);
    assert_eq!(layer.step(&mut store, Tick(0)), Err(IdempotencyError::AlreadyDone));
}

#[test]
fn a_store_failure_rolls_back_and_is_reported() {
    let mut store =
        Store::new(crate::store::StoreConfig { open_transactions_max: 1, rows_per_table_max: 100 });
    let blocker = store.begin().unwrap();
    let result = handle_request(
        Implementation::Idempotent,
        config(),
        charge(Some(key(1)), 1, "pay-1"),
        CreateCharge::for_request(&charge(None, 1, "pay-1")),
        &mut store,
        Tick(0),
    );
    assert_eq!(
        result,
        Err(crate::step::RunError::Failed(IdempotencyError::Store(
            StoreError::TooManyOpenTransactions { open: 1, limit: 1 }
        )))
    );
    assert_eq!(store.open_transactions().collect::<Vec<_>>(), vec![blocker]);
}

#[test]
fn an_invalid_body_is_a_400_that_is_stored_and_replayed() {
    let mut store = Store::default();
    let request = HttpRequest::new("POST", CHARGES_PATH, "{\"order_id\": 7}")
        .with_header(IDEMPOTENCY_KEY_HEADER, key(1).to_string());
    let first = send(&mut store, config(), request.clone(), 0);
    expect![[r#"
        400
        content-type: application/problem+json
        {"type":"tag:idempotency-lab,2025:request-body-invalid","title":"Request body is invalid","status":400,"detail":"the body must be JSON {\"order_id\": \"<uuid>\", \"payment_id\": \"<text>\"}: invalid type: integer `7`, expected a formatted UUID string at line 1 column 14"}
    "#]]
    .assert_eq(&render_response(&first.response));
    assert_eq!(send(&mut store, config(), request, 1).response, first.response);
}

#[test]
fn a_response_is_summed_up_by_its_status_header_count_and_body_length() {
    let mut store = Store::default();
    let created = send(&mut store, config(), charge(Some(key(1)), 1, "pay-1"), 0).response;
    assert_eq!(describe_response(&created), "(201, 2 headers, 86-byte body)");
    let no_headers = HttpResponse { status: 204, headers: Vec::new(), body: String::new() };
    assert_eq!(describe_response(&no_headers), "(204, 0 headers, 0-byte body)");
    let one_header = HttpResponse { headers: vec![("a".to_owned(), "b".to_owned())], ..no_headers };
    assert_eq!(describe_response(&one_header), "(204, 1 header, 0-byte body)");
}

// ---------------------------------------------------------------------------------------------
// Fingerprint

#[test]
fn fingerprint_is_pinned_and_length_prefixed() {
    expect!["sha256:d1646ef6ee6c8a26bec7881486f40af0cdea81a9cd7ec99a48cc127655c78f34"]
        .assert_eq(&fingerprint_of_parts("POST", "/charges", "{}").0);
    assert_ne!(fingerprint_of_parts("POST", "/ab", "c"), fingerprint_of_parts("POST", "/a", "bc"));
    assert_ne!(fingerprint_of_parts("POST", "/a", "b"), fingerprint_of_parts("PUT", "/a", "b"));
    // Headers are not part of it.
    let plain = HttpRequest::new("POST", "/a", "b");
    assert_eq!(fingerprint(&plain), fingerprint(&plain.clone().with_header("date", "today")));
    expect!["sha256:d1646ef6ee6c…"]
        .assert_eq(&short_fingerprint(&fingerprint_of_parts("POST", "/charges", "{}")));
}

#[test]
fn a_short_fingerprint_cuts_only_a_text_longer_than_the_kept_length() {
    // The kept length: the prefix and twelve hex digits, 19 characters.
    let kept = "sha256:0123456789ab";
    assert_eq!(kept.len(), FINGERPRINT_PREFIX.len() + SHORT_FINGERPRINT_HEX_DIGITS);
    let short = |text: &str| short_fingerprint(&RequestFingerprint(text.into()));
    // Exactly the kept length, and shorter: whole, with no mark of a cut.
    assert_eq!(short(kept), "sha256:0123456789ab");
    assert_eq!(short("sha256:0123456789a"), "sha256:0123456789a");
    assert_eq!(short(""), "");
    // One character longer: cut to the kept length and marked.
    assert_eq!(short("sha256:0123456789abc"), "sha256:0123456789ab…");
}

// ---------------------------------------------------------------------------------------------
// Property tests

/// One thing the random schedule does.
#[derive(Clone, Debug)]
enum Action {
    /// A client sends a request with key `key_index` and payload `payload_index`.
    Send { key_index: u8, payload_index: u8 },
    /// The request in flight at `pick` (modulo how many there are) runs one statement.
    Step { pick: u8 },
    /// The request in flight at `pick` crashes: dropped, its transaction rolled back.
    Crash { pick: u8 },
    /// The clock moves on.
    Advance { ticks: u8 },
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        2 => (0..3u8, 0..2u8).prop_map(|(key_index, payload_index)| Action::Send { key_index, payload_index }),
        8 => any::<u8>().prop_map(|pick| Action::Step { pick }),
        1 => any::<u8>().prop_map(|pick| Action::Crash { pick }),
        2 => (1..5u8).prop_map(|ticks| Action::Advance { ticks }),
    ]
}

struct InFlight {
    id: usize,
    key_index: u8,
    layer: IdempotencyLayer<CreateCharge>,
    completed: bool,
}

/// A request that got a key, as the property sees it.
struct Holder {
    id: usize,
    fencing_token: FencingToken,
    lease_expires_at: Tick,
    finished: bool,
}

const IN_FLIGHT_MAX: usize = 8;

fn property_request(key_index: u8, payload_index: u8) -> HttpRequest {
    charge(
        Some(key(u128::from(key_index) + 1)),
        u128::from(payload_index),
        &format!("pay-k{key_index}-p{payload_index}"),
    )
}

/// Applies the events of one step to the per-key holders and checks the lease property.
fn observe(
    events: Vec<IdempotencyEvent>,
    flight: &mut InFlight,
    now: Tick,
    holders: &mut [Vec<Holder>; 3],
) -> Result<(), TestCaseError> {
    let key_holders = &mut holders[usize::from(flight.key_index)];
    for event in events {
        match event {
            IdempotencyEvent::KeyReserved { fencing_token, lease_expires_at, .. }
            | IdempotencyEvent::KeyTakenOver { fencing_token, lease_expires_at, .. } => {
                for earlier in key_holders.iter() {
                    prop_assert!(
                        earlier.finished || earlier.lease_expires_at <= now,
                        "request {} got key {} at {now} while request {}'s lease held until {}",
                        flight.id,
                        flight.key_index,
                        earlier.id,
                        earlier.lease_expires_at
                    );
                    prop_assert!(earlier.fencing_token < fencing_token);
                }
                key_holders.push(Holder {
                    id: flight.id,
                    fencing_token,
                    lease_expires_at,
                    finished: false,
                });
            }
            IdempotencyEvent::ResponseStored { .. }
            | IdempotencyEvent::KeyReleased { .. }
            | IdempotencyEvent::StaleCompletionRejected { .. } => {
                for holder in key_holders.iter_mut().filter(|holder| holder.id == flight.id) {
                    holder.finished = true;
                }
                flight.completed = true;
            }
            IdempotencyEvent::ResponseReplayed { .. } => flight.completed = true,
            _ => {}
        }
    }
    Ok(())
}

/// Runs one statement of `flights[index]`; records its answer if it answered.
fn step_flight(
    flights: &mut Vec<InFlight>,
    index: usize,
    store: &mut Store,
    now: Tick,
    holders: &mut [Vec<Holder>; 3],
    completed_responses: &mut [Option<HttpResponse>; 3],
) -> Result<(), TestCaseError> {
    let flight = &mut flights[index];
    let step = flight.layer.step(store, now);
    let events = flight.layer.take_events();
    observe(events, flight, now, holders)?;
    match step {
        Ok(Step::Continue) | Ok(Step::Blocked(_)) => {}
        Ok(Step::Done(response)) => {
            prop_assert!(
                [201, 409, 422].contains(&response.status),
                "unexpected answer {}",
                render_response(&response)
            );
            if flight.completed && response.status == 201 {
                let slot = &mut completed_responses[usize::from(flight.key_index)];
                match slot {
                    Some(first) => {
                        prop_assert_eq!(&*first, &response, "I4: two answers for one key")
                    }
                    None => *slot = Some(response),
                }
            }
            flights.remove(index);
        }
        Err(error) => prop_assert!(false, "the layer failed: {error}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(256))]

    /// I4: under random sends, interleaved steps, crashes and clock advances, no request gets a
    /// key while another's lease on it holds, fencing tokens of a key only grow, and every
    /// completed answer for a key (first answer or replay) is the same.
    #[test]
    fn layer_keeps_i4_under_random_schedules(
        actions in proptest::collection::vec(action(), 1..80),
        store_errors in any::<bool>(),
    ) {
        let config = Config {
            lease_ticks: 6,
            retention_ticks: u64::MAX,
            failure_policy: if store_errors { FailurePolicy::StoreAndReplay } else { FailurePolicy::ReleaseKey },
        };
        let mut store = Store::default();
        let mut now = Tick(0);
        let mut flights: Vec<InFlight> = Vec::new();
        let mut next_id = 0;
        let mut holders: [Vec<Holder>; 3] = Default::default();
        let mut completed_responses: [Option<HttpResponse>; 3] = Default::default();
        for action in actions {
            match action {
                Action::Send { key_index, payload_index } => {
                    if flights.len() < IN_FLIGHT_MAX {
                        let request = property_request(key_index, payload_index);
                        flights.push(InFlight { id: next_id, key_index, layer: layer(config, request), completed: false });
                        next_id += 1;
                    }
                }
                Action::Step { pick } => {
                    if !flights.is_empty() {
                        let index = usize::from(pick) % flights.len();
                        step_flight(&mut flights, index, &mut store, now, &mut holders, &mut completed_responses)?;
                    }
                }
                Action::Crash { pick } => {
                    if !flights.is_empty() {
                        let index = usize::from(pick) % flights.len();
                        let flight = flights.remove(index);
                        if matches!(flight.layer.state(), LayerState::CommitReservation { .. }) {
                            // Its reservation or takeover was not committed: the crash rolls
                            // it back, so it never held the key.
                            holders[usize::from(flight.key_index)].retain(|holder| holder.id != flight.id);
                        }
                        crash(flight.layer, &mut store);
                    }
                }
                Action::Advance { ticks } => now = now.plus(u64::from(ticks)),
            }
        }
        // Drain: every request still in flight answers.
        for _ in 0..10_000 {
            if flights.is_empty() {
                break;
            }
            let index = next_id % flights.len();
            next_id += 1;
            step_flight(&mut flights, index, &mut store, now, &mut holders, &mut completed_responses)?;
        }
        prop_assert!(flights.is_empty(), "requests never answered");
        prop_assert_eq!(store.open_transactions().count(), 0);
        for (key_index, response) in completed_responses.iter().enumerate() {
            let row = key_row(&store, key(key_index as u128 + 1));
            if let Some(response) = response {
                let row = row.unwrap();
                prop_assert_eq!(row.state, KeyState::Completed { response: response.clone().into() });
            }
        }
        // A charge is made only by a request that held the key.
        for (key_index, key_holders) in holders.iter().enumerate() {
            let prefix = format!("pay-k{key_index}-");
            let charged = charges(&store).iter().filter(|charge| charge.payment_id.as_str().starts_with(&prefix)).count();
            prop_assert!(charged <= key_holders.len());
        }
    }

    /// Nothing panics on arbitrary request strings: every request gets an answer, and a
    /// request without exactly one valid key is a 400 problem.
    #[test]
    fn arbitrary_headers_never_panic(
        method in any::<String>(),
        path in any::<String>(),
        body in any::<String>(),
        headers in proptest::collection::vec(
            (
                prop_oneof![
                    Just("Idempotency-Key".to_owned()),
                    Just("idempotency-key".to_owned()),
                    Just("IDEMPOTENCY-KEY".to_owned()),
                    any::<String>(),
                ],
                prop_oneof![
                    any::<String>(),
                    Just("8e03978e-40d5-43e8-bc93-6894a57f9324".to_owned()),
                    any::<u128>().prop_map(|n| format!(" \"{}\" ", Uuid::from_u128(n))),
                ],
            ),
            0..4,
        ),
    ) {
        let request = HttpRequest { method, path, headers, body };
        let key = parse_idempotency_key(&request);
        for implementation in [Implementation::Idempotent, Implementation::Naive] {
            let mut store = Store::default();
            let handler = CreateCharge::for_request(&request);
            let handled = handle_request(implementation, config(), request.clone(), handler, &mut store, Tick(0));
            let handled = handled.map_err(|error| TestCaseError::fail(format!("{error}")))?;
            prop_assert!([201, 400].contains(&handled.response.status));
            if implementation == Implementation::Idempotent && key.is_err() {
                prop_assert_eq!(handled.response.status, 400);
                prop_assert_eq!(handled.response.header("content-type"), Some(PROBLEM_CONTENT_TYPE));
                let problem: Problem = serde_json::from_str(&handled.response.body).unwrap();
                prop_assert_eq!(problem.status, 400);
                prop_assert!(store.committed().idempotency_keys.is_empty());
            }
            for event in &handled.events {
                prop_assert!(serde_json::to_string(event).is_ok());
            }
        }
    }
}

#[test]
fn a_key_is_forgotten_from_its_forgotten_at_tick_on() {
    let config = Config { retention_ticks: 30, ..Config::default() };
    let row = |state: KeyState| IdempotencyKeyRow {
        key: IdempotencyKey(Uuid::from_u128(7)),
        fingerprint: crate::store::RequestFingerprint("f".into()),
        state,
        created_at: Tick(10),
    };
    let completed = KeyState::Completed {
        response: crate::store::StoredResponse {
            status: 201,
            headers: vec![],
            body: String::new(),
        },
    };
    let rows = [
        row(completed),
        row(KeyState::InProgress { lease_expires_at: Tick(15), fencing_token: FencingToken(1) }),
        row(KeyState::InProgress { lease_expires_at: Tick(60), fencing_token: FencingToken(2) }),
    ];
    assert_eq!(rows.each_ref().map(|row| config.forgotten_at(row).0), [40, 40, 60]);
    for row in &rows {
        for now in 0..100 {
            let forgotten = config.is_forgotten(row, Tick(now));
            assert_eq!(forgotten, Tick(now) >= config.forgotten_at(row), "{row:?} at {now}");
        }
    }
}
