//! The `topic!` macro that declares one topic of the catalogue (`counts.rs`, `findings.rs`,
//! ...): each entry once, with its doc comment, its English text and its Russian text side by
//! side, so that adding an entry touches one file and an entry missing a language does not
//! compile.

/// A plain text or a template with `{name}` placeholders.
pub(crate) type Text = &'static str;

/// Declares a topic's struct, one field per entry, with its English and Russian values
/// (`EN`, `RU`) and the list of its entries by name (`entries`):
///
/// ```text
/// topic! {
///     /// The topic.
///     pub struct TopicWords {
///         /// What the entry is for.
///         name: Text { en: "English text", ru: "Russian text" },
///         count: Plural { en: Plural::en(..), ru: Plural::ru(..) },
///     }
/// }
/// ```
macro_rules! topic {
    (
        $(#[$topic_doc:meta])*
        pub struct $topic:ident {
            $( $(#[$doc:meta])* $name:ident: $ty:ident { en: $en:expr, ru: $ru:expr $(,)? } ),*
            $(,)?
        }
    ) => {
        $(#[$topic_doc])*
        #[derive(Debug, PartialEq, Eq)]
        pub struct $topic {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        impl $topic {
            /// Every entry in English.
            pub(super) const EN: $topic = $topic { $( $name: $en, )* };

            /// Every entry in Russian.
            pub(super) const RU: $topic = $topic { $( $name: $ru, )* };

            /// Every entry with its field's name, in declaration order.
            pub(super) fn entries(&self) -> Vec<(&'static str, super::Entry)> {
                vec![ $( (stringify!($name), super::Entry::from(self.$name)), )* ]
            }
        }
    };
}

pub(super) use topic;
