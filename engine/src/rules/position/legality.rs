//! The legality of a generated move, judged by playing it: the mover's king must survive and not be
//! left in check, with each variant's exceptions (atomic explosions, death matches).

use super::Position;
use crate::rules::moves::{Move, MoveKind};

impl Position {
    /// Ordinary moves only (detonations are checked apart, off this hot path).
    pub(super) fn is_legal_by_playing(&self, m: Move) -> bool {
        let after = self.play_unchecked(m);
        self.is_legal_ordinary(&after)
    }

    #[inline]
    fn is_legal_ordinary(&self, after: &Position) -> bool {
        let us = self.turn;
        if after.king(us).is_none() {
            // Death match: exploding both kings at once is allowed; only the own king never. (Moves are
            // generated only while the own king stands, or in a kingless death match, where every move
            // is legal without coming here.)
            return self.variant.death_match && after.king(us.other()).is_none();
        }
        if self.variant.atomic && after.king(us.other()).is_none() {
            return true;
        }
        !after.is_attacked_king(us)
    }

    /// Whether `after`, the position `m` leads to from here, is one the rules allow (the mover's king
    /// survives and is not left in check, with each variant's exceptions). For moves from
    /// [`Position::legal_moves`]'s pseudo-legal stage; the search uses it to check its own captures.
    #[inline]
    pub fn is_legal_result(&self, m: Move, after: &Position) -> bool {
        if m.kind == MoveKind::Detonate {
            return self.is_legal_detonation(after);
        }
        if self.king(self.turn).is_none() {
            // A kingless death match: nothing royal to protect.
            return self.variant.death_match;
        }
        self.is_legal_ordinary(after)
    }

    /// Whether `m` is legal here (it need not come from this position's move list).
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }
}
