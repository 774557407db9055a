//! The harness against a real server: start, databases of their own, 127.0.0.1 only, not root,
//! and nothing left once it is dropped.

use std::net::TcpStream;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use pg_harness::PgServer;

#[test]
fn a_server_gives_each_test_its_own_database_and_leaves_nothing_behind() {
    let server = PgServer::start().unwrap_or_else(|e| panic!("{e}"));
    let port = server.port();
    let (one, two) = (server.create_database().unwrap(), server.create_database().unwrap());
    assert_ne!(one.name(), two.name());

    let mut first = one.connect().unwrap();
    first.batch_execute("CREATE TABLE t (x BIGINT PRIMARY KEY); INSERT INTO t VALUES (7)").unwrap();
    let x: i64 = first.query_one("SELECT x FROM t", &[]).unwrap().get(0);
    assert_eq!(x, 7);
    let mut second = two.connect().unwrap();
    let tables: i64 = second
        .query_one("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", &[])
        .unwrap()
        .get(0);
    assert_eq!(tables, 0, "a new database is empty");

    // TCP on 127.0.0.1 only, a Unix socket in the server's own directory, and a password is
    // required on both.
    let listen: String = first.query_one("SHOW listen_addresses", &[]).unwrap().get(0);
    assert_eq!(listen, "127.0.0.1");
    let sockets: String = first.query_one("SHOW unix_socket_directories", &[]).unwrap().get(0);
    let socket_dir = server.socket_dir().expect("/dev/shm or the temporary directory is short enough for a socket");
    assert_eq!(sockets, socket_dir.to_string_lossy());
    assert_eq!(std::fs::metadata(&socket_dir).unwrap().mode() & 0o077, 0, "nobody else may reach the socket");
    let mut no_password = one.config();
    no_password.password("wrong");
    assert!(no_password.connect(pg_harness::postgres::NoTls).is_err(), "a wrong password is refused");
    let url = one.socket_url().unwrap();
    let mut local: pg_harness::postgres::Config = url.parse().unwrap();
    let mut through_socket = local.connect(pg_harness::postgres::NoTls).unwrap();
    // A connection through a Unix socket has no client address.
    let address: Option<String> = through_socket.query_one("SELECT inet_client_addr()::text", &[]).unwrap().get(0);
    assert_eq!(address, None, "connected through the socket");
    let x: i64 = through_socket.query_one("SELECT x FROM t", &[]).unwrap().get(0);
    assert_eq!(x, 7, "the same database");
    let tcp: Option<String> = first.query_one("SELECT inet_client_addr()::text", &[]).unwrap().get(0);
    assert_eq!(tcp.as_deref(), Some("127.0.0.1/32"));
    local.password("wrong");
    assert!(local.connect(pg_harness::postgres::NoTls).is_err(), "a wrong password is refused on the socket");
    drop(through_socket);

    // The cluster belongs to whoever runs the server: never root.
    let data_dir: String = first.query_one("SHOW data_directory", &[]).unwrap().get(0);
    let data_dir = PathBuf::from(data_dir);
    let owner = std::fs::metadata(&data_dir).unwrap().uid();
    assert_ne!(owner, 0, "the server runs as an unprivileged account");
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid().unwrap())).unwrap();
    let uid_line = status.lines().find(|line| line.starts_with("Uid:")).unwrap();
    assert!(uid_line.split_whitespace().skip(1).all(|uid| uid == owner.to_string()), "{uid_line}");

    // A dropped database is gone, with its connections.
    let name = one.name().to_string();
    drop(one);
    assert!(first.query_one("SELECT 1", &[]).is_err(), "its connections were ended");
    let left: i64 = second.query_one("SELECT count(*) FROM pg_database WHERE datname = $1", &[&name]).unwrap().get(0);
    assert_eq!(left, 0);

    drop((second, two));
    assert!(server.is_running());
    drop(server);
    assert!(TcpStream::connect(("127.0.0.1", port)).is_err(), "nothing listens on {port} after the drop");
    assert!(!data_dir.exists(), "{} was deleted", data_dir.display());
    assert!(!socket_dir.exists(), "the socket's directory {} was deleted", socket_dir.display());
}

#[test]
fn the_shared_server_is_one_per_test_binary() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let again = PgServer::shared().unwrap();
    assert!(std::ptr::eq(server, again));
    let database = server.create_database().unwrap();
    let mut client = database.connect().unwrap();
    let name: String = client.query_one("SELECT current_database()", &[]).unwrap().get(0);
    assert_eq!(name, database.name());
    assert!(database.url().starts_with("postgres://postgres:"), "a URL the store can be given");
    assert!(!format!("{database:?} {server:?}").contains(&database.url()), "Debug shows no password");
}

#[test]
fn a_database_made_from_a_template_starts_with_its_rows_and_goes_its_own_way() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let template = server.create_database().unwrap();
    let mut client = template.connect().unwrap();
    client.batch_execute("CREATE TABLE t (v integer); INSERT INTO t VALUES (7);").unwrap();
    drop(client);
    let copy = server.create_database_from(&template).unwrap();
    assert_ne!(copy.name(), template.name());
    let mut client = copy.connect().unwrap();
    let v: i32 = client.query_one("SELECT v FROM t", &[]).unwrap().get(0);
    assert_eq!(v, 7, "the template's rows");
    client.execute("UPDATE t SET v = 8", &[]).unwrap();
    let mut original = template.connect().unwrap();
    let v: i32 = original.query_one("SELECT v FROM t", &[]).unwrap().get(0);
    assert_eq!(v, 7, "the template is not changed by its copy");
}
