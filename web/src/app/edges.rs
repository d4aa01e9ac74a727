//! The page's effects, each a hook that reads the one state and dispatches to its reducer:
//! the rest of a long first link, storage and `<html lang>`, the address, the address's
//! listener, the keys, the play timer, what the browser says (a narrow screen, fullscreen),
//! the focus after an action, the "go to step" scroll, files in and out, and the build task's
//! judge run in slices.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{AnimationFrame, request_animation_frame};
use gloo::timers::callback::{Interval, Timeout};
use idempotency_lab::view::Language;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::app::Edges;
use crate::app::start::{LANGUAGE_SETTING, SPEED_SETTING, current_fragment, narrow_screen};
use crate::course::state::PageView;
use crate::course::{self as course, PageStart};
use crate::files::{Download, read_file, start_download};
use crate::opening::{self, FirstSlice};
use crate::page::{Focus, PageAction, PageState};
use crate::presenter::{TypeScaleAction, bring_into_view, in_fullscreen, toggle_fullscreen};
use crate::state::{Action, OpeningKind, Pending};
use crate::storage;

/// The view shown and the language, for the document's listeners (read when they fire).
pub type ViewNow = Rc<RefCell<(PageView, Language)>>;

/// The lab's dispatcher, for the openings and file reads that speak the lab's actions.
fn lab_callback(edges: &Edges) -> Callback<Action> {
    let dispatcher = edges.dispatcher.clone();
    Callback::from(move |action| dispatcher.dispatch(PageAction::Lab(action)))
}

/// Goes on with the address's link if its first slice did not open it; leaving the page
/// stops what it opens.
#[hook]
pub fn use_first_opening(edges: &Edges, first: Rc<RefCell<Option<FirstSlice>>>) {
    let lab = lab_callback(edges);
    let openings = edges.openings.clone();
    use_effect_with((), move |_| {
        if let Some(FirstSlice::Going(pending, generation, cancel)) = first.borrow_mut().take() {
            opening::go_on(*pending, generation, cancel, lab);
        }
        move || openings.borrow().cancel()
    });
}

/// The settings survive a reload (the play speed, the language, the type scale, the
/// progress), and the document is told the language (`<html lang>`).
#[hook]
pub fn use_settings(state: &PageState, page: bool) {
    use_effect_with(state.lab.speed_ms, move |speed_ms| {
        if page {
            storage::set(SPEED_SETTING, speed_ms);
        }
    });
    use_effect_with(state.language, move |language| {
        if !page {
            return;
        }
        storage::set(LANGUAGE_SETTING, language.code());
        if let Some(root) = gloo::utils::document().document_element() {
            root.set_attribute("lang", language.code()).ok();
        }
        crate::crash::set_language(*language);
    });
    let scale = state.type_scale;
    let first = use_mut_ref(|| scale);
    use_effect_with(scale, move |scale| {
        // Stored when the learner changes it, as before: not on load.
        if *first.borrow() != *scale {
            scale.store();
            *first.borrow_mut() = *scale;
        }
    });
    use_effect_with(state.course.progress.clone(), move |progress| {
        if page {
            progress.store();
        }
    });
}

/// The address follows the view: in the lab its fragment is the share link of the run shown,
/// in a lesson the lesson's course link, on the course none (replaced, not pushed, so the
/// back button leaves the page as usual); while a link opens, the address keeps it. The share
/// link's field holds the page's address and the run's fragment, in the page and in an embed.
///
/// Both are written when the browser is idle after the frame that shows the change, not before
/// it: the link of a long inline scenario is hundreds of kilobytes, which encoding, comparing,
/// putting in the field and replacing the address with take the browser milliseconds that a
/// step's frame should not wait for. Only what makes the link is kept at each render
/// (`state::ShareOf`, the run compared by identity). A newer change cancels a write not yet done,
/// so stepping fast or playing writes only what stays; an address the learner put there since
/// the step is left alone. The field is also filled when it takes the focus, so a learner who
/// copies it always copies the step shown.
#[hook]
pub fn use_address(state: &PageState, page: bool, share_field: &NodeRef) {
    let lab = &state.lab;
    let opening_link = lab.opening.is_some_and(|opening| opening.kind == OpeningKind::Link);
    let fixed = match state.course.lesson() {
        Some((_, lesson, step)) => Some(course::lesson_fragment(lesson, step, lab.presenter)),
        None if state.course.view == PageView::Course => Some(page_path()),
        None => None,
    };
    let keep = !page || lab.keep_fragment || opening_link;
    let share_field = share_field.clone();
    use_effect_with((fixed, lab.share_of(), keep), move |(fixed, share, keep)| {
        let (fixed, share, keep) = (fixed.clone(), share.clone(), *keep);
        // An address put there meanwhile (pasted, or a link followed) is the learner's: it is
        // not overwritten, and the `hashchange` listener opens it.
        let seen = current_href();
        let idle: Rc<RefCell<Option<IdleWrite>>> = Rc::default();
        let frame = {
            let idle = idle.clone();
            request_animation_frame(move |_| {
                *idle.borrow_mut() = Some(IdleWrite::new(move || {
                    let fragment = share.fragment();
                    if let Some(field) = share_field.cast::<web_sys::HtmlInputElement>() {
                        field.set_value(&format!("{}{fragment}", page_address()));
                    }
                    if !keep && current_href() == seen {
                        replace_address(fixed.as_deref().unwrap_or(&fragment));
                    }
                }));
            })
        };
        move || drop((frame, idle))
    });
}

/// The page's address without its fragment.
pub fn page_address() -> String {
    current_href().split('#').next().unwrap_or_default().to_owned()
}

/// Work done when the browser is next idle (`requestIdleCallback`, or a task where it has none),
/// and cancelled if dropped before.
struct IdleWrite {
    pending: IdlePending,
    _work: Closure<dyn FnMut()>,
}

/// How an [`IdleWrite`] waits.
enum IdlePending {
    /// For `requestIdleCallback`, by its handle.
    Idle(u32),
    /// For a task, in a browser without it.
    Task(#[allow(dead_code, reason = "held to be cancelled when dropped")] Timeout),
}

impl IdleWrite {
    /// The longest the write waits for an idle moment, in milliseconds: while the learner
    /// plays a run, the address still follows.
    const WAIT_MS: u32 = 500;

    fn new(work: impl FnOnce() + 'static) -> IdleWrite {
        let mut work = Some(work);
        let work = Closure::<dyn FnMut()>::new(move || {
            if let Some(work) = work.take() {
                work();
            }
        });
        let window = gloo::utils::window();
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(IdleWrite::WAIT_MS);
        let pending = match window
            .request_idle_callback_with_options(work.as_ref().unchecked_ref(), &options)
        {
            Ok(handle) => IdlePending::Idle(handle),
            Err(_) => {
                let function: js_sys::Function = work.as_ref().clone().unchecked_into();
                IdlePending::Task(Timeout::new(0, move || {
                    function.call0(&wasm_bindgen::JsValue::NULL).ok();
                }))
            }
        };
        IdleWrite { pending, _work: work }
    }
}

impl Drop for IdleWrite {
    fn drop(&mut self) {
        if let IdlePending::Idle(handle) = self.pending {
            gloo::utils::window().cancel_idle_callback(handle);
        }
    }
}

/// The page's whole address as it is now.
fn current_href() -> String {
    gloo::utils::window().location().href().unwrap_or_default()
}

/// Replaces the page's address (its history entry) with `address`.
fn replace_address(address: &str) {
    if let Ok(history) = gloo::utils::window().history() {
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address)).ok();
    }
}

/// The view shown and the language, as of the last render.
#[hook]
pub fn use_view_now(state: &PageState) -> ViewNow {
    let now = use_mut_ref(|| (PageView::Lab, Language::default()));
    *now.borrow_mut() = (state.course.view, state.language);
    now
}

/// A link pasted into the address bar of the open page opens too (a run's in slices, if
/// long; a lesson's in the course).
#[hook]
pub fn use_address_listener(edges: &Edges, now: &ViewNow) {
    let edges = edges.clone();
    let now = now.clone();
    use_effect_with((), move |_| {
        let listener = edges.page.then(|| {
            EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                address_changed(&edges, now.borrow().1);
            })
        });
        move || drop(listener)
    });
}

fn address_changed(edges: &Edges, language: Language) {
    let fragment = current_fragment();
    let dispatcher = &edges.dispatcher;
    match PageStart::of(&fragment, language) {
        PageStart::Lesson { lesson, step, presenter } => {
            dispatcher.dispatch(PageAction::OpenLessonByLink { lesson, step, presenter });
        }
        PageStart::BadCourseLink(error) => {
            dispatcher.dispatch(PageAction::RefuseCourseLink(error));
        }
        PageStart::Nothing | PageStart::Run => {
            let pending = Pending::of_link(&fragment);
            opening::start(&edges.openings, OpeningKind::Link, pending, lab_callback(edges));
            let show = crate::course::state::CourseAction::ShowRun;
            dispatcher.dispatch(PageAction::Course(show));
        }
    }
}

/// Keyboard: space plays or pauses when no control has focus, the arrows step, `p` turns the
/// presenter view on or off, `f` fullscreen, `+` and `-` scale the type; except while typing
/// in a field. An embed takes no keys from the document: they would drive every embed at once.
#[hook]
pub fn use_keyboard(edges: &Edges, now: &ViewNow) {
    let edges = edges.clone();
    let now = now.clone();
    use_effect_with((), move |_| {
        let options = EventListenerOptions::enable_prevent_default();
        let listener = edges.page.then(|| {
            EventListener::new_with_options(
                &gloo::utils::document(),
                "keydown",
                options,
                move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    // The course's list of lessons has no run to drive.
                    if now.borrow().0 != PageView::Course && key_pressed(&edges, event) {
                        event.prevent_default();
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// Does what `event`'s key asks; returns whether it took the key.
fn key_pressed(edges: &Edges, event: &web_sys::KeyboardEvent) -> bool {
    if event.ctrl_key() || event.alt_key() || event.meta_key() {
        return false;
    }
    let tag = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .map(|element| element.tag_name())
        .unwrap_or_default();
    // Typing in a field keeps every key; a focused button, link or summary keeps Space,
    // which presses it.
    let typing = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
    let pressing = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
    if typing || (pressing && event.key() == " ") {
        return false;
    }
    let action = match event.key().as_str() {
        " " => PageAction::Lab(Action::TogglePlay),
        "ArrowRight" => PageAction::Lab(Action::StepForward),
        "ArrowLeft" => PageAction::Lab(Action::StepBack),
        "p" | "P" => PageAction::Lab(Action::TogglePresenter),
        "+" | "=" => PageAction::Scale(TypeScaleAction::Larger),
        "-" | "_" => PageAction::Scale(TypeScaleAction::Smaller),
        "f" | "F" => {
            toggle_fullscreen(&edges.root);
            return true;
        }
        _ => return false,
    };
    edges.dispatcher.dispatch(action);
    true
}

/// Play: a timer while playing, dropped (cancelled) when play stops or the speed changes.
#[hook]
pub fn use_play_timer(state: &PageState, edges: &Edges) {
    let dispatcher = edges.dispatcher.clone();
    use_effect_with((state.lab.playing, state.lab.speed_ms), move |(playing, speed_ms)| {
        let interval = playing.then(|| {
            Interval::new(*speed_ms, move || dispatcher.dispatch(PageAction::Lab(Action::PlayTick)))
        });
        move || drop(interval)
    });
}

/// What the browser says: a narrow screen (the step list replaces the diagram, as the window
/// or the phone turns) and fullscreen, which the browser may end by itself (Escape).
#[hook]
pub fn use_browser_watch(edges: &Edges) {
    let dispatcher = edges.dispatcher.clone();
    use_effect_with((), move |_| {
        let narrow = narrow_screen().map(|query| {
            let target = query.clone();
            let dispatcher = dispatcher.clone();
            EventListener::new(&target, "change", move |_| {
                dispatcher.dispatch(PageAction::SetNarrow(query.matches()));
            })
        });
        let fullscreen =
            EventListener::new(&gloo::utils::document(), "fullscreenchange", move |_| {
                dispatcher.dispatch(PageAction::SetFullscreen(in_fullscreen()));
            });
        move || drop((narrow, fullscreen))
    });
}

/// The focus follows the action: after the render, what the reducer named gets it (the
/// first of its elements that exists and is enabled), so it never falls to `<body>`.
#[hook]
pub fn use_focus(state: &PageState, root: &NodeRef) {
    let root = root.clone();
    use_effect_with(state.focus, move |focus| {
        if let Some(Focus { target, .. }) = focus {
            let Some(root) = root.cast::<web_sys::Element>() else { return };
            let found = target.selectors().iter().find_map(|selector| {
                let element = root.query_selector(selector).ok().flatten()?;
                let disabled = element.has_attribute("disabled");
                (!disabled).then(|| element.dyn_into::<web_sys::HtmlElement>().ok()).flatten()
            });
            if let Some(element) = found {
                element.focus().ok();
            }
        }
    });
}

/// The build task's judge: when the learner asks for a verdict (a new run of
/// `crate::build::BuildState::judging`), the checker runs over the draft in the check panel's
/// slices, reporting back to the reducer; a newer run, another step or leaving the page
/// cancels it.
#[hook]
pub fn use_build_judge(state: &PageState, edges: &Edges) {
    let build = &state.build;
    let job = build.at.zip(build.judging.as_ref().map(|j| (j.generation, j.assembly.clone())));
    let dispatcher = edges.dispatcher.clone();
    use_effect_with(job, move |job| {
        let cancel = Rc::new(Cell::new(false));
        if let Some(((lesson, step), (generation, assembly))) = job.clone() {
            let send = Callback::from(move |msg| dispatcher.dispatch(PageAction::Build(msg)));
            let input = course::course()
                .and_then(|course| course.lessons.get(lesson))
                .and_then(|lesson| crate::build::judge_input(lesson, step, &assembly));
            let checker = input.map(|(scenario, config)| {
                idempotency_lab::check::Checker::new(scenario, 0, config)
            });
            match checker {
                Some(Ok(checker)) => yew::platform::spawn_local(crate::build::judge_in_slices(
                    checker,
                    generation,
                    cancel.clone(),
                    send,
                )),
                Some(Err(error)) => send.emit(crate::build::BuildMsg::Finish {
                    generation,
                    judgement: Rc::new(Err(error.to_string())),
                    elapsed_ms: 0.0,
                }),
                None => {}
            }
        }
        move || cancel.set(true)
    });
}

/// "Go to step N, where it broke", a lesson's Go there, a trainer's link and a narration's
/// point reached: after the page shows the step, what it names (the lesson's card, the rows
/// the step changed, the broken invariant, the step in the diagram, a task's fault button) is
/// scrolled into view, in the order of [`crate::page::JumpTarget::selectors`], so that the
/// last wins where not all fit.
///
/// Once more two frames later: the diagram follows its current step again when its box is
/// resized (the presenter view switched by a link, the panel's new card), in the next frame's
/// resize observations, which would otherwise undo the scroll.
#[hook]
pub fn use_jumps(state: &PageState, root: &NodeRef) {
    let root = root.clone();
    use_effect_with((state.jumps, state.jump_target), move |(jumps, target)| {
        let second: Rc<RefCell<Option<AnimationFrame>>> = Rc::default();
        let first = (*jumps > 0).then(|| {
            let selectors = target.selectors();
            bring_into_view(&root, &selectors);
            let (root, second) = (root.clone(), second.clone());
            request_animation_frame(move |_| {
                let again = request_animation_frame(move |_| bring_into_view(&root, &selectors));
                *second.borrow_mut() = Some(again);
            })
        });
        move || drop((first, second))
    });
}

/// Files in and out: the export buttons and the import field.
#[derive(Clone)]
pub struct Files {
    /// Download the run up to the step shown as trace JSON.
    pub on_export_json: Callback<MouseEvent>,
    /// Download it as a Mermaid diagram.
    pub on_export_mermaid: Callback<MouseEvent>,
    /// A trace or scenario file picked.
    pub on_import: Callback<Event>,
}

/// Downloads and uploads: the buttons set these, the effects do the work (a download's URL
/// lives until the next; a trace file opens in slices, as a link does).
#[hook]
pub fn use_files(state: &PageState, edges: &Edges) -> Files {
    let download = use_state(|| None::<Download>);
    use_effect_with((*download).clone(), move |download| {
        let url = download.as_ref().and_then(start_download);
        move || drop(url)
    });
    let picked_file = use_state(|| None::<gloo::file::File>);
    {
        let lab = lab_callback(edges);
        let openings = edges.openings.clone();
        use_effect_with((*picked_file).clone(), move |file| {
            let reader = file.as_ref().map(|file| {
                read_file(file, move |action| match action {
                    Action::LoadTrace(trace) => {
                        let pending = Pending::of_trace(&trace);
                        opening::start(&openings, OpeningKind::Trace, pending, lab);
                    }
                    action => lab.emit(action),
                })
            });
            move || drop(reader)
        });
    }
    let export = |mermaid: bool| {
        let (download, lab) = (download.clone(), state.lab.clone());
        Callback::from(move |_: MouseEvent| {
            let trace = lab.trace_at_cursor();
            let stem = format!("{}-seed{}-step{}", trace.scenario.id, trace.seed, lab.cursor);
            download.set(Some(match mermaid {
                false => Download {
                    name: format!("{stem}.trace.json"),
                    mime: "application/json",
                    content: trace.to_json(),
                },
                true => Download {
                    name: format!("{stem}.mmd"),
                    mime: "text/plain",
                    content: idempotency_lab::view::trace_to_mermaid(&trace),
                },
            }));
        })
    };
    let on_import = Callback::from(move |event: Event| {
        let input: web_sys::HtmlInputElement = event.target_unchecked_into();
        if let Some(file) = input.files().and_then(|files| files.get(0)) {
            picked_file.set(Some(gloo::file::File::from(file)));
        }
        input.set_value("");
    });
    Files { on_export_json: export(false), on_export_mermaid: export(true), on_import }
}

/// The page's path and query, without a fragment: the address of the course view.
fn page_path() -> String {
    let location = gloo::utils::window().location();
    format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default())
}
