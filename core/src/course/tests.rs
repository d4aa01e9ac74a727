//! The built-in course file, the validation of course files, and every judge (predictions,
//! points, the three kinds of task) against runs that pass and runs that do not; the build
//! task in `tests/build.rs`.

mod build;

use super::*;
use crate::faults::FaultClass;
use crate::sim::{Simulation, StopReason, Trace};

fn course() -> &'static Course {
    match Course::built_in() {
        Ok(course) => course,
        Err(error) => panic!("the built-in course is refused: {error}"),
    }
}

fn lesson(id: &str) -> &'static Lesson {
    course().lesson(id).unwrap_or_else(|| panic!("no lesson {id}"))
}

/// The learner's run of `lesson`: its focus patterns in `mode` with `switched` turned
/// idempotent, a fault of each class in `faults` placed at the first step it is offered (one
/// after the other), then run to the end if `to_end`.
fn learner_run(
    lesson: &Lesson,
    mode: PatternMode,
    switched: &[Pattern],
    faults: &[FaultClass],
    to_end: bool,
) -> Trace {
    let mut scenario = lesson.scenario().unwrap().with_mode(mode);
    for pattern in switched {
        scenario.patterns = scenario.patterns.with(*pattern, PatternMode::Idempotent);
    }
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    for class in faults {
        loop {
            let offered = simulation
                .world()
                .enabled_fault_actions()
                .into_iter()
                .find(|action| action.fault_class() == Some(*class));
            if let Some(action) = offered {
                simulation.step_with(action).unwrap();
                break;
            }
            assert!(simulation.step().is_some(), "{class:?} is never offered in {}", lesson.id);
        }
    }
    if to_end {
        simulation.run_to_end();
    }
    simulation.trace()
}

fn task_at(lesson: &Lesson, index: usize) -> &Task {
    match &lesson.steps[index] {
        CourseStep::Task(task) => task,
        other => panic!("step {index} of {} is not a task: {other:?}", lesson.id),
    }
}

fn verdict(lesson: &Lesson, index: usize, trace: &Trace) -> TaskVerdict {
    task_at(lesson, index).check(lesson, trace).unwrap()
}

fn not_yet(reason: NotYet) -> TaskVerdict {
    TaskVerdict::NotYet(reason)
}

#[test]
fn the_course_starts_with_the_articles_four_patterns_in_its_order_then_goes_beyond() {
    let ids: Vec<_> =
        course().lessons.iter().map(|l| (l.id.as_str(), l.scenario.as_str())).collect();
    assert_eq!(
        ids,
        [
            ("reservation-ledger", "p1-stock-reservation"),
            ("mark-paid", "p2-order-state-machine"),
            ("idempotency-key", "p3-idempotency-key"),
            ("inbox", "p4-inbox-consumer"),
            ("build-consumer", "p4-inbox-consumer"),
            ("build-mark-paid", "p2-order-state-machine"),
            ("lease-takeover", "f08-api-crash"),
            ("fencing", "p3-slow-request"),
            ("fingerprint", "f07-key-reuse"),
            ("retention", "f10-duplicate-after-retention"),
            ("outbox-relay", "f12-relay-crash"),
            ("races", "f04-concurrent-delivery"),
            ("crash-before-commit", "f03-crash-before-commit"),
            ("new-key", "f11-retry-with-new-key"),
        ]
    );
}

fn texts(lesson: &Lesson) -> Vec<(&'static str, &Localized)> {
    let mut all = vec![("title", &lesson.title), ("intro", &lesson.intro)];
    for step in &lesson.steps {
        match step {
            CourseStep::Narration(n) => all.push(("narration", &n.text)),
            CourseStep::Prediction(p) => {
                all.extend([("question", &p.question), ("hint", &p.hint), ("explain", &p.explain)])
            }
            CourseStep::Task(t) => all.extend([("task", &t.text), ("task hint", &t.hint)]),
        }
    }
    all
}

/// Terms a Russian text keeps in Latin: the code's, SQL's and HTTP's names.
const LATIN_TERMS: &[&str] = &[
    "Idempotency-Key",
    "MarkPaid",
    "OrderPlaced",
    "Inbox",
    "inbox",
    "outbox",
    "Outbox",
    "Status",
    "Paid",
    "PaymentId",
    "paymentId",
    "return",
    "if",
    "fencing",
    "stock",
    "reservations",
    "orders",
    "charges",
    "paid",
    "pay-1",
    "message_id",
    "consumer",
    "order_id",
    "sku",
    "qty",
    "idempotency_keys",
    "SHA-256",
    "API",
    "POST",
    "seed",
    "ReserveStockConsumer",
    "placed",
];

/// The letters of `text` outside kept terms, and how many of them are Cyrillic.
fn letters_outside_terms(text: &str) -> (usize, usize) {
    let is_term = |word: &str| {
        word.is_ascii()
            && (LATIN_TERMS.contains(&word)
                || word.chars().all(|c| !c.is_ascii_lowercase())
                || word.contains('_'))
    };
    let words = text.split(|c: char| c.is_whitespace() || ",.:;()!?«»\"'=/".contains(c));
    let kept: String = words.filter(|word| !is_term(word)).collect();
    let letters = kept.chars().filter(|c| c.is_alphabetic()).count();
    let cyrillic = kept.chars().filter(|c| crate::words::is_cyrillic(*c)).count();
    (letters, cyrillic)
}

#[test]
fn every_text_is_english_in_english_and_russian_in_russian() {
    for lesson in &course().lessons {
        for (what, text) in texts(lesson) {
            let (_, cyrillic) = letters_outside_terms(&text.en);
            assert_eq!(cyrillic, 0, "{} {what}: English with Cyrillic: {}", lesson.id, text.en);
            let (letters, cyrillic) = letters_outside_terms(&text.ru);
            assert!(
                letters > 0 && cyrillic == letters,
                "{} {what}: Latin outside the kept terms: {}",
                lesson.id,
                text.ru
            );
        }
    }
}

#[test]
fn every_prediction_is_answered_by_the_run_as_pinned_here() {
    let mut answers = Vec::new();
    for lesson in &course().lessons {
        for (index, step) in lesson.steps.iter().enumerate() {
            if let CourseStep::Prediction(prediction) = step {
                answers.push(format!(
                    "{} {index}: {:?}",
                    lesson.id,
                    prediction.actual(lesson).unwrap()
                ));
            }
        }
    }
    expect_test::expect![[r#"
        reservation-ledger 1: Number(4)
        reservation-ledger 5: Number(7)
        mark-paid 1: Number(2)
        idempotency-key 1: Number(2)
        idempotency-key 4: Holds(true)
        inbox 1: Number(4)
        build-consumer 1: FirstBroken([I2])
        build-mark-paid 1: Holds(false)
        lease-takeover 0: Number(2)
        lease-takeover 2: Number(1)
        fencing 0: FirstBroken([I4])
        fencing 2: Number(1)
        fingerprint 0: FirstBroken([I4])
        fingerprint 2: Number(5)
        retention 0: Holds(false)
        retention 2: Number(7)
        outbox-relay 0: Number(2)
        races 0: Number(4)
        crash-before-commit 0: Holds(true)
        new-key 0: Number(2)
    "#]]
    .assert_eq(&(answers.join("\n") + "\n"));
}

#[test]
fn a_prediction_is_judged_right_only_for_the_runs_answer() {
    let ledger = lesson("reservation-ledger");
    let CourseStep::Prediction(apples) = &ledger.steps[1] else { panic!("not a prediction") };
    let judge = |guess| apples.judge(ledger, guess).unwrap();
    assert_eq!(judge(Guess::Number(4)), Verdict { correct: true, actual: Actual::Number(4) });
    assert!(!judge(Guess::Number(7)).correct);
    assert!(!judge(Guess::Holds(true)).correct, "a guess of the wrong shape is wrong");

    let fingerprint = lesson("fingerprint");
    let CourseStep::Prediction(first) = &fingerprint.steps[0] else { panic!("not a prediction") };
    let judge = |guess| first.judge(fingerprint, guess).unwrap().correct;
    assert!(judge(Guess::Invariant(Some(InvariantId::I4))));
    assert!(!judge(Guess::Invariant(Some(InvariantId::I2))));
    assert!(!judge(Guess::Invariant(None)));

    let crash = lesson("crash-before-commit");
    let CourseStep::Prediction(holds) = &crash.steps[0] else { panic!("not a prediction") };
    assert!(holds.judge(crash, Guess::Holds(true)).unwrap().correct);
    assert!(!holds.judge(crash, Guess::Holds(false)).unwrap().correct);
}

#[test]
fn every_narration_and_place_to_start_lies_in_its_lessons_run_as_pinned_here() {
    let mut points = Vec::new();
    for lesson in &course().lessons {
        for (index, step) in lesson.steps.iter().enumerate() {
            let point = match step {
                CourseStep::Narration(narration) => narration.at,
                CourseStep::Task(Task { go_to: Some(point), .. }) => *point,
                _ => continue,
            };
            let mode = lesson.mode_at(index);
            let run = lesson.reference_run(mode).unwrap();
            points.push(format!(
                "{} {index} {mode:?} {point:?}: {:?}",
                lesson.id,
                point.resolve(&run)
            ));
        }
    }
    expect_test::expect![[r#"
        reservation-ledger 0 Naive Start: Some(0)
        reservation-ledger 2 Naive Fault(F1): Some(18)
        reservation-ledger 3 Naive Break(I2): Some(34)
        reservation-ledger 6 Idempotent Moment(ReservationAlreadyPresent): Some(32)
        mark-paid 0 Naive Start: Some(0)
        mark-paid 2 Naive Break(I3): Some(37)
        mark-paid 4 Idempotent Moment(AlreadyPaid): Some(35)
        idempotency-key 0 Naive Start: Some(0)
        idempotency-key 2 Naive Break(I4): Some(34)
        idempotency-key 5 Idempotent Moment(ResponseReplayed): Some(35)
        inbox 0 Naive Start: Some(0)
        inbox 2 Naive Break(I2): Some(34)
        inbox 4 Idempotent Moment(InboxDuplicate): Some(33)
        build-consumer 0 Naive Start: Some(0)
        build-mark-paid 0 Naive Start: Some(0)
        lease-takeover 3 Idempotent Moment(LeaseTakeover): Some(62)
        fencing 3 Idempotent Moment(LeaseTakeover): Some(116)
        fencing 4 Idempotent Moment(StaleCompletion): Some(149)
        fingerprint 3 Idempotent Moment(KeyReused): Some(26)
        retention 1 Idempotent Break(I6): Some(44)
        outbox-relay 1 Naive Fault(F12): Some(9)
        outbox-relay 2 Naive Break(I2): Some(29)
        outbox-relay 4 Idempotent Moment(InboxDuplicate): Some(35)
        races 1 Naive Fault(F4): Some(10)
        races 2 Naive Break(I2): Some(25)
        races 4 Idempotent Moment(InboxDuplicate): Some(33)
        crash-before-commit 1 Naive End: Some(26)
        crash-before-commit 2 Naive Fault(F2): Some(25)
        crash-before-commit 3 Naive Fault(F2): Some(25)
        new-key 1 Idempotent End: Some(60)
        new-key 2 Idempotent Fault(F6): Some(0)
    "#]]
    .assert_eq(&(points.join("\n") + "\n"));
}

#[test]
fn a_point_is_where_the_run_reaches_it_and_nowhere_before() {
    let ledger = lesson("reservation-ledger");
    let mut simulation = Simulation::new(ledger.scenario().unwrap(), 0).unwrap();
    assert_eq!(Point::Start.resolve(&simulation), Some(0));
    assert_eq!(Point::End.resolve(&simulation), None, "a run that has not ended is not at its end");
    assert_eq!(Point::Break(InvariantId::I2).resolve(&simulation), None);
    simulation.run_to_end();
    let steps = simulation.steps().len();
    assert_eq!(Point::End.resolve(&simulation), Some(steps));
    let broke = Point::Break(InvariantId::I2).resolve(&simulation).unwrap();
    assert!(
        simulation.steps()[broke - 1].new_violations.iter().any(|v| v.invariant == InvariantId::I2)
    );
    assert!(simulation.steps().first(broke - 1).all(|s| s.new_violations.is_empty()));
    assert_eq!(Point::Break(InvariantId::I5).resolve(&simulation), None);
    let duplicate = Point::Fault(FaultClass::F1).resolve(&simulation).unwrap();
    let offered = |step| {
        simulation
            .world_after(step)
            .unwrap()
            .enabled_fault_actions()
            .iter()
            .any(|a| a.fault_class() == Some(FaultClass::F1))
    };
    assert!(offered(duplicate) && (0..duplicate).all(|step| !offered(step)));
}

#[test]
fn fixing_by_switching_passes_only_the_same_breaking_schedule_with_the_one_switch_run_to_its_end() {
    use PatternMode::{Idempotent, Naive};
    let inbox = lesson("inbox");
    let task = 3;
    assert_eq!(
        verdict(inbox, task, &learner_run(inbox, Naive, &[Pattern::P4], &[], true)),
        TaskVerdict::Passed
    );
    assert_eq!(
        verdict(inbox, task, &learner_run(inbox, Naive, &[], &[], true)),
        not_yet(NotYet::NotOneSwitch {
            pattern: Some(Pattern::P4),
            start: inbox.patterns(Naive).unwrap(),
            candidates: vec![Pattern::P4],
        })
    );
    assert_eq!(
        verdict(inbox, task, &learner_run(inbox, Naive, &[Pattern::P4], &[], false)),
        not_yet(NotYet::NotAtEnd)
    );
    // A trace of another lesson's scenario.
    let other = learner_run(lesson("races"), Idempotent, &[], &[], true);
    assert_eq!(verdict(inbox, task, &other), not_yet(NotYet::OtherScenario));

    // Any one pattern: the lease lesson needs P2, and P3 alone keeps charging twice.
    let lease = lesson("lease-takeover");
    assert_eq!(
        verdict(lease, 1, &learner_run(lease, Naive, &[Pattern::P2], &[], true)),
        TaskVerdict::Passed
    );
    assert_eq!(
        verdict(lease, 1, &learner_run(lease, Naive, &[Pattern::P3], &[], true)),
        not_yet(NotYet::Broken { invariant: InvariantId::I3 })
    );
    assert_eq!(
        verdict(lease, 1, &learner_run(lease, Naive, &[Pattern::P2, Pattern::P3], &[], true)),
        not_yet(NotYet::NotOneSwitch {
            pattern: None,
            start: Patterns::all(Naive),
            candidates: vec![Pattern::P1, Pattern::P2, Pattern::P3, Pattern::P4],
        })
    );
    // Retention: the inbox alone forgets, the ledger does not.
    let retention = lesson("retention");
    assert_eq!(
        verdict(retention, 3, &learner_run(retention, Naive, &[Pattern::P1], &[], true)),
        TaskVerdict::Passed
    );
    assert_eq!(
        verdict(retention, 3, &learner_run(retention, Naive, &[Pattern::P4], &[], true)),
        not_yet(NotYet::Broken { invariant: InvariantId::I2 })
    );
}

#[test]
fn fixing_by_switching_refuses_a_schedule_that_the_naive_twin_survives_too() {
    // The inbox lesson without its crash: P4 switched holds I2, and so does all naive.
    let mut calm = lesson("inbox").clone();
    calm.scripted_faults = false;
    let trace = learner_run(&calm, PatternMode::Naive, &[Pattern::P4], &[], true);
    assert_eq!(
        verdict(&calm, 3, &trace),
        not_yet(NotYet::NaiveHoldsToo { invariant: InvariantId::I2 })
    );
}

#[test]
fn breaking_passes_only_with_the_learners_own_faults_within_the_budget() {
    use PatternMode::{Idempotent, Naive};
    let crash = lesson("crash-before-commit");
    let task = 2;
    assert_eq!(
        verdict(crash, task, &learner_run(crash, Naive, &[], &[FaultClass::F2], true)),
        TaskVerdict::Passed
    );
    assert_eq!(
        verdict(crash, task, &learner_run(crash, Naive, &[], &[FaultClass::F3], true)),
        not_yet(NotYet::NotBroken { invariant: InvariantId::I2 })
    );
    assert_eq!(
        verdict(crash, task, &learner_run(crash, Naive, &[], &[], true)),
        not_yet(NotYet::NoFault)
    );
    assert_eq!(
        verdict(
            crash,
            task,
            &learner_run(crash, Naive, &[], &[FaultClass::F3, FaultClass::F2], true)
        ),
        not_yet(NotYet::TooManyFaults { placed: 2, max: 1 })
    );
    assert_eq!(
        verdict(crash, task, &learner_run(crash, Naive, &[], &[FaultClass::F1], true)),
        not_yet(NotYet::FaultNotAllowed { class: FaultClass::F1 })
    );
    assert_eq!(
        verdict(crash, task, &learner_run(crash, Idempotent, &[], &[FaultClass::F2], true)),
        not_yet(NotYet::Patterns { mode: Naive, patterns: Patterns::all(Naive) })
    );
}

#[test]
fn surviving_passes_only_all_idempotent_with_the_faults_run_to_the_end() {
    use PatternMode::{Idempotent, Naive};
    let new_key = lesson("new-key");
    let task = 2;
    assert_eq!(
        verdict(new_key, task, &learner_run(new_key, Idempotent, &[], &[FaultClass::F6], true)),
        TaskVerdict::Passed
    );
    assert_eq!(
        verdict(new_key, task, &learner_run(new_key, Idempotent, &[], &[], true)),
        not_yet(NotYet::TooFewFaults { placed: 0, min: 1 })
    );
    assert_eq!(
        verdict(new_key, task, &learner_run(new_key, Idempotent, &[], &[FaultClass::F6], false)),
        not_yet(NotYet::NotAtEnd)
    );
    assert_eq!(
        verdict(new_key, task, &learner_run(new_key, Naive, &[], &[FaultClass::F6], true)),
        not_yet(NotYet::Patterns { mode: Idempotent, patterns: Patterns::all(Idempotent) })
    );
    let crash = lesson("crash-before-commit");
    assert_eq!(
        verdict(crash, 3, &learner_run(crash, Idempotent, &[], &[FaultClass::F2], true)),
        TaskVerdict::Passed
    );
    assert_eq!(
        verdict(crash, 3, &learner_run(crash, Idempotent, &[], &[FaultClass::F3], true)),
        not_yet(NotYet::TooFewFaults { placed: 0, min: 1 })
    );
}

#[test]
fn a_lesson_is_graded_over_several_traces_each_task_by_the_first_that_passes_it() {
    let crash = lesson("crash-before-commit");
    let broken = learner_run(crash, PatternMode::Naive, &[], &[FaultClass::F2], true);
    let survived = learner_run(crash, PatternMode::Idempotent, &[], &[FaultClass::F2], true);
    let grades = crash.grade(&[broken.clone(), survived]).unwrap();
    assert_eq!(
        grades,
        [
            TaskGrade { step: 2, verdict: TaskVerdict::Passed },
            TaskGrade { step: 3, verdict: TaskVerdict::Passed }
        ]
    );
    let grades = crash.grade(&[broken]).unwrap();
    assert_eq!(
        grades[1].verdict,
        not_yet(NotYet::Patterns {
            mode: PatternMode::Idempotent,
            patterns: Patterns::all(PatternMode::Idempotent)
        })
    );
    let reason = match &grades[1].verdict {
        TaskVerdict::NotYet(reason) => reason,
        TaskVerdict::Passed => unreachable!(),
    };
    assert_eq!(
        reason.text(Language::En),
        "This task needs the patterns set to P1 idempotent, P2 idempotent, P3 idempotent, \
         P4 idempotent: set them first."
    );
    let ru = Language::Ru.words();
    assert_eq!(
        reason.text(Language::Ru),
        crate::words::fill(
            ru.course.course_patterns,
            &[(
                "patterns",
                &check::patterns_text(Patterns::all(PatternMode::Idempotent), Language::Ru)
            )]
        )
    );
}

#[test]
fn a_trace_read_back_from_its_file_is_judged_as_the_run_itself() {
    let crash = lesson("crash-before-commit");
    let trace = learner_run(crash, PatternMode::Naive, &[], &[FaultClass::F2], true);
    let read = Trace::from_json(&trace.to_json_file()).unwrap();
    assert_eq!(verdict(crash, 2, &read), TaskVerdict::Passed);
    assert_eq!(read.stop, StopReason::Quiescent);
}

/// The built-in course as JSON, changed by `edit`, parsed.
fn parse_edited(edit: impl FnOnce(&mut serde_json::Value)) -> CourseError {
    let mut value: serde_json::Value = serde_json::from_str(COURSE_JSON).unwrap();
    edit(&mut value);
    match Course::parse(&serde_json::to_string_pretty(&value).unwrap()) {
        Ok(_) => panic!("the edited course was accepted"),
        Err(error) => error,
    }
}

#[test]
fn a_course_file_is_refused_with_the_field_it_is_wrong_about() {
    let message = |edit: fn(&mut serde_json::Value)| parse_edited(edit).to_string();
    assert!(
        message(|v| v["lessons"][1]["steps"][0]["narration"]["colour"] = "red".into())
            .contains("lessons[1].steps[0].narration")
    );
    assert_eq!(
        message(|v| v["format_version"] = 2.into()),
        "course format_version 2 is not supported (this build reads 1)"
    );
    assert_eq!(
        message(|v| v["lessons"][2]["scenario"] = "p9-nothing".into()),
        "lessons[2].scenario names scenario \"p9-nothing\", which is not a built-in scenario"
    );
    assert_eq!(
        message(|v| v["lessons"][3]["id"] = "mark-paid".into()),
        "lessons[3].id is \"mark-paid\", the id of an earlier lesson"
    );
    assert_eq!(
        message(|v| v["lessons"][0]["id"] = "Ledger!".into()),
        "lessons[0].id is \"Ledger!\": a lesson id is 1 to 40 characters of a-z, 0-9 and -"
    );
    assert_eq!(
        message(|v| v["lessons"][0]["intro"]["ru"] = " ".into()),
        "lessons[0].intro.ru has 1 bytes; a text must have between 1 and 2000"
    );
    assert_eq!(
        message(|v| v["lessons"][0]["steps"][1]["prediction"]["answer"]["number"]["available"] =
            "plum".into()),
        "lessons[0].steps[1].prediction.answer names sku \"plum\", which the lesson's scenario does not stock"
    );
    assert_eq!(
        message(|v| v["lessons"][0]["steps"][4]["task"]["goal"]["fix_by_switching"]["pattern"] =
            "P3".into()),
        "lessons[0].steps[4].task.goal.fix_by_switching.pattern names P3, which is not among the lesson's focus patterns"
    );
    assert_eq!(
        message(|v| {
            let steps = v["lessons"][0]["steps"].as_array_mut().unwrap();
            steps.retain(|step| step.get("task").is_none());
        }),
        "lessons[0].steps has no task: every lesson has a narration, a prediction and a task"
    );
    assert_eq!(
        message(|v| v["lessons"][0]["steps"][3]["narration"]["at"] =
            serde_json::json!({"moment": "key_reused"})),
        "lessons[0].steps[3].narration.at is a point the lesson's Naive run never reaches"
    );
    assert_eq!(
        message(|v| v["lessons"][12]["steps"][2]["task"]["goal"]["break"]["faults_max"] = 0.into()),
        "lessons[12].steps[2].task.goal.break.faults_max is 0; it must be between 1 and 8"
    );
    assert_eq!(
        message(|v| v["lessons"] = serde_json::json!([])),
        "lessons has 0 entries; it must have between 1 and 64"
    );
    assert!(message(|v| *v = serde_json::json!([])).contains("course"));
}

#[test]
fn a_break_task_the_lessons_own_faults_already_pass_is_refused() {
    let error = parse_edited(|v| {
        v["lessons"][0]["steps"][4]["task"]["goal"] =
            serde_json::json!({"break": {"invariant": "I2", "faults_max": 1}});
    });
    assert_eq!(
        error.to_string(),
        "lessons[0].steps[4].task.goal asks the learner to break I2, but the lesson's naive run breaks it without them"
    );
}

/// The task of `lesson` at `index` over `trace`, expecting a refusal: where the trace first
/// departs from its replay.
fn not_reproduced(lesson: &Lesson, index: usize, trace: &Trace) -> crate::sim::TraceDifference {
    match task_at(lesson, index).check(lesson, trace) {
        Err(GradeError::NotReproduced {
            trace: 0,
            error: crate::sim::NotReproduced::Differs(d),
        }) => d,
        other => panic!("a trace that does not reproduce was judged: {other:?}"),
    }
}

/// The step a difference names.
fn differing_step(difference: &crate::sim::TraceDifference) -> usize {
    match difference {
        crate::sim::TraceDifference::Step { step, .. } => *step,
        other => panic!("not a step's difference: {other:?}"),
    }
}

#[test]
fn a_trace_is_graded_only_once_it_reproduces_from_its_scenario_seed_and_choices() {
    use PatternMode::{Idempotent, Naive};
    let ledger = lesson("reservation-ledger");
    let task = 4;
    let honest = learner_run(ledger, Idempotent, &[], &[], true);
    assert_eq!(verdict(ledger, task, &honest), TaskVerdict::Passed);

    // A reservation's qty edited to 999: the step that wrote it differs.
    let mut edited = honest.clone();
    let (index, change) = edited
        .steps
        .iter_mut()
        .enumerate()
        .find_map(|(index, step)| {
            let change = step
                .row_changes
                .iter_mut()
                .find(|change| change.table.as_str() == "reservations" && change.after.is_some())?;
            Some((index, change))
        })
        .expect("the idempotent run reserves");
    change.after.as_mut().unwrap()["qty"] = 999.into();
    let difference = not_reproduced(ledger, task, &edited);
    assert_eq!(differing_step(&difference), index + 1);

    // The naive run relabelled idempotent, its violations deleted: it would pass unreplayed.
    let mut relabelled = learner_run(ledger, Naive, &[], &[], true);
    relabelled.scenario.patterns = honest.scenario.patterns;
    for step in &mut relabelled.steps {
        step.new_violations.clear();
        step.violated.clear();
    }
    relabelled.summary.first_violation_step.clear();
    relabelled.summary.violated_at_end.clear();
    let first_naive_statement = honest
        .steps
        .iter()
        .zip(&relabelled.steps)
        .position(|(honest, naive)| honest.statement != naive.statement)
        .expect("the twins run different statements");
    assert_eq!(
        differing_step(&not_reproduced(ledger, task, &relabelled)),
        first_naive_statement + 1
    );

    // Cut short, still claiming the run ended: the first step missing differs.
    let mut cut = honest.clone();
    cut.steps.truncate(10);
    let difference = not_reproduced(ledger, task, &cut);
    assert!(
        matches!(
            &difference,
            crate::sim::TraceDifference::Step { step: 11, recorded: None, replayed: Some(_) }
        ),
        "{difference:?}"
    );
    assert_eq!(
        difference.to_string(),
        "step 11 differs: the trace ends before it, the run does not"
    );

    // A run still going (the page's export at an earlier step) reproduces as it is.
    let running = learner_run(ledger, Idempotent, &[], &[], false);
    assert_eq!(verdict(ledger, task, &running), not_yet(NotYet::NotAtEnd));

    // Over several traces, the one that does not reproduce is named by its position.
    match ledger.grade(&[honest, cut]) {
        Err(GradeError::NotReproduced { trace: 1, .. }) => {}
        other => panic!("the cut trace was graded: {other:?}"),
    }
}

#[test]
fn a_tasks_reason_names_the_patterns_the_lesson_starts_from_not_all_naive() {
    use PatternMode::{Idempotent, Naive};
    // P1's lesson starts with P2 and P3 idempotent and P4 naive: the reason says so, and
    // never "keep the others naive".
    let ledger = lesson("reservation-ledger");
    let fix = |s: &CourseStep| {
        matches!(s, CourseStep::Task(Task { goal: Goal::FixBySwitching { .. }, .. }))
    };
    let task = ledger.steps.iter().position(fix).unwrap();
    let untouched = learner_run(ledger, Naive, &[], &[], true);
    let TaskVerdict::NotYet(reason) = verdict(ledger, task, &untouched) else {
        panic!("the task passes untouched")
    };
    assert_eq!(
        reason.text(Language::En),
        "From the lesson's start, P1 naive, P2 idempotent, P3 idempotent, P4 naive, switch \
         exactly one pattern, P1, to idempotent, and leave the others as they start."
    );
    assert!(!reason.text(Language::En).contains("others naive"));
    let ru = format!("P2 {}", Language::Ru.words().course.course_idempotent);
    assert!(reason.text(Language::Ru).contains(&ru), "{}", reason.text(Language::Ru));
    // "All idempotent" in the page switches every pattern: in mark-paid that turns P3 on too,
    // and the task, which asks that P2 alone fix the charge, does not pass.
    let mark_paid = lesson("mark-paid");
    let task = mark_paid.steps.iter().position(fix).unwrap();
    let mut scenario = mark_paid.scenario().unwrap();
    scenario.patterns = Patterns::all(Idempotent);
    let mut everything = Simulation::new(scenario, 0).unwrap();
    everything.run_to_end();
    assert!(matches!(
        verdict(mark_paid, task, &everything.trace()),
        TaskVerdict::NotYet(NotYet::NotOneSwitch { pattern: Some(Pattern::P2), .. })
    ));
    assert_eq!(
        verdict(mark_paid, task, &learner_run(mark_paid, Naive, &[Pattern::P2], &[], true)),
        TaskVerdict::Passed
    );
}

#[test]
fn a_survive_task_counts_the_learners_faults_over_the_whole_run_not_up_to_the_step_shown() {
    use PatternMode::Idempotent;
    // The crash placed, the run shown before the twin takes it: the run has not ended, and
    // that is the reason, not "you placed 0 faults".
    let crash = lesson("crash-before-commit");
    let scenario = crash.scenario().unwrap().with_mode(Idempotent);
    let fresh = Simulation::new(scenario, 0).unwrap().trace();
    assert_eq!(verdict(crash, 3, &fresh), not_yet(NotYet::NotAtEnd));
}

#[test]
fn each_step_starts_from_the_patterns_the_course_file_sets() {
    use PatternMode::{Idempotent, Naive};
    // Retention's last task says "now from all naive": it starts all naive, though the steps
    // before it run idempotent.
    let retention = lesson("retention");
    let task = retention.steps.len() - 1;
    assert!(matches!(retention.steps[task], CourseStep::Task(_)));
    assert_eq!(retention.mode_at(task - 1), Idempotent);
    assert_eq!(retention.patterns_at(task).unwrap(), Patterns::all(Naive));
    // A lesson with a focus keeps its other patterns as its scenario sets them.
    let ledger = lesson("reservation-ledger");
    assert_eq!(
        ledger.patterns_at(0).unwrap(),
        Patterns { p1_stock: Naive, p2_order: Idempotent, p3_api: Idempotent, p4_inbox: Naive }
    );
}

/// How many tasks of the course ask for each kind of work: switching a pattern, or placing
/// faults of the learner's own (breaking a naive run, surviving faults all idempotent).
#[test]
fn at_least_a_third_of_the_tasks_have_the_learner_place_the_fault() {
    let (mut switch, mut broken, mut survived, mut built) = (0, 0, 0, 0);
    for lesson in &course().lessons {
        for step in &lesson.steps {
            match step {
                CourseStep::Task(Task { goal: Goal::FixBySwitching { .. }, .. }) => switch += 1,
                CourseStep::Task(Task { goal: Goal::Break { .. }, .. }) => broken += 1,
                CourseStep::Task(Task { goal: Goal::Survive { .. }, .. }) => survived += 1,
                CourseStep::Task(Task { goal: Goal::Build(_), .. }) => built += 1,
                _ => {}
            }
        }
    }
    assert_eq!((switch, broken, survived, built), (10, 4, 2, 2));
    let total = switch + broken + survived + built;
    assert!(3 * (broken + survived) >= total, "{broken} + {survived} of {total}");
}

/// A "break it yourself" task of the learner's own faults, passed in its own run.
fn break_it_yourself(id: &str, class: FaultClass) {
    let lesson = lesson(id);
    let index = lesson
        .steps
        .iter()
        .position(|step| matches!(step, CourseStep::Task(task) if task.own_faults))
        .unwrap_or_else(|| panic!("{id} has no task of the learner's own faults"));
    let task = task_at(lesson, index);
    let scenario = lesson.scenario_at(index).unwrap();
    assert!(scenario.injections.is_empty() && scenario.fault_classes().is_empty(), "{id}");
    assert_eq!(scenario, lesson.task_scenario(task).unwrap());
    assert!(!lesson.scenario().unwrap().injections.is_empty(), "{id}'s other steps are scripted");
    // Untouched, the run holds; with the learner's one fault it breaks, and the task passes.
    let run = |faults: &[FaultClass]| {
        let mut simulation = Simulation::new(scenario.with_mode(PatternMode::Naive), 0).unwrap();
        for class in faults {
            let action = loop {
                let offered = simulation
                    .world()
                    .enabled_fault_actions()
                    .into_iter()
                    .find(|action| action.fault_class() == Some(*class));
                if let Some(action) = offered {
                    break action;
                }
                assert!(simulation.step().is_some(), "{class:?} never offered in {id}");
            };
            simulation.step_with(action).unwrap();
        }
        simulation.run_to_end();
        simulation.trace()
    };
    assert_eq!(verdict(lesson, index, &run(&[])), not_yet(NotYet::NoFault), "{id}");
    assert_eq!(verdict(lesson, index, &run(&[class])), TaskVerdict::Passed, "{id}");
    // The lesson's scripted run is of another scenario for this task.
    let scripted = learner_run(lesson, PatternMode::Naive, &[], &[class], true);
    assert_eq!(verdict(lesson, index, &scripted), not_yet(NotYet::OtherScenario), "{id}");
}

#[test]
fn p1_outbox_and_races_each_have_the_learner_break_the_naive_run_themselves() {
    break_it_yourself("reservation-ledger", FaultClass::F1);
    break_it_yourself("outbox-relay", FaultClass::F12);
    break_it_yourself("races", FaultClass::F4);
}

/// Every moment the lab draws is drawn in the run of at least one lesson, and each kind but
/// the 409 of a key in progress (drawn in lease-takeover and fencing, and told by their texts)
/// is a narration's point, so the course stops at it: the fencing token's stale completion
/// too, in the fencing lesson.
#[test]
fn every_moment_is_drawn_in_a_lesson_and_narrated_where_it_happens() {
    use crate::view::{MomentKind, moments};
    let mut drawn = std::collections::BTreeSet::new();
    let mut narrated = std::collections::BTreeSet::new();
    for lesson in &course().lessons {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let run = lesson.reference_run(mode).unwrap();
            drawn.extend(moments(run.steps()).into_iter().map(|moment| moment.kind));
        }
        for step in &lesson.steps {
            if let CourseStep::Narration(Narration { at: Point::Moment(kind), .. }) = step {
                narrated.insert(*kind);
            }
        }
    }
    assert_eq!(drawn.into_iter().collect::<Vec<_>>(), MomentKind::ALL.to_vec());
    let untold: Vec<MomentKind> =
        MomentKind::ALL.into_iter().filter(|kind| !narrated.contains(kind)).collect();
    assert_eq!(untold, [MomentKind::KeyInProgress]);
    let fencing = lesson("fencing");
    let idempotent = fencing.reference_run(PatternMode::Idempotent).unwrap();
    let stale = Point::Moment(MomentKind::StaleCompletion).resolve(&idempotent).unwrap();
    let takeover = Point::Moment(MomentKind::LeaseTakeover).resolve(&idempotent).unwrap();
    assert!(takeover < stale, "the takeover comes first: {takeover} < {stale}");
    assert!(idempotent.trace().summary.first_violation_step.is_empty());
}

/// A break task asks the learner to find where the fault goes: its place to start is offered
/// only after a try; a survive task's and a switch task's at once.
#[test]
fn a_break_tasks_place_is_offered_only_after_a_try() {
    let mut kinds = std::collections::BTreeSet::new();
    for lesson in &course().lessons {
        for step in &lesson.steps {
            let CourseStep::Task(task) = step else { continue };
            let breaks = matches!(task.goal, Goal::Break { .. });
            let expected = if breaks { None } else { task.go_to };
            assert_eq!(task.go_to_offered(false), expected, "{}: {:?}", lesson.id, task.goal);
            assert_eq!(task.go_to_offered(true), task.go_to, "{}", lesson.id);
            if task.go_to.is_some() {
                kinds.insert(breaks);
            }
        }
    }
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), [false, true], "both kinds offer a place");
}
