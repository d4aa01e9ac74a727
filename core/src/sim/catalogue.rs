//! The built-in lessons: scenario files under `core/scenarios/`, compiled in with
//! `include_str!` so that the CLI and the page share them byte for byte, and their texts in
//! the other languages, one file per lesson under `core/scenarios/<language>/` (read by
//! [`crate::view::lesson_text`]: wording is the view's).

use thiserror::Error;

use crate::sim::scenario::{Scenario, ScenarioError};

/// One built-in lesson: its scenario file, and its texts in the other languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogueEntry {
    /// Its id (the file's name without `.json`).
    pub id: &'static str,
    /// Its JSON (`core/scenarios/<id>.json`), with the English title and description.
    pub json: &'static str,
    /// Its Russian title and description (`core/scenarios/ru/<id>.json`, a
    /// [`crate::view::LessonText`] with the lesson's `id`).
    pub(crate) ru: &'static str,
}

/// One catalogue entry, with both files read at compile time.
macro_rules! lesson {
    ($id:literal) => {
        CatalogueEntry {
            id: $id,
            json: include_str!(concat!("../../scenarios/", $id, ".json")),
            ru: include_str!(concat!("../../scenarios/ru/", $id, ".json")),
        }
    };
}

/// Every built-in lesson, in lesson order.
pub const CATALOGUE: &[CatalogueEntry] = &[
    lesson!("f01-duplicate-delivery"),
    lesson!("f02-crash-after-commit"),
    lesson!("f03-crash-before-commit"),
    lesson!("f04-concurrent-delivery"),
    lesson!("f05-lost-response"),
    lesson!("f06-double-submit"),
    lesson!("f07-key-reuse"),
    lesson!("f08-api-crash"),
    lesson!("f09-out-of-order"),
    lesson!("f10-duplicate-after-retention"),
    lesson!("f11-retry-with-new-key"),
    lesson!("f12-relay-crash"),
    lesson!("p1-stock-reservation"),
    lesson!("p2-order-state-machine"),
    lesson!("p3-idempotency-key"),
    lesson!("p3-slow-request"),
    lesson!("p4-inbox-consumer"),
];

/// Why a built-in scenario could not be had.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CatalogueError {
    /// No scenario has this id.
    #[error("no built-in scenario is called {id:?}")]
    UnknownId {
        /// The id asked for.
        id: String,
    },
    /// The file does not read (a bug of the catalogue, caught by its tests).
    #[error("built-in scenario {id:?}: {error}")]
    Invalid {
        /// The id.
        id: String,
        /// Why.
        error: ScenarioError,
    },
}

/// The built-in scenario `id`, parsed.
pub fn catalogue_scenario(id: &str) -> Result<Scenario, CatalogueError> {
    let entry = CATALOGUE
        .iter()
        .find(|entry| entry.id == id)
        .ok_or_else(|| CatalogueError::UnknownId { id: id.to_owned() })?;
    Scenario::from_json(entry.json)
        .map_err(|error| CatalogueError::Invalid { id: id.to_owned(), error })
}
