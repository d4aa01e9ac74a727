//! The deterministic discrete-event simulator of the shop: clients, the API behind the P3
//! layer, the store, the outbox relay, an at-least-once broker and two (or more) instances of
//! the reserve-stock consumer, under a virtual clock, with faults F1-F12 as data and the
//! invariants I1-I7 checked after every step.
//!
//! The model has Stateright's shape, so an exhaustive checker can be built on it:
//! [`World`] is the whole state (`Clone + Eq + Hash`), [`World::enabled_actions`] lists what can
//! happen in a fixed order, and [`World::apply`] performs one [`Action`]. One action runs one
//! statement of one step machine, so two handlers interleave statement by statement and a
//! naive check-then-act really loses a race. [`Simulation`] is the seeded scheduler on top: a
//! run is a pure function of ([`Scenario`], seed), injections included, and its [`Trace`]
//! (versioned JSON) replays to the same bytes.
//!
//! ```
//! use idempotency_lab::invariants::InvariantId;
//! use idempotency_lab::sim::{PatternMode, Simulation, catalogue_scenario};
//!
//! let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
//! let naive = Simulation::run(lesson.with_mode(PatternMode::Naive), 0).unwrap();
//! assert_eq!(naive.invariants_ever_violated(), vec![InvariantId::I2, InvariantId::I6]);
//! let idempotent = Simulation::run(lesson.with_mode(PatternMode::Idempotent), 0).unwrap();
//! assert!(idempotent.invariants_ever_violated().is_empty());
//! // A trace is its own reproduction: scenario, seed and injections are in it.
//! assert_eq!(Simulation::replay(&naive).unwrap(), naive);
//! ```
//!
//! Files: `scenario` (the input and its JSON), `action` (actions and ids), `fault` (F1-F12,
//! injections, rates), `client`, `api`, `broker`, `consumer` (the actors' state), `world` (the
//! state and its transitions), `scheduler` (the simulation), `trace` (the output),
//! `catalogue` (the built-in lessons); for the page: `share` (the link codec), `diagram` (the
//! sequence diagram's model), `mermaid` (its Mermaid text), `compare` (one schedule in both
//! modes).

mod action;
mod api;
mod broker;
mod catalogue;
mod client;
mod compare;
mod consumer;
mod diagram;
mod fault;
mod mermaid;
mod scenario;
mod scheduler;
mod share;
mod trace;
mod world;

pub use action::{Action, Actor, AttemptId, EntryId, HoldRelease, InstanceId, RequestIndex};
pub use api::{ApiAttempt, InFlightResponse};
pub use broker::{Broker, BrokerEntry, DeadLetter, EntryState};
pub use catalogue::{
    CATALOGUE, CatalogueEntry, CatalogueError, LessonText, LessonTextError, catalogue_scenario,
    lesson_text,
};
pub use client::{ClientRequest, ClientState, PlannedOrder};
pub use compare::{CompareInput, ComparedRun, Comparison, RowDifference, StepComparison, compare};
pub use consumer::{ConsumerInstance, Delivery, RelayRun, RetentionRun, RetentionStage};
pub use diagram::{
    ArrowKind, Diagram, DiagramItem, DiagramStep, Lane, MarkKind, PendingItem, PendingTarget,
    diagram, lanes, pending, step_items,
};
pub use fault::{ApiCrashPoint, FaultClass, FaultRates, Injection, MessageRef};
pub use mermaid::{diagram_to_mermaid, trace_to_mermaid};
pub use scenario::{
    ClientConfig, ConsumerSetup, INSTANCES_MAX, INSTANCES_MIN, KeyOnRetry, Limits, Operation,
    Pattern, PatternMode, Patterns, RequestSpec, RetentionJobConfig, SCENARIO_FORMAT_VERSION,
    Scenario, ScenarioError, ScheduleConfig,
};
pub use scheduler::{ReplayError, RewindError, Simulation, Snapshot, trigger};
pub use share::{
    OpenedLink, SHARE_FORMAT_VERSION, ShareError, ShareLink, SharedScenario, UserChoice,
    user_choices,
};
pub use trace::{
    Choice, SimEvent, StepRecord, StopReason, TRACE_FORMAT_VERSION, Trace, TraceError, TraceStep,
    TraceSummary, describe_event, describe_row_changes,
};
pub use world::{ApplyError, RESERVE_STOCK_CONSUMER, World, WorldConfig, diff_tables};

#[cfg(test)]
mod tests;
