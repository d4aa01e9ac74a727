//! The deterministic discrete-event simulator of the shop: clients, the API behind the P3
//! layer, the store, the outbox relay, an at-least-once broker and two (or more) instances of
//! the reserve-stock consumer, under a virtual clock, with the fault classes as data and the
//! invariants I1-I7 checked after every step.
//!
//! The model has Stateright's shape, so an exhaustive checker can be built on it:
//! [`World`] is the whole state (`Clone + Eq + Hash`), [`World::enabled_actions`] lists what can
//! happen in a fixed order, and `World::apply` performs one [`Action`]. One action runs one
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
//! Files, by actor as TigerBeetle's simulator is laid out (each owns its state and its
//! behaviour): `client` (requests, timeouts, retries; F6, F7, F11), `api` (sends through the P3
//! layer; F8), `network` (answers in flight; F5), `relay` (the outbox relay; F12), `broker`
//! (queue, deliveries, acks, dead letters; F1, F4, F9, F10), `consumer` (instances; F2, F3),
//! `retention` (the retention job), `locks` (lock waits, deadlock breaking), `clock` (the one
//! list of deadlines), `pending` (the one list of work still to do); `world` keeps the state,
//! the order of the enabled actions and the dispatch of an action to its actor. Around them:
//! `scenario` (the input and its JSON), `action` (actions and ids), `fault` (injections and
//! rates), `scheduler` (the simulation), `trace` (the output), `reproduce` (whether a trace
//! is what its scenario, seed and choices make), `catalogue` (the built-in lessons). What
//! front ends derive from a run (diagram, pending items, compare, share links, wording) is
//! [`crate::view`]'s.

mod action;
mod api;
pub mod bounds;
mod broker;
mod catalogue;
mod choice;
mod client;
mod clock;
mod consumer;
mod fault;
pub(crate) mod json;
mod locks;
mod network;
mod pending;
mod relay;
mod reproduce;
mod retention;
mod run;
mod scenario;
mod scheduler;
mod trace;
mod world;

pub(crate) use action::AttemptId;
pub use action::{Action, Actor, EntryId, HoldRelease, InstanceId, RequestIndex};
pub(crate) use api::ApiAttempt;
pub(crate) use broker::{Broker, EntryState};
pub(crate) use catalogue::CatalogueEntry;
pub use catalogue::{CATALOGUE, CatalogueError, catalogue_scenario};
pub use choice::{
    AnchoredAction, CopyRef, DeliveryRef, MessageAnchor, SendRef, UserChoice, anchor,
};
pub(crate) use client::ClientState;
pub(crate) use clock::DeadlineReason;
pub use fault::FaultRates;
#[cfg(feature = "testing")]
pub(crate) use fault::{ApiCrashPoint, Injection, InjectionAim, MessageRef};
pub use json::locate;
pub(crate) use pending::PendingWork;
pub(crate) use reproduce::reproduce;
pub use reproduce::{NotReproduced, TraceDifference, first_difference};
pub use run::{ChoiceOutcome, Played, Run, RunError, RunOpener};
pub(crate) use scenario::{
    ClientConfig, ConsumerSetup, Limits, RetentionJobConfig, SCENARIO_FORMAT_VERSION,
    ScheduleConfig,
};
#[cfg(feature = "testing")]
pub(crate) use scenario::{INSTANCES_MIN, KeyOnRetry};
pub use scenario::{
    Operation, Pattern, PatternMode, Patterns, RequestSpec, Scenario, ScenarioError,
};
pub use scheduler::{ReplayError, Simulation};
#[cfg(test)]
pub(crate) use scheduler::{RewindError, SNAPSHOTS_KEPT_MAX};
pub use trace::{
    Choice, FiredFaults, SimEvent, StepIter, StepLog, StopReason, Trace, TraceError, TraceStep,
    describe_event, describe_row_changes,
};
pub(crate) use trace::{LimitReached, dead_letters};
pub use world::World;
pub(crate) use world::{ApplyError, Target};

#[cfg(test)]
mod tests;
