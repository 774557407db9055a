//! Analysis tooling: the speed of a whole game's analysis (`lab bench-analysis`), the fit of a
//! variant's win curve (`lab fit-curve`), and capabot's judgements held against an independent
//! engine's (`lab compare-analysis`: Fairy-Stockfish at a fixed depth, through `tools/fsf`).
//!
//! The games are played by capabot against itself from a random opening ([`crate::arena::random_opening`])
//! at level 4 (5,000 nodes a move, a little noise), so they are varied, realistic and reproducible
//! for a seed. The curve is fitted as the tuning tools fit their scale: each position of a self-play
//! game is labelled with the game's result, and the slope `k` of `1/(1 + e^(−k·cp))` that best
//! predicts the results from the analysis's scores (least log-loss, golden-section search) is the fit.

use crate::arena::{Reference, random_opening};
use capabot::ai::analysis::{Analyser, Analysis, Evidence, Judgement, Score, SecondLook, WinCurve, analyse, over_at};
use capabot::ai::{Limits, best_move_in_game};
use capabot::rules::{Color, Game, Variant};
use std::time::{Duration, Instant};

/// A self-play game of exactly `plies` plies (a longer one cut there), or the longest found in a
/// few tries if none is that long; reproducible for a seed.
pub fn self_play_game(v: &'static Variant, plies: usize, seed: u64) -> Game {
    let mut best = Game::new(random_opening(v, 0, seed).start().clone());
    for attempt in 0..8u64 {
        let game = one_self_play_game(v, plies, seed.wrapping_mul(31).wrapping_add(attempt));
        if game.moves().len() >= plies {
            return game;
        }
        if game.moves().len() > best.moves().len() {
            best = game;
        }
    }
    best
}

/// One game of capabot against itself from a random opening ([`self_play_game`]'s), to its end or
/// `plies` plies, whichever comes first: as it comes, not the longest of several (the fit of a
/// curve wants the games as they end, short ones included).
pub fn one_self_play_game(v: &'static Variant, plies: usize, seed: u64) -> Game {
    let mut game = random_opening(v, 4, seed);
    while game.moves().len() < plies && game.outcome().is_none() {
        let limits = Limits::for_level(4).with_seed(seed.wrapping_add(game.moves().len() as u64));
        let limits = Limits { movetime: None, soft_movetime: None, ..limits };
        let Some(m) = best_move_in_game(&game, &limits).best else { break };
        if !game.play(m) {
            break;
        }
    }
    game
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
/// position (0: the default) with the later looks `second` on this thread, `runs` times; one line.
pub fn bench(
    v: &'static Variant,
    plies: usize,
    nodes: u64,
    second: SecondLook,
    runs: usize,
    goal: Option<Duration>,
) -> String {
    let game = self_play_game(v, plies, 1);
    let mut times = Vec::new();
    let mut analysis: Option<Analysis> = None;
    let mut looked_again = 0;
    let mut looked_deeper = 0;
    let mut priced = 0;
    let mut searched = 0;
    let load_before = load_average();
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let Ok(mut a) = Analyser::with_second_look(game.clone(), nodes, second) else { break };
        while a.step() {}
        looked_again = a.looked_again();
        looked_deeper = a.looked_deeper();
        priced = a.priced_own_choices();
        searched = a.nodes_searched();
        analysis = a.finish();
        times.push(t.elapsed());
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
    // Every position's score and best move in one number: two builds that print the same searched the same.
    let digest = format!("{:?}", a.evals)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    format!(
        "{:<14} {:>4} plies {:>7} nodes/position, {:?}, {looked_again} looked at again ({looked_deeper} a third time, {priced} own choices priced), {:.2} M nodes ({searched}, evals {digest:016x})  \
         median {:>6.2} s (min {:.2}, max {:.2}, {} runs)  load {} → {}  \
         accuracy W {:.0}% B {:.0}%, blunders W {} B {}{goal_text}",
        v.name,
        game.moves().len(),
        a.nodes,
        second.order,
        searched as f64 / 1e6,
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

/// The random plies a compared game starts with (not the levels' play: not compared).
pub const OPENING_PLIES: usize = 4;

/// A game between two of the AI's levels (White at `white`, Black at `black`, each with its level's
/// depth, nodes, noise and deliberate blunders but no time limit, so it is reproducible for a seed)
/// from a random opening of [`OPENING_PLIES`] plies, at most `plies` plies.
pub fn levels_game(v: &'static Variant, white: u8, black: u8, plies: usize, seed: u64) -> Game {
    let mut game = random_opening(v, OPENING_PLIES, seed);
    while game.moves().len() < plies && game.outcome().is_none() {
        let level = if game.position().turn() == Color::White { white } else { black };
        let limits = Limits::for_level(level).with_seed(seed.wrapping_add(game.moves().len() as u64));
        let limits = Limits { movetime: None, soft_movetime: None, ..limits };
        let Some(m) = best_move_in_game(&game, &limits).best else { break };
        if !game.play(m) {
            break;
        }
    }
    game
}

/// The reference engine's analysis of a game: its score and best move in every position searched to
/// `depth` (a finished game's last position scored as capabot's analysis scores it), judged by the
/// same thresholds as capabot's own, through the variant's curve on the Stockfish family's scale
/// ([`WinCurve::stockfish_scale`]). With a `cache` file, the evaluations are read from it if it
/// holds them (the same engine, game and depth) and written to it otherwise; the flag says whether
/// they came from the cache.
pub fn reference_analysis(
    game: &Game,
    engine: &mut Reference,
    depth: u32,
    cache: Option<&std::path::Path>,
) -> Result<(Analysis, bool), String> {
    let curve = WinCurve::stockfish_scale(game.start().variant());
    if let Some(text) = cache.and_then(|p| std::fs::read_to_string(p).ok())
        && let Ok(a) = Analysis::decode(game, 0, text.trim())
    {
        return Ok((Analysis::from_evals_on(game, 0, a.evals, curve, Evidence::Position), true));
    }
    engine.new_game()?;
    let mut evals = Vec::with_capacity(game.positions().len());
    for ply in 0..game.positions().len() {
        evals.push(match over_at(game, ply) {
            Some(eval) => eval,
            None => engine.evaluate(game, ply, depth)?,
        });
    }
    let a = Analysis::from_evals_on(game, 0, evals, curve, Evidence::Position);
    if let Some(p) = cache {
        std::fs::write(p, a.encode(game)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok((a, false))
}

/// How capabot's judgements agree with the reference engine's, move by move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    pub moves: usize,
    /// Moves the reference calls blunders …
    pub reference_blunders: usize,
    /// … of which capabot calls mistakes or blunders.
    pub caught: usize,
    /// Moves capabot calls blunders …
    pub capabot_blunders: usize,
    /// … of which the reference calls good (no mark at all: not even an inaccuracy).
    pub called_good: usize,
}

impl Agreement {
    /// The counts of one game from ply `from` on: `ours` and `theirs` are analyses of the same game.
    pub fn of(ours: &Analysis, theirs: &Analysis, from: usize) -> Agreement {
        let mut a = Agreement::default();
        for (o, t) in ours.moves.iter().zip(&theirs.moves).skip(from) {
            a.moves += 1;
            if t.judgement == Some(Judgement::Blunder) {
                a.reference_blunders += 1;
                a.caught += usize::from(o.judgement >= Some(Judgement::Mistake));
            }
            if o.judgement == Some(Judgement::Blunder) {
                a.capabot_blunders += 1;
                a.called_good += usize::from(t.judgement.is_none());
            }
        }
        a
    }

    pub fn add(&mut self, other: Agreement) {
        self.moves += other.moves;
        self.reference_blunders += other.reference_blunders;
        self.caught += other.caught;
        self.capabot_blunders += other.capabot_blunders;
        self.called_good += other.called_good;
    }

    /// The share of the reference's blunders capabot marks (the goal: ≥ 90 %).
    pub fn caught_share(&self) -> Option<f64> {
        (self.reference_blunders > 0).then(|| self.caught as f64 / self.reference_blunders as f64)
    }

    /// The share of capabot's blunders the reference calls good (the goal: ≤ 5 %).
    pub fn false_share(&self) -> Option<f64> {
        (self.capabot_blunders > 0).then(|| self.called_good as f64 / self.capabot_blunders as f64)
    }
}

/// What `lab compare-analysis` does for one variant.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    pub variant: &'static Variant,
    pub games: usize,
    /// The levels of the two sides (swapped every other game).
    pub levels: (u8, u8),
    pub plies: usize,
    /// capabot's nodes per position (0: the default).
    pub nodes: u64,
    /// The reference engine's command line and depth.
    pub engine: String,
    pub depth: u32,
    pub seed: u64,
    /// Print every move the two judge differently by a mark.
    pub verbose: bool,
    /// capabot's second look.
    pub second: SecondLook,
    /// A directory keeping the reference's evaluations of each game (the games are reproducible).
    pub cache: Option<std::path::PathBuf>,
    /// Only these games of the series (numbered from 0; empty: all), to look at a few again.
    pub only: Vec<usize>,
    /// A deeper depth at which the reference judges again the moves the comparison turns on (its
    /// blunders, and capabot's blunders it calls good): whether its own judgement stands.
    pub confirm_depth: Option<u32>,
}

/// A line per move that one side marks as a blunder and the other does not mark as a mistake or
/// worse: the move, each side's winning chances before and after it, their costs and best moves.
pub fn disagreements(game: &Game, ours: &Analysis, theirs: &Analysis, from: usize) -> Vec<String> {
    let san = |ply: usize, m: Option<capabot::rules::Move>| {
        m.map_or("–".to_string(), |m| capabot::notation::san::write(&game.positions()[ply], m))
    };
    let mut out = Vec::new();
    for (o, t) in ours.moves.iter().zip(&theirs.moves).skip(from) {
        let marked = |j: Option<Judgement>| j >= Some(Judgement::Mistake);
        let differ = (t.judgement == Some(Judgement::Blunder) && !marked(o.judgement))
            || (o.judgement == Some(Judgement::Blunder) && !marked(t.judgement));
        if !differ {
            continue;
        }
        out.push(format!(
            "  ply {:>3} {:<8} capabot {:>5.1} → {:>5.1} (cost {:>4.1}, best {:<8}) reference {:>5.1} → {:>5.1} \
             (cost {:>4.1}, best {}); before: {} ({})",
            o.ply,
            san(o.ply, Some(o.played)),
            o.before,
            o.after,
            o.loss,
            san(o.ply, o.best),
            t.before,
            t.after,
            t.loss,
            san(t.ply, t.best),
            capabot::notation::fen::write(&game.positions()[o.ply]),
            capabot::notation::uci::write(&game.positions()[o.ply], o.played),
        ));
    }
    out
}

impl CompareOptions {
    /// Whether the game `g` of the series is compared (`only` empty: every game).
    fn selected(&self, g: usize) -> bool {
        self.only.is_empty() || self.only.contains(&g)
    }
}

/// The game `g` of a series: its two sides' levels and its moves.
fn series_game(opts: &CompareOptions, g: usize) -> (u8, u8, Game) {
    let (a, b) = opts.levels;
    let (white, black) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
    (white, black, levels_game(opts.variant, white, black, opts.plies, opts.seed.wrapping_add(g as u64 * 7919)))
}

/// Where the reference's evaluations of the game `g` of a series are kept, with a cache directory.
fn cache_file(opts: &CompareOptions, g: usize, white: u8, black: u8) -> Option<std::path::PathBuf> {
    opts.cache.as_ref().map(|dir| {
        let key =
            format!("{}-{}-{}-{}-{}-{g}.txt", opts.variant.name, opts.seed, opts.plies, opts.depth, white * 10 + black);
        dir.join(key)
    })
}

/// `compare-analysis --reference-only` for one variant: fills the cache with the reference's
/// evaluations of the series' games (those it does not hold yet) without capabot's analysis, a line
/// per game to `log`. Returns how many games the reference evaluated.
pub fn fill_reference_cache(opts: &CompareOptions, log: &mut dyn FnMut(String)) -> Result<usize, String> {
    let Some(dir) = &opts.cache else { return Err("--reference-only needs --cache DIR".into()) };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut engine = Reference::start(&opts.engine, opts.variant)?;
    let mut evaluated = 0;
    for g in (0..opts.games).filter(|&g| opts.selected(g)) {
        let (white, black, game) = series_game(opts, g);
        let file = cache_file(opts, g, white, black);
        let t = Instant::now();
        let (_, held) = reference_analysis(&game, &mut engine, opts.depth, file.as_deref())?;
        evaluated += usize::from(!held);
        log(format!(
            "{} game {g}: {} plies, {} in {:.1} s",
            opts.variant.name,
            game.moves().len(),
            if held { "already in the cache" } else { "evaluated" },
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(evaluated)
}

/// The moves whose judgement the comparison turns on: the reference's blunders, and capabot's
/// blunders the reference calls good.
pub fn disputed(ours: &Analysis, theirs: &Analysis, from: usize) -> Vec<usize> {
    ours.moves
        .iter()
        .zip(&theirs.moves)
        .skip(from)
        .filter(|(o, t)| {
            t.judgement == Some(Judgement::Blunder)
                || (o.judgement == Some(Judgement::Blunder) && t.judgement.is_none())
        })
        .map(|(o, _)| o.ply)
        .collect()
}

/// The reference's analysis with the positions before and after each move of `plies` searched again
/// at `depth` (each afresh, with a new hash table), the others as they were. With a `cache` file the
/// deeper evaluations are kept: the evaluations, then a line with the positions searched deeper.
pub fn confirmed(
    game: &Game,
    theirs: &Analysis,
    engine: &mut Reference,
    plies: &[usize],
    depth: u32,
    cache: Option<&std::path::Path>,
) -> Result<Analysis, String> {
    let mut evals = theirs.evals.clone();
    let mut deep = std::collections::BTreeSet::new();
    if let Some(text) = cache.and_then(|p| std::fs::read_to_string(p).ok())
        && let Some((kept, positions)) = text.trim().split_once('\n')
        && let Ok(a) = Analysis::decode(game, 0, kept.trim())
    {
        evals = a.evals;
        deep.extend(positions.split_whitespace().filter_map(|n| n.parse::<usize>().ok()));
    }
    let wanted: std::collections::BTreeSet<usize> =
        plies.iter().flat_map(|&p| [p, p + 1]).filter(|&i| i < game.positions().len()).collect();
    let missing: Vec<usize> = wanted.difference(&deep).copied().collect();
    for &i in &missing {
        if over_at(game, i).is_none() {
            engine.new_game()?;
            evals[i] = engine.evaluate(game, i, depth)?;
        }
        deep.insert(i);
    }
    let a = Analysis::from_evals_on(game, 0, evals, theirs.curve, Evidence::Position);
    if let Some(p) = cache
        && !missing.is_empty()
    {
        let positions: Vec<String> = deep.iter().map(|i| i.to_string()).collect();
        std::fs::write(p, format!("{}\n{}\n", a.encode(game), positions.join(" ")))
            .map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(a)
}

/// How the comparison's counts stand when the reference's judgements of the `disputed` moves are
/// those of its deeper analysis `deep`: its blunders counted only where the deeper search confirms
/// them, capabot's blunders called good only where the deeper search still calls the move good.
pub fn confirmed_agreement(
    ours: &Analysis,
    theirs: &Analysis,
    deep: &Analysis,
    disputed: &[usize],
    from: usize,
) -> Agreement {
    let mut a = Agreement::default();
    for &ply in disputed {
        let (o, t, d) = (&ours.moves[ply], &theirs.moves[ply], &deep.moves[ply]);
        if t.judgement == Some(Judgement::Blunder) && d.judgement == Some(Judgement::Blunder) {
            a.reference_blunders += 1;
            a.caught += usize::from(o.judgement >= Some(Judgement::Mistake));
        }
        if o.judgement == Some(Judgement::Blunder) && t.judgement.is_none() {
            a.called_good += usize::from(d.judgement.is_none());
        }
    }
    a.moves = ours.moves.len().saturating_sub(from);
    a.capabot_blunders = ours.moves.iter().skip(from).filter(|m| m.judgement == Some(Judgement::Blunder)).count();
    a
}

/// `compare-analysis` for one variant: plays the games, analyses each with capabot and with the
/// reference, and reports a line per game to `log`; the totals.
pub fn compare(opts: &CompareOptions, log: &mut dyn FnMut(String)) -> Result<Agreement, String> {
    let mut engine = Reference::start(&opts.engine, opts.variant)?;
    if let Some(dir) = &opts.cache {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut looked_again = 0;
    let mut looked_deeper = 0;
    let mut priced = 0;
    let mut searched = 0;
    let mut positions = 0;
    let mut total = Agreement::default();
    let mut scale = ScaleFit::default();
    let mut rescaled = [Agreement::default(); SCALES.len()];
    let mut without = Agreement::default();
    let mut confirmed_total = Agreement::default();
    for g in (0..opts.games).filter(|&g| opts.selected(g)) {
        let (white, black, game) = series_game(opts, g);
        let t = Instant::now();
        let mut analyser =
            Analyser::with_second_look(game.clone(), opts.nodes, opts.second).map_err(|e| e.to_string())?;
        while analyser.step() {}
        looked_again += analyser.looked_again();
        looked_deeper += analyser.looked_deeper();
        priced += analyser.priced_own_choices();
        searched += analyser.nodes_searched();
        positions += game.positions().len();
        let ours = analyser.finish().ok_or("the analysis stopped")?;
        let ours_time = t.elapsed();
        let t = Instant::now();
        let cache = cache_file(opts, g, white, black);
        let (theirs, _) = reference_analysis(&game, &mut engine, opts.depth, cache.as_deref())?;
        let agreement = Agreement::of(&ours, &theirs, OPENING_PLIES);
        if let Some(depth) = opts.confirm_depth {
            let plies = disputed(&ours, &theirs, OPENING_PLIES);
            let file = cache.as_ref().map(|p| p.with_extension(format!("confirm{depth}.txt")));
            let deep = confirmed(&game, &theirs, &mut engine, &plies, depth, file.as_deref())?;
            confirmed_total.add(confirmed_agreement(&ours, &theirs, &deep, &plies, OPENING_PLIES));
            if opts.verbose {
                for &ply in &plies {
                    let (o, t, d) = (&ours.moves[ply], &theirs.moves[ply], &deep.moves[ply]);
                    log(format!(
                        "  ply {ply:>3} {:<8} capabot cost {:>4.1}; reference cost {:>4.1} at depth {}, {:>4.1} at depth {depth}",
                        capabot::notation::san::write(&game.positions()[ply], o.played),
                        o.loss,
                        t.loss,
                        opts.depth,
                        d.loss
                    ));
                }
            }
        }
        total.add(agreement);
        scale.add(&ours, &theirs);
        for (m, sum) in SCALES.iter().zip(&mut rescaled) {
            sum.add(Agreement::of(&rescale(&game, &ours, *m), &theirs, OPENING_PLIES));
        }
        without.add(Agreement::of(&without_replies(&game, &ours), &theirs, OPENING_PLIES));
        if opts.verbose {
            for line in disagreements(&game, &ours, &theirs, OPENING_PLIES) {
                log(line);
            }
        }
        log(format!(
            "{} game {g}: levels {white}-{black}, {} plies; reference blunders {} (capabot marks {}), \
             capabot blunders {} (reference calls good {}); capabot {:.1} s, reference {:.1} s",
            opts.variant.name,
            game.moves().len(),
            agreement.reference_blunders,
            agreement.caught,
            agreement.capabot_blunders,
            agreement.called_good,
            ours_time.as_secs_f64(),
            t.elapsed().as_secs_f64(),
        ));
    }
    log(format!(
        "{}: first pass {:?}; second look (from {} points, × {} nodes) at {looked_again} of {positions} positions, \
         third (from {} to {} points, × {} nodes{}) at {looked_deeper}; own choices from {} points priced against \
         the other moves at {priced}; {:.1} M nodes in all",
        opts.variant.name,
        opts.second.order,
        opts.second.from,
        opts.second.factor,
        opts.second.deeper_from,
        opts.second.deeper_below,
        opts.second.deeper_factor,
        match opts.second.deeper_at {
            capabot::ai::analysis::DeeperAt::Both => "",
            capabot::ai::analysis::DeeperAt::After => ", the position after the move only",
        },
        opts.second.own_choice_from,
        searched as f64 / 1e6,
    ));
    log(format!(
        "{}: capabot's scores ≈ {:.2} × the reference's (least squares through 0, {} positions within ±800 cp)",
        opts.variant.name,
        scale.slope().unwrap_or(f64::NAN),
        scale.n
    ));
    for (m, a) in SCALES.iter().zip(&rescaled) {
        log(compare_report(&format!("{} with capabot's scores × {m}", opts.variant.name), opts.games, a));
    }
    log(compare_report(&format!("{} judged without the replies' evidence", opts.variant.name), opts.games, &without));
    if let Some(depth) = opts.confirm_depth {
        let what =
            format!("{} with the reference's judgements of those moves confirmed at depth {depth}", opts.variant.name);
        log(compare_report(&what, opts.games, &confirmed_total));
    }
    Ok(total)
}

/// Factors by which `compare` also multiplies capabot's scores before judging (the same as a curve that
/// much steeper): whether the two engines disagree on what a centipawn is worth rather than on the moves.
pub const SCALES: [f64; 4] = [0.8, 0.9, 1.1, 1.25];

/// capabot's analysis with every centipawn score multiplied by `m`, judged again.
pub fn rescale(game: &Game, ours: &Analysis, m: f64) -> Analysis {
    let evals = ours
        .evals
        .iter()
        .map(|e| match e.score {
            Score::Cp(cp) => capabot::ai::analysis::PositionEval { score: Score::Cp((f64::from(cp) * m) as i32), ..*e },
            Score::Mate(_) => *e,
        })
        .collect();
    Analysis::from_evals(game, ours.nodes, evals)
}

/// capabot's analysis judged again on its positions' own evaluations, without the evidence of the
/// game's replies ([`Evidence::Position`]; the product's judgement before stop 77).
pub fn without_replies(game: &Game, ours: &Analysis) -> Analysis {
    Analysis::from_evals_on(game, ours.nodes, ours.evals.clone(), ours.curve, Evidence::Position)
}

/// The least-squares slope (through 0) of capabot's scores against the reference's, position by position.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScaleFit {
    sum_xy: f64,
    sum_xx: f64,
    pub n: usize,
}

impl ScaleFit {
    /// Adds the positions where both give a centipawn score within ±800.
    pub fn add(&mut self, ours: &Analysis, theirs: &Analysis) {
        for (o, t) in ours.evals.iter().zip(&theirs.evals) {
            if let (Score::Cp(c), Score::Cp(r)) = (o.score, t.score)
                && c.abs() <= 800
                && r.abs() <= 800
            {
                self.sum_xy += f64::from(c) * f64::from(r);
                self.sum_xx += f64::from(r) * f64::from(r);
                self.n += 1;
            }
        }
    }

    pub fn slope(&self) -> Option<f64> {
        (self.sum_xx > 0.0).then(|| self.sum_xy / self.sum_xx)
    }
}

/// The report line of a comparison's totals.
pub fn compare_report(name: &str, games: usize, a: &Agreement) -> String {
    let pct = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{:.1} %", 100.0 * x));
    format!(
        "{name}: {games} games, {} moves compared; the reference's blunders that capabot marks as mistakes or blunders: \
         {}/{} = {} (goal ≥ 90 %); capabot's blunders the reference calls good: {}/{} = {} (goal ≤ 5 %)",
        a.moves,
        a.caught,
        a.reference_blunders,
        pct(a.caught_share()),
        a.called_good,
        a.capabot_blunders,
        pct(a.false_share()),
    )
}

/// One labelled position: the analysis's score (centipawns, White's view) and the game's result for
/// White (1, ½, 0).
#[derive(Clone, Copy, Debug)]
pub struct Labelled {
    pub cp: i32,
    pub result: f64,
    /// Which game it comes from (positions of one game share its result: the fit's uncertainty is
    /// estimated by resampling games, not positions).
    pub game: u32,
}

/// What [`label`] plays: games of `variant` from `seed` on, at most `plies` plies each, their
/// positions scored at `nodes` per position (0: the analysis's default).
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    pub variant: &'static Variant,
    pub plies: usize,
    pub nodes: u64,
    pub seed: u64,
}

/// The positions of `games` self-play games ([`SelfPlay`]) with their scores and the games'
/// results; the first 8 plies, mates and scores beyond ±1500 are left out (they say little about
/// the slope), and games still going after the last ply. The games are played and analysed on
/// `threads` threads (each game depends only on the seed, so the result does not depend on them); a
/// line per game goes to `log` as it is done.
pub fn label(play: SelfPlay, games: usize, threads: usize, log: &(dyn Fn(String) + Sync)) -> Vec<Labelled> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<Labelled>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if g >= games {
                            return mine;
                        }
                        mine.push((g, play.label_game(g, log)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a labelling thread panicked")).collect()
    });
    done.sort_by_key(|(g, _)| *g);
    done.into_iter().flat_map(|(_, s)| s).collect()
}

impl SelfPlay {
    /// [`label`]'s work for game `g`.
    fn label_game(self, g: usize, log: &(dyn Fn(String) + Sync)) -> Vec<Labelled> {
        let SelfPlay { variant: v, plies, nodes, seed } = self;
        let game = one_self_play_game(v, plies, seed.wrapping_add(g as u64 * 7919));
        let Some(outcome) = game.outcome() else {
            log(format!("game {g}: {} plies, no result on the board: skipped", game.moves().len()));
            return Vec::new();
        };
        let result = match outcome.winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let Ok(a) = analyse(&game, nodes, &mut |_, _| {}) else { return Vec::new() };
        let out: Vec<Labelled> = a
            .evals
            .iter()
            .skip(8)
            .filter_map(|e| match e.score {
                Score::Cp(cp) if cp.abs() <= 1500 && e.best.is_some() => Some(Labelled { cp, result, game: g as u32 }),
                _ => None,
            })
            .collect();
        log(format!("game {g}: {} plies, {}, {} positions", game.moves().len(), outcome.result_str(), out.len()));
        out
    }
}

/// `samples` as text, a position a line (`game cp result`), after a first line naming what they are.
pub fn samples_text(header: &str, samples: &[Labelled]) -> String {
    let mut text = format!("# {header}\n");
    for s in samples {
        text.push_str(&format!("{} {} {}\n", s.game, s.cp, s.result));
    }
    text
}

/// Samples written by [`samples_text`], each file's games numbered after the previous files' so
/// that games of different files stay apart.
pub fn samples_from(texts: &[String]) -> Result<Vec<Labelled>, String> {
    let mut out = Vec::new();
    let mut offset = 0u32;
    for (i, text) in texts.iter().enumerate() {
        let mut games = 0u32;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let bad = || format!("file {}, line {}: expected `game cp result`, found {line:?}", i + 1, n + 1);
            let mut parts = line.split_whitespace();
            let (Some(g), Some(cp), Some(result), None) = (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(bad());
            };
            let g: u32 = g.parse().map_err(|_| bad())?;
            let cp: i32 = cp.parse().map_err(|_| bad())?;
            let result: f64 = result.parse().map_err(|_| bad())?;
            if !(0.0..=1.0).contains(&result) {
                return Err(bad());
            }
            games = games.max(g + 1);
            out.push(Labelled { cp, result, game: offset + g });
        }
        offset += games;
    }
    Ok(out)
}

/// The slopes fitted to `resamples` resamplings of `samples`' games (as many games drawn with
/// replacement as there are), in the order drawn: the spread of the fit that the games' own chance
/// gives ([`spread`]).
pub fn bootstrap_slopes(samples: &[Labelled], resamples: usize, seed: u64) -> Vec<f64> {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let mut by_game: std::collections::BTreeMap<u32, Vec<Labelled>> = std::collections::BTreeMap::new();
    for s in samples {
        by_game.entry(s.game).or_default().push(*s);
    }
    let games: Vec<&Vec<Labelled>> = by_game.values().collect();
    if games.is_empty() {
        return Vec::new();
    }
    let mut rng = StdRng::seed_from_u64(seed);
    (0..resamples)
        .map(|_| {
            let drawn: Vec<Labelled> =
                (0..games.len()).flat_map(|_| games[rng.random_range(0..games.len())].iter().copied()).collect();
            fit_slope(&drawn)
        })
        .collect()
}

/// The 5th and 95th percentiles of `xs` (`None` when empty).
pub fn spread(mut xs: Vec<f64>) -> Option<(f64, f64)> {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    (n > 0).then(|| (xs[n * 5 / 100], xs[(n * 95 / 100).min(n - 1)]))
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

/// `fit-curve`: the report of a fit for `v`, with the 5th and 95th percentiles of the slopes fitted
/// to 200 resamplings of its games ([`bootstrap_slopes`]). With chess's positions as `reference`,
/// also the slope relative to chess's (the product's `RELATIVE_SLOPES` entry) with its spread (each
/// resampling of one over one of the other) and the curve it gives capabot's scores.
pub fn fit_report(v: &'static Variant, samples: &[Labelled], reference: Option<&[Labelled]>) -> String {
    let k = fit_slope(samples);
    let now = WinCurve::of(v).k;
    let games = samples.iter().map(|s| s.game).collect::<std::collections::BTreeSet<_>>().len();
    let slopes = bootstrap_slopes(samples, 200, 1);
    let (lo, hi) = spread(slopes.clone()).unwrap_or((k, k));
    let mut report = format!(
        "{}: {} positions of {} games; fitted k = {:.6} (90 % of the games' resamplings {:.6}–{:.6}; \
         log-loss {:.4}); in use k = {:.6} (log-loss {:.4}); 100 cp = {:.1}% with the fit",
        v.name,
        samples.len(),
        games,
        k,
        lo,
        hi,
        log_loss(samples, k),
        now,
        log_loss(samples, now),
        WinCurve { k }.white_chances(Score::Cp(100)),
    );
    if let Some(reference) = reference {
        let k_ref = fit_slope(reference);
        let ratios: Vec<f64> = slopes.iter().zip(bootstrap_slopes(reference, 200, 2)).map(|(a, b)| a / b).collect();
        let r = k / k_ref;
        let (rlo, rhi) = spread(ratios).unwrap_or((r, r));
        let chess = WinCurve::of(&capabot::rules::variant::CHESS).k;
        report.push_str(&format!(
            "\nrelative to the reference's fit ({k_ref:.6}): {r:.3} (90 %: {rlo:.3}–{rhi:.3}); capabot's curve for it \
             k = {:.6}, 100 cp = {:.1}%",
            chess * r,
            WinCurve { k: chess * r }.white_chances(Score::Cp(100)),
        ));
    }
    report
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
                samples.push(Labelled { cp, result, game: (cp + 1200) as u32 });
            }
        }
        let fit = fit_slope(&samples);
        assert!((fit - k).abs() < 0.0004, "{fit}");
    }

    #[test]
    fn saved_samples_read_back_with_each_files_games_apart() {
        let a = vec![Labelled { cp: 40, result: 1.0, game: 0 }, Labelled { cp: -15, result: 0.5, game: 1 }];
        let b = vec![Labelled { cp: 300, result: 0.0, game: 0 }];
        let texts = [samples_text("chess seed 1", &a), samples_text("chess seed 2", &b)];
        let read = samples_from(&texts).unwrap();
        let seen: Vec<(i32, f64, u32)> = read.iter().map(|s| (s.cp, s.result, s.game)).collect();
        assert_eq!(seen, vec![(40, 1.0, 0), (-15, 0.5, 1), (300, 0.0, 2)]);
        let err = samples_from(&["0 12\n".to_string()]).unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        assert!(samples_from(&["0 12 2\n".to_string()]).is_err(), "a result outside 0–1");
    }

    #[test]
    fn the_resampled_slopes_surround_the_fit_and_narrow_with_more_games() {
        // Games whose results follow a known curve: the spread of the resampled fits holds the true
        // slope, and sixteen times the games give a spread less than half as wide.
        let k = 0.004;
        let games = |n: u32| -> Vec<Labelled> {
            let mut rng_state = 7u64;
            (0..n)
                .flat_map(|g| {
                    rng_state = rng_state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let cp = ((rng_state >> 33) % 1200) as i32 - 600;
                    let p = 1.0 / (1.0 + (-k * f64::from(cp)).exp());
                    rng_state = rng_state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let result = if ((rng_state >> 33) as f64 / f64::from(1u32 << 31)) < p { 1.0 } else { 0.0 };
                    (0..10).map(move |i| Labelled { cp: cp + i * 3, result, game: g })
                })
                .collect()
        };
        // Each resampling refits the slope: the spread of the many games is computed once.
        let spread_of = |samples: &[Labelled]| {
            let (lo, hi) = spread(bootstrap_slopes(samples, 100, 3)).unwrap();
            assert!(lo <= fit_slope(samples) && fit_slope(samples) <= hi, "{lo} {hi}");
            (lo, hi)
        };
        let (few, many) = (games(100), games(1600));
        assert_eq!(
            bootstrap_slopes(&few, 100, 3),
            bootstrap_slopes(&few, 100, 3),
            "the same seed, the same resamplings"
        );
        let ((few_lo, few_hi), (lo, hi)) = (spread_of(&few), spread_of(&many));
        assert!(hi - lo < (few_hi - few_lo) / 2.0, "{} against {}", hi - lo, few_hi - few_lo);
        assert!(lo < k && k < hi, "{lo} – {hi}");
    }

    #[test]
    fn a_uci_score_is_read_from_info_lines_only() {
        use crate::arena::{UciScore, uci_score};
        let l = "info depth 12 seldepth 18 multipv 1 score cp -31 nodes 52011 nps 410000 pv e7e5 g1f3";
        assert_eq!(uci_score(l), Some(UciScore::Cp(-31)));
        assert_eq!(uci_score("info depth 20 score mate -3 pv a1a2"), Some(UciScore::Mate(-3)));
        assert_eq!(uci_score("info depth 9 score cp 40 lowerbound nodes 10"), None, "a bound is not the score");
        assert_eq!(uci_score("info string NNUE evaluation using nn.bin"), None);
        assert_eq!(uci_score("bestmove e2e4 ponder e7e5"), None);
    }

    /// A game of four plies between two level-1 players, for the counting tests.
    fn four_plies() -> Game {
        let game = levels_game(capabot::rules::Variant::by_name("chess").expect("chess"), 1, 1, 4, 5);
        assert_eq!(game.moves().len(), 4);
        game
    }

    /// An analysis of `game` with these scores (White's view) and no best move known.
    fn scored(game: &Game, cps: [i32; 5]) -> Analysis {
        let evals =
            cps.iter().map(|&cp| capabot::ai::analysis::PositionEval { score: Score::Cp(cp), best: None }).collect();
        Analysis::from_evals(game, 0, evals)
    }

    #[test]
    fn agreement_counts_the_blunders_each_side_marks() {
        let game = four_plies();
        // White's chances after each ply, as each engine sees them; no engine's best move is the one played.
        let analysis = |cps: [i32; 5]| scored(&game, cps);
        // The reference: ply 0 (White) a blunder (0 → −600), ply 1 (Black) a blunder (−600 → +200), ply 2 fine.
        let theirs = analysis([0, -600, 200, 200, 200]);
        // capabot (on its steeper curve): ply 0 a mistake only (0 → −110, 13.5 points), ply 1 missed, ply 3 a
        // blunder the reference calls good.
        let ours = analysis([0, -110, -110, -110, 900]);
        assert_eq!(theirs.moves[0].judgement, Some(Judgement::Blunder));
        assert_eq!(ours.moves[0].judgement, Some(Judgement::Mistake));
        let a = Agreement::of(&ours, &theirs, 0);
        assert_eq!(a, Agreement { moves: 4, reference_blunders: 2, caught: 1, capabot_blunders: 1, called_good: 1 });
        assert_eq!((a.caught_share(), a.false_share()), (Some(0.5), Some(1.0)));
        let later = Agreement::of(&ours, &theirs, 1);
        assert_eq!(
            later,
            Agreement { moves: 3, reference_blunders: 1, caught: 0, capabot_blunders: 1, called_good: 1 }
        );
    }

    #[test]
    fn a_deeper_reference_counts_only_the_blunders_it_confirms() {
        let game = four_plies();
        let analysis = |cps: [i32; 5]| scored(&game, cps);
        // As above: the reference's blunders at plies 0 and 1, capabot's mistake at 0 and its blunder at 3,
        // which the reference calls good.
        let theirs = analysis([0, -600, 200, 200, 200]);
        let ours = analysis([0, -110, -110, -110, 900]);
        assert_eq!(disputed(&ours, &theirs, 0), vec![0, 1, 3]);
        assert_eq!(disputed(&ours, &theirs, 1), vec![1, 3]);
        // Deeper, the reference keeps ply 0 a blunder, takes ply 1's back (−600 → −550) and finds ply 3 a
        // blunder after all (200 → 700).
        let deep = analysis([0, -600, -550, 200, 700]);
        let a = confirmed_agreement(&ours, &theirs, &deep, &[0, 1, 3], 0);
        assert_eq!(a, Agreement { moves: 4, reference_blunders: 1, caught: 1, capabot_blunders: 1, called_good: 0 });
        // Where the deeper search agrees with the first, the counts are the first's.
        let same = confirmed_agreement(&ours, &theirs, &theirs, &[0, 1, 3], 0);
        assert_eq!(same, Agreement::of(&ours, &theirs, 0));
    }

    #[test]
    fn the_scale_fit_and_rescaling_agree() {
        let game = four_plies();
        let analysis = |cps: [i32; 5]| scored(&game, cps);
        let theirs = analysis([0, -300, 100, 50, 900]);
        let ours = analysis([0, -150, 50, 25, 400]);
        let mut fit = ScaleFit::default();
        fit.add(&ours, &theirs);
        assert_eq!(fit.n, 4, "900 is out of range");
        assert!((fit.slope().unwrap() - 0.5).abs() < 1e-9);
        let doubled = rescale(&game, &ours, 2.0);
        assert_eq!(doubled.evals[1].score, Score::Cp(-300));
        assert_eq!(doubled.moves[0].judgement, theirs.moves[0].judgement, "the same cost once on the same scale");
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
