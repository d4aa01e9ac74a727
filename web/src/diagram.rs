//! The sequence diagram of the run, as SVG: one lane per participant (Client, API, Store,
//! Relay, Broker, Consumer A, Consumer B), one row per step, an arrow for each request,
//! response, commit, publish, delivery and ack, and a mark for crashes, lost answers,
//! duplicates and clock jumps. The current step is highlighted and scrolled into view; large
//! fonts, so that it reads on a projector.

use idempotency_lab::sim::{Action, InstanceId, SimEvent, TraceStep};
use yew::prelude::*;

/// The fixed lanes, left to right; consumer instances beyond B get lanes of their own.
pub const LANES: [&str; 7] = ["Client", "API", "Store", "Relay", "Broker", "Consumer A", "Consumer B"];

const LANE_WIDTH: i32 = 150;
const LEFT: i32 = 70;
const HEADER: i32 = 56;
const ROW: i32 = 38;

/// What a step looks like in the diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An arrow between two lanes.
    Arrow {
        /// From this lane.
        from: usize,
        /// To this lane.
        to: usize,
    },
    /// A mark on one lane.
    Mark {
        /// The lane.
        lane: usize,
    },
    /// A line across every lane (the clock).
    Across,
}

/// How a step is drawn: its shape, its label and its kind (a CSS class).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Arrow, mark or line.
    pub shape: Shape,
    /// The text beside it.
    pub label: String,
    /// `request`, `response`, `commit`, `publish`, `deliver`, `ack`, `crash`, `lost`,
    /// `duplicate`, `note`, `clock`.
    pub kind: &'static str,
}

fn consumer_lane(instance: InstanceId) -> usize {
    5 + instance.0
}

fn short(text: &str) -> String {
    const MAX: usize = 34;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

/// How `step` is drawn.
pub fn item_of(step: &TraceStep) -> Item {
    let (client, api, store, relay, broker) = (0, 1, 2, 3, 4);
    let arrow = |from, to, label: String, kind| Item { shape: Shape::Arrow { from, to }, label, kind };
    let mark = |lane, label: String, kind| Item { shape: Shape::Mark { lane }, label, kind };
    let statement = || short(step.statement.as_deref().unwrap_or("step"));
    let commits = !step.row_changes.is_empty();
    match &step.action {
        Action::ClientSend { request } => arrow(client, api, format!("request {request}"), "request"),
        Action::ClientRetry { request } => arrow(client, api, format!("retry {request}"), "request"),
        Action::DoubleSubmit { request } => {
            arrow(client, api, format!("double submit {request}"), "duplicate")
        }
        Action::SendWithKeyOf { request, key_of } => {
            arrow(client, api, format!("{request} with key of {key_of}"), "duplicate")
        }
        Action::RetryWithNewKey { request } => {
            arrow(client, api, format!("retry {request}, new key"), "duplicate")
        }
        Action::ClientTimeout { request } => mark(client, format!("timeout {request}"), "note"),
        Action::ApiStep { .. } => {
            let answered = step.events.iter().find_map(|event| match event {
                SimEvent::Answered { status, .. } => Some(*status),
                _ => None,
            });
            match answered {
                Some(status) if commits => arrow(api, store, format!("commit, answer {status}"), "commit"),
                Some(status) => mark(api, format!("answer {status}"), "note"),
                None if commits => arrow(api, store, statement(), "commit"),
                None => mark(api, statement(), "note"),
            }
        }
        Action::DeliverResponse { attempt } => arrow(api, client, format!("response {attempt}"), "response"),
        Action::LoseResponse { attempt } => arrow(api, client, format!("✗ response {attempt} lost"), "lost"),
        Action::CrashApi { .. } => mark(api, "✗ API crashed".to_owned(), "crash"),
        Action::RelayStep => {
            let published =
                step.events.iter().any(|event| matches!(event, SimEvent::Published { .. }));
            if published {
                arrow(relay, broker, "publish".to_owned(), "publish")
            } else if commits {
                arrow(relay, store, statement(), "commit")
            } else {
                mark(relay, statement(), "note")
            }
        }
        Action::CrashRelay => mark(relay, "✗ relay crashed".to_owned(), "crash"),
        Action::BrokerDeliver { entry, instance } => {
            arrow(broker, consumer_lane(*instance), format!("deliver {entry}"), "deliver")
        }
        Action::DeliverConcurrently { entry, instance } => {
            arrow(broker, consumer_lane(*instance), format!("deliver {entry} again"), "duplicate")
        }
        Action::DuplicateMessage { entry } => mark(broker, format!("⧉ duplicate {entry}"), "duplicate"),
        Action::DuplicateAfterRetention { entry } => {
            mark(broker, format!("⧉ late duplicate {entry}"), "duplicate")
        }
        Action::HoldMessage { entry, .. } => mark(broker, format!("hold {entry}"), "note"),
        Action::ConsumerStep { instance } => {
            let lane = consumer_lane(*instance);
            let acked =
                step.events.iter().any(|event| matches!(event, SimEvent::MessageConsumed { .. }));
            if acked {
                arrow(lane, broker, "ack".to_owned(), "ack")
            } else if commits {
                arrow(lane, store, statement(), "commit")
            } else {
                mark(lane, statement(), "note")
            }
        }
        Action::CrashConsumerAfterCommit { instance } | Action::CrashConsumerBeforeCommit { instance } => {
            mark(consumer_lane(*instance), "✗ crashed".to_owned(), "crash")
        }
        Action::PurgeStep => mark(store, "retention purge".to_owned(), "note"),
        Action::AdvanceClock { ticks } => {
            Item { shape: Shape::Across, label: format!("clock +{ticks}"), kind: "clock" }
        }
    }
}

fn lane_x(lane: usize) -> i32 {
    LEFT + LANE_WIDTH * i32::try_from(lane).unwrap_or(0)
}

/// Props of [`SequenceDiagram`].
#[derive(Properties, PartialEq)]
pub struct SequenceDiagramProps {
    /// The steps shown (up to the cursor).
    pub steps: Vec<TraceStep>,
    /// Clicking a step's row goes there.
    pub on_select: Callback<usize>,
}

/// The diagram, in a scrolling box that follows the current (last shown) step.
#[function_component(SequenceDiagram)]
pub fn sequence_diagram(props: &SequenceDiagramProps) -> Html {
    let scroller = use_node_ref();
    let items: Vec<Item> = props.steps.iter().map(item_of).collect();
    let lanes_used = items
        .iter()
        .map(|item| match item.shape {
            Shape::Arrow { from, to } => from.max(to),
            Shape::Mark { lane } => lane,
            Shape::Across => 0,
        })
        .max()
        .unwrap_or(0)
        .max(LANES.len() - 1);
    let lane_names: Vec<String> = (0..=lanes_used)
        .map(|lane| match LANES.get(lane) {
            Some(name) => (*name).to_owned(),
            None => InstanceId(lane - 5).lane_name(),
        })
        .collect();
    let width = lane_x(lanes_used) + LEFT;
    let rows = i32::try_from(items.len()).unwrap_or(i32::MAX / ROW - 2);
    let height = HEADER + ROW * (rows + 1);
    {
        let scroller = scroller.clone();
        use_effect_with(items.len(), move |count| {
            if let Some(element) = scroller.cast::<web_sys::Element>() {
                let bottom = HEADER + ROW * (i32::try_from(*count).unwrap_or(0) + 1);
                let top = (bottom - element.client_height() + ROW).max(0);
                element.set_scroll_top(top);
            }
        });
    }
    let current = items.len();
    html! {
        <section class="diagram-box" aria-label="Sequence diagram">
            <div class="diagram-scroll" ref={scroller} data-testid="diagram">
                <svg class="diagram" width={width.to_string()} height={height.to_string()}
                    viewBox={format!("0 0 {width} {height}")} role="img">
                    <defs>
                        <marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke" />
                        </marker>
                    </defs>
                    { for lane_names.iter().enumerate().map(|(lane, name)| {
                        let x = lane_x(lane);
                        html! {
                            <g class="lane">
                                <line x1={x.to_string()} y1={(HEADER - 10).to_string()} x2={x.to_string()} y2={height.to_string()} />
                                <text x={x.to_string()} y="30" text-anchor="middle" class="lane-name">{ name.clone() }</text>
                            </g>
                        }
                    }) }
                    { for items.iter().enumerate().map(|(index, item)| {
                        let number = index + 1;
                        let y = HEADER + ROW * i32::try_from(number).unwrap_or(0);
                        let on_select = props.on_select.clone();
                        let onclick = Callback::from(move |_| on_select.emit(number));
                        let class = classes!("step", item.kind, (number == current).then_some("current"));
                        html! {
                            <g {class} {onclick} data-step={number.to_string()}>
                                <rect class="row-bg" x="0" y={(y - ROW / 2 - 4).to_string()} width={width.to_string()} height={ROW.to_string()} />
                                <text x="8" y={(y + 5).to_string()} class="step-number">{ number }</text>
                                { draw(item, y, width) }
                            </g>
                        }
                    }) }
                </svg>
            </div>
        </section>
    }
}

fn draw(item: &Item, y: i32, width: i32) -> Html {
    match item.shape {
        Shape::Arrow { from, to } => {
            let (x1, x2) = (lane_x(from), lane_x(to));
            let (x1, x2) = if x1 < x2 { (x1 + 6, x2 - 6) } else { (x1 - 6, x2 + 6) };
            let middle = (x1 + x2) / 2;
            html! {
                <>
                    <line class="arrow" x1={x1.to_string()} y1={y.to_string()} x2={x2.to_string()} y2={y.to_string()} marker-end="url(#arrowhead)" />
                    <text class="label" x={middle.to_string()} y={(y - 6).to_string()} text-anchor="middle">{ item.label.clone() }</text>
                </>
            }
        }
        Shape::Mark { lane } => {
            let x = lane_x(lane);
            html! {
                <>
                    <circle class="mark" cx={x.to_string()} cy={y.to_string()} r="7" />
                    <text class="label" x={(x + 14).to_string()} y={(y + 6).to_string()}>{ item.label.clone() }</text>
                </>
            }
        }
        Shape::Across => html! {
            <>
                <line class="across" x1={LEFT.to_string()} y1={y.to_string()} x2={(width - LEFT).to_string()} y2={y.to_string()} />
                <text class="label" x={(width / 2).to_string()} y={(y - 6).to_string()} text-anchor="middle">{ item.label.clone() }</text>
            </>
        },
    }
}
