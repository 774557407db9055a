//! `capabot migrate`: the whole database copied into an empty PostgreSQL database in one
//! transaction — every table of the schema in the order of its foreign keys, the identity columns
//! moved past the copied ids, the row counts compared — and every game replayed through the rules
//! (by the caller's check) before the commit. A target with any row is refused, so a second run
//! changes nothing.
//!
//! The tables and their columns are read from the target's catalogue, so a table added by a later
//! migration is copied without a change here (`tests/pg/schema.rs` keeps the two schemas equal).
//! Each table is read row by row as it is written into the target (`Connection::for_each_row`), a
//! few hundred rows to a multi-row `INSERT` ([`VALUES_A_BATCH`] values), so the copy's memory does
//! not grow with the database (a million games' tables are gigabytes) and a batch costs one round
//! trip, with its progress told every [`PROGRESS_EVERY`] rows; the games are replayed a run of
//! [`REPLAY_BATCH`] at a time (`docs/scale.md`, "`capabot migrate` in batches").

use super::sql::{Connection, Dialect, params};
use super::{Result, Store, StoreError};

/// What a copy did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Every table with the rows copied into it, in the order copied.
    pub tables: Vec<(String, usize)>,
    /// Games replayed through the rules.
    pub games: usize,
}

/// Copies `from` into the empty PostgreSQL store `to` in one transaction; `replay(game_ids)` is
/// called for every copied game inside that transaction (on `to`'s unit of work), with runs of
/// [`REPLAY_BATCH`] ids in order, and the first game it names as not replaying aborts the copy.
pub fn copy(from: &Store, to: &Store, replay: impl Fn(&[i64]) -> ReplayResult) -> Result<CopyReport> {
    copy_reporting(from, to, replay, &|_| {})
}

/// [`copy`], telling `progress` what it is doing as it goes: each table before and after it is
/// copied, and the games replayed every ten thousand.
pub fn copy_reporting(
    from: &Store,
    to: &Store,
    replay: impl Fn(&[i64]) -> ReplayResult,
    progress: &dyn Fn(&str),
) -> Result<CopyReport> {
    if to.dialect() != Dialect::Postgres {
        return Err(refused("the target must be a PostgreSQL database (a postgres:// URL)"));
    }
    let unit = to.begin_unit()?;
    let target = to.conn()?;
    let source = from.conn()?;
    let tables = tables_in_order(&target)?;
    for table in &tables {
        let rows: i64 = target.query_row(&format!("SELECT count(*) FROM {table}"), (), |r| r.get(0))?;
        if rows > 0 {
            return Err(refused(&format!("the target is not empty: {table} has {rows} rows")));
        }
    }
    let mut report = CopyReport::default();
    for table in &tables {
        progress(&format!("copying {table}…"));
        let columns = columns_of(&target, table)?;
        let list = columns.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(", ");
        let total: i64 = source.query_row(&format!("SELECT count(*) FROM {table}"), (), |r| r.get(0))?;
        let (started, mut rows) = (std::time::Instant::now(), 0usize);
        let batch = batch_rows(columns.len());
        let mut pending: Vec<super::sql::Column<'static>> = Vec::with_capacity(batch * columns.len());
        let mut failed = None;
        // The rows read, written `batch` at a time, the last few as they come: one statement and
        // round trip a batch instead of one a row.
        let write = |pending: &mut Vec<super::sql::Column<'static>>| -> std::result::Result<(), StoreError> {
            let n = pending.len() / columns.len().max(1);
            if n == 0 {
                return Ok(());
            }
            let insert = format!("INSERT INTO {table} ({list}) VALUES {}", super::sql::values_rows(n, columns.len()));
            let values: Vec<_> = pending.iter().map(super::sql::ToSql::to_value).collect();
            target.execute(&insert, values).map_err(|e| StoreError::Corrupt(format!("copying {table}: {e}")))?;
            pending.clear();
            Ok(())
        };
        source
            .for_each_row(&format!("SELECT {list} FROM {table}"), (), |r| {
                for (i, (column, _)) in columns.iter().enumerate() {
                    let value = r.column(i)?.into_owned();
                    // PostgreSQL keeps a reply as text; SQLite may keep it deflated.
                    pending.push(if table == "outbox_rows" && column == "reply" {
                        super::sql::Column::Text(super::outbox::reply_text(value, i)?.into())
                    } else {
                        value
                    });
                }
                rows += 1;
                if pending.len() >= batch * columns.len()
                    && let Err(e) = write(&mut pending)
                {
                    failed = Some(e);
                    return Err(super::sql::Error::NoRows);
                }
                if rows.is_multiple_of(PROGRESS_EVERY) {
                    let rate = rows as f64 / started.elapsed().as_secs_f64().max(1e-9);
                    progress(&format!("copying {table}: {rows} of {total} rows ({rate:.0} a second)"));
                }
                Ok(())
            })
            .map_err(|e| failed.take().unwrap_or(StoreError::Db(e)))?;
        write(&mut pending)?;
        for (column, _) in columns.iter().filter(|(_, identity)| *identity) {
            // The next id handed out comes after the copied ones.
            target.query_row(
                &format!(
                    "SELECT setval(pg_get_serial_sequence(?1, ?2), coalesce(max({column}), 0) + 1, false) FROM {table}"
                ),
                params![table, column],
                |r| r.get::<i64>(0),
            )?;
        }
        let copied: i64 = target.query_row(&format!("SELECT count(*) FROM {table}"), (), |r| r.get(0))?;
        if copied != rows as i64 {
            return Err(StoreError::Corrupt(format!("{table}: {rows} rows read, {copied} in the target")));
        }
        progress(&format!("copied {table}: {rows} rows in {:.1} s", started.elapsed().as_secs_f64()));
        report.tables.push((table.clone(), rows));
    }
    let games: Vec<i64> = target.query_all("SELECT id FROM games ORDER BY id", (), |r| r.get(0))?;
    let mut replayed = 0;
    for run in games.chunks(REPLAY_BATCH) {
        replay(run).map_err(|(id, e)| StoreError::Corrupt(format!("game {id} does not replay: {e}")))?;
        replayed += run.len();
        if replayed.is_multiple_of(10_000) || replayed == games.len() {
            progress(&format!("replayed {replayed} of {} games", games.len()));
        }
    }
    report.games = games.len();
    // The statistics the planner chooses its indexes by, gathered before the bot's first input
    // rather than by autovacuum a minute or more later: without them PostgreSQL read a chat's
    // games through another index led by the platform, every game in play for each input, and
    // SERIALIZABLE failed units of different games on the pages those reads locked
    // (`docs/load.md`, "A move in play's time on PostgreSQL").
    progress("gathering the tables' statistics (ANALYZE)");
    target.execute_batch("ANALYZE")?;
    drop(source);
    drop(target);
    unit.commit()?;
    Ok(report)
}

/// Rows between two progress lines while a table is copied.
pub const PROGRESS_EVERY: usize = 100_000;

/// Games a call of the copy's replay checks (read in one statement: one round trip a thousand
/// games instead of several a game).
pub const REPLAY_BATCH: usize = 1_000;

/// What the copy's replay says of a run of games: all replay, or the first that does not, with why.
pub type ReplayResult = std::result::Result<(), (i64, String)>;

/// Values one `INSERT` of the copy carries at most (PostgreSQL takes up to 65,535 parameters a
/// statement; a batch of a few thousand values costs one round trip where a row each cost many).
const VALUES_A_BATCH: usize = 4_000;

/// Rows one `INSERT` of a table of `width` columns carries (at least one).
fn batch_rows(width: usize) -> usize {
    (VALUES_A_BATCH / width.max(1)).max(1)
}

fn refused(why: &str) -> StoreError {
    StoreError::Refused(why.to_owned())
}

/// The schema's tables (not the migrations' history), each after the tables it refers to.
fn tables_in_order(conn: &Connection) -> Result<Vec<String>> {
    let mut left: Vec<String> = conn.query_all(
        "SELECT table_name::text FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> ?1 ORDER BY 1",
        [super::postgres::HISTORY_TABLE],
        |r| r.get(0),
    )?;
    let references: Vec<(String, String)> = conn.query_all(
        "SELECT DISTINCT tc.table_name::text, ccu.table_name::text FROM information_schema.table_constraints tc
         JOIN information_schema.constraint_column_usage ccu
           ON ccu.constraint_schema = tc.constraint_schema AND ccu.constraint_name = tc.constraint_name
         WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()",
        (),
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut ordered = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let ready = left.iter().position(|t| {
            references.iter().all(|(from, to)| from != t || to == t || ordered.contains(to) || !left.contains(to))
        });
        let Some(i) = ready else {
            return Err(StoreError::Corrupt(format!("foreign keys in a cycle among {}", left.join(", "))));
        };
        ordered.push(left.remove(i));
    }
    Ok(ordered)
}

/// A table's columns in order, each with whether it is an identity column.
fn columns_of(conn: &Connection, table: &str) -> Result<Vec<(String, bool)>> {
    Ok(conn.query_all(
        "SELECT column_name::text, is_identity::text FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ?1 ORDER BY ordinal_position",
        [table],
        |r| Ok((r.get(0)?, r.get::<String>(1)? == "YES")),
    )?)
}
