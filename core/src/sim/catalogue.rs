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
pub const CATALOGUE: &[CatalogueEntry] = &[
    CatalogueEntry {
        id: "f01-duplicate-delivery",
        json: include_str!("../../scenarios/f01-duplicate-delivery.json"),
    },
    CatalogueEntry {
        id: "f02-crash-after-commit",
        json: include_str!("../../scenarios/f02-crash-after-commit.json"),
    },
    CatalogueEntry {
        id: "f03-crash-before-commit",
        json: include_str!("../../scenarios/f03-crash-before-commit.json"),
    },
    CatalogueEntry {
        id: "f04-concurrent-delivery",
        json: include_str!("../../scenarios/f04-concurrent-delivery.json"),
    },
    CatalogueEntry {
        id: "f05-lost-response",
        json: include_str!("../../scenarios/f05-lost-response.json"),
    },
    CatalogueEntry {
        id: "f06-double-submit",
        json: include_str!("../../scenarios/f06-double-submit.json"),
    },
    CatalogueEntry {
        id: "f07-key-reuse",
        json: include_str!("../../scenarios/f07-key-reuse.json"),
    },
    CatalogueEntry {
        id: "f08-api-crash",
        json: include_str!("../../scenarios/f08-api-crash.json"),
    },
    CatalogueEntry {
        id: "f09-out-of-order",
        json: include_str!("../../scenarios/f09-out-of-order.json"),
    },
    CatalogueEntry {
        id: "f10-duplicate-after-retention",
        json: include_str!("../../scenarios/f10-duplicate-after-retention.json"),
    },
    CatalogueEntry {
        id: "f11-retry-with-new-key",
        json: include_str!("../../scenarios/f11-retry-with-new-key.json"),
    },
    CatalogueEntry {
        id: "f12-relay-crash",
        json: include_str!("../../scenarios/f12-relay-crash.json"),
    },
    CatalogueEntry {
        id: "p1-stock-reservation",
        json: include_str!("../../scenarios/p1-stock-reservation.json"),
    },
    CatalogueEntry {
        id: "p2-order-state-machine",
        json: include_str!("../../scenarios/p2-order-state-machine.json"),
    },
    CatalogueEntry {
        id: "p3-idempotency-key",
        json: include_str!("../../scenarios/p3-idempotency-key.json"),
    },
    CatalogueEntry {
        id: "p4-inbox-consumer",
        json: include_str!("../../scenarios/p4-inbox-consumer.json"),
    },
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
