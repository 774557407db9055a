//! What round-robin and Swiss tournaments share: pairings, rounds with their results, and scores
//! counted in quarter points so that halves (draws) and Sonneborn–Berger's quarters stay exact.

use super::PlayerId;
use std::fmt;

/// How a tournament game ended. A loss on time or by forfeit is an ordinary win for the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

/// One game of a round: who has which colour and, once it is over, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pub white: PlayerId,
    pub black: PlayerId,
    pub outcome: Option<Outcome>,
}

impl Game {
    /// A game not yet played.
    pub fn new(white: PlayerId, black: PlayerId) -> Game {
        Game { white, black, outcome: None }
    }

    /// The opponent of `p`, when `p` plays in this game.
    pub fn opponent_of(&self, p: PlayerId) -> Option<PlayerId> {
        if p == self.white {
            Some(self.black)
        } else if p == self.black {
            Some(self.white)
        } else {
            None
        }
    }

    /// What `p` scored in this game (nothing while it is unfinished or when `p` is not in it).
    pub fn points_of(&self, p: PlayerId) -> Points {
        let Some(o) = self.outcome else { return Points::ZERO };
        match (o, p == self.white, p == self.black) {
            (Outcome::Draw, true, _) | (Outcome::Draw, _, true) => Points::DRAW,
            (Outcome::WhiteWins, true, _) | (Outcome::BlackWins, _, true) => Points::WIN,
            _ => Points::ZERO,
        }
    }
}

/// One round: its games, board by board, and the player who sits out with a bye (odd fields).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub bye: Option<PlayerId>,
}

impl Round {
    /// Whether every game of the round has a result.
    pub fn is_complete(&self) -> bool {
        self.games.iter().all(|g| g.outcome.is_some())
    }

    /// The game `p` plays in this round.
    pub fn game_of(&self, p: PlayerId) -> Option<&Game> {
        self.games.iter().find(|g| g.white == p || g.black == p)
    }
}

/// A score in quarter points: a win is 4, a draw 2. Sonneborn–Berger needs the quarters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const DRAW: Points = Points(2);
    pub const WIN: Points = Points(4);

    /// Whole points, for people: `3.5`.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(it: I) -> Points {
        Points(it.map(|p| p.0).sum())
    }
}

/// `3`, `3½`, `3¼`, `¾`: whole points and a fraction sign, scores and tie-breaks alike (before,
/// quarters were decimals beside halves as signs: "1½ (SB 1.25)").
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        let fraction = ["", "¼", "½", "¾"][(self.0 % 4) as usize];
        match (whole, fraction) {
            (0, "") => write!(f, "0"),
            (0, _) => write!(f, "{fraction}"),
            _ => write!(f, "{whole}{fraction}"),
        }
    }
}

/// Each player's total score over `rounds` (finished games plus `bye` for each bye), in the order
/// of `players`.
pub fn scores(players: &[PlayerId], rounds: &[Round], bye: Points) -> Vec<Points> {
    players.iter().map(|&p| score_of(p, rounds, bye)).collect()
}

/// One player's total score over `rounds`, a bye scoring `bye`.
pub fn score_of(p: PlayerId, rounds: &[Round], bye: Points) -> Points {
    rounds
        .iter()
        .map(|r| if r.bye == Some(p) { bye } else { r.game_of(p).map_or(Points::ZERO, |g| g.points_of(p)) })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_display_and_game_scoring() {
        assert_eq!(Points(14).to_string(), "3½");
        assert_eq!(Points(13).to_string(), "3¼");
        assert_eq!(Points(15).to_string(), "3¾");
        assert_eq!(Points(8).to_string(), "2");
        assert_eq!(Points(2).to_string(), "½");
        assert_eq!(
            (Points(1).to_string(), Points(3).to_string(), Points(0).to_string()),
            ("¼".into(), "¾".into(), "0".into())
        );
        let g = Game { white: 1, black: 2, outcome: Some(Outcome::BlackWins) };
        assert_eq!((g.points_of(1), g.points_of(2), g.points_of(3)), (Points::ZERO, Points::WIN, Points::ZERO));
        let d = Game { outcome: Some(Outcome::Draw), ..g };
        assert_eq!((d.points_of(1), d.points_of(2)), (Points::DRAW, Points::DRAW));
        assert_eq!(Game::new(1, 2).points_of(1), Points::ZERO);
        let rounds = vec![Round { games: vec![g], bye: Some(3) }, Round { games: vec![Game::new(3, 1)], bye: Some(2) }];
        assert_eq!(scores(&[1, 2, 3], &rounds, Points::WIN), vec![Points(0), Points(8), Points(4)]);
        assert_eq!(scores(&[1, 2, 3], &rounds, Points::ZERO), vec![Points(0), Points(4), Points(0)]);
    }
}
