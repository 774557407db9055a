//! The SQLite and PostgreSQL schemas agree: every table and view, column by column (name, order,
//! mapped type, nullability, default, auto-numbering), primary keys, foreign keys, unique
//! constraints and named indexes (not refinery's history table, which each side has). SQLite's
//! schema comes from the store's own migrations in memory, PostgreSQL's from `store::postgres` on a real server started by `pg-harness`; a
//! migration added on one side only fails `the_two_schemas_agree_column_by_column`.

use std::collections::{BTreeMap, BTreeSet};
use std::thread;

use capabot::store;
use capabot::store::postgres::{
    HISTORY_TABLE, MIGRATIONS as PG_MIGRATIONS, Timeouts, migrate, open_pool, open_pool_with,
};
use pg_harness::PgServer;
use pg_harness::postgres::{Client, GenericClient};
use rusqlite::Connection;

/// One column, in PostgreSQL's terms.
#[derive(Debug, Clone, PartialEq)]
struct Column {
    name: String,
    /// PostgreSQL's type name (`bigint`, `text`, `double precision`, `bytea`); empty in views.
    ty: String,
    not_null: bool,
    /// Its place in the primary key, from 1.
    primary_key: Option<u32>,
    /// Numbered by the database when an insert leaves it out (SQLite's rowid alias, PostgreSQL's
    /// identity column).
    auto: bool,
    default: Option<String>,
}

#[derive(Debug, Default, PartialEq)]
struct Table {
    is_view: bool,
    columns: Vec<Column>,
    /// (column, referenced table, referenced column, on delete)
    foreign_keys: BTreeSet<(String, String, String, String)>,
    unique: BTreeSet<Vec<String>>,
    /// name → (columns, unique, partial)
    indexes: BTreeMap<String, (Vec<String>, bool, bool)>,
}

type Schema = BTreeMap<String, Table>;

/// SQLite's declared column types and the PostgreSQL types the migrations map them to.
fn mapped_type(sqlite: &str) -> String {
    match sqlite.to_ascii_uppercase().as_str() {
        "INTEGER" => "bigint".into(),
        "TEXT" => "text".into(),
        "REAL" => "double precision".into(),
        "BLOB" => "bytea".into(),
        other => format!("no PostgreSQL type for SQLite's {other:?}: add it to mapped_type"),
    }
}

/// The columns PostgreSQL keeps in two bytes where SQLite's declared type is `INTEGER` (migration 23:
/// a game's small integers; SQLite stores every integer in the bytes its value needs).
const SMALLINTS: &[(&str, &str)] = &[
    ("games", "setup"),
    ("games", "ai_level"),
    ("games", "days_per_move"),
    ("games", "ply"),
    ("games", "white_swap"),
    ("games", "black_swap"),
    ("games", "rated"),
    ("games", "paused"),
    ("games", "interaction_only"),
];

/// A default as written, without PostgreSQL's cast (`'pending'::text` is `'pending'`).
fn plain_default(default: &str) -> String {
    match default.find("::") {
        Some(cast) if default.starts_with('\'') => default[..cast].to_string(),
        _ => default.to_string(),
    }
}

/// The name an index's column computed by an expression is compared by.
const EXPRESSION: &str = "EXPRESSION";

fn sqlite_schema(conn: &Connection) -> Schema {
    let mut schema = Schema::new();
    let mut tables = conn
        .prepare(
            "SELECT name, type = 'view' FROM sqlite_schema
             WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name <> ?1",
        )
        .unwrap();
    let names: Vec<(String, bool)> =
        tables.query_map([HISTORY_TABLE], |row| Ok((row.get(0)?, row.get(1)?))).unwrap().map(Result::unwrap).collect();
    for (name, is_view) in names {
        let without_rowid: bool = conn
            .query_row("SELECT wr FROM pragma_table_list WHERE name = ?1 AND schema = 'main'", [&name], |row| {
                row.get(0)
            })
            .unwrap();
        let foreign_keys: BTreeSet<(String, String, String, String)> = conn
            .prepare("SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?1)")
            .unwrap()
            .query_map([&name], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut columns: Vec<Column> = conn
            .prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid")
            .unwrap()
            .query_map([&name], |row| {
                let declared: String = row.get(1)?;
                let pk: u32 = row.get(4)?;
                Ok(Column {
                    name: row.get(0)?,
                    ty: if is_view {
                        String::new()
                    } else if SMALLINTS.contains(&(name.as_str(), row.get_ref(0)?.as_str()?)) {
                        "smallint".into()
                    } else {
                        mapped_type(&declared)
                    },
                    // Primary key columns are NOT NULL in PostgreSQL (and in WITHOUT ROWID tables).
                    not_null: !is_view && (row.get::<_, bool>(2)? || pk > 0),
                    primary_key: (pk > 0).then_some(pk),
                    auto: false,
                    default: row.get(3)?,
                })
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        // A lone INTEGER PRIMARY KEY of a rowid table is numbered by SQLite, unless it holds
        // another table's id (player_prefs.player_id): then nothing ever leaves it out.
        let key: Vec<usize> = (0..columns.len()).filter(|&i| columns[i].primary_key.is_some()).collect();
        if let [only] = key[..] {
            let column = &columns[only];
            let refers = foreign_keys.iter().any(|(from, ..)| *from == column.name);
            if !without_rowid && !is_view && column.ty == "bigint" && !refers {
                columns[only].auto = true;
            }
        }
        let mut unique = BTreeSet::new();
        let mut indexes = BTreeMap::new();
        let list: Vec<(String, bool, String, bool)> = conn
            .prepare("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1)")
            .unwrap()
            .query_map([&name], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (index, is_unique, origin, partial) in list {
            // An expression's column has no name (both sides call it `EXPRESSION`: what it
            // computes is written in each dialect's words, `games_due`).
            let index_columns: Vec<String> = conn
                .prepare("SELECT coalesce(name, ?2) FROM pragma_index_info(?1) ORDER BY seqno")
                .unwrap()
                .query_map([index.as_str(), EXPRESSION], |row| row.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            match origin.as_str() {
                "u" => {
                    unique.insert(index_columns);
                }
                "c" => {
                    indexes.insert(index, (index_columns, is_unique, partial));
                }
                _ => {} // the primary key's own index
            }
        }
        schema.insert(name, Table { is_view, columns, foreign_keys, unique, indexes });
    }
    schema
}

fn postgres_schema(client: &mut impl GenericClient) -> Schema {
    let mut schema = Schema::new();
    let tables = client
        .query(
            "SELECT table_name::text, table_type = 'VIEW' FROM information_schema.tables
             WHERE table_schema = 'public' AND table_name <> $1",
            &[&HISTORY_TABLE],
        )
        .unwrap();
    for row in tables {
        let (name, is_view): (String, bool) = (row.get(0), row.get(1));
        let key: BTreeMap<String, u32> = client
            .query(
                "SELECT a.attname::text, array_position(c.conkey, a.attnum)::int
                 FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                 WHERE c.contype = 'p' AND c.conrelid = $1::text::regclass",
                &[&name],
            )
            .unwrap()
            .iter()
            .map(|row| (row.get(0), row.get::<_, i32>(1).unsigned_abs()))
            .collect();
        let columns = client
            .query(
                "SELECT column_name::text, data_type::text, is_nullable = 'NO', column_default::text, is_identity = 'YES'
                 FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1
                 ORDER BY ordinal_position",
                &[&name],
            )
            .unwrap()
            .iter()
            .map(|row| {
                let name: String = row.get(0);
                Column {
                    primary_key: key.get(&name).copied(),
                    ty: if is_view { String::new() } else { row.get(1) },
                    not_null: !is_view && row.get::<_, bool>(2),
                    default: row.get::<_, Option<String>>(3).map(|d| plain_default(&d)),
                    auto: row.get(4),
                    name,
                }
            })
            .collect();
        let constraint_columns = "ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.ord)";
        let foreign_keys = client
            .query(
                &format!(
                    "SELECT {constraint_columns}, f.relname::text,
                        ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
                              JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.ord),
                        CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'a' THEN 'NO ACTION' ELSE c.confdeltype::text END
                     FROM pg_constraint c JOIN pg_class f ON f.oid = c.confrelid
                     WHERE c.contype = 'f' AND c.conrelid = $1::text::regclass"
                ),
                &[&name],
            )
            .unwrap()
            .iter()
            .map(|row| {
                let (from, to): (Vec<String>, Vec<String>) = (row.get(0), row.get(2));
                assert_eq!((from.len(), to.len()), (1, 1), "{name}: only single-column foreign keys are compared");
                (from[0].clone(), row.get(1), to[0].clone(), row.get(3))
            })
            .collect();
        let unique = client
            .query(
                &format!("SELECT {constraint_columns} FROM pg_constraint c WHERE c.contype = 'u' AND c.conrelid = $1::text::regclass"),
                &[&name],
            )
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        let indexes = client
            .query(
                "SELECT i.relname::text,
                    ARRAY(SELECT coalesce(a.attname::text, $2) FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(num, ord)
                          LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.num ORDER BY k.ord),
                    x.indisunique, x.indpred IS NOT NULL
                 FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                 WHERE x.indrelid = $1::text::regclass
                   AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)",
                &[&name, &EXPRESSION],
            )
            .unwrap()
            .iter()
            .map(|row| (row.get(0), (row.get(1), row.get(2), row.get(3))))
            .collect();
        schema.insert(name, Table { is_view, columns, foreign_keys, unique, indexes });
    }
    schema
}

/// What differs between the two schemas, one line per difference; empty when they agree.
fn differences(sqlite: &Schema, postgres: &Schema) -> Vec<String> {
    let mut found = Vec::new();
    for name in sqlite.keys().chain(postgres.keys()).collect::<BTreeSet<_>>() {
        let (Some(s), Some(p)) = (sqlite.get(name), postgres.get(name)) else {
            let side = if sqlite.contains_key(name) { "SQLite" } else { "PostgreSQL" };
            found.push(format!("{name}: only in {side}"));
            continue;
        };
        if s.is_view != p.is_view {
            found.push(format!("{name}: a view on one side only"));
        }
        let names = |t: &Table| t.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        if names(s) != names(p) {
            found.push(format!("{name}: columns {:?} in SQLite, {:?} in PostgreSQL", names(s), names(p)));
        }
        for sc in &s.columns {
            if let Some(pc) = p.columns.iter().find(|pc| pc.name == sc.name)
                && sc != pc
            {
                found.push(format!("{name}.{}: {sc:?} in SQLite, {pc:?} in PostgreSQL", sc.name));
            }
        }
        for (what, s, p) in [
            ("foreign keys", format!("{:?}", s.foreign_keys), format!("{:?}", p.foreign_keys)),
            ("unique constraints", format!("{:?}", s.unique), format!("{:?}", p.unique)),
            ("indexes", format!("{:?}", s.indexes), format!("{:?}", p.indexes)),
        ] {
            if s != p {
                found.push(format!("{name}: {what} {s} in SQLite, {p} in PostgreSQL"));
            }
        }
    }
    found
}

fn sqlite_migrated() -> Connection {
    let mut conn = Connection::open_in_memory().unwrap();
    store::migrate(&mut conn).unwrap();
    conn
}

fn postgres_migrated(server: &PgServer) -> (pg_harness::TestDatabase<'_>, Client) {
    let database = server.create_database().unwrap();
    let mut client = database.connect().unwrap();
    assert_eq!(migrate(&mut client).unwrap(), PG_MIGRATIONS.len());
    (database, client)
}

fn server() -> &'static PgServer {
    PgServer::shared().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_two_schemas_agree_column_by_column() {
    let (_database, mut client) = postgres_migrated(server());
    let (sqlite, postgres) = (sqlite_schema(&sqlite_migrated()), postgres_schema(&mut client));
    assert!(sqlite.len() >= 25, "every table was read: {:?}", sqlite.keys());
    assert!(sqlite["games"].columns.len() >= 25 && sqlite["ladder_members"].is_view);
    assert!(sqlite["players"].columns[0].auto && !sqlite["player_prefs"].columns[0].auto);
    let found = differences(&sqlite, &postgres);
    assert!(found.is_empty(), "the schemas differ:\n{}", found.join("\n"));
    // Each side has as many migrations: a version added to one side only is a version missing
    // on the other.
    let sqlite_version: usize = sqlite_migrated().query_row("PRAGMA user_version", (), |row| row.get(0)).unwrap();
    assert_eq!(sqlite_version, PG_MIGRATIONS.len());
}

#[test]
fn a_change_on_one_side_only_is_caught() {
    let (_database, mut client) = postgres_migrated(server());
    let postgres = postgres_schema(&mut client);

    // SQLite-only changes.
    for (change, expected) in [
        ("ALTER TABLE games ADD COLUMN extra TEXT", "games: columns"),
        ("CREATE TABLE extra (id INTEGER PRIMARY KEY)", "extra: only in SQLite"),
        ("CREATE INDEX games_extra ON games(variant)", "games: indexes"),
    ] {
        let sqlite = sqlite_migrated();
        sqlite.execute_batch(change).unwrap();
        let found = differences(&sqlite_schema(&sqlite), &postgres);
        assert!(found.iter().any(|line| line.starts_with(expected)), "{change}: {found:?}");
    }

    // PostgreSQL-only changes, each rolled back (PostgreSQL's DDL is transactional).
    let sqlite = sqlite_schema(&sqlite_migrated());
    for (change, expected) in [
        ("ALTER TABLE players ALTER COLUMN name DROP NOT NULL", "players.name:"),
        (
            "ALTER TABLE outbox_waiting ALTER COLUMN chat_key TYPE BYTEA USING chat_key::bytea",
            "outbox_waiting.chat_key:",
        ),
        (
            "ALTER TABLE offers DROP CONSTRAINT offers_pkey; ALTER TABLE offers ADD PRIMARY KEY (game_id)",
            "offers.kind:",
        ),
        ("ALTER TABLE games ALTER COLUMN id DROP IDENTITY", "games.id:"),
        ("ALTER TABLE outbox_rows ALTER COLUMN state SET DEFAULT 'sent'", "outbox_rows.state:"),
        ("ALTER TABLE game_moves DROP CONSTRAINT game_moves_game_id_fkey", "game_moves: foreign keys"),
        ("ALTER TABLE ladders DROP CONSTRAINT ladders_platform_community_id_variant_key", "ladders: unique"),
        ("CREATE TABLE extra (id BIGINT)", "extra: only in PostgreSQL"),
    ] {
        let mut transaction = client.transaction().unwrap();
        transaction.batch_execute(change).unwrap();
        let found = differences(&sqlite, &postgres_schema(&mut transaction));
        assert!(found.iter().any(|line| line.starts_with(expected)), "{change}: {found:?}");
        transaction.rollback().unwrap();
    }
    assert!(differences(&sqlite, &postgres_schema(&mut client)).is_empty(), "every change was rolled back");
}

#[test]
fn migrations_apply_once_even_from_several_processes_at_once() {
    let server = server();
    let database = server.create_database().unwrap();
    // Four connections migrate the empty database together: the advisory lock lets one apply
    // every migration and the others find nothing left.
    let applied: usize = thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                let mut client = database.connect().unwrap();
                scope.spawn(move || migrate(&mut client).unwrap())
            })
            .collect();
        workers.into_iter().map(|worker| worker.join().unwrap()).sum()
    });
    assert_eq!(applied, PG_MIGRATIONS.len());
    let pool = open_pool(&database.url(), 2).unwrap();
    let mut client = pool.get().unwrap();
    assert_eq!(migrate(&mut client).unwrap(), 0, "a migrated database needs nothing");
    let recorded: i64 = client.query_one(&format!("SELECT count(*) FROM {HISTORY_TABLE}"), &[]).unwrap().get(0);
    assert_eq!(recorded, PG_MIGRATIONS.len() as i64);
}

#[test]
fn the_postgres_schema_numbers_rows_and_keeps_its_checks() {
    let (_database, mut client) = postgres_migrated(server());
    let ids: Vec<i64> = (0..2)
        .map(|_| {
            client.query_one("INSERT INTO players (name, created_at) VALUES ('p', 0) RETURNING id", &[]).unwrap().get(0)
        })
        .collect();
    assert_eq!(ids, [1, 2]);
    let bad_flag = client.execute("INSERT INTO players (name, is_ai, created_at) VALUES ('q', 2, 0)", &[]);
    assert!(bad_flag.is_err(), "is_ai is 0 or 1");
    let unknown_player = client.execute("INSERT INTO accounts VALUES ('discord', '1', 99)", &[]);
    assert!(unknown_player.is_err(), "accounts reference players");
    let members: i64 = client.query_one("SELECT count(*) FROM ladder_members", &[]).unwrap().get(0);
    assert_eq!(members, 0);
}

/// A game's values are checked by their types (migration 40), not by constraints of `games`, which
/// PostgreSQL prepared again at every statement writing the table (a move's included): the table has
/// no CHECK of its own, and every value the nine constraints refused is still refused, by an insert
/// and by an update, while the values they let through still go in.
#[test]
fn a_games_values_are_checked_by_their_types_not_by_the_table() {
    let (_database, mut client) = postgres_migrated(server());
    for table in ["games", "outbox_rows", "game_moves"] {
        let own_checks: i64 = client
            .query_one(
                "SELECT count(*) FROM pg_constraint WHERE conrelid = $1::text::regclass AND contype = 'c'",
                &[&table],
            )
            .unwrap()
            .get(0);
        assert_eq!(own_checks, 0, "the checks of {table}'s values are its columns' types");
    }
    let player: i64 =
        client.query_one("INSERT INTO players (name, created_at) VALUES ('p', 0) RETURNING id", &[]).unwrap().get(0);
    let insert = |client: &mut Client, column: &str, value: &str| {
        let (status, active) = if column == "status" { ("", "") } else { ("status, ", "'active', ") };
        client.execute(
            &format!(
                "INSERT INTO games (platform, chat_id, variant, start_fen, white_id, black_id, {status}fen, created_at,
                   updated_at, {column}) VALUES ('console', 'c', 'chess', 'f', $1, $1, {active}'f', 0, 0, {value})"
            ),
            &[&player],
        )
    };
    let refused = [
        ("status", "'won'"),
        ("result", "'2-0'"),
        ("ai_level", "0"),
        ("ai_level", "9"),
        ("days_per_move", "4"),
        ("ply", "-1"),
        ("white_swap", "12"),
        ("black_swap", "-1"),
        ("rated", "2"),
        ("interaction_only", "-1"),
    ];
    for (column, value) in refused {
        assert!(insert(&mut client, column, value).is_err(), "{column} = {value} inserted");
    }
    let accepted = [
        ("status", "'setup'"),
        ("result", "'1/2-1/2'"),
        ("result", "NULL"),
        ("ai_level", "8"),
        ("days_per_move", "14"),
        ("ply", "0"),
        ("white_swap", "11"),
        ("black_swap", "0"),
        ("rated", "1"),
        ("interaction_only", "0"),
    ];
    for (column, value) in accepted {
        assert_eq!(insert(&mut client, column, value).unwrap(), 1, "{column} = {value}");
    }
    for (column, value) in refused {
        let update = client.execute(&format!("UPDATE games SET {column} = {value}"), &[]);
        assert!(update.is_err(), "{column} = {value} set by an update");
    }
    let moved = client.execute("UPDATE games SET ply = ply + 1 WHERE status = 'active'", &[]).unwrap();
    assert_eq!(moved, 9, "the moves of the games in play");
    // The two other tables, through their views as the store reads them.
    let game: i64 = client.query_one("SELECT min(id) FROM games", &[]).unwrap().get(0);
    let moves = |client: &mut Client, bytes: &[u8]| {
        client.execute("INSERT INTO game_moves (game_id, moves, times) VALUES ($1, $2::bytea, '')", &[&game, &bytes])
    };
    assert!(moves(&mut client, &[10]).is_err(), "a move is two bytes at least");
    assert_eq!(moves(&mut client, &[10, 20]).unwrap(), 1);
    let uci: String = client.query_one("SELECT uci FROM moves WHERE game_id = $1", &[&game]).unwrap().get(0);
    assert_eq!(uci, "a2a3");
    let row = |client: &mut Client, state: &str| {
        client.execute(
            "INSERT INTO outbox_rows (platform, chat_key, reply, created_at, next_attempt_at, state)
             VALUES ('console', 'c', '{}', 0, 0, $1::text)",
            &[&state],
        )
    };
    assert!(row(&mut client, "lost").is_err(), "an outbox row's state is one of three");
    assert_eq!(row(&mut client, "pending").unwrap(), 1);
    let state: String = client.query_one("SELECT state FROM outbox", &[]).unwrap().get(0);
    assert_eq!(state, "pending");
}

/// A statement that hangs (here `pg_sleep`; in life a lock never released or a stalled server
/// backend) is cancelled by the pool's `statement_timeout` and fails as an error, and the
/// connection goes on serving; migrations, which may wait for another process, are exempt.
/// (Before: the pool's connections had no statement timeout, and a hung query held its connection
/// and its caller for ever.)
#[test]
fn a_hung_query_times_out_and_the_connection_serves_on() {
    let database = server().create_database().unwrap();
    let timeouts = Timeouts { statement: std::time::Duration::from_millis(500), ..Timeouts::default() };
    let pool = open_pool_with(&database.url(), 1, timeouts).unwrap();
    let mut client = pool.get().unwrap();
    let started = std::time::Instant::now();
    let error = client.batch_execute("SELECT pg_sleep(30)").unwrap_err();
    let waited = started.elapsed();
    assert_eq!(error.code(), Some(&pg_harness::postgres::error::SqlState::QUERY_CANCELED), "{error}");
    assert!(waited < std::time::Duration::from_secs(5), "cancelled after {waited:?}");
    let one: i32 = client.query_one("SELECT 1", &[]).unwrap().get(0);
    assert_eq!(one, 1);
    let shown: String = client.query_one("SHOW statement_timeout", &[]).unwrap().get(0);
    assert_eq!(shown, "500ms", "migrations left the session's timeout as it was");
}

/// A pool's connection over TCP probes a silent network after
/// [`capabot::store::postgres::KEEPALIVE_IDLE`] (30 s), so a database whose host is gone or cut
/// off ends the connection with an error within about a minute instead of holding the unit of
/// work's thread and connection. Read from the kernel's own table of sockets (`ss`), whose
/// keepalive timer counts down from the idle time. (Before: the operating system's two hours,
/// `timer:(keepalive,119min,0)`.)
#[test]
fn a_pool_connection_probes_a_silent_network() {
    let database = server().create_database().unwrap();
    let pool = open_pool(&database.url(), 1).unwrap();
    let held = pool.get().unwrap();
    let out = std::process::Command::new("ss")
        .args(["-tnoH", "state", "established", "dport", "=", &format!(":{}", server().port())])
        .output()
        .expect("ss (iproute2) runs");
    let table = String::from_utf8_lossy(&out.stdout);
    // `timer:(keepalive,29sec,0)`: the seconds (or less) left before the first probe.
    let probes_within = |line: &str| -> Option<u64> {
        let timer = line.split("timer:(keepalive,").nth(1)?.split(',').next()?;
        if let Some(ms) = timer.strip_suffix("ms") {
            return ms.parse::<u64>().ok().map(|_| 0);
        }
        timer.strip_suffix("sec")?.parse().ok()
    };
    let idle = capabot::store::postgres::KEEPALIVE_IDLE.as_secs();
    assert!(table.lines().filter_map(probes_within).any(|s| s <= idle), "no socket probing within {idle} s:\n{table}");
    drop(held);
}

/// The columns an `UPDATE … SET a = …, b = … WHERE …` sets, by name.
fn columns_set(update: &str) -> Vec<String> {
    let set = update.split_once(" SET ").expect("an UPDATE").1;
    let set = set.split_once(" WHERE ").map_or(set, |(set, _)| set);
    set.split(',').map(|part| part.split('=').next().unwrap().trim().to_string()).collect()
}

/// Whether `text` names `column` as a word of its own (`fen`, not `start_fen`).
fn names_column(text: &str, column: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(column).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(word) && !text[at + column.len()..].chars().next().is_some_and(word)
    })
}

#[test]
fn a_move_sets_no_column_an_index_of_games_names() {
    // PostgreSQL writes an update as a heap-only tuple (no index entry added, nothing for other
    // SERIALIZABLE units' index reads to conflict on) only when none of the columns it changes is
    // named by any index of the table: in a key, an expression or a partial index's condition.
    let set = columns_set(store::games::MOVE_UPDATE);
    assert_eq!(set, ["ply", "fen", "deadline", "remind_at", "updated_at", "paused"]);
    let (_database, mut client) = postgres_migrated(server());
    let indexes: Vec<(String, String)> = client
        .query(
            "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index
             WHERE indrelid = 'games'::regclass ORDER BY 1",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    assert!(indexes.len() >= 10, "every index was read: {indexes:?}");
    assert!(indexes.iter().any(|(name, def)| name == "games_community_done" && names_column(def, "ended_at")));
    for (name, definition) in &indexes {
        for column in &set {
            assert!(!names_column(definition, column), "{name} names {column}, which a move sets: {definition}");
        }
    }
    // SQLite's indexes are the same (the schemas agree), and a move leaves them alone too.
    let sqlite = sqlite_migrated();
    let mut st =
        sqlite.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'games'").unwrap();
    let sqlite_indexes: Vec<(String, Option<String>)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    assert!(sqlite_indexes.len() >= 9, "{sqlite_indexes:?}");
    for (name, definition) in sqlite_indexes {
        for column in &set {
            let definition = definition.as_deref().unwrap_or_default();
            assert!(!names_column(definition, column), "{name} names {column}, which a move sets: {definition}");
        }
    }
    assert!(names_column("x (a, fen)", "fen") && !names_column("x (start_fen)", "fen"));
}
