//! `run --inject` places the learner's own choices as the page's fault buttons do (the core's
//! anchored `UserChoice`): in the compact spelling or as the page's JSON record, the same run;
//! the trace records them as the user's steps and replays byte for byte. A malformed choice,
//! or one whose target never comes, is exit 2 with the choice, field and value named.

use crate::common::{run_cli, scratch_dir};
use expect_test::expect;

#[test]
fn an_injected_crash_is_the_users_step_and_the_trace_replays() {
    let dir = scratch_dir("run-inject-replays");
    let args = ["run", "f03-crash-before-commit", "--mode", "naive", "--json"];
    let compact = run_cli(&[&args[..], &["--inject", "F2,message=0,delivery=2"]].concat());
    assert_eq!(compact.code, 1, "I2 breaks: {}", compact.stderr);
    let trace: serde_json::Value = serde_json::from_str(&compact.stdout).unwrap();
    let users: Vec<_> = trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|step| step["chosen_by"]["by"] == "user")
        .map(|step| (step["fault"].clone(), step["action"]["action"].clone()))
        .collect();
    assert_eq!(users, [("F2".into(), "crash_consumer_after_commit".into())]);
    // The page's own record of the same choice, at the step it was taken, is the same run.
    let step = trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|step| step["chosen_by"]["by"] == "user")
        .unwrap()["step"]
        .clone();
    let record = format!(
        r#"{{"step":{step},"action":{{"action":"crash_consumer_after_commit","delivery":{{"message":{{"order_placed_of":0}},"delivery":2}}}}}}"#
    );
    let json = run_cli(&[&args[..], &["--inject", &record]].concat());
    assert_eq!(json.stdout, compact.stdout);
    let path = dir.join("crash.json");
    std::fs::write(&path, &compact.stdout).unwrap();
    let replay = run_cli(&["replay", path.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}", replay.stdout);
}

#[test]
fn a_malformed_or_untaken_choice_names_its_field_and_value() {
    let refusal = |choice: &str| {
        let run = run_cli(&["run", "f11-retry-with-new-key", "--inject", choice]);
        assert_eq!(run.code, 2, "{choice}: {}", run.stdout);
        assert_eq!(run.stdout, "");
        run.stderr
    };
    let refusals: String = [
        "F2,message=0",
        "F2,message=0,delivery=0",
        "F6,request=5",
        "F6,request=0,colour=red",
        "F6,request",
        "F6,request=0,request=1",
        "x:F6,request=0",
        "F2,message=pear,delivery=1",
        r#"{"step":1,"action":{"action":"double_submit","request":"zero"}}"#,
        "F2,message=0,delivery=9",
    ]
    .iter()
    .map(|choice| refusal(choice))
    .collect();
    expect![[r#"
        error: --inject #1 `F2,message=0`: crash_consumer_after_commit needs `delivery`; its fields: message, delivery
        error: --inject #1 `F2,message=0,delivery=0`: `delivery=0` is not a number from 1 to 4294967295
        error: --inject #1 `F6,request=5`: `request=5` is not a request of the scenario from 0 to 0
        error: --inject #1 `F6,request=0,colour=red`: double_submit has no field `colour`; its fields: request
        error: --inject #1 `F6,request`: `request` is not FIELD=VALUE
        error: --inject #1 `F6,request=0,request=1`: `request` is given twice
        error: --inject #1 `x:F6,request=0`: the step `x` is not a number from 1
        error: --inject #1 `F2,message=pear,delivery=1`: `message=pear` is not a request's index (its OrderPlaced) or a message id (a UUID)
        error: --inject #1: the JSON choice is malformed at `action`: invalid type: string "zero", expected usize at line 1 column 63
        error: --inject #1 `F2,message=0,delivery=9`: never taken: delivery 9 of the OrderPlaced of request 0 does not exist (or its action is never possible) in this run after the choice before it
    "#]]
    .assert_eq(&refusals);
    let run = run_cli(&["run", "f11-retry-with-new-key", "--inject", "F99"]);
    assert_eq!(run.code, 2);
    let classes = idempotency_lab::faults::FaultClass::id_range("-");
    let refusal = format!(
        "error: --inject #1 `F99`: `F99` is not an action; the actions are {classes} or client_send, "
    );
    assert!(run.stderr.starts_with(&refusal), "{}", run.stderr);
    let run = run_cli(&[
        "run",
        "f11-retry-with-new-key",
        "--inject",
        "5:F6,request=0",
        "--inject",
        "3:F5,request=0,send=1",
    ]);
    assert_eq!(run.code, 2);
    expect![[r#"
        error: --inject #2 `3:F5,request=0,send=1`: step 3 is not after step 5 of the choice before it: the choices' steps must increase
    "#]]
    .assert_eq(&run.stderr);
    let run = run_cli(&["run", "f11-retry-with-new-key", "--pattern", "P5=idempotent"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("`P5` is not a pattern: P1, P2, P3 or P4"), "{}", run.stderr);
}
