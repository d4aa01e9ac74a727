//! Schedules: the operations one probe run sends, each with at most one fault, drawn from the
//! seed by [`draw`] (the same seed, the same schedules, keys and bodies) and made smaller by
//! [`smaller`], the candidates the shrinker tries. Pure: no I/O.

use idempotency_lab::rng::DeterministicRng;
use serde::de::{Deserialize, Deserializer, Visitor};

use crate::probe::file::Keying;

/// A fault, simplest first: the shrinker moves a fault toward the earlier ones. As the probe
/// file names it (`schedule.faults`) a fault is in its simplest form, [`Fault::kind`]: a
/// `concurrent` of 2 copies, which a draw widens to at most `copies_max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// The same request or event sent again once the first is answered.
    Duplicate,
    /// The first answer dropped by the prober (a lost response, a webhook timeout), then the
    /// same request sent again.
    LostResponse,
    /// The connection closed by the prober once the request is sent, before the answer; a
    /// retry `in_flight_delay_ms` later, while the first may still be in progress, then one
    /// more after that retry's answer.
    HangUp,
    /// The key sent again with another body: 422 expected (api).
    KeyReuse,
    /// A request without the key: 400 expected (api, `key_required`).
    MissingKey,
    /// The operation delivered after the next one (webhook).
    Reorder,
    /// `copies` sent at once, each on its own thread (2 or more).
    Concurrent {
        /// How many.
        copies: u8,
    },
    /// A retry sent while the first is still in flight (api).
    RetryInFlight,
}

impl Fault {
    /// Every fault in its simplest form, simplest first.
    pub const ALL: [Fault; 8] = [
        Fault::Duplicate,
        Fault::LostResponse,
        Fault::HangUp,
        Fault::KeyReuse,
        Fault::MissingKey,
        Fault::Reorder,
        Fault::Concurrent { copies: 2 },
        Fault::RetryInFlight,
    ];

    /// The probe file's words for [`Fault::ALL`], in the same order.
    const WORDS: [&'static str; 8] = {
        let mut words = [""; 8];
        let mut index = 0;
        while index < Fault::ALL.len() {
            words[index] = Fault::ALL[index].word();
            index += 1;
        }
        words
    };

    /// The probe file's word for it (`concurrent` whatever its copies).
    pub const fn word(self) -> &'static str {
        match self {
            Fault::Duplicate => "duplicate",
            Fault::LostResponse => "lost_response",
            Fault::HangUp => "hang_up",
            Fault::KeyReuse => "key_reuse",
            Fault::MissingKey => "missing_key",
            Fault::Reorder => "reorder",
            Fault::Concurrent { .. } => "concurrent",
            Fault::RetryInFlight => "retry_in_flight",
        }
    }

    /// Its simplest form, as the probe file names it: 2 copies for a concurrent fault.
    pub fn kind(self) -> Fault {
        match self {
            Fault::Concurrent { .. } => Fault::Concurrent { copies: 2 },
            other => other,
        }
    }

    /// The faults that apply to `keying`, in their simplest form; `body_varies` says whether a
    /// key can be reused with another body.
    pub fn applicable(keying: &Keying, body_varies: bool) -> Vec<Fault> {
        let mut faults = vec![Fault::Duplicate, Fault::LostResponse, Fault::HangUp];
        match keying {
            Keying::Api { key_required, .. } => {
                if body_varies {
                    faults.push(Fault::KeyReuse);
                }
                if *key_required {
                    faults.push(Fault::MissingKey);
                }
                faults.extend([Fault::Concurrent { copies: 2 }, Fault::RetryInFlight]);
            }
            Keying::Webhook { .. } => {
                faults.extend([Fault::Reorder, Fault::Concurrent { copies: 2 }]);
            }
        }
        faults
    }

    /// Why this fault does not apply to `keying`.
    pub fn why_not_applicable(self, keying: &Keying) -> &'static str {
        match (self, keying) {
            (Fault::KeyReuse, Keying::Api { .. }) => {
                "key_reuse needs another body for the same key: put {{n}} or {{uuid}} in \
                 target.body"
            }
            (Fault::MissingKey, Keying::Api { .. }) => {
                "missing_key expects 400, which api.key_required = false does not"
            }
            (Fault::Reorder, Keying::Api { .. }) => "reorder is for kind = \"webhook\"",
            (_, Keying::Webhook { .. }) => {
                "key_reuse, missing_key and retry_in_flight are for kind = \"api\""
            }
            _ => "not applicable",
        }
    }
}

/// A fault in the probe file: its word, read into its simplest form (the error raised while
/// the string is read, so that TOML's position is the word's own).
impl<'de> Deserialize<'de> for Fault {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fault, D::Error> {
        deserializer.deserialize_str(FaultWord)
    }
}

struct FaultWord;

impl Visitor<'_> for FaultWord {
    type Value = Fault;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a fault's name")
    }

    fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<Fault, E> {
        Fault::ALL
            .into_iter()
            .find(|fault| fault.word() == word)
            .ok_or_else(|| E::unknown_variant(word, &Fault::WORDS))
    }
}

/// The bounds and faults of drawn schedules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleConfig {
    /// Operations per schedule, at most (at least 1).
    pub operations_max: u8,
    /// Concurrent copies, at most (at least 2).
    pub copies_max: u8,
    /// How long after the first the in-flight retry is sent, in milliseconds.
    pub in_flight_delay_ms: u64,
    /// After a schedule in which the prober hung up, the oracles are read every `settle_ms`
    /// until two readings in a row agree: the hung-up request may still be in progress, and
    /// its effect must land in its own schedule, not in the next one's.
    pub settle_ms: u64,
    /// The faults drawn from, simplest first.
    pub faults: Vec<Fault>,
}

/// One distinct operation: its own key (or event id) and fresh values, and its fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// Its number in the drawn schedule, from 1 (kept when shrinking drops others, so the
    /// body stays the same).
    pub number: u32,
    /// The key or event id.
    pub key: String,
    /// `{{uuid}}` of its body.
    pub uuid: String,
    /// `{{uuid}}` of the other body a reused key sends.
    pub other_uuid: String,
    /// What goes wrong, if anything.
    pub fault: Option<Fault>,
}

/// The operations of one run, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The operations.
    pub operations: Vec<Operation>,
}

impl Schedule {
    /// How many faults it has.
    pub fn fault_count(&self) -> usize {
        self.operations.iter().filter(|operation| operation.fault.is_some()).count()
    }

    /// One line: `#1 duplicate, #2, #3 concurrent x3`.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .operations
            .iter()
            .map(|operation| match operation.fault {
                None => format!("#{}", operation.number),
                Some(Fault::Concurrent { copies }) => {
                    format!("#{} concurrent x{copies}", operation.number)
                }
                Some(fault) => format!("#{} {}", operation.number, fault.word()),
            })
            .collect();
        parts.join(", ")
    }
}

/// The next schedule from `rng`: 1 to `operations_max` operations, each with a fault two
/// times in three. A reorder is drawn only for an operation that has a next one.
pub fn draw(rng: &mut DeterministicRng, config: &ScheduleConfig) -> Schedule {
    let count = 1 + rng.below(u64::from(config.operations_max.max(1)));
    let mut operations = Vec::new();
    for index in 0..count {
        let key = rng.uuid().to_string();
        let uuid = rng.uuid().to_string();
        let other_uuid = rng.uuid().to_string();
        let mut fault = None;
        if rng.below(3) != 0 && !config.faults.is_empty() {
            let pick = rng.below(config.faults.len() as u64) as usize;
            fault = match config.faults[pick] {
                Fault::Reorder if index + 1 == count => None,
                kind => Some(drawn(kind, rng, config.copies_max)),
            };
        }
        operations.push(Operation { number: (index + 1) as u32, key, uuid, other_uuid, fault });
    }
    Schedule { operations }
}

/// `kind` as drawn: a concurrent fault with 2 to `copies_max` copies.
fn drawn(kind: Fault, rng: &mut DeterministicRng, copies_max: u8) -> Fault {
    match kind {
        Fault::Concurrent { .. } => {
            let extra = rng.below(u64::from(copies_max.saturating_sub(1).max(1))) as u8;
            Fault::Concurrent { copies: 2 + extra }
        }
        other => other,
    }
}

/// The schedules one step smaller than `schedule`, the most promising first: one operation
/// fewer; then one fault simpler (fewer copies, or an earlier fault of `faults`); then one
/// fault fewer. A reorder left on the last operation is dropped (it would do nothing).
pub fn smaller(schedule: &Schedule, faults: &[Fault]) -> Vec<Schedule> {
    let mut candidates = Vec::new();
    let operations = &schedule.operations;
    if operations.len() > 1 {
        for index in 0..operations.len() {
            let mut fewer = operations.clone();
            fewer.remove(index);
            candidates.push(tidy(fewer));
        }
    }
    for (index, operation) in operations.iter().enumerate() {
        let Some(fault) = operation.fault else { continue };
        let mut simpler: Vec<Fault> = Vec::new();
        if let Fault::Concurrent { copies } = fault
            && copies > 2
        {
            simpler.push(Fault::Concurrent { copies: 2 });
        }
        for kind in faults.iter().filter(|kind| **kind < fault.kind()) {
            if *kind == Fault::Reorder && index + 1 == operations.len() {
                continue;
            }
            simpler.push(*kind);
        }
        for replacement in simpler {
            let mut changed = operations.clone();
            changed[index].fault = Some(replacement);
            candidates.push(Schedule { operations: changed });
        }
    }
    for (index, operation) in operations.iter().enumerate() {
        if operation.fault.is_some() {
            let mut changed = operations.clone();
            changed[index].fault = None;
            candidates.push(Schedule { operations: changed });
        }
    }
    candidates
}

fn tidy(mut operations: Vec<Operation>) -> Schedule {
    if let Some(last) = operations.last_mut()
        && last.fault == Some(Fault::Reorder)
    {
        last.fault = None;
    }
    Schedule { operations }
}
