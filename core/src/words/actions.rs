//! The learner's and the scheduler's actions in words (`view::action_text`), and the fault
//! buttons' labels (`view::fault_button_text`).

use super::topic::{Text, topic};

topic! {
    /// The actions in words, and the fault buttons' labels.
    pub struct ActionWords {
        // The learner's and the scheduler's actions in words (`view::action_text`), and the
        // fault buttons' labels (`view::fault_button_text`).
        /// `act_client_send`: client sends request {request}
        act_client_send: Text {
            en: "client sends request {request}",
            ru: "клиент отправляет запрос {request}",
        },
        /// `act_client_timeout`: client times out on request {request}
        act_client_timeout: Text {
            en: "client times out on request {request}",
            ru: "клиент перестаёт ждать ответа на запрос {request}",
        },
        /// `act_client_retry`: client retries request {request}
        act_client_retry: Text {
            en: "client retries request {request}",
            ru: "клиент повторяет запрос {request}",
        },
        /// `act_api_step`: API runs a statement of send {attempt}
        act_api_step: Text {
            en: "API runs a statement of send {attempt}",
            ru: "API выполняет следующий оператор (попытка {attempt})",
        },
        /// `act_deliver_response`: network delivers the answer to send {attempt}
        act_deliver_response: Text {
            en: "network delivers the answer to send {attempt}",
            ru: "сеть доставляет ответ на попытку {attempt}",
        },
        /// `act_relay_step`: relay runs a statement
        act_relay_step: Text {
            en: "relay runs a statement",
            ru: "ретранслятор выполняет следующий оператор",
        },
        /// `act_broker_deliver`: broker delivers copy {entry} to {instance}
        act_broker_deliver: Text {
            en: "broker delivers copy {entry} to {instance}",
            ru: "брокер доставляет копию {entry} в {instance}",
        },
        /// `act_consumer_step`: {instance} runs a statement
        act_consumer_step: Text {
            en: "{instance} runs a statement",
            ru: "{instance} выполняет следующий оператор",
        },
        /// `act_purge_step`: retention job runs a statement
        act_purge_step: Text {
            en: "retention job runs a statement",
            ru: "задача очистки выполняет следующий оператор",
        },
        /// `act_advance_clock`: clock advances {ticks}
        act_advance_clock: Text { en: "clock advances {ticks}", ru: "часы идут вперёд: {ticks}" },
        /// `act_duplicate`: duplicate copy {entry}
        act_duplicate: Text { en: "duplicate copy {entry}", ru: "дублировать копию {entry}" },
        /// `act_crash_after_commit`: crash {instance} after commit
        act_crash_after_commit: Text {
            en: "crash {instance} after commit",
            ru: "падение {instance} после COMMIT",
        },
        /// `act_crash_before_commit`: crash {instance} before commit
        act_crash_before_commit: Text {
            en: "crash {instance} before commit",
            ru: "падение {instance} до COMMIT",
        },
        /// `act_deliver_concurrently`: deliver copy {entry} to {instance} too
        act_deliver_concurrently: Text {
            en: "deliver copy {entry} to {instance} too",
            ru: "доставить копию {entry} ещё и в {instance}",
        },
        /// `act_lose_response`: lose the answer to send {attempt}
        act_lose_response: Text {
            en: "lose the answer to send {attempt}",
            ru: "потерять ответ на попытку {attempt}",
        },
        /// `act_double_submit`: double-submit request {request}
        act_double_submit: Text {
            en: "double-submit request {request}",
            ru: "отправить запрос {request} дважды",
        },
        /// `act_send_with_key_of`: send request {request} with the key of request {key_of}
        act_send_with_key_of: Text {
            en: "send request {request} with the key of request {key_of}",
            ru: "отправить запрос {request} с ключом запроса {key_of}",
        },
        /// `act_crash_api`: crash the API during send {attempt}
        act_crash_api: Text {
            en: "crash the API during send {attempt}",
            ru: "падение API во время попытки {attempt}",
        },
        /// `act_hold_until`: hold copy {entry} until request {request} is answered
        act_hold_until: Text {
            en: "hold copy {entry} until request {request} is answered",
            ru: "задержать копию {entry}, пока на запрос {request} не ответят",
        },
        /// `act_hold_ticks`: hold copy {entry} for {ticks}
        act_hold_ticks: Text {
            en: "hold copy {entry} for {ticks}",
            ru: "задержать копию {entry} на {ticks}",
        },
        /// `act_after_retention`: redeliver copy {entry} after retention
        act_after_retention: Text {
            en: "redeliver copy {entry} after retention",
            ru: "доставить копию {entry} снова после окна хранения",
        },
        /// `act_retry_new_key`: retry request {request} with a new key
        act_retry_new_key: Text {
            en: "retry request {request} with a new key",
            ru: "повторить запрос {request} с новым ключом",
        },
        /// `act_crash_relay`: crash the relay after publish
        act_crash_relay: Text {
            en: "crash the relay after publish",
            ru: "падение ретранслятора после публикации",
        },
        /// `btn_duplicate`: Duplicate
        btn_duplicate: Text { en: "Duplicate", ru: "Дублировать" },
        /// `btn_race`: Race: also to {instance}
        btn_race: Text { en: "Race: also to {instance}", ru: "Гонка: ещё и в {instance}" },
        /// `btn_hold_ticks`: Hold back {ticks}
        btn_hold_ticks: Text { en: "Hold back {ticks}", ru: "Задержать на {ticks}" },
        /// `btn_hold_until`: Hold until request {request} is answered
        btn_hold_until: Text {
            en: "Hold until request {request} is answered",
            ru: "Задержать до ответа на запрос {request}",
        },
        /// `btn_after_retention`: Again after retention
        btn_after_retention: Text { en: "Again after retention", ru: "Снова после окна хранения" },
        /// `btn_crash_after_commit`: Crash after commit
        btn_crash_after_commit: Text { en: "Crash after commit", ru: "Падение после COMMIT" },
        /// `btn_crash_before_commit`: Crash before commit
        btn_crash_before_commit: Text { en: "Crash before commit", ru: "Падение до COMMIT" },
        /// `btn_lose_response`: Lose this answer
        btn_lose_response: Text { en: "Lose this answer", ru: "Потерять этот ответ" },
        /// `btn_crash_api`: Crash the API
        btn_crash_api: Text { en: "Crash the API", ru: "Падение API" },
        /// `btn_double_submit`: Double submit
        btn_double_submit: Text { en: "Double submit", ru: "Двойная отправка" },
        /// `btn_reuse_key`: Reuse the key of request {key_of}
        btn_reuse_key: Text {
            en: "Reuse the key of request {key_of}",
            ru: "Взять ключ запроса {key_of}",
        },
        /// `btn_retry_new_key`: Retry with a new key
        btn_retry_new_key: Text { en: "Retry with a new key", ru: "Повтор с новым ключом" },
        /// `btn_crash_relay`: Crash after publish
        btn_crash_relay: Text { en: "Crash after publish", ru: "Падение после публикации" },
        /// `btn_advance_clock`: Let {ticks} pass
        btn_advance_clock: Text { en: "Let {ticks} pass", ru: "Пропустить {ticks}" },
    }
}
