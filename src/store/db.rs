//! Prototype (issue 33, see `docs/postgres.md`): one connection type over both backends, so that a
//! store function can be written once. Statements use SQLite's `?1`, `?2` placeholders and the SQL
//! both engines accept; for PostgreSQL the placeholders become `$1`, `$2`. Parameters and columns
//! are the five kinds the schema uses ([`Value`]). No store module uses it yet.

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

/// A connection of either backend. Transactions are statements (`BEGIN`, `COMMIT`, `SAVEPOINT`),
/// as in the SQLite store.
pub enum Db<'c> {
    Sqlite(&'c rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Postgres(&'c mut r2d2_postgres::postgres::Client),
}

/// A failed statement, from either backend.
#[derive(Debug)]
pub enum DbError {
    Sqlite(rusqlite::Error),
    #[cfg(feature = "postgres")]
    Postgres(r2d2_postgres::postgres::Error),
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Sqlite(e) => write!(f, "SQLite error: {e}"),
            #[cfg(feature = "postgres")]
            DbError::Postgres(e) => write!(f, "PostgreSQL error: {e}"),
        }
    }
}

impl std::error::Error for DbError {}

/// One result row; columns are read by index.
pub enum Row<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    #[cfg(feature = "postgres")]
    Postgres(&'r r2d2_postgres::postgres::Row),
}

impl Row<'_> {
    pub fn i64(&self, column: usize) -> Result<i64, DbError> {
        match self {
            Row::Sqlite(row) => row.get(column).map_err(DbError::Sqlite),
            #[cfg(feature = "postgres")]
            Row::Postgres(row) => row.try_get(column).map_err(DbError::Postgres),
        }
    }

    pub fn opt_text(&self, column: usize) -> Result<Option<String>, DbError> {
        match self {
            Row::Sqlite(row) => row.get(column).map_err(DbError::Sqlite),
            #[cfg(feature = "postgres")]
            Row::Postgres(row) => row.try_get(column).map_err(DbError::Postgres),
        }
    }

    pub fn text(&self, column: usize) -> Result<String, DbError> {
        match self {
            Row::Sqlite(row) => row.get(column).map_err(DbError::Sqlite),
            #[cfg(feature = "postgres")]
            Row::Postgres(row) => row.try_get(column).map_err(DbError::Postgres),
        }
    }
}

impl Db<'_> {
    /// Runs one statement; the number of rows it changed.
    pub fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, DbError> {
        match self {
            Db::Sqlite(conn) => {
                let n = conn
                    .prepare_cached(sql)
                    .and_then(|mut statement| statement.execute(rusqlite::params_from_iter(params)))
                    .map_err(DbError::Sqlite)?;
                Ok(n as u64)
            }
            #[cfg(feature = "postgres")]
            Db::Postgres(client) => {
                client.execute(numbered_placeholders(sql).as_str(), &pg_params(params)).map_err(DbError::Postgres)
            }
        }
    }

    /// Runs a query and maps every row.
    pub fn query<T>(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
        mut map: impl FnMut(&Row<'_>) -> Result<T, DbError>,
    ) -> Result<Vec<T>, DbError> {
        match self {
            Db::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(sql).map_err(DbError::Sqlite)?;
                let mut rows = statement.query(rusqlite::params_from_iter(params)).map_err(DbError::Sqlite)?;
                let mut out = Vec::new();
                while let Some(row) = rows.next().map_err(DbError::Sqlite)? {
                    out.push(map(&Row::Sqlite(row))?);
                }
                Ok(out)
            }
            #[cfg(feature = "postgres")]
            Db::Postgres(client) => {
                let rows =
                    client.query(numbered_placeholders(sql).as_str(), &pg_params(params)).map_err(DbError::Postgres)?;
                rows.iter().map(|row| map(&Row::Postgres(row))).collect()
            }
        }
    }

    /// Opens a write transaction: SQLite's `BEGIN IMMEDIATE` (one writer at a time), PostgreSQL's
    /// `BEGIN` (row locks and the statements' own guards decide).
    pub fn begin_write(&mut self) -> Result<(), DbError> {
        match self {
            Db::Sqlite(_) => self.batch("BEGIN IMMEDIATE"),
            #[cfg(feature = "postgres")]
            Db::Postgres(_) => self.batch("BEGIN"),
        }
    }

    /// Runs statements without parameters (`BEGIN`, `COMMIT`, DDL).
    pub fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        match self {
            Db::Sqlite(conn) => conn.execute_batch(sql).map_err(DbError::Sqlite),
            #[cfg(feature = "postgres")]
            Db::Postgres(client) => client.batch_execute(sql).map_err(DbError::Postgres),
        }
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

#[cfg(feature = "postgres")]
mod pg {
    use super::Value;
    use bytes::BytesMut;
    use r2d2_postgres::postgres::types::{IsNull, ToSql, Type, to_sql_checked};
    use std::error::Error;

    /// PostgreSQL infers each parameter's type from the statement; a value is written as that
    /// type (a NULL of any type, an integer as `int8` or `int4`).
    impl ToSql for Value<'_> {
        fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
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

#[cfg(feature = "postgres")]
fn pg_params<'v>(params: &'v [Value<'_>]) -> Vec<&'v (dyn r2d2_postgres::postgres::types::ToSql + Sync)> {
    params.iter().map(|value| value as &(dyn r2d2_postgres::postgres::types::ToSql + Sync)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_literals() {
        assert_eq!(
            numbered_placeholders("SELECT '?1', \"a?\" FROM t WHERE x = ?1 AND y = ?12"),
            "SELECT '?1', \"a?\" FROM t WHERE x = $1 AND y = $12"
        );
    }
}
