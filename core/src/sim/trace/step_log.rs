//! The steps a run has taken, kept so that a copy of the run costs what its last few steps
//! cost, not what the whole run does.
//!
//! A front end's states share their run (the page's reducer keeps the state before an action
//! beside the one after it; the JavaScript API keeps the state it would go back to on an
//! error), so a step taken from the end of a shared run first makes the run its own. With the
//! steps in one `Vec`, that copied every step of the run, statements and rows included: 77 MB
//! and 29 ms natively at the longest accepted run's 20,000th step, at every click on Step. Here
//! the steps are sealed in chunks of [`CHUNK`] as they fill, each chunk shared by every copy of
//! the run ([`Arc`]); a copy copies the pointers to the sealed chunks and the open chunk's
//! steps, at most `CHUNK - 1` of them.

use std::ops::Index;
use std::sync::Arc;

use crate::sim::TraceStep;

/// The steps of a [`StepLog`] in order ([`StepLog::iter`]).
#[derive(Clone, Debug)]
pub struct StepIter<'a> {
    /// The sealed chunks not begun yet.
    sealed: std::slice::Iter<'a, Arc<[TraceStep]>>,
    /// The open chunk, once the sealed ones are begun; taken when it is begun.
    open: Option<&'a [TraceStep]>,
    /// The rest of the chunk being read.
    current: std::slice::Iter<'a, TraceStep>,
}

impl<'a> Iterator for StepIter<'a> {
    type Item = &'a TraceStep;

    fn next(&mut self) -> Option<&'a TraceStep> {
        loop {
            if let Some(step) = self.current.next() {
                return Some(step);
            }
            self.current = match self.sealed.next() {
                Some(chunk) => chunk.iter(),
                None => self.open.take()?.iter(),
            };
        }
    }
}

/// Steps in a sealed chunk.
const CHUNK: usize = 64;

/// A run's steps in order (see the module's documentation): read as a slice is, except that
/// the steps are not contiguous in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepLog {
    /// Full chunks, each of exactly [`CHUNK`] steps, shared by every copy.
    sealed: Vec<Arc<[TraceStep]>>,
    /// The steps after the sealed ones: fewer than [`CHUNK`].
    open: Vec<TraceStep>,
}

impl StepLog {
    /// How many steps there are.
    pub fn len(&self) -> usize {
        self.sealed.len() * CHUNK + self.open.len()
    }

    /// Whether there is no step.
    pub fn is_empty(&self) -> bool {
        self.sealed.is_empty() && self.open.is_empty()
    }

    /// The step at `index` (from 0), if there is one.
    pub fn get(&self, index: usize) -> Option<&TraceStep> {
        match self.sealed.get(index / CHUNK) {
            Some(chunk) => chunk.get(index % CHUNK),
            None => self.open.get(index - self.sealed.len() * CHUNK),
        }
    }

    /// The last step, if there is one.
    pub fn last(&self) -> Option<&TraceStep> {
        self.open.last().or_else(|| self.sealed.last().and_then(|chunk| chunk.last()))
    }

    /// The steps in order.
    pub fn iter(&self) -> StepIter<'_> {
        self.iter_from(0)
    }

    /// The steps from the one at `from` (from 0) on, in order; none if `from` is past the
    /// last. Costs the steps it yields, not those before `from`.
    pub fn iter_from(&self, from: usize) -> StepIter<'_> {
        let first_chunk = (from / CHUNK).min(self.sealed.len());
        let mut sealed = self.sealed[first_chunk..].iter();
        let skip = from - first_chunk * CHUNK;
        let (current, open) = match sealed.next() {
            Some(chunk) => (chunk.get(skip..).unwrap_or_default().iter(), Some(&self.open[..])),
            None => (self.open.get(skip..).unwrap_or_default().iter(), None),
        };
        StepIter { sealed, open, current }
    }

    /// The first `count` steps (all of them if there are fewer), in order.
    pub fn first(&self, count: usize) -> std::iter::Take<StepIter<'_>> {
        self.iter().take(count)
    }

    /// The steps, copied into one `Vec` (a trace's).
    pub fn to_vec(&self) -> Vec<TraceStep> {
        self.iter().cloned().collect()
    }

    /// The steps as one `Vec`, taking them out of the chunks no other copy shares.
    pub fn into_vec(self) -> Vec<TraceStep> {
        let mut steps = Vec::with_capacity(self.len());
        for chunk in self.sealed {
            steps.extend_from_slice(&chunk);
        }
        steps.extend(self.open);
        steps
    }

    /// Adds `step` after the last.
    pub(crate) fn push(&mut self, step: TraceStep) {
        self.open.push(step);
        if self.open.len() == CHUNK {
            let chunk: Arc<[TraceStep]> = std::mem::take(&mut self.open).into();
            self.sealed.push(chunk);
        }
    }
}

impl Index<usize> for StepLog {
    type Output = TraceStep;

    /// The step at `index` (from 0).
    ///
    /// # Panics
    ///
    /// If there are not more than `index` steps, as a slice does.
    fn index(&self, index: usize) -> &TraceStep {
        match self.get(index) {
            Some(step) => step,
            None => panic!("step index {index} out of range for a run of {} steps", self.len()),
        }
    }
}

impl<'a> IntoIterator for &'a StepLog {
    type Item = &'a TraceStep;
    type IntoIter = StepIter<'a>;

    fn into_iter(self) -> StepIter<'a> {
        self.iter()
    }
}

impl PartialEq<[TraceStep]> for StepLog {
    fn eq(&self, other: &[TraceStep]) -> bool {
        self.len() == other.len() && self.iter().eq(other)
    }
}

impl From<Vec<TraceStep>> for StepLog {
    fn from(steps: Vec<TraceStep>) -> StepLog {
        let mut log = StepLog::default();
        for step in steps {
            log.push(step);
        }
        log
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Simulation, catalogue_scenario};

    /// A run's steps, as many as `count` (the catalogue's scenario run on, again and again).
    fn steps(count: usize) -> Vec<TraceStep> {
        let scenario = catalogue_scenario("f01-duplicate-delivery").expect("in the catalogue");
        let mut steps = Vec::new();
        let mut seed = 0;
        while steps.len() < count {
            let mut simulation = Simulation::new(scenario.clone(), seed).expect("valid");
            simulation.run_to_end();
            steps.extend(simulation.steps().iter().cloned());
            seed += 1;
        }
        steps.truncate(count);
        steps
    }

    #[test]
    fn reads_as_the_slice_it_was_built_from_at_every_length_around_a_chunk() {
        let all = steps(3 * CHUNK + 5);
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 5] {
            let slice = &all[..len];
            let log = StepLog::from(slice.to_vec());
            assert_eq!(log.len(), len);
            assert_eq!(log.is_empty(), len == 0);
            assert_eq!(log.last(), slice.last());
            assert!(log.iter().eq(slice.iter()));
            assert_eq!(log.to_vec(), slice);
            assert_eq!(log.clone().into_vec(), slice);
            for index in 0..len + 2 {
                assert_eq!(log.get(index), slice.get(index), "get({index}) of {len}");
                assert!(
                    log.iter_from(index).eq(slice.get(index..).unwrap_or_default().iter()),
                    "iter_from({index}) of {len}"
                );
                assert!(log.first(index).eq(slice.iter().take(index)), "first({index}) of {len}");
            }
        }
    }

    #[test]
    fn a_copy_shares_the_sealed_chunks_and_grows_apart() {
        let all = steps(2 * CHUNK + 3);
        let mut log = StepLog::from(all[..2 * CHUNK + 1].to_vec());
        let copy = log.clone();
        assert!(log.sealed.iter().zip(&copy.sealed).all(|(a, b)| Arc::ptr_eq(a, b)));
        log.push(all[2 * CHUNK + 1].clone());
        assert_eq!(copy.len(), 2 * CHUNK + 1, "the copy keeps its own steps");
        assert_eq!(log.len(), 2 * CHUNK + 2);
        assert_eq!(log[2 * CHUNK + 1], all[2 * CHUNK + 1]);
    }

    #[test]
    #[should_panic(expected = "step index 3 out of range for a run of 3 steps")]
    fn indexing_past_the_end_names_the_index_and_the_length() {
        let log = StepLog::from(steps(3));
        let _ = &log[3];
    }
}
