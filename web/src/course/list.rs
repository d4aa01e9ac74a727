//! The course view: the lessons in order with their titles (in the page's language) and
//! progress, each with Start, Resume or Start again; Resume of the lesson the learner was in
//! last; and the free lab, one click away.

use idempotency_lab::course::Course;
use idempotency_lab::view::Language;
use idempotency_lab::words::fill;
use yew::prelude::*;

use crate::course::progress::CourseProgress;
use crate::labels::ui;

/// Props of [`CourseList`].
#[derive(Properties, PartialEq)]
pub struct CourseListProps {
    /// The learner's progress.
    pub progress: CourseProgress,
    /// The page's language.
    pub language: Language,
    /// Open a lesson (its position) at a step, and whether it resumes where the learner was.
    pub on_open: Callback<(usize, usize, bool)>,
    /// Go to the free lab.
    pub on_free_lab: Callback<()>,
}

/// The list of lessons.
#[function_component(CourseList)]
pub fn course_list(props: &CourseListProps) -> Html {
    let Ok(course) = Course::built_in() else { return Html::default() };
    let labels = &ui(props.language).course;
    let language = props.language;
    let resume = props.progress.current.as_ref().and_then(|place| {
        let index = course.position(&place.lesson)?;
        Some((index, &course.lessons[index], place.step))
    });
    let on_free_lab = props.on_free_lab.reform(|_: MouseEvent| ());
    html! {
        <section class="course" data-testid="course" aria-labelledby="course-heading">
            <div class="course-head">
                <h2 id="course-heading">{ labels.heading }</h2>
                <p class="course-intro">{ labels.intro }</p>
                <div class="course-actions">
                    if let Some((index, lesson, step)) = resume {
                        <button class="primary" data-testid="course-resume"
                            onclick={props.on_open.reform(move |_: MouseEvent| (index, step, true))}>
                            { fill(labels.resume_at, &[("lesson", &lesson.title.get(language)), ("step", &(step + 1).to_string())]) }
                        </button>
                    }
                    <button data-testid="free-lab" title={labels.free_lab.1} onclick={on_free_lab}>
                        { labels.free_lab.0 }
                    </button>
                </div>
            </div>
            <ol class="course-lessons" aria-label={labels.lessons}>
                { for course.lessons.iter().enumerate().map(|(index, lesson)| {
                    let progress = props.progress.of(lesson);
                    let total = lesson.steps.len();
                    let passed = props.progress.passed_count(lesson).min(total);
                    let resume_step = props.progress.resume_step(lesson);
                    let (label, step, resuming) = match resume_step {
                        Some(step) => (labels.resume, step, true),
                        None if progress.done => (labels.again, 0, false),
                        None => (labels.start, 0, false),
                    };
                    let title_id = format!("lesson-title-{}", lesson.id);
                    html! {
                        <li class={classes!("course-lesson", progress.done.then_some("done"))}
                            data-testid={format!("course-lesson-{}", lesson.id)} data-done={progress.done.to_string()}>
                            <span class="course-number" aria-hidden="true">{ index + 1 }</span>
                            <div class="course-lesson-text">
                                <h3 id={title_id.clone()}>{ lesson.title.get(language) }</h3>
                                <p class="course-progress" data-testid={format!("course-progress-{}", lesson.id)}>
                                    { fill(labels.progress, &[("done", &passed.to_string()), ("total", &total.to_string())]) }
                                    if progress.done {
                                        <span class="course-done" data-testid={format!("course-done-{}", lesson.id)}>{ labels.done }</span>
                                    }
                                </p>
                                <progress max={total.to_string()} value={passed.to_string()} aria-hidden="true"></progress>
                            </div>
                            <button class={classes!((resuming || (index == 0 && props.progress.lessons.is_empty())).then_some("primary"))}
                                data-testid={format!("course-open-{}", lesson.id)} aria-describedby={title_id}
                                onclick={props.on_open.reform(move |_: MouseEvent| (index, step, resuming))}>
                                { label }
                            </button>
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}
