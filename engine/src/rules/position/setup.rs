//! Setups and the checked conversion into positions: a [`Setup`] is any board a user may paste (possibly
//! illegal), [`Position::from_setup`] builds a [`Position`] from one or says with a [`PositionError`]
//! which check failed, and [`Position::to_setup`] gives the plain board back for notation and storage.

use super::Position;
use crate::rules::attacks::pawn_attacks;
use crate::rules::bitboard::Bitboard;
use crate::rules::types::{Color, Piece, Role, Square};
use crate::rules::variant::Variant;
use std::fmt;

/// A board as typed in, before any legality check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 100],
    /// Capatomic: squares irradiated by earlier launches.
    pub irradiated: Bitboard,
    pub turn: Color,
    /// Squares of the rooks that may still castle.
    pub castling_rooks: Bitboard,
    /// The en-passant target square, if any.
    pub ep_square: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
    /// Capatomic: missiles that may still come along when castling.
    pub missile_rights: Bitboard,
    /// Capatomic: a non-pawn piece has been captured earlier in the game.
    pub armed: bool,
    /// Secret-bomb chess: each side's bomb square (by [`Color::index`]). Never written to FEN: the bot
    /// keeps the secret apart and gives it to the rules with [`Position::with_bombs`].
    pub bombs: [Option<Square>; 2],
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            board: [None; 100],
            irradiated: Bitboard::EMPTY,
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            missile_rights: Bitboard::EMPTY,
            armed: false,
            bombs: [None; 2],
        }
    }
}

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    PieceOffBoard(Square),
    PieceNotInVariant(Piece),
    KingCount {
        color: Color,
        count: u32,
    },
    PawnOnBadRank(Square),
    PieceOnRadiation(Square),
    RadiationNotAllowed,
    BadCastlingRight(Square),
    BadMissileRight(Square),
    BadEnPassant(Square),
    OpponentInCheck,
    BadMoveNumber,
    /// A bomb in a variant without bombs.
    BombsNotAllowed,
    /// A bomb on a square without a piece of its side other than the king.
    BadBomb(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::PieceOffBoard(sq) => write!(f, "there is a piece on {sq}, which is off this board"),
            PositionError::PieceNotInVariant(p) => {
                write!(f, "this variant has no {} (letter {})", p.role.name(), p.fen_char())
            }
            PositionError::KingCount { color, count } => {
                write!(f, "{color} must have exactly one king, but has {count}")
            }
            PositionError::PawnOnBadRank(sq) => write!(f, "a pawn cannot stand on {sq}"),
            PositionError::PieceOnRadiation(sq) => write!(f, "{sq} is irradiated, so no piece may stand there"),
            PositionError::RadiationNotAllowed => write!(f, "irradiated squares (*) exist only in Capatomic"),
            PositionError::BadCastlingRight(sq) => {
                write!(f, "castling right with the rook on {sq}, but there is no such rook beside an unmoved king")
            }
            PositionError::BadMissileRight(sq) => {
                write!(f, "missile castling right on {sq}, but no missile stands there diagonally behind its king")
            }
            PositionError::BadEnPassant(sq) => write!(f, "{sq} cannot be an en-passant square here"),
            PositionError::OpponentInCheck => write!(f, "the side not to move is in check"),
            PositionError::BadMoveNumber => write!(f, "the move number must be at least 1"),
            PositionError::BombsNotAllowed => write!(f, "bombs exist only in secret-bomb chess"),
            PositionError::BadBomb(sq) => {
                write!(f, "a bomb must be one of its side's pieces other than the king, not {sq}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The variant's default start position, built from its start rank ([`Variant::start_rank`]).
    pub fn start(variant: &'static Variant) -> Position {
        let rank = variant.start_rank;
        Position::from_setup(variant, &crate::rules::setups::setup_from_ranks(variant, rank, rank))
            .expect("built-in start positions are valid")
    }

    /// Checks a setup and builds the position.
    pub fn from_setup(variant: &'static Variant, setup: &Setup) -> Result<Position, PositionError> {
        let board_mask = variant.board();
        let mut pos = Position {
            variant,
            board: [None; 100],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; Role::COUNT],
            irradiated: Bitboard::EMPTY,
            castling: Bitboard::EMPTY,
            missile_rights: Bitboard::EMPTY,
            ep_square: None,
            ep_refused: None,
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            armed: variant.missiles && setup.armed,
            bombs: [None; 2],
            hash: 0,
        };
        if setup.fullmoves == 0 {
            return Err(PositionError::BadMoveNumber);
        }
        for i in 0..100 {
            let sq = Square::from_index(i);
            if let Some(piece) = setup.board[i] {
                if !board_mask.contains(sq) {
                    return Err(PositionError::PieceOffBoard(sq));
                }
                if !variant.has_role(piece.role) {
                    return Err(PositionError::PieceNotInVariant(piece));
                }
                if piece.role == Role::Pawn {
                    let rel = variant.relative_rank(piece.color, sq.rank());
                    if rel < variant.pawn_rank.min(1) || rel >= variant.promotion_rank {
                        return Err(PositionError::PawnOnBadRank(sq));
                    }
                }
                pos.put(sq, piece);
            }
        }
        if setup.irradiated.any() {
            if !variant.missiles {
                return Err(PositionError::RadiationNotAllowed);
            }
            if let Some(sq) = (setup.irradiated & !board_mask).first() {
                return Err(PositionError::PieceOffBoard(sq));
            }
            if let Some(sq) = (setup.irradiated & pos.occupied()).first() {
                return Err(PositionError::PieceOnRadiation(sq));
            }
            pos.irradiated = setup.irradiated;
        }
        let kingless = pos.by_role(Role::King).is_empty();
        for color in Color::ALL {
            let count = pos.pieces(color, Role::King).count();
            // Atomic and bomb games end with a king blown up; that final position must still be readable,
            // and a death match goes on without kings.
            let can_vanish = variant.atomic || variant.bombs;
            let exploded = can_vanish && count == 0 && pos.king(color.other()).is_some();
            let both_gone = (variant.death_match || variant.bombs) && kingless;
            if count != 1 && !exploded && !both_gone {
                return Err(PositionError::KingCount { color, count });
            }
        }
        // Castling rights: a rook of the right colour on the castling rank, with the king on that rank.
        for rook_sq in setup.castling_rooks {
            let ok = Color::ALL.iter().any(|&color| {
                let rank = variant.castling_rank_of(color);
                rook_sq.rank() == rank
                    && pos.board[rook_sq.index()] == Some(Piece::new(color, Role::Rook))
                    && pos.king(color).is_some_and(|k| k.rank() == rank)
            });
            if !ok {
                return Err(PositionError::BadCastlingRight(rook_sq));
            }
            pos.castling.set(rook_sq);
        }
        // Missile rights: a missile diagonally behind a king that may still castle.
        for m in setup.missile_rights {
            let ok = variant.missiles
                && Color::ALL.iter().any(|&color| {
                    let king = pos.king(color);
                    pos.board[m.index()] == Some(Piece::new(color, Role::Missile))
                        && Some(m.rank()) == variant.missile_rank_of(color)
                        && king.is_some_and(|k| {
                            k.rank() == variant.castling_rank_of(color)
                                && (k.file() as i32 - m.file() as i32).abs() == 1
                        })
                        && (pos.castling & pos.by_color[color.index()]).any()
                });
            if !ok {
                return Err(PositionError::BadMissileRight(m));
            }
            pos.missile_rights.set(m);
        }
        if let Some(ep) = setup.ep_square {
            // The square a pawn of the side not to move just skipped over.
            let them = setup.turn.other();
            let forward: i32 = if them == Color::White { 10 } else { -10 };
            let pawn_sq = Square::try_new(ep.file() as i32, ep.rank() as i32 + forward / 10);
            let origin = Square::try_new(ep.file() as i32, ep.rank() as i32 - forward / 10);
            let valid = board_mask.contains(ep)
                && pos.board[ep.index()].is_none()
                && pawn_sq.is_some_and(|p| pos.board[p.index()] == Some(Piece::new(them, Role::Pawn)))
                && origin.is_some_and(|o| pos.board[o.index()].is_none() && o.rank() == variant.pawn_rank_of(them));
            if !valid {
                return Err(PositionError::BadEnPassant(ep));
            }
            if (pawn_attacks(them, ep) & pos.pieces(setup.turn, Role::Pawn)).any() {
                pos.ep_square = Some(ep);
            }
        }
        let game_over = pos.king(Color::White).is_none() || pos.king(Color::Black).is_none();
        if !game_over && pos.is_attacked_king(setup.turn.other()) {
            return Err(PositionError::OpponentInCheck);
        }
        if setup.bombs.iter().any(Option::is_some) {
            if !variant.bombs {
                return Err(PositionError::BombsNotAllowed);
            }
            for color in Color::ALL {
                if let Some(b) = setup.bombs[color.index()] {
                    pos.check_bomb(color, b)?;
                    pos.bombs[color.index()] = Some(b);
                }
            }
        }
        pos.hash = pos.compute_hash();
        pos.drop_illegal_ep();
        Ok(pos)
    }

    /// The plain setup of this position (for notation and storage).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            irradiated: self.irradiated,
            turn: self.turn,
            castling_rooks: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            missile_rights: self.missile_rights,
            armed: self.armed,
            bombs: self.bombs,
        }
    }
}
