//! Running a schedule against the user's system, and fuzzing: [`run_schedule`] plays one
//! [`Schedule`] as a broker (or the HTTP clients) would, and judges what the system left
//! against its exactly-once oracle; [`fuzz_system`] draws schedules with a seeded proptest
//! runner and lets proptest shrink the first failing one.
//!
//! The broker: the messages wait in publication order; each delivery takes the first (a
//! [`FaultKind::Reorder`] lets the second overtake it); a crashed or timed-out delivery puts
//! the message back at the end, and so does an acknowledged delivery with a
//! [`FaultKind::Duplicate`]. Each fault adds at most one delivery, so a schedule of `n`
//! messages and `f` faults makes at most `n + f` deliveries.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt::Debug;

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::testing::harness::system::{
    CrashPoint, DeliveryError, Envelope, FaultKind, Schedule, ScheduleConfig, Side,
    SystemUnderTest, UnitOfWork, message_id_of, schedules,
};

/// What came of one delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DeliveryOutcome<A> {
    /// It answered and was acknowledged (HTTP: the answer reached the client).
    Acknowledged {
        /// The answer.
        answer: A,
    },
    /// It answered after the visibility timeout: delivered again, the late acknowledgement
    /// refused (HTTP: the answer was lost and the client retried).
    TimedOut {
        /// The answer, given even though it was lost.
        answer: A,
    },
    /// The harness crashed it: not acknowledged, delivered again.
    Crashed {
        /// Where.
        at: CrashPoint,
    },
    /// The system failed (a duplicate must be acknowledged, not fail).
    Failed {
        /// The error's text.
        error: String,
    },
}

/// What happened in a run, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ScheduleEvent<A> {
    /// F9: message `overtaking` is delivered before `overtaken` (indices into the schedule's
    /// messages).
    Reordered {
        /// The message that was first.
        overtaken: usize,
        /// The message delivered before it.
        overtaking: usize,
    },
    /// One delivery.
    Delivered {
        /// The delivery, from 0.
        delivery: usize,
        /// The message.
        message: usize,
        /// Whether the message had been delivered before.
        again: bool,
        /// What came of it.
        outcome: DeliveryOutcome<A>,
    },
    /// F1 (HTTP: F6): after the acknowledgement, the message is delivered once more.
    Duplicated {
        /// The message.
        message: usize,
    },
}

/// Why a run breaks exactly-once processing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleViolation<A, O> {
    /// [`SystemUnderTest::reset`] failed.
    ResetFailed {
        /// The error's text.
        error: String,
    },
    /// [`SystemUnderTest::observe`] failed.
    ObserveFailed {
        /// The error's text.
        error: String,
    },
    /// A delivery failed.
    DeliveryFailed {
        /// The delivery.
        delivery: usize,
        /// The message.
        message: usize,
        /// The error's text.
        error: String,
    },
    /// Two deliveries of one message answered differently.
    DifferentAnswers {
        /// The message.
        message: usize,
        /// The first answer.
        first: A,
        /// The later, different one.
        then: A,
    },
    /// Once every message was acknowledged, the store shows something else than each distinct
    /// message applied once.
    NotExactlyOnce {
        /// What the store shows.
        observed: O,
        /// What the oracle says.
        expected: O,
    },
}

/// One schedule's run: what happened and whether exactly-once held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleRun<M, A, O> {
    /// How the story words it.
    pub(crate) side: Side,
    /// The payloads published.
    pub(crate) messages: Vec<M>,
    /// What happened.
    pub(crate) events: Vec<ScheduleEvent<A>>,
    /// The violation, if any (the run stops at a failed delivery).
    pub violation: Option<ScheduleViolation<A, O>>,
}

impl<M: Debug, A: Debug, O: Debug> ScheduleRun<M, A, O> {
    /// `Ok` if exactly-once held, else a proptest failure whose message is the story: for the
    /// user's own `proptest!`, as `run_schedule(&mut system, &schedule).verdict()?`.
    pub fn verdict(&self) -> Result<(), TestCaseError> {
        match self.violation {
            None => Ok(()),
            Some(_) => Err(TestCaseError::fail(self.story())),
        }
    }

    /// The faults taken (a fault of a delivery that never happened is not one).
    pub fn faults_taken(&self) -> usize {
        self.events
            .iter()
            .filter(|event| match event {
                ScheduleEvent::Reordered { .. } | ScheduleEvent::Duplicated { .. } => true,
                ScheduleEvent::Delivered { outcome, .. } => matches!(
                    outcome,
                    DeliveryOutcome::TimedOut { .. } | DeliveryOutcome::Crashed { .. }
                ),
            })
            .count()
    }
}

/// The message ids and payloads of `schedule`.
fn envelopes<M: Clone>(schedule: &Schedule<M>) -> Vec<Envelope<M>> {
    schedule
        .messages
        .iter()
        .enumerate()
        .map(|(index, payload)| Envelope {
            message_id: message_id_of(index),
            payload: payload.clone(),
        })
        .collect()
}

/// What came of one delivery, from what the system returned and where the harness crashed it.
fn outcome_of<A>(
    crashed: Option<CrashPoint>,
    result: Result<A, DeliveryError>,
    timed_out: bool,
) -> DeliveryOutcome<A> {
    match (crashed, result) {
        (Some(at), _) => DeliveryOutcome::Crashed { at },
        (None, Err(DeliveryError::Crashed)) => DeliveryOutcome::Failed {
            error: "the delivery returned DeliveryError::Crashed, but the harness crashed nothing"
                .to_owned(),
        },
        (None, Err(DeliveryError::Failed(error))) => DeliveryOutcome::Failed { error },
        (None, Ok(answer)) if timed_out => DeliveryOutcome::TimedOut { answer },
        (None, Ok(answer)) => DeliveryOutcome::Acknowledged { answer },
    }
}

/// Runs `schedule` against `system` (reset first) and judges it.
pub fn run_schedule<S: SystemUnderTest>(
    system: &mut S,
    schedule: &Schedule<S::Message>,
) -> ScheduleRun<S::Message, S::Answer, S::Observation> {
    let mut run = ScheduleRun {
        side: S::SIDE,
        messages: schedule.messages.clone(),
        events: Vec::new(),
        violation: None,
    };
    if let Err(error) = system.reset() {
        run.violation = Some(ScheduleViolation::ResetFailed { error: error.to_string() });
        return run;
    }
    let envelopes = envelopes(schedule);
    let mut queue: VecDeque<usize> = (0..envelopes.len()).collect();
    let mut answers: Vec<Option<S::Answer>> = vec![None; envelopes.len()];
    let mut delivered = vec![false; envelopes.len()];
    let mut delivery = 0;
    while !queue.is_empty() {
        debug_assert!(delivery <= envelopes.len() + schedule.faults.len());
        let here = || schedule.faults.iter().filter(|fault| fault.delivery == delivery);
        if here().any(|fault| fault.kind == FaultKind::Reorder) && queue.len() >= 2 {
            queue.swap(0, 1);
            if let (Some(&overtaking), Some(&overtaken)) = (queue.front(), queue.get(1)) {
                run.events.push(ScheduleEvent::Reordered { overtaken, overtaking });
            }
        }
        let fault = here().map(|fault| fault.kind).find(|kind| *kind != FaultKind::Reorder);
        let Some(message) = queue.pop_front() else { break };
        let (Some(envelope), Some(seen)) = (envelopes.get(message), delivered.get_mut(message))
        else {
            break;
        };
        let again = std::mem::replace(seen, true);
        let mut unit = UnitOfWork::new(fault.and_then(FaultKind::crash_point));
        let result = system.deliver(envelope, &mut unit);
        let outcome = outcome_of(unit.crashed(), result, fault == Some(FaultKind::TimedOut));
        let answer = match &outcome {
            DeliveryOutcome::Acknowledged { answer } | DeliveryOutcome::TimedOut { answer } => {
                Some(answer.clone())
            }
            DeliveryOutcome::Crashed { .. } | DeliveryOutcome::Failed { .. } => None,
        };
        if let DeliveryOutcome::Failed { error } = &outcome {
            run.violation =
                Some(ScheduleViolation::DeliveryFailed { delivery, message, error: error.clone() });
        }
        let requeue = !matches!(outcome, DeliveryOutcome::Acknowledged { .. });
        run.events.push(ScheduleEvent::Delivered { delivery, message, again, outcome });
        if run.violation.is_some() {
            return run;
        }
        if let (Some(answer), Some(slot)) = (answer, answers.get_mut(message)) {
            match slot {
                None => *slot = Some(answer),
                Some(first) if *first != answer => {
                    run.violation = Some(ScheduleViolation::DifferentAnswers {
                        message,
                        first: first.clone(),
                        then: answer,
                    });
                    return run;
                }
                Some(_) => {}
            }
        }
        if requeue {
            queue.push_back(message);
        } else if fault == Some(FaultKind::Duplicate) {
            run.events.push(ScheduleEvent::Duplicated { message });
            queue.push_back(message);
        }
        delivery += 1;
    }
    run.violation = judge_store(system, &schedule.messages);
    run
}

/// The store against the oracle, once every message is acknowledged.
fn judge_store<S: SystemUnderTest>(
    system: &mut S,
    messages: &[S::Message],
) -> Option<ScheduleViolation<S::Answer, S::Observation>> {
    let observed = match system.observe() {
        Ok(observed) => observed,
        Err(error) => return Some(ScheduleViolation::ObserveFailed { error: error.to_string() }),
    };
    let expected = system.exactly_once(messages);
    (observed != expected).then_some(ScheduleViolation::NotExactlyOnce { observed, expected })
}

/// How [`fuzz_system`] draws schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemFuzzConfig {
    /// Schedules to draw.
    pub cases: u32,
    /// The seed of the runner's choices: the same seed draws the same schedules.
    pub seed: u64,
    /// The most shrinking steps.
    pub shrink_iters_max: u32,
    /// The bounds of a schedule.
    pub schedule: ScheduleConfig,
}

impl Default for SystemFuzzConfig {
    /// 256 schedules, seed 0, 4096 shrinking steps, the default schedule bounds.
    fn default() -> Self {
        SystemFuzzConfig {
            cases: 256,
            seed: 0,
            shrink_iters_max: 4_096,
            schedule: ScheduleConfig::default(),
        }
    }
}

/// A failing schedule, shrunk, with its run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemCounterexample<M, A, O> {
    /// The schedule.
    pub(crate) schedule: Schedule<M>,
    /// Its run (see [`ScheduleRun::story`]).
    pub run: ScheduleRun<M, A, O>,
}

/// What [`fuzz_system`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemFuzzReport<M, A, O> {
    /// Schedules drawn, the first failing one included (shrinking runs not counted).
    pub cases_run: u32,
    /// Schedules run in all, shrinking included.
    pub runs: u32,
    /// The first failing schedule, shrunk to a minimal one.
    pub counterexample: Option<SystemCounterexample<M, A, O>>,
}

/// The proptest runner of `config`: its seed, no failure file, no time limit.
fn runner(config: &SystemFuzzConfig) -> TestRunner {
    let mut seed = [0u8; 32];
    for (slot, byte) in seed.iter_mut().zip(config.seed.to_le_bytes()) {
        *slot = byte;
    }
    let proptest_config = Config {
        cases: config.cases,
        max_shrink_iters: config.shrink_iters_max,
        max_shrink_time: 0,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(proptest_config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

/// Fuzzes `system` with schedules of messages drawn by `messages`: stops at the first schedule
/// that breaks exactly-once and lets proptest shrink it.
pub fn fuzz_system<S, St>(
    system: &mut S,
    messages: St,
    config: SystemFuzzConfig,
) -> SystemFuzzReport<S::Message, S::Answer, S::Observation>
where
    S: SystemUnderTest,
    St: Strategy<Value = S::Message>,
{
    let strategy = schedules(messages, config.schedule);
    let shared = RefCell::new(&mut *system);
    let (cases_run, runs, failed) = (Cell::new(0u32), Cell::new(0u32), Cell::new(false));
    let result = runner(&config).run(&strategy, |schedule| {
        runs.set(runs.get().saturating_add(1));
        if !failed.get() {
            cases_run.set(cases_run.get().saturating_add(1));
        }
        let mut system = shared.borrow_mut();
        if run_schedule(&mut **system, &schedule).violation.is_none() {
            return Ok(());
        }
        failed.set(true);
        Err(TestCaseError::fail("not exactly once"))
    });
    let counterexample = match result {
        Err(TestError::Fail(_, schedule)) => {
            let run = run_schedule(system, &schedule);
            Some(SystemCounterexample { schedule, run })
        }
        Ok(()) | Err(TestError::Abort(_)) => None,
    };
    SystemFuzzReport { cases_run: cases_run.get(), runs: runs.get(), counterexample }
}
