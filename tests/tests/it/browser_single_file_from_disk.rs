//! The single-file page, `dist/idempotency-lab.html`, as a trainer hands it out: opened from
//! disk through a `file://` URL with no server, it loads nothing, runs a lesson, takes a
//! fault from the diagram and turns the invariants it breaks red, exactly as the core says;
//! its trace downloads as the core's file; its share link is the file's address plus the
//! fragment and opens the same run in a fresh browser; the language choice survives a reload
//! (Chromium gives `file://` local storage).
//! Where the browser refuses local storage (reading `window.localStorage` throws), the page
//! still mounts and keeps every choice the learner makes while it is open.

use idempotency_lab::invariants::{InvariantId, Violation};
use idempotency_lab::sim::{Action, EntryId, PatternMode, Simulation, Trace, catalogue_scenario};
use idempotency_lab::view::{Language, PendingTarget, pending};
use idempotency_lab_tests::browser::{LabPage, dist_file, file_url, scratch_dir};

const LESSON: &str = "f01-duplicate-delivery";

/// The core, driven as the page is below: `before` scheduled steps, the learner's duplicate of
/// the first message copy, then to the end. Returns the violations at the end and the trace.
fn core_run(before: usize) -> (Vec<Violation>, Trace) {
    let scenario = catalogue_scenario(LESSON).unwrap().with_all_patterns(PatternMode::Naive);
    let mut simulation = Simulation::new(scenario, 0).unwrap();
    for _ in 0..before {
        simulation.step().unwrap();
    }
    let duplicate = pending(simulation.world())
        .into_iter()
        .find(|item| item.target == PendingTarget::Message { entry: EntryId(0) })
        .and_then(|item| {
            item.actions
                .into_iter()
                .find(|action| matches!(action, Action::DuplicateMessage { .. }))
        })
        .expect("the core offers Duplicate on the waiting message");
    simulation.step_with(duplicate).unwrap();
    simulation.run_to_end();
    (simulation.world().violations(), simulation.trace())
}

/// Each invariant's badge: `broken` exactly for those violated, with the core's sentence in
/// the page's language.
fn assert_invariants(page: &LabPage, violations: &[Violation], language: Language) {
    for invariant in InvariantId::ALL {
        let broken = violations.iter().any(|violation| violation.invariant == invariant);
        let state = page.attribute(&format!("[data-testid=invariant-{invariant}]"), "data-state");
        assert_eq!(state.as_deref(), Some(if broken { "broken" } else { "ok" }), "{invariant}");
    }
    for violation in violations {
        let text = page.text(&format!("[data-testid=invariant-{}]", violation.invariant));
        let sentence = violation.sentence_in(language);
        assert!(text.contains(&sentence), "{text:?} lacks {sentence:?}");
    }
}

/// Whether reading `window.localStorage` throws in the page.
fn storage_throws(page: &LabPage) -> bool {
    page.evaluate("(() => { try { window.localStorage.length; return false; } catch (e) { return true; } })()")
        == serde_json::Value::Bool(true)
}

#[test]
fn the_file_from_disk_breaks_the_naive_shop_and_its_link_reopens_the_run() {
    let page = LabPage::open_file("");
    let file = file_url(&dist_file(xtask::page::SINGLE_FILE));
    assert_eq!(page.url, file);
    assert!(file.starts_with("file:///") && file.ends_with("/idempotency-lab.html"), "{file}");
    assert_eq!(
        page.evaluate(
            "JSON.stringify(performance.getEntriesByType('resource').map(entry => entry.name))"
        ),
        "[]",
        "the file loads nothing"
    );
    assert!(!storage_throws(&page), "Chromium gives a file local storage");

    page.set_value("[data-testid=scenario]", LESSON);
    page.wait_for_text("[data-testid=scenario-title]", "F1");
    page.click("[data-testid=all-naive]");
    page.wait_until(
        "P4 switches to naive",
        "document.querySelector('[data-testid=pattern-P4]').dataset.mode === 'naive'",
    );
    let mut before = 0;
    while !page.exists("[data-testid=pending-message-0] [data-fault=F1]") {
        before += 1;
        assert!(before < 60, "no pending message within 60 steps");
        page.click("[data-testid=step]");
        page.wait_for_text("[data-testid=position]", &format!("step {before} /"));
    }
    assert_eq!(page.count("[data-state=broken]"), 0, "all green before the fault");
    page.click("[data-testid=pending-message-0] [data-fault=F1]");
    page.wait_for_text("[data-testid=position]", &format!("step {} /", before + 1));

    let (violations, trace) = core_run(before);
    let steps_total = trace.steps.len();
    assert!(!violations.is_empty(), "the naive shop breaks");
    page.click("[data-testid=run-to-end]");
    let position = format!("step {steps_total} / {steps_total}");
    page.wait_for_text("[data-testid=position]", &position);
    assert_invariants(&page, &violations, Language::En);
    page.screenshot("single-file-broken");

    // Downloads work from disk too: the trace is the core's file, byte for byte.
    let downloads = scratch_dir("single-file-downloads");
    page.save_downloads_to(&downloads);
    page.click("[data-testid=export-json]");
    let name = format!("{LESSON}-seed0-step{steps_total}.trace.json");
    assert_eq!(
        String::from_utf8(page.wait_for_download(&downloads, &name)).unwrap(),
        trace.to_json()
    );

    // The share link is the file's own address plus the run's fragment.
    let link = page.share_link();
    assert_eq!(link, page.location());
    let fragment = link.strip_prefix(&file).expect("the link is the file's address");
    assert!(fragment.starts_with('#') && fragment.contains("&u="), "{fragment}");

    let reopened = LabPage::open_file(fragment);
    assert_eq!(reopened.location(), link);
    reopened.wait_for_text("[data-testid=position]", &position);
    assert_invariants(&reopened, &violations, Language::En);
    assert!(!reopened.exists("[data-testid=error]"), "no error banner");
    assert_eq!(reopened.console_errors(), Vec::<String>::new());

    // Local storage on file://: the language survives a reload, and so does the run.
    page.click("[data-testid=lang-ru]");
    page.wait_until("the page is Russian", "document.documentElement.lang === 'ru'");
    page.reload(false);
    let position = Language::Ru.words().labels.ui_position;
    page.wait_for_text(
        "[data-testid=position]",
        &format!("{position} {steps_total} / {steps_total}"),
    );
    assert_eq!(page.evaluate("document.documentElement.lang"), "ru");
    assert_invariants(&page, &violations, Language::Ru);
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn a_browser_that_refuses_local_storage_still_runs_the_file_and_keeps_the_choices() {
    let page = LabPage::open_file("");
    page.add_init_script(
        "Object.defineProperty(window, 'localStorage', { configurable: true, get() { \
         throw new DOMException('The operation is insecure.', 'SecurityError'); } });",
    );
    page.reload(false);
    assert!(storage_throws(&page), "the probe refuses local storage");
    assert!(!page.exists("[data-testid=error]") && !page.exists(".error-banner"), "no banner");

    // Choices hold while the page is open: the language, the speed, the run.
    page.click("[data-testid=lang-ru]");
    page.wait_until("the page is Russian", "document.documentElement.lang === 'ru'");
    page.set_value("[data-testid=speed]", "80");
    page.click("[data-testid=step]");
    page.wait_for_text(
        "[data-testid=position]",
        &format!("{} 1 /", Language::Ru.words().labels.ui_position),
    );
    page.click("[data-testid=play]");
    page.wait_until(
        "play reaches step 3",
        "parseInt(document.querySelector('[data-testid=position]').innerText.match(/\\d+/)[0]) >= 3",
    );
    page.click("[data-testid=play]");
    assert_eq!(page.evaluate("document.querySelector('[data-testid=speed]').value"), "80");
    assert_eq!(page.evaluate("document.documentElement.lang"), "ru");

    // Nothing could be stored: a reload opens with the defaults, at the run its link names.
    page.reload(false);
    assert_eq!(page.evaluate("document.documentElement.lang"), "en");
    assert!(page.location().contains("step="), "the run is in the address");
    assert!(!page.exists(".error-banner"), "no banner");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
