//! The rules engine: boards up to 10×10, variants described as data, legal moves and outcomes.
//!
//! No I/O, chat, images or storage here, and nothing from the layers above: start positions come from the
//! variant records, not from FEN. Notation lives beside it in [`crate::notation`] and uses only
//! the public API of [`Position`].

pub mod attacks;
pub mod bitboard;
pub mod game;
pub mod moves;
pub mod position;
pub mod setups;
pub mod types;
pub mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use game::Game;
pub use moves::{Move, MoveKind, MoveList};
pub use position::{CheckSquares, DrawReason, Outcome, Position, PositionError, Setup, WinReason};
pub use types::{Color, Piece, Role, Square};
pub use variant::{EvalFamily, SetupKind, VARIANTS, Variant};
