//! capabot's chess AI for every variant the rules engine knows, Capatomic included: an alpha-beta
//! searcher ([`search`]) over a per-variant evaluation ([`eval`]), limited by time, depth or nodes, with
//! eight playing levels ([`Limits::for_level`]) and a UCI front end ([`uci`]) in Fairy-Stockfish's
//! conventions. Depends on [`crate::rules`] (and [`crate::notation`] for UCI text) only.
//!
//! The search is deterministic for a given seed when limited by depth or nodes. Call it from a blocking
//! thread: a search runs until its limits say stop.

pub mod analysis;
pub mod eval;
pub mod search;
pub mod tt;
pub mod uci;

use crate::rules::{Game, Move, Position, Variant};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use search::{MATE, MATE_BOUND};

/// Asks the kernel to back the memory of `table` with 2 MiB pages where it can (Linux's transparent huge
/// pages, `madvise` mode): the searches read their tables (the transposition table's 16 MB, the
/// continuation histories' 6.5 MB) at random, and in 4 KiB pages such a read often misses the
/// processor's translation buffer and waits for a walk of the page tables. Only the table's whole 2 MiB blocks are asked for, and pages already touched stay as they
/// are, so call it before the table is written. A hint: nothing read or written changes.
pub(crate) fn advise_huge_pages<T>(table: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = table.as_ptr() as usize;
        let end = start + std::mem::size_of_val(table);
        let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if first < last {
            // SAFETY: the range lies inside `table`'s allocation, and MADV_HUGEPAGE changes no byte of it,
            // only the size of the pages that back it (there is no safe binding of madvise: `rustix`'s
            // is unsafe too, and `memmap2`'s would need the table as plain bytes). Its result is a hint's:
            // a kernel without transparent huge pages says no, and the table works the same.
            unsafe { libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = table;
}

/// When a search stops and how well it plays.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exactly reproducible).
    pub nodes: Option<u64>,
    /// Wall-clock budget; the search returns within about 20 ms of it.
    pub movetime: Option<Duration>,
    /// No new iteration starts after this much time (`None`: keep deepening until `movetime`).
    pub soft_movetime: Option<Duration>,
    /// Seed for the deliberate mistakes of the weaker levels.
    pub seed: u64,
    /// Weaker levels: random noise (± centipawns) added to each root move's score.
    pub noise: i32,
    /// Weaker levels: chance (per mille) of picking a plausible but not best move.
    pub blunder_permille: u32,
    /// Search until stopped (UCI `go infinite`): ignore depth-based early exits.
    pub infinite: bool,
    /// Set from another thread to stop the search (UCI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// Transposition table size in megabytes (0 = 16).
    pub hash_mb: usize,
    /// A root move left out of the search, as if it were not legal (an analysis prices the search's
    /// own choice against the best of the others). With no other legal move the search finds none.
    pub excluded: Option<Move>,
    /// Called by the search every [`PAUSE_EVERY`] nodes: a search nobody waits for (an analysis)
    /// waits in it while more urgent work runs. It cannot change a search limited by nodes; it
    /// eats into a time limit.
    pub pause: Option<Pause>,
    /// How selective the search is ([`Style::PLAY`], the default: as the AI plays).
    pub style: Style,
}

/// The search's selectivity: which of its prunings and reductions it makes, and whether its
/// quiescence search tries quiet checks. [`Style::PLAY`] (the default) is the AI's own; an analysis
/// may search otherwise ([`analysis::SecondLook::style`]): it wants the right score of a position at a
/// fixed effort, where a game wants the best move in its time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Plies taken off every late-move reduction (negative: more reduction).
    pub lmr_less: i32,
    /// No null-move pruning.
    pub no_null: bool,
    /// Plies taken off the null move's reduction (it stays at least 1).
    pub null_less: i32,
    /// No late-move pruning (the tail of the quiet moves at shallow depth).
    pub no_lmp: bool,
    /// No futility pruning of quiet moves.
    pub no_futility: bool,
    /// No pruning of quiet moves and captures that lose material by the exchange count.
    pub no_see_prune: bool,
    /// No reverse futility pruning.
    pub no_rfp: bool,
    /// The quiescence search's first ply tries quiet moves of pieces that give check (not losing the
    /// piece by the exchange count; not in atomic variants).
    pub qchecks: bool,
    /// Captures that lose material by the exchange count are not reduced (sacrifices searched as
    /// deeply as the good captures).
    pub losing_caps_full: bool,
    /// No internal iterative reduction.
    pub no_iir: bool,
    /// No extra reduction of late moves at expected cut nodes.
    pub no_cut_extra: bool,
}

impl Style {
    /// As the AI plays.
    pub const PLAY: Style = Style {
        lmr_less: 0,
        no_null: false,
        null_less: 0,
        no_lmp: false,
        no_futility: false,
        no_see_prune: false,
        no_rfp: false,
        qchecks: false,
        losing_caps_full: false,
        no_iir: false,
        no_cut_extra: false,
    };

    /// Switches from text, separated by commas, each turning one on from [`Style::PLAY`]: `lmr=N`,
    /// `nonull`, `nullless=N`, `nolmp`, `nofut`, `nosee`, `norfp`, `qchecks`, `lcfull`, `noiir`,
    /// `nocut` (the laboratory's `--style`).
    pub fn parse(text: &str) -> Result<Style, String> {
        let mut s = Style::PLAY;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = match part.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (part, None),
            };
            let number = || -> Result<i32, String> {
                v.ok_or_else(|| format!("{k}: write {k}=N"))?.parse().map_err(|_| format!("{part}: not a number"))
            };
            let flag = |f: &mut bool| -> Result<(), String> {
                if v.is_some() {
                    return Err(format!("{part}: {k} takes no value"));
                }
                *f = true;
                Ok(())
            };
            match k {
                "lmr" => s.lmr_less = number()?,
                "nullless" => s.null_less = number()?,
                "nonull" => flag(&mut s.no_null)?,
                "nolmp" => flag(&mut s.no_lmp)?,
                "nofut" => flag(&mut s.no_futility)?,
                "nosee" => flag(&mut s.no_see_prune)?,
                "norfp" => flag(&mut s.no_rfp)?,
                "qchecks" => flag(&mut s.qchecks)?,
                "lcfull" => flag(&mut s.losing_caps_full)?,
                "noiir" => flag(&mut s.no_iir)?,
                "nocut" => flag(&mut s.no_cut_extra)?,
                other => return Err(format!("unknown search switch '{other}'")),
            }
        }
        Ok(s)
    }
}

/// How often the search calls [`Limits::pause`]: every 128 nodes, about 0.15 ms of a search.
pub const PAUSE_EVERY: u64 = 128;

/// The callback of [`Limits::pause`].
#[derive(Clone)]
pub struct Pause(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Pause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pause")
    }
}

/// One level's settings, as published in docs/ai.md.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    pub level: u8,
    pub name: &'static str,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: u64,
    pub noise: i32,
    pub blunder_permille: u32,
}

/// The eight levels, weakest first.
pub const LEVELS: [Level; 8] = [
    Level {
        level: 1,
        name: "beginner",
        depth: Some(1),
        nodes: None,
        movetime_ms: 500,
        noise: 300,
        blunder_permille: 250,
    },
    Level {
        level: 2,
        name: "novice",
        depth: Some(2),
        nodes: None,
        movetime_ms: 500,
        noise: 150,
        blunder_permille: 120,
    },
    Level {
        level: 3,
        name: "casual",
        depth: Some(3),
        nodes: Some(4_000),
        movetime_ms: 700,
        noise: 80,
        blunder_permille: 50,
    },
    Level {
        level: 4,
        name: "club",
        depth: None,
        nodes: Some(5_000),
        movetime_ms: 800,
        noise: 40,
        blunder_permille: 20,
    },
    Level {
        level: 5,
        name: "strong club",
        depth: None,
        nodes: Some(12_000),
        movetime_ms: 1_000,
        noise: 15,
        blunder_permille: 0,
    },
    Level {
        level: 6,
        name: "expert",
        depth: None,
        nodes: Some(35_000),
        movetime_ms: 1_500,
        noise: 0,
        blunder_permille: 0,
    },
    Level {
        level: 7,
        name: "master",
        depth: None,
        nodes: Some(100_000),
        movetime_ms: 2_000,
        noise: 0,
        blunder_permille: 0,
    },
    Level {
        level: 8,
        name: "full strength",
        depth: None,
        nodes: None,
        movetime_ms: 3_000,
        noise: 0,
        blunder_permille: 0,
    },
];

impl Limits {
    /// The limits of a playing level, 1 (beginner) to 8 (full strength); out-of-range levels are clamped.
    pub fn for_level(level: u8) -> Limits {
        let l = LEVELS[(level.clamp(1, 8) - 1) as usize];
        Limits {
            depth: l.depth,
            nodes: l.nodes,
            movetime: Some(Duration::from_millis(l.movetime_ms)),
            // The time is a cap for chat players: answer sooner when another iteration would not finish.
            soft_movetime: Some(Duration::from_millis(l.movetime_ms * 11 / 20)),
            noise: l.noise,
            blunder_permille: l.blunder_permille,
            ..Limits::default()
        }
    }

    /// Same limits with another seed (vary the weaker levels' mistakes from move to move).
    pub fn with_seed(mut self, seed: u64) -> Limits {
        self.seed = seed;
        self
    }

    /// Depth-limited search (tests, puzzles).
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Time-limited search at full strength.
    pub fn movetime(t: Duration) -> Limits {
        Limits { movetime: Some(t), ..Limits::default() }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over.
    pub best: Option<Move>,
    /// Centipawns for the side to move; mate in `n` plies is `MATE - n` (negative: being mated).
    pub score: i32,
    /// Deepest finished iteration.
    pub depth: u32,
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// Moves to mate (positive: the side to move mates), if the score is a mate score.
    pub fn mate_in(&self) -> Option<i32> {
        mate_in(self.score)
    }
}

/// Moves to mate for a score, if it is a mate score (UCI `score mate`): the plies to mate halved
/// and rounded up, either way. (A score turned to White's view with Black to move has the mating
/// side's plies odd on the negative side too: Black mating in one ply is `#-1`, not `#0`.)
pub fn mate_in(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-((MATE + score + 1) / 2))
    } else {
        None
    }
}

/// Progress report after each finished iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// The best move in `pos` within `limits` (no game history: repetitions before `pos` are unknown).
pub fn best_move(pos: &Position, limits: &Limits) -> SearchResult {
    search_fresh(pos, &[], limits)
}

/// A search with a new memory, whose allocation counts against the time limit.
fn search_fresh(pos: &Position, history: &[u64], limits: &Limits) -> SearchResult {
    let t = std::time::Instant::now();
    let mut memory = Memory::new(table_mb(limits));
    let mut limits = limits.clone();
    limits.movetime = limits.movetime.map(|m| m.saturating_sub(t.elapsed()).max(Duration::from_millis(1)));
    limits.soft_movetime = limits.soft_movetime.map(|m| m.saturating_sub(t.elapsed()));
    search_with(pos, history, &limits, &mut memory, &mut |_| {})
}

/// The best move in the game's current position, avoiding or seeking repetitions of earlier positions.
pub fn best_move_in_game(game: &Game, limits: &Limits) -> SearchResult {
    search_fresh(game.position(), &game_history(game), limits)
}

/// [`best_move_in_game`] for a caller that keeps a [`Memory`] for the game from move to move, as an
/// engine in a match does: each search starts from what the one before learned.
pub fn best_move_in_game_with(game: &Game, limits: &Limits, memory: &mut Memory) -> SearchResult {
    search_with(game.position(), &game_history(game), limits, memory, &mut |_| {})
}

/// The hashes of the game's positions before the current one.
fn game_history(game: &Game) -> Vec<u64> {
    let mut history: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
    history.pop();
    history
}

/// What searches keep from move to move of one game: the transposition table and the move-ordering
/// statistics (history, counter moves, continuation and capture histories).
pub struct Memory {
    tt: tt::Tt,
    stats: Box<search::Stats>,
    /// The evaluator of the last search's variant, with its caches of evaluations and pawn terms:
    /// each a function of the position alone (its hash covers all they read), so a later search of
    /// the same variant (the next position of an analysis, the next move of a game) finds there the
    /// scores it would compute, without evaluating again.
    evaluator: Option<eval::Evaluator>,
}

impl Memory {
    /// A memory with a transposition table of about `mb` megabytes.
    pub fn new(mb: usize) -> Memory {
        Memory { tt: tt::Tt::new(mb), stats: Box::new(search::Stats::new()), evaluator: None }
    }

    /// Forgets everything a search found (a new game). The evaluator's caches stay: they hold what
    /// any search would compute again.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.stats.clear();
    }

    /// The evaluator for `variant`: the one kept if it is that variant's, else a new one.
    fn evaluator_for<'m>(slot: &'m mut Option<eval::Evaluator>, variant: &'static Variant) -> &'m mut eval::Evaluator {
        if slot.as_ref().is_some_and(|e| !std::ptr::eq(e.variant(), variant)) {
            *slot = None;
        }
        slot.get_or_insert_with(|| eval::Evaluator::new(variant))
    }

    /// Forgets the stored scores, keeping the move-ordering statistics (which hold no scores).
    pub(crate) fn forget_scores(&mut self) {
        self.tt.clear();
    }
}

fn table_mb(limits: &Limits) -> usize {
    if limits.hash_mb == 0 {
        // Small searches need small tables (cheaper to allocate).
        match (limits.nodes, limits.depth) {
            (Some(n), _) if n <= 100_000 => 4,
            (None, Some(d)) if d <= 4 => 4,
            _ => 16,
        }
    } else {
        limits.hash_mb
    }
}

/// The full interface: earlier positions' hashes (oldest first, not including `pos`), a memory kept by
/// the caller, and a callback for each finished iteration.
pub fn search_with(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    memory: &mut Memory,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    // Secret-bomb chess: search the position as the side to move knows it; the opponent's bomb is
    // treated as absent and never read.
    let known;
    let pos = if pos.variant().bombs {
        known = pos.without_bomb(pos.turn().other());
        &known
    } else {
        pos
    };
    let evaluator = Memory::evaluator_for(&mut memory.evaluator, pos.variant());
    let mut s = search::Searcher::new(&mut memory.tt, &mut memory.stats, evaluator, limits, history);
    s.run(pos, on_info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant;

    #[test]
    fn levels_are_ordered() {
        for w in LEVELS.windows(2) {
            assert!(w[0].level + 1 == w[1].level);
            assert!(w[0].noise >= w[1].noise);
            assert!(w[0].movetime_ms <= w[1].movetime_ms);
        }
        let l = Limits::for_level(0);
        assert_eq!(l.depth, Some(1));
        let l = Limits::for_level(99);
        assert_eq!(l.noise, 0);
    }

    #[test]
    fn mate_in_from_scores() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-(MATE - 2)), Some(-1));
        // Black to move and mating, seen from White's side: one ply is a mate in one, three two.
        assert_eq!(mate_in(-(MATE - 1)), Some(-1));
        assert_eq!(mate_in(-(MATE - 3)), Some(-2));
        // The side to move checkmated: mate in 0, as UCI says it.
        assert_eq!(mate_in(-MATE), Some(0));
        assert_eq!(mate_in(120), None);
    }

    #[test]
    fn soft_time_stops_deepening_but_a_fixed_time_does_not() {
        let pos = Position::start(&variant::CHESS);
        // A soft limit already passed: the first iteration finishes, no second one starts.
        let soft = Limits {
            movetime: Some(Duration::from_secs(30)),
            soft_movetime: Some(Duration::ZERO),
            ..Limits::default()
        };
        assert_eq!(best_move(&pos, &soft).depth, 1);
        // Without one, the search deepens until another limit stops it.
        let fixed = Limits { movetime: Some(Duration::from_secs(30)), depth: Some(4), ..Limits::default() };
        assert_eq!(best_move(&pos, &fixed).depth, 4);
        // Levels answer sooner than their cap.
        let l = Limits::for_level(8);
        assert!(l.soft_movetime.unwrap() < l.movetime.unwrap());
    }

    #[test]
    fn start_position_move_at_depth_3() {
        let pos = Position::start(&variant::CHESS);
        let r = best_move(&pos, &Limits::depth(3));
        let m = r.best.expect("a move");
        assert!(pos.legal_moves().contains(&m));
        assert_eq!(r.depth, 3);
        assert!(r.nodes > 0);
    }

    #[test]
    fn an_excluded_root_move_is_never_chosen_and_the_next_best_is() {
        use crate::notation::{fen, uci};
        // Nxd5 wins the queen; without it, Bxa6 wins the rook.
        let pos = fen::parse_position(&variant::CHESS, "7k/8/r7/3q4/8/2N5/4B3/4K3 w - - 0 1").unwrap();
        let limits = Limits::depth(5);
        let full = best_move(&pos, &limits);
        let queen = uci::parse(&pos, "c3d5").unwrap();
        assert_eq!(full.best, Some(queen));
        let others = best_move(&pos, &Limits { excluded: Some(queen), ..limits.clone() });
        assert_eq!(others.best, Some(uci::parse(&pos, "e2a6").unwrap()));
        assert!(others.score + 300 < full.score, "{} against {}", others.score, full.score);
        // Limited by nodes, kept in one memory (as an analysis searches): the same.
        let mut memory = Memory::new(4);
        let nodes = Limits { nodes: Some(20_000), ..Limits::default() };
        let first = search_with(&pos, &[], &nodes, &mut memory, &mut |_| {});
        assert_eq!(first.best, Some(queen));
        let again =
            search_with(&pos, &[], &Limits { excluded: Some(queen), ..nodes.clone() }, &mut memory, &mut |_| {});
        assert_eq!(again.best, others.best);
    }

    #[test]
    fn excluding_one_of_two_moves_searches_the_other_deeply_and_the_only_one_leaves_none() {
        use crate::notation::{fen, uci};
        let limits = Limits { nodes: Some(5_000), ..Limits::default() };
        // In check from h8: Ka7 or Kb7.
        let two = fen::parse_position(&variant::CHESS, "k6R/8/8/8/8/8/8/K7 b - - 0 1").unwrap();
        let ka7 = uci::parse(&two, "a8a7").unwrap();
        let r = best_move(&two, &Limits { excluded: Some(ka7), ..limits.clone() });
        assert_eq!(r.best, Some(uci::parse(&two, "a8b7").unwrap()));
        // Not the one iteration an only move gets: its score is what an analysis reads.
        assert!(r.depth > 1, "depth {}", r.depth);
        // The rook on b1 takes b7 away: Ka7 is the only move.
        let one = fen::parse_position(&variant::CHESS, "k6R/8/8/8/8/8/8/KR6 b - - 0 1").unwrap();
        assert_eq!(best_move(&one, &limits).best, Some(ka7));
        let none = best_move(&one, &Limits { excluded: Some(ka7), ..limits });
        assert_eq!((none.best, none.nodes), (None, 0));
    }

    #[test]
    fn memory_carries_over_between_searches_until_cleared() {
        let pos = Position::start(&variant::CAPABLANCA);
        let limits = Limits::depth(7);
        let mut memory = Memory::new(4);
        let first = search_with(&pos, &[], &limits, &mut memory, &mut |_| {});
        // The second search finds the first one's results in the table and ordering statistics.
        let again = search_with(&pos, &[], &limits, &mut memory, &mut |_| {});
        assert!(again.nodes * 2 < first.nodes, "{} nodes after {}", again.nodes, first.nodes);
        // Cleared, it starts from nothing: the same search as the first.
        memory.clear();
        let fresh = search_with(&pos, &[], &limits, &mut memory, &mut |_| {});
        assert_eq!((fresh.nodes, fresh.best), (first.nodes, first.best));
        assert_eq!(best_move(&pos, &limits).nodes, first.nodes);
    }

    #[test]
    fn a_memory_moved_to_another_variant_evaluates_with_that_variant() {
        let limits = Limits::depth(5);
        let chess = Position::start(&variant::CHESS);
        let fresh = best_move(&chess, &limits);
        // The memory's evaluator (and its caches) is Capablanca's after this search...
        let mut memory = Memory::new(4);
        search_with(&Position::start(&variant::CAPABLANCA), &[], &limits, &mut memory, &mut |_| {});
        memory.clear();
        // ... and chess's for the next: the same search as with a new memory.
        let after = search_with(&chess, &[], &limits, &mut memory, &mut |_| {});
        assert!(std::ptr::eq(memory.evaluator.as_ref().map_or(std::ptr::null(), |e| e.variant()), &variant::CHESS));
        assert_eq!((after.nodes, after.score, after.best), (fresh.nodes, fresh.score, fresh.best));
    }

    /// What fixed-node searches find, pinned: a game of each variant played by 5,000-node searches
    /// that keep their memory from move to move (as an analysis does), every search's nodes, depth,
    /// score, best move and principal variation folded into one number. A change meant to make the
    /// search faster without changing what it searches must leave these as they are.
    #[test]
    fn fixed_node_searches_are_pinned() {
        use crate::rules::{VARIANTS, setups};
        use rand::SeedableRng;
        use rand::rngs::StdRng;
        let pinned: [(&str, u64, u64); 11] = [
            ("chess", 120013, 0xbde87a8319387900),
            ("capablanca", 120016, 0x50af0327e3240145),
            ("caparandom", 120014, 0xd7167ff27a296cd0),
            ("caparelocation", 120004, 0x10b12872eb072c9e),
            ("stones", 120007, 0xedf284a7bcafef18),
            ("atomic", 120015, 0x5436f9c7b096d47e),
            ("atomic-nocheck", 120010, 0xb158774e5ac03501),
            ("atomic-deathmatch", 120015, 0x5436f9c7b096d47e),
            ("atomic-pawnsafe", 120010, 0x0f2253e33f811582),
            ("bomb", 120013, 0xbde87a8319387900),
            ("capatomic", 120008, 0x1a856a0bae8fbbff),
        ];
        let mut found = Vec::new();
        for (i, v) in VARIANTS.iter().enumerate() {
            let mut rng = StdRng::seed_from_u64(46 + i as u64);
            let mut pos = setups::random_start(v, &mut rng);
            let mut history = Vec::new();
            let mut memory = Memory::new(4);
            let limits = Limits { nodes: Some(5_000), ..Limits::default() };
            let (mut nodes, mut digest) = (0u64, 0xcbf2_9ce4_8422_2325u64);
            for _ in 0..24 {
                let r = search_with(&pos, &history, &limits, &mut memory, &mut |_| {});
                nodes += r.nodes;
                let text = format!("{} {} {} {:?} {:?}", r.nodes, r.depth, r.score, r.best, r.pv);
                digest = text.bytes().fold(digest, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
                let Some(m) = r.best else { break };
                history.push(pos.hash());
                pos = pos.play(m);
            }
            found.push((v.name, nodes, digest));
        }
        for (f, p) in found.iter().zip(&pinned) {
            assert_eq!(f, p, "found (\"{}\", {}, 0x{:016x})", f.0, f.1, f.2);
        }
    }
}
