//! A run as psql scripts: one setup script (the schema and the starting rows) and one script
//! per session, each statement tagged with its step number, so a trainer can replay a lesson on
//! a real PostgreSQL in several terminals: run the steps in number order, each in the session
//! that has it. A statement the lab made wait is marked, with the session it waits for; it
//! returns once that session commits or rolls back, as it does in the lab.

use std::collections::BTreeMap;
use std::fmt;

use crate::ids::TxId;
use crate::sim::Simulation;
use crate::sql::{SCHEMA, is_sql, load};
use crate::store::StoreOp;

/// The scripts of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqlScripts {
    /// The schema and the starting rows: run once, before any session.
    pub(crate) setup: String,
    /// One script per session, in the order the sessions first appear.
    pub sessions: Vec<SessionScript>,
}

/// The script of one session: the statements of one actor (an API attempt, a consumer
/// instance, the relay, the retention job), in step order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionScript {
    /// The actor, as the trace's lane names it (`API attempt 0`, `Consumer A`).
    pub(crate) name: String,
    /// The psql text.
    pub(crate) text: String,
}

impl fmt::Display for PsqlScripts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "-- setup: run once, in any session, before the others")?;
        f.write_str(&self.setup)?;
        for (index, session) in self.sessions.iter().enumerate() {
            writeln!(f)?;
            writeln!(f, "-- session {}: {} (a psql of its own)", index + 1, session.name)?;
            f.write_str(&session.text)?;
        }
        Ok(())
    }
}

/// Runs `simulation` to its end and writes its statements as psql scripts.
pub fn psql_scripts(mut simulation: Simulation) -> PsqlScripts {
    let mut setup = SCHEMA.to_owned();
    for statement in load(simulation.world().store().committed()) {
        setup.push_str(&statement);
        setup.push_str(";\n");
    }
    let mut order: Vec<String> = Vec::new();
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut owner_of: BTreeMap<TxId, String> = BTreeMap::new();
    let mut waiting: BTreeMap<String, bool> = BTreeMap::new();
    while let Some(step) = simulation.step() {
        let number = step.step;
        let name = match step.attempt {
            Some(attempt) => format!("{} attempt {}", step.lane, attempt.0),
            None => step.lane.clone(),
        };
        let statement = step.statement.clone();
        let ops = simulation.world().store().statement_log().to_vec();
        let mut line = |session: &str, text: String| {
            if !texts.contains_key(session) {
                order.push(session.to_owned());
            }
            let script = texts.entry(session.to_owned()).or_default();
            script.push_str(&text);
            script.push('\n');
        };
        for op in &ops {
            if let StoreOp::Begin { tx } = op {
                owner_of.insert(*tx, name.clone());
            }
        }
        if let Some(statement) = statement.as_deref().filter(|statement| is_sql(statement)) {
            let blocked = ops.iter().find_map(|op| match op {
                StoreOp::Blocked(wait) => Some(wait.holder),
                _ => None,
            });
            let was_waiting = waiting.get(&name).copied().unwrap_or(false);
            match (blocked, was_waiting) {
                (Some(holder), false) => {
                    let holder_name = owner_of.get(&holder).cloned().unwrap_or_default();
                    line(
                        &name,
                        format!(
                            "{statement}; -- step {number}: waits for {holder_name}; go on \
                             there, it returns after that session ends its transaction"
                        ),
                    );
                    waiting.insert(name.clone(), true);
                }
                (Some(_), true) => {}
                (None, true) => {
                    let how = if ops.iter().any(|op| matches!(op, StoreOp::UniqueViolation { .. }))
                    {
                        " with a unique violation"
                    } else {
                        ""
                    };
                    line(&name, format!("-- step {number}: the statement above returns{how}"));
                    waiting.insert(name.clone(), false);
                }
                (None, false) => line(&name, format!("{statement}; -- step {number}")),
            }
        } else if let Some(statement) = statement {
            let words = statement.strip_prefix("-- ").unwrap_or(&statement);
            line(&name, format!("-- step {number}: {words}"));
        }
        for op in &ops {
            // A read outside a transaction begins and rolls back in one step: autocommit.
            let autocommit = |tx: &TxId| ops.contains(&StoreOp::Begin { tx: *tx });
            if let StoreOp::Rollback { tx } = op
                && !autocommit(tx)
                && let Some(owner) = owner_of.get(tx).cloned()
            {
                line(&owner, format!("ROLLBACK; -- step {number}: the lab rolls {tx} back here"));
            }
        }
    }
    let sessions = order
        .into_iter()
        .map(|name| SessionScript { text: texts.remove(&name).unwrap_or_default(), name })
        .collect();
    PsqlScripts { setup, sessions }
}
