//! capabot's AI in the laboratory: searching one position (`think`), search speed per variant
//! (`bench-ai`), deadline keeping (`bench-deadline`) and matches between players (`match`), as report
//! lines built on [`capabot::ai`].

use crate::arena;
use capabot::ai::{self, Limits};
use capabot::notation::{san, uci};
use capabot::rules::{Position, Variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt;
use std::time::{Duration, Instant};

/// The limits of `think`: a playing level's (1..=8) or none, with `depth`, `nodes` and `movetime`
/// (milliseconds) overriding it; one second when nothing limits the search.
pub fn think_limits(
    level: Option<u8>,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
) -> Result<Limits, String> {
    let mut limits = match level {
        Some(l) if (1..=8).contains(&l) => Limits::for_level(l),
        Some(l) => return Err(format!("levels are 1 to 8, not {l}")),
        None => Limits::default(),
    };
    limits.depth = depth.or(limits.depth);
    limits.nodes = nodes.or(limits.nodes);
    limits.movetime = movetime.map(Duration::from_millis).or(limits.movetime);
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(Duration::from_secs(1));
    }
    Ok(limits)
}

/// Searches `pos` with a fresh memory, passing a UCI `info` line for each finished iteration to
/// `on_info`, and returns the closing line: the best move with score, depth, nodes and time.
pub fn think(pos: &Position, limits: &Limits, on_info: &mut dyn FnMut(String)) -> String {
    let t = Instant::now();
    let r =
        ai::search_with(pos, &[], limits, &mut ai::Memory::new(16), &mut |info| on_info(ai::uci::info_line(pos, info)));
    let secs = t.elapsed().as_secs_f64();
    match r.best {
        Some(m) => format!(
            "bestmove {} ({}) score {} depth {} nodes {} in {:.3} s",
            uci::write(pos, m),
            san::write(pos, m),
            r.score,
            r.depth,
            r.nodes,
            secs
        ),
        None => "no move: the game is over".to_string(),
    }
}

/// The header of the `bench-ai` table (Markdown), two lines.
pub const BENCH_AI_HEADER: &str = "| variant | depth | nodes | nps | time used (ms) |\n|---|---:|---:|---:|---:|";

/// One `bench-ai` row: a timed search from a variant's start position.
#[derive(Clone, Debug)]
pub struct AiBench {
    pub variant: &'static Variant,
    pub depth: u32,
    pub nodes: u64,
    /// Seconds the search took.
    pub secs: f64,
}

impl fmt::Display for AiBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "| {} | {} | {} | {:.0} | {:.0} |",
            self.variant.name,
            self.depth,
            self.nodes,
            self.nodes as f64 / self.secs.max(1e-9),
            self.secs * 1000.0
        )
    }
}

/// Searches the start position of `v` for `movetime` milliseconds.
pub fn bench_ai(v: &'static Variant, movetime: u64) -> AiBench {
    let pos = Position::start(v);
    let t = Instant::now();
    let r = ai::best_move(&pos, &Limits::movetime(Duration::from_millis(movetime)));
    AiBench { variant: v, depth: r.depth, nodes: r.nodes, secs: t.elapsed().as_secs_f64() }
}

/// The header of the `bench-deadline` table (Markdown), two lines.
pub const BENCH_DEADLINE_HEADER: &str = "| variant | searches | time per move (ms) | over, median (ms) | over, 90th pct (ms) | over, max (ms) |\n|---|---:|---:|---:|---:|---:|";

/// One `bench-deadline` row: how far past a fixed time per move capabot's searches returned, measured by
/// the caller around the whole call (table set-up included), over varied positions of one variant.
#[derive(Clone, Debug)]
pub struct DeadlineBench {
    pub variant: &'static Variant,
    pub movetime: u64,
    /// Milliseconds past the deadline per search, sorted; a search that ended early (a forced move, a mate
    /// found) counts as 0.
    pub over_ms: Vec<f64>,
}

impl DeadlineBench {
    /// The overshoot at quantile `q` (0..=1) of the sorted sample.
    pub fn quantile(&self, q: f64) -> f64 {
        if self.over_ms.is_empty() {
            return 0.0;
        }
        let i = ((self.over_ms.len() - 1) as f64 * q).round() as usize;
        self.over_ms[i]
    }
}

impl fmt::Display for DeadlineBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} |",
            self.variant.name,
            self.over_ms.len(),
            self.movetime,
            self.quantile(0.5),
            self.quantile(0.9),
            self.quantile(1.0)
        )
    }
}

/// Runs `searches` searches of `movetime` milliseconds each on positions of `v` reached by random play
/// (a random setup where the variant has them, then up to 40 random moves, captures and launches included)
/// and measures how long after the deadline each returned.
pub fn bench_deadline(v: &'static Variant, movetime: u64, searches: usize, seed: u64) -> DeadlineBench {
    let mut rng = StdRng::seed_from_u64(seed);
    let budget = Duration::from_millis(movetime);
    let mut over_ms = Vec::with_capacity(searches);
    while over_ms.len() < searches {
        let mut game = arena::random_opening(v, 0, rng.random());
        let plies = rng.random_range(0..40);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome().is_some() || game.position().legal_moves().is_empty() {
            continue;
        }
        let t = Instant::now();
        let _ = ai::best_move_in_game(&game, &Limits::movetime(budget));
        let over = t.elapsed().saturating_sub(budget);
        over_ms.push(over.as_secs_f64() * 1000.0);
    }
    over_ms.sort_by(f64::total_cmp);
    DeadlineBench { variant: v, movetime, over_ms }
}

/// What `match` plays: the command line's options.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    pub variant: &'static Variant,
    /// Games, played in pairs with colours swapped.
    pub games: usize,
    /// Milliseconds per move.
    pub movetime: u64,
    /// Node budgets per move for A and B in place of the time (load-independent matches).
    pub nodes_a: Option<u64>,
    pub nodes_b: Option<u64>,
    /// Player specs (see [`arena::PlayerSpec::parse`]).
    pub a: String,
    pub b: String,
    pub random_plies: usize,
    pub seed: u64,
    pub max_plies: usize,
    pub adjudicate: bool,
    /// Games played at once, one thread each.
    pub concurrency: usize,
}

/// The outcome of a match from A's side, with A's search statistics.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub options: MatchOptions,
    /// Wins, draws and losses for A, and A's search statistics.
    pub summary: arena::MatchSummary,
    pub elapsed: Duration,
}

impl fmt::Display for MatchReport {
    /// One Markdown table row: variant, players, time, games, +W =D -L, score, Elo, depth, nps, time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        let sum = &self.summary;
        let (w, d, l) = (sum.wins, sum.draws, sum.losses);
        let score = sum.score();
        write!(
            f,
            "| {} | {} | {} | {} | {} | +{w} ={d} -{l} | {:.1} % | {:+.0} | {:.1} | {:.0} | {:.0} s |",
            o.variant.name,
            o.a,
            o.b,
            budget(o.movetime, o.nodes_a, o.nodes_b),
            w + d + l,
            score * 100.0,
            arena::elo_diff(score),
            sum.avg_depth(),
            sum.nps(),
            self.elapsed.as_secs_f64()
        )
    }
}

/// The match's limit per move: the time, or the node budgets (`A / B nodes`) where set.
fn budget(movetime: u64, a: Option<u64>, b: Option<u64>) -> String {
    let side = |n: Option<u64>| n.map_or(format!("{movetime} ms"), |n| format!("{n} nodes"));
    match (a, b) {
        (None, None) => format!("{movetime} ms"),
        _ => format!("{} / {}", side(a), side(b)),
    }
}

/// The line `match --verbose` prints for game `index` (0-based).
pub fn game_line(index: usize, rec: &arena::GameRecord) -> String {
    format!(
        "game {:>3}: A {} {} ({}, {} plies) from {}",
        index + 1,
        if rec.white_is_a { "white" } else { "black" },
        rec.score_a,
        rec.reason,
        rec.plies,
        rec.start_fen
    )
}

/// Plays the match, calling `on_game` after each game, and returns the totals.
pub fn play_match(
    options: &MatchOptions,
    on_game: &mut dyn FnMut(usize, &arena::GameRecord),
) -> Result<MatchReport, String> {
    let v = options.variant;
    let cfg = arena::MatchConfig {
        variant: v,
        games: options.games,
        movetime: Duration::from_millis(options.movetime.max(1)),
        nodes_a: options.nodes_a,
        nodes_b: options.nodes_b,
        random_plies: options.random_plies,
        seed: options.seed,
        max_plies: options.max_plies,
        adjudicate: options.adjudicate,
    };
    let a = arena::PlayerSpec::parse(&options.a)?;
    let b = arena::PlayerSpec::parse(&options.b)?;
    let t = Instant::now();
    let summary = arena::run_match(&cfg, &a, &b, options.concurrency, on_game)?;
    Ok(MatchReport { options: options.clone(), summary, elapsed: t.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use capabot::rules::variant::CHESS;

    #[test]
    fn think_limits_combine_level_and_overrides() {
        let l = think_limits(None, None, None, None).unwrap();
        assert_eq!(l.movetime, Some(Duration::from_secs(1)));
        let l = think_limits(Some(1), Some(3), None, Some(50)).unwrap();
        assert_eq!(
            (l.depth, l.movetime, l.noise),
            (Some(3), Some(Duration::from_millis(50)), Limits::for_level(1).noise)
        );
        assert_eq!(think_limits(Some(9), None, None, None).unwrap_err(), "levels are 1 to 8, not 9");
    }

    #[test]
    fn think_reports_iterations_and_the_best_move() {
        let mut infos = Vec::new();
        let line = think(&Position::start(&CHESS), &Limits::depth(2), &mut |l| infos.push(l));
        assert_eq!(infos.len(), 2);
        assert!(infos[0].starts_with("info depth 1 "), "{infos:?}");
        assert!(line.starts_with("bestmove ") && line.contains(" depth 2 "), "{line}");
    }

    #[test]
    fn deadline_bench_measures_every_search_and_reads_quantiles() {
        let b = bench_deadline(&CHESS, 5, 4, 7);
        assert_eq!(b.over_ms.len(), 4);
        assert!(b.over_ms.windows(2).all(|w| w[0] <= w[1]) && b.over_ms[0] >= 0.0, "{:?}", b.over_ms);
        let row = DeadlineBench { variant: &CHESS, movetime: 5, over_ms: vec![0.0, 1.0, 2.0, 3.0, 10.0] };
        assert_eq!((row.quantile(0.5), row.quantile(0.9), row.quantile(1.0)), (2.0, 10.0, 10.0));
        assert_eq!(row.to_string(), "| chess | 5 | 5 | 2.0 | 10.0 | 10.0 |");
    }

    #[test]
    fn match_counts_every_game() {
        let options = MatchOptions {
            variant: &CHESS,
            games: 2,
            movetime: 5,
            nodes_a: None,
            nodes_b: None,
            a: "random".into(),
            b: "greedy".into(),
            random_plies: 2,
            seed: 3,
            max_plies: 40,
            adjudicate: false,
            concurrency: 2,
        };
        let mut lines = Vec::new();
        let r = play_match(&options, &mut |g, rec| lines.push(game_line(g, rec))).unwrap();
        assert_eq!(r.summary.wins + r.summary.draws + r.summary.losses, 2);
        assert_eq!(lines.len(), 2);
        // Two threads: the games may end in either order.
        lines.sort();
        assert!(lines[1].starts_with("game   2: A black "), "{lines:?}");
        assert!(r.to_string().starts_with("| chess | random | greedy | 5 ms | 2 | +"), "{r}");
        let bad = MatchOptions { b: "bogus".into(), ..options };
        assert!(play_match(&bad, &mut |_, _| {}).unwrap_err().contains("unknown player"));
    }

    #[test]
    fn a_node_budget_replaces_the_time_per_move() {
        // A full-strength level given a whole second per move but only 300 nodes must stop at the nodes.
        let options = MatchOptions {
            variant: &CHESS,
            games: 2,
            movetime: 1000,
            nodes_a: Some(300),
            nodes_b: None,
            a: "level:8".into(),
            b: "random".into(),
            random_plies: 2,
            seed: 5,
            max_plies: 12,
            adjudicate: false,
            concurrency: 1,
        };
        let r = play_match(&options, &mut |_, _| {}).unwrap();
        let s = &r.summary;
        assert!(s.searches >= 6, "{s:?}");
        assert!(s.nodes_sum <= s.searches * 400, "{s:?}");
        assert!(r.to_string().contains("| 300 nodes / 1000 ms | 2 |"), "{r}");
    }
}
