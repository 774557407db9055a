//! The atomic family's explosions: where a capture sets one off, what it removes, and the legality
//! filter for atomic variants, which lets quiet moves through on pins and checks alone and plays the rest.

use super::Position;
use crate::rules::attacks::{self, king_attacks};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::types::{Role, Square};

impl Position {
    /// Atomic variants: keeps the legal moves of a pseudo-legal list. Quiet moves of pieces other
    /// than the king cannot explode anything, so the usual pin and check logic holds for them (and
    /// touching kings make every such move safe); everything else is verified by playing it.
    pub(super) fn retain_legal_atomic(&self, list: &mut MoveList) {
        let Some(king) = self.king(self.turn) else {
            // A death match goes on without kings (every pseudo-legal move is legal) until a side has no
            // material left.
            let kingless = self.by_role[Role::King.index()].is_empty();
            if !(self.variant.death_match && kingless && self.by_color[self.turn.other().index()].any()) {
                list.clear();
            }
            return;
        };
        if !self.variant.check {
            // No check: a move is legal unless its explosion takes the own king (never the capturer).
            list.retain(|m| self.explosion_center(*m).is_none_or(|c| king.distance(c) > 1));
            return;
        }
        let pinned = self.pinned(self.turn);
        let adjacent = self.kings_adjacent();
        let checkers = self.checkers();
        let enemy = self.by_color[self.turn.other().index()];
        list.retain(|m| {
            let quiet = m.kind == MoveKind::Normal && !enemy.contains(m.to) && m.from != king;
            if quiet && (adjacent || checkers.is_empty()) {
                // With touching kings, moving a piece other than the king cannot separate them.
                return adjacent || !pinned.contains(m.from) || attacks::line(king, m.from).contains(m.to);
            }
            self.is_legal_by_playing(*m)
        });
    }

    /// The square where `m` sets off an atomic explosion, if it does.
    pub fn explosion_center(&self, m: Move) -> Option<Square> {
        let v = self.variant;
        if !v.atomic {
            return None;
        }
        match m.kind {
            MoveKind::EnPassant => v.pawn_captures_explode.then_some(m.to),
            MoveKind::Normal | MoveKind::Promotion(_) => {
                let capture = self.by_color[self.turn.other().index()].contains(m.to);
                let by_pawn = self.by_role[Role::Pawn.index()].contains(m.from);
                (capture && (v.pawn_captures_explode || !by_pawn)).then_some(m.to)
            }
            _ => None,
        }
    }

    pub(super) fn explode(&mut self, center: Square, removed: &mut Bitboard) {
        // Atomic: the capturing piece and every neighbour go, pawns only where blasts kill pawns.
        if self.remove(center).is_some() {
            removed.set(center);
        }
        let spared = if self.variant.blast_kills_pawns { Bitboard::EMPTY } else { self.by_role[Role::Pawn.index()] };
        let around = king_attacks(center) & self.occupied() & !spared;
        for sq in around {
            self.remove(sq);
            removed.set(sq);
        }
    }
}
