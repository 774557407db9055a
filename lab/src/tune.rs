//! Evaluation tuning (`lab tune-gen`, `lab tune-fit`): fit the weights of an [`EvalParams`] table to
//! the scores a stronger engine gives to quiet positions.
//!
//! The pipeline: `tune-gen` plays fast self-play games from random openings and writes a sample of their
//! positions (not in check, not just after a capture) as FEN lines; `tools/tune/label.py` has
//! Fairy-Stockfish search each one and appends its score and best move; `tune-fit` drops the positions whose
//! best move is a capture, promotion or launch (the score hides a tactic a static evaluation cannot see),
//! and runs a coordinate descent on the mean squared difference of the win probabilities implied by our
//! static evaluation and by the label — the Texel method, with engine scores instead of game results — and
//! prints the new table as Rust. Every tenth position is held out to show the fit generalises.

use crate::arena::random_opening;
use capabot::ai::eval::{self, EvalParams};
use capabot::ai::{Limits, best_move_in_game};
use capabot::notation::{self, fen};
use capabot::rules::{Position, Role, Variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Settings of `tune-gen`.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub variant: &'static Variant,
    pub games: usize,
    /// Search nodes per move of the self-play games.
    pub nodes: u64,
    /// Random quiet plies at the start of each game.
    pub random_plies: usize,
    /// Positions kept per game at most.
    pub per_game: usize,
    pub seed: u64,
    pub threads: usize,
}

/// Positions (FEN lines) sampled from self-play games, in game order whatever the thread count.
pub fn generate(opts: &GenOptions) -> Vec<String> {
    let threads = opts.threads.clamp(1, 64);
    let mut per_thread: Vec<Vec<(usize, Vec<String>)>> = Vec::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || (t..opts.games).step_by(threads).map(|g| (g, sample_game(opts, g))).collect::<Vec<_>>())
            })
            .collect();
        per_thread = handles.into_iter().map(|h| h.join().unwrap_or_default()).collect();
    });
    let mut all: Vec<(usize, Vec<String>)> = per_thread.into_iter().flatten().collect();
    all.sort_by_key(|(g, _)| *g);
    all.into_iter().flat_map(|(_, fens)| fens).collect()
}

/// One self-play game and the positions sampled from it.
fn sample_game(opts: &GenOptions, index: usize) -> Vec<String> {
    let seed = opts.seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = random_opening(opts.variant, opts.random_plies, seed);
    let mut candidates = Vec::new();
    let mut last_was_capture = true;
    while game.outcome().is_none() && game.moves().len() < 300 {
        let pos = game.position();
        if !last_was_capture && !pos.is_check() {
            candidates.push(fen::write(pos));
        }
        let limits = Limits { nodes: Some(opts.nodes), seed: rng.random_range(0..u64::MAX), ..Limits::default() };
        let result = best_move_in_game(&game, &limits);
        let Some(m) = result.best else { break };
        if result.score.abs() > 2500 {
            // Decided: the rest of the game teaches little.
            break;
        }
        last_was_capture = pos.is_capture(m) || m.is_launch();
        game.play(m);
    }
    // A random sample of at most `per_game`, kept in game order.
    let mut keep: Vec<usize> = (0..candidates.len()).collect();
    for i in (1..keep.len()).rev() {
        let j = rng.random_range(0..=i);
        keep.swap(i, j);
    }
    keep.truncate(opts.per_game);
    keep.sort_unstable();
    keep.into_iter().map(|i| candidates[i].clone()).collect()
}

/// A labelled quiet position: the win probability the label implies for the side to move.
pub struct Sample {
    pub pos: Position,
    pub target: f64,
}

/// Why lines of a labelled file were not used.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Skipped {
    pub malformed: usize,
    pub tactical: usize,
}

/// Win probability of a centipawn score (the usual logistic curve, 400 points for a factor of ten).
pub fn win_probability(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// Reads `FEN;score;bestmove` lines of variant `v` (as `tools/tune/label.py` writes them).
pub fn load_samples(v: &'static Variant, text: &str) -> (Vec<Sample>, Skipped) {
    let mut samples = Vec::new();
    let mut skipped = Skipped::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let (Some(f), Some(score), Some(best)) = (parts.next(), parts.next(), parts.next()) else {
            skipped.malformed += 1;
            continue;
        };
        let (Ok(pos), Ok(score)) = (fen::parse_position(v, f), score.trim().parse::<i32>()) else {
            skipped.malformed += 1;
            continue;
        };
        let Ok(m) = notation::parse_move(&pos, best.trim()) else {
            skipped.malformed += 1;
            continue;
        };
        if pos.is_check() || pos.is_capture(m) || m.is_launch() || m.promotion_role().is_some() {
            skipped.tactical += 1;
            continue;
        }
        samples.push(Sample { pos, target: win_probability(score as f64) });
    }
    (samples, skipped)
}

/// Mean squared error of the win probabilities of `scale` × our evaluation against the targets.
pub fn loss(samples: &[Sample], params: &EvalParams, scale: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let threads = threads.clamp(1, 64);
    let chunk = samples.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|x| {
                            let e = eval::evaluate_with(&x.pos, params) as f64;
                            let d = win_probability(scale * e) - x.target;
                            d * d
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / samples.len() as f64
}

/// The factor that best maps our evaluation onto the labels' scale (golden-section search on 0.2..5).
pub fn fit_scale(samples: &[Sample], params: &EvalParams, threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.2f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(samples, params, a, threads) < loss(samples, params, b, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// One weight the tuner may change: field name and index within the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weight {
    pub field: &'static str,
    pub index: usize,
}

/// The weights that matter for variant `v` (fields of other variant families, roles the variant lacks,
/// game-phase weights and the king-danger divisor are left alone).
pub fn tunable_weights(v: &Variant) -> Vec<Weight> {
    let mut out = Vec::new();
    let mut params = eval::params_for(v).clone();
    let has_role = |i: usize| v.roles.contains(&Role::ALL[i]);
    params.visit_fields(&mut |field, _, vals| {
        for index in 0..vals.len() {
            let keep = match field {
                "phase" | "king_danger_div" => false,
                "material_mg" | "material_eg" => index != Role::King.index() && has_role(index),
                "rank_mg" | "rank_eg" => {
                    let (role, rank) = (index / 10, index % 10);
                    let pawn_rank_ok = role != Role::Pawn.index() || (rank >= 1 && rank + 1 < v.height as usize);
                    has_role(role) && rank < v.height as usize && pawn_rank_ok
                }
                "file_mg" | "file_eg" => has_role(index / 5) && index % 5 < v.width.div_ceil(2) as usize,
                "mobility" | "mobility_eg" | "king_attack_units" => {
                    index != Role::King.index() && index != Role::Pawn.index() && has_role(index)
                }
                "center_mg" | "center_eg" => has_role(index),
                "atomic_exposed_attacked" | "atomic_exposed" | "atomic_kings_touch" => v.atomic,
                // Left out of atomic chess, whose king safety is about explosions (the atomic_* weights).
                "safe_check" | "king_ring_weak" | "pawn_storm" => !v.atomic,
                "launch_threat_to_move"
                | "launch_threat_waiting"
                | "shield_piece"
                | "missile_castle_ready"
                | "radiation_near_king" => v.missiles,
                _ => true,
            };
            if keep {
                out.push(Weight { field, index });
            }
        }
    });
    out
}

fn get(params: &mut EvalParams, w: &Weight) -> i32 {
    let mut value = 0;
    params.visit_fields(&mut |field, _, vals| {
        if field == w.field {
            value = vals[w.index];
        }
    });
    value
}

fn set(params: &mut EvalParams, w: &Weight, value: i32) {
    params.visit_fields(&mut |field, _, vals| {
        if field == w.field {
            vals[w.index] = value;
        }
    });
}

/// Settings of `tune-fit`.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Full passes over the weights at most (stops early when a pass improves nothing).
    pub passes: usize,
    pub threads: usize,
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub params: EvalParams,
    pub scale: f64,
    pub train_before: f64,
    pub train_after: f64,
    pub held_out_before: f64,
    pub held_out_after: f64,
    pub passes: usize,
    /// (weight, old value, new value) for every weight that moved.
    pub changes: Vec<(Weight, i32, i32)>,
}

/// Coordinate descent from `start` on `samples` (every tenth held out); `progress` gets one line per pass.
pub fn fit(
    start: &EvalParams,
    weights: &[Weight],
    samples: Vec<Sample>,
    opts: &FitOptions,
    progress: &mut dyn FnMut(&str),
) -> FitReport {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, s) in samples.into_iter().enumerate() {
        if i % 10 == 9 { held.push(s) } else { train.push(s) }
    }
    let threads = opts.threads;
    let mut params = start.clone();
    let scale = fit_scale(&train, &params, threads);
    let train_before = loss(&train, &params, scale, threads);
    let held_out_before = loss(&held, &params, scale, threads);
    progress(&format!(
        "{} training and {} held-out positions; scale {scale:.3}; loss {train_before:.6} / {held_out_before:.6}",
        train.len(),
        held.len()
    ));
    let mut best = train_before;
    let mut passes = 0;
    for pass in 0..opts.passes {
        passes = pass + 1;
        let before = best;
        for w in weights {
            let base = get(&mut params, w);
            let step = if w.field.starts_with("material") { 6 } else { (base.abs() / 10).max(1) };
            for dir in [1, -1] {
                let mut moved = false;
                let mut value = base;
                loop {
                    set(&mut params, w, value + dir * step);
                    let l = loss(&train, &params, scale, threads);
                    if l < best {
                        best = l;
                        value += dir * step;
                        moved = true;
                    } else {
                        set(&mut params, w, value);
                        break;
                    }
                }
                if moved {
                    break;
                }
            }
        }
        let held_now = loss(&held, &params, scale, threads);
        progress(&format!("pass {passes}: loss {best:.6} / held out {held_now:.6}"));
        if before - best < 1e-7 {
            break;
        }
    }
    let held_out_after = loss(&held, &params, scale, threads);
    let mut original = start.clone();
    let changes = weights
        .iter()
        .filter_map(|w| {
            let (old, new) = (get(&mut original, w), get(&mut params, w));
            (old != new).then(|| (w.clone(), old, new))
        })
        .collect();
    FitReport { params, scale, train_before, train_after: best, held_out_before, held_out_after, passes, changes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use capabot::rules::variant;

    #[test]
    fn visiting_and_printing_round_trips_every_weight() {
        let mut p = eval::STANDARD.clone();
        let w = Weight { field: "threat_by_pawn", index: 1 };
        assert_eq!(get(&mut p, &w), eval::STANDARD.threat_by_pawn.1);
        set(&mut p, &w, 77);
        assert_eq!(p.threat_by_pawn, (eval::STANDARD.threat_by_pawn.0, 77));
        let text = p.to_rust();
        let pawn_threat = format!("    threat_by_pawn: ({}, 77),\n", eval::STANDARD.threat_by_pawn.0);
        assert!(text.contains(&pawn_threat), "{text}");
        assert!(text.contains(&format!("    tempo: {},\n", eval::STANDARD.tempo)));
        let m = eval::STANDARD.material_mg;
        assert!(text.starts_with(&format!("    material_mg: [{}, {},", m[0], m[1])));
        let s = &eval::STANDARD;
        let king_terms = format!(
            "    safe_check: {},\n    king_ring_weak: {},\n    pawn_storm: {},\n",
            s.safe_check, s.king_ring_weak, s.pawn_storm
        );
        assert!(text.contains(&king_terms), "{text}");
        assert_eq!(text.lines().count(), 45);
    }

    #[test]
    fn tunable_weights_follow_the_variant() {
        let chess = tunable_weights(&variant::CHESS);
        let capa = tunable_weights(&variant::CAPABLANCA);
        let archbishop = Weight { field: "material_mg", index: Role::Archbishop.index() };
        assert!(!chess.contains(&archbishop) && capa.contains(&archbishop));
        assert!(!chess.iter().any(|w| w.field == "phase" || w.field.starts_with("atomic")));
        assert!(tunable_weights(&variant::ATOMIC).iter().any(|w| w.field == "atomic_exposed"));
        assert!(!tunable_weights(&variant::ATOMIC).iter().any(|w| w.field == "safe_check"));
        assert!(tunable_weights(&variant::CAPARANDOM).iter().any(|w| w.field == "pawn_storm"));
        assert!(!capa.contains(&Weight { field: "material_mg", index: Role::King.index() }));
        // Rank and file tables: only ranks and files the board has, no pawns on the back or last rank.
        let knight_rank = |r: usize| Weight { field: "rank_mg", index: Role::Knight.index() * 10 + r };
        assert!(chess.contains(&knight_rank(7)) && !chess.contains(&knight_rank(8)));
        let pawn_rank = |r: usize| Weight { field: "rank_eg", index: Role::Pawn.index() * 10 + r };
        assert!(chess.contains(&pawn_rank(6)) && !chess.contains(&pawn_rank(0)) && !chess.contains(&pawn_rank(7)));
        let centre_file = Weight { field: "file_mg", index: Role::Rook.index() * 5 + 4 };
        assert!(capa.contains(&centre_file) && !chess.contains(&centre_file));
    }

    #[test]
    fn labelled_lines_are_read_and_tactical_ones_dropped() {
        let v = &variant::CHESS;
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;-30;e7e5\n\
                    rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2;40;e4d5\n\
                    garbage;1;e2e4\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;x;e7e5\n";
        let (samples, skipped) = load_samples(v, text);
        assert_eq!(samples.len(), 1);
        assert_eq!(skipped, Skipped { malformed: 2, tactical: 1 });
        assert!((samples[0].target - win_probability(-30.0)).abs() < 1e-12);
        assert!(samples[0].target < 0.5);
    }

    #[test]
    fn fitting_moves_a_wrong_weight_towards_the_labels() {
        // Labels made by the real table; start from a table with the knight badly undervalued.
        let v = &variant::CHESS;
        let fens = generate(&GenOptions {
            variant: v,
            games: 6,
            nodes: 300,
            random_plies: 6,
            per_game: 40,
            seed: 3,
            threads: 2,
        });
        assert!(fens.len() > 60, "{}", fens.len());
        let samples: Vec<Sample> = fens
            .iter()
            .map(|f| {
                let pos = fen::parse_position(v, f).unwrap();
                let target = win_probability(eval::evaluate(&pos) as f64);
                Sample { pos, target }
            })
            .collect();
        let mut wrong = eval::STANDARD.clone();
        wrong.material_mg[Role::Knight.index()] = 200;
        wrong.material_eg[Role::Knight.index()] = 200;
        let weights: Vec<Weight> = tunable_weights(v).into_iter().filter(|w| w.field.starts_with("material")).collect();
        let report = fit(&wrong, &weights, samples, &FitOptions { passes: 30, threads: 2 }, &mut |_| {});
        assert!(report.train_after < report.train_before / 4.0, "{report:?}");
        let knight = report.params.material_mg[Role::Knight.index()];
        assert!(knight > 260, "knight value {knight}");
    }
}
