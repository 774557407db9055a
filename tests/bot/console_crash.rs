//! The console binary: the demo script plays through, and crash safety — a `capabot console
//! --script` run is SIGKILLed while applying many moves; after a restart every move it acknowledged
//! is stored exactly once, the games replay to their stored FENs and `PRAGMA integrity_check` is ok.

use capabot::bot::{Bot, BotConfig, NoAi, SystemClock};
use capabot::store::Store;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;

const BIN: &str = env!("CARGO_BIN_EXE_capabot");

#[test]
fn demo_script_runs() {
    let dir = tempfile::tempdir().unwrap();
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo.txt");
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--script", demo])
        .env_remove("CAPABOT_DB")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("alice wins by checkmate"), "{text}");
    assert!(text.contains("draw by agreement"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    // The real AI answers in the AI game.
    assert!(text.contains("1... ") && text.contains("played by capabot"), "{text}");
    // Default database and board folder in the working directory; pictures are real PNGs.
    assert!(dir.path().join("capabot.db").exists());
    let pngs: Vec<_> = std::fs::read_dir(dir.path().join("boards")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(pngs.len() >= 10, "{pngs:?}");
    let bytes = std::fs::read(&pngs[0]).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(text.contains("board: boards/"), "{text}");
}

/// The console's chats form a community: a tournament is created, joined, started and its game
/// played to the final standings there.
#[test]
fn a_tournament_in_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("t.txt");
    std::fs::write(
        &script,
        "alice> !tournament create rr chess signup:0 Kitchen Cup\nalice> !tournament join\nbob> !tournament join\n\
         alice> !tournament start\nbob> !resign\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--no-pictures", "--no-text-boards", "--script"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Tournament #1 Kitchen Cup starts with 2 players"), "{text}");
    assert!(text.contains("Board 1: alice – bob (game #1)"), "{text}");
    assert!(text.contains("Tournament #1 Kitchen Cup is over. Final standings:"), "{text}");
    assert!(text.contains("1. alice 1 (SB 0)") && text.contains("2. bob 0 (SB 0)"), "{text}");
}

/// A crash after the last result of a Swiss round, with the next round paired and its games made but
/// not committed: after the restart neither the result nor the new round is there, and the same
/// resignation then stores all of it once.
#[test]
fn a_crash_while_pairing_the_next_round_leaves_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let run = |script: &str, failpoint: Option<&str>| {
        let f = dir.path().join("s.txt");
        std::fs::write(&f, script).unwrap();
        let mut c = Command::new(BIN);
        c.current_dir(dir.path()).args(["console", "--no-pictures", "--no-text-boards", "--script"]).arg(&f);
        c.arg("--db").arg(&db);
        match failpoint {
            Some(p) => c.env("CAPABOT_FAILPOINT", p),
            None => c.env_remove("CAPABOT_FAILPOINT"),
        };
        c.output().unwrap()
    };
    let q = |sql: &str| -> i64 {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    };
    // Four players: round 1 is p1–p3 and p4–p2; the higher seeds win, each game after a move on
    // both sides (a game resigned before them is not rated).
    let out = run(
        "p1> !tournament create swiss chess rounds:2 signup:0\np1> !tournament join\np2> !tournament join\n\
         p3> !tournament join\np4> !tournament join\np1> !tournament start\np1> !move #1 e4\np3> !move #1 e5\n\
         p4> !move #2 d4\np2> !move #2 d5\np3> !resign\np4> !resign\n",
        Some("after-next-round"),
    );
    assert!(!out.status.success(), "the process died at the failpoint");
    assert_eq!(q("SELECT count(*) FROM games WHERE status = 'finished'"), 1);
    assert_eq!(q("SELECT count(*) FROM tournament_games WHERE result IS NOT NULL"), 1);
    assert_eq!(q("SELECT count(*) FROM tournament_games WHERE round = 2"), 0);
    assert_eq!(q("SELECT count(*) FROM games"), 2);
    // Two players rated globally and in the console's community: 4 rows per game.
    assert_eq!(q("SELECT count(*) FROM rating_history"), 4, "only the first game's ratings");
    // Restarted, the same resignation completes the round and pairs the next, once.
    let out = run("p4> !resign\n", None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("round 1 is complete and round 2 is paired"), "{text}");
    assert_eq!(q("SELECT count(*) FROM tournament_games WHERE round = 1 AND result IS NOT NULL"), 2);
    assert_eq!(q("SELECT count(*) FROM tournament_games WHERE round = 2 AND game_id IS NOT NULL"), 2);
    assert_eq!(q("SELECT count(*) FROM games"), 4);
    assert_eq!(q("SELECT count(*) FROM rating_history"), 8);
}

/// `Game #N: 3... Nc6 played by` → (game, ply, san).
fn parse_ack(line: &str) -> Option<(i64, i64, String)> {
    let rest = &line[line.find("Game #")? + 6..];
    let (id, rest) = rest.split_once(": ")?;
    let (label, _) = rest.split_once(" played by ")?;
    let (num, san) = label.split_once(' ')?;
    let (n, black) = match num.strip_suffix("...") {
        Some(n) => (n, true),
        None => (num.strip_suffix('.')?, false),
    };
    let n: i64 = n.parse().ok()?;
    Some((id.parse().ok()?, 2 * (n - 1) + if black { 2 } else { 1 }, san.to_string()))
}

#[test]
fn sigkill_mid_script_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("many.txt");
    let line = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6"];
    let pairs = 150;
    {
        let mut f = std::fs::File::create(&script).unwrap();
        for p in 0..pairs {
            writeln!(f, "/chat t{p}").unwrap();
            writeln!(f, "w{p}> !challenge @b{p} chess color:white days:3").unwrap();
            writeln!(f, "b{p}> !accept").unwrap();
            for (k, m) in line.iter().enumerate() {
                let who = if k % 2 == 0 { format!("w{p}") } else { format!("b{p}") };
                writeln!(f, "{who}> {m}").unwrap();
            }
        }
    }
    let db = dir.path().join("crash.db");
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--no-pictures", "--no-text-boards", "--script"])
        .arg(&script)
        .arg("--db")
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut acks = Vec::new();
    let mut buf = String::new();
    let kill_after = 600;
    while reader.read_line(&mut buf).unwrap() > 0 {
        if let Some(a) = parse_ack(&buf) {
            acks.push(a);
            if acks.len() == kill_after {
                child.kill().unwrap(); // SIGKILL on Unix
            }
        }
        buf.clear();
    }
    let status = child.wait().unwrap();
    assert!(acks.len() >= kill_after);
    assert!(acks.len() < pairs * line.len(), "the run was cut short by the kill ({status:?})");

    // Restart the console on the same database: it opens, migrates, and answers.
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--no-pictures", "--script", "/dev/stdin", "--db"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"/chat t0\nw0> !games\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Your games"));

    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let conn = store.conn().unwrap();
    // The moves are stored in coordinates: each game plays `line`, so ply n is `line`'s n-th move.
    let coordinates = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6",
    ];
    let mut st = conn.prepare("SELECT game_id, ply, uci FROM moves").unwrap();
    let stored: Vec<(i64, i64, String)> = st
        .query_map((), |r| Ok((r.get(0)?, r.get(1)?, r.get::<String>(2)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .map(|(game, ply, uci)| {
            let k = ply as usize - 1;
            assert_eq!(uci, coordinates[k], "game {game} ply {ply}");
            (game, ply, line[k].to_string())
        })
        .collect();
    let set: HashSet<_> = stored.iter().cloned().collect();
    assert_eq!(set.len(), stored.len(), "a move stored twice");
    for a in &acks {
        assert!(set.contains(a), "acknowledged move {a:?} missing");
    }
    let acked: HashSet<_> = acks.iter().cloned().collect();
    assert_eq!(acked.len(), acks.len(), "a move acknowledged twice");
    // At most the one move in flight at the kill may be stored without its acknowledgment.
    assert!(stored.len() <= acks.len() + 1, "{} stored, {} acknowledged", stored.len(), acks.len());
    let plies: i64 = conn.query_row("SELECT coalesce(sum(ply), 0) FROM games", (), |r| r.get(0)).unwrap();
    assert_eq!(plies as usize, stored.len());
    drop(st);
    drop(conn);
    let bot = Bot::new(store, Arc::new(SystemClock), Arc::new(NoAi), BotConfig::default());
    let ids: Vec<i64> = {
        let c = bot.store().conn().unwrap();
        let mut st = c.prepare("SELECT id FROM games").unwrap();
        st.query_map((), |r| r.get(0)).unwrap().map(|r| r.unwrap()).collect()
    };
    for id in ids {
        bot.verify_game(id).unwrap();
    }
}

/// SIGTERM while the level-8 AI thinks: the console stops, and the AI's move is either stored and
/// announced, or not stored at all and played after the restart — never half-stored.
#[test]
fn sigterm_during_a_level_8_move_stores_it_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("term.db");
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--no-pictures", "--no-text-boards", "--db"])
        .arg(&db)
        .env_remove("CAPABOT_AI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "erin> !play capatomic level:8 color:black setup:7").unwrap();
    stdin.flush().unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut out = String::new();
    // Wait for the acknowledgment, then terminate while the search runs (it takes up to 3 s).
    while !out.contains("thinking") {
        let mut l = String::new();
        assert!(reader.read_line(&mut l).unwrap() > 0, "console ended early: {out}");
        out.push_str(&l);
    }
    let status = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap();
    assert!(status.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    out.push_str(&rest);
    let exit = child.wait().unwrap();
    assert!(exit.success(), "graceful exit: {exit:?}");
    drop(stdin);
    let stored = || -> i64 {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.query_row("SELECT ply FROM games WHERE id = 1", (), |r| r.get(0)).unwrap()
    };
    let announced = out.contains("played by capabot");
    assert_eq!(stored() == 1, announced, "stored exactly when announced: {out}");
    // After a restart the AI's move is there (played now if it was not stored before), once.
    let again = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--no-pictures", "--no-text-boards", "--db"])
        .arg(&db)
        .env_remove("CAPABOT_AI")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(again.status.success());
    let text = String::from_utf8_lossy(&again.stdout);
    assert_eq!(text.contains("played by capabot"), !announced, "{text}");
    assert_eq!(stored(), 1);
    let store = Store::open(&db).unwrap();
    let bot = Bot::new(store, Arc::new(SystemClock), Arc::new(NoAi), BotConfig::default());
    bot.verify_game(1).unwrap();
}
