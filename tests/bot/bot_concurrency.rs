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
                let fen = format!("fen-{i}");
                let m =
                    games::MoveUpdate { uci: "e2e4", fen_after: &fen, deadline: None, remind_at: None, outcome: None };
                barrier.wait();
                // As every write in capabot, one unit of work: on PostgreSQL a writer that met
                // another's change runs again, and then finds the ply taken.
                store.unit(|| games::apply_move(&*store.conn()?, 1, 0, &m, T0, &mut games::no_end_hook)).unwrap()
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

/// A bot on the database at `path` with at most `cap` games against capabot going on at once.
fn bot_with_ai_cap(path: &std::path::Path, clock: Arc<capabot::bot::ManualClock>, cap: usize) -> capabot::bot::Bot {
    let config = capabot::bot::BotConfig { pictures: false, max_ai_games: cap, ..Default::default() };
    capabot::bot::Bot::new(open_store(path), clock, Arc::new(NoAi), config)
}

/// Fifty people ask for a game against capabot at once, from fifty bots on one database (as from
/// several processes), with room for five: exactly five games start, the others are told there is
/// no room, and the cap is never passed.
#[test]
fn fifty_plays_at_once_never_pass_the_cap_on_games_against_the_ai() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(dir.path());
    let clock = Arc::new(capabot::bot::ManualClock::new(T0));
    drop(bot_with_ai_cap(&path, clock.clone(), 5));
    let n = 50;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (path, clock, barrier) = (path.clone(), clock.clone(), barrier.clone());
            std::thread::spawn(move || {
                let bot = bot_with_ai_cap(&path, clock, 5);
                barrier.wait();
                bot.handle(&msg_in(&format!("c{i}"), &format!("p{i}"), "!play chess")).text()
            })
        })
        .collect();
    let outs: Vec<String> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let bot = bot_with_ai_cap(&path, clock, 5);
    let conn = bot.store().conn().unwrap();
    let games: i64 = conn.query_row("SELECT count(*) FROM games", (), |r| r.get(0)).unwrap();
    assert_eq!(games, 5, "the cap holds: {outs:#?}");
    let refused = outs.iter().filter(|o| o.contains("all I can take")).count();
    assert_eq!(refused, n - 5, "{outs:#?}");
}

/// A unit of work that cannot commit (a full disk, a lost connection) never answers as if it had
/// worked: the person is told it was not saved and nothing changed, and the same input again (a
/// redelivery, or the person trying again) is then applied once.
#[test]
fn an_input_whose_unit_does_not_commit_is_answered_not_saved_and_changes_nothing() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let before = tb.fingerprint();
    tb.bot.store().fail_next_commits(1);
    let e4 = msg_in("main", "alice", "!move e4").with_event_id("evt-1");
    let r = tb.bot.handle(&e4);
    assert!(r.text().contains("not saved"), "{}", r.text());
    assert!(!r.queued, "an apology for a unit that did not commit is shown directly");
    assert_eq!(tb.fingerprint(), before, "nothing changed");
    let again = tb.bot.handle(&e4);
    assert!(again.text().contains("played by alice"), "{}", again.text());
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 1);
    assert!(tb.bot.handle(&e4).replies.is_empty(), "applied once");
    // In the person's language.
    tb.say("bob", "!lang tr");
    tb.bot.store().fail_next_commits(1);
    let r = tb.bot.handle(&msg_in("main", "bob", "!move e5"));
    assert!(r.text().contains("kaydedilmedi"), "{}", r.text());
}

/// A notice told once (a bare move not taken) is remembered as told only when its unit commits:
/// told by a unit that was not saved, it is told when the line comes again (before: the failed
/// unit's telling was remembered, and the person never heard why their move was not taken).
#[test]
fn a_notice_told_by_a_unit_not_saved_is_told_again() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.bot.store().fail_next_commits(1);
    let r = tb.bot.handle(&msg_in("main", "alice", "Ke2"));
    assert!(r.text().contains("not saved"), "{}", r.text());
    let out = tb.say("alice", "Ke2");
    assert!(out.contains("Ke2 is not legal"), "{out}");
    assert_eq!(tb.say("alice", "Ke2"), "", "told once");
}

/// One scheduled item that keeps failing (a game whose stored variant no longer exists) stops
/// nothing else: the other games' losses on time and reminders go on at every tick; the bad one is
/// tried three times, then set aside (listed with its error), and tried again after a retry.
#[test]
fn one_bad_row_stops_nothing_else_in_the_scheduler() {
    let tb = new_bot();
    for (chat, white, black) in [("a", "alice", "bob"), ("b", "carol", "dave"), ("c", "erin", "frank")] {
        tb.say_in(chat, white, &format!("!challenge @{black} chess color:white days:1"));
        tb.say_in(chat, black, "!accept");
        // Both sides move (before that, running out of time aborts a game).
        tb.say_in(chat, white, "e4");
        tb.say_in(chat, black, "e5");
    }
    // Game 2 is broken: its variant is unknown.
    tb.by_hand("UPDATE games SET variant = 'no-such-variant' WHERE id = 2", ());
    tb.clock.advance(2 * 86_400);
    let first = tb.tick().text();
    assert!(first.contains("#1") && first.contains("#3"), "games 1 and 3 end on time: {first}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 1"), "finished");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 3"), "finished");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 2"), "active");
    let failures = tb.bot.scheduler_failures().unwrap();
    assert!(
        failures.iter().any(|f| f.kind == "timeout" && f.item_id == 2 && f.tries == 1 && !f.set_aside),
        "{failures:?}"
    );
    tb.tick();
    tb.tick();
    let failures = tb.bot.scheduler_failures().unwrap();
    let bad = failures.iter().find(|f| f.kind == "timeout" && f.item_id == 2).unwrap();
    assert!(bad.set_aside && bad.tries == 3 && bad.last_error.contains("unknown variant"), "{bad:?}");
    // Set aside: no longer tried.
    tb.tick();
    assert_eq!(tb.bot.scheduler_failures().unwrap()[0].tries, 3);
    // Fixed and retried: it ends on time like the others, and its failure is forgotten.
    tb.by_hand("UPDATE games SET variant = 'chess' WHERE id = 2", ());
    assert_eq!(tb.bot.scheduler_retry(None).unwrap(), 1);
    let later = tb.tick().text();
    assert!(later.contains("#2"), "{later}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 2"), "finished");
    assert!(tb.bot.scheduler_failures().unwrap().is_empty());
}

/// The tick's own items (housekeeping, the ladders' standings, the tournaments' announcements,
/// each with no id of its own) count their failures in a row like every other item: one that
/// goes through forgets those before (before: kept for good, so that three failures months apart
/// set the item aside and the outbox and event claims were never pruned again).
#[test]
fn the_ticks_own_items_forget_their_failures_when_they_go_through() {
    let tb = new_bot();
    for kind in ["housekeeping", "ladder-standings", "tournament-announce"] {
        tb.by_hand(
            "INSERT INTO scheduler_failures (kind, item_id, tries, last_error, last_at, set_aside)
             VALUES (?1, 0, 2, 'database is locked', 0, 0)",
            [kind],
        );
    }
    assert_eq!(tb.bot.scheduler_failures().unwrap().len(), 3);
    tb.tick();
    assert_eq!(tb.bot.scheduler_failures().unwrap(), vec![], "went through, so forgotten");
}

/// A game of one day a move in each of `chats`, `w<chat>` against `b<chat>`, both sides moved
/// once, then two days on the clock: each one's time is up.
fn daily_games_out_of_time(tb: &TestBot, chats: [&str; 3]) {
    for chat in chats {
        tb.say_in(chat, &format!("w{chat}"), &format!("!challenge @b{chat} chess color:white days:1"));
        tb.say_in(chat, &format!("b{chat}"), "!accept");
        tb.say_in(chat, &format!("w{chat}"), "e4");
        tb.say_in(chat, &format!("b{chat}"), "e5");
    }
    tb.clock.advance(2 * 86_400);
}

/// A scheduler batch runs first as a whole, without savepoints (each one a copy of every page
/// written under it on SQLite, two round trips on PostgreSQL): a tick of three losses on time opens
/// none. A batch with a failing item is rolled back and run again with a savepoint an item, so that
/// the failure stays the bad item's alone: the others end on time in the same tick.
#[test]
fn a_scheduler_batch_whose_items_all_succeed_opens_no_savepoint() {
    use capabot::store::sql::savepoints_opened;
    let tb = new_bot();
    daily_games_out_of_time(&tb, ["a", "b", "c"]);
    let before = savepoints_opened();
    let text = tb.tick().text();
    assert!(text.contains("#1") && text.contains("#2") && text.contains("#3"), "{text}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'finished'"), 3);
    assert_eq!(savepoints_opened() - before, 0, "savepoints opened by a batch whose items all succeed");

    daily_games_out_of_time(&tb, ["d", "e", "f"]);
    tb.by_hand("UPDATE games SET variant = 'no-such-variant' WHERE id = 5", ());
    let before = savepoints_opened();
    let text = tb.tick().text();
    assert!(text.contains("#4") && text.contains("#6") && !text.contains("we ran out of time"), "{text}");
    assert!(savepoints_opened() - before >= 3, "the batch again, a savepoint an item");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 5"), "active");
    let failures = tb.bot.scheduler_failures().unwrap();
    assert!(matches!(&failures[..], [f] if f.kind == "timeout" && f.item_id == 5 && f.tries == 1), "{failures:?}");
}

/// A move is one unit of work without savepoints, and reads each row once: the game's players,
/// accounts and languages, the chat's settings, the game's moves were read up to seven times each
/// (`docs/load.md`: 39 statements a move, each a round trip on PostgreSQL). An input whose work
/// fails (an illegal `!move`) is rolled back and handled again with its work under a savepoint: it
/// changes nothing, is answered once, and its event stays claimed.
#[test]
fn a_move_opens_no_savepoint_and_reads_each_row_once() {
    use capabot::store::sql::{reads_kept, savepoints_opened, statements_sent};
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    let (statements, savepoints, kept) = (statements_sent(), savepoints_opened(), reads_kept());
    let text = tb.bot.handle(&msg_in("main", "bob", "e5").with_event_id("m1")).text();
    assert!(text.contains("e5"), "{text}");
    let statements = statements_sent() - statements;
    assert_eq!(savepoints_opened() - savepoints, 0, "savepoints opened by a move");
    let kept = reads_kept() - kept;
    // 13 statements here on SQLite, 5 on PostgreSQL (a chess move typed with its event id, no
    // clock: one row in the outbox, with its waiting entry a statement of its own on SQLite since
    // migration 38, in the row's statement on PostgreSQL, and on SQLite the rows waiting in its
    // chat read by a statement of their own since stop 108 — 12 before, read by the row's
    // `INSERT … RETURNING`, which SQLite answers from a temporary b-tree: the three statements
    // cost less than the two, docs/scale.md, "The tick's own costs"; on PostgreSQL the event's claim with the
    // chat's settings and the author, and the game's row with its moves and its offers' clearing,
    // one statement each, 9 before stop 106; both players with their settings and accounts in one
    // statement once the move is stored, read since stop 109 by the move's statement, 7 before;
    // the chat's settings and the author in one, 12 and 10 before; the author's open games in the
    // chat with their moves read by the claim's statement since stop 109, 6 before), and 13 or 14
    // reads answered from the unit, each one statement more before (the game's row and its moves,
    // read by the player's open games in the chat, then again when the game was loaded; on
    // PostgreSQL the move's UPDATE returns the row as well; the author's player row and settings,
    // read with the account; the opponent's row, settings and accounts).
    assert!(kept >= 13, "reads answered from the unit: {kept}");
    let most = match tb.bot.store().dialect() {
        capabot::store::sql::Dialect::Sqlite => 13,
        capabot::store::sql::Dialect::Postgres => 5,
    };
    assert!(statements <= most, "statements a move: {statements}");

    let before = tb.fingerprint();
    let illegal = msg_in("main", "alice", "!move Ke3").with_event_id("m2");
    let savepoints = savepoints_opened();
    let text = tb.bot.handle(&illegal).text();
    assert!(text.contains("is not legal"), "an answer to the illegal move: {text}");
    assert!(savepoints_opened() - savepoints >= 1, "handled again under a savepoint");
    assert_eq!(before, tb.fingerprint(), "nothing changed");
    assert_eq!(tb.query_i64("SELECT count(*) FROM processed_events WHERE event_id = 'm2'"), 1, "the event is claimed");
    assert!(tb.bot.handle(&illegal).text().is_empty(), "the event is answered once");
    assert_eq!(before, tb.fingerprint());
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
}

/// The scheduler runs its items in batches, one unit of work each (a savepoint per item when one
/// fails, above); a batch whose unit cannot commit (nothing of it saved) is run again one item a unit, so that the
/// failure is one item's alone. One failed commit: the batch's, and every game still ends on time
/// in that tick with no failure recorded. Two: the batch's and then the first item's own, which
/// is recorded and tried again at the next tick while the others end.
#[test]
fn a_scheduler_batch_that_cannot_commit_is_run_again_item_by_item() {
    let tb = new_bot();
    daily_games_out_of_time(&tb, ["a", "b", "c"]);
    tb.bot.store().fail_next_commits(1);
    let text = tb.tick().text();
    assert!(text.contains("#1") && text.contains("#2") && text.contains("#3"), "{text}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'finished'"), 3);
    assert!(tb.bot.scheduler_failures().unwrap().is_empty());

    daily_games_out_of_time(&tb, ["d", "e", "f"]);
    tb.bot.store().fail_next_commits(2);
    let text = tb.tick().text();
    assert!(text.contains("#5") && text.contains("#6"), "{text}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 4"), "active");
    let failures = tb.bot.scheduler_failures().unwrap();
    assert!(
        matches!(&failures[..], [f] if f.kind == "timeout" && f.item_id == 4 && f.tries == 1 && f.last_error.contains("injected")),
        "{failures:?}"
    );
    tb.tick();
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 4"), "finished");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'finished'"), 6);
    assert!(tb.bot.scheduler_failures().unwrap().is_empty());
}

/// Processes started together on a new database each list the games where capabot is to move,
/// creating capabot's player if none has yet: each gets its list (on PostgreSQL all but one meet a
/// serialization failure, which their unit of work runs again: before, it was logged and the
/// AI's games were not taken up), and there is one player for capabot.
#[test]
fn processes_starting_together_each_list_the_ais_games() {
    let tb = new_bot();
    let path = db_path(tb.dir.path());
    let n = 8;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let (path, clock, barrier) = (path.clone(), tb.clock.clone(), barrier.clone());
            std::thread::spawn(move || {
                let bot = open_bot(&path, clock, Arc::new(NoAi));
                barrier.wait();
                bot.pending_ai_jobs(&capabot::bot::Served::new("here", ["test"])).map(|jobs| jobs.len())
            })
        })
        .collect();
    for handle in handles {
        assert_eq!(handle.join().unwrap(), Ok(0));
    }
    assert_eq!(tb.query_i64("SELECT count(*) FROM players WHERE is_ai <> 0"), 1);
}
