//! How much of a large world one screen draws. A lesson's world has a few rows in each table
//! and a few items waiting; the longest run the bounds accept has thousands of rows and a
//! thousand items waiting, which no one reads on one screen and which would cost the page a
//! frame's worth of layout at every step. So a screen draws the first [`ROWS_DRAWN`] rows of
//! each table (in key order) and every row the step shown changed, and at most
//! [`PENDING_DRAWN_PER_LANE`] waiting items on each lane (the clock's on its own), and says how
//! many it left out; the learner can ask for all of them.

use crate::store::{RowChange, TableName, Tables};
use crate::view::{Lane, PendingItem};

/// The rows of a table a screen draws before it says how many more there are.
pub const ROWS_DRAWN: usize = 50;

/// The waiting items of one lane a screen draws before it says how many more there are.
pub const PENDING_DRAWN_PER_LANE: usize = 12;

/// The rows of one table a screen draws.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnRows {
    /// The rows drawn as JSON objects, in key order.
    pub rows: Vec<serde_json::Value>,
    /// How many rows the table holds.
    pub total: usize,
}

impl DrawnRows {
    /// How many rows are not drawn.
    pub fn left_out(&self) -> usize {
        self.total.saturating_sub(self.rows.len())
    }
}

/// The rows of `table` a screen draws: all of them if `all` or if there are at most
/// [`ROWS_DRAWN`]; else the first [`ROWS_DRAWN`] in key order, then the rows that `changes`
/// (the step shown's) inserted or updated further on, so that what the step did is always
/// drawn.
pub fn drawn_rows(
    tables: &Tables,
    table: TableName,
    changes: &[RowChange],
    all: bool,
) -> DrawnRows {
    let total = tables.row_count(table);
    if all || total <= ROWS_DRAWN {
        return DrawnRows { rows: tables.rows_json(table), total };
    }
    let mut rows = tables.first_rows_json(table, ROWS_DRAWN);
    // A step's changes to a table are in key order, so the rows past the first ones stay in
    // key order too.
    for change in changes.iter().filter(|change| change.table == table) {
        if let Some(after) = change.after.as_ref().filter(|after| !rows.contains(after)) {
            rows.push(after.clone());
        }
    }
    DrawnRows { rows, total }
}

/// The waiting items a screen draws.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnPending {
    /// The items drawn, in the order they came.
    pub items: Vec<PendingItem>,
    /// How many items wait.
    pub total: usize,
    /// Whether some lane has more than [`PENDING_DRAWN_PER_LANE`] items, so that the first
    /// ones alone would leave some out (whether or not all are drawn now).
    pub crowded: bool,
}

impl DrawnPending {
    /// How many items are not drawn.
    pub fn left_out(&self) -> usize {
        self.total.saturating_sub(self.items.len())
    }
}

/// The items of `pending` a screen draws: all of them if `all`; else the first
/// [`PENDING_DRAWN_PER_LANE`] of each lane (and of the clock), in their order.
pub fn drawn_pending(pending: &[PendingItem], all: bool) -> DrawnPending {
    // A few lanes: a list is smaller in the page's wasm than another map.
    let mut per_lane: Vec<(Option<Lane>, usize)> = Vec::new();
    let mut items = Vec::new();
    let mut crowded = false;
    for item in pending {
        let lane = item.lane();
        let index = match per_lane.iter().position(|(other, _)| *other == lane) {
            Some(index) => index,
            None => {
                per_lane.push((lane, 0));
                per_lane.len() - 1
            }
        };
        let drawn = &mut per_lane[index].1;
        *drawn += 1;
        crowded |= *drawn > PENDING_DRAWN_PER_LANE;
        if all || *drawn <= PENDING_DRAWN_PER_LANE {
            items.push(item.clone());
        }
    }
    DrawnPending { items, total: pending.len(), crowded }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::bounds::longest_run_scenario;
    use crate::sim::catalogue_scenario;
    use crate::sim::{EntryId, InstanceId, Simulation};
    use crate::view::PendingTarget;

    #[test]
    fn a_large_table_draws_its_first_rows_and_every_row_the_step_changed() {
        // Step on until a step changes a row past the first ones of a large table.
        let scenario = longest_run_scenario().expect("the bounds accept their longest run");
        let mut simulation = Simulation::without_snapshots(scenario, 1).expect("a valid scenario");
        let found = (0..20_000).find_map(|_| {
            let step = simulation.step()?.clone();
            let tables = simulation.world().store().committed();
            step.row_changes.iter().find_map(|change| {
                let after = change.after.as_ref()?;
                let first = tables.first_rows_json(change.table, ROWS_DRAWN);
                (tables.row_count(change.table) > ROWS_DRAWN && !first.contains(after))
                    .then(|| (tables.clone(), step.row_changes.clone(), change.clone()))
            })
        });
        let (tables, changes, change) = found.expect("a step changes a row past the first ones");
        let drawn = drawn_rows(&tables, change.table, &changes, false);
        let all = tables.rows_json(change.table);
        assert_eq!(drawn.total, all.len());
        assert_eq!(drawn.rows[..ROWS_DRAWN], all[..ROWS_DRAWN], "the first rows, in key order");
        assert!(drawn.rows[ROWS_DRAWN..].contains(change.after.as_ref().unwrap()));
        assert!(drawn.rows.iter().all(|row| all.contains(row)), "only rows the table holds");
        let positions: Vec<usize> = drawn
            .rows
            .iter()
            .map(|row| all.iter().position(|other| other == row).unwrap())
            .collect();
        assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "in key order: {positions:?}");
        assert_eq!(drawn.left_out(), all.len() - drawn.rows.len());
        assert!(drawn.left_out() > 0);

        let every = drawn_rows(&tables, change.table, &changes, true);
        assert_eq!((every.left_out(), every.rows), (0, all), "all, when asked");
    }

    #[test]
    fn a_lesson_draws_every_row() {
        let scenario = catalogue_scenario("f01-duplicate-delivery").expect("a built-in scenario");
        let mut simulation = Simulation::without_snapshots(scenario, 1).expect("a valid scenario");
        simulation.run_to_end();
        let tables = simulation.world().store().committed();
        let changes = &simulation.steps().last().expect("a step").row_changes;
        assert!(TableName::ALL.iter().any(|&table| tables.row_count(table) > 1));
        for &table in TableName::ALL {
            let drawn = drawn_rows(tables, table, changes, false);
            assert_eq!(drawn.rows, tables.rows_json(table), "{table:?}");
            assert_eq!(drawn.left_out(), 0);
        }
    }

    #[test]
    fn each_lane_draws_its_first_waiting_items_and_the_clock_is_never_crowded_out() {
        let item = |target: PendingTarget| PendingItem {
            target,
            label: target.to_string(),
            detail: String::new(),
            actions: Vec::new(),
        };
        let mut pending: Vec<PendingItem> =
            (0..30).map(|entry| item(PendingTarget::Message { entry: EntryId(entry) })).collect();
        pending.extend(
            (0..3).map(|instance| item(PendingTarget::Delivery { instance: InstanceId(instance) })),
        );
        pending.push(item(PendingTarget::Clock));
        let drawn = drawn_pending(&pending, false);
        assert_eq!(drawn.left_out(), 30 - PENDING_DRAWN_PER_LANE);
        assert!(drawn.crowded);
        let targets: Vec<PendingTarget> = drawn.items.iter().map(|item| item.target).collect();
        let mut expected: Vec<PendingTarget> = (0..PENDING_DRAWN_PER_LANE)
            .map(|entry| PendingTarget::Message { entry: EntryId(entry) })
            .collect();
        expected.extend(
            (0..3).map(|instance| PendingTarget::Delivery { instance: InstanceId(instance) }),
        );
        expected.push(PendingTarget::Clock);
        assert_eq!(targets, expected, "the broker's first items, then every other lane's");
        let total = pending.len();
        let every = drawn_pending(&pending, true);
        assert_eq!(every, DrawnPending { items: pending.clone(), total, crowded: true });
        assert_eq!(every.left_out(), 0);
        let few = &pending[30 - PENDING_DRAWN_PER_LANE..];
        let uncrowded = drawn_pending(few, false);
        assert_eq!((uncrowded.items.as_slice(), uncrowded.crowded), (few, false), "few draw all");
    }
}
