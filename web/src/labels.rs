//! The page's words: its main labels in each language the core knows ([`ui`]) and why a run
//! ended ([`stop_text`]). Wording only: the actions' words are the core's
//! (`view::action_text`, `view::fault_button_text`), as are the lessons' and invariants'
//! texts.

use idempotency_lab::sim::StopReason;
use idempotency_lab::view::Language;

/// The page's main labels in one language.
#[derive(Debug, PartialEq, Eq)]
pub struct UiText {
    /// The line under the page's name.
    pub tagline: &'static str,
    /// The language switch's accessible name.
    pub language_switch: &'static str,
    /// The scenario picker's label.
    pub scenario: &'static str,
    /// Before an imported scenario's title in the picker.
    pub imported: &'static str,
    /// The seed field's label.
    pub seed: &'static str,
    /// The seed field's error, before the value typed.
    pub seed_error: &'static str,
    /// Switch the lesson's patterns to naive.
    pub all_naive: &'static str,
    /// Switch the lesson's patterns to idempotent.
    pub all_idempotent: &'static str,
    /// The pattern switches' names, P1 to P4.
    pub patterns: [&'static str; 4],
    /// A pattern switch's two states.
    pub naive: &'static str,
    /// A pattern switch's two states.
    pub idempotent: &'static str,
    /// Reset, and its tooltip.
    pub reset: (&'static str, &'static str),
    /// Step back, and its tooltip.
    pub back: (&'static str, &'static str),
    /// Step, and its tooltip.
    pub step: (&'static str, &'static str),
    /// Play, pause, and the tooltip.
    pub play: (&'static str, &'static str, &'static str),
    /// Run to the end.
    pub to_end: &'static str,
    /// The speed picker's label.
    pub speed: &'static str,
    /// The speeds, slowest first.
    pub speeds: [&'static str; 4],
    /// The position, before `n / total`.
    pub position: &'static str,
    /// Open and close the comparison.
    pub compare: (&'static str, &'static str),
    /// Open and close the check and fuzz panel.
    pub check: (&'static str, &'static str),
    /// The export buttons: trace JSON, Mermaid.
    pub export: (&'static str, &'static str),
    /// The file input's label.
    pub import: &'static str,
    /// The share link's label.
    pub share: &'static str,
    /// The caption before the first step.
    pub start: &'static str,
    /// Before the step caption's number, and before its tick.
    pub step_caption: (&'static str, &'static str),
    /// Before the reason a run ended.
    pub run_ended: &'static str,
    /// The view buttons' accessible name.
    pub view_group: &'static str,
    /// Smaller type, and its tooltip (which names its key).
    pub type_smaller: (&'static str, &'static str),
    /// Larger type, and its tooltip (which names its key).
    pub type_larger: (&'static str, &'static str),
    /// Fullscreen, and its tooltip (which names its key).
    pub fullscreen: (&'static str, &'static str),
    /// The presenter switch, and its tooltip (which names its key).
    pub presenter: (&'static str, &'static str),
    /// The step list's accessible name (the diagram's text alternative).
    pub step_list: &'static str,
    /// The step list's button that lists earlier steps, before how many are not listed.
    pub earlier_steps: &'static str,
    /// Above the pending items, when something waits.
    pub waiting_now: &'static str,
    /// Above the pending items, when nothing waits.
    pub nothing_waits: &'static str,
    /// The clock's name, where a lane's name would be.
    pub clock: &'static str,
    /// A pending item's fault buttons' accessible name, before the lane and the item.
    pub faults_on: &'static str,
}

const UI_EN: UiText = UiText {
    tagline: "Duplicate deliveries, lost responses, crashes and races: watch a naive shop break, then fix it.",
    language_switch: "Language",
    scenario: "Scenario ",
    imported: "(imported)",
    seed: "Seed ",
    seed_error: "the seed must be a whole number from 0 to",
    all_naive: "All naive",
    all_idempotent: "All idempotent",
    patterns: ["P1 stock", "P2 order", "P3 API key", "P4 inbox"],
    naive: "naive",
    idempotent: "idempotent",
    reset: ("⟲ Reset", "Start again"),
    back: ("◀ Back", "Step back (←)"),
    step: ("Step ▶", "Step (→)"),
    play: ("▶▶ Play", "❚❚ Pause", "Play or pause (space)"),
    to_end: "⇥ To the end",
    speed: "speed ",
    speeds: ["slow", "normal", "fast", "fastest"],
    position: "step",
    compare: ("⇆ Compare naive vs idempotent", "Hide the comparison"),
    check: ("✓ Check & fuzz", "Hide check & fuzz"),
    export: ("⤓ Trace JSON", "⤓ Mermaid"),
    import: "⤒ Open a trace or scenario file ",
    share: "Link to this run ",
    start: "Start: nothing has happened yet. Press Step (→) or Play (space).",
    step_caption: ("Step", "tick"),
    run_ended: "run ended",
    view_group: "View",
    type_smaller: ("A−", "Smaller type (-)"),
    type_larger: ("A+", "Larger type (+)"),
    fullscreen: ("⤢ Fullscreen", "Fullscreen on or off (f)"),
    presenter: (
        "▣ Presenter",
        "Presenter view on or off: large type, the diagram, invariants and changed tables on one screen (p)",
    ),
    step_list: "Steps of the run",
    earlier_steps: "Show earlier steps; not listed:",
    waiting_now: "Waiting now: inject a fault on an item",
    nothing_waits: "Nothing waits: the run is over.",
    clock: "Clock",
    faults_on: "Faults on",
};

const UI_RU: UiText = UiText {
    tagline: "Повторные доставки, потерянные ответы, падения и гонки: посмотрите, как ломается наивный магазин, и почините его.",
    language_switch: "Язык",
    scenario: "Сценарий ",
    imported: "(из файла)",
    seed: "Seed ",
    seed_error: "seed должен быть целым числом от 0 до",
    all_naive: "Всё наивно",
    all_idempotent: "Всё идемпотентно",
    patterns: ["P1 остаток", "P2 заказ", "P3 ключ API", "P4 Inbox"],
    naive: "наивно",
    idempotent: "идемпотентно",
    reset: ("⟲ Сначала", "Начать заново"),
    back: ("◀ Назад", "Шаг назад (←)"),
    step: ("Шаг ▶", "Шаг (→)"),
    play: ("▶▶ Пуск", "❚❚ Пауза", "Пуск или пауза (пробел)"),
    to_end: "⇥ До конца",
    speed: "скорость ",
    speeds: ["медленно", "обычно", "быстро", "очень быстро"],
    position: "шаг",
    compare: ("⇆ Сравнить наивный и идемпотентный", "Скрыть сравнение"),
    check: ("✓ Проверка и фаззинг", "Скрыть проверку и фаззинг"),
    export: ("⤓ Трасса JSON", "⤓ Mermaid"),
    import: "⤒ Открыть файл трассы или сценария ",
    share: "Ссылка на этот прогон ",
    start: "Начало: ещё ничего не произошло. Нажмите «Шаг» (→) или «Пуск» (пробел).",
    step_caption: ("Шаг", "тик"),
    run_ended: "прогон завершён",
    view_group: "Вид",
    type_smaller: ("A−", "Мельче (-)"),
    type_larger: ("A+", "Крупнее (+)"),
    fullscreen: ("⤢ Во весь экран", "Во весь экран или обратно (f)"),
    presenter: (
        "▣ Для показа",
        "Режим для показа: крупный шрифт, диаграмма, инварианты и изменённые таблицы на одном экране (p)",
    ),
    step_list: "Шаги прогона",
    earlier_steps: "Показать более ранние шаги; не показано:",
    waiting_now: "Сейчас ждёт: внесите сбой в один из элементов",
    nothing_waits: "Ничего не ждёт: прогон окончен.",
    clock: "Часы",
    faults_on: "Сбои для",
};

/// The page's main labels in `language`.
pub fn ui(language: Language) -> &'static UiText {
    match language {
        Language::En => &UI_EN,
        Language::Ru => &UI_RU,
    }
}

/// Why the run ended, in `language`.
pub fn stop_text(stop: &StopReason, language: Language) -> String {
    match (language, stop) {
        (Language::En, StopReason::Running) => "running".to_owned(),
        (Language::En, StopReason::Quiescent) => "nothing left to do".to_owned(),
        (Language::En, StopReason::Stuck { pending }) => {
            format!("stuck with work pending ({pending})")
        }
        (Language::En, StopReason::StepLimit { steps_max }) => {
            format!("step limit {steps_max} reached")
        }
        (Language::En, StopReason::TraceFull { trace_steps_max }) => {
            format!("trace limit {trace_steps_max} reached")
        }
        (Language::En, StopReason::StepFailed { step, error }) => {
            format!("step {step} failed: {error}")
        }
        (Language::Ru, StopReason::Running) => "идёт".to_owned(),
        (Language::Ru, StopReason::Quiescent) => "больше нечего делать".to_owned(),
        (Language::Ru, StopReason::Stuck { pending }) => {
            format!("застрял, работа не завершена ({pending})")
        }
        (Language::Ru, StopReason::StepLimit { steps_max }) => {
            format!("достигнут предел в {steps_max} шагов")
        }
        (Language::Ru, StopReason::TraceFull { trace_steps_max }) => {
            format!("трасса заполнена: {trace_steps_max} шагов")
        }
        (Language::Ru, StopReason::StepFailed { step, error }) => {
            format!("шаг {step} не выполнен: {error}")
        }
    }
}
