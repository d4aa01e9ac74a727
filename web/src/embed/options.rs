//! An embed's options (`mount`'s object, the `<idempotency-lab>` element's attributes) read
//! into its first state: the run (a lesson, or a share link's fragment), then the seed, the
//! modes and the step, each through the `Lab` method that does the same from script, so a bad
//! option is the same typed `LabError` naming it (`options.seed`, `options.modes.p1`).

use std::rc::Rc;

use idempotency_lab::view::Language;
use wasm_bindgen::prelude::*;

use crate::api::{Lab, LabError, convert};
use crate::embed::{Controls, EmbedLink, EmbedView, Embedding};
use crate::state::FIRST_SCENARIO;

/// Reads `options` into the embed's first state.
pub fn embedding(options: &JsValue) -> Result<Embedding, LabError> {
    let read = |key: &str| -> Result<Option<JsValue>, LabError> {
        let value = convert::option(options, "options", key)?;
        Ok((!value.is_undefined() && !value.is_null()).then_some(value))
    };
    let mut lab = run(read("lesson")?, read("run")?)?;
    if let Some(seed) = read("seed")? {
        let seed = match seed.as_string() {
            Some(text) => match text.trim().parse::<u64>() {
                Ok(seed) => js_sys::BigInt::from(seed).into(),
                Err(_) => JsValue::from_str(&text),
            },
            None => seed,
        };
        lab.set_seed(seed).map_err(|_| {
            LabError::argument("options.seed", "must be a whole number from 0 to 2^64 - 1")
        })?;
    }
    if let Some(mode) = read("mode")? {
        lab.set_mode_checked(&mode, "options.mode")?;
    }
    if let Some(modes) = read("modes")? {
        set_modes(&mut lab, &modes)?;
    }
    if let Some(step) = read("step")? {
        lab.step_to_checked(&step, "options.step")?;
    }
    let view = match read("view")? {
        None => EmbedView::Full,
        Some(value) => view(&convert::string(&value, "options.view")?)?,
    };
    let controls = match read("controls")? {
        None => Controls::Step,
        Some(value) => controls(&convert::string(&value, "options.controls")?)?,
    };
    let language = match read("lang")? {
        None => Language::default(),
        Some(value) => convert::string(&value, "options.lang")?
            .parse::<Language>()
            .map_err(|error| LabError::argument("options.lang", error))?,
    };
    let presenter = read("presenter")?.is_some_and(|value| value.is_truthy());
    let autoplay = read("autoplay")?.is_some_and(|value| value.is_truthy());
    let on_event =
        convert::callback(&read("onEvent")?.unwrap_or(JsValue::UNDEFINED), "options.onEvent")?;
    let mut initial = lab.into_state();
    initial.compare_open = view == EmbedView::Compare;
    initial.playing = autoplay && initial.can_step_forward();
    let link = Rc::new(EmbedLink::new(Rc::new(initial.clone())));
    Ok(Embedding { initial, view, controls, language, presenter, on_event, link })
}

/// The run an embed opens: a share link's if it names one, else a lesson's (default the
/// page's first).
fn run(lesson: Option<JsValue>, link: Option<JsValue>) -> Result<Lab, LabError> {
    if let Some(link) = link {
        let fragment = convert::string(&link, "options.run")?;
        return Lab::from_link(JsValue::from_str(&fragment)).map_err(|_| {
            LabError::argument("options.run", "must be a share link's fragment (#v=2&s=...)")
        });
    }
    let lesson = lesson.unwrap_or_else(|| JsValue::from_str(FIRST_SCENARIO));
    Lab::lesson(lesson).map_err(|_| {
        LabError::argument(
            "options.lesson",
            "must be the id of a built-in lesson (see Lab.lessons())",
        )
    })
}

/// Each pattern's twin, from an object (`{ p1: "idempotent" }`).
fn set_modes(lab: &mut Lab, modes: &JsValue) -> Result<(), LabError> {
    if !modes.is_object() {
        return Err(LabError::argument(
            "options.modes",
            format!(
                "must be an object such as {{ p1: \"idempotent\" }}, not {}",
                convert::describe(modes)
            ),
        ));
    }
    for entry in js_sys::Object::entries(&js_sys::Object::from(modes.clone())).iter() {
        let entry = js_sys::Array::from(&entry);
        let field = format!("options.modes.{}", entry.get(0).as_string().unwrap_or_default());
        let pattern = convert::pattern(&entry.get(0), &field)?;
        let mode = convert::mode(&entry.get(1), &field)?;
        lab.set_pattern_checked(pattern, mode)?;
    }
    Ok(())
}

/// The view an option names.
fn view(name: &str) -> Result<EmbedView, LabError> {
    match name {
        "slide" => Ok(EmbedView::Slide),
        "full" => Ok(EmbedView::Full),
        "diagram" => Ok(EmbedView::Diagram),
        "compare" => Ok(EmbedView::Compare),
        other => Err(LabError::argument(
            "options.view",
            format!("must be \"slide\", \"diagram\", \"compare\" or \"full\", not {other:?}"),
        )),
    }
}

/// The chrome an option names.
fn controls(name: &str) -> Result<Controls, LabError> {
    match name {
        "none" => Ok(Controls::None),
        "step" => Ok(Controls::Step),
        "full" => Ok(Controls::Full),
        other => Err(LabError::argument(
            "options.controls",
            format!("must be \"none\", \"step\" or \"full\", not {other:?}"),
        )),
    }
}
