//! A game: a start position and the moves played, with the history that threefold repetition needs.

use super::moves::Move;
use super::position::{DrawReason, Outcome, Position};

/// A start position, the moves played from it and every position reached.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game { positions: vec![start], moves: Vec::new() }
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Positions from the start to now, one more than the moves.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a move if it is legal; returns whether it was.
    pub fn play(&mut self, m: Move) -> bool {
        let pos = self.position();
        if !pos.is_legal(m) {
            return false;
        }
        let next = pos.play_unchecked(m);
        self.positions.push(next);
        self.moves.push(m);
        true
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How often the current position has occurred (same pieces, side, rights, en passant, radiation).
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        // Only positions since the last irreversible move can repeat it.
        self.positions
            .iter()
            .rev()
            .take(now.halfmoves() as usize + 1)
            .step_by(2)
            .filter(|p| p.hash() == now.hash())
            .count()
    }

    /// The outcome of the game as the board stands: position outcomes, then threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position().outcome() {
            return Some(o);
        }
        (self.repetitions() >= 3).then_some(Outcome::Draw(DrawReason::Repetition))
    }
}
