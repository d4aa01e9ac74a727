//! What the lab's banners say: a [`Problem`] (why the last action was refused) and a
//! [`Notice`] (what an action did to the learner's choices). The lab's reducer has no language;
//! it records what happened, and the banner renders it in the page's language from the
//! catalogue when it is shown, so a language switch re-words a banner already up. The
//! JavaScript API reads the English rendering (`Display`).
//!
//! A refusal's detail is the core's typed error (a share link's, a trace's, a scenario's),
//! which names the exact field; it stays in the core's words inside the sentence.

use std::fmt;

use idempotency_lab::sim::{Action, UserChoice};
use idempotency_lab::view::{Language, action_text, choice_target_text};
use idempotency_lab::words::fill;

/// Why the last action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A share link that cannot be opened, with the core's reason.
    Link(String),
    /// A run (a trace file, or a step of the run shown) that cannot be opened or shown.
    Run(String),
    /// A file that reads as neither a trace nor a scenario, with both reasons.
    FileKind {
        /// The file's name.
        name: String,
        /// Why it is not a trace.
        trace: String,
        /// Why it is not a scenario.
        scenario: String,
    },
    /// A file the browser could not read.
    FileUnread {
        /// The file's name.
        name: String,
        /// The browser's reason.
        why: String,
    },
    /// A fault whose target is gone at the step shown.
    FaultWithoutTarget(Action),
    /// A fault the world does not allow at the step shown.
    FaultNotEnabled(Action),
    /// A fault the run refused, with the core's reason.
    Fault(String),
    /// A sentence already in the page's language (the course's refusals, the seed field's).
    Said(String),
}

impl Problem {
    /// The problem in `language`.
    pub fn text(&self, language: Language) -> String {
        let w = language.words();
        match self {
            Problem::Link(why) => fill(w.notices.problem_link, &[("why", why)]),
            Problem::Run(why) => fill(w.notices.problem_run, &[("why", why)]),
            Problem::FileKind { name, trace, scenario } => fill(
                w.notices.problem_file_kind,
                &[("name", name), ("trace", trace), ("scenario", scenario)],
            ),
            Problem::FileUnread { name, why } => {
                fill(w.notices.problem_file_unread, &[("name", name), ("why", why)])
            }
            Problem::FaultWithoutTarget(action) => fill(
                w.notices.problem_fault_no_target,
                &[("fault", &action_text(action, language))],
            ),
            Problem::FaultNotEnabled(action) => fill(
                w.notices.problem_fault_not_enabled,
                &[("fault", &action_text(action, language))],
            ),
            Problem::Fault(why) => fill(w.notices.problem_fault, &[("why", why)]),
            Problem::Said(text) => text.clone(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Language::En))
    }
}

/// What the last action did to the learner's choices, when the page must say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The choices this run never reaches the target of: they stay in the run.
    ChoicesMissed(Vec<UserChoice>),
    /// A fault placed before the run's last step: a new branch from `step`, which replaced
    /// `later` choices made after it.
    NewBranch {
        /// The step the branch starts at (from 1).
        step: usize,
        /// How many later choices of the learner's it replaced.
        later: usize,
    },
    /// An opening the learner cancelled after `steps` of `total`.
    OpeningCancelled {
        /// The steps replayed.
        steps: usize,
        /// The steps the run opens to.
        total: usize,
    },
}

impl Notice {
    /// The notice in `language`.
    pub fn text(&self, language: Language) -> String {
        let w = language.words();
        match self {
            Notice::ChoicesMissed(choices) => {
                let targets = choices
                    .iter()
                    .map(|choice| {
                        let target = choice_target_text(&choice.action, language);
                        fill(
                            w.notices.notice_choice_missed,
                            &[("step", &choice.step), ("target", &target)],
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                let count = language.count(&w.counts.choices, choices.len());
                fill(w.notices.notice_choices_missed, &[("choices", &count), ("targets", &targets)])
            }
            Notice::NewBranch { step, later: 0 } => {
                fill(w.notices.notice_new_branch, &[("step", step)])
            }
            Notice::NewBranch { step, later } => {
                let later = language.count(&w.counts.choices, *later);
                fill(w.notices.notice_new_branch_choices, &[("step", step), ("choices", &later)])
            }
            Notice::OpeningCancelled { steps, total } => {
                let steps = language.count(&w.counts.steps, *steps);
                fill(w.notices.opening_cancelled, &[("steps", &steps), ("total", total)])
            }
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Language::En))
    }
}

#[cfg(test)]
mod tests {
    //! Each banner in both languages: no placeholder left, and the Russian differs from the
    //! English (the words themselves are pinned in the catalogue's tests).

    use super::*;
    use idempotency_lab::sim::{AnchoredAction, RequestIndex, SendRef};

    fn both(text: impl Fn(Language) -> String) -> (String, String) {
        (text(Language::En), text(Language::Ru))
    }

    #[test]
    fn every_banner_is_worded_in_each_language() {
        let choice = |step, action| UserChoice { step, action };
        let notices = [
            Notice::ChoicesMissed(vec![
                choice(3, AnchoredAction::ClientTimeout { request: RequestIndex(1) }),
                choice(
                    7,
                    AnchoredAction::CrashApi {
                        send: SendRef { request: RequestIndex(0), send: 2 },
                    },
                ),
            ]),
            Notice::NewBranch { step: 4, later: 0 },
            Notice::NewBranch { step: 4, later: 2 },
            Notice::OpeningCancelled { steps: 10, total: 900 },
        ];
        let problems = [
            Problem::Link("unknown field `presenterr`".to_owned()),
            Problem::Run("steps[3]: expected a step".to_owned()),
            Problem::FileKind { name: "a.json".into(), trace: "x".into(), scenario: "y".into() },
            Problem::FileUnread { name: "a.json".into(), why: "gone".into() },
            Problem::FaultWithoutTarget(Action::CrashRelay),
            Problem::FaultNotEnabled(Action::CrashRelay),
            Problem::Fault("no".into()),
        ];
        let texts = notices
            .iter()
            .map(|notice| both(|language| notice.text(language)))
            .chain(problems.iter().map(|problem| both(|language| problem.text(language))));
        for (english, russian) in texts {
            assert!(!english.contains('{') && !russian.contains('{'), "{english} / {russian}");
            assert_ne!(english, russian);
        }
    }

    #[test]
    fn the_english_names_what_happened() {
        let missed = Notice::ChoicesMissed(vec![UserChoice {
            step: 7,
            action: AnchoredAction::CrashApi {
                send: SendRef { request: RequestIndex(0), send: 2 },
            },
        }]);
        assert_eq!(
            missed.to_string(),
            "This run never holds what 1 choice of yours hit (step 7: send 2 of request 0): they \
             did not apply here, and stay in the run for the twin where it exists."
        );
        assert_eq!(
            Notice::NewBranch { step: 1, later: 2 }.to_string(),
            "A new branch from step 1: the run's steps after it and 2 choices of yours made later \
             were replaced."
        );
        assert_eq!(
            Problem::Link("the field `s` is missing".to_owned()).to_string(),
            "This share link cannot be opened: the field `s` is missing."
        );
    }
}
