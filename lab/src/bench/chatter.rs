//! Chat lines that are no moves (`lab bench-chatter`), the commonest input a chat bot reads: what
//! reading one as a move costs in notation (each variant's start position), and through the bot
//! core in a chat where a Capatomic game of some plies waits for its speaker's move: a line of
//! chatter, and a move-shaped line the speaker was already told about (answered once, then left
//! alone). Medians of several runs, in microseconds a line.

use super::median_secs;
use capabot::bot::{Bot, BotConfig, Input, NoAi, Scope, SystemClock, UserRef};
use capabot::notation::{self, fen, uci};
use capabot::rules::{Position, Variant};
use capabot::store::Store;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// Lines people write in chats, none a move in any variant.
const CHATTER: &[&str] = &["hello", "gg", "lol", "thanks!", "nice", "wow", "ok", "brb", "hmm", "why?"];

/// What `bench-chatter` measures.
#[derive(Clone, Debug)]
pub struct ChatterOptions {
    pub variants: Vec<&'static Variant>,
    /// Lines read a run in notation (the core's runs read a tenth of them).
    pub lines: usize,
    pub runs: usize,
    /// Plies of the Capatomic game in the core's chat.
    pub plies: usize,
}

/// The medians, in microseconds a line.
#[derive(Clone, Debug)]
pub struct ChatterReport {
    /// Per variant: a chatter line read as a move (`notation::parse_move`).
    pub parse: Vec<(&'static str, f64)>,
    /// Through the core: a chatter line, and a move-shaped line already answered once.
    pub core_chatter: f64,
    pub core_told: f64,
    pub plies: usize,
}

impl fmt::Display for ChatterReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, us) in &self.parse {
            writeln!(f, "parse_move {name:<18} chatter: median {us:>8.3} µs a line")?;
        }
        writeln!(
            f,
            "core, capatomic game of {} plies, chatter:       median {:>8.1} µs a line",
            self.plies, self.core_chatter
        )?;
        write!(
            f,
            "core, capatomic game of {} plies, told already: median {:>8.1} µs a line",
            self.plies, self.core_told
        )
    }
}

/// Runs the measurements.
pub fn bench(opts: &ChatterOptions) -> Result<ChatterReport, String> {
    let runs = opts.runs.max(1);
    let lines = opts.lines.max(CHATTER.len());
    let mut parse = Vec::new();
    for v in &opts.variants {
        let pos = Position::start(v);
        let mut times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            for i in 0..lines {
                let e = notation::parse_move(&pos, CHATTER[i % CHATTER.len()]);
                std::hint::black_box(e.is_err());
            }
            times.push(start.elapsed().as_secs_f64() * 1e6 / lines as f64);
        }
        parse.push((v.name, median_secs(&mut times)));
    }
    let dir = std::env::temp_dir().join(format!("capabot-bench-chatter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let core = core_lines(&dir, opts.plies, (lines / 10).max(1), runs);
    let _ = std::fs::remove_dir_all(&dir);
    let (core_chatter, core_told) = core?;
    Ok(ChatterReport { parse, core_chatter, core_told, plies: opts.plies })
}

/// The core's medians: (chatter, a move-shaped line already answered), microseconds a line.
fn core_lines(dir: &std::path::Path, plies: usize, lines: usize, runs: usize) -> Result<(f64, f64), String> {
    let store = Store::open_setting(&dir.join("chatter.db").to_string_lossy()).map_err(|e| e.to_string())?;
    let bot =
        Bot::new(store, Arc::new(SystemClock), Arc::new(NoAi), BotConfig { pictures: false, ..Default::default() });
    let say =
        |who: &str, text: &str| bot.handle(&Input::text(Scope::chat("bench", "main"), UserRef::new(who, who), text));
    let mut challenge = Input::text(
        Scope::chat("bench", "main"),
        UserRef::new("alice", "alice"),
        "!challenge @bob capatomic color:white",
    );
    challenge.mentions = vec![UserRef::new("bob", "bob")];
    bot.handle(&challenge);
    say("bob", "!accept");
    // Quiet moves chosen by a fixed rule, so that the game goes on and never repeats.
    let v = Variant::by_name("capatomic").ok_or("no capatomic")?;
    // Capatomic starts from a random array: the game's own, as `fen` tells it.
    let told = say("alice", "!fen").text();
    let start = told.split_once(": ").map(|(_, f)| f.trim()).ok_or_else(|| format!("no FEN: {told}"))?;
    let mut pos = fen::parse_position(v, start).map_err(|e| format!("{start}: {e}"))?;
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for ply in 0..plies / 2 * 2 {
        let quiet: Vec<_> = pos.legal_moves().iter().copied().filter(|m| !pos.is_capture(*m)).collect();
        let next = (0..quiet.len()).find_map(|k| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let m = quiet[(seed >> 33) as usize % quiet.len()];
            let after = pos.play(m);
            (after.outcome().is_none() && k < 64).then_some((m, after))
        });
        let Some((m, after)) = next else { return Err(format!("no quiet move at ply {ply}")) };
        let who = if ply % 2 == 0 { "alice" } else { "bob" };
        let out = say(who, &uci::write(&pos, m)).text();
        if !out.contains("played by") {
            return Err(format!("ply {ply}: {out}"));
        }
        pos = after;
    }
    // Alice is to move; told once about this line, then left alone.
    if say("alice", "Mj1^k4").text().is_empty() {
        return Err("the move-shaped line was not answered".into());
    }
    let timed = |text: &str| {
        let mut times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            for _ in 0..lines {
                std::hint::black_box(say("alice", text));
            }
            times.push(start.elapsed().as_secs_f64() * 1e6 / lines as f64);
        }
        median_secs(&mut times)
    };
    Ok((timed("hello"), timed("Mj1^k4")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chatter_bench_reads_lines_and_plays_its_game() {
        let v = Variant::by_name("chess").unwrap();
        let r = bench(&ChatterOptions { variants: vec![v], lines: 20, runs: 1, plies: 6 }).unwrap();
        assert_eq!(r.parse.len(), 1);
        assert!(r.parse[0].1 > 0.0 && r.core_chatter > 0.0 && r.core_told > 0.0, "{r}");
        assert!(r.to_string().contains("game of 6 plies"), "{r}");
    }
}
