//! Precomputed attack tables on the 10×10 grid and slider attacks through blockers.
//!
//! Tables are built at compile time for the largest grid; callers mask the result with their board, which is safe
//! because squares off a smaller board are never occupied and never targets.

use super::bitboard::Bitboard;
use super::types::{Color, Role, Square};

/// Directions in (file, rank) steps. The first four increase the square index, the last four decrease it.
const DIRS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
const ROOK_DIRS: [usize; 4] = [0, 1, 4, 5];
const BISHOP_DIRS: [usize; 4] = [2, 3, 6, 7];

/// The square `steps` away from square index `i` on the 10×10 grid, if any.
const fn step(i: usize, (df, dr): (i32, i32)) -> Option<usize> {
    let f = (i % 10) as i32 + df;
    let r = (i / 10) as i32 + dr;
    if f >= 0 && f < 10 && r >= 0 && r < 10 { Some((r * 10 + f) as usize) } else { None }
}

/// The length of a table by square: one entry for each value of a square's byte, those past square 99
/// empty, so that reading one by a square (or by a bit's place in a set, below 128) needs no bounds check.
pub const BY_SQUARE: usize = 256;

const fn leaps(steps: &[(i32, i32)]) -> [Bitboard; BY_SQUARE] {
    let mut out = [Bitboard::EMPTY; BY_SQUARE];
    let mut i = 0;
    while i < 100 {
        let mut bb = 0u128;
        let mut k = 0;
        while k < steps.len() {
            if let Some(t) = step(i, steps[k]) {
                bb |= 1u128 << t;
            }
            k += 1;
        }
        out[i] = Bitboard(bb);
        i += 1;
    }
    out
}

/// Squares from each square in each direction of [`DIRS`] to the edge.
const fn build_rays() -> [[Bitboard; BY_SQUARE]; 8] {
    let mut out = [[Bitboard::EMPTY; BY_SQUARE]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < 100 {
            let mut bb = 0u128;
            let mut cur = i;
            while let Some(n) = step(cur, DIRS[d]) {
                bb |= 1u128 << n;
                cur = n;
            }
            out[d][i] = Bitboard(bb);
            i += 1;
        }
        d += 1;
    }
    out
}

/// The union of the rays of `dirs` from each square: a slider's attacks on an empty board.
const fn pseudo(dirs: [usize; 4]) -> [Bitboard; BY_SQUARE] {
    let mut out = [Bitboard::EMPTY; BY_SQUARE];
    let mut i = 0;
    while i < 100 {
        let mut k = 0;
        while k < 4 {
            out[i] = Bitboard(out[i].0 | COLUMN_RAYS[dirs[k]][i].0);
            k += 1;
        }
        i += 1;
    }
    out
}

/// Squares strictly between two squares on a common line (empty otherwise), and the whole line through
/// them (empty if they share none), indexed `a * 100 + b`.
const fn build_between_and_line() -> ([Bitboard; 100 * 100], [Bitboard; 100 * 100]) {
    let mut between = [Bitboard::EMPTY; 100 * 100];
    let mut line = [Bitboard::EMPTY; 100 * 100];
    let mut a = 0;
    while a < 100 {
        let mut d = 0;
        while d < 8 {
            let whole = Bitboard(COLUMN_RAYS[d][a].0 | COLUMN_RAYS[(d + 4) % 8][a].0 | 1u128 << a);
            let mut so_far = 0u128;
            let mut cur = a;
            while let Some(n) = step(cur, DIRS[d]) {
                between[a * 100 + n] = Bitboard(so_far);
                line[a * 100 + n] = whole;
                so_far |= 1u128 << n;
                cur = n;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Each square's entries of `N` tables side by side: the entries of one square share cache lines, and
/// the board's squares' entries of all the tables lie in one stretch of memory (tables of 256 entries
/// one after the other would put every table's board squares in the same sets of the L1 cache).
const fn by_square<const N: usize>(tables: [[Bitboard; BY_SQUARE]; N]) -> [[Bitboard; N]; BY_SQUARE] {
    let mut out = [[Bitboard::EMPTY; N]; BY_SQUARE];
    let mut i = 0;
    while i < BY_SQUARE {
        let mut t = 0;
        while t < N {
            out[i][t] = tables[t][i];
            t += 1;
        }
        i += 1;
    }
    out
}

// The tables, computed at compile time (no initialisation to check on each lookup).
static COLUMN_RAYS: [[Bitboard; BY_SQUARE]; 8] = build_rays();
/// By square: the squares of each ray of [`DIRS`] to the edge.
static RAYS: [[Bitboard; 8]; BY_SQUARE] = by_square(COLUMN_RAYS);
/// The places of each pattern in [`PATTERNS`]' entries (a pawn's by its colour after `PAWN`).
const KNIGHT: usize = 0;
const KING: usize = 1;
const PAWN: usize = 2;
const ROOK_PSEUDO: usize = 4;
const BISHOP_PSEUDO: usize = 5;
/// By square: the knight's, king's and each colour's pawn's captures, and a rook's and a bishop's attacks
/// on an empty board.
static PATTERNS: [[Bitboard; 6]; BY_SQUARE] = by_square([
    leaps(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]),
    leaps(&DIRS),
    leaps(&[(-1, 1), (1, 1)]),
    leaps(&[(-1, -1), (1, -1)]),
    pseudo(ROOK_DIRS),
    pseudo(BISHOP_DIRS),
]);
static BETWEEN_AND_LINE: ([Bitboard; 100 * 100], [Bitboard; 100 * 100]) = build_between_and_line();

/// Kept for callers that built the tables eagerly: they are built at compile time now.
pub fn init() {}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    PATTERNS[sq.index()][KNIGHT]
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    PATTERNS[sq.index()][KING]
}

/// Squares a pawn of `color` on `sq` captures on.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PATTERNS[sq.index()][PAWN + color.index()]
}

/// Rook attacks from `sq` on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    PATTERNS[sq.index()][ROOK_PSEUDO]
}

/// Bishop attacks from `sq` on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    PATTERNS[sq.index()][BISHOP_PSEUDO]
}

/// The squares of ray `d` from `sq` up to and including the first blocker, without a branch (`d` is a
/// constant wherever this is inlined).
#[inline]
fn ray(d: usize, sq: Square, blockers: Bitboard) -> Bitboard {
    let r = RAYS[sq.index()][d].0;
    let hit = r & blockers.0;
    if d < 4 {
        // Increasing indices: the nearest blocker is the lowest bit of `hit`, and `hit ^ (hit - 1)` is
        // every bit up to it (every bit when there is none).
        Bitboard(r & (hit ^ hit.wrapping_sub(1)))
    } else {
        // Decreasing indices: the nearest blocker is the highest bit. With none, `hit | 1` stops at
        // square 0, from which every decreasing ray is empty, so nothing is cut.
        let stop = 127 - (hit | 1).leading_zeros() as usize;
        Bitboard(r ^ RAYS[stop][d].0)
    }
}

/// Rook attacks from `sq`, stopped by (and including) the first blocker in each direction.
#[inline]
pub fn rook_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for d in ROOK_DIRS {
        bb |= ray(d, sq, blockers);
    }
    bb
}

/// Bishop attacks from `sq`, stopped by (and including) the first blocker in each direction.
#[inline]
pub fn bishop_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for d in BISHOP_DIRS {
        bb |= ray(d, sq, blockers);
    }
    bb
}

/// The squares a piece attacks from `sq` (C6): its capture pattern, sliders stopped by `blockers`.
#[inline(always)]
pub fn piece_attacks(color: Color, role: Role, sq: Square, blockers: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, blockers),
        Role::Rook => rook_attacks(sq, blockers),
        Role::Queen => bishop_attacks(sq, blockers) | rook_attacks(sq, blockers),
        Role::King | Role::Missile => king_attacks(sq),
        Role::Archbishop => bishop_attacks(sq, blockers) | knight_attacks(sq),
        Role::Chancellor => rook_attacks(sq, blockers) | knight_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE.0[a.index() * 100 + b.index()]
}

/// The full line through `a` and `b` (edge to edge), or empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    BETWEEN_AND_LINE.1[a.index() * 100 + b.index()]
}

/// Whether `a` and `b` lie on one rank or file.
#[inline]
pub fn is_orthogonal(a: Square, b: Square) -> bool {
    a != b && (a.file() == b.file() || a.rank() == b.rank())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn knight_and_king_counts() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(knight_attacks(sq("e5")).count(), 8);
        assert_eq!(king_attacks(sq("j10")).count(), 3);
    }

    /// The compile-time tables hold what stepping square by square gives.
    #[test]
    fn tables_match_stepping() {
        let walk = |sq: Square, steps: &[(i32, i32)], blockers: Bitboard, slide: bool| {
            let mut bb = Bitboard::EMPTY;
            for &(df, dr) in steps {
                let mut cur = sq;
                while let Some(n) = cur.offset(df, dr) {
                    bb.set(n);
                    if !slide || blockers.contains(n) {
                        break;
                    }
                    cur = n;
                }
            }
            bb
        };
        let knight = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        let rook = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        let bishop = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
        let mut seed = 46u128;
        for i in 0..100 {
            let sq = Square::from_index(i);
            assert_eq!(knight_attacks(sq), walk(sq, &knight, Bitboard::EMPTY, false));
            assert_eq!(king_attacks(sq), walk(sq, &DIRS, Bitboard::EMPTY, false));
            assert_eq!(pawn_attacks(Color::White, sq), walk(sq, &[(-1, 1), (1, 1)], Bitboard::EMPTY, false));
            assert_eq!(pawn_attacks(Color::Black, sq), walk(sq, &[(-1, -1), (1, -1)], Bitboard::EMPTY, false));
            assert_eq!(rook_pseudo_attacks(sq), walk(sq, &rook, Bitboard::EMPTY, true));
            assert_eq!(bishop_pseudo_attacks(sq), walk(sq, &bishop, Bitboard::EMPTY, true));
            // Single blockers, square 0 (where every decreasing ray ends) among them.
            for j in 0..100 {
                let blockers = Bitboard::from_square(Square::from_index(j));
                assert_eq!(rook_attacks(sq, blockers), walk(sq, &rook, blockers, true));
                assert_eq!(bishop_attacks(sq, blockers), walk(sq, &bishop, blockers, true));
            }
            for _ in 0..20 {
                seed = seed.wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645).wrapping_add(0x5851_F42D_4C95_7F2D);
                let blockers = Bitboard(seed >> 20 & (seed >> 7)) & Bitboard::FULL;
                assert_eq!(rook_attacks(sq, blockers), walk(sq, &rook, blockers, true));
                assert_eq!(bishop_attacks(sq, blockers), walk(sq, &bishop, blockers, true));
            }
            for j in 0..100 {
                let other = Square::from_index(j);
                let (df, dr) = (other.file() as i32 - sq.file() as i32, other.rank() as i32 - sq.rank() as i32);
                let aligned = i != j && (df == 0 || dr == 0 || df.abs() == dr.abs());
                let (mut strictly, mut whole) = (Bitboard::EMPTY, Bitboard::EMPTY);
                if aligned {
                    let dir = (df.signum(), dr.signum());
                    let mut cur = sq.offset(dir.0, dir.1).unwrap();
                    while cur != other {
                        strictly.set(cur);
                        cur = cur.offset(dir.0, dir.1).unwrap();
                    }
                    whole = walk(sq, &[dir, (-dir.0, -dir.1)], Bitboard::EMPTY, true) | Bitboard::from_square(sq);
                }
                assert_eq!(between(sq, other), strictly, "{i} {j}");
                assert_eq!(line(sq, other), whole, "{i} {j}");
            }
        }
    }

    /// Every table's entries past square 99 (read by no square of a board) are empty, and each of its
    /// tables has entries on the board.
    #[test]
    fn tables_are_empty_past_the_grid() {
        assert_eq!((PATTERNS.len(), RAYS.len()), (BY_SQUARE, BY_SQUARE));
        for t in 0..6 {
            assert!(PATTERNS[..Square::COUNT].iter().any(|e| e[t].any()), "{t}");
        }
        for d in 0..8 {
            assert!(RAYS[..Square::COUNT].iter().any(|e| e[d].any()), "{d}");
        }
        assert!(PATTERNS[Square::COUNT..].iter().all(|e| e.iter().all(|b| b.is_empty())));
        assert!(RAYS[Square::COUNT..].iter().all(|e| e.iter().all(|b| b.is_empty())));
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let blockers = Bitboard::from_square(sq("a5")) | Bitboard::from_square(sq("d1"));
        let r = rook_attacks(sq("a1"), blockers);
        assert_eq!(r.count(), 4 + 3);
        assert!(r.contains(sq("a5")) && !r.contains(sq("a6")));
        let b = bishop_attacks(sq("a1"), Bitboard::EMPTY);
        assert_eq!(b.count(), 9);
        assert_eq!(between(sq("a1"), sq("a10")).count(), 8);
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert!(line(sq("b2"), sq("c3")).contains(sq("j10")));
    }
}
