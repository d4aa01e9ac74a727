//! The lessons' learner-facing texts in each [`Language`]: the English ones are the scenario's
//! own, the others come from the catalogue's translation files. A built-in lesson is shown
//! translated; any other scenario keeps its own words.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::sim::{CATALOGUE, CatalogueEntry, Scenario};
use crate::words::Language;

/// A lesson's learner-facing texts in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonText {
    /// The lesson's id, the same in every language (in a translation file, it must be the
    /// catalogue entry's).
    pub id: String,
    /// The title.
    pub title: String,
    /// The learner's paragraph.
    pub description: String,
}

impl CatalogueEntry {
    /// This lesson's texts in `language`, read from the catalogue's files.
    pub fn text(&self, language: Language) -> Result<LessonText, LessonTextError> {
        let invalid =
            |problem: String| LessonTextError { id: self.id.to_owned(), language, problem };
        let text = match language {
            Language::En => {
                let scenario =
                    Scenario::from_json(self.json).map_err(|error| invalid(error.to_string()))?;
                LessonText {
                    id: scenario.id,
                    title: scenario.title,
                    description: scenario.description,
                }
            }
            Language::Ru => serde_json::from_str::<LessonText>(self.ru)
                .map_err(|error| invalid(error.to_string()))?,
        };
        if text.id != self.id {
            return Err(invalid(format!("its id is {:?}", text.id)));
        }
        if text.title.trim().is_empty() || text.description.trim().is_empty() {
            return Err(invalid("its title or description is empty".to_owned()));
        }
        Ok(text)
    }
}

/// The title and paragraph to show for `scenario` in `language`. A built-in lesson, as the
/// catalogue has it (same id, same English title and description: a trace of it, or the
/// lesson with other switches), gets the catalogue's translation; any other scenario (a file
/// of one's own, or a lesson edited by hand) keeps its own texts, whatever the language.
pub fn lesson_text(scenario: &Scenario, language: Language) -> LessonText {
    let own = || LessonText {
        id: scenario.id.clone(),
        title: scenario.title.clone(),
        description: scenario.description.clone(),
    };
    if language == Language::En {
        return own();
    }
    let built_in = CATALOGUE.iter().find(|entry| entry.id == scenario.id).and_then(|entry| {
        let english = entry.text(Language::En).ok()?;
        (english.title == scenario.title && english.description == scenario.description)
            .then(|| entry.text(language).ok())
            .flatten()
    });
    built_in.unwrap_or_else(own)
}

/// A built-in lesson's text that does not read (a bug of the catalogue, caught by its tests).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("built-in scenario {id:?}, text in {language}: {problem}")]
pub struct LessonTextError {
    /// The lesson's id.
    pub(crate) id: String,
    /// The language.
    pub(crate) language: Language,
    /// What is wrong with it.
    pub(crate) problem: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{PatternMode, catalogue_scenario};

    use crate::words::is_cyrillic;

    #[test]
    fn every_lesson_has_an_english_and_a_russian_text() {
        assert_eq!(CATALOGUE.len(), 17);
        for entry in CATALOGUE {
            let english = entry.text(Language::En).unwrap();
            let russian = entry.text(Language::Ru).unwrap();
            let scenario = catalogue_scenario(entry.id).unwrap();
            assert_eq!(english.title, scenario.title);
            assert_eq!(english.description, scenario.description);
            assert_eq!(russian.id, entry.id);
            for (en, ru) in
                [(&english.title, &russian.title), (&english.description, &russian.description)]
            {
                assert!(!ru.trim().is_empty(), "{}", entry.id);
                assert_ne!(en, ru, "{}: the Russian text is the English one", entry.id);
                assert!(
                    ru.chars().filter(|c| is_cyrillic(*c)).count() >= 4,
                    "{}: {ru:?}",
                    entry.id
                );
            }
            // A paragraph keeps names (OrderPlaced, Idempotency-Key, SQL) in Latin letters,
            // but is mostly Russian words.
            let letters = russian.description.chars().filter(|c| c.is_alphabetic()).count();
            let cyrillic = russian.description.chars().filter(|c| is_cyrillic(*c)).count();
            assert!(cyrillic * 3 > letters * 2, "{}: mostly not Russian", entry.id);
            // The fault class the title starts with (F1:, P2:) stays the same.
            let tag = |title: &str| title.split(':').next().unwrap_or_default().to_owned();
            assert_eq!(tag(&russian.title), tag(&english.title), "{}", entry.id);
        }
    }

    #[test]
    fn a_built_in_lesson_is_shown_translated_and_any_other_scenario_as_written() {
        let lesson = catalogue_scenario("f01-duplicate-delivery").unwrap();
        let russian = lesson_text(&lesson, Language::Ru);
        let entry = CATALOGUE.iter().find(|entry| entry.id == lesson.id).unwrap();
        assert_eq!(russian, entry.text(Language::Ru).unwrap());
        assert_ne!(russian.title, lesson.title);
        // The pattern switches do not change which lesson it is.
        assert_eq!(lesson_text(&lesson.with_mode(PatternMode::Naive), Language::Ru), russian);
        assert_eq!(lesson_text(&lesson, Language::En).title, lesson.title);

        let mut edited = lesson.clone();
        edited.description.push_str(" Mine.");
        assert_eq!(lesson_text(&edited, Language::Ru).description, edited.description);
        let mut own = lesson;
        own.id = "my-lesson".to_owned();
        assert_eq!(lesson_text(&own, Language::Ru).title, own.title);
    }

    #[test]
    fn a_bad_translation_file_is_a_typed_error_naming_the_lesson() {
        let entry = CatalogueEntry { ru: "{\"id\": \"x\"}", ..CATALOGUE[0] };
        let error = entry.text(Language::Ru).unwrap_err();
        assert_eq!((error.id.as_str(), error.language), ("f01-duplicate-delivery", Language::Ru));
        let entry = CatalogueEntry {
            ru: "{\"id\": \"f02-crash-after-commit\", \"title\": \"t\", \"description\": \"d\"}",
            ..CATALOGUE[0]
        };
        assert_eq!(
            entry.text(Language::Ru).unwrap_err().to_string(),
            "built-in scenario \"f01-duplicate-delivery\", text in ru: its id is \"f02-crash-after-commit\""
        );
    }
}
