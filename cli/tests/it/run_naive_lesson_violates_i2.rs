//! `idempotency-lab run` of the F1 lesson in naive mode: the trace shows the second copy
//! reserving the stock again, the report names I2 (and I6) with the step that first broke
//! it, and the exit code is 1.

use crate::common::run_cli;
use expect_test::expect;

#[test]
fn naive_duplicate_delivery_breaks_i2_and_exits_1() {
    let run = run_cli(&["run", "f01-duplicate-delivery", "--mode", "naive", "--seed", "0"]);
    assert_eq!(run.code, 1, "an invariant was violated");
    assert_eq!(run.stderr, "");
    assert!(run.stdout.contains("  I2 One reservation per order line: first broken at step"));
    expect![[r#"
        F1: the broker delivers a message twice
        scenario f01-duplicate-delivery, mode naive (P1 naive, P2 naive, P3 naive, P4 naive), seed 0

        step  tick   actor         statement or action => events  [rows changed]  !! new violations
           1  t0     Client 0      client_send request=0 => request_sent attempt=0 key="9419cd3e-08dc-425c-a205-7ed1edf9be26" kind="first" method_and_path="POST /orders" request=0
           2  t0     API #0        -- route POST /orders and read its body => handler_run_started run=0
           3  t0     API #0        BEGIN
           4  t0     API #0        SELECT sku FROM stock WHERE sku IN ('apple')
           5  t0     API #0        INSERT INTO orders (id, lines, status, payment_id) VALUES ('73128e1c-fa54-4a40-a579-c0096c3c237c', '[{"qty":3,"sku":"apple"}]', 'Placed', NULL)
           6  t0     API #0        INSERT INTO outbox (message_id, payload, published, created_at) VALUES ('d051b29e-45c8-4853-a592-75602f463cea', '{"lines":[{"qty":3,"sku":"apple"}],"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","type":"OrderPlaced"}', false, 0)
           7  t0     API #0        COMMIT  [orders +1, outbox +1]
           8  t0     Relay         SELECT message_id, payload FROM outbox WHERE NOT published ORDER BY created_at, message_id LIMIT 16
           9  t0     Relay         PUBLISH d051b29e-45c8-4853-a592-75602f463cea => published entry=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          10  t0     Broker        duplicate_message entry=0 (fault F1) => message_duplicated copy=1 entry=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          11  t0     Relay         BEGIN
          12  t0     Broker        broker_deliver entry=0 instance=0 => delivered delivery_number=1 entry=0 instance=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          13  t0     Relay         UPDATE outbox SET published = true WHERE message_id IN ('d051b29e-45c8-4853-a592-75602f463cea')
          14  t0     Relay         COMMIT => relay_finished published=["d051b29e-45c8-4853-a592-75602f463cea"]  [outbox ~1]
          15  t0     API #0        -- answer 201 to the client => idempotency event={"event":"HandlerCompleted","status":201}; answered attempt 0: 201 (Completed) {"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c","status":"Placed"}
          16  t0     Broker        broker_deliver entry=1 instance=1 => delivered delivery_number=2 entry=1 instance=1 message_id="d051b29e-45c8-4853-a592-75602f463cea"
          17  t0     Network       deliver_response attempt=0 => response_delivered attempt=0 status=201; client_answered request=0 status=201
          18  t0     Consumer A    BEGIN
          19  t0     Consumer B    BEGIN
          20  t0     Consumer A    UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple'
          21  t0     Consumer A    INSERT INTO reservations (order_id, sku, qty) VALUES ('73128e1c-fa54-4a40-a579-c0096c3c237c', 'apple', 3) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
          22  t0     Consumer A    COMMIT => effect_committed inbox="without_inbox" instance=0 message_id="d051b29e-45c8-4853-a592-75602f463cea"  [reservations +1, stock ~1]
          23  t0     Consumer B    UPDATE stock SET available_qty = available_qty - 3 WHERE sku = 'apple'
          24  t0     Consumer B    INSERT INTO reservations (order_id, sku, qty) VALUES ('73128e1c-fa54-4a40-a579-c0096c3c237c', 'apple', 3) ON CONFLICT (order_id, sku) DO UPDATE SET qty = reservations.qty + EXCLUDED.qty
          25  t0     Consumer A    ACK d051b29e-45c8-4853-a592-75602f463cea => message_consumed instance=0 outcome={"MessageProcessed":{"effect_output":{"event":"StockReserved","lines":[{"qty":3,"sku":"apple"}],"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c"},"message_id":"d051b29e-45c8-4853-a592-75602f463cea","tx":4}}
          26  t0     Consumer B    COMMIT => effect_committed inbox="without_inbox" instance=1 message_id="d051b29e-45c8-4853-a592-75602f463cea"  [reservations ~1, stock ~1]  !! I2
          27  t0     Consumer B    ACK d051b29e-45c8-4853-a592-75602f463cea => message_consumed instance=1 outcome={"MessageProcessed":{"effect_output":{"event":"StockReserved","lines":[{"qty":3,"sku":"apple"}],"order_id":"73128e1c-fa54-4a40-a579-c0096c3c237c"},"message_id":"d051b29e-45c8-4853-a592-75602f463cea","tx":5}}  !! I6

        stopped: nothing left to do after 27 steps, at tick 0
        faults fired: F1 x1
        invariants violated: 2
          I2 One reservation per order line: first broken at step 26 (still violated at the end)
              Order 73128e1c-fa54-4a40-a579-c0096c3c237c has 6 units of apple reserved, but it
              asks for only 3: the reservation effect ran twice.
          I6 Each OrderPlaced processed once: first broken at step 27 (still violated at the end)
              At quiescence, reserve-stock processed OrderPlaced
              d051b29e-45c8-4853-a592-75602f463cea of order 73128e1c-fa54-4a40-a579-c0096c3c237c
              twice, not exactly once (the message was published once).
    "#]].assert_eq(&run.stdout);
}
