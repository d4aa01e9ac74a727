//! The sequence diagram's words: the pending items (`view::pending`), a label and a tooltip
//! each and what falls due; the arrows and marks (`view::step_items_in`), their short labels;
//! and the tooltips that say what each arrow and mark says in full.

use super::topic::{Text, topic};

topic! {
    /// The pending items, and the diagram's arrows and marks with their tooltips.
    pub struct DiagramWords {
        // The pending items (`view::pending`): a label and a tooltip each, and what falls due.
        /// The retention job's item.
        pend_retention_label: Text { en: "retention job runs", ru: "задача очистки запускается" },
        /// Its tooltip.
        pend_retention_detail: Text {
            en: "the retention job purges expired inbox rows, then forgotten keys",
            ru: "задача очистки удаляет просроченные записи Inbox, затем забытые ключи",
        },
        /// A request not sent yet.
        pend_not_sent: Text { en: "not sent yet", ru: "ещё не отправлен" },
        /// A request awaiting its answer (`{tick}`: its timeout).
        pend_awaits: Text {
            en: "awaits its answer (timeout at tick {tick})",
            ru: "ждёт ответа (тайм-аут на тике {tick})",
        },
        /// A request backing off (`{tick}`: its retry).
        pend_retries_at: Text { en: "retries at tick {tick}", ru: "повтор на тике {tick}" },
        /// A request's item (`{what}`: method and path, `{state}`: one of the above).
        pend_request_label: Text {
            en: "request {request} {what}: {state}",
            ru: "запрос {request} {what}: {state}",
        },
        /// Its tooltip.
        pend_request_detail: Text {
            en: "request {request} ({what}), {sends} sends so far, Idempotency-Key {key}",
            ru: "запрос {request} ({what}), отправок: {sends}, Idempotency-Key {key}",
        },
        /// After an item that waits for a lock's holder (`{holder}`).
        pend_waits_for: Text { en: ", waits for {holder}", ru: ", ждёт {holder}" },
        /// A send running in the API.
        pend_attempt_label: Text {
            en: "attempt {attempt} of request {request} runs{waiting}",
            ru: "попытка {attempt} запроса {request} выполняется{waiting}",
        },
        /// Its tooltip.
        pend_attempt_detail: Text {
            en: "send {send} of request {request}, Idempotency-Key {key}, running in the API",
            ru: "отправка {send} запроса {request}, Idempotency-Key {key}, выполняется в API",
        },
        /// An answer on the network.
        pend_answer_label: Text {
            en: "answer {status} to request {request} on the network",
            ru: "ответ {status} на запрос {request} в сети",
        },
        /// Its tooltip.
        pend_answer_detail: Text {
            en: "the answer {status} to attempt {attempt} (send {send} of request {request}) \
                 travels to the client",
            ru: "ответ {status} на попытку {attempt} (отправка {send} запроса {request}) идёт к \
                 клиенту",
        },
        /// The relay, running.
        pend_relay_runs: Text { en: "relay runs", ru: "ретранслятор работает" },
        /// The relay, with messages published and not marked.
        pend_relay_published: Text {
            en: "relay runs: {count} published, not marked",
            ru: "ретранслятор работает: опубликовано, но не отмечено: {count}",
        },
        /// The outbox, with unpublished rows.
        pend_outbox_unpublished: Text {
            en: "outbox: {count} unpublished",
            ru: "outbox: не опубликовано: {count}",
        },
        /// Its tooltip.
        pend_relay_detail: Text {
            en: "{unpublished} outbox rows unpublished; published and not yet marked: {ids}",
            ru: "неопубликованных строк outbox: {unpublished}; опубликованы, но ещё не отмечены: \
                 {ids}",
        },
        /// A queued copy, not visible yet.
        pend_queued_visible: Text {
            en: "queued, visible at tick {tick}",
            ru: "в очереди, станет видна на тике {tick}",
        },
        /// A queued copy.
        pend_queued: Text { en: "queued", ru: "в очереди" },
        /// A copy in flight (`{instances}`: the consumers).
        pend_in_flight: Text { en: "in flight at {instances}", ru: "в обработке: {instances}" },
        /// A copy held until a request is answered.
        pend_held_until_answered: Text {
            en: "held until request {request} is answered",
            ru: "задержана до ответа на запрос {request}",
        },
        /// A copy held until a tick.
        pend_held_until_tick: Text { en: "held until tick {tick}", ru: "задержана до тика {tick}" },
        /// A late copy.
        pend_late_copy: Text {
            en: "late copy, after the original's ack",
            ru: "поздняя копия, после подтверждения оригинала",
        },
        /// A message's item.
        pend_message_label: Text {
            en: "message {id} (entry {entry}): {state}",
            ru: "сообщение {id} (копия {entry}): {state}",
        },
        /// Its tooltip.
        pend_message_detail: Text {
            en: "entry {entry}, a copy of message {id}, delivered {deliveries} times",
            ru: "копия {entry} сообщения {id}, доставок: {deliveries}",
        },
        /// A delivery a consumer processes.
        pend_delivery_label: Text {
            en: "delivery #{number} of {id}{waiting}",
            ru: "доставка №{number} сообщения {id}{waiting}",
        },
        /// Its tooltip.
        pend_delivery_detail: Text {
            en: "{instance} processes entry {entry} of message {id} (delivery {number})",
            ru: "{instance} обрабатывает копию {entry} сообщения {id} (доставка {number})",
        },
        /// The clock's item.
        pend_clock_label: Text {
            en: "clock: tick {now}, next deadline at tick {deadline}",
            ru: "часы: тик {now}, следующий срок на тике {deadline}",
        },
        /// Its tooltip, when nothing is named.
        pend_clock_something: Text {
            en: "at tick {tick}, something is due",
            ru: "на тике {tick} наступает срок",
        },
        /// Its tooltip, with what falls due.
        pend_clock_due: Text { en: "at tick {tick}: {due}", ru: "на тике {tick}: {due}" },
        /// A request is due to be sent.
        due_request: Text {
            en: "request {request} is due to be sent",
            ru: "пора отправить запрос {request}",
        },
        /// A request's timeout fires.
        due_timeout: Text {
            en: "the timeout of request {request} fires",
            ru: "срабатывает тайм-аут запроса {request}",
        },
        /// A request retries.
        due_retry: Text { en: "request {request} retries", ru: "запрос {request} повторяется" },
        /// A copy becomes visible.
        due_visible: Text {
            en: "entry {entry} becomes visible",
            ru: "копия {entry} становится видна",
        },
        /// A copy's visibility timeout ends.
        due_redelivery: Text {
            en: "the visibility timeout of entry {entry} ends: redelivery",
            ru: "тайм-аут видимости копии {entry} истекает: повторная доставка",
        },
        /// A held copy is released.
        due_hold_ends: Text { en: "entry {entry} is released", ru: "копия {entry} отпускается" },
        /// An inbox row's retention runs out.
        due_inbox_expires: Text {
            en: "the retention window of the inbox row of message {id} runs out",
            ru: "истекает срок хранения записи Inbox сообщения {id}",
        },
        /// A key's retention runs out.
        due_key_expires: Text {
            en: "the retention window of key {key} runs out",
            ru: "истекает срок хранения ключа {key}",
        },
        /// A key's lease and retention run out.
        due_key_lease_expires: Text {
            en: "the lease and retention window of key {key} run out",
            ru: "истекают аренда и срок хранения ключа {key}",
        },

        // The diagram's arrows and marks (`view::step_items_in`), their short labels.
        /// F4's mark.
        dg_concurrent: Text { en: "concurrent delivery", ru: "параллельная доставка" },
        /// F6's mark.
        dg_double_submit: Text { en: "double submit", ru: "двойная отправка" },
        /// F7's mark.
        dg_key_of: Text { en: "key of request {request}", ru: "ключ запроса {request}" },
        /// F11's mark.
        dg_retry_new_key: Text { en: "retry, new key", ru: "повтор, новый ключ" },
        /// An invariant broken at this step.
        dg_violated: Text { en: "{invariant} violated", ru: "{invariant} нарушен" },
        /// After a request sent again.
        dg_again: Text { en: "{request} (again)", ru: "{request} (снова)" },
        /// A stored answer replayed.
        dg_replayed: Text { en: "replayed {status}", ru: "повтор ответа {status}" },
        /// A 409.
        dg_key_in_progress: Text { en: "key in progress", ru: "ключ в обработке" },
        /// A 422.
        dg_key_reused: Text { en: "key reused", ru: "ключ с другим телом" },
        /// An API run that failed.
        dg_failed_no_answer: Text { en: "failed, no answer", ru: "сбой, ответа нет" },
        /// F8's mark.
        dg_api_crash: Text { en: "API crash", ru: "падение API" },
        /// A lock wait.
        dg_waits_for: Text { en: "waits for {holder}", ru: "ждёт {holder}" },
        /// A late answer.
        dg_late_ignored: Text { en: "late, ignored", ru: "опоздал, отброшен" },
        /// F5's mark.
        dg_response_lost: Text { en: "response lost", ru: "ответ потерян" },
        /// A client's timeout.
        dg_timeout: Text { en: "timeout", ru: "тайм-аут" },
        /// A client out of attempts.
        dg_gave_up: Text { en: "gave up", ru: "клиент сдался" },
        /// The relay's publish arrow.
        dg_publish: Text { en: "publish {id}", ru: "публикация {id}" },
        /// The relay failed.
        dg_relay_failed: Text { en: "relay failed", ru: "сбой ретранслятора" },
        /// F12's mark.
        dg_relay_crash: Text { en: "relay crash", ru: "падение ретранслятора" },
        /// The broker's delivery arrow.
        dg_deliver: Text { en: "deliver #{number} {id}", ru: "доставка №{number} {id}" },
        /// A redelivery's mark.
        dg_delivery_again: Text { en: "delivery #{number}", ru: "доставка №{number}" },
        /// F1's mark.
        dg_duplicate: Text { en: "duplicate {id}", ru: "дубль {id}" },
        /// F9's mark.
        dg_hold: Text { en: "hold entry {entry}", ru: "задержка копии {entry}" },
        /// A held copy released.
        dg_release: Text { en: "release entry {entry}", ru: "копия {entry} отпущена" },
        /// A dead-lettered copy.
        dg_dead_lettered: Text { en: "dead-lettered", ru: "в очередь недоставленных" },
        /// P4's inbox ignored a duplicate.
        dg_duplicate_ignored: Text { en: "duplicate ignored", ru: "дубль пропущен" },
        /// The consumer's ack arrow.
        dg_ack: Text { en: "ack {id}", ru: "подтверждение {id}" },
        /// A consumer's failure.
        dg_failed_no_ack: Text { en: "failed, no ack", ru: "сбой, без подтверждения" },
        /// A consumer crash.
        dg_crash: Text { en: "crash", ru: "падение" },
        /// F3's mark.
        dg_crash_before_commit: Text { en: "crash before commit", ru: "падение до коммита" },
        /// F2's mark.
        dg_crash_after_commit: Text { en: "crash after commit", ru: "падение после коммита" },
        /// A crash after the ack.
        dg_crash_after_ack: Text { en: "crash after ack", ru: "падение после подтверждения" },
        /// The retention job failed.
        dg_retention_failed: Text { en: "retention failed", ru: "сбой очистки" },
        /// A deadlock's victim.
        dg_deadlock: Text {
            en: "deadlock, {victim} aborted",
            ru: "взаимоблокировка, {victim} прерван",
        },

        // The diagram's tooltips: what each arrow and mark says in full.
        /// F4's mark: a copy delivered while in flight elsewhere: its tooltip.
        dgt_concurrent: Text {
            en: "F4: entry {entry} delivered to {instance} while still in flight elsewhere",
            ru: "F4: копия {entry} доставлена ({instance}), хотя её ещё обрабатывает другой \
                 экземпляр",
        },
        /// F6's mark: its tooltip.
        dgt_double_submit: Text {
            en: "F6: request {request} sent twice at once, with the same key",
            ru: "F6: запрос {request} отправлен дважды одновременно, с одним и тем же ключом",
        },
        /// F7's mark: its tooltip.
        dgt_key_of: Text {
            en: "F7: request {request} sent with the key of request {key_of}",
            ru: "F7: запрос {request} отправлен с ключом запроса {key_of}",
        },
        /// F11's mark: its tooltip.
        dgt_retry_new_key: Text {
            en: "F11: request {request} retried with a new idempotency key",
            ru: "F11: запрос {request} повторён с новым ключом идемпотентности",
        },
        /// A request's arrow: its tooltip.
        dgt_request_sent: Text {
            en: "request {request}, attempt {attempt}, Idempotency-Key {key}",
            ru: "запрос {request}, попытка {attempt}, Idempotency-Key {key}",
        },
        /// A replayed answer: its tooltip.
        dgt_replayed: Text {
            en: "key {key} seen before: its stored answer {status} is replayed",
            ru: "ключ {key} уже встречался: повторно отдаётся сохранённый ответ {status}",
        },
        /// A key in progress: its tooltip.
        dgt_key_in_progress: Text {
            en: "key {key} is being handled (lease until {until}): 409",
            ru: "ключ {key} ещё обрабатывается (аренда до {until}): 409",
        },
        /// A key reused with another payload: its tooltip.
        dgt_key_reused: Text {
            en: "key {key} was used for another payload: 422",
            ru: "ключ {key} уже использован с другим телом запроса: 422",
        },
        /// The API failed (`{error}` is the store's): its tooltip.
        dgt_api_failed: Text { en: "attempt {attempt}: {error}", ru: "попытка {attempt}: {error}" },
        /// F8, nothing open: its tooltip.
        dgt_api_crash: Text {
            en: "F8: the API crashed running attempt {attempt}",
            ru: "F8: API упал во время попытки {attempt}",
        },
        /// F8 with an open transaction: its tooltip.
        dgt_api_crash_rolled_back: Text {
            en: "F8: the API crashed running attempt {attempt}; {tx} rolled back",
            ru: "F8: API упал во время попытки {attempt}; транзакция {tx} откатана",
        },
        /// A lock wait: its tooltip.
        dgt_waits_for: Text {
            en: "{tx} waits for {holder}'s lock on {table} {key}",
            ru: "{tx} ждёт блокировку {holder} на {table} {key}",
        },
        /// A response's arrow: its tooltip.
        dgt_answer: Text {
            en: "the answer to attempt {attempt}: {status}",
            ru: "ответ на попытку {attempt}: {status}",
        },
        /// A late answer: its tooltip.
        dgt_late_ignored: Text {
            en: "the client no longer waited for the answer to attempt {attempt}",
            ru: "клиент уже не ждал ответа на попытку {attempt}",
        },
        /// F5's mark: its tooltip.
        dgt_response_lost: Text {
            en: "F5: the network lost the answer to attempt {attempt}",
            ru: "F5: сеть потеряла ответ на попытку {attempt}",
        },
        /// A client's timeout: its tooltip.
        dgt_timeout: Text {
            en: "the client's timeout for request {request} fired",
            ru: "у клиента истёк тайм-аут запроса {request}",
        },
        /// A client gave up: its tooltip.
        dgt_gave_up: Text {
            en: "the client ran out of attempts for request {request}",
            ru: "у клиента закончились попытки для запроса {request}",
        },
        /// A publish arrow: its tooltip.
        dgt_published: Text {
            en: "OrderPlaced {id} queued as entry {entry}",
            ru: "OrderPlaced {id} поставлено в очередь как копия {entry}",
        },
        /// F12's mark: its tooltip.
        dgt_relay_crash: Text {
            en: "F12: the relay crashed; published, not marked: {published}",
            ru: "F12: ретранслятор упал; опубликованы, но не отмечены: {published}",
        },
        /// A delivery's arrow: its tooltip.
        dgt_delivered: Text {
            en: "entry {entry} of message {id}, delivery {number}",
            ru: "копия {entry} сообщения {id}, доставка {number}",
        },
        /// A delivery after the first: its tooltip.
        dgt_delivered_again: Text {
            en: "message {id} is delivered again: delivery {number}",
            ru: "сообщение {id} доставлено снова: доставка {number}",
        },
        /// A duplicated message: its tooltip.
        dgt_duplicate: Text {
            en: "a second copy of message {id}: entry {copy} (of entry {entry})",
            ru: "вторая копия сообщения {id}: копия {copy} (дубль копии {entry})",
        },
        /// F9's mark: its tooltip.
        dgt_held: Text { en: "F9: entry {entry} is held back", ru: "F9: копия {entry} задержана" },
        /// A held copy released: its tooltip.
        dgt_released: Text {
            en: "entry {entry} is deliverable again",
            ru: "копию {entry} снова можно доставить",
        },
        /// A dead letter: its tooltip.
        dgt_dead_lettered: Text {
            en: "entry {entry} of message {id} ran out of deliveries",
            ru: "у копии {entry} сообщения {id} закончились попытки доставки",
        },
        /// A duplicate the inbox ignored: its tooltip.
        dgt_duplicate_ignored: Text {
            en: "the inbox already holds message {id}: no effect",
            ru: "в inbox уже есть сообщение {id}: без эффекта",
        },
        /// An ack's arrow: its tooltip.
        dgt_ack: Text {
            en: "{instance} acknowledges message {id}",
            ru: "{instance}: подтверждает сообщение {id}",
        },
        /// An ack's arrow without a message id: its tooltip.
        dgt_ack_delivery: Text {
            en: "{instance} acknowledges its delivery",
            ru: "{instance}: подтверждает доставку",
        },
        /// A consumer crash (`{crashed}` is where, as data): its tooltip.
        dgt_consumer_crashed: Text {
            en: "{instance} crashed: {crashed}",
            ru: "{instance} упал: {crashed}",
        },
        /// A deadlock: its tooltip.
        dgt_deadlock: Text {
            en: "deadlock: {cycle} wait in a cycle; {victim} is rolled back",
            ru: "взаимоблокировка: {cycle} ждут друг друга по кругу; {victim} откатывается",
        },
    }
}
