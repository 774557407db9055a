//! Analysis tooling: the speed of a whole game's analysis (`lab bench-analysis`) and the fit of a
//! variant's win curve (`lab fit-curve`).
//!
//! The games are played by capabot against itself from a random opening ([`crate::arena::random_opening`])
//! at level 4 (5,000 nodes a move, a little noise), so they are varied, realistic and reproducible
//! for a seed. The curve is fitted as the tuning tools fit their scale: each position of a self-play
//! game is labelled with the game's result, and the slope `k` of `1/(1 + e^(−k·cp))` that best
//! predicts the results from the analysis's scores (least log-loss, golden-section search) is the fit.

use crate::arena::random_opening;
use capabot::ai::analysis::{Analysis, Score, WinCurve, analyse};
use capabot::ai::{Limits, best_move_in_game};
use capabot::rules::{Color, Game, Variant};
use std::time::{Duration, Instant};

/// A self-play game of exactly `plies` plies (a longer one cut there), or the longest found in a
/// few tries if none is that long; reproducible for a seed.
pub fn self_play_game(v: &'static Variant, plies: usize, seed: u64) -> Game {
    let mut best = Game::new(random_opening(v, 0, seed).start().clone());
    for attempt in 0..8u64 {
        let s = seed.wrapping_mul(31).wrapping_add(attempt);
        let mut game = random_opening(v, 4, s);
        while game.moves().len() < plies && game.outcome().is_none() {
            let limits = Limits::for_level(4).with_seed(s.wrapping_add(game.moves().len() as u64));
            let limits = Limits { movetime: None, soft_movetime: None, ..limits };
            let Some(m) = best_move_in_game(&game, &limits).best else { break };
            if !game.play(m) {
                break;
            }
        }
        if game.moves().len() >= plies {
            return game;
        }
        if game.moves().len() > best.moves().len() {
            best = game;
        }
    }
    best
}

/// The machine's load average over the last minute (Linux), for beside a time measured on a shared
/// machine.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs.get(xs.len() / 2).copied().unwrap_or_default()
}

/// `bench-analysis`: the time to analyse a self-play game of `plies` plies of `v` at `nodes` per
/// position (0: the default) on this thread, `runs` times; one line.
pub fn bench(v: &'static Variant, plies: usize, nodes: u64, runs: usize, goal: Option<Duration>) -> String {
    let game = self_play_game(v, plies, 1);
    let mut times = Vec::new();
    let mut analysis: Option<Analysis> = None;
    let load_before = load_average();
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let a = analyse(&game, nodes, &mut |_, _| {});
        times.push(t.elapsed());
        analysis = a.ok();
    }
    let load_after = load_average();
    let Some(a) = analysis else { return format!("{}: the game could not be analysed", v.name) };
    let (min, max) = (times.iter().min().copied().unwrap_or_default(), times.iter().max().copied().unwrap_or_default());
    let med = median(times);
    let w = a.summary(Color::White);
    let b = a.summary(Color::Black);
    let goal_text = goal.map_or(String::new(), |g| {
        format!(" goal ≤ {:.0} s: {}", g.as_secs_f64(), if med <= g { "met" } else { "NOT met" })
    });
    let load = |l: Option<f64>| l.map_or("?".to_string(), |l| format!("{l:.2}"));
    format!(
        "{:<14} {:>4} plies {:>7} nodes/position  median {:>6.2} s (min {:.2}, max {:.2}, {} runs)  load {} → {}  \
         accuracy W {:.0}% B {:.0}%, blunders W {} B {}{goal_text}",
        v.name,
        game.moves().len(),
        a.nodes,
        med.as_secs_f64(),
        min.as_secs_f64(),
        max.as_secs_f64(),
        runs.max(1),
        load(load_before),
        load(load_after),
        w.accuracy.unwrap_or(0.0),
        b.accuracy.unwrap_or(0.0),
        w.blunders,
        b.blunders,
    )
}

/// One labelled position: the analysis's score (centipawns, White's view) and the game's result for
/// White (1, ½, 0).
#[derive(Clone, Copy, Debug)]
pub struct Labelled {
    pub cp: i32,
    pub result: f64,
}

/// The positions of `games` self-play games of `v` (at most `plies` plies each) with their scores
/// at `nodes` per position and the games' results; the first 8 plies, mates and scores beyond ±1500
/// are left out (they say little about the slope). Prints a line per game to `log`.
pub fn label(
    v: &'static Variant,
    games: usize,
    plies: usize,
    nodes: u64,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> Vec<Labelled> {
    let mut out = Vec::new();
    for g in 0..games {
        let game = self_play_game(v, plies, seed.wrapping_add(g as u64 * 7919));
        let Some(outcome) = game.outcome() else {
            log(format!("game {g}: {} plies, no result on the board: skipped", game.moves().len()));
            continue;
        };
        let result = match outcome.winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let Ok(a) = analyse(&game, nodes, &mut |_, _| {}) else { continue };
        let before = out.len();
        for e in a.evals.iter().skip(8) {
            if let Score::Cp(cp) = e.score
                && cp.abs() <= 1500
                && e.best.is_some()
            {
                out.push(Labelled { cp, result });
            }
        }
        log(format!(
            "game {g}: {} plies, {}, {} positions",
            game.moves().len(),
            outcome.result_str(),
            out.len() - before
        ));
    }
    out
}

/// Mean log-loss of slope `k` (on the 0–1 scale of `1/(1 + e^(−k·cp))`) against the results.
pub fn log_loss(samples: &[Labelled], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = (1.0 / (1.0 + (-k * f64::from(s.cp)).exp())).clamp(1e-6, 1.0 - 1e-6);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    sum / samples.len() as f64
}

/// The slope with the least log-loss, by golden-section search on 0.0002 … 0.03.
pub fn fit_slope(samples: &[Labelled]) -> f64 {
    let (mut a, mut b) = (0.0002f64, 0.03f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if log_loss(samples, c) < log_loss(samples, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// `fit-curve`: the report of a fit for `v`.
pub fn fit_report(v: &'static Variant, samples: &[Labelled]) -> String {
    let k = fit_slope(samples);
    let now = WinCurve::of(v).k;
    format!(
        "{}: {} positions; fitted k = {:.6} (log-loss {:.4}); in use k = {:.6} (log-loss {:.4}); \
         100 cp = {:.1}% with the fit",
        v.name,
        samples.len(),
        k,
        log_loss(samples, k),
        now,
        log_loss(samples, now),
        WinCurve { k }.white_chances(Score::Cp(100)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_slope() {
        // Results drawn deterministically from a known curve: the fit finds its slope again.
        let k = 0.004;
        let mut samples = Vec::new();
        for cp in (-1200..=1200).step_by(10) {
            let p = 1.0 / (1.0 + (-k * f64::from(cp)).exp());
            for i in 0..20 {
                let result = if (i as f64 + 0.5) / 20.0 < p { 1.0 } else { 0.0 };
                samples.push(Labelled { cp, result });
            }
        }
        let fit = fit_slope(&samples);
        assert!((fit - k).abs() < 0.0004, "{fit}");
    }

    #[test]
    fn a_self_play_game_is_reproducible() {
        let v = capabot::rules::Variant::by_name("chess").expect("chess");
        let a = self_play_game(v, 12, 3);
        let b = self_play_game(v, 12, 3);
        assert_eq!(a.moves(), b.moves());
        assert!(a.moves().len() <= 12 || a.outcome().is_some());
    }
}
