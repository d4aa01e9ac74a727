//! The README's browser bundle recipe, proved: a tiny app that imports the package by its
//! name and its wasm by the exports map (`idempotency-lab/idempotency_lab_web_bg.wasm`, with
//! esbuild's `file` loader, which copies it beside the bundle), bundled by esbuild for the
//! browser, served, and opened in headless Chromium: `init` loads the wasm, the API plays a
//! lesson, the `<idempotency-lab>` it adds shows its lab in its shadow root and steps from
//! script, and nothing is logged as an error.

use idempotency_lab_tests::browser::LabPage;
use idempotency_lab_tests::npm::{app_with_package, esbuild};

const APP: &str = r#"import init, { Lab } from "idempotency-lab";
import wasm from "idempotency-lab/idempotency_lab_web_bg.wasm";
await init({ module_or_path: wasm });
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
<html lang="en"><head><meta charset="utf-8" /><title>bundled</title>
<link rel="icon" href="data:," /></head>
<body><script type="module" src="app.js"></script></body></html>
"#;

#[test]
fn a_browser_bundle_of_the_package_runs() {
    let dir = app_with_package("esbuild-browser", &[("app.mjs", APP)]);
    esbuild(
        &dir,
        &["app.mjs", "--bundle", "--format=esm", "--loader:.wasm=file", "--outfile=out/app.js"],
    );
    std::fs::write(dir.join("out/index.html"), PAGE).expect("write the app's page");
    let page = LabPage::open_embeds_in(&dir.join("out"), "index.html", false);
    assert!(page.evaluate("Number(document.body.dataset.steps) > 0").as_bool().unwrap_or(false));
    assert_eq!(
        page.evaluate("document.querySelector('idempotency-lab').step()"),
        serde_json::json!(true)
    );
    assert_eq!(
        page.evaluate("(() => { const lab = document.querySelector('idempotency-lab').lab; const at = lab.cursor; lab.free(); return at; })()"),
        serde_json::json!(4)
    );
    assert_eq!(page.console_errors(), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}
