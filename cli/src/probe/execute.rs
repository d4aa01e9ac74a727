//! Playing one schedule against the running service: reset it, read each oracle, send each
//! phase (the sends of one phase on their own threads, released together by a barrier, each
//! after its delay), read each oracle again, and judge. The I/O of a run; the rules are
//! `plan`'s and `judge`'s.

use std::sync::Barrier;
use std::time::{Duration, Instant};

use crate::probe::ProbeError;
use crate::probe::client::{
    Client, read_postgres_effect, read_sqlite_effect, reset_postgres, reset_sqlite,
};
use crate::probe::file::ProbeFile;
use crate::probe::judge::{EffectReading, Exchange, judge};
use crate::probe::plan::{Phase, Request, Role, Send, plan, request};
use crate::probe::schedule::Schedule;
use crate::probe::shrink::ProbeRun;

/// `--rate`: keeps the requests of the schedules (and of resets and oracle reads) to at most
/// `rate` per second, by waiting before a phase until its requests fit.
pub struct Pacer {
    interval: Option<Duration>,
    next: Instant,
}

impl Pacer {
    /// A pacer for `rate` requests per second (`None`: as fast as the service answers).
    pub fn new(rate: Option<u32>) -> Pacer {
        let interval = rate.map(|rate| Duration::from_secs(1) / rate.max(1));
        Pacer { interval, next: Instant::now() }
    }

    /// Waits until `requests` more may be sent.
    fn admit(&mut self, requests: usize) {
        let Some(interval) = self.interval else { return };
        let now = Instant::now();
        if self.next > now {
            std::thread::sleep(self.next - now);
        }
        self.next = self.next.max(now) + interval * requests as u32;
    }
}

/// Resets the service, as the probe file says (nothing if it says nothing).
pub fn reset(client: &Client, file: &ProbeFile) -> Result<(), ProbeError> {
    if let Some((method, path)) = &file.reset.http {
        client
            .reset(*method, path)
            .map_err(|error| ProbeError::Service { what: "reset.http", error })?;
    }
    let timeout_ms = file.target.timeout_ms;
    if let (Some(sql), Some(postgres)) = (&file.reset.sql, &file.oracle.postgres) {
        reset_postgres(postgres, sql, timeout_ms)
            .map_err(|error| ProbeError::Service { what: "reset.sql", error })?;
    }
    if let (Some(sql), Some(sqlite)) = (&file.reset.sql, &file.oracle.sqlite) {
        reset_sqlite(sqlite, sql)
            .map_err(|error| ProbeError::Service { what: "reset.sql", error })?;
    }
    Ok(())
}

/// Each oracle's name and current reading.
pub fn read_effects(client: &Client, file: &ProbeFile) -> Result<Vec<(String, f64)>, ProbeError> {
    let mut readings = Vec::new();
    if let Some(http) = &file.oracle.http {
        let value = client
            .read_http_effect(http)
            .map_err(|error| ProbeError::Service { what: "oracle.http", error })?;
        readings.push((format!("GET {} at {}", http.path, http.pointer), value));
    }
    if let Some(sqlite) = &file.oracle.sqlite {
        let value = read_sqlite_effect(sqlite)
            .map_err(|error| ProbeError::Service { what: "oracle.sqlite", error })?;
        readings.push((format!("SQL `{}`", sqlite.query), value));
    }
    if let Some(postgres) = &file.oracle.postgres {
        let value = read_postgres_effect(postgres, file.target.timeout_ms)
            .map_err(|error| ProbeError::Service { what: "oracle.postgres", error })?;
        readings.push((format!("PostgreSQL `{}`", postgres.query), value));
    }
    Ok(readings)
}

/// The requests of each phase's sends.
pub fn requests(file: &ProbeFile, schedule: &Schedule, phases: &[Phase]) -> Vec<Vec<Request>> {
    phases
        .iter()
        .map(|phase| {
            phase
                .sends
                .iter()
                .map(|send| request(file, &schedule.operations[send.operation], send.role))
                .collect()
        })
        .collect()
}

/// Plays `schedule` from a reset and judges it.
pub fn play(
    client: &Client,
    file: &ProbeFile,
    schedule: &Schedule,
    pacer: &mut Pacer,
) -> Result<ProbeRun, ProbeError> {
    pacer.admit(2);
    reset(client, file)?;
    let before = read_effects(client, file)?;
    let phases = plan(schedule, file.schedule.in_flight_delay_ms);
    let requests = requests(file, schedule, &phases);
    let exchanges: Vec<Vec<Exchange>> = phases
        .iter()
        .zip(&requests)
        .map(|(phase, requests)| {
            pacer.admit(requests.len());
            play_phase(client, phase, requests)
        })
        .collect();
    pacer.admit(1);
    let mut after = read_effects(client, file)?;
    let unanswered =
        exchanges.iter().flatten().any(|exchange| !matches!(exchange, Exchange::Answered(_)));
    if unanswered {
        after = settle(client, file, after, pacer)?;
    }
    let effects: Vec<EffectReading> = before
        .into_iter()
        .zip(after)
        .map(|((oracle, before), (_, after))| EffectReading { oracle, before, after })
        .collect();
    let violations = judge(
        file.kind(),
        &phases,
        &exchanges,
        &effects,
        file.oracle.effect_per_operation,
        schedule.operations.len(),
    );
    Ok(ProbeRun { schedule: schedule.clone(), phases, requests, exchanges, effects, violations })
}

/// The most readings of the oracles while a hung-up request may still be in progress.
const SETTLE_READINGS_MAX: usize = 20;

/// The oracles' readings once the service has settled: read every `schedule.settle_ms` until
/// two readings in a row agree (at most [`SETTLE_READINGS_MAX`]). The prober hung up on a
/// request, or gave up waiting for one, and has no answer to wait for; without this, its effect could land after the
/// reading, or after the next schedule's reset, and be blamed on a schedule that did not send
/// it.
fn settle(
    client: &Client,
    file: &ProbeFile,
    mut last: Vec<(String, f64)>,
    pacer: &mut Pacer,
) -> Result<Vec<(String, f64)>, ProbeError> {
    for _ in 1..SETTLE_READINGS_MAX {
        std::thread::sleep(Duration::from_millis(file.schedule.settle_ms));
        pacer.admit(1);
        let next = read_effects(client, file)?;
        if next == last {
            break;
        }
        last = next;
    }
    Ok(last)
}

fn play_phase(client: &Client, phase: &Phase, requests: &[Request]) -> Vec<Exchange> {
    let send_one = |send: &Send, request: &Request| {
        std::thread::sleep(Duration::from_millis(send.delay_ms));
        match send.role {
            Role::HungUp => client.hang_up(request),
            _ => client.send(request),
        }
    };
    if let ([send], [request]) = (phase.sends.as_slice(), requests) {
        return vec![send_one(send, request)];
    }
    let barrier = Barrier::new(requests.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = phase
            .sends
            .iter()
            .zip(requests)
            .map(|(send, request)| {
                let (barrier, send_one) = (&barrier, &send_one);
                scope.spawn(move || {
                    barrier.wait();
                    send_one(send, request)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Exchange::Failed("the sending thread panicked".to_owned()))
            })
            .collect()
    })
}
