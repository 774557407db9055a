//! Attacks, check and pins: which pieces attack a square (radiation blocks like a piece), whether a king
//! is in check (in atomic variants touching kings never are), and the pinned pieces move generation
//! restricts.

use super::Position;
use crate::rules::attacks::{
    self, between, bishop_attacks, bishop_pseudo_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_pseudo_attacks,
};
use crate::rules::bitboard::Bitboard;
use crate::rules::types::{Color, Piece, Role, Square};

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
