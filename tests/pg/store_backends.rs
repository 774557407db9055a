//! The store on both backends, and the two guarantees issue 33 builds on, shown with the store's
//! own functions between two stores (two processes) on one database: an event id claimed by both
//! at once is claimed once, and a move guarded by its ply lands once. When the first one rolls back
//! instead (a process that died mid-way), the second one gets it.

use std::thread;

use capabot::store::{Connection, Store, events};
use pg_harness::PgServer;

/// `games::apply_move`'s guard.
fn advance(conn: &Connection, game: i64, expected_ply: i64) -> capabot::store::Result<bool> {
    let sql = "UPDATE games SET ply = ply + 1, updated_at = ?3 WHERE id = ?1 AND ply = ?2 AND status = 'active'";
    Ok(conn.execute(sql, capabot::store_params![game, expected_ply, 1])? == 1)
}

fn claim(conn: &Connection, event_id: &str) -> capabot::store::Result<bool> {
    events::claim(conn, "discord", event_id, 0)
}

/// Two stores on one migrated database with one active game (id 1) at ply 0.
type Pair = (Store, Store);

fn sqlite_pair(dir: &tempfile::TempDir) -> Pair {
    let path = dir.path().join("capabot.db");
    let pair = (Store::open(&path).unwrap(), Store::open(&path).unwrap());
    seed(&pair.0.conn().unwrap());
    pair
}

fn postgres_pair(database: &pg_harness::TestDatabase<'_>) -> Pair {
    let pair = (Store::open_postgres(&database.url(), 2).unwrap(), Store::open_postgres(&database.url(), 2).unwrap());
    seed(&pair.0.conn().unwrap());
    pair
}

fn seed(conn: &Connection) {
    let player = "INSERT INTO players (id, name, created_at) VALUES (?1, ?2, 0)";
    conn.execute(player, capabot::store_params![1, "white"]).unwrap();
    conn.execute(player, capabot::store_params![2, "black"]).unwrap();
    conn.execute(
        "INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, fen, created_at, updated_at)
         VALUES (1, 'discord', ?1, 'chess', 'x', 1, 2, 'active', 'x', 0, 0)",
        ["c1"],
    )
    .unwrap();
}

/// The first store does `act` in an open transaction; the second does it too from another
/// thread, in a unit of work as the product does (waiting for the first where the engine makes
/// it, and run again when PostgreSQL's serializable isolation turns it away because the first
/// committed meanwhile), then the first commits or rolls back. Returns what each got.
fn race(pair: Pair, act: fn(&Connection) -> capabot::store::Result<bool>, first_commits: bool) -> (bool, bool) {
    let (first, second) = pair;
    let conn = first.conn().unwrap();
    conn.begin_write().unwrap();
    let first_got = act(&conn).unwrap();
    let other = thread::spawn(move || second.unit(|| act(&*second.conn()?)).unwrap());
    if first_commits {
        conn.commit().unwrap();
    } else {
        conn.rollback().unwrap();
    }
    (first_got, other.join().unwrap())
}

fn both_backends(check: impl Fn(&str, Pair, bool)) {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    for first_commits in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        check("SQLite", sqlite_pair(&dir), first_commits);
        let database = server.create_database().unwrap();
        check("PostgreSQL", postgres_pair(&database), first_commits);
    }
}

#[test]
fn an_event_claimed_by_two_stores_at_once_is_claimed_once() {
    both_backends(|backend, pair, first_commits| {
        let got = race(pair, |conn| claim(conn, "event-1"), first_commits);
        // Committed: the second finds it handled. Rolled back: the second claims it itself.
        assert_eq!(got, (true, !first_commits), "{backend}, first commits: {first_commits}");
    });
}

/// An input's claim on PostgreSQL, read with the chat's settings and the author in one statement
/// inside a unit of work (`settings::claim_prefetching_input`); the plain claim elsewhere.
fn claim_reading(conn: &Connection) -> capabot::store::Result<bool> {
    match capabot::store::settings::claim_prefetching_input(conn, "discord", "event-2", 0, None, "c1", "u1")? {
        Some(claimed) => Ok(claimed),
        None => claim(conn, "event-2"),
    }
}

/// The claim read with the input's first statement keeps the claim's guarantee: the second store's
/// (in a unit of work, so the one statement on PostgreSQL) waits for the first one's and then finds
/// the event handled, or claims it itself when the first rolled back.
#[test]
fn an_event_claimed_with_the_inputs_first_read_by_two_stores_at_once_is_claimed_once() {
    both_backends(|backend, pair, first_commits| {
        let got = race(pair, claim_reading, first_commits);
        assert_eq!(got, (true, !first_commits), "{backend}, first commits: {first_commits}");
    });
}

#[test]
fn a_move_guarded_by_its_ply_lands_once() {
    both_backends(|backend, pair, first_commits| {
        let got = race(pair, |conn| advance(conn, 1, 0), first_commits);
        assert_eq!(got, (true, !first_commits), "{backend}, first commits: {first_commits}");
    });
}

#[test]
fn rows_read_back_alike_on_both_backends() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let database = server.create_database().unwrap();
    for (backend, (store, _)) in [("SQLite", sqlite_pair(&dir)), ("PostgreSQL", postgres_pair(&database))] {
        let conn = store.conn().unwrap();
        assert!(claim(&conn, "e-1").unwrap() && !claim(&conn, "e-1").unwrap(), "{backend}: a second claim fails");
        let rows: Vec<(i64, String, Option<String>)> = conn
            .query_all(
                "SELECT id, name, NULLIF(name, ?1) FROM players WHERE id >= ?2 ORDER BY id",
                capabot::store_params!["black", 1],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            rows,
            [(1, "white".to_string(), Some("white".to_string())), (2, "black".to_string(), None)],
            "{backend}"
        );
        let none: Option<String> = None;
        let nulls = conn.execute("UPDATE games SET termination = ?1 WHERE id = ?2", capabot::store_params![none, 1]);
        assert_eq!(nulls.unwrap(), 1, "{backend}: a NULL parameter of any type");
        // Integers of every width, booleans, sums and floating point read back as the store's types.
        let (count, truth, half): (u32, bool, f64) = conn
            .query_row("SELECT count(*), 1 = 1, CAST(1 AS DOUBLE PRECISION) / 2", (), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!((count, truth, half), (1, true, 0.5), "{backend}");
    }
}

/// The scheduler on PostgreSQL: the due rows one process's tick has taken are skipped by another
/// process's tick at once (it neither waits for them nor handles them too); when the first
/// process dies before committing, they come back to the others.
#[test]
fn due_rows_taken_by_one_process_are_skipped_by_another_until_it_ends() {
    use capabot::store::games;
    use std::sync::mpsc;
    use std::time::Duration;

    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    for first_commits in [false, true] {
        let database = server.create_database().unwrap();
        let (first, second) = postgres_pair(&database);
        first.conn().unwrap().execute("UPDATE games SET deadline = 5, remind_at = 5 WHERE id = 1", ()).unwrap();
        let due = |conn: &Connection| {
            let ids = |rows: Vec<games::GameRow>| rows.iter().map(|g| g.id).collect::<Vec<_>>();
            (
                ids(games::due_timeouts(conn, 10, &["discord"]).unwrap()),
                ids(games::due_reminders(conn, 10, &["discord"]).unwrap()),
            )
        };
        let conn = first.conn().unwrap();
        conn.begin_write().unwrap();
        assert_eq!(due(&conn), (vec![1], vec![1]));
        let second = std::sync::Arc::new(second);
        let (tx, rx) = mpsc::channel();
        let other = second.clone();
        thread::spawn(move || {
            let conn = other.conn().unwrap();
            conn.begin_write().unwrap();
            let got = due(&conn);
            conn.commit().unwrap();
            let _ = tx.send(got);
        });
        // Bounded: a tick that waited for the rows would still be waiting.
        let got = rx.recv_timeout(Duration::from_secs(30)).expect("the other tick waited for rows taken by the first");
        assert_eq!(got, (vec![], vec![]), "the other tick took rows the first one holds");
        if first_commits {
            conn.execute("UPDATE games SET deadline = NULL, remind_at = NULL WHERE id = 1", ()).unwrap();
            conn.commit().unwrap();
        } else {
            // The process dies: its transaction ends without a commit.
            conn.rollback().unwrap();
        }
        let conn = second.conn().unwrap();
        conn.begin_write().unwrap();
        let expected = if first_commits { (vec![], vec![]) } else { (vec![1], vec![1]) };
        assert_eq!(due(&conn), expected, "first commits: {first_commits}");
        conn.rollback().unwrap();
    }
}

#[test]
fn a_store_on_the_servers_machine_reaches_it_through_its_unix_socket() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let url = database.socket_url().expect("the harness's directory is short enough a path for a socket");
    let local = Store::open_postgres(&url, 2).unwrap_or_else(|e| panic!("{e}"));
    let conn = local.conn().unwrap();
    // A connection through a Unix socket has no client address; one over TCP has 127.0.0.1.
    let address = "SELECT inet_client_addr()::text";
    let through_socket: Option<String> = conn.query_row(address, (), |row| row.get(0)).unwrap();
    assert_eq!(through_socket, None, "the store connected through the socket");
    let remote = Store::open_postgres(&database.url(), 2).unwrap_or_else(|e| panic!("{e}"));
    let over_tcp: Option<String> = remote.conn().unwrap().query_row(address, (), |row| row.get(0)).unwrap();
    assert_eq!(over_tcp.as_deref(), Some("127.0.0.1/32"));
    // One database either way: what one claims, the other finds claimed.
    assert!(claim(&conn, "event-1").unwrap());
    assert!(!claim(&remote.conn().unwrap(), "event-1").unwrap());
    assert!(claim(&remote.conn().unwrap(), "event-2").unwrap());
    assert!(!claim(&conn, "event-2").unwrap());
}
