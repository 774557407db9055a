//! The PostgreSQL store over TLS, as libpq's `sslmode` and `sslrootcert` in the `db` URL ask
//! (`store::pg_tls`), against the harness's server behind its TLS front (`pg_harness::TlsProxy`,
//! a certificate from a throw-away authority per proxy).

use std::time::Duration;

use capabot::store::postgres::{PgError, Pool, Timeouts, open_pool_with};
use pg_harness::{PgServer, TestDatabase, TlsOptions, TlsProxy};

/// Failures are expected in some tests: a short wait for the pool's first connection.
const QUICK: Timeouts = Timeouts { connect: Duration::from_secs(3), statement: Duration::from_secs(30) };

fn server() -> &'static PgServer {
    PgServer::shared().unwrap_or_else(|e| panic!("{e}"))
}

/// `database`'s URL with `host:port` in place of the server's, and `query` appended.
fn url_via(database: &TestDatabase<'_>, host: &str, port: u16, query: &str) -> String {
    let direct = format!("127.0.0.1:{}", server().port());
    let url = database.url().replace(&direct, &format!("{host}:{port}"));
    if query.is_empty() { url } else { format!("{url}?{query}") }
}

fn open(url: &str) -> Result<Pool, PgError> {
    open_pool_with(url, 1, QUICK)
}

/// The server's password, which no error may repeat.
fn password(database: &TestDatabase<'_>) -> String {
    let url = database.url();
    let after_user = url.split_once("postgres:").unwrap().1.split_once("postgres:").unwrap().1;
    after_user.split_once('@').unwrap().0.to_string()
}

fn assert_refused(result: Result<Pool, PgError>, database: &TestDatabase<'_>, expect: &str) -> String {
    let error = match result {
        Ok(_) => panic!("connected, but expected a refusal mentioning {expect:?}"),
        Err(error) => error.to_string(),
    };
    eprintln!("refused as expected: {error}");
    assert!(error.to_lowercase().contains(expect), "expected {expect:?} in: {error}");
    assert!(!error.contains(&password(database)), "the password is in the error: {error}");
    error
}

#[test]
fn verify_full_connects_over_tls_when_given_the_servers_authority() {
    let database = server().create_database().unwrap();
    let proxy = TlsProxy::start(server(), TlsOptions { tls_only: true, ..TlsOptions::default() }).unwrap();
    let ca = proxy.authority_file();
    let url =
        url_via(&database, "127.0.0.1", proxy.port(), &format!("sslmode=verify-full&sslrootcert={}", ca.display()));
    let store = capabot::store::Store::open_postgres(&url, 2).unwrap_or_else(|e| panic!("{e}"));
    // The store works through it: a unit of work writes and reads.
    let conn = store.conn().unwrap();
    conn.execute("INSERT INTO players (id, name, created_at) VALUES (?1, ?2, 0)", capabot::store_params![7, "tls"])
        .unwrap();
    let name: String =
        conn.query_row("SELECT name FROM players WHERE id = ?1", capabot::store_params![7], |row| row.get(0)).unwrap();
    assert_eq!(name, "tls");
    assert!(proxy.tls_connections() >= 1, "no TLS session was made");
    assert_eq!((proxy.plain_connections(), proxy.refused_connections()), (0, 0));
    // The same in the key=value form.
    let keywords = format!(
        "host=127.0.0.1 port={} user=postgres password={} dbname={} sslmode=verify-full sslrootcert='{}'",
        proxy.port(),
        password(&database),
        database.name(),
        ca.display()
    );
    let before = proxy.tls_connections();
    open(&keywords).unwrap_or_else(|e| panic!("{e}"));
    assert!(proxy.tls_connections() > before);
}

#[test]
fn verify_full_refuses_an_unknown_authority_and_another_hosts_certificate() {
    let database = server().create_database().unwrap();
    let proxy = TlsProxy::start(server(), TlsOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let other = pg_harness::unrelated_authority_file(dir.path()).unwrap();
    let url =
        url_via(&database, "127.0.0.1", proxy.port(), &format!("sslmode=verify-full&sslrootcert={}", other.display()));
    assert_refused(open(&url), &database, "certificate");
    assert_eq!(proxy.tls_connections(), 0);
    assert_eq!(proxy.plain_connections(), 0, "a refused certificate must not fall back to plain text");

    // Issued by the trusted authority, but for another host.
    let elsewhere =
        TlsProxy::start(server(), TlsOptions { names: vec!["db.example".into()], tls_only: false }).unwrap();
    let ca = elsewhere.authority_file().display().to_string();
    let url = url_via(&database, "127.0.0.1", elsewhere.port(), &format!("sslmode=verify-full&sslrootcert={ca}"));
    assert_refused(open(&url), &database, "certificate");
    assert_eq!(elsewhere.tls_connections(), 0);
    // verify-ca checks the authority only, as libpq's does.
    let url = url_via(&database, "127.0.0.1", elsewhere.port(), &format!("sslmode=verify-ca&sslrootcert={ca}"));
    open(&url).unwrap_or_else(|e| panic!("{e}"));
    assert!(elsewhere.tls_connections() >= 1);
    // … and still refuses an unknown authority.
    let url = url_via(
        &database,
        "127.0.0.1",
        elsewhere.port(),
        &format!("sslmode=verify-ca&sslrootcert={}", other.display()),
    );
    assert_refused(open(&url), &database, "certificate");
}

#[test]
fn require_encrypts_without_checking_and_prefer_uses_tls_where_offered() {
    let database = server().create_database().unwrap();
    let proxy = TlsProxy::start(server(), TlsOptions { names: vec!["db.example".into()], tls_only: false }).unwrap();
    open(&url_via(&database, "127.0.0.1", proxy.port(), "sslmode=require")).unwrap_or_else(|e| panic!("{e}"));
    let after_require = proxy.tls_connections();
    assert!(after_require >= 1);
    // No sslmode is libpq's `prefer`: TLS, since this server offers it.
    open(&url_via(&database, "127.0.0.1", proxy.port(), "")).unwrap_or_else(|e| panic!("{e}"));
    assert!(proxy.tls_connections() > after_require);
    assert_eq!(proxy.plain_connections(), 0);
    // `disable` never asks for it.
    open(&url_via(&database, "127.0.0.1", proxy.port(), "sslmode=disable")).unwrap_or_else(|e| panic!("{e}"));
    assert!(proxy.plain_connections() >= 1);
}

#[test]
fn require_refuses_a_server_without_tls_and_a_tls_only_server_refuses_plain_text() {
    let database = server().create_database().unwrap();
    // The harness's own server has no TLS: `prefer` falls back (every other PostgreSQL test), `require` may not.
    let direct = url_via(&database, "127.0.0.1", server().port(), "sslmode=require");
    assert_refused(open(&direct), &database, "tls");
    let proxy = TlsProxy::start(server(), TlsOptions { tls_only: true, ..TlsOptions::default() }).unwrap();
    let url = url_via(&database, "127.0.0.1", proxy.port(), "sslmode=disable");
    assert_refused(open(&url), &database, "accepts tls connections only");
    assert!(proxy.refused_connections() >= 1);
}

#[test]
fn a_checking_mode_without_a_readable_authority_is_refused_before_connecting() {
    let database = server().create_database().unwrap();
    let proxy = TlsProxy::start(server(), TlsOptions::default()).unwrap();
    let url = url_via(&database, "127.0.0.1", proxy.port(), "sslmode=verify-full&sslrootcert=/nonexistent/ca.pem");
    let error = assert_refused(open(&url), &database, "/nonexistent/ca.pem");
    assert!(error.contains("TLS"), "{error}");
    assert_eq!(proxy.tls_connections() + proxy.plain_connections() + proxy.failed_handshakes(), 0);
}
