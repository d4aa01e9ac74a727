//! The harness passes the fixed loyalty-points consumer, which runs its effect inside the
//! lab's inbox consumer (P4): no drawn schedule breaks it, and the exhaustive check proves it
//! for two messages, two instances, one duplicate and one crash (state count pinned).

use idempotency_lab::check::ExploreOutcome;
use idempotency_lab::testing::harness::{HarnessConfig, check_consumer, fuzz_consumer};
use idempotency_lab::testing::loyalty_points::InboxLoyaltyPoints;

#[test]
fn no_fuzzed_schedule_breaks_the_inbox_consumer() {
    let config = HarnessConfig { cases: 512, ..HarnessConfig::default() };
    let report = fuzz_consumer(InboxLoyaltyPoints::new(), config);
    assert_eq!(report.counterexample, None);
    assert_eq!(report.cases_run, 512);
}

#[test]
fn the_checker_proves_the_inbox_consumer() {
    let report = check_consumer(InboxLoyaltyPoints::new(), HarnessConfig::default());
    assert_eq!(report.outcome, ExploreOutcome::Proved);
    assert_eq!(report.stats.unique_states, 2748);
}
