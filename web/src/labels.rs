//! Short English labels for the core's actions, for buttons and the step caption. Wording
//! only: what an action does is the core's business.

use idempotency_lab::sim::{Action, HoldRelease};

/// A label of `action` that fits on a button.
pub fn action_label(action: &Action) -> String {
    match action {
        Action::ClientSend { request } => format!("client sends request {request}"),
        Action::ClientTimeout { request } => format!("client times out on request {request}"),
        Action::ClientRetry { request } => format!("client retries request {request}"),
        Action::ApiStep { attempt } => format!("API runs a statement of {attempt}"),
        Action::DeliverResponse { attempt } => format!("network delivers the answer to {attempt}"),
        Action::RelayStep => "relay runs a statement".to_owned(),
        Action::BrokerDeliver { entry, instance } => {
            format!("broker delivers {entry} to {}", instance.lane_name())
        }
        Action::ConsumerStep { instance } => format!("{} runs a statement", instance.lane_name()),
        Action::PurgeStep => "retention job runs a statement".to_owned(),
        Action::AdvanceClock { ticks } => format!("clock advances {ticks} ticks"),
        Action::DuplicateMessage { entry } => format!("duplicate message {entry}"),
        Action::CrashConsumerAfterCommit { instance } => {
            format!("crash {} after commit", instance.lane_name())
        }
        Action::CrashConsumerBeforeCommit { instance } => {
            format!("crash {} before commit", instance.lane_name())
        }
        Action::DeliverConcurrently { entry, instance } => {
            format!("deliver {entry} to {} too", instance.lane_name())
        }
        Action::LoseResponse { attempt } => format!("lose the answer to {attempt}"),
        Action::DoubleSubmit { request } => format!("double-submit request {request}"),
        Action::SendWithKeyOf { request, key_of } => {
            format!("send request {request} with the key of {key_of}")
        }
        Action::CrashApi { attempt } => format!("crash the API during {attempt}"),
        Action::HoldMessage { entry, until } => match until {
            HoldRelease::RequestAnswered { request } => {
                format!("hold {entry} until request {request} is answered")
            }
            HoldRelease::Ticks { ticks } => format!("hold {entry} for {ticks} ticks"),
        },
        Action::DuplicateAfterRetention { entry } => {
            format!("redeliver {entry} after retention")
        }
        Action::RetryWithNewKey { request } => format!("retry request {request} with a new key"),
        Action::CrashRelay => "crash the relay after publish".to_owned(),
    }
}
