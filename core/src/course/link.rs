//! The trainer's link: a URL fragment that opens a lesson of the course at one of its steps,
//!
//! ```text
//! #lesson=inbox&at=2
//! ```
//!
//! - `lesson`: a lesson's id ([`crate::course::Lesson::id`]);
//! - `at` (absent: 0): the step to open, counted from 0.
//!
//! Fields may come in any order; an unknown or repeated field is refused, as in a share link
//! ([`crate::view::ShareLink`]), from which a course link is told apart by its `lesson` field
//! ([`CourseLink::names_a_lesson`]). The fragment may be given with or without its `#`, or as
//! a whole URL. Reading never panics: every fault is a [`CourseLinkError`] that says what is
//! wrong, in the words of each language ([`CourseLinkError::text`]).

use thiserror::Error;

use crate::course::Course;
use crate::view::Language;
use crate::words::fill;

/// The longest fragment a course link may be, in bytes: a lesson id is at most 40 characters.
pub const COURSE_LINK_BYTES_MAX: usize = 200;

/// How much of a faulty value an error repeats.
const QUOTED_CHARS_MAX: usize = 40;

/// A lesson of the course and the step of it to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseLink {
    /// The lesson's id.
    pub lesson: String,
    /// The step, from 0.
    pub at: usize,
}

/// Why a course link was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CourseLinkError {
    /// The link does not read as a course link.
    #[error("the course link is malformed: {0}")]
    Malformed(Malformed),
    /// No lesson of the course has this id.
    #[error("the course has no lesson {id:?}")]
    UnknownLesson {
        /// The id, shortened.
        id: String,
    },
    /// The lesson has fewer steps.
    #[error("lesson {lesson:?} has {steps} steps (0 to {last}); there is no step {at}", last = steps.saturating_sub(1))]
    StepOutOfRange {
        /// The lesson's id.
        lesson: String,
        /// The step asked for.
        at: usize,
        /// How many steps the lesson has.
        steps: usize,
    },
}

/// What is wrong with the shape of a course link.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Malformed {
    /// The fragment is longer than [`COURSE_LINK_BYTES_MAX`].
    #[error("it has {bytes} bytes, more than {max}")]
    TooLong {
        /// Its length.
        bytes: usize,
        /// The most accepted.
        max: usize,
    },
    /// A part is not `name=value`.
    #[error("{part:?} is not a name=value field")]
    NotAField {
        /// The part, shortened.
        part: String,
    },
    /// A field a course link does not have.
    #[error("it has an unknown field {field:?}")]
    UnknownField {
        /// The field's name, shortened.
        field: String,
    },
    /// A field given twice.
    #[error("the field {field:?} is given twice")]
    DuplicateField {
        /// The field's name.
        field: String,
    },
    /// No `lesson`, or an empty one.
    #[error("it names no lesson")]
    NoLesson,
    /// `at` is not a whole number.
    #[error("at={value:?} is not a step number")]
    BadStep {
        /// The value, shortened.
        value: String,
    },
}

impl CourseLink {
    /// The fragment, `#` included: `#lesson=<id>&at=<step>`.
    pub fn encode(&self) -> String {
        format!("#lesson={}&at={}", self.lesson, self.at)
    }

    /// Whether `fragment` is meant as a course link (it has a `lesson` field), rather than a
    /// share link of a run; [`CourseLink::decode`] says whether it is a good one.
    pub fn names_a_lesson(fragment: &str) -> bool {
        let fragment = fragment.split_once('#').map_or(fragment, |(_, after)| after);
        fragment
            .split('&')
            .any(|part| part.split_once('=').map_or(part, |(name, _)| name) == "lesson")
    }

    /// Reads `fragment` as a link into `course`: the lesson must exist and have the step.
    pub fn decode(fragment: &str, course: &Course) -> Result<CourseLink, CourseLinkError> {
        let link = CourseLink::parse(fragment).map_err(CourseLinkError::Malformed)?;
        let Some(lesson) = course.lesson(&link.lesson) else {
            return Err(CourseLinkError::UnknownLesson { id: quote(&link.lesson) });
        };
        if link.at >= lesson.steps.len() {
            return Err(CourseLinkError::StepOutOfRange {
                lesson: link.lesson,
                at: link.at,
                steps: lesson.steps.len(),
            });
        }
        Ok(link)
    }

    /// The fields of a course link, whatever the course holds.
    fn parse(fragment: &str) -> Result<CourseLink, Malformed> {
        let fragment = fragment.split_once('#').map_or(fragment, |(_, after)| after);
        if fragment.len() > COURSE_LINK_BYTES_MAX {
            return Err(Malformed::TooLong { bytes: fragment.len(), max: COURSE_LINK_BYTES_MAX });
        }
        let (mut lesson, mut at) = (None, None);
        for part in fragment.split('&') {
            let (name, value) =
                part.split_once('=').ok_or_else(|| Malformed::NotAField { part: quote(part) })?;
            let slot = match name {
                "lesson" => &mut lesson,
                "at" => &mut at,
                _ => return Err(Malformed::UnknownField { field: quote(name) }),
            };
            if slot.replace(value).is_some() {
                return Err(Malformed::DuplicateField { field: name.to_owned() });
            }
        }
        let lesson = lesson.filter(|lesson| !lesson.is_empty()).ok_or(Malformed::NoLesson)?;
        let at = match at {
            None => 0,
            Some(value) => value
                .parse()
                .ok()
                .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| Malformed::BadStep { value: quote(value) })?,
        };
        Ok(CourseLink { lesson: lesson.to_owned(), at })
    }
}

impl CourseLinkError {
    /// What is wrong, in `language`, for the page's banner.
    pub fn text(&self, language: Language) -> String {
        let words = language.words();
        match self {
            CourseLinkError::Malformed(malformed) => {
                let why = match malformed {
                    Malformed::TooLong { bytes, max } => fill(
                        words.course_link_too_long,
                        &[("bytes", &bytes.to_string()), ("max", &max.to_string())],
                    ),
                    Malformed::NotAField { part } => {
                        fill(words.course_link_not_a_field, &[("part", part)])
                    }
                    Malformed::UnknownField { field } => {
                        fill(words.course_link_unknown_field, &[("field", field)])
                    }
                    Malformed::DuplicateField { field } => {
                        fill(words.course_link_duplicate_field, &[("field", field)])
                    }
                    Malformed::NoLesson => words.course_link_no_lesson.to_owned(),
                    Malformed::BadStep { value } => {
                        fill(words.course_link_bad_step, &[("value", value)])
                    }
                };
                fill(words.course_link_malformed, &[("why", &why)])
            }
            CourseLinkError::UnknownLesson { id } => {
                fill(words.course_link_unknown_lesson, &[("id", id)])
            }
            CourseLinkError::StepOutOfRange { lesson, at, steps } => fill(
                words.course_link_step_out_of_range,
                &[
                    ("lesson", lesson),
                    ("at", &at.to_string()),
                    ("last", &steps.saturating_sub(1).to_string()),
                ],
            ),
        }
    }
}

fn quote(text: &str) -> String {
    text.chars().take(QUOTED_CHARS_MAX).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course() -> &'static Course {
        Course::built_in().unwrap_or_else(|error| panic!("the built-in course: {error}"))
    }

    fn check(fragment: &str, expected: Result<CourseLink, CourseLinkError>) {
        assert_eq!(CourseLink::decode(fragment, course()), expected, "{fragment}");
    }

    fn link(lesson: &str, at: usize) -> CourseLink {
        CourseLink { lesson: lesson.to_owned(), at }
    }

    fn malformed(malformed: Malformed) -> Result<CourseLink, CourseLinkError> {
        Err(CourseLinkError::Malformed(malformed))
    }

    #[test]
    fn a_link_names_a_lesson_and_a_step_and_reads_back() {
        check("#lesson=inbox&at=2", Ok(link("inbox", 2)));
        check("lesson=inbox&at=2", Ok(link("inbox", 2)));
        check("#at=3&lesson=inbox", Ok(link("inbox", 3)));
        check("http://host/page#lesson=inbox&at=0", Ok(link("inbox", 0)));
        check("#lesson=inbox", Ok(link("inbox", 0)));
        for lesson in &course().lessons {
            for at in 0..lesson.steps.len() {
                let written = link(&lesson.id, at);
                check(&written.encode(), Ok(written.clone()));
            }
        }
        assert_eq!(link("inbox", 2).encode(), "#lesson=inbox&at=2");
    }

    #[test]
    fn a_lesson_the_course_lacks_or_a_step_past_its_last_is_named() {
        check("#lesson=nope", Err(CourseLinkError::UnknownLesson { id: "nope".to_owned() }));
        let steps = course().lesson("inbox").unwrap().steps.len();
        check(
            &format!("#lesson=inbox&at={steps}"),
            Err(CourseLinkError::StepOutOfRange { lesson: "inbox".to_owned(), at: steps, steps }),
        );
        let long_id = "x".repeat(100);
        check(
            &format!("#lesson={long_id}"),
            Err(CourseLinkError::UnknownLesson { id: "x".repeat(QUOTED_CHARS_MAX) }),
        );
    }

    #[test]
    fn a_malformed_link_says_what_is_wrong() {
        check("#lesson", malformed(Malformed::NotAField { part: "lesson".to_owned() }));
        check("#lesson=", malformed(Malformed::NoLesson));
        check("#at=1", malformed(Malformed::NoLesson));
        check("#lesson=inbox&at=two", malformed(Malformed::BadStep { value: "two".to_owned() }));
        check("#lesson=inbox&at=-1", malformed(Malformed::BadStep { value: "-1".to_owned() }));
        check("#lesson=inbox&at=+1", malformed(Malformed::BadStep { value: "+1".to_owned() }));
        check(
            "#lesson=inbox&at=99999999999999999999999",
            malformed(Malformed::BadStep { value: "99999999999999999999999".to_owned() }),
        );
        check(
            "#lesson=inbox&step=1",
            malformed(Malformed::UnknownField { field: "step".to_owned() }),
        );
        check(
            "#lesson=inbox&lesson=mark-paid",
            malformed(Malformed::DuplicateField { field: "lesson".to_owned() }),
        );
        let long = format!("#lesson=inbox&at={}", "1".repeat(COURSE_LINK_BYTES_MAX));
        check(
            &long,
            malformed(Malformed::TooLong { bytes: long.len() - 1, max: COURSE_LINK_BYTES_MAX }),
        );
    }

    #[test]
    fn a_share_link_is_not_a_course_link_and_a_course_link_is() {
        assert!(CourseLink::names_a_lesson("#lesson=nope"));
        assert!(CourseLink::names_a_lesson("#at=1&lesson"));
        assert!(CourseLink::names_a_lesson("lesson=inbox&at=2"));
        assert!(!CourseLink::names_a_lesson("#v=2&s=f01-duplicate-delivery&seed=0&p=nnnn&step=0"));
        assert!(!CourseLink::names_a_lesson(""));
        assert!(!CourseLink::names_a_lesson("#lessons=inbox"));
    }

    #[test]
    fn every_error_reads_in_both_languages_with_its_values() {
        let errors = [
            CourseLink::decode("#lesson=nope", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&at=40", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&at=x", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&z=1", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&at=1&at=2", course()).unwrap_err(),
            CourseLink::decode("#at=1", course()).unwrap_err(),
            CourseLink::decode("#lesson", course()).unwrap_err(),
            CourseLink::decode(&format!("#lesson={}", "a".repeat(300)), course()).unwrap_err(),
        ];
        for error in errors {
            for language in Language::ALL {
                let text = error.text(language);
                assert!(!text.contains('{'), "{error:?} in {language:?}: {text}");
                let value = match &error {
                    CourseLinkError::UnknownLesson { id } => id.clone(),
                    CourseLinkError::StepOutOfRange { at, .. } => at.to_string(),
                    CourseLinkError::Malformed(Malformed::BadStep { value }) => value.clone(),
                    CourseLinkError::Malformed(Malformed::UnknownField { field }) => field.clone(),
                    CourseLinkError::Malformed(Malformed::DuplicateField { field }) => {
                        field.clone()
                    }
                    CourseLinkError::Malformed(Malformed::NotAField { part }) => part.clone(),
                    CourseLinkError::Malformed(Malformed::TooLong { max, .. }) => max.to_string(),
                    CourseLinkError::Malformed(Malformed::NoLesson) => String::new(),
                };
                assert!(text.contains(&value), "{error:?} in {language:?}: {text}");
            }
        }
    }
}
