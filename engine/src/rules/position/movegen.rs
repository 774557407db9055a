//! Move generation: the legal moves of a position, generated legal directly outside the atomic family
//! (check evasions and pins restrict the destinations) and as pseudo-legal moves filtered afterwards in
//! it; pawn moves, en passant and castling; and perft, which counts the move tree.

use super::Position;
use crate::rules::attacks::{self, between, king_attacks, pawn_attacks};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::types::{Color, Role, Square};

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::with_capacity(64);
        self.legal_moves_into(&mut list);
        list
    }

    /// Legal moves into a caller's buffer (cleared first), so hot loops reuse one allocation.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        if self.variant.atomic {
            self.gen_pseudo(list);
            self.retain_legal_atomic(list);
        } else {
            self.gen_legal(list);
        }
    }

    /// Legal moves without a second pass for ordinary moves: check evasions and pins restrict the
    /// destinations while generating; en passant, castling and launches are verified by playing them.
    fn gen_legal(&self, list: &mut MoveList) {
        let us = self.turn;
        let them = us.other();
        let Some(k) = self.king(us) else { return };
        let v = self.variant;
        // A detonation may have removed only the detonating side's own king: the game is over.
        if v.bombs && self.king(them).is_none() {
            return;
        }
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let rad = self.irradiated;
        let blockers = occ | rad;
        let targets = ((enemy & !self.by_role[Role::King.index()]) | !occ) & !rad & v.board() & !own;
        let checkers = self.checkers();
        let pinned = self.pinned(us);
        let evasion = match checkers.first() {
            None => Bitboard::FULL,
            Some(_) if checkers.more_than_one() => Bitboard::EMPTY,
            Some(c) => between(k, c) | Bitboard::from_square(c),
        };
        for to in king_attacks(k) & targets {
            if self.attackers_to(to, them, occ ^ Bitboard::from_square(k)).is_empty() {
                list.push(Move::normal(k, to));
            }
        }
        if evasion.any() {
            for from in own ^ Bitboard::from_square(k) {
                let Some(piece) = self.board[from.index()] else { continue };
                let mut mask = evasion;
                if pinned.contains(from) {
                    mask &= attacks::line(k, from);
                }
                if piece.role == Role::Pawn {
                    self.gen_pawn_masked(from, mask, list);
                    continue;
                }
                let dests = attacks::piece_attacks(us, piece.role, from, blockers);
                for to in dests & targets & mask {
                    list.push(Move::normal(from, to));
                }
            }
        }
        let special = list.len();
        self.gen_en_passant(list);
        if checkers.is_empty() {
            self.gen_castling(list);
        }
        if v.missiles && self.armed {
            self.gen_launches(list);
        }
        let mut keep = special;
        for i in special..list.len() {
            if self.is_legal_by_playing(list[i]) {
                list[keep] = list[i];
                keep += 1;
            }
        }
        list.truncate(keep);
        if v.bombs {
            self.gen_detonation(list);
        }
    }

    /// The moves the pieces' patterns allow, before the check that the mover's king survives and is
    /// not left in check (castling out of check excepted, as it never is): for explaining why a move
    /// was refused ("that would leave your king in check"), never for playing. Includes Capatomic's en
    /// passant that its positions drop because it would expose the king.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::with_capacity(64);
        if self.king(self.turn).is_none() && !self.variant.death_match {
            return list;
        }
        self.gen_pseudo(&mut list);
        if let Some(ep) = self.ep_refused {
            for from in pawn_attacks(self.turn.other(), ep) & self.pieces(self.turn, Role::Pawn) {
                list.push(Move { from, to: ep, kind: MoveKind::EnPassant });
            }
        }
        list
    }

    /// Number of legal moves (no list kept).
    pub fn count_legal(&self) -> usize {
        self.legal_moves().len()
    }

    fn gen_pseudo(&self, list: &mut MoveList) {
        let us = self.turn;
        let them = us.other();
        let v = self.variant;
        let board = v.board();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let rad = self.irradiated;
        let blockers = occ | rad;
        // Without check a king may be captured (and explodes).
        let enemy_targets = if v.check { enemy & !self.by_role[Role::King.index()] } else { enemy };
        let targets = (enemy_targets | !occ) & !rad & board & !own;

        for from in own {
            let Some(piece) = self.board[from.index()] else { continue };
            let dests = match piece.role {
                Role::Pawn => {
                    self.gen_pawn(from, list);
                    continue;
                }
                // Atomic kings cannot capture.
                Role::King if v.atomic => king_attacks(from) & !occ,
                role => attacks::piece_attacks(us, role, from, blockers),
            };
            for to in dests & targets {
                list.push(Move::normal(from, to));
            }
        }
        if !v.check {
            self.gen_pawn_king_captures(list);
        }
        self.gen_en_passant(list);
        self.gen_castling(list);
        if v.missiles && self.armed {
            self.gen_launches(list);
        }
    }

    /// Without check: pawn captures of the enemy king (the pawn generator, kept fast for everything else,
    /// never targets kings).
    fn gen_pawn_king_captures(&self, list: &mut MoveList) {
        let us = self.turn;
        let Some(k) = self.king(us.other()) else { return };
        for from in pawn_attacks(us.other(), k) & self.pieces(us, Role::Pawn) {
            if k.rank() == self.variant.promotion_rank_of(us) {
                for &role in self.variant.promotion_roles {
                    list.push(Move::promotion(from, k, role));
                }
            } else {
                list.push(Move::normal(from, k));
            }
        }
    }

    fn gen_pawn(&self, from: Square, list: &mut MoveList) {
        self.gen_pawn_masked(from, Bitboard::FULL, list);
    }

    /// Pawn moves whose destination lies in `mask`.
    fn gen_pawn_masked(&self, from: Square, mask: Bitboard, list: &mut MoveList) {
        let us = self.turn;
        let v = self.variant;
        let board = v.board();
        let occ = self.occupied();
        let rad = self.irradiated;
        let dr: i32 = if us == Color::White { 1 } else { -1 };
        let promo_rank = v.promotion_rank_of(us);
        let push = |to: Square, list: &mut MoveList| {
            if to.rank() == promo_rank {
                for &role in v.promotion_roles {
                    list.push(Move::promotion(from, to, role));
                }
            } else {
                list.push(Move::normal(from, to));
            }
        };
        if let Some(one) = from.offset(0, dr)
            && board.contains(one)
            && !occ.contains(one)
            && !rad.contains(one)
        {
            if mask.contains(one) {
                push(one, list);
            }
            if from.rank() == v.pawn_rank_of(us)
                && let Some(two) = from.offset(0, 2 * dr)
                && board.contains(two)
                && !occ.contains(two)
                && !rad.contains(two)
                && mask.contains(two)
            {
                list.push(Move::normal(from, two));
            }
        }
        let caps = pawn_attacks(us, from)
            & self.by_color[us.other().index()]
            & !self.by_role[Role::King.index()]
            & board
            & mask;
        for to in caps {
            push(to, list);
        }
    }

    pub(super) fn gen_en_passant(&self, list: &mut MoveList) {
        let Some(ep) = self.ep_square else { return };
        let us = self.turn;
        for from in pawn_attacks(us.other(), ep) & self.pieces(us, Role::Pawn) {
            list.push(Move { from, to: ep, kind: MoveKind::EnPassant });
        }
    }

    /// Whether `sq` counts as attacked for castling purposes.
    fn castle_path_attacked(&self, sq: Square) -> bool {
        let them = self.turn.other();
        if self.variant.atomic
            && let Some(ek) = self.king(them)
            && ek.distance(sq) <= 1
        {
            return false;
        }
        self.is_attacked(sq, them)
    }

    fn gen_castling(&self, list: &mut MoveList) {
        let us = self.turn;
        let v = self.variant;
        let rank = v.castling_rank_of(us);
        let rooks = self.castling & self.pieces(us, Role::Rook) & Bitboard::rank(rank);
        if rooks.is_empty() {
            return;
        }
        let Some(k) = self.king(us) else { return };
        if k.rank() != rank || self.is_check() {
            return;
        }
        for r in rooks {
            let side = if r.file() > k.file() { 0 } else { 1 };
            let kdest = Square::new(v.castle_king_files[side], rank);
            let rdest = Square::new(v.castle_rook_files[side], rank);
            let lo = k.file().min(kdest.file()).min(r.file()).min(rdest.file());
            let hi = k.file().max(kdest.file()).max(r.file()).max(rdest.file());
            let span = (lo..=hi).map(|f| Square::new(f, rank));
            let k_bb = Bitboard::from_square(k);
            let r_bb = Bitboard::from_square(r);
            let mut ok = true;
            for s in span {
                if s == k || s == r {
                    continue;
                }
                if self.occupied().contains(s) || self.irradiated.contains(s) {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            let _ = (k_bb, r_bb);
            // Every square the king crosses or lands on must be safe.
            let (a, b) = (k.file().min(kdest.file()), k.file().max(kdest.file()));
            if v.check && (a..=b).map(|f| Square::new(f, rank)).any(|s| s != k && self.castle_path_attacked(s)) {
                continue;
            }
            list.push(Move { from: k, to: r, kind: MoveKind::Castle { missiles: 0 } });
            if v.missiles && kdest != k {
                for mask in self.missile_options(k, kdest) {
                    list.push(Move { from: k, to: r, kind: MoveKind::Castle { missiles: mask } });
                }
            }
        }
    }

    /// Counts leaf nodes at `depth` (bulk-counting the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut buffers: Vec<MoveList> = (0..depth).map(|_| MoveList::with_capacity(128)).collect();
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&self, depth: u32, buffers: &mut [MoveList]) -> u64 {
        let Some((list, rest)) = buffers.split_first_mut() else { return 1 };
        self.legal_moves_into(list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut nodes = 0;
        for &m in list.iter() {
            nodes += self.play_unchecked(m).perft_with(depth - 1, rest);
        }
        nodes
    }

    /// Perft split by root move, in coordinate notation.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves().iter().map(|&m| (m, self.play_unchecked(m).perft(depth - 1))).collect()
    }
}
