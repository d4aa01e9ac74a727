//! The CLI's reports of runs, checks, fuzzing and replays, and why a run stopped (which the
//! page's caption shows too).

use super::topic::{Text, topic};

topic! {
    /// The CLI's reports.
    pub struct ReportWords {
        // The CLI's reports (runs, checks, fuzzing, replays).
        /// How a run stopped, after how many steps, at which tick.
        report_stopped: Text {
            en: "stopped: {reason} after {steps}, at tick {tick}",
            ru: "остановка: {reason} после {steps}, на тике {tick}",
        },
        /// Why a run ended (the CLI's report and the page's caption): it is still running.
        stop_running: Text { en: "still running", ru: "ещё идёт" },
        /// A run with nothing left to do.
        stop_quiescent: Text { en: "nothing left to do", ru: "больше нечего делать" },
        /// A run stuck with work pending.
        stop_stuck: Text {
            en: "stuck with work pending ({pending})",
            ru: "застрял, работа не завершена ({pending})",
        },
        /// A run that hit its step limit.
        stop_step_limit: Text {
            en: "step limit {steps_max} reached",
            ru: "достигнут предел в {steps_max} шагов",
        },
        /// A run whose trace is full.
        stop_trace_full: Text {
            en: "trace limit {trace_steps_max} reached",
            ru: "трасса заполнена: {trace_steps_max} шагов",
        },
        /// A run whose step failed.
        stop_step_failed: Text {
            en: "step {step} failed: {error}",
            ru: "шаг {step} не выполнен: {error}",
        },
        /// The faults that fired in a run.
        report_faults: Text { en: "faults fired: {faults}", ru: "сработавшие сбои: {faults}" },
        /// Every invariant held.
        report_all_held: Text {
            en: "invariants: all of I1-I7 held at every step",
            ru: "инварианты: все I1-I7 выполнялись на каждом шаге",
        },
        /// How many invariants a run violated.
        report_violated: Text {
            en: "invariants violated: {count}",
            ru: "нарушено инвариантов: {count}",
        },
        /// Where an invariant first broke.
        report_first_broken: Text {
            en: "{invariant} {title}: first broken at step {step} ({still})",
            ru: "{invariant} {title}: впервые нарушен на шаге {step} ({still})",
        },
        /// An invariant still violated at the end.
        report_still: Text { en: "still violated at the end", ru: "нарушен и в конце" },
        /// An invariant that held again by the end.
        report_held_again: Text { en: "held again by the end", ru: "к концу снова выполняется" },
        /// A trace without the violation's sentence.
        report_no_sentence: Text {
            en: "(the trace does not record the violation's sentence)",
            ru: "(в трассе нет предложения об этом нарушении)",
        },
        /// The checker's proof.
        check_proved: Text {
            en: "proved within depth {depth}: {states} states ({unique} unique)",
            ru: "доказано в пределах глубины {depth}: состояний {states} (уникальных {unique})",
        },
        /// The checker stopped by a bound.
        check_bounded: Text {
            en: "bounded: {reason}, not a proof ({states} states, {unique} unique, depth {depth})",
            ru: "остановлено пределом: {reason}, это не доказательство (состояний {states}, \
                 уникальных {unique}, глубина {depth})",
        },
        /// The checker found a violation.
        check_violated: Text {
            en: "violated after {states} states ({unique} unique): shortest path of {steps}",
            ru: "нарушено; проверено состояний: {states} (уникальных {unique}); кратчайший путь: \
                 {steps}",
        },
        /// Before the counterexample's trace.
        check_counterexample: Text {
            en: "counterexample trace (replays in the simulator):",
            ru: "трасса контрпримера (воспроизводится в симуляторе):",
        },
        /// Why a check stopped: paths deeper than the depth bound exist.
        check_bound_depth_max: Text {
            en: "paths longer than {depth_max} steps were not explored",
            ru: "пути длиннее {depth_max} шагов не исследованы",
        },
        /// A handler program's verdict: it holds for every schedule within the bounds.
        handler_holds: Text {
            en: "holds for every schedule within the bounds: {states} states, depth {depth}",
            ru: "выполняется при любом расписании в пределах ограничений: состояний {states}, \
                 глубина {depth}",
        },
        /// The faults a consumer program is judged against.
        handler_consumer_faults: Text {
            en: "schedules: every interleaving of two consumer instances, with one duplicate \
                 delivery, one crash after commit and one crash before commit",
            ru: "расписания: все чередования двух экземпляров консьюмера, с одной повторной \
                 доставкой, одним падением после коммита и одним падением до коммита",
        },
        /// Why a program that acknowledges before its commit fails.
        handler_why_ack_before_commit: Text {
            en: "Why: the ACK runs before the COMMIT, so a crash in between rolls the effect back \
                 after the broker has forgotten the message, and nothing redelivers it.",
            ru: "Почему: ACK стоит раньше COMMIT, и падение между ними откатывает эффект, когда \
                 брокер уже забыл сообщение: повторной доставки не будет.",
        },
        /// Why a program that commits the inbox row apart from the effect fails.
        handler_why_inbox_own_transaction: Text {
            en: "Why: the inbox row commits in a transaction of its own, so for a moment (and \
                 forever, if the consumer crashes then) the inbox says the message was processed \
                 while its effect is not there.",
            ru: "Почему: запись в inbox коммитится в отдельной транзакции, и какое-то время (а \
                 если консьюмер упадёт — навсегда) inbox говорит, что сообщение обработано, а \
                 эффекта нет.",
        },
        /// Why a program that checks with a `SELECT` instead of the unique key fails.
        handler_why_check_then_insert: Text {
            en: "Why: a SELECT that finds no row proves nothing under concurrency: two instances \
                 both read 0 rows before either commits, and both apply the effect. Only the \
                 unique key's INSERT decides atomically.",
            ru: "Почему: SELECT, не нашедший строки, при конкурентной обработке ничего не \
                 гарантирует: два экземпляра оба читают 0 строк до чьего-либо коммита и оба \
                 применяют эффект. Атомарно решает только INSERT с уникальным ключом.",
        },
        /// Why a program without an inbox fails.
        handler_why_no_inbox: Text {
            en: "Why: nothing remembers that the message was processed, so a duplicate or a \
                 redelivery after a crash applies the effect again.",
            ru: "Почему: ничто не помнит, что сообщение уже обработано, и дубль или повторная \
                 доставка после падения применяют эффект ещё раз.",
        },
        /// Why a `MarkPaid` program that decides on a plain `SELECT` fails.
        handler_why_check_then_update: Text {
            en: "Why: a plain SELECT that reads 'placed' proves nothing under concurrency: two \
                 requests both read 'placed' before either commits, both update and both charge. \
                 The guarded UPDATE (AND status = 'placed') or SELECT ... FOR UPDATE decides \
                 atomically.",
            ru: "Почему: обычный SELECT, прочитавший 'placed', при конкурентных запросах ничего не \
                 гарантирует: два запроса оба читают 'placed' до чьего-либо коммита, оба обновляют \
                 заказ и оба списывают деньги. Атомарно решает UPDATE с условием (AND status = \
                 'placed') или SELECT ... FOR UPDATE.",
        },
        /// Why a `MarkPaid` program whose `UPDATE` has no status guard fails.
        handler_why_unguarded_update: Text {
            en: "Why: the UPDATE has no status guard, so it moves a paid order to paid again and \
                 reports 1 row: every repeat of the payment charges once more.",
            ru: "Почему: у UPDATE нет условия на статус, и он переводит уже оплаченный заказ в \
                 paid ещё раз, сообщая об 1 строке: каждый повтор платежа списывает деньги снова.",
        },
        /// Why, when the program's mistake is none of the typical ones.
        handler_why_other: Text {
            en: "Why: the schedule above is the shortest one that breaks the invariant; follow its \
                 statements in the diagram.",
            ru: "Почему: выше — кратчайшее расписание, нарушающее инвариант; пройдите по его \
                 операторам на диаграмме.",
        },
        /// The schedules a `MarkPaid` program is judged over.
        handler_mark_paid_faults: Text {
            en: "schedules: every interleaving of the shop around the payment request, with one \
                 lost answer and its retry with the same key, and no Idempotency-Key layer in \
                 front of MarkPaid",
            ru: "расписания: все чередования магазина вокруг запроса оплаты, с одним потерянным \
                 ответом и его повтором с тем же ключом, без слоя Idempotency-Key перед MarkPaid",
        },
        /// Why a check stopped: its store of unique states is full.
        check_bound_states_max: Text {
            en: "the limit of {states_max} unique states was reached",
            ru: "достигнут предел в {states_max} уникальных состояний",
        },
        /// Why a check stopped: what it holds reached its memory bound.
        check_bound_bytes_max: Text {
            en: "the memory limit of {bytes_max} bytes ({mib} MiB) was reached",
            ru: "достигнут предел памяти в {bytes_max} байт ({mib} МиБ)",
        },
        /// Why a check stopped: a step hit a limit of the model (the error in English).
        check_bound_model_limit: Text {
            en: "a step from depth {depth} hit a limit of the model: {error}",
            ru: "шаг с глубины {depth} упёрся в предел модели: {error}",
        },
        /// The page's check panel, a check stopped by a bound.
        check_panel_bounded: Text {
            en: "Bounded by a limit, not a proof: {reason} ({states} states explored, {unique} \
                 unique, depth {depth}).",
            ru: "Остановлено пределом, это не доказательство: {reason} (исследовано состояний: \
                 {states}, уникальных {unique}, глубина {depth}).",
        },
        /// The fuzzer found nothing.
        fuzz_no_violation: Text {
            en: "no violation in {cases} ({seeds} distinct seeds)",
            ru: "нарушений нет: {cases} (различных seed: {seeds})",
        },
        /// The fuzzer found a violation and shrank it.
        fuzz_violation: Text {
            en: "violation in case {case} of {cases}: {violated}; shrunk in {shrink} to seed \
                 {seed}",
            ru: "нарушение в случае {case} из {cases}: {violated}; сжато за {shrink} до seed \
                 {seed}",
        },
        /// The faults that fired in the shrunk case.
        fuzz_fired: Text {
            en: "faults that fired: injected {injected}; from random rates {random}",
            ru: "сработавшие сбои: внесённые {injected}; от случайных частот {random}",
        },
        /// How many injections the shrunk case keeps.
        fuzz_injections: Text {
            en: "injections in the shrunk case: {count}",
            ru: "внесённых сбоев в сжатом случае: {count}",
        },
        /// The shrunk case has no random faults.
        fuzz_rates_none: Text {
            en: "random fault rates: none",
            ru: "случайные частоты сбоев: нет",
        },
        /// The shrunk case's random fault rates.
        fuzz_rates: Text {
            en: "random fault rates: {rates}",
            ru: "случайные частоты сбоев: {rates}",
        },
        /// One random fault rate.
        fuzz_rate: Text { en: "{class} {rate} per million", ru: "{class} {rate} на миллион" },
        /// Before the shrunk case's trace.
        fuzz_shrunk_trace: Text { en: "shrunk trace:", ru: "сжатая трасса:" },
        /// A trace that reproduces.
        replay_reproduces: Text {
            en: "trace `{source}` reproduces byte for byte: scenario {scenario}, seed {seed}, \
                 {steps}",
            ru: "трасса `{source}` воспроизводится байт в байт: сценарий {scenario}, seed {seed}, \
                 {steps}",
        },
        /// A trace that does not reproduce.
        replay_differs: Text {
            en: "trace `{source}` does not reproduce: {why}",
            ru: "трасса `{source}` не воспроизводится: {why}",
        },
        /// The head of a run: scenario, mode, patterns, seed.
        run_header: Text {
            en: "scenario {source}, mode {mode} ({patterns}), seed {seed}",
            ru: "сценарий {source}, режим {mode} ({patterns}), seed {seed}",
        },
    }
}
