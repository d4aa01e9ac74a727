//! TEMPORARY stub of the decisive moments (replaced by the moments branch on merge).

use serde::{Deserialize, Serialize};

use crate::inbox::ConsumeOutcome;
use crate::sim::{SimEvent, TraceStep};
use crate::view::{Lane, Language};

/// A decisive moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentKind {
    /// P1.
    ReservationAlreadyPresent,
    /// P4.
    InboxDuplicate,
    /// P2.
    AlreadyPaid,
    /// 409.
    KeyInProgress,
    /// 422.
    KeyReused,
    /// Takeover.
    LeaseTakeover,
    /// Stale.
    StaleCompletion,
    /// Replay.
    ResponseReplayed,
}

impl MomentKind {
    /// Headline.
    pub fn headline(self, _language: Language) -> &'static str {
        "moment"
    }
}

/// A moment at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moment {
    /// Step from 1.
    pub step: usize,
    /// Kind.
    pub kind: MomentKind,
    /// Lane.
    pub lane: Lane,
}

/// The moments of a step.
pub fn step_moments(step: &TraceStep) -> Vec<MomentKind> {
    use crate::idempotency::IdempotencyEvent as E;
    let mut kinds = Vec::new();
    for event in &step.events {
        let kind = match event {
            SimEvent::MessageConsumed {
                outcome: ConsumeOutcome::DuplicateIgnored { .. }, ..
            } => Some(MomentKind::InboxDuplicate),
            SimEvent::MessageConsumed {
                outcome:
                    ConsumeOutcome::MessageProcessed {
                        effect_output:
                            crate::stock::StockReservationEvent::ReservationAlreadyPresent { .. },
                        ..
                    },
                ..
            } => Some(MomentKind::ReservationAlreadyPresent),
            SimEvent::Idempotency { event: E::FingerprintMismatch { .. } } => {
                Some(MomentKind::KeyReused)
            }
            SimEvent::Idempotency { event: E::KeyTakenOver { .. } } => {
                Some(MomentKind::LeaseTakeover)
            }
            SimEvent::Idempotency { event: E::ResponseReplayed { .. } } => {
                Some(MomentKind::ResponseReplayed)
            }
            _ => None,
        };
        if let Some(kind) = kind
            && !kinds.contains(&kind)
        {
            kinds.push(kind);
        }
    }
    kinds
}

/// Every step's moments.
pub fn moments(steps: &[TraceStep]) -> Vec<Moment> {
    let mut all = Vec::new();
    for step in steps {
        for kind in step_moments(step) {
            all.push(Moment { step: step.step, kind, lane: Lane::Store });
        }
        if step.statement.as_deref().is_some_and(|s| s.starts_with("SELECT status, payment_id")) {
            all.push(Moment { step: step.step, kind: MomentKind::AlreadyPaid, lane: Lane::Api });
        }
    }
    all
}
