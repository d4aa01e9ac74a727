//! A schedule: the messages the user's strategy drew, in the order they are published, and
//! the faults the harness adds, each pinned to a delivery by its number. [`schedules`] is the
//! proptest `Strategy`; its shrinking (proptest's, of the two lists and of each element) drops
//! messages and faults, moves faults to earlier deliveries and simpler kinds, and shrinks each
//! payload with the user's own strategy, so a failure ends on a minimal schedule.

use std::fmt::Debug;

use proptest::prelude::*;

use crate::testing::harness::system::CrashPoint;

/// What a fault does to its delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum FaultKind {
    /// F1 (HTTP: F6, a double submit): after the delivery is acknowledged, the message is
    /// delivered once more.
    Duplicate,
    /// The delivery outlives the visibility timeout (HTTP: its response is lost, F5): the
    /// message is delivered again and the late acknowledgement is refused.
    TimedOut,
    /// F2 (HTTP: F8 after commit): the delivery crashes just after its commit number `commit`;
    /// not acknowledged, it is delivered again.
    CrashAfterCommit {
        /// The commit, from 0.
        commit: u8,
    },
    /// F3 (HTTP: F8 before commit): the delivery crashes just before its commit number
    /// `commit`, which rolls back; it is delivered again.
    CrashBeforeCommit {
        /// The commit, from 0.
        commit: u8,
    },
    /// F9: the next message overtakes this delivery's: the two are delivered in the other
    /// order.
    Reorder,
}

impl FaultKind {
    /// Where this fault crashes its delivery, if it is a crash.
    pub(crate) fn crash_point(self) -> Option<CrashPoint> {
        match self {
            FaultKind::CrashAfterCommit { commit } => Some(CrashPoint::AfterCommit(commit)),
            FaultKind::CrashBeforeCommit { commit } => Some(CrashPoint::BeforeCommit(commit)),
            FaultKind::Duplicate | FaultKind::TimedOut | FaultKind::Reorder => None,
        }
    }
}

/// One fault, pinned to a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Fault {
    /// The delivery it applies to, from 0, counting every delivery (copies included). A
    /// fault of a delivery that never happens, or a crash at a commit the delivery does not
    /// reach, is not taken.
    pub(crate) delivery: usize,
    /// What it does.
    pub(crate) kind: FaultKind,
}

/// Messages and faults: one run of the system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule<M> {
    /// The payloads, in the order they are published; each is a distinct message with its own
    /// id ([`crate::testing::harness::system::message_id_of`]).
    pub(crate) messages: Vec<M>,
    /// The faults. Of the faults of one delivery, a [`FaultKind::Reorder`] is taken and the
    /// first of the others.
    pub(crate) faults: Vec<Fault>,
}

/// The bounds of drawn schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScheduleConfig {
    /// Messages published, at least 1 (and at least this bound).
    pub(crate) messages_max: usize,
    /// Faults in a schedule, at most.
    pub(crate) faults_max: usize,
    /// The commits a crash may pick from (a crash at commit `0..commits_max`), at least 1.
    pub(crate) commits_max: u8,
}

impl Default for ScheduleConfig {
    /// Up to three messages, up to three faults, crashes at the first or second commit.
    fn default() -> Self {
        ScheduleConfig { messages_max: 3, faults_max: 3, commits_max: 2 }
    }
}

/// The fault kinds, simplest first: proptest's union shrinks toward the earlier ones.
fn fault_kinds(commits_max: u8) -> impl Strategy<Value = FaultKind> {
    let commits = 0..commits_max.max(1);
    prop_oneof![
        Just(FaultKind::Duplicate),
        Just(FaultKind::TimedOut),
        commits.clone().prop_map(|commit| FaultKind::CrashAfterCommit { commit }),
        commits.prop_map(|commit| FaultKind::CrashBeforeCommit { commit }),
        Just(FaultKind::Reorder),
    ]
}

/// Schedules of messages drawn by `messages` with faults within `config`: a proptest
/// `Strategy`, for the user's own `proptest!` or for [`crate::testing::harness::fuzz_system`].
pub fn schedules<S>(
    messages: S,
    config: ScheduleConfig,
) -> impl Strategy<Value = Schedule<S::Value>>
where
    S: Strategy,
    S::Value: Clone + Debug,
{
    let messages_max = config.messages_max.max(1);
    // Each fault adds at most one delivery.
    let deliveries_max = messages_max.saturating_add(config.faults_max);
    let fault = (0..deliveries_max, fault_kinds(config.commits_max))
        .prop_map(|(delivery, kind)| Fault { delivery, kind });
    // Faults first: proptest shrinks a tuple's elements in order, and a message is easier to
    // drop once the faults that need it are gone.
    (
        prop::collection::vec(fault, 0..=config.faults_max),
        prop::collection::vec(messages, 1..=messages_max),
    )
        .prop_map(|(faults, messages)| Schedule { messages, faults })
}
