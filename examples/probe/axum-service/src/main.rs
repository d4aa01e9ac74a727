//! `probe-axum-service SERVICE DATABASE [PORT]`: runs one of the example services of the
//! library (`top-up-raw`, `top-up-keyed`, `webhook-naive`, `webhook-inbox`) over the SQLite
//! file DATABASE (created if missing) on 127.0.0.1:PORT (a free port if none), and prints the
//! port it listens on. For example, from the repository's root:
//!
//! ```text
//! cargo run -p idempotency-lab-axum-example -- top-up-raw wallets.db 8080
//! idempotency-lab probe examples/probe/top_up.toml --seed 1
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use idempotency_lab_axum_example::{Service, create_schema, serve};

fn usage() -> String {
    let names: Vec<&str> = Service::ALL.into_iter().map(Service::name).collect();
    format!("usage: probe-axum-service {} DATABASE [PORT]", names.join("|"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (service, database, port) = match args.as_slice() {
        [service, database, rest @ ..] if rest.len() <= 1 => {
            let Some(service) = Service::from_name(service) else {
                eprintln!("error: no service {service:?}\n{}", usage());
                return ExitCode::from(2);
            };
            let port = match rest.first().map(|port| port.parse::<u16>()) {
                None => 0,
                Some(Ok(port)) => port,
                Some(Err(_)) => {
                    eprintln!("error: PORT {:?} is not a number to 65535\n{}", rest[0], usage());
                    return ExitCode::from(2);
                }
            };
            (service, PathBuf::from(database), port)
        }
        _ => {
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
    };
    if let Err(error) = create_schema(&database) {
        eprintln!("error: {}: {error}", database.display());
        return ExitCode::FAILURE;
    }
    match run(service, database, port) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(service: Service, database: PathBuf, port: u16) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let mut stdout = std::io::stdout();
        writeln!(stdout, "{}", listener.local_addr()?.port())?;
        stdout.flush()?;
        serve(listener, service, database).await
    })
}
