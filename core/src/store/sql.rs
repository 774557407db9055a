//! One connection type over both backends (issue 33, `docs/postgres.md`): the store's modules are
//! written once against [`Connection`], whose few methods mirror the part of rusqlite's API the
//! store uses (`execute`, `query_row`, `prepare_cached(..).query_map(..)`, `.optional()`), so a
//! store function reads the same as before and runs on SQLite or on PostgreSQL.
//!
//! Statements are written in the SQL both engines accept, with SQLite's `?1`, `?2` placeholders;
//! for PostgreSQL they become `$1`, `$2` and the prepared statement is cached per connection.
//! Parameters and columns are the five kinds the schema uses ([`Value`]): the PostgreSQL schema
//! keeps SQLite's integers (flags are 0/1 `BIGINT`s, times Unix seconds), so one row mapper reads
//! both. The rare statement that must differ asks [`Connection::dialect`].

#[cfg(feature = "postgres")]
use std::cell::{Cell, RefCell};
use std::fmt;

/// A statement parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    Null,
    I64(i64),
    F64(f64),
    Text(&'a str),
    Bytes(&'a [u8]),
}

/// Which SQL dialect a connection speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A pooled PostgreSQL connection, with the statements prepared on it
/// ([`super::postgres::Session`]).
#[cfg(feature = "postgres")]
pub type PgClient = r2d2_postgres::r2d2::PooledConnection<super::postgres::Manager>;

/// One PostgreSQL connection borrowed from the pool.
#[cfg(feature = "postgres")]
pub struct PgConnection {
    client: RefCell<PgClient>,
}

/// A connection of either backend.
pub enum Connection {
    Sqlite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    /// With its open transaction: none, a write (`Some(true)`) or a read-only snapshot.
    Postgres(Box<PgConnection>, Cell<Option<bool>>),
}

/// A failed statement, from either backend.
#[derive(Debug)]
pub enum Error {
    Sqlite(rusqlite::Error),
    #[cfg(feature = "postgres")]
    Postgres(r2d2_postgres::postgres::Error),
    /// `query_row` found no row.
    NoRows,
    /// A column's value does not fit the type it is read as.
    Type {
        column: usize,
        wanted: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Sqlite(e) => write!(f, "SQLite: {e}"),
            #[cfg(feature = "postgres")]
            Error::Postgres(e) => match e.as_db_error() {
                Some(db) => write!(f, "PostgreSQL: {} ({})", db.message(), db.code().code()),
                None => write!(f, "PostgreSQL: {e}"),
            },
            Error::NoRows => f.write_str("no row"),
            Error::Type { column, wanted } => write!(f, "column {column} is not a {wanted}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::QueryReturnedNoRows => Error::NoRows,
            e => Error::Sqlite(e),
        }
    }
}

#[cfg(feature = "postgres")]
impl From<r2d2_postgres::postgres::Error> for Error {
    fn from(e: r2d2_postgres::postgres::Error) -> Self {
        if is_conflict_code(&e) {
            note_conflict();
        }
        if is_lost_connection(&e) {
            LOST.with(|l| l.set(true));
        }
        if e.as_db_error().is_some() {
            STATEMENT_FAILED.with(|f| f.set(true));
        }
        Error::Postgres(e)
    }
}

/// Whether PostgreSQL refused a statement because another transaction got in the way (a
/// serialization failure or a deadlock): the whole unit of work is to be run again.
#[cfg(feature = "postgres")]
fn is_conflict_code(e: &r2d2_postgres::postgres::Error) -> bool {
    use r2d2_postgres::postgres::error::SqlState;
    e.code().is_some_and(|c| *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED)
}

/// Whether the connection is gone (the server closed it: restarted, or ended an idle session; or
/// the socket failed): the transaction on it never committed, and another connection will do.
#[cfg(feature = "postgres")]
fn is_lost_connection(e: &r2d2_postgres::postgres::Error) -> bool {
    use r2d2_postgres::postgres::error::SqlState;
    let ended = [SqlState::ADMIN_SHUTDOWN, SqlState::CRASH_SHUTDOWN, SqlState::CANNOT_CONNECT_NOW];
    e.is_closed()
        || e.code().is_some_and(|c| ended.contains(c))
        || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
}

#[cfg(feature = "postgres")]
thread_local! {
    /// A statement on this thread found its connection gone since [`take_lost`] was last called.
    static LOST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a statement on this thread found its PostgreSQL connection gone since the last call
/// (and clears it); never on SQLite.
pub fn take_lost() -> bool {
    #[cfg(feature = "postgres")]
    return LOST.with(|l| l.replace(false));
    #[cfg(not(feature = "postgres"))]
    false
}

thread_local! {
    /// A statement on this thread met a conflict since [`take_conflict`] was last called. The
    /// error itself may be caught and turned into an answer further up (the core's savepoints):
    /// the flag still dooms the unit of work, which [`crate::store::Store::unit`] then runs again.
    static CONFLICT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(feature = "postgres")]
thread_local! {
    /// PostgreSQL refused a statement on this thread since the open transaction began: the
    /// transaction is aborted unless a savepoint undid the statement (see [`Connection::commit`]).
    static STATEMENT_FAILED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(feature = "postgres")]
thread_local! {
    /// The last statement PostgreSQL refused on this thread in the open transaction with an error
    /// other than "current transaction is aborted" (25P02): the one that aborted the transaction
    /// when a later statement meets 25P02 ([`take_aborted_by`]).
    static ABORTED_BY: RefCell<Option<(String, bool)>> = const { RefCell::new(None) };
}

/// Most characters of a statement's SQL kept for [`take_aborted_by`].
#[cfg(feature = "postgres")]
const SQL_SHOWN: usize = 160;

/// Notes `sql`'s error `e` as what aborted the open transaction, unless it is a statement met
/// after the abort (25P02) or no error of the server's. The SQL is the store's own text, with
/// its placeholders: no parameter (a name, a message, a secret) is kept.
#[cfg(feature = "postgres")]
fn note_failure(sql: &str, e: &Error) {
    let Error::Postgres(pg) = e else { return };
    let Some(db) = pg.as_db_error() else { return };
    if *db.code() == r2d2_postgres::postgres::error::SqlState::IN_FAILED_SQL_TRANSACTION {
        return;
    }
    let mut shown: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((cut, _)) = shown.char_indices().nth(SQL_SHOWN) {
        shown.truncate(cut);
        shown.push('…');
    }
    let conflict = is_conflict_code(pg);
    if conflict {
        // Which statements meet other writers, for an operator looking into retries.
        tracing::debug!(statement = %shown, "{e}: the unit of work runs again");
    }
    ABORTED_BY.with(|a| *a.borrow_mut() = Some((format!("{e}, in `{shown}`"), conflict)));
}

/// The error of the statement that last failed on this thread in the transaction opened last
/// (other than with 25P02), and whether it was a conflict with another writer, and forgets it:
/// when a later statement was refused with "current transaction is aborted", what aborted it.
/// Always `None` on SQLite.
pub fn take_aborted_by() -> Option<(String, bool)> {
    #[cfg(feature = "postgres")]
    return ABORTED_BY.with(|a| a.borrow_mut().take());
    #[cfg(not(feature = "postgres"))]
    None
}

#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
fn note_conflict() {
    CONFLICT.with(|c| c.set(true));
}

thread_local! {
    /// A read to send with this thread's next `COMMIT` on PostgreSQL ([`read_after_commit`]), and
    /// what the last one read.
    static AFTER_COMMIT: std::cell::RefCell<Option<AfterCommit>> = const { std::cell::RefCell::new(None) };
    static READ_AFTER_COMMIT: std::cell::RefCell<Option<Vec<Vec<Option<String>>>>> =
        const { std::cell::RefCell::new(None) };
}

/// A read for [`read_after_commit`]: a statement named `name` (`definition`, its parameters `$1`,
/// `$2`, …) and its values written out as SQL (`'{1,2}', 19`: literals of numbers only, nothing a
/// user wrote).
#[derive(Clone, Debug)]
pub struct AfterCommit {
    pub name: &'static str,
    pub definition: &'static str,
    pub values: String,
}

/// On PostgreSQL, inside a transaction: `read` is sent with the transaction's `COMMIT` in one round
/// trip and runs once the transaction has committed, outside it, reading what is committed then
/// (its rows, as text: [`take_read_after_commit`]); the statement is prepared by name on the
/// connection after its first run, outside any transaction. It replaces one asked for earlier; a
/// rollback forgets it. A read that cannot fail short of the connection's loss belongs here (the
/// commit's outcome is then unknown in any case): its failure fails the commit that happened.
/// Nothing on SQLite.
pub fn read_after_commit(read: AfterCommit) {
    AFTER_COMMIT.with(|a| *a.borrow_mut() = Some(read));
}

/// What the read sent with this thread's last commit read ([`read_after_commit`]), once.
pub fn take_read_after_commit() -> Option<Vec<Vec<Option<String>>>> {
    READ_AFTER_COMMIT.with(|r| r.borrow_mut().take())
}

thread_local! {
    /// Statements sent to the database on this thread ([`statements_sent`]).
    static SENT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many statements this thread has sent to a database so far, transaction control included
/// (`BEGIN`, `COMMIT`, savepoints): on PostgreSQL each is a round trip to the server. Tests count
/// what a reading costs with it (a web page's, `docs/load.md`). Not counted: preparing a statement
/// the first time a connection runs it, and the pool's check of a PostgreSQL connection it hands
/// out (one round trip more each).
pub fn statements_sent() -> u64 {
    SENT.with(std::cell::Cell::get)
}

fn sent() {
    SENT.with(|n| n.set(n.get() + 1));
}

thread_local! {
    /// Savepoints opened on this thread ([`savepoints_opened`]).
    static SAVEPOINTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many savepoints this thread has opened so far (each a copy of every page written under it on
/// SQLite, two round trips on PostgreSQL): tests check that a scheduler batch whose items all
/// succeed opens none (`docs/scale.md`, fix 14).
pub fn savepoints_opened() -> u64 {
    SAVEPOINTS.with(std::cell::Cell::get)
}

#[cfg(feature = "postgres")]
thread_local! {
    /// Statements this thread has prepared on a PostgreSQL connection ([`statements_prepared`]).
    static PREPARED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many statements this thread has prepared on PostgreSQL connections so far (each a round
/// trip and a plan more): a statement is prepared once per connection, however many times the
/// connection is borrowed from the pool (a test checks it).
#[cfg(feature = "postgres")]
pub fn statements_prepared() -> u64 {
    PREPARED.with(std::cell::Cell::get)
}

/// Whether a conflict was met on this thread since [`take_conflict`] was last called (keeps it).
pub fn conflict_met() -> bool {
    CONFLICT.with(std::cell::Cell::get)
}

/// Whether a conflict was met on this thread since the last call (and clears it).
pub fn take_conflict() -> bool {
    CONFLICT.with(|c| c.replace(false))
}

impl Error {
    /// Whether this is a conflict with another writer ([`take_conflict`]), to be retried.
    pub fn is_conflict(&self) -> bool {
        match self {
            #[cfg(feature = "postgres")]
            Error::Postgres(e) => is_conflict_code(e),
            _ => false,
        }
    }

    /// Whether PostgreSQL refused the statement because an earlier one of its transaction failed
    /// ("current transaction is aborted", 25P02): the error to report is that earlier one's
    /// ([`take_aborted_by`]).
    pub fn is_aborted(&self) -> bool {
        match self {
            #[cfg(feature = "postgres")]
            Error::Postgres(e) => {
                e.code() == Some(&r2d2_postgres::postgres::error::SqlState::IN_FAILED_SQL_TRANSACTION)
            }
            _ => false,
        }
    }
}

/// Result of a statement.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `query_row(..).optional()`: no row is `None`, not an error.
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(Error::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A value that can be a statement parameter.
pub trait ToSql {
    fn to_value(&self) -> Value<'_>;
}

macro_rules! integer_to_sql {
    ($($t:ty),*) => {$(
        impl ToSql for $t {
            fn to_value(&self) -> Value<'_> {
                // Every integer the store writes fits an i64 (ids, plies, Unix seconds, counts).
                Value::I64(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
integer_to_sql!(i64, i32, i16, i8, u64, u32, u16, u8, usize);

impl ToSql for bool {
    fn to_value(&self) -> Value<'_> {
        Value::I64(i64::from(*self))
    }
}

impl ToSql for f64 {
    fn to_value(&self) -> Value<'_> {
        Value::F64(*self)
    }
}

impl ToSql for str {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToSql for String {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToSql for [u8] {
    fn to_value(&self) -> Value<'_> {
        Value::Bytes(self)
    }
}

impl ToSql for Vec<u8> {
    fn to_value(&self) -> Value<'_> {
        Value::Bytes(self)
    }
}

impl<T: ToSql> ToSql for Option<T> {
    fn to_value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, T::to_value)
    }
}

impl<T: ToSql + ?Sized> ToSql for &T {
    fn to_value(&self) -> Value<'_> {
        (**self).to_value()
    }
}

impl ToSql for Value<'_> {
    fn to_value(&self) -> Value<'_> {
        *self
    }
}

/// A statement's parameters: `params![a, b]`, an array of one type, or `()` for none.
pub trait Params {
    fn values(&self) -> Vec<Value<'_>>;
}

impl Params for () {
    fn values(&self) -> Vec<Value<'_>> {
        Vec::new()
    }
}

impl Params for &[&dyn ToSql] {
    fn values(&self) -> Vec<Value<'_>> {
        self.iter().map(|p| p.to_value()).collect()
    }
}

impl<T: ToSql, const N: usize> Params for [T; N] {
    fn values(&self) -> Vec<Value<'_>> {
        self.iter().map(ToSql::to_value).collect()
    }
}

impl Params for Vec<Value<'_>> {
    fn values(&self) -> Vec<Value<'_>> {
        self.clone()
    }
}

/// Parameters of mixed types, like rusqlite's macro of the same name.
#[macro_export]
macro_rules! store_params {
    () => { () };
    ($($p:expr),+ $(,)?) => {
        &[$(&$p as &dyn $crate::store::sql::ToSql),+] as &[&dyn $crate::store::sql::ToSql]
    };
}
pub use crate::store_params as params;

/// A column's value as read.
#[derive(Clone, Debug, PartialEq)]
pub enum Column<'r> {
    Null,
    I64(i64),
    F64(f64),
    Text(std::borrow::Cow<'r, str>),
    Bytes(std::borrow::Cow<'r, [u8]>),
}

impl Column<'_> {
    /// The value, owning its text or bytes.
    pub fn into_owned(self) -> Column<'static> {
        match self {
            Column::Null => Column::Null,
            Column::I64(v) => Column::I64(v),
            Column::F64(v) => Column::F64(v),
            Column::Text(v) => Column::Text(v.into_owned().into()),
            Column::Bytes(v) => Column::Bytes(v.into_owned().into()),
        }
    }
}

impl ToSql for Column<'_> {
    fn to_value(&self) -> Value<'_> {
        match self {
            Column::Null => Value::Null,
            Column::I64(v) => Value::I64(*v),
            Column::F64(v) => Value::F64(*v),
            Column::Text(v) => Value::Text(v),
            Column::Bytes(v) => Value::Bytes(v),
        }
    }
}

/// A value that can be read from a column.
pub trait FromSql: Sized {
    /// The value, or the name of the type that could not be read (for the error).
    fn from_column(c: Column<'_>) -> Result<Self, &'static str>;
}

macro_rules! integer_from_sql {
    ($($t:ty),*) => {$(
        impl FromSql for $t {
            fn from_column(c: Column<'_>) -> Result<Self, &'static str> {
                match c {
                    Column::I64(v) => <$t>::try_from(v).map_err(|_| stringify!($t)),
                    _ => Err(stringify!($t)),
                }
            }
        }
    )*};
}
integer_from_sql!(i64, i32, i16, i8, u64, u32, u16, u8, usize);

impl FromSql for bool {
    fn from_column(c: Column<'_>) -> Result<Self, &'static str> {
        match c {
            Column::I64(v) => Ok(v != 0),
            _ => Err("bool"),
        }
    }
}

impl FromSql for f64 {
    fn from_column(c: Column<'_>) -> Result<Self, &'static str> {
        match c {
            Column::F64(v) => Ok(v),
            Column::I64(v) => Ok(v as f64),
            _ => Err("f64"),
        }
    }
}

impl FromSql for String {
    fn from_column(c: Column<'_>) -> Result<Self, &'static str> {
        match c {
            Column::Text(v) => Ok(v.into_owned()),
            _ => Err("text"),
        }
    }
}

impl FromSql for Vec<u8> {
    fn from_column(c: Column<'_>) -> Result<Self, &'static str> {
        match c {
            Column::Bytes(v) => Ok(v.into_owned()),
            Column::Text(v) => Ok(v.into_owned().into_bytes()),
            _ => Err("blob"),
        }
    }
}

impl<T: FromSql> FromSql for Option<T> {
    fn from_column(c: Column<'_>) -> Result<Self, &'static str> {
        match c {
            Column::Null => Ok(None),
            c => T::from_column(c).map(Some),
        }
    }
}

/// One result row; columns are read by index.
pub enum Row<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    #[cfg(feature = "postgres")]
    Postgres(&'r r2d2_postgres::postgres::Row),
}

impl Row<'_> {
    /// How many columns the row has.
    pub fn column_count(&self) -> usize {
        match self {
            Row::Sqlite(row) => row.as_ref().column_count(),
            #[cfg(feature = "postgres")]
            Row::Postgres(row) => row.len(),
        }
    }

    /// Column `idx` as text whatever its type (for comparing whole tables in tests and tools):
    /// `NULL`, the number, the text in quotes, or the bytes' length.
    pub fn display(&self, idx: usize) -> Result<String> {
        Ok(match self.column(idx)? {
            Column::Null => "NULL".into(),
            Column::I64(v) => v.to_string(),
            Column::F64(v) => format!("{v:?}"),
            Column::Text(v) => format!("{v:?}"),
            Column::Bytes(v) => format!("<{} bytes>", v.len()),
        })
    }

    /// Column `idx` as it is stored, whatever its type (for copying rows between databases).
    pub fn column(&self, idx: usize) -> Result<Column<'_>> {
        Ok(match self {
            Row::Sqlite(row) => {
                use rusqlite::types::ValueRef;
                match row.get_ref(idx)? {
                    ValueRef::Null => Column::Null,
                    ValueRef::Integer(v) => Column::I64(v),
                    ValueRef::Real(v) => Column::F64(v),
                    ValueRef::Text(v) => Column::Text(String::from_utf8_lossy(v)),
                    ValueRef::Blob(v) => Column::Bytes(v.into()),
                }
            }
            #[cfg(feature = "postgres")]
            Row::Postgres(row) => pg::column(row, idx)?,
        })
    }

    /// The value of column `idx` (from 0).
    pub fn get<T: FromSql>(&self, idx: usize) -> Result<T> {
        T::from_column(self.column(idx)?).map_err(|wanted| Error::Type { column: idx, wanted })
    }
}

/// The mapped rows of [`Statement::query_map`], each `Ok` (mapping stopped at the first error).
pub type Rows<T> = std::iter::Map<std::vec::IntoIter<T>, fn(T) -> Result<T>>;

/// A statement to run on a connection (prepared and cached by the backend at first use).
pub struct Statement<'c> {
    conn: &'c Connection,
    sql: String,
}

impl Statement<'_> {
    /// Runs the statement; the number of rows it changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        self.conn.execute(&self.sql, params)
    }

    /// Every row, mapped.
    pub fn query_map<T>(&mut self, params: impl Params, map: impl FnMut(&Row<'_>) -> Result<T>) -> Result<Rows<T>> {
        Ok(self.conn.query_all(&self.sql, params, map)?.into_iter().map(Ok as fn(T) -> Result<T>))
    }

    /// The first row, mapped; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(&mut self, params: impl Params, map: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        self.conn.query_row(&self.sql, params, map)
    }

    /// Whether the query returns any row.
    pub fn exists(&mut self, params: impl Params) -> Result<bool> {
        Ok(self.conn.query_row(&self.sql, params, |_| Ok(())).optional()?.is_some())
    }
}

impl Connection {
    /// The dialect this connection speaks.
    pub fn dialect(&self) -> Dialect {
        match self {
            Connection::Sqlite(_) => Dialect::Sqlite,
            #[cfg(feature = "postgres")]
            Connection::Postgres(..) => Dialect::Postgres,
        }
    }

    /// The database server's clock, in Unix seconds: one clock for every process sharing the
    /// database, where each machine's own may drift (what delivery leases are timed by).
    pub fn database_now(&self) -> Result<i64> {
        self.query_row(&format!("SELECT {}", self.database_now_sql()), (), |r| r.get(0))
    }

    /// [`Connection::database_now`] as an expression, to read the clock inside a statement.
    pub fn database_now_sql(&self) -> &'static str {
        match self.dialect() {
            Dialect::Sqlite => "unixepoch()",
            // The clock now, not the transaction's start (`now()`).
            Dialect::Postgres => "CAST(floor(extract(epoch FROM clock_timestamp())) AS BIGINT)",
        }
    }

    /// The clause that makes a scheduler's `SELECT` of due rows take them for this transaction:
    /// on PostgreSQL `FOR UPDATE SKIP LOCKED` (rows another process is handling are left to it,
    /// and come back when its transaction ends, committed or aborted by its death); on SQLite
    /// nothing, as its write transactions already run one at a time.
    pub fn take_due(&self) -> &'static str {
        match self.dialect() {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// The clause that makes a `SELECT` of one aggregate's row lock it for this write transaction:
    /// on PostgreSQL `FOR UPDATE`, so that what the transaction reads next (a game's moves after
    /// its row) is of the same state — at READ COMMITTED each statement sees what was committed
    /// before it, and a move committed between the two reads would make them disagree. A second
    /// writer of the same game waits for the first and then reads its result. Nothing on SQLite
    /// (one writer at a time) or in a read-only snapshot.
    pub fn lock_row(&self) -> &'static str {
        match self {
            #[cfg(feature = "postgres")]
            Connection::Postgres(_, open) if open.get() == Some(true) => " FOR UPDATE",
            _ => "",
        }
    }

    /// The SQLite connection underneath, where there is one (backup, integrity checks).
    pub fn as_sqlite(&self) -> Option<&rusqlite::Connection> {
        match self {
            Connection::Sqlite(conn) => Some(conn),
            #[cfg(feature = "postgres")]
            Connection::Postgres(..) => None,
        }
    }

    /// A statement for [`Statement::query_map`] and friends (the backends cache every statement).
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        self.prepare_cached(sql)
    }

    /// A statement for [`Statement::query_map`] and friends.
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        Ok(Statement { conn: self, sql: sql.to_owned() })
    }

    /// Runs one statement; the number of rows it changed.
    pub fn execute(&self, sql: &str, params: impl Params) -> Result<usize> {
        sent();
        self.forget_written(sql);
        let values = params.values();
        match self {
            Connection::Sqlite(conn) => {
                Ok(conn.prepare_cached(sql)?.execute(rusqlite::params_from_iter(values.iter()))?)
            }
            #[cfg(feature = "postgres")]
            Connection::Postgres(pg, open) => {
                if open.get().is_none() {
                    super::count_lone_write();
                }
                pg.with_statement(sql, &values, |client, statement| {
                    Ok(client.execute(statement, &pg::params(&values))? as usize)
                })
            }
        }
    }

    /// The first row of a query, mapped; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(&self, sql: &str, params: impl Params, map: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        let (mut map, mut first) = (Some(map), None);
        self.each_row(sql, params, |row| {
            first = map.take().map(|map| map(row));
            Ok(false)
        })?;
        first.unwrap_or(Err(Error::NoRows))
    }

    /// Every row of a query, mapped.
    pub fn query_all<T>(
        &self,
        sql: &str,
        params: impl Params,
        mut map: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.each_row(sql, params, |row| {
            out.push(map(row)?);
            Ok(true)
        })?;
        Ok(out)
    }

    /// Runs a query and hands its rows to `f` in order, one at a time: on SQLite the rows are read
    /// as `f` takes them, so a table of any size is gone through in constant memory (PostgreSQL's
    /// driver reads the whole result first).
    pub fn for_each_row(
        &self,
        sql: &str,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<()>,
    ) -> Result<()> {
        self.each_row(sql, params, |row| f(row).map(|()| true))
    }

    /// Runs a query and hands its rows to `f` in order, while `f` says to go on.
    fn each_row(&self, sql: &str, params: impl Params, mut f: impl FnMut(&Row<'_>) -> Result<bool>) -> Result<()> {
        sent();
        self.forget_written(sql);
        let values = params.values();
        match self {
            Connection::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(sql)?;
                let mut rows = statement.query(rusqlite::params_from_iter(values.iter()))?;
                while let Some(row) = rows.next()? {
                    if !f(&Row::Sqlite(row))? {
                        break;
                    }
                }
            }
            #[cfg(feature = "postgres")]
            Connection::Postgres(pg, _) => {
                let rows = pg.with_statement(sql, &values, |client, statement| {
                    Ok(client.query(statement, &pg::params(&values))?)
                })?;
                for row in &rows {
                    if !f(&Row::Postgres(row))? {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Runs statements without parameters (DDL, `SAVEPOINT`, …).
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        sent();
        self.forget_all_read(sql);
        match self {
            Connection::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            #[cfg(feature = "postgres")]
            Connection::Postgres(pg, _) => pg.client.borrow_mut().batch_execute(sql).map_err(|e| noted(sql, e.into())),
        }
    }

    /// Runs one statement of transaction control without parameters (`BEGIN`, `COMMIT`,
    /// `SAVEPOINT`, …). On SQLite it is prepared once per connection and kept in its statement
    /// cache: [`Connection::execute_batch`] parses its text again every time, and every unit of
    /// work runs two or more of these.
    pub fn control(&self, sql: &str) -> Result<()> {
        sent();
        if sql.starts_with("ROLLBACK") {
            self.forget_all_read(sql);
        }
        if sql.starts_with("SAVEPOINT") {
            SAVEPOINTS.with(|n| n.set(n.get() + 1));
        }
        match self {
            Connection::Sqlite(conn) => {
                conn.prepare_cached(sql)?.execute([])?;
                Ok(())
            }
            #[cfg(feature = "postgres")]
            Connection::Postgres(pg, _) => pg.client.borrow_mut().batch_execute(sql).map_err(|e| noted(sql, e.into())),
        }
    }

    /// Whether this is a SQLite connection.
    pub fn is_sqlite(&self) -> bool {
        matches!(self, Connection::Sqlite(_))
    }

    /// Whether no transaction is open.
    pub fn is_autocommit(&self) -> bool {
        match self {
            Connection::Sqlite(conn) => conn.is_autocommit(),
            #[cfg(feature = "postgres")]
            Connection::Postgres(_, open) => open.get().is_none(),
        }
    }

    /// Opens a transaction for writing: SQLite's `BEGIN IMMEDIATE` (one writer at a time),
    /// PostgreSQL's `BEGIN ISOLATION LEVEL SERIALIZABLE` (writers at once, but a transaction that
    /// read what another changed meanwhile fails with a serialization failure and is run again:
    /// see `docs/postgres.md`, "One discipline").
    pub fn begin_write(&self) -> Result<()> {
        self.begin("BEGIN IMMEDIATE")
    }

    /// Opens a transaction for reading several statements from one snapshot (PostgreSQL:
    /// REPEATABLE READ, read only).
    pub fn begin_read(&self) -> Result<()> {
        self.begin("BEGIN")
    }

    fn begin(&self, sqlite: &str) -> Result<()> {
        match self {
            Connection::Sqlite(_) => self.control(sqlite),
            #[cfg(feature = "postgres")]
            Connection::Postgres(pg, open) => {
                let write = sqlite != "BEGIN";
                let sql = if write {
                    "BEGIN ISOLATION LEVEL SERIALIZABLE"
                } else {
                    "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
                };
                sent();
                pg.client.borrow_mut().batch_execute(sql)?;
                AFTER_COMMIT.with(|a| a.borrow_mut().take());
                READ_AFTER_COMMIT.with(|r| r.borrow_mut().take());
                open.set(Some(write));
                STATEMENT_FAILED.with(|f| f.set(false));
                ABORTED_BY.with(|a| a.borrow_mut().take());
                Ok(())
            }
        }
    }

    /// Commits the open transaction.
    pub fn commit(&self) -> Result<()> {
        #[cfg(feature = "postgres")]
        if let Connection::Postgres(pg, _) = self
            && STATEMENT_FAILED.with(|f| f.replace(false))
        {
            // A statement failed in this transaction and its error was caught: unless a savepoint
            // undid it, PostgreSQL has aborted the transaction, and would answer COMMIT with a
            // silent ROLLBACK — work reported saved that was not. Asked first, it says so
            // (25P02), and the commit fails as it should; the transaction is ended all the same,
            // so that the connection goes back to its pool outside any transaction (lent inside
            // the aborted one, its next unit's BEGIN would fail with 25P02 too).
            sent();
            let checked = pg.client.borrow_mut().batch_execute("SELECT 1");
            if let Err(e) = checked {
                let _ = self.end("ROLLBACK");
                return Err(e.into());
            }
        }
        self.end("COMMIT")
    }

    /// Rolls the open transaction back.
    pub fn rollback(&self) -> Result<()> {
        self.end("ROLLBACK")
    }

    fn end(&self, sql: &str) -> Result<()> {
        self.forget_all_read(sql);
        match self {
            Connection::Sqlite(_) => self.control(sql),
            #[cfg(feature = "postgres")]
            Connection::Postgres(pg, open) => {
                open.set(None);
                sent();
                let after = AFTER_COMMIT.with(|a| a.borrow_mut().take()).filter(|_| sql == "COMMIT");
                let Some(read) = after else { return Ok(pg.client.borrow_mut().batch_execute(sql)?) };
                // One round trip: the statements of a simple query after a `COMMIT` run outside
                // the committed transaction, each in its own.
                let mut client = pg.client.borrow_mut();
                let prepared = client.prepared_reads.contains(&read.name);
                let text = if prepared {
                    // Its one plan, kept: left to itself PostgreSQL plans such a statement anew at
                    // every `EXECUTE` when the plan for any values costs more by its estimates
                    // than the plans for the values given, as an array parameter's does (ten
                    // elements guessed against a move's one or two): a plan costs about 0.1 ms,
                    // more than the read (`docs/load.md`, "Where PostgreSQL's time goes a move").
                    // `RESET` gives back the session's own setting; a failure undoes the `SET`.
                    format!(
                        "COMMIT; SET plan_cache_mode = force_generic_plan; EXECUTE {}({}); RESET plan_cache_mode",
                        read.name, read.values
                    )
                } else {
                    // The definition with its values in place of its parameters, once.
                    let mut text = format!("COMMIT; {}", read.definition);
                    let values: Vec<&str> = read.values.split(", ").collect();
                    for (n, value) in values.iter().enumerate().rev() {
                        text = text.replace(&format!("${}", n + 1), value);
                    }
                    text
                };
                let messages = client.simple_query(&text)?;
                if !prepared && client.batch_execute(&format!("PREPARE {} AS {}", read.name, read.definition)).is_ok() {
                    client.prepared_reads.push(read.name);
                }
                let rows = messages
                    .iter()
                    .filter_map(|m| match m {
                        r2d2_postgres::postgres::SimpleQueryMessage::Row(row) => {
                            Some((0..row.len()).map(|i| row.get(i).map(str::to_string)).collect())
                        }
                        _ => None,
                    })
                    .collect();
                READ_AFTER_COMMIT.with(|r| *r.borrow_mut() = Some(rows));
                Ok(())
            }
        }
    }

    /// A PostgreSQL connection from a pool.
    #[cfg(feature = "postgres")]
    pub fn postgres(client: PgClient) -> Connection {
        Connection::Postgres(Box::new(PgConnection { client: RefCell::new(client) }), Cell::new(None))
    }
}

#[cfg(feature = "postgres")]
impl PgConnection {
    /// Runs `f` with the client and the statement for `sql` with parameters of these values'
    /// types, prepared once per connection and signature (and kept with the connection while it
    /// is in the pool). Each parameter is declared with its
    /// value's type (`?1 + ?2` has no type PostgreSQL could infer); a NULL's type is left to
    /// PostgreSQL.
    fn with_statement<T>(
        &self,
        sql: &str,
        values: &[Value<'_>],
        f: impl FnOnce(&mut PgClient, &r2d2_postgres::postgres::Statement) -> Result<T>,
    ) -> Result<T> {
        let mut client = self.client.borrow_mut();
        // Found without allocating: the statement runs once per input, the preparation once.
        let same = |signature: &str| signature.chars().eq(values.iter().map(pg::signature));
        let cached = client
            .statements
            .get(sql)
            .and_then(|prepared| prepared.iter().find(|(signature, _)| same(signature)).map(|(_, s)| s.clone()));
        let statement = match cached {
            Some(s) => s,
            None => {
                PREPARED.with(|n| n.set(n.get() + 1));
                let types: Vec<_> = values.iter().map(pg::declared_type).collect();
                let s = client.prepare_typed(&numbered_placeholders(sql), &types).map_err(|e| noted(sql, e.into()))?;
                let signature = values.iter().map(pg::signature).collect();
                client.statements.entry(sql.to_owned()).or_default().push((signature, s.clone()));
                s
            }
        };
        f(&mut client, &statement).map_err(|e| noted(sql, e))
    }
}

/// `e`, noted as [`note_failure`] does.
#[cfg(feature = "postgres")]
fn noted(sql: &str, e: Error) -> Error {
    note_failure(sql, &e);
    e
}

#[cfg(feature = "postgres")]
mod pg {
    use super::{Column, Error, Value};
    use bytes::BytesMut;
    use r2d2_postgres::postgres::Row;
    use r2d2_postgres::postgres::types::{IsNull, Kind, ToSql, Type, to_sql_checked};
    use std::error::Error as StdError;

    /// One letter per parameter kind, for the prepared statements' cache key.
    pub(super) fn signature(value: &Value<'_>) -> char {
        match value {
            Value::Null => 'n',
            Value::I64(_) => 'i',
            Value::F64(_) => 'f',
            Value::Text(_) => 't',
            Value::Bytes(_) => 'b',
        }
    }

    /// The type a parameter is declared with: its value's, or for a NULL none (object id 0:
    /// PostgreSQL infers it from the statement).
    pub(super) fn declared_type(value: &Value<'_>) -> Type {
        match value {
            Value::Null => Type::new("unspecified".into(), 0, Kind::Pseudo, "pg_catalog".into()),
            Value::I64(_) => Type::INT8,
            Value::F64(_) => Type::FLOAT8,
            Value::Text(_) => Type::TEXT,
            Value::Bytes(_) => Type::BYTEA,
        }
    }

    pub(super) fn params<'v>(values: &'v [Value<'_>]) -> Vec<&'v (dyn ToSql + Sync)> {
        values.iter().map(|value| value as &(dyn ToSql + Sync)).collect()
    }

    /// A column by its PostgreSQL type: integers of every width and booleans as integers,
    /// floating point, text and bytes.
    pub(super) fn column<'r>(row: &'r Row, idx: usize) -> Result<Column<'r>, Error> {
        let ty =
            row.columns().get(idx).map(|c| c.type_().clone()).ok_or(Error::Type { column: idx, wanted: "column" })?;
        let column = match ty {
            Type::INT8 => row.try_get::<_, Option<i64>>(idx)?.map(Column::I64),
            Type::INT4 => row.try_get::<_, Option<i32>>(idx)?.map(|v| Column::I64(v.into())),
            Type::INT2 => row.try_get::<_, Option<i16>>(idx)?.map(|v| Column::I64(v.into())),
            Type::BOOL => row.try_get::<_, Option<bool>>(idx)?.map(|v| Column::I64(v.into())),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(idx)?.map(Column::F64),
            Type::FLOAT4 => row.try_get::<_, Option<f32>>(idx)?.map(|v| Column::F64(v.into())),
            Type::BYTEA => row.try_get::<_, Option<&[u8]>>(idx)?.map(|v| Column::Bytes(v.into())),
            _ => row.try_get::<_, Option<&str>>(idx)?.map(|v| Column::Text(v.into())),
        };
        Ok(column.unwrap_or(Column::Null))
    }

    /// A value is written as the type its parameter was declared with ([`declared_type`]), or
    /// for a NULL, of any type.
    impl ToSql for Value<'_> {
        fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
            match *self {
                Value::Null => Ok(IsNull::Yes),
                Value::I64(v) if *ty == Type::INT4 => i32::try_from(v)?.to_sql(ty, out),
                Value::I64(v) => v.to_sql(ty, out),
                Value::F64(v) => v.to_sql(ty, out),
                Value::Text(v) => v.to_sql(ty, out),
                Value::Bytes(v) => v.to_sql(ty, out),
            }
        }

        fn accepts(_: &Type) -> bool {
            true
        }

        to_sql_checked!();
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::ValueRef;
        Ok(rusqlite::types::ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::I64(v) => ValueRef::Integer(v),
            Value::F64(v) => ValueRef::Real(v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
            Value::Bytes(v) => ValueRef::Blob(v),
        }))
    }
}

/// Most values in one `IN (…)` list ([`in_list`]); longer lists are read in several statements.
pub const IN_LIST_MAX: usize = 64;

/// The rows of `sql` (made from an `IN (…)` list's placeholders) for each of `ids`, asked once
/// each, in one statement per [`IN_LIST_MAX`] ids: a web page's names or addresses in one round
/// trip rather than one per row.
pub fn query_by_ids<T>(
    conn: &Connection,
    ids: &[i64],
    sql: impl Fn(&str) -> String,
    mut map: impl FnMut(&Row<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut found = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(IN_LIST_MAX) {
        let (list, values) = in_list(chunk);
        let mut st = conn.prepare_cached(&sql(&list))?;
        for row in st.query_map(values, &mut map)? {
            found.push(row?);
        }
    }
    Ok(found)
}

/// Runs `sql` (made from an `IN (…)` list's placeholders, `?1` to `?n`, and the number `n + 1`
/// of the first placeholder after them) for each of `ids`, with `after` bound from `?n+1` on, in
/// one statement per [`IN_LIST_MAX`] ids; the rows it changed. A batch's rows deleted in one round
/// trip rather than one each.
pub fn execute_by_ids(
    conn: &Connection,
    ids: &[i64],
    sql: impl Fn(&str, usize) -> String,
    after: &[Value<'_>],
) -> Result<usize> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut changed = 0;
    for chunk in ids.chunks(IN_LIST_MAX) {
        let (list, mut values) = in_list(chunk);
        let next = values.len() + 1;
        values.extend(after.iter().cloned());
        changed += conn.execute(&sql(&list, next), values)?;
    }
    Ok(changed)
}

/// An `IN (…)` list of ids for one statement: its placeholders (`?1, ?2, …`) and its values.
/// The list is padded to a power of two (repeating the last id, which changes no answer), so a
/// page prepares and keeps a few statements, not one per length. Give at most [`IN_LIST_MAX`]
/// ids, and at least one.
fn in_list(ids: &[i64]) -> (String, Vec<Value<'static>>) {
    debug_assert!(!ids.is_empty() && ids.len() <= IN_LIST_MAX);
    let n = ids.len().next_power_of_two();
    let last = ids.last().copied().unwrap_or_default();
    let values = (0..n).map(|i| Value::I64(ids.get(i).copied().unwrap_or(last))).collect();
    let mut placeholders = String::with_capacity(n * 5);
    push_placeholders(&mut placeholders, 1, n);
    (placeholders, values)
}

/// The placeholders of a multi-row `VALUES` list of `rows` tuples of `width` values each, numbered
/// in order: `(?1, ?2), (?3, ?4)` for two rows of two. The values go in the same order, row by row.
/// Written into one string (a scheduled timeout's ratings wrote 80 placeholders, each formatted
/// into a string of its own, about 5 % of the item: docs/scale.md, "The tick's ratings").
pub fn values_rows(rows: usize, width: usize) -> String {
    values_rows_after(0, rows, width)
}

/// [`values_rows`] numbered from `?before + 1` on: a second list in a statement whose first
/// `before` values come ahead of it.
pub fn values_rows_after(before: usize, rows: usize, width: usize) -> String {
    values_list(rows, width, 5, |out, _, n| push_placeholders(out, before + n, 1))
}

/// How many columns a list of them names (`"p.id, p.name, coalesce(a, b)"`: 3), counted at compile
/// time where the list is a constant: the commas outside parentheses, and one.
pub const fn columns_in(list: &str) -> usize {
    let bytes = list.as_bytes();
    let (mut i, mut depth, mut columns) = (0, 0usize, 1);
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => columns += 1,
            _ => {}
        }
        i += 1;
    }
    columns
}

/// [`values_rows`] with each column's type spelled out, `(CAST(?1 AS BIGINT), CAST(?2 AS TEXT))`:
/// PostgreSQL types a `VALUES` list used as a table (`UPDATE … FROM (VALUES …)`) from its first
/// row, and cannot infer a parameter's type there from the column it is compared with or set to.
pub fn typed_values_rows(rows: usize, types: &[&str]) -> String {
    use std::fmt::Write;
    values_list(rows, types.len(), 24, |out, column, n| {
        let _ = write!(out, "CAST(?{n} AS {})", types[column]);
    })
}

/// A `VALUES` list of `rows` tuples of `width` values, each value written by `value(out, its
/// column, its placeholder's number)`, the numbers in order row by row.
fn values_list(rows: usize, width: usize, bytes_a_value: usize, value: impl Fn(&mut String, usize, usize)) -> String {
    let mut out = String::with_capacity(rows * width * bytes_a_value);
    for i in 0..rows {
        out.push_str(if i == 0 { "(" } else { "), (" });
        push_values(&mut out, i * width + 1, width, &value);
    }
    if rows > 0 {
        out.push(')');
    }
    out
}

/// Appends `count` placeholders numbered from `first`, separated by commas: `?3, ?4, ?5`.
fn push_placeholders(out: &mut String, first: usize, count: usize) {
    use std::fmt::Write;
    push_values(out, first, count, |out, _, n| {
        let _ = write!(out, "?{n}");
    });
}

/// `count` values separated by commas, each written by `value(out, its column from 0, its
/// placeholder's number from first)`.
fn push_values(out: &mut String, first: usize, count: usize, value: impl Fn(&mut String, usize, usize)) {
    for column in 0..count {
        if column > 0 {
            out.push_str(", ");
        }
        value(out, column, first + column);
    }
}

/// SQLite's `?N` placeholders as PostgreSQL's `$N`, leaving string literals and quoted names alone.
pub fn numbered_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote = None;
    for c in sql.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '?') => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// What a unit of work read once, kept for the rest of it ([`Connection::query_opt_in_unit`]).
///
/// Handling one input reads the same few rows again and again: the players of a game by id seven
/// times a move, their accounts and languages, the chat's settings, the game's moves before
/// appending one. Inside one write transaction a row reads the same until the transaction itself
/// changes it (SQLite lets one writer in at a time; PostgreSQL's SERIALIZABLE reads one snapshot
/// and this transaction's own changes), so a read may be answered from what was read before, until
/// a statement of the unit writes one of the tables it read. Each such read on PostgreSQL is a
/// round trip to the server (`docs/load.md`).
///
/// Kept per thread for the one connection of the thread's unit of work, from its `BEGIN` to its
/// end ([`unit_reads_begin`], [`unit_reads_end`]); every statement of that connection that is not a
/// plain `SELECT` forgets what it may have changed, by name: each kept read names its tables, and a
/// statement whose text contains one of them forgets it (a `DELETE` from a table others refer to
/// with `ON DELETE CASCADE`, [`CASCADE_PARENTS`], DDL, and rolling back to a savepoint forget
/// everything; a trigger writes only the table it is on). Reads outside a unit, or on another connection, are never kept.
struct UnitReads {
    /// The unit's connection, by address (0: no unit open on this thread).
    conn: usize,
    kept: Vec<KeptRead>,
    /// The tables the kept reads name, each a bit of [`KeptRead::tables`] (at most 32): a statement
    /// that writes is looked at once for each, not once for each kept read.
    names: Vec<&'static str>,
    /// The tables the unit's statements wrote, each once (a statement whose table [`written_table`]
    /// cannot tell, by its text) ([`unit_has_written`]).
    written: std::collections::BTreeSet<String>,
}

struct KeptRead {
    /// The tables it read, as bits of [`UnitReads::names`].
    tables: u32,
    sql: &'static str,
    params: Vec<OwnedValue>,
    value: std::rc::Rc<dyn std::any::Any>,
}

/// A [`Value`] owned, to compare parameters with.
#[derive(PartialEq)]
enum OwnedValue {
    Null,
    I64(i64),
    F64(u64),
    Text(String),
    Bytes(Vec<u8>),
}

impl OwnedValue {
    fn of(v: &Value<'_>) -> OwnedValue {
        match *v {
            Value::Null => OwnedValue::Null,
            Value::I64(i) => OwnedValue::I64(i),
            Value::F64(f) => OwnedValue::F64(f.to_bits()),
            Value::Text(t) => OwnedValue::Text(t.to_owned()),
            Value::Bytes(b) => OwnedValue::Bytes(b.to_owned()),
        }
    }
}

/// The one table a plain `INSERT INTO t`, `UPDATE t` or `DELETE FROM t` writes (a trigger writes only
/// its own table, and a cascade is [`CASCADE_PARENTS`]'s); `None` for any other statement (a `WITH`, say),
/// which is then taken to write every table its text names.
fn written_table(sql: &str) -> Option<&str> {
    let sql = sql.trim_start();
    let rest = ["INSERT INTO ", "UPDATE ", "DELETE FROM "]
        .iter()
        .find_map(|head| sql.get(..head.len()).filter(|s| s.eq_ignore_ascii_case(head)).map(|_| &sql[head.len()..]))?;
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let table = &rest[..end];
    // `UPDATE OR …`, `INSERT INTO "quoted"`, …: not read here.
    (!table.is_empty() && !table.eq_ignore_ascii_case("OR")).then_some(table)
}

/// Each `INSERT INTO t`, `UPDATE t` and `DELETE FROM t` among a statement's words (any case, any
/// spacing), in order: whether it deletes, and `t`. The statement's words are split once for what
/// [`Connection::forget_written`] asks of them.
fn dml_targets(sql: &str) -> Vec<(bool, &str)> {
    let words: Vec<&str> =
        sql.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let next_is = |i: usize, word: &str| words.get(i).is_some_and(|n| n.eq_ignore_ascii_case(word));
    let mut found = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let target = if w.eq_ignore_ascii_case("UPDATE") {
            words.get(i + 1).map(|t| (false, *t))
        } else if w.eq_ignore_ascii_case("INSERT") && next_is(i + 1, "INTO") {
            words.get(i + 2).map(|t| (false, *t))
        } else if w.eq_ignore_ascii_case("DELETE") && next_is(i + 1, "FROM") {
            words.get(i + 2).map(|t| (true, *t))
        } else {
            None
        };
        found.extend(target);
    }
    found
}

/// Whether a statement begins with `WITH`.
fn is_with(sql: &str) -> bool {
    sql.trim_start().get(..5).is_some_and(|s| s.eq_ignore_ascii_case("WITH "))
}

/// The tables of `dml` ([`dml_targets`]), each once (an `ON CONFLICT … DO UPDATE SET` names no
/// table: `SET` is left out).
fn written_by<'a>(dml: &[(bool, &'a str)]) -> Vec<&'a str> {
    let mut targets: Vec<&str> = Vec::new();
    for &(_, t) in dml {
        if !t.eq_ignore_ascii_case("SET") && !targets.contains(&t) {
            targets.push(t);
        }
    }
    targets
}

/// The tables a `WITH` statement writes: the word after each `INSERT INTO`, `UPDATE` and `DELETE
/// FROM` in it. `None` for any other statement. Its other names are not written: a column named
/// like a table (`ratings`' `games`) no longer forgets that table's reads.
#[cfg(test)]
fn with_targets(sql: &str) -> Option<Vec<&str>> {
    is_with(sql).then(|| written_by(&dml_targets(sql)))
}

/// Whether `sql` has a `DELETE FROM table` among its words (any case, any spacing): a `WITH`
/// statement deleting from another table (a move's offers) cascades from nothing.
#[cfg(test)]
fn deletes_from(sql: &str, table: &str) -> bool {
    dml_targets(sql).iter().any(|&(deletes, t)| deletes && t.eq_ignore_ascii_case(table))
}

/// The tables that rows of other tables refer to with `ON DELETE CASCADE`: a `DELETE` naming one of
/// them forgets every read a unit kept (a test checks the schema against this list).
pub const CASCADE_PARENTS: &[&str] = &["games", "ladders", "outbox_rows", "tournaments"];

/// At most this many reads are kept in a unit (then all are forgotten, and keeping starts again: a
/// move keeps about ten, a scheduler's batch of a hundred items far more).
const UNIT_READS_MAX: usize = 64;

impl UnitReads {
    /// Nothing kept.
    fn forget_all(&mut self) {
        self.kept.clear();
        self.names.clear();
    }

    /// Keeps `value` as the answer of `sql` with `params`, read from `tables` (replacing one kept).
    fn keep(
        &mut self,
        tables: &'static [&'static str],
        sql: &'static str,
        params: Vec<OwnedValue>,
        value: std::rc::Rc<dyn std::any::Any>,
    ) {
        self.kept.retain(|k| !(k.sql == sql && k.params == params));
        if self.kept.len() >= UNIT_READS_MAX || self.names.len() + tables.len() > 32 {
            self.forget_all();
        }
        let mut bits = 0;
        for &t in tables {
            let at = match self.names.iter().position(|&n| n == t) {
                Some(at) => at,
                None => {
                    self.names.push(t);
                    self.names.len() - 1
                }
            };
            bits |= 1 << at;
        }
        self.kept.push(KeptRead { tables: bits, sql, params, value });
    }

    /// Remembers that the unit wrote `what` (a table, or a statement's text), once.
    fn note_written(&mut self, what: &str) {
        if !self.written.contains(what) {
            self.written.insert(what.to_owned());
        }
    }

    /// Forgets the reads of `table` (what `sql` writes, when [`written_table`] could tell), else of
    /// every table whose name `sql` contains.
    fn forget_tables_in(&mut self, table: Option<&str>, sql: &str) {
        let names = self.names.iter().enumerate();
        let named = match table {
            Some(table) => names.filter(|(_, n)| **n == table).fold(0u32, |b, (i, _)| b | 1 << i),
            None => names.filter(|(_, n)| sql.contains(*n)).fold(0u32, |b, (i, _)| b | 1 << i),
        };
        if named != 0 {
            self.kept.retain(|k| k.tables & named == 0);
        }
    }
}

thread_local! {
    static UNIT_READS: std::cell::RefCell<UnitReads> = const {
        std::cell::RefCell::new(UnitReads {
            conn: 0,
            kept: Vec::new(),
            names: Vec::new(),
            written: std::collections::BTreeSet::new(),
        })
    };
    /// Reads answered from [`UNIT_READS`] on this thread ([`reads_kept`]).
    static READS_KEPT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many reads this thread answered from what its units of work had read before (tests).
pub fn reads_kept() -> u64 {
    READS_KEPT.with(std::cell::Cell::get)
}

/// A unit of work begins on `conn`, this thread's: its reads may be kept until [`unit_reads_end`].
pub(crate) fn unit_reads_begin(conn: &Connection) {
    UNIT_READS.with(|r| {
        let mut r = r.borrow_mut();
        r.conn = conn as *const Connection as usize;
        r.forget_all();
        r.written.clear();
    });
}

/// The thread's unit of work ends (committed or not): nothing it read is kept.
pub(crate) fn unit_reads_end() {
    UNIT_READS.with(|r| {
        let mut r = r.borrow_mut();
        r.conn = 0;
        r.forget_all();
        r.written.clear();
    });
}

/// Whether this thread's unit of work has run a statement that may have written a table whose name
/// contains `table` (every statement other than a plain `SELECT` counts, rolled back or not). False
/// outside a unit.
pub fn unit_has_written(table: &str) -> bool {
    UNIT_READS.with(|r| {
        let r = r.borrow();
        r.conn != 0 && r.written.iter().any(|w| w.contains(table))
    })
}

impl Connection {
    /// Whether this connection is the current unit of work's (whose reads are kept).
    pub(crate) fn is_units(&self) -> bool {
        let me = self as *const Connection as usize;
        UNIT_READS.with(|r| r.borrow().conn == me)
    }

    /// `sql` runs on this connection: if it is the unit's and `sql` may write, what it may change
    /// is forgotten.
    fn forget_written(&self, sql: &str) {
        let read_only = sql.trim_start().get(..6).is_some_and(|s| s.eq_ignore_ascii_case("SELECT"));
        if read_only || !self.is_units() {
            return;
        }
        // A delete from a table others refer to with `ON DELETE CASCADE` reaches tables it does
        // not name.
        let (cascades, targets) = match written_table(sql) {
            Some(t) => {
                (CASCADE_PARENTS.contains(&t) && sql.trim_start()[..6].eq_ignore_ascii_case("DELETE"), Some(vec![t]))
            }
            None => {
                let dml = dml_targets(sql);
                let deleted = |parent: &&str| dml.iter().any(|&(deletes, t)| deletes && t.eq_ignore_ascii_case(parent));
                (CASCADE_PARENTS.iter().any(deleted), is_with(sql).then(|| written_by(&dml)))
            }
        };
        UNIT_READS.with(|r| {
            let r = &mut *r.borrow_mut();
            match (cascades, &targets) {
                (true, _) => r.forget_all(),
                (false, Some(targets)) => targets.iter().for_each(|t| r.forget_tables_in(Some(t), sql)),
                (false, None) => r.forget_tables_in(None, sql),
            }
            match &targets {
                Some(targets) => targets.iter().for_each(|t| r.note_written(t)),
                None => r.note_written(sql),
            }
        });
    }

    /// Forgets every read the unit kept, when this is its connection: between the independent
    /// items of a scheduler's batch, whose reads are of no use to the next item (kept, they would
    /// fill the list, whose overflow forgets everything at some point within an item).
    pub fn forget_kept(&self) {
        if self.is_units() {
            UNIT_READS.with(|r| r.borrow_mut().forget_all());
        }
    }

    /// Everything the unit read is forgotten (a rollback to a savepoint, DDL).
    fn forget_all_read(&self, sql: &str) {
        if self.is_units() {
            UNIT_READS.with(|r| {
                let mut r = r.borrow_mut();
                r.forget_all();
                r.note_written(sql);
            });
        }
    }

    /// The first row of `sql` (which reads `tables`, and nothing else), mapped; `None` when there
    /// is none. Inside a unit of work, on its connection, the answer is kept and given again for
    /// the same statement and parameters until a statement of the unit writes one of `tables`
    /// (see [`UnitReads`]); elsewhere it is read every time.
    pub fn query_opt_in_unit<T: Clone + 'static>(
        &self,
        tables: &'static [&'static str],
        sql: &'static str,
        params: impl Params,
        map: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        self.query_opt_kept_as(tables, sql, sql, params, map)
    }

    /// [`Connection::query_opt_in_unit`] with the answer kept under `key` rather than the text of
    /// `sql` (a statement written two ways that reads the same row, such as with and without a
    /// lock; [`Connection::keep_in_unit`] gives the answer under that key from elsewhere).
    pub fn query_opt_kept_as<T: Clone + 'static>(
        &self,
        tables: &'static [&'static str],
        key: &'static str,
        sql: &str,
        params: impl Params,
        map: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        if !self.is_units() {
            return self.query_row(sql, params, map).optional();
        }
        let owned: Vec<OwnedValue> = params.values().iter().map(OwnedValue::of).collect();
        kept_or_read(tables, key, owned, || self.query_row(sql, params, map).optional())
    }

    /// Keeps `value` as the answer to the read kept under `key` with `params` (read from `tables`),
    /// when this is the unit's connection: a statement that returned the row anyway (a list, an
    /// `UPDATE … RETURNING`) saves reading it again. `value` must be what that read would answer now.
    pub fn keep_in_unit<T: Clone + 'static>(
        &self,
        tables: &'static [&'static str],
        key: &'static str,
        params: impl Params,
        value: Option<T>,
    ) {
        if !self.is_units() {
            return;
        }
        let params: Vec<OwnedValue> = params.values().iter().map(OwnedValue::of).collect();
        UNIT_READS.with(|r| {
            let mut r = r.borrow_mut();
            r.keep(tables, key, params, std::rc::Rc::new(value));
        });
    }

    /// Whether this is the unit's connection and it keeps an answer to the read kept under `key`
    /// with `params` (a read that would not reach the database).
    pub(crate) fn is_kept_in_unit(&self, key: &'static str, params: impl Params) -> bool {
        if !self.is_units() {
            return false;
        }
        let params: Vec<OwnedValue> = params.values().iter().map(OwnedValue::of).collect();
        UNIT_READS.with(|r| r.borrow().kept.iter().any(|k| k.sql == key && k.params == params))
    }

    /// Keeps `rows` as the answer to [`Connection::query_all_in_unit`]'s `sql` with `params`, as
    /// [`Connection::keep_in_unit`] keeps one row's.
    pub fn keep_all_in_unit<T: Clone + 'static>(
        &self,
        tables: &'static [&'static str],
        sql: &'static str,
        params: impl Params,
        rows: Vec<T>,
    ) {
        if !self.is_units() {
            return;
        }
        let params: Vec<OwnedValue> = params.values().iter().map(OwnedValue::of).collect();
        UNIT_READS.with(|r| r.borrow_mut().keep(tables, sql, params, std::rc::Rc::new(rows)));
    }

    /// Every row of `sql` (which reads `tables`, and nothing else), mapped: kept in a unit of work
    /// as [`Connection::query_opt_in_unit`] keeps its row.
    pub fn query_all_in_unit<T: Clone + 'static>(
        &self,
        tables: &'static [&'static str],
        sql: &'static str,
        params: impl Params,
        map: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        if !self.is_units() {
            return self.query_all(sql, params, map);
        }
        let owned: Vec<OwnedValue> = params.values().iter().map(OwnedValue::of).collect();
        kept_or_read(tables, sql, owned, || self.query_all(sql, params, map))
    }
}

/// The unit's kept answer to `sql` with `params`, else `read`'s (then kept).
fn kept_or_read<V: Clone + 'static>(
    tables: &'static [&'static str],
    sql: &'static str,
    params: Vec<OwnedValue>,
    read: impl FnOnce() -> Result<V>,
) -> Result<V> {
    let found = UNIT_READS.with(|r| {
        r.borrow()
            .kept
            .iter()
            .find(|k| k.sql == sql && k.params == params)
            .and_then(|k| k.value.downcast_ref::<V>().cloned())
    });
    if let Some(v) = found {
        READS_KEPT.with(|n| n.set(n.get() + 1));
        return Ok(v);
    }
    let v = read()?;
    UNIT_READS.with(|r| {
        let mut r = r.borrow_mut();
        r.keep(tables, sql, params, std::rc::Rc::new(v.clone()));
    });
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement's written table, as the reads a unit keeps are forgotten by it: the plain forms
    /// name it; anything else is `None` (then every table its text names counts as written).
    #[test]
    fn the_table_a_statement_writes() {
        assert_eq!(written_table("INSERT INTO outbox (platform) VALUES (?1)"), Some("outbox"));
        assert_eq!(written_table("\n   update games SET ply = 1"), Some("games"));
        assert_eq!(written_table("DELETE FROM offers WHERE game_id = ?1"), Some("offers"));
        assert_eq!(written_table("INSERT INTO player_prefs(player_id) VALUES (1)"), Some("player_prefs"));
        assert_eq!(written_table("UPDATE OR IGNORE games SET ply = 1"), None);
        assert_eq!(written_table("INSERT OR REPLACE INTO games VALUES (1)"), None);
        assert_eq!(written_table("WITH x AS (DELETE FROM games RETURNING id) SELECT 1"), None);
        assert_eq!(with_targets("WITH x AS (DELETE FROM games RETURNING id) SELECT 1"), Some(vec!["games"]));
        assert_eq!(
            with_targets(
                "WITH rated AS (INSERT INTO ratings (scope, games) VALUES (?1, ?2) ON CONFLICT (scope) DO UPDATE
                 SET games = excluded.games) INSERT INTO rating_history (player_id) VALUES (?3)"
            ),
            Some(vec!["ratings", "rating_history"])
        );
        assert_eq!(
            with_targets(
                "with m as (update games set ply = 1 returning id), c as (delete from offers where 1) select * from m"
            ),
            Some(vec!["games", "offers"])
        );
        assert_eq!(with_targets("UPDATE games SET ply = 1"), None);
        assert_eq!(written_table("SAVEPOINT work"), None);
    }

    /// A `WITH` statement cascades from a table only when it deletes from it: a move's one statement
    /// (its game's row, its moves, its offers' clearing) keeps the unit's other reads.
    #[test]
    fn a_statement_deletes_from_a_table_only_when_it_says_so() {
        assert!(deletes_from("WITH x AS (DELETE FROM games RETURNING id) SELECT 1", "games"));
        assert!(deletes_from("with x as (delete\n   from Games where id = 1) select 1", "games"));
        let the_move = "WITH moved AS (UPDATE games SET ply = ply + 1 WHERE id = ?5 RETURNING id),
           cleared AS (DELETE FROM offers WHERE game_id IN (SELECT id FROM moved)) SELECT id FROM moved";
        assert!(!deletes_from(the_move, "games"));
        assert!(deletes_from(the_move, "offers"));
        assert!(!deletes_from("WITH x AS (DELETE FROM games_due WHERE id = 1) SELECT 1", "games"));
    }

    #[test]
    fn placeholders_are_numbered_outside_literals() {
        assert_eq!(
            numbered_placeholders("SELECT '?1', \"a?\" FROM t WHERE x = ?1 AND y = ?12"),
            "SELECT '?1', \"a?\" FROM t WHERE x = $1 AND y = $12"
        );
    }

    #[test]
    fn a_column_lists_columns_are_counted_outside_parentheses() {
        assert_eq!(columns_in("p.id"), 1);
        assert_eq!(columns_in("p.id, p.name, coalesce(a, b), f(g(x, y), z)"), 4);
        const COUNTED: usize = columns_in("a, b, c");
        assert_eq!(COUNTED, 3);
    }

    #[test]
    fn values_lists_number_their_placeholders_row_by_row() {
        assert_eq!(values_rows(2, 3), "(?1, ?2, ?3), (?4, ?5, ?6)");
        assert_eq!(values_rows(1, 1), "(?1)");
        assert_eq!(values_rows(3, 2), "(?1, ?2), (?3, ?4), (?5, ?6)");
        assert_eq!(values_rows(0, 4), "");
        assert_eq!(values_rows_after(6, 2, 2), "(?7, ?8), (?9, ?10)");
        assert_eq!(
            typed_values_rows(2, &["BIGINT", "TEXT"]),
            "(CAST(?1 AS BIGINT), CAST(?2 AS TEXT)), (CAST(?3 AS BIGINT), CAST(?4 AS TEXT))"
        );
        assert_eq!(typed_values_rows(0, &["BIGINT"]), "");
    }

    #[test]
    fn in_lists_are_padded_to_a_power_of_two() {
        let (sql, values) = in_list(&[7, 3, 5]);
        assert_eq!(sql, "?1, ?2, ?3, ?4");
        assert_eq!(values, vec![Value::I64(7), Value::I64(3), Value::I64(5), Value::I64(5)]);
        let (sql, values) = in_list(&[9]);
        assert_eq!((sql.as_str(), values), ("?1", vec![Value::I64(9)]));
    }
}
