//! Lesson 1 finished with the keyboard alone, and the focus followed every action: after
//! Start the lesson's card has it, after Next the new card, after a right Check and after Go
//! there the lesson's Next, after To the end the step's caption; it never falls to `<body>`,
//! so the next control is a Tab or two away. The caption is a polite live region, so a screen
//! reader announces each step as the run moves. Each key press is counted: the lesson takes
//! at most [`KEYS_MAX`] (it took 144 when the focus fell to `<body>` after each action, on
//! the lesson before it gained its "break it yourself" task; 96 with that task and the focus
//! following; 111 since that task offers Go there only after a first try, To the end).
//!
//! The lesson is read from the core (its steps, its predictions' actual answers), so the
//! test follows the course as it is written; it expects lesson 1's shape: narrations,
//! number predictions, a task broken with a fault of the learner's own and one fixed by one
//! switch, each finished by a run to the end.

use idempotency_lab::course::{Actual, Course, CourseStep, Goal, Lesson};
use idempotency_lab_tests::browser::LabPage;

/// The most Tabs to reach a control.
const TABS_MAX: usize = 80;
/// The most keys the whole lesson may take.
const KEYS_MAX: usize = 125;

/// The page with its count of keys pressed.
struct Keyboard {
    page: LabPage,
    keys: usize,
}

impl Keyboard {
    /// Tabs to `selector` (each stop with a visible focus), counting the presses.
    fn tab_to(&mut self, selector: &str) {
        let before = self.tabs_so_far();
        self.page.tab_to(selector, TABS_MAX);
        self.keys += self.tabs_so_far() - before;
    }

    /// The Tabs pressed so far, as the page counts them.
    fn tabs_so_far(&self) -> usize {
        self.page.evaluate("window.__tabs ?? 0").as_u64().unwrap_or(0) as usize
    }

    /// Presses `key` on what has focus.
    fn press(&mut self, key: &str) {
        self.page.press_on_focus(key);
        self.keys += 1;
    }

    /// Presses Enter on what has focus, waits until `until` holds, and checks that the focus
    /// is on `focused` (never on `<body>`).
    fn enter_then(&mut self, what: &str, until: &str, focused: &str) {
        self.press("Enter");
        self.page.wait_until(what, until);
        let probe = format!(
            "(() => {{ const element = document.activeElement; \
             return !!element && element !== document.body && element.matches({focused:?}); }})()"
        );
        self.page.wait_until(&format!("after {what}, the focus on {focused}"), &probe);
    }
}

fn at_step(lesson: &Lesson, step: usize) -> String {
    format!(
        "document.querySelector('[data-testid=lesson-panel]')?.dataset.lesson === {:?} && \
         document.querySelector('[data-testid=lesson-panel]')?.dataset.courseStep === '{step}'",
        lesson.id
    )
}

const NEXT_ENABLED: &str = "!!document.querySelector('[data-testid=course-next]:not([disabled])')";
const CARD: &str = "[data-testid=course-step]";
const NEXT: &str = "[data-testid=course-next]";

/// Answers the number prediction at `step` with what the lesson's run does.
fn answer(keyboard: &mut Keyboard, lesson: &Lesson, step: usize) {
    let CourseStep::Prediction(prediction) = &lesson.steps[step] else { unreachable!() };
    let Actual::Number(number) = prediction.actual(lesson).unwrap() else {
        panic!("{} step {step}: lesson 1 asks for numbers", lesson.id)
    };
    keyboard.tab_to("[data-testid=prediction-number]");
    for key in number.to_string().chars() {
        keyboard.press(&key.to_string());
    }
    keyboard.tab_to("[data-testid=prediction-check]");
    let right = "document.querySelector('[data-testid=course-step]')?.dataset.state === 'right'";
    keyboard.enter_then("a right Check", right, NEXT);
}

/// Does the task at `step`: a "break it yourself" task by the fault button of its class, found
/// by a first try (To the end) and Go there, which a break task offers only after a try; a fix
/// by the one switch it names; then To the end.
fn do_task(keyboard: &mut Keyboard, lesson: &Lesson, step: usize) {
    let CourseStep::Task(task) = &lesson.steps[step] else { unreachable!() };
    if let Goal::Break { faults, .. } = &task.goal {
        let class = faults.first().expect("a break task names its fault classes");
        let button = format!("[data-fault={class}]");
        if !keyboard.page.exists(&button) {
            assert!(
                !keyboard.page.exists("[data-testid=course-go-there]"),
                "Go there before a try"
            );
            keyboard.tab_to("[data-testid=run-to-end]");
            let tried = "document.querySelector('[data-testid=task-hint]') !== null";
            keyboard.enter_then("a try", tried, "[data-testid=current-step]");
            keyboard.tab_to("[data-testid=course-go-there]");
            keyboard.press("Enter");
            keyboard
                .page
                .wait_until("the fault's place", &format!("!!document.querySelector({button:?})"));
        }
        keyboard.tab_to(&button);
        keyboard.press("Enter");
        finish_the_run(keyboard);
        return;
    }
    let Goal::FixBySwitching { pattern: Some(pattern), .. } = task.goal else {
        panic!("{} step {step}: lesson 1's tasks break it or switch one pattern", lesson.id)
    };
    let switch = format!("[data-testid=pattern-{pattern:?}]");
    keyboard.tab_to(&switch);
    keyboard.press("Enter");
    keyboard.page.wait_until(
        "the switch",
        &format!("document.querySelector('{switch}').dataset.mode === 'idempotent'"),
    );
    finish_the_run(keyboard);
}

/// To the end, and the task passed.
fn finish_the_run(keyboard: &mut Keyboard) {
    keyboard.tab_to("[data-testid=run-to-end]");
    let ended =
        "document.querySelector('[data-testid=current-step]').innerText.includes('run ended')";
    keyboard.enter_then("To the end", ended, "[data-testid=current-step]");
    keyboard.page.wait_until("the task passed", NEXT_ENABLED);
}

#[test]
fn lesson_one_is_finished_with_the_keyboard_and_the_focus_follows_every_action() {
    let course = Course::built_in().unwrap();
    let lesson = &course.lessons[0];
    let page = LabPage::open_course("");
    page.evaluate(
        "window.__tabs = 0; document.addEventListener('keydown', event => { if (event.key === 'Tab') window.__tabs += 1; }, true); true",
    );
    let mut keyboard = Keyboard { page, keys: 0 };
    keyboard.tab_to(&format!("[data-testid=course-open-{}]", lesson.id));
    keyboard.enter_then("Start", &at_step(lesson, 0), CARD);
    assert_eq!(
        keyboard.page.attribute("[data-testid=current-step]", "aria-live").as_deref(),
        Some("polite"),
        "the step's caption is announced"
    );
    for (step, course_step) in lesson.steps.iter().enumerate() {
        match course_step {
            CourseStep::Narration(_) => {
                let reached = "document.querySelector('[data-testid=course-step]')?.dataset.state === 'reached'";
                if keyboard.page.evaluate(reached) != serde_json::Value::Bool(true) {
                    keyboard.tab_to("[data-testid=course-go-there]");
                    keyboard.enter_then("Go there", reached, NEXT);
                }
            }
            CourseStep::Prediction(_) => answer(&mut keyboard, lesson, step),
            CourseStep::Task(_) => do_task(&mut keyboard, lesson, step),
        }
        if !keyboard
            .page
            .evaluate(&format!("document.activeElement?.matches({NEXT:?})"))
            .as_bool()
            .unwrap_or(false)
        {
            keyboard.tab_to(NEXT);
        }
        keyboard.enter_then("Next", &at_step(lesson, step + 1), CARD);
    }
    let done = "document.querySelector('[data-testid=course-step]')?.dataset.kind === 'finished'";
    keyboard.page.wait_until("the lesson done", done);
    keyboard.tab_to("[data-testid=course-list]");
    let listed = format!(
        "document.querySelector('[data-testid=course-lesson-{}]')?.dataset.done === 'true'",
        lesson.id
    );
    keyboard.enter_then("back to the list", &listed, "[data-testid=course] button");
    assert!(keyboard.keys <= KEYS_MAX, "lesson 1 took {} keys", keyboard.keys);
    println!("lesson 1 took {} key presses", keyboard.keys);
    assert_eq!(keyboard.page.console_errors(), Vec::<String>::new());
}
