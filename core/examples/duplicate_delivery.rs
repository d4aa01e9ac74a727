//! The seed's lesson in thirty lines: deliver the same `OrderPlaced` message twice to the
//! reserve-stock consumer, once naive and once idempotent, and let the invariants judge.
//!
//! Run with `cargo run -p idempotency-lab --example duplicate_delivery`. The README quotes what
//! it prints, and a test runs [`duplicate_delivery`] and compares.

use std::fmt::Write as _;

use idempotency_lab::history::{History, InboxUse, MessageEvent};
use idempotency_lab::ids::{ConsumerName, MessageId, OrderId, Sku, Tick};
use idempotency_lab::inbox::{ConsumerConfig, ConsumerImplementation, Envelope, consume_message};
use idempotency_lab::invariants::{Quiescence, check_all};
use idempotency_lab::order::{PlaceOrder, place_order};
use idempotency_lab::rng::DeterministicRng;
use idempotency_lab::shop::ShopConfig;
use idempotency_lab::stock::{ReserveStock, ReserveStockEffect, StockImplementation};
use idempotency_lab::store::{MessagePayload, OrderLine};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", duplicate_delivery()?);
    Ok(())
}

/// The program's output: per consumer, the apples left and the invariants violated.
pub fn duplicate_delivery() -> Result<String, Box<dyn std::error::Error>> {
    let mut out = String::new();
    for (consumer, ledger) in [
        (ConsumerImplementation::Naive, StockImplementation::Naive),
        (ConsumerImplementation::Idempotent, StockImplementation::Idempotent),
    ] {
        let mut rng = DeterministicRng::from_seed(42);
        let mut store = ShopConfig::default().initial_store();
        let order_id = OrderId(rng.uuid());
        let message_id = MessageId(rng.uuid());
        let lines = vec![OrderLine { sku: Sku::new("apple"), qty: 3 }];
        place_order(
            &mut store,
            Tick(0),
            PlaceOrder { order_id, message_id, lines: lines.clone() },
        )?;

        let config = ConsumerConfig {
            consumer: ConsumerName::new("reserve-stock"),
            implementation: consumer,
            retention_ticks: 1_000,
        };
        let envelope = Envelope {
            message_id: Some(message_id),
            payload: MessagePayload::OrderPlaced { order_id, lines: lines.clone().into() },
        };
        let inbox = match consumer {
            ConsumerImplementation::Naive => InboxUse::WithoutInbox,
            ConsumerImplementation::Idempotent => InboxUse::WithInbox,
        };
        // The broker delivers at least once: here, exactly twice. The history records each
        // delivery that applied the effect, so that I5 can compare it with the inbox.
        let mut history = History::default();
        for tick in [1, 2] {
            let effect =
                ReserveStockEffect::new(ReserveStock { order_id, lines: lines.clone() }, ledger)?;
            let outcome =
                consume_message(&mut store, config.clone(), envelope.clone(), effect, Tick(tick))?;
            if outcome.applied_effect() {
                let committed = MessageEvent::EffectCommitted {
                    message_id,
                    consumer: config.consumer.clone(),
                    inbox,
                    committed_at: Tick(tick),
                };
                history.record_message_event(committed)?;
            }
        }

        let apples = &store.committed().stock[&Sku::new("apple")];
        writeln!(
            out,
            "{consumer:?}: {} of {} apples available",
            apples.available_qty, apples.on_hand_qty
        )?;
        for violation in check_all(store.committed(), &history, &Quiescence::WorkPending) {
            writeln!(out, "  {}: {}", violation.invariant, violation.sentence)?;
        }
    }
    Ok(out)
}
