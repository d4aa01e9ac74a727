//! The package in a real slide deck (`examples/embed.html`): reveal.js's markup, scaled as
//! reveal.js scales its slides, and an ordinary deck's hostile CSS (every `section` hidden but
//! the one shown, a 40 px root font, coloured buttons, upper-case serif headings). Two
//! `<idempotency-lab>` elements, a 900x520 one and a 400x300 one, each in its shadow root:
//! each draws its diagram inside its box with no overflow and no scrollbar; the deck's styles
//! are the same after the package as its CSS says, and none of them reaches inside; a fault
//! injected in one leaves the other exactly as it was; `element.step()` and a key while it has
//! the focus move it, and tell the page by `lab-step`; a bad attribute fires `lab-error` and a
//! corrected one brings the lab back (and `view="compare"` with `presenter` shows the
//! comparison); the host page's address and storage stay untouched and
//! nothing is logged as an error. The same deck passes opened from disk (`file://`), where it
//! loads the package's classic script. The attributes a deck sets take effect live: `seed`,
//! `modes`, `run` (the big embed's share link opens the same run in the small one), `lang` and
//! `autoplay`. Screenshots at 1280x720 go to `target/screenshots/`.

use idempotency_lab_tests::browser::LabPage;
use serde_json::json;

const DECK: &str = "examples/embed.html";
/// The 900x520 embed: f01, naive, with the step bar.
const BIG: &str = "naive";
/// The 400x300 embed: p4, idempotent, with no controls.
const SMALL: &str = "idempotent";

/// The JSON value of `expression`, objects and arrays included.
fn value_of(page: &LabPage, expression: &str) -> serde_json::Value {
    let text = page.evaluate(&format!("JSON.stringify({expression}) ?? 'null'"));
    let text = text.as_str().unwrap_or_else(|| panic!("{expression} gives no JSON: {text}"));
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{expression}: {error}"))
}

/// Evaluates `expression` with `host` (the element `id`) and `root` (its shadow root) bound.
fn in_embed(page: &LabPage, id: &str, expression: &str) -> serde_json::Value {
    value_of(
        page,
        &format!(
            "(() => {{ const host = document.getElementById({id:?}); const root = host.shadowRoot; \
             return {expression}; }})()"
        ),
    )
}

/// The step an embed shows, asked of the `Lab` it gives.
fn cursor(page: &LabPage, id: &str) -> u64 {
    let value = in_embed(
        page,
        id,
        "(() => { const lab = host.lab; const at = lab.cursor; lab.free(); return at; })()",
    );
    value.as_u64().unwrap_or_else(|| panic!("{id} gives no cursor: {value}"))
}

/// Whatever in the embed is outside its box, overflows, or scrolls: empty when it fits.
const MISFITS: &str = r#"(() => {
  const box = host.getBoundingClientRect();
  const misfits = [];
  const main = root.querySelector('[data-testid=app]');
  if (main.scrollHeight > main.clientHeight + 1 || main.scrollWidth > main.clientWidth + 1)
    misfits.push(`the view overflows: ${main.scrollWidth}x${main.scrollHeight} in ${main.clientWidth}x${main.clientHeight}`);
  if (host.scrollHeight > host.clientHeight + 1) misfits.push('the element overflows');
  const parts = [...root.querySelectorAll('.diagram-box, .invariants, .controls, .now, .invariant, button')]
    .filter((element) => !element.closest('.diagram-scroll'));
  for (const element of parts) {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0) continue;
    if (rect.left < box.left - 1 || rect.top < box.top - 1 || rect.right > box.right + 1 || rect.bottom > box.bottom + 1)
      misfits.push(`${element.className || element.tagName} at ${Math.round(rect.left)},${Math.round(rect.top)} ${Math.round(rect.width)}x${Math.round(rect.height)} outside ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  for (const element of root.querySelectorAll('*')) {
    const overflow = getComputedStyle(element).overflowY + getComputedStyle(element).overflowX;
    if (/auto|scroll/.test(overflow) && (element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1))
      misfits.push(`${element.className} scrolls`);
  }
  const diagram = root.querySelector('svg.diagram:not(.lanes-head)');
  if (!diagram || diagram.getBoundingClientRect().height < 20) misfits.push('no diagram drawn');
  return misfits;
})()"#;

/// The deck's computed styles that its own CSS sets, and what the package adds to its
/// document.
const DECK_STYLES: &str = r#"(() => {
  const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
  return {
    rootFont: style('html', 'fontSize'),
    hiddenSection: style('section:not(.present)', 'display'),
    buttonBackground: style('#deck-next', 'backgroundColor'),
    buttonFont: style('#deck-next', 'fontSize'),
    heading: style('h2', 'textTransform') + ' ' + style('h2', 'fontFamily'),
    text: style('#status', 'color'),
    sheets: document.styleSheets.length,
    adopted: document.adoptedStyleSheets.length,
  };
})()"#;

fn check_deck(from_disk: bool, screenshot: &str) {
    let page = LabPage::open_embeds(DECK, from_disk);
    page.set_viewport(1280, 720, false);
    assert_eq!(
        value_of(&page, DECK_STYLES),
        json!({
            "rootFont": "40px", "hiddenSection": "none", "buttonBackground": "rgb(231, 173, 82)",
            "buttonFont": "20px", "heading": "uppercase Georgia, serif", "text": "rgb(238, 238, 238)",
            "sheets": 1, "adopted": 0,
        }),
        "the package changed the deck's styles"
    );
    for id in [BIG, SMALL] {
        assert_eq!(cursor(&page, id), 4, "{id} opens at its step attribute");
        assert_eq!(in_embed(&page, id, MISFITS), json!([]), "{id} does not fit its box");
        // Nothing of the deck's CSS inside: its sections show, its buttons keep their own
        // look, its type follows the box, not the deck's 40 px root.
        let inside = in_embed(
            &page,
            id,
            "[getComputedStyle(root.querySelector('section.diagram-box')).display, \
              parseFloat(getComputedStyle(root.querySelector('main')).fontSize) < 24, \
              getComputedStyle(root.querySelector('main')).textTransform]",
        );
        assert_eq!(inside, json!(["flex", true, "none"]), "the deck's CSS reached into {id}");
    }
    page.screenshot(screenshot);
    page.evaluate(
        "window.heard = []; for (const type of ['lab-step', 'lab-invariant', 'lab-error']) \
         document.addEventListener(type, (event) => heard.push([type, event.target.id, event.detail.step ?? event.detail.kind ?? null])); true",
    );

    // A fault in the big embed: step it until its message waits with a duplicate, inject it;
    // the small one stays exactly as it was.
    let small_before = in_embed(&page, SMALL, "root.innerHTML");
    let duplicate_on = "(() => { const lab = host.lab; const item = lab.pending().find((item) => \
         item.faults.some((fault) => fault.fault === 'F1')); lab.free(); return item ? item.item : null; })()";
    let mut item = in_embed(&page, BIG, duplicate_on);
    for _ in 0..60 {
        if !item.is_null() {
            break;
        }
        in_embed(&page, BIG, "host.step()");
        item = in_embed(&page, BIG, duplicate_on);
    }
    let item = item.as_str().expect("the naive embed offers a duplicate").to_owned();
    let before_fault = cursor(&page, BIG);
    in_embed(&page, BIG, &format!("host.inject({item:?}, 'F1')"));
    assert_eq!(cursor(&page, BIG), before_fault + 1);
    page.wait_until(
        "the big embed shows the duplicate",
        &format!(
            "document.getElementById('{BIG}').shadowRoot.querySelector('[data-testid=current-step]').textContent.includes('duplicate copy')"
        ),
    );
    assert_eq!(in_embed(&page, SMALL, "root.innerHTML"), small_before, "the small embed moved");

    // element.step() moves the small one, a key moves the big one while it has the focus,
    // and the page hears of both.
    assert_eq!(in_embed(&page, SMALL, "host.step()"), json!(true));
    assert_eq!(cursor(&page, SMALL), 5);
    page.wait_until(
        "the small embed draws its step",
        &format!("document.getElementById('{SMALL}').shadowRoot.innerHTML !== {small_before:?}"),
    );
    let big_at = cursor(&page, BIG);
    in_embed(&page, BIG, "host.focus()");
    page.press_key_on_focus("ArrowRight");
    assert_eq!(cursor(&page, BIG), big_at + 1, "ArrowRight on the focused embed steps it");
    page.wait_until(
        "the page hears the steps",
        "heard.filter(([type]) => type === 'lab-step').length >= 3",
    );
    let heard = value_of(&page, "heard");
    assert!(
        heard.as_array().is_some_and(|heard| heard.contains(&json!(["lab-step", SMALL, 5]))),
        "{heard}"
    );
    for id in [BIG, SMALL] {
        assert_eq!(
            in_embed(&page, id, MISFITS),
            json!([]),
            "{id} does not fit its box after moving"
        );
    }
    // Played on to its end, the naive run breaks its invariants: the deck still fits.
    in_embed(&page, BIG, "host.stepTo(60)");
    page.wait_until(
        "the big embed shows a broken invariant",
        &format!("document.getElementById('{BIG}').shadowRoot.querySelector('.invariant.broken') !== null"),
    );
    assert_eq!(in_embed(&page, BIG, MISFITS), json!([]), "the ended run does not fit its box");
    page.screenshot(&format!("{screenshot}-broken"));

    // A bad attribute: an error in the element and a lab-error; corrected, the lab is back.
    in_embed(&page, SMALL, "host.setAttribute('lesson', 'no-such-lesson'), true");
    page.wait_until("the error is told", "heard.some(([type]) => type === 'lab-error')");
    assert!(
        in_embed(&page, SMALL, "root.querySelector('.embed-error').textContent")
            .to_string()
            .contains("options.lesson")
    );
    in_embed(&page, SMALL, "host.setAttribute('lesson', 'f01-duplicate-delivery'), true");
    page.wait_until(
        "the corrected embed shows its lab",
        &format!("document.getElementById('{SMALL}').shadowRoot.querySelector('[data-testid=app]') !== null"),
    );
    assert_eq!(cursor(&page, SMALL), 4);
    // The comparison in presenter mode shows the comparison.
    in_embed(
        &page,
        SMALL,
        "host.setAttribute('view', 'compare'), host.setAttribute('presenter', ''), true",
    );
    page.wait_until(
        "the comparison shows",
        &format!("document.getElementById('{SMALL}').shadowRoot.querySelector('.compare')?.getBoundingClientRect().height > 20"),
    );

    assert_eq!(page.evaluate("location.hash"), json!(""));
    if !from_disk {
        assert_eq!(page.evaluate("localStorage.length"), json!(0));
    }
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

#[test]
fn two_embeds_fit_a_deck_and_move_independently() {
    check_deck(false, "embed-deck");
}

#[test]
fn the_deck_opened_from_disk_shows_live_embeds() {
    check_deck(true, "embed-deck-file");
}

/// `expression` over the `Lab` of the embed `id` (bound as `lab`, freed after), as JS text
/// for [`LabPage::wait_until`].
fn over_lab(id: &str, expression: &str) -> String {
    format!(
        "(() => {{ const lab = document.getElementById({id:?}).lab; \
         try {{ return {expression}; }} finally {{ lab.free(); }} }})()"
    )
}

#[test]
fn the_attributes_a_deck_sets_take_effect_live() {
    let page = LabPage::open_embeds(DECK, false);
    page.set_viewport(1280, 720, false);
    let patterns = "JSON.parse(lab.traceJson()).scenario.patterns";

    // seed: the run is the same lesson with another seed.
    in_embed(&page, SMALL, "host.setAttribute('seed', '7'), true");
    page.wait_until("the small embed runs seed 7", &over_lab(SMALL, "lab.seed === '7'"));
    assert_eq!(cursor(&page, SMALL), 4, "a new seed keeps the step shown");

    // modes: one pattern's twin after the lesson's mode.
    let before = in_embed(
        &page,
        BIG,
        &format!(
            "(() => {{ const lab = host.lab; try {{ return {patterns}; }} finally {{ lab.free(); }} }})()"
        ),
    );
    assert_eq!(before["p4_inbox"], json!("naive"), "{before}");
    in_embed(&page, BIG, "host.setAttribute('modes', 'p4:idempotent'), true");
    page.wait_until(
        "the big embed runs P4 idempotent, the rest as its mode says",
        &over_lab(
            BIG,
            &format!("{patterns}.p4_inbox === 'idempotent' && {patterns}.p1_stock === 'naive'"),
        ),
    );

    // run: a share link of the big embed, opened in the small one, shows the same run at the
    // same step.
    in_embed(&page, BIG, "host.stepTo(9)");
    let link = in_embed(
        &page,
        BIG,
        "(() => { const lab = host.lab; try { return lab.shareLink(); } finally { lab.free(); } })()",
    );
    let link = link.as_str().expect("a share link").to_owned();
    let big_trace = in_embed(
        &page,
        BIG,
        "(() => { const lab = host.lab; try { return lab.traceJson(); } finally { lab.free(); } })()",
    );
    // The link carries its own seed, patterns and step: the element's `seed`, `mode` and
    // `step` would apply over it, so they go.
    in_embed(
        &page,
        SMALL,
        &format!(
            "['seed', 'mode', 'step'].forEach((name) => host.removeAttribute(name)),              host.setAttribute('run', {link:?}), true"
        ),
    );
    page.wait_until("the small embed opens the link", &over_lab(SMALL, "lab.cursor === 9"));
    let small_trace = in_embed(
        &page,
        SMALL,
        "(() => { const lab = host.lab; try { return lab.traceJson(); } finally { lab.free(); } })()",
    );
    assert_eq!(small_trace, big_trace, "the link opened another run");

    // lang: the small embed speaks Russian, and still fits its box.
    in_embed(&page, SMALL, "host.setAttribute('lang', 'ru'), true");
    page.wait_until(
        "the small embed speaks Russian",
        &format!(
            "/[\\u0430-\\u044f\\u0451]{{4,}}/i.test(document.getElementById('{SMALL}').shadowRoot.textContent)"
        ),
    );
    assert_eq!(
        in_embed(&page, SMALL, MISFITS),
        json!([]),
        "the Russian embed does not fit its box"
    );

    // autoplay: the big embed plays on by itself, with no click.
    let at = cursor(&page, BIG);
    in_embed(&page, BIG, "host.setAttribute('autoplay', ''), true");
    page.wait_until(
        "the big embed plays by itself",
        &over_lab(BIG, &format!("lab.cursor >= {} || lab.ended", at + 3)),
    );
    page.screenshot("embed-deck-attributes");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}
