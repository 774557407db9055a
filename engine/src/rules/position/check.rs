//! Attacks, check and pins: which pieces attack a square (radiation blocks like a piece), whether a king
//! is in check (in atomic variants touching kings never are), and the pinned pieces move generation
//! restricts.

use super::Position;
use crate::rules::attacks::{
    self, between, bishop_attacks, bishop_pseudo_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_pseudo_attacks,
};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::types::{Color, Piece, Role, Square};

/// Where the moves of a position may give check from ([`Position::check_squares`]): the squares from
/// which each role reaches the enemy king on an empty board, and the squares between that king and a
/// slider of the side to move.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    reach: [Bitboard; Role::COUNT],
    uncover: Bitboard,
    /// Whether check exists in the variant (else no move checks).
    check: bool,
    /// Every move may check (the atomic family, or no enemy king).
    every: bool,
}

impl CheckSquares {
    /// Whether playing the legal move `m` in `pos` (the position these squares are of) may give check:
    /// `false` only where it certainly does not, so that a search can drop a move it prunes unless it
    /// checks without making it. Ruled out are ordinary moves onto an empty square (outside the atomic
    /// family) whose piece would not reach the enemy king from there even on an empty board, and that
    /// leave no line between that king and a slider of the mover; everything else may check.
    #[inline]
    pub fn may_give_check(&self, pos: &Position, m: Move) -> bool {
        if !self.check {
            return false;
        }
        if self.every || m.kind != MoveKind::Normal || pos.occupied().contains(m.to) {
            return true;
        }
        let Some(piece) = pos.board[m.from.index()] else { return true };
        self.reach[piece.role.index()].contains(m.to) || self.uncover.contains(m.from)
    }
}

impl Position {
    /// Pieces of `attacker` that attack `sq`, with `occupied` as the blockers (radiation blocks too).
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[attacker.index()] & occupied;
        let r = &self.by_role;
        let blockers = occupied | self.irradiated;
        let knights = r[Role::Knight.index()] | r[Role::Archbishop.index()] | r[Role::Chancellor.index()];
        let kings = r[Role::King.index()] | r[Role::Missile.index()];
        let rooks = r[Role::Rook.index()] | r[Role::Queen.index()] | r[Role::Chancellor.index()];
        let bishops = r[Role::Bishop.index()] | r[Role::Queen.index()] | r[Role::Archbishop.index()];
        let mut att = (knight_attacks(sq) & knights)
            | (king_attacks(sq) & kings)
            | (pawn_attacks(attacker.other(), sq) & r[Role::Pawn.index()]);
        // Sliders only where one stands on a line through `sq` (most often none does).
        if (rook_pseudo_attacks(sq) & rooks & them).any() {
            att |= rook_attacks(sq, blockers) & rooks;
        }
        if (bishop_pseudo_attacks(sq) & bishops & them).any() {
            att |= bishop_attacks(sq, blockers) & bishops;
        }
        att & them
    }

    /// Whether `attacker` attacks `sq` in the current position.
    pub fn is_attacked(&self, sq: Square, attacker: Color) -> bool {
        self.attackers_to(sq, attacker, self.occupied()).any()
    }

    /// Squares a piece on `sq` attacks (C6), given the blockers on the board.
    pub fn attacks_from(&self, sq: Square, piece: Piece) -> Bitboard {
        let blockers = self.occupied() | self.irradiated;
        attacks::piece_attacks(piece.color, piece.role, sq, blockers) & self.variant.board()
    }

    pub(super) fn kings_adjacent(&self) -> bool {
        match (self.king(Color::White), self.king(Color::Black)) {
            (Some(a), Some(b)) => a.distance(b) <= 1,
            _ => false,
        }
    }

    /// Whether `color`'s king is attacked (for atomic: and the kings do not touch).
    pub(super) fn is_attacked_king(&self, color: Color) -> bool {
        let Some(k) = self.king(color) else { return false };
        if !self.variant.check || (self.variant.atomic && self.kings_adjacent()) {
            return false;
        }
        self.is_attacked(k, color.other())
    }

    /// Enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        let Some(k) = self.king(self.turn) else { return Bitboard::EMPTY };
        if !self.variant.check || (self.variant.atomic && self.kings_adjacent()) {
            return Bitboard::EMPTY;
        }
        self.attackers_to(k, self.turn.other(), self.occupied())
    }

    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether playing the legal move `m` may give check: `false` only where it certainly does not
    /// ([`CheckSquares`]).
    pub fn may_give_check(&self, m: Move) -> bool {
        self.check_squares().may_give_check(self, m)
    }

    /// The squares a move of the side to move may give check from or uncover it from, computed once
    /// for all of a position's moves.
    pub fn check_squares(&self) -> CheckSquares {
        let v = self.variant;
        let us = self.turn;
        let mut squares = CheckSquares {
            reach: [Bitboard::EMPTY; Role::COUNT],
            uncover: Bitboard::EMPTY,
            check: v.check,
            every: false,
        };
        if !v.check {
            return squares;
        }
        let Some(k) = self.king(us.other()).filter(|_| !v.atomic) else {
            squares.every = true;
            return squares;
        };
        // Attacks are symmetric: a piece on a square reaches `k` on an empty board if and only if its
        // role reaches that square from `k` (a pawn of the other colour's).
        let (rook, bishop, knight) = (rook_pseudo_attacks(k), bishop_pseudo_attacks(k), knight_attacks(k));
        squares.reach = [
            pawn_attacks(us.other(), k),
            knight,
            bishop,
            rook,
            rook | bishop,
            king_attacks(k),
            bishop | knight,
            rook | knight,
            king_attacks(k),
        ];
        debug_assert!(Role::ALL.iter().enumerate().all(|(i, r)| r.index() == i));
        // A piece that leaves the line between `k` and a slider of the mover may uncover a check.
        let own = self.by_color[us.index()];
        let r = &self.by_role;
        let rooks = own & (r[Role::Rook.index()] | r[Role::Queen.index()] | r[Role::Chancellor.index()]);
        let bishops = own & (r[Role::Bishop.index()] | r[Role::Queen.index()] | r[Role::Archbishop.index()]);
        for slider in (rook & rooks) | (bishop & bishops) {
            squares.uncover |= between(k, slider);
        }
        squares
    }

    /// Own pieces that are the only blocker between the king of `color` and an enemy slider.
    pub(super) fn pinned(&self, color: Color) -> Bitboard {
        let Some(k) = self.king(color) else { return Bitboard::EMPTY };
        let them = self.by_color[color.other().index()];
        let r = &self.by_role;
        let rooks = (r[Role::Rook.index()] | r[Role::Queen.index()] | r[Role::Chancellor.index()]) & them;
        let bishops = (r[Role::Bishop.index()] | r[Role::Queen.index()] | r[Role::Archbishop.index()]) & them;
        let snipers = (rook_pseudo_attacks(k) & rooks) | (bishop_pseudo_attacks(k) & bishops);
        let blockers_all = self.occupied() | self.irradiated;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(k, s) & blockers_all;
            if let Some(only) = b.single()
                && self.by_color[color.index()].contains(only)
            {
                pinned.set(only);
            }
        }
        pinned
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{VARIANTS, setups};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A move [`Position::may_give_check`] rules out never checks, in any variant, and it rules out
    /// most quiet moves of ordinary play (else it would save the search nothing).
    #[test]
    fn a_move_ruled_out_as_a_check_never_checks() {
        let mut rng = StdRng::seed_from_u64(105);
        let (mut ruled_out, mut moves, mut checks) = (0, 0, 0);
        for v in VARIANTS {
            for game in 0..8 {
                let mut pos = setups::random_start(v, &mut rng);
                for _ in 0..(40 + game * 10) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    for &m in &legal {
                        let checks_now = pos.play(m).is_check();
                        moves += 1;
                        checks += checks_now as u32;
                        if !pos.may_give_check(m) {
                            ruled_out += 1;
                            assert!(!checks_now, "{m:?} checks in {pos:?}");
                        }
                    }
                    pos = pos.play(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(checks > 1_000, "{checks} checks among {moves} moves");
        assert!(ruled_out * 2 > moves, "{ruled_out} of {moves} ruled out");
    }
}
