//! The virtual clock: the one list of deadlines, each with its time and its reason, and the
//! clock's advance to the earliest of them.
//!
//! Time moves only by [`crate::sim::Action::AdvanceClock`], to the next deadline, so a run
//! never spins. Every actor names its own deadlines (a client's send, timeout and retry; a
//! copy's visibility, redelivery and hold; an inbox row's and a key's expiry); the scheduler,
//! the checker and the page's clock item all read this one list.

use serde::{Deserialize, Serialize};

use crate::ids::{IdempotencyKey, MessageId, Tick};
use crate::sim::action::{EntryId, RequestIndex};
use crate::sim::trace::SimEvent;
use crate::sim::world::{StepOut, World};

/// A moment at which something in the world falls due.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Deadline {
    /// When.
    pub(crate) at: Tick,
    /// What falls due then.
    pub(crate) reason: DeadlineReason,
}

/// What falls due at a [`Deadline`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub(crate) enum DeadlineReason {
    /// A request's start tick: its client sends it (the request it waits for is finished).
    RequestDue {
        /// The request.
        request: RequestIndex,
    },
    /// A client's timeout for its request fires.
    ClientTimeout {
        /// The request.
        request: RequestIndex,
    },
    /// A client's backoff ends: it retries.
    ClientRetry {
        /// The request.
        request: RequestIndex,
    },
    /// A queued copy becomes visible.
    MessageVisible {
        /// The copy.
        entry: EntryId,
    },
    /// A delivered copy's visibility timeout ends: it is delivered again.
    Redelivery {
        /// The copy.
        entry: EntryId,
    },
    /// A held copy (F9) is released.
    HoldEnds {
        /// The copy.
        entry: EntryId,
    },
    /// An inbox row's retention window runs out: the retention job may purge it.
    InboxRowExpires {
        /// The row's message.
        message_id: MessageId,
    },
    /// A completed key's retention window runs out: the retention job may forget it.
    KeyRetentionEnds {
        /// The key.
        key: IdempotencyKey,
    },
    /// An in-progress key's lease and retention window have both run out.
    KeyLeaseAndRetentionEnd {
        /// The key.
        key: IdempotencyKey,
    },
}

impl World {
    /// Every deadline after now, actor by actor (clients, broker, retention job), each with its
    /// reason; several may fall at the same tick.
    pub(crate) fn deadlines(&self) -> Vec<Deadline> {
        let mut deadlines = Vec::new();
        self.each_deadline(&mut |deadline| deadlines.push(deadline));
        deadlines
    }

    /// The earliest deadline after now: when the clock next has a reason to move. The minimum
    /// of [`World::deadlines`], without listing them.
    pub(crate) fn next_deadline(&self) -> Option<Tick> {
        let mut next: Option<Tick> = None;
        self.each_deadline(&mut |deadline| {
            next = Some(next.map_or(deadline.at, |next| next.min(deadline.at)));
        });
        next
    }

    /// Hands every deadline after now to `each`, actor by actor.
    fn each_deadline(&self, each: &mut impl FnMut(Deadline)) {
        let now = self.now;
        let mut after_now = |deadline: Deadline| {
            if deadline.at > now {
                each(deadline);
            }
        };
        self.client_deadlines(&mut after_now);
        self.broker_deadlines(&mut after_now);
        self.retention_deadlines(&mut after_now);
    }

    /// Time passes by `ticks`.
    pub(super) fn advance_clock(&mut self, ticks: u64, out: &mut StepOut) {
        let from = self.now;
        self.now = self.now.plus(ticks);
        out.events.push(SimEvent::ClockAdvanced { from, to: self.now });
    }
}
