//! The built-in lessons: scenario files under `core/scenarios/`, compiled in with
//! `include_str!` so that the CLI and the page share them byte for byte.

use thiserror::Error;

use crate::sim::scenario::{Scenario, ScenarioError};

/// One built-in scenario file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogueEntry {
    /// Its id (the file's name without `.json`).
    pub id: &'static str,
    /// Its JSON.
    pub json: &'static str,
}

/// Every built-in scenario, in lesson order.
pub const CATALOGUE: &[CatalogueEntry] = &[];

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
