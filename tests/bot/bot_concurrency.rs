//! Concurrency: many threads (each with its own bot and connections, sharing one database file)
//! submit moves for the same ply; exactly one lands and the database stays consistent.

use crate::common::*;
use capabot::bot::NoAi;
use capabot::store::games;
use std::sync::{Arc, Barrier};

#[test]
fn same_ply_submissions_land_once() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let path = db_path(tb.dir.path());
    let moves = ["e4", "d4", "c4", "Nf3", "Nc3", "g3", "b3", "f4"];
    for round in 0..3 {
        let barrier = Arc::new(Barrier::new(moves.len()));
        let handles: Vec<_> = moves
            .iter()
            .map(|m| {
                let (path, clock, barrier) = (path.clone(), tb.clock.clone(), barrier.clone());
                let m = m.to_string();
                std::thread::spawn(move || {
                    let bot = open_bot(&path, clock, Arc::new(NoAi));
                    barrier.wait();
                    bot.handle(&msg_in("main", "alice", &format!("!move {m}"))).text()
                })
            })
            .collect();
        let outs: Vec<String> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let landed = outs.iter().filter(|o| o.contains("played by alice")).count();
        assert_eq!(landed, 1, "round {round}: {outs:#?}");
        for o in outs.iter().filter(|o| !o.contains("played by")) {
            // Lost the race (guard or turn check), or the move is no longer possible after earlier rounds.
            assert!(o.contains("position changed") || o.contains("not your turn") || o.contains("is not legal"), "{o}");
        }
        assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 2 * round + 1);
        tb.bot.verify_game(1).unwrap();
        // Bob replies so the next round is White's again.
        let bob = ["e5", "d5", "c5"][round as usize];
        assert!(tb.say("bob", &format!("!move {bob}")).contains("played by bob"));
    }
    assert_eq!(tb.bot.store().integrity_check().unwrap(), "ok");
}

#[test]
fn ply_guard_under_threads_at_the_store_level() {
    // Every thread holds the same expected ply: the guard alone decides.
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(dir.path());
    let store = open_store(&path);
    let tb_bot = open_bot(&path, Arc::new(capabot::bot::ManualClock::new(T0)), Arc::new(NoAi));
    tb_bot.handle(&msg_in("main", "alice", "!challenge @bob chess color:white"));
    tb_bot.handle(&msg_in("main", "bob", "!accept"));
    drop(store);
    let n = 12;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (path, barrier) = (path.clone(), barrier.clone());
            std::thread::spawn(move || {
                let store = open_store(&path);
                let c = store.conn().unwrap();
                let fen = format!("fen-{i}");
                let m = games::MoveUpdate {
                    typed: "x",
                    san: "x",
                    uci: "x",
                    fen_after: &fen,
                    deadline: None,
                    remind_at: None,
                    outcome: None,
                };
                barrier.wait();
                games::apply_move(&c, 1, 0, &m, T0, &mut games::no_end_hook).unwrap()
            })
        })
        .collect();
    let wins = handles.into_iter().map(|h| h.join().unwrap()).filter(|&w| w).count();
    assert_eq!(wins, 1);
    let c = tb_bot.store().conn().unwrap();
    let (ply, fen): (i64, String) =
        c.query_row("SELECT ply, fen FROM games WHERE id = 1", (), |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    assert_eq!(ply, 1);
    let n_moves: i64 = c.query_row("SELECT count(*) FROM moves", (), |r| r.get(0)).unwrap();
    assert_eq!(n_moves, 1);
    assert!(fen.starts_with("fen-"));
}

#[test]
fn many_games_in_parallel_through_one_shared_bot() {
    let tb = Arc::new(new_bot());
    for i in 0..8 {
        tb.say_in(&format!("c{i}"), &format!("w{i}"), &format!("!challenge @b{i} chess color:white"));
        tb.say_in(&format!("c{i}"), &format!("b{i}"), "!accept");
    }
    let line = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"];
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let tb = tb.clone();
            std::thread::spawn(move || {
                for (k, m) in line.iter().enumerate() {
                    let who = if k % 2 == 0 { format!("w{i}") } else { format!("b{i}") };
                    let out = tb.say_in(&format!("c{i}"), &who, m);
                    assert!(out.contains("played by"), "{out}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 80);
    for id in 1..=8 {
        tb.bot.verify_game(id).unwrap();
    }
}
