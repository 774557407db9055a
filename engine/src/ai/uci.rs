//! The UCI protocol in Fairy-Stockfish's conventions (`UCI_Variant`, coordinate moves as the rules
//! engine writes them), so that GUIs and match runners that drive Fairy-Stockfish can drive capabot.
//!
//! [`run`] reads commands line by line; searches run on a worker thread so that `stop` and `isready` are
//! answered at once. Bad input is reported as `info string ...` and changes nothing.

use super::{Info, LEVELS, Limits, Memory, mate_in, search_with};
use crate::notation::{fen, uci as coord};
use crate::rules::variant::CastlingNotation;
use crate::rules::{Color, Position, VARIANTS, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where replies go; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

struct Session {
    out: Output,
    variant: &'static Variant,
    position: Position,
    /// Hashes of the positions before the current one (repetition detection).
    history: Vec<u64>,
    memory: Arc<Mutex<Memory>>,
    hash_mb: usize,
    level: u8,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// The running search is `go infinite` (only `stop` ends it).
    infinite: bool,
    searches: u64,
}

/// Runs a UCI session until `quit` or the end of the input.
pub fn run(input: impl BufRead, out: Output) {
    let mut s = Session {
        out,
        variant: &crate::rules::variant::CHESS,
        position: Position::start(&crate::rules::variant::CHESS),
        history: Vec::new(),
        memory: Arc::new(Mutex::new(Memory::new(16))),
        hash_mb: 16,
        level: 8,
        stop: Arc::new(AtomicBool::new(false)),
        worker: None,
        infinite: false,
        searches: 0,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !s.command(line.trim()) {
            break;
        }
    }
    s.finish_search(false);
}

impl Session {
    fn info(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Waits for a running search (as Fairy-Stockfish does before `go`, `setoption`, `ucinewgame`); with
    /// `stop`, or when the search is infinite, asks it to stop first.
    fn finish_search(&mut self, stop: bool) {
        if let Some(h) = self.worker.take() {
            if stop || self.infinite {
                self.stop.store(true, Ordering::Relaxed);
            }
            let _ = h.join();
        }
    }

    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => {
                say(&self.out, &format!("id name capabot {}", env!("CARGO_PKG_VERSION")));
                say(&self.out, "id author the capabot developers");
                say(&self.out, "");
                let names: Vec<String> = VARIANTS.iter().map(|v| format!("var {}", v.name)).collect();
                say(&self.out, &format!("option name UCI_Variant type combo default chess {}", names.join(" ")));
                say(&self.out, "option name Skill Level type spin default 8 min 1 max 8");
                say(&self.out, "option name Hash type spin default 16 min 1 max 1024");
                say(&self.out, "option name UCI_Chess960 type check default false");
                say(&self.out, "uciok");
            }
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.finish_search(false);
                if let Ok(mut m) = self.memory.lock() {
                    m.clear();
                }
            }
            "setoption" => self.setoption(&rest),
            "position" => {
                self.finish_search(false);
                self.set_position(&rest);
            }
            "go" => {
                self.finish_search(false);
                self.go(&rest);
            }
            "stop" => self.finish_search(true),
            "quit" => {
                self.finish_search(true);
                return false;
            }
            "d" => say(&self.out, &format!("Fen: {}", fen::write(&self.position))),
            _ => self.info(&format!("unknown command: {cmd}")),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <id...> [value <x...>]
        let text = args.join(" ");
        let Some(body) = text.strip_prefix("name ") else {
            self.info("usage: setoption name <option> value <value>");
            return;
        };
        let (name, value) = match body.find(" value ") {
            Some(i) => (&body[..i], body[i + 7..].trim()),
            None => (body, ""),
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "uci_variant" => match Variant::by_name(value) {
                Some(v) => {
                    self.finish_search(false);
                    self.variant = v;
                    self.position = Position::start(v);
                    self.history.clear();
                }
                None => self.info(&format!("unknown variant '{value}'")),
            },
            "skill level" => match value.parse::<i64>() {
                Ok(l) if (1..=8).contains(&l) => self.level = l as u8,
                _ => self.info(&format!("Skill Level must be 1 to 8, not '{value}'")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=1024).contains(&mb) => {
                    self.finish_search(false);
                    self.hash_mb = mb;
                    self.memory = Arc::new(Mutex::new(Memory::new(mb)));
                }
                _ => self.info(&format!("Hash must be 1 to 1024, not '{value}'")),
            },
            "uci_chess960" | "threads" | "ponder" | "multipv" | "move overhead" => {}
            other => self.info(&format!("unknown option '{other}'")),
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&w| w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match head.first() {
            Some(&"startpos") => Position::start(self.variant),
            Some(&"fen") => match fen::parse_position(self.variant, &head[1..].join(" ")) {
                Ok(p) => p,
                Err(e) => {
                    self.info(&format!("bad FEN: {e}"));
                    return;
                }
            },
            _ => {
                self.info("usage: position startpos|fen <fen> [moves ...]");
                return;
            }
        };
        let mut history = Vec::new();
        for m in moves {
            match coord::parse(&pos, m) {
                Ok(mv) => {
                    history.push(pos.hash());
                    pos = pos.play_unchecked(mv);
                }
                Err(e) => {
                    self.info(&format!("illegal move {m}: {e}"));
                    return;
                }
            }
        }
        self.position = pos;
        self.history = history;
    }

    fn go(&mut self, args: &[&str]) {
        let mut limits = Limits::default();
        let (mut wtime, mut btime, mut winc, mut binc, mut togo) = (None, None, 0u64, 0u64, None);
        let mut i = 0;
        let num = |i: usize| args.get(i + 1).and_then(|w| w.parse::<u64>().ok());
        while i < args.len() {
            match args[i] {
                "perft" => {
                    let depth = num(i).unwrap_or(1).clamp(1, 8) as u32;
                    self.perft(depth);
                    return;
                }
                "depth" => limits.depth = num(i).map(|d| d.clamp(1, 100) as u32),
                "nodes" => limits.nodes = num(i),
                "movetime" => limits.movetime = num(i).map(Duration::from_millis),
                "wtime" => wtime = num(i),
                "btime" => btime = num(i),
                "winc" => winc = num(i).unwrap_or(0),
                "binc" => binc = num(i).unwrap_or(0),
                "movestogo" => togo = num(i),
                "infinite" => limits.infinite = true,
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += if args[i] == "infinite" { 1 } else { 2 };
        }
        let (time, inc) = if self.position.turn() == Color::White { (wtime, winc) } else { (btime, binc) };
        if let Some(t) = time
            && limits.movetime.is_none()
        {
            let togo = togo.unwrap_or(30).clamp(1, 50);
            let budget = (t / togo + inc * 3 / 4).min(t / 3).saturating_sub(20).max(5);
            // Aim at the budget, but let an iteration under way run on to three times it.
            limits.soft_movetime = Some(Duration::from_millis(budget / 2));
            limits.movetime = Some(Duration::from_millis((budget * 3).min(t / 4).max(budget)));
        }
        if self.level < 8 {
            let l = LEVELS[(self.level - 1) as usize];
            limits.depth = match (limits.depth, l.depth) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            limits.nodes = match (limits.nodes, l.nodes) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            limits.noise = l.noise;
            limits.blunder_permille = l.blunder_permille;
        }
        self.searches += 1;
        limits.seed = self.position.hash() ^ self.searches;
        limits.hash_mb = self.hash_mb;
        self.stop = Arc::new(AtomicBool::new(false));
        self.infinite = limits.infinite;
        limits.stop = Some(self.stop.clone());
        let pos = self.position.clone();
        let history = self.history.clone();
        let memory = self.memory.clone();
        let out = self.out.clone();
        self.worker = Some(std::thread::spawn(move || {
            let Ok(mut memory) = memory.lock() else { return };
            let root = pos.clone();
            let mut report = |info: &Info| say(&out, &info_line(&root, info));
            let result = search_with(&pos, &history, &limits, &mut memory, &mut report);
            drop(memory);
            match result.best {
                Some(m) => {
                    let mut line = format!("bestmove {}", coord::write(&pos, m));
                    if let Some(&p) = result.pv.get(1) {
                        let after = pos.play_unchecked(m);
                        if after.legal_moves().contains(&p) {
                            line.push_str(&format!(" ponder {}", coord::write(&after, p)));
                        }
                    }
                    say(&out, &line);
                }
                None => say(&out, "bestmove (none)"),
            }
        }));
    }

    fn perft(&self, depth: u32) {
        let pos = &self.position;
        let mut lines: Vec<(String, u64)> =
            pos.divide(depth).into_iter().map(|(m, n)| (coord::write(pos, m), n)).collect();
        lines.sort();
        let mut total = 0;
        for (m, n) in lines {
            say(&self.out, &format!("{m}: {n}"));
            total += n;
        }
        say(&self.out, "");
        say(&self.out, &format!("Nodes searched: {total}"));
    }
}

/// An `info` line: depth, seldepth, score, nodes, nps, time, pv.
pub fn info_line(root: &Position, info: &Info) -> String {
    let score = match mate_in(info.score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let mut pv = String::new();
    let mut pos = root.clone();
    for &m in &info.pv {
        if !pos.legal_moves().contains(&m) {
            break;
        }
        pv.push(' ');
        pv.push_str(&coord::write(&pos, m));
        pos = pos.play_unchecked(m);
    }
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} pv{pv}",
        info.depth, info.seldepth, info.nodes
    )
}

/// Whether an engine talking to us must be told `UCI_Chess960` for this variant's castling notation.
pub fn needs_chess960(v: &Variant) -> bool {
    v.castling_notation == CastlingNotation::KingOntoRook
}
