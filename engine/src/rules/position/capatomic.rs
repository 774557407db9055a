//! Capatomic's own rules: king shields (C7), missile launches (C8) that irradiate their target,
//! missiles that come along when castling (C12), the armed flag set by the first capture of a
//! non-pawn piece, and the en-passant square kept only while the capture is legal (C16).

use super::Position;
use crate::rules::attacks::{between, king_attacks};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::types::{Piece, Role, Square};
use crate::rules::zobrist;

impl Position {
    /// The en-passant square if an en-passant capture is legal now.
    fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut list = MoveList::new();
        self.gen_en_passant(&mut list);
        list.iter().any(|m| m.to == ep && self.is_legal(*m)).then_some(ep)
    }

    /// Capatomic: the squares shielded by either king (C7).
    pub fn shields(&self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for k in self.by_role(Role::King) {
            bb |= king_attacks(k) | Bitboard::from_square(k);
        }
        bb & self.variant.board()
    }

    /// The non-empty missile subsets that may come along when the king castles from `k` to `kdest` (C12).
    /// Bit 0 is the missile behind-left of the king, bit 1 behind-right.
    pub(super) fn missile_options(&self, k: Square, kdest: Square) -> impl Iterator<Item = u8> + use<> {
        let us = self.turn;
        let offset = kdest.file() as i32 - k.file() as i32;
        let mut opts = [0u8; 3];
        let mut n = 0;
        let Some(mrank) = self.variant.missile_rank_of(us) else { return opts.into_iter().take(0) };
        let cand: [Option<Square>; 2] =
            [Square::try_new(k.file() as i32 - 1, mrank as i32), Square::try_new(k.file() as i32 + 1, mrank as i32)];
        let has = |i: usize| {
            cand[i].is_some_and(|m| {
                self.missile_rights.contains(m) && self.piece_at(m) == Some(Piece::new(us, Role::Missile))
            })
        };
        let path_clear = |i: usize, other_moves: bool| -> bool {
            let Some(m) = cand[i] else { return false };
            let Some(dest) = m.offset(offset, 0) else { return false };
            if !self.variant.contains(dest) {
                return false;
            }
            let step = offset.signum();
            let mut cur = m;
            loop {
                let Some(next) = cur.offset(step, 0) else { return false };
                let is_other = other_moves && cand[1 - i] == Some(next);
                if self.irradiated.contains(next) || (self.occupied().contains(next) && !is_other) {
                    return false;
                }
                cur = next;
                if cur == dest {
                    return true;
                }
            }
        };
        for mask in 1u8..=3 {
            let ok = (0..2).all(|i| {
                if mask & (1 << i) == 0 {
                    return true;
                }
                has(i) && path_clear(i, mask == 3)
            });
            if ok {
                opts[n] = mask;
                n += 1;
            }
        }
        opts.into_iter().take(n)
    }

    /// The missile squares a castling move's mask refers to, in file order.
    pub fn castling_missiles(&self, m: Move) -> Vec<Square> {
        let MoveKind::Castle { missiles } = m.kind else { return Vec::new() };
        let Some(mrank) = self.variant.missile_rank_of(self.turn) else { return Vec::new() };
        let mut out = Vec::new();
        for (bit, df) in [(1u8, -1i32), (2, 1)] {
            if missiles & bit != 0
                && let Some(sq) = Square::try_new(m.from.file() as i32 + df, mrank as i32)
            {
                out.push(sq);
            }
        }
        out
    }

    /// Capatomic: the irradiated square that keeps the piece on `from` from moving to `to` as its
    /// pattern allows (C5), where radiation is what stops it: `to` itself, else the irradiated square
    /// on its way nearest to `from` (a slider's line, a pawn's double step). `None` where the piece
    /// gets there anyway, or would not without radiation either (a knight's leap is never stopped
    /// on its way). For explaining a refusal, never for playing.
    pub fn irradiated_in_the_way(&self, from: Square, to: Square) -> Option<Square> {
        if self.irradiated.is_empty() {
            return None;
        }
        let reaches = |pos: &Position| {
            pos.pseudo_legal_moves().iter().any(|m| m.from == from && m.to == to && !m.is_castle() && !m.is_launch())
        };
        let cleared = Position { irradiated: Bitboard::EMPTY, ..self.clone() };
        if reaches(self) || !reaches(&cleared) {
            return None;
        }
        if self.irradiated.contains(to) {
            return Some(to);
        }
        (between(from, to) & self.irradiated).into_iter().min_by_key(|sq| sq.distance(from))
    }

    /// Capatomic: the irradiated square that keeps the side to move from castling on that side
    /// (C11: the king may not cross or land on one, nor may anything between king and rook or the
    /// rook's destination be one), where radiation is what stops it; the one nearest the king.
    /// `None` where castling that way is possible, or would not be without radiation either.
    pub fn castling_irradiated(&self, kingside: bool) -> Option<Square> {
        if self.irradiated.is_empty() {
            return None;
        }
        let castles = |pos: &Position| {
            pos.pseudo_legal_moves()
                .iter()
                .copied()
                .find(|m| m.is_castle() && (m.to.file() > m.from.file()) == kingside)
        };
        let cleared = Position { irradiated: Bitboard::EMPTY, ..self.clone() };
        if castles(self).is_some() {
            return None;
        }
        let m = castles(&cleared)?;
        let (king, rook) = (m.from, m.to);
        let side = usize::from(!kingside);
        let files =
            [king.file(), rook.file(), self.variant.castle_king_files[side], self.variant.castle_rook_files[side]];
        let (lo, hi) = (files.iter().min()?, files.iter().max()?);
        (*lo..=*hi)
            .map(|f| Square::new(f, king.rank()))
            .filter(|sq| self.irradiated.contains(*sq))
            .min_by_key(|sq| sq.distance(king))
    }

    /// Missiles of the side to move that may launch now (C8 1–2); targets are checked per move.
    pub fn launch_ready_missiles(&self) -> Bitboard {
        if !self.variant.missiles || !self.armed {
            return Bitboard::EMPTY;
        }
        let us = self.turn;
        let mut ready = Bitboard::EMPTY;
        for m in self.pieces(us, Role::Missile) {
            if !self.is_attacked(m, us.other()) {
                ready.set(m);
            }
        }
        ready
    }

    pub(super) fn gen_launches(&self, list: &mut MoveList) {
        let ready = self.launch_ready_missiles();
        if ready.is_empty() {
            return;
        }
        let targets = self.variant.board() & !self.shields();
        for from in ready {
            for to in targets {
                list.push(Move { from, to, kind: MoveKind::Launch });
            }
        }
    }

    pub(super) fn capture_bookkeeping(&mut self, captured: Piece) {
        if captured.role != Role::Pawn && self.variant.missiles && !self.armed {
            self.armed = true;
            self.hash ^= zobrist::ARMED;
        }
    }

    /// Capatomic keeps the en-passant square only while the capture is legal (C16: the FEN writes it
    /// only then), so positions that differ in nothing else are the same position, with the same hash.
    pub(super) fn drop_illegal_ep(&mut self) {
        if self.variant.missiles
            && let Some(ep) = self.ep_square
            && self.legal_ep_square().is_none()
        {
            self.ep_square = None;
            self.ep_refused = Some(ep);
            self.hash ^= zobrist::ep_file(ep.file());
        }
    }
}
