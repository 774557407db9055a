//! One running PostgreSQL: its cluster in a temporary directory, its process, and the databases
//! tests make in it.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::account::{Account, reachable_bin_dir, server_account};
use crate::error::HarnessError;
use crate::install::ensure_installed;
use crate::kept::Kept;
use crate::process::{LOG_LINES, run_logged};

/// The superuser `initdb` creates; tests connect as it.
pub const SUPERUSER: &str = "postgres";

/// How long `initdb` may take.
const INITDB_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the server may take to accept connections once launched.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a fast shutdown may take before the server is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// How often a copy of a template that a session still holds is tried again
/// ([`PgServer::create_database_from`]; PostgreSQL itself waits up to five seconds a try).
const TEMPLATE_BUSY_TRIES: u32 = 5;
/// Launch attempts when the chosen port turns out to be taken.
const PORT_ATTEMPTS: usize = 3;
/// The longest path of a Unix socket (`sun_path` holds 108 bytes with the closing NUL).
const SOCKET_PATH_MAX: usize = 107;
/// The prefix of every server's temporary directory.
const DIR_PREFIX: &str = "pg-harness-";
/// The file in that directory naming the process that owns it.
const OWNER_FILE: &str = "owner.pid";

/// A PostgreSQL server listening on a free port of 127.0.0.1 (no other address) and on a Unix
/// socket in its cluster's directory, the cluster in a new temporary directory (on `/dev/shm` when
/// there is one), with `fsync` off. The superuser `postgres` has a generated password (SCRAM).
/// It stops, and its directory is deleted, when it is dropped.
///
/// One server per test binary is the intended use ([`PgServer::shared`]), with a database per
/// test ([`PgServer::create_database`]).
///
/// ```no_run
/// let server = pg_harness::PgServer::shared()?;
/// let database = server.create_database()?;
/// let mut client = database.connect()?;
/// client.batch_execute("CREATE TABLE t (x BIGINT)")?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PgServer {
    dir: Mutex<Option<TempDir>>,
    log: PathBuf,
    port: u16,
    password: String,
    account: Option<Account>,
    process: Mutex<Option<Kept>>,
    databases: AtomicU64,
}

/// The server of this test binary, see [`PgServer::shared`]; stopped at exit.
static SHARED: OnceLock<Result<PgServer, HarnessError>> = OnceLock::new();

impl PgServer {
    /// The one server of this test binary, started by the first call (later calls, from any
    /// thread, share it or its start-up error). It is stopped, and its directory deleted, when
    /// the process exits; if the process is killed instead, the kernel stops the server and the
    /// next start deletes the directory.
    pub fn shared() -> Result<&'static PgServer, HarnessError> {
        let server = SHARED.get_or_init(|| {
            let server = PgServer::start()?;
            // SAFETY: atexit(3) only stores the function pointer; the function is extern "C".
            unsafe { libc::atexit(stop_shared) };
            Ok(server)
        });
        server.as_ref().map_err(Clone::clone)
    }

    /// Installs the binaries if needed, runs `initdb` in a new temporary directory and starts the
    /// server. As root, both run as an unprivileged account (see the crate's README).
    pub fn start() -> Result<PgServer, HarnessError> {
        let bin_dir = ensure_installed()?;
        let account = server_account()?;
        let bin_dir = match &account {
            Some(account) => reachable_bin_dir(&bin_dir, account)?,
            None => bin_dir,
        };
        let base = std::env::var_os("PG_HARNESS_TMPDIR")
            .map(PathBuf::from)
            .or_else(|| Some(PathBuf::from("/dev/shm")).filter(|shm| shm.is_dir()))
            .unwrap_or_else(std::env::temp_dir);
        remove_abandoned_dirs(&base);
        let dir = tempfile::Builder::new()
            .prefix(DIR_PREFIX)
            .tempdir_in(&base)
            .map_err(|e| HarnessError::new(format!("cannot create a directory in {}: {e}", base.display())))?;
        fs::write(dir.path().join(OWNER_FILE), std::process::id().to_string())
            .map_err(|e| HarnessError::new(format!("cannot write in {}: {e}", dir.path().display())))?;
        if let Some(account) = &account {
            std::os::unix::fs::chown(dir.path(), Some(account.uid), Some(account.gid)).map_err(|e| {
                HarnessError::new(format!("cannot give {} to {}: {e}", dir.path().display(), account.name))
            })?;
        }
        let mut server = PgServer {
            log: dir.path().join("postgres.log"),
            dir: Mutex::new(Some(dir)),
            port: 0,
            password: random_hex(16)?,
            account,
            process: Mutex::new(None),
            databases: AtomicU64::new(0),
        };
        server.initdb(&bin_dir)?;
        for attempt in 1..=PORT_ATTEMPTS {
            server.port = free_port()?;
            match server.launch(&bin_dir) {
                Ok(()) => return Ok(server),
                // Another process took the port between our probe and the server's bind.
                Err(_) if attempt < PORT_ATTEMPTS && server.log_mentions("could not bind") => {}
                Err(e) => return Err(e),
            }
        }
        unreachable!("the last attempt returns")
    }

    /// The port it listens on (on 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's log (its standard output and error).
    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// The process id of the server (the postmaster), while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map(Kept::pid)
    }

    /// Whether the server process is still running.
    pub fn is_running(&self) -> bool {
        let process = self.process.lock().unwrap_or_else(|e| e.into_inner());
        process.as_ref().is_some_and(|kept| kept.exit_status().is_none())
    }

    /// The connection settings for `database` as the superuser.
    pub fn config(&self, database: &str) -> postgres::Config {
        let mut config = postgres::Config::new();
        config
            .host("127.0.0.1")
            .port(self.port)
            .user(SUPERUSER)
            .password(&self.password)
            .dbname(database)
            .connect_timeout(Duration::from_secs(10));
        config
    }

    /// A `postgres://` URL for `database` as the superuser. It holds the password: do not log it.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://{SUPERUSER}:{}@127.0.0.1:{}/{database}", self.password, self.port)
    }

    /// A `postgres://` URL for `database` as the superuser through the server's Unix socket, as a
    /// program on the same machine is best connected (no TCP on the way: capabot's README, "When to
    /// switch to PostgreSQL"); `None` when the server's directory is too long a path for a socket. It holds the
    /// password: do not log it.
    pub fn socket_url(&self, database: &str) -> Option<String> {
        let host = self.socket_dir()?.to_string_lossy().replace('/', "%2F");
        Some(format!("postgres://{SUPERUSER}:{}@{host}:{}/{database}", self.password, self.port))
    }

    /// The directory of the server's Unix socket (its cluster's, which only its account may
    /// enter), when the socket's path fits and the directory's name needs no quoting in the
    /// server's setting or escaping in a URL.
    pub fn socket_dir(&self) -> Option<PathBuf> {
        let dir = self.dir_path().join("data");
        let text = dir.to_str()?;
        let socket = format!("{text}/.s.PGSQL.{}", self.port);
        let plain = text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'));
        (plain && !text.is_empty() && socket.len() <= SOCKET_PATH_MAX).then_some(dir)
    }

    /// A new connection to `database`.
    pub fn connect(&self, database: &str) -> Result<postgres::Client, HarnessError> {
        self.config(database)
            .connect(postgres::NoTls)
            .map_err(|e| self.error(format!("cannot connect to the database {database}: {e}")))
    }

    /// A new, empty database for one test, dropped (with its connections) when the returned
    /// value is.
    pub fn create_database(&self) -> Result<TestDatabase<'_>, HarnessError> {
        self.create("")
    }

    /// A new database for one test, a copy of `template` (a database of this server that nobody
    /// is connected to: PostgreSQL refuses to copy one in use), dropped like
    /// [`create_database`](Self::create_database)'s. A schema made once and copied for each test
    /// costs a file copy instead of its statements again.
    /// PostgreSQL copies a template only while no session is connected to it: a session left on
    /// it (a pool's connection still being made as the pool was dropped, which lived on for
    /// seconds) is ended first, and a copy refused as the template is in use (SQLSTATE 55006:
    /// another session came meanwhile) is tried again, [`TEMPLATE_BUSY_TRIES`] times at most.
    pub fn create_database_from(&self, template: &TestDatabase<'_>) -> Result<TestDatabase<'_>, HarnessError> {
        let clause = format!(" TEMPLATE {}", template.name);
        let mut tries = 0;
        loop {
            let mut admin = self.connect("postgres")?;
            admin
                .execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                    &[&template.name],
                )
                .map_err(|e| self.error(format!("cannot end the sessions on {}: {e}", template.name)))?;
            let name = format!("test_{}", self.databases.fetch_add(1, Ordering::Relaxed) + 1);
            match admin.batch_execute(&format!("CREATE DATABASE {name}{clause}")) {
                Ok(()) => return Ok(TestDatabase { server: self, name }),
                Err(e)
                    if e.code() == Some(&postgres::error::SqlState::OBJECT_IN_USE) && tries < TEMPLATE_BUSY_TRIES =>
                {
                    tries += 1;
                }
                Err(e) => return Err(self.error(format!("cannot create the database {name}: {e}"))),
            }
        }
    }

    fn create(&self, clause: &str) -> Result<TestDatabase<'_>, HarnessError> {
        let name = format!("test_{}", self.databases.fetch_add(1, Ordering::Relaxed) + 1);
        let mut admin = self.connect("postgres")?;
        admin
            .batch_execute(&format!("CREATE DATABASE {name}{clause}"))
            .map_err(|e| self.error(format!("cannot create the database {name}: {e}")))?;
        Ok(TestDatabase { server: self, name })
    }

    /// Stops the server (fast shutdown: open sessions are ended) and deletes its directory.
    /// Nothing works on it afterwards; stopping twice does nothing.
    pub fn stop(&self) {
        if let Some(mut process) = self.process.lock().unwrap_or_else(|e| e.into_inner()).take() {
            process.stop(libc::SIGINT, STOP_TIMEOUT);
        }
        drop(self.dir.lock().unwrap_or_else(|e| e.into_inner()).take());
    }

    fn initdb(&self, bin_dir: &Path) -> Result<(), HarnessError> {
        let dir = self.dir_path();
        let password_file = dir.join("password");
        File::options()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&password_file)
            .and_then(|mut file| file.write_all(self.password.as_bytes()))
            .map_err(|e| HarnessError::new(format!("cannot write {}: {e}", password_file.display())))?;
        self.give_to_account(&password_file)?;
        let mut initdb = self.command(&bin_dir.join("initdb"));
        initdb
            .arg("--pgdata")
            .arg(dir.join("data"))
            .args(["--username", SUPERUSER, "--auth", "scram-sha-256", "--encoding", "UTF8", "--locale", "C"])
            .arg(format!("--pwfile={}", password_file.display()))
            .args(["--no-sync", "--no-instructions"]);
        let result = run_logged(initdb, &dir.join("initdb.log"), INITDB_TIMEOUT, "initdb");
        let _ = fs::remove_file(&password_file);
        result
    }

    /// Starts `postgres` and waits until it accepts connections.
    fn launch(&self, bin_dir: &Path) -> Result<(), HarnessError> {
        let dir = self.dir_path();
        let log = File::options()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| HarnessError::new(format!("cannot open {}: {e}", self.log.display())))?;
        let log_too = log.try_clone().map_err(|e| HarnessError::new(format!("cannot share the log file: {e}")))?;
        let mut postgres = self.command(&bin_dir.join("postgres"));
        postgres.arg("-D").arg(dir.join("data")).arg("-p").arg(self.port.to_string());
        // The socket in the cluster's directory (its account's, mode 0700): only that account and
        // root reach it.
        let socket = self.socket_dir().map(|d| d.display().to_string()).unwrap_or_default();
        let sockets = format!("unix_socket_directories={socket}");
        for setting in [
            "listen_addresses=127.0.0.1",
            sockets.as_str(),
            // Tests need no durability against a crash of the machine.
            "fsync=off",
            "synchronous_commit=off",
            "full_page_writes=off",
            // The test binary runs its tests at once on this one server, and some open fifty
            // stores (as fifty processes would): 200 was reached once ("too many clients").
            "max_connections=400",
        ] {
            postgres.arg("-c").arg(setting);
        }
        postgres.stdin(std::process::Stdio::null()).stdout(log).stderr(log_too);
        let process = Kept::spawn(postgres)
            .map_err(|e| HarnessError::new(format!("cannot run {}/postgres: {e}", bin_dir.display())))?;
        *self.process.lock().unwrap_or_else(|e| e.into_inner()) = Some(process);
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Some(status) = self.exit_status() {
                self.process.lock().unwrap_or_else(|e| e.into_inner()).take();
                return Err(self.error(format!("postgres exited while starting ({status})")));
            }
            if self.config("postgres").connect_timeout(Duration::from_secs(2)).connect(postgres::NoTls).is_ok() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                if let Some(mut process) = self.process.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    process.stop(libc::SIGKILL, STOP_TIMEOUT);
                }
                return Err(self.error(format!("postgres did not accept connections within {START_TIMEOUT:?}")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn exit_status(&self) -> Option<std::process::ExitStatus> {
        self.process.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(Kept::exit_status)
    }

    /// A command for one of the server's programs, run in its directory as its account.
    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command.current_dir(self.dir_path()).env_remove("PGDATA").env("LC_ALL", "C");
        if let Some(account) = &self.account {
            account.apply(&mut command);
        }
        command
    }

    fn give_to_account(&self, path: &Path) -> Result<(), HarnessError> {
        match &self.account {
            Some(account) => std::os::unix::fs::chown(path, Some(account.uid), Some(account.gid))
                .map_err(|e| HarnessError::new(format!("cannot give {} to {}: {e}", path.display(), account.name))),
            None => Ok(()),
        }
    }

    fn dir_path(&self) -> PathBuf {
        let dir = self.dir.lock().unwrap_or_else(|e| e.into_inner());
        dir.as_ref().map(|dir| dir.path().to_path_buf()).unwrap_or_default()
    }

    fn log_mentions(&self, needle: &str) -> bool {
        fs::read_to_string(&self.log).is_ok_and(|text| text.contains(needle))
    }

    /// An error followed by the end of the server's log.
    fn error(&self, what: String) -> HarnessError {
        HarnessError::with_log(what, &self.log, LOG_LINES)
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        self.stop();
    }
}

impl std::fmt::Debug for PgServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // No password here.
        f.debug_struct("PgServer").field("port", &self.port).field("log", &self.log).finish_non_exhaustive()
    }
}

/// Stops the shared server when the test binary exits.
extern "C" fn stop_shared() {
    // Nothing may unwind out of an atexit handler.
    let _ = std::panic::catch_unwind(|| {
        if let Some(Ok(server)) = SHARED.get() {
            server.stop();
        }
    });
}

/// A database of its own for one test; dropped with its connections when this is dropped.
pub struct TestDatabase<'a> {
    server: &'a PgServer,
    name: String,
}

impl TestDatabase<'_> {
    /// The database's name (`test_1`, `test_2`, …).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its connection settings, as the superuser.
    pub fn config(&self) -> postgres::Config {
        self.server.config(&self.name)
    }

    /// Its `postgres://` URL, as the superuser. It holds the password: do not log it.
    pub fn url(&self) -> String {
        self.server.url(&self.name)
    }

    /// Its `postgres://` URL through the server's Unix socket ([`PgServer::socket_url`]).
    pub fn socket_url(&self) -> Option<String> {
        self.server.socket_url(&self.name)
    }

    /// A new connection to it.
    pub fn connect(&self) -> Result<postgres::Client, HarnessError> {
        self.server.connect(&self.name)
    }
}

impl Drop for TestDatabase<'_> {
    fn drop(&mut self) {
        if let Ok(mut admin) = self.server.connect("postgres") {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
        }
    }
}

impl std::fmt::Debug for TestDatabase<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestDatabase").field("name", &self.name).field("port", &self.server.port).finish()
    }
}

/// Deletes the directories of servers whose test binary died without cleaning up (the kernel
/// stopped their server; see [`Kept`]).
fn remove_abandoned_dirs(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else { return };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let ours = entry.file_name().to_string_lossy().starts_with(DIR_PREFIX);
        let pid_in = |file: &Path| fs::read_to_string(file).ok()?.lines().next()?.trim().parse::<libc::pid_t>().ok();
        let owner = pid_in(&path.join(OWNER_FILE));
        let postmaster = pid_in(&path.join("data/postmaster.pid"));
        if ours && owner.is_some_and(|pid| !exists(pid)) && postmaster.is_none_or(|pid| !exists(pid)) {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

fn exists(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks whether the process exists (EPERM: it does, not ours).
    unsafe { libc::kill(pid, 0) == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM) }
}

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> Result<u16, HarnessError> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| HarnessError::new(format!("cannot find a free port: {e}")))
}

fn random_hex(len: usize) -> Result<String, HarnessError> {
    let mut bytes = vec![0; len];
    File::open("/dev/urandom")
        .and_then(|mut file| file.read_exact(&mut bytes))
        .map_err(|e| HarnessError::new(format!("cannot read /dev/urandom: {e}")))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_abandoned_directory_is_removed_and_a_live_one_kept() {
        let base = tempfile::tempdir().unwrap();
        let abandoned = base.path().join(format!("{DIR_PREFIX}dead"));
        let live = base.path().join(format!("{DIR_PREFIX}live"));
        let unrelated = base.path().join("something-else");
        for dir in [&abandoned, &live, &unrelated] {
            fs::create_dir(dir).unwrap();
        }
        // A pid that has exited: a child we reaped.
        let mut child = Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        fs::write(abandoned.join(OWNER_FILE), dead.to_string()).unwrap();
        fs::write(live.join(OWNER_FILE), std::process::id().to_string()).unwrap();
        fs::write(unrelated.join(OWNER_FILE), dead.to_string()).unwrap();
        remove_abandoned_dirs(base.path());
        assert!(!abandoned.exists());
        assert!(live.exists() && unrelated.exists());
    }
}
