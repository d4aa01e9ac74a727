//! The trainer's link: a URL fragment that opens a lesson of the course at one of its steps,
//!
//! ```text
//! #lesson=inbox&step=3&presenter=1
//! ```
//!
//! - `lesson`: a lesson's id ([`crate::course::Lesson::id`]);
//! - `step` (absent: 1): the step to open, counted from 1, as the lesson panel shows it
//!   ("Step 3 of 6");
//! - `at`: the same step counted from 0, as links written before `step` count it
//!   (`#lesson=inbox&at=2` is `#lesson=inbox&step=3`); it is still read, never written, and a
//!   link may not give both;
//! - `presenter` (absent when off): `1` opens the lesson in the presenter view, `0` leaves it
//!   off, as in a share link.
//!
//! The two numberings are told apart by the field's name, never by its value, so an old link
//! reads as it always did. Fields may come in any order; an unknown or repeated field is
//! refused, as in a share link ([`crate::view::ShareLink`]), from which a course link is told
//! apart by its `lesson` field ([`CourseLink::names_a_lesson`]). The fragment may be given
//! with or without its `#`, or as a whole URL. Reading never panics: every fault is a
//! [`CourseLinkError`] that says what is wrong, in the words of each language
//! ([`CourseLinkError::text`]).

use thiserror::Error;

use crate::course::Course;
use crate::view::Language;
use crate::words::fill;

/// The longest fragment a course link may be, in bytes: a lesson id is at most 40 characters.
pub(crate) const COURSE_LINK_BYTES_MAX: usize = 200;

/// How much of a faulty value an error repeats.
const QUOTED_CHARS_MAX: usize = 40;

/// A lesson of the course, the step of it to open, and whether in the presenter view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseLink {
    /// The lesson's id.
    pub lesson: String,
    /// The step, as an index from 0 (the link writes it from 1, as `step`).
    pub at: usize,
    /// Whether the lesson opens in the presenter view (`presenter=1`).
    pub presenter: bool,
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
    #[error("lesson {lesson:?} has steps 1 to {steps}; there is no step {step}")]
    StepOutOfRange {
        /// The lesson's id.
        lesson: String,
        /// The step asked for, counted from 1 (an old link's `at` plus one).
        step: usize,
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
    /// Both `step` (from 1) and `at` (from 0, the old numbering).
    #[error("it gives the step twice, as step (from 1) and at (from 0)")]
    StepTwice,
    /// No `lesson`, or an empty one.
    #[error("it names no lesson")]
    NoLesson,
    /// `step` is not a whole number from 1, or `at` not one from 0.
    #[error("{field}={value:?} is not a step number")]
    BadStep {
        /// The field: `step` or `at`.
        field: String,
        /// The value, shortened.
        value: String,
    },
    /// `presenter` is neither `1` nor `0`.
    #[error("presenter={value:?} is neither 1 (on) nor 0 (off)")]
    BadPresenter {
        /// The value, shortened.
        value: String,
    },
}

impl CourseLink {
    /// A link to step `at` (from 0) of lesson `lesson`, outside the presenter view.
    pub fn new(lesson: &str, at: usize) -> CourseLink {
        CourseLink { lesson: lesson.to_owned(), at, presenter: false }
    }

    /// The same link, in the presenter view if `presenter`.
    pub fn presenting(self, presenter: bool) -> CourseLink {
        CourseLink { presenter, ..self }
    }

    /// The fragment, `#` included: `#lesson=<id>&step=<step from 1>[&presenter=1]`.
    pub fn encode(&self) -> String {
        let presenter = if self.presenter { "&presenter=1" } else { "" };
        format!("#lesson={}&step={}{presenter}", self.lesson, self.at.saturating_add(1))
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
                step: link.at.saturating_add(1),
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
        let (mut lesson, mut step, mut at, mut presenter) = (None, None, None, None);
        for part in fragment.split('&') {
            let (name, value) =
                part.split_once('=').ok_or_else(|| Malformed::NotAField { part: quote(part) })?;
            let slot = match name {
                "lesson" => &mut lesson,
                "step" => &mut step,
                "at" => &mut at,
                "presenter" => &mut presenter,
                _ => return Err(Malformed::UnknownField { field: quote(name) }),
            };
            if slot.replace(value).is_some() {
                return Err(Malformed::DuplicateField { field: name.to_owned() });
            }
        }
        let lesson = lesson.filter(|lesson| !lesson.is_empty()).ok_or(Malformed::NoLesson)?;
        let at = match (step, at) {
            (Some(_), Some(_)) => return Err(Malformed::StepTwice),
            (None, None) => 0,
            // From 1: step 0 is no step.
            (Some(value), None) => number("step", value)?.checked_sub(1).ok_or_else(|| {
                Malformed::BadStep { field: "step".to_owned(), value: quote(value) }
            })?,
            (None, Some(value)) => number("at", value)?,
        };
        let presenter = match presenter {
            None | Some("0") => false,
            Some("1") => true,
            Some(value) => return Err(Malformed::BadPresenter { value: quote(value) }),
        };
        Ok(CourseLink { lesson: lesson.to_owned(), at, presenter })
    }
}

/// `value` of the step field `field` as a whole number: digits only.
fn number(field: &str, value: &str) -> Result<usize, Malformed> {
    value
        .parse()
        .ok()
        .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| Malformed::BadStep { field: field.to_owned(), value: quote(value) })
}

impl CourseLinkError {
    /// What is wrong, in `language`, for the page's banner.
    pub fn text(&self, language: Language) -> String {
        let words = language.words();
        match self {
            CourseLinkError::Malformed(malformed) => {
                let why = match malformed {
                    Malformed::TooLong { bytes, max } => fill(
                        words.course.course_link_too_long,
                        &[("bytes", &bytes.to_string()), ("max", &max.to_string())],
                    ),
                    Malformed::NotAField { part } => {
                        fill(words.course.course_link_not_a_field, &[("part", part)])
                    }
                    Malformed::UnknownField { field } => {
                        fill(words.course.course_link_unknown_field, &[("field", field)])
                    }
                    Malformed::DuplicateField { field } => {
                        fill(words.course.course_link_duplicate_field, &[("field", field)])
                    }
                    Malformed::StepTwice => words.course.course_link_step_twice.to_owned(),
                    Malformed::NoLesson => words.course.course_link_no_lesson.to_owned(),
                    Malformed::BadStep { field, value } => fill(
                        words.course.course_link_bad_step,
                        &[("field", field), ("value", value)],
                    ),
                    Malformed::BadPresenter { value } => {
                        fill(words.course.course_link_bad_presenter, &[("value", value)])
                    }
                };
                fill(words.course.course_link_malformed, &[("why", &why)])
            }
            CourseLinkError::UnknownLesson { id } => {
                fill(words.course.course_link_unknown_lesson, &[("id", id)])
            }
            CourseLinkError::StepOutOfRange { lesson, step, steps } => fill(
                words.course.course_link_step_out_of_range,
                &[("lesson", lesson), ("step", &step.to_string()), ("last", &steps.to_string())],
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
        CourseLink::new(lesson, at)
    }

    fn malformed(malformed: Malformed) -> Result<CourseLink, CourseLinkError> {
        Err(CourseLinkError::Malformed(malformed))
    }

    fn bad_step(field: &str, value: &str) -> Result<CourseLink, CourseLinkError> {
        malformed(Malformed::BadStep { field: field.to_owned(), value: value.to_owned() })
    }

    #[test]
    fn a_link_names_a_lesson_and_a_step_from_1_and_reads_back() {
        check("#lesson=inbox&step=3", Ok(link("inbox", 2)));
        check("lesson=inbox&step=3", Ok(link("inbox", 2)));
        check("#step=4&lesson=inbox", Ok(link("inbox", 3)));
        check("http://host/page#lesson=inbox&step=1", Ok(link("inbox", 0)));
        check("#lesson=inbox", Ok(link("inbox", 0)));
        // The panel's last step of a lesson ("Step 4 of 4" in the inbox lesson) opens (#34).
        let inbox = course().lesson("inbox").unwrap().steps.len();
        check(&format!("#lesson=inbox&step={inbox}"), Ok(link("inbox", inbox - 1)));
        for lesson in &course().lessons {
            for at in 0..lesson.steps.len() {
                for presenter in [false, true] {
                    let written = link(&lesson.id, at).presenting(presenter);
                    check(&written.encode(), Ok(written.clone()));
                }
            }
        }
        assert_eq!(link("inbox", 2).encode(), "#lesson=inbox&step=3");
        assert_eq!(link("inbox", 0).presenting(true).encode(), "#lesson=inbox&step=1&presenter=1");
    }

    #[test]
    fn an_old_link_counts_from_0_with_at_and_still_reads() {
        check("#lesson=inbox&at=2", Ok(link("inbox", 2)));
        check("#lesson=inbox&at=0", Ok(link("inbox", 0)));
        check("#at=3&lesson=inbox", Ok(link("inbox", 3)));
        check("#lesson=inbox&at=2&presenter=1", Ok(link("inbox", 2).presenting(true)));
        // Told apart by the field's name: both at once is refused, not guessed.
        check("#lesson=inbox&at=2&step=3", malformed(Malformed::StepTwice));
    }

    #[test]
    fn the_presenter_view_is_on_with_1_off_with_0_or_absent() {
        check("#lesson=inbox&step=2&presenter=1", Ok(link("inbox", 1).presenting(true)));
        check("#presenter=1&lesson=inbox", Ok(link("inbox", 0).presenting(true)));
        check("#lesson=inbox&step=2&presenter=0", Ok(link("inbox", 1)));
        check(
            "#lesson=inbox&presenter=yes",
            malformed(Malformed::BadPresenter { value: "yes".to_owned() }),
        );
        check(
            "#lesson=inbox&presenter=1&presenter=1",
            malformed(Malformed::DuplicateField { field: "presenter".to_owned() }),
        );
    }

    #[test]
    fn a_lesson_the_course_lacks_or_a_step_past_its_last_is_named() {
        check("#lesson=nope", Err(CourseLinkError::UnknownLesson { id: "nope".to_owned() }));
        let steps = course().lesson("inbox").unwrap().steps.len();
        let out_of_range =
            |step| Err(CourseLinkError::StepOutOfRange { lesson: "inbox".to_owned(), step, steps });
        check(&format!("#lesson=inbox&step={}", steps + 1), out_of_range(steps + 1));
        // An old link's step is named as the panel counts it.
        check(&format!("#lesson=inbox&at={steps}"), out_of_range(steps + 1));
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
        check("#step=1", malformed(Malformed::NoLesson));
        check("#lesson=inbox&at=two", bad_step("at", "two"));
        check("#lesson=inbox&at=-1", bad_step("at", "-1"));
        check("#lesson=inbox&at=+1", bad_step("at", "+1"));
        check("#lesson=inbox&step=0", bad_step("step", "0"));
        check("#lesson=inbox&step=", bad_step("step", ""));
        check(
            "#lesson=inbox&at=99999999999999999999999",
            bad_step("at", "99999999999999999999999"),
        );
        check(
            "#lesson=inbox&stop=1",
            malformed(Malformed::UnknownField { field: "stop".to_owned() }),
        );
        check(
            "#lesson=inbox&lesson=mark-paid",
            malformed(Malformed::DuplicateField { field: "lesson".to_owned() }),
        );
        check(
            "#lesson=inbox&step=1&step=2",
            malformed(Malformed::DuplicateField { field: "step".to_owned() }),
        );
        let long = format!("#lesson=inbox&step={}", "1".repeat(COURSE_LINK_BYTES_MAX));
        check(
            &long,
            malformed(Malformed::TooLong { bytes: long.len() - 1, max: COURSE_LINK_BYTES_MAX }),
        );
    }

    #[test]
    fn a_share_link_is_not_a_course_link_and_a_course_link_is() {
        assert!(CourseLink::names_a_lesson("#lesson=nope"));
        assert!(CourseLink::names_a_lesson("#at=1&lesson"));
        assert!(CourseLink::names_a_lesson("lesson=inbox&step=2"));
        assert!(!CourseLink::names_a_lesson("#v=2&s=f01-duplicate-delivery&seed=0&p=nnnn&step=0"));
        assert!(!CourseLink::names_a_lesson(""));
        assert!(!CourseLink::names_a_lesson("#lessons=inbox"));
    }

    #[test]
    fn every_error_reads_in_both_languages_with_its_values() {
        let errors = [
            CourseLink::decode("#lesson=nope", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&step=40", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&at=x", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&step=0", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&z=1", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&at=1&at=2", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&at=1&step=2", course()).unwrap_err(),
            CourseLink::decode("#lesson=inbox&presenter=2", course()).unwrap_err(),
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
                    CourseLinkError::StepOutOfRange { step, .. } => step.to_string(),
                    CourseLinkError::Malformed(Malformed::BadStep { field, value }) => {
                        format!("{field}={value}")
                    }
                    CourseLinkError::Malformed(Malformed::BadPresenter { value }) => value.clone(),
                    CourseLinkError::Malformed(Malformed::UnknownField { field }) => field.clone(),
                    CourseLinkError::Malformed(Malformed::DuplicateField { field }) => {
                        field.clone()
                    }
                    CourseLinkError::Malformed(Malformed::NotAField { part }) => part.clone(),
                    CourseLinkError::Malformed(Malformed::TooLong { max, .. }) => max.to_string(),
                    CourseLinkError::Malformed(Malformed::StepTwice) => "step".to_owned(),
                    CourseLinkError::Malformed(Malformed::NoLesson) => String::new(),
                };
                assert!(text.contains(&value), "{error:?} in {language:?}: {text}");
            }
        }
    }
}
