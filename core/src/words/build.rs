//! The build task's editor, its blocks and a program's mistakes; and the last of the page's
//! words: the banner of a stopped page and the store's tables.

use super::topic::{Text, topic};

topic! {
    /// The build task, the stopped page's banner and the store's tables.
    pub struct BuildWords {
        // The build task's editor, its blocks and a program's mistakes.
        /// A build task's reason before its program is judged.
        course_build_not_judged: Text {
            en: "Build the handler from the palette and have the checker judge it (in the page: \
                 “Check my handler”; in a terminal: idempotency-lab handler check): the task is \
                 done when it proves the handler holds.",
            ru: "Соберите обработчик из палитры и отдайте его на проверку (на странице — \
                 «Проверить мой обработчик», в терминале — idempotency-lab handler check): задание \
                 выполнено, когда проверка докажет, что он корректен.",
        },
        /// A program file whose block the build task's palette does not offer.
        course_build_not_on_the_palette: Text {
            en: "Block {n} is not on this task's palette (or the palette offers it fewer times): \
                 build the handler from the palette's blocks.",
            ru: "Блока {n} нет в палитре этого задания (или в ней его меньше): соберите обработчик \
                 из блоков палитры.",
        },
        /// A program file of another handler than the build task's.
        course_build_other_handler: Text {
            en: "The program is of another handler than the one this task builds.",
            ru: "Программа — для другого обработчика, не того, что собирается в этом задании.",
        },
        /// A build task's program that a schedule defeats.
        course_build_refuted: Text {
            en: "The checker found a schedule of {steps} steps that breaks {invariant}.",
            ru: "Проверка нашла расписание, нарушающее {invariant}; шагов в нём: {steps}.",
        },
        /// A build task's program whose judge stopped at a bound.
        course_build_bounded: Text {
            en: "The checker stopped at its bound after {states} states: not a proof yet.",
            ru: "Проверка остановилась на границе после {states} состояний: это ещё не \
                 доказательство.",
        },
        /// A program block: the loop over the order's lines.
        block_for_each_line: Text {
            en: "for each line of the order:",
            ru: "для каждой строки заказа:",
        },
        /// A program block: the end of the loop's body.
        block_next_line: Text { en: "next line", ru: "следующая строка" },
        /// A program block: skip when the statement before found or inserted no row.
        block_if_no_rows: Text {
            en: "if 0 rows, skip to {label}",
            ru: "если 0 строк, перейти к {label}",
        },
        /// A program block: skip when the statement before found or inserted a row.
        block_if_rows: Text {
            en: "if 1 row, skip to {label}",
            ru: "если 1 строка, перейти к {label}",
        },
        /// A program block: skip unless the order read is placed.
        block_if_not_placed: Text {
            en: "if the status is not 'placed', skip to {label}",
            ru: "если статус не 'placed', перейти к {label}",
        },
        /// A program block: skip when the order read is paid by this payment.
        block_if_paid_by_this: Text {
            en: "if the order is paid by this payment, skip to {label}",
            ru: "если заказ оплачен этим платежом, перейти к {label}",
        },
        /// A program block: answer that the order is paid.
        block_answer_paid: Text { en: "return 200: paid", ru: "вернуть 200: оплачено" },
        /// A program block: refuse the payment.
        block_refuse: Text {
            en: "throw: refuse the payment (404 or 409)",
            ru: "throw: отказать в платеже (404 или 409)",
        },
        /// A program block: the broker's acknowledgement.
        block_ack: Text {
            en: "ACK the message to the broker",
            ru: "ACK: подтвердить сообщение брокеру",
        },
        /// A parameter: a plain INSERT, whose repeat aborts the transaction.
        block_no_on_conflict: Text {
            en: "no ON CONFLICT (a repeat aborts the transaction)",
            ru: "без ON CONFLICT (повтор прерывает транзакцию)",
        },
        /// A parameter: a SELECT without a row lock.
        block_no_lock: Text { en: "no lock", ru: "без блокировки" },
        /// A program with no blocks.
        pe_empty: Text {
            en: "The handler has no blocks yet: add them from the palette.",
            ru: "В обработчике ещё нет блоков: добавьте их из палитры.",
        },
        /// A status skip with nothing read.
        pe_skip_without_order_read: Text {
            en: "Block {n}: the skip has no order status to read; put a SELECT ... FROM orders \
                 before it.",
            ru: "Блок {n}: переходу нечего читать — поставьте перед ним SELECT ... FROM orders.",
        },
        /// An answer before COMMIT.
        pe_answer_in_transaction: Text {
            en: "Block {n}: return 200 with the transaction still open; COMMIT first.",
            ru: "Блок {n}: ответ 200 при открытой транзакции — сначала COMMIT.",
        },
        /// A path without an answer.
        pe_missing_answer: Text {
            en: "Some path ends without an answer: end every path with return 200 or throw.",
            ru: "Какой-то путь заканчивается без ответа: завершите каждый путь ответом 200 или \
                 throw.",
        },
        /// A label placed twice.
        pe_duplicate_label: Text {
            en: "Block {n}: the label {name} is there twice.",
            ru: "Блок {n}: метка {name} стоит дважды.",
        },
        /// A skip to a label not placed.
        pe_unknown_label: Text {
            en: "Block {n}: there is no label {label} to skip to; add it.",
            ru: "Блок {n}: метки {label}, к которой нужно перейти, нет — добавьте её.",
        },
        /// A skip to a label above it.
        pe_jump_backwards: Text {
            en: "Block {n}: the label {label} is above the skip; skips go forward only.",
            ru: "Блок {n}: метка {label} выше перехода, а переходы идут только вперёд.",
        },
        /// A skip into a loop.
        pe_jump_into_loop: Text {
            en: "Block {n}: the label {label} is inside a loop over the lines that the skip is not \
                 in.",
            ru: "Блок {n}: метка {label} внутри цикла по строкам, а переход — вне его.",
        },
        /// A loop in a loop.
        pe_nested_loop: Text {
            en: "Block {n}: a loop over the lines inside another one.",
            ru: "Блок {n}: цикл по строкам внутри другого цикла.",
        },
        /// next line without a loop.
        pe_next_line_without_loop: Text {
            en: "Block {n}: next line without a loop over the lines before it.",
            ru: "Блок {n}: «следующая строка» без цикла по строкам перед ней.",
        },
        /// A loop without its end.
        pe_loop_not_closed: Text {
            en: "Block {n}: the loop over the lines has no next line after it.",
            ru: "Блок {n}: у цикла по строкам нет «следующей строки» после него.",
        },
        /// A line's statement outside the loop.
        pe_line_outside_loop: Text {
            en: "Block {n}: this statement is about one order line and must be inside the loop \
                 over the lines.",
            ru: "Блок {n}: этот оператор про одну строку заказа и должен быть внутри цикла по \
                 строкам.",
        },
        /// No ACK.
        pe_missing_ack: Text {
            en: "The handler never acknowledges the message: add the ACK.",
            ru: "Обработчик никогда не подтверждает сообщение: добавьте ACK.",
        },
        /// A second ACK.
        pe_second_ack: Text { en: "Block {n}: a second ACK.", ru: "Блок {n}: второй ACK." },
        /// ACK in the loop.
        pe_ack_in_loop: Text {
            en: "Block {n}: ACK inside the loop over the lines.",
            ru: "Блок {n}: ACK внутри цикла по строкам.",
        },
        /// A skip with no row count.
        pe_skip_without_row_count: Text {
            en: "Block {n}: the skip has no row count to read; put it right after an INSERT, \
                 SELECT or UPDATE.",
            ru: "Блок {n}: переходу нечего читать — поставьте его сразу после INSERT, SELECT или \
                 UPDATE.",
        },
        /// BEGIN in a transaction.
        pe_begin_in_transaction: Text {
            en: "Block {n}: BEGIN while a transaction is already open.",
            ru: "Блок {n}: BEGIN при уже открытой транзакции.",
        },
        /// A statement outside a transaction.
        pe_statement_outside_transaction: Text {
            en: "Block {n}: the statement runs with no transaction open; BEGIN first.",
            ru: "Блок {n}: оператор выполняется без открытой транзакции — сначала BEGIN.",
        },
        /// COMMIT or ROLLBACK without BEGIN.
        pe_end_without_begin: Text {
            en: "Block {n}: {block} without BEGIN.",
            ru: "Блок {n}: {block} без BEGIN.",
        },
        /// A path that leaves a transaction open.
        pe_transaction_left_open: Text {
            en: "Some path ends with the transaction of block {n} still open.",
            ru: "Какой-то путь заканчивается с открытой транзакцией блока {n}.",
        },
        /// Any other reason a program is refused, in the core's words.
        pe_other: Text {
            en: "The handler cannot be read: {error}",
            ru: "Обработчик не читается: {error}",
        },
        /// The build editor's heading.
        bd_heading: Text { en: "Your handler", ru: "Ваш обработчик" },
        /// The palette's heading.
        bd_palette: Text { en: "Palette", ru: "Палитра" },
        /// Every palette block is placed.
        bd_palette_empty: Text {
            en: "Every block of the palette is placed.",
            ru: "Все блоки палитры уже в обработчике.",
        },
        /// The learner's program is empty.
        bd_program_empty: Text {
            en: "Empty: add blocks from the palette.",
            ru: "Пусто: добавьте блоки из палитры.",
        },
        /// Add a palette block.
        bd_add: Text { en: "Add", ru: "Добавить" },
        /// Add a palette block, its accessible name.
        bd_add_name: Text { en: "Add {block}", ru: "Добавить {block}" },
        /// Move a block up.
        bd_up: Text { en: "Up", ru: "Выше" },
        /// Move a block up, its accessible name.
        bd_up_name: Text { en: "Move block {n}, {block}, up", ru: "Поднять блок {n}, {block}" },
        /// Move a block down.
        bd_down: Text { en: "Down", ru: "Ниже" },
        /// Move a block down, its accessible name.
        bd_down_name: Text {
            en: "Move block {n}, {block}, down",
            ru: "Опустить блок {n}, {block}",
        },
        /// Take a block out.
        bd_remove: Text { en: "Remove", ru: "Убрать" },
        /// Take a block out, its accessible name.
        bd_remove_name: Text { en: "Remove block {n}, {block}", ru: "Убрать блок {n}, {block}" },
        /// A block's parameter picker, its accessible name.
        bd_form_name: Text { en: "Form of block {n}", ru: "Вариант блока {n}" },
        /// Judge the learner's program.
        bd_check: Text { en: "Check my handler", ru: "Проверить мой обработчик" },
        /// The judge's progress.
        bd_checking: Text {
            en: "Checking every schedule… states so far: {states}",
            ru: "Проверяю все расписания… состояний пока: {states}",
        },
        /// The program holds.
        bd_holds: Text {
            en: "Holds for every schedule within the bounds: {states} states.",
            ru: "Выполняется для каждого расписания в пределах границ; состояний: {states}.",
        },
        /// The program breaks an invariant.
        bd_refuted: Text {
            en: "Breaks {invariant} ({title}) in a schedule of {steps} steps, open in the diagram \
                 at the step that broke it.",
            ru: "Нарушается {invariant} ({title}); шагов в расписании: {steps}. Оно открыто на \
                 диаграмме на шаге нарушения.",
        },
        /// The judge stopped at its bound.
        bd_bounded: Text {
            en: "Not proved: the checker stopped at its bound after {states} states, so the task \
                 is not done yet.",
            ru: "Не доказано: проверка остановилась на границе после {states} состояний, поэтому \
                 задание ещё не выполнено.",
        },
        /// What the program is judged over.
        bd_bounds: Text {
            en: "Judged over every schedule with the faults {faults}, keeping {invariants}, within \
                 {states_max} states.",
            ru: "Проверяется на всех расписаниях со сбоями {faults}, должны выполняться \
                 {invariants}, в пределах {states_max} состояний.",
        },
        /// The program changed since it was judged.
        bd_stale: Text {
            en: "You changed the handler since this verdict: check it again.",
            ru: "Вы изменили обработчик после этого вердикта: проверьте его снова.",
        },
        /// The program cannot run yet.
        bd_invalid: Text { en: "Cannot run yet. {error}", ru: "Пока не запустится. {error}" },
        /// The judge could not start.
        bd_error: Text {
            en: "The check could not start: {error}",
            ru: "Проверка не запустилась: {error}",
        },

        // The page stopped (an allocation the browser could not give, or a bug).
        /// The banner of a stopped lab: what happened, and that the run shown is kept.
        crash_stopped: Text {
            en: "The lab stopped: the browser could not give it more memory, or it hit a bug. The \
                 run below is as it was at the last step that worked; Reload starts the page again \
                 from its address.",
            ru: "Лаборатория остановилась: браузер не смог выделить ей больше памяти, или она \
                 наткнулась на ошибку. Прогон ниже — такой, каким он был на последнем удачном \
                 шаге; «Перезагрузить» запустит страницу заново по её адресу.",
        },
        /// Its button that reloads the page at the address (the run at the step shown).
        crash_reload: Text { en: "Reload", ru: "Перезагрузить" },

        // The store's tables.
        /// Under a table, the keys of the rows the step deleted (`{rows}`).
        ui_deleted_rows: Text { en: "deleted: {rows}", ru: "удалены: {rows}" },
    }
}
