//! The page's root component: the controls (scenario, seed, pattern switches, step, play,
//! speed, the rewind slider), the sequence diagram, the invariants, the fault buttons and the
//! store's tables, all over one reducer ([`LabState`]). Side effects (the play timer, the
//! keyboard shortcuts, the address's fragment, downloads and uploads) live in
//! `use_effect_with` only.

use gloo::events::{EventListener, EventListenerOptions};
use std::rc::Rc;

use gloo::timers::callback::Interval;
use idempotency_lab::sim::{CATALOGUE, Pattern, PatternMode};
use idempotency_lab::view::Language;
use idempotency_lab::view::{
    CompareInput, Moment, breaking_steps, compare, lanes, lesson_text, moments, pending_in,
    trace_to_mermaid,
};
use idempotency_lab::words::fill;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::check_panel::CheckPanel;
use crate::compare::CompareView;
use crate::course::progress::CourseProgress;
use crate::course::state::{CourseAction, CourseState, PageView};
use crate::course::{
    self as course, CourseList, LessonPanel, PageStart, PanelEvent, RunKey, StepStatus,
};
use crate::diagram::{SequenceDiagram, WINDOW_STEPS, first_drawn};
use crate::embed::Embedding;
use crate::files::{Download, read_file, start_download};
use crate::invariants::InvariantsPanel;
use crate::labels::{UiText, stop_text, ui};
use crate::opening::{self, FirstSlice, Openings};
use crate::presenter::{
    PresenterTables, TypeScale, TypeScaleAction, ViewButtons, bring_into_view, in_fullscreen,
    toggle_fullscreen,
};
use crate::state::{Action, IMPORTED_SCENARIO, LabState, OpeningKind, Pending, SPEEDS_MS};
use crate::step_list::{NARROW_QUERY, StepList};
use crate::storage;
use crate::tables::StoreTables;

/// The local-storage key of the play speed.
const SPEED_SETTING: &str = "idempotency-lab.speed-ms";
/// The local-storage key of the page's language (`en`, `ru`).
const LANGUAGE_SETTING: &str = "idempotency-lab.language";

/// Props of [`App`]: none for the page; an embed's start and settings for an embed
/// (`crate::embed`), which then leaves the page's address, storage and keys alone.
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Open in the presenter view, even if the address's link does not ask for it (a link
    /// with `presenter=1` opens in it anyway).
    #[prop_or_default]
    pub presenter: bool,
    /// How the embed starts and shows; `None` for the page itself.
    #[prop_or_default]
    pub embed: Option<Rc<Embedding>>,
}

/// The root of the page (or of one embed).
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let embed = props.embed.clone();
    let page = embed.is_none();
    let presenter_asked = props.presenter;
    // Opening a link or a trace file in slices: the openings' count and cancel flag, and the
    // rest of the address's link if its first slice did not open it (`crate::opening`).
    let openings = use_mut_ref(Openings::default);
    let first_opening = use_mut_ref(|| None::<FirstSlice>);
    // What the address asks for on load: the course (nothing), a lesson (a trainer's link),
    // or a run (a share link, opened as it always was).
    let start = use_memo((), |()| match page {
        true => PageStart::of(&current_fragment(), stored_language()),
        false => PageStart::Run,
    });
    let state = use_reducer(|| {
        if let Some(embed) = &props.embed {
            let mut state = embed.initial.clone();
            state.presenter |= presenter_asked || embed.presenter;
            return state;
        }
        let fragment = current_fragment();
        let mut state = match &*start {
            PageStart::Nothing => LabState::initial(),
            PageStart::Lesson { lesson, step } => {
                let lesson = course::course().and_then(|course| course.lessons.get(*lesson));
                match lesson.and_then(|lesson| course::fresh_opening(lesson, *step)) {
                    Some(action) => {
                        Rc::unwrap_or_clone(Rc::new(LabState::initial()).reduce(action))
                    }
                    None => LabState::initial(),
                }
            }
            PageStart::BadCourseLink(error) => {
                LabState { error: Some(error.clone()), keep_fragment: true, ..LabState::initial() }
            }
            PageStart::Run => match opening::first_slice(
                &openings,
                OpeningKind::Link,
                Pending::of_link(&fragment),
            ) {
                FirstSlice::Done(action) => {
                    Rc::unwrap_or_clone(Rc::new(LabState::initial()).reduce(action))
                }
                FirstSlice::Going(pending, generation, cancel) => {
                    let opening = Some(pending.opening(generation));
                    *first_opening.borrow_mut() =
                        Some(FirstSlice::Going(pending, generation, cancel));
                    LabState { opening, ..LabState::initial() }
                }
            },
        };
        state.presenter |= presenter_asked;
        match storage::get::<u32>(SPEED_SETTING) {
            Some(speed_ms) if SPEEDS_MS.contains(&speed_ms) => LabState { speed_ms, ..state },
            _ => state,
        }
    });
    let dispatcher = state.dispatcher();
    // Which view shows (the course, a lesson, the free lab) and the learner's progress.
    let course_state = use_reducer(|| initial_course_state(page, &start));
    let root = use_node_ref();
    {
        let dispatcher = dispatcher.clone();
        let openings = openings.clone();
        use_effect_with((), move |_| {
            if let Some(FirstSlice::Going(pending, generation, cancel)) =
                first_opening.borrow_mut().take()
            {
                opening::go_on(*pending, generation, cancel, dispatcher);
            }
            // Leaving the page stops what it opens.
            move || openings.borrow().cancel()
        });
    }

    // The type scale (`+` and `-`), kept in the settings store, and fullscreen, which the
    // browser may end by itself (Escape): the page follows `fullscreenchange`.
    let type_scale = use_reducer(TypeScale::stored);
    let fullscreen = use_state_eq(in_fullscreen);
    {
        let fullscreen = fullscreen.clone();
        use_effect_with((), move |_| {
            let listener =
                EventListener::new(&gloo::utils::document(), "fullscreenchange", move |_| {
                    fullscreen.set(in_fullscreen());
                });
            move || drop(listener)
        });
    }

    // Settings survive a reload: the play speed, in local storage.
    use_effect_with(state.speed_ms, move |speed_ms| {
        if page {
            storage::set(SPEED_SETTING, speed_ms);
        }
    });

    // The language of the page's labels and the lesson's text, also kept in local storage,
    // and told to the document (`<html lang>`).
    let language = use_state(|| match &embed {
        Some(embed) => embed.language,
        None => stored_language(),
    });
    use_effect_with(*language, move |language| {
        if !page {
            return;
        }
        storage::set(LANGUAGE_SETTING, language.code());
        if let Some(root) = gloo::utils::document().document_element() {
            root.set_attribute("lang", language.code()).ok();
        }
    });
    let ui = ui(*language);

    // The address follows the view: in the lab its fragment is the share link of the run
    // shown, in a lesson the lesson's course link, on the course none (replaced, not pushed,
    // so the back button leaves the page as usual); while a link opens, the address keeps it.
    let fragment = state.share_fragment();
    let opening_link = state.opening.is_some_and(|opening| opening.kind == OpeningKind::Link);
    let address = match course_state.lesson() {
        Some((_, lesson, step)) => course::lesson_fragment(lesson, step),
        None if course_state.view == PageView::Course => page_path(),
        None => fragment.clone(),
    };
    use_effect_with((address, state.keep_fragment || opening_link), move |(address, keep)| {
        if page
            && !*keep
            && let Ok(history) = gloo::utils::window().history()
        {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address)).ok();
        }
    });
    // The learner's progress, kept in the settings store.
    use_effect_with(course_state.progress.clone(), move |progress| {
        if page {
            progress.store();
        }
    });
    // What the document's listeners (keys, the address) need of the render: the view shown
    // and the language.
    let view_now = use_mut_ref(|| (PageView::Lab, Language::default()));
    *view_now.borrow_mut() = (course_state.view, *language);
    // A link pasted into the address bar of the open page opens too (a run's in slices, if
    // long; a lesson's in the course).
    {
        let dispatcher = dispatcher.clone();
        let courses = course_state.dispatcher();
        let openings = openings.clone();
        let view_now = view_now.clone();
        use_effect_with((), move |_| {
            let listener = page.then(|| {
                EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                    let fragment = current_fragment();
                    match PageStart::of(&fragment, view_now.borrow().1) {
                        PageStart::Lesson { lesson, step } => {
                            let found = course::course().and_then(|c| c.lessons.get(lesson));
                            if let Some(action) = found.and_then(|l| course::fresh_opening(l, step))
                            {
                                dispatcher.dispatch(action);
                                courses.dispatch(CourseAction::OpenByLink { lesson, step });
                            }
                        }
                        PageStart::BadCourseLink(error) => {
                            dispatcher.dispatch(Action::RefuseLink(error));
                            courses.dispatch(CourseAction::ShowCourse);
                        }
                        PageStart::Nothing | PageStart::Run => {
                            let pending = Pending::of_link(&fragment);
                            opening::start(
                                &openings,
                                OpeningKind::Link,
                                pending,
                                dispatcher.clone(),
                            );
                            courses.dispatch(CourseAction::ShowRun);
                        }
                    }
                })
            });
            move || drop(listener)
        });
    }

    // Play: a timer while playing, dropped (cancelled) when play stops or the speed changes.
    {
        let dispatcher = dispatcher.clone();
        use_effect_with((state.playing, state.speed_ms), move |(playing, speed_ms)| {
            let interval = playing.then(|| {
                let dispatcher = dispatcher.clone();
                Interval::new(*speed_ms, move || dispatcher.dispatch(Action::PlayTick))
            });
            move || drop(interval)
        });
    }

    // A narrow screen shows the run as a list of steps instead of the diagram; the page
    // follows the media query as the window (or the phone) turns.
    let narrow = use_state_eq(|| narrow_screen().is_some_and(|query| query.matches()));
    {
        let narrow = narrow.clone();
        use_effect_with((), move |_| {
            let listener = narrow_screen().map(|query| {
                let target = query.clone();
                EventListener::new(&target, "change", move |_| narrow.set(query.matches()))
            });
            move || drop(listener)
        });
    }

    // Keyboard: space plays or pauses when no control has focus, the arrows step, `p` turns
    // the presenter view on or off, `f` fullscreen, `+` and `-` scale the type; except while
    // typing in a field.
    {
        let dispatcher = dispatcher.clone();
        let scale = type_scale.dispatcher();
        let root = root.clone();
        let view_now = view_now.clone();
        use_effect_with((), move |_| {
            let options = EventListenerOptions::enable_prevent_default();
            // An embed takes no keys from the document: they would drive every embed at once.
            let listener = page.then(|| {
                EventListener::new_with_options(
                    &gloo::utils::document(),
                    "keydown",
                    options,
                    move |event| {
                        let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                        if event.ctrl_key() || event.alt_key() || event.meta_key() {
                            return;
                        }
                        // The course's list of lessons has no run to drive.
                        if view_now.borrow().0 == PageView::Course {
                            return;
                        }
                        let tag = event
                            .target()
                            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
                            .map(|element| element.tag_name())
                            .unwrap_or_default();
                        // Typing in a field keeps every key; a focused button, link or summary
                        // keeps Space, which presses it.
                        let typing = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
                        let pressing = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
                        if typing || (pressing && event.key() == " ") {
                            return;
                        }
                        let action = match event.key().as_str() {
                            " " => Action::TogglePlay,
                            "ArrowRight" => Action::StepForward,
                            "ArrowLeft" => Action::StepBack,
                            "p" | "P" => Action::TogglePresenter,
                            key => {
                                match key {
                                    "+" | "=" => scale.dispatch(TypeScaleAction::Larger),
                                    "-" | "_" => scale.dispatch(TypeScaleAction::Smaller),
                                    "f" | "F" => toggle_fullscreen(&root),
                                    _ => return,
                                }
                                event.prevent_default();
                                return;
                            }
                        };
                        event.prevent_default();
                        dispatcher.dispatch(action);
                    },
                )
            });
            move || drop(listener)
        });
    }

    // Downloads and uploads: the buttons set these, the effects do the work.
    let download = use_state(|| None::<Download>);
    {
        use_effect_with((*download).clone(), move |download| {
            let url = download.as_ref().and_then(start_download);
            move || drop(url)
        });
    }
    let picked_file = use_state(|| None::<gloo::file::File>);
    {
        let dispatcher = dispatcher.clone();
        let openings = openings.clone();
        use_effect_with((*picked_file).clone(), move |file| {
            // A trace file opens in slices, as a link does.
            let reader = file.as_ref().map(|file| {
                read_file(file, move |action| match action {
                    Action::LoadTrace(trace) => {
                        let pending = Pending::of_trace(&trace);
                        opening::start(&openings, OpeningKind::Trace, pending, dispatcher);
                    }
                    action => dispatcher.dispatch(action),
                })
            });
            move || drop(reader)
        });
    }
    let on_export_json = {
        let download = download.clone();
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let trace = state.trace_at_cursor();
            download.set(Some(Download {
                name: format!(
                    "{}-seed{}-step{}.trace.json",
                    trace.scenario.id, trace.seed, state.cursor
                ),
                mime: "application/json",
                content: trace.to_json(),
            }));
        })
    };
    let on_export_mermaid = {
        let download = download.clone();
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let trace = state.trace_at_cursor();
            download.set(Some(Download {
                name: format!("{}-seed{}-step{}.mmd", trace.scenario.id, trace.seed, state.cursor),
                mime: "text/plain",
                content: trace_to_mermaid(&trace),
            }));
        })
    };
    let comparison = {
        let key = state
            .compare_open
            .then(|| (state.sim.scenario().clone(), state.seed, state.choices.clone()));
        use_memo(key, |key| match key {
            Some((scenario, seed, choices)) => {
                compare(&CompareInput::focus(scenario.clone(), *seed, choices.clone()))
                    .map_err(|error| error.to_string())
            }
            None => Err(String::new()),
        })
    };
    let on_import = {
        let picked_file = picked_file.clone();
        Callback::from(move |event: Event| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            if let Some(file) = input.files().and_then(|files| files.get(0)) {
                picked_file.set(Some(gloo::file::File::from(file)));
            }
            input.set_value("");
        })
    };

    // The check and fuzz panel: shown on demand; closing it cancels what it runs.
    let check_open = use_state(|| false);
    let on_toggle_check = {
        let check_open = check_open.clone();
        Callback::from(move |_: MouseEvent| check_open.set(!*check_open))
    };
    let on_open_run = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |(trace, step): (std::rc::Rc<idempotency_lab::sim::Trace>, usize)| {
            dispatcher.dispatch(Action::OpenRunAt(Box::new((*trace).clone()), step))
        })
    };

    let on_seek = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |step: usize| dispatcher.dispatch(Action::SeekTo(step)))
    };
    // "Go to step N, where it broke": after the page shows step N, what the button names
    // (the step in the diagram, the invariant, the rows the step changed) is scrolled into
    // view, the step last, so that it wins where not all fit.
    let jumps = use_state_eq(|| 0u32);
    {
        let root = root.clone();
        use_effect_with(*jumps, move |jumps| {
            if *jumps > 0 {
                let selectors = ["tr.changed", ".invariant:focus-within", ".diagram .step.current"];
                bring_into_view(&root, &selectors.map(str::to_owned));
            }
        });
    }
    let on_jump = {
        let dispatcher = dispatcher.clone();
        let jumps = jumps.clone();
        Callback::from(move |step: usize| {
            dispatcher.dispatch(Action::SeekTo(step));
            jumps.set(jumps.wrapping_add(1).max(1));
        })
    };
    let view_buttons = {
        let on_scale = {
            let scale = type_scale.dispatcher();
            Callback::from(move |action| scale.dispatch(action))
        };
        let on_presenter = {
            let dispatcher = dispatcher.clone();
            Callback::from(move |()| dispatcher.dispatch(Action::TogglePresenter))
        };
        let on_fullscreen = {
            let root = root.clone();
            Callback::from(move |()| toggle_fullscreen(&root))
        };
        html! {
            <ViewButtons {ui} scale={*type_scale} {on_scale} presenter={state.presenter} {on_presenter}
                fullscreen={*fullscreen} {on_fullscreen} />
        }
    };
    let on_inject = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |action| dispatcher.dispatch(Action::Inject(action)))
    };
    let on_cancel_opening = {
        let dispatcher = dispatcher.clone();
        let openings = openings.clone();
        let opening = state.opening;
        let language = *language;
        Callback::from(move |_: MouseEvent| {
            openings.borrow().cancel();
            let words = language.words();
            let (steps, total) =
                opening.map(|opening| (opening.steps, opening.total)).unwrap_or_default();
            let steps = language.count(&words.steps, steps);
            let notice = fill(words.opening_cancelled, &[("steps", &steps), ("total", &total)]);
            dispatcher.dispatch(Action::CancelOpening { notice });
        })
    };
    let send = |action: Action| {
        let dispatcher = dispatcher.clone();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(action.clone()))
    };

    // The diagram draws the steps just before the cursor; scrolling up reveals more, until
    // the cursor moves: (cursor, how many more than the window).
    let revealed = use_state_eq(|| (0usize, 0usize));
    let extra = if revealed.0 == state.cursor { revealed.1 } else { 0 };
    let first = first_drawn(state.shown_steps().len(), extra);
    let on_reveal = {
        let revealed = revealed.clone();
        let cursor = state.cursor;
        Callback::from(move |()| revealed.set((cursor, extra.saturating_add(WINDOW_STEPS))))
    };

    // The lesson's step: what the core says of it over the learner's run, asked again only
    // when the run, the step shown or the patterns change.
    let lesson_shown = course_state.lesson();
    let status =
        use_memo(lesson_shown.map(|(index, _, step)| (index, step, RunKey::of(&state))), |_| {
            match lesson_shown {
                Some((_, lesson, step)) => course::step_status(lesson, step, &state),
                None => StepStatus::Finished,
            }
        });
    let on_panel = panel_events(&state, &course_state, *language);
    let on_open_lesson = {
        let state = state.clone();
        let course_state = course_state.clone();
        Callback::from(move |(index, step, resume): (usize, usize, bool)| {
            open_lesson(&state, &course_state, index, step, resume)
        })
    };
    let to_course = {
        let courses = course_state.dispatcher();
        Callback::from(move |_: MouseEvent| courses.dispatch(CourseAction::ShowCourse))
    };
    let banners = html! {
        <>
            if let Some(error) = &state.error {
                <div class="error-banner" role="alert" data-testid="error">
                    <span>{ error.clone() }</span>
                    <button class="dismiss" onclick={send(Action::DismissError)}>{ "dismiss" }</button>
                </div>
            }
            if let Some(opening) = &state.opening {
                <div class="opening-banner" role="status" data-testid="opening">
                    <span data-testid="opening-progress">{ fill(language.words().opening_progress, &[("step", &opening.steps), ("total", &opening.total)]) }</span>
                    <progress max={opening.total.max(1).to_string()} value={opening.steps.min(opening.total).to_string()} aria-hidden="true"></progress>
                    <button class="dismiss" data-testid="opening-cancel" onclick={on_cancel_opening}>{ language.words().opening_cancel }</button>
                </div>
            }
            if let Some(notice) = &state.notice {
                <div class="notice-banner" role="status" data-testid="notice">
                    <span>{ notice.clone() }</span>
                    <button class="dismiss" onclick={send(Action::DismissError)}>{ "dismiss" }</button>
                </div>
            }
        </>
    };
    if course_state.view == PageView::Course {
        let on_free_lab = {
            let courses = course_state.dispatcher();
            Callback::from(move |()| courses.dispatch(CourseAction::ShowLab))
        };
        return html! {
            <main class="lab course-page" data-testid="app" ref={root} style={type_scale.style()}>
                { banners }
                <header class="lab-header">
                    <h1>{ "Idempotency Lab" }</h1>
                    <p class="tagline">{ ui.tagline }</p>
                    { language_switch(&language, ui) }
                </header>
                <CourseList progress={course_state.progress.clone()} language={*language}
                    on_open={on_open_lesson} {on_free_lab} />
            </main>
        };
    }
    let in_lesson = lesson_shown.is_some();
    let steps_total = state.sim.steps().len();
    let shown = state.shown_steps();
    let violations = state.world.violations();
    let changes = state.current_step().map(|step| step.row_changes.clone()).unwrap_or_default();
    let drawn = shown.get(first..).unwrap_or_default().to_vec();
    // The run's moments up to the cursor (a payment's repeat is told by its earlier steps),
    // those of the drawn steps.
    let drawn_moments: Vec<Moment> =
        moments(shown).into_iter().filter(|moment| moment.step > first).collect();
    let waiting = pending_in(&state.world, *language);

    html! {
        <main class={classes!(
                "lab",
                state.presenter.then_some("presenter"),
                embed.as_ref().map(|embed| embed.view.class()),
                embed.as_ref().and_then(|embed| embed.presenter.then_some("embed-presenter")),
                in_lesson.then_some("in-lesson"),
            )} data-testid="app" ref={root} style={type_scale.style()}>
            { banners }
            // The page's top: one compact bar in the presenter view (style.css).
            <div class="topbar">
            <header class="lab-header">
                <h1>{ "Idempotency Lab" }</h1>
                <p class="tagline">{ ui.tagline }</p>
                if page && !in_lesson && course::course().is_some() {
                    <button class="to-course" data-testid="to-course" onclick={to_course}>{ ui.course.course }</button>
                }
                { language_switch(&language, ui) }
            </header>
            { scenario_bar(&state, &dispatcher, *language, in_lesson) }
            <section class="controls" aria-label={language.words().ui_controls_group}>
                <button data-testid="reset" onclick={send(Action::Reset)} title={ui.reset.1}>{ ui.reset.0 }</button>
                <button data-testid="step-back" onclick={send(Action::StepBack)} disabled={state.cursor == 0} title={ui.back.1}>{ ui.back.0 }</button>
                <button data-testid="step" onclick={send(Action::StepForward)} disabled={!state.can_step_forward()} title={ui.step.1}>{ ui.step.0 }</button>
                <button data-testid="play" class="play" onclick={send(Action::TogglePlay)} title={ui.play.2}>
                    { if state.playing { ui.play.1 } else { ui.play.0 } }
                </button>
                <button data-testid="run-to-end" onclick={send(Action::RunToEnd)} disabled={!state.can_step_forward()}>{ ui.to_end }</button>
                <label class="speed">{ ui.speed }
                    <select data-testid="speed" onchange={
                        let dispatcher = dispatcher.clone();
                        move |event: Event| {
                            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
                            if let Ok(speed) = select.value().parse() { dispatcher.dispatch(Action::SetSpeed(speed)) }
                        }
                    }>
                        { for SPEEDS_MS.iter().enumerate().map(|(index, speed)| html! {
                            <option value={speed.to_string()} selected={*speed == state.speed_ms}>{ ui.speeds.get(index).copied().unwrap_or("") }</option>
                        }) }
                    </select>
                </label>
                <input type="range" class="slider" data-testid="slider" aria-label={language.words().ui_go_to_step}
                    min="0" max={steps_total.to_string()} value={state.cursor.to_string()}
                    oninput={
                        let dispatcher = dispatcher.clone();
                        move |event: InputEvent| {
                            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
                            if let Ok(step) = input.value().parse() { dispatcher.dispatch(Action::SeekTo(step)) }
                        }
                    } />
                <span class="position" data-testid="position">{ format!("{} {} / {}", ui.position, state.cursor, steps_total) }</span>
                { view_buttons }
            </section>
            </div>
            // A lesson keeps to its run: no files, comparison or search beside it.
            if !in_lesson {
            <section class="files" aria-label={language.words().ui_files_group}>
                <button data-testid="compare-toggle" class={classes!(state.compare_open.then_some("active"))}
                    onclick={send(Action::ToggleCompare)} aria-pressed={state.compare_open.to_string()}>
                    { if state.compare_open { ui.compare.1 } else { ui.compare.0 } }
                </button>
                <button data-testid="check-toggle" class={classes!(check_open.then_some("active"))}
                    onclick={on_toggle_check} aria-pressed={check_open.to_string()}>
                    { if *check_open { ui.check.1 } else { ui.check.0 } }
                </button>
                <button data-testid="export-json" onclick={on_export_json}>{ ui.export.0 }</button>
                <button data-testid="export-mermaid" onclick={on_export_mermaid}>{ ui.export.1 }</button>
                <label class="import">{ ui.import }
                    <input type="file" data-testid="import" accept=".json,application/json" onchange={on_import} />
                </label>
                <label class="share">{ ui.share }
                    <input type="text" readonly=true data-testid="share-link" value={format!("{}{}", page_address(), fragment)}
                        onfocus={|event: FocusEvent| { let input: web_sys::HtmlInputElement = event.target_unchecked_into(); input.select(); }} />
                </label>
            </section>
            }
            <p class="now" data-testid="current-step">
                { match state.current_step() {
                    Some(step) => format!("{} {} ({} {}): {}{}", ui.step_caption.0, step.step, ui.step_caption.1, step.tick, idempotency_lab::view::action_text(&step.action, *language),
                        step.statement.as_deref().map(|statement| format!(" — {statement}")).unwrap_or_default()),
                    None => ui.start.to_owned(),
                } }
                { match (state.cursor == steps_total, state.sim.stop_reason()) {
                    (true, Some(stop)) => format!("  ·  {}: {}", ui.run_ended, stop_text(stop, *language)),
                    _ => String::new(),
                } }
            </p>
            // The presenter view shows the run alone; the panels come back when it ends.
            if state.compare_open && !state.presenter && !in_lesson {
                <CompareView comparison={comparison} language={*language} />
            }
            if *check_open && !state.presenter && !in_lesson {
                <CheckPanel scenario={state.sim.scenario().clone()} seed={state.seed} on_open={on_open_run} language={*language} />
            }
            <div class={classes!("workspace", in_lesson.then_some("in-lesson"))}>
                if let Some((index, lesson, step)) = lesson_shown {
                    <LessonPanel lesson={index} {step} progress={course_state.progress.of(lesson)} status={status.clone()}
                        language={*language} on_event={on_panel} />
                }
                if !*narrow {
                    <SequenceDiagram lanes={lanes(state.sim.scenario())} steps={drawn.clone()} presenter={state.presenter}
                        moments={drawn_moments.clone()} language={*language}
                        hidden={first} on_reveal={on_reveal.clone()} on_select={on_seek} pending={waiting.clone()} on_inject={on_inject.clone()} />
                }
                <StepList {ui} steps={drawn} moments={drawn_moments} language={*language} hidden={first} {on_reveal} pending={waiting} {on_inject} visible={*narrow} />
                <aside class="side">
                    <InvariantsPanel violations={violations} breaks={breaking_steps(shown)} {on_jump} language={*language}
                        dead_letters={idempotency_lab::sim::dead_letter_sentences(shown)} />
                    if state.presenter {
                        <PresenterTables tables={state.world.store().committed().clone()} changes={changes.clone()} language={*language} />
                    }
                </aside>
            </div>
            if !state.presenter {
                <StoreTables tables={state.world.store().committed().clone()} {changes} language={*language} />
            }
        </main>
    }
}

/// The media query of a narrow screen ([`NARROW_QUERY`]), if the browser gives one.
fn narrow_screen() -> Option<web_sys::MediaQueryList> {
    gloo::utils::window().match_media(NARROW_QUERY).ok().flatten()
}

/// The address's fragment, `#` included (empty if none).
fn current_fragment() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}

/// The page's address without its fragment.
fn page_address() -> String {
    let location = gloo::utils::window().location();
    let href = location.href().unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_owned()
}

/// The EN / RU switch: one button per language, the current one pressed.
fn language_switch(language: &UseStateHandle<Language>, ui: &UiText) -> Html {
    html! {
        <span class="language" role="group" aria-label={ui.language_switch}>
            { for Language::ALL.into_iter().map(|option| {
                let language = language.clone();
                let pressed = option == *language;
                html! {
                    <button data-testid={format!("lang-{}", option.code())} aria-pressed={pressed.to_string()}
                        class={classes!(pressed.then_some("active"))}
                        onclick={move |_| language.set(option)}>
                        { option.code().to_uppercase() }
                    </button>
                }
            }) }
        </span>
    }
}

/// The scenario picker, the seed, the naive/idempotent switches and the lesson's text.
fn scenario_bar(
    state: &LabState,
    dispatcher: &UseReducerDispatcher<LabState>,
    language: Language,
    in_lesson: bool,
) -> Html {
    let ui = ui(language);
    let lesson = lesson_text(&state.base, language);
    let on_scenario = {
        let dispatcher = dispatcher.clone();
        move |event: Event| {
            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
            dispatcher.dispatch(Action::SelectScenario(select.value()));
        }
    };
    let on_seed = {
        let dispatcher = dispatcher.clone();
        move |event: Event| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            match input.value().trim().parse() {
                Ok(seed) => dispatcher.dispatch(Action::SetSeed(seed)),
                Err(_) => dispatcher.dispatch(Action::ShowError(format!(
                    "{} {}, not {:?}",
                    ui.seed_error,
                    u64::MAX,
                    input.value()
                ))),
            }
        }
    };
    let patterns = state.patterns;
    let switches = [
        (Pattern::P1, ui.patterns[0], patterns.p1_stock),
        (Pattern::P2, ui.patterns[1], patterns.p2_order),
        (Pattern::P3, ui.patterns[2], patterns.p3_api),
        (Pattern::P4, ui.patterns[3], patterns.p4_inbox),
    ];
    html! {
        <section class="scenario" aria-label={language.words().ui_scenario_group}>
            <div class="scenario-row">
                // A lesson runs its own scenario and seed; the lesson panel tells about it.
                if !in_lesson {
                <label>{ ui.scenario }
                    <select data-testid="scenario" onchange={on_scenario}>
                        if state.scenario_id == IMPORTED_SCENARIO {
                            <option value={IMPORTED_SCENARIO} selected=true>{ format!("{} {}", ui.imported, lesson.title) }</option>
                        }
                        { for CATALOGUE.iter().map(|entry| html! {
                            <option value={entry.id} selected={entry.id == state.scenario_id}>{ entry.id }</option>
                        }) }
                    </select>
                </label>
                <label>{ ui.seed }
                    <input data-testid="seed" class="seed" type="text" inputmode="numeric" value={state.seed.to_string()} onchange={on_seed} />
                </label>
                }
                <span class="modes">
                    <button data-testid="all-naive" onclick={let d = dispatcher.clone(); move |_| d.dispatch(Action::SetAllPatterns(PatternMode::Naive))}>{ ui.all_naive }</button>
                    <button data-testid="all-idempotent" onclick={let d = dispatcher.clone(); move |_| d.dispatch(Action::SetAllPatterns(PatternMode::Idempotent))}>{ ui.all_idempotent }</button>
                </span>
            </div>
            <div class="patterns" role="group" aria-label={language.words().ui_patterns_group}>
                { for switches.into_iter().map(|(pattern, name, mode)| {
                    let naive = mode == PatternMode::Naive;
                    let focus = state.base.focus.contains(&pattern);
                    let d = dispatcher.clone();
                    let next = if naive { PatternMode::Idempotent } else { PatternMode::Naive };
                    html! {
                        <button class={classes!("pattern", if naive { "naive" } else { "idempotent" }, focus.then_some("focus"))}
                            data-testid={format!("pattern-{pattern:?}")} data-mode={if naive { "naive" } else { "idempotent" }}
                            aria-pressed={(!naive).to_string()}
                            onclick={move |_| d.dispatch(Action::SetPattern(pattern, next))}>
                            { name }{ ": " }<b>{ if naive { ui.naive } else { ui.idempotent } }</b>
                        </button>
                    }
                }) }
            </div>
            if !in_lesson {
                <h2 class="title" data-testid="scenario-title">{ lesson.title }</h2>
                <p class="description" data-testid="scenario-description">{ lesson.description }</p>
            }
        </section>
    }
}

/// The course's state of a page that opens as `start` asks (an embed's: the lab alone).
fn initial_course_state(page: bool, start: &PageStart) -> CourseState {
    let Some(course) = course::course().filter(|_| page) else {
        return CourseState { view: PageView::Lab, progress: CourseProgress::default() };
    };
    let progress = CourseProgress::stored(course);
    let view = match start {
        PageStart::Nothing if progress.free_lab => PageView::Lab,
        PageStart::Nothing | PageStart::Lesson { .. } | PageStart::BadCourseLink(_) => {
            PageView::Course
        }
        PageStart::Run => PageView::Lab,
    };
    let state = CourseState { view, progress };
    match *start {
        PageStart::Lesson { lesson, step } => {
            Rc::unwrap_or_clone(Rc::new(state).reduce(CourseAction::OpenByLink { lesson, step }))
        }
        _ => state,
    }
}

/// The learner opens lesson `index` at `step` from the course (Start, Resume, the next
/// lesson): the course shows it, and the lab runs it.
fn open_lesson(
    lab: &UseReducerHandle<LabState>,
    courses: &UseReducerHandle<CourseState>,
    index: usize,
    step: usize,
    resume: bool,
) {
    let Some(lesson) = course::course().and_then(|course| course.lessons.get(index)) else {
        return;
    };
    if let Some(action) = course::opening(lesson, step, lab, resume) {
        lab.dispatch(action);
    }
    courses.dispatch(CourseAction::Open { lesson: index, step });
}

/// What the lesson panel's buttons do: the course moves, and the lab follows (a step that
/// names a twin switches the patterns to it; "Go there" shows its point of the run).
fn panel_events(
    lab: &UseReducerHandle<LabState>,
    courses: &UseReducerHandle<CourseState>,
    language: Language,
) -> Callback<PanelEvent> {
    let lab = lab.clone();
    let courses = courses.clone();
    Callback::from(move |event: PanelEvent| {
        let Some((_, lesson, step)) = courses.lesson() else { return };
        let arrive = |step: usize| {
            if let Some(action) = course::arrival(lesson, step, &lab) {
                lab.dispatch(action);
            }
        };
        match event {
            PanelEvent::Next => {
                courses.dispatch(CourseAction::Next);
                arrive(step + 1);
            }
            PanelEvent::Back => {
                courses.dispatch(CourseAction::Back);
                if let Some(step) = step.checked_sub(1) {
                    arrive(step);
                }
            }
            PanelEvent::ToList => courses.dispatch(CourseAction::ShowCourse),
            PanelEvent::GoThere(point) => lab.dispatch(Action::GoTo {
                point,
                unreachable: ui(language).course.unreachable.to_owned(),
            }),
            PanelEvent::Answered => courses.dispatch(CourseAction::PassStep),
            PanelEvent::OpenLesson(index) => open_lesson(&lab, &courses, index, 0, false),
        }
    })
}

/// The page's language as stored, or the default.
fn stored_language() -> Language {
    storage::get::<String>(LANGUAGE_SETTING)
        .and_then(|code| code.parse::<Language>().ok())
        .unwrap_or_default()
}

/// The page's path and query, without a fragment: the address of the course view.
fn page_path() -> String {
    let location = gloo::utils::window().location();
    format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default())
}
