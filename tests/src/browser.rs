//! Opening the built page in headless Chromium, for the browser tests.
//!
//! The page is built once per test binary (or taken from `LAB_DIST_DIR`, which
//! `cargo xtask test` sets after building it), served on a free loopback port, and opened in
//! Debian's Chromium with the flags this machine needs. Console errors and uncaught exceptions
//! are collected from the first moment, so a test can assert that there were none. A missing
//! browser or a failed build fails the test; nothing here skips.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::protocol::cdp::Runtime::ConsoleAPICalledEventTypeOption;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::{InvariantId, Violation};
use idempotency_lab::sim::{PatternMode, catalogue_scenario};
use xtask::serve::RunningServer;

/// How long a test waits for the page to mount or an element to appear.
pub const WAIT_TIMEOUT: Duration = Duration::from_secs(40);

/// How long a wait polled inside the page lasts at most: less than [`WAIT_TIMEOUT`], the
/// protocol's own limit on the evaluation.
pub const IN_PAGE_WAIT_MS: u64 = 35_000;

/// A promise of the first value of the JavaScript expression `value` that is not `false`
/// (polled every 10 ms; an exception counts as `false`), or `false` after
/// [`IN_PAGE_WAIT_MS`].
fn in_page_poll(value: &str) -> String {
    format!(
        "new Promise(resolve => {{ const deadline = Date.now() + {IN_PAGE_WAIT_MS}; \
         const poll = () => {{ let value = false; try {{ value = {value}; }} catch (error) {{}} \
         if (value !== false) return resolve(value); \
         if (Date.now() > deadline) return resolve(false); setTimeout(poll, 10); }}; poll(); }})"
    )
}

/// How many animation frames an element must stay at the same place before [`LabPage::tap`]
/// clicks it.
pub const TAP_STILL_FRAMES: u32 = 3;

/// The Chromium flags this machine needs, besides headless and no sandbox (which
/// `LaunchOptions` sets): no GPU, no QUIC, no background traffic to a closed network.
pub const CHROMIUM_ARGS: [&str; 6] = [
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// The page's `dist/` directory: `LAB_DIST_DIR` if set, else built now (once per process).
pub fn dist_dir() -> PathBuf {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| match std::env::var_os("LAB_DIST_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => match xtask::page::build(&xtask::workspace_root()) {
            Ok(build) => build.dist_dir,
            Err(error) => panic!("building the page failed: {error}"),
        },
    })
    .clone()
}

/// Where [`LabPage`]'s openers leave a page that lands on the course (opened without a
/// fragment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Landing {
    /// On the free lab, by its button: the lab as it opened before the course existed.
    FreeLab,
    /// On what the page shows.
    AsShown,
    /// On a host page of `<idempotency-lab>` elements, each in its shadow root: the page is
    /// ready when every element shows its lab.
    Embeds,
}

/// Whether the share link's field holds the link of the step the position shows.
const SHARE_LINK_FILLED: &str = r#"(() => {
  const link = document.querySelector('[data-testid=share-link]')?.value ?? '';
  const shown = (document.querySelector('[data-testid=position]')?.textContent ?? '').match(/(\d+) \//);
  return shown !== null && new RegExp('[&]step=' + shown[1] + '(&|$)').test(link);
})()"#;

/// The page open in a browser tab, with everything it logged.
pub struct LabPage {
    /// The tab.
    pub tab: Arc<Tab>,
    /// The page's address, without fragment.
    pub url: String,
    console_errors: Arc<Mutex<Vec<String>>>,
    /// How many clicks the page verbs have made ([`LabPage::clicks`]).
    clicks: Cell<usize>,
    _browser: Browser,
    /// This test's claim on one of the process's browser slots, given back when the page goes.
    _slot: BrowserSlot,
    /// The loopback server of `dist/`; `None` for a page opened from disk.
    _server: Option<RunningServer>,
}

impl LabPage {
    /// Serves the built page, opens it at `fragment` (such as `""` or `"#v=2&s=..."`) and
    /// waits until the app has mounted. A page opened without a fragment lands on the course;
    /// this goes on to the free lab with its button, as a learner who chose it
    /// ([`LabPage::open_course`] stays on the course).
    pub fn open(fragment: &str) -> LabPage {
        LabPage::open_waiting(fragment, WAIT_TIMEOUT)
    }

    /// Serves the built page and opens it at `fragment` (`""`, or a trainer's course link such
    /// as `"#lesson=inbox&at=2"`), staying on what it shows: the course, or a lesson.
    pub fn open_course(fragment: &str) -> LabPage {
        let dist = dist_dir();
        let server = xtask::serve::start(&dist, "127.0.0.1:0").expect("serve dist/ on loopback");
        let url = format!("{}/", server.url);
        LabPage::open_url(url, fragment, WAIT_TIMEOUT, Some(server), Landing::AsShown)
    }

    /// Everything logged as an error so far: `console.error`, uncaught exceptions, and
    /// browser log entries of level error (failed loads).
    pub fn console_errors(&self) -> Vec<String> {
        self.console_errors.lock().map(|errors| errors.clone()).unwrap_or_default()
    }

    /// The text content of the first element matching `selector`.
    pub fn text(&self, selector: &str) -> String {
        self.tab
            .wait_for_element(selector)
            .and_then(|element| element.get_inner_text())
            .unwrap_or_else(|error| panic!("no text at {selector}: {error}"))
    }

    /// Evaluates a JavaScript expression (awaiting it if it is a promise) and returns its
    /// JSON value.
    pub fn evaluate(&self, expression: &str) -> serde_json::Value {
        self.tab
            .evaluate(expression, true)
            .unwrap_or_else(|error| panic!("evaluate {expression}: {error}"))
            .value
            .unwrap_or(serde_json::Value::Null)
    }

    /// Clicks the first element matching `selector` (waiting for it to appear): a real mouse
    /// click at its centre, counted ([`LabPage::clicks`]).
    pub fn click(&self, selector: &str) {
        self.tab
            .wait_for_element(selector)
            .and_then(|element| element.click().map(|_| ()))
            .unwrap_or_else(|error| panic!("click {selector}: {error}"));
        self.clicks.set(self.clicks.get() + 1);
    }

    /// How many clicks [`LabPage::click`] and the verbs built on it have made on this page
    /// (the one that leaves the course for the free lab, on opening, not counted).
    pub fn clicks(&self) -> usize {
        self.clicks.get()
    }

    /// Types `text` into the field matching `selector` with the keyboard: focuses it (as Tab
    /// would; no click) and selects what it holds, then types each character as a key press.
    pub fn type_into(&self, selector: &str, text: &str) {
        let focused = self.evaluate(&in_page_poll(&format!(
            "(() => {{ const field = document.querySelector({selector:?}); \
             if (!field) return false; field.focus(); field.select(); return document.activeElement === field; }})()"
        )));
        assert_eq!(focused, serde_json::Value::Bool(true), "no field {selector} to type into");
        self.tab.type_str(text).unwrap_or_else(|error| panic!("type into {selector}: {error}"));
    }

    /// A real mouse click at the centre of the first element matching `selector`, once it
    /// exists, is enabled, nothing covers its centre and it has stayed at the same place for
    /// [`TAP_STILL_FRAMES`] animation frames: one evaluation that waits for that in the page
    /// (scrolling the element into view when it is not hit), then the mouse's press and
    /// release there. Three protocol calls where [`LabPage::click`] makes seven (each costs
    /// about 100 ms); counted as every click is. Panics if the element never becomes
    /// clickable.
    ///
    /// The page moves under the mouse after some actions: Go there scrolls what it names into
    /// view, and again two frames later (`use_jumps`), and a render replaces the buttons of
    /// the step before. A point read before that and clicked after hits something else, the
    /// more often the busier the machine; a point that holds still for a few frames has seen
    /// the render and the scrolls through.
    pub fn tap(&self, selector: &str) {
        let aim = format!(
            "new Promise(resolve => {{ const deadline = Date.now() + {IN_PAGE_WAIT_MS}; \
             let last = false, still = 0; \
             const look = () => {{ const element = document.querySelector({selector:?}); \
               let point = false; \
               if (element && !element.disabled) {{ \
                 const box = element.getBoundingClientRect(); \
                 const x = box.left + box.width / 2, y = box.top + box.height / 2; \
                 const hit = document.elementFromPoint(x, y); \
                 if (hit && (hit === element || element.contains(hit))) point = JSON.stringify([x, y]); \
                 else element.scrollIntoView({{ block: 'center', inline: 'nearest' }}); }} \
               still = point !== false && point === last ? still + 1 : 0; last = point; \
               if (still >= {TAP_STILL_FRAMES}) return resolve(point); \
               if (Date.now() > deadline) return resolve(false); \
               requestAnimationFrame(look); }}; look(); }})"
        );
        let answer = self.evaluate(&aim);
        let (x, y): (f64, f64) = answer
            .as_str()
            .and_then(|point| serde_json::from_str(point).ok())
            .unwrap_or_else(|| panic!("tap {selector}: it is missing, disabled or covered"));
        self.mouse_click_at(x, y).unwrap_or_else(|error| panic!("tap {selector}: {error}"));
        self.clicks.set(self.clicks.get() + 1);
    }

    /// A real left click at the viewport point (x, y): the mouse pressed and released there.
    pub(crate) fn mouse_click_at(&self, x: f64, y: f64) -> Result<(), String> {
        use headless_chrome::protocol::cdp::Input::{
            DispatchMouseEvent, DispatchMouseEventTypeOption, MouseButton,
        };
        for kind in [
            DispatchMouseEventTypeOption::MousePressed,
            DispatchMouseEventTypeOption::MouseReleased,
        ] {
            let event = DispatchMouseEvent {
                Type: kind,
                x,
                y,
                modifiers: None,
                timestamp: None,
                button: Some(MouseButton::Left),
                buttons: None,
                click_count: Some(1),
                force: None,
                tangential_pressure: None,
                tilt_x: None,
                tilt_y: None,
                twist: None,
                delta_x: None,
                delta_y: None,
                pointer_Type: None,
            };
            self.tab.call_method(event).map_err(|error| error.to_string())?;
        }
        Ok(())
    }

    /// Waits until the JavaScript expression `condition` is true, polling it in the page (one
    /// protocol call, where [`LabPage::wait_until`] makes one per poll); panics with `what`
    /// after [`IN_PAGE_WAIT_MS`].
    pub fn wait_in_page(&self, what: &str, condition: &str) {
        self.wait_for_value(what, &format!("!!({condition})"));
    }

    /// Waits until the JavaScript expression `value` is other than `false`, polling it in the
    /// page (one protocol call), and returns that value; panics with `what` after
    /// [`IN_PAGE_WAIT_MS`]. A probe that waits for a state and reads it at once.
    pub fn wait_for_value(&self, what: &str, value: &str) -> serde_json::Value {
        let answer = self.evaluate(&in_page_poll(value));
        assert_ne!(
            answer,
            serde_json::Value::Bool(false),
            "timed out waiting until {what} ({value})"
        );
        answer
    }

    /// Waits until the JavaScript expression `condition` is true; panics with `what` after
    /// [`WAIT_TIMEOUT`]. The page is polled, never slept on for a fixed time.
    pub fn wait_until(&self, what: &str, condition: &str) {
        self.wait_until_within(what, condition, WAIT_TIMEOUT);
    }

    /// Like [`LabPage::wait_until`], with a longer (or shorter) `timeout`: for work the page
    /// does in slices, such as an exhaustive check.
    pub fn wait_until_within(&self, what: &str, condition: &str, timeout: Duration) {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let value = self
                .tab
                .evaluate(&format!("!!({condition})"), false)
                .ok()
                .and_then(|object| object.value);
            if value == Some(serde_json::Value::Bool(true)) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "timed out waiting until {what} ({condition})"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the text of the first element matching `selector` contains `needle`, and
    /// returns that text.
    pub fn wait_for_text(&self, selector: &str, needle: &str) -> String {
        let condition = format!(
            "(document.querySelector({selector:?})?.innerText ?? '').includes({needle:?})",
            selector = selector,
            needle = needle
        );
        self.wait_until(&format!("{selector} shows {needle:?}"), &condition);
        self.text(selector)
    }

    /// The share link's field, once the page has filled it for the step its position shows
    /// (the page fills it when idle after a step).
    pub fn share_link(&self) -> String {
        self.wait_until("the share link is the step shown", SHARE_LINK_FILLED);
        self.evaluate("document.querySelector('[data-testid=share-link]').value")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether an element matches `selector` now (no waiting).
    pub fn exists(&self, selector: &str) -> bool {
        self.evaluate(&format!("document.querySelector({selector:?}) !== null"))
            == serde_json::Value::Bool(true)
    }

    /// How many elements match `selector` now.
    pub fn count(&self, selector: &str) -> usize {
        self.evaluate(&format!("document.querySelectorAll({selector:?}).length"))
            .as_u64()
            .unwrap_or(0) as usize
    }

    /// The attribute `name` of the first element matching `selector` (waiting for it).
    pub fn attribute(&self, selector: &str, name: &str) -> Option<String> {
        self.tab
            .wait_for_element(selector)
            .unwrap_or_else(|error| panic!("no {selector}: {error}"));
        match self.evaluate(&format!("document.querySelector({selector:?}).getAttribute({name:?})"))
        {
            serde_json::Value::String(value) => Some(value),
            _ => None,
        }
    }

    /// Sets the value of the `<select>` or `<input>` matching `selector` as a user would, firing
    /// `input` and `change`.
    pub fn set_value(&self, selector: &str, value: &str) {
        self.tab
            .wait_for_element(selector)
            .unwrap_or_else(|error| panic!("no {selector}: {error}"));
        self.evaluate(&format!(
            "(() => {{ const element = document.querySelector({selector:?}); element.value = {value:?}; \
             element.dispatchEvent(new InputEvent('input', {{ bubbles: true }})); \
             element.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()"
        ));
    }

    /// Presses a key (such as `"ArrowRight"` or `" "`) on the page's body.
    pub fn press_key(&self, key: &str) {
        self.evaluate("document.activeElement && document.activeElement.blur && document.activeElement.blur(), true");
        self.tab.press_key(key).unwrap_or_else(|error| panic!("press {key}: {error}"));
    }

    /// The page's current address, fragment included, once the page has written it: the page
    /// writes its address when idle after the frame that shows a change (with a task where the
    /// browser has no idle callbacks), so this reads it after two frames and the idle callback
    /// and task that follow them.
    pub fn location(&self) -> String {
        self.evaluate(
            "new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(\
             () => requestIdleCallback(() => setTimeout(() => resolve(window.location.href), 0), \
             { timeout: 2000 }))))",
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// Saves a PNG screenshot of the page as `target/screenshots/<name>.png` and returns the
    /// path.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let png = self
            .tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .expect("capture a screenshot");
        let dir = xtask::workspace_root().join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("create target/screenshots");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write the screenshot");
        path
    }
}

/// How many tests of one process may have a browser open at once: `LAB_BROWSERS`, else 3.
///
/// The browser tests wait for states, but some measure the page (the long link's longest
/// task) and every wait has a deadline: six Chromiums on two cores, beside the checker's tests,
/// made a different test miss its deadline on each full run. Fewer browsers at once cost
/// little time, as the machine's cores were already busy.
fn browser_slots() -> usize {
    std::env::var("LAB_BROWSERS")
        .ok()
        .and_then(|slots| slots.parse().ok())
        .filter(|&slots| slots > 0)
        .unwrap_or(3)
}

/// The number of browser slots in use, and the signal that one was given back.
static SLOTS_IN_USE: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

thread_local! {
    /// How many pages this test thread holds: a test that opens a second page while it holds
    /// one uses the slot it has (claiming two could deadlock tests that each hold one).
    static PAGES_OF_THIS_TEST: Cell<usize> = const { Cell::new(0) };
}

/// One test's claim on a browser slot ([`browser_slots`]), waited for when all are in use.
struct BrowserSlot;

impl BrowserSlot {
    fn claim() -> BrowserSlot {
        if PAGES_OF_THIS_TEST.get() == 0 {
            let (in_use, given_back) = &SLOTS_IN_USE;
            let mut in_use = in_use.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            while *in_use >= browser_slots() {
                in_use = given_back.wait(in_use).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            *in_use += 1;
        }
        PAGES_OF_THIS_TEST.set(PAGES_OF_THIS_TEST.get() + 1);
        BrowserSlot
    }
}

impl Drop for BrowserSlot {
    fn drop(&mut self) {
        PAGES_OF_THIS_TEST.set(PAGES_OF_THIS_TEST.get().saturating_sub(1));
        if PAGES_OF_THIS_TEST.get() == 0 {
            let (in_use, given_back) = &SLOTS_IN_USE;
            let mut in_use = in_use.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *in_use = in_use.saturating_sub(1);
            given_back.notify_one();
        }
    }
}

fn launch_chromium() -> Browser {
    let chromium = xtask::setup::find_chromium().unwrap_or_else(|| {
        panic!("no Chromium found (set LAB_CHROMIUM, or run `cargo xtask test`, which installs it)")
    });
    let args: Vec<&std::ffi::OsStr> = CHROMIUM_ARGS.iter().map(std::ffi::OsStr::new).collect();
    let options = LaunchOptions {
        path: Some(chromium),
        headless: true,
        sandbox: false,
        window_size: Some((1400, 1000)),
        args,
        idle_browser_timeout: Duration::from_secs(120),
        ..LaunchOptions::default()
    };
    Browser::new(options).unwrap_or_else(|error| panic!("launch Chromium: {error}"))
}

fn collect_console_errors(tab: &Arc<Tab>, errors: Arc<Mutex<Vec<String>>>) {
    tab.enable_runtime().expect("enable the Runtime domain");
    tab.enable_log().expect("enable the Log domain");
    let listener = Arc::new(move |event: &Event| {
        let message = match event {
            Event::RuntimeExceptionThrown(thrown) => {
                let details = &thrown.params.exception_details;
                let description = details
                    .exception
                    .as_ref()
                    .and_then(|exception| exception.description.as_deref())
                    .unwrap_or_default();
                Some(format!("uncaught: {} {description}", details.text))
            }
            Event::RuntimeConsoleAPICalled(call)
                if call.params.Type == ConsoleAPICalledEventTypeOption::Error =>
            {
                let args: Vec<String> = call
                    .params
                    .args
                    .iter()
                    .map(|arg| {
                        arg.value
                            .as_ref()
                            .map(|v| v.to_string())
                            .or(arg.description.clone())
                            .unwrap_or_default()
                    })
                    .collect();
                Some(format!("console.error: {}", args.join(" ")))
            }
            Event::LogEntryAdded(entry) if format!("{:?}", entry.params.entry.level) == "Error" => {
                let url = entry.params.entry.url.as_deref().unwrap_or("");
                Some(format!("log: {} {url}", entry.params.entry.text))
            }
            _ => None,
        };
        if let (Some(message), Ok(mut errors)) = (message, errors.lock()) {
            errors.push(message);
        }
    });
    tab.add_event_listener(listener).expect("listen to console events");
}

/// The `file://` URL of the absolute path `path`, every byte outside RFC 3986's unreserved
/// characters and `/` percent-encoded.
pub fn file_url(path: &Path) -> String {
    let path = path.to_str().expect("a UTF-8 path");
    let mut url = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

/// The directory of the page's built files, for tests that read them directly.
pub fn dist_file(name: &str) -> PathBuf {
    Path::new(&dist_dir()).join(name)
}

/// Downloads and uploads: generic primitives over the Chrome DevTools Protocol.
impl LabPage {
    /// Makes the browser save every download into `dir` (which must exist), under the name
    /// the page suggests, without asking.
    pub fn save_downloads_to(&self, dir: &Path) {
        use headless_chrome::protocol::cdp::Browser::{
            SetDownloadBehavior, SetDownloadBehaviorBehaviorOption,
        };
        let path = dir.to_str().expect("a UTF-8 download directory").to_owned();
        self.tab
            .call_method(SetDownloadBehavior {
                behavior: SetDownloadBehaviorBehaviorOption::Allow,
                browser_context_id: None,
                download_path: Some(path),
                events_enabled: None,
            })
            .unwrap_or_else(|error| panic!("set the download directory: {error}"));
    }

    /// Waits until the file `name` has been downloaded completely into `dir` (Chromium writes
    /// a `.crdownload` file first and renames it when done), and returns its bytes.
    pub fn wait_for_download(&self, dir: &Path, name: &str) -> Vec<u8> {
        let path = dir.join(name);
        let deadline = std::time::Instant::now() + WAIT_TIMEOUT;
        loop {
            let in_progress = std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .any(|entry| entry.file_name().to_string_lossy().ends_with(".crdownload"))
                })
                .unwrap_or(false);
            if path.exists() && !in_progress {
                return std::fs::read(&path)
                    .unwrap_or_else(|error| panic!("read {}: {error}", path.display()));
            }
            let present: Vec<String> = std::fs::read_dir(dir)
                .map(|entries| {
                    entries.flatten().map(|e| e.file_name().to_string_lossy().into()).collect()
                })
                .unwrap_or_default();
            assert!(
                std::time::Instant::now() < deadline,
                "timed out waiting for the download {name} (the directory holds {present:?})"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Chooses `files` in the `<input type=file>` matching `selector`, as a user picking them
    /// in the file dialog would (the input fires `input` and `change`).
    pub fn set_input_files(&self, selector: &str, files: &[&Path]) {
        let paths: Vec<&str> =
            files.iter().map(|path| path.to_str().expect("a UTF-8 file path")).collect();
        self.tab
            .wait_for_element(selector)
            .and_then(|element| element.set_input_files(&paths).map(|_| ()))
            .unwrap_or_else(|error| panic!("set the files of {selector}: {error}"));
    }
}

/// A fresh, empty directory `target/browser-tests/<name>` for a test's files (downloads,
/// files to upload); emptied if it exists.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = xtask::workspace_root().join("target/browser-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

impl LabPage {
    /// Like [`LabPage::open`], for a page that takes long to open (a link to a very long run):
    /// waits up to `timeout` for the load and the app to mount, then goes back to
    /// [`WAIT_TIMEOUT`] for everything else.
    pub fn open_waiting(fragment: &str, timeout: Duration) -> LabPage {
        let dist = dist_dir();
        assert!(dist.join("index.html").exists(), "no built page in {}", dist.display());
        let server = xtask::serve::start(&dist, "127.0.0.1:0").expect("serve dist/ on loopback");
        let url = format!("{}/", server.url);
        LabPage::open_url(url, fragment, timeout, Some(server), Landing::FreeLab)
    }

    /// Serves the built `dist/` and opens the page at `path` within it (such as
    /// `examples/embed.html`), waiting until a lab has mounted there.
    pub fn open_path(path: &str) -> LabPage {
        let dist = dist_dir();
        assert!(dist.join(path).exists(), "no {path} in {}", dist.display());
        let server = xtask::serve::start(&dist, "127.0.0.1:0").expect("serve dist/ on loopback");
        let url = format!("{}/{path}", server.url);
        LabPage::open_url(url, "", WAIT_TIMEOUT, Some(server), Landing::AsShown)
    }

    /// Opens a page of `<idempotency-lab>` elements at `path` within `dist/` (such as
    /// `examples/embed.html`), served on loopback or, if `from_disk`, from its `file://` URL
    /// with no server; waits until every element shows its lab in its shadow root.
    pub fn open_embeds(path: &str, from_disk: bool) -> LabPage {
        LabPage::open_embeds_in(&dist_dir(), path, from_disk)
    }

    /// [`LabPage::open_embeds`] for a page at `path` within `dist`, any directory (a bundled
    /// app's).
    pub fn open_embeds_in(dist: &Path, path: &str, from_disk: bool) -> LabPage {
        assert!(dist.join(path).exists(), "no {path} in {}", dist.display());
        let page = match from_disk {
            true => LabPage::open_url(
                file_url(&dist.join(path)),
                "",
                WAIT_TIMEOUT,
                None,
                Landing::Embeds,
            ),
            false => {
                let server =
                    xtask::serve::start(dist, "127.0.0.1:0").expect("serve dist/ on loopback");
                let url = format!("{}/{path}", server.url);
                LabPage::open_url(url, "", WAIT_TIMEOUT, Some(server), Landing::Embeds)
            }
        };
        page.wait_until(
            "every embed shows its lab",
            "[...document.querySelectorAll('idempotency-lab')].every((element) => \
             element.shadowRoot && element.shadowRoot.querySelector('[data-testid=app]') !== null)",
        );
        page
    }

    /// Presses a key (such as `"ArrowRight"`) on whatever has the focus.
    pub fn press_key_on_focus(&self, key: &str) {
        self.tab.press_key(key).unwrap_or_else(|error| panic!("press {key}: {error}"));
    }

    /// Opens the single-file page (`dist/idempotency-lab.html`) from disk, through its
    /// `file://` URL, at `fragment`, with no server: as a learner double-clicking the file.
    pub fn open_file(fragment: &str) -> LabPage {
        let path = dist_file(xtask::page::SINGLE_FILE);
        assert!(path.exists(), "no single-file page at {}", path.display());
        LabPage::open_url(file_url(&path), fragment, WAIT_TIMEOUT, None, Landing::FreeLab)
    }

    /// Opens `url` + `fragment` in a fresh browser and waits up to `timeout` for the app to
    /// mount (and, for [`Landing::FreeLab`], for the free lab if the page lands on the
    /// course).
    fn open_url(
        url: String,
        fragment: &str,
        timeout: Duration,
        server: Option<RunningServer>,
        landing: Landing,
    ) -> LabPage {
        let slot = BrowserSlot::claim();
        let browser = launch_chromium();
        let tab = browser.new_tab().expect("open a tab");
        tab.set_default_timeout(timeout);
        let console_errors = Arc::new(Mutex::new(Vec::new()));
        collect_console_errors(&tab, Arc::clone(&console_errors));
        tab.navigate_to(&format!("{url}{fragment}")).expect("navigate to the page");
        tab.wait_until_navigated().expect("page load");
        let ready = match landing {
            Landing::Embeds => "idempotency-lab",
            Landing::FreeLab | Landing::AsShown => "[data-testid=app]",
        };
        tab.wait_for_element(ready).expect("the app mounts within the timeout");
        tab.set_default_timeout(WAIT_TIMEOUT);
        let page = LabPage {
            tab,
            url,
            console_errors,
            clicks: Cell::new(0),
            _browser: browser,
            _slot: slot,
            _server: server,
        };
        if landing == Landing::FreeLab && page.exists("[data-testid=free-lab]") {
            page.click("[data-testid=free-lab]");
            page.wait_until(
                "the free lab shows",
                "document.querySelector('[data-testid=position]') !== null",
            );
            page.clicks.set(0);
        }
        page
    }

    /// Runs `source` in every document this tab opens from now on, before the page's own
    /// scripts (a probe that records timings, for instance).
    pub fn add_init_script(&self, source: &str) {
        self.tab
            .call_method(headless_chrome::protocol::cdp::Page::AddScriptToEvaluateOnNewDocument {
                source: source.to_owned(),
                world_name: None,
                include_command_line_api: None,
                run_immediately: None,
            })
            .unwrap_or_else(|error| panic!("add an init script: {error}"));
    }

    /// Reloads the page (bypassing the cache when `ignore_cache`, a fresh load) and waits until
    /// the app has mounted again. Local storage survives, as in a real reload.
    pub fn reload(&self, ignore_cache: bool) {
        self.evaluate("window.__labBeforeReload = true");
        self.tab
            .reload(ignore_cache, None)
            .unwrap_or_else(|error| panic!("reload the page: {error}"));
        self.wait_until(
            "the page reloads and the app mounts",
            "window.__labBeforeReload === undefined && document.querySelector('[data-testid=app]') !== null",
        );
    }

    /// The first number in the text of the first element matching `selector` (such as the
    /// step of `step 12 / 40`); panics if there is none.
    pub fn number(&self, selector: &str) -> u64 {
        let text = self.text(selector);
        text.split(|c: char| !c.is_ascii_digit())
            .find(|part| !part.is_empty())
            .and_then(|digits| digits.parse().ok())
            .unwrap_or_else(|| panic!("no number in the text of {selector}: {text:?}"))
    }

    /// The text of every element matching `selector`, in document order.
    pub fn texts(&self, selector: &str) -> Vec<String> {
        let value = self.evaluate(&format!(
            "JSON.stringify(Array.from(document.querySelectorAll({selector:?}), element => element.innerText.trim()))"
        ));
        serde_json::from_str(value.as_str().unwrap_or("[]")).unwrap_or_default()
    }
}

/// Page verbs: what a learner does on the page, in the tests' words, each waiting for the
/// state it leads to (never for a fixed time).
impl LabPage {
    /// Picks the built-in `lesson` in the scenario menu, switches every pattern to `mode` with
    /// "All naive" or "All idempotent", and waits until the page shows it at step 0.
    pub fn open_lesson(&self, lesson: &str, mode: PatternMode) {
        let title = catalogue_scenario(lesson)
            .unwrap_or_else(|error| panic!("no built-in lesson {lesson}: {error}"))
            .title;
        self.set_value("[data-testid=scenario]", lesson);
        self.wait_for_text("[data-testid=scenario-title]", &title);
        let (button, word) = match mode {
            PatternMode::Naive => ("[data-testid=all-naive]", "naive"),
            PatternMode::Idempotent => ("[data-testid=all-idempotent]", "idempotent"),
        };
        self.click(button);
        self.wait_until(
            &format!("P4 is {word}"),
            &format!(
                "document.querySelector('[data-testid=pattern-P4]')?.dataset.mode === {word:?}"
            ),
        );
        self.wait_for_text("[data-testid=position]", "step 0 /");
    }

    /// The step the page shows (the first number of `step N / M`).
    pub fn step_shown(&self) -> usize {
        self.number("[data-testid=position]") as usize
    }

    /// Clicks Step until an element matches `selector`, waiting for each step to show, and
    /// returns the step reached; panics if `steps_max` steps are not enough.
    pub fn step_until(&self, selector: &str, steps_max: usize) -> usize {
        let mut step = self.step_shown();
        let first = step;
        while !self.exists(selector) {
            assert!(step - first < steps_max, "no {selector} within {steps_max} steps");
            step += 1;
            self.click("[data-testid=step]");
            self.wait_for_text("[data-testid=position]", &format!("step {step} /"));
        }
        step
    }

    /// Presses the `fault` button of the pending item matching `item` (or the first `fault`
    /// button anywhere, for `""`), and waits until the page shows the step it made.
    pub fn inject_on(&self, item: &str, fault: FaultClass) {
        let step = self.step_shown();
        self.click(format!("{item} [data-fault={fault}]").trim());
        self.wait_for_text("[data-testid=position]", &format!("step {} /", step + 1));
    }

    /// Clicks "Run to end" and waits until the page shows the end of a run of `steps_total`
    /// steps.
    pub fn run_to_end(&self, steps_total: usize) {
        self.click("[data-testid=run-to-end]");
        self.wait_for_text("[data-testid=current-step]", "run ended");
        self.wait_for_text(
            "[data-testid=position]",
            &format!("step {steps_total} / {steps_total}"),
        );
    }

    /// Expects each invariant's badge to be red exactly when `violations` name it, showing
    /// each violation's sentence, and green otherwise.
    pub fn expect_invariants(&self, violations: &[Violation]) {
        for invariant in InvariantId::ALL {
            let broken = violations.iter().any(|violation| violation.invariant == invariant);
            let state =
                self.attribute(&format!("[data-testid=invariant-{invariant}]"), "data-state");
            assert_eq!(state.as_deref(), Some(if broken { "broken" } else { "ok" }), "{invariant}");
        }
        for violation in violations {
            let text = self.text(&format!("[data-testid=invariant-{}]", violation.invariant));
            let sentence = violation.sentence_in(idempotency_lab::words::Language::En);
            assert!(text.contains(&sentence), "{text:?} lacks {sentence:?}");
        }
    }
}

/// Geometry: the viewport, what is inside it, and how the page overflows it.
impl LabPage {
    /// Makes the page's viewport `width` x `height` CSS pixels, as a desktop window (or, if
    /// `mobile`, as a phone, which honours the page's `<meta name=viewport>`), and waits until
    /// the page's media queries see that size.
    pub fn set_viewport(&self, width: u32, height: u32, mobile: bool) {
        use headless_chrome::protocol::cdp::Emulation::SetDeviceMetricsOverride;
        self.tab
            .call_method(SetDeviceMetricsOverride {
                width,
                height,
                device_scale_factor: 1.0,
                mobile,
                scale: None,
                screen_width: None,
                screen_height: None,
                position_x: None,
                position_y: None,
                dont_set_visible_size: None,
                screen_orientation: None,
                viewport: None,
                display_feature: None,
                device_posture: None,
            })
            .unwrap_or_else(|error| panic!("set the viewport to {width}x{height}: {error}"));
        self.wait_until(
            &format!("the viewport is {width}x{height}"),
            &format!("matchMedia('(width: {width}px) and (height: {height}px)').matches"),
        );
    }

    /// Where the first element matching `selector` is wholly visible: inside the viewport and
    /// inside every scrolling box around it (so not scrolled out of view), with a size.
    /// `Err` says where it is instead (its box, and the box that hides it).
    pub fn in_view(&self, selector: &str) -> Result<(), String> {
        let script = format!(
            r#"(() => {{
  const element = document.querySelector({selector:?});
  if (!element) return "no element matches";
  const box = element.getBoundingClientRect();
  const text = b => `[${{Math.round(b.left)}}, ${{Math.round(b.top)}}, ${{Math.round(b.right)}}, ${{Math.round(b.bottom)}}]`;
  if (box.width <= 0 || box.height <= 0) return `it has no size: ${{text(box)}}`;
  const outside = (b, c) => b.top < c.top - 1 || b.left < c.left - 1 || b.bottom > c.bottom + 1 || b.right > c.right + 1;
  const viewport = {{ left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight }};
  if (outside(box, viewport)) return `${{text(box)}} is outside the viewport ${{text(viewport)}}`;
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {{
    const style = getComputedStyle(parent);
    if (/(auto|scroll|hidden|clip)/.test(style.overflowX + style.overflowY) && outside(box, parent.getBoundingClientRect())) {{
      return `${{text(box)}} is hidden outside its scrolling box ${{parent.className || parent.tagName}} ${{text(parent.getBoundingClientRect())}}`;
    }}
  }}
  return "";
}})()"#
        );
        match self.evaluate(&script) {
            serde_json::Value::String(problem) if problem.is_empty() => Ok(()),
            serde_json::Value::String(problem) => Err(format!("{selector}: {problem}")),
            other => Err(format!("{selector}: the probe returned {other}")),
        }
    }

    /// Waits until the first element matching `selector` is wholly visible ([`LabPage::in_view`]).
    pub fn wait_in_view(&self, selector: &str) {
        let deadline = std::time::Instant::now() + WAIT_TIMEOUT;
        loop {
            match self.in_view(selector) {
                Ok(()) => return,
                Err(problem) => {
                    assert!(std::time::Instant::now() < deadline, "not in view: {problem}")
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// How far the page is wider and taller than its viewport, in CSS pixels (0 when it fits):
    /// `scrollWidth - clientWidth` and `scrollHeight - clientHeight` of the document.
    pub fn overflow(&self) -> (i64, i64) {
        let value = self.evaluate(
            "(() => { const root = document.scrollingElement; \
             return JSON.stringify([root.scrollWidth - root.clientWidth, root.scrollHeight - root.clientHeight]); })()",
        );
        serde_json::from_str::<(i64, i64)>(value.as_str().unwrap_or("[0,0]"))
            .map(|(wide, tall)| (wide.max(0), tall.max(0)))
            .unwrap_or((0, 0))
    }

    /// The smallest size, in CSS pixels on screen, of the text of the elements matching
    /// `selector` (an SVG text's font size times the drawing's scale); `None` if none matches.
    pub fn smallest_text_px(&self, selector: &str) -> Option<f64> {
        let script = format!(
            "(() => {{ const sizes = Array.from(document.querySelectorAll({selector:?}), element => {{ \
               const size = parseFloat(getComputedStyle(element).fontSize); \
               const matrix = element.getScreenCTM ? element.getScreenCTM() : null; \
               return matrix ? size * Math.hypot(matrix.a, matrix.b) : size; }}); \
             return sizes.length ? Math.min(...sizes) : null; }})()"
        );
        self.evaluate(&script).as_f64()
    }
}

/// The keyboard alone: Tab through the page's controls, press keys on the one focused.
impl LabPage {
    /// Presses `key` (such as `"Enter"` or `"Tab"`) on whatever has focus now.
    pub fn press_on_focus(&self, key: &str) {
        self.tab.press_key(key).unwrap_or_else(|error| panic!("press {key}: {error}"));
    }

    /// Presses Tab until the focused element matches `selector` (at most `tabs_max` times),
    /// checking at every stop that the focus is visible (an outline of 2 px or more).
    pub fn tab_to(&self, selector: &str, tabs_max: usize) {
        for _ in 0..tabs_max {
            self.press_on_focus("Tab");
            let stop = self.evaluate(&format!(
                "(() => {{ const element = document.activeElement; if (!element || element === document.body) return ''; \
                 const style = getComputedStyle(element); \
                 const visible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2; \
                 const name = element.dataset.testid || element.getAttribute('aria-label') || element.tagName; \
                 return JSON.stringify([element.matches({selector:?}), visible, name]); }})()"
            ));
            let Some(text) = stop.as_str().filter(|text| !text.is_empty()) else { continue };
            let (matched, visible, name): (bool, bool, String) =
                serde_json::from_str(text).expect("the focus probe's JSON");
            assert!(visible, "the focus on {name} is not visible");
            if matched {
                return;
            }
        }
        panic!("{selector} is not reached within {tabs_max} presses of Tab");
    }
}

impl LabPage {
    /// Runs axe-core ([`crate::axe`]) on the page against WCAG 2 A and AA and returns each
    /// violation as `rule: how many nodes (the first nodes' selectors)`; empty when none.
    pub fn axe_violations(&self) -> Vec<String> {
        if self.evaluate("typeof window.axe") != "object" {
            self.evaluate(&format!("{}; true", crate::axe::axe_source()));
        }
        let value = self.evaluate(
            "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }).then(result => \
             JSON.stringify(result.violations.map(violation => `${violation.id}: ${violation.nodes.length} (${violation.nodes.slice(0, 3).map(node => node.target.join(' ')).join('; ')})`)))",
        );
        serde_json::from_str(value.as_str().unwrap_or("[\"axe returned nothing\"]"))
            .unwrap_or_else(|error| vec![format!("axe's answer does not read: {error}")])
    }
}
