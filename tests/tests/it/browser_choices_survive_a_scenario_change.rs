//! The learner's choices survive a scenario change where their targets exist (#32): in the
//! free lab, a fault picked on each request of a two-request scenario, then a one-request
//! scenario chosen from the menu. The fault on the request both scenarios have is still in
//! the run (the address's share link holds it, the run takes it, and stepping there shows it
//! in the caption); the banner names the one whose request is gone, in English and, switched,
//! in Russian. A lesson's run starts without them, as its course file says, and offers them:
//! Keep carries them into the lesson's run.

use idempotency_lab::course::Course;
use idempotency_lab::faults::FaultClass;
use idempotency_lab::sim::{Choice, ChoiceOutcome, PatternMode};
use idempotency_lab::view::{Language, ShareLink, action_text};
use idempotency_lab_tests::browser::LabPage;

/// Two requests: an order, and its payment, which sends at step 16 of the run.
const FROM: &str = "p2-order-state-machine";
/// One request.
const TO: &str = "f01-duplicate-delivery";

/// The share link in the page's address.
fn address_link(page: &LabPage) -> ShareLink {
    let address = page.location();
    let fragment = address.split_once('#').map(|(_, after)| after).unwrap_or_default();
    ShareLink::decode(fragment).unwrap_or_else(|error| panic!("{address}: {error}"))
}

/// Steps until request `request` waits with a fault button, and presses its first one.
fn fault_on_request(page: &LabPage, request: usize) {
    let item = format!("[data-testid=pending-request-{request}]");
    page.step_until(&format!("{item} [data-fault]"), 30);
    let step = page.step_shown();
    page.click(&format!("{item} [data-fault]"));
    page.wait_for_text("[data-testid=position]", &format!("step {} /", step + 1));
}

#[test]
fn a_scenario_change_keeps_the_faults_that_hit_and_names_the_others() {
    let page = LabPage::open("");
    page.open_lesson(FROM, PatternMode::Naive);
    fault_on_request(&page, 0);
    fault_on_request(&page, 1);
    page.wait_until("both choices are in the address", "window.location.hash.includes('&u=')");
    let before = address_link(&page);
    let [kept, gone] = &before.user_choices[..] else {
        panic!("two choices: {:?}", before.user_choices)
    };

    page.set_value("[data-testid=scenario]", TO);
    page.wait_for_text("[data-testid=position]", "step 0 /");
    page.wait_until(
        "the address names the new scenario",
        &format!("window.location.hash.includes('s={TO}')"),
    );
    let after = address_link(&page);
    assert_eq!(after.seed, before.seed, "the seed is kept");
    let [carried] = &after.user_choices[..] else {
        panic!("one choice carried: {:?}", after.user_choices)
    };
    assert_eq!(carried.action, kept.action, "the fault on request 0 is carried");

    // The run takes it: the share link's run, and the page stepped to it, show it.
    let opened = after.open().unwrap();
    let [ChoiceOutcome::Taken { step }] = opened.outcomes[..] else {
        panic!("not taken: {:?}", opened.outcomes)
    };
    let taken = &opened.simulation.steps()[step - 1];
    assert_eq!(taken.chosen_by, Choice::User);
    for _ in 0..step {
        page.click("[data-testid=step]");
    }
    page.wait_for_text("[data-testid=position]", &format!("step {step} /"));
    page.wait_for_text("[data-testid=current-step]", &action_text(&taken.action, Language::En));

    // The banner names the dropped one, by the step it was made at.
    let banner = page.wait_for_text("[data-testid=choices-dropped]", "1 choice of yours");
    assert!(banner.contains(&format!("step {}", gone.step)), "{banner}");
    assert!(!page.exists("[data-testid=error]"), "nothing refused");
    page.click("[data-testid=lang-ru]");
    page.wait_until("the page is Russian", "document.documentElement.lang === 'ru'");
    let russian = page.text("[data-testid=choices-dropped] span");
    assert!(russian != banner && russian.contains(&gone.step.to_string()), "{russian}");
    page.screenshot("scenario-change-carries-the-choices");
    page.click("[data-testid=choices-dropped] button");
    page.wait_until(
        "the banner is gone",
        "!document.querySelector('[data-testid=choices-dropped]')",
    );
    assert_eq!(address_link(&page).user_choices.len(), 1, "dismissed, the run keeps its fault");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn a_lesson_offers_the_choices_of_the_run_it_replaced_and_keep_carries_them() {
    let lesson = &Course::built_in().unwrap().lessons[0];
    let page = LabPage::open("");
    page.step_until("[data-fault=F1]", 60);
    page.inject_on("", FaultClass::F1);
    page.click("[data-testid=to-course]");
    page.click(&format!("[data-testid=course-open-{}]", lesson.id));
    page.wait_until("the lesson opens", "!!document.querySelector('[data-testid=lesson-panel]')");
    assert_eq!(page.text("[data-testid=position]"), "step 0 / 0", "the lesson's own run");
    let offer = Language::En.count(&Language::En.words().notices.carry_offer, 1);
    assert_eq!(page.text("[data-testid=carry-offer] span"), offer);
    page.screenshot("lesson-offers-the-previous-choices");

    page.click("[data-testid=carry-offer-keep]");
    page.wait_until("the offer is taken", "!document.querySelector('[data-testid=carry-offer]')");
    assert!(!page.exists("[data-testid=choices-dropped]"), "the duplicate has its target here");
    page.wait_until(
        "the focus on the caption",
        "document.activeElement?.matches('[data-testid=current-step]') === true",
    );
    // The run is played to where the kept duplicate is taken: its last step shows it.
    let position = page.text("[data-testid=position]");
    let taken: usize = position.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(taken > 0, "{position}");
    for step in 1..=taken {
        page.click("[data-testid=step]");
        page.wait_for_text("[data-testid=position]", &format!("step {step} /"));
    }
    page.wait_for_text("[data-testid=current-step]", "duplicate copy");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
