//! The README's Vite recipe, proved: a tiny app whose page imports the package by its name
//! and calls `init()` with no argument, built by Vite (`vite build`, which finds the wasm by
//! the package's `new URL(..., import.meta.url)` and copies it), served, and opened in
//! headless Chromium: the API plays a lesson, the `<idempotency-lab>` it adds shows its lab
//! in its shadow root and steps from script, and nothing is logged as an error.

use std::process::Command;

use idempotency_lab_tests::browser::LabPage;
use idempotency_lab_tests::npm::{app_with_package, package};

/// Vite, pinned.
const VITE: &str = "vite@8.4.1";

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

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>built by Vite</title>
<link rel="icon" href="data:," /></head>
<body><script type="module" src="./main.js"></script></body></html>
"#;

#[test]
fn a_vite_build_of_the_package_runs() {
    let vite = package(VITE, "vite", "bin/vite.js");
    let node = xtask::setup::ensure_node().unwrap_or_else(|error| panic!("no Node: {error}"));
    let dir = app_with_package("vite", &[("main.js", APP), ("index.html", PAGE)]);
    let output = Command::new(&node)
        .arg(vite.join("bin/vite.js"))
        .args(["build", "--outDir", "out", "--logLevel", "warn"])
        .current_dir(&dir)
        .output()
        .expect("run vite build");
    assert!(
        output.status.success(),
        "vite build failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let page = LabPage::open_embeds_in(&dir.join("out"), "index.html", false);
    assert!(page.evaluate("Number(document.body.dataset.steps) > 0").as_bool().unwrap_or(false));
    assert_eq!(
        page.evaluate("document.querySelector('idempotency-lab').step()"),
        serde_json::json!(true)
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}
