//! The message broker: at-least-once delivery with a visibility timeout, acks, duplicates and
//! a dead-letter list.
//!
//! Each copy of a message is an entry ([`EntryId`]); a duplicate (F1, F10, F12) is another
//! entry with the same message id. A delivered entry is invisible until its visibility timeout
//! ends: if no ack came by then, it is delivered again (F2, F3). An ack removes the entry. An
//! entry delivered `deliveries_max` times that comes due again is dead-lettered instead.
//! Held entries (F9) wait for a request's answer or a tick; copies that arrive after the
//! retention window (F10) wait for the original's ack.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::{MessageId, Tick};
use crate::inbox::Envelope;
use crate::sim::action::{EntryId, InstanceId, RequestIndex};

/// Where an entry is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum EntryState {
    /// Deliverable from `visible_at` on.
    Ready {
        /// When it becomes visible.
        visible_at: Tick,
    },
    /// Delivered to these instances; delivered again from `redeliver_at` on if not acked.
    InFlight {
        /// The instances that got it (two after F4).
        instances: Vec<InstanceId>,
        /// The end of the visibility timeout.
        redeliver_at: Tick,
    },
    /// Held (F9) until a request has its answer.
    HeldUntilAnswered {
        /// The request.
        request: RequestIndex,
    },
    /// Held (F9) until a tick.
    HeldUntil {
        /// The tick.
        tick: Tick,
    },
    /// A late copy (F10): it becomes visible `delay_ticks` after the original is acked.
    AwaitingOriginalAck {
        /// The delay after the ack.
        delay_ticks: u64,
    },
}

/// One copy of a message in the queue.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BrokerEntry {
    /// The message.
    pub envelope: Envelope,
    /// Its id (the envelope's, which the relay always sets).
    pub message_id: MessageId,
    /// Where it is.
    pub state: EntryState,
    /// How many times this copy was delivered.
    pub deliveries: u32,
}

/// A message given up on after too many deliveries.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeadLetter {
    /// The copy.
    pub entry: EntryId,
    /// The message.
    pub message_id: MessageId,
    /// When.
    pub at: Tick,
}

/// The broker's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Broker {
    /// The queue, by entry id (the order entries were enqueued).
    pub entries: BTreeMap<EntryId, BrokerEntry>,
    /// The next entry id.
    pub next_entry: usize,
    /// Dead-lettered copies.
    pub dead_letters: Vec<DeadLetter>,
    /// Deliveries per message id, over all its copies.
    pub deliveries_by_message: BTreeMap<MessageId, u32>,
}

impl Broker {
    /// Enqueues a copy; `None` if the queue holds `queue_len_max` entries already.
    pub fn push(
        &mut self,
        envelope: Envelope,
        message_id: MessageId,
        state: EntryState,
        queue_len_max: usize,
    ) -> Option<EntryId> {
        if self.entries.len() >= queue_len_max {
            return None;
        }
        let entry = EntryId(self.next_entry);
        self.next_entry = self.next_entry.saturating_add(1);
        self.entries.insert(entry, BrokerEntry { envelope, message_id, state, deliveries: 0 });
        Some(entry)
    }

    /// The entries of one message, in entry order.
    pub fn entries_of(
        &self,
        message_id: MessageId,
    ) -> impl Iterator<Item = (EntryId, &BrokerEntry)> {
        self.entries
            .iter()
            .filter(move |(_, entry)| entry.message_id == message_id)
            .map(|(id, entry)| (*id, entry))
    }
}
