//! `run --inject`: a learner's own faults (and any other choice) placed from the command line,
//! as the page's fault buttons place them.
//!
//! A choice is the core's `UserChoice`, exactly what the page records and a share link
//! carries: an anchored action (`AnchoredAction`, its target named by meaning: "delivery 1 of
//! the OrderPlaced of request 0", "the 2nd send of request 0") and the step to look for it at.
//! The core's `Run` plays the choices and takes each at its step, or as near to it as its
//! target allows; the trace then records them as the user's steps, which `lesson --check`
//! and `replay` reproduce. Two spellings:
//! - `[STEP:]ACTION[,FIELD=VALUE...]`: the action by its JSON name or its fault class
//!   (`F2` is `crash_consumer_after_commit`), its target's fields flattened
//!   (`F2,message=0,delivery=1`). Without `STEP`, the choice is taken as early as its target
//!   allows after the choice before it.
//! - a JSON object, the `UserChoice` as the page records it
//!   (`{"step":12,"action":{"action":"double_submit","request":0}}`).
//!
//! Every malformed choice is an [`InjectError`] naming the choice, the field and the value;
//! nothing here panics on an argument.

use std::collections::BTreeMap;

use idempotency_lab::faults::FaultClass;
use idempotency_lab::ids::MessageId;
use idempotency_lab::sim::{
    AnchoredAction, ChoiceOutcome, CopyRef, DeliveryRef, HoldRelease, InstanceId, MessageAnchor,
    RequestIndex, Run, Scenario, SendRef, Trace, UserChoice,
};
use idempotency_lab::view::{self, Language};
use thiserror::Error;

/// The action names `--inject` knows, with their fields, for messages.
const ACTIONS: &[(&str, &str)] = &[
    ("client_send", "request"),
    ("client_timeout", "request"),
    ("client_retry", "request"),
    ("api_step", "request, send"),
    ("deliver_response", "request, send"),
    ("relay_step", ""),
    ("broker_deliver", "message, copy, instance"),
    ("consumer_step", "instance"),
    ("purge_step", ""),
    ("advance_clock", ""),
    ("duplicate_message", "message, copy"),
    ("crash_consumer_after_commit", "message, delivery"),
    ("crash_consumer_before_commit", "message, delivery"),
    ("deliver_concurrently", "message, copy, instance"),
    ("lose_response", "request, send"),
    ("double_submit", "request"),
    ("send_with_key_of", "request, key_of"),
    ("crash_api", "request, send"),
    ("hold_message", "message, copy, until_request or until_ticks"),
    ("duplicate_after_retention", "message, copy"),
    ("retry_with_new_key", "request"),
    ("crash_relay", ""),
];

/// Why a `--inject` choice is refused. Each names the choice (its position and text) and
/// what is wrong with it; exit code 2.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InjectError {
    /// The step before `:` is not a number from 1.
    #[error("--inject #{index} `{choice}`: the step `{value}` is not a number from 1")]
    BadStep {
        /// The choice's position among the `--inject`s, from 1.
        index: usize,
        /// The choice as given (shortened).
        choice: String,
        /// The step as given.
        value: String,
    },
    /// The steps of the choices do not increase.
    #[error(
        "--inject #{index} `{choice}`: step {step} is not after step {previous} of the choice \
         before it: the choices' steps must increase"
    )]
    OutOfOrder {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// Its step.
        step: usize,
        /// The step of the choice before it.
        previous: usize,
    },
    /// No action or fault class of this name.
    #[error(
        "--inject #{index} `{choice}`: `{action}` is not an action; the actions are {} or {}",
        FaultClass::id_range("-"),
        action_names()
    )]
    UnknownAction {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// The action as given.
        action: String,
    },
    /// A part after the action is not `FIELD=VALUE`.
    #[error("--inject #{index} `{choice}`: `{part}` is not FIELD=VALUE")]
    NotFieldValue {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// The part.
        part: String,
    },
    /// A field given twice.
    #[error("--inject #{index} `{choice}`: `{field}` is given twice")]
    RepeatedField {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// The field.
        field: String,
    },
    /// A field the action does not have.
    #[error("--inject #{index} `{choice}`: {action} has no field `{field}`; its fields: {fields}")]
    UnknownField {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// The action.
        action: &'static str,
        /// The field as given.
        field: String,
        /// The action's fields.
        fields: &'static str,
    },
    /// A field the action needs is missing.
    #[error("--inject #{index} `{choice}`: {action} needs `{field}`; its fields: {fields}")]
    MissingField {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// The action.
        action: &'static str,
        /// The missing field.
        field: &'static str,
        /// The action's fields.
        fields: &'static str,
    },
    /// A field's value is not what it must be.
    #[error("--inject #{index} `{choice}`: `{field}={value}` is not {expected}")]
    BadValue {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// The field.
        field: &'static str,
        /// The value as given (shortened).
        value: String,
        /// What it must be.
        expected: String,
    },
    /// The JSON form does not read as a `UserChoice`.
    #[error("--inject #{index}: the JSON choice is malformed at `{path}`: {message}")]
    Json {
        /// The choice's position, from 1.
        index: usize,
        /// The path of the field being read.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The run could not be played with the choices (its scenario is invalid).
    #[error("--inject: the run cannot be played: {message}")]
    Run {
        /// Why, as the core says it.
        message: String,
    },
    /// The choice's target never exists, or its action is never enabled, in this run.
    #[error(
        "--inject #{index} `{choice}`: never taken: {target} does not exist (or its action is \
         never possible) in this run after the choice before it"
    )]
    NotTaken {
        /// The choice's position, from 1.
        index: usize,
        /// The choice as given.
        choice: String,
        /// What it hits, in words.
        target: String,
    },
}

fn action_names() -> String {
    ACTIONS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
}

/// The most characters of an argument a message quotes.
const QUOTED_CHARS_MAX: usize = 120;

fn shortened(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS_MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The action a fault class names (its row of `faults::FAULT_CLASSES`).
fn class_action(class: &str) -> Option<&'static str> {
    FaultClass::from_id(class).map(FaultClass::action_name)
}

/// Reads the `--inject` arguments into the run's choices, in `scenario` (whose requests and
/// consumer instances the fields must name).
pub fn parse_choices(
    arguments: &[String],
    scenario: &Scenario,
) -> Result<Vec<UserChoice>, InjectError> {
    let mut choices: Vec<UserChoice> = Vec::with_capacity(arguments.len());
    for (position, argument) in arguments.iter().enumerate() {
        let index = position.saturating_add(1);
        let previous = choices.last().map_or(0, |choice| choice.step);
        let choice = if argument.trim_start().starts_with('{') {
            parse_json(index, argument)?
        } else {
            let reader = ChoiceReader { index, choice: shortened(argument), scenario };
            reader.parse(argument, previous)?
        };
        if choice.step <= previous {
            return Err(InjectError::OutOfOrder {
                index,
                choice: shortened(argument),
                step: choice.step,
                previous,
            });
        }
        choices.push(choice);
    }
    Ok(choices)
}

fn parse_json(index: usize, argument: &str) -> Result<UserChoice, InjectError> {
    let mut reader = serde_json::Deserializer::from_str(argument);
    let choice: UserChoice =
        serde_path_to_error::deserialize(&mut reader).map_err(|error| InjectError::Json {
            index,
            path: error.path().to_string(),
            message: shortened(&error.inner().to_string()),
        })?;
    reader.end().map_err(|error| InjectError::Json {
        index,
        path: ".".to_owned(),
        message: error.to_string(),
    })?;
    if choice.step == 0 {
        return Err(InjectError::Json {
            index,
            path: "step".to_owned(),
            message: "is 0, but steps count from 1".to_owned(),
        });
    }
    Ok(choice)
}

/// Reads one choice in its compact spelling.
struct ChoiceReader<'a> {
    index: usize,
    choice: String,
    scenario: &'a Scenario,
}

impl ChoiceReader<'_> {
    fn parse(&self, argument: &str, previous: usize) -> Result<UserChoice, InjectError> {
        let (step, rest) = match argument.split_once(':') {
            Some((step, rest)) => {
                let parsed = step.trim().parse::<usize>().ok().filter(|step| *step >= 1);
                let step = parsed.ok_or_else(|| InjectError::BadStep {
                    index: self.index,
                    choice: self.choice.clone(),
                    value: shortened(step),
                })?;
                (step, rest)
            }
            None => (previous.saturating_add(1), argument),
        };
        let mut parts = rest.split(',').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let (action, fields_text) = class_action(name)
            .or_else(|| ACTIONS.iter().map(|(action, _)| *action).find(|action| *action == name))
            .and_then(|action| ACTIONS.iter().find(|(known, _)| *known == action).copied())
            .ok_or_else(|| InjectError::UnknownAction {
                index: self.index,
                choice: self.choice.clone(),
                action: shortened(name),
            })?;
        let mut fields = BTreeMap::new();
        for part in parts.filter(|part| !part.is_empty()) {
            let (field, value) =
                part.split_once('=').ok_or_else(|| InjectError::NotFieldValue {
                    index: self.index,
                    choice: self.choice.clone(),
                    part: shortened(part),
                })?;
            if fields.insert(field.trim(), value.trim()).is_some() {
                return Err(InjectError::RepeatedField {
                    index: self.index,
                    choice: self.choice.clone(),
                    field: shortened(field),
                });
            }
        }
        let mut read = Fields { reader: self, action, fields_text, fields };
        let anchored = read.action()?;
        if let Some(field) = read.fields.keys().next() {
            return Err(InjectError::UnknownField {
                index: self.index,
                choice: self.choice.clone(),
                action,
                field: shortened(field),
                fields: if fields_text.is_empty() { "none" } else { fields_text },
            });
        }
        Ok(UserChoice { step, action: anchored })
    }
}

/// The fields of one choice, taken one by one as its action needs them.
struct Fields<'a, 'b> {
    reader: &'a ChoiceReader<'b>,
    action: &'static str,
    fields_text: &'static str,
    fields: BTreeMap<&'a str, &'a str>,
}

impl<'a> Fields<'a, '_> {
    fn action(&mut self) -> Result<AnchoredAction, InjectError> {
        use AnchoredAction as A;
        Ok(match self.action {
            "client_send" => A::ClientSend { request: self.request("request")? },
            "client_timeout" => A::ClientTimeout { request: self.request("request")? },
            "client_retry" => A::ClientRetry { request: self.request("request")? },
            "api_step" => A::ApiStep { send: self.send()? },
            "deliver_response" => A::DeliverResponse { send: self.send()? },
            "relay_step" => A::RelayStep,
            "broker_deliver" => A::BrokerDeliver { copy: self.copy()?, instance: self.instance()? },
            "consumer_step" => A::ConsumerStep { instance: self.instance()? },
            "purge_step" => A::PurgeStep,
            "advance_clock" => A::AdvanceClock,
            "duplicate_message" => A::DuplicateMessage { copy: self.copy()? },
            "crash_consumer_after_commit" => {
                A::CrashConsumerAfterCommit { delivery: self.delivery()? }
            }
            "crash_consumer_before_commit" => {
                A::CrashConsumerBeforeCommit { delivery: self.delivery()? }
            }
            "deliver_concurrently" => {
                A::DeliverConcurrently { copy: self.copy()?, instance: self.instance()? }
            }
            "lose_response" => A::LoseResponse { send: self.send()? },
            "double_submit" => A::DoubleSubmit { request: self.request("request")? },
            "send_with_key_of" => A::SendWithKeyOf {
                request: self.request("request")?,
                key_of: self.request("key_of")?,
            },
            "crash_api" => A::CrashApi { send: self.send()? },
            "hold_message" => A::HoldMessage { copy: self.copy()?, until: self.until()? },
            "duplicate_after_retention" => A::DuplicateAfterRetention { copy: self.copy()? },
            "retry_with_new_key" => A::RetryWithNewKey { request: self.request("request")? },
            _ => A::CrashRelay,
        })
    }

    fn missing(&self, field: &'static str) -> InjectError {
        InjectError::MissingField {
            index: self.reader.index,
            choice: self.reader.choice.clone(),
            action: self.action,
            field,
            fields: self.fields_text,
        }
    }

    fn bad(&self, field: &'static str, value: &str, expected: String) -> InjectError {
        InjectError::BadValue {
            index: self.reader.index,
            choice: self.reader.choice.clone(),
            field,
            value: shortened(value),
            expected,
        }
    }

    /// The field's value, removed from those left to read.
    fn take(&mut self, field: &'static str) -> Result<&'a str, InjectError> {
        self.fields.remove(field).ok_or_else(|| self.missing(field))
    }

    /// A number in `min..=max`.
    fn number(&mut self, field: &'static str, min: u64, max: u64) -> Result<u64, InjectError> {
        self.number_as(field, min, max, "a number")
    }

    /// A number in `min..=max`, which the message calls `what`.
    fn number_as(
        &mut self,
        field: &'static str,
        min: u64,
        max: u64,
        what: &str,
    ) -> Result<u64, InjectError> {
        let value = self.take(field)?;
        match value.parse::<u64>() {
            Ok(number) if (min..=max).contains(&number) => Ok(number),
            _ => Err(self.bad(field, value, format!("{what} from {min} to {max}"))),
        }
    }

    fn request(&mut self, field: &'static str) -> Result<RequestIndex, InjectError> {
        let requests = self.reader.scenario.requests.len();
        if requests == 0 {
            let value = self.take(field)?;
            return Err(self.bad(field, value, "a request: the scenario sends none".to_owned()));
        }
        let last = u64::try_from(requests - 1).unwrap_or(u64::MAX);
        let number = self.number_as(field, 0, last, "a request of the scenario")?;
        Ok(RequestIndex(usize::try_from(number).unwrap_or(usize::MAX)))
    }

    fn count_from_one(&mut self, field: &'static str) -> Result<u32, InjectError> {
        let number = self.number(field, 1, u64::from(u32::MAX))?;
        Ok(u32::try_from(number).unwrap_or(u32::MAX))
    }

    fn send(&mut self) -> Result<SendRef, InjectError> {
        Ok(SendRef { request: self.request("request")?, send: self.count_from_one("send")? })
    }

    fn message(&mut self) -> Result<MessageAnchor, InjectError> {
        let value = self.take("message")?;
        if value.bytes().all(|byte| byte.is_ascii_digit()) {
            self.fields.insert("message", value);
            return Ok(MessageAnchor::OrderPlacedOf(self.request("message")?));
        }
        let id: Option<MessageId> =
            serde_json::from_value(serde_json::Value::String(value.to_owned())).ok();
        id.map(MessageAnchor::Id).ok_or_else(|| {
            let expected = "a request's index (its OrderPlaced) or a message id (a UUID)";
            self.bad("message", value, expected.to_owned())
        })
    }

    fn copy(&mut self) -> Result<CopyRef, InjectError> {
        let message = self.message()?;
        let copy = self.number("copy", 0, u64::from(u32::MAX))?;
        Ok(CopyRef { message, copy: u32::try_from(copy).unwrap_or(u32::MAX) })
    }

    fn delivery(&mut self) -> Result<DeliveryRef, InjectError> {
        Ok(DeliveryRef { message: self.message()?, delivery: self.count_from_one("delivery")? })
    }

    fn instance(&mut self) -> Result<InstanceId, InjectError> {
        let instances = self.reader.scenario.consumers.instances;
        let last = u64::try_from(instances.saturating_sub(1)).unwrap_or(u64::MAX);
        let number = self.number_as("instance", 0, last, "a consumer instance of the scenario")?;
        Ok(InstanceId(usize::try_from(number).unwrap_or(usize::MAX)))
    }

    fn until(&mut self) -> Result<HoldRelease, InjectError> {
        match (self.fields.contains_key("until_request"), self.fields.contains_key("until_ticks")) {
            (true, false) => {
                Ok(HoldRelease::RequestAnswered { request: self.request("until_request")? })
            }
            (false, true) => {
                Ok(HoldRelease::Ticks { ticks: self.number("until_ticks", 0, u64::MAX)? })
            }
            (false, false) => Err(self.missing("until_request")),
            (true, true) => {
                let value = self.take("until_ticks")?;
                Err(self.bad(
                    "until_ticks",
                    value,
                    "given with until_request: one of the two".to_owned(),
                ))
            }
        }
    }
}

/// Plays `scenario` with `seed` and the learner's `choices` to its end, each choice taken at
/// its step or as near as its target allows (the core's `Run`); a choice never taken is an
/// error naming it (`arguments` are the choices as given, for the message).
pub fn run_with_choices(
    scenario: Scenario,
    seed: u64,
    choices: Vec<UserChoice>,
    arguments: &[String],
) -> Result<Trace, InjectError> {
    let run = Run { scenario, seed, choices };
    let played =
        run.play_to_end().map_err(|error| InjectError::Run { message: error.to_string() })?;
    for (position, outcome) in played.outcomes.iter().enumerate() {
        if *outcome == ChoiceOutcome::TargetMissing {
            return Err(InjectError::NotTaken {
                index: position.saturating_add(1),
                choice: arguments.get(position).map(|text| shortened(text)).unwrap_or_default(),
                target: run
                    .choices
                    .get(position)
                    .map(|c| view::choice_target_text(&c.action, Language::En))
                    .unwrap_or_default(),
            });
        }
    }
    Ok(played.simulation.into_trace())
}
