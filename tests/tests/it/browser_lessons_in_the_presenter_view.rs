//! A lesson a trainer can project (#34): every lesson's narrated points opened by a trainer's
//! link with `presenter=1` at 1280x720, as on a projector. At each point the lesson's
//! narration, the diagram's current step and (where the step has them) the invariant it broke
//! and the rows it changed are all inside the viewport, the page does not scroll, and the
//! diagram's labels are 20 px or more. Then the repros of the issue: the presenter view in a
//! lesson (every lane on screen, the tables reachable, `p` writes the address), diagram text
//! of 14 px or more without it at 1280 px, the lesson still usable on a 390x844 phone given a
//! presenter link, a link after a finished rehearsal (the run at the narration's point, not an
//! empty one), one numbering for links and the panel (`step` from 1; old `at` from 0 still
//! reads; the panel's last step opens), and Go there bringing the point into a 720 px window.

use idempotency_lab::course::{Course, CourseStep, Goal, Lesson, Narration, Point};
use idempotency_lab::sim::Simulation;
use idempotency_lab::view::MomentKind;
use idempotency_lab_tests::browser::LabPage;

fn course() -> &'static Course {
    Course::built_in().expect("the built-in course")
}

/// What the step at `point` of a fresh run of `lesson` in the twin of its step `step` shows:
/// the run's cursor there, and the selectors of the invariants the step broke and of the rows
/// it changed. `None` if a fresh run never gets there (the learner's own fault does).
fn expected_at(lesson: &Lesson, step: usize, point: Point) -> Option<(usize, Vec<String>)> {
    let scenario = lesson.scenario().unwrap().with_mode(lesson.mode_at(step));
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    simulation.run_to_end();
    let at = point.resolve(&simulation)?;
    let mut selectors = Vec::new();
    if let Some(shown) = at.checked_sub(1).and_then(|index| simulation.steps().get(index)) {
        for violation in &shown.new_violations {
            selectors.push(format!("[data-testid=invariant-{}]", violation.invariant));
        }
        for change in &shown.row_changes {
            selectors.push(format!("[data-testid=table-{}] tr.changed", change.table.as_str()));
        }
    }
    Some((at, selectors))
}

/// Waits until the page shows step `step` of `lesson` in its panel.
fn wait_for_step(page: &LabPage, lesson: &Lesson, step: usize) {
    page.wait_in_page(
        &format!("{} at step {}", lesson.id, step + 1),
        &format!(
            "document.querySelector('[data-testid=lesson-panel][data-lesson=\"{}\"]')?.dataset.courseStep === '{step}'",
            lesson.id
        ),
    );
}

/// The page shows `at` steps of its run.
fn wait_for_cursor(page: &LabPage, at: usize) {
    page.wait_in_page(
        &format!("the run at step {at}"),
        &format!(
            "/^\\D*{at} \\//.test(document.querySelector('[data-testid=position]')?.textContent ?? '')"
        ),
    );
}

/// Every `selectors` inside the viewport (and its scrolling boxes), the page unscrolled, the
/// diagram's labels 20 px or more.
fn expect_on_one_screen(page: &LabPage, what: &str, selectors: &[String]) {
    for selector in selectors {
        page.wait_in_view(selector);
    }
    assert_eq!(page.overflow(), (0, 0), "{what}: the page scrolls");
    if let Some(smallest) = page.smallest_text_px(".diagram .label") {
        assert!(smallest >= 20.0, "{what}: diagram labels of {smallest:.1} px");
    }
}

/// The index (from 0) of the first step of `lesson` that narrates a point `wanted` accepts, and
/// that narration: the tests follow the course file, not a step number written down here.
fn narration_at(lesson: &Lesson, wanted: impl Fn(&Point) -> bool) -> (usize, &Narration) {
    lesson
        .steps
        .iter()
        .enumerate()
        .find_map(|(index, step)| match step {
            CourseStep::Narration(narration) if wanted(&narration.at) => Some((index, narration)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{} narrates no such point", lesson.id))
}

#[test]
fn every_narrated_point_of_every_lesson_is_on_one_projected_screen() {
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    let (mut checked, mut learners_own) = (0, Vec::new());
    for lesson in &course().lessons {
        for (step, course_step) in lesson.steps.iter().enumerate() {
            let CourseStep::Narration(narration) = course_step else { continue };
            let Some((at, mut selectors)) = expected_at(lesson, step, narration.at) else {
                learners_own.push(format!("{} step {}", lesson.id, step + 1));
                continue;
            };
            let link = format!("#lesson={}&step={}&presenter=1", lesson.id, step + 1);
            page.evaluate(&format!("location.hash = {link:?}, true"));
            wait_for_step(&page, lesson, step);
            wait_for_cursor(&page, at);
            assert!(page.exists(".lab.presenter"), "{link}: the presenter view");
            selectors.insert(0, "[data-testid=narration-text]".to_owned());
            if at > 0 {
                selectors.push(".diagram .step.current".to_owned());
            }
            expect_on_one_screen(&page, &link, &selectors);
            if narration.at == Point::Moment(MomentKind::StaleCompletion) {
                // The fencing token's refusal, as a room sees it.
                page.screenshot("lesson-presenter-stale-completion");
            }
            checked += 1;
        }
    }
    page.screenshot("lesson-presenter-last-narration");
    assert!(checked >= course().lessons.len(), "only {checked} narrated points checked");
    // The points only the learner's own fault reaches (none on a fresh run) are named.
    eprintln!(
        "checked {checked} narrated points; reached by the learner's fault: {learners_own:?}"
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// #34 item 1: `#lesson=reservation-ledger&at=2` (its I2 break, now a later step), `p`, Go there showed the diagram to x 792,
/// the Consumer lanes and "I2 violated" behind a scrollbar, the tables out of reach.
#[test]
fn a_lesson_in_the_presenter_view_shows_every_lane_the_invariant_and_the_tables() {
    let lesson = course().lesson("reservation-ledger").unwrap();
    let (index, narration) = narration_at(lesson, |point| matches!(point, Point::Break(_)));
    let (at, mut selectors) =
        expected_at(lesson, index, narration.at).expect("a fresh run gets there");
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    page.evaluate(&format!("location.hash = '#lesson=reservation-ledger&at={index}', true"));
    wait_for_step(&page, lesson, index);
    // Outside the presenter view the diagram's smallest text is 14 px or more at 1280 px.
    wait_for_cursor(&page, at);
    let smallest = page.smallest_text_px(".diagram text").expect("the diagram has text");
    assert!(smallest >= 14.0, "the lesson's diagram text is {smallest:.1} px, under 14 px");
    assert!(!page.location().contains("presenter"), "{}", page.location());

    // `p` switches the presenter view on, and the address says so.
    page.press_key("p");
    page.wait_until("the presenter view", "!!document.querySelector('.lab.presenter')");
    page.wait_until(
        "the address carries presenter=1",
        &format!("location.hash === '#lesson=reservation-ledger&step={}&presenter=1'", index + 1),
    );
    // Every lane's name is on screen, none behind a scrollbar.
    let lanes = page.evaluate(
        "JSON.stringify((() => { const box = document.querySelector('.diagram-scroll'); \
         return [box.scrollWidth - box.clientWidth, Math.max(...Array.from(document.querySelectorAll('.diagram .lane-name'), \
         name => name.getBoundingClientRect().right))]; })())",
    );
    let (hidden_px, rightmost): (f64, f64) = serde_json::from_str(lanes.as_str().unwrap()).unwrap();
    assert!(hidden_px <= 1.0, "the diagram scrolls sideways by {hidden_px} px");
    assert!(rightmost <= 1280.0, "a lane's name ends at x {rightmost}");
    selectors.insert(0, "[data-testid=narration-text]".to_owned());
    selectors.push(".diagram .step.current".to_owned());
    selectors.push(".diagram .step.current .violation".to_owned());
    expect_on_one_screen(&page, "reservation-ledger step 3", &selectors);
    page.screenshot("lesson-presenter-1280x720-en");

    // The same in Russian.
    page.click("[data-testid=lang-ru]");
    page.wait_until("the page is Russian", "document.documentElement.lang === 'ru'");
    expect_on_one_screen(&page, "reservation-ledger step 3, ru", &selectors);
    page.screenshot("lesson-presenter-1280x720-ru");
    page.click("[data-testid=lang-en]");

    // `p` again: off, and the address drops it.
    page.press_key("p");
    page.wait_until("the presenter view is off", "!document.querySelector('.lab.presenter')");
    page.wait_until(
        "the address drops presenter",
        &format!("location.hash === '#lesson=reservation-ledger&step={}'", index + 1),
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// A trainer's presenter link opened on a phone: the lesson as on a phone, its panel and its
/// Next reachable, nothing wider than the screen.
#[test]
fn a_presenter_link_on_a_phone_still_gives_a_usable_lesson() {
    let page = LabPage::open_course("");
    page.set_viewport(390, 844, true);
    page.evaluate("location.hash = '#lesson=inbox&step=1&presenter=1', true");
    wait_for_step(&page, course().lesson("inbox").unwrap(), 0);
    assert_eq!(page.overflow().0, 0, "the page is wider than the phone");
    page.evaluate("document.querySelector('[data-testid=course-step]').scrollIntoView(), true");
    page.wait_in_view("[data-testid=course-step]");
    page.evaluate("document.querySelector('[data-testid=course-next]').scrollIntoView(), true");
    page.wait_in_view("[data-testid=course-next]");
    // The panel holds its card and its buttons: it is not squeezed under them.
    let inside = page.evaluate(
        "(() => { const panel = document.querySelector('.lesson-panel').getBoundingClientRect();          const next = document.querySelector('[data-testid=course-next]').getBoundingClientRect();          const card = document.querySelector('[data-testid=course-step]').getBoundingClientRect();          return card.top >= panel.top && next.bottom <= panel.bottom; })()",
    );
    assert_eq!(inside, serde_json::Value::Bool(true), "the panel does not hold its card");
    page.screenshot("lesson-presenter-phone-390x844");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// #34 item 5: after a finished rehearsal, `#lesson=reservation-ledger&at=2` (its I2 break) showed the
/// narration over an empty run at "step 0 / 0" with no Go there.
#[test]
fn a_link_after_a_finished_rehearsal_opens_the_run_at_its_point() {
    let lesson = course().lesson("reservation-ledger").unwrap();
    let (index, narration) = narration_at(lesson, |point| matches!(point, Point::Break(_)));
    let (at, _) = expected_at(lesson, index, narration.at).expect("a fresh run gets there");
    assert!(at > 0, "the narration's point is past the start");
    let page = LabPage::open_course("");
    // The stored progress of a learner who finished the lesson.
    let steps: Vec<usize> = (0..lesson.steps.len()).collect();
    let progress = serde_json::json!({
        "lessons": { "reservation-ledger": { "passed": steps, "visited": steps, "done": true } },
        "current": null,
        "free_lab": false,
    });
    page.evaluate(&format!(
        "localStorage.setItem('idempotency-lab.course', {:?}), true",
        progress.to_string()
    ));
    page.reload(false);
    page.wait_in_page("the course", "document.querySelector('[data-testid=course-lesson-reservation-ledger][data-done=true]') !== null");
    page.evaluate(&format!("location.hash = '#lesson=reservation-ledger&at={index}', true"));
    wait_for_step(&page, lesson, index);
    wait_for_cursor(&page, at);
    assert!(page.exists("[data-testid=narration-text]"), "the narration shows");
    // Loaded as a page too, not only pasted.
    page.reload(false);
    wait_for_step(&page, lesson, index);
    wait_for_cursor(&page, at);
    assert!(page.exists("[data-testid=narration-text]"), "the narration shows on load");
    let step = index + 1;
    assert!(page.text("[data-testid=course-step]").contains(&format!("Step {step} of")));
    let expected = format!("lesson=reservation-ledger&step={step}");
    assert_eq!(page.location().split_once('#').map(|(_, f)| f), Some(expected.as_str()));
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// #34 item 5: one numbering. `step` counts from 1 as the panel does; the panel's last step of
/// the inbox lesson ("Step 4 of 4") opens; an old link (`at`, from 0) opens the same step.
#[test]
fn links_count_steps_from_1_as_the_panel_and_old_links_still_read() {
    let inbox = course().lesson("inbox").unwrap();
    let last = inbox.steps.len();
    let page = LabPage::open_course(&format!("#lesson=inbox&step={last}"));
    wait_for_step(&page, inbox, last - 1);
    assert!(page.text("[data-testid=course-step]").contains(&format!("Step {last} of {last}")));
    page.evaluate("location.hash = '#lesson=inbox&step=3', true");
    wait_for_step(&page, inbox, 2);
    assert!(page.text("[data-testid=course-step]").contains(&format!("Step 3 of {last}")));
    page.evaluate("location.hash = '#lesson=inbox&at=1', true");
    wait_for_step(&page, inbox, 1);
    assert!(page.text("[data-testid=course-step]").contains(&format!("Step 2 of {last}")));
    page.wait_until("the address counts from 1", "location.hash === '#lesson=inbox&step=2'");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// #34 item 2's navigation: after `#lesson=inbox&at=3` the current step sat at y 805 in a
/// 720 px window. Go there (and a link) bring the step into view, in and out of the presenter
/// view.
#[test]
fn go_there_brings_the_point_into_a_720_px_window() {
    let inbox = course().lesson("inbox").unwrap();
    let (index, narration) = narration_at(inbox, |point| matches!(point, Point::Moment(_)));
    let (at, _) = expected_at(inbox, index, narration.at).expect("a fresh run gets there");
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    page.evaluate(&format!("location.hash = '#lesson=inbox&at={index}', true"));
    wait_for_step(&page, inbox, index);
    wait_for_cursor(&page, at);
    page.wait_in_view(".diagram .step.current");
    // Back to the start of the run, then Go there from the card.
    page.click("[data-testid=reset]");
    wait_for_cursor(&page, 0);
    page.evaluate("window.scrollTo(0, 0), true");
    if page.exists("[data-testid=course-go-there]") {
        page.click("[data-testid=course-go-there]");
        wait_for_cursor(&page, at);
        page.wait_in_view(".diagram .step.current");
    }
    page.screenshot("lesson-go-there-1280x720");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// #34 item 2's navigation: in lesson 10 the F2 button the task's hint asks for sat at y 784 in
/// a 720 px window. Every task that offers a place to start at a fault: its link, and its Go
/// there, bring that fault's button into the viewport, with and without the presenter view
/// (with it, on one screen).
#[test]
fn a_tasks_go_there_brings_the_fault_button_it_asks_for_into_view() {
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    let mut checked = 0;
    for lesson in &course().lessons {
        for (step, course_step) in lesson.steps.iter().enumerate() {
            let CourseStep::Task(task) = course_step else { continue };
            let Some(Point::Fault(class)) = task.go_to else { continue };
            let button = format!(".pending [data-fault={class}]");
            for presenter in ["", "&presenter=1"] {
                page.evaluate("window.scrollTo(0, 0), true");
                let link = format!("#lesson={}&step={}{presenter}", lesson.id, step + 1);
                page.evaluate(&format!("location.hash = {link:?}, true"));
                wait_for_step(&page, lesson, step);
                page.wait_in_view(&button);
                page.evaluate("window.scrollTo(0, 0), true");
                if matches!(task.goal, Goal::Break { .. }) {
                    // A break task offers Go there only after a try.
                    page.click("[data-testid=run-to-end]");
                    page.wait_until(
                        "the hint after a try",
                        "document.querySelector('[data-testid=course-go-there]') !== null",
                    );
                }
                page.click("[data-testid=course-go-there]");
                page.wait_in_view(&button);
                if !presenter.is_empty() {
                    assert_eq!(page.overflow(), (0, 0), "{link}: the page scrolls");
                    page.wait_in_view("[data-testid=course-step]");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no task offers a place to start at a fault");
    page.screenshot("lesson-task-fault-button-presenter");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

/// #34 item 2: a narration whose point the run has already passed (the learner ran the task
/// to its end, then pressed Next) brings that point's step of the diagram into view, with the
/// narration, in the presenter view and out of it.
#[test]
fn a_narration_whose_point_the_run_has_passed_brings_that_step_into_view() {
    let lesson = course().lesson("inbox").expect("the inbox lesson");
    let (narrated, narration) = narration_at(lesson, |point| matches!(point, Point::Moment(_)));
    let task = narrated - 1;
    assert!(matches!(lesson.steps[task], CourseStep::Task(_)), "a task before the narration");
    let (at, _) = expected_at(lesson, narrated, narration.at).expect("a fresh run reaches it");
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    for presenter in ["&presenter=1", ""] {
        let link = format!("#lesson={}&step={}{presenter}", lesson.id, task + 1);
        page.evaluate(&format!("location.hash = {link:?}, true"));
        wait_for_step(&page, lesson, task);
        page.click("[data-testid=pattern-P4]");
        page.wait_until(
            "P4 switched",
            "document.querySelector('[data-testid=pattern-P4]').dataset.mode === 'idempotent'",
        );
        page.click("[data-testid=run-to-end]");
        page.wait_until(
            "the task passed",
            "document.querySelector('[data-testid=course-next]')?.disabled === false",
        );
        page.evaluate("window.scrollTo(0, 0), true");
        page.click("[data-testid=course-next]");
        wait_for_step(&page, lesson, narrated);
        let position = page.text("[data-testid=position]");
        let cursor: usize = position
            .split_whitespace()
            .find_map(|word| word.parse().ok())
            .unwrap_or_else(|| panic!("{link}: no cursor in {position:?}"));
        assert!(cursor > at, "{link}: the run is past the point ({cursor} > {at})");
        page.wait_in_view(&format!(".diagram g[data-step=\"{at}\"]"));
        page.wait_in_view("[data-testid=narration-text]");
        if !presenter.is_empty() {
            assert_eq!(page.overflow(), (0, 0), "{link}: the page scrolls");
        }
    }
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
