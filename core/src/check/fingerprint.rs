//! State fingerprints: a 64-bit XXH64 hash of a state's `Hash` stream, the same on every
//! platform and toolchain (unlike `std`'s `DefaultHasher`, whose algorithm may change), so
//! that the checker's state counts are reproducible and can be pinned by tests.
//!
//! XXH64 is a fixed, published algorithm (`twox-hash` implements it) and takes its input 32
//! bytes at a time; it replaced FNV-1a, which took one byte per multiplication and was a fifth
//! of a check's time. The state's small writes are gathered and handed to it in blocks.
//! Integers are written as fixed-width little-endian bytes (`usize` as 64 bits), so wasm32 and
//! x86_64 agree.
//!
//! The trade-off: the checker stores only fingerprints of visited states, not the states,
//! which keeps a million states in about 16 MB instead of gigabytes (the states themselves are
//! rebuilt by replaying their paths, see the explorer). Two different states with the same
//! fingerprint would be merged and the second one never explored; with `n` states the chance
//! of any collision is about `n² / 2⁶⁵` (below one in ten million for a million states, about
//! three in a million for ten million). Stateright's checkers and TLC keep the same kind
//! of set of 64-bit fingerprints and accept the same risk (TLC prints its estimate of the
//! collision probability after every run). A collision can hide a violation, never invent
//! one: every reported path is replayed from the initial state.

#[cfg(test)]
use std::hash::Hash;
use std::hash::Hasher;

use twox_hash::XxHash64;

/// A state's 64-bit fingerprint.
pub(crate) type Fingerprint = u64;

/// How many bytes [`StateHasher`] gathers before it hands them to XXH64: a state's `Hash`
/// stream is mostly integers of one to eight bytes, and handing each to the streaming hasher
/// on its own cost more than FNV-1a's byte loop.
const GATHERED: usize = 256;

/// The hasher of fingerprints: XXH64 with seed 0 over the state's `Hash` stream, with
/// integers written at a fixed width. Small writes are gathered in a buffer and hashed
/// [`GATHERED`] bytes at a time; the hash is XXH64 of the whole stream however it was cut.
#[derive(Clone)]
pub(crate) struct StateHasher {
    inner: XxHash64,
    gathered: [u8; GATHERED],
    len: usize,
}

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher { inner: XxHash64::with_seed(0), gathered: [0; GATHERED], len: 0 }
    }
}

impl std::fmt::Debug for StateHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("StateHasher").field(&self.finish()).finish()
    }
}

impl StateHasher {
    /// Appends `bytes` (at most [`GATHERED`] of them) to the buffer, hashing the buffer first
    /// if they do not fit.
    #[inline]
    fn gather<const N: usize>(&mut self, bytes: [u8; N]) {
        if self.len + N > GATHERED {
            self.flush();
        }
        if let Some(room) = self.gathered.get_mut(self.len..self.len + N) {
            room.copy_from_slice(&bytes);
            self.len += N;
        }
    }

    fn flush(&mut self) {
        self.inner.write(self.gathered.get(..self.len).unwrap_or_default());
        self.len = 0;
    }
}

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        let mut inner = self.inner.clone();
        inner.write(self.gathered.get(..self.len).unwrap_or_default());
        inner.finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() <= GATHERED {
            if let Some(room) = self.gathered.get_mut(self.len..self.len + bytes.len()) {
                room.copy_from_slice(bytes);
                self.len += bytes.len();
            }
        } else {
            self.flush();
            self.inner.write(bytes);
        }
    }

    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.gather([value]);
    }

    // Integers are hashed by value in little-endian order, whatever the platform (`usize`
    // as 64 bits), so wasm32 and x86_64 agree.
    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.gather((value as u64).to_le_bytes());
    }

    #[inline]
    fn write_isize(&mut self, value: isize) {
        self.gather((value as i64).to_le_bytes());
    }

    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.gather(value.to_le_bytes());
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.gather(value.to_le_bytes());
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.gather(value.to_le_bytes());
    }

    #[inline]
    fn write_i64(&mut self, value: i64) {
        self.gather(value.to_le_bytes());
    }
}

/// The fingerprint of one value.
#[cfg(test)]
pub(crate) fn fingerprint_of<T: Hash + ?Sized>(value: &T) -> Fingerprint {
    let mut hasher = StateHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}
