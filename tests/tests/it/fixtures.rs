//! Fixtures shared by the binary's modules, each computed once per run of the binary: the
//! modules that need the same expensive result (the two-order proof takes seconds) read it
//! here instead of computing it again.

use std::sync::OnceLock;

use idempotency_lab::check::{
    CheckReport, check, two_consumers_duplicate_and_crash_config,
    two_consumers_two_orders_duplicate_and_crash,
};
use idempotency_lab::sim::{PatternMode, Patterns};

/// The checker's proof of the idempotent shop on the two-message reference scenario, with the
/// reference configuration (the page's "reference-two-orders" target with the F1 + F2 budget
/// and the 1,000,000-state limit runs exactly this), and the states explored at each progress
/// report on the way.
pub struct TwoOrdersProof {
    /// The checker's report.
    pub report: CheckReport,
    /// `states_explored` at each progress report, in order.
    pub progress: Vec<usize>,
}

/// The proof, computed by the first caller.
pub fn two_orders_idempotent_proof() -> &'static TwoOrdersProof {
    static PROOF: OnceLock<TwoOrdersProof> = OnceLock::new();
    PROOF.get_or_init(|| {
        let mut progress = Vec::new();
        let report = check(
            two_consumers_two_orders_duplicate_and_crash(Patterns::all(PatternMode::Idempotent)),
            0,
            two_consumers_duplicate_and_crash_config(),
            &mut |step| progress.push(step.states_explored),
        )
        .expect("the reference scenario is valid");
        TwoOrdersProof { report, progress }
    })
}
