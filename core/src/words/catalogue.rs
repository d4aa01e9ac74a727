//! The shape of a language's catalogue: [`Words`], one field per entry, declared once by the
//! `words!` macro, which also lists every entry by name ([`Words::entries`]) for the tests
//! that compare the languages.

use super::plural::Plural;

/// A plain text or a template with `{name}` placeholders.
pub(crate) type Text = &'static str;

/// One entry of a catalogue, as [`Words::entries`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A text or template.
    Text(&'static str),
    /// Plural forms.
    Plural(Plural),
}

impl From<&'static str> for Entry {
    fn from(text: &'static str) -> Entry {
        Entry::Text(text)
    }
}

impl From<Plural> for Entry {
    fn from(plural: Plural) -> Entry {
        Entry::Plural(plural)
    }
}

macro_rules! words {
    ($( $(#[$doc:meta])* $name:ident : $ty:ident, )*) => {
        /// Every learner-facing string of the lab in one language. Placeholders are named in
        /// braces (`{order}`); a [`Plural`]'s forms have `{n}` for the count.
        #[derive(Debug, PartialEq, Eq)]
        pub struct Words {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        impl Words {
            /// Every entry with its field's name, in declaration order.
            pub fn entries(&self) -> Vec<(&'static str, Entry)> {
                vec![ $( (stringify!($name), Entry::from(self.$name)), )* ]
            }
        }
    };
}

words! {
    // Counts.
    /// How many times, for 1 (`once`).
    times_once: Text,
    /// How many times, for 2 (`twice`).
    times_twice: Text,
    /// How many times, any other count (`3 times`).
    times: Plural,
    /// A number of steps.
    steps: Plural,
    /// A number of the learner's choices (the faults and actions they took in a run).
    choices: Plural,
    /// A number of units of a sku (a reservation's quantity).
    units: Plural,
    /// A number of ticks of the virtual clock.
    ticks: Plural,
    /// A number of cases of the fuzzer.
    cases: Plural,
    /// A number of states of the checker.
    states: Plural,

    // Names of the run's things.
    /// A request of the scenario, by number.
    request_name: Text,
    /// A send of a request (its first attempt, a retry), by number.
    attempt_name: Text,
    /// A queued copy of a message, by number.
    entry_name: Text,
    /// A handler run under a key, by number.
    run_name: Text,

    // The invariants' findings (`invariants::Finding`), one sentence each.
    /// I1: stock on hand is not what is available plus reserved.
    i1_not_conserved: Text,
    /// I1: available stock below zero.
    i1_below_zero: Text,
    /// I1: reserved stock of a sku that has no stock row.
    i1_no_stock_row: Text,
    /// I2: a reservation for an order that does not exist.
    i2_no_order: Text,
    /// I2: a reservation of a sku the order has no line of.
    i2_no_line: Text,
    /// I2: more reserved than the order asks for.
    i2_too_much: Text,
    /// I2: how often the effect ran, when the reservation is a multiple of the line.
    i2_effect_ran: Text,
    /// I2: how often the effect ran, otherwise.
    i2_effects_ran: Text,
    /// I2: a negative reservation.
    i2_negative: Text,
    /// I3: one charge in a list of charges.
    i3_charge_item: Text,
    /// I3: an order charged more than once.
    i3_charged_again: Text,
    /// I3: a charge for an order that does not exist.
    i3_no_order: Text,
    /// I3: an order with a payment that was never charged.
    i3_never_charged: Text,
    /// I3: an order whose charge is for another payment.
    i3_other_payment: Text,
    /// I4: an answer with an empty body.
    answer_empty: Text,
    /// I4, I7: an answer with a body.
    answer_body: Text,
    /// I4: two answers of a key differ.
    i4_different_answers: Text,
    /// I4: the later answer was a replay.
    i4_how_replay: Text,
    /// I4: the handler ran again for the later answer.
    i4_how_ran_again: Text,
    /// I4: a key's answer went to another request.
    i4_another_request: Text,
    /// I4: that answer was a replay of the stored answer.
    i4_how_replay_stored: Text,
    /// I4: the handler ran again for that request.
    i4_how_ran_again_for_it: Text,
    /// I4: a key's handler ran while an earlier run held the key.
    i4_ran_twice: Text,
    /// I4: the later run's fencing token.
    i4_with_token: Text,
    /// I4: the holder's lease still runs.
    hold_lease: Text,
    /// I4: the holder crashed inside its lease.
    hold_crashed_in_lease: Text,
    /// I4: the holder finished inside its lease.
    hold_finished_in_lease: Text,
    /// I4: the holder's lease runs past its finish.
    hold_lease_after_finish: Text,
    /// I4: the holder had no lease and still ran.
    hold_no_lease_running: Text,
    /// I4: the holder had no lease and finished.
    hold_no_lease_finished: Text,
    /// I4: the holder had no lease and crashed.
    hold_no_lease_crashed: Text,
    /// I5: an inbox row without an effect.
    i5_row_without_effect: Text,
    /// I5: an inbox row after its purge, with no effect since.
    i5_row_after_purge: Text,
    /// I5: an effect without its inbox row.
    i5_effect_without_row: Text,
    /// I5: more than one effect between purges.
    i5_effects_between_purges: Text,
    /// I6: a placed order without its `OrderPlaced` message.
    i6_no_message: Text,
    /// I6: a message not processed exactly once by a consumer.
    i6_not_once: Text,
    /// I7: a duplicate got a 5xx.
    i7_server_error: Text,
    /// I7: the duplicate's key.
    i7_with_key: Text,
    /// I7: the duplicate had no key.
    i7_without_key: Text,

    // The CLI's reports (runs, checks, fuzzing, replays).
    /// How a run stopped, after how many steps, at which tick.
    report_stopped: Text,
    /// Why a run ended (the CLI's report and the page's caption): it is still running.
    stop_running: Text,
    /// A run with nothing left to do.
    stop_quiescent: Text,
    /// A run stuck with work pending.
    stop_stuck: Text,
    /// A run that hit its step limit.
    stop_step_limit: Text,
    /// A run whose trace is full.
    stop_trace_full: Text,
    /// A run whose step failed.
    stop_step_failed: Text,
    /// The faults that fired in a run.
    report_faults: Text,
    /// Every invariant held.
    report_all_held: Text,
    /// How many invariants a run violated.
    report_violated: Text,
    /// Where an invariant first broke.
    report_first_broken: Text,
    /// An invariant still violated at the end.
    report_still: Text,
    /// An invariant that held again by the end.
    report_held_again: Text,
    /// A trace without the violation's sentence.
    report_no_sentence: Text,
    /// The checker's proof.
    check_proved: Text,
    /// The checker stopped by a bound.
    check_bounded: Text,
    /// The checker found a violation.
    check_violated: Text,
    /// Before the counterexample's trace.
    check_counterexample: Text,
    /// Why a check stopped: paths deeper than the depth bound exist.
    check_bound_depth_max: Text,
    /// A handler program's verdict: it holds for every schedule within the bounds.
    handler_holds: Text,
    /// The faults a consumer program is judged against.
    handler_consumer_faults: Text,
    /// Why a program that acknowledges before its commit fails.
    handler_why_ack_before_commit: Text,
    /// Why a program that commits the inbox row apart from the effect fails.
    handler_why_inbox_own_transaction: Text,
    /// Why a program that checks with a `SELECT` instead of the unique key fails.
    handler_why_check_then_insert: Text,
    /// Why a program without an inbox fails.
    handler_why_no_inbox: Text,
    /// Why a `MarkPaid` program that decides on a plain `SELECT` fails.
    handler_why_check_then_update: Text,
    /// Why a `MarkPaid` program whose `UPDATE` has no status guard fails.
    handler_why_unguarded_update: Text,
    /// Why, when the program's mistake is none of the typical ones.
    handler_why_other: Text,
    /// The schedules a `MarkPaid` program is judged over.
    handler_mark_paid_faults: Text,
    /// Why a check stopped: its store of unique states is full.
    check_bound_states_max: Text,
    /// Why a check stopped: what it holds reached its memory bound.
    check_bound_bytes_max: Text,
    /// Why a check stopped: a step hit a limit of the model (the error in English).
    check_bound_model_limit: Text,
    /// The page's check panel, a check stopped by a bound.
    check_panel_bounded: Text,
    /// The fuzzer found nothing.
    fuzz_no_violation: Text,
    /// The fuzzer found a violation and shrank it.
    fuzz_violation: Text,
    /// The faults that fired in the shrunk case.
    fuzz_fired: Text,
    /// How many injections the shrunk case keeps.
    fuzz_injections: Text,
    /// The shrunk case has no random faults.
    fuzz_rates_none: Text,
    /// The shrunk case's random fault rates.
    fuzz_rates: Text,
    /// One random fault rate.
    fuzz_rate: Text,
    /// Before the shrunk case's trace.
    fuzz_shrunk_trace: Text,
    /// A trace that reproduces.
    replay_reproduces: Text,
    /// A trace that does not reproduce.
    replay_differs: Text,
    /// The head of a run: scenario, mode, patterns, seed.
    run_header: Text,

    // The decisive moments of a run (`view::MomentKind`): a headline, and why it matters.
    /// P1: the reservation's `INSERT ... ON CONFLICT DO NOTHING` met its row.
    moment_reservation_already_present: Text,
    /// Why that matters, in one line.
    moment_reservation_already_present_why: Text,
    /// P4: the inbox row's `INSERT` met the unique key.
    moment_inbox_duplicate: Text,
    /// Why that matters, in one line.
    moment_inbox_duplicate_why: Text,
    /// P2: `MarkPaid` on an order this payment paid already.
    moment_already_paid: Text,
    /// Why that matters, in one line.
    moment_already_paid_why: Text,
    /// P3: 409, the key's first request is still in progress.
    moment_key_in_progress: Text,
    /// Why that matters, in one line.
    moment_key_in_progress_why: Text,
    /// P3: 422, the key was used with another body.
    moment_key_reused: Text,
    /// Why that matters, in one line.
    moment_key_reused_why: Text,
    /// P3: the lease expired and this request took the key over.
    moment_lease_takeover: Text,
    /// Why that matters, in one line.
    moment_lease_takeover_why: Text,
    /// P3: a completion with an older fencing token was refused.
    moment_stale_completion: Text,
    /// Why that matters, in one line.
    moment_stale_completion_why: Text,
    /// P3: the key's stored answer was replayed.
    moment_response_replayed: Text,
    /// Why that matters, in one line.
    moment_response_replayed_why: Text,

    // The page's opening of a long run (a share link, a trace file) in slices.
    /// The progress line: the steps taken so far and the steps the run opens to.
    opening_progress: Text,
    /// The button that stops the opening.
    opening_cancel: Text,
    /// After Cancel: how far it got (a number of [`Words::steps`] of the steps it opened to),
    /// and what the page shows.
    opening_cancelled: Text,
    /// After a seed change, a scenario change or Keep (below): the learner's choices not
    /// carried into the new run, since what they hit is not in it (a number of
    /// [`Words::choices`]), and the steps they were made at.
    choices_dropped: Text,
    /// A lesson's run opened without the learner's choices of the run it replaced: how many
    /// there are (`{n}`), before the button that keeps them.
    carry_offer: Plural,
    /// The button that carries those choices into the lesson's run.
    carry_offer_keep: Text,

    // What the lab's banners say after an action (the page's `notices`): a refusal, and what
    // an action did to the learner's choices.
    /// A share link that cannot be opened, and why (`{why}`: the core's typed error, which
    /// names the field).
    problem_link: Text,
    /// A run (a trace file, a link's run) that cannot be opened or shown, and why.
    problem_run: Text,
    /// A file that reads as neither a trace nor a scenario, with both reasons.
    problem_file_kind: Text,
    /// A file the browser could not read.
    problem_file_unread: Text,
    /// A fault whose target is gone at the step shown (`{fault}`: the action in words).
    problem_fault_no_target: Text,
    /// A fault that the world does not allow at the step shown.
    problem_fault_not_enabled: Text,
    /// A fault refused for another reason.
    problem_fault: Text,
    /// The learner's choices a run never reaches the target of (a number of
    /// [`Words::choices`], and each one's step and target): they stay in the run.
    notice_choices_missed: Text,
    /// One choice of those: its step and its target.
    notice_choice_missed: Text,
    /// A fault placed before the run's last step: a new branch from `{step}`.
    notice_new_branch: Text,
    /// The same, when later choices of the learner's were replaced too (a number of
    /// [`Words::choices`]).
    notice_new_branch_choices: Text,
    /// The button that closes a banner.
    banner_dismiss: Text,
    /// What a choice hits, in a notice: a request's send.
    target_send: Text,
    /// A queued copy of a message (`{copy}` from 1).
    target_copy: Text,
    /// A consumer's delivery of a message.
    target_delivery: Text,
    /// A copy delivered to an instance.
    target_copy_to: Text,
    /// A request sent with another request's key.
    target_key_of: Text,
    /// The `OrderPlaced` message of a request.
    target_order_placed_of: Text,
    /// A message by its id.
    target_message: Text,
    /// The outbox relay.
    target_relay: Text,
    /// The retention job.
    target_retention: Text,
    /// The clock.
    target_clock: Text,

    // The learner's and the scheduler's actions in words (`view::action_text`), and the
    // fault buttons' labels (`view::fault_button_text`).
    /// `act_client_send`: client sends request {request}
    act_client_send: Text,
    /// `act_client_timeout`: client times out on request {request}
    act_client_timeout: Text,
    /// `act_client_retry`: client retries request {request}
    act_client_retry: Text,
    /// `act_api_step`: API runs a statement of send {attempt}
    act_api_step: Text,
    /// `act_deliver_response`: network delivers the answer to send {attempt}
    act_deliver_response: Text,
    /// `act_relay_step`: relay runs a statement
    act_relay_step: Text,
    /// `act_broker_deliver`: broker delivers copy {entry} to {instance}
    act_broker_deliver: Text,
    /// `act_consumer_step`: {instance} runs a statement
    act_consumer_step: Text,
    /// `act_purge_step`: retention job runs a statement
    act_purge_step: Text,
    /// `act_advance_clock`: clock advances {ticks}
    act_advance_clock: Text,
    /// `act_duplicate`: duplicate copy {entry}
    act_duplicate: Text,
    /// `act_crash_after_commit`: crash {instance} after commit
    act_crash_after_commit: Text,
    /// `act_crash_before_commit`: crash {instance} before commit
    act_crash_before_commit: Text,
    /// `act_deliver_concurrently`: deliver copy {entry} to {instance} too
    act_deliver_concurrently: Text,
    /// `act_lose_response`: lose the answer to send {attempt}
    act_lose_response: Text,
    /// `act_double_submit`: double-submit request {request}
    act_double_submit: Text,
    /// `act_send_with_key_of`: send request {request} with the key of request {key_of}
    act_send_with_key_of: Text,
    /// `act_crash_api`: crash the API during send {attempt}
    act_crash_api: Text,
    /// `act_hold_until`: hold copy {entry} until request {request} is answered
    act_hold_until: Text,
    /// `act_hold_ticks`: hold copy {entry} for {ticks}
    act_hold_ticks: Text,
    /// `act_after_retention`: redeliver copy {entry} after retention
    act_after_retention: Text,
    /// `act_retry_new_key`: retry request {request} with a new key
    act_retry_new_key: Text,
    /// `act_crash_relay`: crash the relay after publish
    act_crash_relay: Text,
    /// `btn_duplicate`: Duplicate
    btn_duplicate: Text,
    /// `btn_race`: Race: also to {instance}
    btn_race: Text,
    /// `btn_hold_ticks`: Hold back {ticks}
    btn_hold_ticks: Text,
    /// `btn_hold_until`: Hold until request {request} is answered
    btn_hold_until: Text,
    /// `btn_after_retention`: Again after retention
    btn_after_retention: Text,
    /// `btn_crash_after_commit`: Crash after commit
    btn_crash_after_commit: Text,
    /// `btn_crash_before_commit`: Crash before commit
    btn_crash_before_commit: Text,
    /// `btn_lose_response`: Lose this answer
    btn_lose_response: Text,
    /// `btn_crash_api`: Crash the API
    btn_crash_api: Text,
    /// `btn_double_submit`: Double submit
    btn_double_submit: Text,
    /// `btn_reuse_key`: Reuse the key of request {key_of}
    btn_reuse_key: Text,
    /// `btn_retry_new_key`: Retry with a new key
    btn_retry_new_key: Text,
    /// `btn_crash_relay`: Crash after publish
    btn_crash_relay: Text,
    /// `btn_advance_clock`: Let {ticks} pass
    btn_advance_clock: Text,
    // The course's judgements of a learner's run (`course`).
    /// The naive twin, as a course's reason names it.
    course_naive: Text,
    /// The idempotent twin, as a course's reason names it.
    course_idempotent: Text,
    /// A task's run is of another scenario.
    course_other_scenario: Text,
    /// A task asks for these switches of every pattern (`{patterns}`).
    course_patterns: Text,
    /// A task asks for a fault of the learner's own.
    course_no_fault: Text,
    /// The learner placed more faults than a task allows.
    course_too_many_faults: Text,
    /// The learner placed fewer faults than a task asks for.
    course_too_few_faults: Text,
    /// A fault of a class a task does not count.
    course_fault_not_allowed: Text,
    /// The invariant a task asks to break still holds.
    course_not_broken: Text,
    /// A task needs the whole run.
    course_not_at_end: Text,
    /// An invariant a task asks to keep broke.
    course_broken: Text,
    /// A task asks for exactly one pattern (`{pattern}`) switched from the lesson's start
    /// (`{start}`).
    course_not_one_switch: Text,
    /// The same schedule does not break the invariant naive either.
    course_naive_holds_too: Text,
    /// A task asks for exactly one pattern, any of `{candidates}`, switched from the lesson's
    /// start (`{start}`).
    course_not_one_switch_any: Text,

    // The CLI's course and lesson.
    /// One lesson in `course`: its number, id, title and how many steps it has.
    course_list_line: Text,
    /// `lesson`: the lesson's number of all, and title.
    lesson_heading: Text,
    /// `lesson`: a narration, and the point of the run it is bound to.
    lesson_narration: Text,
    /// `lesson`: a prediction, and the twin it is about.
    lesson_prediction: Text,
    /// `lesson`: a task.
    lesson_task: Text,
    /// `lesson`: under a task whose run starts without the scenario's scripted faults, how to
    /// start it from a terminal and place one's own.
    lesson_task_own_faults: Text,
    /// `lesson`: how to grade one's own runs.
    lesson_check_hint: Text,
    /// `lesson --check`: a task passed.
    lesson_task_passed: Text,
    /// `lesson --check`: a task not yet passed, the core's reason and the task's hint.
    lesson_task_not_yet: Text,
    /// `lesson --check`: how many of the lesson's tasks passed.
    lesson_summary: Text,
    /// A narration's point: the run's start.
    point_start: Text,
    /// A narration's point: the run's end.
    point_end: Text,
    /// A narration's point: a decisive moment.
    point_moment: Text,
    /// A narration's point: where an invariant breaks.
    point_break: Text,
    /// A point: where a fault class is first offered.
    point_fault: Text,

    // The page's Compare view.
    /// Compare: `Both twins end the same: this schedule does not tell them apart.`
    cmp_same: Text,
    /// Compare: `Broken only by the naive twin: {invariants}. Rows that differ at the end: {rows}.`
    cmp_verdict: Text,
    /// Compare: `none`
    cmp_none: Text,
    /// Compare: `Naive and idempotent side by side`
    cmp_aria: Text,
    /// Compare: `Same schedule, both twins`
    cmp_heading: Text,
    /// Compare: `{twin}: taken at step {step}`
    cmp_taken: Text,
    /// Compare: `{twin}: not applied, no such target in this twin`
    cmp_missing: Text,
    /// Compare: `Your choice at step {step} on {target}: {naive}; {idempotent}.`
    cmp_choice: Text,
    /// Compare: `naive`
    cmp_naive: Text,
    /// Compare: `idempotent`
    cmp_idempotent: Text,
    /// Compare: `Naive twin: {steps}`
    cmp_side_naive: Text,
    /// Compare: `Idempotent twin: {steps}`
    cmp_side_idempotent: Text,
    // The trainer's link into the course (`course::link`).
    /// A course link that does not read (`{why}`: one of the next entries).
    course_link_malformed: Text,
    /// Why: the link is too long (`{bytes}`, `{max}`).
    course_link_too_long: Text,
    /// Why: a part is not `name=value` (`{part}`).
    course_link_not_a_field: Text,
    /// Why: a field a course link does not have (`{field}`).
    course_link_unknown_field: Text,
    /// Why: a field given twice (`{field}`).
    course_link_duplicate_field: Text,
    /// Why: the step given both as `step` (from 1) and as `at` (from 0).
    course_link_step_twice: Text,
    /// Why: no lesson named.
    course_link_no_lesson: Text,
    /// Why: `step` or `at` (`{field}`) is not a step number (`{value}`).
    course_link_bad_step: Text,
    /// Why: `presenter` is neither 1 nor 0 (`{value}`).
    course_link_bad_presenter: Text,
    /// The course has no such lesson (`{id}`).
    course_link_unknown_lesson: Text,
    /// The lesson has no such step (`{lesson}`, `{step}` from 1, its last step `{last}`).
    course_link_step_out_of_range: Text,

    // The invariants' names and statements (`InvariantId::title`, `description`), the fault
    // classes' (`FaultClass::description`) and the patterns' (`sim::Pattern`).
    /// I1's title.
    i1_title: Text,
    /// I2's title.
    i2_title: Text,
    /// I3's title.
    i3_title: Text,
    /// I4's title.
    i4_title: Text,
    /// I5's title.
    i5_title: Text,
    /// I6's title.
    i6_title: Text,
    /// I7's title.
    i7_title: Text,
    /// What I1 says.
    i1_description: Text,
    /// What I2 says.
    i2_description: Text,
    /// What I3 says.
    i3_description: Text,
    /// What I4 says.
    i4_description: Text,
    /// What I5 says.
    i5_description: Text,
    /// What I6 says.
    i6_description: Text,
    /// What I7 says.
    i7_description: Text,
    /// F1, in a sentence.
    f1_description: Text,
    /// F2, in a sentence.
    f2_description: Text,
    /// F3, in a sentence.
    f3_description: Text,
    /// F4, in a sentence.
    f4_description: Text,
    /// F5, in a sentence.
    f5_description: Text,
    /// F6, in a sentence.
    f6_description: Text,
    /// F7, in a sentence.
    f7_description: Text,
    /// F8, in a sentence.
    f8_description: Text,
    /// F9, in a sentence.
    f9_description: Text,
    /// F10, in a sentence.
    f10_description: Text,
    /// F11, in a sentence.
    f11_description: Text,
    /// F12, in a sentence.
    f12_description: Text,
    /// P1, what the pattern is.
    p1_title: Text,
    /// P2, what the pattern is.
    p2_title: Text,
    /// P3, what the pattern is.
    p3_title: Text,
    /// P4, what the pattern is.
    p4_title: Text,

    // The lanes of the sequence diagram (`view::Lane::name_in`).
    /// The client's lane.
    lane_client: Text,
    /// The API's lane.
    lane_api: Text,
    /// The store's lane.
    lane_store: Text,
    /// The outbox relay's lane.
    lane_relay: Text,
    /// The broker's lane.
    lane_broker: Text,
    /// A consumer instance's lane (`{name}`: A, B, ...).
    lane_consumer: Text,
    /// The retention job's lane.
    lane_retention: Text,

    // The CLI's `explain`, around the core's texts.
    /// Above the patterns a lesson switches.
    explain_patterns: Text,
    /// Above the faults of a lesson.
    explain_faults: Text,
    /// No faults, no violations.
    explain_none: Text,
    /// A fault the scenario injects.
    explain_injected: Text,
    /// A fault the scenario draws at random, `{per_million}` per million.
    explain_at_random: Text,
    /// Above what each mode violates, at `{seed}`.
    explain_expected: Text,
    /// Before the command that shows the run.
    explain_see_it: Text,

    // The page's labels (`web/src/labels.rs` hands them to the components).
    /// The line under the page's name.
    ui_tagline: Text,
    /// The language switch's accessible name.
    ui_language_switch: Text,
    /// The scenario picker's label.
    ui_scenario: Text,
    /// Before an imported scenario's title in the picker.
    ui_imported: Text,
    /// The seed field's label.
    ui_seed: Text,
    /// The seed field's error, before the largest value.
    ui_seed_error: Text,
    /// Switch the lesson's patterns to naive.
    ui_all_naive: Text,
    /// Switch the lesson's patterns to idempotent.
    ui_all_idempotent: Text,
    /// P1's switch.
    ui_p1: Text,
    /// P2's switch.
    ui_p2: Text,
    /// P3's switch.
    ui_p3: Text,
    /// P4's switch.
    ui_p4: Text,
    /// A pattern switch, naive.
    ui_naive: Text,
    /// A pattern switch, idempotent.
    ui_idempotent: Text,
    /// Reset.
    ui_reset: Text,
    /// Reset's tooltip.
    ui_reset_title: Text,
    /// Step back.
    ui_back: Text,
    /// Step back's tooltip.
    ui_back_title: Text,
    /// Step.
    ui_step: Text,
    /// Step's tooltip.
    ui_step_title: Text,
    /// Play.
    ui_play: Text,
    /// Pause.
    ui_pause: Text,
    /// Play's tooltip.
    ui_play_title: Text,
    /// Run to the end.
    ui_to_end: Text,
    /// The speed picker's label.
    ui_speed: Text,
    /// The slowest speed.
    ui_speed_slow: Text,
    /// The usual speed.
    ui_speed_normal: Text,
    /// A fast speed.
    ui_speed_fast: Text,
    /// The fastest speed.
    ui_speed_fastest: Text,
    /// The position, before `n / total`.
    ui_position: Text,
    /// Open the comparison.
    ui_compare_open: Text,
    /// Close the comparison.
    ui_compare_close: Text,
    /// Open the check and fuzz panel.
    ui_check_open: Text,
    /// Close the check and fuzz panel.
    ui_check_close: Text,
    /// Download the trace.
    ui_export_json: Text,
    /// Download the Mermaid diagram.
    ui_export_mermaid: Text,
    /// The file input's label.
    ui_import: Text,
    /// The share link's label.
    ui_share: Text,
    /// The caption before the first step.
    ui_start: Text,
    /// Before the step caption's number.
    ui_step_caption: Text,
    /// Before the step caption's tick.
    ui_tick: Text,
    /// Before the reason a run ended.
    ui_run_ended: Text,
    /// The view buttons' accessible name.
    ui_view_group: Text,
    /// Smaller type.
    ui_type_smaller: Text,
    /// Smaller type's tooltip (with its key).
    ui_type_smaller_title: Text,
    /// Larger type.
    ui_type_larger: Text,
    /// Larger type's tooltip (with its key).
    ui_type_larger_title: Text,
    /// Fullscreen.
    ui_fullscreen: Text,
    /// Fullscreen's tooltip (with its key).
    ui_fullscreen_title: Text,
    /// The presenter switch.
    ui_presenter: Text,
    /// The presenter switch's tooltip (with its key).
    ui_presenter_title: Text,
    /// The step list's accessible name (the diagram's text alternative).
    ui_step_list: Text,
    /// The step list's button that lists earlier steps, before how many are not listed.
    ui_earlier_steps: Text,
    /// Above the pending items, when something waits.
    ui_waiting_now: Text,
    /// Above the pending items, when nothing waits.
    ui_nothing_waits: Text,
    /// The clock's name, where a lane's name would be.
    ui_clock: Text,
    /// A pending item's fault buttons' accessible name, before the lane and the item.
    ui_faults_on: Text,
    /// The invariants panel's heading.
    ui_invariants: Text,
    /// The run controls' accessible name.
    ui_controls_group: Text,
    /// The step slider's accessible name.
    ui_go_to_step: Text,
    /// Beside the run's controls while a lesson's prediction is not answered: the run waits.
    ui_run_waits_for_prediction: Text,
    /// The export and import section's accessible name.
    ui_files_group: Text,
    /// The scenario section's accessible name.
    ui_scenario_group: Text,
    /// The pattern switches' accessible name.
    ui_patterns_group: Text,
    /// The check panel's accessible name.
    ui_check_group: Text,
    /// The diagram's accessible name.
    ui_sequence_diagram: Text,
    /// The diagram before the first step.
    ui_diagram_empty: Text,
    /// A dead letter, beside the invariants (`{step}`, `{message}`, `{entry}`).
    dead_lettered: Text,
    /// The diagram's button that draws earlier steps (`{hidden}` not drawn, `{more}` to draw).
    ui_earlier_not_drawn: Text,
    /// The store's tables' accessible name.
    ui_store_tables: Text,
    /// An empty table.
    ui_no_rows: Text,
    /// Under a large table, how many of its rows are drawn (`{shown}` of `{total}`).
    ui_rows_shown: Text,
    /// Under the waiting items of a large world, how many are drawn (`{shown}` of `{total}`).
    ui_pending_shown: Text,
    /// The button that draws every row or item left out (`{total}`).
    ui_show_all: Text,
    /// The button that draws only the first rows or items again.
    ui_show_fewer: Text,
    /// The jump to the step where an invariant broke (`{step}`).
    ui_go_to_break: Text,

    // The page's course view: the list of lessons, the lesson panel and its step cards.
    /// The course view's heading.
    ui_course_heading: Text,
    /// The line under it.
    ui_course_intro: Text,
    /// The list of lessons' accessible name.
    ui_course_lessons: Text,
    /// The button to the free lab.
    ui_course_free_lab: Text,
    /// Its tooltip.
    ui_course_free_lab_title: Text,
    /// The free lab's button back to the course.
    ui_course_course: Text,
    /// Open a lesson not begun (or done) from its first step.
    ui_course_start: Text,
    /// Open a lesson begun at the step the learner was at.
    ui_course_resume: Text,
    /// Open a finished lesson again.
    ui_course_again: Text,
    /// The course view's button back into the last lesson (`{lesson}`, `{step}`).
    ui_course_resume_at: Text,
    /// A lesson's progress (`{done}`, `{total}`).
    ui_course_progress: Text,
    /// A lesson's done mark.
    ui_course_done: Text,
    /// Where a lesson is in the course (`{k}`, `{n}`).
    ui_course_lesson_of: Text,
    /// Where a step is in its lesson (`{k}`, `{n}`).
    ui_course_step_of: Text,
    /// The lesson's step marks' accessible name.
    ui_course_steps_label: Text,
    /// A step mark's title: passed.
    ui_course_step_passed: Text,
    /// A step mark's title: visited.
    ui_course_step_visited: Text,
    /// A step mark's title: not yet.
    ui_course_step_ahead: Text,
    /// The lesson panel's way back to the list of lessons.
    ui_course_to_list: Text,
    /// Back a step.
    ui_course_back: Text,
    /// On to the next step.
    ui_course_next: Text,
    /// The last step's Next: finishes the lesson.
    ui_course_finish: Text,
    /// Over a narration's card.
    ui_course_kind_watch: Text,
    /// Over a prediction's card.
    ui_course_kind_predict: Text,
    /// Over a task's card.
    ui_course_kind_task: Text,
    /// A narration whose point the run has not reached.
    ui_course_not_reached: Text,
    /// Run the run on to a step's point and show it.
    ui_course_go_there: Text,
    /// A run that never reaches the point.
    ui_course_unreachable: Text,
    /// The number field's label.
    ui_course_your_answer: Text,
    /// Check a number.
    ui_course_check: Text,
    /// A number field that does not hold a whole number.
    ui_course_not_a_number: Text,
    /// "Does it hold to the end?": yes.
    ui_course_holds: Text,
    /// "Does it hold to the end?": no.
    ui_course_breaks: Text,
    /// "No invariant breaks".
    ui_course_none: Text,
    /// After a right guess.
    ui_course_correct: Text,
    /// After a wrong guess, before the hint.
    ui_course_not_quite: Text,
    /// A task done.
    ui_course_task_done: Text,
    /// Before the core's reason a task is not done.
    ui_course_not_yet: Text,
    /// Before a hint.
    ui_course_hint: Text,
    /// A check that could not run, before the error.
    ui_course_check_failed: Text,
    /// The card after the last step.
    ui_course_finished: Text,
    /// Open the next lesson (`{title}`).
    ui_course_next_lesson: Text,
    /// After the last lesson.
    ui_course_all_done: Text,

    // The pending items (`view::pending`): a label and a tooltip each, and what falls due.
    /// The retention job's item.
    pend_retention_label: Text,
    /// Its tooltip.
    pend_retention_detail: Text,
    /// A request not sent yet.
    pend_not_sent: Text,
    /// A request awaiting its answer (`{tick}`: its timeout).
    pend_awaits: Text,
    /// A request backing off (`{tick}`: its retry).
    pend_retries_at: Text,
    /// A request's item (`{what}`: method and path, `{state}`: one of the above).
    pend_request_label: Text,
    /// Its tooltip.
    pend_request_detail: Text,
    /// After an item that waits for a lock's holder (`{holder}`).
    pend_waits_for: Text,
    /// A send running in the API.
    pend_attempt_label: Text,
    /// Its tooltip.
    pend_attempt_detail: Text,
    /// An answer on the network.
    pend_answer_label: Text,
    /// Its tooltip.
    pend_answer_detail: Text,
    /// The relay, running.
    pend_relay_runs: Text,
    /// The relay, with messages published and not marked.
    pend_relay_published: Text,
    /// The outbox, with unpublished rows.
    pend_outbox_unpublished: Text,
    /// Its tooltip.
    pend_relay_detail: Text,
    /// A queued copy, not visible yet.
    pend_queued_visible: Text,
    /// A queued copy.
    pend_queued: Text,
    /// A copy in flight (`{instances}`: the consumers).
    pend_in_flight: Text,
    /// A copy held until a request is answered.
    pend_held_until_answered: Text,
    /// A copy held until a tick.
    pend_held_until_tick: Text,
    /// A late copy.
    pend_late_copy: Text,
    /// A message's item.
    pend_message_label: Text,
    /// Its tooltip.
    pend_message_detail: Text,
    /// A delivery a consumer processes.
    pend_delivery_label: Text,
    /// Its tooltip.
    pend_delivery_detail: Text,
    /// The clock's item.
    pend_clock_label: Text,
    /// Its tooltip, when nothing is named.
    pend_clock_something: Text,
    /// Its tooltip, with what falls due.
    pend_clock_due: Text,
    /// A request is due to be sent.
    due_request: Text,
    /// A request's timeout fires.
    due_timeout: Text,
    /// A request retries.
    due_retry: Text,
    /// A copy becomes visible.
    due_visible: Text,
    /// A copy's visibility timeout ends.
    due_redelivery: Text,
    /// A held copy is released.
    due_hold_ends: Text,
    /// An inbox row's retention runs out.
    due_inbox_expires: Text,
    /// A key's retention runs out.
    due_key_expires: Text,
    /// A key's lease and retention run out.
    due_key_lease_expires: Text,

    // The diagram's arrows and marks (`view::step_items_in`), their short labels.
    /// F4's mark.
    dg_concurrent: Text,
    /// F6's mark.
    dg_double_submit: Text,
    /// F7's mark.
    dg_key_of: Text,
    /// F11's mark.
    dg_retry_new_key: Text,
    /// An invariant broken at this step.
    dg_violated: Text,
    /// After a request sent again.
    dg_again: Text,
    /// A stored answer replayed.
    dg_replayed: Text,
    /// A 409.
    dg_key_in_progress: Text,
    /// A 422.
    dg_key_reused: Text,
    /// An API run that failed.
    dg_failed_no_answer: Text,
    /// F8's mark.
    dg_api_crash: Text,
    /// A lock wait.
    dg_waits_for: Text,
    /// A late answer.
    dg_late_ignored: Text,
    /// F5's mark.
    dg_response_lost: Text,
    /// A client's timeout.
    dg_timeout: Text,
    /// A client out of attempts.
    dg_gave_up: Text,
    /// The relay's publish arrow.
    dg_publish: Text,
    /// The relay failed.
    dg_relay_failed: Text,
    /// F12's mark.
    dg_relay_crash: Text,
    /// The broker's delivery arrow.
    dg_deliver: Text,
    /// A redelivery's mark.
    dg_delivery_again: Text,
    /// F1's mark.
    dg_duplicate: Text,
    /// F9's mark.
    dg_hold: Text,
    /// A held copy released.
    dg_release: Text,
    /// A dead-lettered copy.
    dg_dead_lettered: Text,
    /// P4's inbox ignored a duplicate.
    dg_duplicate_ignored: Text,
    /// The consumer's ack arrow.
    dg_ack: Text,
    /// A consumer's failure.
    dg_failed_no_ack: Text,
    /// A consumer crash.
    dg_crash: Text,
    /// F3's mark.
    dg_crash_before_commit: Text,
    /// F2's mark.
    dg_crash_after_commit: Text,
    /// A crash after the ack.
    dg_crash_after_ack: Text,
    /// The retention job failed.
    dg_retention_failed: Text,
    /// A deadlock's victim.
    dg_deadlock: Text,
    // The diagram's tooltips: what each arrow and mark says in full.
    /// F4's mark: a copy delivered while in flight elsewhere: its tooltip.
    dgt_concurrent: Text,
    /// F6's mark: its tooltip.
    dgt_double_submit: Text,
    /// F7's mark: its tooltip.
    dgt_key_of: Text,
    /// F11's mark: its tooltip.
    dgt_retry_new_key: Text,
    /// A request's arrow: its tooltip.
    dgt_request_sent: Text,
    /// A replayed answer: its tooltip.
    dgt_replayed: Text,
    /// A key in progress: its tooltip.
    dgt_key_in_progress: Text,
    /// A key reused with another payload: its tooltip.
    dgt_key_reused: Text,
    /// The API failed (`{error}` is the store's): its tooltip.
    dgt_api_failed: Text,
    /// F8, nothing open: its tooltip.
    dgt_api_crash: Text,
    /// F8 with an open transaction: its tooltip.
    dgt_api_crash_rolled_back: Text,
    /// A lock wait: its tooltip.
    dgt_waits_for: Text,
    /// A response's arrow: its tooltip.
    dgt_answer: Text,
    /// A late answer: its tooltip.
    dgt_late_ignored: Text,
    /// F5's mark: its tooltip.
    dgt_response_lost: Text,
    /// A client's timeout: its tooltip.
    dgt_timeout: Text,
    /// A client gave up: its tooltip.
    dgt_gave_up: Text,
    /// A publish arrow: its tooltip.
    dgt_published: Text,
    /// F12's mark: its tooltip.
    dgt_relay_crash: Text,
    /// A delivery's arrow: its tooltip.
    dgt_delivered: Text,
    /// A delivery after the first: its tooltip.
    dgt_delivered_again: Text,
    /// A duplicated message: its tooltip.
    dgt_duplicate: Text,
    /// F9's mark: its tooltip.
    dgt_held: Text,
    /// A held copy released: its tooltip.
    dgt_released: Text,
    /// A dead letter: its tooltip.
    dgt_dead_lettered: Text,
    /// A duplicate the inbox ignored: its tooltip.
    dgt_duplicate_ignored: Text,
    /// An ack's arrow: its tooltip.
    dgt_ack: Text,
    /// An ack's arrow without a message id: its tooltip.
    dgt_ack_delivery: Text,
    /// A consumer crash (`{crashed}` is where, as data): its tooltip.
    dgt_consumer_crashed: Text,
    /// A deadlock: its tooltip.
    dgt_deadlock: Text,
    // The check panel.
    /// The panel's heading.
    ck_heading: Text,
    /// The target's label.
    ck_what: Text,
    /// The fault budget's label.
    ck_faults: Text,
    /// The state limit's label.
    ck_limit: Text,
    /// Target: the page's run.
    ck_target_this_run: Text,
    /// Target: the reference.
    ck_target_reference: Text,
    /// Target: the two-order reference.
    ck_target_reference_two: Text,
    /// Budget: the lesson's faults.
    ck_preset_lesson: Text,
    /// Budget: F1.
    ck_preset_one_duplicate: Text,
    /// Budget: F1 + F2.
    ck_preset_duplicate_and_crash: Text,
    /// Budget: F1 twice.
    ck_preset_two_duplicates: Text,
    /// Budget: none.
    ck_preset_no_faults: Text,
    /// An empty fault budget.
    ck_no_faults: Text,
    /// A state limit (10,000 and up).
    ck_limit_option: Text,
    /// What a check covers.
    ck_what_line: Text,
    /// Before a check.
    ck_will_check: Text,
    /// While checking.
    ck_checking: Text,
    /// While fuzzing.
    ck_fuzzing: Text,
    /// The check's button.
    ck_run_check: Text,
    /// The fuzzer's button (100 and up).
    ck_run_fuzz: Text,
    /// Cancel.
    ck_cancel: Text,
    /// A check's progress.
    ck_progress_check: Text,
    /// The fuzzer's progress.
    ck_progress_fuzz: Text,
    /// Open a counterexample.
    ck_open: Text,
    /// A check's figures.
    ck_stats: Text,
    /// A proof.
    ck_proved: Text,
    /// A counterexample.
    ck_violated: Text,
    /// A check that could not start.
    ck_error: Text,
    /// A cancelled check.
    ck_cancelled: Text,
    /// A cancelled fuzz run.
    ck_fuzz_cancelled: Text,
    /// A fuzz run that found nothing.
    ck_fuzz_passed: Text,
    /// A fuzz failure, shrunk.
    ck_fuzz_violated: Text,
    /// A run stopped at the store's limit of open transactions (`{step}` not taken).
    limit_open_transactions: Text,
    /// A run stopped at the store's limit of rows in `{table}` (`{step}` not taken).
    limit_table_full: Text,
    /// The fuzzer's cases that stopped at a store limit (`{cases}` counted, `{first}` the
    /// first one's sentence).
    fuzz_limits_reached: Text,
    // The build task's editor, its blocks and a program's mistakes.
    /// A build task's reason before its program is judged.
    course_build_not_judged: Text,
    /// A program file whose block the build task's palette does not offer.
    course_build_not_on_the_palette: Text,
    /// A program file of another handler than the build task's.
    course_build_other_handler: Text,
    /// A build task's program that a schedule defeats.
    course_build_refuted: Text,
    /// A build task's program whose judge stopped at a bound.
    course_build_bounded: Text,
    /// A program block: the loop over the order's lines.
    block_for_each_line: Text,
    /// A program block: the end of the loop's body.
    block_next_line: Text,
    /// A program block: skip when the statement before found or inserted no row.
    block_if_no_rows: Text,
    /// A program block: skip when the statement before found or inserted a row.
    block_if_rows: Text,
    /// A program block: skip unless the order read is placed.
    block_if_not_placed: Text,
    /// A program block: skip when the order read is paid by this payment.
    block_if_paid_by_this: Text,
    /// A program block: answer that the order is paid.
    block_answer_paid: Text,
    /// A program block: refuse the payment.
    block_refuse: Text,
    /// A program block: the broker's acknowledgement.
    block_ack: Text,
    /// A parameter: a plain INSERT, whose repeat aborts the transaction.
    block_no_on_conflict: Text,
    /// A parameter: a SELECT without a row lock.
    block_no_lock: Text,
    /// A program with no blocks.
    pe_empty: Text,
    /// A status skip with nothing read.
    pe_skip_without_order_read: Text,
    /// An answer before COMMIT.
    pe_answer_in_transaction: Text,
    /// A path without an answer.
    pe_missing_answer: Text,
    /// A label placed twice.
    pe_duplicate_label: Text,
    /// A skip to a label not placed.
    pe_unknown_label: Text,
    /// A skip to a label above it.
    pe_jump_backwards: Text,
    /// A skip into a loop.
    pe_jump_into_loop: Text,
    /// A loop in a loop.
    pe_nested_loop: Text,
    /// next line without a loop.
    pe_next_line_without_loop: Text,
    /// A loop without its end.
    pe_loop_not_closed: Text,
    /// A line's statement outside the loop.
    pe_line_outside_loop: Text,
    /// No ACK.
    pe_missing_ack: Text,
    /// A second ACK.
    pe_second_ack: Text,
    /// ACK in the loop.
    pe_ack_in_loop: Text,
    /// A skip with no row count.
    pe_skip_without_row_count: Text,
    /// BEGIN in a transaction.
    pe_begin_in_transaction: Text,
    /// A statement outside a transaction.
    pe_statement_outside_transaction: Text,
    /// COMMIT or ROLLBACK without BEGIN.
    pe_end_without_begin: Text,
    /// A path that leaves a transaction open.
    pe_transaction_left_open: Text,
    /// Any other reason a program is refused, in the core's words.
    pe_other: Text,
    /// The build editor's heading.
    bd_heading: Text,
    /// The palette's heading.
    bd_palette: Text,
    /// Every palette block is placed.
    bd_palette_empty: Text,
    /// The learner's program is empty.
    bd_program_empty: Text,
    /// Add a palette block.
    bd_add: Text,
    /// Add a palette block, its accessible name.
    bd_add_name: Text,
    /// Move a block up.
    bd_up: Text,
    /// Move a block up, its accessible name.
    bd_up_name: Text,
    /// Move a block down.
    bd_down: Text,
    /// Move a block down, its accessible name.
    bd_down_name: Text,
    /// Take a block out.
    bd_remove: Text,
    /// Take a block out, its accessible name.
    bd_remove_name: Text,
    /// A block's parameter picker, its accessible name.
    bd_form_name: Text,
    /// Judge the learner's program.
    bd_check: Text,
    /// The judge's progress.
    bd_checking: Text,
    /// The program holds.
    bd_holds: Text,
    /// The program breaks an invariant.
    bd_refuted: Text,
    /// The judge stopped at its bound.
    bd_bounded: Text,
    /// What the program is judged over.
    bd_bounds: Text,
    /// The program changed since it was judged.
    bd_stale: Text,
    /// The program cannot run yet.
    bd_invalid: Text,
    /// The judge could not start.
    bd_error: Text,

    // The page stopped (an allocation the browser could not give, or a bug).
    /// The banner of a stopped lab: what happened, and that the run shown is kept.
    crash_stopped: Text,
    /// Its button that reloads the page at the address (the run at the step shown).
    crash_reload: Text,

    // The store's tables.
    /// Under a table, the keys of the rows the step deleted (`{rows}`).
    ui_deleted_rows: Text,
}
