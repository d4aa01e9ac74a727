//! The invariants' findings (`invariants::Finding`): one sentence each, the English one being
//! what a trace records.

use super::topic::{Text, topic};

topic! {
    /// The invariants' findings, one sentence each.
    pub struct FindingWords {
        // The invariants' findings (`invariants::Finding`), one sentence each.
        /// I1: stock on hand is not what is available plus reserved.
        i1_not_conserved: Text {
            en: "Stock of {sku} is not conserved: {on_hand} on hand, but {available} available and \
                 {reserved} reserved ({accounted}).",
            ru: "Остаток {sku} не сходится: на складе {on_hand}, но доступно {available} и \
                 зарезервировано {reserved} ({accounted}).",
        },
        /// I1: available stock below zero.
        i1_below_zero: Text {
            en: "Available stock of {sku} is {available}: it must never go below zero.",
            ru: "Доступный остаток {sku} равен {available}: он никогда не должен уходить ниже \
                 нуля.",
        },
        /// I1: reserved stock of a sku that has no stock row.
        i1_no_stock_row: Text {
            en: "Stock of {sku} is not conserved: {reserved} reserved, but {sku} has no stock row \
                 (0 on hand).",
            ru: "Остаток {sku} не сходится: зарезервировано {reserved}, но у {sku} нет строки в \
                 stock (на складе 0).",
        },
        /// I2: a reservation for an order that does not exist.
        i2_no_order: Text {
            en: "Order {order} has {units} of {sku} reserved, but no such order exists.",
            ru: "У заказа {order} зарезервировано {sku}: {units}, но такого заказа нет.",
        },
        /// I2: a reservation of a sku the order has no line of.
        i2_no_line: Text {
            en: "Order {order} has {units} of {sku} reserved, but it has no {sku} line.",
            ru: "У заказа {order} зарезервировано {sku}: {units}, но в нём нет строки {sku}.",
        },
        /// I2: more reserved than the order asks for.
        i2_too_much: Text {
            en: "Order {order} has {units} of {sku} reserved, but it asks for only {ordered}: \
                 {how_often}.",
            ru: "У заказа {order} зарезервировано {sku}: {units}, но он просит только {ordered}: \
                 {how_often}.",
        },
        /// I2: how often the effect ran, when the reservation is a multiple of the line.
        i2_effect_ran: Text {
            en: "the reservation effect ran {times}",
            ru: "эффект резервации выполнился {times}",
        },
        /// I2: how often the effect ran, otherwise.
        i2_effects_ran: Text {
            en: "more than one reservation effect ran",
            ru: "выполнилось больше одного эффекта резервации",
        },
        /// I2: a negative reservation.
        i2_negative: Text {
            en: "Order {order} has {units} of {sku} reserved: a reservation is never negative, so \
                 more was released than reserved.",
            ru: "У заказа {order} зарезервировано {sku}: {units}; резервация не бывает \
                 отрицательной, значит, освобождено больше, чем зарезервировано.",
        },
        /// I3: one charge in a list of charges.
        i3_charge_item: Text {
            en: "{charge} (payment {payment})",
            ru: "{charge} (платёж {payment})",
        },
        /// I3: an order charged more than once.
        i3_charged_again: Text {
            en: "Order {order} was charged {times}: {charges}.",
            ru: "С заказа {order} списали деньги {times}: {charges}.",
        },
        /// I3: a charge for an order that does not exist.
        i3_no_order: Text {
            en: "Order {order} does not exist, but it was charged: {charges}.",
            ru: "Заказа {order} нет, но по нему есть списание: {charges}.",
        },
        /// I3: an order with a payment that was never charged.
        i3_never_charged: Text {
            en: "Order {order} is {status} with payment {payment}, but it was never charged.",
            ru: "Заказ {order} в статусе {status} с платежом {payment}, но списания не было.",
        },
        /// I3: an order whose charge is for another payment.
        i3_other_payment: Text {
            en: "Order {order} is {status} with payment {payment}, but its charge {charge} is for \
                 payment {charge_payment}.",
            ru: "Заказ {order} в статусе {status} с платежом {payment}, но его списание {charge} \
                 относится к платежу {charge_payment}.",
        },
        /// I4: an answer with an empty body.
        answer_empty: Text {
            en: "status {status} with an empty body",
            ru: "статус {status} с пустым телом",
        },
        /// I4, I7: an answer with a body.
        answer_body: Text {
            en: "status {status} with body `{body}`",
            ru: "статус {status} с телом `{body}`",
        },
        /// I4: two answers of a key differ.
        i4_different_answers: Text {
            en: "Requests with key {key} got different answers: {first} at {first_at}, but {then} \
                 at {then_at} ({how}).",
            ru: "Запросы с ключом {key} получили разные ответы: {first} в {first_at}, но {then} в \
                 {then_at} ({how}).",
        },
        /// I4: the later answer was a replay.
        i4_how_replay: Text { en: "a replay", ru: "повтор сохранённого ответа" },
        /// I4: the handler ran again for the later answer.
        i4_how_ran_again: Text { en: "the handler ran again", ru: "обработчик выполнился снова" },
        /// I4: a key's answer went to another request.
        i4_another_request: Text {
            en: "Key {key} answered another request: {answer} at {answered_at} went to a request \
                 whose method, path or body differs from the one the key first answered at \
                 {first_at} ({how}); a key reused for another request must get 422.",
            ru: "Ключ {key} ответил на другой запрос: {answer} в {answered_at} ушёл запросу, у \
                 которого метод, путь или тело отличаются от запроса, на который ключ впервые \
                 ответил в {first_at} ({how}); ключ, повторно использованный для другого запроса, \
                 должен получить 422.",
        },
        /// I4: that answer was a replay of the stored answer.
        i4_how_replay_stored: Text {
            en: "a replay of the stored answer",
            ru: "повтор сохранённого ответа",
        },
        /// I4: the handler ran again for that request.
        i4_how_ran_again_for_it: Text {
            en: "the handler ran again for it",
            ru: "обработчик выполнился для него снова",
        },
        /// I4: a key's handler ran while an earlier run held the key.
        i4_ran_twice: Text {
            en: "The handler of key {key} ran twice at once: {run}{token} started at {started_at} \
                 while {holder}, started at {holder_started_at}, still held the key: {hold}.",
            ru: "Обработчик ключа {key} выполнялся дважды одновременно: {run}{token} начался в \
                 {started_at}, пока {holder}, начавшийся в {holder_started_at}, ещё держал ключ: \
                 {hold}.",
        },
        /// I4: the later run's fencing token.
        i4_with_token: Text { en: " with token {token}", ru: " с токеном {token}" },
        /// I4: the holder's lease still runs.
        hold_lease: Text {
            en: "its lease with token {token} runs until {until}",
            ru: "его аренда с токеном {token} длится до {until}",
        },
        /// I4: the holder crashed inside its lease.
        hold_crashed_in_lease: Text {
            en: "it crashed at {at}, but its lease with token {token} runs until {until}",
            ru: "он упал в {at}, но его аренда с токеном {token} длится до {until}",
        },
        /// I4: the holder finished inside its lease.
        hold_finished_in_lease: Text {
            en: "it finished only at {at}, within its lease with token {token} (until {until})",
            ru: "он завершился только в {at}, в пределах аренды с токеном {token} (до {until})",
        },
        /// I4: the holder's lease runs past its finish.
        hold_lease_after_finish: Text {
            en: "its lease with token {token} runs until {until} (it finished at {at})",
            ru: "его аренда с токеном {token} длится до {until} (он завершился в {at})",
        },
        /// I4: the holder had no lease and still ran.
        hold_no_lease_running: Text {
            en: "it had no lease and was still running",
            ru: "у него не было аренды, и он ещё работал",
        },
        /// I4: the holder had no lease and finished.
        hold_no_lease_finished: Text {
            en: "it had no lease and ran until it finished at {at}",
            ru: "у него не было аренды, и он работал, пока не завершился в {at}",
        },
        /// I4: the holder had no lease and crashed.
        hold_no_lease_crashed: Text {
            en: "it had no lease and ran until it crashed at {at}",
            ru: "у него не было аренды, и он работал, пока не упал в {at}",
        },
        /// I5: an inbox row without an effect.
        i5_row_without_effect: Text {
            en: "Inbox row {row} exists, but {consumer} never applied message {message}.",
            ru: "Запись Inbox {row} есть, но {consumer} так и не применил сообщение {message}.",
        },
        /// I5: an inbox row after its purge, with no effect since.
        i5_row_after_purge: Text {
            en: "Inbox row {row} exists, but it was purged at {purged_at} and {consumer} has not \
                 applied message {message} since.",
            ru: "Запись Inbox {row} есть, но её удалила очистка в {purged_at}, и с тех пор \
                 {consumer} не применял сообщение {message}.",
        },
        /// I5: an effect without its inbox row.
        i5_effect_without_row: Text {
            en: "{consumer} applied message {message} at {committed_at}, but there is no inbox row \
                 {row} and no purge of it since.",
            ru: "{consumer} применил сообщение {message} в {committed_at}, но записи Inbox {row} \
                 нет, и очистки с тех пор не было.",
        },
        /// I5: more than one effect between purges.
        i5_effects_between_purges: Text {
            en: "{consumer} applied message {message} {times} (at {ticks}) with no purge of its \
                 inbox row {row} in between: the inbox row must stop every effect after the first.",
            ru: "{consumer} применил сообщение {message} {times} (в {ticks}) без очистки записи \
                 Inbox {row} между ними: запись Inbox должна останавливать каждый эффект после \
                 первого.",
        },
        /// I6: a placed order without its `OrderPlaced` message.
        i6_no_message: Text {
            en: "At quiescence, order {order} has no OrderPlaced message in the outbox, so no \
                 consumer processed its placement.",
            ru: "Когда работы не осталось, у заказа {order} нет сообщения OrderPlaced в outbox, \
                 так что ни один консьюмер не обработал его размещение.",
        },
        /// I6: a message not processed exactly once by a consumer.
        i6_not_once: Text {
            en: "At quiescence, {consumer} processed OrderPlaced {message} of order {order} \
                 {times}, not exactly once (the message was published {published}).",
            ru: "Когда работы не осталось, {consumer} обработал OrderPlaced {message} заказа \
                 {order} {times}, а не ровно один раз (сообщение опубликовано {published}).",
        },
        /// I7: a duplicate got a 5xx.
        i7_server_error: Text {
            en: "A duplicate request {key} got {answer} at {at}: a duplicate must never make the \
                 API fail.",
            ru: "Повторный запрос {key} получил {answer} в {at}: дубль никогда не должен валить \
                 API.",
        },
        /// I7: the duplicate's key.
        i7_with_key: Text { en: "with key {key}", ru: "с ключом {key}" },
        /// I7: the duplicate had no key.
        i7_without_key: Text { en: "without a key", ru: "без ключа" },
    }
}
