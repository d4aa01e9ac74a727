//! The page's benchmark: `cargo run -p idempotency-lab-tests --bin page_bench`. It measures,
//! it does not pass or fail. It serves the built `dist/` (`LAB_DIST_DIR`, else built now),
//! opens it in headless Chromium and prints:
//! - the wasm's size, raw and gzipped;
//! - the time to first render: from navigation start to the diagram in the DOM, read with
//!   `performance.now()` by a probe that runs before the page's scripts, over fresh loads
//!   (the cache bypassed), with the browser's first contentful paint beside it;
//! - with a 10,000-step run open (a generated 64-request scenario with random faults, run by
//!   the core to its step limit and opened by its share link, so the page replays the real
//!   run), the time from a Step click to the DOM showing the next step, and to the next frame
//!   after it, and the same for slider jumps to arbitrary steps; and the time the link takes
//!   to open, from navigation start to its last step shown;
//! - the same opening for the longest run the bounds accept (20,000 steps of the largest world),
//!   and Step clicks past the end of that run opened at three quarters of it (each click takes
//!   a new step at the end of a run the page's states share).
//!
//! Every figure but the long run's first opening is measured in the page, with
//! `performance.now()`, a `MutationObserver` and `requestAnimationFrame`.

use std::time::{Duration, Instant};

use idempotency_lab::rng::DeterministicRng;
use idempotency_lab::sim::Simulation;
use idempotency_lab::sim::bounds::longest_run_scenario;
use idempotency_lab::view::ShareLink;
use idempotency_lab_tests::browser::{LabPage, dist_dir};
use idempotency_lab_tests::long_run::{LONG_RUN_STEPS, long_scenario};

/// Fresh loads measured for the time to first render.
const LOADS: usize = 10;
/// Step clicks measured on the long run.
const STEPS: usize = 20;
/// Slider jumps measured on the long run.
const JUMPS: usize = 20;

/// Records when the diagram first appears, before the page's own scripts run.
const FIRST_RENDER_PROBE: &str = r#"(() => {
  const seen = () => {
    if (window.__labFirstRender !== undefined) return true;
    if (document.querySelector('[data-testid=diagram]') === null) return false;
    window.__labFirstRender = performance.now();
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true });
})();"#;

/// Fresh loads of the long run's link timed inside the page.
const OPENS: usize = 5;
/// Fresh loads of the longest accepted run's link timed inside the page.
const LONGEST_OPENS: usize = 3;

/// Records when the position first shows `NEEDLE` (the run's last step), before the page's own
/// scripts run.
const OPENED_PROBE: &str = r#"(() => {
  const seen = () => {
    if (window.__labOpened !== undefined) return true;
    const position = document.querySelector('[data-testid=position]');
    if (position === null || !position.textContent.includes('NEEDLE')) return false;
    window.__labOpened = performance.now();
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true, characterData: true });
})();"#;

/// Clicks Step `count` times; per click, the milliseconds until the position changes in the
/// DOM and until the frame after it.
const MEASURE_STEPS: &str = r#"(async (count) => {
  const position = document.querySelector('[data-testid=position]');
  const frame = () => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const changed = before => new Promise(resolve => {
    const observer = new MutationObserver(() => {
      if (position.textContent !== before) { observer.disconnect(); resolve(); }
    });
    observer.observe(position, { childList: true, characterData: true, subtree: true });
  });
  const dom = [], painted = [];
  for (let index = 0; index < count; index++) {
    await frame();
    const before = position.textContent;
    const done = changed(before);
    const start = performance.now();
    document.querySelector('[data-testid=step]').click();
    await done;
    dom.push(performance.now() - start);
    await frame();
    painted.push(performance.now() - start);
  }
  return JSON.stringify({ dom, painted, last: position.textContent });
})"#;

/// Moves the slider to each step of a list; per jump, the milliseconds until the position
/// shows it in the DOM and until the frame after it.
const MEASURE_JUMPS: &str = r#"(async (targets) => {
  const position = document.querySelector('[data-testid=position]');
  const slider = document.querySelector('[data-testid=slider]');
  const frame = () => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const shows = step => new Promise(resolve => {
    const test = () => position.textContent.startsWith(`step ${step} /`);
    const observer = new MutationObserver(() => { if (test()) { observer.disconnect(); resolve(); } });
    observer.observe(position, { childList: true, characterData: true, subtree: true });
  });
  const dom = [], painted = [];
  for (const step of targets) {
    await frame();
    const done = shows(step);
    const start = performance.now();
    slider.value = String(step);
    slider.dispatchEvent(new InputEvent('input', { bubbles: true }));
    await done;
    dom.push(performance.now() - start);
    await frame();
    painted.push(performance.now() - start);
  }
  return JSON.stringify({ dom, painted, last: position.textContent });
})"#;

fn main() {
    let dist = dist_dir();
    let wasm = xtask::page::file_size(&dist, "pkg/idempotency_lab_web_bg.wasm".to_owned())
        .unwrap_or_else(|error| panic!("the built page has no wasm: {error}"));
    println!("page: {}", dist.display());
    println!(
        "wasm: {} bytes raw, {} bytes gzipped ({:.0} KiB, {:.0} KiB)",
        wasm.raw_bytes,
        wasm.gzip_bytes,
        wasm.raw_bytes as f64 / 1024.0,
        wasm.gzip_bytes as f64 / 1024.0
    );

    first_render();
    lesson_steps();
    long_run();
    longest_run();
}

/// The longest run the bounds accept (`sim::bounds::longest_run_scenario`, seed 1: the
/// largest world, to the step limit), opened by its link and timed inside the page.
fn longest_run() {
    let scenario = longest_run_scenario().expect("the bounds accept their longest run");
    let mut simulation =
        Simulation::without_snapshots(scenario.clone(), 1).expect("a valid scenario");
    let stop = simulation.run_to_end();
    let steps = simulation.steps().len();
    let fragment = ShareLink::new(&scenario, 1, Vec::new(), steps).encode();
    println!("longest accepted run: {steps} steps ({stop:?}); link of {} bytes", fragment.len());
    let page = LabPage::open_waiting(&fragment, Duration::from_secs(600));
    page.wait_for_text("[data-testid=position]", &format!("step {steps} / {steps}"));
    let opened_in_page = opened_in_page(&page, steps, LONGEST_OPENS);
    println!(
        "longest run open, timed in the page ({LONGEST_OPENS} fresh loads, navigation start to step {steps} shown): {}",
        summary(&opened_in_page)
    );
    assert!(page.console_errors().is_empty(), "console errors: {:?}", page.console_errors());
    drop(page);

    // The same run opened at three quarters of it: each click on Step takes a new step at the
    // end of the run the page holds, which its states share.
    let at = steps * 3 / 4;
    let fragment = ShareLink::new(&scenario, 1, Vec::new(), at).encode();
    let page = LabPage::open_waiting(&fragment, Duration::from_secs(600));
    page.wait_for_text("[data-testid=position]", &format!("step {at} / {at}"));
    let measured = measure_each(&page, (0..STEPS).map(|_| format!("{MEASURE_STEPS}(1)")));
    let last = at + STEPS;
    assert_eq!(measured.2, format!("step {last} / {last}"), "the clicks did not all step");
    println!(
        "step on past the end of the longest run opened at step {at} ({STEPS} clicks), to the DOM: {}",
        summary(&measured.0)
    );
    println!("step on past the end, to the next frame: {}", summary(&measured.1));
    assert!(page.console_errors().is_empty(), "console errors: {:?}", page.console_errors());
}

/// Time to first render over fresh loads.
fn first_render() {
    let page = LabPage::open("");
    page.add_init_script(FIRST_RENDER_PROBE);
    let mut rendered = Vec::new();
    let mut painted = Vec::new();
    for _ in 0..LOADS {
        page.reload(true);
        page.wait_until("the probe saw the diagram", "window.__labFirstRender !== undefined");
        page.wait_until(
            "the first contentful paint",
            "performance.getEntriesByName('first-contentful-paint').length > 0",
        );
        rendered.push(page.evaluate("window.__labFirstRender").as_f64().unwrap_or(f64::NAN));
        painted.push(
            page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
                .as_f64()
                .unwrap_or(f64::NAN),
        );
    }
    println!(
        "first render ({LOADS} fresh loads, navigation start to the diagram in the DOM): {}",
        summary(&rendered)
    );
    println!("first contentful paint (same loads): {}", summary(&painted));
    assert!(page.console_errors().is_empty(), "console errors: {:?}", page.console_errors());
}

/// Step timings on the first lesson, for scale: a run of a few dozen steps.
fn lesson_steps() {
    let page = LabPage::open("");
    page.wait_for_text("[data-testid=position]", "step 0 /");
    let measured = measure_each(&page, (0..STEPS).map(|_| format!("{MEASURE_STEPS}(1)")));
    assert!(measured.2.starts_with(&format!("step {STEPS} /")), "{}", measured.2);
    println!(
        "step click on the first lesson (steps 1-{STEPS}), to the DOM: {}",
        summary(&measured.0)
    );
    println!("step click on the first lesson, to the next frame: {}", summary(&measured.1));
    assert!(page.console_errors().is_empty(), "console errors: {:?}", page.console_errors());
}

/// Step and slider timings with a 10,000-step run open.
fn long_run() {
    let started = Instant::now();
    let (scenario, seed, simulation) = long_scenario();
    let stop = simulation.stop_reason().cloned();
    let steps = simulation.steps().len();
    assert_eq!(steps, LONG_RUN_STEPS, "the long run stopped early: {stop:?}");
    let fragment = ShareLink::new(&scenario, seed, Vec::new(), steps).encode();
    println!(
        "long run: {steps} steps (seed {seed}, {:?}), generated by the core in {:.1} s; link of {} bytes",
        stop,
        started.elapsed().as_secs_f64(),
        fragment.len()
    );

    let opened = Instant::now();
    let page = LabPage::open_waiting(&fragment, Duration::from_secs(300));
    page.wait_for_text("[data-testid=position]", &format!("step {steps} / {steps}"));
    println!(
        "long run open in the page: {:.1} s (link decoded, run replayed, rendered)",
        opened.elapsed().as_secs_f64()
    );

    // The same link opened again in the same browser, timed inside the page: from navigation
    // start to the position showing the last step, read by a probe that runs before the page.
    let opened_in_page = opened_in_page(&page, steps, OPENS);
    println!(
        "long run open, timed in the page ({OPENS} fresh loads, navigation start to step {steps} shown): {}",
        summary(&opened_in_page)
    );

    // Only a window of the run is drawn, ending at the current step.
    let drawn = page.count(".diagram .step");
    let current = page.attribute(".diagram .step.current", "data-step");
    println!("diagram at step {steps}: {drawn} steps drawn, step {current:?} highlighted");

    // Step from the middle of the run: each click shows a recorded step.
    let middle = steps / 2;
    page.set_value("[data-testid=slider]", &middle.to_string());
    page.wait_for_text("[data-testid=position]", &format!("step {middle} / {steps}"));
    let measured = measure_each(&page, (0..STEPS).map(|_| format!("{MEASURE_STEPS}(1)")));
    let last = format!("step {} / {steps}", middle + STEPS);
    assert_eq!(measured.2, last, "the clicks did not all step");
    println!(
        "step click at step {middle} of {steps} ({STEPS} clicks), to the DOM: {}",
        summary(&measured.0)
    );
    println!("step click, to the next frame: {}", summary(&measured.1));

    let mut rng = DeterministicRng::from_seed(7);
    let targets: Vec<u64> = (0..JUMPS).map(|_| 1 + rng.below(steps as u64 - 1)).collect::<Vec<_>>();
    let measured =
        measure_each(&page, targets.iter().map(|target| format!("{MEASURE_JUMPS}([{target}])")));
    assert!(measured.2.starts_with(&format!("step {} /", targets[JUMPS - 1])));
    println!(
        "slider jump to an arbitrary step ({JUMPS} jumps), to the DOM: {}",
        summary(&measured.0)
    );
    println!("slider jump, to the next frame: {}", summary(&measured.1));
    assert!(page.console_errors().is_empty(), "console errors: {:?}", page.console_errors());
}

/// Reloads the open run's page `loads` times; per fresh load, the milliseconds from navigation
/// start to its position showing step `steps` of `steps`, read by [`OPENED_PROBE`].
fn opened_in_page(page: &LabPage, steps: usize, loads: usize) -> Vec<f64> {
    page.add_init_script(&OPENED_PROBE.replace("NEEDLE", &format!("step {steps} / {steps}")));
    (0..loads)
        .map(|_| {
            page.reload(true);
            page.wait_until("the probe saw the run open", "window.__labOpened !== undefined");
            page.evaluate("window.__labOpened").as_f64().unwrap_or(f64::NAN)
        })
        .collect()
}

/// Runs measuring scripts one by one (each within the page's wait timeout); their DOM
/// times, frame times and the position's text after the last.
fn measure_each(
    page: &LabPage,
    scripts: impl Iterator<Item = String>,
) -> (Vec<f64>, Vec<f64>, String) {
    let mut all = (Vec::new(), Vec::new(), String::new());
    for script in scripts {
        let (dom, painted, last) = measure(page, &script);
        all.0.extend(dom);
        all.1.extend(painted);
        all.2 = last;
    }
    all
}

/// Runs a measuring script; its DOM times, frame times and the position's last text.
fn measure(page: &LabPage, script: &str) -> (Vec<f64>, Vec<f64>, String) {
    let value = page.evaluate(script);
    let parsed: serde_json::Value =
        serde_json::from_str(value.as_str().unwrap_or("null")).expect("the script returns JSON");
    let numbers = |key: &str| -> Vec<f64> {
        parsed[key]
            .as_array()
            .map(|values| values.iter().filter_map(|v| v.as_f64()).collect())
            .unwrap_or_default()
    };
    (numbers("dom"), numbers("painted"), parsed["last"].as_str().unwrap_or_default().to_owned())
}

/// `median x ms (min a, max b)`.
fn summary(values: &[f64]) -> String {
    let mut sorted: Vec<f64> = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = match sorted.len() {
        0 => f64::NAN,
        count if count % 2 == 1 => sorted[count / 2],
        count => (sorted[count / 2 - 1] + sorted[count / 2]) / 2.0,
    };
    format!(
        "median {median:.1} ms (min {:.1}, max {:.1}, n={})",
        sorted.first().copied().unwrap_or(f64::NAN),
        sorted.last().copied().unwrap_or(f64::NAN),
        sorted.len()
    )
}
