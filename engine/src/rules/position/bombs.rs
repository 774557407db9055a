//! Secret-bomb chess: each side's hidden bomb square (given to the rules apart from the board, never
//! written to FEN), the detonation move and its legality, the blast, and bombs that travel with their
//! piece or end when it is captured.

use super::{Position, PositionError};
use crate::rules::attacks::king_attacks;
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::types::{Color, Role, Square};

impl Position {
    pub(super) fn check_bomb(&self, color: Color, sq: Square) -> Result<(), PositionError> {
        match self.piece_at(sq) {
            Some(p) if p.color == color && p.role != Role::King => Ok(()),
            _ => Err(PositionError::BadBomb(sq)),
        }
    }

    /// Secret-bomb chess: `color`'s bomb square, while it has a bomb. This is hidden information: only
    /// the rules, that side's own pictures and the end of the game may read it.
    pub fn bomb(&self, color: Color) -> Option<Square> {
        self.bombs[color.index()]
    }

    /// The same position with the given bombs (by [`Color::index`]; `None`: no bomb); refused outside
    /// secret-bomb chess or where a bomb is not one of its side's pieces other than the king.
    pub fn with_bombs(&self, bombs: [Option<Square>; 2]) -> Result<Position, PositionError> {
        if bombs.iter().any(Option::is_some) && !self.variant.bombs {
            return Err(PositionError::BombsNotAllowed);
        }
        let mut p = self.clone();
        for color in Color::ALL {
            if let Some(b) = bombs[color.index()] {
                self.check_bomb(color, b)?;
            }
            p.set_bomb(color, bombs[color.index()]);
        }
        Ok(p)
    }

    /// The same position as `color`'s opponent knows it: `color`'s bomb unknown (treated as none).
    pub fn without_bomb(&self, color: Color) -> Position {
        let mut p = self.clone();
        p.set_bomb(color, None);
        p
    }

    /// Bombs are not hashed: repetition is judged on what both players can see, and a bomb only ever
    /// changes by a capture or a detonation, which no repetition spans anyway.
    fn set_bomb(&mut self, color: Color, sq: Option<Square>) {
        self.bombs[color.index()] = sq;
    }

    #[cold]
    #[inline(never)]
    pub(super) fn gen_detonation(&self, list: &mut MoveList) {
        if let Some(b) = self.bombs[self.turn.index()] {
            let m = Move::detonate(b);
            if self.is_legal_detonation(&self.play_unchecked(m)) {
                list.push(m);
            }
        }
    }

    /// Bomb rulings: out of check a detonation may take either king (or leave the own one exposed if it
    /// takes the enemy's); in check it must leave the own king alive and safe.
    #[cold]
    #[inline(never)]
    pub(super) fn is_legal_detonation(&self, after: &Position) -> bool {
        let us = self.turn;
        let in_check = self.is_check();
        match (after.king(us), after.king(us.other())) {
            (None, _) => !in_check,
            (Some(_), None) => !in_check || !after.is_attacked_king(us),
            (Some(_), Some(_)) => !after.is_attacked_king(us),
        }
    }

    /// Secret-bomb chess: the bomb and all eight neighbours go, pawns and kings of both colours; no chain
    /// reaction.
    #[cold]
    #[inline(never)]
    pub(super) fn detonate(&mut self, bomb: Square, touched: &mut Bitboard) {
        self.halfmoves = 0;
        let blast = (king_attacks(bomb) | Bitboard::from_square(bomb)) & self.occupied();
        for sq in blast {
            self.remove(sq);
            touched.set(sq);
        }
    }

    /// Secret-bomb chess: moves the mover's bomb along with its piece (the rook when castling, the new
    /// piece when promoting) and ends bombs that are captured or caught in a detonation.
    #[cold]
    #[inline(never)]
    pub(super) fn carry_bombs(&mut self, m: Move) {
        let us = self.turn;
        let vanished = match m.kind {
            MoveKind::Detonate => king_attacks(m.from) | Bitboard::from_square(m.from),
            MoveKind::EnPassant => Bitboard::from_square(Square::new(m.to.file(), m.from.rank())),
            MoveKind::Castle { .. } => Bitboard::EMPTY,
            _ => Bitboard::from_square(m.to),
        };
        let own = self.bombs[us.index()];
        let moved = match m.kind {
            MoveKind::Castle { .. } if own == Some(m.to) => {
                let side = if m.to.file() > m.from.file() { 0 } else { 1 };
                Some(Square::new(self.variant.castle_rook_files[side], m.from.rank()))
            }
            MoveKind::Detonate | MoveKind::Castle { .. } => own,
            _ if own == Some(m.from) => Some(m.to),
            _ => own,
        };
        let moved = moved.filter(|sq| m.kind != MoveKind::Detonate || !vanished.contains(*sq));
        if moved != own {
            self.set_bomb(us, moved);
        }
        let theirs = self.bombs[us.other().index()];
        if theirs.is_some_and(|b| vanished.contains(b)) {
            self.set_bomb(us.other(), None);
        }
    }
}
