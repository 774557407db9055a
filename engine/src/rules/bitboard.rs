//! A set of squares as a 128-bit integer (bits 0…99 used), like the large-board build of Fairy-Stockfish.

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 100 squares of the 10×10 grid.
    pub const FULL: Bitboard = Bitboard((1u128 << 100) - 1);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    /// Lowest square.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::from_index(self.0.trailing_zeros() as usize)) }
    }

    /// Highest square.
    #[inline]
    pub fn last(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::from_index(127 - self.0.leading_zeros() as usize)) }
    }

    /// Whether more than one square is set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The single square, if exactly one is set.
    #[inline]
    pub fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() { self.first() } else { None }
    }

    /// All squares of one rank (0-based) on the 10×10 grid.
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0x3ffu128 << (rank as u32 * 10))
    }

    /// All squares of one file (0-based) on the 10×10 grid.
    pub const fn file(file: u8) -> Bitboard {
        let mut bb = 0u128;
        let mut r = 0;
        while r < 10 {
            bb |= 1u128 << (r * 10 + file as u32);
            r += 1;
        }
        Bitboard(bb)
    }

    /// The dark squares (a1 is dark).
    pub const fn dark_squares() -> Bitboard {
        let mut bb = 0u128;
        let mut i = 0;
        while i < 100 {
            if ((i % 10) + (i / 10)) % 2 == 0 {
                bb |= 1u128 << i;
            }
            i += 1;
        }
        Bitboard(bb)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// The lowest square first, as ever, but found half by half: a 128-bit count of trailing zeros and
    /// clearing of the lowest bit take about a dozen instructions on a 64-bit processor, the lower half's
    /// test, count and clearing four (the evaluation walks every piece of both sides this way).
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let low = self.0 as u64;
        let high = (self.0 >> 64) as u64;
        if low != 0 {
            self.0 = ((high as u128) << 64) | (low & (low - 1)) as u128;
            Some(Square::from_index(low.trailing_zeros() as usize))
        } else if high != 0 {
            self.0 = ((high & (high - 1)) as u128) << 64;
            Some(Square::from_index(64 + high.trailing_zeros() as usize))
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitops {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitops!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitops!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitops!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walking a set gives its squares from the lowest up, in either half of the 128 bits and across
    /// them, as testing each of the 100 squares in turn does.
    #[test]
    fn a_set_is_walked_from_its_lowest_square_up() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut sets = vec![Bitboard::EMPTY, Bitboard::FULL, Bitboard(1), Bitboard(1 << 63), Bitboard(1 << 64)];
        let mut random = move || ((next() as u128) << 64 | next() as u128) & Bitboard::FULL.0;
        // Dense sets, and sparse ones (seven squares in eight dropped) as a side's pieces are.
        sets.extend((0..2000).map(|_| Bitboard(random())));
        sets.extend((0..2000).map(|_| Bitboard(random() & random() & random())));
        for set in sets {
            let walked: Vec<usize> = set.map(|sq| sq.index()).collect();
            let tested: Vec<usize> = (0..100).filter(|&i| set.0 >> i & 1 == 1).collect();
            assert_eq!(walked, tested, "{set:?}");
        }
    }
}
