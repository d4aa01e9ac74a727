//! Every export of the package (`dist/pkg/`, in Node) called with wrong arguments (wrong
//! types, missing, out of range, malformed JSON or link, an unknown lesson, an item that does
//! not wait, a fault that does not apply, a handler program that does not read or validate) throws a `LabError` of the expected kind naming the
//! argument or the JSON field, never a panic of the wasm (a `RuntimeError`, "unreachable").

use idempotency_lab_tests::node::run_script;

/// Each call of `tests/node/wrong_arguments.mjs`: its name there, the `kind` and the `field`
/// of the `LabError` it must throw.
const EXPECTED: &[(&str, &str, &str)] = &[
    ("lesson()", "BadArgument", "id"),
    ("lesson(7)", "BadArgument", "id"),
    ("lesson(unknown)", "UnknownLesson", "id"),
    ("fromScenario()", "BadArgument", "json"),
    ("fromScenario(malformed)", "InvalidScenario", "requests"),
    ("fromScenario(bad field)", "InvalidScenario", "requests[0].bogus"),
    ("fromLink(42)", "BadArgument", "fragment"),
    ("fromLink(malformed)", "InvalidLink", "fragment"),
    ("fromLink(truncated)", "InvalidLink", "fragment"),
    ("fromTrace({})", "BadArgument", "json"),
    ("fromTrace(malformed)", "InvalidTrace", ""),
    ("fromTrace(version)", "InvalidTrace", "format_version"),
    ("setSeed()", "BadArgument", "seed"),
    ("setSeed(-1)", "BadArgument", "seed"),
    ("setSeed(1.5)", "BadArgument", "seed"),
    ("setSeed(2^53)", "BadArgument", "seed"),
    ("setSeed(2n^64)", "BadArgument", "seed"),
    ("setSeed('7')", "BadArgument", "seed"),
    ("setPattern(p5)", "BadArgument", "pattern"),
    ("setPattern(p1, safe)", "BadArgument", "mode"),
    ("setPattern()", "BadArgument", "pattern"),
    ("setMode(1)", "BadArgument", "mode"),
    ("setMode()", "BadArgument", "mode"),
    ("stepTo(-1)", "BadArgument", "step"),
    ("stepTo('3')", "BadArgument", "step"),
    ("stepTo(NaN)", "BadArgument", "step"),
    ("stepTo()", "BadArgument", "step"),
    ("inject()", "BadArgument", "item"),
    ("inject(unknown item)", "NotApplicable", "item"),
    ("inject(F13)", "BadArgument", "fault"),
    ("inject(fault not on item)", "NotApplicable", "fault"),
    ("inject(malformed action)", "BadArgument", "fault"),
    ("inject(missing fault)", "BadArgument", "fault"),
    ("check(options 5)", "BadArgument", "options"),
    ("check(statesMax 0)", "BadArgument", "options.statesMax"),
    ("check(statesMax huge)", "BadArgument", "options.statesMax"),
    ("check(depthMax string)", "BadArgument", "options.depthMax"),
    ("check(language xx)", "BadArgument", "options.language"),
    ("check(faults array)", "BadArgument", "options.faults"),
    ("check(faults F13)", "BadArgument", "options.faults.F13"),
    ("check(faults F1 -1)", "BadArgument", "options.faults.F1"),
    ("check(signal 3)", "BadArgument", "options.signal"),
    ("check(onProgress 1)", "BadArgument", "onProgress"),
    ("fuzz(options [])", "BadArgument", "options"),
    ("fuzz(cases 0)", "BadArgument", "options.cases"),
    ("fuzz(cases 2.5)", "BadArgument", "options.cases"),
    ("fuzz(seed -3)", "BadArgument", "options.seed"),
    ("fuzz(signal {})", "BadArgument", "options.signal"),
    ("fuzz(onProgress string)", "BadArgument", "onProgress"),
    ("checkHandler()", "BadArgument", "program"),
    ("checkHandler(malformed)", "InvalidProgram", "blocks"),
    ("checkHandler(unknown block)", "InvalidProgram", "blocks[0].block"),
    ("checkHandler(commit without begin)", "InvalidProgram", "blocks[5]"),
    ("checkHandler(version)", "InvalidProgram", "format_version"),
    ("checkHandler(lesson unknown)", "UnknownLesson", "options.lesson"),
    ("checkHandler(language de)", "BadArgument", "options.language"),
    ("checkHandler(statesMax 0)", "BadArgument", "options.statesMax"),
    ("checkHandler(onProgress 1)", "BadArgument", "onProgress"),
    ("invariants(de)", "BadArgument", "language"),
    ("invariants(7)", "BadArgument", "language"),
    ("mount(no element)", "BadArgument", "element"),
    ("mount()", "BadArgument", "element"),
];

#[test]
fn node_package_refuses_wrong_arguments() {
    let output = run_script("wrong_arguments.mjs", &[]);
    let outcomes: Vec<serde_json::Value> = output
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{line:?}: {error}")))
        .collect();
    let names: Vec<&str> =
        outcomes.iter().map(|outcome| outcome["name"].as_str().unwrap_or("")).collect();
    let expected: Vec<&str> = EXPECTED.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(names, expected, "the script's calls and this test's table differ");
    for (outcome, (name, kind, field)) in outcomes.iter().zip(EXPECTED) {
        assert_eq!(outcome["threw"], "LabError", "{name} threw no LabError: {outcome}");
        assert_eq!(outcome["kind"], *kind, "{name}: {outcome}");
        let named = outcome["field"].as_str().unwrap_or("");
        assert_eq!(named, *field, "{name} names the wrong field: {outcome}");
        if matches!(*kind, "InvalidScenario" | "InvalidTrace" | "InvalidProgram") {
            assert!(outcome["line"].is_u64(), "{name} gives no line: {outcome}");
        }
    }
    assert!(
        !output.stderr.contains("RuntimeError") && !output.stderr.contains("unreachable"),
        "the wasm panicked:\n{}",
        output.stderr
    );
    eprintln!("{} wrong calls, each refused with a LabError naming its field", outcomes.len());
}
