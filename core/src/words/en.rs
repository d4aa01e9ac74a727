//! The English catalogue: the language of the code, the formats and the traces (the
//! violation sentences a trace records are these).

use super::catalogue::Words;
use super::plural::Plural;

/// Every entry in English.
pub const WORDS: Words = Words {
    times_once: "once",
    times_twice: "twice",
    times: Plural::en("{n} time", "{n} times"),
    steps: Plural::en("{n} step", "{n} steps"),
    units: Plural::en("{n} unit", "{n} units"),
    ticks: Plural::en("{n} tick", "{n} ticks"),
    cases: Plural::en("{n} case", "{n} cases"),
    states: Plural::en("{n} state", "{n} states"),

    request_name: "request {n}",
    attempt_name: "attempt {n}",
    entry_name: "entry {n}",
    run_name: "run {n}",

    i1_not_conserved: "Stock of {sku} is not conserved: {on_hand} on hand, but {available} \
                       available and {reserved} reserved ({accounted}).",
    i1_below_zero: "Available stock of {sku} is {available}: it must never go below zero.",
    i1_no_stock_row: "Stock of {sku} is not conserved: {reserved} reserved, but {sku} has no \
                      stock row (0 on hand).",
    i2_no_order: "Order {order} has {units} of {sku} reserved, but no such order exists.",
    i2_no_line: "Order {order} has {units} of {sku} reserved, but it has no {sku} line.",
    i2_too_much: "Order {order} has {units} of {sku} reserved, but it asks for only \
                  {ordered}: {how_often}.",
    i2_effect_ran: "the reservation effect ran {times}",
    i2_effects_ran: "more than one reservation effect ran",
    i2_negative: "Order {order} has {units} of {sku} reserved: a reservation is never \
                  negative, so more was released than reserved.",
    i3_charge_item: "{charge} (payment {payment})",
    i3_charged_again: "Order {order} was charged {times}: {charges}.",
    i3_no_order: "Order {order} does not exist, but it was charged: {charges}.",
    i3_never_charged: "Order {order} is {status} with payment {payment}, but it was never \
                       charged.",
    i3_other_payment: "Order {order} is {status} with payment {payment}, but its charge \
                       {charge} is for payment {charge_payment}.",
    answer_empty: "status {status} with an empty body",
    answer_body: "status {status} with body `{body}`",
    i4_different_answers: "Requests with key {key} got different answers: {first} at \
                           {first_at}, but {then} at {then_at} ({how}).",
    i4_how_replay: "a replay",
    i4_how_ran_again: "the handler ran again",
    i4_another_request: "Key {key} answered another request: {answer} at {answered_at} went \
                         to a request whose method, path or body differs from the one the key \
                         first answered at {first_at} ({how}); a key reused for another \
                         request must get 422.",
    i4_how_replay_stored: "a replay of the stored answer",
    i4_how_ran_again_for_it: "the handler ran again for it",
    i4_ran_twice: "The handler of key {key} ran twice at once: {run}{token} started at \
                   {started_at} while {holder}, started at {holder_started_at}, still held the \
                   key: {hold}.",
    i4_with_token: " with token {token}",
    hold_lease: "its lease with token {token} runs until {until}",
    hold_crashed_in_lease: "it crashed at {at}, but its lease with token {token} runs until \
                            {until}",
    hold_finished_in_lease: "it finished only at {at}, within its lease with token {token} \
                             (until {until})",
    hold_lease_after_finish: "its lease with token {token} runs until {until} (it finished \
                              at {at})",
    hold_no_lease_running: "it had no lease and was still running",
    hold_no_lease_finished: "it had no lease and ran until it finished at {at}",
    hold_no_lease_crashed: "it had no lease and ran until it crashed at {at}",
    i5_row_without_effect: "Inbox row {row} exists, but {consumer} never applied message \
                            {message}.",
    i5_row_after_purge: "Inbox row {row} exists, but it was purged at {purged_at} and \
                         {consumer} has not applied message {message} since.",
    i5_effect_without_row: "{consumer} applied message {message} at {committed_at}, but \
                            there is no inbox row {row} and no purge of it since.",
    i5_effects_between_purges: "{consumer} applied message {message} {times} (at {ticks}) \
                                with no purge of its inbox row {row} in between: the inbox \
                                row must stop every effect after the first.",
    i6_no_message: "At quiescence, order {order} has no OrderPlaced message in the outbox, \
                    so no consumer processed its placement.",
    i6_not_once: "At quiescence, {consumer} processed OrderPlaced {message} of order {order} \
                  {times}, not exactly once (the message was published {published}).",
    i7_server_error: "A duplicate request {key} got {answer} at {at}: a duplicate must never \
                      make the API fail.",
    i7_with_key: "with key {key}",
    i7_without_key: "without a key",
    report_stopped: "stopped: {reason} after {steps}, at tick {tick}",
    stop_running: "still running",
    stop_quiescent: "quiescent (nothing pending)",
    stop_stuck: "stuck ({pending})",
    stop_step_limit: "step limit of {steps_max} reached",
    stop_trace_full: "trace limit of {trace_steps_max} steps reached",
    stop_step_failed: "step {step} failed: {error}",
    report_faults: "faults fired: {faults}",
    report_all_held: "invariants: all of I1-I7 held at every step",
    report_violated: "invariants violated: {count}",
    report_first_broken: "{invariant} {title}: first broken at step {step} ({still})",
    report_still: "still violated at the end",
    report_held_again: "held again by the end",
    report_no_sentence: "(the trace does not record the violation's sentence)",
    check_proved: "proved within depth {depth}: {states} states ({unique} unique)",
    check_bounded: "bounded: {reason}, not a proof ({states} states, {unique} unique, depth {depth})",
    check_violated: "violated after {states} states ({unique} unique): shortest path of {steps}",
    check_counterexample: "counterexample trace (replays in the simulator):",
    fuzz_no_violation: "no violation in {cases} ({seeds} distinct seeds)",
    fuzz_violation: "violation in case {case} of {cases}: {violated}; shrunk in {shrink} to seed {seed}",
    fuzz_fired: "faults that fired: injected {injected}; from random rates {random}",
    fuzz_injections: "injections in the shrunk case: {count}",
    fuzz_rates_none: "random fault rates: none",
    fuzz_rates: "random fault rates: {rates}",
    fuzz_rate: "{class} {rate} per million",
    fuzz_shrunk_trace: "shrunk trace:",
    replay_reproduces: "trace `{source}` reproduces byte for byte: scenario {scenario}, seed {seed}, {steps}",
    replay_differs: "trace `{source}` does not reproduce: {why}",
    run_header: "scenario {source}, mode {mode} ({patterns}), seed {seed}",
    opening_progress: "Opening the run: step {step} of {total}",
    opening_cancel: "Cancel",
    opening_cancelled: "Opening cancelled ({steps} of {total} replayed): the page still shows \
                        the run it showed before.",
    course_naive: "naive",
    course_idempotent: "idempotent",
    course_other_scenario: "This run is not of this lesson: open the lesson again.",
    course_patterns: "Switch the lesson's patterns to {mode} first.",
    course_no_fault: "Place a fault of your own: a fault button on a waiting item of the diagram.",
    course_too_many_faults: "You placed {placed} faults; this task allows at most {max}. Start again (Reset) and place fewer.",
    course_too_few_faults: "You placed {placed} faults; this task asks for at least {min}.",
    course_fault_not_allowed: "{class} does not count in this task: use another fault.",
    course_not_broken: "{invariant} still holds in this run.",
    course_not_at_end: "Run it to the end: the check needs the whole run.",
    course_broken: "{invariant} broke in this run.",
    course_not_one_switch: "Switch exactly one pattern, {pattern}, to idempotent, and keep the others naive.",
    course_naive_holds_too: "With the patterns naive, this schedule does not break {invariant} either: first make a run that breaks it, then switch.",
    course_not_one_switch_any: "Switch exactly one of the lesson's patterns to idempotent, and keep the others naive.",
    course_link_malformed: "This course link cannot be opened: {why}. A course link reads #lesson=<lesson>&at=<step from 0>.",
    course_link_too_long: "it is {bytes} bytes long, more than {max}",
    course_link_not_a_field: "{part} is not a name=value field",
    course_link_unknown_field: "it has an unknown field {field}",
    course_link_duplicate_field: "the field {field} is given twice",
    course_link_no_lesson: "it names no lesson",
    course_link_bad_step: "at={value} is not a step number",
    course_link_unknown_lesson: "This course link cannot be opened: the course has no lesson \"{id}\". Pick a lesson from the list below.",
    course_link_step_out_of_range: "This course link cannot be opened: lesson \"{lesson}\" has steps 0 to {last}, not {at}.",
};
