//! Long runs at constant cost: the longest run the bounds accept
//! (`sim::bounds::longest_run_scenario`, 20,000 steps of a world that grows to its largest), run
//! through every path a long run takes, with the peak heap and the time of each.
//!
//! - `run`: read once, no snapshots (the CLI's `run`, the fuzzer), a step at a time, with its
//!   slowest step;
//! - `rewindable`: the page's run (`Simulation::new` + `step`, snapshots kept), with its slowest
//!   step and its cost a step at 1K, 5K, 10K and 20K steps (the growth curve);
//! - `world_after`: rewinding the rewindable run to 64 steps spread over it (a slider jump);
//! - `replay`: the CLI's `replay` of the run's trace JSON (parse, replay, print again);
//! - `sql`: the CLI's `sql` (the run as psql scripts);
//! - `link`: a share link of the run at its last step, decoded and opened.
//!
//! The heap is counted by this binary's global allocator (live bytes, its peak per phase), so
//! the figures are exact and independent of the allocator's caching; the process's peak
//! resident set (`VmHWM`, Linux) is printed at the end. The bench fails if a phase's peak heap
//! is over the budget the README's Bounds section states (256 MiB).
//!
//! Run: `cargo bench -p idempotency-lab --bench long_run` (add `-- --seed N` for another seed).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use idempotency_lab::sim::bounds::longest_run_scenario;
use idempotency_lab::sim::{Run, Simulation, Trace};
use idempotency_lab::view::ShareLink;

/// Live heap bytes, and their peak since the last [`reset_peak`].
struct CountingAllocator;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; only two counters are kept beside.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let live = LIVE.fetch_add(grown, Ordering::Relaxed) + grown;
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The most heap a phase may hold at once.
const HEAP_BUDGET_BYTES: usize = 256 << 20;

fn reset_peak() {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
}

fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
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

/// The steps' mean cost around each of `marks` (the 200 steps before it).
fn step_costs(simulation: &mut Simulation, marks: &[usize]) -> (Duration, Vec<(usize, f64)>) {
    let mut slowest = Duration::ZERO;
    let mut window = Duration::ZERO;
    let mut curve = Vec::new();
    loop {
        let before = Instant::now();
        let Some(step) = simulation.step().map(|step| step.step) else { break };
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
        let (slowest, curve) = step_costs(&mut simulation, &marks);
        let steps = simulation.steps().len();
        trace = Some(simulation.into_trace());
        format!("{steps} steps, slowest step {}, us/step {}", ms(slowest), curve_text(&curve))
    }));
    let trace = trace.expect("the run ran");
    let trace_json = trace.to_json();
    let run = Run { scenario: scenario.clone(), seed, choices: Vec::new() };
    let steps = trace.steps.len();
    drop(trace);

    let mut rewindable: Option<Simulation> = None;
    phases.push(measure("rewindable (the page's run)", || {
        let mut simulation = Simulation::new(scenario.clone(), seed).unwrap();
        let (slowest, curve) = step_costs(&mut simulation, &marks);
        let before = LIVE.load(Ordering::Relaxed);
        let world = simulation.world().clone();
        let world_bytes = LIVE.load(Ordering::Relaxed).saturating_sub(before);
        drop(world);
        rewindable = Some(simulation);
        format!(
            "slowest step {}, us/step {}, the last world {}",
            ms(slowest),
            curve_text(&curve),
            mb(world_bytes)
        )
    }));
    let simulation = rewindable.expect("the run ran");
    phases.push(measure("world_after (64 jumps)", || {
        let mut slowest = Duration::ZERO;
        let mut total = Duration::ZERO;
        for jump in 0..64 {
            let step = steps * (jump * 37 % 64 + 1) / 64;
            let before = Instant::now();
            let world = simulation.world_after(step).expect("within the run");
            let took = before.elapsed();
            drop(world);
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
        let simulation = Simulation::new(scenario.clone(), seed).unwrap();
        let scripts = idempotency_lab::view::psql_scripts(simulation);
        format!("{} sessions", scripts.sessions.len())
    }));

    phases.push(measure("link opening", || {
        let link = ShareLink::of_run(&run, steps).encode();
        let opened = ShareLink::decode(&link).expect("it decodes").open().expect("it opens");
        format!("link {} characters, opened at step {}", link.len(), opened.step)
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

