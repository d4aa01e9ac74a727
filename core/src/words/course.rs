//! The course's words outside the page's course view: its judgements of a learner's run
//! (`course`), the CLI's course and lesson, the page's Compare view, and the trainer's link into
//! the course (`course::link`).

use super::topic::{Text, topic};

topic! {
    /// The course's judgements, the CLI's course, the Compare view and the trainer's link.
    pub struct CourseWords {
        // The course's judgements of a learner's run (`course`).
        /// The naive twin, as a course's reason names it.
        course_naive: Text { en: "naive", ru: "наивный" },
        /// The idempotent twin, as a course's reason names it.
        course_idempotent: Text { en: "idempotent", ru: "идемпотентный" },
        /// A task's run is of another scenario.
        course_other_scenario: Text {
            en: "This run is not of this lesson: open the lesson again.",
            ru: "Это прогон не этого урока: откройте урок заново.",
        },
        /// A task asks for these switches of every pattern (`{patterns}`).
        course_patterns: Text {
            en: "This task needs the patterns set to {patterns}: set them first.",
            ru: "Этому заданию нужны паттерны {patterns}: сначала установите их.",
        },
        /// A task asks for a fault of the learner's own.
        course_no_fault: Text {
            en: "Place a fault of your own: a fault button on a waiting item of the diagram.",
            ru: "Внесите свой сбой: кнопкой сбоя у ожидающего элемента диаграммы.",
        },
        /// The learner placed more faults than a task allows.
        course_too_many_faults: Text {
            en: "You placed {placed} faults; this task allows at most {max}. Start again (Reset) \
                 and place fewer.",
            ru: "Внесено сбоев: {placed}; задание допускает не больше {max}. Начните заново \
                 («Сначала») и внесите меньше.",
        },
        /// The learner placed fewer faults than a task asks for.
        course_too_few_faults: Text {
            en: "Your run took {placed} of your faults of the kinds that count; this task asks for \
                 at least {min}.",
            ru: "Ваших сбоев нужных видов в прогоне: {placed}; задание требует не меньше {min}.",
        },
        /// A fault of a class a task does not count.
        course_fault_not_allowed: Text {
            en: "{class} does not count in this task: use another fault.",
            ru: "{class} в этом задании не засчитывается: нужен другой сбой.",
        },
        /// The invariant a task asks to break still holds.
        course_not_broken: Text {
            en: "{invariant} still holds in this run.",
            ru: "{invariant} в этом прогоне пока выполняется.",
        },
        /// A task needs the whole run.
        course_not_at_end: Text {
            en: "Run it to the end: the check needs the whole run.",
            ru: "Доведите прогон до конца: проверке нужен весь прогон.",
        },
        /// An invariant a task asks to keep broke.
        course_broken: Text {
            en: "{invariant} broke in this run.",
            ru: "{invariant} в этом прогоне нарушен.",
        },
        /// A task asks for exactly one pattern (`{pattern}`) switched from the lesson's start
        /// (`{start}`).
        course_not_one_switch: Text {
            en: "From the lesson's start, {start}, switch exactly one pattern, {pattern}, to \
                 idempotent, and leave the others as they start.",
            ru: "От начала урока ({start}) переключите ровно один паттерн, {pattern}, в \
                 идемпотентный режим, а остальные оставьте как в начале.",
        },
        /// The same schedule does not break the invariant naive either.
        course_naive_holds_too: Text {
            en: "With the patterns naive, this schedule does not break {invariant} either: first \
                 make a run that breaks it, then switch.",
            ru: "С наивными паттернами это расписание тоже не нарушает {invariant}: сначала \
                 добейтесь нарушения, потом переключайте.",
        },
        /// A task asks for exactly one pattern, any of `{candidates}`, switched from the lesson's
        /// start (`{start}`).
        course_not_one_switch_any: Text {
            en: "From the lesson's start, {start}, switch exactly one of {candidates} to \
                 idempotent, and leave the others as they start.",
            ru: "От начала урока ({start}) переключите ровно один из паттернов {candidates} в \
                 идемпотентный режим, а остальные оставьте как в начале.",
        },

        // The CLI's course and lesson.
        /// One lesson in `course`: its number, id, title and how many steps it has.
        course_list_line: Text {
            en: "{n}. {id}: {title} ({steps})",
            ru: "{n}. {id}: {title} ({steps})",
        },
        /// `lesson`: the lesson's number of all, and title.
        lesson_heading: Text {
            en: "Lesson {n} of {total}: {title}",
            ru: "Урок {n} из {total}: {title}",
        },
        /// `lesson`: a narration, and the point of the run it is bound to.
        lesson_narration: Text {
            en: "{n}. Narration ({at}): {text}",
            ru: "{n}. Рассказ ({at}): {text}",
        },
        /// `lesson`: a prediction, and the twin it is about.
        lesson_prediction: Text {
            en: "{n}. Prediction ({mode}): {text}",
            ru: "{n}. Прогноз ({mode}): {text}",
        },
        /// `lesson`: a task.
        lesson_task: Text { en: "{n}. Task: {text}", ru: "{n}. Задание: {text}" },
        /// `lesson`: under a task whose run starts without the scenario's scripted faults, how to
        /// start it from a terminal and place one's own.
        lesson_task_own_faults: Text {
            en: "   From a terminal: this task's run starts without the scenario's own faults; \
                 place yours ({faults}) with idempotency-lab run {scenario} --no-scripted-faults \
                 --inject <choice> --json",
            ru: "   Из терминала: прогон этого задания начинается без собственных сбоев сценария; \
                 внесите свои ({faults}) командой idempotency-lab run {scenario} \
                 --no-scripted-faults --inject <выбор> --json",
        },
        /// `lesson`: how to grade one's own runs.
        lesson_check_hint: Text {
            en: "Grade your runs: idempotency-lab lesson {id} --check <trace.json>... (traces from \
                 the page's \"Trace JSON\" button or from run --json)",
            ru: "Проверьте свои прогоны: idempotency-lab lesson {id} --check <trace.json>... \
                 (трассы — с кнопки «Трасса JSON» на странице или из run --json)",
        },
        /// `lesson --check`: a task passed.
        lesson_task_passed: Text { en: "task {n}: passed", ru: "задание {n}: выполнено" },
        /// `lesson --check`: a task not yet passed, the core's reason and the task's hint.
        lesson_task_not_yet: Text {
            en: "task {n}: not yet: {reason} Hint: {hint}",
            ru: "задание {n}: пока нет: {reason} Подсказка: {hint}",
        },
        /// `lesson --check`: how many of the lesson's tasks passed.
        lesson_summary: Text {
            en: "{passed} of {total} tasks passed",
            ru: "выполнено заданий: {passed} из {total}",
        },
        /// A narration's point: the run's start.
        point_start: Text { en: "at the start", ru: "в начале" },
        /// A narration's point: the run's end.
        point_end: Text { en: "at the end", ru: "в конце" },
        /// A narration's point: a decisive moment.
        point_moment: Text { en: "at the moment {moment}", ru: "в момент {moment}" },
        /// A narration's point: where an invariant breaks.
        point_break: Text { en: "where {invariant} breaks", ru: "где нарушается {invariant}" },
        /// A point: where a fault class is first offered.
        point_fault: Text { en: "where {class} can be placed", ru: "где можно внести {class}" },

        // The page's Compare view.
        /// Compare: `Both twins end the same: this schedule does not tell them apart.`
        cmp_same: Text {
            en: "Both twins end the same: this schedule does not tell them apart.",
            ru: "Оба варианта заканчиваются одинаково: это расписание их не различает.",
        },
        /// Compare: `Broken only by the naive twin: {invariants}. Rows that differ at the end: {rows}.`
        cmp_verdict: Text {
            en: "Broken only by the naive twin: {invariants}. Rows that differ at the end: {rows}.",
            ru: "Нарушено только в наивном варианте: {invariants}. Строк, различающихся в конце: \
                 {rows}.",
        },
        /// Compare: `none`
        cmp_none: Text { en: "none", ru: "нет" },
        /// Compare: `Naive and idempotent side by side`
        cmp_aria: Text {
            en: "Naive and idempotent side by side",
            ru: "Наивный и идемпотентный рядом",
        },
        /// Compare: `Same schedule, both twins`
        cmp_heading: Text { en: "Same schedule, both twins", ru: "Одно расписание, оба варианта" },
        /// Compare: `{twin}: taken at step {step}`
        cmp_taken: Text {
            en: "{twin}: taken at step {step}",
            ru: "{twin}: выполнен на шаге {step}",
        },
        /// Compare: `{twin}: not applied, no such target in this twin`
        cmp_missing: Text {
            en: "{twin}: not applied, no such target in this twin",
            ru: "{twin}: не применён, в этом варианте нет такой цели",
        },
        /// Compare: `Your choice at step {step} on {target}: {naive}; {idempotent}.`
        cmp_choice: Text {
            en: "Your choice at step {step} on {target}: {naive}; {idempotent}.",
            ru: "Ваш выбор на шаге {step} ({target}): {naive}; {idempotent}.",
        },
        /// Compare: `naive`
        cmp_naive: Text { en: "naive", ru: "наивный" },
        /// Compare: `idempotent`
        cmp_idempotent: Text { en: "idempotent", ru: "идемпотентный" },
        /// Compare: `Naive twin: {steps}`
        cmp_side_naive: Text { en: "Naive twin: {steps}", ru: "Наивный вариант: {steps}" },
        /// Compare: `Idempotent twin: {steps}`
        cmp_side_idempotent: Text {
            en: "Idempotent twin: {steps}",
            ru: "Идемпотентный вариант: {steps}",
        },

        // The trainer's link into the course (`course::link`).
        /// A course link that does not read (`{why}`: one of the next entries).
        course_link_malformed: Text {
            en: "This course link cannot be opened: {why}. A course link reads \
                 #lesson=<lesson>&step=<step from 1>.",
            ru: "Эту ссылку на курс не открыть: {why}. Ссылка на курс выглядит так: \
                 #lesson=<урок>&step=<шаг с 1>.",
        },
        /// Why: the link is too long (`{bytes}`, `{max}`).
        course_link_too_long: Text {
            en: "it is {bytes} bytes long, more than {max}",
            ru: "её длина {bytes} байт, больше {max}",
        },
        /// Why: a part is not `name=value` (`{part}`).
        course_link_not_a_field: Text {
            en: "{part} is not a name=value field",
            ru: "{part} не поле вида имя=значение",
        },
        /// Why: a field a course link does not have (`{field}`).
        course_link_unknown_field: Text {
            en: "it has an unknown field {field}",
            ru: "в ней неизвестное поле {field}",
        },
        /// Why: a field given twice (`{field}`).
        course_link_duplicate_field: Text {
            en: "the field {field} is given twice",
            ru: "поле {field} указано дважды",
        },
        /// Why: the step given both as `step` (from 1) and as `at` (from 0).
        course_link_step_twice: Text {
            en: "it gives the step twice, as step (from 1) and as at (from 0)",
            ru: "шаг в ней указан дважды: как step (с 1) и как at (с 0)",
        },
        /// Why: no lesson named.
        course_link_no_lesson: Text { en: "it names no lesson", ru: "в ней не указан урок" },
        /// Why: `step` or `at` (`{field}`) is not a step number (`{value}`).
        course_link_bad_step: Text {
            en: "{field}={value} is not a step number",
            ru: "{field}={value} не номер шага",
        },
        /// Why: `presenter` is neither 1 nor 0 (`{value}`).
        course_link_bad_presenter: Text {
            en: "presenter={value} is neither 1 (on) nor 0 (off)",
            ru: "presenter={value} не 1 (включён) и не 0 (выключен)",
        },
        /// The course has no such lesson (`{id}`).
        course_link_unknown_lesson: Text {
            en: "This course link cannot be opened: the course has no lesson \"{id}\". Pick a \
                 lesson from the list below.",
            ru: "Эту ссылку на курс не открыть: в курсе нет урока «{id}». Выберите урок в списке \
                 ниже.",
        },
        /// The lesson has no such step (`{lesson}`, `{step}` from 1, its last step `{last}`).
        course_link_step_out_of_range: Text {
            en: "This course link cannot be opened: lesson \"{lesson}\" has steps 1 to {last}, not \
                 {step}.",
            ru: "Эту ссылку на курс не открыть: в уроке «{lesson}» шаги с 1 по {last}, шага {step} \
                 нет.",
        },
    }
}
