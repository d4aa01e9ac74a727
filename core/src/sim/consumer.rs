//! The background actors: the reserve-stock consumer's instances, the outbox relay and the
//! retention job, each holding the step machine it is running, if any.
//!
//! An instance holds at most one delivery: P4's [`ConsumeMessage`] around the shop's
//! [`ReserveStockForMessage`]. A blocked machine (`Step::Blocked`) records the transaction it
//! waits for; the world does not offer its next step until that transaction has ended.

use crate::idempotency::PurgeForgottenKeys;
use crate::ids::{MessageId, TxId};
use crate::inbox::{ConsumeMessage, PurgeExpiredInboxRows};
use crate::outbox::RelayOutbox;
use crate::shop_api::ReserveStockForMessage;
use crate::sim::action::EntryId;

/// One delivery being processed by an instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Delivery {
    /// The copy delivered.
    pub entry: EntryId,
    /// The message.
    pub message_id: MessageId,
    /// Which delivery of the message (over all its copies), from 1.
    pub delivery_number: u32,
    /// The consumer's step machine.
    pub machine: ConsumeMessage<ReserveStockForMessage>,
    /// The transaction whose row lock it waits for.
    pub waiting_for: Option<TxId>,
}

/// One consumer instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConsumerInstance {
    /// What it is processing, if anything.
    pub delivery: Option<Delivery>,
}

/// A running relay.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RelayRun {
    /// The relay's step machine.
    pub machine: RelayOutbox,
    /// The transaction whose row lock it waits for.
    pub waiting_for: Option<TxId>,
}

/// The retention job's current stage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RetentionStage {
    /// Purging the consumer's expired inbox rows.
    Inbox(PurgeExpiredInboxRows),
    /// Purging forgotten idempotency keys.
    Keys(PurgeForgottenKeys),
}

/// A running retention job.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RetentionRun {
    /// Its stage.
    pub stage: RetentionStage,
    /// The transaction whose row lock it waits for.
    pub waiting_for: Option<TxId>,
}
