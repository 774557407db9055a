//! Notation beside the rules: FEN, coordinate (UCI) moves, SAN and PGN. Uses only the public API of
//! [`crate::rules::Position`].
//!
//! Errors come in two layers: syntax errors (the text is not a move at all) and meaning errors (a
//! well-formed move that is illegal or ambiguous here), each with a message a chat user can act on.

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;

use crate::rules::{Move, Position, Role};
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
    Illegal { input: String, reason: String, hints: Vec<String> },
    /// More than one legal move matches.
    Ambiguous { input: String, candidates: Vec<String> },
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
                if !hints.is_empty() {
                    write!(f, "; {}", hints.join(", "))?;
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

/// Reads a move typed in chat: SAN (lenient), coordinate notation, or Capatomic launch forms.
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveError> {
    let text = input.trim();
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
