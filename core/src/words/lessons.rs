//! The page's course view: the list of lessons, the lesson panel and its step cards.

use super::topic::{Text, topic};

topic! {
    /// The page's course view.
    pub struct LessonWords {
        // The page's course view: the list of lessons, the lesson panel and its step cards.
        /// The course view's heading.
        ui_course_heading: Text { en: "The course", ru: "Курс" },
        /// The line under it.
        ui_course_intro: Text {
            en: "A guided path: the article's four patterns in its order, then what lies beyond \
                 them. Each lesson runs the shop beside you, asks you to predict what it does, and \
                 checks what you do in your own run.",
            ru: "Пошаговый курс: сначала четыре паттерна статьи в том же порядке, затем то, что \
                 выходит за её рамки. В каждом уроке магазин работает у вас на глазах: урок просит \
                 предсказать, что произойдёт, и проверяет, что вы сделали в своём прогоне.",
        },
        /// The list of lessons' accessible name.
        ui_course_lessons: Text { en: "Lessons", ru: "Уроки" },
        /// The button to the free lab.
        ui_course_free_lab: Text { en: "Free lab", ru: "Свободная лаборатория" },
        /// Its tooltip.
        ui_course_free_lab_title: Text {
            en: "The simulator on its own: any scenario, any fault",
            ru: "Симулятор без курса: любой сценарий, любой сбой",
        },
        /// The free lab's button back to the course.
        ui_course_course: Text { en: "☰ Course", ru: "☰ Курс" },
        /// Open a lesson not begun (or done) from its first step.
        ui_course_start: Text { en: "Start", ru: "Начать" },
        /// Open a lesson begun at the step the learner was at.
        ui_course_resume: Text { en: "Resume", ru: "Продолжить" },
        /// Open a finished lesson again.
        ui_course_again: Text { en: "Start again", ru: "Пройти снова" },
        /// The course view's button back into the last lesson (`{lesson}`, `{step}`).
        ui_course_resume_at: Text {
            en: "Resume: {lesson}, step {step}",
            ru: "Продолжить: {lesson}, шаг {step}",
        },
        /// A lesson's progress (`{done}`, `{total}`).
        ui_course_progress: Text {
            en: "{done} of {total} steps done",
            ru: "Пройдено шагов: {done} из {total}",
        },
        /// A lesson's done mark.
        ui_course_done: Text { en: "✓ Done", ru: "✓ Пройден" },
        /// Where a lesson is in the course (`{k}`, `{n}`).
        ui_course_lesson_of: Text { en: "Lesson {k} of {n}", ru: "Урок {k} из {n}" },
        /// Where a step is in its lesson (`{k}`, `{n}`).
        ui_course_step_of: Text { en: "Step {k} of {n}", ru: "Шаг {k} из {n}" },
        /// The lesson's step marks' accessible name.
        ui_course_steps_label: Text { en: "Steps of the lesson", ru: "Шаги урока" },
        /// A step mark's title: passed.
        ui_course_step_passed: Text { en: "passed", ru: "пройден" },
        /// A step mark's title: visited.
        ui_course_step_visited: Text { en: "visited", ru: "просмотрен" },
        /// A step mark's title: not yet.
        ui_course_step_ahead: Text { en: "not yet", ru: "впереди" },
        /// The lesson panel's way back to the list of lessons.
        ui_course_to_list: Text { en: "☰ All lessons", ru: "☰ Все уроки" },
        /// Back a step.
        ui_course_back: Text { en: "◀ Back", ru: "◀ Назад" },
        /// On to the next step.
        ui_course_next: Text { en: "Next ▶", ru: "Дальше ▶" },
        /// The last step's Next: finishes the lesson.
        ui_course_finish: Text { en: "Finish ✓", ru: "Завершить ✓" },
        /// Over a narration's card.
        ui_course_kind_watch: Text { en: "Watch", ru: "Смотрите" },
        /// Over a prediction's card.
        ui_course_kind_predict: Text { en: "Predict", ru: "Предскажите" },
        /// Over a task's card.
        ui_course_kind_task: Text { en: "Task", ru: "Задание" },
        /// A narration whose point the run has not reached.
        ui_course_not_reached: Text {
            en: "The run has not got there yet.",
            ru: "Прогон ещё не дошёл до этого места.",
        },
        /// Run the run on to a step's point and show it.
        ui_course_go_there: Text { en: "Go there ▶", ru: "Перейти ▶" },
        /// A run that never reaches the point.
        ui_course_unreachable: Text {
            en: "This run never gets there: start it again (Reset) and try once more.",
            ru: "Этот прогон туда не доходит: начните его заново («Сначала») и попробуйте ещё раз.",
        },
        /// The number field's label.
        ui_course_your_answer: Text { en: "Your answer", ru: "Ваш ответ" },
        /// Check a number.
        ui_course_check: Text { en: "Check", ru: "Проверить" },
        /// A number field that does not hold a whole number.
        ui_course_not_a_number: Text {
            en: "Type a whole number, such as 3.",
            ru: "Введите целое число, например 3.",
        },
        /// "Does it hold to the end?": yes.
        ui_course_holds: Text { en: "Holds", ru: "Выполняется" },
        /// "Does it hold to the end?": no.
        ui_course_breaks: Text { en: "Breaks", ru: "Нарушается" },
        /// "No invariant breaks".
        ui_course_none: Text { en: "None", ru: "Никакой" },
        /// After a right guess.
        ui_course_correct: Text { en: "Correct!", ru: "Верно!" },
        /// After a wrong guess, before the hint.
        ui_course_not_quite: Text { en: "Not quite.", ru: "Не совсем." },
        /// A task done.
        ui_course_task_done: Text {
            en: "✓ Done: the check passes on your run.",
            ru: "✓ Готово: проверка проходит на вашем прогоне.",
        },
        /// Before the core's reason a task is not done.
        ui_course_not_yet: Text { en: "Not yet:", ru: "Пока нет:" },
        /// Before a hint.
        ui_course_hint: Text { en: "Hint:", ru: "Подсказка:" },
        /// A check that could not run, before the error.
        ui_course_check_failed: Text {
            en: "The check could not run:",
            ru: "Проверку не удалось выполнить:",
        },
        /// The card after the last step.
        ui_course_finished: Text { en: "✓ Lesson done!", ru: "✓ Урок пройден!" },
        /// Open the next lesson (`{title}`).
        ui_course_next_lesson: Text {
            en: "Next lesson: {title} ▶",
            ru: "Следующий урок: {title} ▶",
        },
        /// After the last lesson.
        ui_course_all_done: Text {
            en: "That was the last lesson: the course is done.",
            ru: "Это был последний урок: курс пройден.",
        },
    }
}
