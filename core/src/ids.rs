//! Newtype identifiers and the virtual clock's unit.
//!
//! Every id that crosses a module boundary has its own type, so that an order id can never be
//! passed where a message id is expected. UUIDs are never made from the operating system: the
//! simulator draws them from its seeded RNG (see [`crate::rng`]), so a run is reproducible.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A point on the simulation's virtual clock. The core never reads a real clock: every time it
/// needs is passed in as a `Tick`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Tick(pub u64);

impl Tick {
    /// This tick plus `ticks`, saturating at the end of time instead of overflowing.
    pub fn plus(self, ticks: u64) -> Tick {
        Tick(self.0.saturating_add(ticks))
    }

    /// Ticks elapsed from `earlier` to `self`, zero if `earlier` is later.
    pub(crate) fn ticks_since(self, earlier: Tick) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for Tick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub(crate) Arc<str>);

        impl $name {
            /// Makes the id from anything that converts into a `String`.
            pub fn new(value: impl Into<String>) -> Self {
                Self(Arc::from(value.into()))
            }

            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

uuid_id!(
    /// The id of an order (`orders.id`).
    OrderId
);
uuid_id!(
    /// The id of a broker message (`outbox.message_id`, `inbox.message_id`).
    MessageId
);
uuid_id!(
    /// The value of an `Idempotency-Key` header, once parsed: the seed accepts only UUIDs.
    IdempotencyKey
);

string_id!(
    /// A stock-keeping unit (`stock.sku`), such as `"apple"`.
    Sku
);
string_id!(
    /// A logical consumer of broker messages (`inbox.consumer`), such as `"reserve-stock"`.
    /// Several instances of one consumer share its name and its inbox rows.
    ConsumerName
);
string_id!(
    /// The payment provider's id of one payment, passed to `MarkPaid`.
    PaymentId
);

/// The id of one transaction of the [`crate::store::Store`]. Ids are never reused within a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TxId(pub u64);

impl fmt::Display for TxId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tx{}", self.0)
    }
}

/// The id of one row of the `charges` table: a sequence number drawn from the store, which
/// (like a PostgreSQL sequence) is not given back when a transaction rolls back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChargeId(pub(crate) u64);

impl fmt::Display for ChargeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "charge-{}", self.0)
    }
}
