//! The parser fuzz runner: `--cases` (1,000,000) mutated inputs from every built-in lesson's
//! scenario file, trace and share link (`testing::parser_fuzz`), each handed to the product's
//! parser and, when accepted, run as the product runs it. Every case is timed and run under
//! `catch_unwind`; it prints the cases, the accepted and refused counts per kind of input, the
//! panics, the longest refusal's message, the slowest case, the cases over 2 s, the total
//! time and the cases per second.
//!
//! Run: `cargo bench -p idempotency-lab --bench parser_fuzz -- --cases 1000000 --seed 0`;
//! `-- --case N` runs case N alone and prints what it was.
//! A plain bench binary, not a timed test: the figures are a budget to read, not a
//! throughput to track. It exits 1 if a case panics (the first panicking input is written to
//! a file whose path it prints), takes over 2 s, or is refused with a message over
//! `REFUSAL_CHARS_MAX` characters.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use idempotency_lab::testing::parser_fuzz::{REFUSAL_CHARS_MAX, run_case};
use idempotency_lab::testing::{InputKind, ParserFuzz, ParserInput, catalogue_seeds};
use idempotency_lab::view::{parser_fuzz_link_of, parser_fuzz_open_link};

/// A case may take this long at most.
const CASE_BUDGET: Duration = Duration::from_secs(2);

/// How often progress is printed, in cases.
const PROGRESS_EVERY: u64 = 100_000;

fn main() -> ExitCode {
    let Arguments { cases, seed, only } = match arguments() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("{message}\nusage: parser_fuzz [--cases N] [--seed S] [--case N]");
            return ExitCode::from(2);
        }
    };
    // The bench profile must unwind, or a panic would end the run instead of being counted.
    std::panic::set_hook(Box::new(|_| {}));
    assert!(catch_unwind(|| panic!("probe")).is_err());
    let _ = std::panic::take_hook();
    let fuzz =
        ParserFuzz::new(seed, catalogue_seeds(&parser_fuzz_link_of)).expect("every kind has seeds");
    if let Some(case) = only {
        return run_one(&fuzz, seed, case);
    }
    println!("parser fuzz: seed {seed}, {cases} cases, {} seed inputs", fuzz.seeds().len());
    let figures = run(&fuzz, cases);
    report(&figures, seed)
}

/// The command line: how many cases, the fuzz seed, and one case to run alone (to look at a
/// slow or failing case again: its input is a function of the seed and its number).
struct Arguments {
    cases: u64,
    seed: u64,
    only: Option<u64>,
}

fn arguments() -> Result<Arguments, String> {
    let mut cases = 1_000_000;
    let mut seed = 0;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        // `cargo bench` passes `--bench` to every bench binary.
        if arg == "--bench" {
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        let number: u64 =
            value.replace('_', "").parse().map_err(|_| format!("{arg}: {value:?}"))?;
        match arg.as_str() {
            "--cases" => cases = number,
            "--seed" => seed = number,
            "--case" => only = Some(number),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Arguments { cases, seed, only })
}

/// Runs case `case` alone and says what it was, what became of it and how long it took.
fn run_one(fuzz: &ParserFuzz, seed: u64, case: u64) -> ExitCode {
    let input = fuzz.input(case);
    println!(
        "case {case} of seed {seed}: {} from {}, {:?}, {} bytes",
        input.kind,
        input.seed_name,
        input.mutations,
        input.text.len()
    );
    let started = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| run_case(&input, &parser_fuzz_open_link)));
    let took = started.elapsed();
    let verdict = match &outcome {
        Ok(Ok(accepted)) => format!("accepted, {} steps", accepted.steps),
        Ok(Err(refusal)) => {
            let said = refusal.to_string();
            let chars = said.chars().count();
            let shown: String = said.chars().take(REFUSAL_CHARS_MAX).collect();
            format!("refused ({chars} characters): {shown}")
        }
        Err(_) => "panicked".to_owned(),
    };
    println!("{verdict}, in {:.3} ms", took.as_secs_f64() * 1e3);
    let long = matches!(&outcome, Ok(Err(refusal)) if refusal.to_string().chars().count() > REFUSAL_CHARS_MAX);
    match outcome {
        Ok(_) if took <= CASE_BUDGET && !long => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

#[derive(Default)]
struct Figures {
    cases: u64,
    /// Per kind: accepted, refused.
    counts: BTreeMap<InputKind, (u64, u64)>,
    panics: u64,
    /// The longest refusal's message, in characters, and its case.
    longest_refusal: (usize, u64),
    /// Cases refused with a message over `REFUSAL_CHARS_MAX` characters.
    long_refusals: Vec<u64>,
    first_panic: Option<(ParserInput, String)>,
    slowest: Duration,
    slowest_case: Option<(u64, InputKind)>,
    over_budget: Vec<u64>,
    total: Duration,
}

fn run(fuzz: &ParserFuzz, cases: u64) -> Figures {
    let mut figures = Figures::default();
    let started = Instant::now();
    // Panics are counted, not printed as they happen.
    std::panic::set_hook(Box::new(|_| {}));
    for case in 0..cases {
        let input = fuzz.input(case);
        let before = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| run_case(&input, &parser_fuzz_open_link)));
        let took = before.elapsed();
        let entry = figures.counts.entry(input.kind).or_default();
        match outcome {
            Ok(Ok(_)) => entry.0 += 1,
            Ok(Err(refusal)) => {
                entry.1 += 1;
                let chars = refusal.to_string().chars().count();
                if chars > figures.longest_refusal.0 {
                    figures.longest_refusal = (chars, case);
                }
                if chars > REFUSAL_CHARS_MAX {
                    figures.long_refusals.push(case);
                }
            }
            Err(payload) => {
                figures.panics += 1;
                if figures.first_panic.is_none() {
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    figures.first_panic = Some((input.clone(), message));
                }
            }
        }
        if took > figures.slowest {
            figures.slowest = took;
            figures.slowest_case = Some((case, input.kind));
        }
        if took > CASE_BUDGET {
            figures.over_budget.push(case);
        }
        figures.cases += 1;
        if (case + 1) % PROGRESS_EVERY == 0 {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "  {} cases, {seconds:.0} s, {:.0} cases/s",
                case + 1,
                (case + 1) as f64 / seconds
            );
        }
    }
    let _ = std::panic::take_hook();
    figures.total = started.elapsed();
    figures
}

fn report(figures: &Figures, seed: u64) -> ExitCode {
    let seconds = figures.total.as_secs_f64();
    println!("cases: {}", figures.cases);
    for (kind, (accepted, refused)) in &figures.counts {
        println!("  {kind}: {accepted} accepted, {refused} refused");
    }
    println!("panics: {}", figures.panics);
    println!(
        "longest refusal: {} characters (case {}); over {REFUSAL_CHARS_MAX}: {} {:?}",
        figures.longest_refusal.0,
        figures.longest_refusal.1,
        figures.long_refusals.len(),
        figures.long_refusals.iter().take(20).collect::<Vec<_>>()
    );
    match figures.slowest_case {
        Some((case, kind)) => println!(
            "slowest case: {:.3} ms (case {case}, {kind})",
            figures.slowest.as_secs_f64() * 1e3
        ),
        None => println!("slowest case: none run"),
    }
    println!(
        "cases over {} s: {} {:?}",
        CASE_BUDGET.as_secs(),
        figures.over_budget.len(),
        figures.over_budget
    );
    println!("total: {seconds:.1} s, {:.0} cases/s", figures.cases as f64 / seconds.max(1e-9));
    let mut failed = !figures.over_budget.is_empty() || !figures.long_refusals.is_empty();
    if let Some((input, message)) = &figures.first_panic {
        failed = true;
        let path =
            std::env::temp_dir().join(format!("parser-fuzz-seed{seed}-case{}.txt", input.case));
        match std::fs::write(&path, &input.text) {
            Ok(()) => println!(
                "first panic: case {} ({}, from {}, {:?}): {message}; input written to {}",
                input.case,
                input.kind,
                input.seed_name,
                input.mutations,
                path.display()
            ),
            Err(error) => println!(
                "first panic: case {}: {message}; the input could not be written: {error}",
                input.case
            ),
        }
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
