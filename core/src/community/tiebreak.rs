//! Tie-breaks and final standings.
//!
//! A bye scores a full point in a Swiss and nothing in a round robin, where everyone sits out
//! equally often and the bye is no game (so Sonneborn–Berger is computed from games alone, as
//! FIDE does); see [`Scoring`].
//!
//! - **Sonneborn–Berger** (round robin): the scores of the opponents a player beat, plus half the
//!   scores of those they drew with. A bye has no opponent and adds nothing.
//! - **Buchholz** (Swiss): the sum of the opponents' final scores. A bye counts as a game against
//!   an opponent with score 0 (the simple rule, not FIDE's virtual opponent), so it adds nothing but
//!   is the first thing **Buchholz cut-1** (Buchholz less the lowest single opponent score) removes.
//!
//! Only finished games count. A loss on time or by forfeit is an ordinary loss: its opponent counts.
//! Standings order by score, then the tie-breaks in the order asked, then the place in the
//! tournament's player list (seed or registration order), so the order is always complete.

use super::PlayerId;
use super::tournament::{Points, Round, score_of};
use std::collections::HashMap;

/// A tie-break rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    SonnebornBerger,
    Buchholz,
    BuchholzCut1,
}

impl TieBreak {
    /// The tie-breaks a round robin uses.
    pub const ROUND_ROBIN: &'static [TieBreak] = &[TieBreak::SonnebornBerger];
    /// The tie-breaks a Swiss uses: Buchholz, then Buchholz cut-1.
    pub const SWISS: &'static [TieBreak] = &[TieBreak::Buchholz, TieBreak::BuchholzCut1];

    /// Short name for tables: `SB`, `Buch`, `Buch-1`.
    pub fn short_name(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "SB",
            TieBreak::Buchholz => "Buch",
            TieBreak::BuchholzCut1 => "Buch-1",
        }
    }
}

/// How a tournament system scores byes and breaks ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// What a bye scores.
    pub bye: Points,
    pub tiebreaks: &'static [TieBreak],
}

impl Scoring {
    /// Round robin: a bye scores nothing; Sonneborn–Berger.
    pub const ROUND_ROBIN: Scoring = Scoring { bye: Points::ZERO, tiebreaks: TieBreak::ROUND_ROBIN };
    /// Swiss: a bye scores a full point; Buchholz, then Buchholz cut-1.
    pub const SWISS: Scoring = Scoring { bye: Points::WIN, tiebreaks: TieBreak::SWISS };
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the winner; every line has its own place.
    pub place: usize,
    pub player: PlayerId,
    pub score: Points,
    /// The values of the tie-breaks asked for, in the same order.
    pub tiebreaks: Vec<Points>,
    /// Whether the player's results count: not for one whose results were voided (a round robin's
    /// withdrawal before half their games), who is listed after everyone else.
    pub counted: bool,
}

/// Each player's score, by id.
fn score_table(players: &[PlayerId], rounds: &[Round], bye: Points) -> HashMap<PlayerId, Points> {
    players.iter().map(|&p| (p, score_of(p, rounds, bye))).collect()
}

/// What `p` met in each round: `Some((opponent's score, p's points))` for a finished game,
/// `None` for a bye; unfinished games and rounds `p` missed are left out.
fn meetings(p: PlayerId, rounds: &[Round], scores: &HashMap<PlayerId, Points>) -> Vec<Option<(Points, Points)>> {
    let mut out = Vec::new();
    for r in rounds {
        if r.bye == Some(p) {
            out.push(None);
        } else if let Some(g) = r.game_of(p).filter(|g| g.outcome.is_some()) {
            let opp = g.opponent_of(p).expect("p plays in g");
            out.push(Some((scores.get(&opp).copied().unwrap_or_default(), g.points_of(p))));
        }
    }
    out
}

fn value(tb: TieBreak, p: PlayerId, rounds: &[Round], scores: &HashMap<PlayerId, Points>) -> Points {
    let met = meetings(p, rounds, scores);
    match tb {
        TieBreak::SonnebornBerger => met
            .iter()
            .flatten()
            .map(|&(opp, mine)| match mine {
                Points::WIN => opp,
                Points::DRAW => Points(opp.0 / 2),
                _ => Points::ZERO,
            })
            .sum(),
        TieBreak::Buchholz | TieBreak::BuchholzCut1 => {
            let opps: Vec<Points> = met.iter().map(|m| m.map_or(Points::ZERO, |(opp, _)| opp)).collect();
            let sum: Points = opps.iter().copied().sum();
            match (tb, opps.iter().min()) {
                (TieBreak::BuchholzCut1, Some(&low)) => Points(sum.0 - low.0),
                _ => sum,
            }
        }
    }
}

/// One tie-break value of one player, a bye scoring `bye`.
pub fn tiebreak(tb: TieBreak, p: PlayerId, players: &[PlayerId], rounds: &[Round], bye: Points) -> Points {
    value(tb, p, rounds, &score_table(players, rounds, bye))
}

/// The standings of `players` (listed in seed or registration order, the last resort for ties)
/// after `rounds`, ordered by score, then the tie-breaks of `scoring` in order, then that list order.
pub fn standings(players: &[PlayerId], rounds: &[Round], scoring: &Scoring) -> Vec<Standing> {
    standings_voiding(players, rounds, scoring, &[])
}

/// [`standings`] where the results of `void` players (and their opponents' against them) are not
/// counted: FIDE's rule for a round robin's player who withdrew before completing half their
/// games. Their games are left out for everyone (scores and tie-breaks alike), and they are listed
/// last with nothing counted.
pub fn standings_voiding(
    players: &[PlayerId],
    rounds: &[Round],
    scoring: &Scoring,
    void: &[PlayerId],
) -> Vec<Standing> {
    let kept: Vec<Round> = rounds
        .iter()
        .map(|r| Round {
            games: r.games.iter().filter(|g| !void.contains(&g.white) && !void.contains(&g.black)).copied().collect(),
            bye: r.bye.filter(|p| !void.contains(p)),
        })
        .collect();
    let rounds = &kept[..];
    let scores = score_table(players, rounds, scoring.bye);
    let mut lines: Vec<(usize, Standing)> = players
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let counted = !void.contains(&p);
            let tiebreaks = scoring.tiebreaks.iter().map(|&tb| value(tb, p, rounds, &scores)).collect();
            (i, Standing { place: 0, player: p, score: scores[&p], tiebreaks, counted })
        })
        .collect();
    lines.sort_by(|(ia, a), (ib, b)| {
        b.counted
            .cmp(&a.counted)
            .then_with(|| b.score.cmp(&a.score))
            .then_with(|| b.tiebreaks.cmp(&a.tiebreaks))
            .then_with(|| ia.cmp(ib))
    });
    lines.into_iter().enumerate().map(|(place, (_, s))| Standing { place: place + 1, ..s }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::community::roundrobin::berger;
    use crate::community::tournament::Outcome::{self, BlackWins, Draw, WhiteWins};

    fn play(rounds: &mut [Round], results: &[&[Outcome]]) {
        for (r, res) in rounds.iter_mut().zip(results) {
            assert_eq!(r.games.len(), res.len());
            for (g, &o) in r.games.iter_mut().zip(res.iter()) {
                g.outcome = Some(o);
            }
        }
    }

    /// Six players A..F = 1..6 in the FIDE Berger table; results chosen by hand.
    ///
    /// ```text
    /// R1: 1-6 1-0   2-5 ½-½   3-4 0-1
    /// R2: 6-4 ½-½   5-3 1-0   1-2 1-0
    /// R3: 2-6 1-0   3-1 ½-½   4-5 0-1
    /// R4: 6-5 0-1   1-4 ½-½   2-3 1-0
    /// R5: 3-6 1-0   4-2 0-1   5-1 ½-½
    ///
    /// Crosstable (row's points against column):
    ///       1   2   3   4   5   6   total
    ///   1   -   1   ½   ½   ½   1   3½
    ///   2   0   -   1   1   ½   1   3½
    ///   3   ½   0   -   0   0   1   1½
    ///   4   ½   0   1   -   0   ½   2
    ///   5   ½   ½   1   1   -   1   4
    ///   6   0   0   0   ½   0   -   ½
    ///
    /// SB = Σ (points against X) × (X's total):
    ///   1: 1·3½ + ½·1½ + ½·2 + ½·4 + 1·½ = 3.5 + 0.75 + 1 + 2 + 0.5 = 7.75
    ///   2: 1·1½ + 1·2 + ½·4 + 1·½        = 1.5 + 2 + 2 + 0.5      = 6
    ///   3: ½·3½ + 1·½                    = 1.75 + 0.5             = 2.25
    ///   4: ½·3½ + 1·1½ + ½·½             = 1.75 + 1.5 + 0.25      = 3.5
    ///   5: ½·3½ + ½·3½ + 1·1½ + 1·2 + 1·½ = 1.75+1.75+1.5+2+0.5  = 7.5
    ///   6: ½·2                            = 1
    /// Standings: 5 (4), then 1 and 2 on 3½ split by SB 7.75 > 6, then 4, 3, 6.
    /// ```
    #[test]
    fn six_player_round_robin_sonneborn_berger_by_hand() {
        let players = [1, 2, 3, 4, 5, 6];
        let mut rounds = berger(&players, false);
        play(
            &mut rounds,
            &[
                &[WhiteWins, Draw, BlackWins],
                &[Draw, WhiteWins, WhiteWins],
                &[WhiteWins, Draw, BlackWins],
                &[BlackWins, Draw, WhiteWins],
                &[WhiteWins, BlackWins, Draw],
            ],
        );
        let table = standings(&players, &rounds, &Scoring::ROUND_ROBIN);
        let got: Vec<(PlayerId, String, String)> =
            table.iter().map(|s| (s.player, s.score.to_string(), s.tiebreaks[0].to_string())).collect();
        let want = [(5, "4", "7½"), (1, "3½", "7¾"), (2, "3½", "6"), (4, "2", "3½"), (3, "1½", "2¼"), (6, "½", "1")];
        let want: Vec<(PlayerId, String, String)> =
            want.iter().map(|&(p, s, t)| (p, s.to_string(), t.to_string())).collect();
        assert_eq!(got, want);
        assert_eq!(table.iter().map(|s| s.place).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    }

    /// A voided player's games count for nobody: 1 beat 3, 3 beat 2, 2 drew 1; with 3's results
    /// voided, 1 and 2 have ½ each (their draw), 3 is last with nothing counted.
    #[test]
    fn voided_results_count_for_nobody() {
        use crate::community::tournament::Game;
        let g = |white, black, o| Game { white, black, outcome: Some(o) };
        let rounds = vec![
            Round { games: vec![g(1, 3, WhiteWins)], bye: Some(2) },
            Round { games: vec![g(3, 2, WhiteWins)], bye: Some(1) },
            Round { games: vec![g(2, 1, Draw)], bye: Some(3) },
        ];
        let s = standings_voiding(&[1, 2, 3], &rounds, &Scoring::ROUND_ROBIN, &[3]);
        let got: Vec<_> = s.iter().map(|s| (s.player, s.score, s.tiebreaks[0], s.counted)).collect();
        assert_eq!(
            got,
            [
                (1, Points::DRAW, Points(1), true),
                (2, Points::DRAW, Points(1), true),
                (3, Points::ZERO, Points::ZERO, false)
            ]
        );
        // Counted, 1 would lead with 1½ against 3's 1.
        assert_eq!(standings(&[1, 2, 3], &rounds, &Scoring::ROUND_ROBIN)[0].score, Points(6));
    }

    #[test]
    fn bye_is_a_point_and_a_zero_opponent_for_buchholz() {
        use crate::community::tournament::Game;
        // 1 beats 2, 3 has the bye; then 3 beats 1, 2 has the bye.
        let rounds = vec![
            Round { games: vec![Game { white: 1, black: 2, outcome: Some(WhiteWins) }], bye: Some(3) },
            Round { games: vec![Game { white: 3, black: 1, outcome: Some(WhiteWins) }], bye: Some(2) },
        ];
        let players = [1, 2, 3];
        // Scores: 1 → 1, 2 → 1 (bye), 3 → 2. Buchholz of 3: bye (0) + 1's 1 = 1; cut-1 drops the 0.
        let bye = Scoring::SWISS.bye;
        assert_eq!(tiebreak(TieBreak::Buchholz, 3, &players, &rounds, bye), Points::WIN);
        assert_eq!(tiebreak(TieBreak::BuchholzCut1, 3, &players, &rounds, bye), Points::WIN);
        // 1 met 2 (1) and 3 (2): 3, cut-1 2.
        assert_eq!(tiebreak(TieBreak::Buchholz, 1, &players, &rounds, bye), Points(12));
        assert_eq!(tiebreak(TieBreak::BuchholzCut1, 1, &players, &rounds, bye), Points(8));
        // Sonneborn–Berger of 3: beat 1 (1 point); the bye adds nothing.
        assert_eq!(tiebreak(TieBreak::SonnebornBerger, 3, &players, &rounds, bye), Points::WIN);
        // Without bye points 2 has nothing and 3 one point: 1's Buchholz is 0 + 1.
        assert_eq!(tiebreak(TieBreak::Buchholz, 1, &players, &rounds, Points::ZERO), Points::WIN);
        // Full tie on score and tie-breaks falls back to list order.
        let none: Vec<Round> = Vec::new();
        let s = standings(&[9, 4, 7], &none, &Scoring::SWISS);
        assert_eq!(s.iter().map(|s| s.player).collect::<Vec<_>>(), [9, 4, 7]);
    }
}
