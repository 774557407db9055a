//! `capabot migrate` from a played SQLite database into an empty PostgreSQL database.

/// The database of a community's week (a ladder with a game, ratings, a finished tournament, a
/// game with moves), played in the console on SQLite and copied by `capabot migrate` into an
/// empty PostgreSQL database: every table's rows arrive, every game replays, the copy serves the
/// next game with the next number, and a second run is refused without changing anything.
#[test]
fn capabot_migrate_copies_a_played_database_once() {
    use capabot::store::Store;
    use std::process::Command;

    let bin = env!("CARGO_BIN_EXE_capabot");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("played.db");
    let console = |db: &str, script: &str| {
        let file = dir.path().join("script.txt");
        std::fs::write(&file, script).unwrap();
        let out = Command::new(bin)
            .current_dir(dir.path())
            .args(["console", "--no-pictures", "--no-text-boards", "--script"])
            .arg(&file)
            .args(["--db", db])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let week = console(
        &db.to_string_lossy(),
        "alice> !ladder create chess\nalice> !ladder join\nbob> !ladder join\nbob> !ladder challenge @alice\n\
         alice> !accept\nalice> !resign\n\
         alice> !tournament create roundrobin chess days:7 signup:0 Mini Cup\nalice> !tournament join\n\
         bob> !tournament join\ncarol> !tournament join\nalice> !tournament start\n\
         carol> !move #4 e4\nalice> !move #4 e5\nalice> !resign #4\ncarol> !resign #2\nbob> !resign #3\n",
    );
    assert!(week.contains("Mini Cup is over"), "{week}");

    let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let migrate = || {
        Command::new(bin)
            .current_dir(dir.path())
            .args(["migrate", "--from"])
            .arg(&db)
            .env("CAPABOT_DATABASE_URL", database.url())
            .output()
            .unwrap()
    };
    let out = migrate();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains("row counts equal; 4 games replayed"), "{stdout}");

    // Every table of the SQLite file has its rows in PostgreSQL.
    let source = Store::open(&db).unwrap();
    let target = Store::open_postgres(&database.url(), 2).unwrap();
    let tables: Vec<String> = source
        .conn()
        .unwrap()
        .query_all(
            // The schema's tables: each database keeps its own migrations' history.
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> ?1
             ORDER BY name",
            [capabot::store::HISTORY_TABLE],
            |r| r.get(0),
        )
        .unwrap();
    assert!(tables.len() > 20, "{tables:?}");
    let count = |store: &Store, table: &str| -> i64 {
        store.conn().unwrap().query_row(&format!("SELECT count(*) FROM {table}"), (), |r| r.get(0)).unwrap()
    };
    let counts = |store: &Store| tables.iter().map(|t| (t.clone(), count(store, t))).collect::<Vec<_>>();
    let before = counts(&source);
    assert_eq!(counts(&target), before);
    for table in ["ratings", "rating_history", "ladders", "ladder_events", "tournaments", "tournament_games", "moves"] {
        assert!(count(&target, table) > 0, "{table} is empty: nothing shows it was copied");
    }
    // The copy's statistics are gathered with it (autovacuum analyses a table only after 50
    // changed rows, which these tables do not have).
    let analysed: i64 = target
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM pg_stats WHERE schemaname = 'public' AND tablename = 'games'", (), |r| {
            r.get(0)
        })
        .unwrap();
    assert!(analysed > 10, "the planner has no statistics of the games: {analysed} columns");
    drop(target);

    // The copy is the bot's database now: the next game is #5.
    let next = console(&database.url(), "alice> !challenge @bob chess\nbob> !accept\n");
    assert!(next.contains("Game #5 starts"), "{next}");

    // A second run finds the target in use and changes nothing.
    let target = Store::open_postgres(&database.url(), 2).unwrap();
    let after_game = counts(&target);
    let again = migrate();
    assert!(!again.status.success(), "{again:?}");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("not empty"), "{stderr}");
    assert!(!stderr.contains(&database.url()), "the password is shown: {stderr}");
    assert_eq!(counts(&target), after_game);

    // A file one of whose games does not replay to its stored position (its FEN changed by hand)
    // is refused by the replay before the commit: the new target stays empty.
    let broken = dir.path().join("broken.db");
    std::fs::copy(&db, &broken).unwrap();
    Store::open(&broken)
        .unwrap()
        .conn()
        .unwrap()
        .execute("UPDATE games SET fen = '8/8/8/8/8/8/8/K6k w - - 0 1' WHERE id = 3", ())
        .unwrap();
    let empty = server.create_database().unwrap();
    let out = Command::new(bin)
        .current_dir(dir.path())
        .args(["migrate", "--from"])
        .arg(&broken)
        .env("CAPABOT_DATABASE_URL", empty.url())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("game 3 does not replay"), "{out:?}");
    let empty = Store::open_postgres(&empty.url(), 2).unwrap();
    assert_eq!(count(&empty, "games"), 0, "nothing copied");
}

/// Every value of every table arrives as it was, in copies that take several batches: a database
/// with 2,500 players (an account and a global rating each, a few rows with nothing in their
/// optional columns) and a finished game's moves, copied by `store::copy` into an empty PostgreSQL
/// database, each table's rows compared value by value (as sets: the two sort text differently).
#[test]
fn a_copy_carries_every_value_across_its_batches() {
    use capabot::store::sql::Column;
    use capabot::store::{Store, copy, outbox, players, ratings};

    let dir = tempfile::tempdir().unwrap();
    let source = Store::open(dir.path().join("many.db")).unwrap();
    source
        .unit(|| {
            let c = source.conn()?;
            for i in 0..2_500i64 {
                let p = players::ensure(&c, "discord", &format!("{i}"), &format!("player {i} «ü»"), 1_000 + i)?;
                if i % 7 != 0 {
                    let mut rating = ratings::PlayerRating::new(p.id);
                    rating.rating.rating = 1_400.0 + i as f64 / 3.0;
                    (rating.games, rating.wins, rating.last_game_at) = (3, 3, Some(2_000 + i));
                    ratings::upsert(&c, &ratings::Scope::Global, "chess", &rating)?;
                }
            }
            // Replies waiting in the outbox: SQLite keeps a long one deflated, PostgreSQL as text.
            let board = "10 . . . . . . . . . .\\n".repeat(10);
            for (i, reply) in [format!(r#"{{"text":"a move","text_board":"{board}"}}"#), "{}".into()].iter().enumerate()
            {
                outbox::push(&c, "discord", "c:1", reply, None, 100 + i as i64)?;
            }
            Ok(())
        })
        .unwrap();
    let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let target = Store::open_postgres(&database.url(), 2).unwrap();
    let report = copy::copy(&source, &target, |_| Ok(())).unwrap();
    let replies = |store: &Store| -> Vec<String> {
        outbox::pending_in(&store.conn().unwrap(), "discord", "c:1", 10).unwrap().into_iter().map(|p| p.reply).collect()
    };
    assert_eq!(replies(&target), replies(&source));
    assert!(replies(&target)[0].contains("a move"));
    let copied: usize = report.tables.iter().map(|(_, n)| n).sum();
    assert!(copied >= 5_000, "{report:?}");

    // A row as text, each value by its kind, the same on both backends.
    let dump = |store: &Store, table: &str| -> Vec<String> {
        let c = store.conn().unwrap();
        let mut rows = Vec::new();
        c.for_each_row(&format!("SELECT * FROM {table}"), (), |r| {
            let mut line = String::new();
            for i in 0..r.column_count() {
                // The outbox's reply as its text, however the backend keeps it (its fourth column).
                let column = match r.column(i)? {
                    reply @ Column::Bytes(_) if table == "outbox_rows" && i == 3 => {
                        Column::Text(outbox::reply_text(reply, i)?.into())
                    }
                    column => column,
                };
                line.push_str(&match column {
                    Column::Null => "null".to_string(),
                    Column::I64(n) => n.to_string(),
                    Column::F64(x) => format!("{x:?}"),
                    Column::Text(t) => format!("{t:?}"),
                    Column::Bytes(b) => format!("{b:?}"),
                });
                line.push('|');
            }
            rows.push(line);
            Ok(())
        })
        .unwrap();
        rows.sort();
        rows
    };
    for (table, n) in &report.tables {
        let (from, to) = (dump(&source, table), dump(&target, table));
        assert_eq!(from.len(), *n, "{table}");
        assert_eq!(from, to, "{table}: the values differ");
    }
    for table in ["players", "accounts", "ratings"] {
        assert!(dump(&target, table).len() >= 2_000, "{table}: more rows than one batch holds");
    }
}
