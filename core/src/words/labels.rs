//! The page's labels: headings, buttons, fields and their tooltips (`web/src/labels.rs` hands
//! them to the components).

use super::topic::{Text, topic};

topic! {
    /// The page's labels.
    pub struct LabelWords {
        // The page's labels (`web/src/labels.rs` hands them to the components).
        /// The line under the page's name.
        ui_tagline: Text {
            en: "Duplicate deliveries, lost responses, crashes and races: watch a naive shop \
                 break, then fix it.",
            ru: "Повторные доставки, потерянные ответы, падения и гонки: посмотрите, как ломается \
                 наивный магазин, и почините его.",
        },
        /// The language switch's accessible name.
        ui_language_switch: Text { en: "Language", ru: "Язык" },
        /// The scenario picker's label.
        ui_scenario: Text { en: "Scenario ", ru: "Сценарий " },
        /// Before an imported scenario's title in the picker.
        ui_imported: Text { en: "(imported)", ru: "(из файла)" },
        /// The seed field's label.
        ui_seed: Text { en: "Seed ", ru: "Seed " },
        /// The seed field's error, before the largest value.
        ui_seed_error: Text {
            en: "the seed must be a whole number from 0 to",
            ru: "seed должен быть целым числом от 0 до",
        },
        /// Switch the lesson's patterns to naive.
        ui_all_naive: Text { en: "All naive", ru: "Все наивные" },
        /// Switch the lesson's patterns to idempotent.
        ui_all_idempotent: Text { en: "All idempotent", ru: "Все идемпотентные" },
        /// P1's switch.
        ui_p1: Text { en: "P1 stock", ru: "P1 остаток" },
        /// P2's switch.
        ui_p2: Text { en: "P2 order", ru: "P2 заказ" },
        /// P3's switch.
        ui_p3: Text { en: "P3 API key", ru: "P3 ключ API" },
        /// P4's switch.
        ui_p4: Text { en: "P4 Inbox", ru: "P4 Inbox" },
        /// A pattern switch, naive.
        ui_naive: Text { en: "naive", ru: "наивный" },
        /// A pattern switch, idempotent.
        ui_idempotent: Text { en: "idempotent", ru: "идемпотентный" },
        /// Reset.
        ui_reset: Text { en: "⟲ Reset", ru: "⟲ Сначала" },
        /// Reset's tooltip.
        ui_reset_title: Text { en: "Start again", ru: "Начать заново" },
        /// Step back.
        ui_back: Text { en: "◀ Back", ru: "◀ Назад" },
        /// Step back's tooltip.
        ui_back_title: Text { en: "Step back (←)", ru: "Шаг назад (←)" },
        /// Step.
        ui_step: Text { en: "Step ▶", ru: "Шаг ▶" },
        /// Step's tooltip.
        ui_step_title: Text { en: "Step (→)", ru: "Шаг (→)" },
        /// Play.
        ui_play: Text { en: "▶▶ Play", ru: "▶▶ Пуск" },
        /// Pause.
        ui_pause: Text { en: "❚❚ Pause", ru: "❚❚ Пауза" },
        /// Play's tooltip.
        ui_play_title: Text { en: "Play or pause (space)", ru: "Пуск или пауза (пробел)" },
        /// Run to the end.
        ui_to_end: Text { en: "⇥ To the end", ru: "⇥ До конца" },
        /// The speed picker's label.
        ui_speed: Text { en: "speed ", ru: "скорость " },
        /// The slowest speed.
        ui_speed_slow: Text { en: "slow", ru: "медленно" },
        /// The usual speed.
        ui_speed_normal: Text { en: "normal", ru: "обычно" },
        /// A fast speed.
        ui_speed_fast: Text { en: "fast", ru: "быстро" },
        /// The fastest speed.
        ui_speed_fastest: Text { en: "fastest", ru: "очень быстро" },
        /// The position, before `n / total`.
        ui_position: Text { en: "step", ru: "шаг" },
        /// Open the comparison.
        ui_compare_open: Text {
            en: "⇆ Compare naive vs idempotent",
            ru: "⇆ Сравнить наивный и идемпотентный",
        },
        /// Close the comparison.
        ui_compare_close: Text { en: "Hide the comparison", ru: "Скрыть сравнение" },
        /// Open the check and fuzz panel.
        ui_check_open: Text { en: "✓ Check & fuzz", ru: "✓ Проверка и фаззинг" },
        /// Close the check and fuzz panel.
        ui_check_close: Text { en: "Hide check & fuzz", ru: "Скрыть проверку и фаззинг" },
        /// Download the trace.
        ui_export_json: Text { en: "⤓ Trace JSON", ru: "⤓ Трасса JSON" },
        /// Download the Mermaid diagram.
        ui_export_mermaid: Text { en: "⤓ Mermaid", ru: "⤓ Mermaid" },
        /// The file input's label.
        ui_import: Text {
            en: "⤒ Open a trace or scenario file ",
            ru: "⤒ Открыть файл трассы или сценария ",
        },
        /// The share link's label.
        ui_share: Text { en: "Link to this run ", ru: "Ссылка на этот прогон " },
        /// The caption before the first step.
        ui_start: Text {
            en: "Start: nothing has happened yet. Press Step (→) or Play (space).",
            ru: "Начало: ещё ничего не произошло. Нажмите «Шаг» (→) или «Пуск» (пробел).",
        },
        /// Before the step caption's number.
        ui_step_caption: Text { en: "Step", ru: "Шаг" },
        /// Before the step caption's tick.
        ui_tick: Text { en: "tick", ru: "тик" },
        /// Before the reason a run ended.
        ui_run_ended: Text { en: "run ended", ru: "прогон завершён" },
        /// The view buttons' accessible name.
        ui_view_group: Text { en: "View", ru: "Вид" },
        /// Smaller type.
        ui_type_smaller: Text { en: "A−", ru: "A−" },
        /// Smaller type's tooltip (with its key).
        ui_type_smaller_title: Text { en: "Smaller type (-)", ru: "Мельче (-)" },
        /// Larger type.
        ui_type_larger: Text { en: "A+", ru: "A+" },
        /// Larger type's tooltip (with its key).
        ui_type_larger_title: Text { en: "Larger type (+)", ru: "Крупнее (+)" },
        /// Fullscreen.
        ui_fullscreen: Text { en: "⤢ Fullscreen", ru: "⤢ Во весь экран" },
        /// Fullscreen's tooltip (with its key).
        ui_fullscreen_title: Text {
            en: "Fullscreen on or off (f)",
            ru: "Во весь экран или обратно (f)",
        },
        /// The presenter switch.
        ui_presenter: Text { en: "▣ Presenter", ru: "▣ Режим докладчика" },
        /// The presenter switch's tooltip (with its key).
        ui_presenter_title: Text {
            en: "Presenter view on or off: large type, the diagram, invariants and changed tables \
                 on one screen (p)",
            ru: "Режим докладчика вкл./выкл.: крупный шрифт, диаграмма, инварианты и изменённые \
                 таблицы на одном экране (p)",
        },
        /// The step list's accessible name (the diagram's text alternative).
        ui_step_list: Text { en: "Steps of the run", ru: "Шаги прогона" },
        /// The step list's button that lists earlier steps, before how many are not listed.
        ui_earlier_steps: Text {
            en: "Show earlier steps; not listed:",
            ru: "Показать более ранние шаги; не показано:",
        },
        /// Above the pending items, when something waits.
        ui_waiting_now: Text {
            en: "Waiting now: inject a fault on an item",
            ru: "Сейчас ждут: внесите сбой в один из элементов",
        },
        /// Above the pending items, when nothing waits.
        ui_nothing_waits: Text {
            en: "Nothing waits: the run is over.",
            ru: "Ничего не ждёт: прогон окончен.",
        },
        /// The clock's name, where a lane's name would be.
        ui_clock: Text { en: "Clock", ru: "Часы" },
        /// A pending item's fault buttons' accessible name, before the lane and the item.
        ui_faults_on: Text { en: "Faults on", ru: "Сбои для" },
        /// The invariants panel's heading.
        ui_invariants: Text { en: "Invariants", ru: "Инварианты" },
        /// The run controls' accessible name.
        ui_controls_group: Text { en: "Run controls", ru: "Управление прогоном" },
        /// The step slider's accessible name.
        ui_go_to_step: Text { en: "Go to step", ru: "Перейти к шагу" },
        /// Beside the run's controls while a lesson's prediction is not answered: the run waits.
        ui_run_waits_for_prediction: Text {
            en: "The run waits at its start until you answer the prediction.",
            ru: "Прогон ждёт в начале, пока вы не ответите на прогноз.",
        },
        /// The export and import section's accessible name.
        ui_files_group: Text { en: "Export and import", ru: "Экспорт и импорт" },
        /// The scenario section's accessible name.
        ui_scenario_group: Text { en: "Scenario", ru: "Сценарий" },
        /// The pattern switches' accessible name.
        ui_patterns_group: Text {
            en: "Naive or idempotent, per pattern",
            ru: "Наивный или идемпотентный, для каждого паттерна",
        },
        /// The check panel's accessible name.
        ui_check_group: Text { en: "Check and fuzz", ru: "Проверка и фаззинг" },
        /// The diagram's accessible name.
        ui_sequence_diagram: Text { en: "Sequence diagram", ru: "Диаграмма последовательности" },
        /// The diagram before the first step.
        ui_diagram_empty: Text {
            en: "Press Step (→) or Play (space) to start the run.",
            ru: "Нажмите «Шаг» (→) или «Пуск» (пробел), чтобы начать прогон.",
        },
        /// A dead letter, beside the invariants (`{step}`, `{message}`, `{entry}`).
        dead_lettered: Text {
            en: "Dead-lettered at step {step}: message {message} (entry {entry}) ran out of \
                 deliveries; it waits in the dead-letter queue for an operator, neither lost nor \
                 processed twice (I6 does not count it).",
            ru: "Шаг {step}: сообщение {message} (копия {entry}) исчерпало попытки доставки и ушло \
                 в очередь недоставленных (dead-letter queue). Оно ждёт оператора: не потеряно и \
                 не обработано дважды (I6 его не учитывает).",
        },
        /// The diagram's button that draws earlier steps (`{hidden}` not drawn, `{more}` to draw).
        ui_earlier_not_drawn: Text {
            en: "▲ {hidden} earlier steps not drawn: show {more} more",
            ru: "▲ Более ранних шагов не нарисовано: {hidden}. Показать ещё {more}",
        },
        /// The store's tables' accessible name.
        ui_store_tables: Text { en: "Store tables", ru: "Таблицы БД" },
        /// An empty table.
        ui_no_rows: Text { en: "no rows", ru: "нет строк" },
        /// Under a large table, how many of its rows are drawn (`{shown}` of `{total}`).
        ui_rows_shown: Text {
            en: "Showing {shown} of {total} rows: the first ones and those the step changed.",
            ru: "Показано строк: {shown} из {total} — первые и те, что изменил шаг.",
        },
        /// Under the waiting items of a large world, how many are drawn (`{shown}` of `{total}`).
        ui_pending_shown: Text {
            en: "Showing {shown} of {total} waiting items: the first ones in each column of the \
                 diagram.",
            ru: "Показано ожидающих элементов: {shown} из {total} — первые в каждой колонке схемы.",
        },
        /// The button that draws every row or item left out (`{total}`).
        ui_show_all: Text { en: "Show all {total}", ru: "Показать все ({total})" },
        /// The button that draws only the first rows or items again.
        ui_show_fewer: Text { en: "Show fewer", ru: "Показать меньше" },
        /// The jump to the step where an invariant broke (`{step}`).
        ui_go_to_break: Text {
            en: "go to step {step}, where it broke",
            ru: "перейти к шагу {step}, где он нарушен",
        },
    }
}
