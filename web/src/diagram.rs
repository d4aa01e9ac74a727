//! The sequence diagram of the run, as SVG, drawn from the core's diagram model
//! (`idempotency_lab::sim::diagram`): one lane per participant (Client, API, Store, Relay,
//! Broker, Consumer A, Consumer B, ...), one band per step with a row per item, an arrow for
//! each request, response, statement, commit, publish, delivery and ack, and a mark for
//! crashes, lost answers, duplicates, timeouts and broken invariants. The current step is
//! highlighted and scrolled into view; the lane names stay on top; large fonts, so that it
//! reads on a projector. This file only maps the model to coordinates.

use idempotency_lab::sim::{ArrowKind, DiagramItem, Lane, MarkKind, TraceStep, step_items};
use yew::prelude::*;

const LANE_WIDTH: i32 = 150;
const LEFT: i32 = 90;
const RIGHT: i32 = 120;
const ITEM_ROW: i32 = 32;
const EMPTY_ROW: i32 = 18;

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

fn band_height(items: &[DiagramItem]) -> i32 {
    if items.is_empty() {
        EMPTY_ROW
    } else {
        ITEM_ROW * i32::try_from(items.len()).unwrap_or(1) + 6
    }
}

/// Props of [`SequenceDiagram`].
#[derive(Properties, PartialEq)]
pub struct SequenceDiagramProps {
    /// The lanes, left to right (`sim::lanes` of the scenario).
    pub lanes: Vec<Lane>,
    /// The steps shown (up to the cursor).
    pub steps: Vec<TraceStep>,
    /// Clicking a step's band goes there.
    pub on_select: Callback<usize>,
}

/// The diagram, in a scrolling box that follows the current (last shown) step.
#[function_component(SequenceDiagram)]
pub fn sequence_diagram(props: &SequenceDiagramProps) -> Html {
    let scroller = use_node_ref();
    let mut lanes = props.lanes.clone();
    let bands: Vec<(usize, Vec<DiagramItem>)> =
        props.steps.iter().map(|step| (step.step, step_items(step))).collect();
    for (_, items) in &bands {
        for item in items {
            let used = match item {
                DiagramItem::Arrow { from, to, .. } => vec![*from, *to],
                DiagramItem::Mark { lane, .. } => vec![*lane],
            };
            for lane in used {
                if !lanes.contains(&lane) {
                    lanes.push(lane);
                    lanes.sort();
                }
            }
        }
    }
    let last_x = LEFT + LANE_WIDTH * i32::try_from(lanes.len().saturating_sub(1)).unwrap_or(0);
    let width = last_x + RIGHT;
    let height: i32 = (bands.iter().map(|(_, items)| band_height(items)).sum::<i32>() + 20).max(80);
    let current = props.steps.last().map(|step| step.step);
    {
        let scroller = scroller.clone();
        use_effect_with((props.steps.len(), height), move |_| {
            if let Some(element) = scroller.cast::<web_sys::Element>() {
                let top = element.scroll_height() - element.client_height();
                element.set_scroll_top(top.max(0));
            }
        });
    }
    let mut y = 10;
    let drawn_bands: Vec<Html> = bands
        .iter()
        .map(|(number, items)| {
            let top = y;
            let band = band_height(items);
            y += band;
            let number = *number;
            let on_select = props.on_select.clone();
            let onclick = Callback::from(move |_| on_select.emit(number));
            let class = classes!("step", (Some(number) == current).then_some("current"));
            html! {
                <g {class} {onclick} data-step={number.to_string()}>
                    <rect class="row-bg" x="0" y={top.to_string()} width={width.to_string()} height={band.to_string()} />
                    <text x="10" y={(top + 22.min(band - 4)).to_string()} class="step-number">{ number }</text>
                    { for items.iter().enumerate().map(|(index, item)| {
                        let row_y = top + 20 + ITEM_ROW * i32::try_from(index).unwrap_or(0);
                        draw(&lanes, item, row_y)
                    }) }
                </g>
            }
        })
        .collect();
    html! {
        <section class="diagram-box" aria-label="Sequence diagram">
            <svg class="diagram lanes-head" viewBox={format!("0 0 {width} 40")} preserveAspectRatio="xMinYMin meet">
                { for lanes.iter().map(|lane| html! {
                    <text x={lane_x(&lanes, *lane).to_string()} y="28" text-anchor="middle" class="lane-name">{ lane.name() }</text>
                }) }
            </svg>
            <div class="diagram-scroll" ref={scroller} data-testid="diagram">
                <svg class="diagram" viewBox={format!("0 0 {width} {height}")} preserveAspectRatio="xMinYMin meet" role="img"
                    aria-label="Sequence diagram of the run">
                    <defs>
                        <marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke" />
                        </marker>
                    </defs>
                    { for lanes.iter().map(|lane| {
                        let x = lane_x(&lanes, *lane).to_string();
                        html! { <line class="lane-line" x1={x.clone()} y1="0" x2={x} y2={height.to_string()} /> }
                    }) }
                    { for drawn_bands }
                    if bands.is_empty() {
                        <text x={(width / 2).to_string()} y="48" text-anchor="middle" class="hint">{ "Press Step (→) or Play (space) to start the run." }</text>
                    }
                </svg>
            </div>
        </section>
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
