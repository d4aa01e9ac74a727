//! The README's Node bundle recipe, proved: a tiny app that imports the package by its name
//! (from `node_modules`, as npm installs it), bundled whole by esbuild for Node
//! (`--bundle --platform=node --format=esm`) into another directory, runs: it finds the wasm
//! through the package's exports map, plays a lesson to its end; the same lesson stepped to
//! its last step has ended with the same stop; `setSeed` reports the choices it dropped; and a
//! call after `free()` is a `LabError` of kind `Freed`.

use std::process::Command;

use idempotency_lab_tests::npm::{app_with_package, esbuild};

const APP: &str = r#"import { Lab, LabError } from "idempotency-lab";
const lab = Lab.lesson("f01-duplicate-delivery");
lab.setMode("naive");
const steps = lab.runToEnd();
const broken = lab.invariants().filter((status) => !status.held).map((status) => status.id);
const stepped = Lab.lesson("f01-duplicate-delivery");
stepped.stepTo(steps);
const stopOf = (run) => JSON.stringify(JSON.parse(run.traceJson()).stop);
const ended = stepped.ended && stopOf(stepped) === stopOf(lab) ? stopOf(stepped) : "differs";
const dropped = stepped.setSeed(1);
stepped.free();
lab.free();
let freed = null;
try {
  lab.step();
} catch (error) {
  freed = error instanceof LabError ? error.kind : String(error);
}
console.log(JSON.stringify({ steps, broken, ended, dropped, freed }));
"#;

#[test]
fn a_node_bundle_of_the_package_runs() {
    let dir = app_with_package("esbuild-node", &[("app.mjs", APP)]);
    esbuild(
        &dir,
        &["app.mjs", "--bundle", "--platform=node", "--format=esm", "--outfile=out/app.mjs"],
    );
    let node = xtask::setup::ensure_node().unwrap_or_else(|error| panic!("no Node: {error}"));
    let output = Command::new(&node)
        .arg(dir.join("out/app.mjs"))
        .current_dir(&dir)
        .output()
        .expect("run the bundle");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the bundle failed ({}):\n{stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let result: serde_json::Value =
        serde_json::from_str(stdout.trim()).expect("the app prints JSON");
    assert_eq!(
        result,
        serde_json::json!({
            "steps": 27, "broken": ["I2", "I6"], "ended": "{\"stop\":\"quiescent\"}", "dropped": [], "freed": "Freed"
        }),
        "the README's node example says 27 steps, I2 and I6 broken"
    );
    std::fs::remove_dir_all(&dir).ok();
}
