//! The course in the page, as a newcomer meets it: the page opened without a link shows the
//! course, and every lesson of the built-in course is completed from its list with real
//! clicks only (a number is typed with the keys), each prediction answered with what the
//! lesson's run actually does (`Prediction::actual`, computed here natively, never written
//! down), each task done the way a learner would (read the core's reason on the card, then
//! switch the pattern it names, run to the end, or go to the place the task offers and press
//! the fault button of the task's class on the waiting item; a build task: Add on each
//! palette block of a right answer, then "Check my handler"). The clicks of each lesson are
//! counted (opening it from the list, every step, the last Next and the way back to the list)
//! and each lesson takes at most [`CLICKS_MAX`]. Three lessons are photographed at 1280x720
//! with the lesson panel and the diagram on screen.
//!
//! A trainer's link (`#lesson=inbox&at=<its task>`, the old numbering from 0, read as
//! `step=<its task + 1>`) opens that lesson at that step, the steps before it visited but not
//! passed; there an unfinished task shows the core's own reason, its hint only after a wrong
//! try (run to the end), and a wrong prediction the lesson's hint, and neither lets Next on. A
//! bad link (`#lesson=nope`, a step
//! past the last) shows the core's words in the error banner and keeps the stored progress.
//! The course reads in Russian, at 390 px it is no wider than the phone, and axe-core finds no
//! WCAG 2 A or AA violation in the course or a lesson.
//!
//! The page's hooks these tests read: `[data-testid=course]` (the list), `course-open-<id>`,
//! `course-progress-<id>` and `course-lesson-<id>[data-done]` on it; `[data-testid=lesson-panel]`
//! with `data-lesson` and `data-course-step`; its card `[data-testid=course-step]` with
//! `data-kind` (narration, prediction, task, finished), `data-state` (waiting or reached;
//! asking, wrong or right; not-yet or passed) and, on a task not done, `data-reason` (the
//! core's `NotYet`, kebab-cased); `course-go-there`, `course-next`, `course-back`,
//! `course-list`, `prediction-number`, `prediction-check`, `prediction-I1`..`I7`,
//! `prediction-none`, `prediction-holds`, `prediction-breaks`, `prediction-feedback`,
//! `task-reason`, `task-hint`.

use idempotency_lab::course::{
    Actual, BuildGoal, Course, CourseLinkError, CourseStep, Goal, Lesson, NotYet, Point, Task,
    TaskVerdict,
};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::order::OrderImplementation;
use idempotency_lab::program::{Block, HandlerKind, HandlerProgram, builtin_mark_paid};
use idempotency_lab::sim::{Pattern, PatternMode, Patterns, Scenario, Simulation};
use idempotency_lab::view::Language;
use idempotency_lab_tests::browser::LabPage;

/// The consumer with its COMMIT after its ACK (`examples/programs/`): one move up from right.
const ACK_BEFORE_COMMIT: &str =
    include_str!("../../../examples/programs/consumer-ack-before-commit.json");

/// The most clicks a lesson may take.
const CLICKS_MAX: usize = 25;

/// The lessons photographed at 1280x720, and the step at which.
const PHOTOGRAPHED: [(&str, usize); 3] =
    [("reservation-ledger", 3), ("inbox", 4), ("crash-before-commit", 2)];

/// The most actions a task takes before it must pass.
const TASK_ACTIONS_MAX: usize = 8;

fn course() -> &'static Course {
    Course::built_in().unwrap_or_else(|error| panic!("the built-in course is refused: {error}"))
}

fn lesson(id: &str) -> &'static Lesson {
    course().lesson(id).unwrap_or_else(|| panic!("no lesson {id}"))
}

/// What the lesson panel shows, read in one evaluation.
#[derive(Debug)]
struct Card {
    /// The card's `data-state`.
    state: String,
    /// Its `data-reason`, on a task not done.
    reason: Option<String>,
    /// Whether Next is enabled.
    next: bool,
    /// The card's text.
    text: String,
    /// The whole panel's text.
    panel: String,
    /// The patterns the switches show.
    patterns: Patterns,
}

/// Waits until the lesson panel shows `lesson` at `step` (its number of steps: finished) and
/// the JavaScript condition `until` holds (`card` names the card, `panel` the panel), then
/// reads it: one protocol call.
fn card_when(page: &LabPage, lesson: &Lesson, step: usize, until: &str) -> Card {
    let probe = format!(
        "(() => {{ const panel = document.querySelector('[data-testid=lesson-panel]'); \
         if (!panel || panel.dataset.lesson !== {id:?} || panel.dataset.courseStep !== '{step}') return false; \
         const card = panel.querySelector('[data-testid=course-step]'); \
         if (!card || !({until})) return false; \
         const next = panel.querySelector('[data-testid=course-next]'); \
         return JSON.stringify({{ state: card.dataset.state, reason: card.dataset.reason ?? null, \
           next: !!next && !next.disabled, text: card.innerText, panel: panel.innerText, \
           patterns: ['P1', 'P2', 'P3', 'P4'].map(p => document.querySelector(`[data-testid=pattern-${{p}}]`)?.dataset.mode) }}); }})()",
        id = lesson.id
    );
    let what = format!("lesson {} at step {step} with {until}", lesson.id);
    let json = page.wait_for_value(&what, &probe);
    let json: serde_json::Value =
        serde_json::from_str(json.as_str().unwrap_or("{}")).expect("the panel's probe");
    let text = |key: &str| json[key].as_str().unwrap_or_default().to_owned();
    let modes: Vec<PatternMode> = (0..4)
        .map(|index| match json["patterns"][index].as_str() {
            Some("naive") => PatternMode::Naive,
            _ => PatternMode::Idempotent,
        })
        .collect();
    Card {
        state: text("state"),
        reason: json["reason"].as_str().map(str::to_owned),
        next: json["next"] == serde_json::Value::Bool(true),
        text: words(&text("text")),
        panel: words(&text("panel")),
        patterns: Patterns {
            p1_stock: modes[0],
            p2_order: modes[1],
            p3_api: modes[2],
            p4_inbox: modes[3],
        },
    }
}

/// The panel at `lesson`'s `step`, once it shows it.
fn card_at(page: &LabPage, lesson: &Lesson, step: usize) -> Card {
    card_when(page, lesson, step, "true")
}

/// `text` with its runs of white space made one space, as the browser lays text out.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of the first element matching `selector` now, in one evaluation.
fn text_of(page: &LabPage, selector: &str) -> String {
    let text = page.evaluate(&format!("document.querySelector({selector:?})?.innerText ?? ''"));
    text.as_str().unwrap_or_default().to_owned()
}

/// Waits until the text of the first element matching `selector` contains `needle`.
fn wait_text(page: &LabPage, selector: &str, needle: &str) {
    page.wait_in_page(
        &format!("{selector} shows {needle:?}"),
        &format!("(document.querySelector({selector:?})?.innerText ?? '').includes({needle:?})"),
    );
}

fn mode_of(patterns: Patterns, pattern: Pattern) -> PatternMode {
    match pattern {
        Pattern::P1 => patterns.p1_stock,
        Pattern::P2 => patterns.p2_order,
        Pattern::P3 => patterns.p3_api,
        Pattern::P4 => patterns.p4_inbox,
    }
}

/// Clicks the pattern switches of `shown` that differ from `target`, each waited for; returns
/// the panel after the last.
fn switch_to(page: &LabPage, lesson: &Lesson, step: usize, shown: Card, target: Patterns) -> Card {
    let mut card = shown;
    for pattern in [Pattern::P1, Pattern::P2, Pattern::P3, Pattern::P4] {
        let want = mode_of(target, pattern);
        if mode_of(card.patterns, pattern) == want {
            continue;
        }
        page.tap(&format!("[data-testid=pattern-{pattern:?}]"));
        let word = match want {
            PatternMode::Naive => "naive",
            PatternMode::Idempotent => "idempotent",
        };
        let flipped = format!(
            "document.querySelector('[data-testid=pattern-{pattern:?}]').dataset.mode === {word:?}"
        );
        card = card_when(page, lesson, step, &flipped);
    }
    card
}

/// The switches a `fix_by_switching` task wants: the lesson's naive run with the one focus
/// pattern switched whose run, natively, passes the task.
fn fix_target(lesson: &Lesson, task: &Task, pattern: Option<Pattern>) -> Patterns {
    let scenario = lesson.scenario().unwrap();
    let naive = lesson.patterns(PatternMode::Naive).unwrap();
    let candidates = pattern.map_or_else(|| lesson.focus(&scenario), |pattern| vec![pattern]);
    candidates
        .into_iter()
        .map(|pattern| naive.with(pattern, PatternMode::Idempotent))
        .find(|patterns| {
            let scenario = Scenario { patterns: *patterns, ..scenario.clone() };
            let mut simulation = Simulation::new(scenario, 0).unwrap();
            simulation.run_to_end();
            task.check(lesson, &simulation.trace()) == Ok(TaskVerdict::Passed)
        })
        .unwrap_or_else(|| panic!("{}: no single switch passes the task", lesson.id))
}

/// The class of fault a task wants placed: the one its place to start offers, else its first.
fn fault_class(task: &Task) -> FaultClass {
    let classes = match &task.goal {
        Goal::Break { faults, .. } | Goal::Survive { faults, .. } => faults.clone(),
        Goal::FixBySwitching { .. } | Goal::Build(_) => Vec::new(),
    };
    match task.go_to {
        Some(Point::Fault(class)) => class,
        _ => *classes.first().expect("a task that asks for a fault names its class"),
    }
}

/// Answers the prediction shown with what the lesson's run does; returns the panel once it
/// says "right".
fn answer_right(page: &LabPage, lesson: &Lesson, step: usize, shown: &Card) -> Card {
    let CourseStep::Prediction(prediction) = &lesson.steps[step] else { unreachable!() };
    assert!(!shown.next, "{} step {step}: Next before the answer", lesson.id);
    // Until it is answered, the run waits at its start, and says so (#34 item 4).
    page.wait_until(
        "the run waits for the answer",
        "document.querySelector('[data-testid=current-step]').dataset.waits === 'true' \
           && document.querySelector('[data-testid=step]').disabled \
           && document.querySelector('[data-testid=run-to-end]').disabled \
           && document.querySelector('[data-testid=slider]').disabled \
           && /^\\D*0 \\//.test(document.querySelector('[data-testid=position]').textContent)",
    );
    if (lesson.id.as_str(), step) == ("reservation-ledger", 1) {
        page.evaluate("window.scrollTo(0, 0), true");
        page.screenshot("course-prediction-waits");
    }
    match prediction.actual(lesson).unwrap() {
        Actual::Number(number) => {
            page.type_into("[data-testid=prediction-number]", &number.to_string());
            page.tap("[data-testid=prediction-check]");
        }
        Actual::FirstBroken(first) => match first.first() {
            Some(invariant) => page.tap(&format!("[data-testid=prediction-{invariant}]")),
            None => page.tap("[data-testid=prediction-none]"),
        },
        Actual::Holds(true) => page.tap("[data-testid=prediction-holds]"),
        Actual::Holds(false) => page.tap("[data-testid=prediction-breaks]"),
    }
    let card = card_when(page, lesson, step, "card.dataset.state === 'right'");
    assert!(card.text.contains(&words(&prediction.explain.en)), "{:?}", card.text);
    assert!(
        !page.exists("[data-testid=current-step][data-waits]"),
        "{} step {step}: answered",
        lesson.id
    );
    card
}

/// A right answer to a build task, block by block: the seed's handler in the forms the
/// palette offers (the consumer's inbox `INSERT` with `ON CONFLICT DO NOTHING`).
fn right_answer(goal: &BuildGoal) -> Vec<Block> {
    match goal.handler {
        HandlerKind::ReserveStockConsumer => {
            let mut blocks = HandlerProgram::from_json(ACK_BEFORE_COMMIT).unwrap().blocks;
            let last = blocks.len() - 1;
            blocks.swap(last - 1, last);
            blocks
        }
        HandlerKind::MarkPaid => builtin_mark_paid(OrderImplementation::Idempotent).blocks,
    }
}

/// The palette entries to add, in order, for `blocks`: each the first entry not taken whose
/// palette form is the block.
pub fn palette_entries(goal: &BuildGoal, blocks: &[Block]) -> Vec<usize> {
    let mut taken: Vec<usize> = Vec::new();
    for block in blocks {
        let entry = (0..goal.palette.len())
            .find(|entry| !taken.contains(entry) && goal.palette[*entry] == *block)
            .unwrap_or_else(|| panic!("the palette offers no {block:?} as it is"));
        taken.push(entry);
    }
    taken
}

/// Does a build task with real clicks: Add on each palette entry of a right answer, in
/// order, then "Check my handler"; returns the panel once the card says it passed.
fn do_build(page: &LabPage, lesson: &Lesson, step: usize, goal: &BuildGoal) -> Card {
    for (position, entry) in palette_entries(goal, &right_answer(goal)).into_iter().enumerate() {
        page.tap(&format!("[data-testid=build-add-{entry}]"));
        page.wait_in_page(
            &format!("block {position} placed"),
            &format!("document.querySelector('[data-testid=build-block-{position}]') !== null"),
        );
    }
    page.tap("[data-testid=build-check]");
    card_when(page, lesson, step, "card.dataset.state === 'passed'")
}

/// Does the task shown: reads the core's reason on its card and does what it says, until the
/// card says it passed; returns that panel.
fn do_task(page: &LabPage, lesson: &Lesson, step: usize, shown: Card) -> Card {
    let CourseStep::Task(task) = &lesson.steps[step] else { unreachable!() };
    if let Goal::Build(goal) = &task.goal {
        assert_eq!(shown.reason.as_deref(), Some("invalid"), "{}: an empty handler", lesson.id);
        return do_build(page, lesson, step, goal);
    }
    let scenario = lesson.scenario().unwrap();
    let mut card = shown;
    for _ in 0..TASK_ACTIONS_MAX {
        if card.state == "passed" {
            return card;
        }
        assert!(!card.next, "{} step {step}: Next before the task is done", lesson.id);
        let reason = card.reason.clone().unwrap_or_default();
        card = match reason.as_str() {
            "patterns-naive" => {
                let target = scenario.with_mode(PatternMode::Naive).patterns;
                switch_to(page, lesson, step, card, target)
            }
            "patterns-idempotent" => {
                let target = scenario.with_mode(PatternMode::Idempotent).patterns;
                switch_to(page, lesson, step, card, target)
            }
            "not-one-switch" => {
                let Goal::FixBySwitching { pattern, .. } = task.goal else {
                    panic!("{}: a switch asked by a {:?} task", lesson.id, task.goal)
                };
                switch_to(page, lesson, step, card, fix_target(lesson, task, pattern))
            }
            "no-fault" | "too-few-faults" => {
                // Go there, then the fault button of the task's class on the waiting item
                // (the tap waits for it); the card's reason moves on. A break task offers Go
                // there only after a try: first To the end (unless the run is there), which
                // shows the hint too.
                if matches!(task.goal, Goal::Break { .. })
                    && !page.exists("[data-testid=course-go-there]")
                {
                    page.tap("[data-testid=run-to-end]");
                    wait_text(page, "[data-testid=task-hint]", &words(&task.hint.en));
                }
                page.tap("[data-testid=course-go-there]");
                page.tap(&format!("[data-fault={}]", fault_class(task)));
                card_when(page, lesson, step, &format!("card.dataset.reason !== {reason:?}"))
            }
            "not-at-end" | "not-broken" => {
                page.tap("[data-testid=run-to-end]");
                let ended = "document.querySelector('[data-testid=current-step]').innerText.includes('run ended')";
                card_when(page, lesson, step, ended)
            }
            other => panic!("{} step {step}: the task says {other:?}: {}", lesson.id, card.text),
        };
    }
    panic!("{} step {step}: the task is not done after {TASK_ACTIONS_MAX} actions", lesson.id);
}

/// Completes `lesson` from the course list and back to it; returns the clicks it took.
fn complete(page: &LabPage, index: usize, lesson: &Lesson) -> usize {
    let before = page.clicks();
    page.tap(&format!("[data-testid=course-open-{}]", lesson.id));
    let mut card = card_at(page, lesson, 0);
    let position = format!("Lesson {} of {}", index + 1, course().lessons.len());
    for part in [&position, &lesson.title.en, &lesson.intro.en] {
        assert!(card.panel.contains(&words(part)), "the panel lacks {part:?}: {:?}", card.panel);
    }
    for (step, course_step) in lesson.steps.iter().enumerate() {
        card = match course_step {
            CourseStep::Narration(narration) => {
                if card.state == "waiting" {
                    assert!(!card.next, "{} step {step}: Next before the point", lesson.id);
                    page.tap("[data-testid=course-go-there]");
                    card = card_when(page, lesson, step, "card.dataset.state === 'reached'");
                }
                assert!(card.text.contains(&words(&narration.text.en)), "{:?}", card.text);
                card
            }
            CourseStep::Prediction(_) => answer_right(page, lesson, step, &card),
            CourseStep::Task(_) => do_task(page, lesson, step, card),
        };
        assert!(card.next, "{} step {step}: done, and Next disabled", lesson.id);
        if PHOTOGRAPHED.contains(&(lesson.id.as_str(), step)) {
            photograph(page, lesson);
        }
        page.tap("[data-testid=course-next]");
        card = card_at(page, lesson, step + 1);
    }
    assert!(card.text.contains("Lesson done"), "{:?}", card.text);
    page.tap("[data-testid=course-list]");
    page.clicks() - before
}

/// The course list's progress of every lesson: `(id, done, progress text)`, once it shows.
fn list_progress(page: &LabPage) -> Vec<(String, bool, String)> {
    let json = page.wait_for_value(
        "the course list shows",
        "document.querySelector('[data-testid=course]') !== null && JSON.stringify(Array.from( \
           document.querySelectorAll('.course-lesson'), lesson => [lesson.dataset.testid.replace('course-lesson-', ''), \
           lesson.dataset.done === 'true', lesson.querySelector('.course-progress').innerText]))",
    );
    serde_json::from_str(json.as_str().unwrap_or("[]")).expect("the list's probe")
}

/// Completes the lessons of the course at `positions` from its list, in a fresh page at
/// 1280x720; prints and checks the clicks each took, and that the list then shows exactly
/// them done.
fn complete_lessons(positions: std::ops::Range<usize>) {
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    let titles: Vec<String> =
        course().lessons.iter().map(|lesson| lesson.title.en.clone()).collect();
    assert_eq!(page.texts(".course-lesson h3"), titles, "the lessons in order");
    let mut counts = Vec::new();
    for index in positions.clone() {
        let lesson = &course().lessons[index];
        let started = std::time::Instant::now();
        let clicks = complete(&page, index, lesson);
        counts.push((lesson.id.as_str(), clicks, started.elapsed()));
    }
    println!("clicks per lesson (opening it from the list to back on the list):");
    for (id, clicks, took) in &counts {
        println!("  {id:<22} {clicks:>2} clicks  ({:.1} s)", took.as_secs_f64());
    }
    for (id, clicks, _) in &counts {
        assert!(*clicks <= CLICKS_MAX, "lesson {id} took {clicks} clicks, more than {CLICKS_MAX}");
    }
    for (index, (id, done, progress)) in list_progress(&page).into_iter().enumerate() {
        let steps = course().lessons[index].steps.len();
        let expected = match positions.contains(&index) {
            true => format!("{steps} of {steps} steps done"),
            false => format!("0 of {steps} steps done"),
        };
        assert_eq!(done, positions.contains(&index), "{id} done");
        assert!(progress.starts_with(&expected), "{id}: {progress:?}");
    }
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// Saves `course-<lesson>.png` at 1280x720, with the panel and the diagram's lanes on screen.
fn photograph(page: &LabPage, lesson: &Lesson) {
    page.evaluate("window.scrollTo(0, 0), true");
    page.wait_in_view("[data-testid=lesson-panel] [data-testid=course-next]");
    page.wait_in_view("[data-testid=lesson-panel] [data-testid=course-step]");
    page.wait_in_view(".diagram-box .lanes-head");
    page.screenshot(&format!("course-{}", lesson.id));
}

#[test]
fn the_first_half_of_the_course_is_completed_with_real_clicks_within_25_each() {
    complete_lessons(0..course().lessons.len().div_ceil(2));
}

#[test]
fn the_second_half_of_the_course_is_completed_with_real_clicks_within_25_each() {
    complete_lessons(course().lessons.len().div_ceil(2)..course().lessons.len());
}

#[test]
fn a_trainers_link_opens_a_lesson_at_a_step_and_a_bad_one_says_what_is_wrong() {
    let inbox = lesson("inbox");
    let task_step = inbox.steps.iter().position(|step| matches!(step, CourseStep::Task(_)));
    let task_step = task_step.expect("the inbox lesson has a task");
    let page = LabPage::open_course(&format!("#lesson=inbox&at={task_step}"));
    let card = card_at(&page, inbox, task_step);
    // An old link (`at`, from 0) still reads; the address then counts from 1, as the panel.
    let expected = format!("lesson=inbox&step={}", task_step + 1);
    assert_eq!(page.location().split_once('#').map(|(_, f)| f), Some(expected.as_str()));
    // The steps before the link's are visited, none passed.
    let marks = page.evaluate(
        "JSON.stringify(Array.from(document.querySelectorAll('.lesson-step'), mark => mark.dataset.state))",
    );
    let marks: Vec<String> = serde_json::from_str(marks.as_str().unwrap()).unwrap();
    assert!(marks[..=task_step].iter().all(|mark| mark == "visited"), "{marks:?}");

    // An unfinished task: the core's reason for the learner's run and no Next; no hint
    // before the learner has tried.
    let CourseStep::Task(task) = &inbox.steps[task_step] else { unreachable!() };
    let scenario = inbox.scenario().unwrap().with_mode(inbox.mode_at(task_step));
    let fresh = Simulation::new(scenario, 0).unwrap().trace();
    let TaskVerdict::NotYet(reason) = task.check(inbox, &fresh).unwrap() else {
        panic!("the task passes untouched")
    };
    assert!(matches!(reason, NotYet::NotOneSwitch { .. }), "{reason:?}");
    assert_eq!(card.state, "not-yet");
    assert!(card.text.contains(&words(&reason.text(Language::En))), "{:?}", card.text);
    assert!(!reason.text(Language::En).contains("others naive"), "{reason:?}");
    assert!(!card.text.contains(&words(&task.hint.en)), "a hint before a try: {:?}", card.text);
    assert!(!card.next, "Next before the task is done");
    assert_accessible(&page, "a lesson's task, wide");
    // Half done: the pattern switched, the run not at its end; the core says so.
    page.tap("[data-testid=pattern-P4]");
    let card = card_when(&page, inbox, task_step, "card.dataset.reason === 'not-at-end'");
    assert!(card.text.contains(&words(&NotYet::NotAtEnd.text(Language::En))), "{:?}", card.text);
    assert!(!card.text.contains(&words(&task.hint.en)), "a hint before a try: {:?}", card.text);
    assert!(!card.next, "Next before the run's end");
    // A wrong try: P1 switched too, run to its end; now the hint shows.
    page.tap("[data-testid=pattern-P1]");
    card_when(&page, inbox, task_step, "card.dataset.reason === 'not-one-switch'");
    page.tap("[data-testid=run-to-end]");
    let card = card_when(
        &page,
        inbox,
        task_step,
        "card.dataset.reason === 'not-one-switch' && !!card.querySelector('[data-testid=task-hint]')",
    );
    assert!(card.text.contains(&words(&task.hint.en)), "{:?}", card.text);
    assert!(!card.next, "Next after a wrong try");
    page.click("[data-testid=course-next]");
    card_at(&page, inbox, task_step);

    // Back to the prediction, visited but not passed: a wrong answer shows "not quite" and
    // the hint, never the explanation, and Next stays off.
    for _ in 1..task_step {
        page.tap("[data-testid=course-back]");
    }
    let card = card_at(&page, inbox, 1);
    let CourseStep::Prediction(prediction) = &inbox.steps[1] else { panic!("step 1 predicts") };
    let Actual::Number(right) = prediction.actual(inbox).unwrap() else { panic!("a number") };
    assert!(!card.next, "a visited prediction is not passed");
    page.type_into("[data-testid=prediction-number]", &(right + 1).to_string());
    page.tap("[data-testid=prediction-check]");
    let card = card_when(&page, inbox, 1, "card.dataset.state === 'wrong'");
    assert!(card.text.contains("Not quite"), "{:?}", card.text);
    assert!(card.text.contains(&words(&prediction.hint.en)), "{:?}", card.text);
    assert!(!card.panel.contains(&words(&prediction.explain.en)), "the explanation shows");
    assert!(!card.next, "Next after a wrong answer");
    page.click("[data-testid=course-next]");
    card_at(&page, inbox, 1);

    // The course list: the lesson begun, nothing passed, Resume where the learner was.
    page.tap("[data-testid=course-list]");
    let steps = inbox.steps.len();
    let progress = format!("0 of {steps} steps done");
    wait_text(&page, "[data-testid=course-progress-inbox]", &progress);
    assert_eq!(text_of(&page, "[data-testid=course-open-inbox]"), "Resume");
    assert_eq!(page.location(), page.url, "the course has no fragment");

    // Bad links, pasted and loaded: the core's words in the banner, the progress kept.
    for (fragment, expected) in [
        ("#lesson=nope", CourseLinkError::UnknownLesson { id: "nope".to_owned() }),
        (
            &format!("#lesson=inbox&step={}", steps + 1) as &str,
            CourseLinkError::StepOutOfRange { lesson: "inbox".to_owned(), step: steps + 1, steps },
        ),
    ] {
        let text = expected.text(Language::En);
        page.evaluate(&format!("location.hash = {fragment:?}, true"));
        wait_text(&page, "[data-testid=error]", &text);
        page.reload(false);
        wait_text(&page, "[data-testid=error]", &text);
        assert!(page.exists("[data-testid=course]"), "the course shows under the banner");
        assert_eq!(text_of(&page, "[data-testid=course-progress-inbox]"), progress);
        assert_eq!(text_of(&page, "[data-testid=course-open-inbox]"), "Resume");
        page.tap("[data-testid=error] .dismiss");
    }

    // Resume opens the lesson where the learner was.
    page.tap("[data-testid=course-open-inbox]");
    card_at(&page, inbox, 1);
    page.tap("[data-testid=course-list]");

    // The free lab is one click away, and the course one click back.
    page.screenshot("course-list");
    page.tap("[data-testid=free-lab]");
    page.wait_in_page("the lab shows", "document.querySelector('[data-testid=scenario]') !== null");
    page.tap("[data-testid=to-course]");
    page.wait_in_page(
        "the course shows",
        "document.querySelector('[data-testid=course]') !== null",
    );

    // In Russian: the course's own texts and the page's labels.
    page.tap("[data-testid=lang-ru]");
    page.wait_in_page("the page is Russian", "document.documentElement.lang === 'ru'");
    let titles: Vec<String> =
        course().lessons.iter().map(|lesson| lesson.title.ru.clone()).collect();
    assert_eq!(page.texts(".course-lesson h3"), titles);
    assert_eq!(text_of(&page, "#course-heading"), Language::Ru.words().lessons.ui_course_heading);
    assert_eq!(
        text_of(&page, "[data-testid=course-open-inbox]"),
        Language::Ru.words().lessons.ui_course_resume
    );
    page.screenshot("course-list-ru");
    assert_accessible(&page, "the course, Russian");
    page.tap("[data-testid=lang-en]");

    // On a phone: nothing wider than the screen, on the list and in a lesson.
    page.set_viewport(390, 844, true);
    assert_narrow_fits(&page);
    page.tap("[data-testid=course-open-reservation-ledger]");
    card_at(&page, lesson("reservation-ledger"), 0);
    assert_narrow_fits(&page);
    page.screenshot("course-lesson-phone");
    assert_accessible(&page, "a lesson on a phone");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// axe-core finds no WCAG 2 A or AA violation in the page as it is.
fn assert_accessible(page: &LabPage, what: &str) {
    let violations = page.axe_violations();
    assert!(violations.is_empty(), "{what}: {violations:#?}");
}

/// Nothing sticks out to the right of a 390 px screen.
fn assert_narrow_fits(page: &LabPage) {
    assert_eq!(page.overflow().0, 0, "the page is wider than the phone");
    let wide = page.evaluate(
        "Array.from(document.querySelectorAll('.lab *')).filter(element => { \
           const box = element.getBoundingClientRect(); \
           return box.width > 0 && box.right > window.innerWidth + 1 && !element.closest('.visually-hidden'); \
         }).map(element => element.className || element.tagName).slice(0, 5).join(', ')",
    );
    assert_eq!(wide, "", "elements wider than the phone");
}
