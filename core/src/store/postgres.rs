//! The PostgreSQL side of the store (cargo feature `postgres`): its schema and how it is applied.
//! For now this is the foundation only; the store's functions still speak SQLite
//! (see `docs/postgres.md` for the road to one interface with two backends).
//!
//! The schema lives in `migrations/postgres/`, one file per SQLite migration with the same number
//! and the same meaning (`tests/pg/schema.rs` checks that the two agree column by column). The files
//! are embedded at build time and applied by `refinery` (as SQLite's are, `store::schema`), which
//! records each in `refinery_schema_history` with a checksum and refuses a database whose applied
//! migrations were edited or are unknown; a database from a newer capabot is refused with that
//! said. Several processes may start at once: the migrations run under a PostgreSQL advisory lock,
//! so one applies them and the others then find nothing to do.

use std::fmt;
use std::time::{Duration, Instant};

use r2d2_postgres::PostgresConnectionManager;
use r2d2_postgres::postgres::{Client, Config, Statement};
use refinery_core::{Migration, Runner};
use std::collections::HashMap;

/// The PostgreSQL migrations, in order: `V<n>__<name>` is SQLite's `000<n>_<name>.sql`. Never edit
/// a released file; add a new one on both sides.
pub const MIGRATIONS: &[(&str, &str)] = &[
    ("V1__initial", include_str!("../../migrations/postgres/V1__initial.sql")),
    ("V2__communities", include_str!("../../migrations/postgres/V2__communities.sql")),
    ("V3__community", include_str!("../../migrations/postgres/V3__community.sql")),
    ("V4__rated_games", include_str!("../../migrations/postgres/V4__rated_games.sql")),
    ("V5__ladder_chat", include_str!("../../migrations/postgres/V5__ladder_chat.sql")),
    ("V6__tournament_chat", include_str!("../../migrations/postgres/V6__tournament_chat.sql")),
    ("V7__gif_at_end", include_str!("../../migrations/postgres/V7__gif_at_end.sql")),
    ("V8__outbox", include_str!("../../migrations/postgres/V8__outbox.sql")),
    ("V9__secret_bombs", include_str!("../../migrations/postgres/V9__secret_bombs.sql")),
    ("V10__languages", include_str!("../../migrations/postgres/V10__languages.sql")),
    ("V11__outbox_leases", include_str!("../../migrations/postgres/V11__outbox_leases.sql")),
    ("V12__scheduler_items", include_str!("../../migrations/postgres/V12__scheduler_items.sql")),
    ("V13__analyses", include_str!("../../migrations/postgres/V13__analyses.sql")),
    ("V14__web", include_str!("../../migrations/postgres/V14__web.sql")),
    ("V15__scale", include_str!("../../migrations/postgres/V15__scale.sql")),
    ("V16__recent_games", include_str!("../../migrations/postgres/V16__recent_games.sql")),
    ("V17__served_platforms", include_str!("../../migrations/postgres/V17__served_platforms.sql")),
    ("V18__interaction_only", include_str!("../../migrations/postgres/V18__interaction_only.sql")),
    ("V19__outbox_done", include_str!("../../migrations/postgres/V19__outbox_done.sql")),
    ("V20__finished_games", include_str!("../../migrations/postgres/V20__finished_games.sql")),
    ("V21__binary_moves", include_str!("../../migrations/postgres/V21__binary_moves.sql")),
    ("V22__binary_web_slug", include_str!("../../migrations/postgres/V22__binary_web_slug.sql")),
    ("V23__small_integers", include_str!("../../migrations/postgres/V23__small_integers.sql")),
    ("V24__leases_without_rowid", include_str!("../../migrations/postgres/V24__leases_without_rowid.sql")),
    ("V25__games_due", include_str!("../../migrations/postgres/V25__games_due.sql")),
    ("V26__outbox_ids", include_str!("../../migrations/postgres/V26__outbox_ids.sql")),
    ("V27__recent_finished", include_str!("../../migrations/postgres/V27__recent_finished.sql")),
    ("V28__outbox_room", include_str!("../../migrations/postgres/V28__outbox_room.sql")),
    ("V29__theme", include_str!("../../migrations/postgres/V29__theme.sql")),
    ("V30__player_theme", include_str!("../../migrations/postgres/V30__player_theme.sql")),
    ("V31__claims_without_age_index", include_str!("../../migrations/postgres/V31__claims_without_age_index.sql")),
    ("V32__sweeps", include_str!("../../migrations/postgres/V32__sweeps.sql")),
    ("V33__community_tournaments", include_str!("../../migrations/postgres/V33__community_tournaments.sql")),
    ("V34__ladder_standings_kept", include_str!("../../migrations/postgres/V34__ladder_standings_kept.sql")),
    ("V35__offers_declined", include_str!("../../migrations/postgres/V35__offers_declined.sql")),
    ("V36__tournament_withdrawals", include_str!("../../migrations/postgres/V36__tournament_withdrawals.sql")),
    ("V37__setup_clock", include_str!("../../migrations/postgres/V37__setup_clock.sql")),
    ("V38__delivery_marks", include_str!("../../migrations/postgres/V38__delivery_marks.sql")),
    ("V39__due_from", include_str!("../../migrations/postgres/V39__due_from.sql")),
    ("V40__game_domains", include_str!("../../migrations/postgres/V40__game_domains.sql")),
    ("V41__ended_at", include_str!("../../migrations/postgres/V41__ended_at.sql")),
];

/// The table in which refinery records the applied migrations.
pub use super::schema::HISTORY_TABLE;

/// The advisory lock key that serialises migrations between processes ("capabot" in ASCII).
const MIGRATION_LOCK: i64 = 0x0063_6170_6162_6f74;

/// A pool of connections to one PostgreSQL database, over TLS where the `db` setting's `sslmode`
/// asks for it (`store::pg_tls`).
pub type Pool = r2d2_postgres::r2d2::Pool<Manager>;

/// One of the pool's connections with the statements prepared on it so far, by SQL text and then
/// by parameter signature (`store::sql`). They are kept with the connection for as long as it
/// lives, not with each borrowing of it: when they went with the borrowing, every unit of work and
/// every page prepared each of its statements again (a round trip more each on PostgreSQL, and a
/// plan made anew, never the plan PostgreSQL keeps for a statement run again and again), which a
/// game page's one statement of seven tables paid in milliseconds (`docs/load.md`).
pub struct Session {
    client: Client,
    pub(crate) statements: HashMap<String, Vec<(String, Statement)>>,
    /// The reads sent with a commit ([`crate::store::sql::AfterCommit`]) prepared on it by name
    /// (SQL's `PREPARE`: a simple query's statement is otherwise parsed and planned every time).
    pub(crate) prepared_reads: Vec<&'static str>,
    /// When the pool last had it back (or made it): how long it has been idle.
    idle_since: Instant,
}

/// A connection idle in the pool at least this long is checked with an empty statement before
/// it is lent ([`Manager`]); one back in the pool more recently is lent as it is. Checking every
/// borrowing cost each unit of work and each page one round trip more; a connection in use a
/// moment ago is almost always sound, and where the server closed it since all the same, the unit
/// that meets it is run again on another ([`crate::store::Store::unit`]).
pub const CHECK_IDLE_AFTER: Duration = Duration::from_secs(5);

impl std::ops::Deref for Session {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl std::ops::DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.client
    }
}

/// The pool's connections: the driver's, each a [`Session`].
pub struct Manager(PostgresConnectionManager<super::pg_tls::Connector>);

impl r2d2_postgres::r2d2::ManageConnection for Manager {
    type Connection = Session;
    type Error = r2d2_postgres::postgres::Error;

    fn connect(&self) -> Result<Session, Self::Error> {
        Ok(Session {
            client: self.0.connect()?,
            statements: HashMap::new(),
            prepared_reads: Vec::new(),
            idle_since: Instant::now(),
        })
    }

    /// Called as the pool lends a connection: an empty statement (a round trip) only for one idle
    /// [`CHECK_IDLE_AFTER`] or longer; a closed socket is seen without one.
    fn is_valid(&self, session: &mut Session) -> Result<(), Self::Error> {
        if session.idle_since.elapsed() < CHECK_IDLE_AFTER && !session.client.is_closed() {
            return Ok(());
        }
        self.0.is_valid(&mut session.client)
    }

    /// Called as a connection comes back to the pool (r2d2 asks then, and only then).
    fn has_broken(&self, session: &mut Session) -> bool {
        session.idle_since = Instant::now();
        self.0.has_broken(&mut session.client)
    }
}

/// Why the PostgreSQL store could not be opened or migrated. No variant carries the URL (it may
/// hold a password).
#[derive(Debug)]
pub enum PgError {
    /// The `db` setting is no valid PostgreSQL URL or connection string.
    Url(String),
    Postgres(r2d2_postgres::postgres::Error),
    Pool(r2d2_postgres::r2d2::Error),
    Migration(refinery_core::Error),
    /// The database's schema is from a newer capabot (what it was told, with the versions).
    Newer(String),
    /// The TLS settings cannot be used (an unreadable root certificate, say).
    Tls(String),
}

impl fmt::Display for PgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgError::Url(why) => write!(f, "invalid PostgreSQL URL: {why}"),
            PgError::Postgres(e) => {
                write!(f, "PostgreSQL error: {e}")?;
                with_causes(f, e)
            }
            PgError::Pool(e) => write!(f, "cannot connect to PostgreSQL: {e}"),
            PgError::Migration(e) => {
                write!(f, "PostgreSQL migration error: {e}")?;
                with_causes(f, e)
            }
            PgError::Newer(why) => f.write_str(why),
            PgError::Tls(why) => write!(f, "PostgreSQL TLS: {why}"),
        }
    }
}

/// `e`'s causes, each after a colon: the driver's own text is a category ("db error", "error
/// performing TLS handshake"), and the reason (the server's message) is in its sources.
fn with_causes(f: &mut fmt::Formatter<'_>, e: &dyn std::error::Error) -> fmt::Result {
    let mut source = e.source();
    while let Some(cause) = source {
        write!(f, ": {cause}")?;
        source = cause.source();
    }
    Ok(())
}

impl std::error::Error for PgError {}

impl From<r2d2_postgres::postgres::Error> for PgError {
    fn from(e: r2d2_postgres::postgres::Error) -> Self {
        PgError::Postgres(e)
    }
}

/// refinery's runner over [`MIGRATIONS`], one transaction per migration.
pub fn runner() -> Result<Runner, PgError> {
    let migrations = MIGRATIONS
        .iter()
        .map(|(name, sql)| Migration::unapplied(name, sql))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PgError::Migration)?;
    Ok(Runner::new(&migrations))
}

/// Brings the database to the latest schema and returns how many migrations it applied. Holds a
/// session-level advisory lock meanwhile, so concurrent callers apply each migration once.
pub fn migrate(client: &mut Client) -> Result<usize, PgError> {
    // Waiting for another process's migrations, or a long migration, is no hung statement.
    client.batch_execute("SET statement_timeout = 0")?;
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
    let report =
        refuse_newer(client).and_then(|()| runner()).and_then(|runner| runner.run(client).map_err(PgError::Migration));
    let unlocked = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]);
    let reset = client.batch_execute("RESET statement_timeout");
    let report = report?;
    unlocked?;
    reset?;
    Ok(report.applied_migrations().len())
}

/// Refuses a database whose history has a migration this binary does not know, as a newer
/// capabot's, before refinery would call it missing.
fn refuse_newer(client: &mut Client) -> Result<(), PgError> {
    let exists: bool = client.query_one("SELECT to_regclass($1::text) IS NOT NULL", &[&HISTORY_TABLE])?.get(0);
    if !exists {
        return Ok(());
    }
    let latest: Option<i32> = client.query_one(&format!("SELECT max(version) FROM {HISTORY_TABLE}"), &[])?.get(0);
    match latest {
        Some(v) if v as usize > MIGRATIONS.len() => {
            Err(PgError::Newer(super::schema::newer_schema(i64::from(v), MIGRATIONS.len())))
        }
        _ => Ok(()),
    }
}

/// How long opening one connection (its TCP connect) may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one statement may run, lock waits included, before PostgreSQL cancels it
/// (`statement_timeout`): a hung query fails as an error instead of holding its connection and its
/// caller for ever. The bot's statements take milliseconds; migrations are exempt.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a connection waits on a database that no longer answers at the network level (its host
/// gone, a network cut, a failover that moved its address), where `statement_timeout` cannot help
/// (the server's cancellation never arrives): TCP keepalive probes after [`KEEPALIVE_IDLE`] of
/// silence, every [`KEEPALIVE_INTERVAL`], [`KEEPALIVE_RETRIES`] unanswered ending the connection;
/// and data sent but not acknowledged for [`TCP_USER_TIMEOUT`] ends it too. The operating system's
/// own limits are about two hours and fifteen minutes, for which a unit of work would hold its
/// thread and connection. (A URL's own `keepalives_*` or `tcp_user_timeout` wins.)
pub const KEEPALIVE_IDLE: Duration = Duration::from_secs(30);
/// Between two keepalive probes.
pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(10);
/// Keepalive probes unanswered before the connection is given up.
pub const KEEPALIVE_RETRIES: u32 = 3;
/// Data sent and not acknowledged this long ends the connection.
pub const TCP_USER_TIMEOUT: Duration = Duration::from_secs(60);
/// The driver's keepalive idle time when the URL sets none (libpq's and the driver's default).
const DRIVER_KEEPALIVE_IDLE: Duration = Duration::from_secs(2 * 60 * 60);

/// How long connecting and each statement may take ([`CONNECT_TIMEOUT`], [`STATEMENT_TIMEOUT`]
/// unless the URL sets `connect_timeout` or a `statement_timeout` in `options` itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    pub connect: Duration,
    pub statement: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { connect: CONNECT_TIMEOUT, statement: STATEMENT_TIMEOUT }
    }
}

/// Connects to the database at `url` (`postgres://user:password@host:port/database`, or a
/// key=value connection string), brings its schema up to date and returns a pool of at most
/// `max_connections` connections, with the default [`Timeouts`].
pub fn open_pool(url: &str, max_connections: u32) -> Result<Pool, PgError> {
    open_pool_with(url, max_connections, Timeouts::default())
}

/// [`open_pool`] with other [`Timeouts`].
pub fn open_pool_with(url: &str, max_connections: u32, timeouts: Timeouts) -> Result<Pool, PgError> {
    open_pool_and_dialer(url, max_connections, timeouts).map(|(pool, _)| pool)
}

/// Opens connections of the pool's own settings outside the pool: one that stays open for as
/// long as the process listens for other processes' changes (`store::changes::Listener`) would
/// otherwise hold one of the pool's places for ever.
#[derive(Clone)]
pub struct Dialer {
    config: Config,
    connector: super::pg_tls::Connector,
}

impl Dialer {
    /// A new connection, named `application_name` (as `pg_stat_activity` shows it).
    pub fn connect(&self, application_name: &str) -> Result<Client, PgError> {
        let mut config = self.config.clone();
        config.application_name(application_name);
        Ok(config.connect(self.connector.clone())?)
    }
}

/// [`open_pool_with`], and a [`Dialer`] of the same settings.
pub fn open_pool_and_dialer(url: &str, max_connections: u32, timeouts: Timeouts) -> Result<(Pool, Dialer), PgError> {
    // libpq's TLS parameters, which the driver's parser does not know in full, are read first.
    let (url, tls) = super::pg_tls::split(url).map_err(PgError::Url)?;
    // The parser's message never repeats the password it was given.
    let mut config: Config = url.parse().map_err(|e: r2d2_postgres::postgres::Error| PgError::Url(e.to_string()))?;
    config.ssl_mode(tls.mode.driver_mode());
    let connector = super::pg_tls::connector(&tls).map_err(PgError::Tls)?;
    with_timeouts(&mut config, timeouts);
    // Units of work run SERIALIZABLE (docs/postgres.md). A sequential scan there locks the whole
    // table against writers, so two units that read a small table (which the planner would rather
    // scan than index: the outbox, the claimed events, the offers) conflict although they touch
    // different rows, and run again. PostgreSQL's manual advises steering the planner to index
    // scans; with `enable_seqscan` off it scans a table whole only where no index serves.
    let options = format!("{} -c enable_seqscan=off", config.get_options().unwrap_or_default());
    config.options(options.trim());
    // The first connection applies the migrations, and a failure to connect is reported with its
    // reason (the pool would keep only the driver's category of it).
    let mut first = config.connect(connector.clone())?;
    migrate(&mut first)?;
    drop(first);
    let pool = r2d2_postgres::r2d2::Pool::builder()
        .max_size(max_connections.max(1))
        .min_idle(Some(1))
        // Waiting for a connection (the first one included) takes as long as opening one may.
        .connection_timeout(timeouts.connect)
        .build(Manager(PostgresConnectionManager::new(config.clone(), connector.clone())))
        .map_err(PgError::Pool)?;
    Ok((pool, Dialer { config, connector }))
}

/// Sets the connect timeout, the sessions' `statement_timeout` and the network's limits
/// ([`KEEPALIVE_IDLE`] and the rest) where the URL left them out.
fn with_timeouts(config: &mut Config, timeouts: Timeouts) {
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(timeouts.connect);
    }
    if config.get_keepalives() && config.get_keepalives_idle() == DRIVER_KEEPALIVE_IDLE {
        config.keepalives_idle(KEEPALIVE_IDLE);
    }
    if config.get_keepalives_interval().is_none() {
        config.keepalives_interval(KEEPALIVE_INTERVAL);
    }
    if config.get_keepalives_retries().is_none() {
        config.keepalives_retries(KEEPALIVE_RETRIES);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(TCP_USER_TIMEOUT);
    }
    let options = config.get_options().unwrap_or_default().to_string();
    if !options.contains("statement_timeout") {
        let ms = timeouts.statement.as_millis().max(1);
        let joined = format!("{options} -c statement_timeout={ms}");
        config.options(joined.trim_start());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_name_parses_and_versions_count_up_from_one() {
        let runner = runner().unwrap();
        let versions: Vec<_> = runner.get_migrations().iter().map(|m| m.version()).collect();
        let expected: Vec<_> = (1..=MIGRATIONS.len()).collect();
        assert_eq!(versions.iter().map(|v| *v as usize).collect::<Vec<_>>(), expected);
    }

    #[test]
    fn a_bad_url_is_refused_without_repeating_it() {
        let Err(error) = open_pool("postgres://bob:secret@127.0.0.1:notaport/db", 1) else {
            panic!("a bad URL opened")
        };
        assert!(matches!(error, PgError::Url(_)), "{error}");
        assert!(!error.to_string().contains("secret"), "{error}");
    }

    #[test]
    fn the_timeouts_are_set_unless_the_url_sets_them() {
        let mut config: Config = "postgres://bob@127.0.0.1/db".parse().unwrap();
        with_timeouts(&mut config, Timeouts::default());
        assert_eq!(config.get_connect_timeout(), Some(&CONNECT_TIMEOUT));
        assert_eq!(config.get_options(), Some("-c statement_timeout=30000"));
        let mut config: Config =
            "host=127.0.0.1 user=bob connect_timeout=3 options='-c search_path=x'".parse().unwrap();
        with_timeouts(&mut config, Timeouts::default());
        assert_eq!(config.get_connect_timeout(), Some(&Duration::from_secs(3)));
        assert_eq!(config.get_options(), Some("-c search_path=x -c statement_timeout=30000"));
        let mut config: Config = "host=127.0.0.1 user=bob options='-c statement_timeout=5s'".parse().unwrap();
        with_timeouts(&mut config, Timeouts::default());
        assert_eq!(config.get_options(), Some("-c statement_timeout=5s"));
    }

    #[test]
    fn a_silent_network_ends_a_connection_unless_the_url_says_otherwise() {
        let mut config: Config = "postgres://bob@127.0.0.1/db".parse().unwrap();
        with_timeouts(&mut config, Timeouts::default());
        assert!(config.get_keepalives());
        assert_eq!(config.get_keepalives_idle(), KEEPALIVE_IDLE);
        assert_eq!(config.get_keepalives_interval(), Some(KEEPALIVE_INTERVAL));
        assert_eq!(config.get_keepalives_retries(), Some(KEEPALIVE_RETRIES));
        assert_eq!(config.get_tcp_user_timeout(), Some(&TCP_USER_TIMEOUT));
        let mut config: Config =
            "host=127.0.0.1 user=bob keepalives_idle=5 keepalives_interval=2 keepalives_retries=9 tcp_user_timeout=7"
                .parse()
                .unwrap();
        with_timeouts(&mut config, Timeouts::default());
        assert_eq!(config.get_keepalives_idle(), Duration::from_secs(5));
        assert_eq!(config.get_keepalives_interval(), Some(Duration::from_secs(2)));
        assert_eq!(config.get_keepalives_retries(), Some(9));
        assert_eq!(config.get_tcp_user_timeout(), Some(&Duration::from_secs(7)));
        let mut config: Config = "host=127.0.0.1 user=bob keepalives=0".parse().unwrap();
        with_timeouts(&mut config, Timeouts::default());
        assert!(!config.get_keepalives(), "turned off by the URL, left off");
    }
}
