//! What the page renders from its one state: the course's list, or the lab (a lesson's or the
//! free one) with its banners, header, controls, caption, panels and the run's workspace.
//! Each part is a function of the state and the dispatcher; none decides anything.

use idempotency_lab::sim::Trace;
use idempotency_lab::view::{CompareInput, Language, Screen, compare};
use idempotency_lab::words::fill;
use yew::prelude::*;

use crate::app::Edges;
use crate::app::controls::{files_bar, run_controls, scenario_bar};
use crate::app::edges::Files;
use crate::build::BuildEditor;
use crate::check_panel::CheckPanel;
use crate::compare::CompareView;
use crate::course::state::{CourseAction, PageView};
use crate::course::{self as course, CourseList, LessonPanel, RunKey, StepStatus};
use crate::diagram::SequenceDiagram;
use crate::embed::Embedding;
use crate::invariants::InvariantsPanel;
use crate::labels::{UiText, ui};
use crate::page::{PageAction, PageState};
use crate::presenter::PresenterTables;
use crate::state::Action;
use crate::step_list::StepList;
use crate::tables::StoreTables;

/// A callback that dispatches `action` on a click.
pub fn send(edges: &Edges, action: PageAction) -> Callback<MouseEvent> {
    let dispatcher = edges.dispatcher.clone();
    Callback::from(move |_: MouseEvent| dispatcher.dispatch(action.clone()))
}

/// A callback that dispatches the lab's action its argument makes.
pub fn to_lab<T: 'static>(edges: &Edges, action: impl Fn(T) -> Action + 'static) -> Callback<T> {
    let dispatcher = edges.dispatcher.clone();
    Callback::from(move |value: T| dispatcher.dispatch(PageAction::Lab(action(value))))
}

/// The whole page.
pub fn page(
    state: &UseReducerHandle<PageState>,
    edges: &Edges,
    files: &Files,
    embed: Option<&Embedding>,
) -> Html {
    if let Some(embed) = embed.filter(|embed| embed.view == crate::embed::EmbedView::Slide) {
        return crate::app::slide::slide(state, edges, embed);
    }
    let banners = banners(state, edges);
    if state.course.view == PageView::Course {
        return course_page(state, edges, banners);
    }
    let lab = &state.lab;
    let screen = state.screen();
    let in_lesson = state.course.lesson().is_some();
    let compare_embed = embed.is_some_and(|embed| embed.view == crate::embed::EmbedView::Compare);
    html! {
        <main class={classes!(
                "lab",
                lab.presenter.then_some("presenter"),
                embed.map(|embed| embed.view.class()),
                embed.and_then(|embed| embed.presenter.then_some("embed-presenter")),
                in_lesson.then_some("in-lesson"),
            )} data-testid="app" ref={edges.root.clone()} style={state.type_scale.style()}>
            { banners }
            // The page's top: one compact bar in the presenter view (style.css).
            <div class="topbar">
                { header(state, edges, edges.page && !in_lesson && course::course().is_some()) }
                { scenario_bar(state, edges, in_lesson) }
                { run_controls(state, edges) }
            </div>
            // A lesson keeps to its run: no files, comparison or search beside it.
            if !in_lesson {
                { files_bar(state, edges, files) }
            }
            { caption(state, &screen) }
            // The presenter view shows the run alone; the panels come back when it ends. An
            // embed of the comparison shows it in any view.
            if (!lab.presenter || compare_embed) && !in_lesson {
                { panels(state, edges) }
            }
            { workspace(state, edges, &screen) }
            if !lab.presenter {
                <StoreTables tables={lab.world.store().committed().clone()} changes={screen.changes.clone()} language={state.language} />
            }
        </main>
    }
}

/// The course's list of lessons, with the page's header.
fn course_page(state: &PageState, edges: &Edges, banners: Html) -> Html {
    let dispatcher = edges.dispatcher.clone();
    let on_open = Callback::from(move |(lesson, step, resume): (usize, usize, bool)| {
        dispatcher.dispatch(PageAction::OpenLesson { lesson, step, resume })
    });
    let dispatcher = edges.dispatcher.clone();
    let on_free_lab = Callback::from(move |()| {
        dispatcher.dispatch(PageAction::Course(CourseAction::ShowLab));
    });
    html! {
        <main class="lab course-page" data-testid="app" ref={edges.root.clone()} style={state.type_scale.style()}>
            { banners }
            { header(state, edges, false) }
            <CourseList progress={state.course.progress.clone()} language={state.language}
                {on_open} {on_free_lab} />
        </main>
    }
}

/// The title, the tagline, the way back to the course and the language switch.
fn header(state: &PageState, edges: &Edges, to_course: bool) -> Html {
    let ui = ui(state.language);
    html! {
        <header class="lab-header">
            <h1>{ "Idempotency Lab" }</h1>
            <p class="tagline">{ ui.tagline }</p>
            if to_course {
                <button class="to-course" data-testid="to-course"
                    onclick={send(edges, PageAction::Course(CourseAction::ShowCourse))}>{ ui.course.course }</button>
            }
            { language_switch(state.language, edges, ui) }
        </header>
    }
}

/// The EN / RU switch: one button per language, the current one pressed.
fn language_switch(language: Language, edges: &Edges, ui: &UiText) -> Html {
    html! {
        <span class="language" role="group" aria-label={ui.language_switch}>
            { for Language::ALL.into_iter().map(|option| {
                let pressed = option == language;
                html! {
                    <button data-testid={format!("lang-{}", option.code())} aria-pressed={pressed.to_string()}
                        class={classes!(pressed.then_some("active"))}
                        onclick={send(edges, PageAction::SetLanguage(option))}>
                        { option.code().to_uppercase() }
                    </button>
                }
            }) }
        </span>
    }
}

/// The error (focused when a file or a link is refused), the opening of a long run (its
/// progress and Cancel), the notice, the choices a run change dropped and the offer of those a
/// lesson's run left behind.
pub fn banners(state: &PageState, edges: &Edges) -> Html {
    let (lab, language) = (&state.lab, state.language);
    let dismiss = send(edges, PageAction::Lab(Action::DismissError));
    html! {
        <>
            if let Some(error) = &lab.error {
                <div class="error-banner" role="alert" data-testid="error" tabindex="-1">
                    <span>{ error.text(language) }</span>
                    <button class="dismiss" onclick={dismiss.clone()}>{ language.words().notices.banner_dismiss }</button>
                </div>
            }
            if let Some(opening) = &lab.opening {
                <div class="opening-banner" role="status" data-testid="opening">
                    <span data-testid="opening-progress">{ fill(language.words().notices.opening_progress, &[("step", &opening.steps), ("total", &opening.total)]) }</span>
                    <progress max={opening.total.max(1).to_string()} value={opening.steps.min(opening.total).to_string()} aria-hidden="true"></progress>
                    <button class="dismiss" data-testid="opening-cancel" onclick={on_cancel_opening(state, edges)}>{ language.words().notices.opening_cancel }</button>
                </div>
            }
            if let Some(notice) = &lab.notice {
                <div class="notice-banner" role="status" data-testid="notice">
                    <span>{ notice.text(language) }</span>
                    <button class="dismiss" onclick={dismiss.clone()}>{ language.words().notices.banner_dismiss }</button>
                </div>
            }
            if !lab.dropped.is_empty() {
                <div class="notice-banner" role="status" data-testid="choices-dropped">
                    <span>{ dropped_text(&lab.dropped, language) }</span>
                    <button class="dismiss" onclick={dismiss}>{ language.words().notices.banner_dismiss }</button>
                </div>
            }
            if !lab.left_behind.is_empty() {
                <div class="notice-banner carry-offer" role="status" data-testid="carry-offer" data-choices={lab.left_behind.len().to_string()}>
                    <span>{ language.count(&language.words().notices.carry_offer, lab.left_behind.len()) }</span>
                    <button data-testid="carry-offer-keep" onclick={send(edges, PageAction::Lab(Action::KeepLeftBehind))}>{ language.words().notices.carry_offer_keep }</button>
                    <button class="dismiss" data-testid="carry-offer-dismiss" onclick={send(edges, PageAction::Lab(Action::DeclineLeftBehind))}>{ language.words().notices.banner_dismiss }</button>
                </div>
            }
        </>
    }
}

/// The learner's choices a seed change, a scenario change or Keep dropped, in words.
fn dropped_text(steps: &[usize], language: Language) -> String {
    let words = language.words();
    let choices = language.count(&words.counts.choices, steps.len());
    let steps = steps.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
    fill(words.notices.choices_dropped, &[("choices", &choices), ("steps", &steps)])
}

/// Cancel of an opening: its task stops, and the page says how far it got.
fn on_cancel_opening(state: &PageState, edges: &Edges) -> Callback<MouseEvent> {
    let (openings, dispatcher) = (edges.openings.clone(), edges.dispatcher.clone());
    let opening = state.lab.opening;
    Callback::from(move |_: MouseEvent| {
        openings.borrow().cancel();
        let (steps, total) =
            opening.map(|opening| (opening.steps, opening.total)).unwrap_or_default();
        dispatcher.dispatch(PageAction::Lab(Action::CancelOpening { steps, total }));
    })
}

/// The step's caption ([`Screen::caption`]): what the step shown did, and why the run ended;
/// announced to screen readers as it changes, and where the focus goes when the run moves
/// under the learner.
pub fn caption(state: &PageState, screen: &Screen) -> Html {
    html! {
        <p class="now" data-testid="current-step" data-waits={state.prediction_pending().then_some("true")}
            aria-live="polite" tabindex="-1">{ screen.caption.clone() }</p>
    }
}

/// The comparison and the check panel, when open.
fn panels(state: &PageState, edges: &Edges) -> Html {
    let lab = &state.lab;
    let dispatcher = edges.dispatcher.clone();
    let on_message = Callback::from(move |msg| dispatcher.dispatch(PageAction::Check(msg)));
    let on_open = to_lab(edges, |(trace, step): (std::rc::Rc<Trace>, usize)| {
        Action::OpenRunAt(Box::new((*trace).clone()), step)
    });
    html! {
        <>
            if lab.compare_open {
                <Comparison scenario={lab.sim.scenario().clone()} seed={lab.seed}
                    choices={lab.choices.clone()} language={state.language} />
            }
            if let Some(check) = &state.check {
                <CheckPanel scenario={lab.sim.scenario().clone()} seed={lab.seed} state={check.clone()}
                    {on_message} {on_open} language={state.language} />
            }
        </>
    }
}

/// Props of [`Comparison`].
#[derive(Properties, PartialEq)]
struct ComparisonProps {
    scenario: idempotency_lab::sim::Scenario,
    seed: u64,
    choices: Vec<idempotency_lab::sim::UserChoice>,
    language: Language,
}

/// The comparison, asked of the core only when its run changes (it plays both twins).
#[function_component(Comparison)]
fn comparison(props: &ComparisonProps) -> Html {
    let key = (props.scenario.clone(), props.seed, props.choices.clone());
    let comparison = use_memo(key, |(scenario, seed, choices)| {
        compare(&CompareInput::focus(scenario.clone(), *seed, choices.clone()))
            .map_err(|error| error.to_string())
    });
    html! { <CompareView {comparison} language={props.language} /> }
}

/// The lesson panel, the diagram (or the step list), the invariants and, in the presenter
/// view, the changed tables.
pub fn workspace(state: &UseReducerHandle<PageState>, edges: &Edges, screen: &Screen) -> Html {
    let lab = &state.lab;
    let language = screen.language;
    let on_reveal = {
        let dispatcher = edges.dispatcher.clone();
        Callback::from(move |()| dispatcher.dispatch(PageAction::Reveal))
    };
    let on_inject = to_lab(edges, Action::Inject);
    let dispatcher = edges.dispatcher.clone();
    let on_jump = Callback::from(move |step| dispatcher.dispatch(PageAction::JumpTo(step)));
    let in_lesson = state.course.lesson().is_some();
    html! {
        <div class={classes!("workspace", in_lesson.then_some("in-lesson"))}>
            { lesson_panel(state, edges) }
            if !state.narrow {
                <SequenceDiagram lanes={screen.lanes.clone()} steps={screen.steps.clone()} presenter={lab.presenter}
                    empty={screen.empty.clone()} {language} hidden={screen.hidden} on_reveal={on_reveal.clone()}
                    on_select={to_lab(edges, Action::SeekTo)} pending={screen.pending.clone()} on_inject={on_inject.clone()} />
            }
            <StepList ui={ui(language)} steps={screen.steps.clone()} empty={screen.empty.clone()} {language}
                hidden={screen.hidden} {on_reveal} pending={screen.pending.clone()} {on_inject} visible={state.narrow} />
            <aside class="side">
                <InvariantsPanel lines={screen.invariants.clone()} {on_jump} {language}
                    dead_letters={screen.dead_letters.clone()} />
                if lab.presenter {
                    <PresenterTables tables={lab.world.store().committed().clone()} changes={screen.changes.clone()} {language} />
                }
            </aside>
            { build_editor(state, edges) }
        </div>
    }
}

/// The build task's editor, below the diagram, on a build task's step.
fn build_editor(state: &PageState, edges: &Edges) -> Html {
    let Some((index, lesson, step)) = state.course.lesson() else { return Html::default() };
    let Some(goal) = crate::build::goal_at(lesson, step) else { return Html::default() };
    let dispatcher = edges.dispatcher.clone();
    let on_msg = Callback::from(move |msg| dispatcher.dispatch(PageAction::Build(msg)));
    html! {
        <BuildEditor goal={goal.clone()} state={state.build.for_step(index, step)}
            language={state.language} {on_msg} />
    }
}

/// The lesson panel beside the diagram, in a lesson.
fn lesson_panel(state: &PageState, edges: &Edges) -> Html {
    let Some((index, lesson, step)) = state.course.lesson() else { return Html::default() };
    let dispatcher = edges.dispatcher.clone();
    let on_event = Callback::from(move |event| dispatcher.dispatch(PageAction::Panel(event)));
    let build = crate::build::goal_at(lesson, step)
        .map(|goal| state.build.for_step(index, step).status(goal));
    html! {
        <LessonStatus lesson={index} {step} run={RunKey::of(&state.lab)} lab={state.lab.clone()}
            progress={state.course.progress.clone()} language={state.language} {on_event} {build} />
    }
}

/// Props of [`LessonStatus`].
#[derive(Properties)]
struct LessonStatusProps {
    lesson: usize,
    step: usize,
    run: RunKey,
    lab: std::rc::Rc<crate::state::LabState>,
    progress: crate::course::progress::CourseProgress,
    language: Language,
    on_event: Callback<crate::course::PanelEvent>,
    build: Option<crate::build::BuildStatus>,
}

impl PartialEq for LessonStatusProps {
    fn eq(&self, other: &LessonStatusProps) -> bool {
        (self.lesson, self.step, &self.run, &self.progress, self.language, self.build)
            == (other.lesson, other.step, &other.run, &other.progress, other.language, other.build)
            && self.on_event == other.on_event
    }
}

/// The lesson's step: what the core says of it over the learner's run, asked again only
/// when the run, the step shown or the patterns change.
#[function_component(LessonStatus)]
fn lesson_status(props: &LessonStatusProps) -> Html {
    let lab = props.lab.clone();
    let (index, step) = (props.lesson, props.step);
    let status = use_memo((index, step, props.run.clone()), move |_| {
        match course::course().and_then(|course| course.lessons.get(index)) {
            Some(lesson) => course::step_status(lesson, step, &lab),
            None => StepStatus::Finished,
        }
    });
    let Some(lesson) = course::course().and_then(|course| course.lessons.get(index)) else {
        return Html::default();
    };
    html! {
        <LessonPanel lesson={index} {step} progress={props.progress.of(lesson)} {status}
            language={props.language} on_event={props.on_event.clone()} build={props.build} />
    }
}
