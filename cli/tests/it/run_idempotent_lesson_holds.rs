//! `idempotency-lab run` of the F1 lesson in idempotent mode: the inbox ignores the second
//! copy, every invariant holds and the exit code is 0. Without `--mode`, the scenario runs as
//! written (the F1 file leaves every pattern idempotent).

use crate::common::run_cli;
use expect_test::expect;

#[test]
fn idempotent_duplicate_delivery_keeps_every_invariant_and_exits_0() {
    let run = run_cli(&["run", "f01-duplicate-delivery", "--mode", "idempotent"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stderr, "");
    expect![[r#"
        F1: the broker delivers a message twice
        scenario f01-duplicate-delivery, mode idempotent (P1 idempotent, P2 idempotent, P3 idempotent, P4 idempotent), seed 0

        step  tick   actor         statement or action => events  [rows changed]  !! new violations
           1  t0     Client 0      client_send request=0 => request_sent attempt=0 key="9419cd3e-08dc-425c-a205-7ed1edf9be26" kind="first" method_and_path="POST /orders" request=0
           2  t0     API #0        -- parse header Idempotency-Key
           3  t0     API #0        BEGIN
           4  t0     API #0        SELECT * FROM idempotency_keys WHERE key = '9419cd3e-08dc-425c-a205-7ed1edf9be26'
           5  t0     API #0        INSERT INTO idempotency_keys (key, fingerprint, state, lease_expires_at, fencing_token, response_status, response_headers, response_body, created_at) VALUES ('9419cd3e-08dc-425c-a205-7ed1edf9be26', 'sha256:f03c1e76da8ef9c204abe833d21dc763e46746d229a08c1eb46a08be1e6f42c2', 'in_progress', 30, 1, NULL, NULL, NULL, 0) ON CONFLICT (key) DO NOTHING => idempotency event={"event":"KeyReserved","fencing_token":1,"key":"9419cd3e-08dc-425c-a205-7ed1edf9be26","lease_expires_at":30}
           6  t0     API #0        COMMIT => handler_run_started run=0  [idempotency_keys +1]
           7  t0     API #0        -- route POST /orders and read its body
           8  t0     API #0        BEGIN
           9  t0     API #0        SELECT sku FROM stock WHERE sku IN ('apple')
          10  t0     API #0        INSERT INTO orders (id, lines, status, payment_id) VALUES ('73128e1c-fa54-4a40-a579-c0096c3c237c', '[{"qty":3,"sku":"apple"}]', 'Placed', NULL)
          11  t0     API #0        INSERT INTO outbox (message_id, payload, published, created_at) VALUES ('d051b29e-45c8-4853-a592-75602f463cea', '{"lines":[{"qty":3,"sku":"apple"}],"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","type":"OrderPlaced"}', false, 0)
          12  t0     API #0        COMMIT  [orders +1, outbox +1]
          13  t0     Relay         SELECT message_id, payload FROM outbox WHERE NOT published ORDER BY created_at, message_id LIMIT 16
          14  t0     API #0        -- answer 201 to the client => idempotency event={"event":"HandlerCompleted","status":201}
          15  t0     API #0        BEGIN
          16  t0     API #0        UPDATE idempotency_keys SET state = 'completed', lease_expires_at = NULL, fencing_token = NULL, response_status = 201, response_headers = '[["content-type","application/json"],["location","/orders/73128e1c-fa54-4a40-a579-c0096c3c237c"]]', response_body = '{"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","status":"Placed"}' WHERE key = '9419cd3e-08dc-425c-a205-7ed1edf9be26' AND state = 'in_progress' AND fencing_token = 1 => idempotency event={"event":"ResponseStored","fencing_token":1,"key":"9419cd3e-08dc-425c-a205-7ed1edf9be26","status":201}
          17  t0     API #0        COMMIT => answered attempt 0: 201 (Completed) {"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","status":"Placed"}  [idempotency_keys ~1]
          18  t0     Relay         PUBLISH d051b29e-45c8-4853-a592-75602f463cea => published entry=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          19  t0     Broker        duplicate_message entry=0 (fault F1) => message_duplicated copy=1 entry=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          20  t0     Network       deliver_response attempt=0 => response_delivered attempt=0 status=201; client_answered request=0 status=201
          21  t0     Broker        broker_deliver entry=1 instance=1 => delivered delivery_number=1 entry=1 instance=1 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          22  t0     Broker        broker_deliver entry=0 instance=0 => delivered delivery_number=2 entry=0 instance=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          23  t0     Consumer B    BEGIN
          24  t0     Relay         BEGIN
          25  t0     Relay         UPDATE outbox SET published = true WHERE message_id IN ('d051b29e-45c8-4853-a592-75602f463cea')
          26  t0     Relay         COMMIT => relay_finished published=["d051b29e-45c8-4853-a592-75602f463cea"]  [outbox ~1]
          27  t0     Consumer B    INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('d051b29e-45c8-4853-a592-75602f463cea', 'reserve-stock', 0)
          28  t0     Consumer B    INSERT INTO reservations (order_id, sku, qty) VALUES ('73128e1c-fa54-4a40-a579-c0096c3c237c', 'apple', 3) ON CONFLICT (order_id, sku) DO NOTHING
          29  t0     Consumer A    BEGIN
          30  t0     Consumer B    UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple' AND available_qty >= 3
          31  t0     Consumer B    COMMIT => effect_committed inbox="with_inbox" instance=1 message_id="d051b29e-45c8-4853-a592-75602f463cea"  [inbox +1, reservations +1, stock ~1]
          32  t0     Consumer B    ACK d051b29e-45c8-4853-a592-75602f463cea => message_consumed instance=1 outcome={"MessageProcessed":{"effect_output":{"event":"StockReserved","lines":[{"qty":3,"sku":"apple"}],"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c"},"message_id":"d051b29e-45c8-4853-a592-75602f463cea","tx":5}}
          33  t0     Consumer A    INSERT INTO inbox (message_id, consumer, processed_at) VALUES ('d051b29e-45c8-4853-a592-75602f463cea', 'reserve-stock', 0)
          34  t0     Consumer A    ACK d051b29e-45c8-4853-a592-75602f463cea => message_consumed instance=0 outcome={"DuplicateIgnored":{"message_id":"d051b29e-45c8-4853-a592-75602f463cea","tx":7}}

        stopped: nothing left to do after 34 steps, at tick 0
        faults fired: F1 x1
        invariants: all of I1-I7 held at every step
    "#]].assert_eq(&run.stdout);
}

#[test]
fn as_written_is_the_default_mode() {
    let as_written = run_cli(&["run", "f01-duplicate-delivery"]);
    let explicit = run_cli(&["run", "f01-duplicate-delivery", "--mode", "as-written"]);
    assert_eq!(as_written.code, 0);
    assert_eq!(as_written.stdout, explicit.stdout);
    assert!(as_written.stdout.contains("mode as-written (P1 idempotent, P2 idempotent"));
}
