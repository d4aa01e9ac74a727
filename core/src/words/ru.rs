//! The Russian catalogue, in the terms of the seed article (идемпотентность, ключ
//! идемпотентности, Inbox, консьюмер). Identifiers, SQL, ids, HTTP statuses and the names
//! I1-I7, F1-F12, P1-P4 stay in Latin.

use super::catalogue::Words;
use super::plural::Plural;

/// Every entry in Russian.
pub const WORDS: Words = Words {
    times_once: "один раз",
    times_twice: "дважды",
    times: Plural::ru("{n} раз", "{n} раза", "{n} раз"),
    steps: Plural::ru("{n} шаг", "{n} шага", "{n} шагов"),
    units: Plural::ru("{n} единица", "{n} единицы", "{n} единиц"),
    ticks: Plural::ru("{n} тик", "{n} тика", "{n} тиков"),
    cases: Plural::ru("{n} случай", "{n} случая", "{n} случаев"),
    states: Plural::ru("{n} состояние", "{n} состояния", "{n} состояний"),

    request_name: "запрос {n}",
    attempt_name: "отправка {n}",
    entry_name: "копия {n}",
    run_name: "запуск {n}",

    i1_not_conserved: "Остаток {sku} не сходится: на складе {on_hand}, но доступно \
                       {available} и зарезервировано {reserved} ({accounted}).",
    i1_below_zero: "Доступный остаток {sku} равен {available}: он никогда не должен уходить \
                    ниже нуля.",
    i1_no_stock_row: "Остаток {sku} не сходится: зарезервировано {reserved}, но у {sku} нет \
                      строки в stock (на складе 0).",
    i2_no_order: "У заказа {order} зарезервировано {sku}: {units}, но такого заказа нет.",
    i2_no_line: "У заказа {order} зарезервировано {sku}: {units}, но в нём нет строки {sku}.",
    i2_too_much: "У заказа {order} зарезервировано {sku}: {units}, но он просит только \
                  {ordered}: {how_often}.",
    i2_effect_ran: "эффект резервации выполнился {times}",
    i2_effects_ran: "выполнилось больше одного эффекта резервации",
    i2_negative: "У заказа {order} зарезервировано {sku}: {units}; резервация не бывает \
                  отрицательной, значит, освобождено больше, чем зарезервировано.",
    i3_charge_item: "{charge} (платёж {payment})",
    i3_charged_again: "С заказа {order} списали деньги {times}: {charges}.",
    i3_no_order: "Заказа {order} нет, но по нему есть списание: {charges}.",
    i3_never_charged: "Заказ {order} в статусе {status} с платежом {payment}, но списания не \
                       было.",
    i3_other_payment: "Заказ {order} в статусе {status} с платежом {payment}, но его \
                       списание {charge} относится к платежу {charge_payment}.",
    answer_empty: "статус {status} с пустым телом",
    answer_body: "статус {status} с телом `{body}`",
    i4_different_answers: "Запросы с ключом {key} получили разные ответы: {first} в {first_at}, \
                           но {then} в {then_at} ({how}).",
    i4_how_replay: "повтор сохранённого ответа",
    i4_how_ran_again: "обработчик выполнился снова",
    i4_another_request: "Ключ {key} ответил на другой запрос: {answer} в {answered_at} ушёл \
                         запросу, у которого метод, путь или тело отличаются от запроса, на \
                         который ключ впервые ответил в {first_at} ({how}); ключ, повторно \
                         использованный для другого запроса, должен получить 422.",
    i4_how_replay_stored: "повтор сохранённого ответа",
    i4_how_ran_again_for_it: "обработчик выполнился для него снова",
    i4_ran_twice: "Обработчик ключа {key} выполнялся дважды одновременно: {run}{token} начался \
                   в {started_at}, пока {holder}, начавшийся в {holder_started_at}, ещё держал \
                   ключ: {hold}.",
    i4_with_token: " с токеном {token}",
    hold_lease: "его аренда с токеном {token} длится до {until}",
    hold_crashed_in_lease: "он упал в {at}, но его аренда с токеном {token} длится до {until}",
    hold_finished_in_lease: "он завершился только в {at}, в пределах аренды с токеном \
                             {token} (до {until})",
    hold_lease_after_finish: "его аренда с токеном {token} длится до {until} (он завершился \
                              в {at})",
    hold_no_lease_running: "у него не было аренды, и он ещё работал",
    hold_no_lease_finished: "у него не было аренды, и он работал, пока не завершился в {at}",
    hold_no_lease_crashed: "у него не было аренды, и он работал, пока не упал в {at}",
    i5_row_without_effect: "Запись Inbox {row} есть, но {consumer} так и не применил \
                            сообщение {message}.",
    i5_row_after_purge: "Запись Inbox {row} есть, но её удалила очистка в {purged_at}, и с тех \
                         пор {consumer} не применял сообщение {message}.",
    i5_effect_without_row: "{consumer} применил сообщение {message} в {committed_at}, но \
                            записи Inbox {row} нет, и очистки с тех пор не было.",
    i5_effects_between_purges: "{consumer} применил сообщение {message} {times} (в {ticks}) \
                                без очистки записи Inbox {row} между ними: запись Inbox \
                                должна останавливать каждый эффект после первого.",
    i6_no_message: "Когда работы не осталось, у заказа {order} нет сообщения OrderPlaced в \
                    outbox, так что ни один консьюмер не обработал его размещение.",
    i6_not_once: "Когда работы не осталось, {consumer} обработал OrderPlaced {message} заказа \
                  {order} {times}, а не ровно один раз (сообщение опубликовано {published}).",
    i7_server_error: "Повторный запрос {key} получил {answer} в {at}: дубль никогда не должен \
                      валить API.",
    i7_with_key: "с ключом {key}",
    i7_without_key: "без ключа",
    report_stopped: "остановка: {reason} после {steps}, на тике {tick}",
    stop_running: "ещё идёт",
    stop_quiescent: "покой (ничего не ждёт)",
    stop_stuck: "застрял ({pending})",
    stop_step_limit: "достигнут предел шагов: {steps_max}",
    stop_trace_full: "трасса заполнена: предел шагов {trace_steps_max}",
    stop_step_failed: "шаг {step} не выполнен: {error}",
    report_faults: "сработавшие сбои: {faults}",
    report_all_held: "инварианты: все I1-I7 выполнялись на каждом шаге",
    report_violated: "нарушено инвариантов: {count}",
    report_first_broken: "{invariant} {title}: впервые нарушен на шаге {step} ({still})",
    report_still: "нарушен и в конце",
    report_held_again: "к концу снова выполняется",
    report_no_sentence: "(в трассе нет предложения об этом нарушении)",
    check_proved: "доказано в пределах глубины {depth}: состояний {states} (уникальных {unique})",
    check_bounded: "остановлено пределом: {reason}, это не доказательство (состояний {states}, уникальных {unique}, глубина {depth})",
    check_violated: "нарушено; проверено состояний: {states} (уникальных {unique}); кратчайший путь: {steps}",
    check_counterexample: "трасса контрпримера (воспроизводится в симуляторе):",
    fuzz_no_violation: "нарушений нет: {cases} (различных seed: {seeds})",
    fuzz_violation: "нарушение в случае {case} из {cases}: {violated}; сжато за {shrink} до seed {seed}",
    fuzz_fired: "сработавшие сбои: внесённые {injected}; от случайных частот {random}",
    fuzz_injections: "внесённых сбоев в сжатом случае: {count}",
    fuzz_rates_none: "случайные частоты сбоев: нет",
    fuzz_rates: "случайные частоты сбоев: {rates}",
    fuzz_rate: "{class} {rate} на миллион",
    fuzz_shrunk_trace: "сжатая трасса:",
    replay_reproduces: "трасса `{source}` воспроизводится байт в байт: сценарий {scenario}, seed {seed}, {steps}",
    replay_differs: "трасса `{source}` не воспроизводится: {why}",
    run_header: "сценарий {source}, режим {mode} ({patterns}), seed {seed}",
    opening_progress: "Открываем прогон: шаг {step} из {total}",
    opening_cancel: "Отмена",
    opening_cancelled: "Открытие отменено (воспроизведено: {steps} из {total}): на странице \
                        по-прежнему тот прогон, что был до этого.",
    course_naive: "наивный",
    course_idempotent: "идемпотентный",
    course_other_scenario: "Это прогон не этого урока: откройте урок заново.",
    course_patterns: "Сначала переключите паттерны урока в режим «{mode}».",
    course_no_fault: "Внесите свой сбой: кнопкой сбоя у ожидающего элемента диаграммы.",
    course_too_many_faults: "Внесено сбоев: {placed}; задание допускает не больше {max}. Начните заново («Сначала») и внесите меньше.",
    course_too_few_faults: "Внесено сбоев: {placed}; задание требует не меньше {min}.",
    course_fault_not_allowed: "{class} в этом задании не засчитывается: нужен другой сбой.",
    course_not_broken: "{invariant} в этом прогоне пока выполняется.",
    course_not_at_end: "Доведите прогон до конца: проверке нужен весь прогон.",
    course_broken: "{invariant} в этом прогоне нарушен.",
    course_not_one_switch: "Переключите ровно один паттерн, {pattern}, в идемпотентный режим, остальные оставьте наивными.",
    course_naive_holds_too: "С наивными паттернами это расписание тоже не нарушает {invariant}: сначала добейтесь нарушения, потом переключайте.",
    course_not_one_switch_any: "Переключите ровно один паттерн урока в идемпотентный режим, остальные оставьте наивными.",
    course_link_malformed: "Эту ссылку на курс не открыть: {why}. Ссылка на курс выглядит так: #lesson=<урок>&at=<шаг с 0>.",
    course_link_too_long: "её длина {bytes} байт, больше {max}",
    course_link_not_a_field: "{part} не поле вида имя=значение",
    course_link_unknown_field: "в ней неизвестное поле {field}",
    course_link_duplicate_field: "поле {field} указано дважды",
    course_link_no_lesson: "в ней не указан урок",
    course_link_bad_step: "at={value} не номер шага",
    course_link_unknown_lesson: "Эту ссылку на курс не открыть: в курсе нет урока «{id}». Выберите урок в списке ниже.",
    course_link_step_out_of_range: "Эту ссылку на курс не открыть: в уроке «{lesson}» шаги с 0 по {last}, шага {at} нет.",
};
