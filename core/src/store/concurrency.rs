//! Writers at once lose no update (the discipline of [`crate::store::Store::unit`]), on SQLite and
//! PostgreSQL: results stored by many threads together end exactly as the same results stored one
//! after another.

use crate::community::ladder::{ChallengeResult, LadderSettings};
use crate::community::rating::Score;
use crate::store::players::{self, PlayerId};
use crate::store::ratings::{self, Scope};
use crate::store::testing::on_both_backends;
use crate::store::{Store, ladders};
use std::sync::Barrier;

on_both_backends!(
    twenty_results_of_one_player_at_once_keep_every_rating_change,
    two_ladder_results_at_once_are_both_applied,
    a_conflict_caught_inside_the_unit_still_runs_it_again,
    a_caught_error_never_passes_for_a_commit
);

/// Twenty games of Alice end at once, each against another player: her rating history is one
/// unbroken chain (each change starts from the one before), her counts add up to twenty, and her
/// rating is the last link: what storing the same results one after another in that order gives.
fn twenty_results_of_one_player_at_once_keep_every_rating_change(store: &Store) {
    let conn = store.conn().unwrap();
    let alice = players::ensure(&conn, "test", "alice", "alice", 0).unwrap().id;
    let others: Vec<PlayerId> =
        (0..20).map(|i| players::ensure(&conn, "test", &format!("p{i}"), &format!("p{i}"), 0).unwrap().id).collect();
    drop(conn);
    let scope = Scope::community("test", "c");
    let score = |i: usize| [Score::Win, Score::Draw, Score::Loss][i % 3];
    let start = Barrier::new(others.len());
    std::thread::scope(|s| {
        for (i, &other) in others.iter().enumerate() {
            let (start, scope) = (&start, &scope);
            s.spawn(move || {
                start.wait();
                store
                    .unit(|| ratings::rate(&*store.conn()?, scope, "chess", None, alice, other, score(i), 1000))
                    .expect("a result is stored");
            });
        }
    });
    let conn = store.conn().unwrap();
    let mine = ratings::get(&conn, alice, &scope, "chess").unwrap().unwrap();
    let wins = (0..20).filter(|&i| score(i) == Score::Win).count() as u32;
    let draws = (0..20).filter(|&i| score(i) == Score::Draw).count() as u32;
    assert_eq!((mine.games, mine.wins, mine.draws, mine.losses), (20, wins, draws, 20 - wins - draws));
    let chain = ratings::history(&conn, alice, &scope, "chess", 100).unwrap();
    assert_eq!(chain.len(), 20, "one history row per game");
    for pair in chain.windows(2) {
        assert_eq!(pair[1].rating_before, pair[0].rating_after, "a change was computed from a stale rating: {chain:?}");
    }
    assert_eq!(chain[0].rating_before, 1500.0);
    assert_eq!(chain[19].rating_after, mine.rating.rating);
}

/// Two ladder games end at once (disjoint pairs): both results are applied, and the standings are
/// those of the two results applied one after the other.
fn two_ladder_results_at_once_are_both_applied(store: &Store) {
    let conn = store.conn().unwrap();
    let p: Vec<PlayerId> =
        (1..=5).map(|i| players::ensure(&conn, "console", &format!("u{i}"), &format!("P{i}"), 1).unwrap().id).collect();
    let id = ladders::create(&conn, "discord", "g1", "chess", LadderSettings::default(), 0).unwrap().unwrap();
    ladders::update(&conn, id, |l| p.iter().try_for_each(|&x| l.join(x, 5).map(|_| ()))).unwrap().unwrap();
    let a = ladders::update(&conn, id, |l| l.challenge_player(p[4], p[2], 10)).unwrap().unwrap();
    let b = ladders::update(&conn, id, |l| l.challenge_player(p[1], p[0], 10)).unwrap().unwrap();
    ladders::update(&conn, id, |l| l.accept(p[2], 20)).unwrap().unwrap();
    ladders::update(&conn, id, |l| l.accept(p[0], 20)).unwrap().unwrap();
    let before = ladders::load(&conn, id).unwrap().unwrap();
    drop(conn);
    let mut expected = before.clone();
    expected.record_result(a, ChallengeResult::ChallengerWon, 30).unwrap();
    expected.record_result(b, ChallengeResult::ChallengerWon, 30).unwrap();

    let start = Barrier::new(2);
    std::thread::scope(|s| {
        for ch in [a, b] {
            let start = &start;
            s.spawn(move || {
                start.wait();
                store
                    .unit(|| {
                        let conn = store.conn()?;
                        let out =
                            ladders::update_in(&conn, id, |l| l.record_result(ch, ChallengeResult::ChallengerWon, 30))?;
                        // Hold the ladder read a moment, as a real game's end does more work.
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        Ok(out)
                    })
                    .expect("stored")
                    .expect("the result applies");
            });
        }
    });
    let after = ladders::load(&store.conn().unwrap(), id).unwrap().unwrap();
    assert_eq!(after.standings(), expected.standings());
    assert_eq!(after.events().len(), expected.events().len(), "both results recorded");
    assert_ne!(after.challenge(a).unwrap().status, before.challenge(a).unwrap().status);
    assert_ne!(after.challenge(b).unwrap().status, before.challenge(b).unwrap().status);
}

/// Two units read a counter and write it back, so that on PostgreSQL one of them meets the other's
/// change (a serialization failure). Like the core's savepoints, each catches its statement's
/// error and goes on, to fail later on something else ("current transaction is aborted"): the
/// conflict still makes the unit run again, and neither increment is lost.
fn a_conflict_caught_inside_the_unit_still_runs_it_again(store: &Store) {
    // SQLite holds its one write lock from the unit's start: only PostgreSQL lets the two meet.
    let on_postgres = store.conn().unwrap().dialect() == crate::store::sql::Dialect::Postgres;
    let start = Barrier::new(if on_postgres { 2 } else { 1 });
    store
        .conn()
        .unwrap()
        .execute_batch("CREATE TABLE counter (n BIGINT NOT NULL); INSERT INTO counter VALUES (0)")
        .unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            let start = &start;
            s.spawn(move || {
                let mut first = true;
                store
                    .unit(|| {
                        let conn = store.conn()?;
                        let n: i64 = conn.query_row("SELECT n FROM counter", (), |r| r.get(0))?;
                        if std::mem::take(&mut first) {
                            start.wait();
                        }
                        // The caught error: this statement may be the one refused.
                        let _ = conn.execute("UPDATE counter SET n = ?1", [n + 1]);
                        conn.query_row("SELECT n FROM counter", (), |r| r.get::<i64>(0))?;
                        Ok(())
                    })
                    .expect("each increment is stored");
            });
        }
    });
    let n: i64 = store.conn().unwrap().query_row("SELECT n FROM counter", (), |r| r.get(0)).unwrap();
    assert_eq!(n, 2, "an increment was lost");
}

/// A unit that catches a statement's error and ends well: on PostgreSQL the failed statement
/// aborted the transaction, whose COMMIT the server answers with a silent ROLLBACK. The unit must
/// then say it was not saved, never report success with nothing saved. Undone by a savepoint (the
/// core's way), the error leaves the transaction whole, and the unit commits.
fn a_caught_error_never_passes_for_a_commit(store: &Store) {
    store.conn().unwrap().execute_batch("CREATE TABLE kept (n BIGINT NOT NULL)").unwrap();
    let count = |n: i64| -> i64 {
        store.conn().unwrap().query_row("SELECT count(*) FROM kept WHERE n = ?1", [n], |r| r.get(0)).unwrap()
    };
    let caught = store.unit(|| {
        let conn = store.conn()?;
        conn.execute("INSERT INTO kept VALUES (1)", ())?;
        let _ = conn.execute("INSERT INTO no_such_table VALUES (1)", ());
        Ok(())
    });
    assert_eq!(caught.is_ok(), count(1) == 1, "said {caught:?}, with {} rows saved", count(1));
    let undone = store.unit(|| {
        let conn = store.conn()?;
        conn.execute("INSERT INTO kept VALUES (2)", ())?;
        conn.execute_batch("SAVEPOINT s")?;
        let _ = conn.execute("INSERT INTO no_such_table VALUES (1)", ());
        conn.execute_batch("ROLLBACK TO s; RELEASE s")?;
        Ok(())
    });
    assert!(undone.is_ok(), "{undone:?}");
    assert_eq!(count(2), 1);
}
