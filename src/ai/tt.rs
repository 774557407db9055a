//! The transposition table: a fixed-size array of search results keyed by the position hash.

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
    generation: u8,
}

/// A transposition table whose size is a power of two.
pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least 1,024 entries).
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = want.next_power_of_two().max(1024) / 2;
        Tt { entries: vec![Entry::default(); size.max(1024)], mask: size.max(1024) - 1, generation: 0 }
    }

    /// Forgets everything (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.generation = 0;
    }

    /// Marks the start of a new search, so that old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && key != 0).then_some(e)
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let slot = &mut self.entries[key as usize & self.mask];
        let replace = slot.key != key || slot.generation != generation || depth as i16 >= slot.depth - 2;
        if !replace {
            return;
        }
        let mv = mv.or(if slot.key == key { slot.mv } else { None });
        *slot = Entry { key, mv, score, depth: depth.clamp(-100, 1000) as i16, bound, generation };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let mut tt = Tt::new(1);
        tt.store(12345, None, 77, 5, Bound::Lower);
        let e = tt.probe(12345).expect("stored");
        assert_eq!((e.score, e.depth, e.bound), (77, 5, Bound::Lower));
        assert!(tt.probe(999).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }
}
