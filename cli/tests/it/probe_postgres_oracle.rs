//! `probe` reading the effect from PostgreSQL: a private server (Debian's `initdb` and
//! `pg_ctl` in a fresh temporary directory, a unix socket only, as the `postgres` user when the
//! tests run as root), the services' balance in its `wallets` table, `[oracle.postgres]` and a
//! `reset.sql` on it (its `psql` line in the transcript). The naive service is caught by the PostgreSQL oracle; the idempotent one
//! holds. Without PostgreSQL's server programs on the machine (`LAB_PG_BIN`, or Debian's under
//! /usr/lib/postgresql) the test says so and checks nothing.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{CliRun, run_cli_in, scratch_dir};
use crate::probe_services::{Design, start_over_postgres};

/// A private PostgreSQL server, stopped and removed when dropped.
struct Server {
    bin: PathBuf,
    dir: PathBuf,
    as_postgres: bool,
}

impl Server {
    fn start() -> Option<Server> {
        let bin = match std::env::var_os("LAB_PG_BIN") {
            Some(bin) => PathBuf::from(bin),
            None => {
                let mut bins: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
                    .ok()?
                    .filter_map(|entry| entry.ok().map(|entry| entry.path().join("bin")))
                    .filter(|bin| bin.join("initdb").exists())
                    .collect();
                bins.sort();
                bins.pop()?
            }
        };
        let dir = std::env::temp_dir().join(format!("lab-probe-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).ok()?;
        let root = Command::new("id").arg("-u").output().ok()?.stdout == b"0\n";
        let server = Server { bin, dir, as_postgres: root };
        if root {
            server.run("chown", &["postgres", &server.path("")], false);
        }
        let data = server.path("data");
        let initdb = server.bin.join("initdb").display().to_string();
        let init = ["-D", data.as_str(), "-A", "trust", "-U", "lab", "--no-sync", "--no-locale"];
        server.run(&initdb, &init, true);
        let options = format!("-k {} -c listen_addresses='' -c fsync=off", server.dir.display());
        let pg_ctl = server.bin.join("pg_ctl").display().to_string();
        let log = server.path("log");
        server.run(&pg_ctl, &["-D", &data, "-o", &options, "-l", &log, "-w", "start"], true);
        Some(server)
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    fn run(&self, program: &str, args: &[&str], as_server_user: bool) {
        let mut command = if as_server_user && self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--", program]);
            command
        } else {
            Command::new(program)
        };
        let output = command.args(args).current_dir(&self.dir).output().unwrap();
        assert!(output.status.success(), "{program} {args:?}: {output:?}");
    }

    fn connection(&self) -> String {
        format!("host={} user=lab dbname=postgres", self.dir.display())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let pg_ctl = self.bin.join("pg_ctl").display().to_string();
        let data = self.path("data");
        let mut command = Command::new("runuser");
        if self.as_postgres {
            command.args(["-u", "postgres", "--", &pg_ctl]);
        } else {
            command = Command::new(&pg_ctl);
        }
        let _ = command.args(["-D", &data, "-m", "immediate", "-w", "stop"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn probe_over_postgres(server: &Server, design: Design, name: &str) -> CliRun {
    let connection = server.connection();
    postgres::Client::connect(&connection, postgres::NoTls)
        .unwrap()
        .batch_execute("DROP TABLE IF EXISTS wallets")
        .unwrap();
    let service = start_over_postgres(design, &connection);
    let dir = scratch_dir(name);
    let example = include_str!("../../../examples/probe/top_up.toml");
    let oracle = format!(
        "[oracle.postgres]\nconnection = {connection:?}\n\
         query = \"SELECT balance FROM wallets WHERE id = 'w1'\"\n"
    );
    let text = example
        .replace("127.0.0.1:8080", &format!("127.0.0.1:{}", service.port))
        .replace("[oracle.http]\npath = \"/wallets/w1\"\npointer = \"/balance\"\n", &oracle)
        .replace(
            "http = { method = \"POST\", path = \"/reset\" }",
            "sql = \"UPDATE wallets SET balance = 0\"",
        );
    assert!(text.contains("[oracle.postgres]"));
    std::fs::write(dir.join("probe.toml"), text).unwrap();
    run_cli_in(&dir, &["probe", "probe.toml", "--seed", "6", "--schedules", "10"])
}

#[test]
fn the_postgres_oracle_catches_the_naive_service_and_the_idempotent_one_holds() {
    let Some(server) = Server::start() else {
        eprintln!("no PostgreSQL server programs here: the PostgreSQL oracle is not probed");
        return;
    };
    let naive = probe_over_postgres(&server, Design::Naive, "probe_postgres_naive");
    assert_eq!(naive.code, 1, "{}{}", naive.stdout, naive.stderr);
    assert!(
        naive.stdout.contains(
            "=> the effect is not exactly once: PostgreSQL `SELECT balance FROM wallets WHERE \
             id = 'w1'` changed by 20, each distinct operation applied once changes it by 10"
        ),
        "{}",
        naive.stdout
    );
    let reset = format!("psql '{}' -c 'UPDATE wallets SET balance = 0'\n", server.connection());
    assert!(naive.stdout.contains(&reset), "{}", naive.stdout);
    let idempotent = probe_over_postgres(&server, Design::Idempotent, "probe_postgres_idempotent");
    assert_eq!(idempotent.code, 0, "{}{}", idempotent.stdout, idempotent.stderr);
    assert!(idempotent.stdout.contains("held for 10 schedules"), "{}", idempotent.stdout);
}
