//! The judge of a learner's handler program: the exhaustive checker over a lesson's reference
//! schedule space with the program installed in place of the built-in consumer, and its
//! verdict: holds for every schedule within the bounds (with the count of states), the
//! shortest counterexample (the checker is breadth-first) with the invariant that broke, or a
//! bound reached first.
//!
//! The schedule space is the lesson's world without its scripted faults, and for a consumer
//! every placement of one duplicate delivery (F1), one crash after commit (F2) and one crash
//! before commit (F3), with the two consumer instances racing on the copies
//! ([`build_check_config`]); for `MarkPaid`, of one lost answer and its retry with the same
//! key (F5) ([`build_check_config_for`]).

use crate::check::budget::FaultBudget;
use crate::check::explorer::BoundReason;
use crate::check::scenarios::two_consumers_duplicate_and_crash_config;
use crate::check::world_model::{
    CheckConfig, CheckError, CheckOutcome, CheckReport, Counterexample, check,
};
use crate::faults::FaultClass;
use crate::invariants::{InvariantId, Violation};
use crate::program::{HandlerKind, HandlerProgram, Mistake, diagnose};
use crate::sim::Scenario;
use crate::words::Language;

/// The lesson whose world a consumer program is judged in by default: one order of 3 apples,
/// its `OrderPlaced` message and two consumer instances.
pub(crate) const CONSUMER_BUILD_LESSON: &str = "p4-inbox-consumer";

/// The lesson whose world a `MarkPaid` program is judged in by default: an order of 3 apples
/// and its payment pay-1, with no Idempotency-Key layer in front of `MarkPaid`.
pub(crate) const MARK_PAID_BUILD_LESSON: &str = "p2-order-state-machine";

/// The faults a `MarkPaid` program must survive: one lost answer retried with the same key
/// (F5), the build lesson's own, on every path. A double submit (F6) as well makes the space
/// too large to prove within [`JUDGE_STATES_MAX`] (the whole shop runs around the payment),
/// so the race of two payments is a separate, bounded check ([`MARK_PAID_RACE_FAULTS`]).
pub(crate) const MARK_PAID_FAULTS: [(FaultClass, u32); 1] = [(FaultClass::F5, 1)];

/// The race of two sends of one payment: a double submit (F6), under which a check without a
/// row lock is refuted; a right answer's proof under it exceeds [`JUDGE_STATES_MAX`].
#[cfg(test)]
pub(crate) const MARK_PAID_RACE_FAULTS: [(FaultClass, u32); 1] = [(FaultClass::F6, 1)];

/// The lesson a program of `handler` is judged in by default.
pub fn build_lesson(handler: HandlerKind) -> &'static str {
    match handler {
        HandlerKind::ReserveStockConsumer => CONSUMER_BUILD_LESSON,
        HandlerKind::MarkPaid => MARK_PAID_BUILD_LESSON,
    }
}

/// The invariants a `MarkPaid` program is judged by: every one but I4, the Idempotency-Key
/// layer's (one handler per key at a time, the same answer per key), which the build lesson
/// leaves to its naive layer, so that a double submit is `MarkPaid`'s to survive.
pub(crate) const MARK_PAID_INVARIANTS: [InvariantId; 6] = [
    InvariantId::I1,
    InvariantId::I2,
    InvariantId::I3,
    InvariantId::I5,
    InvariantId::I6,
    InvariantId::I7,
];

/// The checker's bounds for judging a program of `handler`: its faults, its invariants (every
/// one for a consumer, [`MARK_PAID_INVARIANTS`] for `MarkPaid`), [`JUDGE_STATES_MAX`] states,
/// and otherwise the reference check's bounds.
pub fn build_check_config_for(handler: HandlerKind) -> CheckConfig {
    match handler {
        HandlerKind::ReserveStockConsumer => build_check_config(),
        HandlerKind::MarkPaid => CheckConfig {
            faults: FaultBudget::of(&MARK_PAID_FAULTS),
            invariants: MARK_PAID_INVARIANTS.to_vec(),
            ..build_check_config()
        },
    }
}

/// The most unique states a build task's judge explores before it answers "bounded".
pub const JUDGE_STATES_MAX: usize = 200_000;

/// The faults a consumer program must survive: one duplicate delivery (F1), one crash after
/// commit before ack (F2), one crash with the transaction open (F3), on every path.
pub(crate) const CONSUMER_FAULTS: [(FaultClass, u32); 3] =
    [(FaultClass::F1, 1), (FaultClass::F2, 1), (FaultClass::F3, 1)];

/// The checker's bounds for judging a consumer program: [`CONSUMER_FAULTS`], every invariant,
/// [`JUDGE_STATES_MAX`] states, and otherwise the reference check's bounds.
pub(crate) fn build_check_config() -> CheckConfig {
    CheckConfig {
        faults: FaultBudget::of(&CONSUMER_FAULTS),
        states_max: JUDGE_STATES_MAX,
        ..two_consumers_duplicate_and_crash_config()
    }
}

/// `lesson` as the judge runs it: without its scripted faults, with `program` in place of the
/// built-in handler it stands for.
pub fn scenario_with_program(lesson: &Scenario, program: &HandlerProgram) -> Scenario {
    let lesson = lesson.without_scripted_faults();
    match program.handler {
        HandlerKind::ReserveStockConsumer => {
            Scenario { consumer_program: Some(program.clone()), ..lesson }
        }
        HandlerKind::MarkPaid => Scenario { mark_paid_program: Some(program.clone()), ..lesson },
    }
}

/// What the judge found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Every schedule within the bounds keeps every invariant.
    Holds {
        /// Unique states explored.
        states: usize,
        /// The deepest path, in steps.
        depth: usize,
    },
    /// A schedule breaks an invariant; it is one of the shortest.
    Counterexample {
        /// The path and its trace, which the simulator replays and the diagram draws.
        counterexample: Box<Counterexample>,
        /// Unique states explored before it was found.
        states: usize,
    },
    /// A bound stopped the judge before every schedule was covered; none explored broke.
    Bounded {
        /// Which bound.
        reason: BoundReason,
        /// Unique states explored.
        states: usize,
    },
}

impl Judgement {
    /// The first invariant the counterexample broke, if there is one.
    pub(crate) fn broken_invariant(&self) -> Option<InvariantId> {
        self.first_violation().map(|violation| violation.invariant)
    }

    /// The first violation of the counterexample, if there is one.
    pub fn first_violation(&self) -> Option<&Violation> {
        match self {
            Judgement::Counterexample { counterexample, .. } => counterexample.violations.first(),
            Judgement::Holds { .. } | Judgement::Bounded { .. } => None,
        }
    }
}

/// The sentence on why `program`'s counterexample breaks, in `language`: its typical mistake
/// ([`diagnose`]) if it makes one, else a pointer to the schedule.
pub fn why_in(program: &HandlerProgram, language: Language) -> &'static str {
    let words = language.words();
    match diagnose(program) {
        Some(Mistake::AckBeforeCommit) => words.report.handler_why_ack_before_commit,
        Some(Mistake::InboxInOwnTransaction) => words.report.handler_why_inbox_own_transaction,
        Some(Mistake::CheckThenInsert) => words.report.handler_why_check_then_insert,
        Some(Mistake::NoInbox) => words.report.handler_why_no_inbox,
        Some(Mistake::CheckThenUpdate) => words.report.handler_why_check_then_update,
        Some(Mistake::UnguardedUpdate) => words.report.handler_why_unguarded_update,
        None => words.report.handler_why_other,
    }
}

/// Judges `program` over `lesson` with the ids of `seed`, under `config`
/// ([`build_check_config`] for a build task).
#[cfg(test)]
pub(crate) fn judge(
    program: &HandlerProgram,
    lesson: &Scenario,
    seed: u64,
    config: CheckConfig,
) -> Result<Judgement, CheckError> {
    judge_scenario(scenario_with_program(lesson, program), seed, config)
}

/// Judges a scenario as it is (a program installed or the built-in): the one verdict shape
/// for both, so a program and the built-in it stands for compare exactly.
pub fn judge_scenario(
    scenario: Scenario,
    seed: u64,
    config: CheckConfig,
) -> Result<Judgement, CheckError> {
    let report = check(scenario, seed, config, &mut |_| {})?;
    Ok(Judgement::of_report(report))
}

impl Judgement {
    /// The judgement of a check's report: what [`judge_scenario`] answers, and what a caller
    /// that runs the [`crate::check::Checker`] in slices (the page) makes of its end.
    pub fn of_report(report: CheckReport) -> Judgement {
        let states = report.stats.unique_states;
        match report.outcome {
            CheckOutcome::Proved => Judgement::Holds { states, depth: report.stats.depth_reached },
            CheckOutcome::Violated(counterexample) => {
                Judgement::Counterexample { counterexample, states }
            }
            CheckOutcome::Bounded { reason } => Judgement::Bounded { reason, states },
        }
    }
}
