//! Round-robin schedules from Berger tables, as FIDE prints them.
//!
//! Players are numbered by their place in the list (seed 1 first). With an odd number a phantom
//! last number is added and whoever is drawn against it has the bye. For `n` (even) numbers,
//! number `n` meets in round `r` the number `a` with `2(a − 1) ≡ r − 1 (mod n − 1)`, black in odd
//! rounds and white in even ones; on the other boards `a + k` has white against `a − k` (numbers
//! taken cyclically in `1..n`). This reproduces FIDE's tables: for four players 1–4, 2–3 / 4–3,
//! 1–2 / 2–4, 3–1, which balance colours (no one's difference exceeds one).
//!
//! A double round robin plays the same cycle again with colours reversed.

use super::PlayerId;
use super::tournament::{Game, Round};

/// The rounds of a round robin among `players` (in seed order): `n − 1` rounds for even `n`, `n`
/// for odd `n` (one bye each), doubled with colours reversed when `double`.
///
/// ```
/// use capabot::community::roundrobin::berger;
/// let rounds = berger(&[10, 20, 30, 40], false);
/// assert_eq!((rounds[0].games[0].white, rounds[0].games[0].black), (10, 40));
/// ```
pub fn berger(players: &[PlayerId], double: bool) -> Vec<Round> {
    if players.len() < 2 {
        return Vec::new();
    }
    // Numbers 1..=n; `None` is the phantom opponent of an odd field.
    let n = players.len() + players.len() % 2;
    let who = |number: usize| players.get(number - 1).copied();
    let m = n - 1;
    let half = m.div_ceil(2); // the inverse of 2 modulo the odd m
    let wrap = |x: usize| (x + m - 1) % m + 1;
    let mut rounds = Vec::with_capacity(m * if double { 2 } else { 1 });
    for r in 1..=m {
        let a = ((r - 1) * half) % m + 1;
        let mut round = Round::default();
        let mut pair = |white: usize, black: usize| match (who(white), who(black)) {
            (Some(w), Some(b)) => round.games.push(Game::new(w, b)),
            (Some(p), None) | (None, Some(p)) => round.bye = Some(p),
            (None, None) => unreachable!("only one phantom"),
        };
        if r % 2 == 1 {
            pair(a, n)
        } else {
            pair(n, a)
        }
        for k in 1..n / 2 {
            pair(wrap(a + k), wrap(a + m - k));
        }
        rounds.push(round);
    }
    if double {
        let second: Vec<Round> = rounds
            .iter()
            .map(|r| Round { games: r.games.iter().map(|g| Game::new(g.black, g.white)).collect(), bye: r.bye })
            .collect();
        rounds.extend(second);
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    fn table(rounds: &[Round]) -> Vec<String> {
        rounds
            .iter()
            .map(|r| r.games.iter().map(|g| format!("{}-{}", g.white, g.black)).collect::<Vec<_>>().join(" "))
            .collect()
    }

    #[test]
    fn six_players_match_fides_berger_table() {
        let rounds = berger(&[1, 2, 3, 4, 5, 6], false);
        assert_eq!(table(&rounds), ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]);
        assert!(rounds.iter().all(|r| r.bye.is_none()));
    }

    #[test]
    fn five_players_sit_out_against_the_phantom() {
        let rounds = berger(&[1, 2, 3, 4, 5], false);
        assert_eq!(table(&rounds), ["2-5 3-4", "5-3 1-2", "3-1 4-5", "1-4 2-3", "4-2 5-1"]);
        let byes: Vec<_> = rounds.iter().map(|r| r.bye.unwrap()).collect();
        assert_eq!(byes, [1, 4, 2, 5, 3]);
    }

    #[test]
    fn every_pair_meets_once_with_balanced_colours() {
        for n in 2..=17 {
            let players: Vec<PlayerId> = (1..=n).collect();
            let rounds = berger(&players, false);
            assert_eq!(rounds.len() as i64, if n % 2 == 0 { n - 1 } else { n });
            let mut pairs = HashSet::new();
            let mut diff: HashMap<PlayerId, i64> = HashMap::new();
            for r in &rounds {
                let mut seen = HashSet::new();
                for g in &r.games {
                    assert!(pairs.insert((g.white.min(g.black), g.white.max(g.black))), "n={n}: repeat");
                    assert!(seen.insert(g.white) && seen.insert(g.black));
                    *diff.entry(g.white).or_default() += 1;
                    *diff.entry(g.black).or_default() -= 1;
                }
                assert_eq!(seen.len() + usize::from(r.bye.is_some()), n as usize);
            }
            assert_eq!(pairs.len() as i64, n * (n - 1) / 2);
            assert!(diff.values().all(|d| d.abs() <= 1), "n={n}: {diff:?}");
        }
    }

    #[test]
    fn double_round_robin_reverses_colours() {
        let rounds = berger(&[7, 8, 9, 10], true);
        assert_eq!(rounds.len(), 6);
        for (a, b) in rounds[..3].iter().zip(&rounds[3..]) {
            for (x, y) in a.games.iter().zip(&b.games) {
                assert_eq!((x.white, x.black), (y.black, y.white));
            }
        }
        assert!(berger(&[1], true).is_empty());
    }
}
