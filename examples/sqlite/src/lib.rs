//! A user's own code over a real database, fuzzed by the lab's harness
//! (`idempotency_lab::testing::harness::system`): what an engineer writes to test their
//! consumer or handler without rewriting it for the lab's store.
//!
//! - [`points`]: a loyalty-points consumer over its own SQLite tables (`points`, `inbox`),
//!   naive, with the inbox in the effect's transaction, and with the inbox committed apart;
//! - [`top_up`]: a wallet top-up HTTP handler over its own tables (`wallets`,
//!   `idempotency_keys`), raw and with the key stored in the balance's transaction.
//!
//! `examples/sqlite_points.rs` and `examples/sqlite_top_up.rs` fuzz them
//! (`cargo run -p idempotency-lab-sqlite-example --example sqlite_points`);
//! `benches/sqlite_schedules.rs` measures schedules per second.

pub mod points;
pub mod top_up;
