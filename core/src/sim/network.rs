//! The network between the API and its clients: answers in flight, delivered to their client
//! or lost (F5).
//!
//! An answer is already in the history when it travels (the API gave it); the network only
//! decides whether the client hears it. A delivered answer is the client's to judge (see
//! `client.rs`): final, a reason to retry, or late and ignored.

use serde::{Deserialize, Serialize};

use crate::idempotency::HttpResponse;
use crate::sim::action::{Action, AttemptId, RequestIndex};
use crate::sim::trace::SimEvent;
use crate::sim::world::{ApplyError, StepOut, Target, World, missing};

/// An answer on its way to the client.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct InFlightResponse {
    /// The request.
    pub(crate) request: RequestIndex,
    /// Which send of it, from 1.
    pub(crate) send_number: u32,
    /// The answer.
    pub(crate) response: HttpResponse,
}

impl World {
    /// A delivery for every answer on the network.
    pub(super) fn enabled_response_deliveries(&self, actions: &mut Vec<Action>) {
        actions.extend(
            self.responses.keys().map(|attempt| Action::DeliverResponse { attempt: *attempt }),
        );
    }

    /// The network brings the answer to `id` to its client.
    pub(super) fn deliver_response(
        &mut self,
        id: AttemptId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let delivered = self.responses.remove(&id).ok_or_else(|| missing(Target::Answer(id)))?;
        let status = delivered.response.status;
        out.request = Some(delivered.request);
        out.attempt = Some(id);
        out.events.push(SimEvent::ResponseDelivered { attempt: id, status });
        self.client_receives(delivered.request, id, status, out)
    }

    /// F5: the network loses the answer to `id`.
    pub(super) fn lose_response(
        &mut self,
        id: AttemptId,
        out: &mut StepOut,
    ) -> Result<(), ApplyError> {
        let lost = self.responses.remove(&id).ok_or_else(|| missing(Target::Answer(id)))?;
        out.request = Some(lost.request);
        out.attempt = Some(id);
        out.events.push(SimEvent::ResponseLost { attempt: id });
        Ok(())
    }
}
