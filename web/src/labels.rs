//! The page's words, grouped for the components: its main labels ([`ui`]), the course view's
//! among them ([`CourseLabels`]). Every text is an entry
//! of the core's catalogue (`idempotency_lab::words`) in the chosen language; this file only
//! picks them out, so no sentence is written here.

use std::sync::OnceLock;

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

/// The page's main labels in `language`, from the core's catalogue (picked out once per
/// language).
pub fn ui(language: Language) -> &'static UiText {
    static EN: OnceLock<UiText> = OnceLock::new();
    static RU: OnceLock<UiText> = OnceLock::new();
    let labels = match language {
        Language::En => &EN,
        Language::Ru => &RU,
    };
    labels.get_or_init(|| ui_text(language))
}

fn ui_text(language: Language) -> UiText {
    let w = language.words();
    UiText {
        tagline: w.labels.ui_tagline,
        language_switch: w.labels.ui_language_switch,
        scenario: w.labels.ui_scenario,
        imported: w.labels.ui_imported,
        seed: w.labels.ui_seed,
        seed_error: w.labels.ui_seed_error,
        all_naive: w.labels.ui_all_naive,
        all_idempotent: w.labels.ui_all_idempotent,
        patterns: [w.labels.ui_p1, w.labels.ui_p2, w.labels.ui_p3, w.labels.ui_p4],
        naive: w.labels.ui_naive,
        idempotent: w.labels.ui_idempotent,
        reset: (w.labels.ui_reset, w.labels.ui_reset_title),
        back: (w.labels.ui_back, w.labels.ui_back_title),
        step: (w.labels.ui_step, w.labels.ui_step_title),
        play: (w.labels.ui_play, w.labels.ui_pause, w.labels.ui_play_title),
        to_end: w.labels.ui_to_end,
        speed: w.labels.ui_speed,
        speeds: [
            w.labels.ui_speed_slow,
            w.labels.ui_speed_normal,
            w.labels.ui_speed_fast,
            w.labels.ui_speed_fastest,
        ],
        position: w.labels.ui_position,
        compare: (w.labels.ui_compare_open, w.labels.ui_compare_close),
        check: (w.labels.ui_check_open, w.labels.ui_check_close),
        export: (w.labels.ui_export_json, w.labels.ui_export_mermaid),
        import: w.labels.ui_import,
        share: w.labels.ui_share,
        start: w.labels.ui_start,
        step_caption: (w.labels.ui_step_caption, w.labels.ui_tick),
        run_ended: w.labels.ui_run_ended,
        view_group: w.labels.ui_view_group,
        type_smaller: (w.labels.ui_type_smaller, w.labels.ui_type_smaller_title),
        type_larger: (w.labels.ui_type_larger, w.labels.ui_type_larger_title),
        fullscreen: (w.labels.ui_fullscreen, w.labels.ui_fullscreen_title),
        presenter: (w.labels.ui_presenter, w.labels.ui_presenter_title),
        step_list: w.labels.ui_step_list,
        earlier_steps: w.labels.ui_earlier_steps,
        waiting_now: w.labels.ui_waiting_now,
        nothing_waits: w.labels.ui_nothing_waits,
        clock: w.labels.ui_clock,
        faults_on: w.labels.ui_faults_on,
        course: CourseLabels {
            heading: w.lessons.ui_course_heading,
            intro: w.lessons.ui_course_intro,
            lessons: w.lessons.ui_course_lessons,
            free_lab: (w.lessons.ui_course_free_lab, w.lessons.ui_course_free_lab_title),
            course: w.lessons.ui_course_course,
            start: w.lessons.ui_course_start,
            resume: w.lessons.ui_course_resume,
            again: w.lessons.ui_course_again,
            resume_at: w.lessons.ui_course_resume_at,
            progress: w.lessons.ui_course_progress,
            done: w.lessons.ui_course_done,
            lesson_of: w.lessons.ui_course_lesson_of,
            step_of: w.lessons.ui_course_step_of,
            steps_label: w.lessons.ui_course_steps_label,
            step_states: (
                w.lessons.ui_course_step_passed,
                w.lessons.ui_course_step_visited,
                w.lessons.ui_course_step_ahead,
            ),
            to_list: w.lessons.ui_course_to_list,
            back: w.lessons.ui_course_back,
            next: w.lessons.ui_course_next,
            finish: w.lessons.ui_course_finish,
            kinds: (
                w.lessons.ui_course_kind_watch,
                w.lessons.ui_course_kind_predict,
                w.lessons.ui_course_kind_task,
            ),
            not_reached: w.lessons.ui_course_not_reached,
            go_there: w.lessons.ui_course_go_there,
            unreachable: w.lessons.ui_course_unreachable,
            your_answer: w.lessons.ui_course_your_answer,
            check: w.lessons.ui_course_check,
            not_a_number: w.lessons.ui_course_not_a_number,
            holds: (w.lessons.ui_course_holds, w.lessons.ui_course_breaks),
            none: w.lessons.ui_course_none,
            correct: w.lessons.ui_course_correct,
            not_quite: w.lessons.ui_course_not_quite,
            task_done: w.lessons.ui_course_task_done,
            not_yet: w.lessons.ui_course_not_yet,
            hint: w.lessons.ui_course_hint,
            check_failed: w.lessons.ui_course_check_failed,
            finished: w.lessons.ui_course_finished,
            next_lesson: w.lessons.ui_course_next_lesson,
            course_done: w.lessons.ui_course_all_done,
        },
    }
}
