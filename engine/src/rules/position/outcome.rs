//! How a game ends: the [`Outcome`] with its reason, and what can be read off one position alone
//! (checkmate, stalemate, exploded kings, dead positions, the fifty-move rule).

use super::Position;
use crate::rules::bitboard::Bitboard;
use crate::rules::types::{Color, Role};

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

impl Position {
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
}
