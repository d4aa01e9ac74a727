//! The work still to do in a world: one list, [`World::pending`], from which follow whether
//! the world is quiescent (I6 is judged only then), why a run that cannot go on is stuck, and
//! what the page shows waiting at the cursor.

use std::iter;

use serde::{Deserialize, Serialize};

use crate::ids::{MessageId, TxId};
use crate::sim::action::{AttemptId, EntryId, InstanceId, RequestIndex};
use crate::sim::world::World;

/// One piece of work still to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "pending", rename_all = "snake_case")]
pub(crate) enum PendingWork {
    /// A request has no final answer yet (not sent, waiting, or backing off).
    Request {
        /// The request.
        request: RequestIndex,
    },
    /// A send runs in the API.
    Attempt {
        /// The send.
        attempt: AttemptId,
        /// The transaction whose row lock it waits for, if any.
        waiting_for: Option<TxId>,
    },
    /// An answer travels on the network.
    Answer {
        /// The send it answers.
        attempt: AttemptId,
    },
    /// The relay is running.
    RelayRun,
    /// The outbox has rows not published yet.
    UnpublishedOutbox,
    /// A copy of a message is in the broker.
    Message {
        /// The copy.
        entry: EntryId,
    },
    /// A consumer instance is processing a delivery.
    Delivery {
        /// The instance.
        instance: InstanceId,
        /// The message.
        message_id: MessageId,
    },
    /// The retention job is running.
    RetentionRun,
}

impl World {
    /// The work still to do, actor by actor: requests, API attempts, answers on the network,
    /// the relay and the outbox, the broker's copies, the consumers' deliveries, the retention
    /// job. Lazy: asking whether there is any looks no further than the first.
    pub(crate) fn pending(&self) -> impl Iterator<Item = PendingWork> + '_ {
        let requests = self.clients.iter().enumerate().filter_map(|(index, client)| {
            (!client.is_finished()).then_some(PendingWork::Request { request: RequestIndex(index) })
        });
        let attempts = self.attempts.iter().map(|(attempt, running)| PendingWork::Attempt {
            attempt: *attempt,
            waiting_for: running.waiting_for,
        });
        let answers =
            self.responses.keys().map(|attempt| PendingWork::Answer { attempt: *attempt });
        let relay = self.relay.iter().map(|_| PendingWork::RelayRun);
        let outbox = iter::once_with(|| self.has_unpublished_outbox_rows())
            .filter(|unpublished| *unpublished)
            .map(|_| PendingWork::UnpublishedOutbox);
        let messages =
            self.broker.entries.keys().map(|entry| PendingWork::Message { entry: *entry });
        let deliveries = self.consumers.iter().enumerate().filter_map(|(index, instance)| {
            let delivery = instance.delivery.as_ref()?;
            Some(PendingWork::Delivery {
                instance: InstanceId(index),
                message_id: delivery.message_id,
            })
        });
        let retention = self.retention.iter().map(|_| PendingWork::RetentionRun);
        requests
            .chain(attempts)
            .chain(answers)
            .chain(relay)
            .chain(outbox)
            .chain(messages)
            .chain(deliveries)
            .chain(retention)
    }

    /// Whether any work is pending: [`World::pending`] is not empty.
    pub(crate) fn has_pending_work(&self) -> bool {
        self.pending().next().is_some()
    }

    /// [`World::pending`] in words, answers and copies counted: empty when nothing is pending.
    /// A stuck run's stop reason quotes it.
    pub(crate) fn pending_work(&self) -> Vec<String> {
        let mut words = Vec::new();
        let (mut answers_told, mut messages_told) = (false, false);
        for work in self.pending() {
            match work {
                PendingWork::Request { request } => {
                    words.push(format!("request {} has no final answer", request.0));
                }
                PendingWork::Attempt { attempt, waiting_for: Some(holder) } => {
                    words.push(format!("{attempt} waits for {holder}"));
                }
                PendingWork::Attempt { attempt, waiting_for: None } => {
                    words.push(format!("{attempt} is running"));
                }
                PendingWork::Answer { .. } if !answers_told => {
                    answers_told = true;
                    words.push(format!("{} answers on the network", self.responses.len()));
                }
                PendingWork::Message { .. } if !messages_told => {
                    messages_told = true;
                    words.push(format!("the broker holds {} entries", self.broker.entries.len()));
                }
                PendingWork::Answer { .. } | PendingWork::Message { .. } => {}
                PendingWork::RelayRun => words.push("the relay is running".to_owned()),
                PendingWork::UnpublishedOutbox => {
                    words.push("the outbox has unpublished rows".to_owned());
                }
                PendingWork::Delivery { instance, message_id } => {
                    words.push(format!("{instance} is processing {message_id}"));
                }
                PendingWork::RetentionRun => {
                    words.push("the retention job is running".to_owned());
                }
            }
        }
        words
    }
}
