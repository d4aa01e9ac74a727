//! The run's index: what a screen asks of every step up to the cursor (the decisive moments
//! of the window drawn, where each invariant broke, the dead letters), kept as the run grows,
//! so that a screen of a 20,000-step run costs its window, not the run.
//!
//! [`RunIndex`] is extended by each step appended to the run, once (`extend`), and answers for
//! any prefix of what it indexed: the cursor moved back (a rewind, a slider jump) is a prefix,
//! never a rebuild. Each answer is what the derivation over the prefix's steps gives, the
//! reference its tests hold it to: [`crate::view::moments`] (the moments drawn on the window's
//! steps), [`crate::view::breaking_steps`] and [`crate::view::dead_letter_sentences`].
//!
//! A moment is known at the step that tells it and drawn on that step or an earlier one (a
//! consumer's moment on its insert, a repeated payment's on its guarded `UPDATE`: see
//! `moments.rs`), so each is kept with both: the moments of a prefix of `n` steps drawn on the
//! window are those drawn there and known by step `n`.
//!
//! A branch (a learner's choice at an earlier step replaces the steps after it) truncates the
//! index to the steps kept (`truncate`). What finding moments remembers between steps is then
//! derived again by following the kept steps from the run's start: a branch plays its run
//! again from the start anyway (`sim::Run::play`), so following its steps once more costs a
//! fraction of that, and no checkpoint has to be kept for every step a learner may branch at.

use std::collections::BTreeMap;

use crate::ids::MessageId;
use crate::invariants::InvariantId;
use crate::sim::{EntryId, StepLog, TraceStep, dead_letters};
use crate::view::Moment;
use crate::view::dead_letters::dead_letter_sentence;
use crate::view::moments::MomentFinder;
use crate::words::Language;

/// The index of one run's steps (see the module's documentation): extended as steps are
/// appended, truncated when the run branches, asked about any prefix of what it indexed.
#[derive(Clone, Debug, Default)]
pub struct RunIndex {
    /// How many steps are indexed: the run's first ones.
    steps: usize,
    /// What finding moments remembers after the steps indexed.
    finder: MomentFinder,
    /// Every moment, in the order found, with the step that made it known.
    found: Vec<Found>,
    /// Each moment's place in `found`, by the step it is drawn on and then its place (the order
    /// of [`crate::view::moments`]), sorted. Plain sorted lists here, not sets and maps: a
    /// moment is drawn on its step or shortly before, so it is inserted near the end, and seven
    /// invariants are searched faster than a map is compiled into the page.
    drawn: Vec<(usize, usize)>,
    /// For each invariant with new violations, the steps whose new violations name it, in step
    /// order.
    made_new: Vec<(InvariantId, Vec<usize>)>,
    /// For each invariant violated, the first step after which it is.
    first_violated: Vec<(InvariantId, usize)>,
    /// The dead letters: the step, the copy and its message, in step order.
    dead_letters: Vec<(usize, EntryId, MessageId)>,
}

/// A moment and the step that made it known.
#[derive(Clone, Copy, Debug)]
struct Found {
    known_at: usize,
    moment: Moment,
}

impl RunIndex {
    /// How many of the run's first steps are indexed.
    pub fn steps_indexed(&self) -> usize {
        self.steps
    }

    /// Indexes the steps of `run` (the run's steps so far) after those indexed already: the
    /// cost of the new steps only.
    ///
    /// # Panics
    ///
    /// If `run` is shorter than what is indexed, or its steps are not numbered from 1 in
    /// order: the index belongs to another run (a programmer's error).
    pub fn extend(&mut self, run: &StepLog) {
        assert!(run.len() >= self.steps, "a run is never shorter than its index");
        for step in run.iter_from(self.steps) {
            assert_eq!(step.step, self.steps + 1, "a run's steps are numbered from 1");
            self.index(step);
        }
    }

    fn index(&mut self, step: &TraceStep) {
        self.steps = step.step;
        let start = self.found.len();
        let mut moments = Vec::new();
        self.finder.step(step, &mut moments);
        for (offset, moment) in moments.into_iter().enumerate() {
            debug_assert!(moment.step <= step.step, "a moment is drawn on its step or before");
            let key = (moment.step, start + offset);
            let at = self.drawn.partition_point(|drawn| *drawn < key);
            self.drawn.insert(at, key);
            self.found.push(Found { known_at: step.step, moment });
        }
        for &invariant in &step.violated {
            if !self.first_violated.iter().any(|(other, _)| *other == invariant) {
                self.first_violated.push((invariant, step.step));
            }
        }
        for violation in &step.new_violations {
            match self.made_new.iter_mut().find(|(other, _)| *other == violation.invariant) {
                Some((_, steps)) if steps.last() == Some(&step.step) => {}
                Some((_, steps)) => steps.push(step.step),
                None => self.made_new.push((violation.invariant, vec![step.step])),
            }
        }
        self.dead_letters.extend(dead_letters(std::slice::from_ref(step)));
    }

    /// Keeps the index of the first `kept` steps of `run` (those a branch keeps), and forgets
    /// the rest; what finding moments remembers is derived again by following those steps
    /// (see the module's documentation for why from the start).
    ///
    /// # Panics
    ///
    /// If `kept` is more than what is indexed, or than `run` has.
    pub fn truncate(&mut self, run: &StepLog, kept: usize) {
        let steps = kept;
        assert!(steps <= run.len(), "truncating to {steps} of a run of {} steps", run.len());
        assert!(steps <= self.steps, "truncating to {steps} of {} steps indexed", self.steps);
        if steps == self.steps {
            return;
        }
        while let Some(found) = self.found.last().filter(|found| found.known_at > steps) {
            let key = (found.moment.step, self.found.len() - 1);
            if let Ok(at) = self.drawn.binary_search(&key) {
                self.drawn.remove(at);
            }
            self.found.pop();
        }
        for (_, made_new) in &mut self.made_new {
            made_new.truncate(made_new.partition_point(|&step| step <= steps));
        }
        self.made_new.retain(|(_, made_new)| !made_new.is_empty());
        self.first_violated.retain(|(_, step)| *step <= steps);
        self.dead_letters.truncate(self.dead_letters.partition_point(|(step, ..)| *step <= steps));
        self.finder = MomentFinder::default();
        run.first(kept).for_each(|step| self.finder.follow(step));
        self.steps = steps;
    }

    /// The moments of the run's first `shown` steps drawn on the steps after `hidden`, in the
    /// order of [`crate::view::moments`] over those steps: the moments of a screen's window.
    ///
    /// # Panics
    ///
    /// If `shown` is more than the steps indexed.
    pub fn moments_drawn(&self, shown: usize, hidden: usize) -> impl Iterator<Item = Moment> + '_ {
        self.assert_indexed(shown);
        // With `hidden` at or past `shown`, no step after `hidden` is shown: an empty window.
        let first = self.drawn.partition_point(|&(step, _)| step <= hidden);
        let end = self.drawn.partition_point(|&(step, _)| step <= shown);
        self.drawn[first..end.max(first)]
            .iter()
            .map(|&(_, place)| self.found[place])
            .filter(move |found| found.known_at <= shown)
            .map(|found| found.moment)
    }

    /// Where each invariant broke in the run's first `shown` steps: what
    /// [`crate::view::breaking_steps`] finds in them.
    ///
    /// # Panics
    ///
    /// If `shown` is more than the steps indexed.
    pub fn breaking_steps(&self, shown: usize) -> BTreeMap<InvariantId, usize> {
        self.assert_indexed(shown);
        // Inserted one by one: collecting would compile a sort into the page.
        let mut breaks: BTreeMap<InvariantId, usize> = BTreeMap::new();
        for &(invariant, step) in &self.first_violated {
            if step <= shown {
                breaks.insert(invariant, step);
            }
        }
        for (invariant, made_new) in &self.made_new {
            let before = made_new.partition_point(|&step| step <= shown);
            if let Some(step) = before.checked_sub(1).map(|last| made_new[last]) {
                breaks.insert(*invariant, step);
            }
        }
        breaks
    }

    /// The dead letters of the run's first `shown` steps in `language`: what
    /// [`crate::view::dead_letter_sentences`] says of them.
    ///
    /// # Panics
    ///
    /// If `shown` is more than the steps indexed.
    pub fn dead_letter_sentences(&self, shown: usize, language: Language) -> Vec<String> {
        self.assert_indexed(shown);
        let before = self.dead_letters.partition_point(|(step, ..)| *step <= shown);
        self.dead_letters[..before]
            .iter()
            .map(|&(step, entry, message_id)| {
                dead_letter_sentence(step, entry, message_id, language)
            })
            .collect()
    }

    fn assert_indexed(&self, shown: usize) {
        assert!(shown <= self.steps, "asked about {shown} steps of {} indexed", self.steps);
    }
}

#[cfg(test)]
mod tests;
