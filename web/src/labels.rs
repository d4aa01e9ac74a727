//! The page's words: its main labels in each language the core knows ([`ui`]), the course
//! view's labels among them ([`CourseLabels`]; the course's own texts are the core's), and why
//! a run ended ([`stop_text`]). Wording only: the actions' words are the core's
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
    /// The course view's labels.
    pub course: CourseLabels,
}

/// The course view's labels in one language: the list of lessons, the lesson panel beside
/// the diagram, and its step cards. Templates have `{name}` placeholders ([`fill`]).
///
/// [`fill`]: idempotency_lab::words::fill
#[derive(Debug, PartialEq, Eq)]
pub struct CourseLabels {
    /// The course view's heading.
    pub heading: &'static str,
    /// The line under it.
    pub intro: &'static str,
    /// The list of lessons' accessible name.
    pub lessons: &'static str,
    /// The button to the free lab, and its tooltip.
    pub free_lab: (&'static str, &'static str),
    /// The free lab's button back to the course.
    pub course: &'static str,
    /// Open a lesson not begun (or done) from its first step.
    pub start: &'static str,
    /// Open a lesson begun at the step the learner was at.
    pub resume: &'static str,
    /// Open a finished lesson again.
    pub again: &'static str,
    /// The course view's button back into the last lesson (`{lesson}`, `{step}`).
    pub resume_at: &'static str,
    /// A lesson's progress (`{done}`, `{total}`).
    pub progress: &'static str,
    /// A lesson's done mark.
    pub done: &'static str,
    /// Where a lesson is in the course (`{k}`, `{n}`).
    pub lesson_of: &'static str,
    /// Where a step is in its lesson (`{k}`, `{n}`).
    pub step_of: &'static str,
    /// The lesson's step marks' accessible name.
    pub steps_label: &'static str,
    /// A step mark's title: passed, visited, not yet.
    pub step_states: (&'static str, &'static str, &'static str),
    /// The lesson panel's way back to the list of lessons.
    pub to_list: &'static str,
    /// Back a step.
    pub back: &'static str,
    /// On to the next step.
    pub next: &'static str,
    /// The last step's Next: finishes the lesson.
    pub finish: &'static str,
    /// The kind of each step, over its card: narration, prediction, task.
    pub kinds: (&'static str, &'static str, &'static str),
    /// A narration whose point the run has not reached.
    pub not_reached: &'static str,
    /// Run the run on to a step's point and show it.
    pub go_there: &'static str,
    /// A run that never reaches the point.
    pub unreachable: &'static str,
    /// The number field's label.
    pub your_answer: &'static str,
    /// Check a number.
    pub check: &'static str,
    /// A number field that does not hold a whole number.
    pub not_a_number: &'static str,
    /// The answers to "does it hold to the end?".
    pub holds: (&'static str, &'static str),
    /// "No invariant breaks".
    pub none: &'static str,
    /// After a right guess.
    pub correct: &'static str,
    /// After a wrong guess, before the hint.
    pub not_quite: &'static str,
    /// A task done.
    pub task_done: &'static str,
    /// Before the core's reason a task is not done.
    pub not_yet: &'static str,
    /// Before a hint.
    pub hint: &'static str,
    /// A check that could not run, before the error.
    pub check_failed: &'static str,
    /// The card after the last step.
    pub finished: &'static str,
    /// Open the next lesson (`{title}`).
    pub next_lesson: &'static str,
    /// After the last lesson.
    pub course_done: &'static str,
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
    course: CourseLabels {
        heading: "The course",
        intro: "A guided path: the article's four patterns in its order, then what lies beyond them. Each lesson runs the shop beside you, asks you to predict what it does, and checks what you do in your own run.",
        lessons: "Lessons",
        free_lab: ("Free lab", "The simulator on its own: any scenario, any fault"),
        course: "☰ Course",
        start: "Start",
        resume: "Resume",
        again: "Start again",
        resume_at: "Resume: {lesson}, step {step}",
        progress: "{done} of {total} steps done",
        done: "✓ Done",
        lesson_of: "Lesson {k} of {n}",
        step_of: "Step {k} of {n}",
        steps_label: "Steps of the lesson",
        step_states: ("passed", "visited", "not yet"),
        to_list: "☰ All lessons",
        back: "◀ Back",
        next: "Next ▶",
        finish: "Finish ✓",
        kinds: ("Watch", "Predict", "Task"),
        not_reached: "The run has not got there yet.",
        go_there: "Go there ▶",
        unreachable: "This run never gets there: start it again (Reset) and try once more.",
        your_answer: "Your answer",
        check: "Check",
        not_a_number: "Type a whole number, such as 3.",
        holds: ("Holds", "Breaks"),
        none: "None",
        correct: "Correct!",
        not_quite: "Not quite.",
        task_done: "✓ Done: the check passes on your run.",
        not_yet: "Not yet:",
        hint: "Hint:",
        check_failed: "The check could not run:",
        finished: "✓ Lesson done!",
        next_lesson: "Next lesson: {title} ▶",
        course_done: "That was the last lesson: the course is done.",
    },
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
    course: CourseLabels {
        heading: "Курс",
        intro: "Путь с проводником: четыре паттерна статьи в её порядке, затем то, что лежит за ними. В каждом уроке магазин работает у вас на глазах, урок просит предсказать, что он сделает, и проверяет, что сделали вы в своём прогоне.",
        lessons: "Уроки",
        free_lab: ("Свободная лаборатория", "Симулятор сам по себе: любой сценарий, любой сбой"),
        course: "☰ Курс",
        start: "Начать",
        resume: "Продолжить",
        again: "Пройти снова",
        resume_at: "Продолжить: {lesson}, шаг {step}",
        progress: "Пройдено шагов: {done} из {total}",
        done: "✓ Пройден",
        lesson_of: "Урок {k} из {n}",
        step_of: "Шаг {k} из {n}",
        steps_label: "Шаги урока",
        step_states: ("пройден", "просмотрен", "впереди"),
        to_list: "☰ Все уроки",
        back: "◀ Назад",
        next: "Дальше ▶",
        finish: "Завершить ✓",
        kinds: ("Смотрите", "Предскажите", "Задание"),
        not_reached: "Прогон ещё не дошёл до этого места.",
        go_there: "Перейти ▶",
        unreachable: "Этот прогон туда не доходит: начните его заново («Сначала») и попробуйте ещё раз.",
        your_answer: "Ваш ответ",
        check: "Проверить",
        not_a_number: "Введите целое число, например 3.",
        holds: ("Выполняется", "Нарушается"),
        none: "Никакой",
        correct: "Верно!",
        not_quite: "Не совсем.",
        task_done: "✓ Готово: проверка проходит на вашем прогоне.",
        not_yet: "Пока нет:",
        hint: "Подсказка:",
        check_failed: "Проверку не удалось выполнить:",
        finished: "✓ Урок пройден!",
        next_lesson: "Следующий урок: {title} ▶",
        course_done: "Это был последний урок: курс пройден.",
    },
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
