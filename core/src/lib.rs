//! Idempotency Lab's core: the seed's four idempotency patterns, each beside its naive twin,
//! over a deterministic in-memory transactional store, with the invariants that tell them apart.
//!
//! The crate is sans-IO: it never reads a clock, the network or the operating system's
//! randomness. Time comes in as [`ids::Tick`], randomness from [`rng::DeterministicRng`] seeded
//! by the caller, so every run is a pure function of its inputs.
#![forbid(unsafe_code)]
// What is `pub` is the surface the page, the CLI, the package and a user of the crate need;
// the rest is `pub(crate)`, and this lint keeps it so.
#![warn(unreachable_pub)]
// Internal docs link internal items (`cargo doc --document-private-items` renders them).
#![allow(rustdoc::private_intra_doc_links)]

pub mod check;
pub mod course;
pub mod faults;
pub mod history;
pub mod idempotency;
pub mod ids;
pub mod inbox;
pub mod invariants;
pub mod order;
pub mod outbox;
pub mod program;
pub mod rng;
pub mod shop;
pub(crate) mod shop_api;
pub mod sim;
pub mod slice;
pub mod sql;
pub mod step;
pub mod stock;
pub mod store;
#[cfg(feature = "testing")]
pub mod testing;
pub mod view;
pub mod words;
