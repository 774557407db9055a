//! The schema's migrations on SQLite, applied by `refinery` as PostgreSQL's are (`store::postgres`):
//! the same names (`V<n>__<name>`), checksums and history table (`refinery_schema_history`), so one
//! runner verifies both backends' histories and refuses a database whose applied migrations were
//! edited or are unknown.
//!
//! Every migration still to apply runs in one write transaction taken before the history is read
//! (`BEGIN IMMEDIATE`), with the history's rows, the code a migration runs after its SQL (15:
//! [`games::migrate_moves`](super::games::migrate_moves), 21:
//! [`games::migrate_binary_moves`](super::games::migrate_binary_moves)) and SQLite's `user_version`: all of it
//! or none lands, and a second process opening the database meanwhile waits for the lock (the
//! store's busy handler, [`super::BUSY_TIMEOUT`]), then finds every migration recorded and applies
//! nothing. That is why the store speaks to refinery through its own small driver ([`History`])
//! rather than refinery's `rusqlite` one, which opens a transaction of its own for each migration
//! and for each reading of the history (SQLite's transactions do not nest) and panics on a history
//! row it cannot parse.
//!
//! Databases migrated before refinery (by `rusqlite_migration`, up to version 18) kept their version
//! in `user_version` alone. The first time such a database is opened, its migrations 1 to
//! `user_version` are recorded as applied, with the names and checksums refinery gives the same
//! files, in the same transaction as the migrations that follow: nothing is run twice.
//! `user_version` is kept at the schema's version, so a capabot from before refinery still refuses a
//! database that a newer one migrated further.

use refinery_core::traits::sync::{Migrate, Query, Transaction};
use refinery_core::{Migration, Runner, Target};

use super::{Result, StoreError};

/// The table in which refinery records the applied migrations (on both backends).
pub const HISTORY_TABLE: &str = "refinery_schema_history";

/// One SQLite migration: refinery's name for it (`V<n>__<name>`, the `000<n>_<name>.sql` it comes
/// from, as on PostgreSQL), its SQL, and code to run after the SQL in the same transaction.
#[derive(Clone, Copy)]
pub struct SqliteMigration {
    pub name: &'static str,
    pub sql: &'static str,
    pub then: Option<fn(&rusqlite::Connection) -> rusqlite::Result<()>>,
}

const fn sql(name: &'static str, sql: &'static str) -> SqliteMigration {
    SqliteMigration { name, sql, then: None }
}

/// The schema migrations, in order, versions 1, 2, …: never edit a released file (its checksum is
/// in every database's history); add a new one, on both sides.
pub const MIGRATIONS: &[SqliteMigration] = &[
    sql("V1__initial", include_str!("../../migrations/0001_initial.sql")),
    sql("V2__communities", include_str!("../../migrations/0002_communities.sql")),
    sql("V3__community", include_str!("../../migrations/0003_community.sql")),
    sql("V4__rated_games", include_str!("../../migrations/0004_rated_games.sql")),
    sql("V5__ladder_chat", include_str!("../../migrations/0005_ladder_chat.sql")),
    sql("V6__tournament_chat", include_str!("../../migrations/0006_tournament_chat.sql")),
    sql("V7__gif_at_end", include_str!("../../migrations/0007_gif_at_end.sql")),
    sql("V8__outbox", include_str!("../../migrations/0008_outbox.sql")),
    sql("V9__secret_bombs", include_str!("../../migrations/0009_secret_bombs.sql")),
    sql("V10__languages", include_str!("../../migrations/0010_languages.sql")),
    sql("V11__outbox_leases", include_str!("../../migrations/0011_outbox_leases.sql")),
    sql("V12__scheduler_items", include_str!("../../migrations/0012_scheduler_items.sql")),
    sql("V13__analyses", include_str!("../../migrations/0013_analyses.sql")),
    sql("V14__web", include_str!("../../migrations/0014_web.sql")),
    // The SQL renames `moves`; the code copies its rows, one row a game, and drops it.
    SqliteMigration {
        name: "V15__scale",
        sql: include_str!("../../migrations/0015_scale.sql"),
        then: Some(super::games::migrate_moves),
    },
    sql("V16__recent_games", include_str!("../../migrations/0016_recent_games.sql")),
    sql("V17__served_platforms", include_str!("../../migrations/0017_served_platforms.sql")),
    sql("V18__interaction_only", include_str!("../../migrations/0018_interaction_only.sql")),
    sql("V19__outbox_done", include_str!("../../migrations/0019_outbox_done.sql")),
    sql("V20__finished_games", include_str!("../../migrations/0020_finished_games.sql")),
    // The SQL makes `game_moves` again; the code writes each game's moves in bytes, and drops the old table.
    SqliteMigration {
        name: "V21__binary_moves",
        sql: include_str!("../../migrations/0021_binary_moves.sql"),
        then: Some(super::games::migrate_binary_moves),
    },
    sql("V22__binary_web_slug", include_str!("../../migrations/0022_binary_web_slug.sql")),
    sql("V23__small_integers", include_str!("../../migrations/0023_small_integers.sql")),
    sql("V24__leases_without_rowid", include_str!("../../migrations/0024_leases_without_rowid.sql")),
    sql("V25__games_due", include_str!("../../migrations/0025_games_due.sql")),
    sql("V26__outbox_ids", include_str!("../../migrations/0026_outbox_ids.sql")),
    sql("V27__recent_finished", include_str!("../../migrations/0027_recent_finished.sql")),
    sql("V28__outbox_room", include_str!("../../migrations/0028_outbox_room.sql")),
    sql("V29__theme", include_str!("../../migrations/0029_theme.sql")),
    sql("V30__player_theme", include_str!("../../migrations/0030_player_theme.sql")),
    sql("V31__claims_without_age_index", include_str!("../../migrations/0031_claims_without_age_index.sql")),
    sql("V32__sweeps", include_str!("../../migrations/0032_sweeps.sql")),
    sql("V33__community_tournaments", include_str!("../../migrations/0033_community_tournaments.sql")),
    sql("V34__ladder_standings_kept", include_str!("../../migrations/0034_ladder_standings_kept.sql")),
    sql("V35__offers_declined", include_str!("../../migrations/0035_offers_declined.sql")),
    sql("V36__tournament_withdrawals", include_str!("../../migrations/0036_tournament_withdrawals.sql")),
    sql("V37__setup_clock", include_str!("../../migrations/0037_setup_clock.sql")),
    sql("V38__delivery_marks", include_str!("../../migrations/0038_delivery_marks.sql")),
    sql("V39__due_from", include_str!("../../migrations/0039_due_from.sql")),
    sql("V40__game_domains", include_str!("../../migrations/0040_game_domains.sql")),
    sql("V41__ended_at", include_str!("../../migrations/0041_ended_at.sql")),
];

/// Brings the database on `conn` to the latest schema ([`MIGRATIONS`]) and returns how many
/// migrations it applied.
pub fn migrate(conn: &mut rusqlite::Connection) -> Result<usize> {
    migrate_with(conn, MIGRATIONS)
}

/// What a database from a newer capabot is told: the schema's version and this binary's latest.
pub(crate) fn newer_schema(found: i64, known: usize) -> String {
    format!(
        "the database's schema is at version {found}, written by a newer capabot; this one knows versions up to \
         {known} and does not open it: run the newer capabot again, or restore the backup taken before the upgrade"
    )
}

/// [`migrate`] with `migrations` (versions 1 to their number, in order).
pub(crate) fn migrate_with(conn: &mut rusqlite::Connection, migrations: &[SqliteMigration]) -> Result<usize> {
    let known = migrations.len();
    let all: Vec<Migration> =
        migrations.iter().map(|m| Migration::unapplied(m.name, m.sql)).collect::<std::result::Result<_, _>>()?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let recorded = recorded_version(&tx)?;
    let before_refinery: i64 = tx.query_row("PRAGMA user_version", (), |r| r.get(0))?;
    let version = recorded.unwrap_or(before_refinery);
    if version > known as i64 {
        return Err(StoreError::Refused(newer_schema(version, known)));
    }
    let mut history = History(&tx);
    if recorded.is_none() && before_refinery > 0 {
        // Migrated before refinery: its migrations recorded as applied, none of them run.
        let fake = Target::FakeVersion(before_refinery as refinery_core::SchemaVersion);
        Runner::new(&all).set_target(fake).run(&mut history)?;
    }
    let mut applied = 0;
    // Up to each migration with code, which runs right after it when it was applied now; then the rest.
    for (m, r) in migrations.iter().zip(&all) {
        let Some(then) = m.then else { continue };
        let report = Runner::new(&all).set_target(Target::Version(r.version())).run(&mut history)?;
        applied += report.applied_migrations().len();
        if report.applied_migrations().iter().any(|a| a.version() == r.version()) {
            then(&tx)?;
        }
    }
    applied += Runner::new(&all).run(&mut history)?.applied_migrations().len();
    // What a capabot from before refinery reads: it refuses a version above its own latest. (Left
    // alone when it is right: a transaction that writes nothing leaves the database as it was.)
    if before_refinery != known as i64 {
        tx.pragma_update(None, "user_version", known as i64)?;
    }
    tx.commit()?;
    Ok(applied)
}

/// The latest version in refinery's history; `None` when there is none (a new database, or one
/// migrated before refinery).
fn recorded_version(conn: &rusqlite::Connection) -> Result<Option<i64>> {
    let exists: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
        [HISTORY_TABLE],
        |r| r.get(0),
    )?;
    if !exists {
        return Ok(None);
    }
    Ok(conn.query_row(&format!("SELECT max(version) FROM {HISTORY_TABLE}"), (), |r| r.get(0))?)
}

/// refinery's driver for the store: every statement on one connection inside the transaction
/// [`migrate_with`] holds, none opening a transaction of its own.
struct History<'c>(&'c rusqlite::Connection);

impl Transaction for History<'_> {
    type Error = rusqlite::Error;

    fn execute<'a, T: Iterator<Item = &'a str>>(&mut self, queries: T) -> rusqlite::Result<usize> {
        let mut count = 0;
        for query in queries {
            self.0.execute_batch(query)?;
            count += 1;
        }
        Ok(count)
    }
}

impl Query<Vec<Migration>> for History<'_> {
    fn query(&mut self, query: &str) -> rusqlite::Result<Vec<Migration>> {
        let bad = |column: usize, what: String| {
            rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, what.into())
        };
        let mut statement = self.0.prepare(query)?;
        let mut rows = statement.query(())?;
        let mut applied = Vec::new();
        while let Some(row) = rows.next()? {
            let (version, name, on, checksum): (refinery_core::SchemaVersion, String, String, String) =
                (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
            let on = time::OffsetDateTime::parse(&on, &time::format_description::well_known::Rfc3339)
                .map_err(|e| bad(2, format!("migration {version}'s applied_on {on:?}: {e}")))?;
            let checksum = checksum
                .parse::<u64>()
                .map_err(|e| bad(3, format!("migration {version}'s checksum {checksum:?}: {e}")))?;
            applied.push(Migration::applied(version, name, on, checksum));
        }
        Ok(applied)
    }
}

impl Migrate for History<'_> {}

/// Migrations 1 to `version` applied as `rusqlite_migration` applied them before refinery: their
/// SQL and code in one transaction, the version in `user_version`, no history table.
#[cfg(test)]
pub(crate) fn as_the_runner_before_refinery_left_it(conn: &mut rusqlite::Connection, version: usize) {
    let tx = conn.transaction().expect("a transaction");
    for m in &MIGRATIONS[..version] {
        tx.execute_batch(m.sql).expect("the migration's SQL");
        if let Some(then) = m.then {
            then(&tx).expect("the migration's code");
        }
    }
    tx.pragma_update(None, "user_version", version as i64).expect("user_version");
    tx.commit().expect("a commit");
}

#[cfg(test)]
mod tests;
