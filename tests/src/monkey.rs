//! A seeded random-action driver ("monkey") for the page: given a seed and a count, it does
//! that many actions a learner could do, chosen by the core's [`DeterministicRng`], and after
//! each one checks that the page is still well: no console error or uncaught exception, a page
//! that answers (an evaluation returns and the app root still shows its controls), and no HTML
//! injected by the title of an imported file.
//!
//! The actions: a click on a random visible, enabled button (the fault buttons, the patterns'
//! switches, Compare, the presenter view, the language, export, the check panel's buttons...),
//! a random option of a random `<select>` (the lesson, the speed, the check panel's target,
//! budget and limit), the step slider at a random step, a key the page handles (the arrows,
//! space, `+`, `-`, `p`, `f`, Tab, Enter, Escape), a value typed into the seed field, a check
//! or fuzz run (or its Cancel) in the check panel, and the import of a trace or scenario file
//! whose title holds `<script>` and an `<img onerror>`, or of a malformed file whose name does.
//! The page has no link that leaves it; downloads go into a scratch directory, and the file
//! chooser is intercepted and cancelled, so no action can hang on a dialog. The monkey stays
//! in the free lab: it never presses the button back to the course (whose views
//! `tests/it/browser_course.rs` drives).
//!
//! Speed: every call over the DevTools protocol costs about 100 ms with `headless_chrome` (its
//! reader thread holds the socket through a 100 ms read timeout), so the monkey makes few. One
//! evaluation, awaited and with a user gesture (so that fullscreen is allowed, as after a
//! user's click), first lets the page settle and checks what the previous action left, then
//! does the next action in the page: a click with `click()` on the focused button, a select, the
//! slider, the seed field, the check panel. Keys are real key events (2 calls: down and up),
//! and one click in four is a real mouse click at the button's centre (2 calls more); an
//! import chooses a real file through the protocol. After the last action, one more check.
//!
//! Every action is logged with its index and what it hit, so a failure prints the seed and the
//! list that led to it. The same seed makes the same choices as long as the page offers the
//! same controls; only Play's timer (which steps the run while the monkey acts) and a check
//! running in slices can make the page's state differ between two runs.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use headless_chrome::protocol::cdp::DOM::SetFileInputFiles;
use headless_chrome::protocol::cdp::Runtime::{Evaluate, RemoteObject};
use idempotency_lab::rng::DeterministicRng;
use idempotency_lab::sim::{Simulation, catalogue_scenario};

use crate::browser::{LabPage, scratch_dir};

/// The text the imported files put in their title (and description): a script element and an
/// image whose `onerror` runs script. Rendered as text, it sets nothing.
pub const INJECTION: &str =
    "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=1\">";

/// The kinds of action, in the order of their weights in [`ActionKind::pick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ActionKind {
    /// A click on a visible, enabled button.
    Button,
    /// A random option of a `<select>`.
    Select,
    /// The step slider at a random step.
    Slider,
    /// A key press.
    Key,
    /// A value typed into the seed field.
    Field,
    /// A check or fuzz run in the check panel, or its Cancel.
    Check,
    /// The import of a file.
    Import,
}

impl ActionKind {
    /// Every kind.
    pub const ALL: [ActionKind; 7] = [
        ActionKind::Button,
        ActionKind::Select,
        ActionKind::Slider,
        ActionKind::Key,
        ActionKind::Field,
        ActionKind::Check,
        ActionKind::Import,
    ];

    /// Out of 100, how often each kind is picked.
    const WEIGHTS: [u64; 7] = [40, 12, 12, 20, 4, 6, 6];

    /// The kind's name, as the log and the summary print it.
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Button => "button",
            ActionKind::Select => "select",
            ActionKind::Slider => "slider",
            ActionKind::Key => "key",
            ActionKind::Field => "field",
            ActionKind::Check => "check",
            ActionKind::Import => "import",
        }
    }

    fn pick(rng: &mut DeterministicRng) -> ActionKind {
        let total: u64 = ActionKind::WEIGHTS.iter().sum();
        let mut roll = rng.below(total);
        for (kind, weight) in ActionKind::ALL.iter().zip(ActionKind::WEIGHTS) {
            if roll < weight {
                return *kind;
            }
            roll -= weight;
        }
        ActionKind::Button
    }
}

/// The keys the monkey presses: the page's shortcuts, and the keys that move or use the focus.
const KEYS: [&str; 12] =
    ["ArrowLeft", "ArrowRight", " ", "+", "-", "=", "p", "f", "Tab", "Enter", "Escape", "x"];

/// The values the monkey types into the seed field: seeds, the largest, and what is not one.
const SEEDS: [&str; 10] = [
    "0",
    "1",
    "7",
    "42",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "abc",
    "",
    "<script>window.__pwned=1</script>",
];

/// One click in this many is a real mouse click; the others are `click()` in the page.
const REAL_CLICK_ONE_IN: u64 = 4;

/// What a run of the monkey did.
#[derive(Clone, Debug)]
pub struct MonkeyReport {
    /// The seed of its choices.
    pub seed: u64,
    /// How many actions it did.
    pub actions: usize,
    /// How many of each kind.
    pub per_kind: BTreeMap<ActionKind, usize>,
    /// How long the actions of each kind took, each with the check before it.
    pub time_per_kind: BTreeMap<ActionKind, Duration>,
    /// How many button clicks were real mouse clicks at the button's centre.
    pub real_clicks: usize,
    /// How many of the clicks meant to be real were done with `click()`, the button's centre
    /// being covered by something else.
    pub covered_clicks: usize,
    /// How long the run took.
    pub elapsed: Duration,
    /// Every action, as `#index kind: what`.
    pub log: Vec<String>,
}

impl fmt::Display for MonkeyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "monkey: seed {}, {} actions in {:.1} s ({:.0} ms per action), errors 0",
            self.seed,
            self.actions,
            self.elapsed.as_secs_f64(),
            self.elapsed.as_secs_f64() * 1000.0 / self.actions.max(1) as f64
        )?;
        for (kind, count) in &self.per_kind {
            let time = self.time_per_kind.get(kind).copied().unwrap_or_default();
            writeln!(
                f,
                "monkey:   {:<7} {count:>4}  {:>6.1} s  ({:.0} ms each)",
                kind.name(),
                time.as_secs_f64(),
                time.as_secs_f64() * 1000.0 / (*count).max(1) as f64
            )?;
        }
        write!(
            f,
            "monkey:   ({} of the button clicks real mouse clicks, {} more meant to be but covered)",
            self.real_clicks, self.covered_clicks
        )
    }
}

/// Why a run of the monkey stopped: the action after which the page was not well.
#[derive(Clone, Debug)]
pub struct MonkeyFailure {
    /// The seed of the run.
    pub seed: u64,
    /// The index of the action after which the problem showed; `None` for the page as opened.
    pub index: Option<usize>,
    /// That action, as the log has it (`#index kind: what`).
    pub action: String,
    /// What was wrong.
    pub problem: String,
    /// Every action up to and including that one.
    pub log: Vec<String>,
}

impl MonkeyFailure {
    /// How many actions replay the failure.
    pub fn actions_to_replay(&self) -> usize {
        self.index.map_or(0, |index| index + 1)
    }
}

impl fmt::Display for MonkeyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(_) => writeln!(
                f,
                "monkey seed {}: after action {}: {}",
                self.seed, self.action, self.problem
            )?,
            None => writeln!(f, "monkey seed {}: the page as opened: {}", self.seed, self.problem)?,
        }
        writeln!(
            f,
            "replay with `cargo run -p idempotency-lab-tests --bin monkey -- --seed {} --actions {}`; the actions:",
            self.seed,
            self.actions_to_replay()
        )?;
        for line in &self.log {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

/// The files the monkey imports.
struct Files {
    /// Each file and the text the page shows once it has opened it (in the scenario's title,
    /// or in the error banner).
    imports: Vec<(PathBuf, &'static str)>,
}

impl Files {
    fn write(dir: &std::path::Path) -> Files {
        let scenario = serde_json::json!({
            "format_version": 1,
            "id": "monkey-injection",
            "title": format!("Monkey {INJECTION}"),
            "description": format!("A description with {INJECTION} in it."),
            "patterns": { "p1_stock": "naive", "p2_order": "idempotent", "p3_api": "idempotent", "p4_inbox": "naive" },
            "shop": { "stock": [{ "sku": "apple", "qty": 10 }] },
            "requests": [{ "operation": { "op": "place_order", "lines": [{ "sku": "apple", "qty": 2 }] } }],
            "injections": [{ "fault": "duplicate_delivery", "message": { "order_placed_of": 0 } }]
        });
        let scenario_file = dir.join("injection.scenario.json");
        std::fs::write(&scenario_file, scenario.to_string()).expect("write the scenario file");

        let mut lesson = catalogue_scenario("f01-duplicate-delivery").expect("the f01 lesson");
        lesson.title = format!("Traced {INJECTION}");
        lesson.description = format!("A trace with {INJECTION} in its description.");
        let trace = Simulation::run(lesson, 5).expect("the f01 lesson runs");
        let trace_file = dir.join("injection.trace.json");
        std::fs::write(&trace_file, trace.to_json()).expect("write the trace file");

        let malformed_file = dir.join("<img src=x onerror=window.__pwned=1>.json");
        std::fs::write(&malformed_file, "{\"format_version\": 1, \"title\": 5}")
            .expect("write the malformed file");

        Files {
            imports: vec![
                (scenario_file, "Monkey <script>window.__pwned=1</script>"),
                (trace_file, "Traced <script>window.__pwned=1</script>"),
                // The banner names the file in either language, as text.
                (malformed_file, "<img src=x onerror=window.__pwned=1>.json"),
            ],
        }
    }
}

/// The page-side helpers, installed once when the monkey starts. Every evaluation after that
/// goes through `window.__monkey.run`; if the helpers are gone, the page was reloaded or left.
const HELPERS: &str = r#"window.__monkey = {
  scripts: document.scripts.length,
  visible(element) {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  },
  describe(element) {
    let text = element.tagName.toLowerCase();
    if (element.dataset.testid) text += `[data-testid=${element.dataset.testid}]`;
    if (element.dataset.fault) text += `[data-fault=${element.dataset.fault}]`;
    const label = (element.innerText || element.getAttribute('aria-label') || element.title || '').trim().replace(/\s+/g, ' ').slice(0, 48);
    if (label) text += ` ${JSON.stringify(label)}`;
    const item = element.closest('[data-testid^=pending-], [data-testid^=list-pending-]');
    if (item && item !== element) text += ` in ${item.dataset.testid}`;
    return text;
  },
  // Presses `element` as a click does: focus, then `click()` (with the evaluation's user
  // gesture, so fullscreen is allowed as after a user's click).
  press(element) {
    element.focus({ preventScroll: true });
    element.click();
  },
  // For a real click: scrolls the element to the middle of the viewport and returns its
  // centre; `covered` (and clicked with `click()`) when something else is on top there.
  aim(element) {
    element.scrollIntoView({ block: 'center', inline: 'center' });
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === element || element.contains(hit))) return { x, y };
    this.press(element);
    return { covered: true };
  },
  button(roll, real) {
    const buttons = Array.from(document.querySelectorAll('button:not([data-testid=to-course])')).filter(b => !b.disabled && this.visible(b));
    if (!buttons.length) return { what: 'no button to click' };
    const button = buttons[roll % buttons.length];
    const what = `${this.describe(button)} (${roll % buttons.length + 1} of ${buttons.length})`;
    if (real) return { what, aim: this.aim(button) };
    this.press(button);
    return { what };
  },
  select(roll, pick) {
    const selects = Array.from(document.querySelectorAll('select')).filter(s => !s.disabled && this.visible(s));
    if (!selects.length) return { what: 'no select' };
    const select = selects[roll % selects.length];
    const options = Array.from(select.options).filter(o => !o.disabled);
    if (!options.length) return { what: `${this.describe(select)}: no option` };
    const option = options[pick % options.length];
    select.focus({ preventScroll: true });
    select.value = option.value;
    select.dispatchEvent(new InputEvent('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return { what: `select[data-testid=${select.dataset.testid}] = ${JSON.stringify(option.value)}` };
  },
  slider(roll) {
    const slider = document.querySelector('[data-testid=slider]');
    if (!slider) return { what: 'no slider' };
    const step = roll % (Number(slider.max) + 1);
    slider.focus({ preventScroll: true });
    slider.value = String(step);
    slider.dispatchEvent(new InputEvent('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
    return { what: `slider = ${step} of ${slider.max}` };
  },
  field(value) {
    const seed = document.querySelector('[data-testid=seed]');
    if (!seed) return { what: 'no seed field' };
    seed.focus({ preventScroll: true });
    seed.value = value;
    seed.dispatchEvent(new InputEvent('input', { bubbles: true }));
    seed.dispatchEvent(new Event('change', { bubbles: true }));
    return { what: `seed = ${JSON.stringify(value)}` };
  },
  key(onBody) {
    if (onBody) document.activeElement?.blur?.();
    const focus = document.activeElement;
    return { what: onBody || !focus || focus === document.body ? 'on the body' : `on ${this.describe(focus)}` };
  },
  // The check panel: leave the presenter view (which shows the run alone), else open the
  // panel, else Cancel what runs, else a check or a fuzz run (on the smallest limit if asked).
  async check(smallest, fuzz) {
    const app = document.querySelector('[data-testid=app]');
    if (app.classList.contains('presenter')) {
      const toggle = document.querySelector('[data-testid=presenter-toggle]');
      this.press(toggle);
      await this.until(() => !app.classList.contains('presenter'), 'the presenter view ends');
      return { what: `leave the presenter view for the panel: ${this.describe(toggle)}` };
    }
    if (!document.querySelector('[data-testid=check-panel]')) {
      const toggle = document.querySelector('[data-testid=check-toggle]');
      this.press(toggle);
      await this.until(() => document.querySelector('[data-testid=check-panel]'), 'the check panel opens');
      return { what: `open the panel: ${this.describe(toggle)}` };
    }
    const cancel = document.querySelector('[data-testid=check-cancel]');
    if (cancel && !cancel.disabled) {
      this.press(cancel);
      return { what: this.describe(cancel) };
    }
    let done = '';
    const limit = document.querySelector('[data-testid=check-limit]');
    if (smallest && limit && !limit.disabled) {
      limit.value = limit.options[0].value;
      limit.dispatchEvent(new Event('change', { bubbles: true }));
      done = `limit ${limit.value}, then `;
    }
    const button = document.querySelector(fuzz ? '[data-testid=fuzz-run]' : '[data-testid=check-run]');
    if (!button || button.disabled) return { what: `${done}no enabled ${fuzz ? 'fuzz' : 'check'} button` };
    this.press(button);
    return { what: done + this.describe(button) };
  },
  // Waits until the page shows `needle` in the scenario's title or the error banner.
  async shows(needle) {
    const show = () => ['[data-testid=scenario-title]', '[data-testid=error]']
      .some(selector => (document.querySelector(selector)?.textContent ?? '').includes(needle));
    await this.until(show, `the page shows ${JSON.stringify(needle)}`);
    return { what: 'shown' };
  },
  // Resolves once `condition` holds (polled every 10 ms); rejects after 20 s.
  until(condition, what) {
    const deadline = Date.now() + 20000;
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (condition()) return resolve(true);
        if (Date.now() > deadline) return reject(new Error(`timed out waiting until ${what}`));
        setTimeout(poll, 10);
      };
      poll();
    });
  },
  // Resolves after the page has handled what was dispatched: a frame, then a task.
  settle() {
    return new Promise(resolve => {
      const done = () => setTimeout(() => resolve(true), 0);
      const fallback = setTimeout(done, 200);
      requestAnimationFrame(() => { clearTimeout(fallback); done(); });
    });
  },
  // What is wrong with the page now, or an empty list.
  problems() {
    const problems = [];
    if (window.__pwned !== undefined) problems.push(`window.__pwned is ${window.__pwned}: injected script ran`);
    if (document.scripts.length > this.scripts) problems.push(`the page holds ${document.scripts.length - this.scripts} script element(s) more than it loaded: ${Array.from(document.scripts).slice(this.scripts).map(e => e.outerHTML.slice(0, 80)).join(', ')}`);
    const strays = document.querySelectorAll('img, iframe, object, embed, [onerror], [onload], [onclick]');
    if (strays.length) problems.push(`HTML injected into the page: ${Array.from(strays, e => e.outerHTML.slice(0, 80)).join(', ')}`);
    for (const banner of document.querySelectorAll('body > .error-banner')) {
      problems.push(`the panic banner shows: ${banner.textContent}`);
    }
    const app = document.querySelector('[data-testid=app]');
    if (!app) return problems.concat('the app root is gone');
    for (const testid of ['position', 'current-step', 'step', 'slider', 'scenario', 'scenario-title', 'seed', 'check-toggle', 'import']) {
      if (!app.querySelector(`[data-testid=${testid}]`)) problems.push(`no [data-testid=${testid}] in the app`);
    }
    // Texts that come from a file are text: no element inside.
    for (const testid of ['scenario-title', 'scenario-description', 'error']) {
      const element = app.querySelector(`[data-testid=${testid}]`);
      const inner = element?.querySelector(testid === 'error' ? 'span *' : '*');
      if (inner) problems.push(`[data-testid=${testid}] holds an element: ${inner.outerHTML.slice(0, 80)}`);
    }
    const position = app.querySelector('[data-testid=position]')?.textContent ?? '';
    const numbers = position.match(/(\d+) \/ (\d+)/);
    if (!numbers || Number(numbers[1]) > Number(numbers[2])) problems.push(`the position reads ${JSON.stringify(position)}`);
    return problems;
  },
  // One step of the monkey: settle, check what the previous action left (returning the
  // problems if any), then do `action`.
  async run(action) {
    await this.settle();
    const problems = this.problems();
    if (problems.length) return JSON.stringify({ problems });
    try {
      return JSON.stringify(await action(this));
    } catch (error) {
      return JSON.stringify({ failed: String(error) });
    }
  },
};
true"#;

/// What one evaluation found.
enum Step {
    /// The page was not well before the action: the previous action (or the opening) broke it.
    Before(String),
    /// The action could not be done.
    Failed(String, String),
    /// The action was done; what it hit.
    Done(String),
}

/// The monkey, on one open page.
pub struct Monkey<'a> {
    page: &'a LabPage,
    seed: u64,
    rng: DeterministicRng,
    files: Files,
    log: Vec<String>,
    per_kind: BTreeMap<ActionKind, usize>,
    time_per_kind: BTreeMap<ActionKind, Duration>,
    real_clicks: usize,
    covered_clicks: usize,
    /// How many of the page's console errors the checks have reported.
    console_seen: Cell<usize>,
}

impl<'a> Monkey<'a> {
    /// A monkey on `page` (freshly opened, with no console error yet) choosing by `seed`; its
    /// files and downloads go into `target/browser-tests/monkey-<name>`.
    pub fn new(page: &'a LabPage, seed: u64, name: &str) -> Monkey<'a> {
        let dir = scratch_dir(&format!("monkey-{name}"));
        let downloads = dir.join("downloads");
        std::fs::create_dir_all(&downloads).expect("create the downloads directory");
        page.save_downloads_to(&downloads);
        page.tab
            .set_file_chooser_dialog_interception(true, Some(true))
            .unwrap_or_else(|error| panic!("intercept the file chooser: {error}"));
        page.evaluate(HELPERS);
        Monkey {
            page,
            seed,
            rng: DeterministicRng::from_seed(seed),
            files: Files::write(&dir),
            log: Vec::new(),
            per_kind: BTreeMap::new(),
            time_per_kind: BTreeMap::new(),
            real_clicks: 0,
            covered_clicks: 0,
            console_seen: Cell::new(0),
        }
    }

    /// Does `count` actions, checking the page after each; stops at the first problem.
    pub fn run(mut self, count: usize) -> Result<MonkeyReport, Box<MonkeyFailure>> {
        let started = Instant::now();
        for index in 0..count {
            let kind = ActionKind::pick(&mut self.rng);
            *self.per_kind.entry(kind).or_default() += 1;
            let began = Instant::now();
            let step = self.act(kind);
            *self.time_per_kind.entry(kind).or_default() += began.elapsed();
            match step {
                Step::Before(problem) => return Err(self.failure(index.checked_sub(1), problem)),
                Step::Failed(what, problem) => {
                    self.log.push(format!("#{index} {}: {what}", kind.name()));
                    return Err(self.failure(Some(index), problem));
                }
                Step::Done(what) => self.log.push(format!("#{index} {}: {what}", kind.name())),
            }
        }
        if let Err(problem) = self.check() {
            return Err(self.failure(count.checked_sub(1), problem));
        }
        Ok(MonkeyReport {
            seed: self.seed,
            actions: count,
            per_kind: self.per_kind,
            time_per_kind: self.time_per_kind,
            real_clicks: self.real_clicks,
            covered_clicks: self.covered_clicks,
            elapsed: started.elapsed(),
            log: self.log,
        })
    }

    /// Lets the page settle and checks it now: no console error since the last check (a
    /// monkey's run stops at the first), the helpers still there (no reload), a page that
    /// answers with its controls, nothing injected.
    pub fn check(&self) -> Result<(), String> {
        match self.step("{ what: 'checked' }")? {
            Step::Before(problem) | Step::Failed(_, problem) => Err(problem),
            Step::Done(_) => Ok(()),
        }
    }

    fn failure(&self, index: Option<usize>, problem: String) -> Box<MonkeyFailure> {
        let action = match index {
            Some(index) => self.log.get(index).cloned().unwrap_or_default(),
            None => "(the page as opened)".to_owned(),
        };
        Box::new(MonkeyFailure { seed: self.seed, index, action, problem, log: self.log.clone() })
    }

    fn roll(&mut self) -> u64 {
        self.rng.below(1 << 31)
    }

    /// Evaluates `expression` awaited, with a user gesture; `by_value` returns JSON values,
    /// else a remote object. An exception or no answer is a page that does not answer.
    fn evaluate(&self, expression: &str, by_value: bool) -> Result<RemoteObject, String> {
        let answer = self
            .page
            .tab
            .call_method(Evaluate {
                expression: expression.to_owned(),
                object_group: Some("monkey".to_owned()),
                include_command_line_api: None,
                silent: None,
                context_id: None,
                return_by_value: Some(by_value),
                generate_preview: None,
                user_gesture: Some(true),
                await_promise: Some(true),
                throw_on_side_effect: None,
                timeout: None,
                disable_breaks: None,
                repl_mode: None,
                allow_unsafe_eval_blocked_by_csp: None,
                unique_context_id: None,
                serialization_options: None,
            })
            .map_err(|error| format!("the page does not answer: {error}"))?;
        if let Some(details) = answer.exception_details {
            let description =
                details.exception.and_then(|exception| exception.description).unwrap_or_default();
            return Err(format!("the monkey's probe threw: {} {description}", details.text));
        }
        Ok(answer.result)
    }

    /// The console errors logged since the last check, and `page_problems` (what the page-side
    /// probe found), as one problem; `None` if there are none.
    fn problem(&self, page_problems: &[&str]) -> Option<String> {
        let errors = self.page.console_errors();
        let new = errors.get(self.console_seen.get()..).unwrap_or_default();
        self.console_seen.set(errors.len());
        let mut problems: Vec<String> = page_problems.iter().map(|p| (*p).to_owned()).collect();
        if !new.is_empty() {
            problems.insert(0, format!("console errors: {new:?}"));
        }
        (!problems.is_empty()).then(|| problems.join("; "))
    }

    /// Runs one step in the page: settle, check, then `action` (a JavaScript expression of the
    /// helpers `m`, giving `{ what, aim? }` or a promise of it).
    fn step(&self, action: &str) -> Result<Step, String> {
        let expression = format!(
            "window.__monkey ? window.__monkey.run(async m => ({action})) \
             : JSON.stringify({{ problems: ['the monkey\\'s helpers are gone: the page was reloaded or left'] }})"
        );
        let answer = match self.evaluate(&expression, true) {
            Ok(answer) => answer,
            Err(problem) => return Ok(Step::Before(self.problem(&[&problem]).unwrap_or(problem))),
        };
        let text = answer.value.as_ref().and_then(|value| value.as_str()).unwrap_or("null");
        let answer: serde_json::Value = serde_json::from_str(text)
            .map_err(|error| format!("the probe's answer {text:?} does not read: {error}"))?;
        let problems: Vec<&str> = answer["problems"]
            .as_array()
            .map(|problems| problems.iter().filter_map(|p| p.as_str()).collect())
            .unwrap_or_default();
        if let Some(problem) = self.problem(&problems) {
            return Ok(Step::Before(problem));
        }
        let what = answer["what"].as_str().unwrap_or("?").to_owned();
        if let Some(failed) = answer["failed"].as_str() {
            return Ok(Step::Failed(what, failed.to_owned()));
        }
        match answer["aim"].as_object() {
            Some(aim) if aim.get("covered").is_none() => {
                let x = aim.get("x").and_then(|x| x.as_f64()).unwrap_or(0.0);
                let y = aim.get("y").and_then(|y| y.as_f64()).unwrap_or(0.0);
                Ok(Step::Done(format!("{what} [real click at {x:.0},{y:.0}]")))
            }
            Some(_) => Ok(Step::Done(format!("{what} [covered: pressed with click()]"))),
            None => Ok(Step::Done(what)),
        }
    }

    /// Does one action of `kind`: checks what the previous one left, then does it.
    fn act(&mut self, kind: ActionKind) -> Step {
        let done = match kind {
            ActionKind::Button => {
                let (roll, real) = (self.roll(), self.rng.below(REAL_CLICK_ONE_IN) == 0);
                self.step(&format!("m.button({roll}, {real})")).and_then(|step| self.click(step))
            }
            ActionKind::Select => {
                let (roll, pick) = (self.roll(), self.roll());
                self.step(&format!("m.select({roll}, {pick})"))
            }
            ActionKind::Slider => {
                let roll = self.roll();
                self.step(&format!("m.slider({roll})"))
            }
            ActionKind::Key => {
                let key = KEYS[self.rng.below(KEYS.len() as u64) as usize];
                let on_body = self.rng.below(2) == 0;
                self.step(&format!("m.key({on_body})")).map(|step| match step {
                    Step::Done(focus) => match self.page.tab.press_key(key) {
                        Ok(_) => Step::Done(format!("{key:?} {focus}")),
                        Err(error) => Step::Failed(
                            format!("{key:?} {focus}"),
                            format!("the key press fails: {error}"),
                        ),
                    },
                    other => other,
                })
            }
            ActionKind::Field => {
                let value = SEEDS[self.rng.below(SEEDS.len() as u64) as usize];
                self.step(&format!("m.field({value:?})"))
            }
            ActionKind::Check => {
                let (smallest, fuzz) = (self.rng.below(2) == 0, self.rng.below(2) == 0);
                self.step(&format!("m.check({smallest}, {fuzz})"))
            }
            ActionKind::Import => {
                let index = self.rng.below(self.files.imports.len() as u64) as usize;
                self.import(index)
            }
        };
        done.unwrap_or_else(|problem| Step::Failed(kind.name().to_owned(), problem))
    }

    /// A real click, if the button step asked for one: mouse down and up at the point.
    fn click(&mut self, step: Step) -> Result<Step, String> {
        let Step::Done(what) = step else { return Ok(step) };
        if what.ends_with("[covered: pressed with click()]") {
            self.covered_clicks += 1;
        }
        let Some(point) = what.rsplit_once("[real click at ").map(|(_, point)| point) else {
            return Ok(Step::Done(what));
        };
        let (x, y) = point.trim_end_matches(']').split_once(',').unwrap_or(("0", "0"));
        let (x, y) = (x.parse().unwrap_or(0.0), y.parse().unwrap_or(0.0));
        if let Err(error) = self.page.mouse_click_at(x, y) {
            return Ok(Step::Failed(what, format!("the click does not land: {error}")));
        }
        self.real_clicks += 1;
        Ok(Step::Done(what))
    }

    /// Chooses the file `index` in the page's file input, as the file dialog would, and waits
    /// until the page shows what it opened.
    fn import(&mut self, index: usize) -> Result<Step, String> {
        let (file, shown) = self.files.imports[index].clone();
        let name = file.file_name().map(|name| name.to_string_lossy().into_owned());
        let what = format!("open file {}", name.unwrap_or_default());
        // The check, then the file input as an object to give the file to.
        let expression = "window.__monkey ? window.__monkey.settle().then(() => { \
             const problems = window.__monkey.problems(); \
             return problems.length ? JSON.stringify({ problems }) : document.querySelector('[data-testid=import]'); }) \
             : JSON.stringify({ problems: ['the monkey\\'s helpers are gone: the page was reloaded or left'] })";
        let answer = match self.evaluate(expression, false) {
            Ok(answer) => answer,
            Err(problem) => return Ok(Step::Before(self.problem(&[&problem]).unwrap_or(problem))),
        };
        let Some(input) = answer.object_id else {
            let text = answer.value.as_ref().and_then(|value| value.as_str()).unwrap_or("null");
            let problems: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            let problems: Vec<&str> = problems["problems"]
                .as_array()
                .map(|problems| problems.iter().filter_map(|p| p.as_str()).collect())
                .unwrap_or_else(|| vec![text]);
            return Ok(Step::Before(self.problem(&problems).unwrap_or_else(|| text.to_owned())));
        };
        if let Some(problem) = self.problem(&[]) {
            return Ok(Step::Before(problem));
        }
        let path = file.to_str().expect("a UTF-8 path").to_owned();
        let chosen = self.page.tab.call_method(SetFileInputFiles {
            files: vec![path],
            node_id: None,
            backend_node_id: None,
            object_id: Some(input),
        });
        if let Err(error) = chosen {
            return Ok(Step::Failed(what, format!("the file is not taken: {error}")));
        }
        Ok(match self.step(&format!("m.shows({shown:?})"))? {
            Step::Done(_) => Step::Done(what),
            Step::Failed(_, problem) | Step::Before(problem) => Step::Failed(what, problem),
        })
    }
}

/// Opens the page and runs `count` actions by `seed` on it; its files go into
/// `target/browser-tests/monkey-<name>`.
pub fn run_on_fresh_page(
    seed: u64,
    count: usize,
    name: &str,
) -> Result<MonkeyReport, Box<MonkeyFailure>> {
    let page = LabPage::open("");
    Monkey::new(&page, seed, name).run(count)
}
