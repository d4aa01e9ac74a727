//! The decisive moments of every lesson, pinned at their steps in both twins; every kind shown
//! by a built-in scenario (the stale completion by `p3-slow-request`) and by a held request;
//! and a pattern's moments never shown while that pattern is naive.

use expect_test::expect;

use super::*;
use crate::ids::{OrderId, PaymentId};
use crate::sim::{
    Action, CATALOGUE, Pattern, PatternMode, Patterns, RequestIndex, Scenario, Simulation,
    StopReason, Trace, catalogue_scenario,
};
use crate::sql::statements;

fn run(scenario: Scenario) -> Trace {
    Simulation::run(scenario, 0).unwrap()
}

fn lesson(id: &str, mode: PatternMode) -> Trace {
    run(catalogue_scenario(id).unwrap().with_mode(mode))
}

fn render(moments: &[Moment]) -> String {
    let list: Vec<String> = moments
        .iter()
        .map(|moment| format!("{} {:?} on {}", moment.step, moment.kind, moment.lane))
        .collect();
    list.join(", ")
}

/// The pattern whose idempotent version makes the moment.
fn pattern_of(kind: MomentKind) -> Pattern {
    match kind {
        MomentKind::ReservationAlreadyPresent => Pattern::P1,
        MomentKind::AlreadyPaid => Pattern::P2,
        MomentKind::KeyInProgress
        | MomentKind::KeyReused
        | MomentKind::LeaseTakeover
        | MomentKind::StaleCompletion
        | MomentKind::ResponseReplayed => Pattern::P3,
        MomentKind::InboxDuplicate => Pattern::P4,
    }
}

fn mode_of(patterns: Patterns, pattern: Pattern) -> PatternMode {
    match pattern {
        Pattern::P1 => patterns.p1_stock,
        Pattern::P2 => patterns.p2_order,
        Pattern::P3 => patterns.p3_api,
        Pattern::P4 => patterns.p4_inbox,
    }
}

#[test]
fn every_lesson_shows_its_moments_at_pinned_steps_and_its_naive_twin_none() {
    let mut text = String::new();
    for entry in CATALOGUE {
        for mode in [PatternMode::Naive, PatternMode::Idempotent] {
            let moments = moments(&lesson(entry.id, mode).steps);
            if !moments.is_empty() {
                text.push_str(&format!("{} {mode:?}: {}\n", entry.id, render(&moments)));
            }
        }
    }
    expect![[r#"
        f01-duplicate-delivery Idempotent: 33 InboxDuplicate on Consumer A
        f02-crash-after-commit Idempotent: 33 InboxDuplicate on Consumer B
        f04-concurrent-delivery Idempotent: 33 InboxDuplicate on Consumer A
        f05-lost-response Idempotent: 35 ResponseReplayed on API
        f06-double-submit Idempotent: 12 KeyInProgress on API, 40 ResponseReplayed on API
        f07-key-reuse Idempotent: 26 KeyReused on API
        f08-api-crash Idempotent: 47 KeyInProgress on API, 54 KeyInProgress on API, 62 LeaseTakeover on API, 66 AlreadyPaid on API
        f10-duplicate-after-retention Idempotent: 42 ReservationAlreadyPresent on Consumer A
        f12-relay-crash Idempotent: 35 InboxDuplicate on Consumer A
        p1-stock-reservation Idempotent: 32 ReservationAlreadyPresent on Consumer A
        p2-order-state-machine Idempotent: 35 AlreadyPaid on API
        p3-idempotency-key Idempotent: 35 ResponseReplayed on API
        p3-slow-request Naive: 64 InboxDuplicate on Consumer B, 126 AlreadyPaid on API, 145 AlreadyPaid on API, 163 AlreadyPaid on API, 165 AlreadyPaid on API, 176 AlreadyPaid on API
        p3-slow-request Idempotent: 23 KeyInProgress on API, 24 KeyInProgress on API, 39 KeyInProgress on API, 54 KeyInProgress on API, 83 ResponseReplayed on API, 91 InboxDuplicate on Consumer A, 98 KeyInProgress on API, 116 LeaseTakeover on API, 126 KeyInProgress on API, 130 KeyInProgress on API, 135 KeyInProgress on API, 136 AlreadyPaid on API, 149 StaleCompletion on API
        p4-inbox-consumer Idempotent: 33 InboxDuplicate on Consumer B
    "#]]
    .assert_eq(&text);
}

/// Each kind in the lesson of its pattern (the golden traces of `sim/snapshots/` show the
/// steps), and the statement or event it stands on.
#[test]
fn each_kind_stands_on_the_step_that_decides_it() {
    let check = |id: &str, step: usize, kind: MomentKind, statement: Option<&str>| {
        let trace = lesson(id, PatternMode::Idempotent);
        let at = &trace.steps[step - 1];
        assert_eq!(at.step, step);
        let found: Vec<Moment> =
            moments(&trace.steps).into_iter().filter(|moment| moment.step == step).collect();
        assert_eq!(found.iter().map(|moment| moment.kind).collect::<Vec<_>>(), [kind], "{id}");
        assert_eq!(found[0].lane, Lane::of_actor(at.actor), "{id}");
        if let Some(statement) = statement {
            assert!(at.statement.as_deref().unwrap_or("").starts_with(statement), "{id} {at:?}");
        }
    };
    // A consumer's outcome is carried by its ACK; the moment is on the insert that did it.
    check(
        "p1-stock-reservation",
        32,
        MomentKind::ReservationAlreadyPresent,
        Some("INSERT INTO reservations"),
    );
    check("p4-inbox-consumer", 33, MomentKind::InboxDuplicate, Some("INSERT INTO inbox"));
    check("f04-concurrent-delivery", 33, MomentKind::InboxDuplicate, Some("INSERT INTO inbox"));
    check("f12-relay-crash", 35, MomentKind::InboxDuplicate, Some("INSERT INTO inbox"));
    // P2's repeat is decided by its COMMIT; the moment is on the guarded UPDATE that matched
    // nothing.
    let mark_paid = Some("UPDATE orders SET status = 'Paid'");
    check("p2-order-state-machine", 35, MomentKind::AlreadyPaid, mark_paid);
    check("f08-api-crash", 66, MomentKind::AlreadyPaid, mark_paid);
    check("p3-slow-request", 116, MomentKind::LeaseTakeover, None);
    check("p3-slow-request", 149, MomentKind::StaleCompletion, None);
    check("f06-double-submit", 12, MomentKind::KeyInProgress, None);
    check("f08-api-crash", 47, MomentKind::KeyInProgress, None);
    check("f07-key-reuse", 26, MomentKind::KeyReused, None);
    check("f08-api-crash", 62, MomentKind::LeaseTakeover, None);
    check("p3-idempotency-key", 35, MomentKind::ResponseReplayed, None);
    check("f05-lost-response", 35, MomentKind::ResponseReplayed, None);
}

#[test]
fn a_repeated_payment_commits_nothing_and_charges_once() {
    let trace = lesson("p2-order-state-machine", PatternMode::Idempotent);
    let commit = &trace.steps[37 - 1];
    assert!(commit.row_changes.is_empty(), "{commit:?}");
    let charges: usize = trace
        .steps
        .iter()
        .flat_map(|step| &step.row_changes)
        .filter(|change| change.table.as_str() == "charges")
        .count();
    assert_eq!(charges, 1, "one charge for the payment and its retry");
    // The naive twin charges twice and shows no moment.
    let naive = lesson("p2-order-state-machine", PatternMode::Naive);
    assert!(moments(&naive.steps).is_empty());
}

/// The statements the `AlreadyPaid` rule looks for are the ones P2 runs.
#[test]
fn the_already_paid_rule_reads_the_statements_p2_writes() {
    let order = OrderId(uuid::Uuid::nil());
    let payment = PaymentId::new("pay-1");
    let guarded =
        statements::set_order_status(order, "Paid", Some(&payment), Some(&["Placed"]), false);
    assert!(guarded.starts_with(MARK_PAID_UPDATE), "{guarded}");
    assert!(statements::select_order_status(order).starts_with(ORDER_STATUS_READ));
    let shipped = statements::set_order_status(order, "Shipped", None, Some(&["Paid"]), false);
    assert!(!shipped.starts_with(MARK_PAID_UPDATE), "{shipped}");
}

/// F8's lesson without its crash, all idempotent: the payment's first send is held once its
/// key is reserved (its retries get 409) until a retry has taken the key over after the lease,
/// paid the order and written the key's completion; then it goes on, runs `MarkPaid` on the
/// order its retry paid (a no-op), and its own completion, with the old token, is refused.
fn held_payment() -> Trace {
    let mut scenario =
        catalogue_scenario("f08-api-crash").unwrap().with_all_patterns(PatternMode::Idempotent);
    scenario.injections.clear();
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    let payment = RequestIndex(1);
    let mut slow = None;
    let mut held = false;
    for _ in 0..2_000 {
        let steps = simulation.steps();
        let last = steps.last();
        for event in last.map(|step| step.events.as_slice()).unwrap_or_default() {
            match event {
                SimEvent::RequestSent { request, attempt, .. }
                    if *request == payment && slow.is_none() =>
                {
                    slow = Some(*attempt);
                }
                SimEvent::HandlerRunStarted { .. }
                    if last.and_then(|step| step.attempt) == slow =>
                {
                    held = true;
                }
                SimEvent::Idempotency { event: IdempotencyEvent::ResponseStored { .. } }
                    if held && last.and_then(|step| step.attempt) != slow =>
                {
                    held = false;
                    slow = None;
                }
                _ => {}
            }
        }
        let enabled = simulation.world().enabled_normal_actions();
        let movable = |action: &&Action| match action {
            Action::ApiStep { attempt } => !(held && Some(*attempt) == slow),
            _ => true,
        };
        let next = enabled
            .iter()
            .filter(movable)
            .find(|action| !matches!(action, Action::AdvanceClock { .. }))
            .or_else(|| enabled.iter().find(movable))
            .cloned();
        let Some(next) = next else { break };
        simulation.step_with(next).unwrap();
    }
    assert_eq!(simulation.run_to_end(), StopReason::Quiescent);
    simulation.trace()
}

#[test]
fn a_held_payment_shows_the_takeover_the_repeat_and_the_stale_completion() {
    let trace = held_payment();
    assert!(trace.summary.first_violation_step.is_empty(), "{}", trace.to_text());
    expect!["41 KeyInProgress on API, 48 KeyInProgress on API, 56 LeaseTakeover on API, 68 AlreadyPaid on API, 74 StaleCompletion on API"]
    .assert_eq(&render(&moments(&trace.steps)));
}

#[test]
fn every_kind_is_shown_by_a_built_in_scenario_and_by_the_held_payment() {
    let traces: Vec<Trace> = CATALOGUE
        .iter()
        .flat_map(|entry| {
            [PatternMode::Naive, PatternMode::Idempotent].map(|mode| lesson(entry.id, mode))
        })
        .collect();
    for kind in MomentKind::ALL {
        assert!(
            traces.iter().any(|trace| moments(&trace.steps).iter().any(|m| m.kind == kind)),
            "{kind:?} is shown by no built-in scenario"
        );
    }
    let held: Vec<MomentKind> = moments(&held_payment().steps).iter().map(|m| m.kind).collect();
    assert!(held.contains(&MomentKind::StaleCompletion), "{held:?}");
}

/// Every lesson, on a few seeds, with each pattern naive in turn and the others idempotent:
/// the naive pattern's moments never show (it cannot turn anything away), and all naive shows
/// none at all.
#[test]
fn a_naive_pattern_never_shows_its_moments() {
    for entry in CATALOGUE {
        let base = catalogue_scenario(entry.id).unwrap();
        for seed in 0..4 {
            for naive in
                [None, Some(Pattern::P1), Some(Pattern::P2), Some(Pattern::P3), Some(Pattern::P4)]
            {
                let patterns = match naive {
                    Some(pattern) => {
                        Patterns::all(PatternMode::Idempotent).with(pattern, PatternMode::Naive)
                    }
                    None => Patterns::all(PatternMode::Naive),
                };
                let scenario = Scenario { patterns, ..base.clone() };
                let trace = Simulation::run(scenario, seed).unwrap();
                for moment in moments(&trace.steps) {
                    assert_eq!(
                        mode_of(patterns, pattern_of(moment.kind)),
                        PatternMode::Idempotent,
                        "{} seed {seed} {patterns:?}: {moment:?}",
                        entry.id
                    );
                }
            }
        }
    }
}

#[test]
fn a_step_lists_each_kind_once_in_event_order() {
    let replayed = lesson("p3-idempotency-key", PatternMode::Idempotent).steps[35 - 1].clone();
    let duplicate = lesson("p4-inbox-consumer", PatternMode::Idempotent).steps[34 - 1].clone();
    let mut step = duplicate.clone();
    step.events = [&replayed.events[..], &duplicate.events[..], &replayed.events[..]].concat();
    assert_eq!(step_moments(&step), [MomentKind::ResponseReplayed, MomentKind::InboxDuplicate]);
    assert_eq!(step_moments(&duplicate), [MomentKind::InboxDuplicate]);
}

#[test]
fn kinds_keep_their_serde_names() {
    let names: Vec<String> =
        MomentKind::ALL.iter().map(|kind| serde_json::to_string(kind).unwrap()).collect();
    assert_eq!(
        names,
        [
            "\"reservation_already_present\"",
            "\"inbox_duplicate\"",
            "\"already_paid\"",
            "\"key_in_progress\"",
            "\"key_reused\"",
            "\"lease_takeover\"",
            "\"stale_completion\"",
            "\"response_replayed\"",
        ]
    );
    assert!(MomentKind::ALL.windows(2).all(|pair| pair[0] < pair[1]), "in order, no repeat");
}

/// Every headline and why in both languages: distinct, and the SQL, identifiers and statuses
/// of the English headline kept in Latin in the Russian one.
#[test]
fn headlines_keep_sql_and_statuses_in_latin_in_every_language() {
    let latin = ["INSERT ... ON CONFLICT DO NOTHING", "INSERT inbox", "MarkPaid", "409", "422"];
    for language in Language::ALL {
        let headlines: Vec<&str> =
            MomentKind::ALL.iter().map(|kind| kind.headline(language)).collect();
        let whys: Vec<&str> = MomentKind::ALL.iter().map(|kind| kind.why(language)).collect();
        for texts in [&headlines, &whys] {
            let mut distinct = texts.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), MomentKind::ALL.len(), "{language}: {texts:?}");
        }
    }
    for kind in MomentKind::ALL {
        let (en, ru) = (kind.headline(Language::En), kind.headline(Language::Ru));
        for token in latin.iter().filter(|token| en.contains(**token)) {
            assert!(ru.contains(token), "{kind:?}: {ru:?} lacks {token}");
        }
        assert_ne!(en, ru, "{kind:?}");
    }
    assert_eq!(
        MomentKind::ReservationAlreadyPresent.headline(Language::En),
        "INSERT ... ON CONFLICT DO NOTHING -> 0 rows"
    );
}
