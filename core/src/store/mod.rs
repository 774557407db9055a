//! SQLite storage for the bot: players, games and their moves, challenges, offers, chat and
//! community settings, handled events and replaceable messages. One module per table or aggregate, each speaking the bot's own ids.
//!
//! The schema lives in numbered SQL files under `migrations/`, embedded at build time and applied by
//! `refinery` when a database is opened ([`schema`]). Connection settings (WAL journal, foreign keys,
//! busy timeout) are applied to every connection here, outside the migrations. [`Store`] keeps a
//! small pool of connections so that several threads can use one store at once.

pub mod analyses;
pub mod backup;
pub mod challenges;
pub mod changes;
#[cfg(test)]
mod concurrency;
#[cfg(feature = "postgres")]
pub mod copy;
mod deflated;
pub mod events;
pub mod games;
pub mod ladders;
pub mod links;
pub mod offers;
pub mod outbox;
#[cfg(feature = "postgres")]
pub mod pg_tls;
pub mod players;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod ratings;
pub mod schedule;
pub mod schema;
pub mod served;
pub mod settings;
pub mod sql;
pub mod tournaments;

pub use sql::Connection;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Mutex;
use std::time::Duration;

pub use schema::{HISTORY_TABLE, MIGRATIONS, migrate};

/// How long a connection waits for another writer before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections kept idle in the pool at most.
const MAX_IDLE: usize = 8;

/// A storage failure.
#[derive(Debug)]
pub enum StoreError {
    Db(sql::Error),
    Migration(refinery_core::Error),
    #[cfg(feature = "postgres")]
    Postgres(postgres::PgError),
    /// Stored data that does not make sense (for example a game whose moves do not replay to its FEN).
    Corrupt(String),
    /// An operation refused as asked (a non-empty target, a backend this build lacks), with why.
    Refused(String),
    /// A unit of work met another writer's change [`UNIT_TRIES`] times (PostgreSQL).
    Conflict,
    /// A statement refused because an earlier one in its transaction had failed (PostgreSQL's
    /// "current transaction is aborted", 25P02), with that earlier statement's error (`first`,
    /// [`sql::take_aborted_by`]): the one that says what went wrong. A conflict when that one was.
    Aborted {
        first: String,
        then: sql::Error,
        conflict: bool,
    },
}

/// How many times [`Store::unit`] runs a unit that keeps meeting other writers' changes. A burst of
/// hundreds of units at once on a small PostgreSQL database (three processes starting 200 games
/// together) met conflicts on 16 tries in a row now and then: SERIALIZABLE's read locks cover
/// whole index pages, and a small database has few. With the pause capped at half a second, 32
/// tries span about 12 seconds at most.
pub const UNIT_TRIES: u32 = 32;

impl StoreError {
    /// Whether the failure is a conflict with another writer, which running the unit again settles.
    pub fn is_conflict(&self) -> bool {
        match self {
            StoreError::Db(e) => e.is_conflict(),
            StoreError::Conflict => true,
            StoreError::Aborted { conflict, .. } => *conflict,
            _ => false,
        }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Db(e) => write!(f, "database error: {e}"),
            StoreError::Migration(e) => write!(f, "migration error: {e}"),
            #[cfg(feature = "postgres")]
            StoreError::Postgres(e) => write!(f, "{e}"),
            StoreError::Corrupt(s) => write!(f, "stored data is inconsistent: {s}"),
            StoreError::Refused(s) => f.write_str(s),
            StoreError::Conflict => f.write_str("the change met other writers' changes too often; nothing was saved"),
            StoreError::Aborted { first, then, .. } => {
                write!(f, "database error: {then}; the transaction was aborted by an earlier statement: {first}")
            }
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sql::Error> for StoreError {
    fn from(e: sql::Error) -> Self {
        StoreError::Db(e)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Db(e.into())
    }
}

impl From<refinery_core::Error> for StoreError {
    fn from(e: refinery_core::Error) -> Self {
        StoreError::Migration(e)
    }
}

/// Result type of the store.
pub type Result<T> = std::result::Result<T, StoreError>;

/// Waits for another writer: short sleeps first (writes take well under a millisecond), then 1 ms
/// steps, giving up after about [`BUSY_TIMEOUT`]. SQLite's own busy timeout sleeps in steps of up
/// to 100 ms, which would make every contended write slow.
fn busy_wait(attempt: i32) -> bool {
    let attempt = attempt.max(0) as u64;
    if attempt < 100 {
        std::thread::sleep(Duration::from_micros(50));
        true
    } else {
        std::thread::sleep(Duration::from_millis(1));
        attempt < 100 + BUSY_TIMEOUT.as_millis() as u64
    }
}

/// The size of a new database file's pages, in bytes (SQLite's default is 4,096). Every page a
/// commit changes is written whole to the write-ahead log, and again by the checkpoint, and a
/// move changes a few rows and index entries of a few dozen bytes each on as many pages: with
/// 1 KiB pages a move wrote 2.2 times fewer bytes through the bare core and 2.8 times fewer through
/// the host, 2.6 times fewer reached the disk, and moves were as fast or faster; reads were as fast,
/// the file 4 % larger, and a scheduler batch (hundreds of rows on deeper b-trees) about a fifth
/// slower (`docs/load.md`, "Smaller pages"). Set before the file's first write; a file made
/// with other pages keeps them (SQLite changes a file's page size only by `VACUUM`, outside
/// write-ahead logging).
pub const PAGE_SIZE: i64 = 1024;

/// Applies the per-connection settings: page size (of a new file), WAL journal, foreign keys, busy
/// timeout.
pub fn configure(conn: &rusqlite::Connection) -> Result<()> {
    conn.busy_handler(Some(busy_wait))?;
    conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    write_ahead_log(conn)?;
    // With WAL, NORMAL keeps every committed transaction across a crash of the process; only an
    // operating-system crash or power loss may lose the last few.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// Turns the database to write-ahead logging (kept in the file: a no-op once done). The first
/// connection to a new file does it under the file's exclusive lock, and SQLite answers "database is
/// locked" at once, without the busy handler, to another connection asking meanwhile (waiting could
/// deadlock with a connection holding a shared lock): several processes starting together on a new
/// database failed to open it. Tried again here, for up to [`BUSY_TIMEOUT`].
fn write_ahead_log(conn: &rusqlite::Connection) -> Result<()> {
    let start = std::time::Instant::now();
    loop {
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && start.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            done => return Ok(done?),
        }
    }
}

/// Opens one configured SQLite connection to `path` without migrating.
pub fn open_connection(path: &Path) -> Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(path)?;
    configure(&conn)?;
    Ok(conn)
}

/// How often the store's checkpointer copies SQLite's write-ahead log into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(200);

/// The page cache of each of the store's SQLite connections, in KiB (SQLite's default is 2,000): a
/// scheduler batch of 100 timeouts changes pages all over `games`, `ratings` and `rating_history`
/// and their indexes, and with the default cache the batch wrote them out to the log as it went
/// (and read them back), before its commit wrote them again (`docs/scale.md`, fix 10). Taken only
/// as pages are read.
const CACHE_KIB: i64 = 64 * 1024;

/// One of the store's own SQLite connections: [`open_connection`]'s settings, and no checkpoint at
/// commit (the store's [`Checkpointer`] does them).
fn store_connection(path: &Path) -> Result<rusqlite::Connection> {
    let conn = open_connection(path)?;
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    // The savepoints' journals (one a scheduled item, one a command) in memory, not in a
    // temporary file once past 64 KiB.
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    conn.pragma_update(None, "journal_size_limit", WAL_KEEP_BYTES)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    Ok(conn)
}

/// What SQLite's write-ahead log file keeps of its size once the log starts over
/// (`PRAGMA journal_size_limit`). A log grows for as long as a reader keeps an old snapshot while
/// units commit (a burst of hundreds of answers at once: 60–144 MiB after the 2,000-room catch-up,
/// docs/scale.md), and without a limit SQLite reuses that file for ever rather than shrink it. In
/// normal play a log of a fifth of a second's writes fits in far less, so a file cut back to this
/// is seldom grown again.
const WAL_KEEP_BYTES: i64 = 16 * 1024 * 1024;

/// Prepared statements kept per connection (rusqlite keeps 16 by default): a move's unit of work
/// alone runs more distinct statements than that, and with 16 the least recent were evicted and
/// parsed again on every move.
const STATEMENT_CACHE: usize = 256;

/// Copies SQLite's write-ahead log into the database file on a thread of its own, a passive
/// checkpoint every [`CHECKPOINT_EVERY`]. By default SQLite checkpoints inside the commit that
/// takes the log past a thousand pages: that unit of work (a player's move) then waits while
/// megabytes are copied and synced to disk, and one of the core's few threads with it, which made
/// the slowest moves' latency. A passive checkpoint waits for no reader and no writer; what a
/// reader still needs is copied at a later turn. Stops (and its connection closes) when the store
/// is dropped.
struct Checkpointer {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    fn start(path: &Path) -> Result<Checkpointer> {
        let conn = open_connection(path)?;
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
                    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", (), |_| Ok(())) {
                        tracing::debug!("checkpoint not done: {e}");
                    }
                }
            })
            .map_err(|e| StoreError::Refused(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(Checkpointer { stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Where the data lives: a SQLite file, or a PostgreSQL database.
enum Backend {
    Sqlite {
        path: PathBuf,
        idle: Mutex<Vec<Connection>>,
        /// The connection every unit of work writes through, one unit at a time ([`Writer`]).
        writer: Box<Writer>,
        /// Declared after the connections, so that it stops after they have closed.
        _checkpointer: Checkpointer,
    },
    #[cfg(feature = "postgres")]
    Postgres(postgres::Pool, Box<postgres::Dialer>),
}

/// The bot's database, SQLite or PostgreSQL, with a small pool of connections so that several
/// threads can use one store at once.
pub struct Store {
    backend: Backend,
    /// Units of work still to fail at commit, for tests of what happens then
    /// ([`Store::fail_next_commits`]); zero in production.
    failing_commits: std::sync::atomic::AtomicU32,
    /// How many times a unit of work may run ([`UNIT_TRIES`]; fewer in tests of what happens
    /// when they run out, [`Store::set_unit_tries`]).
    unit_tries: std::sync::atomic::AtomicU32,
    /// This store among those sharing the database (random): its own change notices
    /// ([`changes`]) are left out of what its listener hears.
    origin: String,
}

/// A new store's [`Store::origin`].
fn new_origin() -> String {
    format!("{:016x}", rand::random::<u64>())
}

/// Whether a `db` setting names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// A connection borrowed from a [`Store`]; goes back to the pool when dropped.
pub struct Conn<'a> {
    store: &'a Store,
    conn: Option<Connection>,
    /// This thread's unit of work's connection, shared by every `Conn` taken inside the unit.
    ambient: Option<Rc<Connection>>,
}

impl Conn<'_> {
    /// Takes the connection out of the guard (it will not go back to the pool by itself).
    fn detach(mut self) -> Option<Connection> {
        self.conn.take()
    }
}

impl std::ops::Deref for Conn<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        match (&self.ambient, &self.conn) {
            (Some(a), _) => a,
            (None, Some(c)) => c,
            (None, None) => unreachable!("a Conn holds a connection until dropped"),
        }
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            self.store.give_back(c);
        }
    }
}

/// The SQLite store's writing connection, lent to one unit of work at a time (the lock is held
/// from the unit's start to its end). SQLite lets one writer in at a time anyway, and the lock is
/// waited for as SQLite's is ([`lock_writer`]); what it adds is that every unit of the process
/// writes through one connection. That matters: in WAL mode a connection throws its whole page
/// cache away whenever another connection has committed since its last transaction, so units
/// alternating between two connections (two core threads) each read back from the log every page
/// they touched (`docs/load.md`).
///
/// Units that find a queue waiting for the writer when they end (at least
/// [`HAND_ON_WHEN_WAITING`] units) share one commit (a group commit, [`Batch`]): the unit leaves
/// its transaction open for the next, which works inside it under a
/// savepoint of its own, and waits until the last of them commits. SQLite's log holds whole pages,
/// each page a commit changed written in full, so the pages the units share (the outbox's and the
/// handled events' last pages, the indexes' inner pages) are written once for all of them instead
/// of once each. A unit's [`Store::unit`] still returns only after its changes are committed.
struct Writer {
    slot: parking_lot::Mutex<Slot>,
    /// Threads waiting in [`lock_writer`]: a unit that ends while [`HAND_ON_WHEN_WAITING`] wait
    /// hands its open transaction on instead of committing it.
    waiting: std::sync::atomic::AtomicUsize,
    /// Commits made and units committed by them ([`Store::sqlite_commits`]).
    commits: std::sync::atomic::AtomicU64,
    units_committed: std::sync::atomic::AtomicU64,
}

/// What the [`Writer`]'s lock guards: the connection, and the group commit it is inside, if any.
struct Slot {
    conn: Option<Connection>,
    /// The batch whose transaction `conn` holds open, its units ended and waiting for its commit.
    open: Option<std::sync::Arc<Batch>>,
}

impl Slot {
    /// Takes the connection out, with the batch whose transaction it holds open, if any. A batch
    /// left without its transaction (the connection is gone, or outside any transaction after a
    /// failed commit) is told so and not returned.
    fn take(&mut self) -> (Option<Connection>, Option<std::sync::Arc<Batch>>) {
        match (self.conn.take(), self.open.take()) {
            (Some(conn), Some(open)) if !conn.is_autocommit() => (Some(conn), Some(open)),
            (conn, open) => {
                if let Some(open) = open {
                    open.lost();
                }
                (conn, None)
            }
        }
    }

    /// Puts a connection back whose unit or batch has ended: kept for the next unit unless it is
    /// still inside a transaction (a failed rollback: it then closes, and the next unit opens
    /// another). A batch still recorded as open here has lost its transaction, and is told so.
    fn put_back(&mut self, conn: Connection) {
        if let Some(open) = self.open.take() {
            open.lost();
        }
        if conn.is_autocommit() {
            self.conn = Some(conn);
        }
    }
}

/// Units of work sharing one SQLite transaction and its commit (see [`Writer`]). Its first unit
/// opened the transaction; each later one works under a savepoint, so that its failure undoes its
/// own changes alone. Bounded by [`BATCH_UNITS`] and [`BATCH_AGE`], so that the first unit's
/// answer waits at most a few units more.
struct Batch {
    state: parking_lot::Mutex<BatchState>,
    settled: parking_lot::Condvar,
    started: std::time::Instant,
}

#[derive(Default)]
struct BatchState {
    /// Units that ended inside the batch and wait for its commit.
    waiting_units: usize,
    /// The commit's outcome once it is known (the error's words if it failed).
    outcome: Option<std::result::Result<(), String>>,
}

/// A batch takes no more units than this…
const BATCH_UNITS: usize = 64;
/// … nor units after it has been open this long: its first unit's answer waits for the commit.
const BATCH_AGE: Duration = Duration::from_millis(4);
/// A unit hands its open transaction on only when at least this many others wait for the writer:
/// a queue, whose units then share the commit's pages. The unit that hands on waits for that
/// commit, idle, where it would have gone on to its answer's picture or its next input; with one
/// other unit waiting, that one's commit follows at once anyway, and waiting for it cost the two
/// core threads their parallel work: the bare core with pictures on two threads 1,438–1,788 moves/s
/// with batches from one waiter, 2,072–2,149 without, its second thread × 1.13–1.26 against × 1.49–1.54
/// (`docs/load.md`, "Batches only for a queue").
const HAND_ON_WHEN_WAITING: usize = 2;
/// How long a unit waiting for its batch's commit sleeps before it looks whether the batch was
/// left without a unit to commit it (the unit it was handed to ended without the writer's lock,
/// or the thread that was waiting gave up), and commits it itself.
const BATCH_RESCUE: Duration = Duration::from_millis(2);

impl Batch {
    fn new() -> std::sync::Arc<Batch> {
        std::sync::Arc::new(Batch {
            state: parking_lot::Mutex::new(BatchState::default()),
            settled: parking_lot::Condvar::new(),
            started: std::time::Instant::now(),
        })
    }

    /// Whether another unit may join it.
    fn takes_more(&self) -> bool {
        self.state.lock().waiting_units + 1 < BATCH_UNITS && self.started.elapsed() < BATCH_AGE
    }

    /// Records the commit's outcome and wakes the units waiting for it.
    fn settle(&self, outcome: std::result::Result<(), String>) {
        let mut state = self.state.lock();
        if state.outcome.is_none() {
            state.outcome = Some(outcome);
        }
        self.settled.notify_all();
    }

    /// Tells the batch's units that its transaction is gone, their changes with it.
    fn lost(&self) {
        self.settle(Err("the transaction was lost".into()));
    }

    /// Commits the batch's transaction on `conn` and tells its units.
    fn commit(&self, conn: &Connection, writer: &Writer) -> Result<()> {
        let r = conn.commit();
        if r.is_err() {
            let _ = conn.rollback();
        } else {
            writer.commits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            metrics::counter!("capabot_sqlite_commits_total").increment(1);
        }
        self.settle(r.as_ref().map(|_| ()).map_err(|e| e.to_string()));
        Ok(r?)
    }
}

/// How long a unit waiting for the [`Writer`] gives its core away ([`std::thread::yield_now`])
/// between tries before it sleeps: a move's unit holds the writer about 0.13 ms, and the shortest
/// sleep the kernel gives (50 µs asked, about 100 µs slept with its timer slack) left the writer
/// idle for most of that again after each release. Yielding, the waiter runs again as soon as
/// nothing else wants its core: with pictures drawn beside the units, a second core thread now adds
/// × 1.6 instead of × 1.3 (`lab bench-unit`, `docs/load.md`). Another runnable thread still gets the
/// core first, and after this the waits are sleeps as before.
const WRITER_YIELD_FOR: Duration = Duration::from_micros(200);

/// Waits for the [`Writer`]: tries again after yielding the core (for [`WRITER_YIELD_FOR`]), then
/// after short sleeps as [`busy_wait`] waits for SQLite's lock, rather than sleeping until woken.
/// A unit that has just committed and starts its thread's next one then goes on without a context
/// switch while the other thread waits, as it would with SQLite's lock: woken at each release
/// instead, two threads that both always wanted nothing but to write answered about a quarter fewer
/// moves a second (`docs/load.md`).
fn lock_writer(writer: &Writer) -> Option<parking_lot::MutexGuard<'_, Slot>> {
    if let Some(guard) = writer.slot.try_lock() {
        return Some(guard);
    }
    struct Waiting<'w>(&'w std::sync::atomic::AtomicUsize);
    impl Drop for Waiting<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        }
    }
    writer.waiting.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let _waiting = Waiting(&writer.waiting);
    let start = std::time::Instant::now();
    while start.elapsed() < WRITER_YIELD_FOR {
        if let Some(guard) = writer.slot.try_lock() {
            return Some(guard);
        }
        std::thread::yield_now();
    }
    let mut attempt = 0;
    loop {
        if let Some(guard) = writer.slot.try_lock() {
            return Some(guard);
        }
        if !busy_wait(attempt) {
            return None;
        }
        attempt += 1;
    }
}

/// This thread's unit of work, when one is open: its connection (absent while a [`Conn`] borrows
/// it) and the store it belongs to (by address).
struct Ambient {
    store: usize,
    conn: Rc<Connection>,
}

thread_local! {
    static AMBIENT: RefCell<Option<Ambient>> = const { RefCell::new(None) };
}

/// One unit of work: a write transaction that every [`Store::conn`] on this thread joins until it
/// is committed or dropped (rolled back). The core handles an input in one unit, so the change, the
/// event's claim and the replies in the outbox land together or not at all. Transactions opened
/// inside it with [`immediate`] become savepoints. On SQLite several units in a row may share one
/// commit ([`Writer`]); each still ends only when its own changes are committed or undone.
pub struct Unit<'s> {
    store: &'s Store,
    done: bool,
    /// The store's [`Writer`], held for the unit's length (SQLite; none if it could not be had
    /// within [`BUSY_TIMEOUT`], when the unit writes through another connection as before).
    writer: Option<parking_lot::MutexGuard<'s, Slot>>,
    /// The group commit the unit is part of (SQLite, with the writer's lock).
    batch: Option<std::sync::Arc<Batch>>,
    /// Whether it joined a batch another unit opened: it then works under a savepoint of its own.
    joined: bool,
}

/// The savepoint a unit that joined a [`Batch`] works under.
const UNIT_SAVEPOINT: &str = "SAVEPOINT capabot_unit";

impl Unit<'_> {
    /// Commits everything done in the unit (on SQLite, perhaps together with the units that ended
    /// before it or come after it: it returns when the shared commit has happened).
    pub fn commit(mut self) -> Result<()> {
        self.done = true;
        let conn = self.take()?;
        let injected = self.store.failing_commits.fetch_update(
            std::sync::atomic::Ordering::SeqCst,
            std::sync::atomic::Ordering::SeqCst,
            |n| n.checked_sub(1),
        );
        if injected.is_ok() {
            self.undo(conn);
            return Err(StoreError::Refused("injected failure: the commit did not happen".into()));
        }
        if self.joined
            && let Err(e) = conn.control("RELEASE SAVEPOINT capabot_unit")
        {
            self.undo(conn);
            return Err(e.into());
        }
        match (self.batch.take(), self.store.writer()) {
            (Some(batch), Some(writer)) => {
                let r = self.end_in_batch(conn, writer, &batch, true);
                if r.is_ok() {
                    writer.units_committed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    metrics::counter!("capabot_sqlite_units_committed_total").increment(1);
                }
                r
            }
            _ => {
                let r = conn.commit();
                if r.is_err() {
                    let _ = conn.rollback();
                }
                self.give_back(conn);
                Ok(r?)
            }
        }
    }

    /// Undoes the unit's own changes: its savepoint's when it joined a batch (whose other units'
    /// changes are then committed, or handed on, as if it had not been there), else its transaction.
    fn undo(&mut self, conn: Connection) {
        match (self.batch.take(), self.store.writer()) {
            (Some(batch), Some(writer)) if self.joined => {
                let undone = conn
                    .control("ROLLBACK TO SAVEPOINT capabot_unit")
                    .and_then(|()| conn.control("RELEASE SAVEPOINT capabot_unit"));
                if undone.is_err() {
                    let _ = conn.rollback();
                    batch.settle(Err("a unit sharing the commit could not be undone alone".into()));
                    self.give_back(conn);
                } else {
                    let _ = self.end_in_batch(conn, writer, &batch, false);
                }
            }
            (batch, _) => {
                let _ = conn.rollback();
                if let Some(batch) = batch {
                    batch.settle(Err("rolled back".into()));
                }
                self.give_back(conn);
            }
        }
    }

    /// Ends the unit inside `batch`, whose transaction `conn` holds: hands the transaction on to
    /// the next unit when one is waiting for the writer and the batch takes more (and, with `wait`,
    /// waits for the commit), else commits it.
    fn end_in_batch(
        &mut self,
        conn: Connection,
        writer: &Writer,
        batch: &std::sync::Arc<Batch>,
        wait: bool,
    ) -> Result<()> {
        let hand_on =
            writer.waiting.load(std::sync::atomic::Ordering::SeqCst) >= HAND_ON_WHEN_WAITING && batch.takes_more();
        if hand_on && let Some(mut slot) = self.writer.take() {
            if wait {
                batch.state.lock().waiting_units += 1;
            }
            slot.conn = Some(conn);
            slot.open = Some(batch.clone());
            drop(slot);
            return if wait { wait_for_commit(writer, batch) } else { Ok(()) };
        }
        let r = batch.commit(&conn, writer);
        self.give_back(conn);
        r
    }

    /// Puts the unit's connection back, into the [`Writer`] it came from ([`Slot::put_back`]) or
    /// the store's pool, and lets the next unit in.
    fn give_back(&mut self, conn: Connection) {
        match self.writer.take() {
            Some(mut slot) => slot.put_back(conn),
            None => self.store.give_back(conn),
        }
    }

    fn take(&self) -> Result<Connection> {
        sql::unit_reads_end();
        let shared = AMBIENT.with(|a| a.borrow_mut().take()).map(|u| u.conn);
        shared
            .and_then(|rc| Rc::try_unwrap(rc).ok())
            .ok_or_else(|| StoreError::Corrupt("the unit of work's connection is still borrowed".into()))
    }
}

/// Waits until `batch` is committed (or its commit failed), committing it itself when the batch
/// lies in the [`Writer`] with no unit to end it ([`BATCH_RESCUE`]).
fn wait_for_commit(writer: &Writer, batch: &std::sync::Arc<Batch>) -> Result<()> {
    loop {
        {
            let mut state = batch.state.lock();
            if state.outcome.is_none() {
                batch.settled.wait_for(&mut state, BATCH_RESCUE);
            }
            if let Some(outcome) = &state.outcome {
                return outcome.clone().map_err(|e| StoreError::Refused(format!("the commit failed: {e}")));
            }
        }
        if let Some(mut slot) = writer.slot.try_lock()
            && slot.open.as_ref().is_some_and(|open| std::sync::Arc::ptr_eq(open, batch))
        {
            // A batch that lost its transaction is told so by `take`.
            let (conn, open) = slot.take();
            if let Some(conn) = conn {
                if open.is_some() {
                    let _ = batch.commit(&conn, writer);
                }
                slot.put_back(conn);
            }
        }
    }
}

impl Drop for Unit<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if let Ok(conn) = self.take() {
            self.undo(conn);
        }
    }
}

/// A transaction on `conn`: on its own, a write (or snapshot) transaction; inside a unit of work
/// or another transaction, a savepoint — none inside [`without_savepoints`]. Rolled back when
/// dropped without [`Tx::commit`].
pub struct Tx<'c> {
    conn: &'c Connection,
    nested: bool,
    /// Nested without its savepoint ([`without_savepoints`]).
    elided: bool,
    open: bool,
}

thread_local! {
    /// Writes this thread ran on PostgreSQL outside units of work and standalone work ([`lone_writes`]).
    static LONE_WRITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// This thread runs [`Store::standalone`]'s work on PostgreSQL.
    static STANDALONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// This thread's nested write transactions open no savepoint ([`without_savepoints`]).
    static ELIDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// One of them ended without its commit: it could not be rolled back alone.
    static UNDONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `work` (inside a unit of work) with its nested write transactions ([`immediate`]) opening
/// no savepoint of their own, and says whether every one of them committed. A savepoint costs
/// SQLite a copy of every page written under it (its journal) and PostgreSQL a round trip to open
/// and one to release; the scheduler's batches, whose items seldom fail, run this way first
/// (`docs/scale.md`, fix 14). When one of them did not commit (it should have been rolled back
/// alone, which without its savepoint cannot be done), the caller must roll back the whole unit.
pub fn without_savepoints<T>(work: impl FnOnce() -> T) -> (T, bool) {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ELIDING.with(|e| e.set(self.0));
        }
    }
    let _restore = Restore(ELIDING.with(|e| e.replace(true)));
    let undone_before = UNDONE.with(|u| u.replace(false));
    let out = work();
    let undone = UNDONE.with(|u| u.replace(undone_before));
    (out, !undone)
}

/// How many write transactions (and statements run by `Connection::execute` outside a transaction)
/// this thread has run on PostgreSQL outside a unit of work ([`Store::unit`]) and outside [`Store::standalone`]'s
/// statements declared atomic each by itself. Such a write runs once: a serialization failure or
/// a read of what another writer changed meanwhile is an error or a lost update, not a try again.
/// So the core's writes are all in those two, and the tests of its flows on PostgreSQL check that
/// this stays 0 on their thread.
#[doc(hidden)]
pub fn lone_writes() -> u64 {
    LONE_WRITES.with(std::cell::Cell::get)
}

/// Counts a write on PostgreSQL outside a unit of work ([`lone_writes`]).
pub(crate) fn count_lone_write() {
    if STANDALONE.with(std::cell::Cell::get) {
        // Declared as statements each atomic by itself ([`Store::standalone`]).
        return;
    }
    LONE_WRITES.with(|n| n.set(n.get() + 1));
}

/// Opens a [`Tx`] for writing.
pub fn immediate(conn: &Connection) -> Result<Tx<'_>> {
    begin(conn, true)
}

/// Opens a [`Tx`] for reading several rows from one snapshot (inside a transaction, its own:
/// nothing is opened).
pub fn snapshot(conn: &Connection) -> Result<Tx<'_>> {
    begin(conn, false)
}

fn begin(conn: &Connection, write: bool) -> Result<Tx<'_>> {
    let nested = !conn.is_autocommit();
    if nested && !write {
        // Reads inside a transaction already read one state (SQLite's, PostgreSQL's snapshot):
        // nothing to open, nothing to undo.
        return Ok(Tx { conn, nested, elided: true, open: false });
    }
    let elided = nested && write && ELIDING.with(std::cell::Cell::get);
    if elided {
        // No savepoint: see `without_savepoints`.
    } else if nested {
        conn.control("SAVEPOINT capabot_tx")?;
    } else if write {
        if !conn.is_sqlite() {
            count_lone_write();
        }
        conn.begin_write()?;
    } else {
        conn.begin_read()?;
    }
    Ok(Tx { conn, nested, elided, open: true })
}

impl Tx<'_> {
    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        if self.elided {
            Ok(())
        } else if self.nested {
            Ok(self.conn.control("RELEASE SAVEPOINT capabot_tx")?)
        } else {
            Ok(self.conn.commit()?)
        }
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open && self.elided {
            UNDONE.with(|u| u.set(true));
        } else if self.open {
            let _ = if self.nested {
                self.conn
                    .control("ROLLBACK TO SAVEPOINT capabot_tx")
                    .and_then(|()| self.conn.control("RELEASE SAVEPOINT capabot_tx"))
            } else {
                self.conn.rollback()
            };
        }
    }
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and brings its schema up to date.
    pub fn open(path: impl Into<PathBuf>) -> Result<Store> {
        let path = path.into();
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            let _ = std::fs::create_dir_all(dir);
        }
        let mut conn = store_connection(&path)?;
        migrate(&mut conn)?;
        let checkpointer = Checkpointer::start(&path)?;
        let store = Store {
            backend: Backend::Sqlite {
                path,
                idle: Mutex::new(Vec::new()),
                writer: Box::new(Writer {
                    slot: parking_lot::Mutex::new(Slot { conn: Some(Connection::Sqlite(conn)), open: None }),
                    waiting: Default::default(),
                    commits: Default::default(),
                    units_committed: Default::default(),
                }),
                _checkpointer: checkpointer,
            },
            failing_commits: Default::default(),
            unit_tries: UNIT_TRIES.into(),
            origin: new_origin(),
        };
        store.after_migrations()?;
        Ok(store)
    }

    /// What the schema's migrations leave to code, once the store is open: the standings of
    /// ladders not changed since migration 34 ([`Store::keep_missing_standings`]).
    fn after_migrations(&self) -> Result<()> {
        self.keep_missing_standings()?;
        Ok(())
    }

    /// Writes the standings of the ladders that keep none ([`ladders::missing_standings`]), each
    /// ladder in a unit of work of its own, as every read-modify-write is: two processes opening
    /// at once, or one opening while another changes a ladder, meet as units do (on PostgreSQL one
    /// runs again and finds the standings written). A ladder whose unit cannot be saved is left to
    /// be replayed when read, with a warning: no reason for a store not to open. How many it wrote.
    pub fn keep_missing_standings(&self) -> Result<usize> {
        let missing = ladders::missing_standings(&*self.conn()?)?;
        let mut written = 0;
        for id in missing {
            match self.unit(|| ladders::keep_standings(&*self.conn()?, id)) {
                Ok(wrote) => written += usize::from(wrote),
                Err(e) => tracing::warn!(ladder = id, "a ladder's standings could not be kept: {e}"),
            }
        }
        Ok(written)
    }

    /// Opens the database a `db` setting names: a `postgres://` URL (with the `postgres` feature),
    /// else a SQLite file. The schema is brought up to date either way.
    pub fn open_setting(db: &str) -> Result<Store> {
        if is_postgres_url(db) {
            #[cfg(feature = "postgres")]
            return Store::open_postgres(db, POSTGRES_CONNECTIONS);
            #[cfg(not(feature = "postgres"))]
            return Err(StoreError::Refused("this build has no PostgreSQL support (cargo feature `postgres`)".into()));
        }
        Store::open(db)
    }

    /// Connects to the PostgreSQL database at `url`, migrates it and keeps a pool of at most
    /// `max_connections`.
    #[cfg(feature = "postgres")]
    pub fn open_postgres(url: &str, max_connections: u32) -> Result<Store> {
        let (pool, dialer) = postgres::open_pool_and_dialer(url, max_connections, postgres::Timeouts::default())
            .map_err(StoreError::Postgres)?;
        let store = Store {
            backend: Backend::Postgres(pool, Box::new(dialer)),
            failing_commits: Default::default(),
            unit_tries: UNIT_TRIES.into(),
            origin: new_origin(),
        };
        store.after_migrations()?;
        Ok(store)
    }

    /// This store among those sharing its database: the origin of its change notices
    /// ([`changes::tell`]).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// A listener for the changes other stores sharing the database commit ([`changes`]): a
    /// connection of its own, outside the pool. `None` on SQLite, which has no such notices.
    #[cfg(feature = "postgres")]
    pub fn listener(&self) -> Option<Result<changes::Listener>> {
        match &self.backend {
            Backend::Sqlite { .. } => None,
            Backend::Postgres(_, dialer) => Some(changes::Listener::open(dialer, &self.origin)),
        }
    }

    /// The SQLite store's writing connection (none on PostgreSQL).
    fn writer(&self) -> Option<&Writer> {
        match &self.backend {
            Backend::Sqlite { writer, .. } => Some(writer.as_ref()),
            #[cfg(feature = "postgres")]
            Backend::Postgres(..) => None,
        }
    }

    /// On SQLite, the commits its writing connection has made and the units of work they
    /// committed (several units may share a commit: [`Writer`]); `None` on PostgreSQL.
    #[doc(hidden)]
    pub fn sqlite_commits(&self) -> Option<(u64, u64)> {
        self.writer().map(|w| {
            (
                w.commits.load(std::sync::atomic::Ordering::Relaxed),
                w.units_committed.load(std::sync::atomic::Ordering::Relaxed),
            )
        })
    }

    /// The SQLite database file (none on PostgreSQL).
    pub fn path(&self) -> Option<&Path> {
        match &self.backend {
            Backend::Sqlite { path, .. } => Some(path),
            #[cfg(feature = "postgres")]
            Backend::Postgres(..) => None,
        }
    }

    /// The dialect of the store's connections.
    pub fn dialect(&self) -> sql::Dialect {
        match &self.backend {
            Backend::Sqlite { .. } => sql::Dialect::Sqlite,
            #[cfg(feature = "postgres")]
            Backend::Postgres(..) => sql::Dialect::Postgres,
        }
    }

    /// Borrows a connection (opening a new one when none is idle); inside a unit of work on this
    /// thread, the unit's connection.
    pub fn conn(&self) -> Result<Conn<'_>> {
        let me = self as *const Store as usize;
        let ambient = AMBIENT.with(|a| a.borrow().as_ref().filter(|u| u.store == me).map(|u| u.conn.clone()));
        if ambient.is_some() {
            return Ok(Conn { store: self, conn: None, ambient });
        }
        let conn = match &self.backend {
            Backend::Sqlite { path, idle, .. } => match idle.lock().ok().and_then(|mut idle| idle.pop()) {
                Some(c) => c,
                None => Connection::Sqlite(store_connection(path)?),
            },
            #[cfg(feature = "postgres")]
            Backend::Postgres(pool, _) => {
                Connection::postgres(pool.get().map_err(|e| StoreError::Postgres(postgres::PgError::Pool(e)))?)
            }
        };
        Ok(Conn { store: self, conn: Some(conn), ambient: None })
    }

    /// Opens a unit of work on this thread (see [`Unit`]). Units do not nest.
    /// Runs `work` as one unit of work ([`Store::begin_unit`]) and commits it: the one discipline for
    /// every read-modify-write of shared rows. SQLite runs one writer at a time, so nothing can
    /// interleave. PostgreSQL runs units SERIALIZABLE: when one met another's change (a
    /// serialization failure or a deadlock, on any statement or at commit), it is rolled back and
    /// `work` runs again from the start, at most [`UNIT_TRIES`] times. So `work` must have no
    /// effect outside the database that a second run would repeat wrongly. A unit that found its
    /// connection gone before its commit was sent (the server closed it while it lay in the pool)
    /// runs again as well, on another connection: nothing of it was saved.
    pub fn unit<T>(&self, mut work: impl FnMut() -> Result<T>) -> Result<T> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            sql::take_conflict();
            sql::take_lost();
            match self.run_once(&mut work) {
                (Err(e), true) if attempt < self.unit_tries.load(std::sync::atomic::Ordering::Relaxed) => {
                    if let StoreError::Aborted { first, .. } = &e {
                        tracing::debug!(first_error = %first, "a unit of work's transaction was aborted; it runs again");
                    }
                    metrics::counter!("capabot_unit_retries_total").increment(1);
                    // A jittered pause that doubles with each try (4 ms, 8 ms, … at most half a
                    // second) so that the writers that met do not meet again: a burst of hundreds
                    // of units at once spreads out instead of colliding on every try.
                    let pause = rand::random_range(0..=(2u64 << attempt.min(8)).min(500));
                    std::thread::sleep(Duration::from_millis(pause));
                }
                (result, again) => {
                    match &result {
                        Err(StoreError::Aborted { first, then, .. }) => {
                            tracing::warn!(first_error = %first, tries = attempt, "a unit of work was not saved: {then}, after an earlier statement failed");
                        }
                        Err(e) if again => {
                            tracing::warn!(tries = attempt, "a unit of work was not saved, out of tries: {e}");
                        }
                        _ => {}
                    }
                    return result;
                }
            }
        }
    }

    /// Runs `work`, whose statements each stand alone — each complete and atomic by itself, none
    /// written from what another read — as cheaply as the backend allows: on SQLite as a unit of
    /// work (through the writing connection, one commit for all); on PostgreSQL outside any
    /// transaction, each statement its own (no `BEGIN` and `COMMIT` round trips, and nothing for
    /// SERIALIZABLE to fail). For the outbox's bookkeeping ([`outbox::take`],
    /// [`outbox::sent_and_next`]), whose statements are single upserts, updates by id and reads.
    pub fn standalone<T>(&self, work: impl FnMut() -> Result<T>) -> Result<T> {
        match &self.backend {
            Backend::Sqlite { .. } => self.unit(work),
            #[cfg(feature = "postgres")]
            Backend::Postgres(..) => {
                struct Restore(bool);
                impl Drop for Restore {
                    fn drop(&mut self) {
                        STANDALONE.with(|s| s.set(self.0));
                    }
                }
                let mut work = work;
                let _restore = Restore(STANDALONE.with(|s| s.replace(true)));
                work()
            }
        }
    }

    /// One run of a unit of work: its result, and whether running it again may settle its
    /// failure. A conflict met anywhere in the run dooms it, even where the statement's own error
    /// was caught and the run went on to fail on something else (PostgreSQL's "current
    /// transaction is aborted"). A connection found gone at the commit is not run again: whether
    /// the commit happened is not known.
    fn run_once<T>(&self, work: &mut impl FnMut() -> Result<T>) -> (Result<T>, bool) {
        let (result, again) = self.run_unexplained(work);
        let first = sql::take_aborted_by();
        let result = result.map_err(|e| match (e, first) {
            (StoreError::Db(then), Some((first, conflict))) if then.is_aborted() => {
                StoreError::Aborted { first, then, conflict }
            }
            (e, _) => e,
        });
        (result, again)
    }

    /// [`Store::run_once`], its error as the failing statement's (a 25P02 not yet traced back).
    fn run_unexplained<T>(&self, work: &mut impl FnMut() -> Result<T>) -> (Result<T>, bool) {
        let unit = match self.begin_unit() {
            Ok(unit) => unit,
            Err(e) => return (Err(e), sql::take_lost()),
        };
        let done = work();
        let (conflict, lost) = (sql::take_conflict(), sql::take_lost());
        let result = match done {
            Ok(v) if !conflict && !lost => {
                let committed = unit.commit();
                let again = committed.as_ref().is_err_and(StoreError::is_conflict) || sql::take_conflict();
                return (committed.map(|()| v), again);
            }
            Ok(_) if conflict => Err(StoreError::Conflict),
            Ok(_) => Err(StoreError::Refused("the connection to the database was lost".into())),
            Err(e) => Err(e),
        };
        drop(unit);
        let again = conflict || lost || result.as_ref().is_err_and(StoreError::is_conflict) || sql::take_conflict();
        (result, again)
    }

    /// Lets a unit of work run at most `n` times instead of [`UNIT_TRIES`]: for tests of what a
    /// unit that keeps meeting other writers ends with.
    #[doc(hidden)]
    pub fn set_unit_tries(&self, n: u32) {
        self.unit_tries.store(n.max(1), std::sync::atomic::Ordering::Relaxed);
    }

    /// Makes the next `n` units of work fail at commit as a full disk or a lost connection would
    /// (everything in them rolled back): for tests of what the bot says then.
    #[doc(hidden)]
    pub fn fail_next_commits(&self, n: u32) {
        self.failing_commits.store(n, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn begin_unit(&self) -> Result<Unit<'_>> {
        if AMBIENT.with(|a| a.borrow().is_some()) {
            return Err(StoreError::Corrupt("a unit of work inside another".into()));
        }
        let mut unit = Unit { store: self, done: false, writer: None, batch: None, joined: false };
        let conn = match &self.backend {
            Backend::Sqlite { path, writer, .. } => {
                // Past the time limit (a unit that never ends, or one waiting for another unit
                // of its own thread's making), the unit goes on without the lock: SQLite's busy
                // handler then waits, and gives up, as it did before there was a lock.
                unit.writer = lock_writer(writer);
                match unit.writer.as_mut().map(|slot| slot.take()) {
                    Some((conn, open)) => {
                        // A batch's transaction open on the connection: the unit joins it.
                        unit.joined = open.is_some();
                        unit.batch = open;
                        match conn {
                            Some(conn) => Some(conn),
                            None => Some(Connection::Sqlite(store_connection(path)?)),
                        }
                    }
                    None => None,
                }
            }
            #[cfg(feature = "postgres")]
            Backend::Postgres(..) => None,
        };
        let conn = match conn {
            Some(conn) => conn,
            None => self.conn()?.detach().ok_or_else(|| StoreError::Corrupt("no connection".into()))?,
        };
        let begun = if unit.joined { conn.control(UNIT_SAVEPOINT) } else { conn.begin_write() };
        if let Err(e) = begun {
            unit.done = true;
            match (unit.batch.take(), self.writer()) {
                (Some(batch), Some(writer)) => {
                    let _ = unit.end_in_batch(conn, writer, &batch, false);
                }
                _ => unit.give_back(conn),
            }
            return Err(e.into());
        }
        if unit.writer.is_some() && !unit.joined {
            unit.batch = Some(Batch::new());
        }
        let me = self as *const Store as usize;
        let conn = Rc::new(conn);
        sql::unit_reads_begin(&conn);
        AMBIENT.with(|a| *a.borrow_mut() = Some(Ambient { store: me, conn }));
        Ok(unit)
    }

    fn give_back(&self, conn: Connection) {
        if !conn.is_autocommit() {
            match &self.backend {
                // A SQLite connection left inside a transaction (a failed rollback) is not
                // reused: dropped, it closes.
                Backend::Sqlite { .. } => return,
                // A PostgreSQL one goes back to its pool when dropped, and would be lent again
                // inside the transaction (aborted, its borrower's BEGIN fails with 25P02): it is
                // rolled back first (one whose rollback fails has lost its socket, and the pool
                // drops it).
                #[cfg(feature = "postgres")]
                Backend::Postgres(..) => {
                    let _ = conn.rollback();
                }
            }
        }
        match &self.backend {
            Backend::Sqlite { idle, .. } => {
                if let Ok(mut idle) = idle.lock()
                    && idle.len() < MAX_IDLE
                {
                    idle.push(conn);
                }
            }
            // PostgreSQL connections go back to their pool when dropped.
            #[cfg(feature = "postgres")]
            Backend::Postgres(..) => drop(conn),
        }
    }

    /// Whether the database is sound: SQLite's `PRAGMA integrity_check` ("ok" when it is); on
    /// PostgreSQL, "ok" when a query answers.
    pub fn integrity_check(&self) -> Result<String> {
        let conn = self.conn()?;
        match conn.as_sqlite() {
            Some(sqlite) => Ok(sqlite.query_row("PRAGMA integrity_check", (), |r| r.get(0))?),
            None => Ok(conn.query_row("SELECT 'ok'", (), |r| r.get(0))?),
        }
    }
}

/// Connections the PostgreSQL pool keeps at most.
#[cfg(feature = "postgres")]
const POSTGRES_CONNECTIONS: u32 = 16;

/// Test support: a store unit test whose meaning is the same on both backends is written once, as
/// `fn name(store: &Store)`, and [`on_both_backends!`](testing::on_both_backends) makes it one test
/// per backend this build has (`name::sqlite`, `name::postgres`), each on a fresh, migrated store.
#[cfg(test)]
pub(crate) mod testing {
    use super::Store;
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

    /// A backend this build has.
    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Backend {
        Sqlite,
        #[cfg(feature = "postgres")]
        Postgres,
    }

    impl std::fmt::Display for Backend {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(match self {
                Backend::Sqlite => "SQLite",
                #[cfg(feature = "postgres")]
                Backend::Postgres => "PostgreSQL",
            })
        }
    }

    /// Connections a test's PostgreSQL store keeps at most (a test holds one or two at a time).
    #[cfg(feature = "postgres")]
    const POSTGRES_CONNECTIONS: u32 = 4;

    /// Runs `test` on a new, migrated store of `backend`: SQLite in a temporary directory;
    /// PostgreSQL in a new database of this test binary's shared server (`pg-harness`), dropped
    /// afterwards. A failure's message starts with the backend it failed on.
    pub(crate) fn run_on(backend: Backend, test: impl FnOnce(&Store)) {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("a temporary directory");
                let store = Store::open(dir.path().join("test.db")).unwrap_or_else(|e| panic!("on {backend}: {e}"));
                on(backend, || test(&store));
            }
            #[cfg(feature = "postgres")]
            Backend::Postgres => {
                let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("on {backend}: {e}"));
                let database = server.create_database().unwrap_or_else(|e| panic!("on {backend}: {e}"));
                // Dropped before its database (locals drop in reverse order).
                let store = Store::open_postgres(&database.url(), POSTGRES_CONNECTIONS)
                    .unwrap_or_else(|e| panic!("on {backend}: {e}"));
                on(backend, || test(&store));
            }
        }
    }

    /// A new SQLite database with the whole schema, in a temporary directory (kept while the first
    /// value lives), and a plain connection to it.
    pub(crate) fn sqlite_schema() -> (tempfile::TempDir, rusqlite::Connection) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("plan.db");
        drop(Store::open(&path).expect("a new store"));
        let conn = super::open_connection(&path).expect("a connection");
        (dir, conn)
    }

    /// The pages `write` wrote to SQLite's log on `conn` (a connection from [`sqlite_schema`],
    /// nothing else writing): the log is emptied first, and its frames counted after.
    pub(crate) fn log_pages(conn: &super::Connection, write: impl FnOnce()) -> i64 {
        let sqlite = conn.as_sqlite().expect("a SQLite connection");
        let frames = |mode: &str| -> i64 {
            sqlite.query_row(&format!("PRAGMA wal_checkpoint({mode})"), (), |r| r.get(1)).expect("a checkpoint")
        };
        assert_eq!(frames("TRUNCATE"), 0, "the log emptied");
        write();
        frames("PASSIVE")
    }

    /// SQLite's plan of `sql` (every parameter 1), its steps joined by "; ".
    pub(crate) fn sqlite_plan(conn: &rusqlite::Connection, sql: &str) -> String {
        let mut st = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).expect("a statement");
        let ones = vec![1i64; st.parameter_count()];
        let steps = st.query_map(rusqlite::params_from_iter(&ones), |r| r.get::<_, String>(3)).expect("a plan");
        steps.collect::<Result<Vec<_>, _>>().expect("a plan").join("; ")
    }

    /// How many temporary b-trees SQLite's program for `sql` opens (`OpenEphemeral`: each made
    /// and dropped with a page cache of its own, every time the statement runs).
    pub(crate) fn sqlite_temporary_btrees(conn: &rusqlite::Connection, sql: &str) -> usize {
        let mut st = conn.prepare(&format!("EXPLAIN {sql}")).expect("a statement");
        let ones = vec![1i64; st.parameter_count()];
        let ops = st.query_map(rusqlite::params_from_iter(&ones), |r| r.get::<_, String>(1)).expect("a program");
        ops.map(|op| op.expect("an instruction")).filter(|op| op == "OpenEphemeral").count()
    }

    /// Runs `test`, naming `backend` in the message of a panic.
    fn on(backend: Backend, test: impl FnOnce()) {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(test)) {
            let message = panic.downcast_ref::<String>().map(String::as_str).or(panic.downcast_ref::<&str>().copied());
            match message {
                Some(message) => panic!("on {backend}: {message}"),
                None => resume_unwind(panic),
            }
        }
    }

    /// `on_both_backends!(a, b)` makes, for each function `fn a(store: &Store)` of the module, the
    /// tests `a::sqlite` and (with the `postgres` feature) `a::postgres`.
    macro_rules! on_both_backends {
        ($($test:ident),+ $(,)?) => {$(
            mod $test {
                use $crate::store::testing::{Backend, run_on};

                #[test]
                fn sqlite() {
                    run_on(Backend::Sqlite, super::$test);
                }

                #[cfg(feature = "postgres")]
                #[test]
                fn postgres() {
                    run_on(Backend::Postgres, super::$test);
                }
            }
        )+};
    }
    pub(crate) use on_both_backends;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inside [`without_savepoints`] a nested write transaction opens no savepoint; its work stays
    /// when it commits (and the unit is said clean), and one dropped without its commit is reported
    /// (its work cannot be undone alone: the caller must roll back the unit). Outside, a nested
    /// transaction is a savepoint and a dropped one is rolled back alone.
    #[test]
    fn nested_transactions_without_savepoints_report_the_one_not_committed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("t.db")).unwrap();
        // A player added in a nested write transaction, committed or dropped without its commit.
        let add = |name: &str, commit: bool| {
            let conn = store.conn().unwrap();
            let tx = immediate(&conn).unwrap();
            tx.execute("INSERT INTO players (name, created_at) VALUES (?1, 0)", [name]).unwrap();
            if commit {
                tx.commit().unwrap();
            }
        };
        let count =
            || -> i64 { store.conn().unwrap().query_row("SELECT count(*) FROM players", (), |r| r.get(0)).unwrap() };
        let opened = sql::savepoints_opened();
        assert!(store.unit(|| Ok(without_savepoints(|| add("a", true)).1)).unwrap());
        assert_eq!(sql::savepoints_opened(), opened, "no savepoint opened");
        assert_eq!(count(), 1);
        let clean = store.unit(|| Ok(without_savepoints(|| add("b", false)).1)).unwrap();
        assert!(!clean, "a transaction dropped without its commit is reported");
        // The same outside: a savepoint, rolled back alone.
        store
            .unit(|| {
                add("c", false);
                Ok(())
            })
            .unwrap();
        assert_eq!(sql::savepoints_opened(), opened + 1);
        assert_eq!(count(), 2, "b stayed (the caller's to undo), c was rolled back");
        // Eliding ends with the call (and a clean call follows a report).
        assert!(store.unit(|| Ok(without_savepoints(|| ()).1)).unwrap());
        store
            .unit(|| {
                add("d", true);
                Ok(())
            })
            .unwrap();
        assert_eq!(sql::savepoints_opened(), opened + 2);
        assert_eq!(count(), 3);
    }

    /// Units of work from many threads at once share commits (fewer commits than units, on SQLite),
    /// and each returns only once its own changes are committed: another connection sees them as
    /// soon as it has returned. A unit that fails inside a shared commit undoes its own changes
    /// alone: the counter every unit increments (a read-modify-write) ends at the number of units
    /// that succeeded, and only their rows are there.
    #[test]
    fn units_at_once_share_commits_and_each_returns_committed() {
        const THREADS: i64 = 8;
        const UNITS: i64 = 150;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Store::open(&path).unwrap();
        store
            .conn()
            .unwrap()
            .execute_batch(
                "CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0);
                 CREATE TABLE done (thread INTEGER NOT NULL, i INTEGER NOT NULL)",
            )
            .unwrap();
        let (commits_before, _) = store.sqlite_commits().unwrap();
        let fails = |t: i64, i: i64| (t + i) % 7 == 0;
        let start = std::sync::Barrier::new(THREADS as usize);
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (store, start, path) = (&store, &start, &path);
                s.spawn(move || {
                    let reader = open_connection(path).unwrap();
                    start.wait();
                    for i in 0..UNITS {
                        let r = store.unit(|| {
                            let conn = store.conn()?;
                            let n: i64 = conn.query_row("SELECT n FROM counter", (), |r| r.get(0))?;
                            conn.execute("UPDATE counter SET n = ?1", [n + 1])?;
                            conn.execute("INSERT INTO done (thread, i) VALUES (?1, ?2)", [t, i])?;
                            if fails(t, i) { Err(StoreError::Refused("this unit fails".into())) } else { Ok(()) }
                        });
                        assert_eq!(r.is_err(), fails(t, i), "thread {t} unit {i}: {r:?}");
                        let seen: i64 = reader
                            .query_row("SELECT count(*) FROM done WHERE thread = ?1 AND i = ?2", [t, i], |r| r.get(0))
                            .unwrap();
                        assert_eq!(seen, i64::from(!fails(t, i)), "thread {t} unit {i} returned before its commit");
                    }
                });
            }
        });
        let conn = open_connection(&path).unwrap();
        let succeeded =
            (0..THREADS).flat_map(|t| (0..UNITS).map(move |i| (t, i))).filter(|&(t, i)| !fails(t, i)).count();
        let n: i64 = conn.query_row("SELECT n FROM counter", (), |r| r.get(0)).unwrap();
        let rows: i64 = conn.query_row("SELECT count(*) FROM done", (), |r| r.get(0)).unwrap();
        assert_eq!((n, rows), (succeeded as i64, succeeded as i64));
        let (commits, units) = store.sqlite_commits().unwrap();
        assert_eq!(units as usize, succeeded, "every unit that succeeded is counted once");
        assert!(commits - commits_before < units, "{units} units in {} commits: none shared", commits - commits_before);
    }

    /// Two threads writing at once commit each unit on its own: one unit waiting for the writer is
    /// no queue, and the unit that ends goes on to its next work instead of waiting for the other's
    /// commit ([`HAND_ON_WHEN_WAITING`]). With more threads the batches form (the test above).
    #[test]
    fn two_threads_writing_at_once_commit_each_unit_on_its_own() {
        const UNITS: i64 = 400;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("t.db")).unwrap();
        store.conn().unwrap().execute_batch("CREATE TABLE done (thread INTEGER NOT NULL, i INTEGER NOT NULL)").unwrap();
        let (commits_before, units_before) = store.sqlite_commits().unwrap();
        let start = std::sync::Barrier::new(2);
        std::thread::scope(|s| {
            for t in 0..2i64 {
                let (store, start) = (&store, &start);
                s.spawn(move || {
                    start.wait();
                    for i in 0..UNITS {
                        store
                            .unit(|| {
                                let conn = store.conn()?;
                                conn.execute("INSERT INTO done (thread, i) VALUES (?1, ?2)", [t, i])?;
                                Ok(())
                            })
                            .unwrap();
                    }
                });
            }
        });
        let (commits, units) = store.sqlite_commits().unwrap();
        assert_eq!(units - units_before, 2 * UNITS as u64);
        assert_eq!(commits - commits_before, units - units_before, "two threads' units shared commits");
    }

    /// A new database of the harness's server and a store on it with a pool of one connection.
    #[cfg(feature = "postgres")]
    fn pg_store_of_one() -> (pg_harness::TestDatabase<'static>, Store) {
        let server = pg_harness::PgServer::shared().expect("the PostgreSQL server");
        let database = server.create_database().expect("a database");
        let store = Store::open_postgres(&database.url(), 1).expect("a store");
        (database, store)
    }

    /// A PostgreSQL connection keeps the statements prepared on it while it is in the pool: a
    /// statement run on three borrowings of the pool's one connection is prepared once. (They went
    /// with each borrowing before, and every unit of work and page prepared all its statements
    /// again.)
    #[cfg(feature = "postgres")]
    #[test]
    fn a_pooled_connection_keeps_its_prepared_statements() {
        let (_database, store) = pg_store_of_one();
        let before = sql::statements_prepared();
        for _ in 0..3 {
            let conn = store.conn().unwrap();
            let n: i64 = conn.query_row("SELECT count(*) FROM players WHERE id > ?1", [0], |r| r.get(0)).unwrap();
            assert_eq!(n, 0);
        }
        assert_eq!(sql::statements_prepared() - before, 1);
        drop(store);
    }

    /// A connection the server closed while it lay in the pool (a restart, an idle session ended)
    /// fails no unit of work: lent without a check (it was in use a moment ago:
    /// `postgres::CHECK_IDLE_AFTER`), it fails the unit's first statement, and the unit runs again
    /// on a new connection.
    #[cfg(feature = "postgres")]
    #[test]
    fn a_unit_that_meets_a_connection_the_server_closed_runs_again_on_another() {
        let (database, store) = pg_store_of_one();
        store.unit(|| events::claim(&*store.conn()?, "test", "first", 0)).unwrap();
        let other = Store::open_postgres(&database.url(), 1).expect("another store");
        let ended: i64 = other
            .conn()
            .unwrap()
            .query_row(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
                (),
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(ended, 1, "the store's one connection");
        // The unit's `BEGIN` meets the closed connection; the unit then runs on a new one.
        let claimed = store.unit(|| events::claim(&*store.conn()?, "test", "second", 0));
        assert!(claimed.expect("the unit is saved"), "claimed once");
        drop((store, other));
    }

    /// The transaction statements are prepared once per connection and run again and again: each
    /// round's savepoint rolled back undoes only its own work, each committed one stays.
    #[test]
    fn savepoints_prepared_once_roll_back_and_commit_round_after_round() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("t.db")).unwrap();
        for round in 0..3 {
            let unit = store.begin_unit().unwrap();
            let conn = store.conn().unwrap();
            let undone = immediate(&conn).unwrap();
            assert!(events::claim(&undone, "test", &format!("undone-{round}"), 0).unwrap());
            drop(undone);
            let kept = immediate(&conn).unwrap();
            assert!(events::claim(&kept, "test", &format!("kept-{round}"), 0).unwrap());
            kept.commit().unwrap();
            drop(conn);
            unit.commit().unwrap();
        }
        let conn = store.conn().unwrap();
        for round in 0..3 {
            assert!(events::claim(&conn, "test", &format!("undone-{round}"), 0).unwrap(), "rolled back");
            assert!(!events::claim(&conn, "test", &format!("kept-{round}"), 0).unwrap(), "committed");
        }
    }

    #[test]
    fn open_applies_schema_and_settings() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("t.db")).unwrap();
        let conn = store.conn().unwrap();
        let mode: String = conn.query_row("PRAGMA journal_mode", (), |r| r.get(0)).unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = conn.query_row("PRAGMA foreign_keys", (), |r| r.get(0)).unwrap();
        assert_eq!(fk, 1);
        let n: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'", (), |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        drop(conn);
        assert_eq!(store.integrity_check().unwrap(), "ok");
        // Opening again is a no-op migration.
        drop(store);
        Store::open(dir.path().join("t.db")).unwrap();
    }

    /// Commits never copy the write-ahead log into the database (a move's unit of work would wait
    /// for it): the store's own thread does, soon after, and stops with the store.
    #[test]
    fn units_on_several_threads_write_through_one_connection_one_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let store = std::sync::Arc::new(Store::open(dir.path().join("t.db")).unwrap());
        // A temporary table lives in the connection that made it: the units of other threads see
        // it only if they write through the same connection (whose page cache then stays warm).
        store.unit(|| Ok(store.conn()?.execute_batch("CREATE TEMP TABLE mine (n INTEGER)")?)).unwrap();
        let inside = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let (store, inside) = (store.clone(), inside.clone());
                std::thread::spawn(move || {
                    for i in 0..25 {
                        store
                            .unit(|| {
                                let was = inside.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                                assert_eq!(was, 0, "two units inside at once");
                                store.conn()?.execute("INSERT INTO mine VALUES (?1)", [t * 100 + i])?;
                                std::thread::yield_now();
                                inside.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                                Ok(())
                            })
                            .unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let n: i64 =
            store.unit(|| Ok(store.conn()?.query_row("SELECT count(*) FROM mine", (), |r| r.get(0))?)).unwrap();
        assert_eq!(n, 100);
    }

    #[test]
    fn a_unit_that_panics_gives_the_writing_connection_back_rolled_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = std::sync::Arc::new(Store::open(dir.path().join("t.db")).unwrap());
        store.unit(|| Ok(store.conn()?.execute_batch("CREATE TABLE t (n INTEGER)")?)).unwrap();
        let panicked = {
            let store = store.clone();
            std::thread::spawn(move || {
                store.unit(|| -> Result<()> {
                    store.conn()?.execute("INSERT INTO t VALUES (1)", ())?;
                    panic!("a bug inside a unit of work");
                })
            })
            .join()
        };
        assert!(panicked.is_err());
        // The next unit gets in at once (no lock left held), and the panicked one's row is gone.
        let started = std::time::Instant::now();
        store.unit(|| Ok(store.conn()?.execute("INSERT INTO t VALUES (2)", ())?)).unwrap();
        assert!(started.elapsed() < BUSY_TIMEOUT / 2, "waited {:?}", started.elapsed());
        let rows: String = store.conn().unwrap().query_row("SELECT group_concat(n) FROM t", (), |r| r.get(0)).unwrap();
        assert_eq!(rows, "2");
    }

    #[test]
    fn the_log_is_copied_into_the_database_by_the_stores_thread_not_by_commits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Store::open(&path).unwrap();
        let size = || std::fs::metadata(&path).unwrap().len();
        {
            let conn = store.conn().unwrap();
            let every: i64 = conn.query_row("PRAGMA wal_autocheckpoint", (), |r| r.get(0)).unwrap();
            assert_eq!(every, 0, "a commit would checkpoint");
            conn.execute_batch("CREATE TABLE filler (b BLOB)").unwrap();
        }
        let before = size();
        // Four megabytes, committed in one unit: in the log first.
        store
            .unit(|| {
                let conn = store.conn()?;
                for _ in 0..64 {
                    conn.execute("INSERT INTO filler VALUES (zeroblob(65536))", ())?;
                }
                Ok(())
            })
            .unwrap();
        let mut waited = Duration::ZERO;
        while size() < before + 4 * 1024 * 1024 {
            assert!(waited < Duration::from_secs(10), "the log was not copied: {} bytes", size());
            std::thread::sleep(Duration::from_millis(20));
            waited += Duration::from_millis(20);
        }
        drop(store);
        // Its connections all closed, the log is gone.
        assert!(!dir.path().join("t.db-wal").exists(), "the checkpoint thread outlived its store");
    }

    #[test]
    fn the_log_shrinks_back_once_a_burst_held_by_a_reader_is_past() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let wal = dir.path().join("t.db-wal");
        let store = Store::open(&path).unwrap();
        store.conn().unwrap().execute_batch("CREATE TABLE filler (b BLOB)").unwrap();
        // A reader on an old snapshot keeps every frame after it in the log: a burst of units
        // grows it past the limit.
        let reader = open_connection(&path).unwrap();
        reader.execute_batch("BEGIN; SELECT count(*) FROM filler;").unwrap();
        let burst = (WAL_KEEP_BYTES / (256 * 1024)) as usize + 24;
        for _ in 0..burst {
            store.unit(|| Ok(store.conn()?.execute("INSERT INTO filler VALUES (zeroblob(262144))", ())?)).unwrap();
        }
        let grown = std::fs::metadata(&wal).unwrap().len();
        assert!(grown > WAL_KEEP_BYTES as u64 + 4 * 1024 * 1024, "the burst did not grow the log: {grown}");
        reader.execute_batch("COMMIT").unwrap();
        // Once the store's thread has copied the log and a unit starts it over, the file is cut
        // back to the limit.
        let (mut waited, mut small) = (Duration::ZERO, 0);
        loop {
            store.unit(|| Ok(store.conn()?.execute("INSERT INTO filler VALUES (x'00')", ())?)).unwrap();
            small += 1;
            let now = std::fs::metadata(&wal).unwrap().len();
            if now <= WAL_KEEP_BYTES as u64 {
                break;
            }
            assert!(waited < Duration::from_secs(10), "the log kept {now} bytes (it grew to {grown})");
            std::thread::sleep(CHECKPOINT_EVERY / 2);
            waited += CHECKPOINT_EVERY / 2;
        }
        let rows: i64 = store.conn().unwrap().query_row("SELECT count(*) FROM filler", (), |r| r.get(0)).unwrap();
        assert_eq!(rows, burst as i64 + small, "nothing lost");
    }

    /// Rows as a version-14 database holds them: a game with three moves (stored out of order,
    /// the clock set back once), a game without moves, and ratings established, provisional, and
    /// without a game.
    const V14_ROWS: &str = "
        INSERT INTO players (id, name, is_ai, created_at) VALUES (1, 'a', 0, 0), (2, 'b', 0, 0);
        INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, fen, ply,
            created_at, updated_at)
          VALUES (1, 't', 'c', 'chess', 'start', 1, 2, 'active', 'x', 3, 0, 0),
                 (2, 't', 'c', 'chess', 'start', 1, 2, 'active', 'start', 0, 0, 0);
        INSERT INTO moves (game_id, ply, typed, san, uci, played_at)
          VALUES (1, 1, 'e4', 'e4', 'e2e4', 1800000000), (1, 3, 'Nf3', 'Nf3', 'g1f3', 1800086400),
                 (1, 2, 'e5', 'e5', 'e7e5', 1799999990);
        INSERT INTO ratings (player_id, scope, variant, rating, deviation, volatility, games, wins, draws, losses,
            last_game_at)
          VALUES (1, '', 'chess', 1600, 60, 0.06, 30, 10, 10, 10, 1000),
                 (2, '', 'chess', 1400, 300, 0.09, 1, 0, 0, 1, 1000),
                 (1, '', 'atomic', 1500, 80, 0.05, 3, 1, 1, 1, NULL);";

    /// What migration 15 must have made of [`V14_ROWS`].
    fn v14_rows_migrated(store: &Store) {
        use crate::community::rating::Rating;
        let conn = store.conn().unwrap();
        let moves = games::moves(&conn, 1).unwrap();
        let expected = [(1, "e2e4", 1_800_000_000), (2, "e7e5", 1_799_999_990), (3, "g1f3", 1_800_086_400)];
        let got: Vec<(u32, &str, i64)> = moves.iter().map(|m| (m.ply, m.uci.as_str(), m.played_at)).collect();
        assert_eq!(got, expected);
        assert!(games::moves(&conn, 2).unwrap().is_empty());
        let rows: i64 = conn.query_row("SELECT count(*) FROM game_moves", (), |r| r.get(0)).unwrap();
        assert_eq!(rows, 1, "one row a game with moves");
        let view: Vec<(i64, i64, String)> = conn
            .query_all("SELECT game_id, ply, uci FROM moves ORDER BY game_id, ply", (), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(view, expected.map(|(p, u, _)| (1, i64::from(p), u.to_string())));
        for (player, variant, rating, deviation, volatility, last) in [
            (1, "chess", 1600.0, 60.0, 0.06, Some(1000)),
            (2, "chess", 1400.0, 300.0, 0.09, Some(1000)),
            (1, "atomic", 1500.0, 80.0, 0.05, None),
        ] {
            let at: i64 = conn
                .query_row(
                    "SELECT provisional_at FROM ratings WHERE player_id = ?1 AND variant = ?2",
                    sql::params![player, variant],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(at, Rating { rating, deviation, volatility }.provisional_from(last), "{player} {variant}");
        }
        // The migrated game goes on: a move appended after the migrated ones.
        let m = games::MoveUpdate { uci: "b8c6", fen_after: "y", deadline: None, remind_at: None, outcome: None };
        assert!(games::apply_move(&conn, 1, 3, &m, 1_800_100_000, &mut games::no_end_hook).unwrap());
        assert_eq!(games::moves(&conn, 1).unwrap().last().map(|m| (m.ply, m.played_at)), Some((4, 1_800_100_000)));
    }

    /// A version-14 database as refinery leaves it, and as the runner before refinery did.
    #[test]
    fn migration_15_keeps_a_version_14_databases_moves_and_rates_its_ratings() {
        for before_refinery in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("v14.db");
            let mut conn = open_connection(&path).unwrap();
            if before_refinery {
                schema::as_the_runner_before_refinery_left_it(&mut conn, 14);
            } else {
                assert_eq!(schema::migrate_with(&mut conn, &MIGRATIONS[..14]).unwrap(), 14);
            }
            conn.execute_batch(V14_ROWS).unwrap();
            drop(conn);
            v14_rows_migrated(&Store::open(&path).unwrap());
        }
    }

    #[cfg(feature = "postgres")]
    #[test]
    fn migration_15_keeps_a_version_14_databases_moves_and_rates_its_ratings_on_postgres() {
        let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        let database = server.create_database().unwrap();
        let mut client = database.connect().unwrap();
        let mut runner = postgres::runner().unwrap();
        runner = runner.set_target(refinery_core::Target::Version(14));
        runner.run(&mut client).unwrap();
        client.batch_execute(V14_ROWS).unwrap();
        drop(client);
        v14_rows_migrated(&Store::open_postgres(&database.url(), 2).unwrap());
    }

    /// Rows as a version-19 database holds them: two games (one finished, rated in two scopes, one
    /// open) and their rating history, with a row of no game (twice: NULLs are not compared).
    const V19_ROWS: &str = "
        INSERT INTO players (id, name, is_ai, created_at) VALUES (1, 'a', 0, 0), (2, 'b', 0, 0);
        INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, result, fen, ply,
            created_at, updated_at, community_id)
          VALUES (1, 't', 'c', 'chess', 'start', 1, 2, 'finished', '1-0', 'x', 3, 0, 10, 'k'),
                 (2, 't', 'c', 'chess', 'start', 2, 1, 'active', NULL, 'start', 0, 0, 20, 'k');
        INSERT INTO rating_history (id, player_id, scope, variant, game_id, at, rating_before, rating_after,
            deviation_after)
          VALUES (7, 1, '', 'chess', 1, 100, 1500, 1510.5, 300), (8, 2, '', 'chess', 1, 100, 1500, 1489.5, 300),
                 (9, 1, 't:k', 'chess', 1, 100, 1500, 1510.5, 300), (10, 2, 't:k', 'chess', 1, 100, 1500, 1489.5, 300),
                 (11, 1, '', 'chess', NULL, 50, 1400, 1500, 320), (12, 1, '', 'chess', NULL, 50, 1400, 1500, 320);";

    /// What migration 20 must have made of [`V19_ROWS`]: every history row as it was, still one a
    /// game, player and scope; the open game found by chat, player and community, the finished one
    /// by chat alone.
    fn v19_rows_migrated(store: &Store) {
        let conn = store.conn().unwrap();
        /// A history row's columns, in the table's order.
        type HistoryRow = (i64, i64, String, String, Option<i64>, i64, f64, f64, f64);
        let history: Vec<HistoryRow> = conn
            .query_all("SELECT * FROM rating_history ORDER BY id", (), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?))
            })
            .unwrap();
        let row = |id, player, scope: &str, game, at, before, after, deviation| {
            (id, player, scope.to_string(), "chess".to_string(), game, at, before, after, deviation)
        };
        assert_eq!(
            history,
            [
                row(7, 1, "", Some(1), 100, 1500.0, 1510.5, 300.0),
                row(8, 2, "", Some(1), 100, 1500.0, 1489.5, 300.0),
                row(9, 1, "t:k", Some(1), 100, 1500.0, 1510.5, 300.0),
                row(10, 2, "t:k", Some(1), 100, 1500.0, 1489.5, 300.0),
                row(11, 1, "", None, 50, 1400.0, 1500.0, 320.0),
                row(12, 1, "", None, 50, 1400.0, 1500.0, 320.0),
            ]
        );
        let global = ratings::history(&conn, 1, &ratings::Scope::Global, "chess", 10).unwrap();
        assert_eq!(
            global.iter().map(|p| (p.at, p.game_id)).collect::<Vec<_>>(),
            [(50, None), (50, None), (100, Some(1))]
        );
        // A game is still rated once a player and scope; new ids go on after the kept ones.
        let again = "INSERT INTO rating_history (player_id, scope, variant, game_id, at, rating_before, rating_after,
            deviation_after) VALUES (?1, ?2, 'chess', 1, 200, 1, 1, 1) RETURNING id";
        drop(conn);
        for (player, scope) in [(1, ""), (2, "t:k")] {
            let refused =
                store.unit(|| Ok(store.conn()?.query_row(again, sql::params![player, scope], |r| r.get::<i64>(0))?));
            assert!(refused.is_err(), "game 1 rated twice for {player} in {scope:?}");
        }
        let id = store.unit(|| Ok(store.conn()?.query_row(again, sql::params![1, "t:other"], |r| r.get::<i64>(0))?));
        // (13 on SQLite; PostgreSQL's sequence also gave the refused rows theirs.)
        assert!(id.unwrap() > 12, "a new id after the kept ones");
        let conn = store.conn().unwrap();
        let ids = |games: Vec<games::GameRow>| games.iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(ids(games::open_of_player(&conn, 1).unwrap()), [2]);
        assert_eq!(ids(games::open_in_chat(&conn, "t", "c", 1).unwrap()), [2]);
        assert_eq!(ids(games::active_in_chat(&conn, "t", "c").unwrap()), [2]);
        assert_eq!(games::latest_in_chat(&conn, "t", "c", 1).unwrap().map(|g| g.id), Some(2));
        let now = 1_800_000_000;
        assert_eq!(ids(games::pause_in_community(&conn, "t", "k", now).unwrap()), [2]);
    }

    /// A SQLite database migrated by refinery to `version`, holding `rows` (its directory kept with it).
    fn sqlite_at(version: usize, rows: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("v{version}.db"));
        let mut conn = open_connection(&path).unwrap();
        assert_eq!(schema::migrate_with(&mut conn, &MIGRATIONS[..version]).unwrap(), version);
        conn.execute_batch(rows).unwrap();
        (dir, path)
    }

    /// A database of the harness's PostgreSQL server migrated to `version`, holding `rows`.
    #[cfg(feature = "postgres")]
    fn postgres_at(version: i32, rows: &str) -> pg_harness::TestDatabase<'static> {
        let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        let database = server.create_database().unwrap();
        let mut client = database.connect().unwrap();
        postgres::runner().unwrap().set_target(refinery_core::Target::Version(version)).run(&mut client).unwrap();
        client.batch_execute(rows).unwrap();
        database
    }

    #[test]
    fn migration_20_keeps_a_version_19_databases_rating_history_and_finds_its_games() {
        let (_dir, path) = sqlite_at(19, V19_ROWS);
        v19_rows_migrated(&Store::open(&path).unwrap());
    }

    #[cfg(feature = "postgres")]
    #[test]
    fn migration_20_keeps_a_version_19_databases_rating_history_and_finds_its_games_on_postgres() {
        let database = postgres_at(19, V19_ROWS);
        let mut client = database.connect().unwrap();
        // The rows' ids given by hand: the identity goes on after them, as `capabot migrate` leaves it.
        client.batch_execute("SELECT setval(pg_get_serial_sequence('rating_history', 'id'), 12)").unwrap();
        drop(client);
        v19_rows_migrated(&Store::open_postgres(&database.url(), 2).unwrap());
    }

    /// A row of `game_moves` as version 20 kept it: the game, its moves in coordinates, their times.
    type V20Moves = (i64, String, Vec<u8>);

    /// A version-20 database's games: random games of every variant (launches, castling with
    /// missiles, promotions and detonations among them), game ids from 1; the statement writing
    /// their rows of `games`; and each game's row of `game_moves` as version 20 kept it (the moves in
    /// coordinates, the times).
    fn v20_games() -> (Vec<Vec<String>>, String, Vec<V20Moves>) {
        let games: Vec<Vec<String>> = games::random_games(21, 2).into_iter().map(|(_, moves)| moves).collect();
        let mut sql =
            String::from("INSERT INTO players (id, name, is_ai, created_at) VALUES (1, 'a', 0, 0), (2, 'b', 0, 0);");
        let mut rows = Vec::new();
        for (i, moves) in games.iter().enumerate() {
            let id = i as i64 + 1;
            sql.push_str(&format!(
                "INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, fen, ply,
                   created_at, updated_at) VALUES ({id}, 't', 'c', 'chess', 'start', 1, 2, 'active', 'x', {}, 0, 0);",
                moves.len()
            ));
            let times: Vec<i64> = (0..moves.len() as i64).map(|t| 1_800_000_000 + 60 * t).collect();
            rows.push((id, moves.join(" "), games::encode_times(&times)));
        }
        (games, sql, rows)
    }

    /// The statement writing a row of [`v20_games`]' `game_moves` (and breaking game 3's, with a move
    /// of another shape).
    const V20_MOVES: &str = "INSERT INTO game_moves (game_id, uci, times) VALUES ($1, $2, $3)";
    const V20_BROKEN: &str = "UPDATE game_moves SET uci = uci || ' e2-e4' WHERE game_id = 3";

    /// What migration 21 must have made of [`v20_games`]: each game's moves as they were, read by
    /// the store and by the `moves` view, in about two bytes a ply; a migrated game goes on.
    fn v20_moves_migrated(store: &Store, games: &[Vec<String>]) {
        let conn = store.conn().unwrap();
        let mut expected = Vec::new();
        for (i, moves) in games.iter().enumerate() {
            let id = i as i64 + 1;
            let read = games::moves(&conn, id).unwrap();
            assert_eq!(read.iter().map(|m| m.uci.clone()).collect::<Vec<_>>(), *moves, "game {id}");
            assert_eq!(read.last().map(|m| m.played_at), Some(1_800_000_000 + 60 * (moves.len() as i64 - 1)));
            expected.extend(moves.iter().enumerate().map(|(ply, uci)| (id, ply as i64 + 1, uci.clone())));
        }
        let view: Vec<(i64, i64, String)> = conn
            .query_all("SELECT game_id, ply, uci FROM moves ORDER BY game_id, ply", (), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(view, expected);
        let (bytes, plies): (i64, i64) = conn
            .query_row("SELECT sum(length(moves)), count(*) FROM game_moves", (), |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap();
        assert_eq!(plies as usize, games.len());
        assert!(bytes < expected.len() as i64 * 21 / 10, "{bytes} bytes for {} plies", expected.len());
        let ply = games[0].len() as u32;
        let m = games::MoveUpdate { uci: "a1a1", fen_after: "y", deadline: None, remind_at: None, outcome: None };
        assert!(games::apply_move(&conn, 1, ply, &m, 1_900_000_000, &mut games::no_end_hook).unwrap());
        assert_eq!(games::moves(&conn, 1).unwrap().last().map(|m| m.uci.as_str()), Some("a1a1"));
    }

    /// A [`v20_games`] database opened (and so migrated): its moves kept, or, when game 3 was
    /// broken, refused with an error naming the game and the move (`quoted` as the backend quotes it).
    fn v20_opened(opened: Result<Store>, games: &[Vec<String>], broken: Option<&str>) {
        match (opened, broken) {
            (Ok(store), None) => v20_moves_migrated(&store, games),
            (Err(e), Some(quoted)) => {
                let e = e.to_string();
                assert!(e.contains("migration 21, game 3") && e.contains(quoted), "{e}");
            }
            (Ok(_), Some(_)) => panic!("a move of another shape was migrated"),
            (Err(e), None) => panic!("{e}"),
        }
    }

    /// A version-20 database whose moves were stored in coordinates: every move of every variant
    /// kept; a move of another shape stops the migration, naming the game and the move.
    #[test]
    fn migration_21_keeps_a_version_20_databases_moves_in_bytes() {
        let (games, sql, rows) = v20_games();
        for broken in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("v20.db");
            let mut conn = open_connection(&path).unwrap();
            assert_eq!(schema::migrate_with(&mut conn, &MIGRATIONS[..20]).unwrap(), 20);
            conn.execute_batch(&sql).unwrap();
            for (id, uci, times) in &rows {
                conn.execute(V20_MOVES, rusqlite::params![id, uci, times]).unwrap();
            }
            if broken {
                conn.execute_batch(V20_BROKEN).unwrap();
            }
            drop(conn);
            v20_opened(Store::open(&path), &games, broken.then_some("\"e2-e4\""));
        }
    }

    #[cfg(feature = "postgres")]
    #[test]
    fn migration_21_keeps_a_version_20_databases_moves_in_bytes_on_postgres() {
        let (games, sql, rows) = v20_games();
        let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        for broken in [false, true] {
            let database = server.create_database().unwrap();
            let mut client = database.connect().unwrap();
            let runner = postgres::runner().unwrap().set_target(refinery_core::Target::Version(20));
            runner.run(&mut client).unwrap();
            client.batch_execute(&sql).unwrap();
            for (id, uci, times) in &rows {
                client.execute(V20_MOVES, &[id, uci, times]).unwrap();
            }
            if broken {
                client.batch_execute(V20_BROKEN).unwrap();
            }
            drop(client);
            v20_opened(Store::open_postgres(&database.url(), 2), &games, broken.then_some("'e2-e4'"));
        }
    }

    /// A version-21 game with its web address in hexadecimal text, as versions 14 to 21 kept it.
    const V21_GAME: &str = "
        INSERT INTO players (id, name, is_ai, created_at) VALUES (1, 'a', 0, 0), (2, 'b', 0, 0);
        INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, fen, ply,
            created_at, updated_at, web_slug)
          VALUES (1, 't', 'c', 'chess', 'start', 1, 2, 'active', 'start', 0, 0, 0, '00ff7a10c3e4b5d6978812aabbccddee');";

    /// What migration 22 must have made of [`V21_GAME`]: the same address, in 16 bytes.
    fn v21_game_migrated(store: &Store) {
        let conn = store.conn().unwrap();
        let address = "00ff7a10c3e4b5d6978812aabbccddee";
        assert_eq!(games::slug(&conn, 1).unwrap().as_deref(), Some(address));
        assert_eq!(games::by_slug(&conn, address).unwrap().map(|g| g.id), Some(1));
        let kept: i64 = conn.query_row("SELECT length(web_slug) FROM games WHERE id = 1", (), |r| r.get(0)).unwrap();
        assert_eq!(kept, 16);
    }

    /// On SQLite, and on PostgreSQL when built with it.
    #[test]
    fn migration_22_keeps_a_version_21_games_web_address_in_sixteen_bytes() {
        let (_dir, path) = sqlite_at(21, V21_GAME);
        v21_game_migrated(&Store::open(&path).unwrap());
        #[cfg(feature = "postgres")]
        {
            let database = postgres_at(21, V21_GAME);
            v21_game_migrated(&Store::open_postgres(&database.url(), 2).unwrap());
        }
    }

    /// A version-24 database: an active game with its reminder and deadline, a finished and an
    /// aborted game of one community, and outbox rows with gaps between their ids (pruned rows),
    /// one waiting, one sent, one failed, every column set (`PICTURE`: bytes, as the dialect writes them).
    const V24_ROWS: &str = "
        INSERT INTO players (id, name, is_ai, created_at) VALUES (1, 'a', 0, 0), (2, 'b', 0, 0);
        INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, result, fen, ply,
            created_at, updated_at, community_id, deadline, remind_at)
          VALUES (1, 't', 'c', 'chess', 'start', 1, 2, 'active', NULL, 'start', 0, 0, 30, 'k', 1000, 800),
                 (2, 't', 'c', 'chess', 'start', 2, 1, 'finished', '1-0', 'x', 3, 0, 20, 'k', NULL, NULL),
                 (3, 't', 'c', 'chess', 'start', 1, 2, 'aborted', NULL, 'start', 0, 0, 40, 'k', NULL, NULL);
        INSERT INTO outbox (id, platform, chat_key, reply, picture, created_at, state, attempts, next_attempt_at,
            message_id, error, failure, done_at)
          VALUES (5, 't', 'c:1', '{\"text\":\"one\"}', NULL, 100, 'sent', 1, 100, 'm5', NULL, NULL, 101),
                 (9, 't', 'c:1', '{\"text\":\"two\"}', PICTURE, 102, 'failed', 3, 150, NULL, 'gone', 'chat-gone', 160),
                 (12, 't', 'c:2', '{\"text\":\"three\"}', NULL, 103, 'pending', 0, 103, NULL, NULL, NULL, NULL);";

    /// One outbox row, every column in the table's order: what it says and where, then its delivery.
    type OutboxRow = (
        (i64, String, String, String, Option<Vec<u8>>, i64),
        (String, i64, i64, Option<String>, Option<String>, Option<String>, Option<i64>),
    );

    /// What migrations 25 to 27 must have made of [`V24_ROWS`]: the outbox's rows as they were (ids
    /// and all) and the next row after them; the active game due for its reminder, then for its
    /// deadline, from the one index of what is due; the community's recent games, the aborted one left out.
    fn v24_rows_migrated(store: &Store) {
        let conn = store.conn().unwrap();
        let rows: Vec<OutboxRow> = conn
            .query_all("SELECT * FROM outbox ORDER BY id", (), |r| {
                Ok((
                    (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?),
                    (r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?, r.get(11)?, r.get(12)?),
                ))
            })
            .unwrap();
        let said = |id, chat: &str, text: &str, picture: Option<&[u8]>, at| {
            (id, "t".to_string(), chat.to_string(), format!("{{\"text\":\"{text}\"}}"), picture.map(<[u8]>::to_vec), at)
        };
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            rows,
            [
                (said(5, "c:1", "one", None, 100), ("sent".into(), 1, 100, some("m5"), None, None, Some(101))),
                (
                    said(9, "c:1", "two", Some(b"\x89PNG"), 102),
                    ("failed".into(), 3, 150, None, some("gone"), some("chat-gone"), Some(160))
                ),
                (said(12, "c:2", "three", None, 103), ("pending".into(), 0, 103, None, None, None, None)),
            ]
        );
        assert_eq!(outbox::push(&conn, "t", "c:2", "four", None, 104).unwrap(), 13, "the next id after the kept ones");
        let ids = |rows: Vec<games::GameRow>| rows.into_iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(ids(games::due_reminders(&conn, 799, &["t"]).unwrap()), Vec::<i64>::new());
        assert_eq!(ids(games::due_reminders(&conn, 800, &["t"]).unwrap()), [1]);
        assert_eq!(ids(games::due_timeouts(&conn, 999, &["t"]).unwrap()), Vec::<i64>::new());
        assert_eq!(ids(games::due_timeouts(&conn, 1000, &["t"]).unwrap()), [1]);
        assert_eq!(games::next_due(&conn).unwrap(), Some(800));
        assert_eq!(ids(games::recent_in_community(&conn, "t", "k", None, 10).unwrap()), [1, 2]);
        assert_eq!(ids(games::recent_in_community(&conn, "t", "k", Some(2), 1).unwrap()), [1]);
    }

    /// On SQLite, and on PostgreSQL when built with it.
    #[test]
    fn migrations_25_to_27_keep_a_version_24_databases_outbox_and_find_its_games() {
        let (_dir, path) = sqlite_at(24, &V24_ROWS.replace("PICTURE", "unhex('89504e47')"));
        v24_rows_migrated(&Store::open(&path).unwrap());
        #[cfg(feature = "postgres")]
        {
            let database = postgres_at(24, &V24_ROWS.replace("PICTURE", "decode('89504e47', 'hex')"));
            let mut client = database.connect().unwrap();
            // The rows' ids given by hand: the identity goes on after them, as `capabot migrate` leaves it.
            client.batch_execute("SELECT setval(pg_get_serial_sequence('outbox', 'id'), 12)").unwrap();
            drop(client);
            v24_rows_migrated(&Store::open_postgres(&database.url(), 2).unwrap());
        }
    }

    #[test]
    fn times_round_trip_and_bad_bytes_are_refused() {
        for times in [vec![], vec![0], vec![1_800_000_000, 1_799_999_000, 1_800_086_400, i64::MAX, i64::MIN, -5]] {
            let bytes = games::encode_times(&times);
            assert_eq!(games::decode_times(&bytes), Some(times.clone()));
        }
        // A day between moves takes three bytes.
        assert_eq!(games::encode_times(&[0, 86_400]).len(), 1 + 3);
        assert_eq!(games::decode_times(&[0x80]), None, "a varint cut short");
        assert_eq!(games::decode_times(&[0xff; 11]), None, "a varint too long");
        assert_eq!(games::decode_times(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), None);
    }

    /// PostgreSQL's counterpart of the test above: every migration applied and recorded once, the
    /// schema's tables there, the soundness check answering, and opening again applying nothing.
    #[cfg(feature = "postgres")]
    #[test]
    fn open_postgres_applies_schema_once() {
        let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        let database = server.create_database().unwrap();
        let store = Store::open_postgres(&database.url(), 2).unwrap();
        assert_eq!(store.dialect(), sql::Dialect::Postgres);
        assert_eq!(store.path(), None);
        let conn = store.conn().unwrap();
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'games'",
                (),
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 1);
        let applied: i64 =
            conn.query_row(&format!("SELECT count(*) FROM {}", postgres::HISTORY_TABLE), (), |r| r.get(0)).unwrap();
        assert_eq!(applied as usize, postgres::MIGRATIONS.len());
        drop(conn);
        assert_eq!(store.integrity_check().unwrap(), "ok");
        drop(store);
        Store::open_postgres(&database.url(), 1).unwrap();
        let mut client = database.connect().unwrap();
        assert_eq!(postgres::migrate(&mut client).unwrap(), 0, "nothing left to apply");
    }
}
