//! The workspace's integration, property and browser tests, one binary: each module is one
//! scenario and opens with its purpose. `patterns` is the shared shop model of the
//! cross-pattern property tests; `fixtures` holds results several modules share, computed once;
//! `browser_*` drive the built page in headless Chromium through
//! `idempotency_lab_tests::browser`.

mod fixtures;
mod patterns;

mod browser_accessibility;
mod browser_check_panel;
mod browser_compare_view;
mod browser_course;
mod browser_embeds_share_no_state;
mod browser_focus_follows_the_action;
mod browser_idempotent_duplicate_keeps_invariants;
mod browser_import_export;
mod browser_inject_in_diagram;
mod browser_invalid_share_link;
mod browser_keyboard_only;
mod browser_language;
mod browser_lessons_in_the_presenter_view;
mod browser_moments;
mod browser_monkey;
mod browser_naive_duplicate_breaks_an_invariant;
mod browser_opening_a_long_link_never_blocks;
mod browser_page_mounts;
mod browser_play;
mod browser_presenter_view;
mod browser_rewind_with_the_slider;
mod browser_runs_keep_every_choice;
mod browser_russian_page_speaks_russian;
mod browser_share_link_round_trip;
mod browser_single_file_from_disk;
mod browser_small_screen;
mod browser_space_presses_the_focused_button;
mod browser_the_longest_accepted_link_opens;
mod check_counterexample_loads_in_the_simulator;
mod check_finds_each_naive_twin;
mod check_fuzz_finds_and_shrinks_each_naive_twin;
mod check_fuzz_idempotent_shop_keeps_every_invariant;
mod check_proves_idempotent_shop_under_api_faults;
mod check_two_orders_finds_each_naive_twin;
mod check_two_orders_proves_idempotent_shop;
mod core_modules_use_only_the_layers_below;
mod every_idempotent_configuration_keeps_every_invariant;
mod generated_runs_reach_every_fault;
mod harness_catches_naive_loyalty_points;
mod harness_catches_raw_wallet_top_up;
mod harness_passes_inbox_loyalty_points;
mod harness_passes_keyed_wallet_top_up;
mod harness_readme_snippets_match_the_examples;
mod harness_sqlite_points;
mod harness_sqlite_top_up;
mod harness_wallet_top_up_behind_the_layer;
mod idempotent_patterns_keep_every_invariant;
mod inbox_shields_a_naive_ledger;
mod naive_idempotency_layer_is_caught;
mod naive_inbox_consumer_is_caught;
mod naive_mark_paid_is_caught;
mod naive_stock_ledger_is_caught;
mod node_example_prints_what_the_readme_quotes;
mod node_package_refuses_wrong_arguments;
mod node_package_traces_equal_native;
mod node_package_types_check_with_tsc;
mod postgres_differential;
mod readme_example_prints_what_the_readme_quotes;
mod words_live_only_in_the_catalogue;
