//! The search: iterative deepening, principal-variation alpha-beta with a transposition table, quiescence
//! search over captures (explosions and destructive launches included), check extensions, null-move
//! pruning where it is sound, late-move reductions and shallow-depth pruning.

use super::eval::{self, EvalParams, Evaluator, value};
use super::tt::{Bound, Entry, NO_EVAL, Tt};
use super::{Info, Limits, SearchResult};
use crate::rules::attacks::{king_attacks, pawn_attacks};
use crate::rules::{Bitboard, Color, Move, MoveKind, MoveList, Piece, Position, Role, Square, Variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Larger than any score.
pub const INF: i32 = 32_000;
/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const MAX_PLY: usize = 120;

pub(crate) struct Searcher<'a> {
    params: &'static EvalParams,
    /// The static evaluation of the variant's positions, kept by the caller with its caches of
    /// scores and pawn terms (pure functions of the position, so they carry from one search to the next).
    evaluator: &'a mut Evaluator,
    tt: &'a mut Tt,
    limits: &'a Limits,
    start: Instant,
    deadline: Option<Instant>,
    nodes: u64,
    stopped: bool,
    killers: Vec<[Option<Move>; 2]>,
    /// The move-ordering statistics, kept by the caller from one search of a game to the next.
    stats: &'a mut Stats,
    /// Hashes of the game so far, then of the positions on the search path (current last).
    path: Vec<u64>,
    seldepth: u32,
    atomic: bool,
    /// Static evaluation at each ply of the current path (`-INF` when in check), for "improving".
    evals: Vec<i32>,
    /// Reusable move buffers, one per ply (taken while a node uses them).
    move_bufs: Vec<MoveList>,
    /// The order scores of a node's moves, beside its moves in `move_bufs` ([`pick`]), one per ply.
    score_bufs: Vec<Vec<i32>>,
    /// The quiescence search's moves with their gains, one buffer per ply.
    order_bufs: Vec<Vec<(Move, i32)>>,
    /// The quiescence search's moves, one buffer per ply.
    q_bufs: Vec<Vec<Move>>,
    /// The quiet moves and the captures a node has tried without a cut-off, one pair of buffers per ply.
    tried_bufs: Vec<(Vec<Move>, Vec<Move>)>,
    /// Late-move reductions by depth and move number ([`lmr_table`]).
    lmr: &'static [[i8; 64]; 64],
    /// The move played at each ply of the current path (`None`: a null move).
    played: Vec<Option<Move>>,
    /// The moved piece and its destination at each ply of the current path ([`piece_to`]; `None`: a null
    /// move), the keys of the continuation histories.
    keys: Vec<Option<usize>>,
    /// The move-ordering tables' numbering of the variant's squares.
    squares: Squares,
}

/// What the searches of one game learn about moves, beyond the transposition table: kept from move to
/// move, so each search starts with the order the last one found (cleared for a new game). Its tables
/// count squares by the game's variant ([`Squares`]): one game, one variant.
pub(crate) struct Stats {
    /// History: how often a quiet move (side, from, to) refuted, minus how often it was tried in vain. In 16
    /// bits, as [`gravity`] keeps every score within ±16,384 (40 KB, where 32 bits took 80; chess's moves
    /// fill 16 KB of it).
    history: Vec<i16>,
    /// The quiet reply that last refuted each move (by its from and to squares).
    counter: Vec<Option<Move>>,
    /// Continuation histories: how well a quiet move did after the move one ply earlier (`cont[0]`, the
    /// opponent's reply) and two plies earlier (`cont[1]`, our own previous move), indexed by side to move,
    /// then the earlier move's key, then this move's key ([`cont_index`]).
    cont: [Vec<i16>; 2],
    /// Capture history: how well each capture (side, moving role, destination, captured role) did.
    captures: Vec<i16>,
}

impl Stats {
    pub(crate) fn new() -> Stats {
        // Zeroed memory comes from the kernel untouched: advised before it is first written.
        let cont = [vec![0; 2 * KEYS * KEYS], vec![0; 2 * KEYS * KEYS]];
        cont.iter().for_each(|t| super::advise_huge_pages(t));
        Stats {
            history: vec![0; 2 * 100 * 100],
            counter: vec![None; 100 * 100],
            cont,
            captures: vec![0; 2 * Role::COUNT * 100 * Role::COUNT],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.history.fill(0);
        self.counter.fill(None);
        for t in &mut self.cont {
            t.fill(0);
        }
        self.captures.fill(0);
    }
}

/// What the pruning of a node's quiet moves depends on besides the move ([`Searcher::prunes_quiet`]).
#[derive(Clone, Copy)]
struct QuietPrune {
    depth: i32,
    /// Moves searched so far at the node.
    searched: usize,
    improving: bool,
    /// The node's score guess (static, or the table's where it fits).
    guess: i32,
    alpha: i32,
}

/// Number of distinct (piece, destination) keys: roles times squares of the largest board.
const KEYS: usize = Role::COUNT * Square::COUNT;

/// What the ordering of a node's quiet moves reads whatever the move ([`Searcher::quiet_keys`]).
struct QuietKeys {
    killers: [Option<Move>; 2],
    /// The quiet reply that last refuted the move into the node.
    counter: Option<Move>,
    /// Where the side to move's row of each continuation history starts for the move one and two plies
    /// earlier (none for a null move or before the root).
    cont_rows: [Option<usize>; 2],
}

/// The move-ordering tables' numbering of one variant's squares: rank by rank over the variant's own
/// files (`0..width × height`). The 10×10 grid's numbering spread chess's 64 squares over 100 slots and so a
/// table's rows over more cache lines (a continuation-history row of chess 1,156 bytes where its keys take
/// 768); the tables are as large as before, and each slot stands for the same (role,) square as before.
#[derive(Clone, Copy)]
struct Squares {
    /// The variant's number of each square of the 10×10 grid (0 off the board), by the square's index
    /// (256 places, one for each value of its byte, so that no index needs a bounds check).
    index: [u8; 256],
    /// The variant's number of squares.
    count: usize,
    /// The number of continuation-history keys ([`piece_to`]): roles times the variant's squares.
    keys: usize,
    /// The keys the variant's pieces can have: those of its roles up to the last one it uses (the
    /// first part of each continuation-history row; the rest is never read).
    used_keys: usize,
}

impl Squares {
    fn of(v: &Variant) -> Squares {
        let mut index = [0; 256];
        for rank in 0..v.height {
            for file in 0..v.width {
                index[Square::new(file, rank).index()] = rank * v.width + file;
            }
        }
        let count = v.width as usize * v.height as usize;
        let roles = v.roles.iter().map(|r| r.index() + 1).max().unwrap_or(Role::COUNT);
        Squares { index, count, keys: Role::COUNT * count, used_keys: roles * count }
    }

    #[inline]
    fn at(&self, sq: Square) -> usize {
        self.index[sq.index()] as usize
    }
}

/// The continuation-history key of `m` in `pos`: the moving piece's role and the destination square.
#[inline]
fn piece_to(pos: &Position, m: Move, squares: &Squares) -> Option<usize> {
    pos.piece_at(m.from).map(|p| p.role.index() * squares.count + squares.at(m.to))
}

/// The capture-history slot of a capture `m` (not a launch) in `pos`.
#[inline]
fn capture_index(pos: &Position, m: Move, squares: &Squares) -> Option<usize> {
    if m.kind == MoveKind::Launch {
        return None;
    }
    let victim = if m.kind == MoveKind::EnPassant { Role::Pawn } else { pos.piece_at(m.to)?.role };
    let mover = pos.piece_at(m.from)?.role;
    let to = squares.at(m.to);
    Some(((pos.turn().index() * Role::COUNT + mover.index()) * squares.count + to) * Role::COUNT + victim.index())
}

/// The slot of a continuation-history table for the side to move, the earlier move's key and this move's
/// key: a row for each side and earlier key, [`Squares::keys`] long.
#[inline]
fn cont_index(side: Color, earlier: usize, key: usize, squares: &Squares) -> usize {
    let keys = squares.keys;
    (side.index() * keys + earlier) * keys + key
}

/// The counter-move slot of the move `from`–`to`.
#[inline]
fn counter_index(prev: Move, squares: &Squares) -> usize {
    squares.at(prev.from) * squares.count + squares.at(prev.to)
}

/// Asks the processor to bring `table[start..start + len]` into its cache, a line at a time (a hint:
/// nothing is read or changed; places past the table's end are left out).
#[inline]
fn prefetch_span(table: &[i16], start: usize, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        const PER_LINE: usize = 64 / std::mem::size_of::<i16>();
        let end = (start + len).min(table.len());
        let mut at = start - start % PER_LINE;
        while at < end {
            // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (the build's
            // baseline); a prefetch reads nothing through the pointer, which is inside the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(table.as_ptr().add(at).cast()) };
            at += PER_LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, start, len);
}

/// The static evaluation, taken from the transposition table when it has one.
#[inline]
fn cached_eval(evaluator: &mut Evaluator, pos: &Position, stored: i16) -> i32 {
    if stored != NO_EVAL { stored as i32 } else { evaluator.evaluate(pos) }
}

/// A static evaluation as stored in the transposition table (values outside `i16` are not stored; the
/// `-INF` of a position in check is, but never read, as a position in check is never evaluated).
#[inline]
fn eval_to_tt(e: i32) -> i16 {
    if e > i16::MIN as i32 && e <= i16::MAX as i32 { e as i16 } else { NO_EVAL }
}

/// History "gravity": moves a history score by `bonus`, the less the nearer it already is to ±16,384.
/// From 0, with the searches' bonuses (at most ±400), a score never leaves ±16,384 (test
/// `gravity_keeps_scores_within_16_bits`), so 16 bits hold it exactly.
#[inline]
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / 16_384;
}

/// [`gravity`] for the 16-bit tables (the history, the continuation and capture histories).
#[inline]
fn gravity16(h: &mut i16, bonus: i32) {
    let mut v = *h as i32;
    gravity(&mut v, bonus);
    *h = v.clamp(-16_384, 16_384) as i16;
}

fn history_index(pos: &Position, m: Move, squares: &Squares) -> usize {
    (pos.turn().index() * squares.count + squares.at(m.from)) * squares.count + squares.at(m.to)
}

/// Brings the best-scored of `moves[i..]` (scores beside them in `scores`) to place `i`, swapping it with
/// the move there, and returns it with its score; of equal scores the first in the slice's present order
/// (what a scan from `i` keeping the first maximum finds, so the order of the searches' moves, ties
/// included, is that scan's). The scores apart from the moves so that the maximum is found with vector
/// instructions and the first place holding it with one more pass, where the scan compared pair by pair.
#[inline]
fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> (Move, i32) {
    let rest = &scores[i..];
    let best = rest.iter().copied().max().unwrap_or(i32::MIN);
    let at = i + rest.iter().position(|&s| s == best).unwrap_or(0);
    scores.swap(i, at);
    moves.swap(i, at);
    (moves[i], scores[i])
}

/// Whether the move changes material (captures, explosions, destructive launches) or promotes.
fn is_tactical(pos: &Position, m: Move) -> bool {
    matches!(m.kind, MoveKind::Promotion(_)) || pos.is_capture(m)
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        tt: &'a mut Tt,
        stats: &'a mut Stats,
        evaluator: &'a mut Evaluator,
        limits: &'a Limits,
        history: &[u64],
    ) -> Searcher<'a> {
        // The variant searched is the evaluator's.
        let variant = evaluator.variant();
        let start = Instant::now();
        Searcher {
            params: evaluator.params(),
            evaluator,
            tt,
            limits,
            start,
            deadline: limits.movetime.map(|t| start + t),
            nodes: 0,
            stopped: false,
            killers: vec![[None; 2]; MAX_PLY + 2],
            stats,
            path: history.to_vec(),
            seldepth: 0,
            atomic: variant.atomic,
            evals: vec![-INF; MAX_PLY + 2],
            move_bufs: vec![MoveList::new(); MAX_PLY + 2],
            score_bufs: vec![Vec::new(); MAX_PLY + 2],
            order_bufs: vec![Vec::new(); MAX_PLY + 2],
            q_bufs: vec![Vec::new(); MAX_PLY + 2],
            tried_bufs: vec![(Vec::new(), Vec::new()); MAX_PLY + 2],
            lmr: lmr_table(),
            played: vec![None; MAX_PLY + 2],
            keys: vec![None; MAX_PLY + 2],
            squares: Squares::of(variant),
        }
    }

    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        if self.nodes & 31 == 0 {
            // PAUSE_EVERY is a multiple of 32: the pause's test stays off the per-node path.
            if self.nodes.is_multiple_of(super::PAUSE_EVERY)
                && let Some(pause) = &self.limits.pause
            {
                (pause.0)();
            }
            if let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.stopped = true;
            }
            if let Some(s) = &self.limits.stop
                && s.load(Ordering::Relaxed)
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmoves() >= 100 || pos.is_insufficient_material() {
            return true;
        }
        let hash = pos.hash();
        let n = self.path.len();
        let window = (pos.halfmoves() as usize).min(n.saturating_sub(1));
        let mut back = 2;
        while back <= window {
            if self.path[n - 1 - back] == hash {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Material change of a capture in atomic chess: everything the explosion removes.
    fn atomic_gain(&self, pos: &Position, m: Move) -> i32 {
        let p = self.params;
        let us = pos.turn();
        let mover = pos.piece_at(m.from).map(|x| value(p, x.role)).unwrap_or(0);
        let victim_sq = if m.kind == MoveKind::EnPassant { Square::new(m.to.file(), m.from.rank()) } else { m.to };
        let victim = pos.piece_at(victim_sq).map(|x| value(p, x.role)).unwrap_or(0);
        let mut gain = victim - mover;
        let around = king_attacks(m.to) & pos.occupied() & !pos.by_role(Role::Pawn) & !Bitboard::from_square(m.from);
        for sq in around {
            if let Some(pc) = pos.piece_at(sq) {
                let v = value(p, pc.role);
                gain += if pc.color == us { -v } else { v };
            }
        }
        gain
    }

    /// Whether the ordinary or promoting capture `m` (not in atomic) surely has a [`Self::gain`] of zero or
    /// more: its exchange count is never less than the victim's value less the capturer's (the other
    /// side takes the capturer back at most), and a promotion adds to it.
    #[inline]
    fn never_loses(&self, pos: &Position, m: Move) -> bool {
        let p = self.params;
        let (Some(victim), Some(capturer)) = (pos.piece_at(m.to), pos.piece_at(m.from)) else { return false };
        let promo = m.promotion_role().map(|r| value(p, r) - value(p, Role::Pawn)).unwrap_or(0);
        matches!(m.kind, MoveKind::Normal | MoveKind::Promotion(_))
            && value(p, victim.role) - value(p, capturer.role) + promo >= 0
    }

    /// Expected material gain of a tactical move (for ordering and quiescence pruning).
    fn gain(&self, pos: &Position, m: Move) -> i32 {
        let p = self.params;
        match m.kind {
            MoveKind::Launch => eval::launch_gain(pos, p, pos.turn(), m.from, m.to),
            MoveKind::Castle { .. } => 0,
            _ => {
                let promo = m.promotion_role().map(|r| value(p, r) - value(p, Role::Pawn)).unwrap_or(0);
                if !pos.is_capture(m) {
                    return promo;
                }
                if self.atomic {
                    return self.atomic_gain(pos, m) + promo;
                }
                if m.kind == MoveKind::EnPassant {
                    return value(p, Role::Pawn);
                }
                eval::see(pos, p, m.from, m.to) + promo
            }
        }
    }

    /// What ordering the quiet moves of a node at `ply` in `pos` reads whatever the move: its killers, the
    /// counter move of the move into it, and its rows of the continuation histories.
    fn quiet_keys(&self, pos: &Position, ply: usize) -> QuietKeys {
        let counter = if ply > 0
            && let Some(prev) = self.played[ply - 1]
        {
            self.stats.counter[counter_index(prev, &self.squares)]
        } else {
            None
        };
        let row = |back: usize| {
            let earlier = if ply > back { self.keys[ply - 1 - back] } else { None };
            earlier.map(|earlier| cont_index(pos.turn(), earlier, 0, &self.squares))
        };
        QuietKeys { killers: self.killers[ply.min(MAX_PLY)], counter, cont_rows: [row(0), row(1)] }
    }

    /// The order score of the tactical move `m` (a capture, promotion or launch) in `pos`.
    #[inline(never)]
    fn tactical_order(&self, pos: &Position, m: Move) -> i32 {
        let capture = m.kind != MoveKind::Launch && !self.atomic && pos.is_capture(m);
        // A capture's gain counts below by its sign alone unless it is negative, which a capture of
        // a piece worth no less than the capturer's never is: its exchange count is not computed.
        let g = if capture && self.never_loses(pos, m) { 0 } else { self.gain(pos, m) };
        if capture {
            // MVV-LVA among non-losing captures.
            let victim = pos.piece_at(m.to).map(|x| value(self.params, x.role)).unwrap_or(100);
            let attacker = pos.piece_at(m.from).map(|x| x.role.index() as i32).unwrap_or(0);
            if g >= 0 {
                let learned =
                    capture_index(pos, m, &self.squares).map(|i| self.stats.captures[i] as i32 / 8).unwrap_or(0);
                return 2_000_000 + victim * 16 + learned - attacker;
            }
            return -400_000 + g;
        }
        if g >= 0 { 2_000_000 + g.min(50_000) } else { -400_000 + g.max(-300_000) }
    }

    /// The order score of `m` in `pos`, a node whose quiet moves read `keys` ([`Self::quiet_keys`]). Inlined
    /// where a node scores its moves, the tactical moves' scoring apart ([`Self::tactical_order`]): most
    /// moves are quiet, and a call that may count an exchange saved and restored registers for each.
    #[inline]
    fn order_score(&self, pos: &Position, m: Move, tt_move: Option<Move>, keys: &QuietKeys) -> i32 {
        if Some(m) == tt_move {
            return 10_000_000;
        }
        if is_tactical(pos, m) {
            return self.tactical_order(pos, m);
        }
        if keys.killers[0] == Some(m) {
            return 1_000_000;
        }
        if keys.killers[1] == Some(m) {
            return 999_000;
        }
        if keys.counter == Some(m) {
            return 998_000;
        }
        self.stats.history[history_index(pos, m, &self.squares)] as i32 + self.cont_score(pos, m, keys)
    }

    /// The continuation-history score of a quiet move: how it did after the previous two moves (the
    /// rows of `keys`).
    fn cont_score(&self, pos: &Position, m: Move, keys: &QuietKeys) -> i32 {
        let Some(key) = piece_to(pos, m, &self.squares) else { return 0 };
        let mut s = 0;
        for (row, table) in keys.cont_rows.iter().zip(&self.stats.cont) {
            if let Some(row) = row {
                s += table[row + key] as i32;
            }
        }
        s
    }

    fn null_move_ok(&self, pos: &Position) -> bool {
        if self.atomic {
            return false;
        }
        let us = pos.turn();
        let own = pos.by_color(us) & !pos.pieces(us, Role::Pawn) & !pos.pieces(us, Role::King);
        own.any()
    }

    fn score_to_tt(score: i32, ply: usize) -> i32 {
        if score > MATE_BOUND {
            score + ply as i32
        } else if score < -MATE_BOUND {
            score - ply as i32
        } else {
            score
        }
    }

    /// The stored score, if its bound settles the window `alpha..beta` (the caller checks the depth).
    fn tt_cutoff(e: &Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = Self::score_from_tt(e.score, ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        cut.then_some(s)
    }

    fn score_from_tt(score: i32, ply: usize) -> i32 {
        if score > MATE_BOUND {
            score - ply as i32
        } else if score < -MATE_BOUND {
            score + ply as i32
        } else {
            score
        }
    }

    /// Alpha-beta over `depth` plies from `pos`, `ply` plies below the root; the principal variation goes
    /// into `pv`. `after_null`: the move into `pos` was a null move (no second one in a row). `cut_node`:
    /// a null-window node expected to fail high, where late moves are reduced further. Expectations
    /// alternate down the tree (the children of a cut node searched at full depth are not cut nodes, and
    /// the other way round); a reduced late move's child is always one. `in_check`: whether the side to
    /// move in `pos` is in check ([`Position::is_check`], which the caller has already asked).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv: &mut Vec<Move>,
        after_null: bool,
        cut_node: bool,
        in_check: bool,
    ) -> i32 {
        pv.clear();
        let pv_node = beta - alpha > 1;
        if let Some(score) = terminal_score(pos, ply) {
            return score;
        }
        if ply > 0 {
            if self.is_draw(pos) {
                return 0;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        debug_assert_eq!(in_check, pos.is_check());
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, ply, alpha, beta, 0, Some(in_check));
        }
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        let hash = pos.hash();
        let mut tt_move = None;
        let mut tt_eval = NO_EVAL;
        let tt_hit = self.tt.probe(hash);
        if let Some(e) = tt_hit {
            tt_move = e.mv;
            tt_eval = e.eval;
            if !pv_node
                && e.depth as i32 >= depth
                && let Some(s) = Self::tt_cutoff(&e, ply, alpha, beta)
            {
                return s;
            }
        }
        let static_eval = if in_check { -INF } else { cached_eval(self.evaluator, pos, tt_eval) };
        self.evals[ply] = static_eval;
        // For pruning, a stored search score is a better guess than the static one where its bound
        // points the same way.
        let mut guess = static_eval;
        if !in_check && let Some(e) = tt_hit {
            let s = Self::score_from_tt(e.score, ply);
            let fits = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s > static_eval,
                Bound::Upper => s < static_eval,
            };
            if fits && s.abs() < MATE_BOUND {
                guess = s;
            }
        }
        // Better than two plies ago: prune less, reduce less.
        let improving = !in_check && ply >= 2 && self.evals[ply - 2] != -INF && static_eval > self.evals[ply - 2];
        let st = self.limits.style;
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at shallow depth.
            let margin = if improving { 70 } else { 90 };
            if !st.no_rfp && depth <= 8 && guess - margin * depth >= beta {
                return guess;
            }
            if !after_null
                && !st.no_null
                && depth >= 3
                && guess >= beta
                && self.null_move_ok(pos)
                && let Some(null) = pos.null_move()
            {
                let r = (4 + depth / 3 + ((guess - beta) / 200).min(3) - st.null_less).max(1);
                self.path.push(null.hash());
                self.played[ply] = None;
                self.keys[ply] = None;
                let mut child_pv = Vec::new();
                let null_check = null.is_check();
                let s = -self.search(
                    &null,
                    depth - 1 - r,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    &mut child_pv,
                    true,
                    !cut_node,
                    null_check,
                );
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s > MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: without a hash move this node is probably not worth a full depth.
        if depth >= 4 && tt_move.is_none() && !st.no_iir {
            depth -= 1;
        }
        // The rows of the continuation histories that score this node's quiet moves, asked for
        // before the moves are generated: their lines come in meanwhile.
        let quiet_keys = self.quiet_keys(pos, ply);
        for (row, table) in quiet_keys.cont_rows.iter().zip(&self.stats.cont) {
            if let Some(row) = *row {
                prefetch_span(table, row, self.squares.used_keys);
            }
        }
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.move_bufs[ply] = moves;
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = std::mem::take(&mut self.score_bufs[ply]);
        scores.clear();
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            // Launches that destroy nothing only matter as check blocks (or at the root).
            if ply == 0 || in_check || m.kind != MoveKind::Launch || pos.is_capture(m) {
                moves[kept] = m;
                scores.push(self.order_score(pos, m, tt_move, &quiet_keys));
                kept += 1;
            }
        }
        moves.truncate(kept);
        let orig_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let mut searched = 0;
        let (mut quiets, mut captures_tried) = std::mem::take(&mut self.tried_bufs[ply]);
        quiets.clear();
        captures_tried.clear();
        let mut child_pv = Vec::new();
        // Where a move may check from, once a quiet move could be pruned.
        let mut check_squares = None;
        for i in 0..moves.len() {
            let (m, order) = pick(&mut moves, &mut scores, i);
            let capture_like = is_tactical(pos, m);
            let tactical = capture_like && order > 0;
            let losing_capture = capture_like && order < 0 && Some(m) != tt_move;
            let prunable = !pv_node && !in_check && searched > 0 && best_score > -MATE_BOUND;
            let quiet_prune = QuietPrune { depth, searched, improving, guess, alpha };
            // A quiet move that cannot check is pruned below or not whatever its child: dropped
            // without making it (most of the moves of a node at shallow depth).
            let mut pruning_asked = false;
            if prunable
                && !capture_like
                && !check_squares.get_or_insert_with(|| pos.check_squares()).may_give_check(pos, m)
            {
                if self.prunes_quiet(pos, m, &quiet_prune, None) {
                    continue;
                }
                // Kept: the move cannot check, so it is quiet below and the same question (its
                // exchange count among it) would get the same answer there.
                pruning_asked = true;
            }
            let mut child = pos.clone();
            child.play_unchecked_in_place(m);
            self.tt.prefetch(child.hash());
            let gives_check = child.is_check();
            // A check that hangs the checking piece by exchange count (not in atomic, where captures
            // explode): not extended, and reduced and pruned like a quiet move.
            // The exchange count of a quiet move, computed at most once.
            let mut quiet_see = None;
            let unsafe_check = gives_check
                && !self.atomic
                && if capture_like {
                    order < 0
                } else {
                    matches!(m.kind, MoveKind::Normal)
                        && *quiet_see.insert(eval::see(pos, self.params, m.from, m.to)) < 0
                };
            let quiet = !tactical && (!gives_check || unsafe_check);
            if prunable && quiet {
                if !capture_like {
                    if !pruning_asked && self.prunes_quiet(pos, m, &quiet_prune, quiet_see) {
                        continue;
                    }
                } else if !st.no_see_prune && losing_capture && depth <= 3 && order + 400_000 < -120 * depth {
                    // A capture that loses material by the exchange count.
                    continue;
                }
            }
            self.path.push(child.hash());
            self.played[ply] = Some(m);
            self.keys[ply] = piece_to(pos, m, &self.squares);
            // The child in check extends itself by a ply; an unsafe check takes that back.
            let new_depth = depth - 1 - unsafe_check as i32;
            let mut score;
            if searched == 0 {
                score = -self.search(
                    &child,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    &mut child_pv,
                    false,
                    !pv_node && !cut_node,
                    gives_check,
                );
            } else {
                let mut r = 0;
                let unreduced = tactical || (st.losing_caps_full && capture_like);
                if depth >= 3 && searched >= 2 + pv_node as usize && !unreduced && !in_check {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32 - st.lmr_less;
                    if pv_node {
                        r -= 1;
                    }
                    if !quiet {
                        // A safe check: reduced one ply less.
                        r -= 1;
                    }
                    if cut_node && !st.no_cut_extra {
                        // Expected to fail high: the later moves are unlikely to matter.
                        r += 2;
                    }
                    if !improving {
                        r += 1;
                    }
                    if order >= 998_000 {
                        r -= 1;
                    } else if !capture_like {
                        r -= order / 8_000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(
                    &child,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    &mut child_pv,
                    false,
                    r > 0 || !cut_node,
                    gives_check,
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        &child,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        &mut child_pv,
                        false,
                        !cut_node,
                        gives_check,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.search(
                        &child,
                        new_depth,
                        ply + 1,
                        -beta,
                        -alpha,
                        &mut child_pv,
                        false,
                        false,
                        gives_check,
                    );
                }
            }
            self.path.pop();
            if self.stopped {
                self.move_bufs[ply] = moves;
                self.score_bufs[ply] = scores;
                self.tried_bufs[ply] = (quiets, captures_tried);
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        if !tactical {
                            self.reward(pos, m, &quiets, depth, ply);
                        }
                        self.reward_captures(pos, capture_like.then_some(m), &captures_tried, depth);
                        break;
                    }
                }
            }
            if !tactical {
                quiets.push(m);
            }
            if capture_like && m.kind != MoveKind::Launch {
                captures_tried.push(m);
            }
        }
        self.move_bufs[ply] = moves;
        self.score_bufs[ply] = scores;
        self.tried_bufs[ply] = (quiets, captures_tried);
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, best_move, Self::score_to_tt(best_score, ply), depth, bound, eval_to_tt(static_eval));
        best_score
    }

    /// Whether the late-move pruning, futility or exchange-count pruning of a node (`prune`) drops the
    /// quiet move `m`; `quiet_see`: its exchange count if already known.
    fn prunes_quiet(&self, pos: &Position, m: Move, prune: &QuietPrune, quiet_see: Option<i32>) -> bool {
        let st = self.limits.style;
        let QuietPrune { depth, searched, improving, guess, alpha } = *prune;
        // The depth this move would get after its late-move reduction.
        let lmr_depth = (depth - 1 - self.lmr[(depth as usize).min(63)][searched.min(63)] as i32).max(0);
        // Late-move pruning: the tail of the quiet moves at shallow depth.
        if !st.no_lmp && depth <= 8 && searched >= (3 + (depth * depth) as usize) / if improving { 1 } else { 2 } {
            return true;
        }
        // Futility: a quiet move cannot lift a hopeless static score to alpha.
        if !st.no_futility && lmr_depth <= 6 && guess + 120 + 110 * lmr_depth <= alpha {
            return true;
        }
        // A quiet move that hangs material by the exchange count, the more the shallower (not in
        // atomic, where a capture blows up the capturer too).
        !st.no_see_prune
            && lmr_depth <= 6
            && !self.atomic
            && !matches!(m.kind, MoveKind::Castle { .. })
            && quiet_see.unwrap_or_else(|| eval::see(pos, self.params, m.from, m.to))
                < -22 * (lmr_depth + 1) * (lmr_depth + 1)
    }

    /// After a cut-off: raise the capture history of the capture that caused it (if it was one) and
    /// lower that of the captures tried before it.
    fn reward_captures(&mut self, pos: &Position, best: Option<Move>, tried: &[Move], depth: i32) {
        let bonus = (depth * depth).min(400);
        let squares = self.squares;
        let mut bump = |mv: Move, b: i32| {
            if let Some(i) = capture_index(pos, mv, &squares) {
                gravity16(&mut self.stats.captures[i], b);
            }
        };
        if let Some(m) = best {
            bump(m, bonus);
        }
        for &c in tried {
            bump(c, -bonus);
        }
    }

    fn reward(&mut self, pos: &Position, m: Move, quiets: &[Move], depth: i32, ply: usize) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if ply > 0
            && let Some(prev) = self.played[ply - 1]
        {
            self.stats.counter[counter_index(prev, &self.squares)] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let squares = self.squares;
        gravity16(&mut self.stats.history[history_index(pos, m, &squares)], bonus);
        for &q in quiets {
            gravity16(&mut self.stats.history[history_index(pos, q, &squares)], -bonus);
        }
        let side = pos.turn();
        for back in 0..2 {
            if ply <= back {
                break;
            }
            let Some(earlier) = self.keys[ply - 1 - back] else { continue };
            let table = &mut self.stats.cont[back];
            let mut bump = |mv: Move, b: i32| {
                if let Some(key) = piece_to(pos, mv, &squares) {
                    gravity16(&mut table[cont_index(side, earlier, key, &squares)], b);
                }
            };
            bump(m, bonus);
            for &q in quiets {
                bump(q, -bonus);
            }
        }
    }

    /// Quiescence search; `in_check`: [`Position::is_check`] of `pos` when the caller knows it.
    fn qsearch(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qply: u32,
        in_check: Option<bool>,
    ) -> i32 {
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(score) = terminal_score(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY || pos.is_insufficient_material() {
            return if ply >= MAX_PLY { self.evaluator.evaluate(pos) } else { 0 };
        }
        let hash = pos.hash();
        let pv_node = beta - alpha > 1;
        let mut tt_eval = NO_EVAL;
        if let Some(e) = self.tt.probe(hash) {
            if !pv_node && let Some(s) = Self::tt_cutoff(&e, ply, alpha, beta) {
                return s;
            }
            tt_eval = e.eval;
        }
        let orig_alpha = alpha;
        let in_check = in_check.unwrap_or_else(|| pos.is_check());
        let stand = if in_check { -INF } else { cached_eval(self.evaluator, pos, tt_eval) };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut moves = std::mem::take(&mut self.q_bufs[ply]);
        moves.clear();
        if in_check {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.q_bufs[ply] = moves;
                return -MATE + ply as i32;
            }
            if qply >= 6 {
                self.q_bufs[ply] = moves;
                return self.evaluator.evaluate(pos);
            }
        } else {
            tactical_moves_into(pos, &mut moves);
        }
        let mut list = std::mem::take(&mut self.order_bufs[ply]);
        list.clear();
        if !in_check && qply == 0 && self.limits.style.qchecks && !self.atomic && stand + 200 >= alpha {
            let mut all = std::mem::take(&mut self.move_bufs[ply]);
            all.clear();
            quiet_checks_into(pos, &mut all);
            for &m in &all {
                if eval::see(pos, self.params, m.from, m.to) >= 0 {
                    list.push((m, -1));
                }
            }
            self.move_bufs[ply] = all;
        }
        for &m in &moves {
            if in_check {
                let g = if is_tactical(pos, m) { self.gain(pos, m) } else { -1 };
                list.push((m, g));
                continue;
            }
            if !is_tactical(pos, m) {
                continue;
            }
            if let Some(r) = m.promotion_role()
                && r != Role::Queen
                && !pos.is_capture(m)
            {
                continue;
            }
            let g = self.gain(pos, m);
            if g < 0 || (m.kind == MoveKind::Launch && g <= 0) {
                continue;
            }
            if g < 10_000 && stand + g + 200 < alpha {
                continue;
            }
            list.push((m, g));
        }
        self.q_bufs[ply] = moves;
        list.sort_by_key(|&(_, g)| -g);
        let mut best = stand;
        let mut best_move = None;
        for &(m, order_g) in &list {
            let mut child = pos.clone();
            child.play_unchecked_in_place(m);
            self.tt.prefetch(child.hash());
            if !in_check && !legal_after(pos, m, &child) {
                continue;
            }
            if order_g < 0 && !in_check && !child.is_check() {
                continue;
            }
            let s = -self.qsearch(&child, ply + 1, -beta, -alpha, qply + 1, None);
            if self.stopped {
                self.order_bufs[ply] = list;
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.order_bufs[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, best_move, Self::score_to_tt(best, ply), 0, bound, eval_to_tt(stand));
        best
    }

    /// Iterative deepening from the root. `on_info` hears about every finished iteration.
    pub(crate) fn run(&mut self, root: &Position, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
        self.params = eval::params_for(root.variant());
        self.atomic = root.variant().atomic;
        self.squares = Squares::of(root.variant());
        self.tt.new_search();
        self.path.push(root.hash());
        let mut result = SearchResult { best: None, score: 0, depth: 0, nodes: 0, pv: Vec::new() };
        let moves = root.legal_moves();
        if moves.is_empty() || terminal_score(root, 0).is_some() {
            return result;
        }
        let root_keys = self.quiet_keys(root, 0);
        let mut root_moves: Vec<(Move, i32)> = moves
            .iter()
            .filter(|&&m| Some(m) != self.limits.excluded)
            .map(|&m| (m, self.order_score(root, m, None, &root_keys)))
            .collect();
        if root_moves.is_empty() {
            return result;
        }
        root_moves.sort_by_key(|&(_, s)| -s);
        result.best = Some(root_moves[0].0);
        result.pv = vec![root_moves[0].0];
        let noisy = self.limits.noise > 0 || self.limits.blunder_permille > 0;
        let max_depth = self.limits.depth.unwrap_or(100).clamp(1, MAX_PLY as u32 - 10) as i32;
        let mut exact_scores: Vec<(Move, i32)> = Vec::new();
        let mut prev_score: i32 = 0;
        for depth in 1..=max_depth {
            let mut pv = Vec::new();
            let mut child_pv = Vec::new();
            let mut scores: Vec<(Move, i32)> = Vec::new();
            // Aspiration window around the previous score, widened on failure.
            let mut window = if depth >= 4 && !noisy && prev_score.abs() < MATE_BOUND { 40 } else { INF };
            let (mut alpha, mut beta) =
                if window < INF { (prev_score - window, prev_score + window) } else { (-INF, INF) };
            let mut best_score;
            loop {
                best_score = -INF;
                let mut a = alpha;
                let mut best_here: Option<Move> = None;
                scores.clear();
                for (i, &(m, _)) in root_moves.iter().enumerate() {
                    let child = root.play_unchecked(m);
                    let child_check = child.is_check();
                    self.path.push(child.hash());
                    self.played[0] = Some(m);
                    self.keys[0] = piece_to(root, m, &self.squares);
                    let s = if i == 0 || noisy {
                        let lo = if noisy { -INF } else { a };
                        -self.search(&child, depth - 1, 1, -beta, -lo, &mut child_pv, false, false, child_check)
                    } else {
                        let mut s =
                            -self.search(&child, depth - 1, 1, -a - 1, -a, &mut child_pv, false, true, child_check);
                        if s > a && s < beta {
                            s = -self.search(&child, depth - 1, 1, -beta, -a, &mut child_pv, false, false, child_check);
                        }
                        s
                    };
                    self.path.pop();
                    if self.stopped {
                        break;
                    }
                    scores.push((m, s));
                    if s > best_score {
                        best_score = s;
                        if s > a || best_here.is_none() {
                            best_here = Some(m);
                            pv.clear();
                            pv.push(m);
                            pv.extend_from_slice(&child_pv);
                        }
                        if s > a {
                            a = s;
                        }
                        if s >= beta {
                            break;
                        }
                    }
                }
                if self.stopped {
                    // A partial iteration still counts if it found a better move than the last one.
                    if let Some(b) = best_here
                        && depth > 1
                        && best_score > prev_score
                        && best_score > alpha
                        && Some(b) != result.best
                    {
                        result.best = Some(b);
                        result.pv = pv.clone();
                        result.score = best_score;
                    }
                    break;
                }
                if best_score <= alpha && alpha > -INF {
                    window *= 4;
                    alpha = if window >= 1000 { -INF } else { prev_score - window };
                    continue;
                }
                if best_score >= beta && beta < INF {
                    window *= 4;
                    beta = if window >= 1000 { INF } else { prev_score + window };
                    continue;
                }
                break;
            }
            if self.stopped && depth > 1 {
                break;
            }
            if self.stopped && scores.is_empty() {
                break;
            }
            // Finished (or a first iteration cut short): best move to the front.
            if let Some(&first) = pv.first() {
                result.best = Some(first);
                result.pv = pv.clone();
                result.score = best_score;
                result.depth = depth as u32;
                prev_score = best_score;
                if let Some(idx) = root_moves.iter().position(|&(m, _)| m == first) {
                    let e = root_moves.remove(idx);
                    root_moves.insert(0, e);
                }
            }
            if noisy {
                exact_scores = scores.clone();
            }
            result.nodes = self.nodes;
            on_info(&Info {
                depth: depth as u32,
                seldepth: self.seldepth.max(depth as u32),
                score: result.score,
                nodes: self.nodes,
                time: self.start.elapsed(),
                pv: result.pv.clone(),
            });
            // An only move is played at once; one left by an excluded move is searched for its score.
            if self.stopped || moves.len() == 1 && self.limits.depth.is_none() && !self.limits.infinite {
                break;
            }
            if best_score.abs() > MATE_BOUND && MATE - best_score.abs() <= depth && !self.limits.infinite {
                break;
            }
            if let Some(t) = self.limits.soft_movetime
                && !self.limits.infinite
                && self.start.elapsed() > t
            {
                break;
            }
        }
        result.nodes = self.nodes;
        if noisy && !exact_scores.is_empty() {
            self.pick_with_mistakes(&mut result, &exact_scores);
        }
        result
    }

    /// Levels below full strength: add seeded noise to the root scores and sometimes pick a plausible
    /// second-rate move.
    fn pick_with_mistakes(&self, result: &mut SearchResult, scores: &[(Move, i32)]) {
        let mut rng = StdRng::seed_from_u64(self.limits.seed);
        let noise = self.limits.noise.max(0);
        let best_exact = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
        let mut choice = None;
        if self.limits.blunder_permille > 0 && rng.random_range(0..1000) < self.limits.blunder_permille {
            // A believable mistake: some move not far below the best (never one that walks into mate).
            let margin = 150 + 3 * noise;
            let plausible: Vec<&(Move, i32)> =
                scores.iter().filter(|&&(_, s)| s >= best_exact - margin && s > -MATE_BOUND).collect();
            if !plausible.is_empty() {
                choice = Some(*plausible[rng.random_range(0..plausible.len())]);
            }
        }
        if choice.is_none() {
            let mut best = i32::MIN;
            for &(m, s) in scores {
                let jitter = if noise > 0 { rng.random_range(-noise..=noise) } else { 0 };
                // Mates are seen for what they are.
                let v = if s.abs() > MATE_BOUND { s } else { s + jitter };
                if v > best {
                    best = v;
                    choice = Some((m, s));
                }
            }
        }
        if let Some((m, s)) = choice
            && Some(m) != result.best
        {
            result.best = Some(m);
            result.score = s;
            result.pv = vec![m];
        }
    }
}

/// [`tactical_moves_into`] a new list.
#[cfg(test)]
fn tactical_moves(pos: &Position) -> Vec<Move> {
    let mut list = Vec::new();
    tactical_moves_into(pos, &mut list);
    list
}

/// Captures, queen promotions and destructive launches, generated directly and appended to `list`
/// (pseudo-legal: check each with [`legal_after`]). Much cheaper than the full legal move list in
/// quiescence search.
fn tactical_moves_into(pos: &Position, list: &mut Vec<Move>) {
    let v = pos.variant();
    let us = pos.turn();
    let them = us.other();
    let board = v.board();
    // Without check (no-check atomic) kings may be captured.
    let targets = if v.check { pos.by_color(them) & !pos.by_role(Role::King) } else { pos.by_color(them) };
    let promo_rank = v.promotion_rank_of(us);
    for from in pos.by_color(us) {
        let Some(piece) = pos.piece_at(from) else { continue };
        match piece.role {
            Role::Pawn => {
                for to in pawn_attacks(us, from) & targets & board {
                    let kind =
                        if to.rank() == promo_rank { MoveKind::Promotion(Role::Queen) } else { MoveKind::Normal };
                    list.push(Move { from, to, kind });
                }
                let dr = if us == Color::White { 1 } else { -1 };
                if let Some(one) = from.offset(0, dr)
                    && one.rank() == promo_rank
                    && board.contains(one)
                    && !pos.occupied().contains(one)
                    && !pos.irradiated().contains(one)
                {
                    list.push(Move { from, to: one, kind: MoveKind::Promotion(Role::Queen) });
                }
            }
            Role::King if v.atomic => {}
            _ => {
                for to in pos.attacks_from(from, piece) & targets {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }
    if v.missiles && pos.armed() {
        let ready = pos.launch_ready_missiles();
        if ready.any() {
            let shields = pos.shields();
            let mut aims = Bitboard::EMPTY;
            for e in pos.by_color(them) & !shields {
                aims |= king_attacks(e) | Bitboard::from_square(e);
            }
            for from in ready {
                for to in aims & board & !shields {
                    list.push(Move { from, to, kind: MoveKind::Launch });
                }
            }
        }
    }
}

/// Quiet moves of pieces (not pawns or kings) to a square from which they attack the opponent's king,
/// appended to `list` (pseudo-legal; discovered checks are not among them).
fn quiet_checks_into(pos: &Position, list: &mut Vec<Move>) {
    let us = pos.turn();
    let Some(king) = pos.king(us.other()) else { return };
    let empty = pos.variant().board() & !pos.occupied() & !pos.irradiated();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::Archbishop, Role::Chancellor] {
        let pieces = pos.pieces(us, role);
        if !pieces.any() {
            continue;
        }
        let piece = Piece { color: us, role };
        let targets = pos.attacks_from(king, piece) & empty;
        if !targets.any() {
            continue;
        }
        for from in pieces {
            for to in pos.attacks_from(from, piece) & targets {
                list.push(Move::normal(from, to));
            }
        }
    }
}

/// The score of a position whose game is over because kings are gone (atomic explosions, detonations),
/// from the side to move's view; `None` while the game goes on. A death match goes on without kings
/// until a side has no material left.
#[inline]
fn terminal_score(pos: &Position, ply: usize) -> Option<i32> {
    let us = pos.turn();
    let mated = -MATE + ply as i32;
    match (pos.king(us), pos.king(us.other())) {
        (Some(_), Some(_)) => None,
        (None, Some(_)) => Some(mated),
        (Some(_), None) => Some(-mated),
        (None, None) if !pos.variant().death_match => Some(0),
        (None, None) => match (pos.by_color(us).any(), pos.by_color(us.other()).any()) {
            (true, true) => None,
            (false, false) => Some(0),
            (false, true) => Some(mated),
            (true, false) => Some(-mated),
        },
    }
}

/// Whether the move `m` that led from `before` to `after` was legal (the rules' own test: the mover's
/// king survives and is not left in check, with each variant's exceptions).
pub(crate) fn legal_after(before: &Position, m: Move, after: &Position) -> bool {
    before.is_legal_result(m, after)
}

/// [`lmr`] by depth and move number below 64, computed once for all searches (4,096 logarithms were
/// a small search's noticeable share).
fn lmr_table() -> &'static [[i8; 64]; 64] {
    static TABLE: OnceLock<[[i8; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0i8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate() {
            for (n, r) in row.iter_mut().enumerate() {
                *r = lmr(d as i32, n) as i8;
            }
        }
        t
    })
}

fn lmr(depth: i32, searched: usize) -> i32 {
    let d = (depth.max(1) as f64).ln();
    let n = (searched.max(1) as f64).ln();
    (0.5 + d * n / 2.2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::{VARIANTS, setups, variant};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    /// Every score within ±16,384 stays there after any bonus the searches give (`(depth * depth).min(400)`,
    /// either sign): the history's 16 bits hold what 32 held, and the searches are the same.
    #[test]
    fn gravity_keeps_scores_within_16_bits() {
        for h in -16_384..=16_384 {
            for bonus in -400..=400 {
                let mut v = h;
                gravity(&mut v, bonus);
                assert!((-16_384..=16_384).contains(&v), "{h} {bonus:+} → {v}");
            }
        }
    }

    /// [`pick`] takes the moves in the order of the scan it replaced (the first maximum of the rest, swapped to
    /// the front), ties and the swaps' reshuffling of the lower scores included: random lists of 1 to 60
    /// moves whose scores repeat often.
    #[test]
    fn picking_keeps_the_scan_s_order() {
        let mut rng = StdRng::seed_from_u64(107);
        for _ in 0..2_000 {
            let n = rng.random_range(1..=60);
            let spread = rng.random_range(1..=8);
            let list: Vec<(Move, i32)> = (0..n)
                .map(|i| (Move::normal(Square::from_index(i), Square::from_index(99 - i)), rng.random_range(0..spread)))
                .collect();
            let mut scanned = list.clone();
            let mut by_scan = Vec::new();
            for i in 0..scanned.len() {
                let mut bi = i;
                for j in i + 1..scanned.len() {
                    if scanned[j].1 > scanned[bi].1 {
                        bi = j;
                    }
                }
                scanned.swap(i, bi);
                by_scan.push(scanned[i]);
            }
            let (mut moves, mut scores): (Vec<Move>, Vec<i32>) = list.into_iter().unzip();
            let by_pick: Vec<(Move, i32)> = (0..n).map(|i| pick(&mut moves, &mut scores, i)).collect();
            assert_eq!(by_pick, by_scan);
        }
    }

    /// Each variant's numbering of its squares ([`Squares`]) gives each square of its board its own number
    /// below its square count, so the tables' slots stand for what they stood for under the 10×10 grid's
    /// numbering, and the largest slot of each table lies inside it.
    #[test]
    fn each_variant_numbers_its_squares_apart() {
        for v in VARIANTS {
            let squares = Squares::of(v);
            let on_board: Vec<Square> = (0..Square::COUNT).map(Square::from_index).filter(|&s| v.contains(s)).collect();
            assert_eq!(on_board.len(), squares.count, "{}", v.name);
            let mut numbers: Vec<usize> = on_board.iter().map(|&s| squares.at(s)).collect();
            numbers.sort_unstable();
            assert_eq!(numbers, (0..squares.count).collect::<Vec<_>>(), "{}", v.name);
            let stats = Stats::new();
            let (last, last_sq) = (squares.count - 1, *on_board.last().unwrap());
            let far = Move::normal(last_sq, last_sq);
            assert!(counter_index(far, &squares) < stats.counter.len());
            let last_key = (Role::COUNT - 1) * squares.count + last;
            assert!(cont_index(Color::Black, last_key, last_key, &squares) < stats.cont[0].len(), "{}", v.name);
            assert!((2 * squares.count) * squares.count <= stats.history.len());
            assert!(2 * Role::COUNT * squares.count * Role::COUNT <= stats.captures.len());
        }
    }

    /// Capture-history slots tell the capturing role apart, and the capture from the quiet move; an en
    /// passant capture shares the slot of a pawn taking a pawn on the same square.
    #[test]
    fn capture_history_slots() {
        let pos = fen::parse_position(&variant::CHESS, "4k3/8/8/3p4/8/2N5/8/4K2Q w - - 0 1").unwrap();
        let squares = Squares::of(&variant::CHESS);
        let capture_index = |pos: &Position, m: Move| capture_index(pos, m, &squares);
        let by_knight = capture_index(&pos, Move::normal(sq("c3"), sq("d5"))).unwrap();
        let by_queen = capture_index(&pos, Move::normal(sq("h1"), sq("d5"))).unwrap();
        assert_ne!(by_knight, by_queen);
        assert_eq!(capture_index(&pos, Move::normal(sq("c3"), sq("e4"))), None);
        let ep = fen::parse_position(&variant::CHESS, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        let plain = fen::parse_position(&variant::CHESS, "4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 1").unwrap();
        let ep_slot = capture_index(&ep, Move { from: sq("e5"), to: sq("d6"), kind: MoveKind::EnPassant });
        assert_eq!(ep_slot, capture_index(&plain, Move::normal(sq("e5"), sq("d6"))));
        assert!(ep_slot.is_some());
    }

    /// The quiet checks of [`quiet_checks_into`] are exactly the legal quiet moves of pieces (not
    /// pawns or kings) that attack the opponent's king from their destination, in chess and
    /// Capablanca (the archbishop's and chancellor's checks included).
    #[test]
    fn quiet_checks_are_the_direct_checks_of_pieces() {
        let mut rng = StdRng::seed_from_u64(46);
        let mut seen = 0;
        for v in [&variant::CHESS, &variant::CAPABLANCA] {
            for game in 0..16 {
                let mut pos = Position::start(v);
                for _ in 0..(16 + game * 4) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mut generated = Vec::new();
                    quiet_checks_into(&pos, &mut generated);
                    let legal_generated: Vec<Move> =
                        generated.iter().copied().filter(|&m| legal_after(&pos, m, &pos.play_unchecked(m))).collect();
                    let king = pos.king(pos.turn().other()).unwrap();
                    for m in &legal {
                        let piece = pos.piece_at(m.from).unwrap();
                        let direct = m.kind == MoveKind::Normal
                            && !pos.is_capture(*m)
                            && !matches!(piece.role, Role::Pawn | Role::King)
                            && pos.play_unchecked(*m).attacks_from(m.to, piece).contains(king);
                        assert_eq!(direct, legal_generated.contains(m), "{} {m:?} in {pos:?}", v.name);
                    }
                    for m in &legal_generated {
                        assert!(legal.contains(m) && pos.play_unchecked(*m).is_check(), "{m:?} in {pos:?}");
                    }
                    seen += legal_generated.len();
                    pos = pos.play_unchecked(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(seen > 50, "only {seen} quiet checks in all");
    }

    /// A quiet move's order score from the node's keys read once ([`Searcher::quiet_keys`]) is what reading
    /// the killers, the counter move and the continuation rows for the move itself gives, at the root and
    /// below it, after a null move and with random statistics (killers and counter moves often the
    /// position's own moves).
    #[test]
    fn quiet_moves_are_scored_from_the_node_s_keys() {
        let mut rng = StdRng::seed_from_u64(109);
        let limits = Limits::default();
        let (mut compared, mut by_killer_or_counter) = (0, 0);
        for v in VARIANTS {
            let (mut tt, mut stats, mut evaluator) = (Tt::new(1), Stats::new(), Evaluator::new(v));
            let [cont0, cont1] = &mut stats.cont;
            for (salt, t) in [&mut stats.history, cont0, cont1].into_iter().enumerate() {
                // Scattered scores over the whole ±16,384 (a random number each took seconds).
                t.iter_mut()
                    .enumerate()
                    .for_each(|(i, h)| *h = ((i * 7_919 + salt * 104_729) % 32_769) as i16 - 16_384);
            }
            let mut s = Searcher::new(&mut tt, &mut stats, &mut evaluator, &limits, &[]);
            let mut pos = setups::random_start(v, &mut rng);
            for _ in 0..40 {
                let legal = pos.legal_moves();
                if legal.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let mut any = || Some(legal[rng.random_range(0..legal.len())]);
                for ply in 0..4 {
                    s.killers[ply] = [any(), any()];
                    s.played[ply] = if ply == 2 { None } else { any() };
                    s.keys[ply] = s.played[ply].map(|m| piece_to(&pos, m, &s.squares).unwrap());
                    if let Some(prev) = s.played[ply] {
                        s.stats.counter[counter_index(prev, &s.squares)] = any();
                    }
                }
                for ply in 0..5 {
                    let keys = s.quiet_keys(&pos, ply);
                    for &m in legal.iter().filter(|&&m| !is_tactical(&pos, m)) {
                        let k = s.killers[ply];
                        let counter = (ply > 0)
                            .then(|| s.played[ply - 1])
                            .flatten()
                            .and_then(|prev| s.stats.counter[counter_index(prev, &s.squares)]);
                        let expected = if k[0] == Some(m) {
                            1_000_000
                        } else if k[1] == Some(m) {
                            999_000
                        } else if counter == Some(m) {
                            998_000
                        } else {
                            let key = piece_to(&pos, m, &s.squares).unwrap();
                            let cont: i32 = (0..2)
                                .filter(|&back| ply > back)
                                .filter_map(|back| s.keys[ply - 1 - back].map(|earlier| (back, earlier)))
                                .map(|(back, earlier)| {
                                    s.stats.cont[back][cont_index(pos.turn(), earlier, key, &s.squares)] as i32
                                })
                                .sum();
                            s.stats.history[history_index(&pos, m, &s.squares)] as i32 + cont
                        };
                        assert_eq!(s.order_score(&pos, m, None, &keys), expected, "{} {m:?} at {ply}", v.name);
                        compared += 1;
                        by_killer_or_counter += (expected >= 998_000) as usize;
                    }
                }
                pos = pos.play(legal[rng.random_range(0..legal.len())]);
            }
        }
        assert!(compared > 10_000 && by_killer_or_counter > 1_000, "{compared} {by_killer_or_counter}");
    }

    /// A capture [`Searcher::never_loses`] calls safe has a gain of zero or more, in every variant but the
    /// atomic ones (where ordering does not ask): the exchange count it leaves uncomputed would only have
    /// been compared with zero.
    #[test]
    fn captures_said_never_to_lose_gain_at_least_nothing() {
        let mut rng = StdRng::seed_from_u64(109);
        let limits = Limits::default();
        let (mut safe, mut losing) = (0, 0);
        for v in VARIANTS.iter().filter(|v| !v.atomic) {
            let (mut tt, mut stats, mut evaluator) = (Tt::new(1), Stats::new(), Evaluator::new(v));
            let s = Searcher::new(&mut tt, &mut stats, &mut evaluator, &limits, &[]);
            for game in 0..20 {
                let mut pos = setups::random_start(v, &mut rng);
                for _ in 0..(40 + game * 5) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    for &m in legal.iter().filter(|&&m| m.kind != MoveKind::Launch && pos.is_capture(m)) {
                        let g = s.gain(&pos, m);
                        if s.never_loses(&pos, m) {
                            assert!(g >= 0, "{} {m:?} gains {g} in {pos:?}", v.name);
                            safe += 1;
                        }
                        losing += (g < 0) as usize;
                    }
                    pos = pos.play(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(safe > 1_000 && losing > 1_000, "{safe} {losing}");
    }

    /// The quiescence search with quiet checks sees a knight's forking check win the queen, which the
    /// captures alone do not; as the AI plays, it does not.
    #[test]
    fn quiet_checks_in_quiescence_see_a_fork() {
        // White's Nc7+ forks the king on e8 and the queen on a8; no capture wins anything.
        let pos = fen::parse_position(&variant::CHESS, "q3k3/7p/8/1N6/8/8/7P/4K3 w - - 0 1").unwrap();
        let q = |style: super::super::Style| {
            let limits = Limits { style, ..Limits::default() };
            let mut tt = Tt::new(1);
            let mut stats = Stats::new();
            let mut evaluator = Evaluator::new(pos.variant());
            let mut s = Searcher::new(&mut tt, &mut stats, &mut evaluator, &limits, &[]);
            s.qsearch(&pos, 0, -INF, INF, 0, None)
        };
        let play = q(super::super::Style::PLAY);
        let checks = q(super::super::Style { qchecks: true, ..super::super::Style::PLAY });
        assert!(play < -500, "as played, White is a queen down: {play}");
        assert!(checks > 0, "with quiet checks the fork wins the queen back: {checks}");
    }

    /// Each switch of [`super::super::Style`] changes what a fixed-node search does in the middle
    /// game (so none is left unwired), and the default searches as the AI plays.
    #[test]
    fn every_style_switch_changes_the_search() {
        use super::super::{Memory, Style, search_with};
        let pos = fen::parse_position(&variant::CHESS, "r2k1r2/pb1n2b1/nppPp2p/7B/2P2B2/2N4P/PP3PP1/R3R1K1 w - - 3 20")
            .unwrap();
        let run = |style: Style| {
            let limits = Limits { nodes: Some(20_000), style, ..Limits::default() };
            let r = search_with(&pos, &[], &limits, &mut Memory::new(4), &mut |_| {});
            (r.score, r.best, r.pv, r.depth)
        };
        assert_eq!(Style::default(), Style::PLAY);
        let play = run(Style::PLAY);
        for switch in
            ["lmr=1", "nonull", "nullless=2", "nolmp", "nofut", "nosee", "norfp", "qchecks", "lcfull", "noiir", "nocut"]
        {
            let style = Style::parse(switch).unwrap();
            assert_ne!(style, Style::PLAY, "{switch}");
            assert_ne!(run(style), play, "{switch} changed nothing");
        }
        assert!(Style::parse("lmr").is_err() && Style::parse("qchecks=2").is_err() && Style::parse("x").is_err());
        assert_eq!(Style::parse(" lmr=2, qchecks ").unwrap(), Style { lmr_less: 2, qchecks: true, ..Style::PLAY });
    }

    /// The direct generator agrees with the rules engine: every legal capture (queen promotions) is
    /// generated, and everything generated that passes `legal_after` is legal.
    #[test]
    fn tactical_moves_match_legal_captures() {
        let mut rng = StdRng::seed_from_u64(3);
        for v in VARIANTS {
            for game in 0..12 {
                let mut pos = setups::random_start(v, &mut rng);
                for _ in 0..(20 + game * 6) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() || pos.king(pos.turn().other()).is_none() {
                        break;
                    }
                    if !pos.is_check() {
                        let generated: Vec<Move> = tactical_moves(&pos)
                            .into_iter()
                            .filter(|&m| legal_after(&pos, m, &pos.play_unchecked(m)))
                            .collect();
                        for m in &generated {
                            assert!(legal.contains(m), "{} generated illegal {m:?} in {pos:?}", v.name);
                        }
                        for m in &legal {
                            let wanted = match m.kind {
                                MoveKind::Normal => pos.is_capture(*m),
                                MoveKind::Promotion(r) => r == Role::Queen,
                                _ => false,
                            };
                            if wanted {
                                assert!(generated.contains(m), "{} missed {m:?} in {pos:?}", v.name);
                            }
                        }
                    }
                    let m = legal[rng.random_range(0..legal.len())];
                    pos = pos.play_unchecked(m);
                }
            }
        }
    }
}
