//! What the lab tells the learner as a run goes: its decisive moments (`view::MomentKind`), the
//! page's opening of a long run in slices, and the banners after an action (a refusal, and what
//! the action did to the learner's choices).

use super::plural::Plural;
use super::topic::{Text, topic};

topic! {
    /// A run's decisive moments, the opening of a long run, and the banners after an action.
    pub struct NoticeWords {
        // The decisive moments of a run (`view::MomentKind`): a headline, and why it matters.
        /// P1: the reservation's `INSERT ... ON CONFLICT DO NOTHING` met its row.
        moment_reservation_already_present: Text {
            en: "INSERT ... ON CONFLICT DO NOTHING -> 0 rows",
            ru: "INSERT ... ON CONFLICT DO NOTHING -> 0 строк",
        },
        /// Why that matters, in one line.
        moment_reservation_already_present_why: Text {
            en: "The reservation is there already: no stock is taken a second time.",
            ru: "Резервация уже есть: остаток второй раз не списывается.",
        },
        /// P4: the inbox row's `INSERT` met the unique key.
        moment_inbox_duplicate: Text {
            en: "INSERT inbox hits the unique key: seen before -> ROLLBACK",
            ru: "INSERT inbox упёрся в уникальный ключ: уже обработано -> ROLLBACK",
        },
        /// Why that matters, in one line.
        moment_inbox_duplicate_why: Text {
            en: "Nothing is applied: the transaction rolls back and the copy is acked.",
            ru: "Эффект не применяется: транзакция откатывается, копия просто подтверждается.",
        },
        /// P2: `MarkPaid` on an order this payment paid already.
        moment_already_paid: Text {
            en: "MarkPaid -> already paid, no-op",
            ru: "MarkPaid -> уже оплачено, ничего не делаем",
        },
        /// Why that matters, in one line.
        moment_already_paid_why: Text {
            en: "Paid by this very payment: the same 200, and no second charge.",
            ru: "Заказ уже оплачен этим же платежом: тот же 200, второго списания нет.",
        },
        /// P3: 409, the key's first request is still in progress.
        moment_key_in_progress: Text {
            en: "409: the key's first request is in progress",
            ru: "409: запрос с этим ключом ещё обрабатывается",
        },
        /// Why that matters, in one line.
        moment_key_in_progress_why: Text {
            en: "Its lease holds, so this one does not run the handler too: retry later.",
            ru: "Аренда первого запроса действует, обработчик второй раз не запускается: повторите \
                 позже.",
        },
        /// P3: 422, the key was used with another body.
        moment_key_reused: Text {
            en: "422: Idempotency-Key reused with another body",
            ru: "422: Idempotency-Key с другим телом запроса",
        },
        /// Why that matters, in one line.
        moment_key_reused_why: Text {
            en: "Same key, other request: replaying the first answer would be wrong.",
            ru: "Ключ тот же, запрос другой: отдать ответ первого запроса было бы ошибкой.",
        },
        /// P3: the lease expired and this request took the key over.
        moment_lease_takeover: Text {
            en: "lease expired -> takeover with a larger token",
            ru: "аренда истекла -> ключ перехвачен с большим токеном",
        },
        /// Why that matters, in one line.
        moment_lease_takeover_why: Text {
            en: "Its holder crashed or stalled: this request runs; the old token is fenced off.",
            ru: "Первый запрос упал или завис: выполняется этот, старый токен ключ уже не \
                 завершит.",
        },
        /// P3: a completion with an older fencing token was refused.
        moment_stale_completion: Text {
            en: "stale completion rejected (fencing token)",
            ru: "завершение со старым токеном отклонено",
        },
        /// Why that matters, in one line.
        moment_stale_completion_why: Text {
            en: "Its token is older than the key's: the newer answer stays, this one gets 409.",
            ru: "Токен старше, чем у ключа: остаётся новый ответ, этот запрос получает 409.",
        },
        /// P3: the key's stored answer was replayed.
        moment_response_replayed: Text {
            en: "stored answer replayed, the handler does not run",
            ru: "сохранённый ответ повторён, обработчик не запускается",
        },
        /// Why that matters, in one line.
        moment_response_replayed_why: Text {
            en: "A retry gets the same status and body, and nothing happens twice.",
            ru: "Повтор получает тот же статус и тело, и ничего не происходит дважды.",
        },

        // The page's opening of a long run (a share link, a trace file) in slices.
        /// The progress line: the steps taken so far and the steps the run opens to.
        opening_progress: Text {
            en: "Opening the run: step {step} of {total}",
            ru: "Открываем прогон: шаг {step} из {total}",
        },
        /// The button that stops the opening.
        opening_cancel: Text { en: "Cancel", ru: "Отмена" },
        /// After Cancel: how far it got (a number of [`Words::steps`] of the steps it opened to),
        /// and what the page shows.
        opening_cancelled: Text {
            en: "Opening cancelled ({steps} of {total} replayed): the page still shows the run it \
                 showed before.",
            ru: "Открытие отменено (воспроизведено: {steps} из {total}): на странице по-прежнему \
                 тот прогон, что был до этого.",
        },
        /// After a seed change, a scenario change or Keep (below): the learner's choices not
        /// carried into the new run, since what they hit is not in it (a number of
        /// [`Words::choices`]), and the steps they were made at.
        choices_dropped: Text {
            en: "Not carried into this run, which has nothing for them to hit: {choices} (step \
                 {steps}).",
            ru: "Не перенесено в этот прогон, потому что в нём им не на что подействовать: \
                 {choices} (шаги: {steps}).",
        },
        /// A lesson's run opened without the learner's choices of the run it replaced: how many
        /// there are (`{n}`), before the button that keeps them.
        carry_offer: Plural {
            en: Plural::en(
                    "{n} choice of yours from the previous run:",
                    "{n} of your choices from the previous run:",
                ),
            ru: Plural::ru(
                    "{n} ваше действие из прошлого прогона:",
                    "{n} ваших действия из прошлого прогона:",
                    "{n} ваших действий из прошлого прогона:",
                ),
        },
        /// The button that carries those choices into the lesson's run.
        carry_offer_keep: Text { en: "Keep in this run", ru: "Перенести в этот прогон" },

        // What the lab's banners say after an action (the page's `notices`): a refusal, and what
        // an action did to the learner's choices.
        /// A share link that cannot be opened, and why (`{why}`: the core's typed error, which
        /// names the field).
        problem_link: Text {
            en: "This share link cannot be opened: {why}.",
            ru: "Эту ссылку нельзя открыть: {why}.",
        },
        /// A run (a trace file, a link's run) that cannot be opened or shown, and why.
        problem_run: Text {
            en: "This run cannot be opened: {why}.",
            ru: "Этот прогон нельзя открыть: {why}.",
        },
        /// A file that reads as neither a trace nor a scenario, with both reasons.
        problem_file_kind: Text {
            en: "{name} is neither a trace ({trace}) nor a scenario ({scenario}).",
            ru: "{name} не читается ни как трасса ({trace}), ни как сценарий ({scenario}).",
        },
        /// A file the browser could not read.
        problem_file_unread: Text {
            en: "{name} could not be read: {why}.",
            ru: "Не удалось прочитать {name}: {why}.",
        },
        /// A fault whose target is gone at the step shown (`{fault}`: the action in words).
        problem_fault_no_target: Text {
            en: "The fault could not be applied: \"{fault}\" has no target at this step.",
            ru: "Сбой не применён: у «{fault}» на этом шаге нет цели.",
        },
        /// A fault that the world does not allow at the step shown.
        problem_fault_not_enabled: Text {
            en: "The fault could not be applied: \"{fault}\" is not possible at this step.",
            ru: "Сбой не применён: «{fault}» на этом шаге невозможно.",
        },
        /// A fault refused for another reason.
        problem_fault: Text {
            en: "The fault could not be applied: {why}.",
            ru: "Сбой не применён: {why}.",
        },
        /// The learner's choices a run never reaches the target of (a number of
        /// [`Words::choices`], and each one's step and target): they stay in the run.
        notice_choices_missed: Text {
            en: "This run never holds what {choices} hit ({targets}): they did not apply here, and \
                 stay in the run for the twin where it exists.",
            ru: "В этом прогоне нет целей для части ваших действий ({choices}: {targets}): здесь \
                 они не сработали и остаются в прогоне для двойника, где их цель есть.",
        },
        /// One choice of those: its step and its target.
        notice_choice_missed: Text { en: "step {step}: {target}", ru: "шаг {step}: {target}" },
        /// A fault placed before the run's last step: a new branch from `{step}`.
        notice_new_branch: Text {
            en: "A new branch from step {step}: the run's steps after it were replaced.",
            ru: "Новая ветка с шага {step}: шаги прогона после него заменены.",
        },
        /// The same, when later choices of the learner's were replaced too (a number of
        /// [`Words::choices`]).
        notice_new_branch_choices: Text {
            en: "A new branch from step {step}: the run's steps after it and {choices} made later \
                 were replaced.",
            ru: "Новая ветка с шага {step}: шаги прогона после него заменены, как и более поздние \
                 действия ({choices}).",
        },
        /// The button that closes a banner.
        banner_dismiss: Text { en: "dismiss", ru: "закрыть" },
        /// What a choice hits, in a notice: a request's send.
        target_send: Text {
            en: "send {send} of request {request}",
            ru: "отправка {send} запроса {request}",
        },
        /// A queued copy of a message (`{copy}` from 1).
        target_copy: Text {
            en: "queued copy {copy} of {message}",
            ru: "копия {copy} в очереди: {message}",
        },
        /// A consumer's delivery of a message.
        target_delivery: Text {
            en: "delivery {delivery} of {message}",
            ru: "доставка {delivery}: {message}",
        },
        /// A copy delivered to an instance.
        target_copy_to: Text { en: "{copy} to {instance}", ru: "{copy} для {instance}" },
        /// A request sent with another request's key.
        target_key_of: Text {
            en: "request {request} with the key of request {key_of}",
            ru: "запрос {request} с ключом запроса {key_of}",
        },
        /// The `OrderPlaced` message of a request.
        target_order_placed_of: Text {
            en: "the OrderPlaced of request {request}",
            ru: "OrderPlaced запроса {request}",
        },
        /// A message by its id.
        target_message: Text { en: "message {message}", ru: "сообщение {message}" },
        /// The outbox relay.
        target_relay: Text { en: "the relay", ru: "ретранслятор" },
        /// The retention job.
        target_retention: Text { en: "the retention job", ru: "задача очистки" },
        /// The clock.
        target_clock: Text { en: "the clock", ru: "часы" },
    }
}
