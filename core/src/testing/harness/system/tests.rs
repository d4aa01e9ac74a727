//! The harness over a user's system, on a points consumer over an in-memory store with its
//! own transactions (a working copy committed by [`UnitOfWork::commit`]): the naive consumer
//! is caught and shrunk to one duplicate, the inbox consumer passes, the inbox committed apart
//! from the effect is caught by a crash between the two, and each rule of the run is pinned.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;

use expect_test::expect;
use proptest::prelude::*;

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Design {
    Naive,
    Inbox,
    InboxApart,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tables {
    points: BTreeMap<char, u32>,
    inbox: BTreeSet<MessageId>,
}

struct MemoryPoints {
    design: Design,
    committed: Tables,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Award {
    customer: char,
    points: u32,
}

fn awards() -> impl Strategy<Value = Award> {
    (prop_oneof![Just('a'), Just('b')], 1u32..=50)
        .prop_map(|(customer, points)| Award { customer, points })
}

impl MemoryPoints {
    fn new(design: Design) -> MemoryPoints {
        MemoryPoints { design, committed: Tables::default() }
    }

    fn commit(&mut self, unit: &mut UnitOfWork, tx: Tables) -> Result<(), DeliveryError> {
        unit.commit(|| {
            self.committed = tx;
            Ok::<(), Infallible>(())
        })
    }
}

impl SystemUnderTest for MemoryPoints {
    type Message = Award;
    type Answer = ();
    type Observation = BTreeMap<char, u32>;

    fn reset(&mut self) -> Result<(), DeliveryError> {
        self.committed = Tables::default();
        Ok(())
    }

    fn deliver(
        &mut self,
        envelope: &Envelope<Award>,
        unit: &mut UnitOfWork,
    ) -> Result<(), DeliveryError> {
        let award = &envelope.payload;
        let mut tx = self.committed.clone();
        let fresh = self.design == Design::Naive || tx.inbox.insert(envelope.message_id);
        if self.design == Design::InboxApart {
            self.commit(unit, tx.clone())?;
        }
        if fresh {
            *tx.points.entry(award.customer).or_default() += award.points;
        }
        self.commit(unit, tx)
    }

    fn observe(&mut self) -> Result<Self::Observation, DeliveryError> {
        Ok(self.committed.points.clone())
    }

    fn exactly_once(&self, messages: &[Award]) -> Self::Observation {
        let mut points = BTreeMap::new();
        for award in messages {
            *points.entry(award.customer).or_default() += award.points;
        }
        points
    }
}

fn fuzz(design: Design) -> SystemFuzzReport<Award, (), BTreeMap<char, u32>> {
    fuzz_system(&mut MemoryPoints::new(design), awards(), SystemFuzzConfig::default())
}

#[test]
fn the_naive_consumer_is_shrunk_to_one_duplicate() {
    let report = fuzz(Design::Naive);
    let counterexample = report.counterexample.expect("caught");
    assert_eq!(counterexample.run.faults_taken(), 1);
    expect![[r#"
        message #1 published: Award { customer: 'a', points: 1 }
        1. #1 delivered: acknowledged
          F1 duplicate: the broker delivers it once more
        2. #1 delivered again: acknowledged
        => not exactly once: the store shows {'a': 2}, but each message applied once shows {'a': 1}
    "#]]
    .assert_eq(&counterexample.run.story());
}

#[test]
fn the_inbox_consumer_passes_every_schedule() {
    let report = fuzz(Design::Inbox);
    assert_eq!(report.counterexample, None);
    assert_eq!((report.cases_run, report.runs), (256, 256));
}

#[test]
fn an_inbox_committed_apart_is_caught_by_a_crash_between() {
    let counterexample = fuzz(Design::InboxApart).counterexample.expect("caught");
    expect![[r#"
        message #1 published: Award { customer: 'a', points: 1 }
        1. #1 delivered: F2: crashed just after its 1st commit: not acknowledged, delivered again
        2. #1 delivered again: acknowledged
        => not exactly once: the store shows {}, but each message applied once shows {'a': 1}
    "#]]
    .assert_eq(&counterexample.run.story());
}

fn award(customer: char, points: u32) -> Award {
    Award { customer, points }
}

fn run(design: Design, messages: Vec<Award>, faults: &[(usize, FaultKind)]) -> String {
    let faults = faults.iter().map(|&(delivery, kind)| Fault { delivery, kind }).collect();
    run_schedule(&mut MemoryPoints::new(design), &Schedule { messages, faults }).story()
}

#[test]
fn a_crash_before_commit_rolls_back_and_the_message_comes_again() {
    let story =
        run(Design::Naive, vec![award('a', 3)], &[(0, FaultKind::CrashBeforeCommit { commit: 0 })]);
    expect![[r#"
        message #1 published: Award { customer: 'a', points: 3 }
        1. #1 delivered: F3: crashed just before its 1st commit, which rolls back: delivered again
        2. #1 delivered again: acknowledged
        => exactly once: the store shows each message applied once
    "#]]
    .assert_eq(&story);
}

#[test]
fn a_reorder_a_timeout_and_faults_never_reached() {
    let faults = [
        (0, FaultKind::Reorder),
        (1, FaultKind::TimedOut),
        (1, FaultKind::Duplicate),
        (2, FaultKind::CrashAfterCommit { commit: 1 }),
        (9, FaultKind::Duplicate),
    ];
    let story = run(Design::Inbox, vec![award('a', 1), award('b', 2)], &faults);
    expect![[r#"
        message #1 published: Award { customer: 'a', points: 1 }
        message #2 published: Award { customer: 'b', points: 2 }
          F9 reorder: #2 overtakes #1
        1. #2 delivered: acknowledged
        2. #1 delivered: outlived the visibility timeout: delivered again, its late acknowledgement refused
        3. #1 delivered again: acknowledged
        => exactly once: the store shows each message applied once
    "#]]
    .assert_eq(&story);
}

struct Failing;

impl SystemUnderTest for Failing {
    type Message = u8;
    type Answer = u8;
    type Observation = ();
    const SIDE: Side = Side::Http;

    fn reset(&mut self) -> Result<(), DeliveryError> {
        Ok(())
    }

    fn deliver(
        &mut self,
        envelope: &Envelope<u8>,
        unit: &mut UnitOfWork,
    ) -> Result<u8, DeliveryError> {
        if unit.commits() == 0 && envelope.payload == 7 {
            return Err(DeliveryError::Failed("UNIQUE constraint failed: keys.key".to_owned()));
        }
        Ok(envelope.payload)
    }

    fn observe(&mut self) -> Result<(), DeliveryError> {
        Ok(())
    }

    fn exactly_once(&self, _: &[u8]) {}
}

#[test]
fn a_failed_delivery_is_a_violation_and_ends_the_run() {
    let schedule = Schedule { messages: vec![3, 7, 5], faults: vec![] };
    let run = run_schedule(&mut Failing, &schedule);
    expect![[r#"
        request #1 published: 3
        request #2 published: 7
        request #3 published: 5
        1. #1 sent: answered 3
        2. #2 sent: failed: UNIQUE constraint failed: keys.key
        => not exactly once: request #2 failed (UNIQUE constraint failed: keys.key); every delivery, a copy too, must be answered, not fail
    "#]]
    .assert_eq(&run.story());
    assert!(run.verdict().is_err());
}

#[test]
fn message_ids_are_fixed_and_distinct() {
    assert_eq!(message_id_of(0).to_string(), "00000000-0000-4000-8000-000000000001");
    assert_eq!(message_id_of(255).to_string(), "00000000-0000-4000-8000-000000000100");
}

proptest! {
    #![proptest_config(crate::testing::proptest_config(64))]
    /// The strategy in a user's own `proptest!`, with `verdict` as the test's result.
    #[test]
    fn in_a_users_own_proptest(schedule in schedules(awards(), ScheduleConfig::default())) {
        run_schedule(&mut MemoryPoints::new(Design::Inbox), &schedule).verdict()?;
    }
}
