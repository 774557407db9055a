//! Swiss tournaments: a fixed number of rounds, each paired from the results so far.
//!
//! # The pairing rule
//!
//! The pairing is deterministic: the same players and results always give the same round.
//!
//! 1. **Ranking.** Players are ranked by score, then by their place in the player list (the seed:
//!    rating or registration order, as the caller chose). A bye scores a full point.
//! 2. **The bye.** With an odd number of players the bye goes to the lowest-ranked player who has
//!    not had one (once everyone has had one: who has had the fewest) and for whom the others can
//!    still be paired; the next one up is tried when they cannot.
//! 3. **Hard rules.** Two players never meet twice, and after the round every player's colour
//!    difference (whites − blacks) stays within ±2.
//! 4. **Soft rule.** No one gets the same colour three times in a row. The whole search is first
//!    made with this rule; only when no pairing satisfies it is it searched again without it.
//! 5. **Search.** The highest-ranked unpaired player takes the first partner, in the order below,
//!    with which the remaining players can still be paired (backtracking, with the check that
//!    everyone left still has a possible partner). Partners are preferred
//!    - closest in score (same score group first, then the next groups down);
//!    - then where both can get the colour they want;
//!    - then, within a score group, closest to the "fold" partner: the player at position `i` of a
//!      group of `g` wants the one at position `i + ⌊g/2⌋` (top half against bottom half, as in the
//!      Dutch system: 1–5, 2–6, 3–7, 4–8 in the first round of eight); in lower groups, the top one;
//!    - then by rank.
//!
//!    The search gives up after [`SEARCH_LIMIT`] steps; at up to 64 players that is only reached
//!    when no pairing exists.
//! 6. **Colours.** A player wants the colour that evens their difference (absolutely when it is
//!    ±2 or after the same colour twice), else the one they did not have last. When both want the
//!    same colour the stronger wish wins, then the higher-ranked player. Where neither has played,
//!    the higher-ranked player has white on odd boards and black on even ones (board 1: white).
//!
//! Boards are ordered by the higher score in the pair, then by the better rank.

use super::PlayerId;
use super::tiebreak::{Scoring, Standing, standings};
use super::tournament::{Game, Points, Round};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Search steps allowed per attempt before a pairing is declared impossible.
pub const SEARCH_LIMIT: u64 = 200_000;

/// The largest field the pairing is known to handle within [`SEARCH_LIMIT`] (see the module's
/// notes on the search).
pub const PLAYERS_PAIRED: usize = 64;

/// The most rounds a Swiss may be created with: as many as [`PLAYERS_PAIRED`] players can play
/// without a rematch, the same cap ([`Swiss::max_rounds`]) its start applies to its real field.
pub const MAX_ROUNDS: usize = Swiss::max_rounds(PLAYERS_PAIRED);

/// A Swiss tournament: its players in seed order and its number of rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swiss {
    players: Vec<PlayerId>,
    rounds: usize,
}

/// Why a Swiss round could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// Fewer than two players.
    TooFewPlayers,
    /// A player is listed twice.
    DuplicatePlayer(PlayerId),
    /// More rounds than there are opponents to meet.
    TooManyRounds { rounds: usize, max: usize },
    /// The given round has games without a result.
    RoundIncomplete(usize),
    /// All rounds have been played.
    Finished,
    /// A round names someone who is not in the tournament.
    UnknownPlayer(PlayerId),
    /// No pairing keeps players from meeting twice within the colour limits.
    NoPairing,
}

impl SwissError {
    /// What the people in the chat are told, by message id.
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::msg;
        match self {
            SwissError::TooFewPlayers => msg!("swiss-too-few"),
            SwissError::DuplicatePlayer(_) => msg!("swiss-duplicate"),
            SwissError::TooManyRounds { rounds, max } => msg!("swiss-too-many-rounds", rounds = *rounds, max = *max),
            SwissError::RoundIncomplete(r) => msg!("swiss-round-incomplete", round = *r),
            SwissError::Finished => msg!("swiss-finished"),
            SwissError::UnknownPlayer(_) => msg!("swiss-unknown-player"),
            SwissError::NoPairing => msg!("swiss-no-pairing"),
        }
    }
}

impl fmt::Display for SwissError {
    /// In English (logs); people read [`SwissError::msg`] in their language.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.msg())
    }
}

impl std::error::Error for SwissError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    White,
    Black,
}

/// What one player brings to the pairing of the next round.
#[derive(Clone, Debug)]
struct Entry {
    id: PlayerId,
    seed: usize,
    score: Points,
    colours: Vec<Colour>,
    opponents: HashSet<PlayerId>,
    byes: usize,
}

impl Entry {
    fn difference(&self) -> i32 {
        self.colours.iter().map(|c| if *c == Colour::White { 1 } else { -1 }).sum()
    }

    /// The colour this player wants and how strongly (3 absolute, 2 strong, 1 mild).
    fn wish(&self) -> Option<(Colour, u8)> {
        let last = *self.colours.last()?;
        let other = if last == Colour::White { Colour::Black } else { Colour::White };
        let twice = self.colours.len() >= 2 && self.colours[self.colours.len() - 2] == last;
        match self.difference() {
            d if d <= -2 => Some((Colour::White, 3)),
            d if d >= 2 => Some((Colour::Black, 3)),
            _ if twice => Some((other, 3)),
            -1 => Some((Colour::White, 2)),
            1 => Some((Colour::Black, 2)),
            _ => Some((other, 1)),
        }
    }

    /// Whether taking `c` keeps the hard rule, and with `strict` the soft one too.
    fn may_take(&self, c: Colour, strict: bool) -> bool {
        let d = self.difference() + if c == Colour::White { 1 } else { -1 };
        let n = self.colours.len();
        let third = n >= 2 && self.colours[n - 1] == c && self.colours[n - 2] == c;
        d.abs() <= 2 && !(strict && third)
    }
}

/// How a possible pair would be coloured: the higher-ranked player's colour, or `None` while
/// neither has played (settled by board number).
type Allocation = Option<Colour>;

/// Whether `a` (higher-ranked) and `b` may meet, and with which colours; and whether both get
/// the colour they want.
fn allocate(a: &Entry, b: &Entry, strict: bool) -> Option<(Allocation, bool)> {
    if a.opponents.contains(&b.id) {
        return None;
    }
    let (wa, wb) = (a.wish(), b.wish());
    let preferred = match (wa, wb) {
        (None, None) => return Some((None, true)),
        (Some((ca, _)), None) => ca,
        (None, Some((cb, _))) => flip(cb),
        (Some((ca, sa)), Some((cb, sb))) => {
            if ca != cb || sa >= sb {
                ca
            } else {
                flip(cb)
            }
        }
    };
    let happy = !matches!((wa, wb), (Some((ca, _)), Some((cb, _))) if ca == cb);
    for ca in [preferred, flip(preferred)] {
        if a.may_take(ca, strict) && b.may_take(flip(ca), strict) {
            return Some((Some(ca), happy && ca == preferred));
        }
    }
    None
}

fn flip(c: Colour) -> Colour {
    if c == Colour::White { Colour::Black } else { Colour::White }
}

impl Swiss {
    /// A Swiss of `rounds` rounds among `players`, listed in seed order (the last tie-break).
    pub fn new(players: Vec<PlayerId>, rounds: usize) -> Result<Swiss, SwissError> {
        if players.len() < 2 {
            return Err(SwissError::TooFewPlayers);
        }
        let mut seen = HashSet::new();
        if let Some(&p) = players.iter().find(|p| !seen.insert(**p)) {
            return Err(SwissError::DuplicatePlayer(p));
        }
        let max = Swiss::max_rounds(players.len());
        if rounds == 0 || rounds > max {
            return Err(SwissError::TooManyRounds { rounds, max });
        }
        Ok(Swiss { players, rounds })
    }

    /// The most rounds `n` players can play without a rematch: `n − 1`, or `n` when odd.
    pub const fn max_rounds(n: usize) -> usize {
        if n.is_multiple_of(2) { n.saturating_sub(1) } else { n }
    }

    /// The players in seed order.
    pub fn players(&self) -> &[PlayerId] {
        &self.players
    }

    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The standings after `played`, with Buchholz and Buchholz cut-1.
    pub fn standings(&self, played: &[Round]) -> Vec<Standing> {
        standings(&self.players, played, &Scoring::SWISS)
    }

    /// Pairs the next round after the finished rounds `played`.
    pub fn pair_next(&self, played: &[Round]) -> Result<Round, SwissError> {
        self.pair_next_without(played, &[])
    }

    /// [`Swiss::pair_next`] leaving out the players of `absent` (withdrawn): their past games still
    /// count (their opponents met them, their scores rank them), but they are paired no more and
    /// take no bye.
    pub fn pair_next_without(&self, played: &[Round], absent: &[PlayerId]) -> Result<Round, SwissError> {
        if played.len() >= self.rounds {
            return Err(SwissError::Finished);
        }
        let mut entries = self.entries(played)?;
        entries.retain(|e| !absent.contains(&e.id));
        if entries.len() < 2 {
            return Err(SwissError::TooFewPlayers);
        }
        // Rank: score, then seed.
        entries.sort_by(|a, b| b.score.cmp(&a.score).then(a.seed.cmp(&b.seed)));
        let all: Vec<usize> = (0..entries.len()).collect();
        let bye_candidates: Vec<Option<usize>> = if entries.len() % 2 == 0 {
            vec![None]
        } else {
            let fewest = entries.iter().map(|e| e.byes).min().unwrap_or(0);
            all.iter().rev().filter(|&&i| entries[i].byes == fewest).map(|&i| Some(i)).collect()
        };
        for bye in bye_candidates {
            let rest: Vec<usize> = all.iter().copied().filter(|&i| Some(i) != bye).collect();
            for strict in [true, false] {
                if let Some(pairs) = Search::new(&entries, &rest, strict).run() {
                    return Ok(self.make_round(&entries, pairs, bye));
                }
            }
        }
        Err(SwissError::NoPairing)
    }

    fn entries(&self, played: &[Round]) -> Result<Vec<Entry>, SwissError> {
        let index: HashMap<PlayerId, usize> = self.players.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let mut entries: Vec<Entry> = self
            .players
            .iter()
            .enumerate()
            .map(|(seed, &id)| Entry {
                id,
                seed,
                score: Points::ZERO,
                colours: Vec::new(),
                opponents: HashSet::new(),
                byes: 0,
            })
            .collect();
        let at = |p: PlayerId| index.get(&p).copied().ok_or(SwissError::UnknownPlayer(p));
        for (r, round) in played.iter().enumerate() {
            if !round.is_complete() {
                return Err(SwissError::RoundIncomplete(r + 1));
            }
            if let Some(p) = round.bye {
                let e = &mut entries[at(p)?];
                e.byes += 1;
                e.score += Scoring::SWISS.bye;
            }
            for g in &round.games {
                let (w, b) = (at(g.white)?, at(g.black)?);
                for (i, me, opp, c) in [(w, g.white, g.black, Colour::White), (b, g.black, g.white, Colour::Black)] {
                    let e = &mut entries[i];
                    e.score += g.points_of(me);
                    e.colours.push(c);
                    e.opponents.insert(opp);
                }
            }
        }
        Ok(entries)
    }

    fn make_round(&self, entries: &[Entry], mut pairs: Vec<(usize, usize, Allocation)>, bye: Option<usize>) -> Round {
        // Indices are ranks, so the better rank of a pair is its first index.
        pairs.sort_by_key(|&(a, b, _)| (std::cmp::Reverse(entries[a].score.max(entries[b].score)), a.min(b)));
        let games = pairs
            .iter()
            .enumerate()
            .map(|(board, &(a, b, alloc))| {
                let a_white = alloc.map_or(board % 2 == 0, |c| c == Colour::White);
                let (w, bl) = if a_white { (a, b) } else { (b, a) };
                Game::new(entries[w].id, entries[bl].id)
            })
            .collect();
        Round { games, bye: bye.map(|i| entries[i].id) }
    }
}

/// How a partner is preferred (smaller first): score difference, colour clash, distance from the
/// fold partner, rank.
type CandidateKey = (u32, bool, usize, usize);

/// The backtracking search for one pairing of `players` (indices into the ranked entries).
struct Search<'a> {
    entries: &'a [Entry],
    players: Vec<usize>,
    /// `allowed[i][j]`: colours and happiness when ranked players i < j meet.
    allowed: Vec<Vec<Option<(Allocation, bool)>>>,
    /// Each player's score group: (position in it, its size).
    group: Vec<(usize, usize)>,
    used: Vec<bool>,
    steps: u64,
}

impl<'a> Search<'a> {
    fn new(entries: &'a [Entry], players: &[usize], strict: bool) -> Search<'a> {
        let n = entries.len();
        let mut allowed = vec![vec![None; n]; n];
        for &i in players {
            for &j in players.iter().filter(|&&j| j > i) {
                allowed[i][j] = allocate(&entries[i], &entries[j], strict);
            }
        }
        let mut group = vec![(0, 0); n];
        for chunk in players.chunk_by(|&a, &b| entries[a].score == entries[b].score) {
            for (pos, &i) in chunk.iter().enumerate() {
                group[i] = (pos, chunk.len());
            }
        }
        let mut used = vec![true; n];
        for &i in players {
            used[i] = false;
        }
        Search { entries, players: players.to_vec(), allowed, group, used, steps: 0 }
    }

    fn pair(&self, i: usize, j: usize) -> Option<(Allocation, bool)> {
        if i < j { self.allowed[i][j] } else { self.allowed[j][i] }
    }

    fn run(mut self) -> Option<Vec<(usize, usize, Allocation)>> {
        let mut out = Vec::with_capacity(self.players.len() / 2);
        self.step(&mut out).then_some(out)
    }

    fn step(&mut self, out: &mut Vec<(usize, usize, Allocation)>) -> bool {
        let Some(p) = self.players.iter().copied().find(|&i| !self.used[i]) else { return true };
        self.steps += 1;
        if self.steps > SEARCH_LIMIT {
            return false;
        }
        let (pos, size) = self.group[p];
        let fold = if pos < size / 2 { pos + size / 2 } else { pos + 1 };
        let score = self.entries[p].score;
        let mut candidates: Vec<(usize, Allocation, CandidateKey)> = self
            .players
            .iter()
            .copied()
            .filter(|&q| q != p && !self.used[q])
            .filter_map(|q| {
                let (alloc, happy) = self.pair(p, q)?;
                let (qpos, _) = self.group[q];
                let same_group = self.entries[q].score == score;
                let distance = if same_group { qpos.abs_diff(fold) } else { qpos };
                Some((q, alloc, (score.0.abs_diff(self.entries[q].score.0), !happy, distance, q)))
            })
            .collect();
        candidates.sort_by_key(|c| c.2);
        self.used[p] = true;
        for (q, alloc, _) in candidates {
            self.used[q] = true;
            out.push((p, q, alloc));
            if self.everyone_has_a_partner() && self.step(out) {
                return true;
            }
            out.pop();
            self.used[q] = false;
            if self.steps > SEARCH_LIMIT {
                break;
            }
        }
        self.used[p] = false;
        false
    }

    fn everyone_has_a_partner(&self) -> bool {
        let open: Vec<usize> = self.players.iter().copied().filter(|&i| !self.used[i]).collect();
        open.iter().all(|&i| open.iter().any(|&j| j != i && self.pair(i, j).is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::community::tournament::Outcome::{self, BlackWins, Draw, WhiteWins};
    use proptest::prelude::*;

    fn pairs(r: &Round) -> Vec<(PlayerId, PlayerId)> {
        r.games.iter().map(|g| (g.white, g.black)).collect()
    }

    /// Plays `results` (board by board) into `round`.
    fn finish(mut round: Round, results: &[Outcome]) -> Round {
        assert_eq!(round.games.len(), results.len());
        for (g, &o) in round.games.iter_mut().zip(results) {
            g.outcome = Some(o);
        }
        round
    }

    /// Checks the hard rules over a whole tournament: no rematch, colour difference within ±2,
    /// everyone in each round exactly once, at most one bye each while someone has none.
    fn check_rules(players: &[PlayerId], rounds: &[Round]) {
        let mut met = HashSet::new();
        let mut diff: HashMap<PlayerId, i32> = HashMap::new();
        let mut byes: HashMap<PlayerId, usize> = HashMap::new();
        for (i, r) in rounds.iter().enumerate() {
            let mut seen = HashSet::new();
            for g in &r.games {
                assert!(met.insert((g.white.min(g.black), g.white.max(g.black))), "round {}: rematch {g:?}", i + 1);
                assert!(seen.insert(g.white) && seen.insert(g.black));
                *diff.entry(g.white).or_default() += 1;
                *diff.entry(g.black).or_default() -= 1;
            }
            if let Some(b) = r.bye {
                assert!(seen.insert(b));
                *byes.entry(b).or_default() += 1;
            }
            assert_eq!(seen.len(), players.len());
            assert!(diff.values().all(|d| d.abs() <= 2), "round {}: {diff:?}", i + 1);
        }
        if rounds.len() < players.len() {
            assert!(byes.values().all(|&b| b <= 1), "{byes:?}");
        }
    }

    /// Eight players 1..8 (seed order), five rounds. Round 1 is 1-5 1-0, 6-2 0-1, 3-7 ½-½,
    /// 8-4 0-1; from round 2 on the lower number always wins.
    ///
    /// ```text
    /// R1 everyone on 0: fold 1–5, 2–6, 3–7, 4–8; the higher-ranked has white on odd boards.
    /// R2 {1, 2, 4} on 1: 1 takes its fold partner 2 (1 wants black, 2 white); 4 drops to {3, 7}
    ///    on ½ and takes 3 (4 wants white, 3 black; 7 also wants white); 7 meets the top of
    ///    {5, 6, 8} who wants black (6); 5–8 is left.       2-1 0-1  4-3 0-1  7-6 0-1  5-8 1-0
    /// R3 1 (2) meets 3 (1½), the closest score; both mildly want white, the higher rank gets it.
    ///    In {2, 4, 5, 6} all but 6 want black and 2 has met 6: 2 takes its fold partner 5 and,
    ///    ranked higher, black; 6–4; 8–7.                 1-3 1-0  5-2 0-1  6-4 0-1  8-7 0-1
    /// R4                                                  4-1 0-1  3-2 0-1  7-5 0-1  8-6 0-1
    /// R5                                                  1-6 1-0  2-7 1-0  5-4 0-1  3-8 1-0
    ///
    /// Scores: 1 = 5, 2 = 4, 4 = 3, 3 = 2½, 5 = 2, 6 = 2, 7 = 1½, 8 = 0 (20 games, 20 points).
    /// Buchholz (sum of opponents' scores) and cut-1 (less the lowest):
    ///   1: 5, 2, 3, 4, 6 → 2 + 4 + 2½ + 3 + 2   = 13½; − 2   = 11½
    ///   2: 6, 1, 5, 3, 7 → 2 + 5 + 2 + 2½ + 1½  = 13;  − 1½  = 11½
    ///   4: 8, 3, 6, 1, 5 → 0 + 2½ + 2 + 5 + 2   = 11½; − 0   = 11½
    ///   3: 7, 4, 1, 2, 8 → 1½ + 3 + 5 + 4 + 0   = 13½; − 0   = 13½
    ///   5: 1, 8, 2, 7, 4 → 5 + 0 + 4 + 1½ + 3   = 13½; − 0   = 13½
    ///   6: 2, 7, 4, 8, 1 → 4 + 1½ + 3 + 0 + 5   = 13½; − 0   = 13½
    ///   7: 3, 6, 8, 5, 2 → 2½ + 2 + 0 + 2 + 4   = 10½; − 0   = 10½
    ///   8: 4, 5, 7, 6, 3 → 3 + 2 + 1½ + 2 + 2½  = 11;  − 1½  = 9½
    /// 5 and 6 tie on score and both tie-breaks: seed order puts 5 first.
    /// ```
    #[test]
    fn eight_player_swiss_by_hand() {
        let players: Vec<PlayerId> = (1..=8).collect();
        let swiss = Swiss::new(players.clone(), 5).unwrap();
        let expected: [[(PlayerId, PlayerId); 4]; 5] = [
            [(1, 5), (6, 2), (3, 7), (8, 4)],
            [(2, 1), (4, 3), (7, 6), (5, 8)],
            [(1, 3), (5, 2), (6, 4), (8, 7)],
            [(4, 1), (3, 2), (7, 5), (8, 6)],
            [(1, 6), (2, 7), (5, 4), (3, 8)],
        ];
        let mut played = Vec::new();
        for (r, want) in expected.iter().enumerate() {
            let round = swiss.pair_next(&played).unwrap();
            assert_eq!(pairs(&round), want, "round {}", r + 1);
            assert_eq!(round.bye, None);
            let results: Vec<Outcome> = if r == 0 {
                vec![WhiteWins, BlackWins, Draw, BlackWins]
            } else {
                round.games.iter().map(|g| if g.white < g.black { WhiteWins } else { BlackWins }).collect()
            };
            played.push(finish(round, &results));
        }
        assert_eq!(swiss.pair_next(&played), Err(SwissError::Finished));
        check_rules(&players, &played);
        let table: Vec<(PlayerId, String, String, String)> = swiss
            .standings(&played)
            .iter()
            .map(|s| (s.player, s.score.to_string(), s.tiebreaks[0].to_string(), s.tiebreaks[1].to_string()))
            .collect();
        let want = [
            (1, "5", "13½", "11½"),
            (2, "4", "13", "11½"),
            (4, "3", "11½", "11½"),
            (3, "2½", "13½", "13½"),
            (5, "2", "13½", "13½"),
            (6, "2", "13½", "13½"),
            (7, "1½", "10½", "10½"),
            (8, "0", "11", "9½"),
        ];
        let want: Vec<(PlayerId, String, String, String)> =
            want.iter().map(|&(p, a, b, c)| (p, a.into(), b.into(), c.into())).collect();
        assert_eq!(table, want);
    }

    /// 1 and 2 both won with black, white, white and lead alone: pairing the leaders would give
    /// one of them a third white in a row, so they meet others.
    #[test]
    fn three_in_a_row_is_avoided() {
        let g = |white, black, outcome| Game { white, black, outcome: Some(outcome) };
        let history = vec![
            Round { games: vec![g(3, 1, BlackWins), g(4, 2, BlackWins), g(6, 5, Draw)], bye: None },
            Round { games: vec![g(1, 5, WhiteWins), g(2, 6, WhiteWins), g(3, 4, Draw)], bye: None },
            Round { games: vec![g(1, 6, WhiteWins), g(2, 3, WhiteWins), g(5, 4, Draw)], bye: None },
        ];
        let swiss = Swiss::new((1..=6).collect(), 4).unwrap();
        let round = swiss.pair_next(&history).unwrap();
        // The only such pairing: 4-1, 5-2, 6-3, everyone with the colour they want.
        assert_eq!(pairs(&round), [(4, 1), (5, 2), (6, 3)]);
        let mut all = history.clone();
        all.push(round);
        check_rules(&[1, 2, 3, 4, 5, 6], &all);
        for p in 1..=6 {
            let c: Vec<bool> = all.iter().map(|r| r.game_of(p).unwrap().white == p).collect();
            assert!(c.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])), "{p}: {c:?}");
        }
    }

    #[test]
    fn odd_field_gives_the_bye_to_the_lowest_without_one() {
        let swiss = Swiss::new(vec![1, 2, 3], 3).unwrap();
        let r1 = swiss.pair_next(&[]).unwrap();
        assert_eq!((pairs(&r1), r1.bye), (vec![(1, 2)], Some(3)));
        let played = vec![finish(r1, &[WhiteWins])];
        // 3 (1 point from the bye) now ranks second; 2 (0) is lowest without a bye.
        let r2 = swiss.pair_next(&played).unwrap();
        assert_eq!(r2.bye, Some(2));
        assert_eq!(pairs(&r2), [(3, 1)]);
    }

    /// A withdrawn player is paired no more and takes no bye; their game still counts for the
    /// others (no rematch with them, their score ranks them).
    #[test]
    fn the_absent_are_not_paired() {
        let swiss = Swiss::new(vec![1, 2, 3, 4, 5], 3).unwrap();
        let r1 = swiss.pair_next(&[]).unwrap();
        assert_eq!(r1.bye, Some(5));
        let played = vec![finish(r1, &[WhiteWins, WhiteWins])];
        let r2 = swiss.pair_next_without(&played, &[5]).unwrap();
        assert!(r2.bye.is_none() && r2.games.len() == 2, "{r2:?}");
        assert!(r2.games.iter().all(|g| g.white != 5 && g.black != 5), "{r2:?}");
        assert_eq!(swiss.pair_next_without(&played, &[1, 2, 3, 4]), Err(SwissError::TooFewPlayers));
    }

    #[test]
    fn errors() {
        assert_eq!(Swiss::new(vec![1], 1), Err(SwissError::TooFewPlayers));
        assert_eq!(Swiss::new(vec![1, 2, 1], 1), Err(SwissError::DuplicatePlayer(1)));
        assert_eq!(Swiss::new(vec![1, 2, 3, 4], 4), Err(SwissError::TooManyRounds { rounds: 4, max: 3 }));
        let swiss = Swiss::new(vec![1, 2], 1).unwrap();
        let r1 = swiss.pair_next(&[]).unwrap();
        assert_eq!(swiss.pair_next(std::slice::from_ref(&r1)), Err(SwissError::Finished));
        let swiss = Swiss::new(vec![1, 2, 3, 4], 3).unwrap();
        assert_eq!(swiss.pair_next(&[r1]), Err(SwissError::RoundIncomplete(1)));
        let stranger = Round { games: vec![Game { white: 9, black: 1, outcome: Some(Draw) }], bye: None };
        assert_eq!(swiss.pair_next(&[stranger]), Err(SwissError::UnknownPlayer(9)));
        assert!(SwissError::TooManyRounds { rounds: 4, max: 3 }.to_string().contains("at most 3"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_results_keep_the_rules(n in 2usize..=20, seed in any::<u64>()) {
            let players: Vec<PlayerId> = (1..=n as PlayerId).map(|p| p * 10).collect();
            let rounds = Swiss::max_rounds(n).min(n.div_ceil(2));
            let swiss = Swiss::new(players.clone(), rounds).unwrap();
            let mut played = Vec::new();
            let mut state = seed;
            for _ in 0..rounds {
                let round = swiss.pair_next(&played).expect("a pairing exists this early");
                let results: Vec<Outcome> = round.games.iter().map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    [WhiteWins, BlackWins, Draw][(state >> 33) as usize % 3]
                }).collect();
                played.push(finish(round, &results));
                check_rules(&players, &played);
            }
        }
    }
}
