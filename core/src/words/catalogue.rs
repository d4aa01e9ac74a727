//! The shape of a language's catalogue: [`Words`], one field per topic (`counts.rs`,
//! `findings.rs`, ...), each topic a struct declared by `topic!` with its entries in English
//! and Russian side by side. The `words!` macro below lists the topics once, and from that list
//! come [`Words`], its two values (`Words::EN`, `Words::RU`) and every entry by name
//! ([`Words::entries`]) for the tests that compare the languages.

use super::actions::ActionWords;
use super::build::BuildWords;
use super::check::CheckWords;
use super::counts::CountWords;
use super::course::CourseWords;
use super::diagram::DiagramWords;
use super::findings::FindingWords;
use super::glossary::GlossaryWords;
use super::labels::LabelWords;
use super::lessons::LessonWords;
use super::notices::NoticeWords;
use super::plural::Plural;
use super::report::ReportWords;

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
    ($( $(#[$doc:meta])* $topic:ident: $ty:ident, )*) => {
        /// Every learner-facing string of the lab in one language, by topic. Placeholders are
        /// named in braces (`{order}`); a [`Plural`]'s forms have `{n}` for the count.
        #[derive(Debug, PartialEq, Eq)]
        pub struct Words {
            $( $(#[$doc])* pub $topic: $ty, )*
        }

        impl Words {
            /// Every entry in English: the language of the code, the formats and the traces
            /// (the violation sentences a trace records are these).
            pub(super) const EN: Words = Words { $( $topic: $ty::EN, )* };

            /// Every entry in Russian, in the terms of the seed article (идемпотентность, ключ
            /// идемпотентности, Inbox, консьюмер). Identifiers, SQL, ids, HTTP statuses and the
            /// names of invariants, faults and patterns (I1, F1, P1) stay in Latin.
            pub(super) const RU: Words = Words { $( $topic: $ty::RU, )* };

            /// Every entry with its field's name, topic after topic, in declaration order.
            pub fn entries(&self) -> Vec<(&'static str, Entry)> {
                let mut entries = Vec::new();
                $( entries.extend(self.$topic.entries()); )*
                entries
            }
        }
    };
}

words! {
    /// Counts and the names of a run's things (`counts.rs`).
    counts: CountWords,
    /// The invariants' findings, one sentence each (`findings.rs`).
    findings: FindingWords,
    /// The CLI's reports (`report.rs`).
    report: ReportWords,
    /// A run's decisive moments, the opening of a long run, and the banners after an action
    /// (`notices.rs`).
    notices: NoticeWords,
    /// The actions in words, and the fault buttons' labels (`actions.rs`).
    actions: ActionWords,
    /// The course's judgements, the CLI's course, the Compare view and the trainer's link
    /// (`course.rs`).
    course: CourseWords,
    /// The invariants, fault classes, patterns and lanes, and the CLI's `explain` (`glossary.rs`).
    glossary: GlossaryWords,
    /// The page's labels (`labels.rs`).
    labels: LabelWords,
    /// The page's course view (`lessons.rs`).
    lessons: LessonWords,
    /// The pending items, and the diagram's arrows and marks with their tooltips (`diagram.rs`).
    diagram: DiagramWords,
    /// The check panel (`check.rs`).
    check: CheckWords,
    /// The build task, the stopped page's banner and the store's tables (`build.rs`).
    build: BuildWords,
}
