//! Moves: ordinary moves, promotions, en passant, castling (with Capatomic's missiles), launches and
//! secret-bomb detonations, all one small value type, like shakmaty's `Move::Put` beside its ordinary moves.

use super::types::{Role, Square};

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A step, slide or leap, with or without capture (double pawn steps included).
    Normal,
    /// A pawn move onto the promotion rank.
    Promotion(Role),
    EnPassant,
    /// `from` is the king, `to` the castling rook. `missiles`: Capatomic missiles that come along,
    /// bit 0 = behind-left of the king, bit 1 = behind-right (C12).
    Castle {
        missiles: u8,
    },
    /// Capatomic: the missile on `from` is launched at `to` (C8).
    Launch,
    /// Secret-bomb chess: the bomb on `from` (= `to`) detonates, removing itself and its eight neighbours.
    Detonate,
}

/// A move in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
}

impl Move {
    pub const fn normal(from: Square, to: Square) -> Move {
        Move { from, to, kind: MoveKind::Normal }
    }

    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move { from, to, kind: MoveKind::Promotion(role) }
    }

    pub fn is_castle(self) -> bool {
        matches!(self.kind, MoveKind::Castle { .. })
    }

    pub fn is_launch(self) -> bool {
        self.kind == MoveKind::Launch
    }

    /// A secret bomb's detonation on `sq`.
    pub const fn detonate(sq: Square) -> Move {
        Move { from: sq, to: sq, kind: MoveKind::Detonate }
    }

    pub fn is_detonation(self) -> bool {
        self.kind == MoveKind::Detonate
    }

    pub fn promotion_role(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }
}

/// A list of moves. Positions with launches can have several hundred moves, so this is a vector.
pub type MoveList = Vec<Move>;

// `MoveList::new()` is `Vec::new()`; callers reserve nothing, pushing is amortised.
