//! Where a test server keeps its data: SQLite in its own directory (the default), or a PostgreSQL
//! database the caller provides, as a production Synapse is deployed.

/// Synapse's database.
#[derive(Clone, Debug, Default)]
pub enum Database {
    /// A SQLite file in the server's temporary directory.
    #[default]
    Sqlite,
    /// A PostgreSQL database (UTF-8 with the `C` collation, as Synapse requires), reached through
    /// `psycopg2`, which the harness installs into its environment on first need.
    Postgres(PostgresDatabase),
}

/// How Synapse reaches its PostgreSQL database.
#[derive(Clone)]
pub struct PostgresDatabase {
    /// A host name or address, or the directory of the server's Unix socket.
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    pub dbname: String,
}

impl std::fmt::Debug for PostgresDatabase {
    /// Everything but the password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresDatabase")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("dbname", &self.dbname)
            .finish_non_exhaustive()
    }
}

impl PostgresDatabase {
    /// The connection's settings as libpq's environment variables (`PGHOST`, …), so that a script
    /// connects without a password on its command line.
    pub(crate) fn libpq_env(&self) -> [(&'static str, String); 5] {
        [
            ("PGHOST", self.host.clone()),
            ("PGPORT", self.port.to_string()),
            ("PGUSER", self.user.clone()),
            ("PGPASSWORD", self.password.clone()),
            ("PGDATABASE", self.dbname.clone()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_not_in_the_debug_text() {
        let database = PostgresDatabase {
            host: "/run/postgresql".into(),
            port: 5432,
            user: "synapse".into(),
            password: "hunter2-secret".into(),
            dbname: "synapse".into(),
        };
        let text = format!("{:?}", Database::Postgres(database));
        assert!(text.contains("/run/postgresql") && text.contains("5432"), "{text}");
        assert!(!text.contains("hunter2"), "{text}");
    }
}
