//! Making moves by copy-make: [`Position::play`] returns the new position and leaves the old one as
//! it was. Also the null move the search passes with, and what a move resets (captures, the fifty-move
//! counter).

use super::Position;
use crate::rules::attacks::{king_attacks, pawn_attacks};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveKind};
use crate::rules::types::{Color, Piece, Role, Square};
use crate::rules::zobrist;

impl Position {
    /// Plays a legal move and returns the new position. Debug builds check legality.
    pub fn play(&self, m: Move) -> Position {
        debug_assert!(self.is_legal(m), "illegal move {m:?} in {self:?}");
        self.play_unchecked(m)
    }

    /// Plays a move that must come from [`Position::legal_moves`]; anything else leaves an unspecified
    /// (but memory-safe) position.
    pub fn play_unchecked(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.do_move(m);
        p
    }

    /// [`Position::play_unchecked`] in place: the caller copies the position where the new one is to
    /// be (a search's child), so the position is copied once, not built aside and copied again.
    #[inline]
    pub fn play_unchecked_in_place(&mut self, m: Move) {
        self.do_move(m);
    }

    /// The same position with the other side to move and no en-passant square: a "pass", which the
    /// search uses for null-move pruning. `None` when the side to move is in check (passing would leave
    /// its king attacked) or a king is gone.
    pub fn null_move(&self) -> Option<Position> {
        if self.king(Color::White).is_none() || self.king(Color::Black).is_none() || self.is_check() {
            return None;
        }
        let mut p = self.clone();
        p.ep_refused = None;
        if let Some(ep) = p.ep_square.take() {
            p.hash ^= zobrist::ep_file(ep.file());
        }
        p.turn = p.turn.other();
        p.hash ^= zobrist::BLACK_TO_MOVE;
        Some(p)
    }

    /// Whether `m` captures something (launches count when they destroy a piece).
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::EnPassant | MoveKind::Detonate => true,
            MoveKind::Castle { .. } => false,
            MoveKind::Launch => {
                let blast = (king_attacks(m.to) | Bitboard::from_square(m.to)) & !self.shields();
                (blast & self.occupied() & !Bitboard::from_square(m.from)).any()
            }
            _ => self.by_color[self.turn.other().index()].contains(m.to),
        }
    }

    /// Whether `m` resets the fifty-move counter (pawn moves, captures, launches).
    pub fn is_zeroing(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::Launch | MoveKind::EnPassant | MoveKind::Promotion(_) | MoveKind::Detonate => true,
            MoveKind::Castle { .. } => false,
            MoveKind::Normal => {
                self.occupied().contains(m.to) || self.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn)
            }
        }
    }

    fn set_castling(&mut self, new: Bitboard) {
        for sq in self.castling ^ new {
            self.hash ^= zobrist::castling(sq);
        }
        self.castling = new;
    }

    fn set_missile_rights(&mut self, new: Bitboard) {
        for sq in self.missile_rights ^ new {
            self.hash ^= zobrist::missile_right(sq);
        }
        self.missile_rights = new;
    }

    fn do_move(&mut self, m: Move) {
        let us = self.turn;
        let v = self.variant;
        self.ep_refused = None;
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_file(ep.file());
        }
        let mut touched = Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        if v.bombs {
            self.carry_bombs(m);
        }
        self.halfmoves += 1;
        match m.kind {
            MoveKind::Normal | MoveKind::Promotion(_) => {
                let Some(piece) = self.remove(m.from) else { return };
                let captured = self.remove(m.to);
                if let Some(c) = captured {
                    self.capture_bookkeeping(c);
                }
                if captured.is_some() || piece.role == Role::Pawn {
                    self.halfmoves = 0;
                }
                let placed = match m.kind {
                    MoveKind::Promotion(role) => Piece::new(us, role),
                    _ => piece,
                };
                self.put(m.to, placed);
                if piece.role == Role::King {
                    let own_rank = Bitboard::rank(v.castling_rank_of(us));
                    self.set_castling(self.castling & !own_rank);
                }
                if piece.role == Role::Pawn && m.from.rank().abs_diff(m.to.rank()) == 2 {
                    let mid = Square::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2);
                    if (pawn_attacks(us, mid) & self.pieces(us.other(), Role::Pawn)).any() {
                        self.ep_square = Some(mid);
                        self.hash ^= zobrist::ep_file(mid.file());
                    }
                }
                if v.atomic && captured.is_some() && (v.pawn_captures_explode || piece.role != Role::Pawn) {
                    self.explode(m.to, &mut touched);
                }
            }
            MoveKind::EnPassant => {
                self.halfmoves = 0;
                let Some(piece) = self.remove(m.from) else { return };
                let victim = Square::new(m.to.file(), m.from.rank());
                self.remove(victim);
                self.put(m.to, piece);
                if v.atomic && v.pawn_captures_explode {
                    self.explode(m.to, &mut touched);
                }
            }
            MoveKind::Castle { .. } => {
                let rank = m.from.rank();
                let side = if m.to.file() > m.from.file() { 0 } else { 1 };
                let kdest = Square::new(v.castle_king_files[side], rank);
                let rdest = Square::new(v.castle_rook_files[side], rank);
                let offset = kdest.file() as i32 - m.from.file() as i32;
                let missile_squares = self.castling_missiles(m);
                let king = self.remove(m.from);
                let rook = self.remove(m.to);
                let mut moved_missiles = Vec::with_capacity(2);
                for sq in missile_squares {
                    if let Some(p) = self.remove(sq) {
                        moved_missiles.push((sq, p));
                    }
                }
                if let Some(k) = king {
                    self.put(kdest, k);
                }
                if let Some(r) = rook {
                    self.put(rdest, r);
                }
                for (sq, p) in moved_missiles {
                    if let Some(dest) = sq.offset(offset, 0) {
                        self.put(dest, p);
                    }
                }
                let own_rank = Bitboard::rank(rank);
                self.set_castling(self.castling & !own_rank);
            }
            MoveKind::Launch => {
                self.halfmoves = 0;
                let shields = self.shields();
                self.remove(m.from);
                let blast = (king_attacks(m.to) | Bitboard::from_square(m.to)) & !shields & self.occupied();
                for sq in blast {
                    self.remove(sq);
                    touched.set(sq);
                }
                // A launch may hit a square that is already irradiated (C8.3).
                if !self.irradiated.contains(m.to) {
                    self.irradiated.set(m.to);
                    self.hash ^= zobrist::radiation(m.to);
                }
            }
            MoveKind::Detonate => self.detonate(m.from, &mut touched),
        }
        // Rights of rooks and missiles that moved or were removed end.
        if (self.castling & touched).any() {
            self.set_castling(self.castling & !touched);
        }
        if v.missiles {
            let mut rights = self.missile_rights & !touched;
            for color in Color::ALL {
                let rank = Bitboard::rank(v.castling_rank_of(color));
                if (self.castling & rank).is_empty()
                    && let Some(mr) = v.missile_rank_of(color)
                {
                    rights &= !Bitboard::rank(mr);
                }
            }
            if rights != self.missile_rights {
                self.set_missile_rights(rights);
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = us.other();
        self.hash ^= zobrist::BLACK_TO_MOVE;
        self.drop_illegal_ep();
    }
}
