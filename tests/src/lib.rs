//! Shared helpers of the integration, property and browser tests.

pub mod axe;
pub mod browser;
pub mod long_run;
pub mod monkey;
pub mod node;
pub mod npm;
pub mod postgres;
pub mod sources;
