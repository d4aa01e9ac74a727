//! The share link: the state of a run on the page as a URL fragment, so that a link opens the
//! same run at the same step.
//!
//! A run is a pure function of (scenario, seed) plus the actions the user chose by hand
//! ([`crate::sim::Choice::User`]: the page's "duplicate this delivery" buttons), each taken
//! at a step number; a link names these and the step the page shows:
//!
//! ```text
//! #v=1&s=f01-duplicate-delivery&seed=3&p=nnni&u=W3sic3RlcCI6NSwi...&step=12
//! ```
//!
//! - `v`: the link format, [`SHARE_FORMAT_VERSION`]; read first, so a link of a later
//!   version is refused as such rather than for a field this build does not know;
//! - `s`: a catalogue scenario's id, or `j`: a whole scenario (an imported one), as compact
//!   JSON in base64url (RFC 4648 §5, no padding; padding is accepted on reading);
//! - `seed`: the seed, in decimal;
//! - `p`: the pattern switches P1-P4, one letter each, `n` naive, `i` idempotent; they
//!   replace the scenario's own `patterns` (absent: the scenario's own);
//! - `u` (absent when empty): the user's choices, a JSON array of [`UserChoice`] in base64url;
//! - `step`: the number of steps the page shows (0: the start).
//!
//! Fields may come in any order; an unknown or repeated field is refused. The fragment may be
//! given with or without its `#`, or as a whole URL (everything up to the first `#` is
//! ignored). Reading never panics: every fault is a [`ShareError`] naming the field and what
//! was wrong with it. [`ShareLink::open`] turns a link into the run: the whole trace and a
//! [`Simulation`] that has taken exactly `step` steps.

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::sim::{
    Action, ApplyError, CatalogueError, Choice, PatternMode, Patterns, Scenario, ScenarioError,
    Simulation, Trace, catalogue_scenario,
};

/// The version of the link format this crate reads and writes.
pub const SHARE_FORMAT_VERSION: u32 = 1;

/// How much of a faulty value an error repeats.
const QUOTED_CHARS_MAX: usize = 64;

const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// An action the user chose by hand, and the step it was taken at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserChoice {
    /// The step's number, from 1.
    pub step: usize,
    /// The action taken.
    pub action: Action,
}

/// The user's choices recorded in a trace: its steps chosen by [`Choice::User`], in order.
pub fn user_choices(trace: &Trace) -> Vec<UserChoice> {
    trace
        .steps
        .iter()
        .filter(|step| step.chosen_by == Choice::User)
        .map(|step| UserChoice { step: step.step, action: step.action.clone() })
        .collect()
}

/// Where a link's scenario comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SharedScenario {
    /// A built-in scenario, by id (`s=`).
    Catalogue {
        /// Its id in [`crate::sim::CATALOGUE`].
        id: String,
    },
    /// A whole scenario, carried in the link (`j=`): an imported one, or an edited lesson.
    Inline {
        /// The scenario.
        scenario: Box<Scenario>,
    },
}

/// The state of a run on the page, as a link carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareLink {
    /// The scenario.
    pub scenario: SharedScenario,
    /// The seed.
    pub seed: u64,
    /// The pattern switches; they replace the scenario's own.
    pub patterns: Patterns,
    /// The user's choices, by step, strictly increasing from step 1.
    pub user_choices: Vec<UserChoice>,
    /// The number of steps the page shows (0: the start).
    pub step: usize,
}

/// A link turned into its run.
#[derive(Clone, Debug)]
pub struct OpenedLink {
    /// The whole run: the user's choices taken at their steps, the scheduler everywhere
    /// else, to its end.
    pub trace: Trace,
    /// The same run after exactly the link's `step` steps, ready to step on.
    pub simulation: Simulation,
}

/// Why a link could not be read or opened.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShareError {
    /// The fragment is empty.
    #[error("the link has no fragment to read")]
    Empty,
    /// The link is longer than any accepted run's link could be ([`crate::sim::bounds::LINK`]).
    #[error("the link has {chars} characters, more than the {max} accepted")]
    TooLong {
        /// Its length.
        chars: usize,
        /// The most accepted.
        max: u64,
    },
    /// A part between `&`s has no `=`.
    #[error("the link's part {part:?} is not of the form name=value")]
    MalformedPart {
        /// The part (its first characters).
        part: String,
    },
    /// A field this format does not know.
    #[error("the link has an unknown field {field:?}")]
    UnknownField {
        /// The field's name (its first characters).
        field: String,
    },
    /// A field given twice.
    #[error("the link gives the field {field:?} twice")]
    DuplicateField {
        /// The field's name.
        field: String,
    },
    /// A required field is missing.
    #[error("the link lacks the field {field}")]
    MissingField {
        /// The field (`v`, `seed`, `step`, or `s or j`).
        field: String,
    },
    /// The link is of another format version.
    #[error("link format version {found:?} is not supported (this build reads {supported})")]
    UnsupportedVersion {
        /// The version in the link (its first characters).
        found: String,
        /// The version this build reads.
        supported: u32,
    },
    /// Both `s` and `j` are given.
    #[error("the link gives both a catalogue scenario (s) and an inline one (j)")]
    ConflictingScenario,
    /// No built-in scenario has this id.
    #[error("no built-in scenario is called {id:?}")]
    UnknownScenario {
        /// The id (its first characters).
        id: String,
    },
    /// The seed is not a number from 0 to 2^64 - 1.
    #[error("the seed {value:?} is not a number from 0 to 18446744073709551615: {message}")]
    BadSeed {
        /// The value (its first characters).
        value: String,
        /// Why.
        message: String,
    },
    /// The step is not a number.
    #[error("the step {value:?} is not a step number: {message}")]
    BadStep {
        /// The value (its first characters).
        value: String,
        /// Why.
        message: String,
    },
    /// The pattern switches are not four letters `n`/`i`.
    #[error("the patterns {value:?} are not four letters n (naive) or i (idempotent), P1 to P4")]
    BadPatterns {
        /// The value (its first characters).
        value: String,
    },
    /// A field is not base64url.
    #[error("the field {field} is not base64url: {message}")]
    BadBase64 {
        /// `j` or `u`.
        field: String,
        /// What the decoder said (with the offending position).
        message: String,
    },
    /// A field's decoded bytes are not UTF-8.
    #[error("the field {field} does not decode to UTF-8 text (byte {valid_up_to} is wrong)")]
    NotUtf8 {
        /// `j` or `u`.
        field: String,
        /// How many bytes were valid.
        valid_up_to: usize,
    },
    /// The user's choices do not read as JSON.
    #[error("the field {field} is not valid JSON at line {line}, column {column}: {message}")]
    BadJson {
        /// `u`.
        field: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// The inline scenario (`j`), or the built-in one, is refused.
    #[error("the link's scenario: {error}")]
    InvalidScenario {
        /// Why.
        error: ScenarioError,
    },
    /// The user's choices are not in strictly increasing step order from step 1.
    #[error(
        "the user's choice at step {step} comes after step {previous}: steps must increase from 1"
    )]
    UserChoiceOutOfOrder {
        /// The step of the choice.
        step: usize,
        /// The step of the choice before it (0 for the first).
        previous: usize,
    },
    /// The run stopped before the step of a user's choice.
    #[error("the user's choice at step {step} is never reached: the run stops after {steps} steps")]
    UserChoiceNotReached {
        /// The step of the choice.
        step: usize,
        /// The steps of the run.
        steps: usize,
    },
    /// A user's choice is not enabled at its step.
    #[error("the user's choice at step {step} cannot be taken: {error}")]
    UserChoiceRefused {
        /// The step of the choice.
        step: usize,
        /// Why.
        error: ApplyError,
    },
    /// The link's step is beyond the end of the run.
    #[error("step {step} is beyond the {steps} steps of the run")]
    StepBeyondRun {
        /// The link's step.
        step: usize,
        /// The steps of the run.
        steps: usize,
    },
}

impl ShareLink {
    /// The link of a run of `scenario`: a catalogue reference if `scenario` is a built-in
    /// lesson (its id, and its content up to the pattern switches), else the whole scenario.
    pub fn new(
        scenario: &Scenario,
        seed: u64,
        user_choices: Vec<UserChoice>,
        step: usize,
    ) -> ShareLink {
        let from_catalogue = catalogue_scenario(&scenario.id).ok().is_some_and(|built_in| {
            Scenario { patterns: scenario.patterns, ..built_in } == *scenario
        });
        let shared = if from_catalogue {
            SharedScenario::Catalogue { id: scenario.id.clone() }
        } else {
            SharedScenario::Inline { scenario: Box::new(scenario.clone()) }
        };
        ShareLink { scenario: shared, seed, patterns: scenario.patterns, user_choices, step }
    }

    /// The link of a trace, showing `step`.
    pub fn of_trace(trace: &Trace, step: usize) -> ShareLink {
        ShareLink::new(&trace.scenario, trace.seed, user_choices(trace), step)
    }

    /// The link of a run in progress, showing the steps it has taken.
    pub fn of_simulation(simulation: &Simulation) -> ShareLink {
        let choices = simulation
            .steps()
            .iter()
            .filter(|step| step.chosen_by == Choice::User)
            .map(|step| UserChoice { step: step.step, action: step.action.clone() })
            .collect();
        ShareLink::new(simulation.scenario(), simulation.seed(), choices, simulation.steps().len())
    }

    /// The fragment, `#` included: `#v=1&s=...&seed=...&p=...[&u=...]&step=...`.
    pub fn encode(&self) -> String {
        let mut text = format!("#v={SHARE_FORMAT_VERSION}");
        match &self.scenario {
            SharedScenario::Catalogue { id } => text.push_str(&format!("&s={id}")),
            SharedScenario::Inline { scenario } => {
                // Plain data always serializes; the fallback is never used.
                let json = serde_json::to_string(scenario).unwrap_or_default();
                text.push_str(&format!("&j={}", BASE64URL.encode(json)));
            }
        }
        text.push_str(&format!("&seed={}&p={}", self.seed, encode_patterns(self.patterns)));
        if !self.user_choices.is_empty() {
            let json = serde_json::to_string(&self.user_choices).unwrap_or_default();
            text.push_str(&format!("&u={}", BASE64URL.encode(json)));
        }
        text.push_str(&format!("&step={}", self.step));
        text
    }

    /// Reads a fragment (see the module's documentation for the format).
    pub fn decode(fragment: &str) -> Result<ShareLink, ShareError> {
        let fragment = fragment.split_once('#').map_or(fragment, |(_, after)| after);
        if fragment.is_empty() {
            return Err(ShareError::Empty);
        }
        if !crate::sim::bounds::LINK.accepts(fragment.len() as u64) {
            return Err(ShareError::TooLong {
                chars: fragment.len(),
                max: crate::sim::bounds::LINK.max,
            });
        }
        let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
        for part in fragment.split('&') {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| ShareError::MalformedPart { part: quote(part) })?;
            if fields.insert(name, value).is_some() {
                return Err(ShareError::DuplicateField { field: quote(name) });
            }
        }
        let version = fields.get("v").ok_or_else(|| missing("v"))?;
        if *version != SHARE_FORMAT_VERSION.to_string() {
            return Err(ShareError::UnsupportedVersion {
                found: quote(version),
                supported: SHARE_FORMAT_VERSION,
            });
        }
        if let Some(unknown) =
            fields.keys().find(|name| !["v", "s", "j", "seed", "p", "u", "step"].contains(name))
        {
            return Err(ShareError::UnknownField { field: quote(unknown) });
        }
        let (scenario, shared) = match (fields.get("s"), fields.get("j")) {
            (Some(_), Some(_)) => return Err(ShareError::ConflictingScenario),
            (None, None) => return Err(missing("s or j")),
            (Some(id), None) => {
                let scenario = catalogue_scenario(id).map_err(|error| match error {
                    CatalogueError::UnknownId { .. } => {
                        ShareError::UnknownScenario { id: quote(id) }
                    }
                    CatalogueError::Invalid { error, .. } => ShareError::InvalidScenario { error },
                })?;
                (scenario, SharedScenario::Catalogue { id: (*id).to_owned() })
            }
            (None, Some(encoded)) => {
                let text = decode_text("j", encoded)?;
                let scenario = Scenario::from_json(&text)
                    .map_err(|error| ShareError::InvalidScenario { error })?;
                (scenario.clone(), SharedScenario::Inline { scenario: Box::new(scenario) })
            }
        };
        let seed_text = fields.get("seed").ok_or_else(|| missing("seed"))?;
        let seed = seed_text.parse::<u64>().map_err(|error| ShareError::BadSeed {
            value: quote(seed_text),
            message: error.to_string(),
        })?;
        let patterns = match fields.get("p") {
            Some(text) => decode_patterns(text)?,
            None => scenario.patterns,
        };
        let user_choices = match fields.get("u") {
            Some(encoded) => {
                let text = decode_text("u", encoded)?;
                let choices: Vec<UserChoice> =
                    serde_json::from_str(&text).map_err(|error| ShareError::BadJson {
                        field: "u".to_owned(),
                        line: error.line(),
                        column: error.column(),
                        message: error.to_string(),
                    })?;
                check_order(&choices)?;
                choices
            }
            None => Vec::new(),
        };
        let step_text = fields.get("step").ok_or_else(|| missing("step"))?;
        let step = step_text.parse::<usize>().map_err(|error| ShareError::BadStep {
            value: quote(step_text),
            message: error.to_string(),
        })?;
        Ok(ShareLink { scenario: shared, seed, patterns, user_choices, step })
    }

    /// The scenario the link runs: the built-in or inline one, with the link's patterns.
    pub fn scenario(&self) -> Result<Scenario, ShareError> {
        let scenario = match &self.scenario {
            SharedScenario::Catalogue { id } => {
                catalogue_scenario(id).map_err(|error| match error {
                    CatalogueError::UnknownId { .. } => {
                        ShareError::UnknownScenario { id: quote(id) }
                    }
                    CatalogueError::Invalid { error, .. } => ShareError::InvalidScenario { error },
                })?
            }
            SharedScenario::Inline { scenario } => (**scenario).clone(),
        };
        Ok(Scenario { patterns: self.patterns, ..scenario })
    }

    /// Runs the link: the whole trace, and the simulation after exactly `step` steps. Every
    /// user's choice must be taken at its step ([`ShareError::UserChoiceRefused`],
    /// [`ShareError::UserChoiceNotReached`]) and `step` must be within the run
    /// ([`ShareError::StepBeyondRun`]).
    pub fn open(&self) -> Result<OpenedLink, ShareError> {
        check_order(&self.user_choices)?;
        let scenario = self.scenario()?;
        let strict = ReplayConfig { on_refused_choice: OnRefusedChoice::Fail, steps_max: None };
        let whole = replay_user_choices(&scenario, self.seed, &self.user_choices, strict)?;
        let trace = whole.simulation.trace();
        if self.step > trace.steps.len() {
            return Err(ShareError::StepBeyondRun { step: self.step, steps: trace.steps.len() });
        }
        let until_step = ReplayConfig { steps_max: Some(self.step), ..strict };
        let simulation =
            replay_user_choices(&scenario, self.seed, &self.user_choices, until_step)?.simulation;
        Ok(OpenedLink { trace, simulation })
    }
}

impl fmt::Display for ShareLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

/// What a replay does with a user's choice that is not enabled at its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnRefusedChoice {
    /// Stop with [`ShareError::UserChoiceRefused`] or [`ShareError::UserChoiceNotReached`].
    Fail,
    /// Let the scheduler take the step instead, and report the choice as skipped.
    Skip,
}

/// How [`replay_user_choices`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReplayConfig {
    pub(crate) on_refused_choice: OnRefusedChoice,
    /// Stop after this many steps; `None`: run to the end.
    pub(crate) steps_max: Option<usize>,
}

/// A replayed run and the choices it could not take.
#[derive(Clone, Debug)]
pub(crate) struct Replayed {
    pub(crate) simulation: Simulation,
    pub(crate) skipped: Vec<UserChoice>,
}

/// Runs `scenario` with `seed`, taking each user's choice at its step and the scheduler's
/// choice at every other step: what [`Simulation::replay`] does from a trace.
pub(crate) fn replay_user_choices(
    scenario: &Scenario,
    seed: u64,
    choices: &[UserChoice],
    config: ReplayConfig,
) -> Result<Replayed, ShareError> {
    let mut simulation = Simulation::new(scenario.clone(), seed)
        .map_err(|error| ShareError::InvalidScenario { error })?;
    let mut skipped = Vec::new();
    let mut pending = choices.iter().peekable();
    loop {
        let taken = simulation.steps().len();
        if config.steps_max.is_some_and(|steps_max| taken >= steps_max) {
            break;
        }
        let number = taken.saturating_add(1);
        // Choices before this step can only be left by a skipped run; they are past.
        while let Some(past) = pending.next_if(|choice| choice.step < number) {
            skipped.push(past.clone());
        }
        if let Some(choice) = pending.next_if(|choice| choice.step == number) {
            match simulation.step_with(choice.action.clone()) {
                Ok(_) => continue,
                Err(error) => match config.on_refused_choice {
                    OnRefusedChoice::Fail => {
                        return Err(ShareError::UserChoiceRefused { step: choice.step, error });
                    }
                    OnRefusedChoice::Skip => skipped.push(choice.clone()),
                },
            }
        }
        if simulation.step().is_none() {
            break;
        }
    }
    let steps = simulation.steps().len();
    let unreached: Vec<UserChoice> = if config.steps_max.is_some() {
        // Stopping early leaves the later choices for later: they are not unreached.
        Vec::new()
    } else {
        pending.cloned().collect()
    };
    if let Some(first) = unreached.first()
        && config.on_refused_choice == OnRefusedChoice::Fail
    {
        return Err(ShareError::UserChoiceNotReached { step: first.step, steps });
    }
    skipped.extend(unreached);
    Ok(Replayed { simulation, skipped })
}

fn check_order(choices: &[UserChoice]) -> Result<(), ShareError> {
    let mut previous = 0;
    for choice in choices {
        if choice.step <= previous {
            return Err(ShareError::UserChoiceOutOfOrder { step: choice.step, previous });
        }
        previous = choice.step;
    }
    Ok(())
}

fn missing(field: &str) -> ShareError {
    ShareError::MissingField { field: field.to_owned() }
}

fn quote(text: &str) -> String {
    text.chars().take(QUOTED_CHARS_MAX).collect()
}

fn decode_text(field: &str, encoded: &str) -> Result<String, ShareError> {
    let bytes = BASE64URL.decode(encoded).map_err(|error| ShareError::BadBase64 {
        field: field.to_owned(),
        message: error.to_string(),
    })?;
    String::from_utf8(bytes).map_err(|error| ShareError::NotUtf8 {
        field: field.to_owned(),
        valid_up_to: error.utf8_error().valid_up_to(),
    })
}

fn encode_patterns(patterns: Patterns) -> String {
    [patterns.p1_stock, patterns.p2_order, patterns.p3_api, patterns.p4_inbox]
        .iter()
        .map(|mode| match mode {
            PatternMode::Naive => 'n',
            PatternMode::Idempotent => 'i',
        })
        .collect()
}

fn decode_patterns(text: &str) -> Result<Patterns, ShareError> {
    let bad = || ShareError::BadPatterns { value: quote(text) };
    let modes: Vec<PatternMode> = text
        .chars()
        .map(|letter| match letter {
            'n' => Ok(PatternMode::Naive),
            'i' => Ok(PatternMode::Idempotent),
            _ => Err(bad()),
        })
        .collect::<Result<_, _>>()?;
    match modes.as_slice() {
        [p1_stock, p2_order, p3_api, p4_inbox] => Ok(Patterns {
            p1_stock: *p1_stock,
            p2_order: *p2_order,
            p3_api: *p3_api,
            p4_inbox: *p4_inbox,
        }),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests;
