//! Notation beside the rules: FEN, coordinate (UCI) moves, SAN and PGN. Uses only the public API of
//! [`crate::rules::Position`].
//!
//! Errors come in two layers: syntax errors (the text is not a move at all) and meaning errors (a
//! well-formed move that is illegal or ambiguous here), each with a message a chat user can act on.

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;

use crate::rules::{Color, Move, Position, Role, Square};
use std::fmt;

/// Why a typed move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing was typed.
    Empty,
    /// Longer than any move can be.
    TooLong,
    /// Not a move in any notation capabot reads.
    Syntax(String),
    /// A well-formed move that is not legal here; `reason` says why, `hints` lists close legal moves.
    Illegal { input: String, reason: Refusal, hints: Vec<Hint> },
    /// More than one legal move matches.
    Ambiguous { input: String, candidates: Vec<String> },
}

/// Why a well-formed move is not legal here, as data: the chat layers put it in words in the
/// reader's language; [`fmt::Display`] gives the English words for tools and logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `@e4` in a variant without bombs.
    NoBombs,
    /// A detonation that is not possible: one reason whatever the cause, so that a refusal read by
    /// others never tells where a secret bomb is or is not.
    Detonation,
    /// A launch in a variant without missiles.
    NoMissiles,
    /// A launch from a square holding another of the mover's pieces.
    NotAMissile { from: Square, role: Role },
    /// A launch from a square without a missile of the mover's.
    NoMissileOn { from: Square },
    /// A square outside the board.
    OffBoard { square: Square },
    /// Missiles cannot launch before a piece other than a pawn is captured (C8).
    Unarmed,
    /// An attacked missile cannot launch (C8).
    MissileAttacked { from: Square },
    /// A king's shield protects the target (C7).
    Shielded { square: Square },
    /// The launch would leave the mover's king in check.
    LaunchIntoCheck,
    /// The named missiles cannot castle along (C12).
    CastleMissiles,
    /// Castling out of check.
    CastleInCheck,
    /// Castling that way is not possible now.
    CastleImpossible,
    /// A pawn reaching the last rank without a promotion piece named (SAN); `roles` are the choices.
    Promotion { roles: Vec<Role> },
    /// The same in coordinates (`e8q`).
    PromotionCoordinates,
    /// A promotion to a piece a pawn may not become here (`=K`); `roles` are the choices.
    PromotionTo { role: Role, roles: Vec<Role> },
    /// A piece letter of a piece the variant does not have.
    NoSuchRole { role: Role },
    /// The mover has no piece of that kind left.
    NoPieceOfRole { role: Role },
    /// No piece may stand on an irradiated square (C5).
    Irradiated { square: Square },
    /// The mover's own piece stands on the target.
    OwnPiece { square: Square },
    /// In check, and the move does not answer it.
    CheckNotAnswered { role: Role },
    /// The move would leave the mover's king in check.
    IntoCheck { role: Role },
    /// No piece of that kind can reach the square.
    CannotReach { role: Role, square: Square },
    /// Coordinates from an empty square.
    NoPieceOn { square: Square },
    /// Coordinates from the other side's piece; `owner` is that side (the other is to move).
    NotYours { role: Role, square: Square, owner: Color },
    /// The piece on the square has no legal move at all.
    NoLegalMove { role: Role, from: Square },
    /// The piece has legal moves, but not to that square.
    CannotGo { role: Role, from: Square, to: Square },
}

/// A legal alternative shown beside a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The legal moves of the pieces of one kind (in SAN).
    Moves { role: Role, moves: Vec<String> },
    /// The legal castling moves (in SAN).
    Castling(Vec<String>),
    /// The mover is in check (and the named piece has no move).
    InCheck,
    /// The legal missile launches (in SAN, Capatomic).
    Launches(Vec<String>),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal as R;
        match self {
            R::NoBombs => write!(f, "there are no bombs in this variant"),
            R::Detonation => write!(
                f,
                "no detonation there now: name your own bomb's square, and in check the blast must leave your king \
                 alive and out of check"
            ),
            R::NoMissiles => write!(f, "there are no missile launches in this variant"),
            R::NotAMissile { from, role } => write!(f, "the piece on {from} is a {}, not a missile", role.name()),
            R::NoMissileOn { from } => write!(f, "you have no missile on {from}"),
            R::OffBoard { square } => write!(f, "{square} is not on this board"),
            R::Unarmed => {
                write!(f, "no piece other than a pawn has been captured yet, so missiles cannot launch (C8)")
            }
            R::MissileAttacked { from } => write!(f, "your missile on {from} is attacked, so it cannot launch (C8)"),
            R::Shielded { square } => write!(f, "{square} is shielded by a king (C7)"),
            R::LaunchIntoCheck => write!(f, "the launch would leave your king in check"),
            R::CastleMissiles => write!(
                f,
                "those missiles cannot come along (C12): each needs a clear, unirradiated path and must never have moved"
            ),
            R::CastleInCheck => write!(f, "you cannot castle out of check"),
            R::CastleImpossible => write!(
                f,
                "castling that way is not possible now (moved king or rook, pieces in the way, or an attacked square)"
            ),
            R::Promotion { roles } => {
                let letters: Vec<String> = roles.iter().map(|r| format!("={}", r.upper_char())).collect();
                write!(f, "say which piece to promote to: {}", letters.join(", "))
            }
            R::PromotionCoordinates => write!(f, "say which piece to promote to, for example e8q"),
            R::PromotionTo { role, roles } => {
                let letters: Vec<String> = roles.iter().map(|r| format!("={}", r.upper_char())).collect();
                write!(f, "a pawn cannot promote to a {}: choose {}", role.name(), letters.join(", "))
            }
            R::NoSuchRole { role } => write!(f, "there is no {} in this variant", role.name()),
            R::NoPieceOfRole { role } => write!(f, "you have no {}", role.name()),
            R::Irradiated { square } => write!(f, "{square} is irradiated: no piece may stand there (C5)"),
            R::OwnPiece { square } => write!(f, "your own piece stands on {square}"),
            R::CheckNotAnswered { role } => {
                write!(f, "you are in check, and that {} move does not answer it", role.name())
            }
            R::IntoCheck { role } => write!(f, "that {} move would leave your king in check", role.name()),
            R::CannotReach { role, square } => write!(f, "no {} of yours can reach {square}", role.name()),
            R::NoPieceOn { square } => write!(f, "there is no piece on {square}"),
            R::NotYours { role, square, owner } => {
                write!(f, "the {} on {square} belongs to {owner}, and it is {}'s turn", role.name(), owner.other())
            }
            R::NoLegalMove { role, from } => write!(f, "your {} on {from} has no legal move", role.name()),
            R::CannotGo { role, from, to } => write!(f, "your {} on {from} cannot go to {to}", role.name()),
        }
    }
}

impl Hint {
    /// The moves a hint lists (none for [`Hint::InCheck`]).
    pub fn moves(&self) -> &[String] {
        match self {
            Hint::Moves { moves, .. } | Hint::Castling(moves) | Hint::Launches(moves) => moves,
            Hint::InCheck => &[],
        }
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Moves { role, moves } => write!(f, "{} moves: {}", role.name(), moves.join(", ")),
            Hint::Castling(moves) => write!(f, "castling moves: {}", moves.join(" ")),
            Hint::InCheck => write!(f, "you are in check"),
            Hint::Launches(moves) => write!(f, "launches: {}", moves.join(", ")),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "no move given"),
            MoveError::TooLong => write!(f, "that is too long to be a move"),
            MoveError::Syntax(s) => {
                write!(f, "'{s}' is not a move I can read; try SAN like Nf3, exd5, O-O, e8=Q or coordinates like e2e4")
            }
            MoveError::Illegal { input, reason, hints } => {
                write!(f, "{input} is not legal: {reason}")?;
                for h in hints {
                    write!(f, "; {h}")?;
                }
                Ok(())
            }
            MoveError::Ambiguous { input, candidates } => {
                write!(f, "{input} is ambiguous: did you mean {}?", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// `text` with figurines (`♘f3`, `♞f6`: the piece's letter; a pawn's dropped, as SAN names no pawn)
/// and full-width forms (`Ｎｆ３`, as East Asian keyboards type them) as the ASCII that SAN and
/// coordinates are written in; ASCII text as it is.
fn plain_letters(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return std::borrow::Cow::Borrowed(text);
    }
    let plain = text.chars().filter_map(|c| match c {
        '♔' | '♚' => Some('K'),
        '♕' | '♛' => Some('Q'),
        '♖' | '♜' => Some('R'),
        '♗' | '♝' => Some('B'),
        '♘' | '♞' => Some('N'),
        // The emoji form of a figurine (`♞️`) adds a variation selector.
        '♙' | '♟' | '\u{FE0E}' | '\u{FE0F}' => None,
        // Full-width `！` to `～` are ASCII `!` to `~` moved up by 0xFEE0.
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0),
        c => Some(c),
    });
    std::borrow::Cow::Owned(plain.collect())
}

/// Reads a move typed in chat: SAN (lenient), coordinate notation, or Capatomic launch forms.
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveError> {
    let plain = plain_letters(input.trim());
    let text = plain.as_ref();
    if text.is_empty() {
        return Err(MoveError::Empty);
    }
    if text.chars().count() > 40 {
        return Err(MoveError::TooLong);
    }
    // An upper-case piece letter first means SAN (`A5c6`: archbishop from rank 5), even where the text
    // also reads as coordinates (`a5c6`); otherwise coordinates are tried first.
    let san_first = text.chars().next().is_some_and(|c| c.is_ascii_uppercase() && Role::from_char(c).is_some());
    if san_first && let Ok(m) = san::parse(pos, text) {
        return Ok(m);
    }
    match uci::parse(pos, text) {
        Ok(m) => Ok(m),
        Err(coord_err) => match san::parse(pos, text) {
            Ok(m) => Ok(m),
            // A coordinate-shaped input gets the coordinate explanation.
            Err(san_err) => Err(if uci::looks_like_coordinates(text) { coord_err } else { san_err }),
        },
    }
}
