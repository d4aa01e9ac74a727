//! `probe` reading the effect with SQL alone: the axum example keeps the balance in a SQLite
//! table, and the probe file's `[oracle.sqlite]` reads it from the database file (the HTTP
//! oracle is left out). The raw top-up API is caught by the SQL oracle; the keyed one holds.

use idempotency_lab_axum_example::Service;

use crate::common::run_cli_in;
use crate::probe_axum_example::start_example;

fn probe_over_sqlite(service: Service, name: &str) -> crate::common::CliRun {
    let service = start_example(service, name);
    let dir = service.dir;
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
fn the_sql_oracle_catches_the_raw_service_and_the_keyed_one_holds() {
    let naive = probe_over_sqlite(Service::TopUpRaw, "probe_sqlite_raw");
    assert_eq!(naive.code, 1, "{}{}", naive.stdout, naive.stderr);
    assert!(
        naive.stdout.contains(
            "=> the effect is not exactly once: SQL `SELECT balance FROM wallets WHERE id = \
             'w1'` changed by 20, each distinct operation applied once changes it by 10"
        ),
        "{}",
        naive.stdout
    );
    let idempotent = probe_over_sqlite(Service::TopUpKeyed, "probe_sqlite_keyed");
    assert_eq!(idempotent.code, 0, "{}{}", idempotent.stdout, idempotent.stderr);
    assert!(idempotent.stdout.contains("held for 10 schedules"), "{}", idempotent.stdout);
}
