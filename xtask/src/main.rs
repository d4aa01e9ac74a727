//! `cargo xtask`: build the page, serve it, run every test, mutation-test the core. See the
//! crate's library docs.

use std::process::{Command, ExitCode};

use clap::{Parser, Subcommand};
use xtask::mutants::MutantsRun;
use xtask::page::{self, PageBuild};
use xtask::{XtaskError, command, install, mutants, serve, setup, workspace_root};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Idempotency Lab's build, serve and test tooling")]
struct Cli {
    #[command(subcommand)]
    command: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build the page into dist/ (installing the wasm toolchain and tools it lacks).
    Build,
    /// Build the page and serve it on loopback.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        address: String,
    },
    /// Run every test: native unit, integration and property tests, and the browser tests
    /// against a freshly built page (installing Chromium if it is missing).
    Test,
    /// Install the CLI as the README says (`cargo install --path cli`) into a temporary root
    /// and run its `list` from there (a release build: minutes; not part of `test`).
    InstallCheck,
    /// Mutation testing of the core's safety-critical code with cargo-mutants, scoped by
    /// `.cargo/mutants.toml` (hours for the whole scope: not part of `test`). Arguments after
    /// `--` go to cargo-mutants: `--list` counts, `--re <regex>` narrows (to a file, a line).
    Mutants {
        /// Mutants built and tested at once.
        #[arg(long, default_value_t = 1)]
        jobs: u32,
        /// Seconds a mutant's tests may take before it counts as hung (and caught).
        #[arg(long, default_value_t = 300)]
        timeout: u64,
        /// Further arguments for cargo-mutants.
        #[arg(last = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(task: Task) -> Result<(), XtaskError> {
    let root = workspace_root();
    match task {
        Task::Build => {
            report(&page::build(&root)?);
            Ok(())
        }
        Task::Serve { address } => {
            let build = page::build(&root)?;
            report(&build);
            serve::serve_forever(&build.dist_dir, &address)
        }
        Task::Test => {
            let chromium = setup::ensure_chromium()?;
            let postgresql = setup::ensure_postgresql()?;
            let node = setup::ensure_node()?;
            let cargo_test = || {
                let mut cargo = Command::new(setup::cargo());
                cargo.current_dir(&root).args(["test", "--workspace", "--locked"]);
                cargo
            };
            // The page's wasm (its own compiler, its own target directory) and the native test
            // binaries share no artefact: they compile at once, each filling the cores the
            // other leaves idle (the wasm build ends in one long single-threaded LTO step).
            let build = std::thread::scope(|scope| {
                let page = scope.spawn(|| page::build(&root));
                let tests = command::run(cargo_test().arg("--no-run"));
                let page = page.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                tests.and(page)
            })?;
            report(&build);
            build.check_budget()?;
            command::run(
                cargo_test()
                    .args(["--", "--test-threads", &test_threads().to_string()])
                    .env("LAB_DIST_DIR", &build.dist_dir)
                    .env("LAB_CHROMIUM", &chromium)
                    .env("LAB_PG_BIN", &postgresql)
                    .env("LAB_NODE", &node),
            )
        }
        Task::Mutants { jobs, timeout, args } => {
            mutants::mutants(&root, &MutantsRun { jobs, timeout_seconds: timeout, args })
        }
        Task::InstallCheck => {
            let check = install::install_check(&root)?;
            eprintln!(
                "xtask: `cargo install --path cli` took {:.1} s; `{} list` printed:",
                check.install_time.as_secs_f64(),
                install::CLI_BINARY
            );
            eprint!("{}", check.list_output);
            Ok(())
        }
    }
}

/// How many tests run at once: `RUST_TEST_THREADS` if set, else three per core. Most of a
/// browser test's time is spent waiting on the browser's round trips, not computing, so they
/// overlap well beyond the number of cores.
fn test_threads() -> usize {
    std::env::var("RUST_TEST_THREADS").ok().and_then(|threads| threads.parse().ok()).unwrap_or_else(
        || 3 * std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
    )
}

fn report(build: &PageBuild) {
    eprintln!(
        "xtask: page built in {:.1} s by the {:?} route{} into {}",
        build.elapsed.as_secs_f64(),
        build.route,
        if build.wasm_optimized { ", wasm-opt -Oz" } else { ", without wasm-opt" },
        build.dist_dir.display()
    );
    for file in &build.sizes {
        eprintln!(
            "xtask:   {:<28} {:>9} bytes, {:>8} gzipped",
            file.name, file.raw_bytes, file.gzip_bytes
        );
    }
    let (gzip_bytes, _) = build.initial_transfer();
    eprintln!(
        "xtask: initial transfer {gzip_bytes} bytes gzipped (budget {} by the Debian route)",
        page::INITIAL_TRANSFER_BUDGET
    );
}
