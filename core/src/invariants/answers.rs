//! I4 and I7, the invariants judged on the API's answers and the handler runs of the history:
//! same key, same answer, for the same request only (and one handler per key at a time), and
//! no 5xx for a duplicate.

use std::collections::BTreeMap;

use super::{AnswerSource, Finding, FoundAnswer, InvariantId, KeyHold, RowRef, Violation};
use crate::history::{
    ApiResponse, HandlerRun, HandlerRunEnd, HandlerRunId, History, RequestAttempt, ResponseOrigin,
};
use crate::ids::{IdempotencyKey, Tick};

/// I4: every completed request with the same key got the same status and body, the key's
/// answer went only to requests like the one it was first given to, and a key's handler never
/// ran twice while the key was held.
///
/// The answers compared are those whose [`ResponseOrigin::is_answer_of_the_key`]: the answer of
/// a handler that completed the key (`Completed`; every answer of the naive twin) and replays of
/// the stored answer (`Replayed`). The first such answer of a key is the reference. A later one
/// given to a request with another fingerprint (method, path, body) is a violation whatever its
/// status and body: a replay of the stored answer to another payload (a layer that does not
/// compare fingerprints answers a reused key with the first request's answer, so the answers
/// agree and only this rule sees it), or the handler run again for it (the naive twin under
/// fault F7); a reused key must get 422, which is a refusal and not the key's answer. A later
/// one for the same fingerprint with another status or body is a violation too. Refusals that
/// never ran the handler (400, 409, 422) and failures whose key was released are not the key's
/// answer and are not compared. A key forgotten after the retention window and run again is
/// compared with its first answer too: that is fault F10's lesson, and the lab shows it red.
///
/// Handler runs of one key are taken in the order they started (ties in the order recorded); a
/// run that starts while an earlier one still holds the key (see
/// [`HandlerRun::holds_key_until`]) is a violation, naming the earlier run that holds it
/// longest.
pub(crate) fn check_i4_same_key_same_answer(history: &History) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut first_answers: BTreeMap<IdempotencyKey, usize> = BTreeMap::new();
    for (index, response) in history.responses().iter().enumerate() {
        i4_answer(history, &mut first_answers, index, response, &mut violations);
    }

    let mut runs_by_key: BTreeMap<IdempotencyKey, Vec<(HandlerRunId, &HandlerRun)>> =
        BTreeMap::new();
    for (index, run) in history.handler_runs().iter().enumerate() {
        runs_by_key.entry(run.key).or_default().push((HandlerRunId(index), run));
    }
    for (key, mut runs) in runs_by_key {
        i4_key_runs(key, &mut runs, &mut violations);
    }
    violations
}

/// I4's first half for one answer, the response at `index` of `history`: the first answer of
/// its key (recorded in `first_answers`, the position of each key's first answer) is the
/// reference; a later one is compared with it.
pub(super) fn i4_answer(
    history: &History,
    first_answers: &mut BTreeMap<IdempotencyKey, usize>,
    index: usize,
    response: &ApiResponse,
    violations: &mut Vec<Violation>,
) {
    let Some(key) = response.key else { return };
    if !response.origin.is_answer_of_the_key() {
        return;
    }
    let Some(&first_index) = first_answers.get(&key) else {
        first_answers.insert(key, index);
        return;
    };
    let Some(first) = history.responses().get(first_index) else { return };
    if first.fingerprint != response.fingerprint {
        violations.push(another_request(key, (first_index, first), (index, response)));
    } else if (first.status, &first.body) != (response.status, &response.body) {
        violations.push(Violation::new(
            InvariantId::I4,
            vec![RowRef::Response { index: first_index }, RowRef::Response { index }],
            Finding::DifferentAnswers {
                key,
                first: (found(first), first.answered_at),
                then: (found(response), response.answered_at),
                source: source(response.origin),
            },
        ));
    }
}

/// I4's second half for the handler runs of one key (in the order they were recorded; sorted
/// here by start).
pub(super) fn i4_key_runs(
    key: IdempotencyKey,
    runs: &mut [(HandlerRunId, &HandlerRun)],
    violations: &mut Vec<Violation>,
) {
    runs.sort_by_key(|(id, run)| (run.started_at, *id));
    // The earlier run that holds the key longest, and until when.
    let mut holder: Option<(HandlerRunId, &HandlerRun, HoldEnd)> = None;
    for &(id, run) in runs.iter() {
        if let Some((holder_id, holder_run, holder_end)) = holder
            && holder_end.holds_at(run.started_at)
        {
            violations.push(Violation::new(
                InvariantId::I4,
                vec![RowRef::HandlerRun { run: holder_id }, RowRef::HandlerRun { run: id }],
                Finding::HandlerRanTwice {
                    key,
                    run: (id, run.lease.map(|lease| lease.fencing_token.0), run.started_at),
                    holder: (holder_id, holder_run.started_at),
                    hold: hold_of(holder_run),
                },
            ));
        }
        let end = HoldEnd::of(run);
        if holder.is_none_or(|(_, _, holder_end)| end > holder_end) {
            holder = Some((id, run, end));
        }
    }
}

/// The violation of a key's answer (`response`, at `index`) given to a request with another
/// fingerprint than the key's first answer (`first`, at `first_index`).
fn another_request(
    key: IdempotencyKey,
    (first_index, first): (usize, &ApiResponse),
    (index, response): (usize, &ApiResponse),
) -> Violation {
    Violation::new(
        InvariantId::I4,
        vec![RowRef::Response { index: first_index }, RowRef::Response { index }],
        Finding::AnotherRequest {
            key,
            answer: (found(response), response.answered_at),
            first_at: first.answered_at,
            source: source(response.origin),
        },
    )
}

/// Until when a run holds its key; `Forever` sorts after every tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum HoldEnd {
    Until(Tick),
    Forever,
}

impl HoldEnd {
    fn of(run: &HandlerRun) -> HoldEnd {
        run.holds_key_until().map_or(HoldEnd::Forever, HoldEnd::Until)
    }

    fn holds_at(self, tick: Tick) -> bool {
        match self {
            HoldEnd::Until(end) => tick < end,
            HoldEnd::Forever => true,
        }
    }
}

fn hold_of(run: &HandlerRun) -> KeyHold {
    match (run.lease, run.end) {
        (Some(lease), None) => {
            KeyHold::Lease { token: lease.fencing_token.0, until: lease.expires_at }
        }
        (Some(lease), Some(HandlerRunEnd::Crashed { at })) => {
            KeyHold::CrashedInLease { at, token: lease.fencing_token.0, until: lease.expires_at }
        }
        (Some(lease), Some(HandlerRunEnd::Finished { at })) if at < lease.expires_at => {
            KeyHold::FinishedInLease { at, token: lease.fencing_token.0, until: lease.expires_at }
        }
        (Some(lease), Some(HandlerRunEnd::Finished { at })) => {
            KeyHold::LeaseAfterFinish { token: lease.fencing_token.0, until: lease.expires_at, at }
        }
        (None, None) => KeyHold::NoLeaseRunning,
        (None, Some(HandlerRunEnd::Finished { at })) => KeyHold::NoLeaseFinished { at },
        (None, Some(HandlerRunEnd::Crashed { at })) => KeyHold::NoLeaseCrashed { at },
    }
}

fn found(response: &ApiResponse) -> FoundAnswer {
    FoundAnswer { status: response.status, body: response.body.clone() }
}

fn source(origin: ResponseOrigin) -> AnswerSource {
    match origin {
        ResponseOrigin::Replayed => AnswerSource::Replay,
        ResponseOrigin::Completed | ResponseOrigin::Released | ResponseOrigin::Refused => {
            AnswerSource::HandlerRanAgain
        }
    }
}

/// I7: no duplicate request ([`RequestAttempt::Duplicate`]) got a 5xx answer, whatever the
/// answer's origin.
pub(crate) fn check_i7_no_server_error_for_a_duplicate(history: &History) -> Vec<Violation> {
    history
        .responses()
        .iter()
        .enumerate()
        .filter_map(|(index, response)| i7_response(index, response))
        .collect()
}

/// I7 for one answer, the response at `index`.
pub(super) fn i7_response(index: usize, response: &ApiResponse) -> Option<Violation> {
    if response.attempt != RequestAttempt::Duplicate || response.status < 500 {
        return None;
    }
    Some(Violation::new(
        InvariantId::I7,
        vec![RowRef::Response { index }],
        Finding::ServerErrorForDuplicate {
            key: response.key,
            answer: (found(response), response.answered_at),
        },
    ))
}
