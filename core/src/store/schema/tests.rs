use super::*;
use crate::store::{Store, open_connection};

/// A new database file in a temporary directory (kept while the first value lives), with a plain
/// connection to it.
fn new_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("capabot.db");
    (dir, path)
}

/// Each schema object's kind, name, table and SQL.
type Objects = Vec<(String, String, String, Option<String>)>;
/// Each applied migration's version, name and checksum.
type Applied = Vec<(i64, String, String)>;

/// Everything SQLite knows of the schema, by kind and name.
fn schema_of(conn: &rusqlite::Connection) -> Objects {
    let mut st = conn.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").unwrap();
    st.query_map((), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(std::result::Result::unwrap)
        .collect()
}

/// refinery's history.
fn history_of(conn: &rusqlite::Connection) -> Applied {
    let mut st =
        conn.prepare(&format!("SELECT version, name, checksum FROM {HISTORY_TABLE} ORDER BY version")).unwrap();
    st.query_map((), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(std::result::Result::unwrap).collect()
}

fn user_version(conn: &rusqlite::Connection) -> i64 {
    conn.query_row("PRAGMA user_version", (), |r| r.get(0)).unwrap()
}

fn has_history(conn: &rusqlite::Connection) -> bool {
    recorded_version(conn).unwrap().is_some()
}

/// A new database migrated by the store: its schema and history, what every other is compared with.
fn fresh() -> (Objects, Applied) {
    let (_dir, path) = new_file();
    let mut conn = open_connection(&path).unwrap();
    assert_eq!(migrate(&mut conn).unwrap(), MIGRATIONS.len());
    (schema_of(&conn), history_of(&conn))
}

/// The version of the next release's first migration.
const NEXT: usize = MIGRATIONS.len() + 1;

/// Refinery's name for the next release's migration (`V<NEXT>__next`).
fn next_name() -> &'static str {
    Box::leak(format!("V{NEXT}__next").into_boxed_str())
}

/// What a newer capabot's database makes this one say.
fn newer() -> String {
    format!("version {NEXT}, written by a newer capabot")
}

/// [`MIGRATIONS`] and one more, as the next release would have them.
fn with_a_next_one() -> Vec<SqliteMigration> {
    let mut next = MIGRATIONS.to_vec();
    next.push(sql(next_name(), "CREATE TABLE next_release (id INTEGER PRIMARY KEY);"));
    next
}

#[test]
fn every_migration_is_named_for_its_version_in_order() {
    for (i, m) in MIGRATIONS.iter().enumerate() {
        let parsed = Migration::unapplied(m.name, m.sql).unwrap();
        assert_eq!(parsed.version() as usize, i + 1, "{}", m.name);
    }
    // The same names on both backends: `V15__scale` is version 15 of the same schema on each.
    #[cfg(feature = "postgres")]
    assert_eq!(
        MIGRATIONS.iter().map(|m| m.name).collect::<Vec<_>>(),
        crate::store::postgres::MIGRATIONS.iter().map(|(name, _)| *name).collect::<Vec<_>>()
    );
}

#[test]
fn a_new_database_gets_every_migration_once_and_recorded() {
    let (_dir, path) = new_file();
    let mut conn = open_connection(&path).unwrap();
    assert_eq!(migrate(&mut conn).unwrap(), MIGRATIONS.len());
    let history = history_of(&conn);
    let names: Vec<String> = history.iter().map(|(v, name, _)| format!("V{v}__{name}")).collect();
    assert_eq!(names, MIGRATIONS.iter().map(|m| m.name).collect::<Vec<_>>());
    for ((_, _, checksum), m) in history.iter().zip(MIGRATIONS) {
        assert_eq!(checksum, &Migration::unapplied(m.name, m.sql).unwrap().checksum().to_string(), "{}", m.name);
    }
    assert_eq!(user_version(&conn), MIGRATIONS.len() as i64);
    assert_eq!(migrate(&mut conn).unwrap(), 0, "nothing left to apply");
    assert_eq!(history_of(&conn), history);
}

/// Every version `rusqlite_migration` may have left (1 to 18, `user_version` alone): opened by the
/// store, the database has the schema and history of a new one, its rows, and only the migrations
/// it lacked were run (one run again would meet its own tables and fail).
#[test]
fn databases_migrated_before_refinery_at_every_version_become_what_a_new_one_is_with_their_rows() {
    let (schema, history) = fresh();
    for version in 1..=MIGRATIONS.len() {
        let (_dir, path) = new_file();
        let mut conn = open_connection(&path).unwrap();
        as_the_runner_before_refinery_left_it(&mut conn, version);
        conn.execute("INSERT INTO players (name, is_ai, created_at) VALUES ('kept', 0, 1)", ()).unwrap();
        assert!(!has_history(&conn));
        assert_eq!(migrate(&mut conn).unwrap(), MIGRATIONS.len() - version, "from version {version}");
        assert_eq!(schema_of(&conn), schema, "from version {version}");
        assert_eq!(history_of(&conn), history, "from version {version}");
        assert_eq!(user_version(&conn), MIGRATIONS.len() as i64);
        let kept: i64 = conn.query_row("SELECT count(*) FROM players WHERE name = 'kept'", (), |r| r.get(0)).unwrap();
        assert_eq!(kept, 1, "from version {version}");
        drop(conn);
        // And through the store, which opens it as any other.
        let store = Store::open(&path).unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}

/// After the move to refinery, the next migration is applied alone, whether the database was
/// migrated before refinery or by it.
#[test]
fn the_next_migration_applies_alone_after_the_move_to_refinery() {
    let next = with_a_next_one();
    for before_refinery in [true, false] {
        let (_dir, path) = new_file();
        let mut conn = open_connection(&path).unwrap();
        if before_refinery {
            as_the_runner_before_refinery_left_it(&mut conn, MIGRATIONS.len());
        } else {
            migrate(&mut conn).unwrap();
        }
        assert_eq!(migrate_with(&mut conn, &next).unwrap(), 1, "before refinery: {before_refinery}");
        let tables: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'next_release'", (), |r| r.get(0)).unwrap();
        assert_eq!(tables, 1);
        assert_eq!(history_of(&conn).len(), next.len());
        assert_eq!(user_version(&conn), next.len() as i64);
        assert_eq!(migrate_with(&mut conn, &next).unwrap(), 0);
    }
}

/// A database that a newer capabot migrated is refused with a message that says so, and is left
/// as it was: by refinery's history, or (before refinery) by `user_version`.
#[test]
fn a_database_from_a_newer_capabot_is_refused_and_left_as_it_was() {
    let (_dir, path) = new_file();
    let mut conn = open_connection(&path).unwrap();
    migrate_with(&mut conn, &with_a_next_one()).unwrap();
    let (schema, history) = (schema_of(&conn), history_of(&conn));
    let error = match Store::open(&path) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a newer database was opened"),
    };
    assert!(error.contains(&newer()), "{error}");
    assert!(error.contains(&format!("up to {}", MIGRATIONS.len())), "{error}");
    assert_eq!((schema_of(&conn), history_of(&conn)), (schema, history));
    assert_eq!(user_version(&conn), NEXT as i64);

    let (_dir, path) = new_file();
    let mut conn = open_connection(&path).unwrap();
    as_the_runner_before_refinery_left_it(&mut conn, MIGRATIONS.len());
    conn.pragma_update(None, "user_version", NEXT as i64).unwrap();
    let schema = schema_of(&conn);
    let Err(error) = migrate(&mut conn) else { panic!("a newer database was migrated") };
    assert!(error.to_string().contains(&newer()), "{error}");
    assert_eq!(schema_of(&conn), schema, "no history table made");
    assert_eq!(user_version(&conn), NEXT as i64);
}

/// An applied migration whose file changed since, or a history row that does not parse, is an
/// error (refinery's check, and the store's driver reading the row), not a panic or a silent pass.
#[test]
fn an_edited_migration_or_a_damaged_history_is_an_error() {
    for (damage, expected) in [
        (format!("UPDATE {HISTORY_TABLE} SET checksum = '1' WHERE version = 3"), "different"),
        (format!("UPDATE {HISTORY_TABLE} SET checksum = 'x' WHERE version = 3"), "checksum"),
        (format!("UPDATE {HISTORY_TABLE} SET applied_on = 'yesterday' WHERE version = 3"), "applied_on"),
    ] {
        let (_dir, path) = new_file();
        let mut conn = open_connection(&path).unwrap();
        migrate(&mut conn).unwrap();
        conn.execute_batch(&damage).unwrap();
        let error = match migrate(&mut conn) {
            Err(e) => format!("{e} {e:?}"),
            Ok(n) => panic!("{damage}: migrated ({n})"),
        };
        assert!(error.contains(expected), "{damage}: {error}");
    }
}

/// Several processes (here connections on threads, which SQLite locks alike) opening one database
/// at once: one applies each migration, the others wait and find nothing to do, and none fails; a
/// database migrated before refinery is moved over once.
#[test]
fn several_openers_at_once_apply_each_migration_once() {
    for start in [0, 5] {
        let (_dir, path) = new_file();
        if start > 0 {
            as_the_runner_before_refinery_left_it(&mut open_connection(&path).unwrap(), start);
        }
        let ready = std::sync::Barrier::new(4);
        let applied: usize = std::thread::scope(|scope| {
            let openers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        // Every thread reaches the barrier, so a failure below fails the test
                        // instead of leaving the others waiting for ever.
                        ready.wait();
                        let mut conn = open_connection(&path).unwrap();
                        migrate(&mut conn).unwrap()
                    })
                })
                .collect();
            openers.into_iter().map(|o| o.join().unwrap()).sum()
        });
        assert_eq!(applied, MIGRATIONS.len() - start, "from version {start}");
        assert_eq!(history_of(&open_connection(&path).unwrap()), fresh().1);
    }
}

/// Several processes starting at once on a database file nobody has opened yet: each opens it.
/// The first to open a new file turns it to write-ahead logging, which takes the file's exclusive
/// lock; SQLite answers "database is locked" at once to a connection asking for it then, without
/// calling the busy handler (waiting could deadlock), so the store tries again itself.
#[test]
fn several_openers_of_a_new_file_at_once_all_open_it() {
    for round in 0..40 {
        let (_dir, path) = new_file();
        let ready = std::sync::Barrier::new(4);
        let failures: Vec<String> = std::thread::scope(|scope| {
            let openers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        ready.wait();
                        let conn = open_connection(&path).map_err(|e| e.to_string())?;
                        let mode: String = conn.query_row("PRAGMA journal_mode", (), |r| r.get(0)).unwrap();
                        if mode == "wal" { Ok(()) } else { Err(format!("journal mode {mode}")) }
                    })
                })
                .collect();
            openers.into_iter().filter_map(|o| o.join().unwrap().err()).collect()
        });
        assert!(failures.is_empty(), "round {round}: {failures:?}");
    }
}

/// A new file gets the store's small pages ([`crate::store::PAGE_SIZE`]); a file made with
/// SQLite's default pages keeps them (only `VACUUM` outside write-ahead logging changes them),
/// and the store migrates it and works in it as in any other.
#[test]
fn a_new_file_has_the_stores_pages_and_an_old_one_keeps_its_own() {
    let page_size = |path: &std::path::Path| -> i64 {
        open_connection(path).unwrap().query_row("PRAGMA page_size", (), |r| r.get(0)).unwrap()
    };
    let (_new_dir, new) = new_file();
    drop(Store::open(&new).unwrap());
    assert_eq!(page_size(&new), crate::store::PAGE_SIZE);
    assert_ne!(crate::store::PAGE_SIZE, 4096, "the test's old file must differ");

    let (_old_dir, old) = new_file();
    let raw = rusqlite::Connection::open(&old).unwrap();
    raw.pragma_update(None, "page_size", 4096).unwrap();
    raw.pragma_update(None, "journal_mode", "WAL").unwrap();
    raw.execute_batch("CREATE TABLE kept (x INTEGER); INSERT INTO kept VALUES (7);").unwrap();
    drop(raw);
    let store = Store::open(&old).unwrap();
    let conn = store.conn().unwrap();
    let player = crate::store::players::ensure(&conn, "console", "ada", "Ada", 0).unwrap();
    assert_eq!(crate::store::players::get(&conn, player.id).unwrap().unwrap().name, "Ada");
    drop(conn);
    drop(store);
    assert_eq!(page_size(&old), 4096);
    let kept: i64 = open_connection(&old).unwrap().query_row("SELECT x FROM kept", (), |r| r.get(0)).unwrap();
    assert_eq!(kept, 7);
}

/// PostgreSQL's schema as its catalogue describes it: columns, indexes, constraints, views.
#[cfg(feature = "postgres")]
fn postgres_schema(client: &mut r2d2_postgres::postgres::Client) -> Vec<String> {
    let rows = client
        .query(
            "SELECT 'column ' || table_name || ' ' || ordinal_position || ' ' || column_name || ' ' || data_type
                    || ' ' || is_nullable || ' ' || coalesce(column_default, '') || ' ' || is_identity
               FROM information_schema.columns WHERE table_schema = current_schema()
             UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
             UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
               FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
             UNION ALL SELECT 'view ' || viewname || ' ' || definition FROM pg_views WHERE schemaname = current_schema()
             ORDER BY 1",
            &[],
        )
        .unwrap();
    rows.iter().map(|r| r.get(0)).collect()
}

#[cfg(feature = "postgres")]
fn postgres_history(client: &mut r2d2_postgres::postgres::Client) -> Vec<(i32, String, String)> {
    let rows = client.query(&format!("SELECT version, name, checksum FROM {HISTORY_TABLE} ORDER BY version"), &[]);
    rows.unwrap().iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect()
}

/// PostgreSQL has always been migrated by refinery: a database left at an earlier version (as an
/// older capabot left it) is brought to what a new one is, with its rows.
#[cfg(feature = "postgres")]
#[test]
fn postgres_databases_at_earlier_versions_become_what_a_new_one_is_with_their_rows() {
    use crate::store::postgres;
    let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let new = server.create_database().unwrap();
    drop(Store::open_postgres(&new.url(), 1).unwrap());
    let mut client = new.connect().unwrap();
    let (schema, history) = (postgres_schema(&mut client), postgres_history(&mut client));
    assert!(schema.iter().any(|line| line.starts_with("column game_moves 1 game_id bigint")), "{schema:?}");
    for version in [1, 8, 14, 17] {
        let database = server.create_database().unwrap();
        let mut client = database.connect().unwrap();
        postgres::runner().unwrap().set_target(Target::Version(version)).run(&mut client).unwrap();
        client.batch_execute("INSERT INTO players (name, is_ai, created_at) VALUES ('kept', 0, 1)").unwrap();
        drop(Store::open_postgres(&database.url(), 1).unwrap());
        assert_eq!(postgres_schema(&mut client), schema, "from version {version}");
        assert_eq!(postgres_history(&mut client), history, "from version {version}");
        let kept: i64 = client.query_one("SELECT count(*) FROM players WHERE name = 'kept'", &[]).unwrap().get(0);
        assert_eq!(kept, 1, "from version {version}");
    }
}

/// A PostgreSQL database with a migration this capabot does not know is refused as a newer
/// capabot's, and nothing is applied.
#[cfg(feature = "postgres")]
#[test]
fn a_postgres_database_from_a_newer_capabot_is_refused() {
    use crate::store::postgres;
    let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let mut client = database.connect().unwrap();
    let mut next: Vec<Migration> =
        postgres::MIGRATIONS.iter().map(|(name, sql)| Migration::unapplied(name, sql).unwrap()).collect();
    next.push(Migration::unapplied(next_name(), "CREATE TABLE next_release (id BIGINT PRIMARY KEY);").unwrap());
    Runner::new(&next).run(&mut client).unwrap();
    let history = postgres_history(&mut client);
    let error = match Store::open_postgres(&database.url(), 1) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a newer database was opened"),
    };
    assert!(error.contains(&newer()), "{error}");
    assert!(matches!(postgres::migrate(&mut client), Err(postgres::PgError::Newer(_))));
    assert_eq!(postgres_history(&mut client), history);
}
