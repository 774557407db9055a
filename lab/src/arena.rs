//! Matches between players — capabot at a level, a random mover, a greedy capturer, or any UCI engine
//! started by a command line (Fairy-Stockfish, an earlier capabot build) — with capabot's rules engine as
//! referee. Used by `lab match` to calibrate the levels and to measure strength.

use capabot::ai::analysis::{PositionEval, Score};
use capabot::ai::{Limits, Memory, best_move_in_game_with, eval, uci::needs_chess960};
use capabot::notation::{fen, uci as coord};
use capabot::rules::variant::CHESS;
use capabot::rules::{Color, Game, Move, Outcome, Position, Role, Variant, setups};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Who plays.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    Random,
    Greedy,
    /// capabot at a level (1..=8).
    Level(u8),
    /// A UCI engine command line, with an optional `Skill Level`.
    Uci {
        cmd: String,
        skill: Option<u32>,
    },
}

impl PlayerSpec {
    /// `random`, `greedy`, `level:K`, `uci:CMD` or `uci:CMD@skill` (skill level sent as `Skill Level`).
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        match text {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            _ => {
                if let Some(l) = text.strip_prefix("level:") {
                    let l: u8 = l.parse().map_err(|_| format!("bad level '{l}'"))?;
                    if !(1..=8).contains(&l) {
                        return Err("levels are 1 to 8".into());
                    }
                    Ok(PlayerSpec::Level(l))
                } else if let Some(c) = text.strip_prefix("uci:") {
                    match c.rsplit_once('@') {
                        Some((cmd, s)) if s.parse::<u32>().is_ok() => {
                            Ok(PlayerSpec::Uci { cmd: cmd.to_string(), skill: s.parse().ok() })
                        }
                        _ => Ok(PlayerSpec::Uci { cmd: c.to_string(), skill: None }),
                    }
                } else {
                    Err(format!("unknown player '{text}' (random, greedy, level:K, uci:CMD[@skill])"))
                }
            }
        }
    }
}

/// A UCI engine in a child process.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(cmd: &str, variant: &Variant, skill: Option<u32>) -> Result<Engine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{cmd}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine { child, stdin, lines: rx };
        e.send("uci")?;
        e.wait_for("uciok", Duration::from_secs(180))?;
        // Standard chess is every UCI engine's default, and engines that play only chess lack the option.
        if !std::ptr::eq(variant, &CHESS) {
            e.send(&format!("setoption name UCI_Variant value {}", variant.name))?;
        }
        if needs_chess960(variant) {
            e.send("setoption name UCI_Chess960 value true")?;
        }
        if let Some(s) = skill {
            e.send(&format!("setoption name Skill Level value {s}"))?;
        }
        e.send("isready")?;
        e.wait_for("readyok", Duration::from_secs(180))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|e| format!("engine gone: {e}"))
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with(prefix) => return Ok(l),
                Ok(_) => {}
                Err(_) => return Err(format!("no '{prefix}' from engine in {timeout:?}")),
            }
        }
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(120)).map(|_| ())
    }

    /// Sets up the game's position after its first `plies` plies: the start and the moves, so that
    /// the engine knows the repetitions.
    fn position(&mut self, game: &Game, plies: usize) -> Result<(), String> {
        let mut line = format!("position fen {}", fen::write(game.start()));
        if plies > 0 {
            line.push_str(" moves");
            for (p, m) in game.positions().iter().zip(game.moves()).take(plies) {
                line.push(' ');
                line.push_str(&coord::write(p, *m));
            }
        }
        self.send(&line)
    }

    /// The engine's move after `go movetime` or, with a node budget, `go nodes`.
    fn best(&mut self, game: &Game, movetime: Duration, nodes: Option<u64>) -> Result<Move, String> {
        self.position(game, game.moves().len())?;
        let reply = match nodes {
            Some(n) => {
                self.send(&format!("go nodes {n}"))?;
                self.wait_for("bestmove", Duration::from_secs(600))?
            }
            None => {
                self.send(&format!("go movetime {}", movetime.as_millis()))?;
                self.wait_for("bestmove", movetime + Duration::from_secs(60))?
            }
        };
        let text = reply.split_whitespace().nth(1).unwrap_or("");
        coord::parse(game.position(), text).map_err(|e| format!("engine move '{text}': {e}"))
    }
}

/// A UCI engine asked for its evaluation of positions (Fairy-Stockfish, as the independent reference
/// that `lab compare-analysis` holds capabot's analysis against).
pub struct Reference {
    engine: Engine,
}

impl Reference {
    /// Starts the engine (`cmd`, a shell command line) for `variant`, at full strength.
    pub fn start(cmd: &str, variant: &Variant) -> Result<Reference, String> {
        Ok(Reference { engine: Engine::start(cmd, variant, None)? })
    }

    /// Forgets what the engine learnt in the last game (its hash table).
    pub fn new_game(&mut self) -> Result<(), String> {
        self.engine.new_game()
    }

    /// The engine's score (White's view) and best move in the game's position after `plies` plies,
    /// searched to `depth`: the score of the deepest `info` line before `bestmove`.
    pub fn evaluate(&mut self, game: &Game, plies: usize, depth: u32) -> Result<PositionEval, String> {
        let pos = game.positions().get(plies).ok_or("no such position")?;
        self.engine.position(game, plies)?;
        self.engine.send(&format!("go depth {depth}"))?;
        let mut score = None;
        let end = Instant::now() + Duration::from_secs(600);
        let best = loop {
            let left = end.saturating_duration_since(Instant::now());
            let line = self.engine.lines.recv_timeout(left).map_err(|_| "no 'bestmove' from the engine in 600 s")?;
            if let Some(s) = uci_score(&line) {
                score = Some(s);
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                break rest.split_whitespace().next().unwrap_or("").to_string();
            }
        };
        let score = score.ok_or("the engine gave no score")?;
        // `score` is the side to move's; White's view, as capabot's analysis keeps it.
        let white = |n: i32| if pos.turn() == Color::White { n } else { -n };
        let score = match score {
            UciScore::Cp(cp) => Score::Cp(white(cp)),
            UciScore::Mate(n) => Score::Mate(white(n)),
        };
        let best = coord::parse(pos, &best).ok();
        Ok(PositionEval { score, best })
    }
}

/// A score in a UCI `info` line, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    Cp(i32),
    Mate(i32),
}

/// The score of a UCI `info` line (`… score cp 31 …`, `… score mate -3 …`), none for an `info` line
/// without one (`info string …`, `currmove`) or a bound (`lowerbound`/`upperbound`: not the score).
pub fn uci_score(line: &str) -> Option<UciScore> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") || line.contains("lowerbound") || line.contains("upperbound") {
        return None;
    }
    let mut words = words.skip_while(|w| *w != "score").skip(1);
    let (kind, n) = (words.next()?, words.next()?.parse().ok()?);
    match kind {
        "cp" => Some(UciScore::Cp(n)),
        "mate" => Some(UciScore::Mate(n)),
        _ => None,
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(50));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A player during a match.
pub struct Player {
    spec: PlayerSpec,
    engine: Option<Engine>,
    /// capabot's memory (hash table and move statistics), kept through a game like a UCI engine's;
    /// made at the first search of a level player.
    memory: Option<Memory>,
    movetime: Duration,
    /// A node budget per move in place of the time (load-independent matches).
    nodes: Option<u64>,
    rng: StdRng,
    /// Depth and node totals of capabot's searches (for reports).
    pub searches: u64,
    pub depth_sum: u64,
    pub nodes_sum: u64,
    pub time_sum: Duration,
}

impl Player {
    pub fn new(
        spec: PlayerSpec,
        variant: &Variant,
        movetime: Duration,
        nodes: Option<u64>,
        seed: u64,
    ) -> Result<Player, String> {
        let engine = match &spec {
            PlayerSpec::Uci { cmd, skill } => Some(Engine::start(cmd, variant, *skill)?),
            _ => None,
        };
        Ok(Player {
            spec,
            engine,
            memory: None,
            movetime,
            nodes,
            rng: StdRng::seed_from_u64(seed),
            searches: 0,
            depth_sum: 0,
            nodes_sum: 0,
            time_sum: Duration::ZERO,
        })
    }

    fn new_game(&mut self) -> Result<(), String> {
        if let Some(m) = &mut self.memory {
            m.clear();
        }
        match &mut self.engine {
            Some(e) => e.new_game(),
            None => Ok(()),
        }
    }

    /// The player's move; `Err` means the player failed (crash, timeout, illegal move) and loses.
    pub fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, String> {
        let pos = game.position();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Err("no legal moves".into());
        }
        match self.spec {
            PlayerSpec::Random => Ok(moves[self.rng.random_range(0..moves.len())]),
            PlayerSpec::Greedy => Ok(greedy(pos, &moves, &mut self.rng)),
            PlayerSpec::Level(l) => {
                let mut limits = Limits::for_level(l).with_seed(seed);
                if let Some(n) = self.nodes {
                    // A node budget replaces the level's node and time limits.
                    limits.nodes = Some(n);
                    limits.movetime = None;
                    limits.soft_movetime = None;
                } else if limits.movetime.is_none_or(|t| t >= self.movetime) {
                    // The match's time per move, used in full like the opponent's.
                    limits.movetime = Some(self.movetime);
                    limits.soft_movetime = None;
                }
                let t = Instant::now();
                // The size a UCI engine gets by default.
                let memory = self.memory.get_or_insert_with(|| Memory::new(16));
                let r = best_move_in_game_with(game, &limits, memory);
                self.time_sum += t.elapsed();
                self.searches += 1;
                self.depth_sum += r.depth as u64;
                self.nodes_sum += r.nodes;
                r.best.ok_or_else(|| "capabot returned no move".into())
            }
            PlayerSpec::Uci { .. } => {
                let (mt, nodes) = (self.movetime, self.nodes);
                match &mut self.engine {
                    Some(e) => e.best(game, mt, nodes),
                    None => Err("engine not running".into()),
                }
            }
        }
    }
}

/// Captures whatever wins the most material at once (explosions and launches counted); otherwise a
/// random move.
pub fn greedy(pos: &Position, moves: &[Move], rng: &mut StdRng) -> Move {
    let us = pos.turn();
    let mut best = Vec::new();
    let mut best_val = i32::MIN;
    for &m in moves {
        let after = pos.play_unchecked(m);
        let val = if after.king(us.other()).is_none() {
            1_000_000
        } else {
            eval::material(&after, us) - eval::material(&after, us.other())
        };
        if val > best_val {
            best_val = val;
            best.clear();
        }
        if val == best_val {
            best.push(m);
        }
    }
    best[rng.random_range(0..best.len())]
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub white_is_a: bool,
    /// 1.0 win for A, 0.5 draw, 0.0 loss.
    pub score_a: f64,
    pub reason: String,
    pub plies: usize,
    pub start_fen: String,
    /// The moves played from `start_fen`, in coordinate notation.
    pub moves: Vec<String>,
}

/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub variant: &'static Variant,
    pub games: usize,
    pub movetime: Duration,
    /// Node budgets per move for A and B in place of `movetime` (results then do not depend on the
    /// machine's load).
    pub nodes_a: Option<u64>,
    pub nodes_b: Option<u64>,
    /// Random plies played before the players take over (the same for both games of a pair).
    pub random_plies: usize,
    pub seed: u64,
    /// Games longer than this are scored as draws.
    pub max_plies: usize,
    /// Score a game once one side keeps a queen's worth of extra material for ten plies, and call it a
    /// draw after ply 160 once material has stayed within two pawns for twenty plies.
    pub adjudicate: bool,
}

/// The start of game pair `pair`: a numbered setup where the variant has them, then random plies.
fn opening(cfg: &MatchConfig, pair: usize) -> Game {
    let seed = cfg.seed.wrapping_mul(7919).wrapping_add(pair as u64);
    random_opening(cfg.variant, cfg.random_plies, seed)
}

/// A random start for `v`: a random numbered setup where the variant has them, then `plies` random quiet
/// moves (no captures or launches, so that the opening stays balanced); in secret-bomb chess a random bomb
/// per side (each engine's search hides the other's). Reproducible for a seed.
pub fn random_opening(v: &'static Variant, plies: usize, seed: u64) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let start = if v.has_setups() {
        let idx = setups::random_index(v, &mut rng);
        setups::position(v, idx).unwrap_or_else(|| Position::start(v))
    } else {
        Position::start(v)
    };
    // Secret-bomb chess: each side's bomb is one of its non-king pieces, drawn at random.
    let start = if v.bombs {
        let mut bombs = [None; 2];
        for color in Color::ALL {
            let pieces: Vec<_> = (start.by_color(color) & !start.by_role(Role::King)).into_iter().collect();
            bombs[color.index()] = pieces.get(rng.random_range(0..pieces.len().max(1))).copied();
        }
        start.with_bombs(bombs).unwrap_or(start)
    } else {
        start
    };
    for _ in 0..20 {
        let mut game = Game::new(start.clone());
        let mut ok = true;
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            let quiet: Vec<Move> =
                moves.iter().copied().filter(|&m| !game.position().is_capture(m) && !m.is_launch()).collect();
            if quiet.is_empty() || game.outcome().is_some() {
                ok = false;
                break;
            }
            game.play(quiet[rng.random_range(0..quiet.len())]);
        }
        if ok {
            return game;
        }
    }
    Game::new(start)
}

/// Plays one game; `a` has White when `a_white`.
pub fn play_game(cfg: &MatchConfig, a: &mut Player, b: &mut Player, pair: usize, a_white: bool) -> GameRecord {
    let mut game = opening(cfg, pair);
    let start_fen = fen::write(game.position());
    let _ = a.new_game();
    let _ = b.new_game();
    let a_color = if a_white { Color::White } else { Color::Black };
    let opening_plies = game.moves().len();
    let finish = |score_a: f64, reason: String, game: &Game| GameRecord {
        white_is_a: a_white,
        score_a,
        reason,
        plies: game.moves().len(),
        start_fen: start_fen.clone(),
        moves: game.positions()[opening_plies..]
            .iter()
            .zip(&game.moves()[opening_plies..])
            .map(|(p, m)| coord::write(p, *m))
            .collect(),
    };
    let mut lead_plies: i32 = 0;
    let mut level_plies = 0;
    loop {
        if let Some(o) = game.outcome() {
            let score_a = match o {
                Outcome::Decisive { winner, .. } => {
                    if winner == a_color {
                        1.0
                    } else {
                        0.0
                    }
                }
                Outcome::Draw(_) => 0.5,
            };
            return finish(score_a, o.reason_str().to_string(), &game);
        }
        if game.moves().len() >= cfg.max_plies {
            return finish(0.5, "move limit".into(), &game);
        }
        // Adjudication: a material lead of a queen or more kept for ten plies wins.
        let p = game.position();
        let lead = eval::material(p, a_color) - eval::material(p, a_color.other());
        lead_plies = match (lead >= 850, lead <= -850) {
            (true, _) if lead_plies >= 0 => lead_plies + 1,
            (true, _) => 1,
            (_, true) if lead_plies <= 0 => lead_plies - 1,
            (_, true) => -1,
            _ => 0,
        };
        if cfg.adjudicate && lead_plies.abs() >= 10 {
            let s = if lead_plies > 0 { 1.0 } else { 0.0 };
            return finish(s, "adjudicated: material".into(), &game);
        }
        level_plies = if lead.abs() <= 200 { level_plies + 1 } else { 0 };
        if cfg.adjudicate && level_plies >= 20 && game.moves().len() >= 160 {
            return finish(0.5, "adjudicated: draw".into(), &game);
        }
        let turn = game.position().turn();
        let seed = cfg.seed ^ ((pair as u64) << 20) ^ ((a_white as u64) << 40) ^ game.moves().len() as u64;
        let mover = if turn == a_color { &mut *a } else { &mut *b };
        match mover.choose(&game, seed) {
            Ok(m) => {
                if !game.play(m) {
                    let s = if turn == a_color { 0.0 } else { 1.0 };
                    return finish(s, "illegal move".into(), &game);
                }
            }
            Err(e) => {
                let s = if turn == a_color { 0.0 } else { 1.0 };
                return finish(s, format!("forfeit: {e}"), &game);
            }
        }
    }
}

/// Elo difference implied by a score fraction (clamped at ±800).
pub fn elo_diff(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-800.0, 800.0)
}

/// A finished match: wins, draws and losses for A, and A's search statistics (capabot levels only).
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub searches: u64,
    pub depth_sum: u64,
    pub nodes_sum: u64,
    pub time_sum: Duration,
}

impl MatchSummary {
    /// A's score as a fraction (0.5 when nothing was played).
    pub fn score(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 { 0.5 } else { (self.wins as f64 + self.draws as f64 / 2.0) / n as f64 }
    }

    /// A's average finished search depth.
    pub fn avg_depth(&self) -> f64 {
        if self.searches == 0 { 0.0 } else { self.depth_sum as f64 / self.searches as f64 }
    }

    /// A's nodes per second over all its searches.
    pub fn nps(&self) -> f64 {
        let t = self.time_sum.as_secs_f64();
        if t > 0.0 { self.nodes_sum as f64 / t } else { 0.0 }
    }
}

/// Plays `cfg.games` games between `a` and `b` on `concurrency` threads (each with its own players, so
/// UCI engines run once per thread). `on_game(index, record)` hears about each game as it ends.
pub fn run_match(
    cfg: &MatchConfig,
    a: &PlayerSpec,
    b: &PlayerSpec,
    concurrency: usize,
    on_game: &mut dyn FnMut(usize, &GameRecord),
) -> Result<MatchSummary, String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<Result<(usize, GameRecord), String>>();
    let mut summary = MatchSummary::default();
    let threads = concurrency.clamp(1, cfg.games.max(1));
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for t in 0..threads {
            let tx = tx.clone();
            let next = &next;
            handles.push(scope.spawn(move || -> Result<Player, String> {
                let seed = cfg.seed ^ ((t as u64) << 48);
                let mut pa = Player::new(a.clone(), cfg.variant, cfg.movetime, cfg.nodes_a, seed)?;
                let mut pb = Player::new(b.clone(), cfg.variant, cfg.movetime, cfg.nodes_b, seed ^ 0x5eed)?;
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= cfg.games {
                        break;
                    }
                    let rec = play_game(cfg, &mut pa, &mut pb, g / 2, g.is_multiple_of(2));
                    if tx.send(Ok((g, rec))).is_err() {
                        break;
                    }
                }
                Ok(pa)
            }));
        }
        drop(tx);
        for msg in rx {
            let Ok((g, rec)) = msg else { continue };
            match rec.score_a {
                s if s > 0.75 => summary.wins += 1,
                s if s < 0.25 => summary.losses += 1,
                _ => summary.draws += 1,
            }
            on_game(g, &rec);
        }
        for h in handles {
            let pa = h.join().map_err(|_| "a match thread panicked".to_string())??;
            summary.searches += pa.searches;
            summary.depth_sum += pa.depth_sum;
            summary.nodes_sum += pa.nodes_sum;
            summary.time_sum += pa.time_sum;
        }
        Ok(summary)
    })
}
