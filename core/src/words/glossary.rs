//! The lab's vocabulary: the invariants' names and statements, the fault classes' sentences
//! (`FaultClass::description_in`, one per row of the table in `faults.rs`), the patterns', the
//! lanes of the sequence diagram, and the CLI's `explain` around them.

use super::topic::{Text, topic};

topic! {
    /// The invariants, fault classes, patterns and lanes, and the CLI's `explain`.
    pub struct GlossaryWords {
        // The invariants' names and statements (`InvariantId::title`, `description`), the fault
        // classes' (`FaultClass::description`) and the patterns' (`sim::Pattern`).
        /// I1's title.
        i1_title: Text { en: "Stock is conserved", ru: "Остаток сходится" },
        /// I2's title.
        i2_title: Text {
            en: "One reservation per order line",
            ru: "Одна резервация на строку заказа",
        },
        /// I3's title.
        i3_title: Text { en: "Charged at most once", ru: "Оплата списана не больше одного раза" },
        /// I4's title.
        i4_title: Text { en: "Same key, same answer", ru: "Тот же ключ, тот же ответ" },
        /// I5's title.
        i5_title: Text {
            en: "Inbox row exactly when applied",
            ru: "Запись в Inbox ровно тогда, когда есть эффект",
        },
        /// I6's title.
        i6_title: Text {
            en: "Each OrderPlaced processed once",
            ru: "Каждое OrderPlaced обработано один раз",
        },
        /// I7's title.
        i7_title: Text { en: "No 5xx for a duplicate", ru: "Никакого 5xx на дубль" },
        /// What I1 says.
        i1_description: Text {
            en: "For every sku, the stock on hand equals the stock available plus the sum of its \
                 reservations, and the stock available never goes below zero.",
            ru: "Для каждого sku остаток на складе равен доступному остатку плюс сумма его \
                 резерваций, и доступный остаток никогда не уходит ниже нуля.",
        },
        /// What I2 says.
        i2_description: Text {
            en: "At most one reservation effect per (order, sku): a reservation never holds more \
                 than the order asks for, never less than zero, and only for an order that exists \
                 and has a line of that sku.",
            ru: "Не больше одного эффекта резервации на пару (заказ, sku): резервация никогда не \
                 держит больше, чем просит заказ, не уходит ниже нуля и существует только для \
                 существующего заказа, в котором есть строка с этим sku.",
        },
        /// What I3 says.
        i3_description: Text {
            en: "An order is charged at most once, every charge is for an order that exists, and \
                 an order with a payment (paid, shipped, or cancelled after payment) has exactly \
                 one charge, for that payment.",
            ru: "Заказ оплачивается не больше одного раза, каждое списание относится к \
                 существующему заказу, а у заказа с платежом (оплаченного, отправленного или \
                 отменённого после оплаты) ровно одно списание, по этому платежу.",
        },
        /// What I4 says.
        i4_description: Text {
            en: "Every completed request with the same idempotency key got the same status and \
                 body, the key's answer went only to requests with the method, path and body it \
                 was first answered for (another request with the key gets 422), and a key's \
                 handler never ran twice while the key was held (by a lease, or by a run without a \
                 lease that had not ended).",
            ru: "Все завершённые запросы с одним и тем же ключом идемпотентности получили один и \
                 тот же статус и тело ответа, ответ ключа получали только запросы с теми же \
                 методом, путём и телом, на которые ключ ответил впервые (другой запрос с этим \
                 ключом получает 422), и обработчик ключа никогда не работал дважды, пока ключ был \
                 занят (арендой или незавершённым запуском без аренды).",
        },
        /// What I5 says.
        i5_description: Text {
            en: "An inbox row exists exactly when its effect was applied: each inbox row has a \
                 committed effect that no purge has erased, each effect of a consumer with an \
                 inbox has its row unless retention purged it, and the inbox lets one effect \
                 through per row.",
            ru: "Запись в Inbox есть ровно тогда, когда применён её эффект: у каждой записи Inbox \
                 есть закоммиченный эффект, не стёртый очисткой; у каждого эффекта консьюмера с \
                 Inbox есть своя запись, если её не удалила очистка по сроку хранения; и Inbox \
                 пропускает один эффект на запись.",
        },
        /// What I6 says.
        i6_description: Text {
            en: "When no work is pending, every placed order has an OrderPlaced message, and every \
                 consumer of OrderPlaced processed each such message exactly once.",
            ru: "Когда работы не осталось, у каждого размещённого заказа есть сообщение \
                 OrderPlaced, и каждый консьюмер OrderPlaced обработал каждое такое сообщение \
                 ровно один раз.",
        },
        /// What I7 says.
        i7_description: Text {
            en: "No duplicate request (a retry, a double submit) made the API answer with a 5xx \
                 status.",
            ru: "Ни один повторный запрос (ретрай, двойная отправка) не заставил API ответить \
                 статусом 5xx.",
        },
        /// F1, in a sentence.
        f1_description: Text {
            en: "the broker delivers a message twice",
            ru: "брокер доставляет сообщение дважды",
        },
        /// F2, in a sentence.
        f2_description: Text {
            en: "a consumer crashes after commit, before ack: redelivery",
            ru: "консьюмер падает после коммита, до подтверждения: повторная доставка",
        },
        /// F3, in a sentence.
        f3_description: Text {
            en: "a consumer crashes before commit: rollback, redelivery",
            ru: "консьюмер падает до коммита: откат, повторная доставка",
        },
        /// F4, in a sentence.
        f4_description: Text {
            en: "two consumer instances get the same message at once",
            ru: "два экземпляра консьюмера получают одно сообщение одновременно",
        },
        /// F5, in a sentence.
        f5_description: Text {
            en: "the API's response is lost: the client retries with the same key",
            ru: "ответ API потерян: клиент повторяет запрос с тем же ключом",
        },
        /// F6, in a sentence.
        f6_description: Text {
            en: "double submit: two concurrent requests with the same key",
            ru: "двойная отправка: два параллельных запроса с одним ключом",
        },
        /// F7, in a sentence.
        f7_description: Text {
            en: "the same key is reused with a different payload",
            ru: "тот же ключ повторно использован с другим телом запроса",
        },
        /// F8, in a sentence.
        f8_description: Text {
            en: "the API crashes mid-request: the key stays in progress",
            ru: "API падает посреди запроса: ключ остаётся «в обработке»",
        },
        /// F9, in a sentence.
        f9_description: Text {
            en: "messages or requests arrive out of order",
            ru: "сообщения или запросы приходят не по порядку",
        },
        /// F10, in a sentence.
        f10_description: Text {
            en: "a duplicate arrives after the retention window",
            ru: "дубль приходит после окна хранения",
        },
        /// F11, in a sentence.
        f11_description: Text {
            en: "the client retries with a new key",
            ru: "клиент повторяет запрос с новым ключом",
        },
        /// F12, in a sentence.
        f12_description: Text {
            en: "the relay crashes after publish, before marking published",
            ru: "ретранслятор падает после публикации, до отметки «опубликовано»",
        },
        /// P1, what the pattern is.
        p1_title: Text {
            en: "stock reservation (one reservation per order line)",
            ru: "резервация остатка (одна резервация на строку заказа)",
        },
        /// P2, what the pattern is.
        p2_title: Text {
            en: "the order state machine (pay and cancel once)",
            ru: "конечный автомат заказа (оплата и отмена один раз)",
        },
        /// P3, what the pattern is.
        p3_title: Text {
            en: "the Idempotency-Key layer of the API",
            ru: "слой Idempotency-Key в API",
        },
        /// P4, what the pattern is.
        p4_title: Text {
            en: "the inbox of the reserve-stock consumer",
            ru: "Inbox консьюмера резервации остатка",
        },

        // The lanes of the sequence diagram (`view::Lane::name_in`).
        /// The client's lane.
        lane_client: Text { en: "Client", ru: "Клиент" },
        /// The API's lane.
        lane_api: Text { en: "API", ru: "API" },
        /// The store's lane.
        lane_store: Text { en: "Store", ru: "БД" },
        /// The outbox relay's lane.
        lane_relay: Text { en: "Relay", ru: "Ретранслятор" },
        /// The broker's lane.
        lane_broker: Text { en: "Broker", ru: "Брокер" },
        /// A consumer instance's lane (`{name}`: A, B, ...).
        lane_consumer: Text { en: "Consumer {name}", ru: "Консьюмер {name}" },
        /// The retention job's lane.
        lane_retention: Text { en: "Retention", ru: "Очистка" },

        // The CLI's `explain`, around the core's texts.
        /// Above the patterns a lesson switches.
        explain_patterns: Text {
            en: "Patterns switched by --mode:",
            ru: "Паттерны, которые переключает --mode:",
        },
        /// Above the faults of a lesson.
        explain_faults: Text { en: "Faults:", ru: "Сбои:" },
        /// No faults, no violations.
        explain_none: Text { en: "none", ru: "нет" },
        /// A fault the scenario injects.
        explain_injected: Text { en: "injected", ru: "внедрён" },
        /// A fault the scenario draws at random, `{per_million}` per million.
        explain_at_random: Text {
            en: "at random, {per_million} per million",
            ru: "случайно, {per_million} на миллион",
        },
        /// Above what each mode violates, at `{seed}`.
        explain_expected: Text {
            en: "Expected violations (seed {seed}):",
            ru: "Ожидаемые нарушения (seed {seed}):",
        },
        /// Before the command that shows the run.
        explain_see_it: Text { en: "See it:", ru: "Посмотреть:" },
    }
}
