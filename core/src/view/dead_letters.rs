//! The run's dead letters in words: a message that ran out of deliveries waits in the
//! dead-letter queue for an operator. It is an outcome of its own, shown beside the
//! invariants (I6 does not count it), in the page's and the CLI's language.

use crate::ids::MessageId;
use crate::sim::{EntryId, TraceStep, dead_letters};
use crate::words::{Language, fill};

/// One sentence per dead letter of `steps`, in `language`, in the order they were
/// dead-lettered.
pub fn dead_letter_sentences<'a>(
    steps: impl IntoIterator<Item = &'a TraceStep>,
    language: Language,
) -> Vec<String> {
    dead_letters(steps)
        .into_iter()
        .map(|(step, entry, message_id)| dead_letter_sentence(step, entry, message_id, language))
        .collect()
}

/// The sentence of the copy `entry` of `message_id`, dead-lettered at `step`, in `language`:
/// [`dead_letter_sentences`]'s and the run's index's (`view::RunIndex`).
pub(crate) fn dead_letter_sentence(
    step: usize,
    entry: EntryId,
    message_id: MessageId,
    language: Language,
) -> String {
    fill(
        language.words().labels.dead_lettered,
        &[("step", &step), ("message", &message_id), ("entry", &entry.0)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{
        Injection, MessageRef, PatternMode, RequestIndex, Simulation, catalogue_scenario,
    };

    #[test]
    fn a_dead_letter_is_one_sentence_in_each_language() {
        let mut lesson = catalogue_scenario("f03-crash-before-commit")
            .unwrap()
            .with_mode(PatternMode::Idempotent);
        let crash = |delivery| Injection::CrashConsumerBeforeCommit {
            message: MessageRef::OrderPlacedOf(RequestIndex(0)),
            delivery,
        };
        lesson.injections = (1..=lesson.consumers.deliveries_max).map(crash).collect();
        let trace = Simulation::run(lesson, 0).unwrap();
        let [(step, entry, message_id)] = trace.dead_letters()[..] else {
            panic!("one dead letter: {:?}", trace.dead_letters());
        };
        assert_eq!(
            dead_letter_sentences(&trace.steps, Language::En),
            vec![format!(
                "Dead-lettered at step {step}: message {message_id} ({entry}) ran out of \
                 deliveries; it waits in the dead-letter queue for an operator, neither lost nor \
                 processed twice (I6 does not count it)."
            )]
        );
        let russian = dead_letter_sentences(&trace.steps, Language::Ru);
        assert_eq!(russian.len(), 1);
        assert!(russian[0].contains(&message_id.to_string()), "{russian:?}");
        assert!(russian[0].contains(&format!(" {step}")), "{russian:?}");
        assert!(russian[0].chars().any(crate::words::is_cyrillic), "{russian:?}");
    }
}
