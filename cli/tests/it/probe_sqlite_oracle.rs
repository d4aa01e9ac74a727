//! `probe` reading the effect with SQL: the services keep the balance in a SQLite table, and
//! the probe file's `[oracle.sqlite]` reads it from the database file (the HTTP oracle is
//! left out). The naive service is caught by the SQL oracle; the idempotent one holds.

use crate::common::{run_cli_in, scratch_dir};
use crate::probe_services::{Design, start_over_sqlite};

fn probe_over_sqlite(design: Design, name: &str) -> crate::common::CliRun {
    let dir = scratch_dir(name);
    let service = start_over_sqlite(design, dir.join("wallets.db"));
    let example = include_str!("../../../examples/probe/top_up.toml");
    let oracle = "[oracle.sqlite]\ndatabase = \"wallets.db\"\n\
                  query = \"SELECT balance FROM wallets WHERE id = 'w1'\"\n";
    let text = example
        .replace("127.0.0.1:8080", &format!("127.0.0.1:{}", service.port))
        .replace("[oracle.http]\npath = \"/wallets/w1\"\npointer = \"/balance\"\n", oracle);
    assert!(text.contains("[oracle.sqlite]"));
    std::fs::write(dir.join("probe.toml"), text).unwrap();
    run_cli_in(&dir, &["probe", "probe.toml", "--seed", "2", "--schedules", "10"])
}

#[test]
fn the_sql_oracle_catches_the_naive_service_and_the_idempotent_one_holds() {
    let naive = probe_over_sqlite(Design::Naive, "probe_sqlite_naive");
    assert_eq!(naive.code, 1, "{}{}", naive.stdout, naive.stderr);
    assert!(
        naive.stdout.contains(
            "=> the effect is not exactly once: SQL `SELECT balance FROM wallets WHERE id = \
             'w1'` changed by 20, each distinct operation applied once changes it by 10"
        ),
        "{}",
        naive.stdout
    );
    let idempotent = probe_over_sqlite(Design::Idempotent, "probe_sqlite_idempotent");
    assert_eq!(idempotent.code, 0, "{}{}", idempotent.stdout, idempotent.stderr);
    assert!(idempotent.stdout.contains("held for 10 schedules"), "{}", idempotent.stdout);
}
