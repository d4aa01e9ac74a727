//! The simulator's actions in words, in each language: [`action_text`], what a step did or
//! what a choice does, for the step caption, the step list and tooltips; and
//! [`fault_button_text`], the short label of a learner's action on the pending item it
//! targets (the item names the target, so the label does not repeat it); and
//! [`choice_target_text`], what a learner's choice hits, for the notices that name the choices
//! a run could not place; and [`fired_faults_text`], the faults a run fired, for the fuzzer's
//! findings in the page and the CLI.
//!
//! Numbers of requests, sends and copies are filled in bare (`request 0`, not `request request
//! 0`); consumer instances keep their lane's name (`Consumer A`), which the diagram shows.

use std::collections::BTreeMap;

use crate::faults::FaultClass;
use crate::sim::{Action, AnchoredAction, FiredFaults, HoldRelease, MessageAnchor};
use crate::view::Language;
use crate::view::diagram::instance_name;
use crate::words::fill;

/// The faults of `counts` (`F3 x2, F5 x1`), or that there were none, in `language`.
pub fn fired_faults_text(counts: &BTreeMap<FaultClass, usize>, language: Language) -> String {
    if counts.is_empty() {
        language.words().glossary.explain_none.to_owned()
    } else {
        FiredFaults::describe(counts)
    }
}

/// What `action` does, in `language`: `client sends request 0`, `Consumer A runs a statement`.
pub fn action_text(action: &Action, language: Language) -> String {
    let w = language.words();
    let ticks = |ticks: u64| language.count(&w.counts.ticks, ticks);
    match action {
        Action::ClientSend { request } => {
            fill(w.actions.act_client_send, &[("request", &request.0)])
        }
        Action::ClientTimeout { request } => {
            fill(w.actions.act_client_timeout, &[("request", &request.0)])
        }
        Action::ClientRetry { request } => {
            fill(w.actions.act_client_retry, &[("request", &request.0)])
        }
        Action::ApiStep { attempt } => fill(w.actions.act_api_step, &[("attempt", &attempt.0)]),
        Action::DeliverResponse { attempt } => {
            fill(w.actions.act_deliver_response, &[("attempt", &attempt.0)])
        }
        Action::RelayStep => w.actions.act_relay_step.to_owned(),
        Action::BrokerDeliver { entry, instance } => fill(
            w.actions.act_broker_deliver,
            &[("entry", &entry.0), ("instance", &instance_name(*instance, language))],
        ),
        Action::ConsumerStep { instance } => {
            fill(w.actions.act_consumer_step, &[("instance", &instance_name(*instance, language))])
        }
        Action::PurgeStep => w.actions.act_purge_step.to_owned(),
        Action::AdvanceClock { ticks: n } => {
            fill(w.actions.act_advance_clock, &[("ticks", &ticks(*n))])
        }
        Action::DuplicateMessage { entry } => fill(w.actions.act_duplicate, &[("entry", &entry.0)]),
        Action::CrashConsumerAfterCommit { instance } => fill(
            w.actions.act_crash_after_commit,
            &[("instance", &instance_name(*instance, language))],
        ),
        Action::CrashConsumerBeforeCommit { instance } => fill(
            w.actions.act_crash_before_commit,
            &[("instance", &instance_name(*instance, language))],
        ),
        Action::DeliverConcurrently { entry, instance } => fill(
            w.actions.act_deliver_concurrently,
            &[("entry", &entry.0), ("instance", &instance_name(*instance, language))],
        ),
        Action::LoseResponse { attempt } => {
            fill(w.actions.act_lose_response, &[("attempt", &attempt.0)])
        }
        Action::DoubleSubmit { request } => {
            fill(w.actions.act_double_submit, &[("request", &request.0)])
        }
        Action::SendWithKeyOf { request, key_of } => {
            fill(w.actions.act_send_with_key_of, &[("request", &request.0), ("key_of", &key_of.0)])
        }
        Action::CrashApi { attempt } => fill(w.actions.act_crash_api, &[("attempt", &attempt.0)]),
        Action::HoldMessage { entry, until } => match until {
            HoldRelease::RequestAnswered { request } => {
                fill(w.actions.act_hold_until, &[("entry", &entry.0), ("request", &request.0)])
            }
            HoldRelease::Ticks { ticks: n } => {
                fill(w.actions.act_hold_ticks, &[("entry", &entry.0), ("ticks", &ticks(*n))])
            }
        },
        Action::DuplicateAfterRetention { entry } => {
            fill(w.actions.act_after_retention, &[("entry", &entry.0)])
        }
        Action::RetryWithNewKey { request } => {
            fill(w.actions.act_retry_new_key, &[("request", &request.0)])
        }
        Action::CrashRelay => w.actions.act_crash_relay.to_owned(),
    }
}

/// The label of the button that takes `action` on its pending item, in `language`:
/// `Duplicate`, `Hold back 20 ticks`; an action with no button of its own is
/// [`action_text`].
pub fn fault_button_text(action: &Action, language: Language) -> String {
    let w = language.words();
    let ticks = |ticks: u64| language.count(&w.counts.ticks, ticks);
    match action {
        Action::DuplicateMessage { .. } => w.actions.btn_duplicate.to_owned(),
        Action::DeliverConcurrently { instance, .. } => {
            fill(w.actions.btn_race, &[("instance", &instance_name(*instance, language))])
        }
        Action::HoldMessage { until: HoldRelease::Ticks { ticks: n }, .. } => {
            fill(w.actions.btn_hold_ticks, &[("ticks", &ticks(*n))])
        }
        Action::HoldMessage { until: HoldRelease::RequestAnswered { request }, .. } => {
            fill(w.actions.btn_hold_until, &[("request", &request.0)])
        }
        Action::DuplicateAfterRetention { .. } => w.actions.btn_after_retention.to_owned(),
        Action::CrashConsumerAfterCommit { .. } => w.actions.btn_crash_after_commit.to_owned(),
        Action::CrashConsumerBeforeCommit { .. } => w.actions.btn_crash_before_commit.to_owned(),
        Action::LoseResponse { .. } => w.actions.btn_lose_response.to_owned(),
        Action::CrashApi { .. } => w.actions.btn_crash_api.to_owned(),
        Action::DoubleSubmit { .. } => w.actions.btn_double_submit.to_owned(),
        Action::SendWithKeyOf { key_of, .. } => {
            fill(w.actions.btn_reuse_key, &[("key_of", &key_of.0)])
        }
        Action::RetryWithNewKey { .. } => w.actions.btn_retry_new_key.to_owned(),
        Action::CrashRelay => w.actions.btn_crash_relay.to_owned(),
        Action::AdvanceClock { ticks: n } => {
            fill(w.actions.btn_advance_clock, &[("ticks", &ticks(*n))])
        }
        other => action_text(other, language),
    }
}

/// What the learner's choice `choice` hits, in `language`: `send 1 of request 0`, `queued copy
/// 2 of the OrderPlaced of request 0 to Consumer B` (English as [`AnchoredAction::target_text`]
/// says it).
pub fn choice_target_text(choice: &AnchoredAction, language: Language) -> String {
    use AnchoredAction as A;
    let w = language.words();
    let request =
        |request: crate::sim::RequestIndex| fill(w.counts.request_name, &[("n", &request.0)]);
    let message = |message: MessageAnchor| match message {
        MessageAnchor::OrderPlacedOf(of) => {
            fill(w.notices.target_order_placed_of, &[("request", &of.0)])
        }
        MessageAnchor::Id(id) => fill(w.notices.target_message, &[("message", &id.0)]),
    };
    let copy = |copy: crate::sim::CopyRef| {
        let number = copy.copy.saturating_add(1);
        fill(w.notices.target_copy, &[("copy", &number), ("message", &message(copy.message))])
    };
    match choice {
        A::ClientSend { request: of }
        | A::ClientTimeout { request: of }
        | A::ClientRetry { request: of }
        | A::DoubleSubmit { request: of }
        | A::RetryWithNewKey { request: of } => request(*of),
        A::SendWithKeyOf { request: of, key_of } => {
            fill(w.notices.target_key_of, &[("request", &of.0), ("key_of", &key_of.0)])
        }
        A::ApiStep { send }
        | A::DeliverResponse { send }
        | A::LoseResponse { send }
        | A::CrashApi { send } => {
            fill(w.notices.target_send, &[("send", &send.send), ("request", &send.request.0)])
        }
        A::BrokerDeliver { copy: of, instance } | A::DeliverConcurrently { copy: of, instance } => {
            let instance = instance_name(*instance, language);
            fill(w.notices.target_copy_to, &[("copy", &copy(*of)), ("instance", &instance)])
        }
        A::DuplicateMessage { copy: of }
        | A::HoldMessage { copy: of, .. }
        | A::DuplicateAfterRetention { copy: of } => copy(*of),
        A::CrashConsumerAfterCommit { delivery } | A::CrashConsumerBeforeCommit { delivery } => {
            let (number, message) = (delivery.delivery, message(delivery.message));
            fill(w.notices.target_delivery, &[("delivery", &number), ("message", &message)])
        }
        A::ConsumerStep { instance } => instance_name(*instance, language),
        A::RelayStep | A::CrashRelay => w.notices.target_relay.to_owned(),
        A::PurgeStep => w.notices.target_retention.to_owned(),
        A::AdvanceClock => w.notices.target_clock.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    //! The English words; the Russian ones are pinned beside the catalogue
    //! (`words/tests/rendered.rs`), where the Russian lives.

    use super::*;
    use crate::sim::{AttemptId, EntryId, InstanceId, RequestIndex};

    #[test]
    fn fired_faults_are_listed_or_none_in_the_language_asked() {
        let fired = BTreeMap::from([(FaultClass::F3, 2), (FaultClass::F5, 1)]);
        for language in Language::ALL {
            assert_eq!(fired_faults_text(&fired, language), "F3 x2, F5 x1");
            assert_eq!(
                fired_faults_text(&BTreeMap::new(), language),
                language.words().glossary.explain_none
            );
        }
        assert_eq!(fired_faults_text(&BTreeMap::new(), Language::En), "none");
        assert_ne!(Language::Ru.words().glossary.explain_none, "none");
    }

    #[test]
    fn actions_read_without_doubled_words() {
        let cases = [
            (Action::ClientSend { request: RequestIndex(0) }, "client sends request 0"),
            (Action::ClientRetry { request: RequestIndex(1) }, "client retries request 1"),
            (Action::ApiStep { attempt: AttemptId(2) }, "API runs a statement of send 2"),
            (Action::ConsumerStep { instance: InstanceId(1) }, "Consumer B runs a statement"),
            (Action::AdvanceClock { ticks: 1 }, "clock advances 1 tick"),
            (Action::AdvanceClock { ticks: 3 }, "clock advances 3 ticks"),
            (
                Action::HoldMessage { entry: EntryId(0), until: HoldRelease::Ticks { ticks: 25 } },
                "hold copy 0 for 25 ticks",
            ),
        ];
        for (action, en) in cases {
            assert_eq!(action_text(&action, Language::En), en);
        }
    }

    #[test]
    fn a_fault_button_names_the_fault_not_its_target() {
        let hold =
            Action::HoldMessage { entry: EntryId(0), until: HoldRelease::Ticks { ticks: 20 } };
        assert_eq!(fault_button_text(&hold, Language::En), "Hold back 20 ticks");
        let double = Action::DoubleSubmit { request: RequestIndex(0) };
        assert_eq!(fault_button_text(&double, Language::En), "Double submit");
        let step = Action::RelayStep;
        for language in Language::ALL {
            assert_eq!(fault_button_text(&step, language), action_text(&step, language));
        }
    }

    #[test]
    fn a_choice_names_what_it_hits() {
        use crate::sim::{AnchoredAction as A, CopyRef, DeliveryRef, MessageAnchor, SendRef};
        let send = SendRef { request: RequestIndex(0), send: 2 };
        let copy = CopyRef { message: MessageAnchor::OrderPlacedOf(RequestIndex(1)), copy: 1 };
        let delivery =
            DeliveryRef { message: MessageAnchor::OrderPlacedOf(RequestIndex(0)), delivery: 3 };
        let cases = [
            (A::ClientTimeout { request: RequestIndex(1) }, "request 1"),
            (A::CrashApi { send }, "send 2 of request 0"),
            (
                A::SendWithKeyOf { request: RequestIndex(2), key_of: RequestIndex(0) },
                "request 2 with the key of request 0",
            ),
            (A::DuplicateMessage { copy }, "queued copy 2 of the OrderPlaced of request 1"),
            (
                A::DeliverConcurrently { copy, instance: InstanceId(1) },
                "queued copy 2 of the OrderPlaced of request 1 to Consumer B",
            ),
            (
                A::CrashConsumerBeforeCommit { delivery },
                "delivery 3 of the OrderPlaced of request 0",
            ),
            (A::CrashRelay, "the relay"),
        ];
        for (choice, en) in cases {
            assert_eq!(choice_target_text(&choice, Language::En), en);
            let ru = choice_target_text(&choice, Language::Ru);
            assert!(!ru.contains('{') && ru != en, "{ru}");
        }
    }
}
