//! Long runs at constant cost: the longest run the bounds accept
//! (`sim::bounds::longest_run_scenario`, 20,000 steps of a world that grows to its largest), run
//! through every path a long run takes, with the peak heap and the time of each.
//!
//! - `run`: read once, no snapshots (the CLI's `run`, the fuzzer), a step at a time, with its
//!   slowest step;
//! - `slowest step, least of 3`: every step of the read-once run timed in three runs, its least
//!   time kept (what the step costs, without a busy machine's pauses), the steps over 1 ms
//!   counted and the five slowest named;
//! - `rewindable slowest, least 3`: the same for the page's run, whose steps also keep
//!   snapshots;
//! - `rewindable`: the page's run (`view::IndexedRun`: `Simulation::new` + `step`, snapshots
//!   kept, each step indexed), with its slowest step and its cost a step at 1K, 5K, 10K and 20K
//!   steps (the growth curve);
//! - `run index`: the index alone (`view::RunIndex`) built over the whole run at once, what
//!   the rewindable run's steps pay for it between them;
//! - `world_after`: rewinding the rewindable run to 64 steps spread over it (a slider jump);
//! - `screen`: the screen model (`view::Screen::at`, with the run's index) at each of those 64
//!   steps, what the page asks of the core to draw the step it jumped to;
//! - `replay`: the CLI's `replay` of the run's trace JSON (parse, replay, print again);
//! - `sql`: the CLI's `sql` (the run as psql scripts);
//! - `link`: a share link of the run at its last step, decoded and opened; and the same with
//!   three choices whose targets never exist (each looked for over the whole run).
//!
//! The heap is counted by this binary's global allocator (`peakmem-alloc`: the most bytes held
//! at once during a phase, above what was held when it began), so the figures are exact and
//! independent of the allocator's caching; the process's peak
//! resident set (`VmHWM`, Linux) is printed at the end. The bench fails if a phase's peak heap
//! is over the budget the README's Bounds section states (256 MiB).
//!
//! Run: `cargo bench -p idempotency-lab --bench long_run` (add `-- --seed N` for another seed).

use std::alloc::System;
use std::time::{Duration, Instant};

use idempotency_lab::sim::bounds::longest_run_scenario;
use idempotency_lab::sim::{AnchoredAction, RequestIndex, Run, Simulation, Trace, UserChoice};
use idempotency_lab::view::{IndexedRun, Language, RunIndex, Screen, ScreenInput, ShareLink};
use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};

#[global_allocator]
static ALLOCATOR: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The most heap a phase may add to what the process held when it began.
const HEAP_BUDGET_BYTES: usize = 256 << 20;

fn reset_peak() {
    ALLOCATOR.reset_peak_memory();
}

/// The most heap held at once since [`reset_peak`], above what was held then.
fn peak() -> usize {
    ALLOCATOR.get_peak_memory()
}

fn mb(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn ms(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

/// One phase's figures.
struct Phase {
    name: &'static str,
    took: Duration,
    peak_heap_bytes: usize,
    detail: String,
}

fn measure(name: &'static str, work: impl FnOnce() -> String) -> Phase {
    reset_peak();
    let started = Instant::now();
    let detail = work();
    let took = started.elapsed();
    Phase { name, took, peak_heap_bytes: peak(), detail }
}

/// The steps' mean cost around each of `marks` (the 200 steps before it), each step taken by
/// `step` (its number, or `None` once the run has stopped).
fn step_costs(
    mut step: impl FnMut() -> Option<usize>,
    marks: &[usize],
) -> (Duration, Vec<(usize, f64)>) {
    let mut slowest = Duration::ZERO;
    let mut window = Duration::ZERO;
    let mut curve = Vec::new();
    loop {
        let before = Instant::now();
        let Some(step) = step() else { break };
        let took = before.elapsed();
        slowest = slowest.max(took);
        if marks.iter().any(|mark| step + 200 > *mark && step <= *mark) {
            window += took;
        }
        if marks.contains(&step) {
            curve.push((step, window.as_secs_f64() * 1e6 / 200.0));
            window = Duration::ZERO;
        }
    }
    (slowest, curve)
}

fn main() {
    let seed = std::env::args()
        .skip_while(|arg| arg != "--seed")
        .nth(1)
        .map_or(1, |seed| seed.parse().expect("--seed takes a number"));
    let scenario = longest_run_scenario().expect("the bounds accept their longest run");
    println!(
        "longest accepted run: {} bytes of scenario JSON, seed {seed}, steps_max {}",
        scenario.to_json().len(),
        scenario.limits.steps_max
    );
    let marks = [1_000, 5_000, 10_000, 20_000];
    let mut phases = Vec::new();
    let mut trace: Option<Trace> = None;

    phases.push(measure("run (read once)", || {
        let mut simulation = Simulation::without_snapshots(scenario.clone(), seed).unwrap();
        let (slowest, curve) = step_costs(|| simulation.step().map(|step| step.step), &marks);
        let steps = simulation.steps().len();
        trace = Some(simulation.into_trace());
        format!("{steps} steps, slowest step {}, us/step {}", ms(slowest), curve_text(&curve))
    }));
    phases.push(measure("slowest step, least of 3", || {
        slowest_steps(|| Simulation::without_snapshots(scenario.clone(), seed).unwrap())
    }));
    phases.push(measure("rewindable slowest, least 3", || {
        slowest_steps(|| Simulation::new(scenario.clone(), seed).unwrap())
    }));
    let trace = trace.expect("the run ran");
    let trace_json = trace.to_json();
    let run = Run { scenario: scenario.clone(), seed, choices: Vec::new() };
    let steps = trace.steps.len();
    drop(trace);

    let mut rewindable: Option<IndexedRun> = None;
    phases.push(measure("rewindable (the page's run)", || {
        let mut simulation = IndexedRun::new(Simulation::new(scenario.clone(), seed).unwrap());
        let (slowest, curve) = step_costs(|| simulation.step().map(|step| step.step), &marks);
        let (snapshots, interval) = simulation.snapshots_kept();
        rewindable = Some(simulation);
        format!(
            "slowest step {}, us/step {}, {snapshots} snapshots {interval} steps apart",
            ms(slowest),
            curve_text(&curve)
        )
    }));
    let simulation = rewindable.expect("the run ran");
    phases.push(measure("a copy of the last world", || {
        let world = simulation.world().clone();
        drop(world);
        "its peak heap is the world's size".to_owned()
    }));
    phases.push(measure("a step past a shared run's end", || {
        // What the page does when the learner steps on from the last step of a long run: its
        // states share the run, so the step first makes it its own (`Rc::make_mut`).
        let before = Instant::now();
        let mut own = simulation.clone();
        let stepped = own.step().is_some();
        let took = before.elapsed();
        drop(own);
        format!("the copy and the step {} (a step taken: {stepped})", ms(took))
    }));
    phases.push(measure("run index (whole run)", || {
        let before = Instant::now();
        let mut index = RunIndex::default();
        index.extend(simulation.steps());
        let took = before.elapsed();
        let shown = index.steps_indexed();
        format!(
            "{shown} steps indexed in {} ({:.3} us/step): {} moments, {} invariants broken, {} \
             dead letters",
            ms(took),
            took.as_secs_f64() * 1e6 / shown.max(1) as f64,
            index.moments_drawn(shown, 0).count(),
            index.breaking_steps(shown).len(),
            index.dead_letter_sentences(shown, Language::En).len()
        )
    }));
    phases.push(measure("world_after (64 jumps)", || {
        let mut slowest = Duration::ZERO;
        let mut total = Duration::ZERO;
        for step in jumps(steps) {
            let before = Instant::now();
            let world = simulation.world_after(step).expect("within the run");
            let took = before.elapsed();
            drop(world);
            slowest = slowest.max(took);
            total += took;
        }
        format!("mean {}, slowest {}", ms(total / 64), ms(slowest))
    }));
    phases.push(measure("screen (64 jumps)", || {
        // What the page asks of the core to draw a step it jumped to: the screen model at it
        // (the window of steps, what waits, the invariants, where each broke).
        let mut slowest = Duration::ZERO;
        let mut total = Duration::ZERO;
        for step in jumps(steps) {
            let world = simulation.world_after(step).expect("within the run");
            let before = Instant::now();
            let screen = Screen::at(&ScreenInput {
                run: &simulation,
                cursor: step,
                world: &world,
                stop: None,
                revealed: 0,
                waits: false,
                language: Language::En,
            });
            let took = before.elapsed();
            drop(screen);
            slowest = slowest.max(took);
            total += took;
        }
        format!("mean {}, slowest {}", ms(total / 64), ms(slowest))
    }));
    drop(simulation);

    phases.push(measure("replay (CLI)", || {
        let recorded = Trace::from_json(&trace_json).expect("a trace reads back");
        let replayed = Simulation::replay(&recorded).expect("it replays");
        let same = replayed.to_json() == trace_json;
        format!("trace JSON {}, reproduces: {same}", mb(trace_json.len()))
    }));

    phases.push(measure("sql (CLI)", || {
        let simulation = Simulation::without_snapshots(scenario.clone(), seed).unwrap();
        let scripts = idempotency_lab::view::psql_scripts(simulation);
        format!("{} sessions", scripts.sessions.len())
    }));

    phases.push(measure("link opening", || {
        let link = ShareLink::of_run(&run, steps).encode();
        let opened = ShareLink::decode(&link).expect("it decodes").open().expect("it opens");
        format!("link {} characters, opened at step {}", link.len(), opened.step)
    }));

    phases.push(measure("link, 3 choices missing", || {
        // A learner's choices whose targets never exist in this run (requests it never
        // sends): each is looked for over the whole run before it is called missing.
        let missing = (2..5).map(|step| UserChoice {
            step,
            action: AnchoredAction::DoubleSubmit { request: RequestIndex(60_000 + step) },
        });
        let run = Run { choices: missing.collect(), ..run.clone() };
        let link = ShareLink::of_run(&run, steps).encode();
        let opened = ShareLink::decode(&link).expect("it decodes").open().expect("it opens");
        format!("opened at step {}, steps {steps}", opened.step)
    }));

    println!("{:<28} {:>10} {:>12}  detail", "phase", "time", "peak heap");
    let mut over = Vec::new();
    for phase in &phases {
        println!(
            "{:<28} {:>10} {:>12}  {}",
            phase.name,
            format!("{:.2} s", phase.took.as_secs_f64()),
            mb(phase.peak_heap_bytes),
            phase.detail
        );
        if phase.peak_heap_bytes > HEAP_BUDGET_BYTES {
            over.push(phase.name);
        }
    }
    if let Some(rss) = peak_rss_bytes() {
        println!("process peak RSS (VmHWM): {}", mb(rss));
    }
    println!("budget: every phase's peak heap <= {}", mb(HEAP_BUDGET_BYTES));
    assert!(over.is_empty(), "over the heap budget: {over:?}");
}

/// Every step of three runs timed, each step's least time kept (a step that is slow every time
/// is slow in itself, not because the machine was busy once): the steps over 1 ms counted and
/// the five slowest named.
fn slowest_steps(start: impl Fn() -> Simulation) -> String {
    let mut least: Vec<Duration> = Vec::new();
    let mut actions: Vec<String> = Vec::new();
    for _ in 0..3 {
        let mut simulation = start();
        let mut at = 0;
        loop {
            let before = Instant::now();
            let Some(step) = simulation.step() else { break };
            let took = before.elapsed();
            if at == least.len() {
                least.push(took);
                actions.push(format!("{:?}", step.action));
            } else if let Some(slot) = least.get_mut(at) {
                *slot = (*slot).min(took);
            }
            at += 1;
        }
    }
    let mut order: Vec<usize> = (0..least.len()).collect();
    order.sort_by_key(|at| std::cmp::Reverse(least[*at]));
    let over = least.iter().filter(|took| **took > Duration::from_millis(1)).count();
    let top: Vec<String> = order
        .iter()
        .take(5)
        .map(|at| format!("step {} {} {:.60}", at + 1, ms(least[*at]), actions[*at]))
        .collect();
    format!("{over} steps over 1 ms; slowest: {}", top.join("; "))
}

/// The 64 steps a slider jumps to, spread over a run of `steps` in a scattered order.
fn jumps(steps: usize) -> impl Iterator<Item = usize> {
    (0..64).map(move |jump| steps * (jump * 37 % 64 + 1) / 64)
}

fn curve_text(curve: &[(usize, f64)]) -> String {
    curve.iter().map(|(step, us)| format!("@{step} {us:.1}")).collect::<Vec<_>>().join(", ")
}

/// The process's peak resident set, from `/proc/self/status` (Linux).
fn peak_rss_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}
