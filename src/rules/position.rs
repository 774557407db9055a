//! Positions: a checked board state of one variant, its legal moves, and the effect of playing one.
//!
//! A [`Setup`] is any board a user may paste (possibly illegal); a [`Position`] can only be built from
//! one through [`Position::from_setup`], which says which check failed. Moves are made by copy-make:
//! [`Position::play`] returns the new position and leaves the old one as it was.

use super::attacks::{self, between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind, MoveList};
use super::types::{Color, Piece, Role, Square};
use super::variant::Variant;
use super::zobrist;
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

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Decisive { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    Checkmate,
    /// Atomic: the king was blown up.
    KingExploded,
    Resignation,
    Timeout,
    /// The opponent abandoned or was disqualified.
    Forfeit,
    /// Atomic death match: the other side has no material left after the kings exploded.
    NoMaterial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    Agreement,
    /// Time ran out but the other side could not possibly mate.
    TimeoutVsInsufficientMaterial,
    /// Secret-bomb chess: a detonation removed both kings.
    BothKingsExploded,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(self) -> &'static str {
        match self {
            Outcome::Decisive { winner: Color::White, .. } => "1-0",
            Outcome::Decisive { winner: Color::Black, .. } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }

    /// A short reason, as in a PGN `Termination` comment.
    pub fn reason_str(self) -> &'static str {
        match self {
            Outcome::Decisive { reason, .. } => match reason {
                WinReason::Checkmate => "checkmate",
                WinReason::KingExploded => "king exploded",
                WinReason::Resignation => "resignation",
                WinReason::Timeout => "time forfeit",
                WinReason::Forfeit => "forfeit",
                WinReason::NoMaterial => "no material left",
            },
            Outcome::Draw(reason) => match reason {
                DrawReason::Stalemate => "stalemate",
                DrawReason::Repetition => "threefold repetition",
                DrawReason::FiftyMoves => "fifty-move rule",
                DrawReason::InsufficientMaterial => "insufficient material",
                DrawReason::Agreement => "agreement",
                DrawReason::TimeoutVsInsufficientMaterial => "time out, but no mating material",
                DrawReason::BothKingsExploded => "both kings exploded",
            },
        }
    }
}

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
    /// The variant's default start position, built from its start rank ([`Variant::start_rank`]).
    pub fn start(variant: &'static Variant) -> Position {
        let rank = variant.start_rank;
        Position::from_setup(variant, &super::setups::setup_from_ranks(variant, rank, rank))
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

    fn check_bomb(&self, color: Color, sq: Square) -> Result<(), PositionError> {
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

    /// The en-passant square if an en-passant capture is legal now.
    fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut list = MoveList::new();
        self.gen_en_passant(&mut list);
        list.iter().any(|m| m.to == ep && self.is_legal(*m)).then_some(ep)
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

    /// Capatomic: the squares shielded by either king (C7).
    pub fn shields(&self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for k in self.by_role(Role::King) {
            bb |= king_attacks(k) | Bitboard::from_square(k);
        }
        bb & self.variant.board()
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

    // ----- attacks -----

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
        if (rooks & them).any() {
            att |= rook_attacks(sq, blockers) & rooks;
        }
        if (bishops & them).any() {
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

    fn kings_adjacent(&self) -> bool {
        match (self.king(Color::White), self.king(Color::Black)) {
            (Some(a), Some(b)) => a.distance(b) <= 1,
            _ => false,
        }
    }

    /// Whether `color`'s king is attacked (for atomic: and the kings do not touch).
    fn is_attacked_king(&self, color: Color) -> bool {
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
    fn pinned(&self, color: Color) -> Bitboard {
        let Some(k) = self.king(color) else { return Bitboard::EMPTY };
        let them = self.by_color[color.other().index()];
        let r = &self.by_role;
        let rooks = (r[Role::Rook.index()] | r[Role::Queen.index()] | r[Role::Chancellor.index()]) & them;
        let bishops = (r[Role::Bishop.index()] | r[Role::Queen.index()] | r[Role::Archbishop.index()]) & them;
        let snipers = (rook_attacks(k, Bitboard::EMPTY) & rooks) | (bishop_attacks(k, Bitboard::EMPTY) & bishops);
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

    // ----- move generation -----

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

    #[cold]
    #[inline(never)]
    fn gen_detonation(&self, list: &mut MoveList) {
        if let Some(b) = self.bombs[self.turn.index()] {
            let m = Move::detonate(b);
            if self.is_legal_detonation(&self.play_unchecked(m)) {
                list.push(m);
            }
        }
    }

    /// Number of legal moves (no list kept).
    pub fn count_legal(&self) -> usize {
        self.legal_moves().len()
    }

    /// Atomic variants: keeps the legal moves of a pseudo-legal list. Quiet moves of pieces other
    /// than the king cannot explode anything, so the usual pin and check logic holds for them (and
    /// touching kings make every such move safe); everything else is verified by playing it.
    fn retain_legal_atomic(&self, list: &mut MoveList) {
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

    /// Ordinary moves only (detonations are checked apart, off this hot path).
    fn is_legal_by_playing(&self, m: Move) -> bool {
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

    /// Bomb rulings: out of check a detonation may take either king (or leave the own one exposed if it
    /// takes the enemy's); in check it must leave the own king alive and safe.
    #[cold]
    #[inline(never)]
    fn is_legal_detonation(&self, after: &Position) -> bool {
        let us = self.turn;
        let in_check = self.is_check();
        match (after.king(us), after.king(us.other())) {
            (None, _) => !in_check,
            (Some(_), None) => !in_check || !after.is_attacked_king(us),
            (Some(_), Some(_)) => !after.is_attacked_king(us),
        }
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

    /// Whether `m` is legal here (it need not come from this position's move list).
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
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

    fn gen_en_passant(&self, list: &mut MoveList) {
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

    /// The non-empty missile subsets that may come along when the king castles from `k` to `kdest` (C12).
    /// Bit 0 is the missile behind-left of the king, bit 1 behind-right.
    fn missile_options(&self, k: Square, kdest: Square) -> impl Iterator<Item = u8> + use<> {
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

    fn gen_launches(&self, list: &mut MoveList) {
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

    // ----- making moves -----

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

    /// The same position with the other side to move and no en-passant square: a "pass", which the
    /// search uses for null-move pruning. `None` when the side to move is in check (passing would leave
    /// its king attacked) or a king is gone.
    pub fn null_move(&self) -> Option<Position> {
        if self.king(Color::White).is_none() || self.king(Color::Black).is_none() || self.is_check() {
            return None;
        }
        let mut p = self.clone();
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

    fn capture_bookkeeping(&mut self, captured: Piece) {
        if captured.role != Role::Pawn && self.variant.missiles && !self.armed {
            self.armed = true;
            self.hash ^= zobrist::ARMED;
        }
    }

    fn explode(&mut self, center: Square, removed: &mut Bitboard) {
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

    fn do_move(&mut self, m: Move) {
        let us = self.turn;
        let v = self.variant;
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

    /// Secret-bomb chess: the bomb and all eight neighbours go, pawns and kings of both colours; no chain
    /// reaction.
    #[cold]
    #[inline(never)]
    fn detonate(&mut self, bomb: Square, touched: &mut Bitboard) {
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
    fn carry_bombs(&mut self, m: Move) {
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

    /// Capatomic keeps the en-passant square only while the capture is legal (C16: the FEN writes it
    /// only then), so positions that differ in nothing else are the same position, with the same hash.
    fn drop_illegal_ep(&mut self) {
        if self.variant.missiles
            && let Some(ep) = self.ep_square
            && self.legal_ep_square().is_none()
        {
            self.ep_square = None;
            self.hash ^= zobrist::ep_file(ep.file());
        }
    }

    // ----- game end -----

    /// Whether `color` cannot give mate by any sequence of legal moves, helped by the opponent: a bare
    /// king; a lone knight against a bare king; bishops of one colour against nothing but bishops of that
    /// colour (as Fairy-Stockfish counts it; used for timeouts).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let own = self.by_color[color.index()];
        let them = self.by_color[color.other().index()] & !self.by_role[Role::King.index()];
        let r = &self.by_role;
        let knights = r[Role::Knight.index()];
        let bishops = r[Role::Bishop.index()];
        let own_pieces = own & !r[Role::King.index()];
        if (own_pieces & !(knights | bishops)).any() {
            return false;
        }
        if own_pieces.is_empty() {
            return true;
        }
        if self.variant.bombs {
            // Any piece may be a bomb, and the rules do not reveal which.
            return false;
        }
        if self.variant.atomic {
            // Any piece can still win by capture or check, as Fairy-Stockfish counts it, unless nothing of
            // the opponent is left at all (its king exploded and no pieces remain).
            return self.by_color[color.other().index()].is_empty();
        }
        if (own_pieces & knights).any() {
            return own_pieces.count() == 1 && them.is_empty();
        }
        let dark = Bitboard::dark_squares();
        let all_bishops = own_pieces | them;
        (them & !bishops).is_empty() && ((all_bishops & dark).is_empty() || (all_bishops & !dark).is_empty())
    }

    /// A dead position per C15: K v K, K+N v K, K+B v K, K+B v K+B with bishops on one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let r = &self.by_role;
        let kings = r[Role::King.index()];
        let others = self.occupied() & !kings;
        if others.is_empty() {
            return true;
        }
        if self.variant.atomic || self.variant.bombs {
            return false;
        }
        let knights = r[Role::Knight.index()];
        let bishops = r[Role::Bishop.index()];
        if (others & !(knights | bishops)).any() {
            return false;
        }
        if others.count() == 1 {
            return true;
        }
        if knights.is_empty() {
            // Capatomic lists exactly K+B v K+B (C15); elsewhere any number of bishops on one colour is dead.
            let one_each = Color::ALL.iter().all(|&c| (bishops & self.by_color[c.index()]).count() == 1);
            if self.variant.missiles && !one_each {
                return false;
            }
            let dark = Bitboard::dark_squares();
            return (bishops & dark).is_empty() || (bishops & !dark).is_empty();
        }
        false
    }

    /// The outcome that can be read off this position alone (no repetition): checkmate, stalemate,
    /// atomic explosion, dead position, fifty-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.turn;
        match (self.king(us), self.king(us.other())) {
            (Some(_), Some(_)) => {}
            (None, None) if self.variant.death_match => {
                // Kingless: the side left with no material loses; an empty board draws.
                let ours = self.by_color[us.index()].any();
                let theirs = self.by_color[us.other().index()].any();
                match (ours, theirs) {
                    (true, true) => {}
                    (false, false) => return Some(Outcome::Draw(DrawReason::InsufficientMaterial)),
                    (false, true) => {
                        return Some(Outcome::Decisive { winner: us.other(), reason: WinReason::NoMaterial });
                    }
                    (true, false) => return Some(Outcome::Decisive { winner: us, reason: WinReason::NoMaterial }),
                }
            }
            (None, None) => return Some(Outcome::Draw(DrawReason::BothKingsExploded)),
            (None, Some(_)) => {
                return Some(Outcome::Decisive { winner: us.other(), reason: WinReason::KingExploded });
            }
            (Some(_), None) => return Some(Outcome::Decisive { winner: us, reason: WinReason::KingExploded }),
        }
        if self.legal_moves().is_empty() {
            return Some(if self.is_check() {
                Outcome::Decisive { winner: us.other(), reason: WinReason::Checkmate }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        if self.halfmoves >= 100 {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        None
    }

    // ----- perft -----

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
