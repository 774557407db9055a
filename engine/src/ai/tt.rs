//! The transposition table: a fixed-size array of two-entry buckets keyed by the position hash. The first
//! entry of a bucket keeps the deepest result of the current search, the second is always replaced, so
//! shallow quiescence results never push out the deep ones. A bucket fills one cache line of its own, so
//! that a probe waits for one line from memory, never two.

use crate::rules::Move;

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The static evaluation of the position ([`NO_EVAL`] when unknown or in check).
    pub eval: i16,
    generation: u8,
}

/// The stored static evaluation of a position in check or not yet evaluated.
pub const NO_EVAL: i16 = i16::MIN;

/// Two entries (48 bytes) padded to a 64-byte cache line and aligned to one: unaligned, half the buckets
/// straddled two lines, and a probe of one waited for both.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

/// A transposition table whose bucket count is a power of two.
pub struct Tt {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` megabytes of entries (at least 512 buckets), a third more with the buckets'
    /// padding: its bucket count, and so every search's course, is what it was before the padding.
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / std::mem::size_of::<[Entry; 2]>();
        let size = (want.next_power_of_two() / 2).max(512);
        // Allocated, advised, then written: the kernel backs the pages when they are first written.
        let mut buckets = Vec::with_capacity(size);
        super::advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize(size, Bucket::default());
        Tt { buckets, mask: size - 1, generation: 0 }
    }

    /// Forgets everything (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Marks the start of a new search, so that old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Asks the processor to bring `key`'s bucket into its cache, so that a probe soon after does not wait
    /// for memory (a hint: nothing stored or found changes).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = &self.buckets[key as usize & self.mask];
            // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (the build's baseline);
            // a prefetch reads nothing through the pointer, which points into the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        let b = &self.buckets[key as usize & self.mask].0;
        b.iter().find(|e| e.key == key).copied()
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound, eval: i16) {
        let generation = self.generation;
        let depth = depth.clamp(-100, 1000) as i16;
        let bucket = &mut self.buckets[key as usize & self.mask].0;
        let slot = if let Some(i) = bucket.iter().position(|e| e.key == key) {
            let e = &bucket[i];
            // Keep a deeper result of this search unless the new one is exact.
            if e.generation == generation && depth < e.depth - 2 && bound != Bound::Exact {
                return;
            }
            i
        } else if bucket[0].generation != generation || depth >= bucket[0].depth {
            // The displaced depth-preferred entry moves to the always-replace slot.
            bucket[1] = bucket[0];
            0
        } else {
            1
        };
        let old = bucket[slot];
        let same = old.key == key;
        let mv = mv.or(if same { old.mv } else { None });
        let eval = if eval == NO_EVAL && same { old.eval } else { eval };
        bucket[slot] = Entry { key, mv, score, depth, bound, eval, generation };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let mut tt = Tt::new(1);
        tt.store(12345, None, 77, 5, Bound::Lower, 31);
        let e = tt.probe(12345).expect("stored");
        assert_eq!((e.score, e.depth, e.bound, e.eval), (77, 5, Bound::Lower, 31));
        // A later store without an evaluation keeps the known one.
        tt.store(12345, None, 80, 6, Bound::Exact, NO_EVAL);
        assert_eq!(tt.probe(12345).map(|e| (e.score, e.eval)), Some((80, 31)));
        assert!(tt.probe(999).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }

    #[test]
    fn a_bucket_is_one_cache_line_and_the_counts_are_kept() {
        assert_eq!((std::mem::size_of::<Bucket>(), std::mem::align_of::<Bucket>()), (64, 64));
        // The bucket counts of 48-byte buckets: the searches' courses depend on them.
        for (mb, buckets) in [(1, 1 << 14), (4, 1 << 16), (16, 1 << 18), (3, 1 << 15)] {
            let tt = Tt::new(mb);
            assert_eq!((tt.buckets.len(), tt.buckets.as_ptr() as usize % 64), (buckets, 0), "{mb} MB");
        }
    }

    #[test]
    fn shallow_results_do_not_push_out_deep_ones() {
        let mut tt = Tt::new(1);
        let buckets = tt.mask as u64 + 1;
        tt.store(7, None, 10, 9, Bound::Exact, NO_EVAL);
        // Two other keys in the same bucket, both shallow: the deep entry stays.
        tt.store(7 + buckets, None, 20, 0, Bound::Upper, NO_EVAL);
        tt.store(7 + 2 * buckets, None, 30, 0, Bound::Upper, NO_EVAL);
        assert_eq!(tt.probe(7).map(|e| e.depth), Some(9));
        assert!(tt.probe(7 + 2 * buckets).is_some());
        assert!(tt.probe(7 + buckets).is_none());
        // A new search lets a fresh entry take the first slot; the old one moves to the second.
        tt.new_search();
        tt.store(7 + buckets, None, 40, 1, Bound::Lower, NO_EVAL);
        assert!(tt.probe(7 + buckets).is_some());
        assert!(tt.probe(7).is_some());
    }
}
