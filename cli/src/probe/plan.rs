//! A schedule as the requests it sends: phases run one after another, the sends of one phase
//! at once (each on its own thread, after its delay). Each send carries its [`Role`], what the
//! IETF draft (draft-ietf-httpapi-idempotency-key-header) or a webhook sender expects of its
//! answer, which `judge` checks. Pure: requests are values here.

use crate::probe::file::{Keying, ProbeFile};
use crate::probe::schedule::{Fault, Operation, Schedule};
use crate::probe::template::Values;

/// What a send is, and so what its answer must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The operation's first send: applied, a 2xx.
    First,
    /// The same request again once the first was answered: the same answer (status and body).
    Repeat,
    /// A copy at once with others, or a retry while the first is in flight: the same answer,
    /// or 409 while the first is in progress.
    Overlapping,
    /// The key with another body: 422, nothing applied.
    Reused,
    /// No key on an endpoint that requires one: 400, nothing applied.
    Keyless,
    /// Sent, then the connection closed before the answer: no answer to judge; the service
    /// may or may not process it, and the retries that follow must find out.
    HungUp,
}

/// One request of a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Send {
    /// The operation, an index into the schedule's operations.
    pub operation: usize,
    /// What it is.
    pub role: Role,
    /// Whether the prober drops the answer (read, then ignored as if lost).
    pub answer_dropped: bool,
    /// How long after the phase starts it is sent, in milliseconds.
    pub delay_ms: u64,
}

/// Sends that start together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// One or more; more than one run at once.
    pub sends: Vec<Send>,
}

/// A concrete HTTP request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `POST`, `PUT` or `PATCH`.
    pub method: &'static str,
    /// The full URL.
    pub url: String,
    /// Headers in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

fn single(operation: usize, role: Role, answer_dropped: bool) -> Phase {
    Phase { sends: vec![Send { operation, role, answer_dropped, delay_ms: 0 }] }
}

/// The phases of one operation.
fn operation_phases(index: usize, fault: Option<Fault>, in_flight_delay_ms: u64) -> Vec<Phase> {
    let first = || single(index, Role::First, false);
    match fault {
        None | Some(Fault::Reorder) => vec![first()],
        Some(Fault::Duplicate) => vec![first(), single(index, Role::Repeat, false)],
        Some(Fault::LostResponse) => {
            vec![single(index, Role::First, true), single(index, Role::Repeat, false)]
        }
        Some(Fault::HangUp) => vec![
            Phase {
                sends: vec![
                    Send {
                        operation: index,
                        role: Role::HungUp,
                        answer_dropped: false,
                        delay_ms: 0,
                    },
                    Send {
                        operation: index,
                        role: Role::Overlapping,
                        answer_dropped: false,
                        delay_ms: in_flight_delay_ms,
                    },
                ],
            },
            single(index, Role::Repeat, false),
        ],
        Some(Fault::KeyReuse) => vec![first(), single(index, Role::Reused, false)],
        Some(Fault::MissingKey) => vec![first(), single(index, Role::Keyless, false)],
        Some(Fault::Concurrent { copies }) => {
            let send = |_| Send {
                operation: index,
                role: Role::Overlapping,
                answer_dropped: false,
                delay_ms: 0,
            };
            vec![Phase { sends: (0..copies.max(2)).map(send).collect() }]
        }
        Some(Fault::RetryInFlight) => vec![Phase {
            sends: vec![
                Send { operation: index, role: Role::First, answer_dropped: false, delay_ms: 0 },
                Send {
                    operation: index,
                    role: Role::Overlapping,
                    answer_dropped: false,
                    delay_ms: in_flight_delay_ms,
                },
            ],
        }],
    }
}

/// The phases of `schedule`, in order; a reordered operation's phases come after the next
/// operation's.
pub fn plan(schedule: &Schedule, in_flight_delay_ms: u64) -> Vec<Phase> {
    let mut order: Vec<usize> = (0..schedule.operations.len()).collect();
    let mut index = 0;
    while index + 1 < order.len() {
        if schedule.operations[order[index]].fault == Some(Fault::Reorder) {
            order.swap(index, index + 1);
            index += 2;
        } else {
            index += 1;
        }
    }
    order
        .into_iter()
        .flat_map(|index| {
            let fault = schedule.operations[index].fault;
            operation_phases(index, fault, in_flight_delay_ms)
        })
        .collect()
}

/// The request `send` makes.
pub fn request(file: &ProbeFile, operation: &Operation, role: Role) -> Request {
    let (number, uuid) = match role {
        Role::Reused => (operation.number + 1000, operation.other_uuid.as_str()),
        _ => (operation.number, operation.uuid.as_str()),
    };
    let key = operation.key.as_str();
    let mut body = file.target.body.render(Values { number, uuid, key });
    let mut headers = file.target.headers.clone();
    match &file.keying {
        Keying::Api { key_header, .. } => {
            if role != Role::Keyless {
                headers.push((key_header.clone(), key.to_owned()));
            }
        }
        Keying::Webhook { event_id_pointer } => {
            body = with_event_id(&body, event_id_pointer, key);
        }
    }
    Request {
        method: file.target.method.name(),
        url: format!("{}{}", file.target.base_url.url, file.target.path),
        headers,
        body,
    }
}

/// `body` with `id` written at `pointer`, if the body is JSON with an object there (or its
/// parent); otherwise unchanged, and the service will say what it makes of it.
fn with_event_id(body: &str, pointer: &str, id: &str) -> String {
    let Ok(mut json) = serde_json::from_str::<serde_json::Value>(body) else {
        return body.to_owned();
    };
    let (parent, field) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    let field = field.replace("~1", "/").replace("~0", "~");
    if let Some(serde_json::Value::Object(object)) = json.pointer_mut(parent) {
        object.insert(field, serde_json::Value::String(id.to_owned()));
        return json.to_string();
    }
    body.to_owned()
}
