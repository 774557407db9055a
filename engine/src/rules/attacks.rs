//! Precomputed attack tables on the 10×10 grid and slider attacks through blockers.
//!
//! Tables are built once for the largest grid; callers mask the result with their board, which is safe
//! because squares off a smaller board are never occupied and never targets.

use super::bitboard::Bitboard;
use super::types::{Color, Role, Square};
use std::sync::OnceLock;

/// Directions in (file, rank) steps. The first four increase the square index, the last four decrease it.
const DIRS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
const ROOK_DIRS: [usize; 4] = [0, 1, 4, 5];
const BISHOP_DIRS: [usize; 4] = [2, 3, 6, 7];

struct Tables {
    knight: [Bitboard; 100],
    king: [Bitboard; 100],
    pawn: [[Bitboard; 100]; 2],
    rays: [[Bitboard; 100]; 8],
    /// Squares strictly between two squares on a common line (empty otherwise).
    between: Vec<Bitboard>,
    /// The whole line through two squares (empty if they share none).
    line: Vec<Bitboard>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// Builds the tables eagerly (otherwise done on first use).
pub fn init() {
    tables();
}

fn leaps(sq: Square, steps: &[(i32, i32)]) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for &(df, dr) in steps {
        if let Some(t) = sq.offset(df, dr) {
            bb.set(t);
        }
    }
    bb
}

fn build() -> Tables {
    let mut t = Tables {
        knight: [Bitboard::EMPTY; 100],
        king: [Bitboard::EMPTY; 100],
        pawn: [[Bitboard::EMPTY; 100]; 2],
        rays: [[Bitboard::EMPTY; 100]; 8],
        between: vec![Bitboard::EMPTY; 100 * 100],
        line: vec![Bitboard::EMPTY; 100 * 100],
    };
    let knight_steps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    for i in 0..100 {
        let sq = Square::from_index(i);
        t.knight[i] = leaps(sq, &knight_steps);
        t.king[i] = leaps(sq, &DIRS);
        t.pawn[0][i] = leaps(sq, &[(-1, 1), (1, 1)]);
        t.pawn[1][i] = leaps(sq, &[(-1, -1), (1, -1)]);
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            let mut bb = Bitboard::EMPTY;
            let mut cur = sq;
            while let Some(n) = cur.offset(df, dr) {
                bb.set(n);
                cur = n;
            }
            t.rays[d][i] = bb;
        }
    }
    for a in 0..100 {
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            let sa = Square::from_index(a);
            let mut between = Bitboard::EMPTY;
            let mut cur = sa;
            while let Some(n) = cur.offset(df, dr) {
                t.between[a * 100 + n.index()] = between;
                let opposite = (d + 4) % 8;
                t.line[a * 100 + n.index()] = t.rays[d][a] | t.rays[opposite][a] | Bitboard::from_square(sa);
                between.set(n);
                cur = n;
            }
        }
    }
    t
}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    tables().knight[sq.index()]
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    tables().king[sq.index()]
}

/// Squares a pawn of `color` on `sq` captures on.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    tables().pawn[color.index()][sq.index()]
}

#[inline]
fn ray(t: &Tables, d: usize, sq: Square, blockers: Bitboard) -> Bitboard {
    let r = t.rays[d][sq.index()];
    let hit = r & blockers;
    if hit.is_empty() {
        return r;
    }
    let stop = if d < 4 { hit.first() } else { hit.last() };
    // `stop` exists because `hit` is not empty.
    r ^ t.rays[d][stop.map_or(0, |s| s.index())]
}

/// Rook attacks from `sq`, stopped by (and including) the first blocker in each direction.
#[inline]
pub fn rook_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    let t = tables();
    let mut bb = Bitboard::EMPTY;
    for d in ROOK_DIRS {
        bb |= ray(t, d, sq, blockers);
    }
    bb
}

/// Bishop attacks from `sq`, stopped by (and including) the first blocker in each direction.
#[inline]
pub fn bishop_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    let t = tables();
    let mut bb = Bitboard::EMPTY;
    for d in BISHOP_DIRS {
        bb |= ray(t, d, sq, blockers);
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
    tables().between[a.index() * 100 + b.index()]
}

/// The full line through `a` and `b` (edge to edge), or empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    tables().line[a.index() * 100 + b.index()]
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
