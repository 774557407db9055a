//! One running Synapse: its data directory, its process, and what tests do to it (register users,
//! stop, restart, pause).

use std::fs::{self, File};
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::config::{self, ServerConfig};
use crate::database::Database;
use crate::error::HarnessError;
use crate::install::{ensure_installed, ensure_postgres_driver};
use crate::process::{signal, wait_bounded};
use crate::register::{RegisteredUser, hex, registration_mac};

/// How long Synapse may take to answer `/_matrix/client/versions` after being launched.
const START_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a graceful stop may take before the process is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);
/// The limit on one admin API request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How many log lines an error shows.
const LOG_LINES: usize = 60;
/// Launch attempts when the chosen port turns out to be taken.
const PORT_ATTEMPTS: usize = 3;

/// A Synapse home server on 127.0.0.1 with its own data in a temporary directory. It stops when
/// dropped; the directory is deleted unless `SYNAPSE_HARNESS_KEEP` is set, in which case its path
/// is printed.
///
/// ```no_run
/// let synapse = synapse_harness::Synapse::start()?;
/// let bot = synapse.register_user("bot", false)?;
/// println!("{} at {}", bot.user_id, synapse.homeserver_url());
/// # Ok::<(), synapse_harness::HarnessError>(())
/// ```
pub struct Synapse {
    dir: Option<TempDir>,
    data_dir: PathBuf,
    port: u16,
    python: PathBuf,
    database: Database,
    shared_secret: String,
    child: Option<Child>,
    paused: bool,
    agent: ureq::Agent,
    /// The access token of the harness's own administrator, registered on first need.
    admin_token: std::sync::Mutex<Option<String>>,
}

/// What a caller may change in the server the harness starts; the [`Default`] is the harness's own
/// (SQLite, push off).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Where Synapse keeps its data.
    pub database: Database,
    /// Push rules evaluated and notifications counted for the members of a room, as a homeserver
    /// of people has them; the harness turns them off otherwise (`docs/scale.md`, "A tuned
    /// Synapse").
    pub push: bool,
}

/// The local part of the administrator the harness registers for its admin API calls.
const ADMIN_LOCALPART: &str = "synapse-harness-admin";

impl Synapse {
    /// The server name: user ids are `@name:localhost`.
    pub const SERVER_NAME: &'static str = "localhost";

    /// Installs Synapse if needed (see [`ensure_installed`]), writes a fresh configuration and
    /// signing key into a new temporary directory, launches it on a free port and waits until it
    /// answers. Its database is a SQLite file in that directory.
    pub fn start() -> Result<Synapse, HarnessError> {
        Self::start_on(Database::Sqlite)
    }

    /// [`start`](Self::start) with its data in `database`: on PostgreSQL, the database must be
    /// empty (or a previous Synapse's) and `psycopg2` is installed first if needed
    /// ([`ensure_postgres_driver`]).
    pub fn start_on(database: Database) -> Result<Synapse, HarnessError> {
        Self::start_with(Settings { database, ..Settings::default() })
    }

    /// [`start`](Self::start) with the caller's [`Settings`] (a database, push on).
    pub fn start_with(settings: Settings) -> Result<Synapse, HarnessError> {
        Self::start_trying(settings, None)
    }

    /// [`start_on`](Self::start_on), its first try on `port` instead of a free one: what happens
    /// when two harnesses are given one port at once (for the harness's own tests).
    pub fn start_trying_port(database: Database, port: u16) -> Result<Synapse, HarnessError> {
        Self::start_trying(Settings { database, ..Settings::default() }, Some(port))
    }

    fn start_trying(settings: Settings, first_port: Option<u16>) -> Result<Synapse, HarnessError> {
        let Settings { database, push } = settings;
        let python = match database {
            Database::Sqlite => ensure_installed()?,
            Database::Postgres(_) => ensure_postgres_driver()?,
        };
        let base = std::env::var_os("SYNAPSE_HARNESS_TMPDIR")
            .map(PathBuf::from)
            .or_else(|| {
                // A tmpfs makes SQLite's fsyncs free.
                let shm = Path::new("/dev/shm");
                shm.is_dir().then(|| shm.to_path_buf())
            })
            .unwrap_or_else(std::env::temp_dir);
        let dir = tempfile::Builder::new()
            .prefix("synapse-harness-")
            .tempdir_in(&base)
            .map_err(|e| HarnessError::new(format!("cannot create a directory in {base:?}: {e}")))?;
        let data_dir = dir.path().to_path_buf();
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(REQUEST_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        let mut synapse = Synapse {
            dir: Some(dir),
            data_dir,
            port: 0,
            python,
            database,
            shared_secret: random_hex(16)?,
            child: None,
            paused: false,
            agent,
            admin_token: std::sync::Mutex::new(None),
        };
        let signing_key = base64::engine::general_purpose::STANDARD_NO_PAD.encode(random(32)?);
        synapse.write(config::SIGNING_KEY_FILE, &format!("ed25519 a_test {signing_key}\n"))?;
        let (macaroon_secret, form_secret) = (random_hex(16)?, random_hex(16)?);
        for attempt in 1..=PORT_ATTEMPTS {
            synapse.port = match first_port {
                Some(port) if attempt == 1 => port,
                _ => free_port()?,
            };
            let config = ServerConfig {
                server_name: Self::SERVER_NAME,
                port: synapse.port,
                data_dir: &synapse.data_dir,
                shared_secret: &synapse.shared_secret,
                macaroon_secret: &macaroon_secret,
                form_secret: &form_secret,
                database: &synapse.database,
                push,
            };
            synapse.write(config::CONFIG_FILE, &config.homeserver_yaml())?;
            synapse.write(config::LOG_CONFIG_FILE, &config.log_yaml())?;
            match synapse.launch() {
                Ok(()) => return Ok(synapse),
                // Another process took the port between our probe and Synapse's bind.
                Err(_) if attempt < PORT_ATTEMPTS && synapse.log_mentions("Address already in use") => {}
                Err(e) => return Err(e),
            }
        }
        unreachable!("the last attempt returns")
    }

    /// The client-server API's base URL, e.g. `http://127.0.0.1:34567`.
    pub fn homeserver_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The port it listens on; the same after [`restart`](Self::restart).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Where it keeps its data.
    pub fn database(&self) -> &Database {
        &self.database
    }

    /// The temporary directory with its configuration, database (on SQLite), media and logs.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Synapse's own log.
    pub fn log_path(&self) -> PathBuf {
        self.data_dir.join(config::LOG_FILE)
    }

    /// The last `lines` lines of Synapse's log and of its standard output and error.
    pub fn log_tail(&self, lines: usize) -> String {
        HarnessError::with_logs("", &self.log_files(), lines).to_string().trim_start().to_string()
    }

    /// Registers a user with a generated password through the shared-secret admin API, without
    /// logging it in (it has no device until a client logs in), and exempts it from the limit on
    /// sending events (see [`use_default_message_limit`](Self::use_default_message_limit)).
    pub fn register_user(&self, localpart: &str, admin: bool) -> Result<RegisteredUser, HarnessError> {
        let (user, _) = self.register(localpart, admin, true)?;
        self.exempt_from_message_limit(&user.user_id)?;
        Ok(user)
    }

    /// Exempts a user from Synapse's limit on sending events (`rc_message`), as an operator
    /// exempts a bot: `POST /_synapse/admin/v1/users/<user_id>/override_ratelimit` with zeros.
    pub fn exempt_from_message_limit(&self, user_id: &str) -> Result<(), HarnessError> {
        let body = json!({ "messages_per_second": 0, "burst_count": 0 });
        self.admin_request("POST", user_id, Some(&body), &format!("exempting {user_id} from rate limits"))
    }

    /// Puts a user back under Synapse's default limit on sending events (about one event every five
    /// seconds with a burst of ten, `rc_message`), as on a server whose operator exempted nobody:
    /// the user's override is deleted. Synapse drops its cached override at once.
    pub fn use_default_message_limit(&self, user_id: &str) -> Result<(), HarnessError> {
        self.admin_request("DELETE", user_id, None, &format!("restoring the default rate limit of {user_id}"))
    }

    /// One call to a user's `override_ratelimit` admin endpoint.
    fn admin_request(&self, method: &str, user_id: &str, body: Option<&Value>, what: &str) -> Result<(), HarnessError> {
        let token = self.admin_token()?;
        let url =
            format!("{}/_synapse/admin/v1/users/{}/override_ratelimit", self.homeserver_url(), encode_path(user_id));
        let auth = format!("Bearer {token}");
        let answer = match (method, body) {
            ("POST", Some(body)) => self.agent.post(&url).header("Authorization", &auth).send_json(body),
            _ => self.agent.delete(&url).header("Authorization", &auth).call(),
        };
        self.request_json(answer, what).map(|_| ())
    }

    /// The harness administrator's access token, registering it (logged in) on first use.
    fn admin_token(&self) -> Result<String, HarnessError> {
        let mut token = self.admin_token.lock().map_err(|_| HarnessError::new("the admin token's lock is poisoned"))?;
        if let Some(token) = token.as_ref() {
            return Ok(token.clone());
        }
        let (_, answer) = self.register(ADMIN_LOCALPART, true, false)?;
        let fresh = answer["access_token"]
            .as_str()
            .ok_or_else(|| self.error("registering the harness administrator: no access token".into()))?
            .to_string();
        *token = Some(fresh.clone());
        Ok(fresh)
    }

    /// Registers through the shared-secret admin API; `inhibit_login` false also logs the user in
    /// (its access token is in the returned answer).
    fn register(
        &self,
        localpart: &str,
        admin: bool,
        inhibit_login: bool,
    ) -> Result<(RegisteredUser, Value), HarnessError> {
        let url = format!("{}/_synapse/admin/v1/register", self.homeserver_url());
        let nonce = self.request_json(self.agent.get(&url).call(), "fetching a registration nonce")?;
        let nonce = nonce["nonce"]
            .as_str()
            .ok_or_else(|| self.error(format!("the registration nonce answer has no nonce: {nonce}")))?;
        let password = format!("{localpart}-{}", random_hex(8)?);
        let body = json!({
            "nonce": nonce,
            "username": localpart,
            "password": password,
            "admin": admin,
            // No device unless asked: the user's only devices are those its clients log in with.
            "inhibit_login": inhibit_login,
            "mac": registration_mac(&self.shared_secret, nonce, localpart, &password, admin),
        });
        let what = format!("registering {localpart}");
        let answer = self.request_json(self.agent.post(&url).send_json(&body), &what)?;
        let user_id =
            answer["user_id"].as_str().ok_or_else(|| self.error(format!("{what}: no user_id in {answer}")))?;
        let user = RegisteredUser { localpart: localpart.to_string(), user_id: user_id.to_string(), password };
        Ok((user, answer))
    }

    /// Registers several ordinary users, e.g. `["bot", "alice", "bob"]`.
    pub fn register_users(&self, localparts: &[&str]) -> Result<Vec<RegisteredUser>, HarnessError> {
        localparts.iter().map(|localpart| self.register_user(localpart, false)).collect()
    }

    /// Whether the process is running (possibly paused).
    pub fn is_running(&mut self) -> bool {
        self.child.as_mut().is_some_and(|child| matches!(child.try_wait(), Ok(None)))
    }

    /// Stops Synapse: SIGTERM, then SIGKILL if it has not exited within 10 s. Stopping a stopped
    /// server does nothing.
    pub fn stop(&mut self) -> Result<(), HarnessError> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        if std::mem::take(&mut self.paused) {
            let _ = signal(&child, libc::SIGCONT);
        }
        if matches!(child.try_wait(), Ok(None)) {
            let _ = signal(&child, libc::SIGTERM);
        }
        match wait_bounded(&mut child, STOP_TIMEOUT) {
            Ok(Some(_)) => Ok(()),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                Ok(())
            }
            Err(e) => Err(self.error(format!("waiting for Synapse to stop: {e}"))),
        }
    }

    /// Kills Synapse with SIGKILL, as a crash would.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.paused = false;
    }

    /// Starts a stopped Synapse again on the same port with the same data, and waits until it
    /// answers. Does nothing if it is running.
    pub fn start_again(&mut self) -> Result<(), HarnessError> {
        if self.is_running() {
            return Ok(());
        }
        self.child = None;
        self.launch()
    }

    /// [`stop`](Self::stop) then [`start_again`](Self::start_again): Synapse restarted mid-test.
    pub fn restart(&mut self) -> Result<(), HarnessError> {
        self.stop()?;
        self.start_again()
    }

    /// Makes Synapse forget the transaction ids of every event sent so far, as it does by itself a
    /// day later: with the process stopped, the mappings it keeps in its database
    /// (`event_txn_id_device_id`, whose rows its own cleanup deletes once they are 24 hours old) are
    /// deleted, and its cache in memory (30 to 60 minutes) goes with the restart. A `PUT /send`
    /// repeated afterwards with an old transaction id makes a new event. Returns how many mappings
    /// were forgotten.
    pub fn forget_transaction_ids(&mut self) -> Result<u64, HarnessError> {
        self.stop()?;
        let forgotten = self.query_number("DELETE FROM event_txn_id_device_id")?;
        self.start_again()?;
        Ok(forgotten)
    }

    /// One number out of Synapse's database, running or stopped: the first column of the first row
    /// `sql` gives (`SELECT count(*) FROM event_push_actions`), or the rows it changed. The
    /// statement runs in a transaction of its own through the harness's Python (`sqlite3`, or
    /// `psycopg2` with the connection in libpq's environment: no password on a command line).
    pub fn query_number(&self, sql: &str) -> Result<u64, HarnessError> {
        let run = "cursor = db.cursor()\n\
                   cursor.execute(sys.argv[1])\n\
                   print(cursor.fetchone()[0] if cursor.description else cursor.rowcount)\n\
                   db.commit()\n";
        let mut command = Command::new(&self.python);
        match &self.database {
            Database::Sqlite => {
                let script = format!("import sqlite3, sys\ndb = sqlite3.connect(sys.argv[2], timeout=30)\n{run}");
                command.arg("-c").arg(script).arg(sql).arg(self.data_dir.join(config::DATABASE_FILE));
            }
            Database::Postgres(pg) => {
                let script = format!("import psycopg2, sys\ndb = psycopg2.connect('')\n{run}");
                command.arg("-c").arg(script).arg(sql).envs(pg.libpq_env());
            }
        }
        let output = command.output().map_err(|e| self.error(format!("cannot run {}: {e}", self.python.display())))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        match stdout.trim().parse() {
            Ok(number) if output.status.success() => Ok(number),
            _ => Err(self.error(format!("{sql}: {}{}", String::from_utf8_lossy(&output.stderr).trim(), stdout.trim()))),
        }
    }

    /// The process id of the running server (its processor time is in `/proc/PID/stat`, all its
    /// threads together); `None` while it is stopped.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Freezes the process (SIGSTOP): connections stay open but nothing answers, as with a hung
    /// server.
    pub fn pause(&mut self) -> Result<(), HarnessError> {
        self.send_signal(libc::SIGSTOP, "pause")?;
        self.paused = true;
        Ok(())
    }

    /// Lets a paused process go on (SIGCONT).
    pub fn resume(&mut self) -> Result<(), HarnessError> {
        self.send_signal(libc::SIGCONT, "resume")?;
        self.paused = false;
        Ok(())
    }

    fn send_signal(&self, sig: libc::c_int, what: &str) -> Result<(), HarnessError> {
        let child = self
            .child
            .as_ref()
            .ok_or_else(|| HarnessError::new(format!("cannot {what} Synapse: it is not running")))?;
        signal(child, sig).map_err(|e| self.error(format!("cannot {what} Synapse: {e}")))
    }

    /// Launches the process and waits until the client API answers.
    fn launch(&mut self) -> Result<(), HarnessError> {
        let output = File::options()
            .create(true)
            .append(true)
            .open(self.data_dir.join(config::OUTPUT_FILE))
            .map_err(|e| self.error(format!("cannot open Synapse's output file: {e}")))?;
        let stderr = output.try_clone().map_err(|e| self.error(format!("cannot share Synapse's output file: {e}")))?;
        let child = Command::new(&self.python)
            .args(["-m", "synapse.app.homeserver", "--config-path"])
            .arg(self.data_dir.join(config::CONFIG_FILE))
            .current_dir(&self.data_dir)
            .stdin(Stdio::null())
            .stdout(output)
            .stderr(stderr)
            .spawn()
            .map_err(|e| self.error(format!("cannot run {}: {e}", self.python.display())))?;
        self.child = Some(child);
        let deadline = Instant::now() + START_TIMEOUT;
        let url = format!("{}/_matrix/client/versions", self.homeserver_url());
        // Ready when this process says it listens on the port (in what it logged since it was
        // started) and the port answers: another Synapse holding the port (two harnesses given one
        // free port at once) would answer the probe too, with another registration secret.
        let (log, logged_before) = (self.log_path(), fs::metadata(self.log_path()).map_or(0, |m| m.len()));
        let listening = format!("Synapse now listening on TCP port {}", self.port);
        let says_listening = || {
            fs::read(&log).is_ok_and(|bytes| {
                let since = bytes.get(logged_before as usize..).unwrap_or_default();
                String::from_utf8_lossy(since).contains(&listening)
            })
        };
        let probe: ureq::Agent =
            ureq::Agent::config_builder().timeout_global(Some(Duration::from_secs(2))).build().into();
        loop {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                self.child = None;
                return Err(self.error(format!("Synapse exited while starting ({status})")));
            }
            if says_listening() && probe.get(&url).call().is_ok() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                self.kill();
                return Err(self.error(format!("Synapse did not answer {url} within {START_TIMEOUT:?}")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The JSON body of a successful admin API answer.
    fn request_json(
        &self,
        answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        what: &str,
    ) -> Result<Value, HarnessError> {
        let mut answer = answer.map_err(|e| self.error(format!("{what}: {e}")))?;
        let status = answer.status();
        let body =
            answer.body_mut().read_to_string().map_err(|e| self.error(format!("{what}: reading the answer: {e}")))?;
        if !status.is_success() {
            return Err(self.error(format!("{what}: HTTP {status}: {body}")));
        }
        serde_json::from_str(&body).map_err(|e| self.error(format!("{what}: {e} in {body}")))
    }

    fn write(&self, name: &str, contents: &str) -> Result<(), HarnessError> {
        let path = self.data_dir.join(name);
        fs::write(&path, contents).map_err(|e| HarnessError::new(format!("cannot write {}: {e}", path.display())))
    }

    fn log_files(&self) -> [PathBuf; 2] {
        [self.log_path(), self.data_dir.join(config::OUTPUT_FILE)]
    }

    fn log_mentions(&self, needle: &str) -> bool {
        self.log_files().iter().any(|path| fs::read_to_string(path).is_ok_and(|text| text.contains(needle)))
    }

    /// An error carrying the tail of Synapse's logs.
    fn error(&self, what: String) -> HarnessError {
        HarnessError::with_logs(what, &self.log_files(), LOG_LINES)
    }
}

impl Drop for Synapse {
    fn drop(&mut self) {
        let _ = self.stop();
        if std::env::var_os("SYNAPSE_HARNESS_KEEP").is_some()
            && let Some(dir) = self.dir.take()
        {
            eprintln!("synapse-harness: kept {}", dir.keep().display());
        }
    }
}

/// A user id as one path segment (`@` and `:` percent-encoded).
fn encode_path(segment: &str) -> String {
    percent_encoding::utf8_percent_encode(segment, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> Result<u16, HarnessError> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| HarnessError::new(format!("cannot find a free port: {e}")))
}

fn random(len: usize) -> Result<Vec<u8>, HarnessError> {
    let mut bytes = vec![0; len];
    File::open("/dev/urandom")
        .and_then(|mut file| file.read_exact(&mut bytes))
        .map_err(|e| HarnessError::new(format!("cannot read /dev/urandom: {e}")))?;
    Ok(bytes)
}

fn random_hex(len: usize) -> Result<String, HarnessError> {
    random(len).map(|bytes| hex(&bytes))
}
