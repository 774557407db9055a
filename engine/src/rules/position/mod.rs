//! Positions: a checked board state of one variant, its legal moves, and the effect of playing one.
//!
//! A [`Setup`] is any board a user may paste (possibly illegal); a [`Position`] can only be built from
//! one through [`Position::from_setup`], which says which check failed. Moves are made by copy-make:
//! [`Position::play`] returns the new position and leaves the old one as it was.
//!
//! This file holds the [`Position`] record, its accessors and the board edits that keep its hash up to
//! date; the rest of `impl Position` is split by concern: `setup.rs` (setups and their checks),
//! `check.rs` (attacks, check, pins), `movegen.rs` (move generation, perft), `legality.rs` (the
//! legality of a generated move), `make.rs` (playing a move), `atomic.rs` (explosions),
//! `capatomic.rs` (missiles, shields, radiation), `bombs.rs` (secret bombs) and `outcome.rs` (how a
//! game ends).

mod atomic;
mod bombs;
mod capatomic;
mod check;
mod legality;
mod make;
mod movegen;
mod outcome;
mod setup;

pub use check::CheckSquares;
pub use outcome::{DrawReason, Outcome, WinReason};
pub use setup::{PositionError, Setup};

use super::bitboard::Bitboard;
use super::types::{Color, Piece, Role, Square};
use super::variant::Variant;
use super::zobrist;
use std::fmt;

/// A legal position of one variant.
#[derive(Clone)]
pub struct Position {
    variant: &'static Variant,
    board: [Option<Piece>; 100],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; Role::COUNT],
    irradiated: Bitboard,
    castling: Bitboard,
    missile_rights: Bitboard,
    /// Set after a double step when an enemy pawn stands ready to take en passant.
    ep_square: Option<Square>,
    /// Capatomic: the en-passant square dropped because the capture would leave the mover's king in
    /// check (C16 keeps the square only while the capture is legal). Not part of the position's
    /// identity (equality, hash, FEN): kept only so a refusal can say why `dxe4` is not legal.
    ep_refused: Option<Square>,
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
    armed: bool,
    /// Secret-bomb chess: each side's bomb square, while it has one.
    bombs: [Option<Square>; 2],
    hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.board == other.board
            && self.irradiated == other.irradiated
            && self.castling == other.castling
            && self.missile_rights == other.missile_rights
            && self.ep_square == other.ep_square
            && self.turn == other.turn
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
            && self.armed == other.armed
            && self.bombs == other.bombs
            && self.hash == other.hash
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    /// The variant, the board rank by rank from the top (`.` empty, `*` irradiated, FEN piece letters),
    /// then the other state fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant;
        let mut board = String::new();
        for rank in (0..v.height).rev() {
            if rank + 1 < v.height {
                board.push('/');
            }
            for file in 0..v.width {
                let sq = Square::new(file, rank);
                board.push(match self.piece_at(sq) {
                    Some(p) => p.fen_char(),
                    None if self.irradiated.contains(sq) => '*',
                    None => '.',
                });
            }
        }
        write!(
            f,
            "Position({} {board} {:?} castling {:?} ep {:?} clocks {} {}",
            v.name, self.turn, self.castling, self.ep_square, self.halfmoves, self.fullmoves
        )?;
        if v.missiles {
            write!(f, " missiles {:?} armed {}", self.missile_rights, self.armed)?;
        }
        if v.bombs {
            write!(f, " bombs {:?}", self.bombs)?;
        }
        write!(f, ")")
    }
}

impl Position {
    // ----- accessors -----

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Capatomic's irradiated squares.
    pub fn irradiated(&self) -> Bitboard {
        self.irradiated
    }

    /// The king of `color` (absent only after an atomic explosion ended the game).
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// Squares of rooks that may still castle.
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling
    }

    /// Capatomic: squares of missiles that may still castle.
    pub fn missile_rights(&self) -> Bitboard {
        self.missile_rights
    }

    /// Capatomic: whether a non-pawn piece has been captured (launches allowed).
    pub fn armed(&self) -> bool {
        self.armed
    }

    /// The en-passant square: set after a double step next to an enemy pawn (in Capatomic only while
    /// the capture is legal).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Hash of everything that matters for repetition (C14): pieces, side to move, castling and missile
    /// rights, en passant, radiation, armed flag (not secret bombs: see [`Position::with_bombs`]).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    // ----- board edits -----

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()].set(sq);
        self.by_role[piece.role.index()].set(sq);
        self.hash ^= zobrist::piece(piece.color, piece.role, sq);
    }

    #[inline]
    fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()].take()?;
        self.by_color[piece.color.index()].clear(sq);
        self.by_role[piece.role.index()].clear(sq);
        self.hash ^= zobrist::piece(piece.color, piece.role, sq);
        Some(piece)
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                h ^= zobrist::piece(p.color, p.role, sq);
            }
        }
        if self.turn == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        for sq in self.castling {
            h ^= zobrist::castling(sq);
        }
        for sq in self.missile_rights {
            h ^= zobrist::missile_right(sq);
        }
        for sq in self.irradiated {
            h ^= zobrist::radiation(sq);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::ep_file(ep.file());
        }
        if self.armed {
            h ^= zobrist::ARMED;
        }
        h
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn recomputed_hash(&self) -> u64 {
        self.compute_hash()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{ATOMIC, CAPABLANCA, CAPATOMIC, CHESS, STONES};

    #[test]
    fn start_perft_shallow() {
        assert_eq!(Position::start(&CHESS).perft(3), 8902);
        assert_eq!(Position::start(&CAPABLANCA).perft(3), 25228);
        assert_eq!(Position::start(&ATOMIC).perft(3), 8902);
        assert_eq!(Position::start(&STONES).perft(3), 25142);
    }

    #[test]
    fn hash_is_incremental() {
        let mut pos = Position::start(&CAPATOMIC);
        for _ in 0..40 {
            let moves = pos.legal_moves();
            let Some(&m) = moves.get(moves.len() / 2) else { break };
            pos = pos.play(m);
            assert_eq!(pos.hash(), pos.recomputed_hash());
        }
    }

    #[test]
    fn null_move_passes_the_turn_like_a_rebuilt_setup() {
        for variant in [&CHESS, &CAPATOMIC] {
            let mut pos = Position::start(variant);
            for i in 0..30 {
                let moves = pos.legal_moves();
                let Some(&m) = moves.get((i * 7) % moves.len().max(1)) else { break };
                pos = pos.play(m);
                match pos.null_move() {
                    Some(null) => {
                        let mut s = pos.to_setup();
                        s.turn = s.turn.other();
                        s.ep_square = None;
                        let rebuilt = Position::from_setup(variant, &s).unwrap();
                        assert_eq!(null, rebuilt, "after {i} plies");
                        assert_eq!(null.hash(), null.recomputed_hash());
                        assert_ne!(null.hash(), pos.hash());
                    }
                    None => assert!(pos.is_check() || pos.outcome().is_some(), "{pos:?}"),
                }
            }
        }
        // In check a pass is not allowed.
        let mut s = Setup::empty();
        for (sq, color, role) in
            [("e8", Color::Black, Role::King), ("e1", Color::White, Role::King), ("h1", Color::Black, Role::Rook)]
        {
            s.board[Square::parse(sq).unwrap().index()] = Some(Piece::new(color, role));
        }
        let checked = Position::from_setup(&CHESS, &s).unwrap();
        assert!(checked.is_check() && checked.null_move().is_none());
    }
}
