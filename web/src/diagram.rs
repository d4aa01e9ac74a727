//! The sequence diagram of the run, as SVG, drawn from the core's diagram model
//! (`idempotency_lab::view::diagram`): one lane per participant (Client, API, Store, Relay,
//! Broker, Consumer A, Consumer B, ...), one band per step with a row per item, an arrow for
//! each request, response, statement, commit, publish, delivery and ack, and a mark for
//! crashes, lost answers, duplicates, timeouts and broken invariants. Under a step's items,
//! each of its decisive moments (`view::moments`: `INSERT ... ON CONFLICT DO NOTHING -> 0
//! rows`, `409: ...`) is a callout on its lane, the headline in the page's language and the
//! why on a smaller second line. The current step is highlighted and scrolled into view; the
//! lane names stay on top; large fonts, so that it reads on a projector.
//!
//! A long run draws only a window (the screen model's, `view::WINDOW_STEPS` steps before the
//! cursor), and more above it each time the learner scrolls to the top (or presses the button
//! there), the view kept where it was. So a step of a 10,000-step run costs the same as a step
//! of a lesson.
//!
//! Below the current step, the *pending* part shows what waits now (`view::pending`): each
//! request, answer, message copy or delivery on its lane, with a button for each fault that
//! applies to exactly it. The part is HTML aligned to the SVG's lanes (percentages of the same
//! width), so the buttons are real, focusable `<button>`s. This file only maps the core's
//! screen model (`view::Screen`: lanes, steps with their items and moments, pending items) to
//! coordinates. The drawing is hidden from screen readers: its text alternative is
//! the step list (`crate::step_list`), which says the same step by step.

use idempotency_lab::sim::Action;
use idempotency_lab::view::{
    ArrowKind, DiagramItem, DrawnPending, Lane, Language, MarkKind, Moment, MomentKind,
    PendingItem, ScreenStep, WINDOW_STEPS, drawn_pending,
};
use idempotency_lab::words::fill;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::faults::fault_button;

const LANE_WIDTH: i32 = 150;
const LEFT: i32 = 90;
const RIGHT: i32 = 120;
const ITEM_ROW: i32 = 32;
const EMPTY_ROW: i32 = 18;
/// The height of a moment's callout: its headline and its why.
const MOMENT_ROW: i32 = 56;

/// Where the presenter view keeps the current step's bottom edge, as a fraction of the
/// diagram's visible height from its top.
const PRESENTER_STEP_AT: f64 = 0.6;

fn arrow_class(kind: ArrowKind) -> &'static str {
    match kind {
        ArrowKind::Request => "request",
        ArrowKind::Response => "response",
        ArrowKind::Statement => "statement",
        ArrowKind::Commit => "commit",
        ArrowKind::Publish => "publish",
        ArrowKind::Deliver => "deliver",
        ArrowKind::Ack => "ack",
    }
}

fn mark_class(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Crash => "crash",
        MarkKind::LostResponse => "lost",
        MarkKind::Duplicate => "duplicate",
        MarkKind::Blocked => "blocked",
        MarkKind::Violation => "violation",
        MarkKind::Timeout => "timeout",
        MarkKind::Held => "held",
        MarkKind::Failed => "failed",
    }
}

fn mark_symbol(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Crash => "×",
        MarkKind::LostResponse => "×",
        MarkKind::Duplicate => "2",
        MarkKind::Blocked => "‖",
        MarkKind::Violation => "!",
        MarkKind::Timeout => "t",
        MarkKind::Held => "‖",
        MarkKind::Failed => "×",
    }
}

fn lane_x(lanes: &[Lane], lane: Lane) -> i32 {
    let index = lanes.iter().position(|candidate| *candidate == lane).unwrap_or(0);
    LEFT + LANE_WIDTH * i32::try_from(index).unwrap_or(0)
}

fn band_height(items: &[DiagramItem], moments: &[Moment]) -> i32 {
    if items.is_empty() && moments.is_empty() {
        EMPTY_ROW
    } else {
        ITEM_ROW * i32::try_from(items.len()).unwrap_or(1)
            + MOMENT_ROW * i32::try_from(moments.len()).unwrap_or(0)
            + 6
    }
}

/// A moment's name as its JSON has it (`inbox_duplicate`): the `data-moment` of its callout.
pub fn moment_name(kind: MomentKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|name| name.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Props of [`SequenceDiagram`].
#[derive(Properties, PartialEq)]
pub struct SequenceDiagramProps {
    /// The lanes, left to right ([`idempotency_lab::view::Screen::lanes`]).
    pub lanes: Vec<Lane>,
    /// The steps drawn, each with its items and moments: the screen's window, ending at the
    /// cursor.
    pub steps: Vec<ScreenStep>,
    /// How many steps before them are not drawn.
    pub hidden: usize,
    /// Draws `WINDOW_STEPS` more of the hidden steps.
    pub on_reveal: Callback<()>,
    /// Clicking a step's band goes there.
    pub on_select: Callback<usize>,
    /// What the empty diagram says, when no step is drawn.
    pub empty: Option<String>,
    /// The language of the lane names and the moments' callouts.
    pub language: Language,
    /// What waits at the cursor, with the faults that apply to each item.
    pub pending: Vec<PendingItem>,
    /// Applies a fault (or lets time pass) chosen on a pending item.
    pub on_inject: Callback<Action>,
    /// The presenter view: the current step is kept at [`PRESENTER_STEP_AT`] of the view's
    /// height, with the steps before it above and what waits below.
    #[prop_or_default]
    pub presenter: bool,
}

/// The diagram, in a scrolling box that follows the current (last shown) step.
#[function_component(SequenceDiagram)]
pub fn sequence_diagram(props: &SequenceDiagramProps) -> Html {
    let scroller = use_node_ref();
    // Where the view was, from the bottom, when earlier steps were revealed above it.
    let anchor = use_mut_ref(|| None::<i32>);
    let lanes = &props.lanes;
    let current = props.steps.last().map(|step| step.step);
    use_follow_current_step(scroller.clone(), current, props.pending.clone(), props.presenter);
    use_keep_view_on_reveal(scroller.clone(), anchor.clone());
    let reveal = {
        let scroller = scroller.clone();
        let on_reveal = props.on_reveal.clone();
        move || {
            if let Some(element) = scroller.cast::<web_sys::Element>() {
                *anchor.borrow_mut() = Some(element.scroll_height() - element.scroll_top());
            }
            on_reveal.emit(());
        }
    };
    let hidden = props.hidden;
    let onscroll = {
        let scroller = scroller.clone();
        let reveal = reveal.clone();
        Callback::from(move |_: Event| {
            // Read the position only when there is something to reveal: reading it lays the
            // page out, and following the current step scrolls the box at every step.
            let at_top = || {
                scroller.cast::<web_sys::Element>().is_some_and(|element| element.scroll_top() < 4)
            };
            if hidden > 0 && at_top() {
                reveal();
            }
        })
    };
    let on_earlier = Callback::from(move |_: MouseEvent| reveal());
    let all_pending = use_state(|| false);
    let drawn_pending = drawn_pending(&props.pending, *all_pending);
    let last_x = LEFT + LANE_WIDTH * i32::try_from(lanes.len().saturating_sub(1)).unwrap_or(0);
    let width = last_x + RIGHT;
    let words = props.language.words();
    html! {
        <section class="diagram-box" aria-label={words.labels.ui_sequence_diagram}>
            <div class="diagram-scroll" ref={scroller} data-testid="diagram" {onscroll}>
              <div class="diagram-canvas" style={format!("--diagram-units: {width}")}>
                <svg class="diagram lanes-head" viewBox={format!("0 0 {width} 40")} preserveAspectRatio="xMinYMin meet" aria-hidden="true">
                    { for lanes.iter().map(|lane| lane_name(lane_x(lanes, *lane), &lane.name_in(props.language))) }
                </svg>
                if hidden > 0 {
                    <button type="button" class="earlier" data-testid="diagram-earlier" onclick={on_earlier}>
                        { fill(words.labels.ui_earlier_not_drawn, &[("hidden", &hidden), ("more", &hidden.min(WINDOW_STEPS))]) }
                    </button>
                }
                { drawing(props, lanes, width) }
                { pending_part(lanes, width, &drawn_pending.items, pending_left_out(&drawn_pending, &all_pending, props.language), &props.on_inject, props.language) }
              </div>
            </div>
        </section>
    }
}

/// The widest a lane's name may be, in the drawing's units: the lanes' spacing less a gap.
const LANE_NAME_WIDTH_MAX: i32 = LANE_WIDTH - 12;

/// A lane's name over its line. A name too wide for its lane (by an estimate of its bold
/// glyphs: the drawing cannot measure text) goes on two lines at its last space
/// (the consumer's name over its letter), and a line still too wide is squeezed to the lane's width, so
/// that neighbouring names never run together.
fn lane_name(x: i32, name: &str) -> Html {
    // Widths in the drawing's units at the names' bold 19 px, measured on the page: a Cyrillic
    // letter is wider than a Latin one.
    let estimate = |text: &str| {
        text.chars()
            .map(|c| match c {
                ' ' => 6,
                c if c.is_ascii() => 11,
                _ => 14,
            })
            .sum::<i32>()
    };
    let line = |text: &str, y: i32| {
        let squeeze =
            (estimate(text) > LANE_NAME_WIDTH_MAX).then(|| LANE_NAME_WIDTH_MAX.to_string());
        let adjust = squeeze.as_ref().map(|_| "spacingAndGlyphs");
        html! {
            <text x={x.to_string()} y={y.to_string()} text-anchor="middle" class="lane-name"
                textLength={squeeze} lengthAdjust={adjust}>{ text.to_owned() }</text>
        }
    };
    match name.rsplit_once(' ') {
        Some((first, second)) if estimate(name) > LANE_NAME_WIDTH_MAX => html! {
            <>{ line(first, 17) }{ line(second, 36) }</>
        },
        _ => line(name, 28),
    }
}

/// The SVG of the drawn steps, under the lane names. Each band is keyed by its step and drawn
/// in its own coordinates, moved into place by a `transform`: when the window moves by a step,
/// the bands that stay keep their elements and only their offset changes, and a band whose
/// step did not change is not drawn again ([`DiagramBand`]).
fn drawing(props: &SequenceDiagramProps, lanes: &[Lane], width: i32) -> Html {
    let height: i32 =
        (props.steps.iter().map(|step| band_height(&step.items, &step.moments)).sum::<i32>() + 20)
            .max(80);
    let mut y = 10;
    let drawn_bands: Vec<Html> = props
        .steps
        .iter()
        .map(|step| {
            let top = y;
            y += band_height(&step.items, &step.moments);
            html! {
                <g key={step.step} transform={format!("translate(0 {top})")}>
                    <DiagramBand step={step.clone()} lanes={lanes.to_vec()} {width}
                        language={props.language} on_select={props.on_select.clone()} />
                </g>
            }
        })
        .collect();
    html! {
        <svg class="diagram" viewBox={format!("0 0 {width} {height}")} preserveAspectRatio="xMinYMin meet" aria-hidden="true">
            <defs>
                <marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke" />
                </marker>
            </defs>
            { for lanes.iter().map(|lane| {
                let x = lane_x(lanes, *lane).to_string();
                html! { <line class="lane-line" x1={x.clone()} y1="0" x2={x} y2={height.to_string()} /> }
            }) }
            // The keyed bands alone in their group: a keyed list among unkeyed siblings would
            // be matched by position, and every band replaced at each step.
            <g class="bands">{ for drawn_bands }</g>
            if let Some(empty) = &props.empty {
                <text x={(width / 2).to_string()} y="48" text-anchor="middle" class="hint">{ empty.clone() }</text>
            }
        </svg>
    }
}

/// Props of [`DiagramBand`]. Equal when what the band draws is equal: `on_select` is left out,
/// as it only dispatches the step to the page's reducer and captures nothing that changes.
#[derive(Properties)]
struct DiagramBandProps {
    step: ScreenStep,
    lanes: Vec<Lane>,
    width: i32,
    language: Language,
    on_select: Callback<usize>,
}

impl PartialEq for DiagramBandProps {
    fn eq(&self, other: &DiagramBandProps) -> bool {
        (&self.step, &self.lanes, self.width, self.language)
            == (&other.step, &other.lanes, other.width, other.language)
    }
}

/// One step's band, from its own top: its number, its items, its moments; a click goes there.
#[function_component(DiagramBand)]
fn diagram_band(props: &DiagramBandProps) -> Html {
    let DiagramBandProps { step, lanes, width, language, .. } = props;
    let ScreenStep { step: number, items, moments, current, .. } = step;
    let band = band_height(items, moments);
    let number = *number;
    let on_select = props.on_select.clone();
    let onclick = Callback::from(move |_| on_select.emit(number));
    let class = classes!("step", current.then_some("current"));
    html! {
        <g {class} {onclick} data-step={number.to_string()}>
            <rect class="row-bg" x="0" y="0" width={width.to_string()} height={band.to_string()} />
            <text x="10" y={22.min(band - 4).to_string()} class="step-number">{ number }</text>
            { for items.iter().enumerate().map(|(index, item)| {
                let row_y = 20 + ITEM_ROW * i32::try_from(index).unwrap_or(0);
                draw(lanes, item, row_y)
            }) }
            { for moments.iter().enumerate().map(|(index, moment)| {
                let row_top = 6
                    + ITEM_ROW * i32::try_from(items.len()).unwrap_or(0)
                    + MOMENT_ROW * i32::try_from(index).unwrap_or(0);
                draw_moment(lanes, moment, row_top, *language)
            }) }
        </g>
    }
}

/// Keeps the current step in view: when it or what waits changes, in the presenter view, and
/// whenever the box changes size (the panels beside it may render after it, the window
/// resizes, fullscreen, the type scale).
#[hook]
fn use_follow_current_step(
    scroller: NodeRef,
    current: Option<usize>,
    pending: Vec<PendingItem>,
    presenter: bool,
) {
    {
        let scroller = scroller.clone();
        use_effect_with((current, pending, presenter), move |(_, _, presenter)| {
            if let Some(element) = scroller.cast::<web_sys::Element>() {
                follow_current_step(&element, *presenter);
            }
        });
    }
    let presenter_now = use_mut_ref(|| presenter);
    *presenter_now.borrow_mut() = presenter;
    use_effect_with((), move |_| {
        let observer = scroller.cast::<web_sys::Element>().and_then(|element| {
            let target = element.clone();
            let on_resize = Closure::<dyn FnMut()>::new(move || {
                follow_current_step(&element, *presenter_now.borrow());
            });
            let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
            observer.observe(&target);
            Some((observer, on_resize))
        });
        move || {
            if let Some((observer, _on_resize)) = observer {
                observer.disconnect();
            }
        }
    });
}

/// After earlier steps were revealed above the view, puts the view back where it was (the
/// same distance from the bottom), so the learner keeps their place.
#[hook]
fn use_keep_view_on_reveal(
    scroller: NodeRef,
    anchor: std::rc::Rc<std::cell::RefCell<Option<i32>>>,
) {
    use_effect(move || {
        if let (Some(from_bottom), Some(element)) =
            (anchor.borrow_mut().take(), scroller.cast::<web_sys::Element>())
        {
            element.set_scroll_top(element.scroll_height() - from_bottom);
        }
    });
}

/// Scrolls the diagram to its bottom (the pending part), then back up as far as
/// [`keep_current_step_in_view`] needs.
fn follow_current_step(scroller: &web_sys::Element, presenter: bool) {
    let top = scroller.scroll_height() - scroller.client_height();
    scroller.set_scroll_top(top.max(0));
    keep_current_step_in_view(scroller, presenter);
}

/// After the diagram scrolled to its bottom (the pending part), scrolls back up if that hid
/// the current step under the lane names: the step shown stays in view however much waits.
/// In the presenter view, it scrolls up further, until the step's bottom edge is at
/// [`PRESENTER_STEP_AT`] of the view, so that the steps that led to it show above it.
fn keep_current_step_in_view(scroller: &web_sys::Element, presenter: bool) {
    let (Ok(Some(current)), Ok(Some(head))) =
        (scroller.query_selector(".step.current"), scroller.query_selector(".lanes-head"))
    else {
        return;
    };
    let visible_top = head.get_bounding_client_rect().bottom();
    let visible_bottom = scroller.get_bounding_client_rect().bottom();
    let band = current.get_bounding_client_rect();
    let mut up = (visible_top - band.top() + 4.0).max(0.0);
    if presenter {
        let wanted_bottom = visible_top + (visible_bottom - visible_top) * PRESENTER_STEP_AT;
        up = up.max(wanted_bottom - band.bottom());
    }
    if up > 0.0 {
        scroller.set_scroll_top((scroller.scroll_top() - up.ceil() as i32).max(0));
    }
}

fn draw(lanes: &[Lane], item: &DiagramItem, y: i32) -> Html {
    match item {
        DiagramItem::Arrow { from, to, kind, label, detail } => {
            let (x1, x2) = (lane_x(lanes, *from), lane_x(lanes, *to));
            let (x1, x2) = if x1 <= x2 { (x1 + 5, x2 - 5) } else { (x1 - 5, x2 + 5) };
            let middle = (x1 + x2) / 2;
            html! {
                <g class={classes!("item", "arrow-item", arrow_class(*kind))}>
                    <title>{ detail.clone() }</title>
                    <line class="arrow" x1={x1.to_string()} y1={y.to_string()} x2={x2.to_string()} y2={y.to_string()} marker-end="url(#arrowhead)" />
                    <text class="label" x={middle.to_string()} y={(y - 6).to_string()} text-anchor="middle">{ label.clone() }</text>
                </g>
            }
        }
        DiagramItem::Mark { lane, kind, label, detail } => {
            let x = lane_x(lanes, *lane);
            // On the last lane the label goes to the left, inside the picture.
            let last = lanes.last() == Some(lane);
            let (label_x, anchor) = if last { (x - 16, "end") } else { (x + 16, "start") };
            html! {
                <g class={classes!("item", "mark-item", mark_class(*kind))}>
                    <title>{ detail.clone() }</title>
                    <circle class="mark" cx={x.to_string()} cy={(y - 5).to_string()} r="10" />
                    <text class="symbol" x={x.to_string()} y={y.to_string()} text-anchor="middle">{ mark_symbol(*kind) }</text>
                    <text class="label" x={label_x.to_string()} y={y.to_string()} text-anchor={anchor}>{ label.clone() }</text>
                </g>
            }
        }
    }
}

/// A moment's callout in the row whose top is `top`: a check on its lane and, beside it (to
/// the left on the right half of the diagram), the headline and under it the why.
fn draw_moment(lanes: &[Lane], moment: &Moment, top: i32, language: Language) -> Html {
    let x = lane_x(lanes, moment.lane);
    let middle = (lane_x(lanes, lanes.first().copied().unwrap_or(Lane::Client))
        + lane_x(lanes, lanes.last().copied().unwrap_or(Lane::Client)))
        / 2;
    let (text_x, anchor) = if x > middle { (x - 18, "end") } else { (x + 18, "start") };
    let (headline, why) = (moment.kind.headline(language), moment.kind.why(language));
    html! {
        <g class="item moment" data-moment={moment_name(moment.kind)}>
            <title>{ format!("{headline}: {why}") }</title>
            <circle class="moment-dot" cx={x.to_string()} cy={(top + 18).to_string()} r="10" />
            <text class="symbol" x={x.to_string()} y={(top + 23).to_string()} text-anchor="middle">{ "✓" }</text>
            <text class="moment-headline" x={text_x.to_string()} y={(top + 25).to_string()} text-anchor={anchor}>{ headline }</text>
            <text class="moment-why" x={text_x.to_string()} y={(top + 48).to_string()} text-anchor={anchor}>{ why }</text>
        </g>
    }
}

/// Where `lane` is across the diagram, in percent of its width.
fn lane_percent(lanes: &[Lane], lane: Lane, width: i32) -> f64 {
    f64::from(lane_x(lanes, lane)) * 100.0 / f64::from(width.max(1))
}

/// The pending part: one row per waiting item drawn (`left_out` says how many are not, under
/// the title), its card on its lane (left of the lane when the
/// lane is on the right half), with the item's fault buttons. Rows are keyed by what waits, so
/// a step that adds or removes one item changes one row ([`PendingRow`]).
fn pending_part(
    lanes: &[Lane],
    width: i32,
    pending: &[PendingItem],
    left_out: Html,
    on_inject: &Callback<Action>,
    language: Language,
) -> Html {
    let ui = crate::labels::ui(language);
    let rails = lanes.iter().map(|lane| {
        let style = format!("left: {:.3}%", lane_percent(lanes, *lane, width));
        html! { <span class="pending-rail" {style} /> }
    });
    html! {
        <section class="pending" data-testid="pending" aria-label={ui.waiting_now}>
            { for rails }
            <h3 class="pending-title">
                { if pending.is_empty() { ui.nothing_waits } else { ui.waiting_now } }
            </h3>
            { left_out }
            <ul class="pending-rows">
                { for pending.iter().map(|item| html! {
                    <PendingRow key={item.target.to_string()} item={item.clone()} lanes={lanes.to_vec()}
                        {width} {language} on_inject={on_inject.clone()} />
                }) }
            </ul>
        </section>
    }
}

/// Under the waiting items of a large world, how many are drawn, with a button that draws them
/// all (and one that goes back to the first ones); nothing when every item is drawn anyway.
pub fn pending_left_out(
    drawn: &DrawnPending,
    all: &UseStateHandle<bool>,
    language: Language,
) -> Html {
    if !drawn.crowded {
        return Html::default();
    }
    let words = language.words();
    let toggle = {
        let all = all.clone();
        Callback::from(move |_: MouseEvent| all.set(!*all))
    };
    let number = |count: usize| language.number(count as u64);
    let total = number(drawn.total);
    let (shown, button) = if drawn.left_out() > 0 {
        let shown = fill(
            words.labels.ui_pending_shown,
            &[("shown", &number(drawn.items.len())), ("total", &total)],
        );
        (Some(shown), fill(words.labels.ui_show_all, &[("total", &total)]))
    } else {
        (None, words.labels.ui_show_fewer.to_owned())
    };
    html! {
        <p class="pending-left-out" data-testid="pending-left-out">
            if let Some(shown) = shown { { shown } { " " } }
            <button type="button" class="show-all" onclick={toggle}>{ button }</button>
        </p>
    }
}

/// Props of [`PendingRow`]. Equal when what the row shows is equal: `on_inject` is left out,
/// as it only dispatches the fault to the page's reducer and captures nothing that changes.
#[derive(Properties)]
struct PendingRowProps {
    item: PendingItem,
    lanes: Vec<Lane>,
    width: i32,
    language: Language,
    on_inject: Callback<Action>,
}

impl PartialEq for PendingRowProps {
    fn eq(&self, other: &PendingRowProps) -> bool {
        (&self.item, &self.lanes, self.width, self.language)
            == (&other.item, &other.lanes, other.width, other.language)
    }
}

/// One waiting item: its card on its lane, with its fault buttons.
#[function_component(PendingRow)]
fn pending_row(props: &PendingRowProps) -> Html {
    let PendingRowProps { item, lanes, width, language, on_inject } = props;
    let ui = crate::labels::ui(*language);
    let (style, side) = match item.lane() {
        Some(lane) => {
            let percent = lane_percent(lanes, lane, *width);
            if percent <= 55.0 {
                (format!("margin-left: calc({percent:.3}% - 0.55rem)"), "from-left")
            } else {
                (format!("margin-right: calc({:.3}% - 0.55rem)", 100.0 - percent), "from-right")
            }
        }
        None => ("margin-left: 0.4rem".to_owned(), "from-left"),
    };
    let lane_name = item.lane().map(Lane::name).unwrap_or_else(|| ui.clock.to_owned());
    let shown_name =
        item.lane().map(|lane| lane.name_in(*language)).unwrap_or_else(|| ui.clock.to_owned());
    html! {
        <li class={classes!("pending-row", item.lane().is_none().then_some("clock"))}
            data-testid={format!("pending-{}", item.target)} data-lane={lane_name}>
            <div class={classes!("pending-card", side)} {style}>
                <span class="pending-dot" aria-hidden="true" />
                <span class="pending-label" title={item.detail.clone()}>
                    { item.label.clone() }
                </span>
                if !item.actions.is_empty() {
                    <span class="pending-actions" role="group"
                        aria-label={format!("{} {}: {}", ui.faults_on, shown_name, item.label)}>
                        { for item.actions.iter().map(|action| fault_button(action, *language, on_inject)) }
                    </span>
                }
            </div>
        </li>
    }
}
