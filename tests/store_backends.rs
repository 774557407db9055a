//! The prototype `store::db::Db` on both backends, and the two guarantees issue 33 builds on, shown
//! with the store's own statements between two connections: an event id claimed by two connections
//! at once is claimed once, and a move guarded by its ply lands once. When the first connection
//! rolls back instead (a process that died mid-way), the second one gets it.

use std::thread;
use std::time::Duration;

use capabot::store::db::{Db, Value};
use capabot::store::{self, postgres::migrate};
use pg_harness::PgServer;
use pg_harness::postgres::Client;

/// A connection of either backend, owned (so that it can move to another thread).
enum Conn {
    Sqlite(rusqlite::Connection),
    Postgres(Client),
}

impl Conn {
    fn db(&mut self) -> Db<'_> {
        match self {
            Conn::Sqlite(conn) => Db::Sqlite(conn),
            Conn::Postgres(client) => Db::Postgres(client),
        }
    }
}

/// `events::claim`'s statement.
fn claim(db: &mut Db<'_>, event_id: &str) -> bool {
    let sql =
        "INSERT INTO processed_events (platform, event_id, handled_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING";
    db.execute(sql, &[Value::Text("discord"), Value::Text(event_id), Value::I64(0)]).unwrap() == 1
}

/// `games::apply_move`'s guard.
fn advance(db: &mut Db<'_>, game: i64, expected_ply: i64) -> bool {
    let sql = "UPDATE games SET ply = ply + 1, updated_at = ?3 WHERE id = ?1 AND ply = ?2 AND status = 'active'";
    db.execute(sql, &[Value::I64(game), Value::I64(expected_ply), Value::I64(1)]).unwrap() == 1
}

/// Two connections to one migrated database with one active game (id 1) at ply 0.
type Pair = (Conn, Conn);

fn sqlite_pair(dir: &tempfile::TempDir) -> Pair {
    let path = dir.path().join("capabot.db");
    let open = || {
        let conn = store::open_connection(&path).unwrap();
        conn.busy_timeout(Duration::from_secs(30)).unwrap();
        conn
    };
    let mut first = open();
    store::MIGRATIONS.to_latest(&mut first).unwrap();
    let mut pair = (Conn::Sqlite(first), Conn::Sqlite(open()));
    seed(&mut pair.0.db());
    pair
}

fn postgres_pair(database: &pg_harness::TestDatabase<'_>) -> Pair {
    let mut first = database.connect().unwrap();
    migrate(&mut first).unwrap();
    let mut pair = (Conn::Postgres(first), Conn::Postgres(database.connect().unwrap()));
    seed(&mut pair.0.db());
    pair
}

fn seed(db: &mut Db<'_>) {
    let player = "INSERT INTO players (id, name, created_at) VALUES (?1, ?2, 0)";
    db.execute(player, &[Value::I64(1), Value::Text("white")]).unwrap();
    db.execute(player, &[Value::I64(2), Value::Text("black")]).unwrap();
    db.execute(
        "INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, fen, created_at, updated_at)
         VALUES (1, 'discord', ?1, 'chess', 'x', 1, 2, 'active', 'x', 0, 0)",
        &[Value::Text("c1")],
    )
    .unwrap();
}

/// The first connection does `act` in an open transaction; the second does it too from another
/// thread (waiting for the first where the engine makes it), then the first commits or rolls
/// back. Returns what each got.
fn race(pair: Pair, act: fn(&mut Db<'_>) -> bool, first_commits: bool) -> (bool, bool) {
    let (mut first, mut second) = pair;
    let mut db = first.db();
    db.begin_write().unwrap();
    let first_got = act(&mut db);
    let other = thread::spawn(move || {
        let mut db = second.db();
        db.begin_write().unwrap();
        let got = act(&mut db);
        db.batch("COMMIT").unwrap();
        got
    });
    db.batch(if first_commits { "COMMIT" } else { "ROLLBACK" }).unwrap();
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
fn an_event_claimed_by_two_connections_at_once_is_claimed_once() {
    both_backends(|backend, pair, first_commits| {
        let got = race(pair, |db| claim(db, "event-1"), first_commits);
        // Committed: the second finds it handled. Rolled back: the second claims it itself.
        assert_eq!(got, (true, !first_commits), "{backend}, first commits: {first_commits}");
    });
}

#[test]
fn a_move_guarded_by_its_ply_lands_once() {
    both_backends(|backend, pair, first_commits| {
        let got = race(pair, |db| advance(db, 1, 0), first_commits);
        assert_eq!(got, (true, !first_commits), "{backend}, first commits: {first_commits}");
    });
}

#[test]
fn rows_read_back_alike_on_both_backends() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let database = server.create_database().unwrap();
    for (backend, (mut conn, _)) in [("SQLite", sqlite_pair(&dir)), ("PostgreSQL", postgres_pair(&database))] {
        let mut db = conn.db();
        assert!(claim(&mut db, "e-1") && !claim(&mut db, "e-1"), "{backend}: a second claim fails");
        let rows = db
            .query(
                "SELECT id, name, NULLIF(name, ?1) FROM players WHERE id >= ?2 ORDER BY id",
                &[Value::Text("black"), Value::I64(1)],
                |row| Ok((row.i64(0)?, row.text(1)?, row.opt_text(2)?)),
            )
            .unwrap();
        assert_eq!(
            rows,
            [(1, "white".to_string(), Some("white".to_string())), (2, "black".to_string(), None)],
            "{backend}"
        );
        let nulls = db.execute("UPDATE games SET termination = ?1 WHERE id = ?2", &[Value::Null, Value::I64(1)]);
        assert_eq!(nulls.unwrap(), 1, "{backend}: a NULL parameter of any type");
    }
}
