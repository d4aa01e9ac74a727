//! The README's webpack recipe, proved: the same tiny app as Vite's, `import init from
//! "idempotency-lab"; await init();`, bundled by webpack 5 in production mode (its asset
//! modules copy the wasm that `new URL(..., import.meta.url)` names), served, and opened in
//! headless Chromium: the API plays a lesson, the `<idempotency-lab>` it adds shows its lab
//! in its shadow root and steps from script, and nothing is logged as an error.

use std::process::Command;

use idempotency_lab_tests::browser::LabPage;
use idempotency_lab_tests::npm::{app_with_package, package};

/// webpack, pinned.
const WEBPACK: &str = "webpack@5.113.0";

const APP: &str = r#"import init, { Lab } from "idempotency-lab";
await init();
const lab = Lab.lesson("p1-stock-reservation");
document.body.dataset.steps = String(lab.runToEnd());
lab.free();
const element = document.createElement("idempotency-lab");
element.setAttribute("lesson", "f01-duplicate-delivery");
element.setAttribute("step", "3");
element.style.cssText = "width: 640px; height: 360px";
document.body.append(element);
"#;

/// webpack's Node API, from the pinned package's directory (the first argument).
const BUILD: &str = r#"const webpack = require(process.argv[2]);
webpack({
  mode: "production",
  context: __dirname,
  entry: "./main.js",
  output: { path: __dirname + "/out", filename: "main.js" },
}, (error, stats) => {
  if (error || stats.hasErrors()) {
    console.error(error ?? stats.toString("errors-only"));
    process.exit(1);
  }
});
"#;

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>bundled by webpack</title>
<link rel="icon" href="data:," /></head>
<body><script src="main.js"></script></body></html>
"#;

#[test]
fn a_webpack_bundle_of_the_package_runs() {
    let webpack = package(WEBPACK, "webpack", "package.json");
    let node = xtask::setup::ensure_node().unwrap_or_else(|error| panic!("no Node: {error}"));
    let dir = app_with_package("webpack", &[("main.js", APP), ("build.cjs", BUILD)]);
    let output = Command::new(&node)
        .arg("build.cjs")
        .arg(&webpack)
        .current_dir(&dir)
        .output()
        .expect("run webpack");
    assert!(
        output.status.success(),
        "webpack failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::write(dir.join("out/index.html"), PAGE).expect("write the app's page");
    let page = LabPage::open_embeds_in(&dir.join("out"), "index.html", false);
    assert!(page.evaluate("Number(document.body.dataset.steps) > 0").as_bool().unwrap_or(false));
    assert_eq!(
        page.evaluate("document.querySelector('idempotency-lab').step()"),
        serde_json::json!(true)
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}
