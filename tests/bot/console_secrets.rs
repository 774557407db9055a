//! Issue 42 §1 on the console, as a property: who may read a reply is decided in the core and kept
//! by the console front end, whatever the command and however it was typed.
//!
//! Two worlds, each the console binary with its own database, play the same secret-bomb game; they
//! differ only in Bob's bomb. The same random lines go to both — every command's example and every
//! form of `bomb` and of a detonation, typed with the prefix, addressed to capabot by its name (three
//! forms), typed in another chat of the community, typed in the person's direct chat (`/dm`), a choice shown to the person typed as its
//! `[label: typed]` says, and the moves bare, with `!move` or addressed — by Alice, Bob and Carol,
//! between the game's moves. Everything the console shows anyone but Bob (the shared chat's lines,
//! Alice's and Carol's direct chats, the pixels of every picture and the bytes of every animation
//! written for them) must be the same in both worlds until the game ends, and no log line at `info`
//! or above may name a bomb.
//!
//! Each line is followed by `/?`, which the console answers with its own note once every line before
//! it is settled (replies printed, the AI's answers played): what a line caused is read whole.

use crate::common;
use capabot::rules::variant::BOMB;
use capabot::rules::{Color, Position, Square};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A console command the console does not know: answered with its note of the console commands.
const SENTINEL: &str = "/?";
/// How that note begins.
const NOTE: &str = "(console commands:";
/// A bound for one line's answers (not a measurement).
const WAIT: Duration = Duration::from_secs(60);

/// Who can read a reply on the console.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reader {
    /// Everyone in the shared chat (`capabot> …`).
    Everyone,
    /// One person's direct chat (`capabot → @name: …`).
    Only(String),
}

/// One reply as printed: its reader and its lines (pictures as what they show, hashed).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Block {
    reader: Reader,
    lines: Vec<String>,
}

/// The console binary with a database of its own, typed into line by line.
struct World {
    dir: tempfile::TempDir,
    child: Child,
    stdin: ChildStdin,
    out: mpsc::Receiver<String>,
    err: std::thread::JoinHandle<String>,
    /// The choices shown to someone other than Bob, or to everyone: (reader, as typed).
    choices: Vec<(Reader, String)>,
}

impl World {
    fn start() -> World {
        let dir = tempfile::tempdir().expect("a folder");
        let mut child = Command::new(env!("CARGO_BIN_EXE_capabot"))
            .current_dir(dir.path())
            .args(["console"])
            .env_remove("CAPABOT_DB")
            .env_remove("CAPABOT_BOARDS")
            .env_remove("CAPABOT_LANG")
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the console starts");
        let stdin = child.stdin.take().expect("its input");
        let stdout = child.stdout.take().expect("its output");
        let mut stderr = child.stderr.take().expect("its log");
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let err = std::thread::spawn(move || {
            let mut log = String::new();
            let _ = stderr.read_to_string(&mut log);
            log
        });
        World { dir, child, stdin, out, err, choices: Vec::new() }
    }

    /// Types `line`, then reads what it caused, whole: every reply up to the sentinel's note.
    fn say(&mut self, line: &str) -> Vec<Block> {
        writeln!(self.stdin, "{line}\n{SENTINEL}").and_then(|()| self.stdin.flush()).expect("typed");
        let mut printed = Vec::new();
        loop {
            match self.out.recv_timeout(WAIT) {
                Ok(l) if l.starts_with(NOTE) => break,
                Ok(l) => printed.push(l),
                Err(e) => panic!("{line}: no end of its answers ({e}); printed so far: {printed:#?}"),
            }
        }
        blocks(&printed, self.dir.path())
    }

    /// Ends the console (its input closed) and returns its log.
    fn stop(mut self) -> String {
        drop(self.stdin);
        let status = self.child.wait().expect("the console ends");
        assert!(status.success(), "the console failed: {status}");
        self.err.join().expect("its log")
    }
}

/// The replies among the console's printed lines: a reply begins with `capabot> ` (or
/// `capabot [chat]> ` for another chat) or `capabot → @name: ` and goes on over the lines indented under it; the console's own notes are
/// left out. A picture's line is read as its label and a hash of what it shows.
fn blocks(printed: &[String], dir: &Path) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in printed {
        if let Some(text) = line.strip_prefix("capabot> ") {
            out.push(Block { reader: Reader::Everyone, lines: vec![text.to_string()] });
        } else if let Some((chat, text)) = line.strip_prefix("capabot [").and_then(|l| l.split_once("]> ")) {
            // A reply for a shared chat other than the one typed in, named.
            out.push(Block { reader: Reader::Everyone, lines: vec![format!("[{chat}] {text}")] });
        } else if let Some((to, text)) = line.strip_prefix("capabot → @").and_then(|l| l.split_once(": ")) {
            out.push(Block { reader: Reader::Only(to.to_string()), lines: vec![text.to_string()] });
        } else if let (Some(block), Some(more)) = (out.last_mut(), line.strip_prefix("          ")) {
            block.lines.push(picture(more, dir).unwrap_or_else(|| more.to_string()));
        }
    }
    out
}

/// `label: path` of a picture the console wrote, as the label and a hash of what it shows.
fn picture(line: &str, dir: &Path) -> Option<String> {
    let (label, path) = line.split_once(": ")?;
    if !(path.ends_with(".png") || path.ends_with(".gif")) {
        return None;
    }
    let bytes = std::fs::read(dir.join(path)).ok()?;
    Some(format!("{label}: {:x}", common::seen_hash(&bytes)))
}

/// The `[label: typed]` choices under a reply.
fn choices_of(block: &Block) -> Vec<String> {
    let Some(line) = block.lines.iter().find(|l| l.starts_with('[') && l.ends_with(']')) else { return vec![] };
    line[1..line.len() - 1]
        .split("] [")
        .filter_map(|c| c.split_once(": ").map(|(_, typed)| typed.to_string()))
        .collect()
}

/// One input, the same in both worlds (people by their console names).
#[derive(Clone, Debug)]
enum Probe {
    /// `who> !text` in the shared chat.
    Typed(&'static str, String),
    /// `who> capabot: text`, `who> @capabot text` or `who> Capabot, text`.
    Addressed(&'static str, String, usize),
    /// `who> /dm text`.
    Direct(&'static str, String),
    /// `who> !text` in another chat of the community (the game's is `main`).
    Elsewhere(&'static str, String),
    /// The n-th (modulo their number) choice `who` can see, typed where it was shown.
    Choice(&'static str, usize),
    /// A move in the shared chat: bare, with `!move`, or addressed.
    Move(&'static str, String, usize),
}

impl Probe {
    /// The console line, given what `who` can choose (`(reader, as typed)`).
    fn line(&self, choices: &[(Reader, String)]) -> Option<String> {
        Some(match self {
            Probe::Typed(who, text) => format!("{who}> !{text}"),
            Probe::Addressed(who, text, form) => match form % 3 {
                0 => format!("{who}> capabot: {text}"),
                1 => format!("{who}> @capabot {text}"),
                _ => format!("{who}> Capabot, {text}"),
            },
            Probe::Direct(who, text) => format!("{who}> /dm {text}"),
            Probe::Elsewhere(who, text) => format!("/chat side\n{who}> !{text}\n/chat main"),
            Probe::Choice(who, n) => {
                let visible: Vec<&(Reader, String)> = choices
                    .iter()
                    .filter(|(reader, _)| *reader == Reader::Everyone || *reader == Reader::Only((*who).to_string()))
                    .collect();
                let (reader, typed) = visible.get(n % visible.len().max(1))?;
                match reader {
                    Reader::Everyone => format!("{who}> {typed}"),
                    Reader::Only(_) => format!("{who}> /dm {typed}"),
                }
            }
            Probe::Move(who, san, form) => match form % 3 {
                0 => format!("{who}> {san}"),
                1 => format!("{who}> !move {san}"),
                _ => format!("{who}> capabot: {san}"),
            },
        })
    }

    /// Whether Bob sending this would detonate his own bomb (the blast shows where it was: allowed,
    /// and not sent).
    fn detonates(&self) -> bool {
        match self {
            Probe::Typed("bob", t)
            | Probe::Addressed("bob", t, _)
            | Probe::Direct("bob", t)
            | Probe::Elsewhere("bob", t) => t.contains('@'),
            _ => false,
        }
    }
}

/// What anyone but Bob reads of `blocks` (sorted, as the Discord property does), whether any of them
/// (Bob's included) ends the game; and the choices they show to others than Bob, kept in `world`.
fn fresh(world: &mut World, blocks: Vec<Block>) -> (Vec<Block>, bool) {
    let ended = blocks.iter().any(|b| b.lines.iter().any(|l| l.contains("Black's was")));
    let mut seen: Vec<Block> = blocks.into_iter().filter(|b| b.reader != Reader::Only("bob".into())).collect();
    for b in &seen {
        world.choices.extend(choices_of(b).into_iter().map(|typed| (b.reader.clone(), typed)));
    }
    seen.sort();
    (seen, ended)
}

/// One case: a game whose worlds differ in Bob's bomb, `probes` random lines, and moves between.
fn case(seed: u64, probes: usize) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut worlds = [World::start(), World::start()];
    let (her, first, second) = common::bomb_squares(&mut rng);
    let step = |worlds: &mut [World; 2], lines: &[String], what: &str| -> Result<bool, TestCaseError> {
        let mut seen = Vec::new();
        let mut ended = false;
        for (w, line) in worlds.iter_mut().zip(lines) {
            let printed = w.say(line);
            let (shown, end) = fresh(w, printed);
            seen.push(shown);
            ended |= end;
        }
        if !ended {
            prop_assert_eq!(&seen[0], &seen[1], "after {}: what others read differs with Bob's bomb", what);
        }
        Ok(ended)
    };
    for line in ["alice> !challenge @bob bomb color:white", "bob> !accept", &format!("alice> /dm bomb #1 {her}")] {
        step(&mut worlds, &[line.to_string(), line.to_string()], line)?;
    }
    let chosen = [first, second].map(|his| format!("bob> /dm bomb #1 {his}"));
    step(&mut worlds, &chosen, "Bob's choice")?;
    let set = worlds[0].say("alice> !games");
    worlds[1].say("alice> !games");
    prop_assert!(
        set.iter().any(|b| b.lines.iter().any(|l| l.contains("#1 Secret-Bomb Chess vs bob, move 1"))),
        "the game is on: {:?}",
        set
    );

    let squares: [Square; 3] = [first, second, her];
    let challenges = ["challenge @carol chess color:white".to_string(), "challenge @bob bomb color:black".to_string()];
    let typed = common::bomb_probe_texts(&squares, &challenges);
    let people = ["alice", "bob", "carol"];
    let mut pos = Position::start(&BOMB).with_bombs([Some(her), None]).expect("her own piece");
    for _ in 0..probes {
        let probe = if rng.random_bool(0.3) {
            let who = if pos.turn() == Color::White { "alice" } else { "bob" };
            let Some((san, next)) = common::quiet_move(&pos, &mut rng) else { break };
            pos = next;
            Probe::Move(who, san, rng.random_range(0..3))
        } else {
            let (who, text) = common::pick_probe(&mut rng, &people, &typed);
            match rng.random_range(0..6) {
                0 => Probe::Typed(who, text),
                1 => Probe::Addressed(who, text, rng.random_range(0..3)),
                2 => Probe::Direct(who, text),
                3 => Probe::Elsewhere(who, text),
                _ => Probe::Choice(who, rng.random_range(0..1_000)),
            }
        };
        if probe.detonates() {
            continue;
        }
        // The line from the first world's choices: the second's are the same while the property holds.
        let Some(line) = probe.line(&worlds[0].choices) else { continue };
        if step(&mut worlds, &[line.clone(), line.clone()], &line)? {
            break;
        }
    }
    for w in worlds {
        let log = w.stop();
        // The migrations' own names (`V9__secret_bombs`) left out.
        for line in log.lines().filter(|l| !l.contains("applying migration")) {
            prop_assert!(!line.contains("bomb is") && !line.contains("_bomb"), "a log line names a bomb: {}", line);
        }
    }
    Ok(())
}

/// Issue 42 §1's property on the console (see the module's text): random cases, each two worlds of a
/// whole game, and every log line checked.
#[test]
fn nothing_anyone_else_reads_on_the_console_depends_on_a_secret_bomb() {
    let mut runner =
        TestRunner::new(Config { cases: 10, max_shrink_iters: 4, failure_persistence: None, ..Config::default() });
    let result = runner.run(&(any::<u64>(), 16usize..48), |(seed, probes)| case(seed, probes));
    if let Err(e) = result {
        panic!("{e}");
    }
}
