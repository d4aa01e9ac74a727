//! The rows of the shop's tables, as DESIGN.md lists them, plus `charges`.
//!
//! A row type names its table and its primary key through [`super::Row`]; the primary key is the
//! table's unique constraint (`reservations` is unique on `(order_id, sku)`, `inbox` on
//! `(message_id, consumer)`, as in the seed). `charges` is the payment provider's ledger: it
//! makes a double charge visible as a second row.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ids::{
    ChargeId, ConsumerName, IdempotencyKey, MessageId, OrderId, PaymentId, Sku, Tick,
};

/// One line of an order: how many of one sku.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderLine {
    /// What is ordered.
    pub sku: Sku,
    /// How many; a line of zero is rejected by the code that places orders.
    pub qty: u32,
}

/// The status of an order. Each state carries its own data: a paid order cannot exist without
/// its payment id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum OrderStatus {
    /// Placed, not yet paid.
    Placed,
    /// Paid by exactly this payment.
    Paid {
        /// The payment that paid the order.
        payment_id: PaymentId,
    },
    /// Paid, then shipped.
    Shipped {
        /// The payment that paid the order.
        payment_id: PaymentId,
    },
    /// Cancelled, from `Placed` (no payment) or from `Paid` (the payment is kept for refunds).
    Cancelled {
        /// The payment the order had when it was cancelled, if any.
        payment_id: Option<PaymentId>,
    },
}

impl OrderStatus {
    /// The status's name, as a learner reads it: `Placed`, `Paid`, `Shipped`, `Cancelled`.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            OrderStatus::Placed => "Placed",
            OrderStatus::Paid { .. } => "Paid",
            OrderStatus::Shipped { .. } => "Shipped",
            OrderStatus::Cancelled { .. } => "Cancelled",
        }
    }
}

/// A row of `orders`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OrderRow {
    /// Primary key.
    pub(crate) id: OrderId,
    /// What was ordered, in the order the client sent it; shared by the copies of the row
    /// (a snapshot's, a checker state's) and by the message that announces the order.
    pub(crate) lines: Arc<[OrderLine]>,
    /// Where the order is in its life.
    pub(crate) status: OrderStatus,
}

/// A row of `stock`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StockRow {
    /// Primary key.
    pub(crate) sku: Sku,
    /// What the warehouse holds: fixed for a run, the left side of invariant I1.
    pub on_hand_qty: i64,
    /// What can still be reserved. Signed on purpose: the naive decrement can take it below
    /// zero, and invariant I1 must be able to see that.
    pub available_qty: i64,
}

/// A row of `reservations`, unique on `(order_id, sku)`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ReservationRow {
    /// The order that holds the stock.
    pub(crate) order_id: OrderId,
    /// The sku held.
    pub(crate) sku: Sku,
    /// How many are held. The idempotent ledger writes it once; the naive twin adds to it on
    /// every delivery, so a duplicate shows as a quantity larger than the order line.
    pub(crate) qty: i64,
}

/// A row of `inbox`, unique on `(message_id, consumer)`: this consumer has applied the effect of
/// this message.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct InboxRow {
    /// The message processed.
    pub(crate) message_id: MessageId,
    /// The consumer that processed it.
    pub(crate) consumer: ConsumerName,
    /// When; rows older than the retention window are purged.
    pub(crate) processed_at: Tick,
}

/// What a broker message says. The outbox stores it; consumers act on it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum MessagePayload {
    /// An order was placed: its stock should be reserved.
    OrderPlaced {
        /// The order.
        order_id: OrderId,
        /// Its lines, copied so that the consumer needs no read of `orders` (shared with the
        /// order's row, not copied in memory).
        lines: Arc<[OrderLine]>,
    },
    /// A payment was captured for an order: it should be marked paid.
    PaymentCaptured {
        /// The order paid.
        order_id: OrderId,
        /// The payment.
        payment_id: PaymentId,
    },
    /// An order was cancelled: its stock should be released.
    OrderCancelled {
        /// The order.
        order_id: OrderId,
    },
}

/// A row of `outbox`: a message written in the same transaction as the change it announces.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OutboxRow {
    /// Primary key, and the id the broker and the inbox see.
    pub(crate) message_id: MessageId,
    /// What the message says.
    pub(crate) payload: MessagePayload,
    /// Whether the relay has marked it published. A relay may publish and crash before marking,
    /// so a message can be published more than once: consumers must deduplicate.
    pub published: bool,
    /// When the row was written.
    pub(crate) created_at: Tick,
}

/// A hash of what identifies a request (method, path, body), stored with its idempotency key so
/// that the same key with another payload is caught.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestFingerprint(pub(crate) Arc<str>);

/// A number that grows each time an idempotency key is reserved or taken over. A request may
/// complete its key only with the token it reserved it with, so a stale request whose lease
/// ran out cannot overwrite the response of the request that took the key over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FencingToken(pub(crate) u64);

/// A response as the idempotency layer stores and replays it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub(crate) struct StoredResponse {
    /// HTTP status code.
    pub(crate) status: u16,
    /// Headers worth replaying (`content-type`, `location`), in the order they were set.
    pub(crate) headers: Vec<(String, String)>,
    /// The body, byte for byte as first sent.
    pub(crate) body: String,
}

/// Where a request under an idempotency key is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(crate) enum KeyState {
    /// A request holds the key until `lease_expires_at`; after that a retry may take it over.
    InProgress {
        /// End of the lease.
        lease_expires_at: Tick,
        /// The token of the request that holds the lease.
        fencing_token: FencingToken,
    },
    /// The request finished; its response is replayed to every retry.
    Completed {
        /// What was answered.
        response: StoredResponse,
    },
}

/// A row of `idempotency_keys`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct IdempotencyKeyRow {
    /// Primary key: the parsed `Idempotency-Key` header.
    pub(crate) key: IdempotencyKey,
    /// The fingerprint of the first request made with the key.
    pub(crate) fingerprint: RequestFingerprint,
    /// In progress or completed.
    pub(crate) state: KeyState,
    /// When the key was first reserved; keys older than the retention window are forgotten.
    pub(crate) created_at: Tick,
}

/// A row of `charges`: the payment provider took money for an order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ChargeRow {
    /// Primary key, from the store's sequence.
    pub(crate) id: ChargeId,
    /// The order charged.
    pub(crate) order_id: OrderId,
    /// The payment that was charged.
    pub(crate) payment_id: PaymentId,
}
