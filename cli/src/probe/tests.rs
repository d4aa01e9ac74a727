//! The pure part of `probe` without a service: the probe file's errors, the schedules a seed
//! draws, and the judge and the shrinker over a model of a top-up service (naive: applies every
//! request; keyed: replays the stored answer, 422 and 400 as the draft says), answering in
//! plan order.

use std::collections::BTreeMap;
use std::path::Path;

use expect_test::{Expect, expect};
use idempotency_lab::rng::DeterministicRng;

use crate::probe::file::ProbeFile;
use crate::probe::judge::{Answer, EffectReading, Exchange, judge};
use crate::probe::plan::{Role, plan};
use crate::probe::schedule::{Schedule, draw};
use crate::probe::shrink::{ProbeRun, SHRINK_RUNS_MAX, shrink};
use crate::probe::story::story;

const EXAMPLE: &str = include_str!("../../../examples/probe/top_up.toml");

fn example() -> ProbeFile {
    ProbeFile::parse(EXAMPLE, Path::new(".")).unwrap()
}

/// Parses the example with `from` replaced by `to`, and shows the error (or `ok`).
fn check_file(from: &str, to: &str, expect: Expect) {
    assert!(EXAMPLE.contains(from), "{from}");
    let text = EXAMPLE.replacen(from, to, 1);
    let actual = match ProbeFile::parse(&text, Path::new(".")) {
        Ok(_) => "ok".to_owned(),
        Err(error) => error.to_string(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn probe_file_errors_name_the_field() {
    check_file("timeout_ms = 2000", "timeout_ms = 2000", expect!["ok"]);
    check_file(
        "timeout_ms = 2000",
        "timeout = 2000",
        expect![
            "target.timeout: unknown field `timeout`, expected one of `base_url`, `method`, `path`, `headers`, `body`, `timeout_ms` (line 14, column 1)"
        ],
    );
    check_file(
        "timeout_ms = 2000",
        "timeout_ms = 0",
        expect!["target.timeout_ms: from 1 to 60000"],
    );
    check_file(
        "pointer = \"/balance\"",
        "pointer = 7",
        expect![
            "oracle.http.pointer: invalid type: integer `7`, expected a string (line 25, column 11)"
        ],
    );
    check_file(
        "in_flight_delay_ms = 10",
        "in_flight_delay_ms = 10\nsettle_ms = 0",
        expect!["schedule.settle_ms: from 1 to 10000"],
    );
    check_file(
        "in_flight_delay_ms = 10",
        "in_flight_delay_ms = 10\nsettle_ms = 250",
        expect!["ok"],
    );
    check_file("kind = \"api\"", "kind = \"webhook\"", expect!["api: only for kind = \"api\""]);
    check_file(
        "{{n}} {{uuid}}",
        "{{amount}}",
        expect!["target.body: unknown placeholder {{amount}}; known: {{n}}, {{uuid}}, {{key}}"],
    );
    check_file(
        "in_flight_delay_ms = 10",
        "in_flight_delay_ms = 10\nfaults = [\"reorder\"]",
        expect![[r#"schedule.faults[0]: reorder is for kind = "webhook""#]],
    );
    check_file("{{n}} {{uuid}}", "constant", expect!["ok"]);
    check_file(
        "http = { method = \"POST\", path = \"/reset\" }",
        "sql = \"DELETE FROM wallets\"",
        expect![
            "reset.sql: runs on the SQL oracle's database: add [oracle.sqlite] or [oracle.postgres]"
        ],
    );
    check_file(
        "[oracle.http]",
        "postgres = { connection = \"host=/run/postgresql port=x\", query = \"SELECT 1\" }\n\n[oracle.http]",
        expect!["oracle.postgres.connection: invalid connection string"],
    );
    let both = EXAMPLE
        .replacen(
            "[oracle.http]",
            "sqlite = { database = \"w.db\", query = \"SELECT 1\" }\n\
             postgres = { connection = \"host=/run/postgresql\", query = \"SELECT 1\" }\n\n\
             [oracle.http]",
            1,
        )
        .replacen("http = { method = \"POST\", path = \"/reset\" }", "sql = \"DELETE FROM w\"", 1);
    expect![[r#"reset.sql: both [oracle.sqlite] and [oracle.postgres]: keep one, so the database it runs on is clear"#]]
        .assert_eq(&ProbeFile::parse(&both, Path::new(".")).unwrap_err().to_string());
    check_file(
        "base_url = \"http://127.0.0.1:8080\"",
        "base_url = \"https://127.0.0.1:8080\"",
        expect![
            "target.base_url: https:// is not supported (the probe has no TLS): give the service's plain http:// address"
        ],
    );
}

#[test]
fn a_body_without_fresh_values_cannot_reuse_a_key() {
    let text = EXAMPLE.replacen("{{n}} {{uuid}}", "constant", 1).replacen(
        "in_flight_delay_ms = 10",
        "in_flight_delay_ms = 10\nfaults = [\"key_reuse\"]",
        1,
    );
    let error = ProbeFile::parse(&text, Path::new(".")).unwrap_err().to_string();
    assert_eq!(
        error,
        "schedule.faults[0]: key_reuse needs another body for the same key: put {{n}} or \
         {{uuid}} in target.body"
    );
}

#[test]
fn a_seed_draws_the_same_schedules() {
    let file = example();
    let summaries = |seed| {
        let mut rng = DeterministicRng::from_seed(seed);
        (0..6).map(|_| draw(&mut rng, &file.schedule).summary()).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(summaries(1), summaries(1));
    assert_ne!(summaries(1), summaries(2));
    expect![[r#"
        #1, #2 retry_in_flight
        #1, #2 duplicate
        #1, #2, #3 lost_response
        #1 lost_response, #2 key_reuse, #3 missing_key
        #1 key_reuse, #2, #3 duplicate
        #1"#]]
    .assert_eq(&summaries(1));
}

/// A top-up service as a model: `keyed` stores each key's body and answer.
fn model_run(file: &ProbeFile, schedule: &Schedule, keyed: bool) -> ProbeRun {
    let phases = plan(schedule, 0);
    let requests = crate::probe::execute::requests(file, schedule, &phases);
    let mut balance = 0.0;
    let mut keys: BTreeMap<String, (String, Answer)> = BTreeMap::new();
    let mut exchanges = Vec::new();
    for (phase, requests) in phases.iter().zip(&requests) {
        let mut answers = Vec::new();
        for (send, request) in phase.sends.iter().zip(requests) {
            let key = &schedule.operations[send.operation].key;
            let answer = match (keyed, send.role, keys.get(key)) {
                (true, Role::Keyless, _) => Answer { status: 400, body: String::new() },
                (true, _, Some((body, answer))) if *body == request.body => answer.clone(),
                (true, _, Some(_)) => Answer { status: 422, body: String::new() },
                _ => {
                    balance += 10.0;
                    let answer = Answer { status: 201, body: format!("{{\"balance\":{balance}}}") };
                    keys.insert(key.clone(), (request.body.clone(), answer.clone()));
                    answer
                }
            };
            answers.push(if send.role == Role::HungUp {
                Exchange::HungUp
            } else {
                Exchange::Answered(answer)
            });
        }
        exchanges.push(answers);
    }
    let effects = vec![EffectReading { oracle: "model".to_owned(), before: 0.0, after: balance }];
    let violations =
        judge(file.kind(), &phases, &exchanges, &effects, 10.0, schedule.operations.len());
    ProbeRun { schedule: schedule.clone(), phases, requests, exchanges, effects, violations }
}

#[test]
fn the_naive_model_shrinks_to_one_double_submit_and_the_keyed_one_holds() {
    let file = example();
    let mut rng = DeterministicRng::from_seed(3);
    let mut failing = None;
    for _ in 0..50 {
        let schedule = draw(&mut rng, &file.schedule);
        assert!(model_run(&file, &schedule, true).violations.is_empty(), "{}", schedule.summary());
        let naive = model_run(&file, &schedule, false);
        if failing.is_none() && schedule.operations.len() == 3 && !naive.violations.is_empty() {
            failing = Some(naive);
        }
    }
    let failing = failing.unwrap();
    let shrunk = shrink(failing, &file.schedule.faults, SHRINK_RUNS_MAX, |schedule| {
        Ok::<_, ()>(model_run(&file, schedule, false))
    })
    .unwrap();
    assert!(!shrunk.budget_spent);
    let story = story(&file, &shrunk.run);
    let story: String = story.lines().skip(1).map(|line| format!("{line}\n")).collect();
    expect![[r#"
          F6 double submit: #2 is sent once more after its answer, same key and body
        1. #2 sent: 201 {"balance":10}
        2. #2 sent again: 201 {"balance":20}
        effect: model read 0 before, 20 after
        => not idempotent: #2 answered 201 {"balance":10} first, then 201 {"balance":20}, to the same key and body
        => the effect is not exactly once: model changed by 20, each distinct operation applied once changes it by 10
    "#]]
    .assert_eq(&story);
}

const WEBHOOK: &str = r#"
kind = "webhook"

[target]
base_url = "http://localhost:9000"
method = "POST"
path = "/webhooks/payments"
body = '{"id": "", "type": "payment.succeeded", "data": {"amount": 5, "ref": "{{uuid}}"}}'

[webhook]
event_id_field = "/id"

[oracle]
effect_per_operation = 5
sqlite = { database = "payments.db", query = "SELECT SUM(amount) FROM payments" }

[reset]
sql = "DELETE FROM payments; DELETE FROM inbox;"
"#;

#[test]
fn a_webhook_is_judged_by_its_event_id_and_every_delivery_acknowledged() {
    let file = ProbeFile::parse(WEBHOOK, Path::new(".")).unwrap();
    assert_eq!(
        file.schedule.faults.iter().map(|fault| fault.word()).collect::<Vec<_>>(),
        ["duplicate", "lost_response", "hang_up", "reorder", "concurrent"]
    );
    let mut rng = DeterministicRng::from_seed(5);
    let mut caught = 0;
    for _ in 0..30 {
        let schedule = draw(&mut rng, &file.schedule);
        let deduplicated = model_run(&file, &schedule, true);
        assert!(deduplicated.violations.is_empty(), "{}", story(&file, &deduplicated));
        let first_body = &deduplicated.requests[0][0].body;
        assert!(first_body.starts_with(r#"{"data""#), "{first_body}");
        assert!(first_body.contains(&format!(
            r#""id":"{}""#,
            schedule.operations[deduplicated.phases[0].sends[0].operation].key
        )));
        if !model_run(&file, &schedule, false).violations.is_empty() {
            caught += 1;
        }
    }
    assert!(caught > 5, "{caught}");
    let wrong = WEBHOOK.replace(r#"event_id_field = "/id""#, r#"event_id_field = "/meta/id""#);
    let error = ProbeFile::parse(&wrong, Path::new(".")).unwrap_err().to_string();
    assert_eq!(
        error,
        r#"webhook.event_id_field: target.body has no JSON object at "/meta" to hold the event id"#
    );
}

#[test]
fn a_plan_sends_each_fault_as_the_draft_describes_it() {
    use crate::probe::schedule::{Fault, Operation};
    let operation = |number: u32, fault| Operation {
        number,
        key: format!("k{number}"),
        uuid: format!("u{number}"),
        other_uuid: format!("o{number}"),
        fault,
    };
    let schedule = Schedule {
        operations: vec![
            operation(1, Some(Fault::Reorder)),
            operation(2, Some(Fault::LostResponse)),
            operation(3, Some(Fault::RetryInFlight)),
            operation(4, Some(Fault::Concurrent { copies: 3 })),
            operation(5, Some(Fault::KeyReuse)),
            operation(6, Some(Fault::HangUp)),
        ],
    };
    let phases: Vec<String> = plan(&schedule, 7)
        .iter()
        .map(|phase| {
            let sends: Vec<String> = phase
                .sends
                .iter()
                .map(|send| {
                    let dropped = if send.answer_dropped { " dropped" } else { "" };
                    format!("#{} {:?}{dropped} +{}ms", send.operation + 1, send.role, send.delay_ms)
                })
                .collect();
            sends.join(" | ")
        })
        .collect();
    expect![[r#"
        #2 First dropped +0ms
        #2 Repeat +0ms
        #1 First +0ms
        #3 First +0ms | #3 Overlapping +7ms
        #4 Overlapping +0ms | #4 Overlapping +0ms | #4 Overlapping +0ms
        #5 First +0ms
        #5 Reused +0ms
        #6 HungUp +0ms | #6 Overlapping +7ms
        #6 Repeat +0ms"#]]
    .assert_eq(&phases.join("\n"));
}

#[test]
fn a_409_is_allowed_only_beside_a_copy_in_progress() {
    use crate::probe::file::Kind;
    use crate::probe::plan::{Phase, Send};
    use crate::probe::schedule::Operation;
    let schedule = Schedule {
        operations: vec![Operation {
            number: 1,
            key: "k".to_owned(),
            uuid: "u".to_owned(),
            other_uuid: "o".to_owned(),
            fault: None,
        }],
    };
    let send = |role| Send { operation: 0, role, answer_dropped: false, delay_ms: 0 };
    let answer =
        |status: u16, body: &str| Exchange::Answered(Answer { status, body: body.to_owned() });
    let check = |phases: Vec<Phase>, exchanges: Vec<Vec<Exchange>>, expect: Expect| {
        let effects = [EffectReading { oracle: "o".to_owned(), before: 0.0, after: 10.0 }];
        let verdicts: Vec<String> = judge(Kind::Api, &phases, &exchanges, &effects, 10.0, 1)
            .iter()
            .map(|violation| violation.sentence(&schedule))
            .collect();
        expect.assert_eq(&verdicts.join("\n"));
    };
    let sequential = || {
        vec![Phase { sends: vec![send(Role::First)] }, Phase { sends: vec![send(Role::Repeat)] }]
    };
    let at_once = || vec![Phase { sends: vec![send(Role::Overlapping), send(Role::Overlapping)] }];
    check(at_once(), vec![vec![answer(201, "{}"), answer(409, "busy")]], expect![""]);
    check(
        sequential(),
        vec![vec![answer(201, "{}")], vec![answer(409, "busy")]],
        expect![
            "not idempotent: #1 answered 201 {} first, then 409 busy, to the same key and body"
        ],
    );
    check(
        at_once(),
        vec![vec![answer(409, ""), answer(409, "")]],
        expect!["every copy of #1 answered 409: one of them must be processed"],
    );
    check(
        sequential(),
        vec![vec![answer(201, r#"{"a": 1, "b": 2}"#)], vec![answer(201, r#"{"b":2,"a":1}"#)]],
        expect![""],
    );
    check(
        sequential(),
        vec![vec![answer(201, "{}")], vec![answer(500, "oops")]],
        expect!["#1 answered 500 oops: a duplicate must never cause a 5xx"],
    );
    check(
        sequential(),
        vec![vec![answer(201, "{}")], vec![Exchange::Failed("timed out".to_owned())]],
        expect!["#1 got no answer: timed out"],
    );
}
