//! The lesson panel beside the diagram: the lesson's title and place in the course, its steps
//! as marks (passed, visited, ahead), the intro on the first step, the current step's card,
//! Back and Next, and the way back to the list of lessons.
//!
//! A card shows what the core says of the learner's run ([`StepStatus`]) and dispatches what
//! the learner does ([`PanelEvent`]): a narration's text once the run reaches its point (before:
//! "Go there"); a prediction's answer buttons or number field, judged by the core on Check,
//! its hint after a wrong answer and its explanation after the right one (never the answer
//! before); a task's text with the core's reason it is not done yet, its hint once the
//! learner has tried (run it to its end) and it did not pass, or its done mark. Next is enabled only when the step's condition is met, or was met before.

use std::rc::Rc;

use idempotency_lab::course::{
    Answer, Course, CourseStep, Guess, Lesson, Narration, NotYet, Point, Prediction, Task,
    TaskVerdict,
};
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::view::Language;
use idempotency_lab::words::fill;
use yew::prelude::*;

use crate::build::BuildStatus;
use crate::course::progress::LessonProgress;
use crate::course::{StepStatus, reason_hook};
use crate::labels::{CourseLabels, ui};

/// What the learner does in the panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PanelEvent {
    /// On to the next step (after the last: the lesson is done).
    Next,
    /// Back one step.
    Back,
    /// Back to the list of lessons.
    ToList,
    /// Run on to a point of the run and show it.
    GoThere(Point),
    /// The prediction shown was answered right.
    Answered,
    /// Open the lesson at this position (the next one, from the finished card).
    OpenLesson(usize),
}

/// Props of [`LessonPanel`].
#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// The lesson's position in the course.
    pub lesson: usize,
    /// The step shown (the lesson's number of steps once it is finished).
    pub step: usize,
    /// The lesson's progress.
    pub progress: LessonProgress,
    /// What the core says of the step over the learner's run.
    pub status: Rc<StepStatus>,
    /// The page's language.
    pub language: Language,
    /// What the learner does.
    pub on_event: Callback<PanelEvent>,
    /// On a build task: where the learner's draft stands (the editor below the diagram).
    #[prop_or_default]
    pub build: Option<BuildStatus>,
}

/// The lesson panel.
#[function_component(LessonPanel)]
pub fn lesson_panel(props: &LessonPanelProps) -> Html {
    let Ok(course) = Course::built_in() else { return Html::default() };
    let Some(lesson) = course.lessons.get(props.lesson) else { return Html::default() };
    let language = props.language;
    let labels = &ui(language).course;
    let total = lesson.steps.len();
    let step = props.step.min(total);
    let passed = props.progress.passed.contains(&step);
    let met = match &*props.status {
        _ if props.build.is_some() => props.build == Some(BuildStatus::Holds),
        StepStatus::Narration { reached } => *reached,
        StepStatus::Task(Ok(TaskVerdict::Passed))
        | StepStatus::TaskTried(Ok(TaskVerdict::Passed)) => true,
        StepStatus::Prediction
        | StepStatus::Task(_)
        | StepStatus::TaskTried(_)
        | StepStatus::Finished => false,
    };
    let can_next = step < total && (passed || met);
    let emit = |event: PanelEvent| props.on_event.reform(move |_: MouseEvent| event);
    let card = match lesson.steps.get(step) {
        None => finished_card(course, props.lesson, labels, language, &props.on_event),
        Some(CourseStep::Narration(narration)) => {
            let position = Position { step, total };
            narration_card(narration, position, passed || met, labels, language, &props.on_event)
        }
        Some(CourseStep::Prediction(_)) => html! {
            <PredictionCard key={format!("{}-{step}", lesson.id)} lesson={props.lesson} {step} {passed} {language}
                on_answered={props.on_event.reform(|()| PanelEvent::Answered)} />
        },
        Some(CourseStep::Task(task)) => {
            let context = TaskContext { lesson, step, passed, labels, language };
            match props.build {
                Some(build) => build_card(task, &context, build),
                None => task_card(task, &context, &props.status, &props.on_event),
            }
        }
    };
    html! {
        <section class="lesson-panel" data-testid="lesson-panel" data-lesson={lesson.id.clone()}
            data-course-step={step.to_string()} aria-label={lesson.title.get(language).to_owned()}>
            <p class="lesson-position" data-testid="lesson-position">
                { fill(labels.lesson_of, &[("k", &(props.lesson + 1).to_string()), ("n", &course.lessons.len().to_string())]) }
            </p>
            <h2 class="lesson-title" data-testid="lesson-title">{ lesson.title.get(language) }</h2>
            { step_marks(lesson, step, &props.progress, labels) }
            if step == 0 {
                <p class="lesson-intro" data-testid="lesson-intro">{ lesson.intro.get(language) }</p>
            }
            { card }
            <nav class="lesson-nav" aria-label={lesson.title.get(language).to_owned()}>
                <button data-testid="course-back" disabled={step == 0} onclick={emit(PanelEvent::Back)}>{ labels.back }</button>
                if step < total {
                    <button class="primary" data-testid="course-next" disabled={!can_next} onclick={emit(PanelEvent::Next)}>
                        { if step + 1 == total { labels.finish } else { labels.next } }
                    </button>
                }
                <button data-testid="course-list" onclick={emit(PanelEvent::ToList)}>{ labels.to_list }</button>
            </nav>
        </section>
    }
}

/// The lesson's steps as numbered marks: passed, visited, ahead; the current one outlined.
fn step_marks(
    lesson: &Lesson,
    step: usize,
    progress: &LessonProgress,
    labels: &CourseLabels,
) -> Html {
    html! {
        <ol class="lesson-steps" aria-label={labels.steps_label}>
            { for (0..lesson.steps.len()).map(|index| {
                let (class, state) = if progress.passed.contains(&index) {
                    ("passed", labels.step_states.0)
                } else if progress.visited.contains(&index) {
                    ("visited", labels.step_states.1)
                } else {
                    ("ahead", labels.step_states.2)
                };
                let current = index == step;
                html! {
                    <li class={classes!("lesson-step", class, current.then_some("current"))} data-state={class}
                        aria-current={current.then_some("step")} title={state}>
                        { index + 1 }
                    </li>
                }
            }) }
        </ol>
    }
}

/// The kind line over a card: its kind and "Step k of n".
fn kind_line(kind: &str, step: usize, total: usize, labels: &CourseLabels) -> Html {
    html! {
        <p class="course-kind">
            <b>{ kind }</b>{ " · " }
            { fill(labels.step_of, &[("k", &(step + 1).to_string()), ("n", &total.to_string())]) }
        </p>
    }
}

/// Where a card is: its step and the lesson's number of steps.
#[derive(Clone, Copy)]
struct Position {
    step: usize,
    total: usize,
}

fn narration_card(
    narration: &Narration,
    position: Position,
    reached: bool,
    labels: &CourseLabels,
    language: Language,
    on_event: &Callback<PanelEvent>,
) -> Html {
    let point = narration.at;
    html! {
        <div class="course-step narration" data-testid="course-step" tabindex="-1" data-kind="narration"
            data-state={if reached { "reached" } else { "waiting" }} aria-live="polite">
            { kind_line(labels.kinds.0, position.step, position.total, labels) }
            if reached {
                <p class="course-text" data-testid="narration-text">{ narration.text.get(language) }</p>
            } else {
                <p class="course-wait" data-testid="narration-wait">{ labels.not_reached }</p>
                <button class="primary" data-testid="course-go-there"
                    onclick={on_event.reform(move |_: MouseEvent| PanelEvent::GoThere(point))}>
                    { labels.go_there }
                </button>
            }
        </div>
    }
}

/// What a task's card needs besides the task.
struct TaskContext<'a> {
    lesson: &'a Lesson,
    step: usize,
    passed: bool,
    labels: &'a CourseLabels,
    language: Language,
}

fn task_card(
    task: &Task,
    context: &TaskContext<'_>,
    status: &StepStatus,
    on_event: &Callback<PanelEvent>,
) -> Html {
    let TaskContext { lesson, step, passed, labels, language } = *context;
    let (verdict, tried) = match status {
        StepStatus::Task(verdict) => (verdict.clone(), false),
        StepStatus::TaskTried(verdict) => (verdict.clone(), true),
        _ => (Err(String::new()), false),
    };
    let done = passed || verdict == Ok(TaskVerdict::Passed);
    let (state, reason) = match (&verdict, done) {
        (_, true) => ("passed", None),
        (Ok(TaskVerdict::NotYet(reason)), false) => ("not-yet", Some(reason.clone())),
        (_, false) => ("error", None),
    };
    // A break task's place is offered after a try: the learner first looks for it.
    let go_there = task.go_to_offered(tried).map(|point| {
        html! {
            <button class="primary" data-testid="course-go-there"
                onclick={on_event.reform(move |_: MouseEvent| PanelEvent::GoThere(point))}>
                { labels.go_there }
            </button>
        }
    });
    html! {
        <div class="course-step task" data-testid="course-step" tabindex="-1" data-kind="task" data-state={state}
            data-reason={reason.as_ref().map(reason_hook)} aria-live="polite">
            { kind_line(labels.kinds.2, step, lesson.steps.len(), labels) }
            <p class="course-text" data-testid="task-text">{ task.text.get(language) }</p>
            if done {
                <p class="task-done" data-testid="task-done">{ labels.task_done }</p>
            } else if let Some(reason) = &reason {
                <p class="task-reason" data-testid="task-reason"><b>{ labels.not_yet }</b>{ " " }{ reason.text(language) }</p>
                if tried {
                    <p class="task-hint" data-testid="task-hint"><b>{ labels.hint }</b>{ " " }{ task.hint.get(language) }</p>
                }
                { for go_there }
            } else {
                <p class="task-reason error-text" data-testid="task-reason">
                    { labels.check_failed }{ " " }{ verdict.err().unwrap_or_default() }
                </p>
            }
        </div>
    }
}

/// A build task's card: its text, and until the checker proves the learner's handler, the
/// core's reason (build, then check), with the task's hint after a verdict that did not pass.
fn build_card(task: &Task, context: &TaskContext<'_>, build: BuildStatus) -> Html {
    let TaskContext { lesson, step, passed, labels, language } = *context;
    let done = passed || build == BuildStatus::Holds;
    html! {
        <div class="course-step task" data-testid="course-step" tabindex="-1" data-kind="task"
            data-state={if done { "passed" } else { "not-yet" }}
            data-reason={(!done).then(|| build.hook())} aria-live="polite">
            { kind_line(labels.kinds.2, step, lesson.steps.len(), labels) }
            <p class="course-text" data-testid="task-text">{ task.text.get(language) }</p>
            if done {
                <p class="task-done" data-testid="task-done">{ labels.task_done }</p>
            } else {
                <p class="task-reason" data-testid="task-reason"><b>{ labels.not_yet }</b>{ " " }{ NotYet::NotJudged.text(language) }</p>
                if build.tried_and_failed() {
                    <p class="task-hint" data-testid="task-hint"><b>{ labels.hint }</b>{ " " }{ task.hint.get(language) }</p>
                }
            }
        </div>
    }
}

fn finished_card(
    course: &Course,
    index: usize,
    labels: &CourseLabels,
    language: Language,
    on_event: &Callback<PanelEvent>,
) -> Html {
    let next = index + 1;
    html! {
        <div class="course-step finished" data-testid="course-step" tabindex="-1" data-kind="finished" data-state="done" aria-live="polite">
            <p class="lesson-finished" data-testid="lesson-finished">{ labels.finished }</p>
            if let Some(lesson) = course.lessons.get(next) {
                <button class="primary" data-testid="course-next-lesson"
                    onclick={on_event.reform(move |_: MouseEvent| PanelEvent::OpenLesson(next))}>
                    { fill(labels.next_lesson, &[("title", &lesson.title.get(language))]) }
                </button>
            } else {
                <p class="course-text">{ labels.course_done }</p>
            }
        </div>
    }
}

/// Props of [`PredictionCard`].
#[derive(Properties, PartialEq)]
struct PredictionCardProps {
    lesson: usize,
    step: usize,
    /// Answered right before: the explanation shows, no question buttons.
    passed: bool,
    language: Language,
    on_answered: Callback<()>,
}

/// What the last answer got, until the right one.
#[derive(Clone, Debug, PartialEq)]
enum Feedback {
    /// A wrong answer: "not quite" and the hint.
    Wrong,
    /// A number field that does not hold a whole number.
    NotANumber,
    /// The core could not judge (a broken lesson).
    Failed(String),
}

#[function_component(PredictionCard)]
fn prediction_card(props: &PredictionCardProps) -> Html {
    let feedback = use_state_eq(|| None::<Feedback>);
    let input = use_node_ref();
    let Ok(course) = Course::built_in() else { return Html::default() };
    let Some(lesson) = course.lessons.get(props.lesson) else { return Html::default() };
    let Some(CourseStep::Prediction(prediction)) = lesson.steps.get(props.step) else {
        return Html::default();
    };
    let language = props.language;
    let labels = &ui(language).course;
    let judge = {
        let feedback = feedback.clone();
        let on_answered = props.on_answered.clone();
        move |guess: Guess| match prediction.judge(lesson, guess) {
            Ok(verdict) if verdict.correct => {
                feedback.set(None);
                on_answered.emit(());
            }
            Ok(_) => feedback.set(Some(Feedback::Wrong)),
            Err(error) => feedback.set(Some(Feedback::Failed(error.to_string()))),
        }
    };
    let state = match (props.passed, &*feedback) {
        (true, _) => "right",
        (false, Some(Feedback::Wrong)) => "wrong",
        (false, _) => "asking",
    };
    let answers = if props.passed {
        Html::default()
    } else {
        answer_controls(prediction, labels, language, &input, &feedback, judge)
    };
    html! {
        <div class="course-step prediction" data-testid="course-step" tabindex="-1" data-kind="prediction" data-state={state}>
            { kind_line(labels.kinds.1, props.step, lesson.steps.len(), labels) }
            <p class="course-text" data-testid="prediction-question">{ prediction.question.get(language) }</p>
            { answers }
            <div aria-live="polite">
                if props.passed {
                    <p class="feedback right" data-testid="prediction-feedback">
                        <b>{ labels.correct }</b>{ " " }{ prediction.explain.get(language) }
                    </p>
                } else {
                    { match &*feedback {
                        Some(Feedback::Wrong) => html! {
                            <p class="feedback wrong" data-testid="prediction-feedback">
                                <b>{ labels.not_quite }</b>{ " " }<b>{ labels.hint }</b>{ " " }{ prediction.hint.get(language) }
                            </p>
                        },
                        Some(Feedback::NotANumber) => html! {
                            <p class="feedback wrong" data-testid="prediction-feedback">{ labels.not_a_number }</p>
                        },
                        Some(Feedback::Failed(error)) => html! {
                            <p class="feedback wrong" data-testid="prediction-feedback">{ labels.check_failed }{ " " }{ error.clone() }</p>
                        },
                        None => Html::default(),
                    } }
                }
            </div>
        </div>
    }
}

/// The answer controls of `prediction`: a number field and Check, a button per invariant and
/// None, or Holds and Breaks.
fn answer_controls(
    prediction: &Prediction,
    labels: &CourseLabels,
    language: Language,
    input: &NodeRef,
    feedback: &UseStateHandle<Option<Feedback>>,
    judge: impl Fn(Guess) + Clone + 'static,
) -> Html {
    let guess_button = |testid: String, label: String, title: Option<String>, guess: Guess| {
        let judge = judge.clone();
        html! {
            <button class="guess" data-testid={testid} {title} onclick={move |_: MouseEvent| judge(guess)}>{ label }</button>
        }
    };
    match &prediction.answer {
        Answer::Number(_) => {
            let onsubmit = {
                let input = input.clone();
                let feedback = feedback.clone();
                move |event: SubmitEvent| {
                    event.prevent_default();
                    let Some(field) = input.cast::<web_sys::HtmlInputElement>() else { return };
                    match field.value().trim().parse::<i64>() {
                        Ok(number) => judge(Guess::Number(number)),
                        Err(_) => feedback.set(Some(Feedback::NotANumber)),
                    }
                }
            };
            html! {
                <form class="prediction-form" {onsubmit}>
                    <label>{ labels.your_answer }{ " " }
                        <input type="text" inputmode="numeric" autocomplete="off" class="prediction-number"
                            data-testid="prediction-number" ref={input.clone()} />
                    </label>
                    <button type="submit" class="primary" data-testid="prediction-check">{ labels.check }</button>
                </form>
            }
        }
        Answer::FirstBroken => html! {
            <div class="guesses" role="group" aria-label={labels.your_answer}>
                { for InvariantId::ALL.into_iter().map(|invariant| guess_button(
                    format!("prediction-{invariant}"),
                    invariant.to_string(),
                    Some(invariant.title_in(language).to_owned()),
                    Guess::Invariant(Some(invariant)),
                )) }
                { guess_button("prediction-none".to_owned(), labels.none.to_owned(), None, Guess::Invariant(None)) }
            </div>
        },
        Answer::Holds(_) => html! {
            <div class="guesses" role="group" aria-label={labels.your_answer}>
                { guess_button("prediction-holds".to_owned(), labels.holds.0.to_owned(), None, Guess::Holds(true)) }
                { guess_button("prediction-breaks".to_owned(), labels.holds.1.to_owned(), None, Guess::Holds(false)) }
            </div>
        },
    }
}
