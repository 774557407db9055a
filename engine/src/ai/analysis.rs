//! Computer analysis of a finished game: a search of fixed effort (nodes, not time, so the same game
//! gives the same analysis on every machine) of every position the game reached, and what players
//! read off it: White's winning chances after each ply, each move's cost in winning chances, the
//! inaccuracies, mistakes and blunders, each side's accuracy and the turning points.
//!
//! Scores become winning chances through a logistic curve per variant ([`WinCurve`]): a centipawn
//! does not say the same about the result in every variant (the lab's fits: it says more in Capatomic). The judgements
//! follow lichess's conventions, on the 0–100 scale of winning chances: a move that costs its mover
//! at least 5 points is an inaccuracy, 10 a mistake, 15 a blunder; a move's accuracy is
//! `103.1668·e^(−0.04354·Δ) − 3.1669` for a cost Δ, clamped to 0–100.
//!
//! [`Analyser`] does the work one position at a time, so a caller can report progress, yield between
//! positions or stop; [`analyse`] runs it to the end. The result keeps only the scores and best
//! moves ([`PositionEval`]); everything else is derived from them and the game, so a stored analysis
//! ([`Analysis::encode`]) reads back ([`Analysis::decode`]) to the same judgements.

use super::{Limits, MATE, MATE_BOUND, Memory, Style, search_with};
use crate::notation::uci;
use crate::rules::{Color, Game, Move, Variant};

/// Nodes searched per position by default: an 80-ply chess game in well under 20 s on one thread of
/// this project's 2-core machines, a 100-ply Capatomic game under 40 s (`lab bench-analysis`,
/// figures in docs/analysis.md).
pub const DEFAULT_NODES: u64 = 60_000;

/// The second look: a move whose first-pass cost (its mover's drop in winning chances, the search's
/// own choice included) is at least [`SecondLook::from`] points has both its positions searched
/// again, with the table kept, to [`SecondLook::factor`] times the nodes, and is judged on that
/// deeper evidence; a move that still costs [`SecondLook::deeper_from`] points after it is looked at a
/// third time, to [`SecondLook::deeper_factor`] times the nodes. 60,000 nodes miss refutations a few
/// plies deeper (docs/analysis.md: the comparison with Fairy-Stockfish); the later looks spend the
/// extra effort only where a mark is at stake. A move the search itself chose that still costs
/// [`SecondLook::own_choice_from`] points after its looks is priced against the best other move.
/// Fixed effort still: the same game gives the same analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SecondLook {
    /// Points of winning chances (0–100) from which a move is looked at again.
    pub from: f64,
    /// The second search's nodes, as a multiple of the first's (0 or 1: no second look).
    pub factor: u64,
    /// Points a move must still cost after its second look to be looked at a third time …
    pub deeper_from: f64,
    /// … and must cost less than: a move already a mistake or worse is marked whatever a third look
    /// says of it; where the mark is at stake is between an inaccuracy and a mistake.
    pub deeper_below: f64,
    /// The third search's nodes, as a multiple of the first's (0 or 1: no third look).
    pub deeper_factor: u64,
    /// Which of the move's positions the third look searches.
    pub deeper_at: DeeperAt,
    /// The order of the first pass (and of a move's two positions in a later look).
    pub order: Order,
    /// Points of winning chances from which the search's own choice, once its looks are done, is
    /// priced against the best other move: the position searched again without it (at the nodes of
    /// its last look). The search chose the move, so its score was the move's own; the evaluation
    /// after it, a search one ply deeper into the line, can show that it loses (above 100: never).
    pub own_choice_from: f64,
    /// How every search of the analysis prunes and reduces ([`Style::PLAY`]: as the AI plays).
    pub style: Style,
}

/// The order in which an analysis searches the game's positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// From the first position to the last; a later look searches the position before the move
    /// first. The product's: backwards marked fewer of Fairy-Stockfish's blunders in the lab's
    /// comparison (docs/analysis.md, "Backwards").
    Forwards,
    /// From the last position to the first, as engines' blunder checks go: when a position is
    /// searched, the game's continuation from it (often the refutation the game went on to play) has
    /// been searched already and its scores are in the table, so each position inherits the sight of
    /// those after it at no extra nodes. A later look searches the position after the move first,
    /// for the same reason.
    Backwards,
}

/// The positions a third look searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeeperAt {
    /// Both the position before the move and the one after it.
    Both,
    /// The position after the move only: where a refutation the second look missed hides (half
    /// the nodes; in the lab it marked fewer of the reference's blunders, docs/analysis.md).
    After,
}

/// The product's looks (docs/analysis.md, "Against an independent engine"): a second look from 3
/// points at 3 × the nodes, and a third at 9 × for a move still costing 4 to 10 points after it, at
/// both positions. The search's own choice is not priced ([`SecondLook::own_choice_from`] above
/// 100: from 10 points it marked one more of seed 1's, two fewer of seed 1001's first eight
/// Capablanca games). The first pass goes forwards ([`Order`]). Its searches do not reduce captures
/// that lose material by the exchange count (`Style::losing_caps_full`; docs/analysis.md, "A more
/// tactical search"). With the moves judged on their replies' evidence ([`Evidence::OwnReply`]),
/// against Fairy-Stockfish at depth 16 over two seeds' 40 games a variant: chess 74 / 79 of its
/// blunders marked and 0 / 67 false alarms, Capablanca 149 / 161 and 2 / 147 (a third look from 5
/// points: 71 / 79 and 145 / 161); the bench's 80-ply chess game in 18.8–19.1 s of its 20
/// (docs/analysis.md, "The reply's evidence, and a third look from 4 points").
pub const SECOND_LOOK: SecondLook = SecondLook {
    from: 3.0,
    factor: 3,
    deeper_from: 4.0,
    deeper_below: 10.0,
    deeper_factor: 9,
    deeper_at: DeeperAt::Both,
    order: Order::Forwards,
    own_choice_from: 101.0,
    style: Style { losing_caps_full: true, ..Style::PLAY },
};

/// Longest game analysed, in plies (a bound on the work one request may cause).
pub const MAX_PLIES: usize = 600;

/// A score in White's view: centipawns, or mate in so many moves (positive: White mates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// A search score for the side to move, turned to White's view.
    pub fn from_search(score: i32, turn: Color) -> Score {
        let white = if turn == Color::White { score } else { -score };
        match super::mate_in(white) {
            Some(n) => Score::Mate(n),
            None => Score::Cp(white),
        }
    }

    /// PGN's `[%eval …]` value: pawns with two decimals (`0.35`, `-1.20`) or `#3` / `#-2`.
    pub fn pgn_eval(self) -> String {
        match self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                format!("{sign}{}.{:02}", cp.unsigned_abs() / 100, cp.unsigned_abs() % 100)
            }
            Score::Mate(n) => format!("#{n}"),
        }
    }
}

/// What the search said about one position of the game, or how the game stood there when it was
/// over on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionEval {
    pub score: Score,
    /// The move the search preferred; `None` where the game was over.
    pub best: Option<Move>,
}

/// How bad a move was, by what it cost its mover in winning chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!`: 5 to 10 points of winning chances.
    Inaccuracy,
    /// `?`: 10 to 15 points.
    Mistake,
    /// `??`: 15 points or more.
    Blunder,
}

impl Judgement {
    /// The cost (points of winning chances, 0–100) from which a move is judged so, as lichess judges.
    pub const fn threshold(self) -> f64 {
        match self {
            Judgement::Inaccuracy => 5.0,
            Judgement::Mistake => 10.0,
            Judgement::Blunder => 15.0,
        }
    }

    /// The judgement of a move that cost `loss` points, if any.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        [Judgement::Blunder, Judgement::Mistake, Judgement::Inaccuracy].into_iter().find(|j| loss >= j.threshold())
    }

    /// The annotation glyph: `?!`, `?` or `??`.
    pub const fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// How a variant's scores map to winning chances: `50 + 50·(2/(1 + e^(−k·cp)) − 1)` for the side
/// the score favours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinCurve {
    /// The slope `k`, per centipawn.
    pub k: f64,
}

/// lichess's slope for chess scores (a public fit of its game results against Stockfish's scores).
pub const LICHESS_CHESS_K: f64 = 0.003_682_08;

/// capabot's centipawns are smaller than those of the Stockfish family, on whose scores lichess's
/// curve and thresholds were fitted: `lab compare-analysis` finds them about 0.73 × Fairy-Stockfish's
/// in chess and 0.71 × in Capablanca, position by position. A variant not listed (Fairy-Stockfish
/// plays it differently or not at all) takes chess's factor.
const SCORE_SCALES: &[(&str, f64)] = &[("chess", 1.37), ("capablanca", 1.41)];

/// A variant's slope relative to chess's on capabot's own scores, as the lab fitted it: `lab
/// fit-curve --variant V --from … --relative-to …` plays capabot against itself, scores every
/// position with this analysis, fits the slope to the games' results and divides it by chess's
/// (docs/analysis.md, "The curves per variant"), with 90 % of its resamplings of the games.
struct RelativeFit {
    variant: &'static str,
    ratio: f64,
    /// The 5th and 95th percentiles of the ratio over resamplings of both variants' games.
    spread: (f64, f64),
}

impl RelativeFit {
    /// What the curve uses: the fitted ratio where the games tell the variant from chess (its
    /// spread leaves out 1), else chess's own slope. Self-play games are few and their fits
    /// scatter by a factor of two either way; a variant gets a curve of its own only where that
    /// scatter cannot explain the difference.
    fn used(&self) -> f64 {
        let (low, high) = self.spread;
        if (low..=high).contains(&1.0) { 1.0 } else { self.ratio }
    }
}

/// Every variant's fit (a test says so). Chess keeps lichess's slope (the judgements' thresholds
/// and the accuracy formula were calibrated with it) and every other variant gets it scaled by
/// its [`RelativeFit::used`] ratio.
const RELATIVE_FITS: &[RelativeFit] = &[
    RelativeFit { variant: "chess", ratio: 1.0, spread: (1.0, 1.0) },
    RelativeFit { variant: "capablanca", ratio: 0.862, spread: (0.544, 1.465) },
    RelativeFit { variant: "caparandom", ratio: 1.281, spread: (0.660, 2.348) },
    RelativeFit { variant: "caparelocation", ratio: 1.036, spread: (0.553, 2.067) },
    RelativeFit { variant: "stones", ratio: 1.151, spread: (0.769, 1.783) },
    RelativeFit { variant: "atomic", ratio: 0.761, spread: (0.481, 1.160) },
    RelativeFit { variant: "capatomic", ratio: 1.072, spread: (0.633, 2.219) },
    RelativeFit { variant: "atomic-nocheck", ratio: 0.918, spread: (0.292, 3.103) },
    RelativeFit { variant: "atomic-deathmatch", ratio: 1.220, spread: (0.573, 2.732) },
    // Its games' results follow capabot's scores far less than chess's do: a curve of its own.
    RelativeFit { variant: "atomic-pawnsafe", ratio: 0.366, spread: (0.149, 0.589) },
    RelativeFit { variant: "bomb", ratio: 1.147, spread: (0.635, 2.297) },
];

fn lookup(table: &[(&str, f64)], v: &Variant) -> Option<f64> {
    table.iter().find(|(name, _)| *name == v.name).map(|(_, x)| *x)
}

impl WinCurve {
    /// The curve of a variant for capabot's own scores: chess's (lichess's slope, steeper by the
    /// ratio of the two engines' centipawns) times the variant's fitted ratio ([`RELATIVE_FITS`]).
    pub fn of(v: &Variant) -> WinCurve {
        let relative = RELATIVE_FITS.iter().find(|f| f.variant == v.name).map_or(1.0, RelativeFit::used);
        WinCurve { k: LICHESS_CHESS_K * SCORE_SCALES[0].1 * relative }
    }

    /// The curve of a variant for scores on the scale of the Stockfish family (lichess's for chess;
    /// the lab judges its reference engine's analysis with it): [`WinCurve::of`]'s, flatter by the
    /// ratio of the two engines' centipawns in that variant.
    pub fn stockfish_scale(v: &Variant) -> WinCurve {
        let scale = lookup(SCORE_SCALES, v).unwrap_or(SCORE_SCALES[0].1);
        WinCurve { k: WinCurve::of(v).k / scale }
    }

    /// White's winning chances (0–100) for a score in White's view; mates are 100 and 0.
    pub fn white_chances(self, score: Score) -> f64 {
        match score {
            Score::Mate(n) if n > 0 => 100.0,
            Score::Mate(_) => 0.0,
            Score::Cp(cp) => {
                let cp = f64::from(cp.clamp(-MATE_BOUND, MATE_BOUND));
                50.0 + 50.0 * (2.0 / (1.0 + (-self.k * cp).exp()) - 1.0)
            }
        }
    }
}

/// A move's accuracy (0–100) from its cost in winning chances, lichess's formula.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One move of the game as the analysis sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveReview {
    /// 0 for the game's first move.
    pub ply: usize,
    pub mover: Color,
    pub played: Move,
    /// The search's preferred move in the position before (the same as `played` when it was played).
    pub best: Option<Move>,
    /// White's winning chances before and after the move (0–100), after it on the evidence the
    /// analysis was judged on ([`Evidence`]).
    pub before: f64,
    pub after: f64,
    /// What the move cost its mover in winning chances (0–100; 0 for the best move).
    pub loss: f64,
    pub accuracy: f64,
    pub judgement: Option<Judgement>,
}

/// One side's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Percent, 0–100; `None` for a side without moves.
    pub accuracy: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// A game's analysis: the evaluation of every position (one more than the moves) at a fixed effort.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Nodes per position.
    pub nodes: u64,
    pub curve: WinCurve,
    pub evals: Vec<PositionEval>,
    pub moves: Vec<MoveReview>,
}

/// Why an analysis could not be made or read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The game has more plies than [`MAX_PLIES`].
    TooLong { plies: usize },
    /// A stored analysis does not fit the game (another game, or a corrupt record).
    Mismatch(String),
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::TooLong { plies } => write!(f, "{plies} plies, more than {MAX_PLIES}"),
            AnalysisError::Mismatch(why) => write!(f, "stored analysis does not fit the game: {why}"),
        }
    }
}

/// Analyses a game position by position: [`Analyser::step`] searches the next one.
pub struct Analyser {
    game: Game,
    limits: Limits,
    second: SecondLook,
    curve: WinCurve,
    memory: Memory,
    hashes: Vec<u64>,
    /// Positions the game had reached before (their hashes kept in `hashes`: a repetition counts).
    repeated: Vec<bool>,
    /// The latest position of the game searched since the table last forgot its scores.
    latest: Option<usize>,
    /// Each position's evaluation so far (`None`: not yet searched).
    evals: Vec<Option<PositionEval>>,
    /// Positions done in the first pass.
    first: usize,
    /// How deep each position has been looked at: 0 the first pass, 1 the second look, 2 the third
    /// ([`OVER`]: over on the board, nothing to look at again).
    level: Vec<u8>,
    /// Searches waiting, in order.
    pending: std::collections::VecDeque<Pending>,
    /// Whether each position's own choice has been priced against the other moves since the
    /// position was last searched.
    priced: Vec<bool>,
    /// Nodes searched so far, every look included (the effort, whatever the machine's speed).
    searched: u64,
    /// Searches without the played move so far.
    others_searched: usize,
}

/// [`Analyser::level`] of a position where the game was over on the board.
const OVER: u8 = u8::MAX;

/// A search waiting in [`Analyser::pending`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// A later look at a position, to this level.
    Look(usize, u8),
    /// The position searched without the move the game played there ([`SecondLook::own_choice_from`]).
    Others(usize),
}

impl Analyser {
    /// An analysis of `game` at `nodes` per position (0: [`DEFAULT_NODES`]) with the product's
    /// [`SECOND_LOOK`].
    pub fn new(game: Game, nodes: u64) -> Result<Analyser, AnalysisError> {
        Analyser::with_second_look(game, nodes, SECOND_LOOK)
    }

    /// An analysis with another second look (the lab's comparisons).
    pub fn with_second_look(game: Game, nodes: u64, second: SecondLook) -> Result<Analyser, AnalysisError> {
        if game.moves().len() > MAX_PLIES {
            return Err(AnalysisError::TooLong { plies: game.moves().len() });
        }
        let nodes = if nodes == 0 { DEFAULT_NODES } else { nodes };
        let limits = Limits { nodes: Some(nodes), hash_mb: 16, style: second.style, ..Limits::default() };
        let hashes = repetition_history(&game);
        let repeated = hashes.iter().zip(game.positions()).map(|(&h, p)| h == p.hash()).collect();
        let curve = WinCurve::of(game.start().variant());
        let level = vec![0; game.positions().len()];
        let evals = vec![None; game.positions().len()];
        let priced = vec![false; game.positions().len()];
        Ok(Analyser {
            game,
            limits,
            second,
            curve,
            memory: Memory::new(16),
            hashes,
            repeated,
            latest: None,
            evals,
            first: 0,
            level,
            pending: std::collections::VecDeque::new(),
            priced,
            searched: 0,
            others_searched: 0,
        })
    }

    /// Positions in all (the moves and one).
    pub fn total(&self) -> usize {
        self.game.positions().len()
    }

    /// Positions done in the first pass.
    pub fn done(&self) -> usize {
        self.first
    }

    /// Positions searched a second time so far.
    pub fn looked_again(&self) -> usize {
        self.looked_at_least(1)
    }

    /// Positions searched a third time so far.
    pub fn looked_deeper(&self) -> usize {
        self.looked_at_least(2)
    }

    /// Positions whose own choice was searched against the other moves so far.
    pub fn priced_own_choices(&self) -> usize {
        self.others_searched
    }

    /// Nodes searched so far, every look included.
    pub fn nodes_searched(&self) -> u64 {
        self.searched
    }

    /// Calls `pause` during every later search, every [`crate::ai::PAUSE_EVERY`] nodes
    /// ([`Limits::pause`]): the host waits in it while people's inputs are handled. Limited by
    /// nodes, the analysis is the same whatever the pauses.
    pub fn pause_with(&mut self, pause: crate::ai::Pause) {
        self.limits.pause = Some(pause);
    }

    fn looked_at_least(&self, level: u8) -> usize {
        let searched = |e: &Option<PositionEval>| e.is_some_and(|e| e.best.is_some());
        self.level.iter().zip(&self.evals).filter(|(l, e)| (level..OVER).contains(*l) && searched(e)).count()
    }

    /// Does the next search: a position's later look if one is waiting, else the next position's
    /// first (in [`SecondLook::order`]); `false` when every position is done.
    pub fn step(&mut self) -> bool {
        match self.pending.pop_front() {
            Some(Pending::Look(i, level)) => {
                let limits = Limits { nodes: Some(self.look_nodes(level)), ..self.limits.clone() };
                let eval = self.search(i, &limits);
                self.level[i] = level;
                self.priced[i] = false;
                self.scored(i, eval);
                return true;
            }
            Some(Pending::Others(i)) => {
                self.price_own_choice(i);
                return true;
            }
            None => {}
        }
        let total = self.total();
        if self.first >= total {
            return false;
        }
        let i = match self.second.order {
            Order::Forwards => self.first,
            Order::Backwards => total - 1 - self.first,
        };
        let eval = match over_at(&self.game, i) {
            Some(eval) => {
                self.level[i] = OVER;
                eval
            }
            None => self.search(i, &self.limits.clone()),
        };
        self.first += 1;
        self.scored(i, eval);
        true
    }

    /// Nodes of a search at a look's level (0: the first pass).
    fn look_nodes(&self, level: u8) -> u64 {
        let factor = match level {
            0 => 1,
            1 => self.second.factor,
            _ => self.second.deeper_factor,
        };
        self.limits.nodes.unwrap_or(DEFAULT_NODES).saturating_mul(factor.max(1))
    }

    /// Searches position `i` without the move the game played there, which was the search's own
    /// choice, at the nodes of the position's last look. If the best other move is worth more to the
    /// mover than the position after the played move, it becomes the position's evaluation: its
    /// best move and score, against which the played move is then judged.
    fn price_own_choice(&mut self, i: usize) {
        let played = self.game.moves()[i];
        let limits =
            Limits { nodes: Some(self.look_nodes(self.level[i])), excluded: Some(played), ..self.limits.clone() };
        let others = self.search(i, &limits);
        self.priced[i] = true;
        self.others_searched += 1;
        let Some(Some(after)) = self.evals.get(i + 1) else { return };
        let mover = self.game.positions()[i].turn();
        let for_mover = |score| {
            let white = self.curve.white_chances(score);
            if mover == Color::White { white } else { 100.0 - white }
        };
        if others.best.is_some() && for_mover(others.score) > for_mover(after.score) {
            self.scored(i, others);
        }
    }

    /// Keeps a position's (new) score and considers the moves on both sides of it.
    fn scored(&mut self, i: usize, eval: PositionEval) {
        self.evals[i] = Some(eval);
        if let Some(before) = i.checked_sub(1) {
            self.consider(before);
        }
        self.consider(i);
    }

    fn search(&mut self, i: usize, limits: &Limits) -> PositionEval {
        // A later position's search was given the game's history up to it, where a return to a
        // position the game repeated after `i` counts as a draw: the table may hold scores that are
        // draws only for it. Going backwards past such a repetition, the table forgets its scores.
        // (`i` itself is the root of its own search, where a return to it is a draw too.)
        if self.second.order == Order::Backwards
            && self.latest.is_some_and(|latest| latest > i + 1 && self.repeated[i + 1..latest].contains(&true))
        {
            self.memory.forget_scores();
            self.latest = None;
        }
        self.latest = self.latest.max(Some(i));
        let pos = &self.game.positions()[i];
        let r = search_with(pos, &self.hashes[..i], limits, &mut self.memory, &mut |_| {});
        self.searched += r.nodes;
        PositionEval { score: Score::from_search(r.score, pos.turn()), best: r.best }
    }

    /// Queues the next look at the positions before and after the `ply`-th move if both are
    /// evaluated and the move's drop, on the evidence so far, reaches that look's threshold: a second
    /// look from [`SecondLook::from`], a third from [`SecondLook::deeper_from`] once both positions
    /// have had their second (at the positions [`SecondLook::deeper_at`] names).
    fn consider(&mut self, ply: usize) {
        let (Some(Some(before)), Some(Some(after))) = (self.evals.get(ply), self.evals.get(ply + 1)) else { return };
        let mover = self.game.positions()[ply].turn();
        let (b, a) = (self.curve.white_chances(before.score), self.curve.white_chances(after.score));
        let drop = if mover == Color::White { b - a } else { a - b };
        let next = match self.level[ply].min(self.level[ply + 1]) {
            0 if self.second.factor > 1 && drop >= self.second.from => 1,
            1 if self.second.deeper_factor > 1
                && (self.second.deeper_from..self.second.deeper_below).contains(&drop) =>
            {
                2
            }
            _ => {
                // No more looks at this move: if it was the search's own choice and still costs, the
                // other moves are searched (once both positions' waiting looks are done).
                // (The threshold first: the product never prices, and the queue is not walked.)
                if drop >= self.second.own_choice_from
                    && before.best == Some(self.game.moves()[ply])
                    && !self.priced[ply]
                    && !self.pending.iter().any(|p| matches!(*p, Pending::Look(j, _) if j == ply || j == ply + 1))
                    && !self.pending.contains(&Pending::Others(ply))
                {
                    self.pending.push_back(Pending::Others(ply));
                }
                return;
            }
        };
        let looks = match (next, self.second.deeper_at, self.second.order) {
            (2, DeeperAt::After, _) => vec![ply + 1],
            (_, _, Order::Forwards) => vec![ply, ply + 1],
            (_, _, Order::Backwards) => vec![ply + 1, ply],
        };
        for j in looks {
            if self.level[j] < next && !self.pending.contains(&Pending::Look(j, next)) {
                self.pending.push_back(Pending::Look(j, next));
            }
        }
    }

    /// The analysis, once every position is done (else `None`).
    pub fn finish(self) -> Option<Analysis> {
        if !self.pending.is_empty() {
            return None;
        }
        let evals = self.evals.into_iter().collect::<Option<Vec<_>>>()?;
        let nodes = self.limits.nodes.unwrap_or(DEFAULT_NODES);
        Some(Analysis::from_evals(&self.game, nodes, evals))
    }
}

/// The game's positions as the search's history for repetitions, the Stockfish way: the search
/// counts any repetition of a position on its path as a draw, which is right inside its own tree
/// but not for a position the game had reached only once before (the opponent need not repeat it a
/// third time). So a position the game reached once up to then is hidden from the search (its
/// hash replaced by one nothing matches); one reached twice stays, its next occurrence being the
/// third. Without this, a position whose best line returns to one of the game's earlier positions
/// looked drawish (docs/analysis.md: the `Ni2` false alarms in Capablanca).
fn repetition_history(game: &Game) -> Vec<u64> {
    let hashes: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
    hashes
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let before = hashes[..i].iter().filter(|&&x| x == h).count();
            // A position's second occurrence keeps its hash (one more is a threefold repetition);
            // a first occurrence gets one no position has (the index, rotated into the high bits).
            if before >= 1 { h } else { !h ^ (i as u64).rotate_right(17) }
        })
        .collect()
}

/// How the game stood at its `ply`-th position if it was over there on the board (mate, an exploded
/// king, a draw by rule; the game's last position also by the game's own outcome): nothing to search.
/// A side that has won is "mate" for it, 100 % (or 0 %) on every curve.
pub fn over_at(game: &Game, ply: usize) -> Option<PositionEval> {
    let pos = game.positions().get(ply)?;
    let over = if ply + 1 == game.positions().len() { game.outcome() } else { pos.outcome() };
    let score = match over?.winner() {
        Some(Color::White) => Score::Mate(1),
        Some(Color::Black) => Score::Mate(-1),
        None => Score::Cp(0),
    };
    Some(PositionEval { score, best: None })
}

/// Analyses the whole game at `nodes` per position (0: the default), calling `progress(done, total)`
/// after each position. Blocking: seconds of work.
pub fn analyse(game: &Game, nodes: u64, progress: &mut dyn FnMut(usize, usize)) -> Result<Analysis, AnalysisError> {
    analyse_with(game, nodes, SECOND_LOOK, progress)
}

/// [`analyse`] with another second look.
pub fn analyse_with(
    game: &Game,
    nodes: u64,
    second: SecondLook,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AnalysisError> {
    let mut a = Analyser::with_second_look(game.clone(), nodes, second)?;
    let total = a.total();
    while a.step() {
        progress(a.done(), total);
    }
    a.finish().ok_or_else(|| AnalysisError::Mismatch("unfinished".into()))
}

/// What a move's position after it is taken to be worth to its mover when the move is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// Its own evaluation only (how the lab judges the reference engine's evaluations, as lichess
    /// judges Stockfish's).
    Position,
    /// Its own evaluation, and the game's reply where that reply was the analysis's own choice
    /// there: the opponent could play it, so the position after the move is worth to its mover at
    /// most what the position after the reply is; the reply's position was searched from one ply
    /// further along the same line, so where it says less, it is the better evidence. capabot's
    /// own analyses (docs/analysis.md, "The reply's evidence").
    OwnReply,
}

impl Analysis {
    /// The judgements from capabot's evaluations of the game's positions (one per position), with
    /// the evidence of the analysis's own replies ([`Evidence::OwnReply`]).
    pub fn from_evals(game: &Game, nodes: u64, evals: Vec<PositionEval>) -> Analysis {
        Analysis::from_evals_on(game, nodes, evals, WinCurve::of(game.start().variant()), Evidence::OwnReply)
    }

    /// The judgements from evaluations judged through `curve` on `evidence` (another engine's
    /// scores, in the lab, on their positions' alone).
    pub fn from_evals_on(
        game: &Game,
        nodes: u64,
        evals: Vec<PositionEval>,
        curve: WinCurve,
        evidence: Evidence,
    ) -> Analysis {
        let chances: Vec<f64> = evals.iter().map(|e| curve.white_chances(e.score)).collect();
        let mut moves = Vec::with_capacity(game.moves().len());
        for (ply, (pos, &played)) in game.positions().iter().zip(game.moves()).enumerate() {
            let (Some(&before), Some(&after)) = (chances.get(ply), chances.get(ply + 1)) else { break };
            let best = evals.get(ply).and_then(|e| e.best);
            let mover = pos.turn();
            // The reply's evidence: the game's next move, if it was the analysis's own choice after
            // this one, bounds what this move's position is worth to its mover.
            let replied = match (evidence, game.moves().get(ply + 1), chances.get(ply + 2)) {
                (Evidence::OwnReply, Some(&reply), Some(&two))
                    if evals.get(ply + 1).and_then(|e| e.best) == Some(reply) =>
                {
                    Some(two)
                }
                _ => None,
            };
            let after = match (replied, mover) {
                (Some(two), Color::White) => after.min(two),
                (Some(two), Color::Black) => after.max(two),
                (None, _) => after,
            };
            let drop = if mover == Color::White { before - after } else { after - before };
            // The search's own choice costs nothing: a deeper look after it is not the mover's fault.
            // (Where the analysis found another move better than what the choice turned out to be
            // worth, that move is the position's best: `Analyser::price_own_choice`.)
            let loss = if best == Some(played) { 0.0 } else { drop.max(0.0) };
            moves.push(MoveReview {
                ply,
                mover,
                played,
                best,
                before,
                after,
                loss,
                accuracy: move_accuracy(loss),
                judgement: Judgement::of_loss(loss),
            });
        }
        Analysis { nodes, curve, evals, moves }
    }

    /// White's winning chances (0–100) in each position, from the start to the end.
    pub fn white_chances(&self) -> Vec<f64> {
        self.evals.iter().map(|e| self.curve.white_chances(e.score)).collect()
    }

    /// One side's accuracy and counts. The accuracy is the mean of the arithmetic and the harmonic
    /// mean of its moves' accuracies (the harmonic mean weighs a blunder as players feel it).
    pub fn summary(&self, side: Color) -> SideSummary {
        let mine: Vec<&MoveReview> = self.moves.iter().filter(|m| m.mover == side).collect();
        let count = |j| mine.iter().filter(|m| m.judgement == Some(j)).count() as u32;
        let accuracy = (!mine.is_empty()).then(|| {
            let n = mine.len() as f64;
            let mean = mine.iter().map(|m| m.accuracy).sum::<f64>() / n;
            let harmonic = n / mine.iter().map(|m| 1.0 / m.accuracy.max(1.0)).sum::<f64>();
            ((mean + harmonic) / 2.0).clamp(0.0, 100.0)
        });
        SideSummary {
            accuracy,
            inaccuracies: count(Judgement::Inaccuracy),
            mistakes: count(Judgement::Mistake),
            blunders: count(Judgement::Blunder),
        }
    }

    /// The `n` moves that cost most (at least an inaccuracy), in game order.
    pub fn turning_points(&self, n: usize) -> Vec<&MoveReview> {
        let mut worst: Vec<&MoveReview> = self.moves.iter().filter(|m| m.judgement.is_some()).collect();
        worst.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
        worst.truncate(n);
        worst.sort_by_key(|m| m.ply);
        worst
    }

    /// The evaluations as text for storage: one field per position, `cp:35 e2e4`, `mate:-2 h7h8q`,
    /// `cp:0 -` (no best move), separated by `;`.
    pub fn encode(&self, game: &Game) -> String {
        let mut out = String::new();
        for (i, e) in self.evals.iter().enumerate() {
            if i > 0 {
                out.push(';');
            }
            match e.score {
                Score::Cp(cp) => out.push_str(&format!("cp:{cp}")),
                Score::Mate(n) => out.push_str(&format!("mate:{n}")),
            }
            out.push(' ');
            match (e.best, game.positions().get(i)) {
                (Some(m), Some(pos)) => out.push_str(&uci::write(pos, m)),
                _ => out.push('-'),
            }
        }
        out
    }

    /// Reads back what [`Analysis::encode`] wrote for `game`.
    pub fn decode(game: &Game, nodes: u64, text: &str) -> Result<Analysis, AnalysisError> {
        let bad = |why: String| AnalysisError::Mismatch(why);
        let fields: Vec<&str> = text.split(';').collect();
        if fields.len() != game.positions().len() {
            return Err(bad(format!("{} positions stored, {} in the game", fields.len(), game.positions().len())));
        }
        let mut evals = Vec::with_capacity(fields.len());
        for (field, pos) in fields.iter().zip(game.positions()) {
            let (score, best) = field.split_once(' ').ok_or_else(|| bad(format!("field '{field}'")))?;
            let number = |s: &str| s.parse::<i32>().map_err(|_| bad(format!("score '{score}'")));
            let score = match score.split_once(':') {
                Some(("cp", v)) => Score::Cp(number(v)?.clamp(-MATE, MATE)),
                // `mate:0` was written before stop 78 for Black mating in one ply (`mate_in`'s
                // rounding then): it is read as what it meant.
                Some(("mate", "0")) => Score::Mate(-1),
                Some(("mate", v)) => Score::Mate(number(v)?),
                _ => return Err(bad(format!("score '{score}'"))),
            };
            let best = match best {
                "-" => None,
                m => Some(uci::parse(pos, m).map_err(|e| bad(format!("move '{m}': {e}")))?),
            };
            evals.push(PositionEval { score, best });
        }
        Ok(Analysis::from_evals(game, nodes, evals))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::san;
    use crate::rules::{Position, variant};

    /// A second look at 3 × the nodes from 3 points, no third look: fixed here (the product's when
    /// written) so that these tests do not follow a change of [`SECOND_LOOK`].
    const TWO_LOOKS: SecondLook = SecondLook {
        from: 3.0,
        factor: 3,
        deeper_from: 5.0,
        deeper_below: 10.0,
        deeper_factor: 0,
        deeper_at: DeeperAt::Both,
        order: Order::Forwards,
        own_choice_from: 101.0,
        style: Style::PLAY,
    };

    fn game_of(v: &'static Variant, sans: &[&str]) -> Game {
        let mut g = Game::new(Position::start(v));
        for s in sans {
            let m = san::parse(g.position(), s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert!(g.play(m));
        }
        g
    }

    #[test]
    fn lichess_curve_and_accuracy() {
        let c = WinCurve::stockfish_scale(&variant::CHESS);
        assert!((c.white_chances(Score::Cp(0)) - 50.0).abs() < 1e-9);
        // 100 centipawns: about 59 %, as lichess shows; symmetric for Black.
        let p = c.white_chances(Score::Cp(100));
        assert!((p - 59.1).abs() < 0.1, "{p}");
        assert!((c.white_chances(Score::Cp(-100)) - (100.0 - p)).abs() < 1e-9);
        assert_eq!(c.white_chances(Score::Mate(3)), 100.0);
        assert_eq!(c.white_chances(Score::Mate(-1)), 0.0);
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((move_accuracy(10.0) - 63.5).abs() < 0.2, "{}", move_accuracy(10.0));
        assert_eq!(move_accuracy(100.0), 0.0);
        // Pawn-safe atomic's fitted curve is flatter; Capatomic's fit is not told apart from chess's.
        let pawnsafe = WinCurve::of(&variant::ATOMIC_PAWNSAFE).white_chances(Score::Cp(100));
        assert!((pawnsafe - 54.6).abs() < 0.1, "{pawnsafe}");
        assert_eq!(WinCurve::of(&variant::CAPATOMIC), WinCurve::of(&variant::CHESS));
        // capabot's own scores are smaller than Stockfish's: its curves are steeper by the ratio,
        // a variant without a ratio of its own taking chess's.
        let ours = WinCurve::of(&variant::CHESS);
        assert!((ours.k / c.k - 1.37).abs() < 1e-9, "{ours:?}");
        assert!((ours.white_chances(Score::Cp(73)) - c.white_chances(Score::Cp(100))).abs() < 0.1);
        let capablanca = &variant::CAPABLANCA;
        assert!((WinCurve::of(capablanca).k / WinCurve::stockfish_scale(capablanca).k - 1.41).abs() < 1e-9);
        assert!(
            (WinCurve::of(&variant::CAPATOMIC).k / WinCurve::stockfish_scale(&variant::CAPATOMIC).k - 1.37).abs()
                < 1e-9
        );
    }

    #[test]
    fn every_variant_has_a_fitted_curve() {
        for v in variant::VARIANTS {
            let fits: Vec<_> = RELATIVE_FITS.iter().filter(|f| f.variant == v.name).collect();
            let [fit] = fits[..] else { panic!("{}: {} fits", v.name, fits.len()) };
            let (low, high) = fit.spread;
            assert!(low <= fit.ratio && fit.ratio <= high && (0.1..10.0).contains(&fit.ratio), "{}", v.name);
            assert_eq!(WinCurve::of(v).k, LICHESS_CHESS_K * 1.37 * fit.used(), "{}", v.name);
        }
        assert_eq!(RELATIVE_FITS.len(), variant::VARIANTS.len(), "a fit for a variant that does not exist");
        // A ratio is used only where its spread leaves out chess's.
        let near = RelativeFit { variant: "x", ratio: 1.4, spread: (0.8, 2.3) };
        let apart = RelativeFit { variant: "x", ratio: 0.4, spread: (0.1, 0.8) };
        assert_eq!((near.used(), apart.used()), (1.0, 0.4));
    }

    #[test]
    fn the_second_look_searches_a_blunder_again_once() {
        // g4 allows mate in one; the moves before it cost nothing.
        let g = game_of(&variant::CHESS, &["f3", "e5", "g4", "Qh4#"]);
        let mut a = Analyser::with_second_look(g.clone(), 2_000, TWO_LOOKS).unwrap();
        let mut steps = 0;
        while a.step() {
            steps += 1;
            assert!(steps < 20, "the second look ends");
        }
        // At least the positions before and after g4, each once: a step per search.
        assert!(a.looked_again() >= 2, "{} looked at again", a.looked_again());
        assert_eq!(steps, 5 + a.looked_again());
        let looked_nodes = a.nodes_searched();
        let looked = a.finish().unwrap();
        assert_eq!(looked.moves[2].judgement, Some(Judgement::Blunder));
        // Without it, one step per position; with it, the same analysis every time.
        let mut none = Analyser::with_second_look(g.clone(), 2_000, SecondLook { factor: 0, ..TWO_LOOKS }).unwrap();
        let mut plain_steps = 0;
        while none.step() {
            plain_steps += 1;
        }
        assert_eq!((plain_steps, none.looked_again()), (5, 0));
        // The effort counts every search: the second looks' too.
        assert!(none.nodes_searched() > 0);
        assert!(looked_nodes > none.nodes_searched(), "{looked_nodes} against {}", none.nodes_searched());
        let again = analyse_with(&g, 2_000, TWO_LOOKS, &mut |_, _| {}).unwrap();
        assert_eq!(again, looked);
    }

    #[test]
    fn a_move_still_costly_after_its_second_look_is_looked_at_a_third_time() {
        let g = game_of(&variant::CHESS, &["f3", "e5", "g4", "Qh4#"]);
        let second = TWO_LOOKS;
        let third = SecondLook { deeper_factor: 9, deeper_below: 101.0, ..second };
        let run = |looks: SecondLook| {
            let mut a = Analyser::with_second_look(g.clone(), 2_000, looks).unwrap();
            let mut steps = 0;
            while a.step() {
                steps += 1;
                assert!(steps < 30, "the looks end");
            }
            (steps, a.looked_again(), a.looked_deeper(), a.finish().unwrap())
        };
        // g4 costs the game: beyond the band where a third look can change its mark.
        let (_, _, beyond, _) = run(SecondLook { deeper_factor: 9, ..second });
        assert_eq!(beyond, 0);
        let (steps2, again2, deeper2, with_two) = run(second);
        assert_eq!((deeper2, steps2), (0, 5 + again2));
        let (steps3, again3, deeper3, with_three) = run(third);
        // g4 still costs the game after its second look: both its positions once more, a step each;
        // the mate's last position is over on the board and never searched.
        assert!(deeper3 >= 1, "{deeper3} looked at a third time");
        assert_eq!(again3, again2);
        assert_eq!(steps3, 5 + again3 + deeper3);
        assert_eq!(with_three.moves[2].judgement, Some(Judgement::Blunder));
        assert_eq!(with_two.moves[2].judgement, Some(Judgement::Blunder));
        // At the position after the move alone: fewer positions, the same mark.
        let (steps_after, again_after, deeper_after, after_only) =
            run(SecondLook { deeper_at: DeeperAt::After, ..third });
        assert!((1..deeper3).contains(&deeper_after), "{deeper_after} after the move, {deeper3} both");
        assert_eq!(steps_after, 5 + again_after + deeper_after);
        assert_eq!(after_only.moves[2].judgement, Some(Judgement::Blunder));
        // A threshold nothing reaches looks no deeper; the same settings give the same analysis.
        let (_, _, none, _) = run(SecondLook { deeper_from: 101.0, ..third });
        assert_eq!(none, 0);
        assert_eq!(run(third).3, with_three);
    }

    #[test]
    fn the_search_s_own_choice_refuted_after_it_is_priced_against_the_other_moves() {
        // g4 allows mate in one. The search of the position before it is made to have chosen g4 (at
        // a 2,000-node search it does not), as a search that misses the refutation does.
        let g = game_of(&variant::CHESS, &["f3", "e5", "g4", "Qh4#"]);
        let g4 = g.moves()[2];
        let run = |own_choice_from: f64| {
            let looks = SecondLook { factor: 0, own_choice_from, ..TWO_LOOKS };
            let mut a = Analyser::with_second_look(g.clone(), 2_000, looks).unwrap();
            while a.done() < 3 {
                assert!(a.step());
            }
            a.evals[2] = Some(PositionEval { score: Score::Cp(20), best: Some(g4) });
            let mut steps = 0;
            while a.step() {
                steps += 1;
                assert!(steps < 10, "the analysis ends");
            }
            (a.priced_own_choices(), a.finish().unwrap())
        };
        // The old rule: the search's own choice costs nothing, whatever follows it.
        let (none, unpriced) = run(101.0);
        assert_eq!((none, unpriced.moves[2].loss, unpriced.moves[2].judgement), (0, 0.0, None));
        // Priced: the position's best is another move, and g4 a blunder against it.
        let (priced, analysis) = run(10.0);
        assert_eq!(priced, 1);
        let m = analysis.moves[2];
        assert!(m.best.is_some_and(|b| b != g4), "{m:?}");
        assert_eq!(m.judgement, Some(Judgement::Blunder), "{m:?}");
        assert!(m.before > 30.0, "{m:?}");
        // Stored as any analysis is: a best move and a score per position.
        assert_eq!(Analysis::decode(&g, 2_000, &analysis.encode(&g)).unwrap(), analysis);
    }

    #[test]
    fn a_pause_in_the_search_changes_nothing_but_is_called() {
        let g = game_of(&variant::CHESS, &["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        let plain = analyse(&g, 20_000, &mut |_, _| {}).unwrap();
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut a = Analyser::new(g.clone(), 20_000).unwrap();
        let counted = calls.clone();
        a.pause_with(crate::ai::Pause(std::sync::Arc::new(move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })));
        while a.step() {}
        let nodes = a.nodes_searched();
        let paused = a.finish().unwrap();
        assert_eq!(paused.encode(&g), plain.encode(&g), "the same analysis");
        // About one call per PAUSE_EVERY nodes.
        let calls = calls.load(std::sync::atomic::Ordering::Relaxed);
        assert!(calls >= nodes / crate::ai::PAUSE_EVERY / 2, "{calls} calls for {nodes} nodes");
    }

    #[test]
    fn backwards_the_first_pass_goes_from_the_last_position_to_the_first() {
        // Not over: the last position is searched too.
        let g = game_of(&variant::CHESS, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
        let positions = g.positions().len();
        for (order, expected) in
            [(Order::Backwards, (0..positions).rev().collect::<Vec<_>>()), (Order::Forwards, (0..positions).collect())]
        {
            let looks = SecondLook { order, ..TWO_LOOKS };
            let mut a = Analyser::with_second_look(g.clone(), 2_000, looks).unwrap();
            let mut firsts = Vec::new();
            let mut steps = 0;
            loop {
                let known: Vec<bool> = a.evals.iter().map(Option::is_some).collect();
                let done = a.done();
                if !a.step() {
                    break;
                }
                steps += 1;
                assert!(steps < 40, "the analysis ends");
                let new: Vec<usize> = (0..positions).filter(|&i| !known[i] && a.evals[i].is_some()).collect();
                // A step is a position's first search (counted by the progress) or a later look.
                if a.done() > done {
                    assert_eq!((a.done(), new.len()), (done + 1, 1));
                    firsts.push(new[0]);
                } else {
                    assert!(new.is_empty());
                }
            }
            assert_eq!(firsts, expected, "{order:?}");
            assert!(a.looked_again() > 0, "{order:?}: the later looks come between");
            assert_eq!(a.finish(), analyse_with(&g, 2_000, looks, &mut |_, _| {}).ok(), "{order:?}");
        }
    }

    /// A first pass by hand: one table, the last position first, each searched with the game's
    /// history before it; the table's scores forgotten before the search of the position `forget_at`.
    fn backwards_by_hand(g: &Game, nodes: u64, forget_at: Option<usize>) -> Vec<PositionEval> {
        let history = repetition_history(g);
        let limits = Limits { nodes: Some(nodes), hash_mb: 16, ..Limits::default() };
        let mut memory = Memory::new(16);
        let mut evals: Vec<PositionEval> = (0..g.positions().len())
            .rev()
            .map(|i| {
                if Some(i) == forget_at {
                    memory.forget_scores();
                }
                let pos = &g.positions()[i];
                let r = search_with(pos, &history[..i], &limits, &mut memory, &mut |_| {});
                PositionEval { score: Score::from_search(r.score, pos.turn()), best: r.best }
            })
            .collect();
        evals.reverse();
        evals
    }

    #[test]
    fn each_position_is_searched_with_the_table_of_the_positions_after_it() {
        let g = game_of(&variant::CHESS, &["e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1"]);
        let first_pass = |order| SecondLook { factor: 0, order, ..TWO_LOOKS };
        let backwards = analyse_with(&g, 3_000, first_pass(Order::Backwards), &mut |_, _| {}).unwrap();
        let forwards = analyse_with(&g, 3_000, first_pass(Order::Forwards), &mut |_, _| {}).unwrap();
        assert_eq!(backwards.evals, backwards_by_hand(&g, 3_000, None));
        assert_ne!(backwards.evals, forwards.evals);
    }

    #[test]
    fn backwards_past_a_repeated_position_the_table_forgets_its_scores() {
        // The start comes again at ply 4, the position after Nf3 at ply 5: the searches of plies 6 on
        // count a return to ply 5's position as its third occurrence, a draw, which the searches of
        // plies 0 to 4 must not inherit (ply 5's own search has that position at its root, where a
        // return is a draw as well).
        let g = game_of(&variant::CHESS, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "d5", "d4", "Nc6", "Bf4"]);
        let backwards = SecondLook { factor: 0, order: Order::Backwards, ..TWO_LOOKS };
        let analysed = analyse_with(&g, 2_000, backwards, &mut |_, _| {}).unwrap();
        assert_eq!(analysed.evals, backwards_by_hand(&g, 2_000, Some(4)));
        assert_ne!(analysed.evals, backwards_by_hand(&g, 2_000, None));
    }

    #[test]
    fn a_blunder_is_seen_with_the_table_of_the_refutation_the_game_played() {
        // Nxf7 takes a pawn and forks queen and rook, but Black mates in three: Qxg2 Rf1 Qxe4+ Be2 Nf3#.
        let g = game_of(
            &variant::CHESS,
            &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+", "Be2", "Nf3#"],
        );
        let first_pass = |order| SecondLook { factor: 0, order, ..TWO_LOOKS };
        // Judged on the positions' own evaluations: the table alone is under test.
        let nxf7 = |order| {
            let a = analyse_with(&g, 300, first_pass(order), &mut |_, _| {}).unwrap();
            let curve = a.curve;
            (Analysis::from_evals_on(&g, 300, a.evals, curve, Evidence::Position).moves[8], a.moves[8])
        };
        // At 300 nodes the search of the position after Nxf7 alone does not find the mate …
        let (forwards, replied) = nxf7(Order::Forwards);
        assert!(forwards.loss < 5.0, "{forwards:?}");
        // … with the table of the mate's positions, searched first, it does.
        let (backwards, _) = nxf7(Order::Backwards);
        assert_eq!(backwards.judgement, Some(Judgement::Blunder), "{backwards:?}");
        // (So does the product's judging forwards: Qxg2, the reply the analysis chose, was searched
        // a ply further along the line and found the mate.)
        assert_eq!(replied.judgement, Some(Judgement::Blunder), "{replied:?}");
    }

    #[test]
    fn a_move_is_judged_on_the_evidence_of_the_reply_the_analysis_chose() {
        let g = game_of(&variant::CHESS, &["e4", "e5", "Nf3", "Nc6"]);
        let at = |ply: usize, u: &str| Some(uci::parse(&g.positions()[ply], u).unwrap());
        // The search liked e4 after it (+20) but preferred d4; after the reply it chose, e5, White
        // is worse (−300): the reply's search, a ply further along the line, is the evidence.
        let evals = |reply: &str| {
            vec![
                PositionEval { score: Score::Cp(0), best: at(0, "d2d4") },
                PositionEval { score: Score::Cp(20), best: at(1, reply) },
                PositionEval { score: Score::Cp(-300), best: at(2, "g1f3") },
                PositionEval { score: Score::Cp(-300), best: at(3, "b8c6") },
                PositionEval { score: Score::Cp(-300), best: None },
            ]
        };
        let curve = WinCurve::of(&variant::CHESS);
        let a = Analysis::from_evals(&g, 0, evals("e7e5"));
        let e4 = a.moves[0];
        assert_eq!(e4.after, curve.white_chances(Score::Cp(-300)));
        assert!((e4.loss - (50.0 - e4.after)).abs() < 1e-9 && e4.judgement == Some(Judgement::Blunder), "{e4:?}");
        // e5 itself gained Black the points e4 lost: no cost.
        assert_eq!(a.moves[1].loss, 0.0);
        // On its own position's evaluation (the reference's judging), or where the reply was not the
        // analysis's choice, e4 gained White 20 centipawns: no cost.
        for b in [
            Analysis::from_evals_on(&g, 0, evals("e7e5"), curve, Evidence::Position),
            Analysis::from_evals(&g, 0, evals("d7d5")),
        ] {
            assert_eq!((b.moves[0].after, b.moves[0].loss), (curve.white_chances(Score::Cp(20)), 0.0));
        }
        // The analysis's own choice still costs nothing, whatever the reply shows.
        let mut own = evals("e7e5");
        own[0].best = at(0, "e2e4");
        assert_eq!(Analysis::from_evals(&g, 0, own).moves[0].loss, 0.0);
    }

    #[test]
    fn judgements_by_loss() {
        assert_eq!(Judgement::of_loss(4.9), None);
        assert_eq!(Judgement::of_loss(5.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(12.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(30.0), Some(Judgement::Blunder));
        assert_eq!(Judgement::Blunder.glyph(), "??");
    }

    #[test]
    fn pgn_eval_text() {
        assert_eq!(Score::Cp(35).pgn_eval(), "0.35");
        assert_eq!(Score::Cp(-120).pgn_eval(), "-1.20");
        assert_eq!(Score::Cp(-5).pgn_eval(), "-0.05");
        assert_eq!(Score::Mate(-2).pgn_eval(), "#-2");
    }

    #[test]
    fn fools_mate_blunder_is_found_and_the_end_is_a_win() {
        let g = game_of(&variant::CHESS, &["f3", "e5", "g4", "Qh4#"]);
        let mut seen = Vec::new();
        let a = analyse(&g, 4_000, &mut |d, t| seen.push((d, t))).unwrap();
        assert_eq!(seen.last(), Some(&(5, 5)));
        assert_eq!(a.evals.len(), 5);
        assert_eq!(a.evals[4], PositionEval { score: Score::Mate(-1), best: None });
        // After g4, Black to move mates in one: `#-1` in the PGN, not `#0`.
        assert_eq!(a.evals[3].score, Score::Mate(-1));
        assert_eq!(a.evals[3].score.pgn_eval(), "#-1");
        let stored = a.encode(&g).replace("mate:-1", "mate:0");
        assert_eq!(Analysis::decode(&g, a.nodes, &stored).unwrap().evals[3].score, Score::Mate(-1), "as stored before");
        // g4 allows mate in one: a blunder, and the turning point.
        let g4 = &a.moves[2];
        assert_eq!(g4.judgement, Some(Judgement::Blunder), "{g4:?}");
        assert!(g4.best.is_some_and(|b| b != g4.played));
        assert_eq!(a.turning_points(3).iter().map(|m| m.ply).collect::<Vec<_>>().last(), Some(&2));
        // The mate itself is the best move.
        assert_eq!(a.moves[3].loss, 0.0);
        let white = a.summary(Color::White);
        assert!(white.blunders >= 1 && white.accuracy.unwrap() < a.summary(Color::Black).accuracy.unwrap());
        assert_eq!(a.white_chances().last(), Some(&0.0));
    }

    #[test]
    fn fixed_effort_is_reproducible_and_round_trips() {
        let g = game_of(&variant::CAPABLANCA, &["e4", "e5", "Nh3", "Nh6", "Ad3", "Ad6"]);
        let a = analyse(&g, 3_000, &mut |_, _| {}).unwrap();
        let b = analyse(&g, 3_000, &mut |_, _| {}).unwrap();
        assert_eq!(a, b);
        let text = a.encode(&g);
        assert_eq!(Analysis::decode(&g, 3_000, &text).unwrap(), a);
        // A record of another game is refused, not misread.
        let other = game_of(&variant::CAPABLANCA, &["e4"]);
        assert!(Analysis::decode(&other, 3_000, &text).is_err());
        assert!(Analysis::decode(&g, 3_000, "cp:x -").is_err());
    }

    #[test]
    fn the_search_sees_only_repeated_positions_of_the_game() {
        let g = game_of(&variant::CHESS, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"]);
        let real: Vec<u64> = g.positions().iter().map(|p| p.hash()).collect();
        let seen = repetition_history(&g);
        // The start and the position after Nf3 each come a second time (plies 4 and 5): only those keep
        // their hashes; first occurrences match nothing in the game.
        assert_eq!(seen[4..], real[4..]);
        for (i, h) in seen[..4].iter().enumerate() {
            assert!(!real.contains(h), "position {i}");
        }
    }

    #[test]
    fn a_game_over_by_agreement_is_searched_to_the_end() {
        let g = game_of(&variant::CAPATOMIC, &[]);
        let mut a = Analyser::new(g, 2_000).unwrap();
        assert_eq!(a.total(), 1);
        assert!(a.step());
        assert!(!a.step());
        let done = a.finish().unwrap();
        assert!(done.evals[0].best.is_some());
        assert!(done.moves.is_empty());
        assert_eq!(done.summary(Color::White).accuracy, None);
    }
}
