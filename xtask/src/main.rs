//! `cargo xtask`: build the page, serve it, run every test. See the crate's library docs.

use std::process::{Command, ExitCode};

use clap::{Parser, Subcommand};
use xtask::page::{self, PageBuild};
use xtask::{XtaskError, command, serve, setup, workspace_root};

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
            let build = page::build(&root)?;
            report(&build);
            command::run(
                Command::new(setup::cargo())
                    .current_dir(&root)
                    .args(["test", "--workspace", "--locked"])
                    .env("LAB_DIST_DIR", &build.dist_dir)
                    .env("LAB_CHROMIUM", &chromium)
                    .env("LAB_PG_BIN", &postgresql),
            )
        }
    }
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
}
