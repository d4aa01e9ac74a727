//! State fingerprints: a 64-bit FNV-1a hash of a state's `Hash` stream, the same on every
//! platform and toolchain (unlike `std`'s `DefaultHasher`, whose algorithm may change), so
//! that the checker's state counts are reproducible and can be pinned by tests.
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

/// A state's 64-bit fingerprint.
pub(crate) type Fingerprint = u64;

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The FNV-1a 64-bit hasher.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> Self {
        FnvHasher(FNV_OFFSET_BASIS)
    }
}

impl Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    // Integers are hashed by value in little-endian order, whatever the platform (`usize`
    // as 64 bits), so wasm32 and x86_64 agree.
    fn write_usize(&mut self, value: usize) {
        self.write(&(value as u64).to_le_bytes());
    }

    fn write_isize(&mut self, value: isize) {
        self.write(&(value as i64).to_le_bytes());
    }

    fn write_u16(&mut self, value: u16) {
        self.write(&value.to_le_bytes());
    }

    fn write_u32(&mut self, value: u32) {
        self.write(&value.to_le_bytes());
    }

    fn write_u64(&mut self, value: u64) {
        self.write(&value.to_le_bytes());
    }

    fn write_i64(&mut self, value: i64) {
        self.write(&value.to_le_bytes());
    }
}

/// The fingerprint of one value.
#[cfg(test)]
pub(crate) fn fingerprint_of<T: Hash + ?Sized>(value: &T) -> Fingerprint {
    let mut hasher = FnvHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}
