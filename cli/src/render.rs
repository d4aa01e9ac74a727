//! What the commands print, as plain strings: the catalogue, a lesson's explanation, a trace
//! one line per step, and the invariant report. Pure functions of the core's values, so the
//! integration tests can snapshot the exact text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use idempotency_lab::faults::FaultClass;
use idempotency_lab::invariants::InvariantId;
use idempotency_lab::sim::{
    Actor, Pattern, Scenario, SimEvent, Trace, TraceDifference, TraceStep, describe_event,
    describe_row_changes,
};
use idempotency_lab::view::{LessonText, lesson_text, stop_sentence};
use idempotency_lab::words::{Language, fill};

/// The width descriptions are wrapped to.
const WRAP_COLUMNS: usize = 88;

/// The catalogue: one line per built-in lesson, its id then its title.
pub fn catalogue_list(lessons: &[LessonText]) -> String {
    let width = lessons.iter().map(|lesson| lesson.id.len()).max().unwrap_or(0);
    let mut text = String::new();
    for lesson in lessons {
        let _ = writeln!(text, "{:<width$}  {}", lesson.id, lesson.title);
    }
    text
}

/// What a run of one mode showed, for `explain`.
pub struct ModeOutcome {
    /// `naive` or `idempotent`.
    pub mode_name: &'static str,
    /// The seed run.
    pub seed: u64,
    /// The invariants the run violated at some step.
    pub violated: Vec<InvariantId>,
}

/// A lesson (`source_name` is the built-in id or the file it came from): id, title, the
/// learner's paragraph, the patterns and faults it shows, and what each mode violated, in
/// `language` (a scenario that is not a built-in lesson keeps its own title and paragraph).
pub fn explanation(
    scenario: &Scenario,
    source_name: &str,
    outcomes: &[ModeOutcome],
    language: Language,
) -> String {
    let words = language.words();
    let lesson = lesson_text(scenario, language);
    let mut text = String::new();
    let _ = writeln!(text, "{}", scenario.id);
    let _ = writeln!(text, "{}", lesson.title);
    let _ = writeln!(text);
    for line in wrap(&lesson.description, WRAP_COLUMNS) {
        let _ = writeln!(text, "{line}");
    }
    let _ = writeln!(text);
    let _ = writeln!(text, "{}", words.glossary.explain_patterns);
    for &pattern in scenario.focus_patterns() {
        let _ = writeln!(text, "  {pattern:?}  {}", pattern_title(pattern, language));
    }
    let _ = writeln!(text, "{}", words.glossary.explain_faults);
    let mut injected: BTreeMap<FaultClass, usize> = BTreeMap::new();
    for injection in &scenario.injections {
        *injected.entry(injection.fault_class()).or_insert(0) += 1;
    }
    if injected.is_empty() && scenario.fault_rates.is_none() {
        let _ = writeln!(text, "  {}", words.glossary.explain_none);
    }
    for (class, count) in &injected {
        let times = if *count == 1 { String::new() } else { format!(" x{count}") };
        let _ = writeln!(
            text,
            "  {:<3}  {}{times}: {}",
            class.to_string(),
            words.glossary.explain_injected,
            class.description_in(language)
        );
    }
    for (class, per_million) in &scenario.fault_rates.0 {
        if *per_million > 0 {
            let _ = writeln!(
                text,
                "  {:<3}  {}: {}",
                class.to_string(),
                fill(words.glossary.explain_at_random, &[("per_million", per_million)]),
                class.description_in(language)
            );
        }
    }
    let seed = outcomes.first().map_or(0, |outcome| outcome.seed);
    let _ = writeln!(text, "{}", fill(words.glossary.explain_expected, &[("seed", &seed)]));
    for outcome in outcomes {
        let violated = if outcome.violated.is_empty() {
            words.glossary.explain_none.to_owned()
        } else {
            outcome
                .violated
                .iter()
                .map(|invariant| format!("{invariant} {}", invariant.title_in(language)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(text, "  {:<10}  {violated}", outcome.mode_name);
    }
    let _ = writeln!(
        text,
        "{} idempotency-lab run {source_name} --mode naive",
        words.glossary.explain_see_it
    );
    text
}

fn pattern_title(pattern: Pattern, language: Language) -> &'static str {
    let words = language.words();
    match pattern {
        Pattern::P1 => words.glossary.p1_title,
        Pattern::P2 => words.glossary.p2_title,
        Pattern::P3 => words.glossary.p3_title,
        Pattern::P4 => words.glossary.p4_title,
    }
}

/// The head of a run: title, scenario, patterns, seed.
pub fn run_header(trace: &Trace, source_name: &str, mode_name: &str, language: Language) -> String {
    let patterns = trace.scenario.patterns;
    let mode = |mode| {
        serde_json::to_value(mode)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    let patterns = format!(
        "P1 {}, P2 {}, P3 {}, P4 {}",
        mode(patterns.p1_stock),
        mode(patterns.p2_order),
        mode(patterns.p3_api),
        mode(patterns.p4_inbox),
    );
    let head = fill(
        language.words().report.run_header,
        &[
            ("source", &source_name),
            ("mode", &mode_name),
            ("patterns", &patterns),
            ("seed", &trace.seed),
        ],
    );
    format!(
        "{}\n{head}\n\n{:>4}  {:<5}  {:<12}  statement or action => events  [rows changed]  !! new violations\n",
        trace.scenario.title, "step", "tick", "actor",
    )
}

/// One line per step.
pub fn trace_lines(trace: &Trace) -> String {
    let mut text = String::new();
    for step in &trace.steps {
        let _ = writeln!(text, "{}", step_line(step));
    }
    text
}

/// `step tick actor statement-or-action => events [rows] !! violations`.
pub fn step_line(step: &TraceStep) -> String {
    let mut line =
        format!("{:>4}  t{:<4}  {:<12}  ", step.step, step.tick.0, actor_name(step.actor));
    match &step.statement {
        Some(statement) => line.push_str(statement),
        None => line.push_str(&compact_action(step)),
    }
    if !step.events.is_empty() {
        let events: Vec<String> = step.events.iter().map(compact_event).collect();
        let _ = write!(line, " => {}", events.join("; "));
    }
    if !step.row_changes.is_empty() {
        let _ = write!(line, "  [{}]", describe_row_changes(&step.row_changes));
    }
    if !step.new_violations.is_empty() {
        let mut invariants: Vec<InvariantId> =
            step.new_violations.iter().map(|violation| violation.invariant).collect();
        invariants.dedup();
        let names: Vec<String> = invariants.iter().map(ToString::to_string).collect();
        let _ = write!(line, "  !! {}", names.join(" "));
    }
    line
}

/// The actor with its id: `Client 0`, `API #2`, `Consumer A`, `Broker`.
fn actor_name(actor: Actor) -> String {
    match actor {
        Actor::Client { request } => format!("Client {}", request.0),
        Actor::Api { attempt } => format!("API #{}", attempt.0),
        other => other.lane_name(),
    }
}

/// The action as `tag key=value ...`: `broker_deliver entry=0 instance=1 (fault F1)`.
fn compact_action(step: &TraceStep) -> String {
    let mut text = tagged(&serde_json::to_value(&step.action).unwrap_or_default(), "action");
    if let Some(class) = step.fault {
        let _ = write!(text, " (fault {class})");
    }
    text
}

/// An event as `tag key=value ...`, or in the core's words where it has some.
fn compact_event(event: &SimEvent) -> String {
    match event {
        SimEvent::Answered { .. } => describe_event(event),
        other => tagged(&serde_json::to_value(other).unwrap_or_default(), "type"),
    }
}

/// A serde-tagged enum value as its tag then its other fields, `key=value` with the value as
/// compact JSON.
fn tagged(value: &serde_json::Value, tag_key: &str) -> String {
    let Some(object) = value.as_object() else {
        return value.to_string();
    };
    let mut text = object.get(tag_key).and_then(|tag| tag.as_str()).unwrap_or("?").to_owned();
    for (key, field) in object {
        if key != tag_key {
            let _ = write!(text, " {key}={field}");
        }
    }
    text
}

/// How the run stopped, and each invariant it violated: the step that first broke it and the
/// sentence of that first violation, in `language`.
pub fn invariant_report(trace: &Trace, language: Language) -> String {
    let words = language.words();
    let mut text = String::new();
    let stopped = fill(
        words.report.report_stopped,
        &[
            ("reason", &stop_sentence(&trace.stop, language)),
            ("steps", &language.count(&words.counts.steps, trace.summary.steps)),
            ("tick", &trace.summary.final_tick.0),
        ],
    );
    let _ = writeln!(text, "\n{stopped}");
    if !trace.summary.faults.is_empty() {
        let faults: Vec<String> =
            trace.summary.faults.iter().map(|(class, count)| format!("{class} x{count}")).collect();
        let _ = writeln!(
            text,
            "{}",
            fill(words.report.report_faults, &[("faults", &faults.join(", "))])
        );
    }
    for line in idempotency_lab::view::dead_letter_sentences(&trace.steps, language) {
        let _ = writeln!(text, "{line}");
    }
    if let Some(limit) = &trace.limit_reached {
        let _ =
            writeln!(text, "{}", idempotency_lab::view::limit_reached_sentence(limit, language));
    }
    let violated = trace.invariants_ever_violated();
    if violated.is_empty() {
        let _ = writeln!(text, "{}", words.report.report_all_held);
        return text;
    }
    let _ = writeln!(text, "{}", fill(words.report.report_violated, &[("count", &violated.len())]));
    for (invariant, first_step) in &trace.summary.first_violation_step {
        let sentence = trace
            .steps
            .iter()
            .find(|step| step.step == *first_step)
            .and_then(|step| {
                step.new_violations.iter().find(|violation| violation.invariant == *invariant)
            })
            .map_or_else(
                || words.report.report_no_sentence.to_owned(),
                |violation| violation.sentence_in(language),
            );
        let still = if trace.summary.violated_at_end.contains(invariant) {
            words.report.report_still
        } else {
            words.report.report_held_again
        };
        let first_broken = fill(
            words.report.report_first_broken,
            &[
                ("invariant", invariant),
                ("title", &invariant.title_in(language)),
                ("step", first_step),
                ("still", &still),
            ],
        );
        let _ = writeln!(text, "  {first_broken}");
        for line in wrap(&sentence, WRAP_COLUMNS - 6) {
            let _ = writeln!(text, "      {line}");
        }
    }
    text
}

/// Greedy word wrap; a word longer than the width gets a line of its own.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The most characters of a step's line that a message quotes: a statement in a trace may be
/// megabytes long, and a message is read on a terminal.
const QUOTED_CHARS_MAX: usize = 400;

/// `line`, cut to [`QUOTED_CHARS_MAX`] characters, with how many more there were (`… [+N]`).
fn quoted_short(line: &str) -> String {
    match line.char_indices().nth(QUOTED_CHARS_MAX) {
        Some((cut, _)) => {
            let more = line[cut..].chars().count();
            format!("{}… [+{more}]", &line[..cut])
        }
        None => line.to_owned(),
    }
}

/// Where a trace departs from its replay (the core's `first_difference`), in words: the first
/// differing step, both sides quoted short. `replay` and `lesson --check` both say it so.
pub fn trace_difference(difference: &TraceDifference) -> String {
    let side = |step: &Option<Box<TraceStep>>, other_ends: &str| match step {
        Some(step) => quoted_short(&step_line(step)),
        None => other_ends.to_owned(),
    };
    match difference {
        TraceDifference::Step { step, recorded, replayed } => format!(
            "step {step} differs\n  recorded: {}\n  replayed: {}",
            side(recorded, "(none: the trace ends before this step)"),
            side(replayed, "(none: the run ends before this step)"),
        ),
        TraceDifference::Stop { .. } | TraceDifference::Summary => difference.to_string(),
    }
}
