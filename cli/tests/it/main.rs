//! The command line's integration tests, one binary: each module is one scenario, run against
//! the built `idempotency-lab` binary, its output and exit code snapshotted. `common` holds the
//! shared fixtures (running the binary, a scratch directory per test).

mod common;

mod check_and_fuzz_bad_flags_exit_2;
mod check_and_fuzz_json_counterexample_replays;
mod check_idempotent_lesson_proves;
mod check_memory_bound_exits_3;
mod check_naive_lesson_finds_i2;
mod course_lists_and_grades_lessons;
mod every_lesson_passes_from_the_cli;
mod explain_tells_a_lesson;
mod fuzz_dead_letter_is_not_i6;
mod fuzz_naive_lesson_shrinks;
mod handler_check_judges_programs;
mod lang_is_global_and_json_stays_neutral;
mod lang_ru_lists_and_explains;
mod lesson_check_refuses_traces_that_do_not_reproduce;
mod list_shows_the_catalogue;
mod malformed_input_is_named;
mod probe_axum_example;
mod probe_finds_the_race;
mod probe_malformed_file_exits_2;
mod probe_postgres_oracle;
mod probe_python_service;
mod probe_services;
mod probe_sqlite_oracle;
mod probe_top_up_services;
mod readme_minimal_scenario_is_accepted;
mod replay_round_trips;
mod run_idempotent_lesson_holds;
mod run_inject_places_the_learners_choices;
mod run_json_is_the_trace;
mod run_naive_lesson_violates_i2;
mod sql_prints_psql_sessions;
