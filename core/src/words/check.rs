//! The page's check panel: the model checker's budget, progress and verdicts.

use super::topic::{Text, topic};

topic! {
    /// The check panel.
    pub struct CheckWords {
        // The check panel.
        /// The panel's heading.
        ck_heading: Text {
            en: "Check every interleaving, or fuzz many seeds",
            ru: "Проверить все чередования или прогнать фаззер на многих seed",
        },
        /// The target's label.
        ck_what: Text { en: "What ", ru: "Что " },
        /// The fault budget's label.
        ck_faults: Text { en: "Faults ", ru: "Сбои " },
        /// The state limit's label.
        ck_limit: Text { en: "Limit ", ru: "Предел " },
        /// Target: the page's run.
        ck_target_this_run: Text {
            en: "this run (scenario, switches, seed)",
            ru: "этот прогон (сценарий, переключатели, seed)",
        },
        /// Target: the reference.
        ck_target_reference: Text {
            en: "reference: two consumers, a duplicate and a crash",
            ru: "эталон: два консьюмера, дубль и падение",
        },
        /// Target: the two-order reference.
        ck_target_reference_two: Text {
            en: "reference, two orders: two messages, two consumers, a duplicate and a crash",
            ru: "эталон, два заказа: два сообщения, два консьюмера, дубль и падение",
        },
        /// Budget: the lesson's faults.
        ck_preset_lesson: Text { en: "the lesson's faults, one each", ru: "сбои урока, по одному" },
        /// Budget: F1.
        ck_preset_one_duplicate: Text {
            en: "one duplicate delivery (F1)",
            ru: "одна повторная доставка (F1)",
        },
        /// Budget: F1 + F2.
        ck_preset_duplicate_and_crash: Text {
            en: "one duplicate and one crash after commit (F1 + F2)",
            ru: "один дубль и одно падение после коммита (F1 + F2)",
        },
        /// Budget: F1 twice.
        ck_preset_two_duplicates: Text {
            en: "two duplicate deliveries (F1 ×2)",
            ru: "две повторные доставки (F1 ×2)",
        },
        /// Budget: none.
        ck_preset_no_faults: Text {
            en: "no faults: interleavings only",
            ru: "без сбоев: только чередования",
        },
        /// An empty fault budget.
        ck_no_faults: Text { en: "no faults", ru: "без сбоев" },
        /// A state limit (10,000 and up).
        ck_limit_option: Text { en: "{limit} unique states", ru: "{limit} уникальных состояний" },
        /// What a check covers.
        ck_what_line: Text {
            en: "{scenario} ({patterns}), seed {seed}, faults {faults}, limit {limit} unique \
                 states",
            ru: "{scenario} ({patterns}), seed {seed}, сбои: {faults}, предел {limit} уникальных \
                 состояний",
        },
        /// Before a check.
        ck_will_check: Text { en: "Will check {what}.", ru: "Будет проверено: {what}." },
        /// While checking.
        ck_checking: Text {
            en: "Checking every interleaving of {what}",
            ru: "Проверяются все чередования: {what}",
        },
        /// While fuzzing.
        ck_fuzzing: Text {
            en: "Fuzzing {scenario} ({patterns}): {cases} cases of its faults, random fault rates \
                 and seeds, fuzz seed {seed}",
            ru: "Фаззинг {scenario} ({patterns}): случаев — {cases}, с его сбоями, случайными \
                 частотами сбоев и seed; seed фаззера {seed}",
        },
        /// The check's button.
        ck_run_check: Text { en: "Check every interleaving", ru: "Проверить все чередования" },
        /// The fuzzer's button (100 and up).
        ck_run_fuzz: Text { en: "Fuzz {cases} cases", ru: "Фаззинг: {cases} случаев" },
        /// Cancel.
        ck_cancel: Text { en: "Cancel", ru: "Отмена" },
        /// A check's progress.
        ck_progress_check: Text {
            en: "unique states stored: {unique} of the {limit}-state limit · {explored} explored · \
                 depth {depth} · frontier {frontier}",
            ru: "сохранено уникальных состояний: {unique} из {limit} · просмотрено {explored} · \
                 глубина {depth} · фронт {frontier}",
        },
        /// The fuzzer's progress.
        ck_progress_fuzz: Text {
            en: "cases run: {run} of {cases}",
            ru: "выполнено случаев: {run} из {cases}",
        },
        /// Open a counterexample.
        ck_open: Text {
            en: "Open in the diagram (at step {step})",
            ru: "Открыть в диаграмме (шаг {step})",
        },
        /// A check's figures.
        ck_stats: Text {
            en: "{explored} states explored, {unique} unique, depth {depth}",
            ru: "просмотрено состояний: {explored}, уникальных: {unique}, глубина {depth}",
        },
        /// A proof.
        ck_proved: Text {
            en: "Proved: {explored} states ({unique} unique), depth {depth}. Every interleaving \
                 keeps every invariant.",
            ru: "Доказано: просмотрено состояний: {explored} (уникальных: {unique}), глубина \
                 {depth}. Все чередования сохраняют все инварианты.",
        },
        /// A counterexample.
        ck_violated: Text {
            en: "Violated: {ids}; shortest path {steps} steps ({stats}).",
            ru: "Нарушено: {ids}; кратчайший путь — шагов: {steps} ({stats}).",
        },
        /// A check that could not start.
        ck_error: Text {
            en: "The check could not run: {error}",
            ru: "Проверку не удалось запустить: {error}",
        },
        /// A cancelled check.
        ck_cancelled: Text {
            en: "Cancelled after {stats}: no verdict.",
            ru: "Отменено ({stats}): вердикта нет.",
        },
        /// A cancelled fuzz run.
        ck_fuzz_cancelled: Text {
            en: "Cancelled after {run} of {cases} cases: no verdict.",
            ru: "Отменено после {run} из {cases} случаев: вердикта нет.",
        },
        /// A fuzz run that found nothing.
        ck_fuzz_passed: Text {
            en: "No violation in {cases} cases ({seeds} distinct seeds).",
            ru: "Нарушений нет: случаев — {cases}, различных seed — {seeds}.",
        },
        /// A fuzz failure, shrunk.
        ck_fuzz_violated: Text {
            en: "Violated: {ids} in case {case} of {cases}; shrunk in {shrink} steps to seed \
                 {seed}; faults fired: injected {injected}, from random rates {random}; broken at \
                 step {broke_at} of {steps}.",
            ru: "Нарушено: {ids} в случае {case} из {cases}; сжато за {shrink} шагов до seed \
                 {seed}; сработавшие сбои: внесённые — {injected}, со случайными частотами — \
                 {random}; нарушено на шаге {broke_at} из {steps}.",
        },
        /// A run stopped at the store's limit of open transactions (`{step}` not taken).
        limit_open_transactions: Text {
            en: "Limit reached at step {step}: the store holds as many open transactions as \
                 shop.store.open_transactions_max allows ({limit}) and the step needed one more. \
                 The run stops before it: a limit reached is its own outcome, not a fault of the \
                 shop, and no invariant judges that step.",
            ru: "Шаг {step}: достигнут предел хранилища — открыто столько транзакций, сколько \
                 позволяет shop.store.open_transactions_max ({limit}), а шагу нужна ещё одна. \
                 Прогон останавливается перед этим шагом: достигнутый предел — отдельный исход, а \
                 не ошибка магазина, и ни один инвариант этот шаг не судит.",
        },
        /// A run stopped at the store's limit of rows in `{table}` (`{step}` not taken).
        limit_table_full: Text {
            en: "Limit reached at step {step}: the store's table {table} is full, or a transaction \
                 holds as many writes as shop.store.rows_per_table_max allows ({limit}). The run \
                 stops before it: a limit reached is its own outcome, not a fault of the shop, and \
                 no invariant judges that step.",
            ru: "Шаг {step}: достигнут предел хранилища — таблица {table} заполнена или в \
                 транзакции столько записей, сколько позволяет shop.store.rows_per_table_max \
                 ({limit}). Прогон останавливается перед этим шагом: достигнутый предел — \
                 отдельный исход, а не ошибка магазина, и ни один инвариант этот шаг не судит.",
        },
        /// The fuzzer's cases that stopped at a store limit (`{cases}` counted, `{first}` the
        /// first one's sentence).
        fuzz_limits_reached: Text {
            en: "{cases} stopped at a limit of the store before breaking an invariant (not counted \
                 as violations). The first, seed {seed}: {first}",
            ru: "{cases} остановились на пределе хранилища, не нарушив инвариантов (нарушениями не \
                 считаются). Первый, seed {seed}: {first}",
        },
    }
}
