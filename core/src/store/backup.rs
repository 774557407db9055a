//! `capabot backup FILE`: a consistent copy of a SQLite database that may be in use.
//!
//! SQLite's online backup API copies the pages of one database into another. Done in one step it
//! reads the source inside one read transaction, so the copy is the database as of one commit; in
//! WAL mode (the store's journal) a reader never blocks the writer, so the bot keeps committing
//! moves while the copy is made. The copy is written beside the target under a temporary name,
//! checked with `PRAGMA integrity_check`, and only then put in place — linked without replacing
//! an existing file unless the caller allows it, so a half-written or damaged copy never takes a
//! good file's name.

use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};

/// Why a backup was not made. The texts name the files, nothing else.
#[derive(Debug)]
pub enum BackupError {
    /// There is no database at the source path.
    NoSource(PathBuf),
    /// The target exists and overwriting it was not allowed.
    TargetExists(PathBuf),
    /// The target is the source itself.
    SameFile(PathBuf),
    /// The copy failed `PRAGMA integrity_check` (the first lines of its answer).
    CopyDamaged(String),
    Sqlite(rusqlite::Error),
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for BackupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackupError::NoSource(p) => write!(f, "there is no database at {}", p.display()),
            BackupError::TargetExists(p) => {
                write!(f, "{} exists already; choose another name or pass --force to replace it", p.display())
            }
            BackupError::SameFile(p) => {
                write!(f, "{} is the database itself; the copy needs another name", p.display())
            }
            BackupError::CopyDamaged(s) => write!(f, "the copy failed its integrity check: {s}"),
            BackupError::Sqlite(e) => write!(f, "database error: {e}"),
            BackupError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for BackupError {}

impl From<rusqlite::Error> for BackupError {
    fn from(e: rusqlite::Error) -> Self {
        BackupError::Sqlite(e)
    }
}

/// What a finished backup holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    /// Size of the copy in bytes.
    pub bytes: u64,
    /// Pages copied.
    pub pages: i64,
}

/// Copies the database at `source` to `target`, consistently, while other connections (other
/// processes too) read and write the source. Refuses an existing `target` unless `overwrite`.
pub fn backup(source: &Path, target: &Path, overwrite: bool) -> Result<BackupReport, BackupError> {
    backup_reporting(source, target, overwrite, &|_, _| {})
}

/// [`backup`], telling `progress(bytes_written, bytes_in_all)` about once a second while the copy
/// is made (the copy is one step, so what is measured is the size of the file being written).
pub fn backup_reporting(
    source: &Path,
    target: &Path,
    overwrite: bool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<BackupReport, BackupError> {
    if !source.is_file() {
        return Err(BackupError::NoSource(source.to_path_buf()));
    }
    if let (Ok(a), Ok(b)) = (source.canonicalize(), target.canonicalize())
        && a == b
    {
        return Err(BackupError::SameFile(target.to_path_buf()));
    }
    if !overwrite && target.exists() {
        return Err(BackupError::TargetExists(target.to_path_buf()));
    }
    let partial = partial_name(target);
    let result = copy_checked(source, &partial, progress).and_then(|report| {
        put_in_place(&partial, target, overwrite)?;
        Ok(report)
    });
    // Whatever happened, no partial file stays behind (after a success it is gone already).
    let _ = std::fs::remove_file(&partial);
    result
}

/// `FILE.partial-PID` beside `FILE`: same folder, so the final step is a link or a rename.
fn partial_name(target: &Path) -> PathBuf {
    let mut name = target.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "capabot-backup".into());
    name.push(format!(".partial-{}", std::process::id()));
    target.with_file_name(name)
}

fn copy_checked(
    source: &Path,
    partial: &Path,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<BackupReport, BackupError> {
    // Without the store's migrations, and never creating a file: a backup changes nothing in the
    // source. (Read-write only because a WAL database may need its shared-memory file made.)
    let src = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    src.busy_timeout(super::BUSY_TIMEOUT)?;
    let _ = std::fs::remove_file(partial);
    let mut dst = Connection::open(partial)?;
    {
        let copy = rusqlite::backup::Backup::new(&src, &mut dst)?;
        let size: i64 =
            src.query_row("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size", (), |r| r.get(0))?;
        let done = std::sync::atomic::AtomicBool::new(false);
        let stepped = std::thread::scope(|scope| {
            // Watches the copy grow until the step returns (checked every 50 ms, told every second).
            scope.spawn(|| {
                let mut ticks = 0u32;
                while !done.load(std::sync::atomic::Ordering::SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    ticks += 1;
                    if ticks.is_multiple_of(20) {
                        let written = std::fs::metadata(partial).map_or(0, |m| m.len());
                        progress(written, size.max(0) as u64);
                    }
                }
            });
            let stepped = step_all(&copy);
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            stepped
        });
        stepped?;
        progress(size.max(0) as u64, size.max(0) as u64);
    }
    let verdict: Vec<String> = {
        let mut st = dst.prepare("PRAGMA integrity_check")?;
        st.query_map((), |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<_>>()?
    };
    if verdict != ["ok"] {
        return Err(BackupError::CopyDamaged(verdict.into_iter().take(5).collect::<Vec<_>>().join("; ")));
    }
    let pages: i64 = dst.query_row("PRAGMA page_count", (), |r| r.get(0))?;
    // A single self-contained file: fold the copy's own WAL (if any) into it before it is moved.
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    drop(dst);
    let bytes = std::fs::metadata(partial).map_err(|e| BackupError::Io(partial.to_path_buf(), e))?.len();
    Ok(BackupReport { bytes, pages })
}

/// Copies every page in one step (-1), i.e. inside one read transaction of the source: the copy is
/// one commit's state, and a write made meanwhile cannot restart the copy. A step refused for a
/// lock is tried again a bounded number of times.
fn step_all(copy: &rusqlite::backup::Backup<'_, '_>) -> Result<(), BackupError> {
    use rusqlite::backup::StepResult;
    let mut tries = 0;
    loop {
        match copy.step(-1)? {
            StepResult::Done => break,
            StepResult::More | StepResult::Busy | StepResult::Locked if tries < 200 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            _ => {
                return Err(BackupError::Sqlite(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                    Some("the database stayed locked; try again".into()),
                )));
            }
        }
    }
    Ok(())
}

/// Gives the checked copy its name: a hard link never replaces an existing file (so a target that
/// appeared meanwhile is still refused); a rename does, when that is allowed.
fn put_in_place(partial: &Path, target: &Path, overwrite: bool) -> Result<(), BackupError> {
    let io = |e| BackupError::Io(target.to_path_buf(), e);
    if overwrite {
        return std::fs::rename(partial, target).map_err(io);
    }
    match std::fs::hard_link(partial, target) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(BackupError::TargetExists(target.into())),
        Err(e) => Err(io(e)),
    }
}

// SQLite's online backup API: SQLite only. PostgreSQL is backed up with its own `pg_dump` (README).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

    /// Ten accounts holding 1,000 in all, and a ledger line per transfer: every committed state
    /// has the same total, and as many ledger lines as transfers counted.
    fn bank(conn: &Connection) {
        conn.execute_batch(
            "CREATE TABLE bank_accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
             CREATE TABLE bank_ledger (n INTEGER PRIMARY KEY, payload BLOB NOT NULL);
             CREATE TABLE bank_counter (transfers INTEGER NOT NULL);
             INSERT INTO bank_counter VALUES (0);
             WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 10)
             INSERT INTO bank_accounts SELECT i, 100 FROM k;",
        )
        .unwrap();
        // Some bulk, so that copying takes a while next to one commit.
        conn.execute_batch(
            "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 4000)
             INSERT INTO bank_ledger (n, payload) SELECT -i, randomblob(1000) FROM k;",
        )
        .unwrap();
    }

    fn transfer(conn: &crate::store::Connection, n: i64) {
        let from = n % 10 + 1;
        let to = (n * 7 + 3) % 10 + 1;
        let tx = crate::store::immediate(conn).unwrap();
        conn.execute("UPDATE bank_accounts SET balance = balance - 1 WHERE id = ?1", [from]).unwrap();
        conn.execute("UPDATE bank_accounts SET balance = balance + 1 WHERE id = ?1", [to]).unwrap();
        conn.execute("INSERT INTO bank_ledger (n, payload) VALUES (?1, randomblob(200))", [n]).unwrap();
        conn.execute("UPDATE bank_counter SET transfers = transfers + 1", ()).unwrap();
        tx.commit().unwrap();
    }

    /// The copy opens, passes the integrity check and is one commit's state: the total is whole
    /// and the counter matches the ledger. Returns the transfers it holds.
    fn check_copy(path: &Path) -> i64 {
        let c = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let verdict: String = c.query_row("PRAGMA integrity_check", (), |r| r.get(0)).unwrap();
        assert_eq!(verdict, "ok");
        let total: i64 = c.query_row("SELECT sum(balance) FROM bank_accounts", (), |r| r.get(0)).unwrap();
        assert_eq!(total, 1000, "a transfer caught half-way");
        let counted: i64 = c.query_row("SELECT transfers FROM bank_counter", (), |r| r.get(0)).unwrap();
        let lines: i64 = c.query_row("SELECT count(*) FROM bank_ledger WHERE n >= 0", (), |r| r.get(0)).unwrap();
        assert_eq!(counted, lines, "the counter and the ledger from different commits");
        // The schema's own tables came along.
        let migrated: i64 =
            c.query_row("SELECT count(*) FROM sqlite_master WHERE name = 'games'", (), |r| r.get(0)).unwrap();
        assert_eq!(migrated, 1);
        counted
    }

    #[test]
    fn a_backup_taken_while_a_writer_commits_is_one_consistent_commit() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("live.db");
        let store = Arc::new(Store::open(&db).unwrap());
        bank(store.conn().unwrap().as_sqlite().unwrap());
        let (stop, done) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicI64::new(0)));
        let writer = {
            let (store, stop, done) = (store.clone(), stop.clone(), done.clone());
            std::thread::spawn(move || {
                let conn = store.conn().unwrap();
                let mut n = 0;
                // Bounded: the test stops it long before.
                while !stop.load(Ordering::SeqCst) && n < 1_000_000 {
                    transfer(&conn, n);
                    n += 1;
                    done.store(n, Ordering::SeqCst);
                }
            })
        };
        while done.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        let mut overlapped = 0;
        for round in 0..40 {
            let target = dir.path().join(format!("copy-{round}.db"));
            let before = done.load(Ordering::SeqCst);
            let report = backup(&db, &target, false).unwrap();
            let after = done.load(Ordering::SeqCst);
            assert!(report.pages > 0 && report.bytes > 4_000_000, "{report:?}");
            let held = check_copy(&target);
            // Commits counted before the backup began are in it; none after it ended can be (one
            // commit may be in it and not yet counted).
            assert!(before <= held && held <= after + 1, "{before} <= {held} <= {after} + 1");
            if after > before {
                overlapped += 1;
            }
            if overlapped >= 3 {
                break;
            }
        }
        stop.store(true, Ordering::SeqCst);
        writer.join().unwrap();
        assert!(overlapped >= 1, "the writer never committed during a backup");
        // No partial file stays behind.
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".partial-"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    /// Progress is told while the copy is made and ends at the whole size, which is the copy's.
    #[test]
    fn progress_ends_at_the_size_of_the_copy() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("bot.db");
        let store = Store::open(&db).unwrap();
        let conn = store.conn().unwrap();
        bank(conn.as_sqlite().unwrap());
        drop(conn);
        drop(store);
        let told = std::sync::Mutex::new(Vec::new());
        let report = backup_reporting(&db, &dir.path().join("copy.db"), false, &|done, all| {
            told.lock().unwrap().push((done, all));
        })
        .unwrap();
        let told = told.into_inner().unwrap();
        assert_eq!(told.last(), Some(&(report.bytes, report.bytes)), "{told:?}");
        assert!(told.iter().all(|&(done, all)| done <= all && all == report.bytes), "{told:?}");
    }

    #[test]
    fn an_existing_target_is_refused_unless_forced_and_a_missing_source_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("live.db");
        let store = Store::open(&db).unwrap();
        bank(store.conn().unwrap().as_sqlite().unwrap());
        let target = dir.path().join("copy.db");
        std::fs::write(&target, b"precious").unwrap();
        let err = backup(&db, &target, false).unwrap_err();
        assert!(matches!(err, BackupError::TargetExists(_)), "{err}");
        assert!(err.to_string().contains("--force"), "{err}");
        assert_eq!(std::fs::read(&target).unwrap(), b"precious", "left untouched");
        backup(&db, &target, true).unwrap();
        assert_eq!(check_copy(&target), 0);
        let err = backup(&db, &dir.path().join(".").join("live.db"), true).unwrap_err();
        assert!(matches!(err, BackupError::SameFile(_)), "{err}");
        assert_eq!(check_copy(&db), 0, "the database is still there");
        let missing = dir.path().join("nothing.db");
        let err = backup(&missing, &dir.path().join("x.db"), false).unwrap_err();
        assert!(matches!(err, BackupError::NoSource(_)), "{err}");
        assert!(!missing.exists(), "a missing source is not created");
        assert!(!dir.path().join("x.db").exists());
    }
}
