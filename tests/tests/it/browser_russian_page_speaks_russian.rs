//! With RU chosen, the page speaks Russian: the free lab with every panel open (a run with a
//! fault, Compare, Check & fuzz run once, the presenter view, the step list on a phone) and
//! every lesson of the course at its first, middle and last step are read as a user sees them
//! (the words of the visible text, and every aria-label), and at most
//! [`ENGLISH_BASIS_POINTS_MAX`] of those words (the goal: 1%) may be English outside [`ALLOWED`]: the SQL, the tables and their columns, ids, the article's names
//! (Idempotency-Key, MarkPaid, Inbox, OrderPlaced) and the lab's own (F1-F12, I1-I7, P1-P4).
//! The figure, and the English words found most often, are printed.

use std::collections::BTreeMap;

use idempotency_lab::course::Course;
use idempotency_lab::faults::FaultClass;
use idempotency_lab::store::TableName;
use idempotency_lab::view::Language;
use idempotency_lab_tests::browser::LabPage;

/// The most English a Russian page may show, in hundredths of a percent of its words: issue
/// #32's 1%. The page shows 0.28% in the free lab and 0.16% over the course (what is left: the
/// `ACK` and `Relay` of statements, names in the lessons' code samples).
const ENGLISH_BASIS_POINTS_MAX: usize = 100;

/// English words that are names, not text: SQL, HTTP, the article's and the lab's names, and
/// the values the tables hold (skus, statuses). Table and column names are added from the core.
const ALLOWED: &[&str] = &[
    // SQL.
    "SELECT",
    "INSERT",
    "INTO",
    "UPDATE",
    "DELETE",
    "SET",
    "WHERE",
    "VALUES",
    "ON",
    "CONFLICT",
    "DO",
    "NOTHING",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "AND",
    "OR",
    "NOT",
    "NULL",
    "RETURNING",
    "FOR",
    "FROM",
    "IS",
    "IN",
    "LIMIT",
    "ORDER",
    "BY",
    "NOW",
    "SQL",
    "TRUE",
    "FALSE",
    "SKIP",
    "LOCKED",
    "NOWAIT",
    "COUNT",
    "AS",
    // HTTP and formats.
    "POST",
    "GET",
    "PUT",
    "HTTP",
    "API",
    "JSON",
    "Mermaid",
    "orders",
    "payments",
    "cancel",
    // The article's and the lab's names.
    "Idempotency-Key",
    "Idempotency",
    "Key",
    "MarkPaid",
    "Inbox",
    "inbox",
    "Outbox",
    "outbox",
    "OrderPlaced",
    "Lab",
    "sku",
    "seed",
    "Seed",
    "reserve-stock",
    "A",
    "B",
    "C",
    "D",
    "x",
    // The language switch's own buttons.
    "EN",
    "RU",
    // The keys of a stored HTTP answer (`idempotency_keys.response`), as JSON.
    "type",
    "application",
    "body",
    "content-type",
    "headers",
    "json",
    "location",
    "response",
    "status",
    // Values of the tables' rows.
    "apple",
    "apples",
    "pear",
    "pears",
    "plum",
    "placed",
    "paid",
    "shipped",
    "cancelled",
    "completed",
    "in_progress",
    "true",
    "false",
    "null",
];

/// The page's visible words and aria-labels, as a list of words.
const READ_WORDS: &str = r#"(() => {
    const words = [];
    const add = (text) => {
        for (const word of text.match(/[\p{L}\p{N}][\p{L}\p{N}_'’.\-]*/gu) || []) {
            words.push(word.replace(/[.\-']+$/u, ''));
        }
    };
    const visible = (element) => {
        for (let e = element; e; e = e.parentElement) {
            const style = getComputedStyle(e);
            if (style.display === 'none' || style.visibility === 'hidden') return false;
        }
        return element.getClientRects().length > 0;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
        if (parent.closest('option') && !parent.closest('select')) continue;
        if (visible(parent)) add(node.textContent);
    }
    for (const element of document.querySelectorAll('[aria-label]')) {
        add(element.getAttribute('aria-label'));
    }
    return JSON.stringify(words);
})()"#;

/// What the walk counted: words, and the English ones by word.
#[derive(Default)]
struct Tally {
    words: usize,
    english: BTreeMap<String, usize>,
}

impl Tally {
    fn english_total(&self) -> usize {
        self.english.values().sum()
    }

    /// Reads the page's words where it is now.
    fn read(&mut self, page: &LabPage, allowed: &[String]) {
        let json = page.evaluate(READ_WORDS);
        let words: Vec<String> =
            serde_json::from_str(json.as_str().unwrap_or_default()).expect("a list of words");
        for word in &words {
            if !word.chars().any(char::is_alphabetic) {
                continue;
            }
            self.words += 1;
            if is_english(word, allowed) {
                *self.english.entry(word.to_owned()).or_insert(0) += 1;
            }
        }
    }
}

/// A word of Latin letters that is no name of [`ALLOWED`], no id (a UUID's part, a word with
/// digits: `f01`, `5xx`, `I2`) and not a table's or column's name.
fn is_english(word: &str, allowed: &[String]) -> bool {
    if !word.chars().any(|c| c.is_ascii_alphabetic()) || word.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    if word.chars().all(|c| c.is_ascii_hexdigit()) && word.len() >= 4 {
        return false;
    }
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
    !allowed.iter().any(|name| name == word || name == bare)
        && !bare.split(['.', '_']).all(|part| allowed.iter().any(|name| name == part))
}

fn allowed_words() -> Vec<String> {
    let mut allowed: Vec<String> = ALLOWED.iter().map(|word| (*word).to_owned()).collect();
    for table in TableName::ALL {
        allowed.push(table.as_str().to_owned());
        allowed.extend(table.columns().iter().map(|column| (*column).to_owned()));
    }
    allowed
}

/// The free lab in Russian with every panel opened once.
fn walk_the_free_lab(tally: &mut Tally, allowed: &[String]) {
    let page = LabPage::open("");
    page.set_viewport(1280, 720, false);
    page.click("[data-testid=lang-ru]");
    page.wait_until("the page is Russian", "document.documentElement.lang === 'ru'");
    let position = Language::Ru.words().labels.ui_position;
    page.wait_for_text("[data-testid=position]", &format!("{position} 0 /"));
    tally.read(&page, allowed);
    for _ in 0..6 {
        page.click("[data-testid=step]");
    }
    page.wait_for_text("[data-testid=position]", &format!("{position} 6 /"));
    tally.read(&page, allowed);
    if page.exists(&format!("[data-fault={}]", FaultClass::F1)) {
        page.click(&format!("[data-fault={}]", FaultClass::F1));
    }
    page.click("[data-testid=run-to-end]");
    page.wait_until(
        "the run ended",
        "(() => { const p = document.querySelector('[data-testid=position]').innerText.match(/(\\d+) \\/ (\\d+)/); return p && p[1] === p[2] && p[1] !== '0'; })()",
    );
    tally.read(&page, allowed);
    page.screenshot("ru-free-lab-1280x720");
    page.click("[data-testid=compare-toggle]");
    page.wait_in_page("the comparison", "document.querySelector('[data-testid=compare]') !== null");
    tally.read(&page, allowed);
    page.click("[data-testid=compare-toggle]");
    page.click("[data-testid=check-toggle]");
    page.wait_in_page(
        "the check panel",
        "document.querySelector('[data-testid=check-run]') !== null",
    );
    tally.read(&page, allowed);
    let idle = "!document.querySelector('[data-testid=check-run]').disabled";
    page.click("[data-testid=check-run]");
    page.wait_until_within(
        "the check's verdict",
        &format!("{idle} && document.querySelector('[data-testid=check-summary]') !== null"),
        std::time::Duration::from_secs(120),
    );
    tally.read(&page, allowed);
    let checked = page.text("[data-testid=check-summary]");
    page.click("[data-testid=fuzz-run]");
    page.wait_until_within(
        "the fuzzer's verdict",
        &format!(
            "{idle} && document.querySelector('[data-testid=check-summary]')?.innerText !== {checked:?}"
        ),
        std::time::Duration::from_secs(180),
    );
    tally.read(&page, allowed);
    page.click("[data-testid=check-toggle]");
    page.click("[data-testid=presenter-toggle]");
    page.wait_in_page("the presenter view", "document.querySelector('.presenter') !== null");
    tally.read(&page, allowed);
    page.screenshot("ru-free-lab-presenter-1280x720");
    page.click("[data-testid=presenter-toggle]");
    page.set_viewport(390, 844, true);
    page.wait_in_page(
        "the step list",
        "document.querySelector('.step-list, [data-testid=step-list]') !== null",
    );
    tally.read(&page, allowed);
    page.screenshot("ru-free-lab-390x844");
}

/// Every lesson in Russian at its first, middle and last step.
fn walk_the_course(tally: &mut Tally, allowed: &[String]) {
    let course = Course::built_in().expect("the built-in course");
    let page = LabPage::open_course("");
    page.set_viewport(1280, 720, false);
    page.click("[data-testid=lang-ru]");
    page.wait_until("the page is Russian", "document.documentElement.lang === 'ru'");
    page.wait_in_page("the course", "document.querySelector('[data-testid=course]') !== null");
    tally.read(&page, allowed);
    for lesson in &course.lessons {
        let last = lesson.steps.len() - 1;
        for at in [0, last / 2, last] {
            page.evaluate(&format!("location.hash = '#lesson={}&at={at}'", lesson.id));
            page.wait_in_page(
                "the lesson at its step",
                &format!(
                    "document.querySelector('[data-testid=lesson-panel][data-lesson={}]')?.dataset.courseStep === '{at}'",
                    lesson.id
                ),
            );
            if page.exists("[data-testid=course-go-there]") {
                page.click("[data-testid=course-go-there]");
            }
            tally.read(&page, allowed);
        }
        if lesson.id == "inbox" {
            page.screenshot("ru-lesson-inbox-1280x720");
            page.set_viewport(390, 844, true);
            tally.read(&page, allowed);
            page.screenshot("ru-lesson-inbox-390x844");
            page.set_viewport(1280, 720, false);
        }
    }
}

#[test]
fn at_most_one_percent_of_the_russian_pages_words_are_english() {
    let allowed = allowed_words();
    let mut lab = Tally::default();
    walk_the_free_lab(&mut lab, &allowed);
    let mut course = Tally::default();
    walk_the_course(&mut course, &allowed);
    let mut report = String::new();
    for (name, tally) in [("free lab", &lab), ("course", &course)] {
        let mut common: Vec<(&String, &usize)> = tally.english.iter().collect();
        common.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let english = tally.english_total();
        report.push_str(&format!(
            "{name}: {english} of {} words English ({:.2}%); most often: {:?}\n",
            tally.words,
            100.0 * english as f64 / tally.words.max(1) as f64,
            common.iter().take(40).collect::<Vec<_>>()
        ));
    }
    eprintln!("{report}");
    for tally in [&lab, &course] {
        assert!(tally.words > 1000, "too few words read: {report}");
        assert!(
            tally.english_total() * 10_000 <= tally.words * ENGLISH_BASIS_POINTS_MAX,
            "too much English on the Russian page:\n{report}"
        );
    }
}
