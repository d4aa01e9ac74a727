//! The share link: the state of a run on the page as a URL fragment, so that a link opens the
//! same run at the same step.
//!
//! A run is a pure function of (scenario, seed, patterns, the learner's choices): a
//! [`crate::sim::Run`], whose choices are anchored to what they hit. A link names these and
//! the step the page shows; it carries every choice of the run, those after the step too, so
//! a link taken after rewinding keeps the run's future:
//!
//! ```text
//! #v=2&s=f01-duplicate-delivery&seed=3&p=nnni&u=W3sic3RlcCI6NSwi...&step=12
//! ```
//!
//! - `v`: the link format, [`SHARE_FORMAT_VERSION`]; read first, so a link of a later
//!   version is refused as such rather than for a field this build does not know;
//! - `s`: a catalogue scenario's id, or `j`: a whole scenario (an imported one), as compact
//!   JSON in base64url (RFC 4648 §5, no padding; padding is accepted on reading);
//! - `seed`: the seed, in decimal;
//! - `p`: the pattern switches P1-P4, one letter each, `n` naive, `i` idempotent; they
//!   replace the scenario's own `patterns` (absent: the scenario's own);
//! - `u` (absent when empty): the learner's choices, a JSON array of
//!   [`crate::sim::UserChoice`] (an anchored action and its step) in base64url;
//! - `step`: the number of steps the page shows (0: the start);
//! - `presenter` (absent when off): `1` when the page shows the run in its presenter view
//!   (large type, the diagram, invariants and changed tables on one screen); `0` is read as
//!   off too. A link without it, as every link written before the field existed, opens in the
//!   page's ordinary view.
//!
//! Version 1 links, whose `u` holds plain actions ([`StepChoice`]) at step numbers, still
//! open: reading one replays its run once to anchor each action in the world it was taken in
//! ([`crate::sim::Run::anchor`]), so it opens as the same run; a choice that its run cannot
//! take is refused as before ([`ShareError::UserChoiceRefused`]).
//!
//! Fields may come in any order; an unknown or repeated field is refused. The fragment may be
//! given with or without its `#`, or as a whole URL (everything up to the first `#` is
//! ignored). Reading never panics: every fault is a [`ShareError`] naming the field and what
//! was wrong with it. [`ShareLink::open`] plays the run ([`crate::sim::Run::play`]) to its
//! step.

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde::{Deserialize, Serialize};

use crate::sim::{
    Action, CatalogueError, ChoiceOutcome, PatternMode, Patterns, Run, RunOpener, Scenario,
    Simulation, UserChoice, catalogue_scenario,
};

mod error;
mod fuzz;

pub use error::ShareError;
pub use fuzz::{parser_fuzz_link_of, parser_fuzz_open_link};

/// The version of the link format this crate writes (and the latest it reads).
pub(crate) const SHARE_FORMAT_VERSION: u32 = 2;
/// The first version, whose choices are plain actions at step numbers; still read.
pub(crate) const SHARE_FORMAT_VERSION_STEPS: u32 = 1;

/// How much of a faulty value an error repeats.
const QUOTED_CHARS_MAX: usize = 64;

const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A choice of a version-1 link: a plain action and the step it was taken at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StepChoice {
    /// The step's number, from 1.
    pub(crate) step: usize,
    /// The action taken.
    pub(crate) action: Action,
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

impl SharedScenario {
    /// `scenario` as a link carries it: a catalogue reference if it is a built-in lesson (its
    /// id, and its content up to the pattern switches), else the whole scenario.
    pub fn of(scenario: &Scenario) -> SharedScenario {
        let from_catalogue = catalogue_scenario(&scenario.id).ok().is_some_and(|built_in| {
            Scenario { patterns: scenario.patterns, ..built_in } == *scenario
        });
        if from_catalogue {
            SharedScenario::Catalogue { id: scenario.id.clone() }
        } else {
            SharedScenario::Inline { scenario: Box::new(scenario.clone()) }
        }
    }

    /// Its part of a link's fragment: `&s=` and the id, or `&j=` and the scenario's JSON in
    /// base64url.
    pub fn fragment_part(&self) -> String {
        match self {
            SharedScenario::Catalogue { id } => format!("&s={id}"),
            SharedScenario::Inline { scenario } => {
                // Plain data always serializes; the fallback is never used.
                let json = serde_json::to_string(scenario).unwrap_or_default();
                format!("&j={}", BASE64URL.encode(json))
            }
        }
    }
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
    /// The learner's choices, by step, strictly increasing from step 1: all of the run's,
    /// those after `step` too.
    pub user_choices: Vec<UserChoice>,
    /// The number of steps the page shows (0: the start).
    pub(crate) step: usize,
    /// Whether the page shows the run in its presenter view (`presenter=1`); how the run
    /// looks, not what it is: [`ShareLink::open`] ignores it.
    pub presenter: bool,
}

/// A link turned into its run.
#[derive(Clone, Debug)]
pub struct OpenedLink {
    /// The run the link names.
    pub run: Run,
    /// The run played until every choice is placed and `step` steps are taken (more if a
    /// choice lies beyond `step`); if the run ends at `step`, it has stopped (its stop reason
    /// says why).
    pub simulation: Simulation,
    /// Where each choice was taken.
    pub outcomes: Vec<ChoiceOutcome>,
    /// The step to show.
    pub step: usize,
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
        ShareLink {
            scenario: SharedScenario::of(scenario),
            seed,
            patterns: scenario.patterns,
            user_choices,
            step,
            presenter: false,
        }
    }

    /// The same link, shown in the presenter view if `presenter`.
    pub fn presenting(self, presenter: bool) -> ShareLink {
        ShareLink { presenter, ..self }
    }

    /// The link of `run`, showing `step`.
    pub fn of_run(run: &Run, step: usize) -> ShareLink {
        ShareLink::new(&run.scenario, run.seed, run.choices.clone(), step)
    }

    /// The fragment, `#` included: `#v=2&s=...&seed=...&p=...[&u=...]&step=...[&presenter=1]`.
    pub fn encode(&self) -> String {
        ShareLink::encode_with(
            &self.scenario.fragment_part(),
            self.seed,
            self.patterns,
            &self.user_choices,
            self.step,
            self.presenter,
        )
    }

    /// The fragment [`ShareLink::encode`] writes for a link of the scenario whose part of it
    /// is `scenario_part` ([`SharedScenario::fragment_part`]), given already encoded: a page
    /// encodes its run's scenario once, not at every step (a scenario carried inline is most
    /// of a long link).
    pub fn encode_with(
        scenario_part: &str,
        seed: u64,
        patterns: Patterns,
        user_choices: &[UserChoice],
        step: usize,
        presenter: bool,
    ) -> String {
        let mut text = format!("#v={SHARE_FORMAT_VERSION}{scenario_part}");
        text.push_str(&format!("&seed={seed}&p={}", encode_patterns(patterns)));
        if !user_choices.is_empty() {
            let json = serde_json::to_string(user_choices).unwrap_or_default();
            text.push_str(&format!("&u={}", BASE64URL.encode(json)));
        }
        text.push_str(&format!("&step={step}"));
        if presenter {
            text.push_str("&presenter=1");
        }
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
        let version_text = fields.get("v").ok_or_else(|| missing("v"))?;
        let version = [SHARE_FORMAT_VERSION_STEPS, SHARE_FORMAT_VERSION]
            .into_iter()
            .find(|version| *version_text == version.to_string())
            .ok_or_else(|| ShareError::UnsupportedVersion {
                found: quote(version_text),
                supported: SHARE_FORMAT_VERSION,
            })?;
        if let Some(unknown) = fields
            .keys()
            .find(|name| !["v", "s", "j", "seed", "p", "u", "step", "presenter"].contains(name))
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
            message: crate::sim::json::shortened(error.to_string()),
        })?;
        let patterns = match fields.get("p") {
            Some(text) => decode_patterns(text)?,
            None => scenario.patterns,
        };
        let user_choices = match fields.get("u") {
            Some(encoded) if version == SHARE_FORMAT_VERSION_STEPS => {
                let taken: Vec<StepChoice> = decode_json("u", encoded)?;
                let taken: Vec<(usize, Action)> =
                    taken.into_iter().map(|choice| (choice.step, choice.action)).collect();
                let scenario = Scenario { patterns, ..scenario.clone() };
                let (run, _) = Run::anchor(scenario, seed, &taken).map_err(ShareError::from)?;
                run.choices
            }
            Some(encoded) => {
                let choices: Vec<UserChoice> = decode_json("u", encoded)?;
                check_order(&choices)?;
                choices
            }
            None => Vec::new(),
        };
        let step_text = fields.get("step").ok_or_else(|| missing("step"))?;
        let step = step_text.parse::<usize>().map_err(|error| ShareError::BadStep {
            value: quote(step_text),
            message: crate::sim::json::shortened(error.to_string()),
        })?;
        let presenter = match fields.get("presenter") {
            None | Some(&"0") => false,
            Some(&"1") => true,
            Some(value) => return Err(ShareError::BadPresenter { value: quote(value) }),
        };
        Ok(ShareLink { scenario: shared, seed, patterns, user_choices, step, presenter })
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

    /// The run the link names.
    pub(crate) fn run(&self) -> Result<Run, ShareError> {
        check_order(&self.user_choices)?;
        Ok(Run { scenario: self.scenario()?, seed: self.seed, choices: self.user_choices.clone() })
    }

    /// Plays the link's run until every choice is placed and `step` steps are taken (if the
    /// run ends there, it has stopped, so that a link at the end shows that it ended); `step` must be
    /// within the run ([`ShareError::StepBeyondRun`]). A choice whose target the run never
    /// holds is not an error: [`OpenedLink::outcomes`] says so.
    pub fn open(&self) -> Result<OpenedLink, ShareError> {
        self.opened(self.opener()?)
    }

    /// [`ShareLink::open`] in slices: an opener of the link's run to its step, to advance a
    /// slice at a time ([`RunOpener::advance`]) and hand to [`ShareLink::opened`].
    pub fn opener(&self) -> Result<RunOpener, ShareError> {
        RunOpener::new(self.run()?, self.step).map_err(ShareError::from)
    }

    /// The link opened by `opener` (from [`ShareLink::opener`]; what it has not opened yet,
    /// this opens now): as [`ShareLink::open`].
    pub fn opened(&self, opener: RunOpener) -> Result<OpenedLink, ShareError> {
        let (run, played) = opener.finish().map_err(ShareError::from)?;
        let mut simulation = played.simulation;
        let steps = simulation.steps().len();
        if self.step > steps {
            return Err(ShareError::StepBeyondRun { step: self.step, steps });
        }
        if steps == self.step && simulation.stop_reason().is_none() {
            if simulation.limit_reached().is_some() {
                // At a limit, a step records why the run stops and takes none: no copy of a
                // long run is needed to try it.
                let taken = simulation.step().is_some();
                debug_assert!(!taken, "a step past a limit of the run");
            } else {
                // Whether the run ends here: a step tried on a copy, kept only if none is
                // taken.
                let mut probe = simulation.clone();
                if probe.step().is_none() {
                    simulation = probe;
                }
            }
        }
        Ok(OpenedLink { run, simulation, outcomes: played.outcomes, step: self.step })
    }
}

impl fmt::Display for ShareLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

fn decode_json<T: serde::de::DeserializeOwned>(
    field: &str,
    encoded: &str,
) -> Result<T, ShareError> {
    let text = decode_text(field, encoded)?;
    serde_json::from_str(&text).map_err(|error| ShareError::BadJson {
        field: field.to_owned(),
        line: error.line(),
        column: error.column(),
        message: crate::sim::json::shortened(error.to_string()),
    })
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
        message: crate::sim::json::shortened(error.to_string()),
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
